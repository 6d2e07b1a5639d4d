//! A `Turn`'s observation on the wire, Gin Rummy's and Twenty-Two's: prost's typed tree against
//! the bytes written and read field by field (`WireGame::encode_observation`,
//! `decode_observation`).
//!
//! Run with `cargo bench -p cardroom-proto --bench observation`. Each bench writes or reads the
//! observation of the seat to act in the middle of a hand (nine cards in the discard pile): of
//! the first hand (`first_hand`), and of a hand after one that ended in a knock (`after_knock`:
//! the view carries the knock's showdown, melds and layout, as it does for the rest of the match
//! once a hand ends so). Both in the compact form the Rust SDK asks for (`Omit.json`,
//! `Omit.cards` and `Omit.known_cards`: cards as codes) and with `Card` messages (`Omit.json`
//! alone); the JSON form is serde's either way and left out.
//!
//! Twenty-Two's (`twenty_two_observation/…`): the observation of the seat to act in the play of
//! the second deal, once three tricks are done (the view carries the tricks, the first deal's
//! result and the dealer draw), at tables of 4 and 12 seats, in the same two forms. Its
//! `from_pb_only` is the conversion of prost's decoded view alone (`observation_from_pb`), which
//! both readers end in: what is left of `decode_bytes` once it is taken off is the reading of
//! the bytes.

use std::hint::black_box;

use cardroom_games::gin::{Action, GoOut, HandEnd, Observation, Options, Showdown, State};
use cardroom_games::twenty_two;
use cardroom_proto::pb;
use cardroom_proto::wire::WireGame;
use criterion::{Criterion, criterion_group, criterion_main};
use prost::Message;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The observation of the seat to act once a hand has nine cards in its discard pile, in a
/// seeded match of random play that knocks whenever it can: in the first hand, or else in a
/// hand after a knock. With the match's options.
fn mid_hand(after_knock: bool) -> (Observation, Options) {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for seed in 0.. {
        let Ok(mut state) = State::new(Options::default(), seed) else { continue };
        while let Some(seat) = state.to_act() {
            let public = state.public_view();
            let knocked = matches!(
                public.last_result.map(|result| result.end),
                Some(HandEnd::Showdown(Showdown { kind: GoOut::Knock, .. }))
            );
            if public.discard_pile.len() >= 9 && knocked == after_knock {
                return (state.observation(seat), *state.options());
            }
            if !after_knock && public.hand_number > 1 {
                break;
            }
            let legal = state.legal_actions();
            let knock = legal.iter().find(|action| matches!(action, Action::Knock { .. }));
            let action = knock.copied().unwrap_or(legal[rng.random_range(0..legal.len())]);
            if state.apply(seat, action).is_err() {
                break;
            }
        }
    }
    unreachable!("some match has such a hand")
}

/// The observation of the seat to act in the second deal's play once three tricks are done,
/// in a seeded match of `players` seats and random play, with the match's options.
fn twenty_two_mid_deal(players: u8) -> (twenty_two::Observation, twenty_two::Options) {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for seed in 0.. {
        let options = twenty_two::Options::default();
        let Ok(mut state) = twenty_two::State::new(options, players, seed) else { continue };
        while let Some(seat) = state.to_act() {
            let public = state.public_view();
            if public.deal == 2 && public.tricks.len() == 4 {
                return (state.observation(seat), options);
            }
            if public.deal > 2 {
                break;
            }
            let legal = state.legal_actions();
            if state.apply(seat, legal[rng.random_range(0..legal.len())]).is_err() {
                break;
            }
        }
    }
    unreachable!("some match has such a deal")
}

/// The benches of one observation in one form: written and read, by prost's tree and by the
/// bytes, and the conversion of prost's decoded view alone.
fn bench_observation<G: WireGame>(
    c: &mut Criterion,
    name: &str,
    observation: &G::Observation,
    options: &G::Options,
    omit: &pb::Omit,
) {
    let mut group = c.benchmark_group(name);
    let mut buf = Vec::with_capacity(4096);
    group.bench_function("encode_prost", |b| {
        b.iter(|| {
            buf.clear();
            let wire = G::observation_to_pb(black_box(observation), omit);
            wire.encode_raw(&mut buf);
            buf.len()
        })
    });
    group.bench_function("encode_bytes", |b| {
        b.iter(|| {
            buf.clear();
            G::encode_observation(black_box(observation), omit, &mut buf);
            buf.len()
        })
    });
    let bytes = G::observation_to_pb(observation, omit).encode_to_vec();
    group.bench_function("decode_prost", |b| {
        b.iter(|| {
            let Ok(wire) = pb::Observation::decode(black_box(&bytes[..])) else { unreachable!() };
            G::observation_from_pb(&wire, &[], options)
        })
    });
    group.bench_function("decode_bytes", |b| {
        b.iter(|| G::decode_observation(black_box(&bytes), &[], options))
    });
    let Ok(tree) = pb::Observation::decode(&bytes[..]) else { unreachable!() };
    group.bench_function("from_pb_only", |b| {
        b.iter(|| G::observation_from_pb(black_box(&tree), &[], options))
    });
    group.finish();
}

fn observation_benches(c: &mut Criterion) {
    let compact = pb::Omit {
        json: true,
        cards: true,
        known_cards: true,
        legal_actions: true,
        ..pb::Omit::default()
    };
    let messages = pb::Omit { json: true, ..pb::Omit::default() };
    for (hand, after_knock) in [("first_hand", false), ("after_knock", true)] {
        let (observation, options) = mid_hand(after_knock);
        for (form, omit) in [("compact", compact), ("messages", messages)] {
            let mut group = c.benchmark_group(format!("gin_observation/{hand}_{form}"));
            let mut buf = Vec::with_capacity(1024);
            group.bench_function("encode_prost", |b| {
                b.iter(|| {
                    buf.clear();
                    let wire = State::observation_to_pb(black_box(&observation), &omit);
                    wire.encode_raw(&mut buf);
                    buf.len()
                })
            });
            group.bench_function("encode_bytes", |b| {
                b.iter(|| {
                    buf.clear();
                    State::encode_observation(black_box(&observation), &omit, &mut buf);
                    buf.len()
                })
            });
            let bytes = State::observation_to_pb(&observation, &omit).encode_to_vec();
            group.bench_function("decode_prost", |b| {
                b.iter(|| {
                    let Ok(wire) = pb::Observation::decode(black_box(&bytes[..])) else {
                        unreachable!()
                    };
                    State::observation_from_pb(&wire, &[], &options)
                })
            });
            group.bench_function("decode_bytes", |b| {
                b.iter(|| State::decode_observation(black_box(&bytes), &[], &options))
            });
            group.finish();
        }
    }
    for players in [4, 12] {
        let (observation, options) = twenty_two_mid_deal(players);
        for (form, omit) in [("compact", compact), ("messages", messages)] {
            let name = format!("twenty_two_observation/{players}_seats_{form}");
            bench_observation::<twenty_two::State>(c, &name, &observation, &options, &omit);
        }
    }
}

criterion_group!(benches, observation_benches);
criterion_main!(benches);
