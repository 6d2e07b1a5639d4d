//! The search bot (`cardroom_example_bots::search`): determinized Monte Carlo over the engine,
//! for either game, with a time budget per move.
//!
//! Play on a server (the game is whatever the seat plays):
//!
//! `cargo run --release -p cardroom-example-bots --bin search -- --server http://127.0.0.1:50051 --token T --budget-ms 100`
//!
//! Its strength against the heuristics is measured in process by the `measure` binary
//! (`measure search`, the rows of `example-bots/README.md`).

use std::process::ExitCode;
use std::time::Duration;

use cardroom_example_bots::cli::{BotArgs, init_tracing, play_matches};
use cardroom_example_bots::search::{Budget, SearchBot, SearchConfig};
use cardroom_sdk::games::{gin, twenty_two};
use cardroom_sdk::{AnyBot, GameKind, play_any};
use clap::Parser;

/// The flags of a networked bot, and its thinking budget.
#[derive(Parser)]
struct Cli {
    /// Where and how to join, and the seed.
    #[command(flatten)]
    bot: BotArgs,
    /// Thinking time per decision, in milliseconds.
    #[arg(long, default_value_t = 100)]
    budget_ms: u64,
    /// A fixed number of samples per decision instead of a time budget.
    #[arg(long)]
    iterations: Option<u32>,
}

#[tokio::main]
async fn main() -> ExitCode {
    init_tracing();
    let cli = Cli::parse();
    let budget = match cli.iterations {
        Some(n) => Budget::Iterations(n),
        None => Budget::Time(Duration::from_millis(cli.budget_ms)),
    };
    play_matches(&cli.bot, "search", |config, seed| async move {
        let search = SearchConfig { budget, seed, ..SearchConfig::default() };
        play_any(&config, |game| match game {
            GameKind::TwentyTwo => {
                AnyBot::TwentyTwo(Box::new(SearchBot::<twenty_two::State>::new(search)))
            }
            GameKind::Gin => AnyBot::Gin(Box::new(SearchBot::<gin::State>::new(search))),
        })
        .await
    })
    .await
}
