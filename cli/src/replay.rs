//! `cardroom replay` and `cardroom legal`: re-simulate a record with the rules engine.

use std::fmt::Display;
use std::io::{Read, Write};
use std::path::Path;

use anyhow::Context;
use cardroom_games::{Game, Record, Seat, gin, twenty_two};
use serde::Serialize;
use serde_json::json;

/// Reads a record from a file, or from standard input for `-`.
pub(crate) fn read_record(path: &Path) -> anyhow::Result<Record> {
    let text = if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).context("reading the record from stdin")?;
        text
    } else {
        std::fs::read_to_string(path)
            .with_context(|| format!("reading the record {}", path.display()))?
    };
    Record::from_json(&text).with_context(|| format!("{} is not a match record", path.display()))
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

/// Receives one step: who did what (nothing for the opening), and the events it caused.
type OnStep<'a, G> = &'a mut dyn FnMut(Option<(Seat, <G as Game>::Action)>, &[<G as Game>::Event]);

/// Replays every action of a game's record through its `replay_with`, collecting the steps.
fn replayed<G: Game, E: Display>(
    replay_with: impl FnOnce(OnStep<'_, G>) -> Result<G, E>,
) -> anyhow::Result<(G, Steps<G>)> {
    let mut steps = Vec::new();
    let state = replay_with(&mut |acted, events| {
        steps.push(Step {
            seat: acted.map(|(seat, _)| seat),
            action: acted.map(|(_, action)| action),
            events: events.to_vec(),
        });
    })
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok((state, steps))
}

fn twenty_two_steps(
    record: &twenty_two::Record,
) -> anyhow::Result<(twenty_two::State, Steps<twenty_two::State>)> {
    replayed(|on| record.replay_with(|acted, events| on(acted.map(|a| (a.seat, a.action)), events)))
}

fn gin_steps(record: &gin::Record) -> anyhow::Result<(gin::State, Steps<gin::State>)> {
    let initial = record.initial_state().map_err(|e| anyhow::anyhow!("{e}"))?;
    let opening = Game::opening_events(&initial);
    replayed(|on| {
        on(None, &opening);
        record.replay_with(|index, events| {
            let acted = record.actions.get(index).map(|a| (a.seat, a.action));
            on(acted, events);
        })
    })
}

/// `cardroom replay FILE [--json]`.
pub(crate) fn replay(path: &Path, json: bool, out: &mut impl Write) -> anyhow::Result<()> {
    match read_record(path)? {
        Record::TwentyTwo(record) => {
            let (state, steps) = twenty_two_steps(&record)?;
            print_replay(&state, &steps, json, out)
        }
        Record::Gin(record) => {
            let (state, steps) = gin_steps(&record)?;
            print_replay(&state, &steps, json, out)
        }
    }
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
    match read_record(path)? {
        Record::TwentyTwo(record) => {
            print_legal(&record.replay().map_err(|e| anyhow::anyhow!("{e}"))?, json, out)
        }
        Record::Gin(record) => {
            print_legal(&record.replay().map_err(|e| anyhow::anyhow!("{e}"))?, json, out)
        }
    }
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
