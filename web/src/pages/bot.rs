//! A bot's page: rating over time, versions, matches, health and head-to-head; and, for the
//! holder of its key, its failures.
//!
//! Its address is `/ladders/{ladder}/bots/{name}`, the name percent-encoded as one path
//! segment ([`bot_href`]). The address's segment is first a name; only when no bot has that
//! name and it is a number in its plain form (`7`, not `07`) is it an old address, by the bot's
//! number, which moves permanently (308, the query kept) to the bot's name. So a bot named
//! `7` hides the old address of bot number 7.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::Form;
use axum::body::Bytes;
use axum::extract::{Path, Query, RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use cardroom_server::PeerKey;
use maud::{Markup, html};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::Deserialize;

use super::{PageError, duration_us, layout, ordinal, percent, version};
use crate::App;
use crate::plot;
use crate::source::{BotPage, Failures, PageRequest, Source};
use crate::streams::PeerAddress;

/// The query of a bot's page: which page of its matches.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct BotQuery {
    /// From 1.
    page: Option<u64>,
    /// The last match id of the page before (the "older" link's cursor), so that a source
    /// that pages by cursor reads this page alone.
    before: Option<String>,
}

/// The failures form: the bot's key.
#[derive(Debug, Deserialize)]
pub(crate) struct KeyForm {
    key: String,
}

/// Bars in the think-time histogram.
const THINK_BARS: usize = 24;

/// What a path segment keeps as it is: RFC 3986's unreserved characters.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// `name` as a path segment, percent-encoded; `None` for a name no segment can carry: empty,
/// `.` or `..` (browsers resolve those, even encoded, as the path's dots).
fn name_segment(name: &str) -> Option<String> {
    (!matches!(name, "" | "." | "..")).then(|| utf8_percent_encode(name, SEGMENT).to_string())
}

/// The address of the page of the bot named `name` in `ladder`, numbered `number`: by its
/// name, or for a name no path segment can carry by its number (which then serves the page
/// rather than moving).
pub(super) fn bot_href(ladder: &str, name: &str, number: &str) -> String {
    let segment = name_segment(name).unwrap_or_else(|| number.to_owned());
    format!("/ladders/{ladder}/bots/{segment}")
}

fn matches_section(bot: &BotPage, page: u64, page_size: u64) -> Markup {
    let pages = bot.match_count.div_ceil(page_size).max(1);
    let base = bot_href(&bot.ladder.id, &bot.name, &bot.bot);
    html! {
        h2 { "Matches" }
        p { (bot.match_count) " matches, newest first." }
        table.matches {
            thead { tr { th { "match" } th { "finished" } th { "place" } th { "opponents" } } }
            tbody {
                @for m in &bot.matches {
                    tr {
                        td { a.match href={ "/ladders/" (bot.ladder.id) "/matches/" (m.id) } { "#" (m.id) } }
                        td { (m.finished_at) }
                        td { (ordinal(m.place)) " of " (m.seats) }
                        td {
                            @for (i, (number, name)) in m.opponents.iter().enumerate() {
                                @if i > 0 { ", " }
                                a href=(bot_href(&bot.ladder.id, name, number)) { (name) }
                            }
                        }
                    }
                }
            }
        }
        @if pages > 1 {
            nav.pages {
                @if page > 2 { a rel="first" href=(base) { "⇤ newest" } " " }
                @if page > 1 { a rel="prev" href={ (base) "?page=" (page - 1) } { "← newer" } " " }
                "page " (page) " of " (pages)
                @if page < pages {
                    " " a rel="next" href={
                        (base) "?page=" (page + 1)
                        @if let Some(last) = bot.matches.last() { "&before=" (last.id) }
                    } { "older →" }
                }
            }
        }
    }
}

fn health_section(bot: &BotPage) -> Markup {
    let h = bot.row.health;
    html! {
        h2 { "Health" }
        ul.health {
            li { span.illegal { (h.illegal) } " illegal actions" }
            li { span.timeouts { (h.timeouts) } " timeouts" }
            li { span.crashes { (h.crashes) } " crashes" }
            @if let Some((p50, p99)) = bot.think_quantiles {
                li { "think time: median " (duration_us(p50)) ", 99th percentile " (duration_us(p99)) }
            }
        }
        @if let Some(window) = &bot.think_window { p.think-window { "Think times over " (window) "." } }
        (plot::histogram(&plot::coarsen(&bot.think, THINK_BARS), duration_us))
        @if !bot.think_by_version.is_empty() {
            table.think-by-version {
                thead { tr {
                    th { "version" } th { "matches" } th { "decisions" } th { "mean" }
                    th { "median" } th { "99th percentile" } th { "slowest" }
                } }
                tbody { @for v in &bot.think_by_version {
                    tr {
                        td { (version(&v.version)) } td.num { (v.matches) } td.num { (v.decisions) }
                        td.num { (duration_us(v.mean_us)) } td.num { "≤ " (duration_us(v.p50_us)) }
                        td.num { "≤ " (duration_us(v.p99_us)) } td.num { (duration_us(v.max_us)) }
                    }
                } }
            }
        }
    }
}

fn page(bot: &BotPage, page_number: u64, page_size: u64, failures: Markup) -> Markup {
    let r = &bot.row;
    let ladder = &bot.ladder.id;
    layout(
        &bot.name,
        html! {
            h1 { "Bot " span.name { (bot.name) } }
            @if let Some(owner) = &bot.owner {
                p.owner { "By " a.author href={ "/authors/" (owner) } { (owner) } "." }
            }
            p {
                "In ladder " a href={ "/ladders/" (ladder) } { (ladder) } ": rank " (r.rank)
                @if let Some((lo, hi)) = r.rank_interval { " (" (lo) "–" (hi) " at 95%)" }
                ", rating "
                span.rating { (format!("{:.1}", r.rating)) } " ± " (format!("{:.1}", r.sigma))
                ", " (r.matches) " games, " (percent(r.win_rate)) " won."
            }
            @if let Some(reason) = &r.paused {
                p.paused { "Paused, not scheduled: " (reason) }
            }
            h2 { "Rating over time" }
            (plot::rating_history(&bot.history))
            h2 { "Versions" }
            @if bot.versions.is_empty() {
                p.none { "This ladder records no versions of its bots." }
            } @else {
                table.versions {
                    thead { tr { th { "version" } th { "first seen" } th { "matches" } } }
                    tbody { @for v in &bot.versions {
                        tr { td { (version(&v.version)) } td { (v.first_seen) } td.num { (v.matches) } }
                    } }
                }
            }
            @if bot.owner.is_some() { (super::authors::scrimmage_form(bot, None)) }
            (matches_section(bot, page_number, page_size))
            (health_section(bot))
            h2 { "Head to head" }
            @if bot.head_to_head.is_empty() {
                p.none { "No opponents yet." }
            } @else {
                table.head-to-head {
                    thead { tr { th { "opponent" } th { "wins" } th { "ties" } th { "losses" } } }
                    tbody { @for h in &bot.head_to_head {
                        tr {
                            td { a href=(bot_href(ladder, &h.name, &h.bot)) { (h.name) } }
                            td.num { (h.wins) } td.num { (h.ties) } td.num { (h.losses) }
                        }
                    } }
                }
            }
            (failures)
        },
    )
}

fn failures_form(bot: &BotPage) -> Markup {
    html! {
        h2 { "Failures (for its author)" }
        form method="post" action={ (bot_href(&bot.ladder.id, &bot.name, &bot.bot)) "/failures" } {
            label for="key" { "The bot's key " }
            input #key type="password" name="key" autocomplete="off" required;
            " " button type="submit" { "Show failures" }
        }
    }
}

/// What a bot page's address finds.
enum Found {
    /// The bot's page (boxed: it is large, and found or moved the answer is one move).
    Page(Box<BotPage>),
    /// An old address: the bot's page is at this address now.
    Moved(String),
}

/// The bot `segment` (its address's last segment) names in `ladder`, with the page `page` of
/// its matches: see the [module](self)'s docs.
async fn find<S: Source>(
    app: &App<S>,
    ladder: &str,
    segment: &str,
    page: u64,
    before: Option<String>,
) -> Result<Found, PageError> {
    let size = app.config.page_size;
    let request = PageRequest { offset: (page - 1).saturating_mul(size), limit: size, before };
    if let Some(found) = app.source.bot(ladder, segment, request.clone()).await? {
        return Ok(Found::Page(Box::new(found)));
    }
    let number = segment.parse::<u64>().ok().filter(|n| n.to_string() == segment);
    let name = match number {
        Some(number) => app.source.bot_name(ladder, number).await?,
        None => None,
    };
    let missing = || PageError::NotFound(format!("no bot {segment} in ladder {ladder}"));
    let name = name.ok_or_else(missing)?;
    if name_segment(&name).is_some() {
        return Ok(Found::Moved(bot_href(ladder, &name, segment)));
    }
    // A name no address can carry: its number is its address.
    app.source
        .bot(ladder, &name, request)
        .await?
        .map(|found| Found::Page(Box::new(found)))
        .ok_or_else(missing)
}

/// The permanent move of an old address to `href`, with the query it came with.
fn moved(href: &str, query: Option<&str>) -> Response {
    match query {
        Some(query) => Redirect::permanent(&format!("{href}?{query}")),
        None => Redirect::permanent(href),
    }
    .into_response()
}

/// How long a bot page's answer is given again to whoever asks the same address.
const RECENT_FRESH: Duration = Duration::from_secs(1);

/// The most answers [`RecentBotPages`] keeps (a drawn page is tens of kilobytes); past it,
/// those older than [`RECENT_FRESH`] go, and if none is, it starts over.
const RECENT_KEPT: usize = 256;

/// What identifies a bot page's address: its ladder, its last segment, the page of its
/// matches and the cursor.
type RecentKey = (String, String, u64, Option<String>);

/// A bot page's answer, as given.
#[derive(Clone, Debug, PartialEq)]
enum Answer {
    /// The page, drawn.
    Page(Bytes),
    /// An old address, moved here.
    Moved(String),
    /// No such bot, and why.
    Missing(String),
}

/// Bot pages as last answered, each given again for [`RECENT_FRESH`] to whoever asks the same
/// address, so that a crowd on one bot page costs one set of reads and one drawing a second
/// (issue 45: pages must not take play's time). A source's failure is not kept.
#[derive(Debug, Default)]
pub(crate) struct RecentBotPages {
    // A std mutex: held only to look up or replace an answer, never across an await.
    answers: Mutex<HashMap<RecentKey, (Instant, Answer)>>,
}

impl RecentBotPages {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<RecentKey, (Instant, Answer)>> {
        self.answers.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The answer for `key`, if given less than [`RECENT_FRESH`] ago.
    fn get(&self, key: &RecentKey) -> Option<Answer> {
        let answers = self.lock();
        let (given_at, answer) = answers.get(key)?;
        (given_at.elapsed() < RECENT_FRESH).then(|| answer.clone())
    }

    /// Keeps `answer`, given just now.
    fn put(&self, key: RecentKey, answer: Answer) {
        let mut answers = self.lock();
        if answers.len() >= RECENT_KEPT {
            answers.retain(|_, (given_at, _)| given_at.elapsed() < RECENT_FRESH);
        }
        if answers.len() >= RECENT_KEPT {
            answers.clear();
        }
        answers.insert(key, (Instant::now(), answer));
    }
}

/// `/ladders/{ladder}/bots/{name}?page=N`: drawn at most once a second per address.
pub(crate) async fn bot_page<S: Source>(
    State(app): State<App<S>>,
    Path((ladder, bot)): Path<(String, String)>,
    Query(query): Query<BotQuery>,
    RawQuery(raw): RawQuery,
) -> Result<Response, PageError> {
    let number = query.page.unwrap_or(1).max(1);
    let key = (ladder, bot, number, query.before);
    let answer = match app.recent_bot_pages.get(&key) {
        Some(answer) => answer,
        None => {
            let (ladder, bot, _, before) = &key;
            let answer = match find(&app, ladder, bot, number, before.clone()).await {
                Ok(Found::Page(loaded)) => {
                    let form = failures_form(&loaded);
                    let drawn = page(&loaded, number, app.config.page_size, form);
                    Answer::Page(Bytes::from(drawn.into_string()))
                }
                Ok(Found::Moved(href)) => Answer::Moved(href),
                Err(PageError::NotFound(why)) => Answer::Missing(why),
                Err(error) => return Err(error),
            };
            app.recent_bot_pages.put(key, answer.clone());
            answer
        }
    };
    Ok(match answer {
        Answer::Page(drawn) => Html(drawn).into_response(),
        Answer::Moved(href) => moved(&href, raw.as_deref()),
        Answer::Missing(why) => PageError::NotFound(why).into_response(),
    })
}

/// `POST /ladders/{ladder}/bots/{name}/failures` with the bot's key: its page with its
/// failures and the observation behind each. An old address moves (308: the form is sent
/// again there).
///
/// A key is a credential: wrong ones count in the server's throttle of failed authentication,
/// by the client's address and the bot's name, and past its quota the form answers 429 with
/// the wait (`Retry-After`) before any key is looked at.
pub(crate) async fn failures<S: Source>(
    State(app): State<App<S>>,
    Path((ladder, bot)): Path<(String, String)>,
    PeerAddress(address): PeerAddress,
    RawQuery(raw): RawQuery,
    Form(form): Form<KeyForm>,
) -> Result<Response, PageError> {
    let loaded = match find(&app, &ladder, &bot, 1, None).await? {
        Found::Page(loaded) => loaded,
        Found::Moved(href) => return Ok(moved(&format!("{href}/failures"), raw.as_deref())),
    };
    let peer = Some(PeerKey::Address(address));
    if let Err(throttled) = app.throttle.check(peer, Some(&loaded.name)) {
        let section = html! {
            (failures_form(&loaded))
            p.error.throttled { (throttled.to_string()) }
        };
        let seconds = throttled.wait.as_secs() + 1;
        let page = page(&loaded, 1, app.config.page_size, section);
        let retry = [(header::RETRY_AFTER, seconds.to_string())];
        return Ok((StatusCode::TOO_MANY_REQUESTS, retry, page).into_response());
    }
    let section = match app.source.failures(&ladder, &loaded.name, &form.key).await? {
        Failures::WrongKey => {
            app.throttle.failed(peer, Some(&loaded.name));
            html! {
                (failures_form(&loaded))
                p.error.wrong-key { "That is not this bot's key." }
            }
        }
        Failures::Shown(list) => html! {
            h2 { "Failures (for its author)" }
            @if list.is_empty() { p.none { "No failures." } }
            @for f in &list {
                article.failure {
                    h3 { "Match " (f.match_id) ": " (f.error) }
                    @if let Some(answer) = &f.answer { p { "Its answer: " code { (answer) } } }
                    details { summary { "The observation it had" } pre { (f.observation) } }
                    @if let Some(output) = &f.output {
                        details { summary { "What it wrote in that match" } pre { (output) } }
                    }
                }
            }
        },
    };
    Ok(page(&loaded, 1, app.config.page_size, section).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_page_is_answered_again_only_for_the_same_address() {
        let recent = RecentBotPages::default();
        let key = |ladder: &str, bot: &str, page: u64, before: Option<&str>| {
            (ladder.to_owned(), bot.to_owned(), page, before.map(str::to_owned))
        };
        let drawn = Answer::Page(Bytes::from_static(b"<p>drawn</p>"));
        assert_eq!(recent.get(&key("duel", "ann", 1, None)), None, "nothing answered yet");
        recent.put(key("duel", "ann", 1, None), drawn.clone());
        assert_eq!(recent.get(&key("duel", "ann", 1, None)), Some(drawn), "answered just now");
        assert_eq!(recent.get(&key("duel", "bob", 1, None)), None, "another bot");
        assert_eq!(recent.get(&key("other", "ann", 1, None)), None, "another ladder");
        assert_eq!(recent.get(&key("duel", "ann", 2, None)), None, "another page");
        assert_eq!(recent.get(&key("duel", "ann", 1, Some("99"))), None, "another cursor");
    }

    #[test]
    fn a_name_is_one_escaped_path_segment_or_else_the_number() {
        for (name, href) in [
            ("gin-heuristic", "/ladders/l/bots/gin-heuristic"),
            ("a.b_c~d", "/ladders/l/bots/a.b_c~d"),
            ("a b/c?d#e%f&g+h", "/ladders/l/bots/a%20b%2Fc%3Fd%23e%25f%26g%2Bh"),
            ("é ♠", "/ladders/l/bots/%C3%A9%20%E2%99%A0"),
            ("<b>\"", "/ladders/l/bots/%3Cb%3E%22"),
            ("...", "/ladders/l/bots/..."),
            ("..", "/ladders/l/bots/7"),
            (".", "/ladders/l/bots/7"),
            ("", "/ladders/l/bots/7"),
        ] {
            assert_eq!(bot_href("l", name, "7"), href, "{name:?}");
        }
    }
}
