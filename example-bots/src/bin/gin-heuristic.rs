//! The Gin Rummy heuristic bot (`cardroom_example_bots::gin_heuristic`).
//!
//! `cargo run --release -p cardroom-example-bots --bin gin-heuristic -- --server http://127.0.0.1:50051 --token T`

use std::process::ExitCode;

use cardroom_example_bots::cli::{BotArgs, init_tracing, play_matches};
use cardroom_example_bots::gin_heuristic::GinHeuristic;
use cardroom_sdk::games::gin;
use cardroom_sdk::play;
use clap::Parser;

#[tokio::main]
async fn main() -> ExitCode {
    init_tracing();
    let args = BotArgs::parse();
    play_matches(&args, "gin-heuristic", |config, _seed| async move {
        play::<gin::State>(&config, &mut GinHeuristic::new()).await
    })
    .await
}
