//! The seats people take from the pages (issue 46): the web server holds each seat's `Play`
//! stream as a [`TextSeat`] and the page speaks only to the web server. It sees the seat's
//! table redrawn at every move (server-sent events) and posts its choice as the action's
//! number (`Act.reply`).
//!
//! A seat is a [`Session`], found by its seat token (the page's address carries it: a
//! `CreateMatch` token an organizer hands out, or a guest's, [`Seats::guest_match`]), or by a
//! random id for a person who plays a ladder's rated sets under a registered bot
//! ([`Seats::lobby_session`]: the key stays here). Its task joins the seat while a page
//! watches, and plays the replies the page posts. When the last
//! page has been gone [`CLOSED_TAB_AFTER`], it drops the stream: the server then counts the
//! seat disconnected, its reconnect grace runs, and the next page to open the link takes the
//! seat back with the token.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cardroom_games::GameKind;
use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_sdk::{
    ActErrorCode, BotKey, ConnectConfig, MatchEnd, RunError, TextMoved, TextSeat, TextUpdate,
};
use cardroom_server::AuthThrottle;
use governor::{DefaultKeyedRateLimiter, Quota};
use tokio::sync::{Notify, mpsc, watch};
use tonic::transport::{Channel, Endpoint};

/// How long a seat's stream outlives its last page: a reload or a click that posts keeps it;
/// a closed tab drops it (the server's reconnect grace then runs).
pub(crate) const CLOSED_TAB_AFTER: Duration = Duration::from_secs(5);

/// How long a seat's task waits for a page before it ends.
const IDLE_AFTER: Duration = Duration::from_secs(600);

/// Seats held at once, ended ones included until a new one needs their place.
const MAX_SESSIONS: usize = 1_024;

/// Events a seat's page shows, the last ones.
const RECENT_EVENTS: usize = 12;

/// A guest's clock: people think longer than bots.
pub(crate) const GUEST_MOVE_MS: u32 = 60_000;
/// A guest's bank.
pub(crate) const GUEST_BANK_MS: u32 = 300_000;

/// The name a person's seat plays under (`Join.bot_name`): the others see it, the page adds
/// "(you)".
const GUEST: &str = "guest";

/// Where the pages' seats play, and whether the ladder pages take guests.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// The game server's gRPC address for the seats' streams and guests' matches, such as
    /// `http://127.0.0.1:50051`.
    pub server: String,
    /// The server's admin token, for the guests' `CreateMatch` (a server with one refuses
    /// matches without it).
    pub admin_token: Option<String>,
    /// Guest matches one address may start an hour from the ladder pages (`serve --guests`);
    /// 0: the pages offer none.
    pub guests_per_hour: u32,
    /// Failed seat links and bot keys a minute from every browser together, at most (0: 1).
    /// The game server sees every seat the pages take come from the web server's own address,
    /// and counts its failures against it: keep this under its failures a minute from one
    /// address (`Config::auth_failures_per_peer`), so that guesses through the pages never
    /// lock the pages out. Each browser's address is also counted on its own.
    pub failed_links_per_minute: u32,
}

/// Where a seat stands, as its page shows it.
#[derive(Clone, Debug, Default)]
pub(crate) enum Phase {
    /// Taking the seat.
    #[default]
    Joining,
    /// Seated.
    Playing,
    /// No page watched: the stream was dropped, and the seat is taken back when one does.
    Away,
    /// The match is over.
    Over(MatchEnd),
    /// The seat could not be taken, or was lost for good: why, and whether the server refused
    /// the token itself (a failed credential, which the pages' throttle counts).
    Lost { why: String, credential: bool },
}

/// A seat as its page draws it.
#[derive(Clone, Debug, Default)]
pub(crate) struct SeatState {
    pub(crate) phase: Phase,
    /// The match, once seated.
    pub(crate) match_id: String,
    pub(crate) game: Option<GameKind>,
    pub(crate) seat: u8,
    /// The seats' names, "you" at this one.
    pub(crate) names: Vec<String>,
    /// The seat's observation, in the engine's JSON form.
    pub(crate) observation: String,
    /// The last events, in the engine's JSON form, oldest first.
    pub(crate) events: Vec<String>,
    /// The open turn: its number, and the time left when it came.
    pub(crate) turn: Option<OpenTurn>,
    /// The server's last refusal of a reply, in words.
    pub(crate) refused: Option<String>,
    /// For a seat taken from the lobby (a person playing a ladder's rated sets under a
    /// registered bot), the bot's name: after each match the seat waits in the lobby again.
    pub(crate) lobby: Option<String>,
    /// The last match's end, its seats and its id, for a seat taken from the lobby.
    pub(crate) last: Option<(MatchEnd, usize, String)>,
}

/// A turn waiting for the person.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpenTurn {
    pub(crate) turn: u64,
    pub(crate) move_ms: u32,
    pub(crate) bank_ms: u32,
}

/// One seat held for the pages.
pub(crate) struct Session {
    state: watch::Sender<SeatState>,
    replies: mpsc::Sender<(u64, String)>,
    /// Told when a page starts watching.
    watched: Notify,
}

impl Session {
    /// The seat's state, and its changes: a page watches while it holds this.
    pub(crate) fn watch(&self) -> watch::Receiver<SeatState> {
        let receiver = self.state.subscribe();
        self.watched.notify_one();
        receiver
    }

    /// The seat's state now.
    pub(crate) fn now(&self) -> SeatState {
        self.state.borrow().clone()
    }

    /// Sends `reply` for `turn`; the server's verdict shows in the state.
    pub(crate) fn reply(&self, turn: u64, reply: String) -> bool {
        self.replies.try_send((turn, reply)).is_ok()
    }

    /// Whether its task is over.
    fn ended(&self) -> bool {
        self.replies.is_closed()
    }

    /// Whether a page may still show it: its task runs, or it ended with the match (or a
    /// refusal). A seat link's that ended waiting for a page ([`IDLE_AFTER`]) is taken afresh
    /// with its token.
    fn usable(&self) -> bool {
        let state = self.state.borrow();
        !self.ended()
            || state.lobby.is_some()
            || matches!(state.phase, Phase::Over(_) | Phase::Lost { .. })
    }
}

/// Why a seat or a guest match was refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SeatError {
    /// The pages seat no one (no [`PlayConfig`]).
    #[error("this server's pages seat no one")]
    NoSeats,
    /// A seat link whose token cannot be one (seat tokens are hex).
    #[error("{0:?} is no seat token")]
    NotAToken(String),
    /// Every place for a seat is taken.
    #[error("{MAX_SESSIONS} seats are held already: try again once a match ends")]
    Full,
    /// An address over its guests' quota.
    #[error("{per_hour} guest matches an hour from one address: try again in {wait_s} s")]
    TooMany { per_hour: u32, wait_s: u64 },
    /// The server refused the match.
    #[error("{0}")]
    Refused(String),
    /// An address whose seat links kept naming no seat (the server's throttle of failed
    /// credentials).
    #[error("{why}")]
    Throttled { why: String, wait_s: u64 },
}

/// The seats the pages hold, by seat token (or a rated seat's id).
pub(crate) struct Seats {
    config: Option<PlayConfig>,
    channel: Option<Channel>,
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    guests: Option<DefaultKeyedRateLimiter<IpAddr>>,
    /// Failed seat links and keys from every browser together ([`PlayConfig::failed_links_per_minute`]).
    links: AuthThrottle,
}

/// The subject [`Seats::links`] counts under.
const LINKS: &str = "every browser's seat links";

impl Seats {
    pub(crate) fn new(config: Option<PlayConfig>) -> Seats {
        let channel = config
            .as_ref()
            .and_then(|c| Endpoint::from_shared(c.server.clone()).ok())
            .map(|endpoint| endpoint.connect_lazy());
        let guests = config
            .as_ref()
            .and_then(|c| NonZeroU32::new(c.guests_per_hour))
            .map(|n| DefaultKeyedRateLimiter::keyed(Quota::per_hour(n)));
        let per_minute = config.as_ref().map_or(1, |c| c.failed_links_per_minute);
        let per_minute = NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN);
        let links = AuthThrottle::new(per_minute, per_minute);
        Seats { config, channel, sessions: Mutex::default(), guests, links }
    }

    /// Whether the pages seat anyone.
    pub(crate) fn enabled(&self) -> bool {
        self.config.is_some()
    }

    /// Refuses a new seat while the failed links from every browser together are over
    /// [`PlayConfig::failed_links_per_minute`].
    pub(crate) fn links_open(&self) -> Result<(), SeatError> {
        self.links.check(None, Some(LINKS)).map_err(|throttled| {
            let wait_s = throttled.wait.as_secs() + 1;
            let why = format!(
                "too many seat links and keys that name no seat came through these pages \
                 lately: retry in {wait_s} s"
            );
            SeatError::Throttled { why, wait_s }
        })
    }

    /// Counts a seat link or key the game server refused.
    pub(crate) fn link_failed(&self) {
        self.links.failed(None, Some(LINKS));
    }

    /// Whether the ladder pages take guests.
    pub(crate) fn guests(&self) -> Option<u32> {
        self.config.as_ref().map(|c| c.guests_per_hour).filter(|&per_hour| per_hour > 0)
    }

    /// The seat of `token` if it is held.
    pub(crate) fn existing(&self, token: &str) -> Option<Arc<Session>> {
        let sessions = self.sessions.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        sessions.get(token).filter(|s| s.usable()).map(Arc::clone)
    }

    /// The seat of `token`, held from now on if it was not; a seat taken from now on plays
    /// under the name [`GUEST`].
    pub(crate) fn session(&self, token: &str) -> Result<Arc<Session>, SeatError> {
        let config = self.config.as_ref().ok_or(SeatError::NoSeats)?;
        let mut connect = ConnectConfig::with_token(config.server.clone(), token);
        connect.name = GUEST.to_owned();
        self.hold(token, connect, None)
    }

    /// A person's seat under the registered bot `bot` (its `key`): it waits in the lobby until
    /// a ladder seats the bot, plays the match, and waits again while its page watches. Its id,
    /// for the page's address (the key stays here).
    pub(crate) fn lobby_session(&self, bot: &str, key: &str) -> Result<String, SeatError> {
        let config = self.config.as_ref().ok_or(SeatError::NoSeats)?;
        let key = BotKey::new(key).map_err(|error| SeatError::Refused(error.to_string()))?;
        let mut connect = ConnectConfig::lobby(config.server.clone(), bot);
        connect.key = Some(key);
        let id = cardroom_server::random_hex();
        self.hold(&id, connect, Some(bot.to_owned()))?;
        Ok(id)
    }

    /// The seat `id` names, held from now on (with `connect`) if it was not; `lobby` the bot
    /// of a seat taken from the lobby.
    fn hold(
        &self,
        id: &str,
        connect: ConnectConfig,
        lobby: Option<String>,
    ) -> Result<Arc<Session>, SeatError> {
        let mut sessions = self.sessions.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(session) = sessions.get(id).filter(|s| s.usable()) {
            return Ok(Arc::clone(session));
        }
        if sessions.len() >= MAX_SESSIONS {
            // Ended seats nobody watches give their places first.
            sessions.retain(|_, s| !(s.ended() && s.state.receiver_count() == 0));
            if sessions.len() >= MAX_SESSIONS {
                return Err(SeatError::Full);
            }
        }
        let (state, _) = watch::channel(SeatState { lobby, ..SeatState::default() });
        let (replies, receiver) = mpsc::channel(4);
        let session = Arc::new(Session { state, replies, watched: Notify::new() });
        let names = self.channel.clone().map(CardroomClient::new);
        tokio::spawn(play(Arc::clone(&session), connect, receiver, names));
        sessions.insert(id.to_owned(), Arc::clone(&session));
        Ok(session)
    }

    /// Starts a guest's match from `address`: `bots` in the other seats, the guest at
    /// `guest_seat`, on the ladder's game and options, a person's clock. The guest's token.
    pub(crate) async fn guest_match(
        &self,
        address: IpAddr,
        table: &PeopleTable,
        bots: Vec<String>,
        guest_seat: usize,
    ) -> Result<String, SeatError> {
        let (Some(config), Some(channel), Some(limiter)) =
            (&self.config, &self.channel, &self.guests)
        else {
            return Err(SeatError::NoSeats);
        };
        if let Err(not_until) = limiter.check_key(&address) {
            let wait = not_until.wait_time_from(governor::clock::Clock::now(limiter.clock()));
            let per_hour = config.guests_per_hour;
            return Err(SeatError::TooMany { per_hour, wait_s: wait.as_secs() + 1 });
        }
        let mut lobby_bots = bots;
        lobby_bots.insert(guest_seat.min(lobby_bots.len()), String::new());
        let request = pb::CreateMatchRequest {
            game: cardroom_proto::wire::game_to_pb(table.game) as i32,
            options_json: table.options_json.clone(),
            seats: lobby_bots.len() as u32,
            seed: None,
            clock: Some(pb::Clock {
                move_ms: GUEST_MOVE_MS,
                bank_ms: GUEST_BANK_MS,
                max_bad_replies: table.max_bad_replies,
            }),
            lobby_bots,
        };
        let mut request = tonic::Request::new(request);
        if let Some(token) = &config.admin_token {
            let value = format!("Bearer {token}").parse();
            if let Ok(value) = value {
                request.metadata_mut().insert("authorization", value);
            }
        }
        let created = CardroomClient::new(channel.clone())
            .create_match(request)
            .await
            .map_err(|status| SeatError::Refused(status.message().to_owned()))?
            .into_inner();
        let token = created.seats.into_iter().find(|s| s.seat as usize == guest_seat);
        let token = token.map(|s| s.token).ok_or_else(|| {
            SeatError::Refused("the server gave no token for the guest's seat".into())
        })?;
        // Held now: the token is good, and the guest's page is no new link to check.
        self.session(&token)?;
        Ok(token)
    }
}

/// A ladder's table as a person sits at it: its game, options and bots.
#[derive(Clone, Debug, PartialEq)]
pub struct PeopleTable {
    /// The game.
    pub game: GameKind,
    /// Its options as JSON.
    pub options_json: String,
    /// Seats at a table.
    pub seats: u8,
    /// Text replies refused in one turn before a seat forfeits (0: the server's).
    pub max_bad_replies: u32,
    /// The ladder's bots that a guest may play, best first.
    pub bots: Vec<String>,
    /// Whether its page seats a person in its rated sets, under a registered bot (its file's
    /// `people`).
    pub people: bool,
}

/// The seat's task: takes the seat while a page watches, plays the replies posted, and lets
/// the stream go once no page has watched for [`CLOSED_TAB_AFTER`].
async fn play(
    session: Arc<Session>,
    config: ConnectConfig,
    mut replies: mpsc::Receiver<(u64, String)>,
    mut names: Option<CardroomClient<Channel>>,
) {
    let state = &session.state;
    loop {
        // Wait for a page; a seat no page asks for in a long while is let go (a page that
        // comes later takes it afresh).
        loop {
            let watched = session.watched.notified();
            if state.receiver_count() > 0 {
                break;
            }
            if tokio::time::timeout(IDLE_AFTER, watched).await.is_err() {
                if state.borrow().lobby.is_some() {
                    // Its id names no token to take it back with.
                    let why = format!(
                        "no page watched this seat for {} minutes, and it left the lobby: take a \
                         seat again from the ladder's page",
                        IDLE_AFTER.as_secs() / 60
                    );
                    state.send_modify(|s| s.phase = Phase::Lost { why, credential: false });
                }
                return;
            }
        }
        state.send_modify(|s| s.phase = Phase::Joining);
        // A seat taken from the lobby may wait there long: it waits only while a page does.
        let joined = tokio::select! {
            joined = TextSeat::join_live(&config) => joined,
            () = unwatched(state) => {
                state.send_modify(|s| s.phase = Phase::Away);
                continue;
            }
        };
        let mut seat = match joined {
            Ok(seat) => seat,
            Err(RunError::AlreadyOver) => {
                let why = "the match is over: its replay is on the match's page".to_owned();
                state.send_modify(|s| s.phase = Phase::Lost { why, credential: false });
                return;
            }
            Err(error) => {
                let credential = matches!(&error, RunError::Rejected(status) if matches!(
                    status.code(),
                    tonic::Code::NotFound | tonic::Code::Unauthenticated | tonic::Code::PermissionDenied
                ));
                let why = error.to_string();
                state.send_modify(|s| s.phase = Phase::Lost { why, credential });
                return;
            }
        };
        let start = seat.start().clone();
        let seats_names = match names.as_mut() {
            Some(client) => seat_names(client, &start.match_id).await,
            None => Vec::new(),
        };
        state.send_modify(|s| {
            s.phase = Phase::Playing;
            s.match_id.clone_from(&start.match_id);
            s.game = Some(start.game);
            s.seat = start.seat.0;
            s.names = seats_names;
            s.names.resize(usize::from(start.seats), String::new());
            let own = &mut s.names[start.seat.index()];
            *own = format!("{} (you)", if own.is_empty() { "you" } else { own.as_str() });
            if let Some(observation) = &seat.joined().observation {
                s.observation.clone_from(&observation.json);
            }
        });
        loop {
            tokio::select! {
                update = seat.next() => match update {
                    Ok(update) => {
                        if !apply(state, update) {
                            continue;
                        }
                        if state.borrow().lobby.is_none() {
                            return;
                        }
                        // Back to the lobby for the ladder's next match, once a page watches.
                        state.send_modify(|s| {
                            if let Phase::Over(end) = std::mem::take(&mut s.phase) {
                                let id = std::mem::take(&mut s.match_id);
                                s.last = Some((end, usize::from(start.seats), id));
                            }
                            s.events.clear();
                            s.observation.clear();
                            s.refused = None;
                            s.game = None;
                        });
                        break;
                    }
                    Err(error) => {
                        let why = error.to_string();
                        state.send_modify(|s| s.phase = Phase::Lost { why, credential: false });
                        return;
                    }
                },
                Some((turn, reply)) = replies.recv() => {
                    tracing::debug!(match_id = %start.match_id, turn, %reply, "a person's reply");
                    state.send_modify(|s| s.refused = None);
                    // A failed send is seen by `next`, which takes the seat back.
                    let _ = seat.reply(turn, &reply, "").await;
                }
                () = unwatched(state) => {
                    state.send_modify(|s| s.phase = Phase::Away);
                    break;
                }
            }
        }
    }
}

/// Completes once no page has watched for [`CLOSED_TAB_AFTER`].
async fn unwatched(state: &watch::Sender<SeatState>) {
    loop {
        state.closed().await;
        tokio::time::sleep(CLOSED_TAB_AFTER).await;
        if state.receiver_count() == 0 {
            return;
        }
    }
}

/// The match's seats' names (`GetMatch`), empty where the server does not say.
async fn seat_names(client: &mut CardroomClient<Channel>, match_id: &str) -> Vec<String> {
    let request = pb::GetMatchRequest { match_id: match_id.to_owned() };
    match client.get_match(request).await {
        Ok(info) => info.into_inner().seats.into_iter().map(|s| s.bot_name).collect(),
        Err(_) => Vec::new(),
    }
}

/// Applies `update` to the seat's state; whether the match is over.
fn apply(state: &watch::Sender<SeatState>, update: TextUpdate) -> bool {
    let mut over = false;
    state.send_modify(|s| match update {
        TextUpdate::Turn(turn) => {
            s.observation = turn.json;
            s.turn =
                Some(OpenTurn { turn: turn.turn, move_ms: turn.move_ms, bank_ms: turn.bank_ms });
        }
        TextUpdate::Moved(TextMoved { events_json, json, .. }) => {
            if !json.is_empty() {
                s.observation = json;
            }
            s.turn = None;
            s.events.extend(events_json);
            let over = s.events.len().saturating_sub(RECENT_EVENTS);
            s.events.drain(..over);
        }
        TextUpdate::Refused(error) => {
            if error.code == ActErrorCode::Forfeited || error.code == ActErrorCode::TimedOut {
                s.turn = None;
            }
            s.refused = Some(error.message);
        }
        TextUpdate::Ended(end) => {
            s.turn = None;
            s.phase = Phase::Over(end);
            over = true;
        }
    });
    over
}
