//! The search bot (`cardroom_example_bots::search`): determinized Monte Carlo over the engine,
//! for either game, with a time budget per move.
//!
//! Play on a server (the game is whatever the seat plays):
//!
//! `cargo run --release -p cardroom-example-bots --bin search -- --server http://127.0.0.1:50051 --token T --budget-ms 100`
//!
//! Measure it in process against the heuristics (the rows of `example-bots/README.md`):
//!
//! `cargo run --release -p cardroom-example-bots --bin search -- measure --matches 200 --iterations 50 --seed 1`

use std::process::ExitCode;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use cardroom_example_bots::cli::{BotArgs, init_tracing, report};
use cardroom_example_bots::gin_heuristic::GinHeuristic;
use cardroom_example_bots::measure::{Tally, gin_match, measure, twenty_two_match};
use cardroom_example_bots::search::{Budget, SearchBot, SearchConfig};
use cardroom_example_bots::tt_heuristic::TtHeuristic;
use cardroom_sdk::games::{gin, twenty_two};
use cardroom_sdk::{AnyBot, Bot, GameKind, play_any};
use clap::Parser;

/// The flags: a networked bot's, or `measure`.
#[derive(Parser)]
#[command(args_conflicts_with_subcommands = true)]
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
    /// Measure instead of playing on a server.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Win rates in process: the search bot in one seat, heuristics in the others.
    Measure {
        /// Matches per row.
        #[arg(long, default_value_t = 200)]
        matches: u32,
        /// Samples per decision (fixed, so that a run is reproducible).
        #[arg(long, default_value_t = 50)]
        iterations: u32,
        /// The first match's seed; match `i` uses `seed + i`.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Twenty-Two table sizes to measure.
        #[arg(long, value_delimiter = ',', default_value = "2,4")]
        players: Vec<u8>,
    },
}

/// Samples per decision for the measured search bots ([`measure`] takes plain `fn` makers).
static ITERATIONS: AtomicU32 = AtomicU32::new(50);

fn measured_config(seed: u64) -> SearchConfig {
    let iterations = ITERATIONS.load(Ordering::Relaxed);
    SearchConfig { budget: Budget::Iterations(iterations), seed, ..SearchConfig::default() }
}

fn search_tt(seed: u64) -> Box<dyn Bot<twenty_two::State>> {
    Box::new(SearchBot::<twenty_two::State>::new(measured_config(seed)))
}

fn heuristic_tt(_seed: u64) -> Box<dyn Bot<twenty_two::State>> {
    Box::new(TtHeuristic::new())
}

fn search_gin(seed: u64) -> Box<dyn Bot<gin::State>> {
    Box::new(SearchBot::<gin::State>::new(measured_config(seed)))
}

fn heuristic_gin(_seed: u64) -> Box<dyn Bot<gin::State>> {
    Box::new(GinHeuristic::new())
}

fn row(game: &str, players: u8, villain: &str, tally: Tally, iterations: u32) {
    let (lo, hi) = tally.wilson95();
    println!(
        "| {game} | {players} | search ({iterations} samples/move) | {villain} | {} | {} | {:.1}% | {:.1}%–{:.1}% | {:.1}% | {:.2} |",
        tally.matches,
        tally.wins,
        100.0 * tally.win_rate(),
        100.0 * lo,
        100.0 * hi,
        100.0 / f64::from(players),
        tally.average_place(),
    );
}

fn run_measure(matches: u32, iterations: u32, seed: u64, players: &[u8]) -> anyhow::Result<()> {
    ITERATIONS.store(iterations, Ordering::Relaxed);
    for &players in players {
        let tally = measure(twenty_two_match, search_tt, heuristic_tt, players, matches, seed)?;
        row("twenty_two", players, "tt-heuristic", tally, iterations);
    }
    let tally = measure(gin_match, search_gin, heuristic_gin, 2, matches, seed)?;
    row("gin", 2, "gin-heuristic", tally, iterations);
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    init_tracing();
    let cli = Cli::parse();
    if let Some(Command::Measure { matches, iterations, seed, players }) = cli.command {
        return match run_measure(matches, iterations, seed, &players) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("error: {err:#}");
                ExitCode::FAILURE
            }
        };
    }
    let budget = match cli.iterations {
        Some(n) => Budget::Iterations(n),
        None => Budget::Time(Duration::from_millis(cli.budget_ms)),
    };
    let config = SearchConfig { budget, seed: cli.bot.seed(), ..SearchConfig::default() };
    report(
        async {
            let connect = cli.bot.config("search")?;
            Ok(play_any(&connect, |game| match game {
                GameKind::TwentyTwo => {
                    AnyBot::TwentyTwo(Box::new(SearchBot::<twenty_two::State>::new(config)))
                }
                GameKind::Gin => AnyBot::Gin(Box::new(SearchBot::<gin::State>::new(config))),
            })
            .await)
        }
        .await,
    )
}
