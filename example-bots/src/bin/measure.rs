//! Prints the win-rate tables of `example-bots/README.md`, in process, with Wilson 95%
//! confidence intervals:
//!
//! - each heuristic against random bots:
//!   `cargo run --release -p cardroom-example-bots --bin measure -- --matches 2000 --seed 1`;
//! - the search bot head to head against the heuristics, with a fixed number of samples per
//!   decision so that a run is reproducible:
//!   `cargo run --release -p cardroom-example-bots --bin measure -- search --matches 400 --iterations 200 --games gin`.

use std::time::Instant;

use cardroom_example_bots::catalogue::{self, ExampleGame, ExampleVisitor};
use cardroom_example_bots::measure::{
    Clock, Maker, default_match, header, measure, random, report_time, row, search, timed,
};
use cardroom_sdk::games::{Game, GameKind};
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
        /// The games to measure, by name or alias (`twenty_two` or `22`, …); by default every
        /// game of the catalogue.
        #[arg(long, value_delimiter = ',')]
        games: Vec<GameKind>,
        /// Twenty-Two table sizes.
        #[arg(long, value_delimiter = ',', default_value = "2,4")]
        players: Vec<u8>,
    },
}

/// The table sizes of `G`'s rows: its one table size if the default options allow only one,
/// else `players`.
fn tables<G: Game>(players: &[u8]) -> Vec<u8> {
    let seats = G::seats(&G::Options::default());
    if seats.start() == seats.end() { vec![*seats.start()] } else { players.to_vec() }
}

/// One game's search rows: the search bot in one seat, the game's heuristic in the others.
struct SearchRows<'a> {
    matches: u32,
    iterations: u32,
    seed: u64,
    players: &'a [u8],
    hero: &'a str,
}

impl ExampleVisitor for SearchRows<'_> {
    type Output = anyhow::Result<()>;
    fn visit<G: ExampleGame>(self) -> anyhow::Result<()> {
        for players in tables::<G>(self.players) {
            let (started, clock) = (Instant::now(), Clock::default());
            let hero = timed(search::<G>(self.iterations), &clock);
            let tally =
                measure(default_match::<G>, hero, G::heuristic, players, self.matches, self.seed)?;
            row(G::NAME, players, self.hero, G::HEURISTIC, tally);
            report_time(started, &clock);
        }
        Ok(())
    }
}

fn search_rows(
    matches: u32,
    iterations: u32,
    seed: u64,
    games: &[GameKind],
    players: &[u8],
) -> anyhow::Result<()> {
    let hero = format!("search ({iterations} samples/move)");
    let games = if games.is_empty() { &GameKind::ALL[..] } else { games };
    header();
    for &game in games {
        catalogue::visit(game, SearchRows { matches, iterations, seed, players, hero: &hero })?;
    }
    Ok(())
}

/// One game's rows against random bots: a random bot and the game's heuristic as the hero, at
/// each table size.
struct RandomRows {
    matches: u32,
    seed: u64,
}

impl ExampleVisitor for RandomRows {
    type Output = anyhow::Result<()>;
    fn visit<G: ExampleGame>(self) -> anyhow::Result<()> {
        let heroes: [(&str, Maker<G>); 2] = [("random", random::<G>), (G::HEURISTIC, G::heuristic)];
        for players in tables::<G>(&[2, 4, 8]) {
            for (name, hero) in heroes {
                let tally = measure(
                    default_match::<G>,
                    hero,
                    random::<G>,
                    players,
                    self.matches,
                    self.seed,
                )?;
                row(G::NAME, players, name, "random", tally);
            }
        }
        Ok(())
    }
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    match args.command {
        Some(Command::Search { matches, iterations, seed, games, players }) => {
            return search_rows(matches, iterations, seed, &games, &players);
        }
        None => {}
    }
    header();
    for game in GameKind::ALL {
        catalogue::visit(game, RandomRows { matches: args.matches, seed: args.seed })?;
    }
    Ok(())
}
