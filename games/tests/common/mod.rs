//! Helpers shared by the games crate's integration tests.

#![allow(dead_code, unreachable_pub)]

pub mod checks;

use std::collections::BTreeSet;

use cardroom_games::Card;
use cardroom_games::gin::{self, FirstUpcard};
use cardroom_games::twenty_two::{Options, Packs, TiedDealer, TrickWinner, Variant};
use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// A random table size (2 to 12) and random Twenty-Two options: every option of the rules'
/// table takes each of its values now and then.
pub fn random_twenty_two_options(rng: &mut ChaCha8Rng) -> (Options, u8) {
    let players = rng.random_range(2..=12u8);
    let packs =
        if rng.random_bool(0.7) { Packs::Auto } else { Packs::Fixed(rng.random_range(1..=4u8)) };
    let options = Options {
        packs,
        first_hand: rng.random_range(1..=11),
        limit: *[5u32, 12, 22, 22, 40].choose(rng).unwrap_or(&22),
        trick_winner: if rng.random_bool(0.5) {
            TrickWinner::StrongestCombination
        } else {
            TrickWinner::HighestCard
        },
        tied_dealer: if rng.random_bool(0.5) {
            TiedDealer::Random
        } else {
            TiedDealer::NearestLeftOfPreviousDealer
        },
        variant: if rng.random_bool(0.25) { Variant::Elimination } else { Variant::Standard },
    };
    (options, players)
}

/// Random Gin Rummy options over every switch that changes which actions exist (GR-5 to GR-14),
/// with short matches.
pub fn random_gin_options(rng: &mut ChaCha8Rng) -> gin::Options {
    let oklahoma = rng.random_bool(0.5);
    gin::Options {
        first_upcard: if rng.random_bool(0.5) { FirstUpcard::Seed } else { FirstUpcard::Standard },
        discard_taken_upcard: rng.random_bool(0.5),
        knock_limit: *[10, 10, 7, 3, 0].choose(rng).unwrap_or(&10),
        oklahoma,
        oklahoma_spades_double: oklahoma && rng.random_bool(0.5),
        big_gin: rng.random_bool(0.5),
        wall_knock: rng.random_bool(0.5),
        max_upcard_draws: *[50, 5].choose(rng).unwrap_or(&50),
        target: *[100, 50, 25].choose(rng).unwrap_or(&100),
        ..gin::Options::default()
    }
}

/// Every card named in a JSON value (`"AS"`, `"TH"`), as a spectator or a seat receives it.
pub fn cards_in(value: &impl serde::Serialize) -> BTreeSet<Card> {
    fn walk(value: &Value, out: &mut BTreeSet<Card>) {
        match value {
            Value::String(s) => out.extend(s.parse::<Card>()),
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            Value::Object(fields) => fields.values().for_each(|v| walk(v, out)),
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
    let mut out = BTreeSet::new();
    walk(&serde_json::to_value(value).unwrap(), &mut out);
    out
}
