//! The server's page: matches running (`ListMatches`), decisions per second and connected
//! bots (`GetStats`, redrawn live); and the server's matches a page at a time.

use std::convert::Infallible;

use axum::extract::{Query, State};
use axum::response::sse::{Event, Sse};
use futures::Stream;
use maud::{Markup, html};
use serde::Deserialize;

use super::{PageError, duration_us, layout, live, ordinal};
use crate::App;
use crate::feeds::{FeedKey, Publisher};
use crate::source::{MatchList, MatchState, ServerStats, Source};
use crate::streams::StreamSlot;

/// The figures; `rate` is decisions per second over the last poll, if known, else since the
/// start.
fn figures(stats: &ServerStats, rate: Option<f64>) -> Markup {
    let rate = rate.unwrap_or_else(|| stats.decisions_per_second());
    html! {
        dl.stats {
            dt { "matches running" } dd.running { (stats.matches_running) }
            dt { "matches finished" } dd.finished { (stats.matches_finished) }
            dt { "decisions per second" } dd.rate { (format!("{rate:.1}")) }
            dt { "connected bots" } dd.connections { (stats.connections_open) }
            dt { "decisions" } dd.decisions { (stats.decisions) }
            dt { "decision round trip" } dd {
                "median " (duration_us(stats.decision_p50_us as f64))
                ", 99th percentile " (duration_us(stats.decision_p99_us as f64))
            }
            dt { "up for" } dd { (format!("{:.0} s", stats.uptime_ms as f64 / 1000.0)) }
        }
    }
}

/// Running matches the server's page shows; the rest are on `/server/matches`.
const RUNNING_ON_SERVER_PAGE: u64 = 20;

/// A table of the server's matches, each linked to its page (live while it runs).
fn match_table(list: &MatchList, state: MatchState) -> Markup {
    html! {
        @if list.matches.is_empty() {
            p.none { @match state {
                MatchState::Running => "No match is running.",
                MatchState::Finished => "No finished match is remembered.",
            } }
        } @else {
            table.server-matches {
                thead { tr { th { "match" } th { "game" } th { "seats" }
                    @if state == MatchState::Finished { th { "end" } } } }
                tbody {
                    @for m in &list.matches {
                        tr data-match=(m.id) {
                            td {
                                a.match href={ "/matches/" (m.id) } { (m.id) }
                                @if let Some(host) = &m.host {
                                    " " span.host { "on node " (host) }
                                }
                            }
                            td { (m.game) }
                            td { ol.seats { @for s in &m.seats {
                                li {
                                    @if s.name.is_empty() { span.none { "(empty)" } }
                                    @else { span.seat { (s.name) } }
                                    @if let Some(place) = s.place { " — " (ordinal(place)) }
                                    @if !s.connected && m.end.is_none() && !s.name.is_empty() {
                                        " (disconnected)"
                                    }
                                }
                            } } }
                            @if state == MatchState::Finished {
                                td { (m.end.as_deref().unwrap_or("")) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `/server`.
pub(crate) async fn server_page<S: Source>(State(app): State<App<S>>) -> Result<Markup, PageError> {
    let stats = app.source.server_stats().await?;
    let running =
        app.source.server_matches(MatchState::Running, None, RUNNING_ON_SERVER_PAGE).await?;
    Ok(layout(
        "The server",
        html! {
            h1 { "The server" }
            div #stats hx-ext="sse" sse-connect="/server/live" sse-swap="stats" {
                (figures(&stats, None))
            }
            h2 { "Matches running" }
            (match_table(&running, MatchState::Running))
            p {
                a.all-running href="/server/matches" { "All running matches" } " · "
                a.finished href="/server/matches?state=finished" { "Finished matches" }
            }
            p { "A match's page is at " code { "/matches/ID" } "; open one from the "
                a href="/" { "front page" } "." }
        },
    ))
}

/// The query of `/server/matches`: which list, and the cursor of its page.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct MatchesQuery {
    state: Option<ListedState>,
    before: Option<String>,
}

/// `state=running|finished` in a URL.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ListedState {
    Running,
    Finished,
}

/// `/server/matches?state=running|finished&before=CURSOR`: the server's matches, newest first,
/// a page at a time.
pub(crate) async fn server_matches<S: Source>(
    State(app): State<App<S>>,
    Query(query): Query<MatchesQuery>,
) -> Result<Markup, PageError> {
    let (state, word) = match query.state.unwrap_or(ListedState::Running) {
        ListedState::Running => (MatchState::Running, "running"),
        ListedState::Finished => (MatchState::Finished, "finished"),
    };
    let before = query.before.as_deref().filter(|b| !b.is_empty());
    let list = app.source.server_matches(state, before, app.config.page_size).await?;
    let title = match state {
        MatchState::Running => "Matches running",
        MatchState::Finished => "Finished matches",
    };
    Ok(layout(
        title,
        html! {
            h1 { (title) }
            p {
                @match state {
                    MatchState::Running => { "Newest first; each opens live. "
                        a href="/server/matches?state=finished" { "Finished matches" } }
                    MatchState::Finished => { "Latest ended first; each opens its replay. "
                        a href="/server/matches" { "Matches running" } }
                }
            }
            (match_table(&list, state))
            nav.pages {
                @if before.is_some() {
                    a rel="first" href={ "/server/matches?state=" (word) } { "← newest" } " "
                }
                @if let Some(next) = &list.next {
                    a rel="next" href={ "/server/matches?state=" (word) "&before=" (next) } { "older →" }
                }
            }
        },
    ))
}

/// `/server/live`: an event `stats` every `poll_interval`, with decisions per second measured
/// over that interval, from the server's feed (which its first stream starts).
pub(crate) async fn server_live<S: Source>(
    State(app): State<App<S>>,
    slot: StreamSlot,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, PageError> {
    let first = async { Ok::<_, PageError>(app.source.server_stats().await?) };
    let feed =
        app.feeds.watch(FeedKey::Server, app.config.poll_interval, first, |first, publisher| {
            server_feed(app.clone(), first, publisher)
        });
    Ok(live(feed.await?.events("stats"), slot))
}

/// The server's feed: its figures each tick, the rate over the tick since `before`. Over when
/// the server cannot be read.
async fn server_feed<S: Source>(app: App<S>, mut before: ServerStats, mut feed: Publisher) {
    while feed.tick().await {
        let Ok(now) = app.source.server_stats().await else { return };
        let elapsed_ms = now.uptime_ms.saturating_sub(before.uptime_ms);
        let rate = (elapsed_ms > 0 && now.decisions >= before.decisions)
            .then(|| (now.decisions - before.decisions) as f64 * 1000.0 / elapsed_ms as f64);
        feed.publish(figures(&now, rate).into_string());
        before = now;
    }
}
