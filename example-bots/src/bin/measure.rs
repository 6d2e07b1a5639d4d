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

use cardroom_example_bots::catalogue::{self, ExampleGame, ExampleVisitor};
use cardroom_example_bots::gin_heuristic::GinHeuristic;
use cardroom_example_bots::measure::{
    Maker, Tally, default_match, gin_duplicate_matches, measure, openspiel_options, random, search,
    search_gin, simple_gin,
};
use cardroom_sdk::Bot;
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
    /// Gin Rummy under OpenSpiel's rules (`openspiel_options`), duplicate deals: the heuristic
    /// and the search against the in-process stand-in for OpenSpiel's simple bot
    /// (`gin_simple::SimpleGin`). The README's numbers against OpenSpiel's own bot come from
    /// the arena (`scripts/openspiel-baseline`); this is for tuning.
    Simple {
        /// Deals, each played twice (seats swapped).
        #[arg(long, default_value_t = 200)]
        deals: u32,
        /// Samples per search decision; 0 leaves the search out.
        #[arg(long, default_value_t = 0)]
        iterations: u32,
        /// The first deal's seed; deal `i` uses `seed + i`.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The heuristic's weights, to tune them (the defaults are `GinHeuristic::default`).
        #[command(flatten)]
        weights: Weights,
    },
}

/// `GinHeuristic`'s weights as flags; each left out keeps its default.
#[derive(clap::Args)]
struct Weights {
    /// Start from `GinHeuristic::fast` (the heuristic before the tuning) instead of the default.
    #[arg(long)]
    fast: bool,
    /// `GinHeuristic::take_margin`.
    #[arg(long)]
    take_margin: Option<u8>,
    /// `GinHeuristic::take_cost`.
    #[arg(long)]
    take_cost: Option<u8>,
    /// `GinHeuristic::same_rank_danger`.
    #[arg(long)]
    same_rank_danger: Option<u8>,
    /// `GinHeuristic::run_danger`.
    #[arg(long)]
    run_danger: Option<u8>,
    /// `GinHeuristic::lookahead`.
    #[arg(long)]
    lookahead: Option<bool>,
    /// `GinHeuristic::late_stock`.
    #[arg(long)]
    late_stock: Option<usize>,
    /// `GinHeuristic::late_knock`.
    #[arg(long)]
    late_knock: Option<u8>,
}

impl Weights {
    fn heuristic(&self) -> GinHeuristic {
        let mut heuristic = if self.fast { GinHeuristic::fast() } else { GinHeuristic::default() };
        if let Some(take_margin) = self.take_margin {
            heuristic.take_margin = take_margin;
        }
        if let Some(take_cost) = self.take_cost {
            heuristic.take_cost = Some(take_cost);
        }
        if let Some(danger) = self.same_rank_danger {
            heuristic.same_rank_danger = danger;
        }
        if let Some(danger) = self.run_danger {
            heuristic.run_danger = danger;
        }
        if let Some(lookahead) = self.lookahead {
            heuristic.lookahead = lookahead;
        }
        if let Some(late_stock) = self.late_stock {
            heuristic.late_stock = late_stock;
        }
        if let Some(late_knock) = self.late_knock {
            heuristic.late_knock = late_knock;
        }
        heuristic
    }
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

/// The rows against the stand-in for OpenSpiel's simple bot.
fn simple_rows(deals: u32, iterations: u32, seed: u64, weights: &Weights) -> anyhow::Result<()> {
    let options = openspiel_options();
    header();
    let started = Instant::now();
    let heuristic = weights.heuristic();
    let tally =
        gin_duplicate_matches(|_| Box::new(heuristic.clone()), simple_gin, options, deals, seed)?;
    row("gin (OpenSpiel rules)", 2, "gin-heuristic", "simple (stand-in)", tally);
    eprintln!("  {:.0} s", started.elapsed().as_secs_f64());
    if iterations > 0 {
        let (started, clock) = (Instant::now(), Clock::default());
        let hero = timed(search_gin(iterations), &clock);
        let tally = gin_duplicate_matches(hero, simple_gin, options, deals, seed)?;
        let name = format!("search ({iterations} samples/move)");
        row("gin (OpenSpiel rules)", 2, &name, "simple (stand-in)", tally);
        report_time(started, &clock);
    }
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    match args.command {
        Some(Command::Search { matches, iterations, seed, games, players }) => {
            return search_rows(matches, iterations, seed, &games, &players);
        }
        Some(Command::Simple { deals, iterations, seed, weights }) => {
            return simple_rows(deals, iterations, seed, &weights);
        }
        None => {}
    }
    header();
    for game in GameKind::ALL {
        catalogue::visit(game, RandomRows { matches: args.matches, seed: args.seed })?;
    }
    Ok(())
}
