//! The simulation behind duplicate deals: the same SPRT head-to-head, Twenty-Two's heuristic
//! against a diluted copy of itself (the random bot's move a tenth of the time) at a two-seat
//! table, decided over many independent runs, needs fewer
//! matches when each deal is played in both seatings than when every match has its own deal.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use cardroom_arena::{BotMaker, Format, Ladder, Settings, Store, run};
use cardroom_example_bots::random::RandomBot;
use cardroom_example_bots::tt_heuristic::TtHeuristic;
use cardroom_rank::{RatingSystem, SprtConfig, SprtDecision};
use cardroom_sdk::Bot;
use cardroom_sdk::games::twenty_two;
use rand::{RngExt, SeedableRng};

/// How often the diluted heuristic plays a random move.
const DILUTION: f64 = 0.1;

/// The random bot's move with probability [`DILUTION`], the heuristic's otherwise: close enough
/// to the heuristic that telling them apart takes hundreds of matches (the plain random bot
/// loses nearly every match, so any test decides it at once).
struct Diluted {
    heuristic: TtHeuristic,
    random: RandomBot,
    coin: rand_chacha::ChaCha8Rng,
}

impl Bot<twenty_two::State> for Diluted {
    fn choose(&mut self, observation: &twenty_two::Observation) -> twenty_two::Action {
        if self.coin.random_bool(DILUTION) {
            Bot::<twenty_two::State>::choose(&mut self.random, observation)
        } else {
            self.heuristic.choose(observation)
        }
    }
}

/// Matches the SPRT needed, and whether it found the heuristic stronger.
fn decide(duplicate: bool, seed: u64) -> (u64, bool) {
    let heuristic: BotMaker<twenty_two::State> = Arc::new(|_| Box::new(TtHeuristic::new()));
    let random: BotMaker<twenty_two::State> = Arc::new(|seed| {
        Box::new(Diluted {
            heuristic: TtHeuristic::new(),
            random: RandomBot::new(seed),
            coin: rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 1),
        })
    });
    let ladder = Ladder {
        settings: Settings {
            table: 2,
            seed,
            duplicate,
            max_rotations: None,
            format: Format::Sprt {
                a: "tt".into(),
                b: "diluted".into(),
                sprt: SprtConfig { elo0: 0.0, elo1: 60.0, ..SprtConfig::default() },
                max_sets: 2_000,
            },
            rating: RatingSystem::WengLin,
        },
        bots: vec![("tt".into(), heuristic), ("diluted".into(), random)],
        new_match: Arc::new(|seed| {
            twenty_two::State::new(twenty_two::Options::default(), 2, seed)
                .map_err(|e| e.to_string())
        }),
        parallel: 2,
    };
    let mut store = Store::in_memory().unwrap();
    let summary = run(&ladder, &mut store, &mut |_| {}).unwrap();
    (summary.played, summary.sprt.map(|t| t.decision()) == Some(SprtDecision::AcceptH1))
}

#[test]
fn duplicate_deals_decide_in_fewer_matches() {
    let runs = 12;
    let (mut dup_matches, mut dup_right) = (0, 0);
    let (mut ind_matches, mut ind_right) = (0, 0);
    for seed in 0..runs {
        let (n, right) = decide(true, seed);
        dup_matches += n;
        dup_right += u32::from(right);
        let (n, right) = decide(false, 100 + seed);
        ind_matches += n;
        ind_right += u32::from(right);
    }
    println!(
        "duplicate: {dup_matches} matches, {dup_right}/{runs} right; \
         independent: {ind_matches} matches, {ind_right}/{runs} right"
    );
    // Measured: duplicate 1,142 matches (12 of 12 right), independent 1,934 (11 of 12).
    assert!(dup_right >= 11 && ind_right >= 10, "the heuristic is the stronger");
    assert!(dup_matches < ind_matches, "duplicate {dup_matches} >= independent {ind_matches}");
}
