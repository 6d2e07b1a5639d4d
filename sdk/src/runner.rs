//! The networked runner: one `Play` stream to a cardroom server, every `Turn` answered by the
//! bot, reconnection with back-off when the connection drops.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use cardroom_games::{Game, Seat, Standing};
use cardroom_proto::frame::{self, Incoming, TurnFrame};
use cardroom_proto::pb;
use cardroom_proto::wire::{self, WireError, game_from_pb};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::client::Grpc;
use tonic::transport::Channel;
use tonic::{Code, Status, Streaming};
use tracing::{debug, info, warn};

use crate::bot::{ActError, ActErrorCode, Bot, Clock, GameKind, MatchEnd, MatchStart};
use crate::config::{BotKey, ConnectConfig, JoinBy};
use crate::game::PlayableGame;
use crate::tls;

/// Messages buffered towards the server; a bot sends at most a couple per turn.
const OUTBOUND_BUFFER: usize = 16;

/// How long one connection attempt may take before it counts as failed.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Why the networked runner stopped before the match's end.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The server address cannot be used.
    #[error("the server address {address:?} is not valid: {source}")]
    Address {
        /// The address given.
        address: String,
        /// Why it is not valid.
        source: tonic::transport::Error,
    },
    /// A CA file or TLS server name was given for a server that is not an `https://` URL.
    #[error(
        "TLS settings (a CA file, a server name) were given, but {address:?} is not an https:// URL"
    )]
    TlsWithoutHttps {
        /// The address given.
        address: String,
    },
    /// A CA file or TLS server name was given for a server reached through a Unix socket.
    #[error(
        "TLS settings (a CA file, a server name) were given, but {address:?} is a Unix socket, \
         which is always plaintext: drop them"
    )]
    TlsOverUnixSocket {
        /// The address given.
        address: String,
    },
    /// A `unix:` server address names no socket (`unix:PATH`, `unix:///ABSOLUTE/PATH`), or
    /// the system has no Unix sockets.
    #[error(
        "the server address {address:?} names no Unix socket: write unix:PATH or \
         unix:///ABSOLUTE/PATH (on a Unix system)"
    )]
    UnixSocketPath {
        /// The address given.
        address: String,
    },
    /// The CA file cannot be used.
    #[error("the CA file {}: {cause}", path.display())]
    CaFile {
        /// The file.
        path: std::path::PathBuf,
        /// Why it cannot be used.
        cause: String,
    },
    /// The TLS settings for the server cannot be used.
    #[error("TLS for {address:?}: {source}")]
    Tls {
        /// The address given.
        address: String,
        /// Why.
        source: tonic::transport::Error,
    },
    /// The server's TLS certificate was not trusted (an unknown issuer, another name, expired):
    /// no retry can fix that, so the runner stops at once.
    #[error(
        "the server's TLS certificate was refused: {cause} (give the CA that signed it with --ca-file or CARDROOM_CA_FILE, or the name it carries with --tls-server-name)"
    )]
    Untrusted {
        /// rustls's reason.
        cause: rustls::Error,
    },
    /// The server refused the join (a key that is wrong or revoked, a name not registered on a
    /// server that seats registered bots only, bad queue options): joining again would be
    /// refused the same way.
    #[error("the server refused: {}", Refusal(.0))]
    Rejected(Box<Status>),
    /// The bot lost its seat in a match and could not take it back: the match ended or the
    /// server restarted while the bot was away (its token is unknown), another connection took
    /// the seat over, or the server ended the stream for good. A bot that joins by the lobby or
    /// the queue joins again ([`play_concurrently`]).
    #[error("match {match_id} could not be resumed: {}", Refusal(.status))]
    SeatLost {
        /// The match.
        match_id: String,
        /// The server's last word on it.
        status: Box<Status>,
    },
    /// Connecting failed `attempts` times in a row.
    #[error("gave up after {attempts} failed connection attempts; the last: {last}")]
    GaveUp {
        /// Failed attempts in a row.
        attempts: u32,
        /// The last failure.
        last: Box<Status>,
    },
    /// The seat's match plays another game than the bot.
    #[error("this bot plays {expected}, but the seat's match plays {found}")]
    WrongGame {
        /// The bot's game.
        expected: GameKind,
        /// The match's game, as the server named it.
        found: String,
    },
    /// The seat token belongs to a match that was over before the bot joined.
    #[error("the seat's match was already over")]
    AlreadyOver,
    /// The server sent something this SDK cannot read.
    #[error("protocol: {0}")]
    Protocol(String),
}

impl RunError {
    /// Whether the server refused because something is not ready yet (`FAILED_PRECONDITION`:
    /// a record asked for while its match runs, a remote bot not in the lobby yet), so the
    /// same request may succeed later.
    pub fn not_ready(&self) -> bool {
        matches!(self, RunError::Rejected(status) if status.code() == Code::FailedPrecondition)
    }

    /// Whether waiting and joining again may succeed where this failed: a match lost
    /// ([`RunError::SeatLost`]), a server that could not be reached ([`RunError::GaveUp`]) or
    /// that was over before the bot joined. False for what no wait changes: a refused join
    /// (a wrong or revoked key, a name not registered), a TLS certificate not trusted, a bad
    /// address, a seat of another game.
    pub fn can_rejoin(&self) -> bool {
        matches!(self, RunError::SeatLost { .. } | RunError::GaveUp { .. } | RunError::AlreadyOver)
    }
}

/// A status as the runner reports it: its code, as gRPC names it, and the server's message.
struct Refusal<'a>(&'a Status);

impl std::fmt::Display for Refusal<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let code = format!("{:?}", self.0.code());
        // `Code`'s names are CamelCase; gRPC's documents write them as SCREAMING_SNAKE_CASE.
        let mut name = String::with_capacity(code.len() + 4);
        for (i, c) in code.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                name.push('_');
            }
            name.push(c.to_ascii_uppercase());
        }
        write!(f, "{name}: {}", self.0.message())
    }
}

/// A finished networked match, as one bot saw it.
#[derive(Clone, Debug)]
pub struct Played {
    /// The match as it started.
    pub start: MatchStart,
    /// How it ended.
    pub end: MatchEnd,
    /// Every refusal the server sent (illegal actions, timeouts, forfeits).
    pub errors: Vec<ActError>,
    /// Times the runner reconnected after losing its connection.
    pub reconnects: u32,
    /// Decisions the bot made (a turn seen again after a reconnection counts again).
    pub decisions: u64,
}

/// [`AnyBot`] and its methods with an arm per game, from the catalogue's list
/// ([`cardroom_games::for_each_game!`]).
macro_rules! any_bot {
    (() $($Kind:ident => $Engine:ty,)*) => {
        /// A bot for whichever game its seat turns out to play: what [`play_any`] asks for once
        /// the server has said which game the seat plays. A variant per game of the catalogue.
        pub enum AnyBot {
            $(
                #[doc = concat!("A bot of [`GameKind::", stringify!($Kind), "`].")]
                $Kind(Box<dyn Bot<$Engine>>),
            )*
        }

        impl AnyBot {
            /// The bot `builder` makes for `game`.
            pub fn build(game: GameKind, builder: impl BotBuilder) -> AnyBot {
                match game {
                    $(GameKind::$Kind => AnyBot::$Kind(builder.build()),)*
                }
            }

            /// The same bot, wrapped by `mapper`.
            pub fn map(self, mapper: impl BotMapper) -> AnyBot {
                match self {
                    $(AnyBot::$Kind(bot) => AnyBot::$Kind(mapper.map(bot)),)*
                }
            }

            /// The game the bot plays.
            pub fn game(&self) -> GameKind {
                match self {
                    $(AnyBot::$Kind(_) => GameKind::$Kind,)*
                }
            }

            /// Plays the match `joined` began with the bot ([`drive`]).
            async fn drive(
                self,
                config: &ConnectConfig,
                client: Grpc<Channel>,
                link: Link,
                joined: Box<pb::Joined>,
            ) -> Result<Played, RunError> {
                match self {
                    $(AnyBot::$Kind(mut bot) => {
                        drive(config, client, link, joined, &mut *bot).await
                    })*
                }
            }
        }
    };
}
cardroom_games::for_each_game!(any_bot!);

/// Makes a bot for a game chosen at run time ([`AnyBot::build`]): written once, generic over
/// the game.
pub trait BotBuilder {
    /// The bot for game `G`.
    fn build<G: PlayableGame>(self) -> Box<dyn Bot<G>>;
}

/// Wraps a bot of whichever game ([`AnyBot::map`]): written once, generic over the game.
pub trait BotMapper {
    /// The bot for game `G`, wrapped.
    fn map<G: PlayableGame>(self, bot: Box<dyn Bot<G>>) -> Box<dyn Bot<G>>;
}

/// Plays one match of `G` with `bot` and returns how it ended.
///
/// Joins as `config` says (seat token or queue), answers every `Turn` with its turn number,
/// logs every `ActError` and goes on (after an illegal or unreadable action it plays the first
/// legal action rather than let the clock run out), and after a dropped connection reconnects
/// with the seat token from `Joined`, waiting [`crate::Backoff::delay`] between attempts.
pub async fn play<G: PlayableGame>(
    config: &ConnectConfig,
    bot: &mut dyn Bot<G>,
) -> Result<Played, RunError> {
    let (client, link, joined) = join(config).await?;
    drive(config, client, link, joined, bot).await
}

/// Like [`play`], for a bot that plays either game: `make` is called with the seat's game
/// (known once the server has seated the bot) and returns the bot to play it.
pub async fn play_any(
    config: &ConnectConfig,
    make: impl FnOnce(GameKind) -> AnyBot,
) -> Result<Played, RunError> {
    let (client, link, joined) = join(config).await?;
    let game = game_from_pb(joined.game)
        .ok_or_else(|| RunError::Protocol(format!("unknown game {}", joined.game)))?;
    make(game).drive(config, client, link, joined).await
}

/// Keeps `concurrency` matches going at once, each played by `one(n)` (`n` numbers the
/// attempts from 0), and starts the next as soon as one ends, until `matches` have been played
/// (0: until stopped). With a lobby or queue `config` this is how a bot plays a hosted ladder:
/// it waits on `concurrency` streams under its name and joins again after each match.
///
/// What it does on each failure, for a lobby or queue `config`: a match that cannot be resumed
/// ([`RunError::SeatLost`]: the server restarted, the seat was taken over), a server that
/// could not be reached ([`RunError::GaveUp`]) or a match over before the bot joined is logged,
/// not counted, and followed by a wait of `config.backoff` (doubling with each failure in a
/// row, up to its `max`) and a new join; waiting cannot help any other failure
/// ([`RunError::can_rejoin`]), which stops every stream and is returned. A seat token's match
/// cannot be joined again: with one, the first failure is returned.
pub async fn play_concurrently<F, Fut>(
    config: &ConnectConfig,
    concurrency: u32,
    matches: u64,
    one: F,
) -> Result<u64, RunError>
where
    F: Fn(u64) -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = Result<Played, RunError>> + Send + 'static,
{
    let counts = Arc::new(Counts::default());
    let rejoins = !matches!(config.join, JoinBy::Token(_));
    let backoff = config.backoff;
    if concurrency <= 1 {
        // One stream: played in the caller's task, so that stopping the caller stops it.
        play_in_turn(&counts, rejoins, backoff, matches, one).await?;
        return Ok(counts.played.load(Ordering::Relaxed));
    }
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..concurrency {
        let (counts, one) = (Arc::clone(&counts), one.clone());
        workers.spawn(async move { play_in_turn(&counts, rejoins, backoff, matches, one).await });
    }
    while let Some(done) = workers.join_next().await {
        let failed = match done {
            Ok(Ok(())) => continue,
            Ok(Err(error)) => error,
            Err(panicked) => RunError::Protocol(format!("a match's task failed: {panicked}")),
        };
        workers.abort_all();
        return Err(failed);
    }
    Ok(counts.played.load(Ordering::Relaxed))
}

/// What the streams of [`play_concurrently`] share.
#[derive(Default)]
struct Counts {
    /// Attempts so far: each numbers its match (`one(n)`).
    attempts: AtomicU64,
    /// Matches begun and not lost.
    started: AtomicU64,
    /// Matches played to their end.
    played: AtomicU64,
}

/// One stream of [`play_concurrently`]: matches one after another until `matches` are played
/// (0: for ever), joining again after a failure waiting can help when `rejoins`.
async fn play_in_turn<F, Fut>(
    counts: &Counts,
    rejoins: bool,
    backoff: crate::Backoff,
    matches: u64,
    one: F,
) -> Result<(), RunError>
where
    F: Fn(u64) -> Fut,
    Fut: std::future::Future<Output = Result<Played, RunError>>,
{
    let mut failures = 0u32;
    loop {
        if matches != 0 && counts.started.fetch_add(1, Ordering::Relaxed) >= matches {
            return Ok(());
        }
        match one(counts.attempts.fetch_add(1, Ordering::Relaxed)).await {
            Ok(_) => {
                counts.played.fetch_add(1, Ordering::Relaxed);
                failures = 0;
            }
            Err(error) if rejoins && error.can_rejoin() => {
                if matches != 0 {
                    // Not played: another takes its place.
                    counts.started.fetch_sub(1, Ordering::Relaxed);
                }
                failures = failures.saturating_add(1);
                let wait = backoff.delay(failures);
                warn!(cause = %error, wait_ms = wait.as_millis() as u64, "joining again");
                tokio::time::sleep(wait).await;
            }
            Err(error) => return Err(error),
        }
    }
}

/// One open `Play` stream.
pub(crate) struct Link {
    /// Towards the server.
    tx: mpsc::Sender<pb::BotMessage>,
    /// From the server: each `Turn`'s observation still as bytes, for the game to read.
    pub(crate) rx: Streaming<Incoming>,
}

/// What the first message of a `Play` stream said.
pub(crate) enum Opened {
    /// The seat is ours.
    Joined(Box<pb::Joined>),
    /// The match is over (a token of a finished match).
    Ended(pb::MatchEnd),
}

/// Connects and takes the seat `config` names; returns the client, the stream and `Joined`.
async fn join(config: &ConnectConfig) -> Result<(Grpc<Channel>, Link, Box<pb::Joined>), RunError> {
    // The Rust SDK reads the engine's observation; the text form is for people and language
    // models (`crate::TextSeat`).
    join_as(config, OMIT, false).await
}

/// [`join`] leaving out `omit` and asking for the text form if `text`.
pub(crate) async fn join_as(
    config: &ConnectConfig,
    omit: pb::Omit,
    text: bool,
) -> Result<(Grpc<Channel>, Link, Box<pb::Joined>), RunError> {
    let mut client = client(config)?;
    let join = match &config.join {
        JoinBy::Token(token) => pb::join::Seat::SeatToken(token.clone()),
        JoinBy::Queue { game, options_json, seats } => pb::join::Seat::Queue(pb::QueueRequest {
            game: wire::game_to_pb(*game) as i32,
            options_json: options_json.clone(),
            seats: *seats,
        }),
        JoinBy::Lobby(name) => pb::join::Seat::Lobby(name.clone()),
    };
    let join = pb::Join {
        seat: Some(join),
        bot_name: config.name.clone(),
        omit: Some(omit),
        bot_version: config.version.clone(),
        text,
    };
    match open_with_backoff(&mut client, &join, config).await? {
        (link, Opened::Joined(joined)) => {
            info!(match_id = %joined.match_id, seat = joined.seat, "joined");
            Ok((client, link, joined))
        }
        (_, Opened::Ended(_)) => Err(RunError::AlreadyOver),
    }
}

/// A client over a lazily connected channel: connection failures surface in calls, where the
/// back-off handles them.
fn client(config: &ConnectConfig) -> Result<Grpc<Channel>, RunError> {
    let mut server = tls::endpoint(&config.server, &config.tls)?;
    server.endpoint = server.endpoint.connect_timeout(CONNECT_TIMEOUT);
    if let Some(keep_alive) = config.keep_alive {
        server.endpoint = server
            .endpoint
            .http2_keep_alive_interval(keep_alive)
            .keep_alive_timeout(keep_alive)
            .keep_alive_while_idle(true);
    }
    Ok(Grpc::new(server.connect_lazy()))
}

/// Whether a failed call is worth retrying: the connection failed, not the request.
pub(crate) fn retryable(status: &Status) -> bool {
    !matches!(
        status.code(),
        Code::InvalidArgument
            | Code::PermissionDenied
            | Code::Unauthenticated
            | Code::Aborted
            | Code::FailedPrecondition
            | Code::NotFound
            | Code::Unimplemented
            | Code::AlreadyExists
    )
}

/// The `Join` that takes `joined`'s seat back after a lost connection, by its token.
pub(crate) fn rejoin(
    joined: &pb::Joined,
    config: &ConnectConfig,
    omit: pb::Omit,
    text: bool,
) -> pb::Join {
    pb::Join {
        seat: Some(pb::join::Seat::SeatToken(joined.seat_token.clone())),
        bot_name: config.name.clone(),
        omit: Some(omit),
        bot_version: config.version.clone(),
        text,
    }
}

/// Opens a `Play` stream with `join` until it works, waiting the back-off between failures.
pub(crate) async fn open_with_backoff(
    client: &mut Grpc<Channel>,
    join: &pb::Join,
    config: &ConnectConfig,
) -> Result<(Link, Opened), RunError> {
    let mut failures = 0u32;
    loop {
        match open(client, join.clone(), config.key.as_ref()).await {
            Ok(opened) => return Ok(opened),
            Err(status) if retryable(&status) => {
                if let Some(cause) = tls::refused_certificate(&status) {
                    return Err(RunError::Untrusted { cause });
                }
                failures += 1;
                if failures >= config.backoff.attempts {
                    return Err(RunError::GaveUp { attempts: failures, last: Box::new(status) });
                }
                let wait = config.backoff.delay(failures);
                warn!(cause = %status, failures, wait_ms = wait.as_millis() as u64, "connection failed; retrying");
                tokio::time::sleep(wait).await;
            }
            Err(status) => return Err(RunError::Rejected(Box::new(status))),
        }
    }
}

/// Opens one `Play` stream (with the bot's `key`, if any), sends `join` and reads the first
/// answer.
async fn open(
    client: &mut Grpc<Channel>,
    join: pb::Join,
    key: Option<&BotKey>,
) -> Result<(Link, Opened), Status> {
    let (tx, rx) = mpsc::channel(OUTBOUND_BUFFER);
    let first = pb::BotMessage { message: Some(pb::bot_message::Message::Join(join)) };
    tx.send(first).await.map_err(|_| Status::internal("the request stream closed"))?;
    let mut request = tonic::Request::new(ReceiverStream::new(rx));
    if let Some(key) = key {
        request.metadata_mut().insert("authorization", key.header().clone());
    }
    let mut stream = frame::play(client, request).await?;
    loop {
        let message = match stream.message().await? {
            Some(Incoming::Message(message)) => message.message,
            Some(Incoming::Turn(turn)) => {
                debug!(turn = turn.turn, "turn before Joined ignored");
                continue;
            }
            None => None,
        };
        let opened = match message {
            Some(pb::server_message::Message::Joined(joined)) => Opened::Joined(Box::new(joined)),
            Some(pb::server_message::Message::End(end)) => Opened::Ended(end),
            Some(other) => {
                debug!(?other, "message before Joined ignored");
                continue;
            }
            None => return Err(Status::unavailable("the stream ended before Joined")),
        };
        return Ok((Link { tx, rx: stream }, opened));
    }
}

/// The turn being answered, for the fallback after a refusal.
struct Pending {
    /// Its number.
    turn: u64,
    /// Index of its first legal action.
    first: u32,
    /// Whether the fallback was sent already.
    fell_back: bool,
}

/// Plays the match on `link` to its end, reconnecting when needed.
async fn drive<G: PlayableGame>(
    config: &ConnectConfig,
    mut client: Grpc<Channel>,
    mut link: Link,
    joined: Box<pb::Joined>,
    bot: &mut dyn Bot<G>,
) -> Result<Played, RunError> {
    let found = game_from_pb(joined.game);
    if found != Some(<G as Game>::KIND) {
        let found = found.map_or_else(|| joined.game.to_string(), |game| game.to_string());
        return Err(RunError::WrongGame { expected: <G as Game>::KIND, found });
    }
    let start = match_start(&joined, <G as Game>::KIND)?;
    // Observations do not repeat the options: they are read once, here.
    let options = G::options_from_json(&joined.options_json)
        .map_err(|err| RunError::Protocol(format!("Joined.options_json: {err}")))?;
    let rejoin = rejoin(&joined, config, OMIT, false);
    bot.match_start(&start);
    let mut errors = Vec::new();
    let mut reconnects = 0;
    let mut decisions = 0;
    let mut pending: Option<Pending> = None;
    let mut pace = Pace::default();
    // The match's observation, each `Turn` read over the last (its lists' allocations kept).
    let mut kept: Option<G::Observation> = None;
    loop {
        let lost = match link.rx.message().await {
            Ok(Some(Incoming::Turn(turn))) => {
                decisions += 1;
                let (act, now) = answer::<G>(bot, &turn, &options, &mut pace, &mut kept);
                pending = Some(now);
                match send(&link, act).await {
                    Ok(()) => continue,
                    Err(status) => status,
                }
            }
            Ok(Some(Incoming::Message(message))) => {
                let Some(message) = message.message else { continue };
                match message {
                    pb::server_message::Message::Error(error) => {
                        let error = ActError {
                            turn: error.turn,
                            code: ActErrorCode::from_pb(error.code),
                            rule: error.rule,
                            message: error.message,
                        };
                        warn!(turn = error.turn, code = %error.code, rule = %error.rule, message = %error.message, "action refused");
                        bot.rejected(&error);
                        let fallback = fallback(&mut pending, &error);
                        errors.push(error);
                        match fallback {
                            Some(act) => match send(&link, act).await {
                                Ok(()) => continue,
                                Err(status) => status,
                            },
                            None => continue,
                        }
                    }
                    pb::server_message::Message::End(end) => {
                        let end = match_end(&end, start.seat)?;
                        match end.place() {
                            Some(place) => info!(match_id = %start.match_id, place, "match over"),
                            None => {
                                info!(match_id = %start.match_id, "match over, this seat unplaced")
                            }
                        }
                        bot.match_end(&end);
                        return Ok(Played { start, end, errors, reconnects, decisions });
                    }
                    // `Incoming::read` gives every `Turn` as `Incoming::Turn`, above.
                    pb::server_message::Message::Turn(_)
                    | pb::server_message::Message::Joined(_)
                    | pb::server_message::Message::Events(_) => continue,
                }
            }
            Ok(None) => Status::unavailable("the stream ended before the match did"),
            Err(status) => status,
        };
        let lost_seat = |status: Status| RunError::SeatLost {
            match_id: start.match_id.clone(),
            status: Box::new(status),
        };
        if !retryable(&lost) {
            // Ended for good by the server (the seat taken over, the key revoked).
            return Err(lost_seat(lost));
        }
        warn!(cause = %lost, match_id = %start.match_id, "connection lost; reconnecting");
        reconnects += 1;
        pending = None;
        let reopened = match open_with_backoff(&mut client, &rejoin, config).await {
            // The server is back but does not know the seat (it restarted, or the match ended
            // and was forgotten), or will not give it back.
            Err(RunError::Rejected(status)) => return Err(lost_seat(*status)),
            reopened => reopened?,
        };
        match reopened {
            (new_link, Opened::Joined(_)) => {
                info!(match_id = %start.match_id, reconnects, "reconnected");
                link = new_link;
            }
            (_, Opened::Ended(end)) => {
                let end = match_end(&end, start.seat)?;
                bot.match_end(&end);
                return Ok(Played { start, end, errors, reconnects, decisions });
            }
        }
    }
}

/// Sends one message; a closed request stream means the connection is gone.
pub(crate) async fn send(link: &Link, message: pb::BotMessage) -> Result<(), Status> {
    link.tx.send(message).await.map_err(|_| Status::unavailable("the request stream closed"))
}

/// An `Act` for `turn`.
fn act(turn: u64, choice: pb::act::Choice) -> pb::BotMessage {
    commented_act(turn, choice, String::new())
}

/// An `Act` for `turn`, with the bot's comment.
pub(crate) fn commented_act(turn: u64, choice: pb::act::Choice, comment: String) -> pb::BotMessage {
    let act = pb::Act { turn, choice: Some(choice), comment };
    pb::BotMessage { message: Some(pb::bot_message::Message::Act(act)) }
}

/// After an illegal or unreadable action for the pending turn, the first legal action, once.
fn fallback(pending: &mut Option<Pending>, error: &ActError) -> Option<pb::BotMessage> {
    if !matches!(error.code, ActErrorCode::IllegalAction | ActErrorCode::Malformed) {
        return None;
    }
    let pending = pending.as_mut().filter(|p| p.turn == error.turn && !p.fell_back)?;
    pending.fell_back = true;
    let first = pending.first;
    info!(turn = error.turn, "playing the first legal action instead");
    Some(act(error.turn, pb::act::Choice::Index(first)))
}

/// What the runner never reads, so the server need not send it (its `Join.omit`): a bot reads
/// the engine's observation, which the runner builds from the typed view
/// (`WireGame::observation_from_pb`, no JSON, its cards as codes, the known cards too) with the
/// legal actions the engine lists from it (`WireGame::fill_legal_actions`), and the `Bot` trait
/// has no events. Public for clients that read a `Turn` as the runner does.
pub const OMIT: pb::Omit = pb::Omit {
    typed: false,
    json: true,
    events: true,
    legal_actions: true,
    cards: true,
    known_cards: true,
};

/// Asks the bot about `turn` and builds the answer; `options` are the match's, from `Joined`;
/// the observation is read over `kept`, the last `Turn`'s.
fn answer<G: PlayableGame>(
    bot: &mut dyn Bot<G>,
    turn: &TurnFrame,
    options: &G::Options,
    pace: &mut Pace,
    kept: &mut Option<G::Observation>,
) -> (pb::BotMessage, Pending) {
    let first = turn.legal_actions.first().map_or(0, |legal| legal.index);
    let read = match turn.observation.as_ref() {
        Some(bytes) => read_observation::<G>(bytes, &turn.legal_actions, options, kept),
        None => Err(WireError::Incomplete("the turn has no observation")),
    };
    let observation = match read {
        Ok(observation) => {
            // A server that honours `Omit.legal_actions` sends none: the engine lists them, in
            // the order `Act.index` counts in. An older server sends them, and they are read.
            if turn.legal_actions.is_empty() {
                G::fill_legal_actions(observation);
            }
            observation
        }
        Err(err) => {
            warn!(turn = turn.turn, cause = %err, "unreadable observation; playing the first legal action");
            let pending = Pending { turn: turn.turn, first, fell_back: true };
            return (act(turn.turn, pb::act::Choice::Index(first)), pending);
        }
    };
    let action = pace.think(|| bot.choose(observation));
    debug!(turn = turn.turn, %action, "chosen");
    let choice = choice_for::<G>(observation, &turn.legal_actions, &action);
    if matches!(choice, pb::act::Choice::Action(_)) {
        debug!(turn = turn.turn, %action, "not among the legal actions: sent by value");
    }
    let comment = bot.comment().unwrap_or_default();
    (
        commented_act(turn.turn, choice, comment),
        Pending { turn: turn.turn, first, fell_back: false },
    )
}

/// A `Turn`'s observation, written over `kept` (the match's last, whose lists' allocations it
/// keeps), or read into a new one for the match's first.
fn read_observation<'k, G: PlayableGame>(
    bytes: &[u8],
    legal_actions: &[pb::LegalAction],
    options: &G::Options,
    kept: &'k mut Option<G::Observation>,
) -> Result<&'k mut G::Observation, WireError> {
    match kept {
        Some(observation) => {
            G::decode_observation_into(bytes, legal_actions, options, observation)?;
            Ok(observation)
        }
        None => Ok(kept.insert(G::decode_observation(bytes, legal_actions, options)?)),
    }
}

/// How the bot's `choose` runs. A bot that thinks for long must not hold an async worker (the
/// connections and other bots in the process run there), so on a multi-threaded runtime its
/// `choose` runs through `block_in_place`; but handing the worker over costs more than a quick
/// bot's whole decision. So the runner watches: after a decision under [`Pace::QUICK`] the
/// next ones run in place, until one takes longer than [`Pace::SLOW`] (at most one slow
/// decision in a row holds a worker).
#[derive(Debug, Default)]
struct Pace {
    /// The last decision was quick: run the next in place.
    quick: bool,
}

impl Pace {
    /// A decision this short runs the next one in place.
    const QUICK: Duration = Duration::from_micros(200);
    /// A decision in place longer than this sends the next ones through `block_in_place`.
    const SLOW: Duration = Duration::from_millis(1);

    fn think<A>(&mut self, choose: impl FnOnce() -> A) -> A {
        use tokio::runtime::{Handle, RuntimeFlavor};
        let multi_thread = Handle::try_current()
            .is_ok_and(|handle| handle.runtime_flavor() == RuntimeFlavor::MultiThread);
        let started = std::time::Instant::now();
        let action = if multi_thread && !self.quick {
            tokio::task::block_in_place(choose)
        } else {
            choose()
        };
        let took = started.elapsed();
        self.quick = if self.quick { took <= Self::SLOW } else { took <= Self::QUICK };
        action
    }
}

/// The turn's index of `action` (the turn lists the engine's sorted legal actions, as the
/// observation does); an action not among them goes by value.
fn choice_for<G: PlayableGame>(
    observation: &G::Observation,
    legal: &[pb::LegalAction],
    action: &G::Action,
) -> pb::act::Choice {
    let ours = G::legal_actions_of(observation);
    if (legal.is_empty() || ours.len() == legal.len())
        && let Some(position) = ours.iter().position(|candidate| candidate == action)
    {
        let index = legal.get(position).map_or(position as u32, |legal| legal.index);
        return pb::act::Choice::Index(index);
    }
    let wire = G::action_to_pb(action);
    match legal.iter().find(|candidate| candidate.action.as_ref() == Some(&wire)) {
        Some(candidate) => pb::act::Choice::Index(candidate.index),
        None => pb::act::Choice::Action(wire),
    }
}

/// A seat number from the wire.
fn seat(value: u32) -> Result<Seat, RunError> {
    u8::try_from(value).map(Seat).map_err(|_| RunError::Protocol(format!("seat {value}")))
}

/// What the bot learns from `Joined`.
pub(crate) fn match_start(joined: &pb::Joined, game: GameKind) -> Result<MatchStart, RunError> {
    Ok(MatchStart {
        match_id: joined.match_id.clone(),
        game,
        seat: seat(joined.seat)?,
        seats: u8::try_from(joined.seats)
            .map_err(|_| RunError::Protocol(format!("{} seats", joined.seats)))?,
        options_json: joined.options_json.clone(),
        clock: joined.clock.map(|clock| Clock { move_ms: clock.move_ms, bank_ms: clock.bank_ms }),
    })
}

/// The end from the wire.
pub(crate) fn match_end(end: &pb::MatchEnd, me: Seat) -> Result<MatchEnd, RunError> {
    let mut standings = Vec::with_capacity(end.standings.len());
    let mut forfeited = Vec::new();
    for standing in &end.standings {
        let who = seat(standing.seat)?;
        let place = u8::try_from(standing.place)
            .map_err(|_| RunError::Protocol(format!("place {}", standing.place)))?;
        standings.push(Standing { place, seat: who });
        if standing.forfeited {
            forfeited.push(who);
        }
    }
    Ok(MatchEnd {
        seat: me,
        standings,
        forfeited,
        aborted: end.aborted,
        reason: end.reason.clone(),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {

    /// The pace's bookkeeping (outside a runtime every decision runs in place; the sleeps are
    /// the slow bots' thinking, so only their lower bounds matter).
    #[test]
    fn a_quick_bot_runs_in_place_and_a_slow_one_is_moved_off_the_worker() {
        let mut pace = Pace::default();
        assert!(!pace.quick, "the first decision is not trusted to be quick");
        assert_eq!(pace.think(|| 7), 7);
        assert!(pace.quick, "a quick decision: the next one runs in place");
        pace.think(|| std::thread::sleep(Pace::SLOW * 3));
        assert!(!pace.quick, "a slow one: the next goes through block_in_place again");
        pace.think(|| std::thread::sleep(Pace::QUICK * 3));
        assert!(!pace.quick, "moderately slow: stays off the worker");
    }

    use super::*;
    use cardroom_games::gin;
    use cardroom_proto::wire::WireGame as _;

    #[test]
    fn actions_map_to_the_turns_index_or_go_by_value() {
        let state = gin::State::new(gin::Options::default(), 11).unwrap();
        let seat = state.to_act().unwrap();
        let observation = state.observation(seat);
        let legal: Vec<pb::LegalAction> = observation
            .legal_actions
            .iter()
            .enumerate()
            .map(|(i, action)| pb::LegalAction {
                index: i as u32,
                action: Some(gin::State::action_to_pb(action)),
            })
            .collect();
        let last = *observation.legal_actions.last().unwrap();
        let expected = pb::act::Choice::Index(legal.len() as u32 - 1);
        assert_eq!(choice_for::<gin::State>(&observation, &legal, &last), expected);
        // Not legal now: by value.
        let other = gin::Action::BigGin;
        assert_eq!(
            choice_for::<gin::State>(&observation, &legal, &other),
            pb::act::Choice::Action(gin::State::action_to_pb(&other))
        );
    }

    /// A bot that plays the last legal action and keeps what it saw.
    struct Recorder(Vec<gin::Observation>);

    impl Bot<gin::State> for Recorder {
        fn choose(&mut self, observation: &gin::Observation) -> gin::Action {
            self.0.push(observation.clone());
            *observation.legal_actions.last().unwrap()
        }
    }

    /// A match's `Turn`s, compact as the SDK asks for them, read over one kept observation:
    /// the bot sees each seat's observation as the engine makes it, and an unreadable `Turn`
    /// (the first legal action played for it) leaves the next one read whole.
    #[test]
    fn turns_are_read_over_the_kept_observation() {
        let mut state = gin::State::new(gin::Options::default(), 5).unwrap();
        let options = *state.options();
        let (mut bot, mut pace, mut kept) = (Recorder(Vec::new()), Pace::default(), None);
        let mut unreadable = 0;
        for step in 0..400 {
            let Some(seat) = state.to_act() else { break };
            let mut bytes = Vec::new();
            gin::State::encode_observation(&state.observation(seat), &OMIT, &mut bytes);
            if step % 9 == 4 {
                bytes = vec![0xFF; 3];
            }
            let turn = TurnFrame {
                turn: step,
                observation: Some(bytes.into()),
                legal_actions: Vec::new(),
                move_ms: 1_000,
                bank_ms: 1_000,
                text: String::new(),
            };
            let (message, pending) = answer(&mut bot, &turn, &options, &mut pace, &mut kept);
            let Some(pb::bot_message::Message::Act(act)) = message.message else {
                panic!("not an Act: {message:?}")
            };
            let action = if pending.fell_back {
                unreadable += 1;
                assert_eq!(act.choice, Some(pb::act::Choice::Index(0)));
                state.legal_actions()[0]
            } else {
                assert_eq!(bot.0.last(), Some(&state.observation(seat)), "step {step}");
                *state.legal_actions().last().unwrap()
            };
            state.apply(seat, action).unwrap();
        }
        assert!(unreadable > 10 && bot.0.len() > 100, "{unreadable} {}", bot.0.len());
    }

    #[test]
    fn only_connection_failures_are_retried() {
        assert!(retryable(&Status::unavailable("down")));
        assert!(retryable(&Status::unknown("h2 error")));
        assert!(!retryable(&Status::unauthenticated("no seat has this token")));
        assert!(!retryable(&Status::permission_denied("this server's queue is closed")));
        assert!(!retryable(&Status::aborted("replaced by a new stream")));
    }

    #[test]
    fn the_fallback_is_sent_once_for_the_pending_turn() {
        let error =
            |turn, code| ActError { turn, code, rule: String::new(), message: String::new() };
        let mut pending = Some(Pending { turn: 4, first: 0, fell_back: false });
        assert!(fallback(&mut pending, &error(4, ActErrorCode::StaleTurn)).is_none());
        assert!(fallback(&mut pending, &error(3, ActErrorCode::IllegalAction)).is_none());
        assert!(fallback(&mut pending, &error(4, ActErrorCode::IllegalAction)).is_some());
        assert!(fallback(&mut pending, &error(4, ActErrorCode::IllegalAction)).is_none());
    }
}
