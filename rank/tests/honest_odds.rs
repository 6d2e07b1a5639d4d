//! The standings' "how sure that A is better than B" stays honest under continuous watching:
//! among bots of equal strength, fewer than 5% of ladders ever show a pair at 0.975 or more,
//! however often the table is redrawn (here after every set). The normal approximation the
//! pages printed before, looked at the same way, does show one in most ladders: the check has
//! teeth.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use cardroom_rank::MatchOutcome;
use cardroom_rank::settle::SetEvidence;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Ladders simulated per table size.
const LADDERS: u64 = 300;

/// Sets each ladder plays, the standings looked at after every one (a 12-second watch of a
/// standing ladder of four quick bots saw 100 to 200).
const SETS: usize = 200;

/// How many ladders of four equal bots at tables of `seats` ever show a pair at `level` or
/// more: by the standings' confidence, and by the normal approximation of the mean score.
fn ladders_showing(seats: usize, level: f64) -> (u64, u64) {
    let (mut honest, mut normal) = (0, 0);
    for seed in 0..LADDERS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut evidence = SetEvidence::new(4);
        let (mut seen_honest, mut seen_normal) = (false, false);
        for _ in 0..SETS {
            // A table of `seats` of the four, every seating of one deal: places at random, as
            // between bots of equal strength (a tie now and then).
            let mut bots: Vec<usize> = (0..4).collect();
            bots.shuffle(&mut rng);
            let table = &bots[..seats];
            let set: Vec<MatchOutcome> = (0..seats)
                .map(|_| {
                    let mut places: Vec<u8> = (1..=seats as u8).collect();
                    places.shuffle(&mut rng);
                    if rng.random::<f64>() < 0.05 {
                        places[1] = places[0];
                    }
                    let places = table.iter().copied().zip(places).collect();
                    MatchOutcome { places, health: Vec::new(), decisions: 0 }
                })
                .collect();
            evidence.add_set(&set);
            let settlement = evidence.settlement(seats, 0.05);
            let pairs = evidence.pairs();
            for a in 0..4 {
                for b in 0..4 {
                    if a == b {
                        continue;
                    }
                    seen_honest |= settlement.p_better[a][b] >= level;
                    seen_normal |= pairs.tally(a, b).p_better(0.0) >= level;
                }
            }
        }
        honest += u64::from(seen_honest);
        normal += u64::from(seen_normal);
    }
    (honest, normal)
}

#[test]
fn equal_bots_rarely_ever_look_apart_at_two_and_three_seats() {
    for seats in [2, 3] {
        let (honest, normal) = ladders_showing(seats, 0.975);
        let share = honest as f64 / LADDERS as f64;
        assert!(
            share < 0.05,
            "{seats} seats: {honest} of {LADDERS} ladders of equal bots showed a pair at 0.975"
        );
        // The normal approximation, watched the same way, shows one in most of them.
        assert!(normal as f64 / LADDERS as f64 > 0.5, "{seats} seats: {normal} of {LADDERS}");
    }
}
