//! The pages: one module per kind of page, the layout they share, and how a failure becomes
//! a page (404 for what does not exist, 502 when the data's source failed).

mod authors;
mod bot;
#[cfg(test)]
mod contrast;
mod ladders;
mod matches;
mod replay;
mod seasons;
mod seat;
mod server;
mod table;
mod view;

use std::convert::Infallible;

use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::{Stream, StreamExt as _};
use maud::{DOCTYPE, Markup, html};

use crate::source::SourceError;
use crate::streams::StreamSlot;

pub(crate) use authors::{author_page, join, join_page, scrimmage};
pub(crate) use bot::{RecentBotPages, bot_page, failures};
pub(crate) use ladders::{board_fragment, front, ladder_live, ladders, leaderboard};
pub(crate) use matches::{
    find_match, ladder_match, ladder_record, ladder_step, server_match, server_match_live,
    server_record, server_step,
};
pub(crate) use seasons::{finals_page, season_feed, season_page, seasons_page};
pub(crate) use seat::{
    guest_form, guest_match, rated_form, rated_seat, seat_act, seat_live, seat_page,
};
pub(crate) use server::{server_live, server_matches, server_page};

/// What a page can fail with.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PageError {
    /// The ladder, bot, match or file does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The data's source failed.
    #[error(transparent)]
    Source(#[from] SourceError),
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let (status, title) = match &self {
            PageError::NotFound(_) => (StatusCode::NOT_FOUND, "Not found"),
            // No game server configured: these pages do not exist here.
            PageError::Source(SourceError::NoServer) => (StatusCode::NOT_FOUND, "No game server"),
            PageError::Source(SourceError::BadCursor(_)) => {
                (StatusCode::BAD_REQUEST, "No such page")
            }
            PageError::Source(_) => (StatusCode::BAD_GATEWAY, "The data is unavailable"),
        };
        if status == StatusCode::BAD_GATEWAY {
            tracing::warn!(cause = %self, "page failed");
        }
        let body = layout(
            title,
            html! {
                h1 { (title) }
                p.error { (self.to_string()) }
                p { a href="/" { "Back to the front page" } }
            },
        );
        (status, body).into_response()
    }
}

/// A live page's event stream, with SSE's keep-alive comments. It holds `slot`, its place
/// under the caps on live streams, as long as it lives: until it ends, or the client goes and
/// the server drops it.
pub(crate) fn live<St>(
    stream: St,
    slot: StreamSlot,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>>
where
    St: Stream<Item = Result<Event, Infallible>> + Send + 'static,
{
    let stream = stream.map(move |event| {
        let _held = &slot;
        event
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// The answer for a path that names nothing.
pub(crate) async fn not_found() -> PageError {
    PageError::NotFound("no page here".to_owned())
}

/// Every page's frame: the title, the navigation and htmx (with its SSE extension).
pub(crate) fn layout(title: &str, body: Markup) -> Markup {
    frame(title, body, true)
}

/// A page's frame without htmx, for a page that needs none of it (the replay, whose first
/// visit would otherwise fetch 52 KB it never runs).
pub(crate) fn layout_without_htmx(title: &str, body: Markup) -> Markup {
    frame(title, body, false)
}

fn frame(title: &str, body: Markup, htmx: bool) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · cardroom" }
                link rel="stylesheet" href="/static/style.css";
                @if htmx {
                    script src="/static/htmx.min.js" defer {}
                    script src="/static/htmx-ext-sse.min.js" defer {}
                }
            }
            body {
                nav {
                    a href="/" { "cardroom" }
                    " · " a href="/ladders" { "ladders" }
                    " · " a href="/seasons" { "seasons" }
                    " · " a href="/server" { "server" }
                }
                main { (body) }
            }
        }
    }
}

/// A vendored static file: htmx, its SSE extension, the style sheet and the replay's script,
/// compiled into the binary so that the pages work with no network.
pub(crate) async fn static_file(
    axum::extract::Path(name): axum::extract::Path<String>,
) -> Result<Response, PageError> {
    let (body, kind): (&'static str, &str) = match name.as_str() {
        "htmx.min.js" => (include_str!("../../static/htmx.min.js"), "text/javascript"),
        "htmx-ext-sse.min.js" => {
            (include_str!("../../static/htmx-ext-sse.min.js"), "text/javascript")
        }
        "replay.js" => (include_str!("../../static/replay.js"), "text/javascript"),
        "seat.js" => (include_str!("../../static/seat.js"), "text/javascript"),
        "style.css" => (include_str!("../../static/style.css"), "text/css"),
        _ => return Err(PageError::NotFound(format!("no static file {name}"))),
    };
    Ok(([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "public, max-age=3600")], body)
        .into_response())
}

/// Whether `id` can be one of the server's ids (a match id, a seat token: hex), so that it goes
/// into a path unescaped.
fn is_plain_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A share as a percentage with one decimal.
fn percent(share: f64) -> String {
    format!("{:.1}%", 100.0 * share)
}

/// An ordinal place: 1st, 2nd, 3rd, 4th …
fn ordinal(place: u8) -> String {
    let suffix = match (place % 10, place % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}

/// A bot's version in a table: a submission's SHA-256 (`cardroom bots submit`) by its first
/// 12 hex digits, as `cardroom bots submissions` shows it, the whole digest in its title; any
/// other version as it is, free to wrap (the stylesheet), so a long one never widens a page.
fn version(version: &str) -> maud::Markup {
    let digest = version.len() == 64 && version.bytes().all(|b| b.is_ascii_hexdigit());
    maud::html! {
        @if digest { code.version title=(version) { (&version[..12]) } }
        @else { code.version { (version) } }
    }
}

/// Microseconds for a person: `850 µs`, `12.3 ms`, `1.20 s`.
fn duration_us(us: f64) -> String {
    if us < 1_000.0 {
        format!("{us:.0} µs")
    } else if us < 1_000_000.0 {
        format!("{:.1} ms", us / 1_000.0)
    } else {
        format!("{:.2} s", us / 1_000_000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_and_durations_read_as_english() {
        let places: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal).into();
        assert_eq!(places, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]);
        assert_eq!(duration_us(850.0), "850 µs");
        assert_eq!(duration_us(12_345.0), "12.3 ms");
        assert_eq!(duration_us(1_200_000.0), "1.20 s");
        assert_eq!(percent(0.5), "50.0%");
    }

    #[test]
    fn a_submissions_digest_is_shown_short_with_the_whole_in_its_title() {
        let digest = "0123456789abcdef".repeat(4);
        assert_eq!(
            version(&digest).into_string(),
            format!(r#"<code class="version" title="{digest}">0123456789ab</code>"#)
        );
        assert_eq!(version("v1.2").into_string(), r#"<code class="version">v1.2</code>"#);
    }
}
