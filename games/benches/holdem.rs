//! Hold'em benches: the seven-card evaluator on random hands, and random play of whole hands
//! heads-up and at six seats.
//!
//! Run with `cargo bench -p cardroom-games --bench holdem`. The evaluator runs over a fixed
//! batch of 1,000 seven-card hands drawn from shuffled packs (ChaCha8, fixed seed) and reports
//! the time per batch (criterion's "thrpt" line is hands per second). A random hand is one hand
//! of a match of one hand, from `State::new` to its end, every action uniformly random among
//! fold, check or call and a raise drawn from the legal sizes (so that every hand does not end
//! all in preflop): the same policy as `openspiel_holdem.py`'s peer.

use std::hint::black_box;

use cardroom_games::holdem::{Action, Hand, Options, State};
use cardroom_games::{Card, Seat};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const BATCH: usize = 1_000;

fn seven_card_hands(seed: u64) -> Vec<Hand> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pack: Vec<Card> = Card::pack().collect();
    (0..BATCH)
        .map(|_| {
            pack.shuffle(&mut rng);
            Hand::of(&pack[..7])
        })
        .collect()
}

fn evaluator(c: &mut Criterion) {
    let hands = seven_card_hands(1);
    let mut group = c.benchmark_group("holdem_eval");
    group.throughput(Throughput::Elements(BATCH as u64));
    group.bench_function("rank_7", |b| {
        b.iter(|| hands.iter().map(|&h| black_box(h).rank().value()).fold(0, u32::wrapping_add))
    });
    group.finish();
}

/// A random action: fold, check or call, or a raise, each kind equally likely among those
/// legal, the raise's size uniform among the legal sizes.
fn random_action(legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
    let raises = legal.iter().filter(|a| matches!(a, Action::RaiseTo(_))).count();
    let others = legal.len() - raises;
    let kinds = others + usize::from(raises > 0);
    let pick = rng.random_range(0..kinds);
    if pick < others { legal[pick] } else { legal[others + rng.random_range(0..raises)] }
}

fn play_hand(players: u8, seed: u64, rng: &mut ChaCha8Rng) -> usize {
    let options = Options { hands: 1, ..Options::default() };
    let mut state = State::new(options, players, seed).unwrap_or_else(|_| unreachable!());
    let mut actions = 0;
    let mut events = Vec::new();
    while let Some(seat) = state.to_act() {
        let legal = state.legal_actions();
        let action = random_action(&legal, rng);
        events.clear();
        let _ = state.apply_into(Seat(seat.0), action, &mut events);
        actions += 1;
    }
    actions
}

fn random_hands(c: &mut Criterion) {
    let mut group = c.benchmark_group("holdem_play");
    for players in [2u8, 6] {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut seed = 0u64;
        group.bench_function(format!("random_hand_{players}_seats"), |b| {
            b.iter_batched(
                || {
                    seed += 1;
                    seed
                },
                |seed| play_hand(players, seed, &mut rng),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, evaluator, random_hands);
criterion_main!(benches);
