//! Seasons on the pages (issue 41): the list (`/seasons`), a season's page (its ladders, the
//! deadline's countdown, the finals' status and its public events), the finals' result page
//! an organizer links to (`/seasons/{name}/finals`), and the season's events as an Atom feed
//! (`/seasons/{name}/feed.atom`). An author's own events (their submissions) are on
//! `cardroom seasons events --token`, never here.

use atom_syndication::{Entry, Feed, FixedDateTime, Link, Text};
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use cardroom_store::{RankedBot, Season, SeasonState};
use maud::{Markup, PreEscaped, html};

use super::{PageError, layout};
use crate::App;
use crate::source::{Source, SourceError};
use crate::time::utc_time;

/// The most events a season's page and feed show (the newest).
const EVENTS_SHOWN: u32 = 200;

/// Counts the deadline down in the page, once a second (the page says it without scripts).
const COUNTDOWN: &str = "for (const el of document.querySelectorAll('[data-deadline]')) {\
  const at = Number(el.dataset.deadline);\
  const tick = () => { const s = Math.max(0, Math.floor((at - Date.now()) / 1000));\
    el.textContent = s === 0 ? 'passed' : 'in ' + Math.floor(s / 86400) + ' d ' +\
      Math.floor(s % 86400 / 3600) + ' h ' + Math.floor(s % 3600 / 60) + ' min ' + s % 60 + ' s'; };\
  tick(); setInterval(tick, 1000); }";

fn corrupt(error: cardroom_store::StoreError) -> PageError {
    PageError::Source(SourceError::Store(error.to_string()))
}

async fn season<S: Source>(app: &App<S>, name: &str) -> Result<Season, PageError> {
    let seasons = app.source.seasons().await?;
    seasons
        .into_iter()
        .find(|s| s.name == name)
        .ok_or_else(|| PageError::NotFound(format!("no season named {name:?}")))
}

/// What the state means, in words.
fn state_words(season: &Season) -> &'static str {
    match season.state {
        SeasonState::Open => "taking submissions",
        SeasonState::Closing => "taking submissions: the deadline is near",
        SeasonState::Finals => "past the deadline: versions frozen, the finals playing",
        SeasonState::Done => "over: the final standings are out",
    }
}

/// How long until `deadline_ms`, in words, from the server's clock.
fn left(deadline_ms: i64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    let s = (deadline_ms - now).max(0) / 1000;
    if s == 0 {
        return "passed".to_owned();
    }
    format!("in {} d {} h {} min {} s", s / 86_400, s % 86_400 / 3_600, s % 3_600 / 60, s % 60)
}

/// `/seasons`: every season.
pub(crate) async fn seasons_page<S: Source>(
    State(app): State<App<S>>,
) -> Result<Response, PageError> {
    let seasons = app.source.seasons().await?;
    let body = html! {
        h1 { "Seasons" }
        @if seasons.is_empty() {
            p.none { "No seasons." }
        } @else {
            table.seasons {
                thead { tr { th { "season" } th { "state" } th { "deadline" } th { "ladders" } } }
                tbody { @for s in &seasons {
                    tr {
                        td.name { a href={ "/seasons/" (s.name) } { (s.name) } }
                        td { (s.state.as_str()) } td { (utc_time(s.deadline_ms)) }
                        td { (s.ladders.join(", ")) }
                    }
                } }
            }
        }
    };
    Ok(layout("Seasons", body).into_response())
}

fn ranked_table(bots: &[RankedBot]) -> Markup {
    html! {
        table.standings {
            thead { tr { th { "rank" } th { "bot" } th { "rank interval (95%)" } th { "version" } } }
            tbody { @for bot in bots {
                tr {
                    td.num { (bot.rank) } td.name { (bot.bot) }
                    td.interval { (bot.rank_lo) "–" (bot.rank_hi) }
                    td { @if let Some(v) = &bot.version { (super::version(v)) } }
                }
            } }
        }
    }
}

/// `/seasons/{name}`: the season's ladders, its deadline counting down, its finals and its
/// public events.
pub(crate) async fn season_page<S: Source>(
    State(app): State<App<S>>,
    Path(name): Path<String>,
) -> Result<Response, PageError> {
    let season = season(&app, &name).await?;
    let events = app.source.season_events(season.id, EVENTS_SHOWN).await?;
    let passed = season.state >= SeasonState::Finals;
    let body = html! {
        h1 { "Season " span.season { (season.name) } }
        p.state { "The season is " (state_words(&season)) "." }
        p.deadline {
            "Submission deadline: " time datetime=(cardroom_server::rfc3339(season.deadline_ms)) { (utc_time(season.deadline_ms)) }
            @if !passed {
                ", " span.countdown data-deadline=(season.deadline_ms) { (left(season.deadline_ms)) }
            }
            "."
        }
        h2 { "Ladders" }
        ul.ladders { @for ladder in &season.ladders {
            li { a href={ "/ladders/" (ladder) } { (ladder) }
                @if season.finals_ladder.as_deref() == Some(ladder.as_str()) { " (the finals)" } }
        } }
        h2 { "Finals" }
        @match season.state {
            SeasonState::Open | SeasonState::Closing => p { "The finals start by themselves at the deadline." },
            SeasonState::Finals => p { "Playing until their order is settled at 95% or their budget runs out: "
                @if let Some(finals) = &season.finals_ladder { a href={ "/ladders/" (finals) } { "the live standings" } } "." },
            SeasonState::Done => p { a.finals href={ "/seasons/" (season.name) "/finals" } { "The final standings" } },
        }
        h2 { "Events " a.feed href={ "/seasons/" (season.name) "/feed.atom" } { "(Atom feed)" } }
        @if events.is_empty() { p.none { "None yet." } }
        ol.events { @for event in events.iter().rev() {
            li { time { (utc_time(event.at_ms)) } " " span.kind { (event.kind.as_str()) } " " (event.text) }
        } }
        @if !passed { script { (PreEscaped(COUNTDOWN)) } }
    };
    Ok(layout(&season.name, body).into_response())
}

/// `/seasons/{name}/finals`: the finals' result: the final standings with each rank's
/// interval, whether they settled and what they took; and the finalists as the deadline found
/// them.
pub(crate) async fn finals_page<S: Source>(
    State(app): State<App<S>>,
    Path(name): Path<String>,
) -> Result<Response, PageError> {
    let season = season(&app, &name).await?;
    let (finalists, outcome) = (season.finalists(), season.outcome());
    let (finalists, outcome) = (finalists.map_err(corrupt)?, outcome.map_err(corrupt)?);
    let body = html! {
        h1 { "Season " (season.name) ": the finals" }
        @match &outcome {
            Some(outcome) => {
                p.outcome {
                    @if outcome.settled { "Settled at 95%" } @else { "Not settled: " (outcome.reason) }
                    " after " span.sets { (outcome.sets) } " sets, " span.matches { (outcome.matches) } " matches."
                }
                (ranked_table(&outcome.standings))
            }
            None => p { "The finals are not over: this page shows their result once they are." },
        }
        @if let Some(finalists) = &finalists {
            h2 { "The finalists at the deadline" }
            p { "The top of " a href={ "/ladders/" (finalists.ladder) } { (finalists.ladder) }
                " after " (finalists.sets) " sets; the cut "
                @if finalists.cut_settled { "was settled at 95%." } @else { "was not settled at 95%." } }
            (ranked_table(&finalists.bots))
        }
        p { a href={ "/seasons/" (season.name) } { "The season" } }
    };
    Ok(layout(&format!("{}: finals", season.name), body).into_response())
}

/// `/seasons/{name}/feed.atom`: the season's public events, newest first.
pub(crate) async fn season_feed<S: Source>(
    State(app): State<App<S>>,
    Path(name): Path<String>,
) -> Result<Response, PageError> {
    let season = season(&app, &name).await?;
    let events = app.source.season_events(season.id, EVENTS_SHOWN).await?;
    let at = |ms: i64| {
        FixedDateTime::parse_from_rfc3339(&cardroom_server::rfc3339(ms)).unwrap_or_default()
    };
    let id = format!("urn:cardroom:season:{}", season.name);
    let entries: Vec<Entry> = events
        .iter()
        .rev()
        .map(|event| Entry {
            id: format!("{id}:event:{}", event.id),
            title: Text::plain(format!(
                "{}: {}",
                event.kind.as_str(),
                event.bot.as_deref().unwrap_or(&season.name)
            )),
            updated: at(event.at_ms),
            summary: Some(Text::plain(event.text.clone())),
            ..Entry::default()
        })
        .collect();
    let updated = events.last().map_or(season.changed_ms, |e| e.at_ms);
    let feed = Feed {
        id,
        title: Text::plain(format!("Season {}", season.name)),
        updated: at(updated),
        links: vec![Link { href: format!("/seasons/{}", season.name), ..Link::default() }],
        entries,
        ..Feed::default()
    };
    Ok(([(header::CONTENT_TYPE, "application/atom+xml; charset=utf-8")], feed.to_string())
        .into_response())
}
