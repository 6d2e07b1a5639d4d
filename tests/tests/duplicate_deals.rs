//! The simulation behind duplicate deals: the same SPRT head-to-head, Twenty-Two's heuristic
//! against a diluted copy of itself (the random bot's move a tenth of the time) at a two-seat
//! table, decided over many independent runs, needs fewer matches when each deal is played in
//! both seatings (a hosted ladder's `duplicate = true`) than when every match has its own deal.
#![allow(clippy::unwrap_used)]

use cardroom_example_bots::random::RandomBot;
use cardroom_example_bots::tt_heuristic::TtHeuristic;
use cardroom_rank::duplicate::{derive_seed, rotations};
use cardroom_rank::pairwise::set_score;
use cardroom_rank::sprt::Sprt;
use cardroom_rank::{SprtConfig, SprtDecision};
use cardroom_sdk::games::twenty_two;
use cardroom_sdk::{Bot, play_local};
use rand::{RngExt, SeedableRng};

/// A test gives up undecided after this many sets.
const MAX_SETS: u64 = 2_000;

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

/// Matches the SPRT needed, and whether it found the heuristic stronger: sets of the two
/// seatings, played in process, each set one sample (the heuristic's paired score), as a
/// hosted ladder's SPRT counts them.
fn decide(duplicate: bool, seed: u64) -> (u64, bool) {
    let mut test = Sprt::new(SprtConfig { elo0: 0.0, elo1: 60.0, ..SprtConfig::default() });
    let mut played = 0;
    for set in 0..MAX_SETS {
        let deal = derive_seed(seed, set);
        let mut places = Vec::new();
        for (j, seating) in rotations(2, None).into_iter().enumerate() {
            // Bot 0 is the heuristic, bot 1 the diluted copy; `seating[seat]` is the bot there.
            let match_seed = if duplicate { deal } else { derive_seed(deal, j as u64 + 1) };
            let state =
                twenty_two::State::new(twenty_two::Options::default(), 2, match_seed).unwrap();
            let mut bots: Vec<Box<dyn Bot<twenty_two::State>>> = seating
                .iter()
                .map(|&bot| -> Box<dyn Bot<twenty_two::State>> {
                    if bot == 0 {
                        Box::new(TtHeuristic::new())
                    } else {
                        Box::new(Diluted {
                            heuristic: TtHeuristic::new(),
                            random: RandomBot::new(match_seed),
                            coin: rand_chacha::ChaCha8Rng::seed_from_u64(match_seed ^ 1),
                        })
                    }
                })
                .collect();
            let standings = play_local(state, &mut bots).unwrap();
            played += 1;
            places.push(
                standings
                    .iter()
                    .map(|s| (seating[usize::from(s.seat.0)], s.place))
                    .collect::<Vec<(usize, u8)>>(),
            );
        }
        if let Some(score) = set_score(places.iter().map(Vec::as_slice), 0, 1) {
            test.add(score);
        }
        if test.decision() != SprtDecision::Continue {
            break;
        }
    }
    (played, test.decision() == SprtDecision::AcceptH1)
}

#[test]
fn duplicate_deals_decide_in_fewer_matches() {
    let runs = 60;
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
    // Every seed is fixed: the same numbers on every run. Measured: duplicate 6,082 matches
    // (55 of 60 right), independent 7,592 (60 of 60).
    let right = runs as u32 * 85 / 100;
    assert!(dup_right >= right && ind_right >= right, "the heuristic is the stronger");
    assert!(dup_matches < ind_matches, "duplicate {dup_matches} >= independent {ind_matches}");
}
