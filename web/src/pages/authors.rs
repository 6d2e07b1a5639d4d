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
use cardroom_server::PeerKey;
use maud::{Markup, html};
use serde::Deserialize;

use super::{PageError, layout};
use crate::App;
use crate::source::{AuthorJoin, Source};
use crate::streams::PeerAddress;

/// The join form: the invite code and the author's name.
#[derive(Debug, Deserialize)]
pub(crate) struct JoinForm {
    code: String,
    name: String,
}

/// `/authors/{name}`: an author and their bots.
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
                thead { tr { th { "bot" } th { "status" } th { "registered" } } }
                tbody { @for bot in &author.bots {
                    tr { td.name { (bot.name) } td { (bot.status) } td { (bot.registered) } }
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
