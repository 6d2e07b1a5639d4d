//! A person's seat (issue 46): `/seat/{token}` draws the table as the seat sees it, its hand
//! face up, and the legal actions as controls (a card of the hand that one action plays is a
//! button itself; a run of raise sizes is a number and a button). A click posts the action's
//! number to `/seat/{token}/act`; the table comes back redrawn at every move as server-sent
//! events (`/seat/{token}/live`). The seat's stream is the web server's ([`crate::seats`]).
//!
//! "Play the bots" (`POST /ladders/{ladder}/play`): a guest's match against the ladder's bots
//! chosen on its page, unrated, at a random seat, with a person's clock; so many an hour from
//! one address (`serve --guests`).

use std::convert::Infallible;

use axum::Form;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use futures::{Stream, StreamExt as _};
use maud::{Markup, html};
use serde::Deserialize;
use tokio_stream::wrappers::WatchStream;

use cardroom_games::text::{Choice, choices};
use cardroom_games::{Card, Line, Seat};
use cardroom_proto::wire::WireGame;

use super::table::{self, Clickable};
use super::{PageError, is_plain_id, layout, live, ordinal};
use crate::App;
use crate::seats::{GUEST_BANK_MS, GUEST_MOVE_MS, OpenTurn, Phase, SeatError, SeatState};
use crate::source::Source;
use crate::streams::{PeerAddress, StreamSlot};
use cardroom_server::PeerKey;

/// The longest reply a page posts, in bytes (the server's own limit is larger).
const MAX_REPLY_BYTES: usize = 256;

/// Events the table's line says happened: the last few.
const LINE_EVENTS: usize = 3;

impl IntoResponse for SeatError {
    fn into_response(self) -> Response {
        let status = match &self {
            SeatError::NoSeats | SeatError::NotAToken(_) => StatusCode::NOT_FOUND,
            SeatError::Full => StatusCode::SERVICE_UNAVAILABLE,
            SeatError::TooMany { .. } | SeatError::Throttled { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            SeatError::Refused(_) => StatusCode::CONFLICT,
        };
        let mut response =
            (status, layout("No seat", html! { h1 { "No seat" } p.error { (self) } }))
                .into_response();
        if let SeatError::TooMany { wait_s, .. } | SeatError::Throttled { wait_s, .. } = self
            && let Ok(value) = wait_s.to_string().parse()
        {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        response
    }
}

/// A seat's pages carry its credential: never cached, never sent on as a referrer.
fn private(markup: Markup) -> Response {
    let headers = [(header::CACHE_CONTROL, "no-store"), (header::REFERRER_POLICY, "no-referrer")];
    (headers, markup).into_response()
}

/// The seat of `token`: held already, or held from now on unless `peer`'s seat links keep
/// naming no seat (they count in the server's throttle of failed credentials, as a wrong key
/// on a bot's page does).
fn session_for<S: Source>(
    app: &App<S>,
    token: &str,
    peer: Option<PeerKey>,
) -> Result<std::sync::Arc<crate::seats::Session>, SeatError> {
    if !is_plain_id(token) {
        return Err(SeatError::NotAToken(token.to_owned()));
    }
    if let Some(session) = app.seats.existing(token) {
        return Ok(session);
    }
    unthrottled(app, peer)?;
    app.seats.session(token)
}

/// Refuses `peer` while its failed credentials (seat links, bot keys) are over the server's
/// throttle,
/// and while those from every browser together are over the pages' own limit.
fn unthrottled<S: Source>(app: &App<S>, peer: Option<PeerKey>) -> Result<(), SeatError> {
    app.throttle.check(peer, None).map_err(|throttled| SeatError::Throttled {
        why: throttled.to_string(),
        wait_s: throttled.wait.as_secs() + 1,
    })?;
    app.seats.links_open()
}

/// `GET /seat/{token}`: the seat's page. It holds nothing: its stream takes the seat.
pub(crate) async fn seat_page<S: Source>(
    State(app): State<App<S>>,
    Path(token): Path<String>,
) -> Result<Response, Response> {
    if !app.seats.enabled() {
        return Err(SeatError::NoSeats.into_response());
    }
    if !is_plain_id(&token) {
        return Err(SeatError::NotAToken(token).into_response());
    }
    let now = app.seats.existing(&token).map(|session| session.now()).unwrap_or_default();
    let body = html! {
        h1 { "Your seat" }
        p.intro {
            "Click a card or a button to play. The table is redrawn as the others play; "
            "closing this page leaves your seat, and opening its link again takes it back."
        }
        div #seat aria-live="polite" data-stream={ "/seat/" (token) "/live" } {
            (panel(&token, &now))
        }
        script src="/static/seat.js" defer {}
    };
    Ok(private(layout("Your seat", body)))
}

/// `GET /seat/{token}/live`: the seat redrawn at every change, as server-sent events `seat`;
/// the seat is held while one of these streams is open (and [`crate::seats::CLOSED_TAB_AFTER`]
/// after). Once the match is over (or the seat lost), its last drawing, then `end`, and the
/// stream ends: `seat.js` does not open it again.
pub(crate) async fn seat_live<S: Source>(
    State(app): State<App<S>>,
    Path(token): Path<String>,
    PeerAddress(address): PeerAddress,
    slot: StreamSlot,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Response> {
    let peer = Some(PeerKey::Address(address));
    let session = session_for(&app, &token, peer).map_err(IntoResponse::into_response)?;
    let throttle = std::sync::Arc::clone(&app.throttle);
    let seats = std::sync::Arc::clone(&app.seats);
    let states = WatchStream::new(session.watch());
    // Each state as a drawing; after the last (the match over, the seat lost), `end`, and the
    // stream ends without waiting for a change that will not come.
    let events = futures::stream::unfold((states, false), move |(mut states, ended)| {
        let (token, throttle, seats) = (token.clone(), throttle.clone(), seats.clone());
        async move {
            if ended {
                return None;
            }
            let state = states.next().await?;
            let ended = match state.phase {
                Phase::Lost { .. } => true,
                // A seat from the lobby waits there again for the ladder's next match.
                Phase::Over(_) => state.lobby.is_none(),
                _ => false,
            };
            if let Phase::Lost { credential: true, .. } = state.phase {
                // The game server counted it under the pages' own address, the loopback: a
                // browser there is counted once.
                if !address.is_loopback() {
                    throttle.failed(peer, None);
                }
                seats.link_failed();
            }
            let drawn = Event::default().event("seat").data(panel(&token, &state).into_string());
            let mut events = vec![Ok(drawn)];
            if ended {
                events.push(Ok(Event::default().event("end").data("")));
            }
            Some((futures::stream::iter(events), (states, ended)))
        }
    })
    .flatten();
    Ok(live(events, slot))
}

/// A click: the turn it answers and the reply (an action's number, or a run's words and the
/// number chosen).
#[derive(Debug, Deserialize)]
pub(crate) struct ActForm {
    turn: u64,
    #[serde(default)]
    reply: String,
    /// A run's words (`raise to`), with `amount`.
    #[serde(default)]
    head: String,
    amount: Option<u64>,
}

/// `POST /seat/{token}/act`: sends the reply. htmx's post gets 204 (the table comes back
/// through the stream); a form posted without JavaScript goes back to the seat's page.
pub(crate) async fn seat_act<S: Source>(
    State(app): State<App<S>>,
    Path(token): Path<String>,
    headers: HeaderMap,
    Form(form): Form<ActForm>,
) -> Result<Response, Response> {
    let reply = match form.amount {
        Some(amount) => format!("{} {amount}", form.head.trim()),
        None => form.reply,
    };
    if reply.len() > MAX_REPLY_BYTES {
        let why = format!("a reply is at most {MAX_REPLY_BYTES} bytes");
        return Err((StatusCode::BAD_REQUEST, why).into_response());
    }
    let Some(session) = app.seats.existing(&token).filter(|_| is_plain_id(&token)) else {
        let why = "no seat is held for this link: open the link first".to_owned();
        return Err(SeatError::Refused(why).into_response());
    };
    if !session.reply(form.turn, reply) {
        let why = "the seat is not playing: open its page again";
        return Err((StatusCode::CONFLICT, why).into_response());
    }
    if headers.contains_key("hx-request") {
        return Ok(StatusCode::NO_CONTENT.into_response());
    }
    Ok(Redirect::to(&format!("/seat/{token}")).into_response())
}

/// The seat now: where it stands, the controls on its turn, the table and the last events.
fn panel(token: &str, state: &SeatState) -> Markup {
    let status = match (&state.phase, &state.lobby) {
        (Phase::Joining, Some(bot)) => html! {
            p.status { "Waiting in the lobby as " strong { (bot) } " until the ladder seats you…" }
        },
        (Phase::Joining, None) => html! { p.status { "Taking your seat…" } },
        (Phase::Away, _) => html! { p.status { "Your seat waits for you." } },
        (Phase::Lost { why, .. }, _) => html! { p.status.error { "No seat: " (why) "." } },
        (Phase::Playing | Phase::Over(_), _) => html! {},
    };
    let drawn =
        state.game.and_then(|game| cardroom_proto::wire::visit(game, Drawn { token, state }));
    html! {
        (status)
        @if let Phase::Over(end) = &state.phase {
            p.end { "The match is over. " (result(end, state.names.len(), &state.match_id)) }
        }
        @if let Some((end, seats, match_id)) = &state.last {
            p.last { "Your last match: " (result(end, *seats, match_id)) }
        }
        @if !state.match_id.is_empty() {
            p.match-id {
                "Match " a.match href={ "/matches/" (state.match_id) } data-match=(state.match_id) data-seat=(state.seat) {
                    (state.match_id)
                }
                ", seat " (state.seat) "."
            }
        }
        @if let Some(refused) = &state.refused { p.refused role="alert" { (refused) } }
        @if let Some(drawn) = drawn { (drawn) }
    }
}

/// A finished match for its person: their place, why it ended, and its replay.
fn result(end: &cardroom_sdk::MatchEnd, seats: usize, match_id: &str) -> Markup {
    html! {
        @match end.place() {
            Some(place) => { "You finished " (ordinal(place)) " of " (seats) }
            None => "Your seat has no place",
        }
        @if end.forfeited.contains(&end.seat) { ", having forfeited" }
        @if !end.reason.is_empty() { ": " (end.reason) }
        ". " a href={ "/matches/" (match_id) } { "See the replay" }
    }
}

/// The seat drawn by its game's engine: the table from the seat's observation, the controls
/// from its legal actions.
struct Drawn<'a> {
    token: &'a str,
    state: &'a SeatState,
}

impl cardroom_proto::wire::WireVisitor for Drawn<'_> {
    type Output = Option<Markup>;

    fn visit<G: WireGame>(self) -> Option<Markup> {
        let state = self.state;
        let observation = G::parse_observation(&state.observation).ok()?;
        let table = G::seat_table(&observation);
        let seat = Seat(state.seat);
        let lines: Vec<Line> = state
            .events
            .iter()
            .filter_map(|json| serde_json::from_str::<G::Event>(json).ok())
            .map(|event| G::event_line(&event))
            .collect();
        let turn = state.turn.filter(|_| matches!(state.phase, Phase::Playing));
        let legal = if turn.is_some() { G::legal_actions_of(&observation) } else { &[] };
        let choices = choices(legal);
        let hand: Vec<Card> = table
            .seats
            .iter()
            .find(|row| row.seat == seat)
            .map(|row| row.hand.shown.clone())
            .unwrap_or_default();
        let cards: Vec<(Card, Markup)> = match turn {
            Some(turn) => card_controls(self.token, turn.turn, &choices, &hand),
            None => Vec::new(),
        };
        let clickable = Clickable { seat, cards: &cards };
        let said = &lines[lines.len().saturating_sub(LINE_EVENTS)..];
        let waiting_for = table.to_act().filter(|&to_act| to_act != seat);
        Some(html! {
            @if let Some(turn) = turn {
                (clock(turn))
                div.controls role="group" aria-label="Your legal actions" {
                    @for choice in &choices { (control(self.token, turn.turn, choice)) }
                }
            } @else if let Some(other) = waiting_for.filter(|_| matches!(state.phase, Phase::Playing)) {
                p.status { "Waiting for " (state.names.get(other.index()).map_or("", String::as_str)) " (" (other) ")…" }
            }
            (table::draw_for(&table, &state.names, said, Some(&clickable)))
            @if !lines.is_empty() {
                h2 { "Last moves" }
                ol.events role="log" { @for l in &lines { li { (table::line(&state.names, l)) } } }
            }
        })
    }
}

/// The clock of an open turn: the move's time, then the bank, counted down by `seat.js`.
fn clock(turn: OpenTurn) -> Markup {
    html! {
        p.status.your-turn {
            strong { "Your turn." } " "
            span.clock {
                "Move: " span data-left-ms=(turn.move_ms) { (turn.move_ms / 1_000) " s" }
                ", then your bank: "
                span data-left-ms=(turn.bank_ms) data-after-ms=(turn.move_ms) { (turn.bank_ms / 1_000) " s" }
            }
        }
    }
}

/// A form that posts one reply for `turn`, its button holding `label`.
fn act_form(token: &str, turn: u64, reply: &str, title: &str, label: Markup) -> Markup {
    let action = format!("/seat/{token}/act");
    html! {
        form.act method="post" action=(action) hx-post=(action) hx-swap="none" {
            input type="hidden" name="turn" value=(turn);
            button type="submit" name="reply" value=(reply) title=(title) data-reply=(reply) { (label) }
        }
    }
}

/// One choice as a control: a button, or for a run a number and a button.
fn control(token: &str, turn: u64, choice: &Choice) -> Markup {
    match choice {
        Choice::One { number, words, .. } => {
            act_form(token, turn, &number.to_string(), words, html! { (words) })
        }
        Choice::Run { head, low, high, .. } => {
            let action = format!("/seat/{token}/act");
            html! {
                form.act.run method="post" action=(action) hx-post=(action) hx-swap="none" {
                    input type="hidden" name="turn" value=(turn);
                    input type="hidden" name="head" value=(head);
                    label { (head) " "
                        input type="number" name="amount" min=(low) max=(high) value=(low) required;
                    }
                    button type="submit" { (head) }
                }
            }
        }
    }
}

/// The cards of `hand` that one action alone plays (Gin Rummy's discard, a single card led):
/// each drawn as a button posting that action.
fn card_controls(token: &str, turn: u64, choices: &[Choice], hand: &[Card]) -> Vec<(Card, Markup)> {
    fn single(choice: &Choice) -> Option<(Card, usize, &str)> {
        match choice {
            Choice::One { number, words, cards } if cards.len() == 1 => {
                Some((cards[0], *number, words))
            }
            _ => None,
        }
    }
    hand.iter()
        .filter_map(|&card| {
            let mut actions = choices.iter().filter_map(single).filter(|(c, ..)| *c == card);
            let (_, number, words) = actions.next()?;
            if actions.next().is_some() {
                return None;
            }
            let control = act_form(token, turn, &number.to_string(), words, table::card(card));
            Some((card, control))
        })
        .collect()
}

/// What the ladder's "Play the bots" form posts: the bot for each other seat, `bot1` on.
#[derive(Debug, Deserialize)]
pub(crate) struct GuestForm {
    #[serde(flatten)]
    bots: std::collections::BTreeMap<String, String>,
}

/// The ladder page's "Play the bots" form, where the server takes guests and the ladder runs.
pub(crate) fn guest_form(ladder: &str, table: &crate::PeopleTable, per_hour: u32) -> Markup {
    let others = usize::from(table.seats).saturating_sub(1);
    html! {
        section.play {
            h2 { "Play the bots" }
            @if table.bots.is_empty() {
                p { "No bot has entered this ladder yet." }
            } @else {
                form method="post" action={ "/ladders/" (ladder) "/play" } {
                    @for i in 1..=others {
                        label { "Seat against " select name={ "bot" (i) } {
                            @for (j, bot) in table.bots.iter().enumerate() {
                                option value=(bot) selected[j == (i - 1) % table.bots.len()] { (bot) }
                            }
                        } } " "
                    }
                    button type="submit" { "Take a seat" }
                }
                p.note {
                    "An unrated match on this ladder's rules, at a random seat, with "
                    (GUEST_MOVE_MS / 1_000) " s a move and a bank of " (GUEST_BANK_MS / 1_000)
                    " s; " (per_hour) " an hour from one address."
                }
            }
        }
    }
}

/// `POST /ladders/{ladder}/play`: a guest's match against the bots chosen, then their seat.
pub(crate) async fn guest_match<S: Source>(
    State(app): State<App<S>>,
    Path(ladder): Path<String>,
    PeerAddress(address): PeerAddress,
    Form(form): Form<GuestForm>,
) -> Result<Response, Response> {
    let Some(_) = app.seats.guests() else {
        return Err(SeatError::NoSeats.into_response());
    };
    let table =
        app.source.people_table(&ladder).await.map_err(|e| PageError::from(e).into_response())?;
    let Some(table) = table else {
        let why = format!("ladder {ladder} is not running: it seats no guest");
        return Err(PageError::NotFound(why).into_response());
    };
    let others = usize::from(table.seats).saturating_sub(1);
    let mut bots = Vec::with_capacity(others);
    for i in 1..=others {
        let bot = form.bots.get(&format!("bot{i}")).ok_or_else(|| {
            (StatusCode::BAD_REQUEST, format!("name a bot for each of the {others} other seats"))
                .into_response()
        })?;
        if !table.bots.contains(bot) {
            let why = format!("no bot {bot:?} in ladder {ladder}");
            return Err((StatusCode::BAD_REQUEST, why).into_response());
        }
        bots.push(bot.clone());
    }
    let guest_seat = (cardroom_server::random_seed() % u64::from(table.seats.max(1))) as usize;
    let token = app
        .seats
        .guest_match(address, &table, bots, guest_seat)
        .await
        .map_err(IntoResponse::into_response)?;
    Ok(Redirect::to(&format!("/seat/{token}")).into_response())
}

/// The ladder page's "Play rated" form, where its file says `people = true`.
pub(crate) fn rated_form(ladder: &str) -> Markup {
    html! {
        section.rated {
            h2 { "Play rated" }
            p.note {
                "Under a registered bot's name and key: you wait in the lobby as that bot, the "
                "ladder seats you in its duplicate sets as it seats any bot, and rates you as it. "
                "After each match you wait for the next while this page is open."
            }
            form method="post" action={ "/ladders/" (ladder) "/rated" } {
                label { "Bot " input type="text" name="bot" required maxlength="64" autocomplete="username"; } " "
                label { "Key " input type="password" name="key" required autocomplete="current-password"; } " "
                button type="submit" { "Wait in the lobby" }
            }
        }
    }
}

/// What the "Play rated" form posts.
#[derive(Debug, Deserialize)]
pub(crate) struct RatedForm {
    bot: String,
    key: String,
}

/// `POST /ladders/{ladder}/rated`: a person's seat in the lobby under a registered bot, then
/// its page. A wrong key is refused when the seat joins; it counts in the server's throttle
/// by the browser's address.
pub(crate) async fn rated_seat<S: Source>(
    State(app): State<App<S>>,
    Path(ladder): Path<String>,
    PeerAddress(address): PeerAddress,
    Form(form): Form<RatedForm>,
) -> Result<Response, Response> {
    unthrottled(&app, Some(PeerKey::Address(address))).map_err(IntoResponse::into_response)?;
    let table =
        app.source.people_table(&ladder).await.map_err(|e| PageError::from(e).into_response())?;
    if !table.is_some_and(|table| table.people) {
        let why = format!("ladder {ladder} seats no person rated (its file's `people`)");
        return Err(PageError::NotFound(why).into_response());
    }
    let bot = form.bot.trim();
    if bot.is_empty() || bot.len() > 64 {
        return Err((StatusCode::BAD_REQUEST, "a bot's name is 1 to 64 bytes").into_response());
    }
    let id = app.seats.lobby_session(bot, &form.key).map_err(IntoResponse::into_response)?;
    Ok(Redirect::to(&format!("/seat/{id}")).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardroom_games::gin;

    /// In Gin Rummy's discard, every card of the eleven is a button posting its discard's
    /// number; a knock (many cards) stays a button of its own.
    #[test]
    fn a_card_is_a_button_where_one_action_alone_plays_it() {
        let mut state = gin::State::new(gin::Options::default(), 7).unwrap();
        while state.legal_actions().iter().all(|a| !matches!(a, gin::Action::Discard(_))) {
            let seat = state.to_act().unwrap();
            let legal = state.legal_actions();
            let draw = legal.iter().find(|a| matches!(a, gin::Action::DrawStock));
            let action = draw.copied().unwrap_or(legal[legal.len() - 1]);
            state.apply(seat, action).unwrap();
        }
        let legal = state.legal_actions();
        let choices = choices(&legal);
        let hand = state.hand(state.to_act().unwrap()).iter().collect::<Vec<_>>();
        assert_eq!(hand.len(), 11);
        let controls = card_controls("ab12", 9, &choices, &hand);
        assert_eq!(controls.len(), 11, "every card is its own discard");
        for (card, control) in &controls {
            let html = control.clone().into_string();
            let number = legal.iter().position(|a| *a == gin::Action::Discard(*card)).unwrap() + 1;
            assert!(html.contains(&format!("value=\"{number}\"")), "{html}");
            assert!(html.contains(r#"name="turn" value="9""#), "{html}");
            assert!(html.contains(&format!("data-card=\"{}\"", card.code())), "{html}");
        }
        // Two single-card actions on one card: neither is the card's click.
        let seven: Card = "7d".parse().unwrap();
        let two = [
            Choice::One { number: 1, words: "play 7♦".into(), cards: vec![seven] },
            Choice::One { number: 2, words: "throw 7♦".into(), cards: vec![seven] },
        ];
        assert!(card_controls("ab12", 1, &two, &[seven]).is_empty());
    }

    /// A run of raise sizes is one control: its words, a number from the run's least to its
    /// most, and the button; posted, the words and the number are the reply.
    #[test]
    fn a_run_of_raise_sizes_is_a_number_and_a_button() {
        let run = Choice::Run { first: 3, head: "raise to".into(), low: 4, high: 200 };
        let html = control("ab12", 7, &run).into_string();
        for part in [
            r#"name="turn" value="7""#,
            r#"name="head" value="raise to""#,
            r#"type="number" name="amount" min="4" max="200" value="4""#,
            r#"action="/seat/ab12/act""#,
        ] {
            assert!(html.contains(part), "{part}: {html}");
        }
    }

    #[test]
    fn a_seat_link_is_a_plain_id() {
        assert!(is_plain_id("0123abcdEF"));
        for bad in ["", "../x", "a b", &"a".repeat(65)] {
            assert!(!is_plain_id(bad), "{bad:?}");
        }
    }
}
