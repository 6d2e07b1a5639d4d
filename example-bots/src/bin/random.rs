//! A bot that plays a uniformly random legal action, in whichever game its seat plays.
//!
//! `cargo run --release -p cardroom-example-bots --bin random -- --server http://127.0.0.1:50051 --token T`

use std::process::ExitCode;

use cardroom_example_bots::cli::{BotArgs, init_tracing, play_matches};
use cardroom_example_bots::random::RandomBot;
use cardroom_sdk::{AnyBot, Bot, BotBuilder, PlayableGame, play_any};
use clap::Parser;

#[tokio::main]
async fn main() -> ExitCode {
    init_tracing();
    let args = BotArgs::parse();
    play_matches(&args, "random", |config, seed| async move {
        play_any(&config, |game| AnyBot::build(game, Random(seed))).await
    })
    .await
}

/// Builds a [`RandomBot`] with this seed for any game.
struct Random(u64);

impl BotBuilder for Random {
    fn build<G: PlayableGame>(self) -> Box<dyn Bot<G>> {
        Box::new(RandomBot::new(self.0))
    }
}
