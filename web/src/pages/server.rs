//! The server's page: matches running, decisions per second and connected bots, from
//! `GetStats`, redrawn live.

use std::convert::Infallible;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures::Stream;
use maud::{Markup, html};

use super::{PageError, duration_us, layout};
use crate::App;
use crate::source::{ServerStats, Source};

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

/// `/server`.
pub(crate) async fn server_page<S: Source>(State(app): State<App<S>>) -> Result<Markup, PageError> {
    let stats = app.source.server_stats().await?;
    Ok(layout(
        "The server",
        html! {
            h1 { "The server" }
            div #stats hx-ext="sse" sse-connect="/server/live" sse-swap="stats" {
                (figures(&stats, None))
            }
            p { "A match's page is at " code { "/matches/ID" } "; open one from the "
                a href="/" { "front page" } "." }
        },
    ))
}

/// `/server/live`: an event `stats` every `poll_interval`, with decisions per second measured
/// over that interval.
pub(crate) async fn server_live<S: Source>(
    State(app): State<App<S>>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, PageError> {
    let first = app.source.server_stats().await?;
    let mut interval = tokio::time::interval(app.config.poll_interval);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick is immediate; the page already shows those figures.
    interval.tick().await;
    let stream =
        futures::stream::unfold((app, first, interval), |(app, before, mut interval)| async move {
            interval.tick().await;
            let now = app.source.server_stats().await.ok()?;
            let elapsed_ms = now.uptime_ms.saturating_sub(before.uptime_ms);
            let rate = (elapsed_ms > 0 && now.decisions >= before.decisions)
                .then(|| (now.decisions - before.decisions) as f64 * 1000.0 / elapsed_ms as f64);
            let event = Event::default().event("stats").data(figures(&now, rate).into_string());
            Some((Ok(event), (app, now, interval)))
        });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
