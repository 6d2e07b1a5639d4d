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

use cardroom_example_bots::catalogue::{self, ExampleGame, ExampleVisitor};
use cardroom_example_bots::cli::{BotArgs, init_tracing, play_matches};
use cardroom_example_bots::search::{Budget, SearchBot, SearchConfig};
use cardroom_sdk::{AnyBot, play_any};
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

/// The search bot, for whichever game the seat plays.
struct Search(SearchConfig);

impl ExampleVisitor for Search {
    type Output = AnyBot;
    fn visit<G: ExampleGame>(self) -> AnyBot {
        G::into_any(Box::new(SearchBot::<G>::new(self.0)))
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    init_tracing();
    let cli = Cli::parse();
    let budget = match cli.iterations {
        Some(n) => Budget::Iterations(n),
        None => Budget::Time(Duration::from_millis(cli.budget_ms)),
    };
    play_matches(&cli.bot, "search", move |config, seed| async move {
        let search = SearchConfig { budget, seed, ..SearchConfig::default() };
        play_any(&config, |game| catalogue::visit(game, Search(search))).await
    })
    .await
}
