//! A finished match's replay. The page lists the record's steps (each action and its events)
//! and draws one position, the one its address asks for (`?step=N`, the deal by default);
//! `replay.js` moves through the steps, fetching each position the server draws
//! (`{match}/steps/{N}`, the record replayed to that step), so that a page weighs its list of
//! steps and one position however long the match. Without JavaScript, the list's links, the
//! arrows and the slider's form load the page at another step.
//!
//! The table shows every hand (the match is over), or, with `?seat=N`, what that seat saw:
//! its own hand face up and the others face down, as its player saw the match.

use cardroom_games::{Perspective, Seat};
use maud::{Markup, html};

use super::{PageError, layout, layout_without_htmx, ordinal, table};
use crate::replay::{Position, Replay, position, read_record, steps};
use crate::source::FinishedMatch;

/// A seat's name and, when it has one, the link to its bot's page.
fn seat_name(m: &FinishedMatch, seat: usize) -> Markup {
    match (m.seats.get(seat), &m.ladder) {
        (Some((Some(number), name)), Some(ladder)) => {
            html! { a.seat href=(super::bot::bot_href(ladder, name, number)) { (name) } }
        }
        (Some((_, name)), _) => html! { span.seat { (name) } },
        (None, _) => html! { span.seat { "seat " (seat) } },
    }
}

/// Whose eyes a replay's table is drawn for: seat `seat`'s, or everyone's.
fn perspective(seat: Option<u8>) -> Perspective {
    seat.map_or(Perspective::Everyone, |seat| Perspective::Seat(Seat(seat)))
}

/// The replay page of `m`, whose address is `href`, drawing step `step` (the last step for
/// one past it) as `seat` saw it (every hand without one; a seat the match has not is
/// everyone's).
pub(super) fn page(m: &FinishedMatch, href: &str, step: Option<usize>, seat: Option<u8>) -> Markup {
    let title = format!("Match {}", m.id);
    let Some(json) = &m.record_json else {
        return layout(
            &title,
            html! { h1 { (title) } p.none { "No record was kept of this match." } },
        );
    };
    let record = match read_record(json) {
        Ok(record) => record,
        Err(error) => {
            return layout(&title, html! { h1 { (title) } p.error { (error.to_string()) } });
        }
    };
    let replay = steps(&record);
    let last = replay.steps.len().saturating_sub(1);
    let seat = seat.filter(|s| *s < replay.players);
    let shown = position(&record, step.unwrap_or(0).min(last), perspective(seat));
    layout_without_htmx(
        &title,
        html! {
            h1 { (title) }
            p {
                (replay.game)
                @if let Some(ladder) = &m.ladder { ", ladder " a href={ "/ladders/" (ladder) } { (ladder) } }
                @if let Some(at) = &m.finished_at { ", finished " (at) }
                "."
            }
            (result(m, &replay))
            p {
                a.download href={ (href) "/record.json" } download { "Download the record" }
                " (JSON, for " code { "cardroom replay" } ")"
            }
            @if let Some(error) = &replay.error {
                p.error.unverified { "The record does not verify: " (error) }
            }
            @if let Some(shown) = &shown {
                (stepper(m, href, &replay, shown, seat))
                script src="/static/replay.js" defer {}
            }
        },
    )
}

fn result(m: &FinishedMatch, replay: &Replay) -> Markup {
    html! {
        ol.result {
            @for seat in 0..usize::from(replay.players) {
                li data-seat=(seat) {
                    "seat " (seat) ": " (seat_name(m, seat))
                    @if let Some(place) = replay.places.as_ref().and_then(|p| p.get(seat)) {
                        ", " span.place { (ordinal(*place)) }
                    }
                }
            }
        }
    }
}

/// The controls, the position `shown` (as `seat` saw it, if one) and the list of steps.
fn stepper(
    m: &FinishedMatch,
    href: &str,
    replay: &Replay,
    shown: &Position,
    seat: Option<u8>,
) -> Markup {
    let last = replay.steps.len().saturating_sub(1);
    let at = shown.step;
    // What every link to another step carries: the seat whose eyes these are.
    let eyes = seat.map(|s| format!("&seat={s}")).unwrap_or_default();
    html! {
        div #replay data-steps=(replay.steps.len()) data-current=(at) data-href=(href)
            data-seat=[seat] {
            form.controls method="get" {
                a #first href={ "?step=0" (eyes) } aria-label="first step" { "⇤" }
                a #prev href={ "?step=" (at.saturating_sub(1)) (eyes) } aria-label="previous step" { "←" }
                input #step name="step" type="range" min="0" max=(last) value=(at) aria-label="step";
                @if let Some(seat) = seat { input type="hidden" name="seat" value=(seat); }
                a #next href={ "?step=" ((at + 1).min(last)) (eyes) } aria-label="next step" { "→" }
                a #last href={ "?step=" (last) (eyes) } aria-label="last step" { "⇥" }
                output #step-label for="step" { "step " (at) " of " (last) }
                noscript { button type="submit" { "Show" } }
                // Played by replay.js, which shows them.
                button #play type="button" hidden aria-pressed="false" { "▶ Play" }
                label #speed-label hidden {
                    "speed "
                    select #speed {
                        option value="2000" { "½ step/s" }
                        option value="1000" selected { "1 step/s" }
                        option value="500" { "2 steps/s" }
                        option value="250" { "4 steps/s" }
                    }
                }
            }
            (seen_by(m, replay.players, at, seat))
            // What each step did, said to screen readers as replay.js draws it.
            p #said .visually-hidden role="status" aria-live="polite" {}
            div.board {
                div #view { (draw_position(m, shown)) }
                ol #log start="0" {
                    @for (i, step) in replay.steps.iter().enumerate() {
                        li aria-current=[(i == at).then_some("step")] {
                            a href={ "?step=" (i) (eyes) } { (step.action.as_deref().unwrap_or("the deal")) }
                            @if let Some(comment) = &step.comment { br; q.comment { (comment) } }
                            @for event in &step.events { br; (event) }
                        }
                    }
                }
            }
        }
    }
}

/// Links to step `at` as everyone and as each seat saw it, the one shown (`seat`) marked.
fn seen_by(m: &FinishedMatch, players: u8, at: usize, seat: Option<u8>) -> Markup {
    let name = |s: u8| m.seats.get(usize::from(s)).map(|(_, name)| name.clone());
    let current = |shown: bool| shown.then_some("page");
    html! {
        p #eyes {
            "Seen by: "
            a href={ "?step=" (at) } aria-current=[current(seat.is_none())] { "everyone" }
            @for s in 0..players {
                " · "
                a href={ "?step=" (at) "&seat=" (s) } aria-current=[current(seat == Some(s))] {
                    (name(s).unwrap_or_else(|| format!("seat {s}")))
                }
            }
        }
    }
}

/// The position after step `step` of `m`, as `seat` saw it if one, drawn alone (what
/// `replay.js` fetches); a step the record does not reach, or a seat it has not, is not
/// found.
pub(super) fn fragment(
    m: &FinishedMatch,
    step: usize,
    seat: Option<u8>,
) -> Result<Markup, PageError> {
    let missing = || PageError::NotFound(format!("no step {step} in match {}", m.id));
    let json = m.record_json.as_deref().ok_or_else(missing)?;
    let record = read_record(json).map_err(|_| missing())?;
    let shown = position(&record, step, perspective(seat)).ok_or_else(missing)?;
    Ok(draw_position(m, &shown))
}

/// A position drawn: the step's action, what it did in one line, and the table with every
/// hand face up. The one drawing of a step, for the page and its fragments alike.
fn draw_position(m: &FinishedMatch, shown: &Position) -> Markup {
    let names: Vec<String> = m.seats.iter().map(|(_, name)| name.clone()).collect();
    html! {
        section.step data-step=(shown.step) {
            h3 {
                "Step " (shown.step) ": "
                span.action { (shown.action.as_deref().unwrap_or("the deal")) }
            }
            (table::draw(&shown.table, &names, &shown.lines))
        }
    }
}
