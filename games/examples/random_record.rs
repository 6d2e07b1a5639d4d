//! Prints the JSON record of a match played with uniformly random legal actions: sample data
//! for `cardroom replay`, bug reports and tests.
//!
//! `cargo run -p cardroom-games --example random_record -- twenty_two 4 7 > match.json`
//! `cargo run -p cardroom-games --example random_record -- gin 2 7 > gin.json`
//! (game, players, seed; an optional fourth argument stops after that many actions.)

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use cardroom_games::{Game, gin, twenty_two};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn play<G: Game>(mut state: G, seed: u64, limit: usize) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..limit {
        let Some(seat) = state.to_act() else { break };
        let legal = state.legal_actions();
        let action = legal[rng.random_range(0..legal.len())];
        if let Err(error) = state.apply(seat, action) {
            panic!("a listed action was refused: {error}");
        }
    }
    state.record().map(|r| r.to_json()).unwrap_or_default()
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: random_record twenty_two|gin PLAYERS SEED [ACTIONS]";
    let [game, players, seed, rest @ ..] = args.as_slice() else { return Err(usage.into()) };
    let players: u8 = players.parse().map_err(|_| usage)?;
    let seed: u64 = seed.parse().map_err(|_| usage)?;
    let limit = rest.first().and_then(|n| n.parse().ok()).unwrap_or(usize::MAX);
    let json = match game.as_str() {
        "twenty_two" => {
            let state = twenty_two::State::new(twenty_two::Options::default(), players, seed)
                .map_err(|e| e.to_string())?;
            play(state, seed, limit)
        }
        "gin" => {
            let state =
                gin::State::new(gin::Options::default(), seed).map_err(|e| e.to_string())?;
            play(state, seed, limit)
        }
        _ => return Err(usage.into()),
    };
    println!("{json}");
    Ok(())
}
