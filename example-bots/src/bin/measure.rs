//! Prints the win-rate tables of `example-bots/README.md`, in process, with Wilson 95%
//! confidence intervals:
//!
//! - each heuristic against random bots:
//!   `cargo run --release -p cardroom-example-bots --bin measure -- --matches 2000 --seed 1`;
//! - the search bot head to head against the heuristics, with a fixed number of samples per
//!   decision so that a run is reproducible:
//!   `cargo run --release -p cardroom-example-bots --bin measure -- search --matches 400 --iterations 200 --games gin`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cardroom_example_bots::measure::{
    Maker, Tally, gin_match, heuristic_gin, heuristic_tt, measure, random_gin, random_tt,
    search_gin, search_tt, twenty_two_match,
};
use cardroom_sdk::Bot;
use cardroom_sdk::games::{Game, gin, twenty_two};
use clap::Parser;

/// The flags: the heuristics against random bots, or `search`.
#[derive(Parser)]
#[command(args_conflicts_with_subcommands = true)]
struct Args {
    /// Matches per row.
    #[arg(long, default_value_t = 2000)]
    matches: u32,
    /// The first match's seed; match `i` uses `seed + i`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Measure the search bot instead.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(clap::Subcommand)]
enum Command {
    /// The search bot in one seat, the game's heuristic in the others.
    Search {
        /// Matches per row.
        #[arg(long, default_value_t = 400)]
        matches: u32,
        /// Samples per decision (fixed, so that a run is reproducible).
        #[arg(long, default_value_t = 200)]
        iterations: u32,
        /// The first match's seed; match `i` uses `seed + i`.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The games to measure: `gin`, `twenty_two`.
        #[arg(long, value_delimiter = ',', default_value = "gin,twenty_two")]
        games: Vec<String>,
        /// Twenty-Two table sizes.
        #[arg(long, value_delimiter = ',', default_value = "2,4")]
        players: Vec<u8>,
    },
}

fn header() {
    println!(
        "| game | players | hero (1 seat) | others | matches | hero wins | win rate | 95% CI (Wilson) | even share | hero's average place |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
}

fn row(game: &str, players: u8, hero: &str, villain: &str, tally: Tally) {
    let (lo, hi) = tally.wilson95();
    println!(
        "| {game} | {players} | {hero} | {villain} | {} | {} | {:.1}% | {:.1}%–{:.1}% | {:.1}% | {:.2} |",
        tally.matches,
        tally.wins,
        100.0 * tally.win_rate(),
        100.0 * lo,
        100.0 * hi,
        100.0 / f64::from(players),
        tally.average_place(),
    );
}

/// Decisions with a choice, and the time spent on them.
type Clock = Arc<Mutex<(u64, Duration)>>;

/// A bot whose decisions with a choice are timed.
struct Timed<G: Game> {
    bot: Box<dyn Bot<G>>,
    clock: Clock,
}

impl<G: Game> Bot<G> for Timed<G>
where
    G: cardroom_sdk::PlayableGame,
{
    fn choose(&mut self, observation: &G::Observation) -> G::Action {
        let started = Instant::now();
        let action = self.bot.choose(observation);
        if G::legal_actions_of(observation).len() > 1 {
            let mut clock = self.clock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            clock.0 += 1;
            clock.1 += started.elapsed();
        }
        action
    }
}

/// Wraps a bot maker so that its decisions are timed on `clock`.
fn timed<G: cardroom_sdk::PlayableGame>(
    make: impl Fn(u64) -> Box<dyn Bot<G>>,
    clock: &Clock,
) -> impl Fn(u64) -> Box<dyn Bot<G>> {
    move |seed| Box::new(Timed { bot: make(seed), clock: Arc::clone(clock) })
}

/// Prints how long a row took and the search's average time per decision, to standard error.
fn report_time(started: Instant, clock: &Clock) {
    let (decisions, spent) = *clock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let per = if decisions == 0 { 0.0 } else { spent.as_secs_f64() * 1000.0 / decisions as f64 };
    eprintln!(
        "  {:.0} s; {decisions} search decisions, {per:.1} ms each on average",
        started.elapsed().as_secs_f64()
    );
}

fn search_rows(
    matches: u32,
    iterations: u32,
    seed: u64,
    games: &[String],
    players: &[u8],
) -> anyhow::Result<()> {
    let hero = format!("search ({iterations} samples/move)");
    header();
    for game in games {
        match game.as_str() {
            "gin" => {
                let (started, clock) = (Instant::now(), Clock::default());
                let search = timed(search_gin(iterations), &clock);
                let tally = measure(gin_match, search, heuristic_gin, 2, matches, seed)?;
                row("gin", 2, &hero, "gin-heuristic", tally);
                report_time(started, &clock);
            }
            "twenty_two" | "22" => {
                for &players in players {
                    let (started, clock) = (Instant::now(), Clock::default());
                    let search = timed(search_tt(iterations), &clock);
                    let tally =
                        measure(twenty_two_match, search, heuristic_tt, players, matches, seed)?;
                    row("twenty_two", players, &hero, "tt-heuristic", tally);
                    report_time(started, &clock);
                }
            }
            other => anyhow::bail!("unknown game {other:?}: gin or twenty_two"),
        }
    }
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if let Some(Command::Search { matches, iterations, seed, games, players }) = args.command {
        return search_rows(matches, iterations, seed, &games, &players);
    }
    header();
    let tt: [(&str, Maker<twenty_two::State>); 2] =
        [("random", random_tt), ("tt-heuristic", heuristic_tt)];
    for players in [2u8, 4, 8] {
        for (name, hero) in tt {
            let tally =
                measure(twenty_two_match, hero, random_tt, players, args.matches, args.seed)?;
            row("twenty_two", players, name, "random", tally);
        }
    }
    let gin: [(&str, Maker<gin::State>); 2] =
        [("random", random_gin), ("gin-heuristic", heuristic_gin)];
    for (name, hero) in gin {
        let tally = measure(gin_match, hero, random_gin, 2, args.matches, args.seed)?;
        row("gin", 2, name, "random", tally);
    }
    Ok(())
}
