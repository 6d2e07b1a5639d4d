//! A bot's page: rating over time, versions, matches, health and head-to-head; and, for the
//! holder of its key, its failures.

use axum::Form;
use axum::extract::{Path, Query, State};
use maud::{Markup, html};
use serde::Deserialize;

use super::{PageError, duration_us, layout, ordinal, percent};
use crate::App;
use crate::plot;
use crate::source::{BotPage, Failures, PageRequest, Source};

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

fn matches_section(bot: &BotPage, page: u64, page_size: u64) -> Markup {
    let pages = bot.match_count.div_ceil(page_size).max(1);
    let base = format!("/ladders/{}/bots/{}", bot.ladder.id, bot.bot);
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
                            @for (i, (id, name)) in m.opponents.iter().enumerate() {
                                @if i > 0 { ", " }
                                a href={ "/ladders/" (bot.ladder.id) "/bots/" (id) } { (name) }
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
                        td { code { (v.version) } } td.num { (v.matches) } td.num { (v.decisions) }
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
                        tr { td { code { (v.version) } } td { (v.first_seen) } td.num { (v.matches) } }
                    } }
                }
            }
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
                            td { a href={ "/ladders/" (ladder) "/bots/" (h.bot) } { (h.name) } }
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
        form method="post" action={ "/ladders/" (bot.ladder.id) "/bots/" (bot.bot) "/failures" } {
            label for="key" { "The bot's key " }
            input #key type="password" name="key" autocomplete="off" required;
            " " button type="submit" { "Show failures" }
        }
    }
}

async fn load<S: Source>(
    app: &App<S>,
    ladder: &str,
    bot: &str,
    page: u64,
    before: Option<String>,
) -> Result<BotPage, PageError> {
    let size = app.config.page_size;
    let request = PageRequest { offset: (page - 1).saturating_mul(size), limit: size, before };
    app.source
        .bot(ladder, bot, request)
        .await?
        .ok_or_else(|| PageError::NotFound(format!("no bot {bot} in ladder {ladder}")))
}

/// `/ladders/{ladder}/bots/{bot}?page=N`.
pub(crate) async fn bot_page<S: Source>(
    State(app): State<App<S>>,
    Path((ladder, bot)): Path<(String, String)>,
    Query(query): Query<BotQuery>,
) -> Result<Markup, PageError> {
    let number = query.page.unwrap_or(1).max(1);
    let loaded = load(&app, &ladder, &bot, number, query.before).await?;
    // The form appears only where failures are kept, so that nobody types a key for nothing.
    let failures = if app.source.keeps_failures() {
        failures_form(&loaded)
    } else {
        html! {}
    };
    Ok(page(&loaded, number, app.config.page_size, failures))
}

/// `POST /ladders/{ladder}/bots/{bot}/failures` with the bot's key: its page with its
/// failures and the observation behind each.
pub(crate) async fn failures<S: Source>(
    State(app): State<App<S>>,
    Path((ladder, bot)): Path<(String, String)>,
    Form(form): Form<KeyForm>,
) -> Result<Markup, PageError> {
    let loaded = load(&app, &ladder, &bot, 1, None).await?;
    let section = match app.source.failures(&ladder, &bot, &form.key).await? {
        Failures::NotKept => {
            return Err(PageError::NotFound("this ladder keeps no failures".into()));
        }
        Failures::WrongKey => html! {
            (failures_form(&loaded))
            p.error.wrong-key { "That is not this bot's key." }
        },
        Failures::Shown(list) => html! {
            h2 { "Failures (for its author)" }
            @if list.is_empty() { p.none { "No failures." } }
            @for f in &list {
                article.failure {
                    h3 { "Match " (f.match_id) ": " (f.error) }
                    @if let Some(answer) = &f.answer { p { "Its answer: " code { (answer) } } }
                    details { summary { "The observation it had" } pre { (f.observation) } }
                }
            }
        },
    };
    Ok(page(&loaded, 1, app.config.page_size, section))
}
