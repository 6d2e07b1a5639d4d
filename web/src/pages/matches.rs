//! A match: the step-through replay of its verified record once it is over (`replay.rs`), its
//! record for download, and while it runs on the server only its public view, live from
//! `Watch`.

use std::convert::Infallible;

use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use futures::{Stream, StreamExt as _};
use maud::{Markup, html};
use serde::Deserialize;

use cardroom_games::{Game, GameKind, GameVisitor};

use super::view::value;
use super::{PageError, layout, live, replay, table};
use crate::App;
use crate::replay::read_record;
use crate::source::{FinishedMatch, LiveMatch, Source, WatchEvent, WatchUpdate};
use crate::streams::StreamSlot;

fn record_download(m: &FinishedMatch) -> Result<Response, PageError> {
    let Some(json) = &m.record_json else {
        return Err(PageError::NotFound(format!("no record of match {}", m.id)));
    };
    // Written again tagged with its game, whatever form it was stored in.
    let json = read_record(json).map_or_else(|_| json.clone(), |record| record.to_json());
    let disposition = format!("attachment; filename=\"match-{}.json\"", m.id);
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        json,
    )
        .into_response())
}

async fn ladder_finished<S: Source>(
    app: &App<S>,
    ladder: &str,
    id: &str,
) -> Result<FinishedMatch, PageError> {
    app.source
        .ladder_match(ladder, id)
        .await?
        .ok_or_else(|| PageError::NotFound(format!("no finished match {id} in ladder {ladder}")))
}

/// Which step of a replay to draw, and as which seat saw it: `?step=N&seat=S`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct StepQuery {
    step: Option<usize>,
    seat: Option<u8>,
}

/// A step's drawing, which a browser may keep: a finished match's record does not change.
fn step_response(m: &FinishedMatch, step: usize, seat: Option<u8>) -> Result<Response, PageError> {
    let drawn = replay::fragment(m, step, seat)?;
    Ok(([(header::CACHE_CONTROL, "public, max-age=3600")], drawn).into_response())
}

/// `/ladders/{ladder}/matches/{id}?step=N`: the replay.
pub(crate) async fn ladder_match<S: Source>(
    State(app): State<App<S>>,
    Path((ladder, id)): Path<(String, String)>,
    Query(query): Query<StepQuery>,
) -> Result<Markup, PageError> {
    let m = ladder_finished(&app, &ladder, &id).await?;
    let href = format!("/ladders/{ladder}/matches/{}", m.id);
    Ok(replay::page(&m, &href, query.step, query.seat))
}

/// `/ladders/{ladder}/matches/{id}/steps/{step}?seat=S`: the replay's position after that
/// step.
pub(crate) async fn ladder_step<S: Source>(
    State(app): State<App<S>>,
    Path((ladder, id, step)): Path<(String, String, usize)>,
    Query(query): Query<StepQuery>,
) -> Result<Response, PageError> {
    step_response(&ladder_finished(&app, &ladder, &id).await?, step, query.seat)
}

/// `/ladders/{ladder}/matches/{id}/record.json`.
pub(crate) async fn ladder_record<S: Source>(
    State(app): State<App<S>>,
    Path((ladder, id)): Path<(String, String)>,
) -> Result<Response, PageError> {
    record_download(&ladder_finished(&app, &ladder, &id).await?)
}

/// The front page's form: `/matches?id=ID`.
#[derive(Debug, Deserialize)]
pub(crate) struct FindQuery {
    id: String,
}

/// `/matches?id=ID`: to the match's page.
pub(crate) async fn find_match(Query(query): Query<FindQuery>) -> Result<Redirect, PageError> {
    let id = query.id.trim();
    if !super::is_plain_id(id) {
        return Err(PageError::NotFound(format!("{id:?} is not a match id")));
    }
    Ok(Redirect::to(&format!("/matches/{id}")))
}

fn live_page(m: &LiveMatch) -> Markup {
    let title = format!("Match {}", m.id);
    layout(
        &title,
        html! {
            h1 { (title) " " span.live { "live" } }
            p {
                (m.game) ", running"
                @if let Some(host) = &m.host { " " span.host { "on node " (host) } }
                ". Only what spectators may see is shown; the hands appear in the replay once it is over."
            }
            ol.seats {
                @for (seat, s) in m.seats.iter().enumerate() {
                    li data-seat=(seat) {
                        "seat " (seat) ": " span.seat { (s.name) }
                        @if !s.connected { " (disconnected)" }
                        @if s.strikes > 0 { ", " (s.strikes) " strikes" }
                    }
                }
            }
            div hx-ext="sse" sse-connect={ "/matches/" (m.id) "/live" } {
                p #end sse-swap="end" {}
                div.board {
                    div #public sse-swap="view" { p.none { "Waiting for the next move…" } }
                    div.events {
                        h2 { "Events" }
                        ol #events role="log" sse-swap="events" hx-swap="beforeend" {}
                    }
                }
            }
        },
    )
}

async fn finished_on_server<S: Source>(app: &App<S>, id: &str) -> Result<FinishedMatch, PageError> {
    app.source
        .server_match(id)
        .await?
        .ok_or_else(|| PageError::NotFound(format!("no finished match {id} on the server")))
}

/// `/matches/{id}?step=N`: a server's match, live while it runs, its replay once it is over.
pub(crate) async fn server_match<S: Source>(
    State(app): State<App<S>>,
    Path(id): Path<String>,
    Query(query): Query<StepQuery>,
) -> Result<Markup, PageError> {
    match app.source.live_match(&id).await? {
        Some(live) if !live.over => Ok(live_page(&live)),
        _ => {
            let m = finished_on_server(&app, &id).await?;
            Ok(replay::page(&m, &format!("/matches/{}", m.id), query.step, query.seat))
        }
    }
}

/// `/matches/{id}/steps/{step}?seat=S`: a finished server match's position after that step.
pub(crate) async fn server_step<S: Source>(
    State(app): State<App<S>>,
    Path((id, step)): Path<(String, usize)>,
    Query(query): Query<StepQuery>,
) -> Result<Response, PageError> {
    step_response(&finished_on_server(&app, &id).await?, step, query.seat)
}

/// `/matches/{id}/record.json`.
pub(crate) async fn server_record<S: Source>(
    State(app): State<App<S>>,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    record_download(&finished_on_server(&app, &id).await?)
}

/// One `Watch` message drawn by the game's engine: the table of its public view
/// ([`Game::public_table`]) with its events' lines, and each event as a list item. What the
/// engine cannot read (an engine older than the server's) is drawn generically: the view as
/// JSON, the events as their text.
struct Drawn<'a> {
    update: &'a WatchUpdate,
    names: &'a [String],
}

impl GameVisitor for Drawn<'_> {
    type Output = (Option<Markup>, Vec<Markup>);

    fn visit<G: Game>(self) -> Self::Output {
        let lines: Vec<Option<cardroom_games::Line>> = self
            .update
            .events
            .iter()
            .map(|e| serde_json::from_str::<G::Event>(&e.json).ok().map(|e| G::event_line(&e)))
            .collect();
        let items = self
            .update
            .events
            .iter()
            .zip(&lines)
            .map(|(event, line)| match line {
                Some(line) => table::line(self.names, line),
                None => html! { (event.text) },
            })
            .collect();
        let view = self.update.public_json.as_deref().and_then(|public| {
            let view = serde_json::from_str::<G::PublicView>(public).ok()?;
            let said: Vec<_> = lines.into_iter().flatten().collect();
            Some(table::draw(&G::public_table(&view), self.names, &said))
        });
        (view, items)
    }
}

/// The SSE events of one `Watch` message: `view` (the table redrawn), `events` (list items to
/// append) and, at the end, `end`.
fn watch_events(
    id: &str,
    kind: Option<GameKind>,
    names: &[String],
    update: &WatchUpdate,
) -> Vec<Event> {
    let (view, items) = match kind {
        Some(kind) => kind.visit(Drawn { update, names }),
        None => (None, update.events.iter().map(|e: &WatchEvent| html! { (e.text) }).collect()),
    };
    let view = view.or_else(|| {
        let public = update.public_json.as_deref()?;
        serde_json::from_str::<serde_json::Value>(public).ok().map(|v| value(&v))
    });
    let mut out = Vec::new();
    if let Some(view) = view {
        out.push(Event::default().event("view").data(view.into_string()));
    }
    if !items.is_empty() {
        let items = html! { @for item in &items { li { (item) } } };
        out.push(Event::default().event("events").data(items.into_string()));
    }
    if let Some(end) = &update.end {
        let text = html! { (end) ". " a href={ "/matches/" (id) } { "See the replay" } };
        out.push(Event::default().event("end").data(text.into_string()));
    }
    out
}

/// `/matches/{id}/live`: the match's public stream as server-sent events.
pub(crate) async fn server_match_live<S: Source>(
    State(app): State<App<S>>,
    Path(id): Path<String>,
    slot: StreamSlot,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, PageError> {
    let Some(m) = app.source.live_match(&id).await? else {
        return Err(PageError::NotFound(format!("no match {id} on the server")));
    };
    let names: Vec<String> = m.seats.into_iter().map(|s| s.name).collect();
    let updates = app.source.watch(&id).await?;
    let stream =
        updates.take_while(|update| std::future::ready(update.is_ok())).flat_map(move |update| {
            let events = update.map(|u| watch_events(&id, m.kind, &names, &u)).unwrap_or_default();
            futures::stream::iter(events.into_iter().map(Ok))
        });
    Ok(live(stream, slot))
}
