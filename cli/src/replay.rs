//! `cardroom replay` and `cardroom legal`: re-simulate a record with the rules engine.

use std::io::{Read, Write};
use std::path::Path;

use anyhow::Context;
use cardroom_games::{AnyRecord, Game, Record, RecordVisitor, Seat};
use serde::Serialize;
use serde_json::json;

/// Reads a record from a file, or from standard input for `-`.
pub(crate) fn read_record(path: &Path) -> anyhow::Result<AnyRecord> {
    let text = if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).context("reading the record from stdin")?;
        text
    } else {
        std::fs::read_to_string(path)
            .with_context(|| format!("reading the record {}", path.display()))?
    };
    AnyRecord::from_json(&text).with_context(|| format!("{} is not a match record", path.display()))
}

/// One replayed action and what it caused.
#[derive(Serialize)]
struct Step<A, E> {
    /// `None` for the opening events.
    seat: Option<Seat>,
    action: Option<A>,
    events: Vec<E>,
}

/// Every step of a replayed match of game `G`.
type Steps<G> = Vec<Step<<G as Game>::Action, <G as Game>::Event>>;

/// Replays every action of a record, collecting the steps.
fn replayed<G: Game>(record: &Record<G>) -> anyhow::Result<(G, Steps<G>)> {
    let mut steps = Vec::new();
    let state = record
        .replay_with(|acted, events| {
            steps.push(Step {
                seat: acted.map(|a| a.seat),
                action: acted.map(|a| a.action),
                events: events.to_vec(),
            });
        })
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok((state, steps))
}

/// `cardroom replay FILE [--json]`.
pub(crate) fn replay(path: &Path, json: bool, out: &mut impl Write) -> anyhow::Result<()> {
    struct Replay<'a, W> {
        json: bool,
        out: &'a mut W,
    }
    impl<W: Write> RecordVisitor for Replay<'_, W> {
        type Output = anyhow::Result<()>;
        fn visit<G: Game>(self, record: &Record<G>) -> anyhow::Result<()> {
            let (state, steps) = replayed(record)?;
            print_replay(&state, &steps, self.json, self.out)
        }
    }
    read_record(path)?.visit(Replay { json, out })
}

fn print_replay<G: Game>(
    state: &G,
    steps: &Steps<G>,
    json: bool,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    if json {
        let report = json!({
            "game": G::NAME,
            "actions": steps.iter().filter(|s| s.action.is_some()).count(),
            "over": state.to_act().is_none(),
            "to_act": state.to_act(),
            "standings": state.standings(),
            "steps": steps,
            "final": state.public_view(),
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    for step in steps {
        if let (Some(seat), Some(action)) = (step.seat, step.action) {
            writeln!(out, "{seat} {action}")?;
        }
        for event in &step.events {
            writeln!(out, "    {event}")?;
        }
    }
    match (state.to_act(), state.standings()) {
        (_, Some(standings)) => {
            writeln!(out, "final standings:")?;
            for s in standings {
                writeln!(out, "  {}. {}", s.place, s.seat)?;
            }
        }
        (Some(seat), None) => writeln!(out, "the match goes on: {seat} to act")?,
        (None, None) => writeln!(out, "the match ended without standings")?,
    }
    Ok(())
}

/// `cardroom legal FILE [--json]`.
pub(crate) fn legal(path: &Path, json: bool, out: &mut impl Write) -> anyhow::Result<()> {
    struct Legal<'a, W> {
        json: bool,
        out: &'a mut W,
    }
    impl<W: Write> RecordVisitor for Legal<'_, W> {
        type Output = anyhow::Result<()>;
        fn visit<G: Game>(self, record: &Record<G>) -> anyhow::Result<()> {
            let state = record.replay().map_err(|e| anyhow::anyhow!("{e}"))?;
            print_legal(&state, self.json, self.out)
        }
    }
    read_record(path)?.visit(Legal { json, out })
}

fn print_legal<G: Game>(state: &G, json: bool, out: &mut impl Write) -> anyhow::Result<()> {
    let legal = state.legal_actions();
    if json {
        let report = json!({ "game": G::NAME, "to_act": state.to_act(), "legal_actions": legal });
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    match state.to_act() {
        None => writeln!(out, "the match is over: nobody acts")?,
        Some(seat) => {
            writeln!(out, "{seat} to act, {} legal actions:", legal.len())?;
            for (i, action) in legal.iter().enumerate() {
                writeln!(out, "  {i:>3}  {action}")?;
            }
        }
    }
    Ok(())
}
