//! `cardroom gin`: Gin Rummy's exact meld solver from the command line.
//!
//! ```text
//! cardroom gin deadwood 2S 8S 9S AC 2C 7C 8C 2D 8D 2H
//! cardroom gin deadwood "3C AH 3S 6D 6H 5H 4C 4D 6C 5C 5D" --json
//! cardroom gin layoff --knocker "AS 2S 3S / 5C 5D 5H" --defender 4S 5S 6C 7C 8C TH JH QH KH AC
//! ```

use std::io::Write;

use anyhow::{Context, bail};
use cardroom_games::Card;
use cardroom_games::gin::CardSet;
use cardroom_games::gin::solver::{self, Arrangement, Layout};
use clap::Subcommand;
use serde::Serialize;

/// `cardroom gin …`.
#[derive(Debug, Subcommand)]
pub(crate) enum GinCommand {
    /// The minimum deadwood of a hand (GR-2). 10 cards (or fewer): the deadwood and every
    /// optimal arrangement. 11 cards: the knock check (GR-3), the best discards and the
    /// deadwood left by every discard.
    Deadwood {
        /// The cards, such as `AS 2S 3S` or `10♥`; separate them with spaces or commas.
        #[arg(required = true, num_args = 1..)]
        cards: Vec<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// The defender's best layout after a knock (GR-9): own melds, cards laid off on the
    /// knocker's melds (chained run extensions included) and the deadwood left.
    Layoff {
        /// The knocker's melds, separated by `/`, `|` or `;`, such as `"AS 2S 3S / 5C 5D 5H"`.
        #[arg(long, required = true, num_args = 1..)]
        knocker: Vec<String>,
        /// The defender's cards (up to 11).
        #[arg(long, required = true, num_args = 1..)]
        defender: Vec<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// This game's tools among `cardroom`'s commands (`main.rs` flattens them into its own):
/// `cardroom gin …`.
#[derive(Debug, Subcommand)]
pub(crate) enum GameTools {
    /// Gin Rummy's exact meld solver: deadwood, knock checks, layoffs.
    #[command(subcommand)]
    Gin(GinCommand),
}

impl GameTools {
    /// Runs the command, writing to `out`.
    pub(crate) fn run(self, out: &mut dyn Write) -> anyhow::Result<()> {
        match self {
            GameTools::Gin(command) => run(command, out),
        }
    }
}

/// Runs a `cardroom gin` command, writing to `out`.
pub(crate) fn run(command: GinCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        GinCommand::Deadwood { cards, json } => deadwood(&cards.join(" "), json, out),
        GinCommand::Layoff { knocker, defender, json } => {
            layoff(&knocker.join(" "), &defender.join(" "), json, out)
        }
    }
}

fn parse_set(text: &str) -> anyhow::Result<CardSet> {
    text.parse::<CardSet>().map_err(|e| anyhow::anyhow!("{e}"))
}

fn parse_melds(text: &str) -> anyhow::Result<Arrangement> {
    let melds = text
        .split(['/', '|', ';'])
        .filter(|part| !part.trim().is_empty())
        .map(parse_set)
        .collect::<anyhow::Result<Vec<CardSet>>>()?;
    if melds.is_empty() {
        bail!("--knocker needs at least one meld, such as \"AS 2S 3S / 5C 5D 5H\"");
    }
    Arrangement::new(&melds).context("the knocker's melds")
}

/// One arrangement with the cards it leaves over.
#[derive(Serialize)]
struct Arranged {
    melds: Arrangement,
    deadwood_cards: CardSet,
}

impl Arranged {
    fn new(hand: CardSet, melds: Arrangement) -> Arranged {
        Arranged { melds, deadwood_cards: hand - melds.cards() }
    }
}

#[derive(Serialize)]
struct TenCards {
    cards: CardSet,
    deadwood: u8,
    arrangements: Vec<Arranged>,
}

#[derive(Serialize)]
struct Discard {
    discard: Card,
    deadwood: u8,
}

#[derive(Serialize)]
struct BestDiscard {
    discard: Card,
    deadwood: u8,
    arrangements: Vec<Arranged>,
}

#[derive(Serialize)]
struct ElevenCards {
    cards: CardSet,
    /// The knock check: the least deadwood after a discard.
    deadwood: u8,
    best: Vec<BestDiscard>,
    all: Vec<Discard>,
}

fn arranged(hand: CardSet) -> anyhow::Result<(u8, Vec<Arranged>)> {
    let (deadwood, arrangements) = solver::min_deadwood(hand)?;
    Ok((deadwood, arrangements.into_iter().map(|a| Arranged::new(hand, a)).collect()))
}

fn write_arrangements(out: &mut dyn Write, arrangements: &[Arranged]) -> anyhow::Result<()> {
    for a in arrangements {
        write!(out, "  {}", a.melds)?;
        if a.deadwood_cards.is_empty() {
            writeln!(out)?;
        } else {
            writeln!(out, "  deadwood {}", a.deadwood_cards)?;
        }
    }
    Ok(())
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn deadwood(text: &str, json: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let hand = parse_set(text)?;
    match hand.len() {
        0 => bail!("name the cards of a hand, such as AS 2S 3S"),
        1..=10 => {
            let (deadwood, arrangements) = arranged(hand)?;
            if json {
                let report = TenCards { cards: hand, deadwood, arrangements };
                writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
            } else {
                writeln!(out, "{}: {hand}", plural(hand.len(), "card", "cards"))?;
                let n = arrangements.len();
                let ways = plural(n, "optimal arrangement", "optimal arrangements");
                writeln!(out, "deadwood {deadwood}, {ways}:")?;
                write_arrangements(out, &arrangements)?;
            }
        }
        11 => {
            let discards = solver::best_discards(hand)?;
            let best = discards
                .best
                .iter()
                .map(|&discard| {
                    let (deadwood, arrangements) = arranged(hand - CardSet::single(discard))?;
                    Ok(BestDiscard { discard, deadwood, arrangements })
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            let all = discards.all.iter().map(|&(discard, deadwood)| Discard { discard, deadwood });
            let report =
                ElevenCards { cards: hand, deadwood: discards.deadwood, best, all: all.collect() };
            if json {
                writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
            } else {
                writeln!(out, "11 cards: {hand}")?;
                let cards: Vec<String> =
                    report.best.iter().map(|b| b.discard.to_string()).collect();
                writeln!(
                    out,
                    "knock check (GR-3): deadwood {} after discarding {}",
                    report.deadwood,
                    cards.join(" or ")
                )?;
                for b in &report.best {
                    writeln!(out, "discard {}: deadwood {}", b.discard, b.deadwood)?;
                    write_arrangements(out, &b.arrangements)?;
                }
                let every: Vec<String> =
                    report.all.iter().map(|d| format!("{} {}", d.discard, d.deadwood)).collect();
                writeln!(out, "every discard: {}", every.join(", "))?;
            }
        }
        n => bail!("GR-4: a hand holds 10 cards, or 11 after a draw, not {n}"),
    }
    Ok(())
}

#[derive(Serialize)]
struct LayoffReport {
    knocker: Arrangement,
    defender: CardSet,
    #[serde(flatten)]
    layout: Layout,
}

fn layoff(knocker: &str, defender: &str, json: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let knocker = parse_melds(knocker)?;
    let defender = parse_set(defender)?;
    let layout = solver::defender_layout(&knocker, defender)?;
    if json {
        let report = LayoffReport { knocker, defender, layout };
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    writeln!(out, "knocker: {knocker}")?;
    writeln!(out, "defender: {defender}")?;
    writeln!(out, "defender's melds: {}", layout.melds)?;
    if layout.layoffs.is_empty() {
        writeln!(out, "laid off: nothing")?;
    } else {
        writeln!(out, "laid off: {}", layout.layoffs)?;
        for (meld, cards) in knocker.melds().zip(layout.onto) {
            if !cards.is_empty() {
                writeln!(out, "  {cards} on [{meld}]")?;
            }
        }
    }
    write!(out, "deadwood {}", layout.deadwood)?;
    if layout.deadwood_cards.is_empty() {
        writeln!(out)?;
    } else {
        writeln!(out, " ({})", layout.deadwood_cards)?;
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(subcommand)]
        command: GinCommand,
    }

    fn run_args(args: &[&str]) -> anyhow::Result<String> {
        let cli = Cli::try_parse_from(std::iter::once("gin").chain(args.iter().copied()))?;
        let mut out = Vec::new();
        run(cli.command, &mut out)?;
        Ok(String::from_utf8(out)?)
    }

    #[test]
    fn deadwood_of_ten_cards_lists_every_optimal_arrangement() {
        let text =
            run_args(&["deadwood", "AS", "5S", "6S", "7S", "5C", "6C", "7C", "5D", "6D", "7D"])
                .unwrap();
        assert!(text.contains("deadwood 1, 2 optimal arrangements:"), "{text}");
        assert!(text.contains("[5♣ 5♦ 5♠] [6♣ 6♦ 6♠] [7♣ 7♦ 7♠]  deadwood A♠"), "{text}");
        let json = run_args(&["deadwood", "2S 8S 9S AC 2C 7C 8C 2D 8D 2H", "--json"]).unwrap();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["deadwood"], 17);
        assert_eq!(
            value["arrangements"][0]["melds"][0],
            serde_json::json!(["2C", "2D", "2H", "2S"])
        );
        assert_eq!(
            value["arrangements"][0]["deadwood_cards"],
            serde_json::json!(["AC", "7C", "9S"])
        );
    }

    #[test]
    fn deadwood_of_eleven_cards_is_the_knock_check() {
        let text = run_args(&["deadwood", "3C,AH,3S,6D,6H,5H,4C,4D,6C,5C,5D"]).unwrap();
        assert!(text.contains("knock check (GR-3): deadwood 9 after discarding 6♥"), "{text}");
        let json = run_args(&["deadwood", "3C AH 3S 6D 6H 5H 4C 4D 6C 5C 5D", "--json"]).unwrap();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["deadwood"], 9);
        assert_eq!(value["best"][0]["discard"], "6H");
        assert_eq!(value["all"].as_array().unwrap().len(), 11);
    }

    #[test]
    fn bad_hands_are_explained() {
        let err = run_args(&["deadwood", "AS", "AS"]).unwrap_err().to_string();
        assert!(err.contains("twice"), "{err}");
        let err =
            run_args(&["deadwood", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"]).unwrap_err().to_string();
        assert!(err.contains("GR-4"), "{err}");
        let err = run_args(&["deadwood", "ZZ"]).unwrap_err().to_string();
        assert!(err.contains("is not a card"), "{err}");
        assert!(run_args(&["deadwood"]).is_err());
    }

    #[test]
    fn layoff_chains_onto_the_knockers_runs() {
        let text = run_args(&[
            "layoff",
            "--knocker",
            "AS 2S 3S / 5C 5D 5H",
            "--defender",
            "4S 5S 6C 7C 8C TH JH QH KH AC",
        ])
        .unwrap();
        assert!(text.contains("laid off: 4♠ 5♠"), "{text}");
        assert!(text.contains("4♠ 5♠ on [A♠ 2♠ 3♠]"), "{text}");
        assert!(text.contains("deadwood 1 (A♣)"), "{text}");
        let json = run_args(&[
            "layoff",
            "--knocker",
            "AS 2S 3S | 5C 5D 5H",
            "--defender",
            "4S 5S 6C 7C 8C TH JH QH KH AC",
            "--json",
        ])
        .unwrap();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["deadwood"], 1);
        assert_eq!(value["layoffs"], serde_json::json!(["4S", "5S"]));
        let err = run_args(&["layoff", "--knocker", "QS KS AS", "--defender", "2C"]).unwrap_err();
        assert!(format!("{err:#}").contains("GR-2"), "{err:#}");
        let err =
            run_args(&["layoff", "--knocker", "AS 2S 3S", "--defender", "AS 4S"]).unwrap_err();
        assert!(err.to_string().contains("share"), "{err}");
    }
}
