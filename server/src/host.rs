//! The server's in-process host API, for what runs matches inside the server without an rpc
//! (a hosted ladder): which bots wait in the lobby, and a match created from lobby seats whose
//! end (standings, forfeits, each seat's failures with what the bot saw, the record) is handed
//! back by the match task itself, without the task ever waiting for its reader.
//!
//! It knows no ladder: the ladder runner lives above the server (`cardroom_arena::hosted`) and
//! the admin rpcs reach it through [`LadderControl`].

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

use cardroom_games::GameKind;
use cardroom_proto::pb;
use cardroom_proto::wire;
use cardroom_store::{NewFailure, ThinkSummary};
use tokio::sync::oneshot;
use tonic::Status;

use crate::lend::{self, Borrowed};
use crate::registry::{MatchRequest, Registry};
use crate::sandboxed::{Filed, SandboxedBot};

/// A handle on a running server's matches and lobby: clone it freely.
#[derive(Clone)]
pub struct Host {
    pub(crate) registry: Registry,
}

impl std::fmt::Debug for Host {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Host").finish_non_exhaustive()
    }
}

/// A match to host, every seat a bot waiting in the lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostedMatch {
    /// The game.
    pub game: GameKind,
    /// Its options, as JSON ("" for the defaults).
    pub options_json: String,
    /// The deal's seed.
    pub seed: u64,
    /// Per seat, seat 0 first: the bot that takes it, and where it waits.
    pub seats: Vec<HostedSeatFrom>,
    /// Move time per decision in milliseconds (0: the server's default).
    pub move_ms: u32,
    /// Time bank per match in milliseconds (0: the server's default).
    pub bank_ms: u32,
    /// Text replies refused in one turn before the seat forfeits (0: the server's default).
    pub max_bad_replies: u32,
}

/// The bot of one seat of a hosted match, and where it waits: in this node's lobby, or in the
/// lobby of another node of the store, which lends it (its stream stays there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostedSeatFrom {
    /// The lobby name of the bot.
    pub bot: String,
    /// The node it waits on, if not this one.
    pub lender: Option<Lender>,
}

impl HostedSeatFrom {
    /// A bot waiting in this node's lobby.
    pub fn here(bot: impl Into<String>) -> HostedSeatFrom {
        HostedSeatFrom { bot: bot.into(), lender: None }
    }
}

/// Another node of the store, as one that lends a bot: the address it advertises, and its
/// secret, from its heartbeat in the store.
#[derive(Clone, PartialEq, Eq)]
pub struct Lender {
    /// Its advertised address (`http://…` or `https://…`).
    pub address: String,
    /// Its secret.
    pub secret: String,
}

impl std::fmt::Debug for Lender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lender").field("address", &self.address).finish_non_exhaustive()
    }
}

/// One seat of a hosted match at its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostedSeat {
    /// The name its bot played under.
    pub bot_name: String,
    /// The version its bot reported when it joined ("" if none).
    pub version: String,
    /// Its place (1 is first; ties share a place).
    pub place: u8,
    /// Whether it forfeited.
    pub forfeited: bool,
    /// What went wrong for it, in order (at most [`MAX_FAILURES_KEPT`] per seat).
    pub failures: Vec<NewFailure>,
    /// Its bot's think times (`SeatInfo.think_us`), summed up.
    pub think: ThinkSummary,
    /// A hosted bot's stdout and stderr in the match (`crate::HostedControl::take_output`).
    pub output: Option<String>,
}

/// The most failures a hosted match keeps per seat: a bot that times out every decision of a
/// long match is described by its first few.
pub const MAX_FAILURES_KEPT: usize = 16;

/// How a hosted match ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostedEnd {
    /// The server's match id.
    pub match_id: String,
    /// True if the server shut down before the match was over: its result means nothing.
    pub aborted: bool,
    /// Why it ended, in words.
    pub reason: String,
    /// Per seat, seat 0 first.
    pub seats: Vec<HostedSeat>,
    /// The record (JSON, tagged by game), if the match made one.
    pub record_json: Option<String>,
}

/// Why a hosted match ended without a report.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The match could not be created: a bot named is not waiting in the lobby, the server is
    /// full, the options are wrong (the status says which).
    #[error("the match could not be created: {}", .0.message())]
    Refused(Status),
    /// The match task ended without its report (it panicked).
    #[error("match {0} ended without a report")]
    Lost(String),
}

/// A hosted match, started: its id, and its end to await.
pub struct Started {
    /// The server's match id.
    pub match_id: String,
    end: oneshot::Receiver<HostedEnd>,
}

impl Started {
    /// Waits for the match's end.
    pub fn end(self) -> impl Future<Output = Result<HostedEnd, HostError>> + Send {
        let Started { match_id, end } = self;
        async move { end.await.map_err(|_| HostError::Lost(match_id)) }
    }
}

/// A hosted bot on call ([`Host::go_on_call`]): listed in the lobby while its process is
/// stopped. Dropping it takes the bot off call, unless it has joined again meanwhile.
pub struct OnCall {
    registry: Registry,
    name: String,
    id: u64,
    wake: Arc<tokio::sync::Notify>,
}

impl OnCall {
    pub(crate) fn start(registry: &Registry, name: &str) -> Option<OnCall> {
        let status = Status::unavailable(format!(
            "{} was idle: its runner stops it, and starts it again when a match wants it",
            cardroom_store::Echo(name)
        ));
        let (id, wake) = registry.go_on_call(name, &status)?;
        Some(OnCall { registry: registry.clone(), name: name.to_owned(), id, wake })
    }

    /// Resolves once a match wants the bot (at once if one did since it went on call).
    pub async fn woken(&self) {
        self.wake.notified().await;
    }
}

impl std::fmt::Debug for OnCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnCall").field("name", &self.name).finish_non_exhaustive()
    }
}

impl Drop for OnCall {
    fn drop(&mut self) {
        self.registry.off_call(&self.name, self.id);
    }
}

impl Host {
    /// Files a hosted bot the runner started, whose processes are in the freezer cgroup named
    /// `cgroup`: its streams over the Unix socket are that bot's, without a key, until the
    /// filing is dropped (`crate::sandboxed`).
    pub fn file_sandboxed(&self, cgroup: &str, bot: SandboxedBot) -> Filed {
        self.registry.sandboxed().file(cgroup, bot)
    }

    /// Ends the streams of the registered bot `name` that wait in the lobby (or a queue) with
    /// UNAVAILABLE and `reason`, leaving its matches be; returns how many.
    pub fn end_waiting(&self, name: &str, reason: &str) -> usize {
        self.registry.end_waiting(name, &Status::unavailable(reason.to_owned()))
    }

    /// Whether the registered bot `name` holds a seat of a running match here.
    pub fn is_playing(&self, name: &str) -> bool {
        self.registry.is_playing(name)
    }

    /// Ends what the hosted bot `name` held here when its process ended, with `reason`: its
    /// waiting streams end with UNAVAILABLE, and its seats in running matches forfeit, the
    /// failure saying why, each match keeping `output` (what the bot wrote) as its output.
    pub fn end_bot(&self, name: &str, reason: &str, output: &str) -> usize {
        let waiting = self.end_waiting(name, reason);
        waiting + self.registry.end_seats(name, reason, Some(output))
    }

    /// Puts the hosted bot `name` on call, unless it holds a seat in a running match here: its
    /// runner stops it while idle, and starts it again when [`OnCall::woken`] says a match
    /// wants it. Its streams waiting in the lobby end (UNAVAILABLE); the lobby lists it as one
    /// stream waiting until it joins again or the [`OnCall`] is dropped.
    pub fn go_on_call(&self, name: &str) -> Option<OnCall> {
        OnCall::start(&self.registry, name)
    }

    /// Every name waiting in the lobby now, with how many of its streams wait (a bot that
    /// plays several matches at once waits on several); a hosted bot on call counts one.
    pub fn lobby(&self) -> HashMap<String, usize> {
        self.registry.lobby_waiting()
    }

    /// Whether the server has begun to shut down (its matches end as aborted, it takes no new
    /// one): what its gRPC health check says as not serving.
    pub fn is_stopping(&self) -> bool {
        self.registry.is_stopping()
    }

    /// A receiver that changes whenever a bot arrives in the lobby: what a host waits on for
    /// bots, instead of polling.
    pub fn lobby_arrivals(&self) -> tokio::sync::watch::Receiver<u64> {
        self.registry.lobby_arrivals()
    }

    /// This process's secret, which the other nodes of its store present to borrow a bot of
    /// its lobby: what its heartbeat writes in the store.
    pub fn node_secret(&self) -> &str {
        self.registry.node_secret()
    }

    /// Creates `request`'s match and starts it: each seat's bot must be waiting, in this
    /// node's lobby or in its lender's (borrowed first, all at once; if one cannot be, none
    /// is kept and nothing starts).
    pub async fn start(&self, request: HostedMatch) -> Result<Started, HostError> {
        let peers = self.registry.peers();
        let borrowing = request.seats.iter().enumerate().filter_map(|(seat, from)| {
            let lender = from.lender.as_ref()?;
            let lender = (lender.address.as_str(), lender.secret.as_str());
            Some(lend::borrow(&self.registry, peers, lender, &from.bot, seat))
        });
        let borrowed: Vec<Borrowed> = futures::future::join_all(borrowing)
            .await
            .into_iter()
            .collect::<Result<_, Status>>()
            .map_err(HostError::Refused)?;
        let (report, end) = oneshot::channel();
        let request = MatchRequest {
            game: wire::game_to_pb(request.game),
            options_json: request.options_json,
            seats: request.seats.len() as u32,
            seed: Some(request.seed),
            clock: Some(pb::Clock {
                move_ms: request.move_ms,
                bank_ms: request.bank_ms,
                max_bad_replies: request.max_bad_replies,
            }),
            lobby_bots: request
                .seats
                .into_iter()
                .map(|from| if from.lender.is_some() { String::new() } else { from.bot })
                .collect(),
            borrowed,
        };
        let (match_id, _) =
            self.registry.create_reported(request, Some(report)).map_err(HostError::Refused)?;
        Ok(Started { match_id, end })
    }
}

/// Scrimmages an author asks for: of `bot` (theirs) in `ladder`, against `opponents`, or the
/// ladder's top `top` when there are none.
#[derive(Clone, Debug)]
pub struct ScrimmageRequest {
    /// The ladder's name.
    pub ladder: String,
    /// The author who asks.
    pub author: cardroom_store::Author,
    /// The author's bot.
    pub bot: String,
    /// The opponents, by name.
    pub opponents: Vec<String>,
    /// Else the top this many.
    pub top: u32,
}

/// An operator's request about a hosted ladder, as the admin rpcs pass it on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LadderCommand {
    /// Create a ladder from its file (TOML) and run it.
    Create {
        /// The ladder file.
        config_toml: String,
    },
    /// Pause it: nothing new starts; running matches finish and are rated.
    Pause {
        /// The ladder.
        name: String,
        /// Why, for whoever reads the ladder.
        reason: String,
    },
    /// Resume a paused ladder.
    Resume {
        /// The ladder.
        name: String,
    },
    /// Close it for good.
    Close {
        /// The ladder.
        name: String,
        /// Why.
        reason: String,
    },
}

/// A ladder as an admin rpc answers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderSummary {
    /// Its name.
    pub name: String,
    /// `running`, `paused` or `closed`.
    pub status: String,
    /// Why it has that status, if said.
    pub reason: String,
    /// The game's catalogue name.
    pub game: String,
    /// Seats per match.
    pub table_seats: u32,
}

/// A bot whose pause in a hosted ladder was lifted ([`LadderControl::resume_bot`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResumedBot {
    /// The ladder's name.
    pub ladder: String,
    /// The bot's registered name.
    pub bot: String,
    /// Why it had been paused.
    pub paused_reason: String,
}

/// Why a ladder command failed, sorted by gRPC's conventions.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LadderControlError {
    /// The request is wrong (the ladder file names the field).
    #[error("{0}")]
    Invalid(String),
    /// No such ladder.
    #[error("{0}")]
    NotFound(String),
    /// A ladder of that name exists.
    #[error("{0}")]
    AlreadyExists(String),
    /// Not in the state the command needs (a closed ladder resumed, a bot resumed that is not
    /// paused).
    #[error("{0}")]
    FailedPrecondition(String),
    /// The store failed.
    #[error("{0}")]
    Unavailable(String),
    /// The caller may not do this (another author's bot).
    #[error("{0}")]
    PermissionDenied(String),
    /// Over a quota (the message says when the next fits).
    #[error("{0}")]
    Exhausted(String),
}

impl From<LadderControlError> for Status {
    fn from(error: LadderControlError) -> Status {
        match error {
            LadderControlError::Invalid(m) => Status::invalid_argument(m),
            LadderControlError::NotFound(m) => Status::not_found(m),
            LadderControlError::AlreadyExists(m) => Status::already_exists(m),
            LadderControlError::FailedPrecondition(m) => Status::failed_precondition(m),
            LadderControlError::Unavailable(m) => Status::unavailable(m),
            LadderControlError::PermissionDenied(m) => Status::permission_denied(m),
            LadderControlError::Exhausted(m) => Status::resource_exhausted(m),
        }
    }
}

/// What the admin ladder rpcs call: the hosted ladders' runner, above the server.
#[tonic::async_trait]
pub trait LadderControl: Send + Sync + 'static {
    /// Carries out `command`; returns the ladder as it now is.
    async fn command(&self, command: LadderCommand) -> Result<LadderSummary, LadderControlError>;

    /// Lifts the pause of the bot named `bot` in the ladder named `ladder`, so that the ladder
    /// schedules it again: [`LadderControlError::NotFound`] for an unknown ladder or a bot not
    /// in it, [`LadderControlError::FailedPrecondition`] for a bot that is not paused.
    async fn resume_bot(&self, ladder: &str, bot: &str) -> Result<ResumedBot, LadderControlError>;

    /// Stores the scrimmages an author asks for ([`ScrimmageRequest`]): their ids.
    async fn request_scrimmages(
        &self,
        request: ScrimmageRequest,
    ) -> Result<Vec<cardroom_store::ScrimmageId>, LadderControlError>;

    /// Makes the season of `config_toml` (its file), or gives a season before its deadline
    /// its new file (`CreateSeason`).
    async fn put_season(
        &self,
        config_toml: &str,
    ) -> Result<cardroom_store::Season, LadderControlError>;

    /// This node's lease owner name among the nodes of a shared store (what the store's
    /// `lease_owner` and heartbeat rows call it), if it has one: its own matches are not listed
    /// twice, nor passed on to itself.
    fn node_name(&self) -> Option<&str> {
        None
    }
}
