//! The properties of the `apply` and `record` fuzz targets (`fuzz/`, `tests/common/checks.rs`)
//! over proptest inputs, so that CI checks them on every change: scripts of listed and raw
//! actions on matches of both games with options from random bits; random bytes as records;
//! records of real matches with a few bytes changed; and records that start from setups with
//! extreme numbers (deal and hand numbers, scores, limits). Case counts are set here, so the
//! whole file runs in a few seconds; a failure prints its input, and proptest shrinks it.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

mod common;

use cardroom_games::Card;
use cardroom_games::gin::MAX_POINTS;
use common::checks::{self, Script, Step};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::json;

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => any::<u16>().prop_map(Step::Legal),
        1 => (any::<u8>(), any::<u8>(), vec(any::<u8>(), 0..14))
            .prop_map(|(seat, kind, cards)| Step::Raw { seat, kind, cards }),
    ]
}

fn script(max_steps: usize) -> impl Strategy<Value = Script> {
    (any::<u8>(), any::<u8>(), any::<u64>(), any::<u64>(), vec(step(), 0..max_steps)).prop_map(
        |(game, players, options, seed, steps)| Script { game, players, options, seed, steps },
    )
}

/// A number that is often at an edge.
fn edgy_u32() -> impl Strategy<Value = u32> {
    prop_oneof![Just(0), Just(1), Just(u32::MAX - 1), Just(u32::MAX), 0..64u32, any::<u32>(),]
}

/// Bytes that keep JSON readable more often than random ones.
const JSON_BYTES: &[u8] = b"0123456789-.,:[]{}\" \nACDHSTJQKaeglnopsx";

/// The pack shuffled with `seed`.
fn shuffled(seed: u64) -> Vec<String> {
    let mut pack: Vec<Card> = Card::pack().collect();
    pack.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    pack.into_iter().map(Card::code).collect()
}

/// A Twenty-Two record from a setup: a few seats and cards, any deal number, scores and limit.
fn twenty_two_setup() -> impl Strategy<Value = String> {
    (
        (any::<u64>(), 2..6usize, 1..6usize, 0..7u8, any::<bool>(), any::<bool>()),
        (edgy_u32(), edgy_u32(), vec(edgy_u32(), 0..6), 0..3usize),
    )
        .prop_map(
            |((seed, players, hand, dealer, stock, elimination), (deal, limit, scores, out))| {
                let pack = shuffled(seed);
                let hands: Vec<&[String]> = pack.chunks(hand).take(players).collect();
                let mut setup = json!({
                    "dealer": dealer, "hands": hands, "deal": deal, "scores": scores, "seed": seed,
                });
                if out > 0 {
                    // Seat 0 eliminated in an earlier deal: it holds no cards.
                    setup["hands"][0] = json!([]);
                    setup["eliminated"] = json!([[0]]);
                }
                if stock {
                    setup["stock"] = json!(pack[hand * players..]);
                }
                let variant = if elimination { "elimination" } else { "standard" };
                json!({
                    "game": "twenty_two", "players": players, "setup": setup,
                    "options": { "limit": limit, "variant": variant },
                    "actions": [],
                })
                .to_string()
            },
        )
}

/// A Gin Rummy record from a setup: any hand number, scores, hands won and target.
fn gin_setup() -> impl Strategy<Value = String> {
    (
        any::<u64>(),
        1..4usize,
        0..3u8,
        [edgy_u32(), edgy_u32()],
        [edgy_u32(), edgy_u32()],
        edgy_u32(),
        select(vec![1, 100, MAX_POINTS]),
    )
        .prop_map(|(seed, pile, dealer, scores, hands_won, hand_number, target)| {
            let pack = shuffled(seed);
            json!({
                "game": "gin",
                "options": { "target": target, "big_gin": true, "wall_knock": true },
                "setup": {
                    "dealer": dealer, "hands": [&pack[..10], &pack[10..20]],
                    "discard_pile": &pack[20..20 + pile], "stock": &pack[20 + pile..],
                    "scores": scores, "hands_won": hands_won, "hand_number": hand_number,
                    "seed": seed,
                },
            })
            .to_string()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn scripts_of_listed_and_raw_actions_keep_every_invariant(script in script(400)) {
        checks::apply_script(&script);
    }

    #[test]
    fn random_bytes_never_panic_as_a_record(data in vec(any::<u8>(), 0..256)) {
        checks::record_json(&data);
    }

    #[test]
    fn records_with_changed_bytes_replay_or_fail_cleanly(
        script in script(150),
        edits in vec((any::<Index>(), select(JSON_BYTES)), 1..4),
    ) {
        if let Some(record) = checks::legal_record(&script) {
            let mut json = record.to_json().into_bytes();
            for (at, byte) in edits {
                let at = at.index(json.len());
                json[at] = byte;
            }
            checks::record_json(&json);
        }
    }

    #[test]
    fn setups_with_extreme_numbers_replay_or_fail_cleanly(
        json in prop_oneof![twenty_two_setup(), gin_setup()],
    ) {
        checks::record_json(json.as_bytes());
    }
}
