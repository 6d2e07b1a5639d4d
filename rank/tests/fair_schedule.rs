//! The fair adaptive schedule ([`cardroom_rank::fair`]) in simulated ladders of bots of
//! different speeds: fast bots answer at once, slow ones take 200 ms a decision. Each ladder
//! runs as a hosted ladder does (a bot plays one match at a time, a set's two seatings one after
//! the other, a table that waits for a busy bot waits at most [`WAIT_MS`], then its set is
//! void and that bot is passed over until it is free), on the real evidence and settlement
//! code, for ten simulated minutes. The goals:
//!
//! - every bot's rated sets are within 2x of the median bot's;
//! - while any pair is open, no settled pair gets more than 10% of the matches.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use cardroom_rank::MatchOutcome;
use cardroom_rank::fair::{BotNow, fair_table};
use cardroom_rank::settle::SetEvidence;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Decisions each seat takes in a match (a Gin Rummy match to 100 points takes about this).
const DECISIONS: u64 = 40;

/// How long a table waits for a busy bot.
const WAIT_MS: u64 = 30_000;

/// A simulated bot: its strength (Elo) and its time a decision.
#[derive(Clone, Copy)]
struct SimBot {
    elo: f64,
    think_ms: f64,
}

const FAST: f64 = 0.05;
const SLOW: f64 = 200.0;

/// A planned set: its two bots, matches still to play, when it was planned, its results.
struct Set {
    bots: [usize; 2],
    to_play: u32,
    running: bool,
    planned_ms: u64,
    started: bool,
    outcomes: Vec<MatchOutcome>,
}

/// What a simulated ladder did.
struct Run {
    /// Rated sets by bot.
    sets: Vec<u64>,
    /// Matches started while the order had an open pair, by pair (settled at the time).
    settled_matches: BTreeMap<(usize, usize), u64>,
    /// Matches started while the order had an open pair.
    open_time_matches: u64,
}

fn simulate(bots: &[SimBot], seed: u64, minutes: u64) -> Run {
    let n = bots.len();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut evidence = SetEvidence::new(n);
    let mut rated = vec![0u64; n];
    let mut busy = vec![false; n];
    let mut passed_over = vec![false; n];
    let mut sets: Vec<Set> = Vec::new();
    // Match ends: (time, set index).
    let mut ends: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let mut run = Run { sets: vec![], settled_matches: BTreeMap::new(), open_time_matches: 0 };
    let end_ms = minutes * 60_000;
    let mut now = 0u64;
    loop {
        // Void what waited too long for a busy bot; that bot is passed over until it is free.
        for set in sets.iter_mut().filter(|s| s.to_play > 0 && !s.started && !s.running) {
            if now.saturating_sub(set.planned_ms) > WAIT_MS {
                for &bot in &set.bots {
                    if busy[bot] {
                        passed_over[bot] = true;
                    }
                }
                set.to_play = 0;
            }
        }
        let settlement = evidence.settlement(2, 0.05);
        // Plan while something can be planned.
        loop {
            let held: Vec<bool> = (0..n)
                .map(|b| sets.iter().any(|s| s.to_play > 0 && !s.running && s.bots.contains(&b)))
                .collect();
            let state: Vec<BotNow> = (0..n)
                .map(|b| match (held[b], busy[b], passed_over[b]) {
                    (true, _, _) => BotNow::Held,
                    (false, false, _) => BotNow::Free,
                    (false, true, false) => BotNow::Busy,
                    (false, true, true) => BotNow::Away,
                })
                .collect();
            let in_flight: Vec<u64> = (0..n)
                .map(|b| {
                    rated[b]
                        + sets.iter().filter(|s| s.to_play > 0 && s.bots.contains(&b)).count()
                            as u64
                })
                .collect();
            let open = &settlement.open;
            let Some(table) = fair_table(evidence.pairs(), open, &state, &in_flight, 2) else {
                break;
            };
            sets.push(Set {
                bots: [table[0], table[1]],
                to_play: 2,
                running: false,
                planned_ms: now,
                started: false,
                outcomes: Vec::new(),
            });
        }
        // Start every planned match whose bots are free, oldest set first.
        for (i, set) in sets.iter_mut().enumerate() {
            if set.to_play == 0 || set.running || set.bots.iter().any(|&b| busy[b]) {
                continue;
            }
            set.running = true;
            set.started = true;
            for &b in &set.bots {
                busy[b] = true;
                passed_over[b] = false;
            }
            let [a, b] = set.bots;
            if !settlement.open.is_empty() {
                run.open_time_matches += 1;
                let open =
                    settlement.open.iter().any(|&(x, y, _)| (x, y) == (a, b) || (x, y) == (b, a));
                if !open {
                    *run.settled_matches.entry((a.min(b), a.max(b))).or_default() += 1;
                }
            }
            let took = DECISIONS as f64 * (bots[a].think_ms + bots[b].think_ms) + 1.0;
            ends.push(Reverse((now + took as u64, i)));
        }
        let Some(Reverse((at, i))) = ends.pop() else { break };
        now = at;
        if now > end_ms {
            break;
        }
        let set = &mut sets[i];
        set.running = false;
        set.to_play -= 1;
        let [a, b] = set.bots;
        busy[a] = false;
        busy[b] = false;
        let p = 1.0 / (1.0 + 10f64.powf((bots[b].elo - bots[a].elo) / 400.0));
        let a_wins = rng.random::<f64>() < p;
        let places = if a_wins { vec![(a, 1), (b, 2)] } else { vec![(a, 2), (b, 1)] };
        set.outcomes.push(MatchOutcome { places, health: Vec::new(), decisions: 0 });
        if set.to_play == 0 {
            evidence.add_set(&set.outcomes);
            rated[a] += 1;
            rated[b] += 1;
        }
    }
    run.sets = rated;
    run
}

/// The median of `values` (the mean of the middle two of an even count).
fn median(values: &[u64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    if n % 2 == 1 { sorted[n / 2] as f64 } else { (sorted[n / 2 - 1] + sorted[n / 2]) as f64 / 2.0 }
}

fn assert_within_twice_the_median(run: &Run, what: &str) {
    let median = median(&run.sets);
    for (bot, &sets) in run.sets.iter().enumerate() {
        let ratio = sets as f64 / median;
        assert!(
            (0.5..=2.0).contains(&ratio),
            "{what}: bot {bot} has {sets} rated sets, the median {median}: {:?}",
            run.sets
        );
    }
}

fn assert_settled_pairs_get_at_most_a_tenth(run: &Run, what: &str) {
    for (pair, &matches) in &run.settled_matches {
        let share = matches as f64 / run.open_time_matches.max(1) as f64;
        assert!(
            share <= 0.10,
            "{what}: settled pair {pair:?} got {matches} of {} matches ({:.1}%)",
            run.open_time_matches,
            share * 100.0
        );
    }
}

#[test]
fn equal_bots_of_two_speeds_each_play_their_share() {
    let fast = SimBot { elo: 0.0, think_ms: FAST };
    let slow = SimBot { elo: 0.0, think_ms: SLOW };
    for seed in 0..3 {
        let run = simulate(&[fast, fast, slow, slow], seed, 10);
        assert_within_twice_the_median(&run, &format!("seed {seed}"));
        assert!(run.sets.iter().all(|&s| s >= 10), "{:?}", run.sets);
    }
}

#[test]
fn settled_fast_pairs_do_not_fill_the_time_of_an_open_slow_one() {
    // Six bots: a strong and a weak fast bot, whose pairs settle at once, and four of middle
    // strength (two fast, two slow) whose pairs stay open.
    let bot = |elo: f64, think_ms: f64| SimBot { elo, think_ms };
    let bots = [
        bot(600.0, FAST),
        bot(-600.0, FAST),
        bot(0.0, FAST),
        bot(0.0, FAST),
        bot(0.0, SLOW),
        bot(0.0, SLOW),
    ];
    for seed in 0..3 {
        let run = simulate(&bots, seed, 10);
        let what = format!("seed {seed}");
        assert_within_twice_the_median(&run, &what);
        assert_settled_pairs_get_at_most_a_tenth(&run, &what);
        assert!(run.open_time_matches > 100, "{what}: {}", run.open_time_matches);
    }
}
