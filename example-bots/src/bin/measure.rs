//! Prints the win-rate table of `example-bots/README.md`: each heuristic against random bots,
//! in process, with Wilson 95% confidence intervals.
//!
//! `cargo run --release -p cardroom-example-bots --bin measure -- --matches 2000 --seed 1`

use cardroom_example_bots::measure::{Maker, Tally, gin_match, measure, twenty_two_match};
use cardroom_sdk::games::{gin, twenty_two};
use clap::Parser;

/// The flags.
#[derive(Parser)]
struct Args {
    /// Matches per row.
    #[arg(long, default_value_t = 2000)]
    matches: u32,
    /// The first match's seed; match `i` uses `seed + i`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

use cardroom_example_bots::measure::{heuristic_gin, heuristic_tt, random_gin, random_tt};

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

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    println!(
        "| game | players | hero (1 seat) | others | matches | hero wins | win rate | 95% CI (Wilson) | even share | hero's average place |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
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
