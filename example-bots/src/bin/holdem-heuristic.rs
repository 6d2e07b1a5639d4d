//! The Hold'em heuristic bot (`cardroom_example_bots::holdem_heuristic`).
//!
//! `cargo run --release -p cardroom-example-bots --bin holdem-heuristic -- --server http://127.0.0.1:50051 --token T`

use std::process::ExitCode;

use cardroom_example_bots::cli::{BotArgs, init_tracing, play_matches};
use cardroom_example_bots::holdem_heuristic::HoldemHeuristic;
use cardroom_sdk::games::holdem;
use cardroom_sdk::play;
use clap::Parser;

#[tokio::main]
async fn main() -> ExitCode {
    init_tracing();
    let args = BotArgs::parse();
    play_matches(&args, "holdem-heuristic", |config, seed| async move {
        play::<holdem::State>(&config, &mut HoldemHeuristic::new(seed)).await
    })
    .await
}
