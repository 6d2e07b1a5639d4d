//! Authors on the pages (issue 41): an author's page (`/authors/{name}`: their bots, for
//! anyone), and the form that redeems an invite code (`/join`): the author's token is shown
//! once, on the answer, never kept by the pages.
//!
//! A failed code counts in the server's throttle by the client's address, as a wrong key on a
//! bot's failures form does; past its quota the form answers 429 with `Retry-After`.

use axum::Form;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use cardroom_server::{LadderControlError, PeerKey, ScrimmageRequest};
use maud::{Markup, html};
use serde::Deserialize;

use super::{PageError, layout};
use crate::App;
use crate::source::{AuthorJoin, BotPage, PageRequest, Source};
use crate::streams::PeerAddress;

/// The join form: the invite code and the author's name.
#[derive(Debug, Deserialize)]
pub(crate) struct JoinForm {
    code: String,
    name: String,
}

/// `/authors/{name}`: an author and their bots, each with its latest version and how many it
/// has had.
pub(crate) async fn author_page<S: Source>(
    State(app): State<App<S>>,
    Path(name): Path<String>,
) -> Result<Response, PageError> {
    let Some(author) = app.source.author(&name).await? else {
        return Err(PageError::NotFound(format!("no author named {name:?}")));
    };
    let body = html! {
        h1 { "Author " span.author { (author.name) } }
        p { "Joined " (author.joined) "." }
        h2 { "Bots" }
        @if author.bots.is_empty() {
            p.none { "No bots yet." }
        } @else {
            table.bots {
                thead { tr {
                    th { "bot" } th { "status" } th { "registered" } th { "latest version" }
                    th { "versions" }
                } }
                tbody { @for bot in &author.bots {
                    tr {
                        td.name { (bot.name) } td { (bot.status) } td { (bot.registered) }
                        td { @if let Some(v) = &bot.latest_version { (super::version(v)) } }
                        td.num { (bot.versions) }
                    }
                } }
            }
        }
    };
    Ok(layout(&author.name, body).into_response())
}

fn join_form(error: Option<&str>) -> Markup {
    html! {
        h1 { "Join as an author" }
        p { "An organizer's invite code makes one author, once. Your token is shown once, on \
             the next page: keep it, the server keeps only its hash." }
        form method="post" action="/join" {
            p { label for="code" { "Invite code " } input #code type="password" name="code" autocomplete="off" required; }
            p { label for="name" { "Your name " } input #name type="text" name="name" autocomplete="off" required; }
            button type="submit" { "Join" }
        }
        @if let Some(error) = error { p.error { (error) } }
    }
}

/// `GET /join`: the form.
pub(crate) async fn join_page() -> Response {
    layout("Join", join_form(None)).into_response()
}

/// `POST /join`: redeems the code, and shows the token once (never cached).
pub(crate) async fn join<S: Source>(
    State(app): State<App<S>>,
    PeerAddress(address): PeerAddress,
    Form(form): Form<JoinForm>,
) -> Result<Response, PageError> {
    let peer = Some(PeerKey::Address(address));
    if let Err(throttled) = app.throttle.check(peer, None) {
        let retry = [(header::RETRY_AFTER, (throttled.wait.as_secs() + 1).to_string())];
        let page = layout("Join", join_form(Some(&throttled.to_string())));
        return Ok((StatusCode::TOO_MANY_REQUESTS, retry, page).into_response());
    }
    match app.source.join_author(&form.code, &form.name).await? {
        AuthorJoin::Joined { author, token } => {
            let body = html! {
                h1 { "Welcome, " span.author { (author) } }
                p { "Your author token, shown this once:" }
                pre.token { (token) }
                p { "With it you add, rotate, retire and submit your own bots: "
                    code { "cardroom authors add-bot NAME --token TOKEN" } "." }
                p { a href={ "/authors/" (author) } { "Your page" } }
            };
            let no_store = [(header::CACHE_CONTROL, "no-store")];
            Ok((no_store, layout("Joined", body)).into_response())
        }
        AuthorJoin::Refused { why, credential } => {
            if credential {
                app.throttle.failed(peer, None);
            }
            let page = layout("Join", join_form(Some(&why)));
            Ok((StatusCode::BAD_REQUEST, page).into_response())
        }
    }
}

/// The scrimmage form of a bot's page: its author's token, and the opponents or a top N.
#[derive(Debug, Deserialize)]
pub(crate) struct ScrimmageForm {
    token: String,
    #[serde(default)]
    opponents: String,
    #[serde(default)]
    top: String,
}

/// A bot page's scrimmage form, with what the last one came to, if anything.
pub(crate) fn scrimmage_form(bot: &BotPage, said: Option<Markup>) -> Markup {
    let action = format!("{}/scrimmage", super::bot::bot_href(&bot.ladder.id, &bot.name, &bot.bot));
    html! {
        h2 { "Scrimmage (for its author)" }
        p { "Unrated sets against the opponents named, or the ladder's top N: never rated, \
             seen by the author alone (" code { "cardroom scrims" } ")." }
        form.scrimmage method="post" action=(action) {
            p { label for="token" { "Author token " } input #token type="password" name="token" autocomplete="off" required; }
            p { label for="opponents" { "Opponents " } input #opponents type="text" name="opponents" placeholder="bob-1 cat-2"; }
            p { label for="top" { "or the top " } input #top type="number" name="top" min="1" max="20"; }
            button type="submit" { "Ask for scrimmages" }
        }
        @if let Some(said) = said { (said) }
    }
}

/// `POST /ladders/{ladder}/bots/{bot}/scrimmage`: asks for scrimmages of the bot with its
/// author's token, through the hosted ladders, as `RequestScrimmage` does.
pub(crate) async fn scrimmage<S: Source>(
    State(app): State<App<S>>,
    Path((ladder, bot)): Path<(String, String)>,
    PeerAddress(address): PeerAddress,
    Form(form): Form<ScrimmageForm>,
) -> Result<Response, PageError> {
    let request = PageRequest { offset: 0, limit: 1, before: None };
    let Some(page) = app.source.bot(&ladder, &bot, request).await? else {
        return Err(PageError::NotFound(format!("no bot {bot:?} in ladder {ladder:?}")));
    };
    let answer = |status: StatusCode, said: Markup| {
        (status, layout(&page.name, scrimmage_form(&page, Some(said)))).into_response()
    };
    let peer = Some(PeerKey::Address(address));
    if let Err(throttled) = app.throttle.check(peer, None) {
        let retry = [(header::RETRY_AFTER, (throttled.wait.as_secs() + 1).to_string())];
        let said = html! { p.error.throttled { (throttled.to_string()) } };
        return Ok((retry, answer(StatusCode::TOO_MANY_REQUESTS, said)).into_response());
    }
    let Some(ladders) = app.config.ladders.clone() else {
        let said = html! { p.error { "These pages take no scrimmages." } };
        return Ok(answer(StatusCode::SERVICE_UNAVAILABLE, said));
    };
    let Some(author) = app.source.author_by_token(form.token.trim()).await? else {
        app.throttle.failed(peer, None);
        let said = html! { p.error { "That token is no author's." } };
        return Ok(answer(StatusCode::UNAUTHORIZED, said));
    };
    let top = form.top.trim();
    let top = if top.is_empty() { 0 } else { top.parse().unwrap_or(0) };
    let opponents = form.opponents.split_whitespace().map(str::to_owned).collect();
    let asked = ScrimmageRequest { ladder, author, bot: page.name.clone(), opponents, top };
    match ladders.0.request_scrimmages(asked).await {
        Ok(ids) => {
            let said = html! {
                p.asked { (ids.len()) " scrimmage(s) asked for: played when their bots are free. "
                    code { "cardroom scrims" } " lists them with their results." }
            };
            Ok(answer(StatusCode::OK, said))
        }
        Err(refused) => {
            let status = match refused {
                LadderControlError::PermissionDenied(_) => StatusCode::FORBIDDEN,
                LadderControlError::Exhausted(_) => StatusCode::TOO_MANY_REQUESTS,
                LadderControlError::NotFound(_) => StatusCode::NOT_FOUND,
                LadderControlError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
                _ => StatusCode::BAD_REQUEST,
            };
            Ok(answer(status, html! { p.error { (refused.to_string()) } }))
        }
    }
}
