//! Gin Rummy's own measurement: the tuned heuristic and the search against the in-process
//! stand-in for OpenSpiel's simple bot, under OpenSpiel's rules, on duplicate deals:
//! `cargo run --release -p cardroom-example-bots --bin gin-simple -- --deals 1000`.
//!
//! The stand-in is `gin_simple::SimpleGin`; OpenSpiel's rules are `openspiel_options`. The
//! README's numbers against OpenSpiel's own bot come from the arena over a server
//! (`examples/arena/gin-openspiel.toml`); this is for tuning.

use std::time::Instant;

use cardroom_example_bots::gin_heuristic::GinHeuristic;
use cardroom_example_bots::measure::{
    Clock, gin_duplicate_matches, header, openspiel_options, report_time, row, simple_gin, timed,
};
use cardroom_example_bots::search::{BotPolicy, Budget, SearchBot, SearchConfig};
use cardroom_games::gin;
use cardroom_sdk::Bot;
use clap::Parser;

/// The flags.
#[derive(Parser)]
struct Args {
    /// Deals, each played twice (seats swapped).
    #[arg(long, default_value_t = 200)]
    deals: u32,
    /// Samples per search decision; 0 leaves the search out.
    #[arg(long, default_value_t = 0)]
    iterations: u32,
    /// The first deal's seed; deal `i` uses `seed + i`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// `SearchConfig::two_way_factor`: the iterations of a decision between two candidates.
    #[arg(long, default_value_t = 1)]
    two_way_factor: u32,
    /// Plays the search out with `GinHeuristic::fast` for both seats (the playout policy before
    /// `GinPlayout`, the default), to compare the two.
    #[arg(long)]
    fast_playout: bool,
    /// The heuristic's weights, to tune them (the defaults are `GinHeuristic::default`).
    #[command(flatten)]
    weights: Weights,
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

/// The rows against the stand-in for OpenSpiel's simple bot.
fn simple_rows(args: &Args) -> anyhow::Result<()> {
    let (deals, iterations, seed, weights) =
        (args.deals, args.iterations, args.seed, &args.weights);
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
        let (factor, fast) = (args.two_way_factor, args.fast_playout);
        let search = move |seed| -> Box<dyn Bot<gin::State>> {
            let config = SearchConfig {
                budget: Budget::Iterations(iterations),
                two_way_factor: factor,
                seed,
                ..SearchConfig::default()
            };
            if fast {
                let policy = BotPolicy(GinHeuristic::fast());
                Box::new(SearchBot::with_policy(config, Box::new(policy)))
            } else {
                Box::new(SearchBot::<gin::State>::new(config))
            }
        };
        let hero = timed(search, &clock);
        let tally = gin_duplicate_matches(hero, simple_gin, options, deals, seed)?;
        let name = format!("search ({iterations} samples/move)");
        row("gin (OpenSpiel rules)", 2, &name, "simple (stand-in)", tally);
        report_time(started, &clock);
    }
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    simple_rows(&args)
}
