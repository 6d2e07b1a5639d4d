//! `cardroom replay` and `cardroom legal`: re-simulate a record with the rules engine.

use std::io::{Read, Write};
use std::path::Path;

use anyhow::Context;
use cardroom_games::{
    AnyRecord, Game, Line, Perspective, Record, RecordVisitor, ReplayError, Seat, text,
};
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
    /// What the seat said beside it (`Act.comment`).
    #[serde(skip_serializing_if = "Option::is_none")]
    comment: Option<String>,
    events: Vec<E>,
}

/// Every step of a replayed match of game `G`.
type Steps<G> = Vec<Step<<G as Game>::Action, <G as Game>::Event>>;

/// Replays every action of a record, collecting the steps.
fn replayed<G: Game>(record: &Record<G>) -> anyhow::Result<(G, Steps<G>)> {
    let mut steps = Vec::new();
    let state = record
        .replay_with(|acted, events| {
            // The opening events come first, with no action: action `i` is step `i + 1`.
            let comment = acted.and_then(|_| record.comment(steps.len().wrapping_sub(1)));
            steps.push(Step {
                seat: acted.map(|a| a.seat),
                action: acted.map(|a| a.action),
                comment: comment.map(str::to_owned),
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
        if let Some(comment) = &step.comment {
            writeln!(out, "    says: {comment:?}")?;
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

/// `cardroom replay FILE --text`: each turn as the text harness gives it to the seat to act
/// (`cardroom_games::text`), then the action it took, by its number and words.
pub(crate) fn replay_text(path: &Path, out: &mut impl Write) -> anyhow::Result<()> {
    struct Text<'a, W>(&'a mut W);
    impl<W: Write> RecordVisitor for Text<'_, W> {
        type Output = anyhow::Result<()>;
        fn visit<G: Game>(self, record: &Record<G>) -> anyhow::Result<()> {
            let out = self.0;
            let mut state = record.initial_state().map_err(|e| anyhow::anyhow!("{e}"))?;
            let opening: Vec<Line> = state.opening_events().iter().map(G::event_line).collect();
            let mut recent = vec![opening; usize::from(state.players())];
            for (index, recorded) in record.actions.iter().enumerate() {
                let seat = recorded.seat;
                let legal = state.legal_actions();
                let table = state.table(Perspective::Seat(seat));
                let seen = std::mem::take(&mut recent[seat.index()]);
                writeln!(out, "--- turn {}, {seat}", index + 1)?;
                write!(out, "{}", text::turn_text(&table, &seen, &legal))?;
                let number = legal.iter().position(|a| *a == recorded.action);
                let number = number.map_or("not listed".to_owned(), |i| (i + 1).to_string());
                writeln!(out, "> {number}. {}", recorded.action)?;
                let events = state.apply(seat, recorded.action).map_err(|error| {
                    let action = recorded.action;
                    anyhow::anyhow!("{}", ReplayError::<G>::Illegal { index, seat, action, error })
                })?;
                for lines in &mut recent {
                    lines.extend(events.iter().map(G::event_line));
                }
            }
            writeln!(out, "--- the end")?;
            write!(out, "{}", text::table_text(&state.table(Perspective::Everyone)))?;
            Ok(())
        }
    }
    read_record(path)?.visit(Text(out))
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
