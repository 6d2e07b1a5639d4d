//! Twenty-Two speed: random play (whole matches and single deals, 4 and 9 players) and
//! `legal_actions` on the largest hands. Throughput is in decisions (one `legal_actions` plus
//! one `apply`). Run: `cargo bench -p cardroom-games --bench twenty_two`.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::hint::black_box;

use cardroom_games::twenty_two::{Action, Cards, Options, Setup, State};
use cardroom_games::{Seat, parse_cards};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays random legal actions until `stop` says so; returns the decisions made.
fn play(state: &mut State, rng: &mut ChaCha8Rng, stop: impl Fn(&State) -> bool) -> u64 {
    let mut decisions = 0;
    while let Some(seat) = state.to_act() {
        if stop(state) {
            break;
        }
        let legal = state.legal_actions();
        let action = legal[rng.random_range(0..legal.len())];
        black_box(state.apply(seat, action).ok());
        decisions += 1;
    }
    decisions
}

/// Average decisions per match or deal over a sample, for the throughput figure.
fn decisions_per(players: u8, whole_match: bool) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let samples = 200;
    let total: u64 = (0..samples)
        .map(|seed| {
            let mut state = State::new(Options::default(), players, seed).unwrap();
            play(&mut state, &mut rng, |s| !whole_match && s.public_view().deal > 1)
        })
        .sum();
    total / samples
}

fn random_play(c: &mut Criterion) {
    for players in [4u8, 9] {
        for (name, whole) in [("match", true), ("deal", false)] {
            let mut group = c.benchmark_group(format!("twenty_two/random_{name}"));
            group.throughput(Throughput::Elements(decisions_per(players, whole)));
            let mut seed = 0;
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            group.bench_function(format!("{players}_players"), |b| {
                b.iter_batched(
                    || {
                        seed += 1;
                        State::new(Options::default(), players, seed).unwrap()
                    },
                    |mut state| {
                        let deal_one = |s: &State| !whole && s.public_view().deal > 1;
                        play(&mut state, &mut rng, deal_one)
                    },
                    BatchSize::SmallInput,
                );
            });
            group.finish();
        }
    }
}

/// Two hands at the start of the exchange, seat 0 first.
fn two_hands(first: &str, second: &str) -> Setup {
    let hands = vec![parse_cards(first).unwrap(), parse_cards(second).unwrap()];
    Setup { seed: 1, ..Setup::with_hands(Seat(1), hands) }
}

fn legal_actions_on_large_hands(c: &mut Criterion) {
    let mut group = c.benchmark_group("twenty_two/legal_actions");
    // An 11-card hand of 11 ranks in the exchange: 2,048 distinct exchanges.
    let exchange = State::from_setup(
        Options::default(),
        two_hands("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD"),
    )
    .unwrap();
    assert_eq!(exchange.legal_actions().len(), 2048);
    group.bench_function("exchange_11_cards", |b| b.iter(|| black_box(&exchange).legal_actions()));

    // The lead from 11 cards, then a follow of 10 cards against a five-card lead.
    let mut lead = exchange.clone();
    lead.apply(Seat(0), Action::Exchange(Cards::EMPTY)).unwrap();
    lead.apply(Seat(1), Action::Exchange(Cards::EMPTY)).unwrap();
    group.bench_function("lead_11_cards", |b| b.iter(|| black_box(&lead).legal_actions()));
    let mut follow = lead.clone();
    follow.apply(Seat(0), Action::Play(Cards::new(&parse_cards("5C").unwrap()).unwrap())).unwrap();
    group.bench_function("follow_11_cards_one_led", |b| {
        b.iter(|| black_box(&follow).legal_actions())
    });

    let four_packs =
        Options { packs: cardroom_games::twenty_two::Packs::Fixed(4), ..Options::default() };
    let mut sets = State::from_setup(
        four_packs,
        two_hands("5C 5C 5D 5D 5H 5H 2S 2S 3S 3S 4S", "6C 6C 7D 7D 8H 8H 9S 9S TS TS JS"),
    )
    .unwrap();
    sets.apply(Seat(0), Action::Exchange(Cards::EMPTY)).unwrap();
    sets.apply(Seat(1), Action::Exchange(Cards::EMPTY)).unwrap();
    sets.apply(Seat(0), Action::Play(Cards::new(&parse_cards("5C 5C 5D 5D 5H").unwrap()).unwrap()))
        .unwrap();
    let follows = sets.legal_actions().len();
    group.bench_function(format!("follow_11_cards_five_led_{follows}_choices"), |b| {
        b.iter(|| black_box(&sets).legal_actions())
    });
    group.finish();
}

criterion_group!(benches, random_play, legal_actions_on_large_hands);
criterion_main!(benches);
