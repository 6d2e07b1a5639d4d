//! The front page, the list of ladders and a ladder's leaderboard, live as matches finish.

use std::convert::Infallible;

use axum::extract::{Path, State};
use axum::response::sse::{Event, Sse};
use futures::Stream;
use maud::{Markup, html};

use super::bot::bot_href;
use super::{PageError, layout, live, percent};
use crate::App;
use crate::feeds::{FeedKey, Publisher};
use crate::source::{LadderInfo, Leaderboard, Source};
use crate::streams::StreamSlot;

fn ladder_table(ladders: &[LadderInfo]) -> Markup {
    html! {
        @if ladders.is_empty() {
            p.none {
                "No ladders yet: a server with a store (" code { "--store" } ") hosts them ("
                code { "--ladder" } ")."
            }
        } @else {
            table.ladders {
                thead { tr { th { "ladder" } th { "game" } th { "format" } th { "seats" }
                    th { "rating" } th { "bots" } th { "matches" } } }
                tbody {
                    @for l in ladders {
                        tr {
                            td { a href={ "/ladders/" (l.id) } { (l.id) } }
                            td { (l.game) }
                            td { (l.format) }
                            td.num { (l.seats) }
                            td { (l.rating) }
                            td.num { (l.bots) }
                            td.num { (l.matches_done) " / " (l.matches_planned) }
                        }
                    }
                }
            }
        }
    }
}

/// `/`: the ladders, the server and a way to open a match by its id.
pub(crate) async fn front<S: Source>(State(app): State<App<S>>) -> Result<Markup, PageError> {
    let ladders = app.source.ladders().await?;
    Ok(layout(
        "cardroom",
        html! {
            h1 { "cardroom" }
            p { "Card-game matches between bots: ladders, ratings, replays and live matches." }
            h2 { a href="/ladders" { "Ladders" } }
            (ladder_table(&ladders))
            h2 { a href="/server" { "The server" } }
            p {
                a.running href="/server/matches" { "Matches running" }
                " (each watched live), "
                a href="/server/matches?state=finished" { "finished matches" }
                ", decisions per second and connected bots."
            }
            h2 { "A match" }
            form action="/matches" method="get" {
                label for="match-id" { "Match id " }
                input #match-id type="text" name="id" required;
                " " button type="submit" { "Open" }
            }
        },
    ))
}

/// `/ladders`.
pub(crate) async fn ladders<S: Source>(State(app): State<App<S>>) -> Result<Markup, PageError> {
    let ladders = app.source.ladders().await?;
    Ok(layout("Ladders", html! { h1 { "Ladders" } (ladder_table(&ladders)) }))
}

async fn load<S: Source>(app: &App<S>, ladder: &str) -> Result<Leaderboard, PageError> {
    app.source
        .leaderboard(ladder)
        .await?
        .ok_or_else(|| PageError::NotFound(format!("no ladder {ladder}")))
}

/// The leaderboard itself: the part the live page redraws.
fn board(board: &Leaderboard) -> Markup {
    let l = &board.ladder;
    html! {
        p.summary {
            (l.game) ", " (l.format) ", tables of " (l.seats) ", rated by " (l.rating) ": "
            span.done { (l.matches_done) } " of " (l.matches_planned) " matches played."
        }
        table.leaderboard {
            thead { tr {
                th { "rank" } th { "bot" } th { "rating" } th { "±σ" } th { "rank interval" }
                th { "games" } th { "win rate" } th { "illegal" } th { "timeouts" } th { "crashes" }
            } }
            tbody {
                @for r in &board.rows {
                    tr data-bot=(r.bot) {
                        td.num { (r.rank) }
                        td {
                            a href=(bot_href(&l.id, &r.name, &r.bot)) { (r.name) }
                            @if let Some(reason) = &r.paused { " " span.paused title=(reason) { "(paused)" } }
                        }
                        td.num { (format!("{:.1}", r.rating)) }
                        td.num { (format!("{:.1}", r.sigma)) }
                        td.num {
                            @match r.rank_interval {
                                Some((lo, hi)) if lo == hi => { (lo) }
                                Some((lo, hi)) => { (lo) "–" (hi) }
                                None => { "—" }
                            }
                        }
                        td.num { (r.matches) }
                        td.num { (percent(r.win_rate)) }
                        td.num { (r.health.illegal) }
                        td.num { (r.health.timeouts) }
                        td.num { (r.health.crashes) }
                    }
                }
            }
        }
        @if let Some(t) = &board.sprt {
            section.sprt {
                h2 { "SPRT: " (t.a) " against " (t.b) }
                p {
                    "LLR " span.llr { (format!("{:.2}", t.llr)) }
                    " between its bounds " (format!("{:.2}", t.lower)) " (H0) and "
                    (format!("{:.2}", t.upper)) " (H1) after " (t.samples) " sets: "
                    strong.decision { (t.decision) } "."
                }
                meter min=(t.lower) max=(t.upper) value=(t.llr.clamp(t.lower, t.upper)) {}
            }
        }
        @if !board.running.is_empty() {
            section.running {
                h2 { "Running now" }
                ul {
                    @for m in &board.running {
                        li {
                            a.live href={ "/matches/" (m.id) } { "match " (m.id) }
                            ": "
                            @for (i, s) in m.seats.iter().enumerate() {
                                @if i > 0 { " vs " }
                                span.seat { (s.name) }
                            }
                            " (watch it live)"
                        }
                    }
                }
            }
        }
        @if board.rows.len() > 1 {
            h2 { "How sure the evidence is that each bot is stronger than each other" }
            p.note {
                "One less an anytime-valid p-value, for the whole table at once: it stays honest "
                "however often this page is reloaded. Among bots of equal strength, fewer than "
                "one ladder in twenty ever shows 97.5% anywhere; 95% in a cell means the order "
                "test tells those two apart."
            }
            table.matrix {
                thead { tr { th { "sure row > column" } @for r in &board.rows { th { (r.name) } } } }
                tbody {
                    @for (i, r) in board.rows.iter().enumerate() {
                        tr {
                            th { (r.name) }
                            @for (j, p) in board.better[i].iter().enumerate() {
                                @if i == j { td.none { "—" } }
                                @else { td.num style={ "--p:" (format!("{p:.3}")) } { (percent(*p)) } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `/ladders/{ladder}`: the leaderboard, redrawn through server-sent events as matches finish.
pub(crate) async fn leaderboard<S: Source>(
    State(app): State<App<S>>,
    Path(ladder): Path<String>,
) -> Result<Markup, PageError> {
    let loaded = load(&app, &ladder).await?;
    let table = if app.seats.enabled() { app.source.people_table(&ladder).await? } else { None };
    Ok(layout(
        &ladder,
        html! {
            h1 { "Ladder " (ladder) }
            p.clock { "Clock: " (loaded.ladder.clock) "." }
            @if let Some(hosted) = &app.config.hosted_bots { p.hosted-bots { (hosted) } }
            @if let Some(table) = &table {
                @if let Some(per_hour) = app.seats.guests() { (super::guest_form(&ladder, table, per_hour)) }
                @if table.people { (super::rated_form(&ladder)) }
            }
            div #board hx-ext="sse" sse-connect={ "/ladders/" (ladder) "/live" } sse-swap="board" {
                (board(&loaded))
            }
        },
    ))
}

/// `/ladders/{ladder}/board`: the leaderboard alone, as the live page swaps it in.
pub(crate) async fn board_fragment<S: Source>(
    State(app): State<App<S>>,
    Path(ladder): Path<String>,
) -> Result<Markup, PageError> {
    Ok(board(&load(&app, &ladder).await?))
}

/// `/ladders/{ladder}/live`: an event `board` with the redrawn leaderboard whenever the
/// ladder's revision moves, from the ladder's feed (which its first stream starts).
pub(crate) async fn ladder_live<S: Source>(
    State(app): State<App<S>>,
    Path(ladder): Path<String>,
    slot: StreamSlot,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, PageError> {
    let key = FeedKey::Ladder(ladder.clone());
    let first = async {
        let revision = app.source.ladder_revision(&ladder).await?;
        revision.ok_or_else(|| PageError::NotFound(format!("no ladder {ladder}")))
    };
    let feed = app.feeds.watch(key, app.config.poll_interval, first, |first, publisher| {
        ladder_feed(app.clone(), ladder.clone(), first, publisher)
    });
    Ok(live(feed.await?.events("board"), slot))
}

/// A ladder's feed: its leaderboard, redrawn whenever its revision moves from `seen` (polled:
/// the ladder's runner, on any node, writes the store). Over when the ladder goes away or
/// cannot be read.
async fn ladder_feed<S: Source>(app: App<S>, ladder: String, mut seen: u64, mut feed: Publisher) {
    while feed.tick().await {
        match app.source.ladder_revision(&ladder).await {
            Ok(Some(now)) if now != seen => {
                seen = now;
                if let Ok(Some(loaded)) = app.source.leaderboard(&ladder).await {
                    feed.publish(board(&loaded).into_string());
                }
            }
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => return,
        }
    }
}
