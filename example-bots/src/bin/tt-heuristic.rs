//! The Twenty-Two heuristic bot (`cardroom_example_bots::tt_heuristic`).
//!
//! `cargo run --release -p cardroom-example-bots --bin tt-heuristic -- --server http://127.0.0.1:50051 --token T`

use std::process::ExitCode;

use cardroom_example_bots::cli::{BotArgs, init_tracing, play_matches};
use cardroom_example_bots::tt_heuristic::TtHeuristic;
use cardroom_sdk::games::twenty_two;
use cardroom_sdk::play;
use clap::Parser;

#[tokio::main]
async fn main() -> ExitCode {
    init_tracing();
    let args = BotArgs::parse();
    play_matches(&args, "tt-heuristic", |config, _seed| async move {
        play::<twenty_two::State>(&config, &mut TtHeuristic::new()).await
    })
    .await
}
