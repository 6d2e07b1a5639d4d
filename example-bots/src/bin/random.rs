//! A bot that plays a uniformly random legal action, in whichever game its seat plays.
//!
//! `cargo run --release -p cardroom-example-bots --bin random -- --server http://127.0.0.1:50051 --token T`

use std::process::ExitCode;

use cardroom_example_bots::cli::{BotArgs, init_tracing, play_matches};
use cardroom_example_bots::random::AnyRandom;
use cardroom_sdk::{AnyBot, play_any};
use clap::Parser;

#[tokio::main]
async fn main() -> ExitCode {
    init_tracing();
    let args = BotArgs::parse();
    play_matches(&args, "random", |config, seed| async move {
        play_any(&config, |game| AnyBot::build(game, AnyRandom(seed))).await
    })
    .await
}
