//! The cost of a ladder's settlement: `Settlement::from_sets` replays the order test over every
//! rated set (as the web's leaderboard does for a hosted ladder without a standings snapshot, and
//! as the arena's adaptive ladder did before every round it planned), against `SetEvidence`,
//! which adds one set to what it kept and settles (what the adaptive ladder does now). Run:
//! `cargo bench -p cardroom-rank --bench settle`.

#![allow(clippy::unwrap_used)] // A bench fails loudly on an unexpected error.

use std::hint::black_box;

use cardroom_rank::duplicate::{derive_seed, rotations};
use cardroom_rank::schedule::round_robin;
use cardroom_rank::{MatchOutcome, SetEvidence, Settlement};
use criterion::{Criterion, criterion_group, criterion_main};

/// `sets` duplicate sets of `bots` bots at four-seat tables (each table in turn, its four
/// rotations), every match's places drawn with bot `b` ahead of bot `c` a little more often when
/// `b < c`: a ladder whose order is near settled and never quite is.
fn sets(bots: usize, sets: usize) -> Vec<Vec<MatchOutcome>> {
    let tables = round_robin(bots, 4);
    let seatings = rotations(4, None);
    (0..sets)
        .map(|i| {
            let table = &tables[i % tables.len()];
            seatings
                .iter()
                .enumerate()
                .map(|(j, seating)| {
                    let mut draws: Vec<(u64, usize)> = seating
                        .iter()
                        .map(|&pos| {
                            let bot = table[pos];
                            let luck = derive_seed(i as u64, (j * 8 + bot) as u64) >> 40;
                            (luck + (bots - bot) as u64 * (1 << 20), bot)
                        })
                        .collect();
                    draws.sort_unstable_by(|a, b| b.cmp(a));
                    let mut places = vec![(0, 0); 4];
                    for (place, &(_, bot)) in draws.iter().enumerate() {
                        let seat = seating.iter().position(|&p| table[p] == bot).unwrap();
                        places[seat] = (bot, place as u8 + 1);
                    }
                    MatchOutcome { places, health: Vec::new(), decisions: 0 }
                })
                .collect()
        })
        .collect()
}

fn settlement(c: &mut Criterion) {
    let mut group = c.benchmark_group("settlement");
    group.sample_size(10);
    // Eight bots: 40,320 orders, so 10,000 sets would be some ten seconds an iteration.
    for (bots, n) in [(5, 1_000), (5, 10_000), (8, 1_000)] {
        let all = sets(bots, n);
        group.bench_function(format!("from_sets, {n} sets of {bots} bots at four seats"), |b| {
            b.iter(|| black_box(Settlement::from_sets(bots, 4, black_box(&all), 0.05)))
        });
        // The evidence of the first n - 1 sets kept: one more set, and the settlement.
        let mut kept = SetEvidence::new(bots);
        for set in &all[..n - 1] {
            kept.add_set(set);
        }
        let name = format!("one more set after {} kept ({bots} bots), and settle", n - 1);
        group.bench_function(name, |b| {
            b.iter_batched_ref(
                || kept.clone(),
                |evidence| {
                    evidence.add_set(black_box(&all[n - 1]));
                    black_box(evidence.settlement(4, 0.05))
                },
                criterion::BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, settlement);
criterion_main!(benches);
