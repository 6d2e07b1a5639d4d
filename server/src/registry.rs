//! The server's shared state: matches, seat tokens, queues and finished records, behind a
//! cheap-to-clone handle.
//!
//! A std `Mutex` guards it: every critical section is a few map operations and never awaits,
//! so an async mutex would only add cost. Game state is not here: each match task owns its own.

use std::collections::{HashMap, VecDeque};
use std::io::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use cardroom_games::{AnyRecord, Seat};
use cardroom_proto::pb;
use cardroom_proto::wire::{self, WireGame, WireVisitor};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use tokio::sync::{Semaphore, mpsc, oneshot, watch};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tonic::Status;
use tracing::{info, warn};

use crate::clock::ClockRules;
use crate::config::Config;
use crate::elsewhere::Peers;
use crate::host::HostedEnd;
use crate::lend::{Borrowed, Lent};
use crate::listing::{self, MatchIndex, PageQuery};
use crate::match_task::{Command, Connect, MatchSetup, MatchTask, Watched};
use crate::stats::Stats;
use crate::token::{random_hex, random_seed};

/// Commands queued towards one match task before senders wait.
const COMMAND_BUFFER: usize = 1024;

/// A running match, as the registry knows it.
#[derive(Clone)]
pub(crate) struct MatchHandle {
    pub(crate) commands: mpsc::Sender<Command>,
}

/// A match that has ended: its status, and its record unless the record is on disk.
pub(crate) struct Finished {
    pub(crate) info: pb::MatchInfo,
    /// The record; `None` once written to the record directory (read back from there).
    pub(crate) record: Option<AnyRecord>,
    /// Its seat tokens, forgotten with it.
    pub(crate) tokens: Vec<String>,
}

/// Where a seat token leads.
#[derive(Clone)]
pub(crate) struct SeatRef {
    pub(crate) match_id: String,
    pub(crate) seat: Seat,
    /// The registered bot that holds the seat, once one took it (through the lobby, the queue
    /// or its token): the seat is taken again only on that bot's key, whatever name a rejoin
    /// claims.
    pub(crate) holder: Option<String>,
}

/// A bot seated through a queue.
pub(crate) struct Seated {
    pub(crate) seat: SeatRef,
    pub(crate) handle: MatchHandle,
}

/// Where a waiting bot goes.
pub(crate) enum Placement {
    /// A seat of a match here.
    Seated(Seated),
    /// Lent to another node of the store, for a match it hosts (`crate::lend`): the waiter
    /// hands its stream over.
    Lent(oneshot::Sender<Lent>),
}

struct Waiting {
    id: u64,
    /// The registered bot waiting, if it is one: it holds the seat it is given.
    account: Option<String>,
    reply: oneshot::Sender<Result<Placement, Status>>,
}

/// A match request: game, options and seats, as in `CreateMatch`.
pub(crate) struct MatchRequest {
    pub(crate) game: pb::Game,
    pub(crate) options_json: String,
    pub(crate) seats: u32,
    pub(crate) seed: Option<u64>,
    pub(crate) clock: Option<pb::Clock>,
    /// Per seat (or empty): the lobby name of the bot that takes it, or "".
    pub(crate) lobby_bots: Vec<String>,
    /// Bots other nodes lent for seats whose `lobby_bots` name is "" (`crate::lend`).
    pub(crate) borrowed: Vec<Borrowed>,
}

#[derive(Default)]
struct State {
    running: HashMap<String, MatchHandle>,
    finished: HashMap<String, Finished>,
    /// Every match in `ListMatches` order; it also says which finished match is the oldest,
    /// forgotten beyond `keep_finished`.
    index: MatchIndex,
    tokens: HashMap<String, SeatRef>,
    /// Waiting bots by (game, canonical options, seats).
    queues: HashMap<(i32, String, u32), Vec<Waiting>>,
    /// Bots waiting for an organizer to seat them, by lobby name, oldest first.
    lobby: HashMap<String, Vec<Waiting>>,
    /// Hosted bots stopped while idle, by name: listed in the lobby, and woken when a match
    /// wants them (`crate::host::OnCall`).
    on_call: HashMap<String, OnCallEntry>,
}

/// A hosted bot on call: its runner's filing (a number of the registry's), its wake-up, and
/// whether a match woke it (it is listed until it joins).
struct OnCallEntry {
    id: u64,
    wake: Arc<tokio::sync::Notify>,
    woken: bool,
}

impl OnCallEntry {
    fn wake(&mut self) {
        self.woken = true;
        self.wake.notify_one();
    }
}

struct Shared {
    config: Config,
    state: Mutex<State>,
    connections: Arc<Semaphore>,
    /// Play streams that have not sent their Join yet, oldest first, each with the sender that
    /// displaces it: a limit apart from `connections`. (A std mutex for the same reason as
    /// `state`; apart from it, so that a flood of new streams never waits on the matches.)
    pending_joins: Mutex<VecDeque<(u64, oneshot::Sender<()>)>>,
    next_id: AtomicU64,
    /// Cancelled when the server shuts down: every match ends as aborted.
    cancel: CancellationToken,
    /// Every match task, so that shutdown can wait for them to write their records.
    tasks: TaskTracker,
    stats: Stats,
    /// Counts the lobby's arrivals: what a host waiting for bots watches (`crate::host`).
    lobby_arrivals: watch::Sender<u64>,
    /// This process's secret, which another node of its store presents to borrow a bot
    /// (`crate::lend`).
    node_secret: String,
    /// Channels to the other nodes of a shared store.
    peers: Arc<Peers>,
    /// The hosted bots running now, which join by the Unix socket without a key.
    sandboxed: crate::sandboxed::Sandboxed,
}

/// The handle: clone it freely.
#[derive(Clone)]
pub(crate) struct Registry {
    shared: Arc<Shared>,
}

impl Registry {
    pub(crate) fn new(config: Config) -> Registry {
        let connections = Arc::new(Semaphore::new(config.max_connections));
        Registry {
            shared: Arc::new(Shared {
                config,
                state: Mutex::new(State::default()),
                connections,
                pending_joins: Mutex::new(VecDeque::new()),
                next_id: AtomicU64::new(1),
                cancel: CancellationToken::new(),
                tasks: TaskTracker::new(),
                stats: Stats::new(),
                lobby_arrivals: watch::Sender::new(0),
                node_secret: random_hex(),
                peers: Arc::default(),
                sandboxed: crate::sandboxed::Sandboxed::default(),
            }),
        }
    }

    pub(crate) fn config(&self) -> &Config {
        &self.shared.config
    }

    /// This process's secret, which the other nodes of its store present to borrow a bot.
    pub(crate) fn node_secret(&self) -> &str {
        &self.shared.node_secret
    }

    /// The hosted bots running now (`crate::sandboxed`).
    pub(crate) fn sandboxed(&self) -> &crate::sandboxed::Sandboxed {
        &self.shared.sandboxed
    }

    /// Channels to the other nodes of a shared store, shared by every request through them.
    pub(crate) fn peers(&self) -> &Arc<Peers> {
        &self.shared.peers
    }

    pub(crate) fn stats(&self) -> &Stats {
        &self.shared.stats
    }

    /// The server's counters for `GetStats`.
    pub(crate) fn server_stats(&self, reset: bool) -> pb::ServerStats {
        self.shared.stats.snapshot(self.connections_open(), reset)
    }

    /// Every Play stream open: joined, and still waiting for its Join.
    pub(crate) fn connections_open(&self) -> u64 {
        let max = self.shared.config.max_connections;
        let joined = max - self.shared.connections.available_permits().min(max);
        (joined + self.pending_joins().len()) as u64
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the maps half-updated (each critical
        // section is a few inserts or removals), so a poisoned lock is still usable.
        self.shared.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A unique number for a connection.
    pub(crate) fn next_id(&self) -> u64 {
        self.shared.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// A permit for one `Play` stream, held for its life.
    pub(crate) fn connection_permit(&self) -> Result<tokio::sync::OwnedSemaphorePermit, Status> {
        Arc::clone(&self.shared.connections).try_acquire_owned().map_err(|_| {
            Status::resource_exhausted(format!(
                "the server holds its limit of {} connections",
                self.shared.config.max_connections
            ))
        })
    }

    fn pending_joins(&self) -> MutexGuard<'_, VecDeque<(u64, oneshot::Sender<()>)>> {
        // Each critical section is one push, pop or removal: a poisoned lock is still whole.
        self.shared.pending_joins.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Counts the `Play` stream `id` as waiting for its `Join` until the returned guard is
    /// dropped. When `max_pending_joins` already wait, the oldest of them is displaced (its
    /// guard's `displaced` resolves): a flood of silent streams churns through itself, and a
    /// real bot, whose `Join` follows within a round trip, still gets in.
    pub(crate) fn pending_join(&self, id: u64) -> PendingJoin {
        let (displace, displaced) = oneshot::channel();
        let mut pending = self.pending_joins();
        while pending.len() >= self.shared.config.max_pending_joins.max(1) {
            let Some((_, oldest)) = pending.pop_front() else { break };
            let _ = oldest.send(());
        }
        pending.push_back((id, displace));
        PendingJoin { registry: self.clone(), id, displaced }
    }

    /// Creates and starts a match; returns its id and seat tokens.
    pub(crate) fn create_match(
        &self,
        request: MatchRequest,
    ) -> Result<(String, Vec<String>), Status> {
        self.create_reported(request, None)
    }

    /// Creates and starts a match whose task, when `report` is given, hands its end to it
    /// (a hosted match: `crate::host`).
    pub(crate) fn create_reported(
        &self,
        request: MatchRequest,
        report: Option<oneshot::Sender<HostedEnd>>,
    ) -> Result<(String, Vec<String>), Status> {
        /// [`Registry::create`] for the requested game.
        struct Create<'a> {
            registry: &'a Registry,
            request: MatchRequest,
            report: Option<oneshot::Sender<HostedEnd>>,
        }
        impl WireVisitor for Create<'_> {
            type Output = Result<(String, Vec<String>), Status>;
            fn visit<G: WireGame>(self) -> Self::Output {
                self.registry.create::<G>(self.request, self.report)
            }
        }
        match wire::game_from_pb(request.game as i32) {
            Some(kind) => wire::visit(kind, Create { registry: self, request, report }),
            None => Err(Status::invalid_argument("choose a game")),
        }
    }

    fn create<G: WireGame>(
        &self,
        request: MatchRequest,
        report: Option<oneshot::Sender<HostedEnd>>,
    ) -> Result<(String, Vec<String>), Status> {
        let seed = request.seed.unwrap_or_else(random_seed);
        check_options_object(&request.options_json)?;
        let state = G::create(&request.options_json, request.seats, seed)?;
        let config = &self.shared.config;
        let clock = request.clock.unwrap_or_default();
        let clock = ClockRules {
            move_time: clock_part(
                "move_ms",
                clock.move_ms,
                config.move_time,
                config.max_move_time,
            )?,
            bank_time: clock_part(
                "bank_ms",
                clock.bank_ms,
                config.bank_time,
                config.max_bank_time,
            )?,
            max_strikes: config.max_strikes,
            max_bad_replies: match clock.max_bad_replies {
                0 => config.max_bad_replies,
                given => given,
            },
            reconnect_grace: config.reconnect_grace,
        };
        if !request.lobby_bots.is_empty()
            && request.lobby_bots.len() != usize::from(state.players())
        {
            return Err(Status::invalid_argument(format!(
                "lobby_bots names {} seats; the match has {}",
                request.lobby_bots.len(),
                state.players()
            )));
        }
        for borrowed in &request.borrowed {
            let named = request.lobby_bots.get(borrowed.seat).is_some_and(|name| !name.is_empty());
            if borrowed.seat >= usize::from(state.players()) || named {
                return Err(Status::internal(format!(
                    "seat {} of a borrowed bot is not a free seat of the match",
                    borrowed.seat
                )));
            }
        }
        let id = random_hex();
        let tokens: Vec<String> = (0..state.players()).map(|_| random_hex()).collect();
        let (tx, rx) = mpsc::channel(COMMAND_BUFFER);
        let lobby = {
            let mut registry = self.lock();
            if registry.running.len() >= config.max_matches {
                return Err(Status::resource_exhausted(format!(
                    "the server holds its limit of {} running matches",
                    config.max_matches
                )));
            }
            let registry = &mut *registry;
            let lobby =
                take_from_lobby(&mut registry.lobby, &mut registry.on_call, &request.lobby_bots)?;
            registry.running.insert(id.clone(), MatchHandle { commands: tx.clone() });
            registry.index.created(&id, listing::now_ms());
            for (seat, token) in tokens.iter().enumerate() {
                // A lobby seat is held from the start by the registered bot it goes to, as is a
                // borrowed one (the lending node checked its key).
                let holder = lobby
                    .iter()
                    .find(|(s, _)| *s == seat)
                    .and_then(|(_, w)| w.account.clone())
                    .or_else(|| {
                        let borrowed = request.borrowed.iter().find(|b| b.seat == seat);
                        borrowed.and_then(|b| b.account.clone())
                    });
                let seat = SeatRef { match_id: id.clone(), seat: Seat(seat as u8), holder };
                registry.tokens.insert(token.clone(), seat);
            }
            lobby
        };
        let setup = MatchSetup {
            id: id.clone(),
            state,
            tokens: tokens.clone(),
            clock,
            max_unapplied_acts: config.max_unapplied_acts,
            report,
        };
        let task = MatchTask::new(setup, rx, self.clone(), self.shared.cancel.child_token());
        self.shared.tasks.spawn(Box::new(task).run());
        for (seat, waiter) in lobby {
            let seat =
                SeatRef { match_id: id.clone(), seat: Seat(seat as u8), holder: waiter.account };
            let seated = Seated { seat, handle: MatchHandle { commands: tx.clone() } };
            let _ = waiter.reply.send(Ok(Placement::Seated(seated)));
        }
        for borrowed in request.borrowed {
            let connect = Connect {
                seat: Seat(borrowed.seat as u8),
                joining: borrowed.joining,
                inbound: borrowed.inbound,
            };
            // A new task's queue has room for every seat.
            let _ = tx.try_send(Command::Connect(Box::new(connect)));
        }
        Ok((id, tokens))
    }

    /// Makes `account` the holder of the seat of `token` unless a bot holds it already;
    /// returns the holder (`account`, or the bot that was first).
    pub(crate) fn hold(&self, token: &str, account: &str) -> Option<String> {
        let mut registry = self.lock();
        let seat = registry.tokens.get_mut(token)?;
        Some(seat.holder.get_or_insert_with(|| account.to_owned()).clone())
    }

    /// The running match a seat token belongs to; `None` when that match has finished.
    pub(crate) fn seat(&self, token: &str) -> Result<(SeatRef, Option<MatchHandle>), Status> {
        let registry = self.lock();
        let seat = registry
            .tokens
            .get(token)
            .cloned()
            // The token is the credential: an unknown one is UNAUTHENTICATED.
            .ok_or_else(|| Status::unauthenticated("no seat has this token"))?;
        let handle = registry.running.get(&seat.match_id).cloned();
        Ok((seat, handle))
    }

    /// Waits in a queue until enough bots ask for the same game; `id` names this waiter so
    /// that [`Registry::leave_queue`] can remove it.
    pub(crate) fn join_queue(
        &self,
        queue: pb::QueueRequest,
        id: u64,
        account: Option<String>,
    ) -> Result<oneshot::Receiver<Result<Placement, Status>>, Status> {
        let game = pb::Game::try_from(queue.game).unwrap_or(pb::Game::Unspecified);
        // Validate and canonicalise the options, so that equal requests share a queue.
        let options = match wire::game_from_pb(queue.game) {
            Some(kind) => wire::visit(kind, Canonical(&queue)),
            None => Err(Status::invalid_argument("choose a game")),
        }?;
        let key = (queue.game, options.clone(), queue.seats);
        let (reply, receiver) = oneshot::channel();
        let full = {
            let mut registry = self.lock();
            let waiting = registry.queues.entry(key.clone()).or_default();
            waiting.retain(|w| !w.reply.is_closed());
            waiting.push(Waiting { id, account, reply });
            if waiting.len() >= queue.seats as usize { registry.queues.remove(&key) } else { None }
        };
        if let Some(waiting) = full {
            self.seat_queue(game, options, queue.seats, waiting);
        }
        Ok(receiver)
    }

    fn seat_queue(&self, game: pb::Game, options_json: String, seats: u32, waiting: Vec<Waiting>) {
        let request = MatchRequest {
            game,
            options_json,
            seats,
            seed: None,
            clock: None,
            lobby_bots: vec![],
            borrowed: vec![],
        };
        let created = self.create_match(request);
        // Random seats: the order of arrival must not decide who deals or leads.
        let mut slots: Vec<usize> = (0..waiting.len()).collect();
        slots.shuffle(&mut ChaCha8Rng::seed_from_u64(random_seed()));
        for (waiter, slot) in waiting.into_iter().zip(slots) {
            let seated = match &created {
                Ok((_, tokens)) => {
                    if let Some(account) = &waiter.account {
                        self.hold(&tokens[slot], account);
                    }
                    self.seat(&tokens[slot]).and_then(|(seat, handle)| {
                        let handle =
                            handle.ok_or_else(|| Status::unavailable("the match ended at once"))?;
                        Ok(Placement::Seated(Seated { seat, handle }))
                    })
                }
                Err(status) => Err(status.clone()),
            };
            let _ = waiter.reply.send(seated);
        }
    }

    /// Waits in the lobby under `name` until a `CreateMatch` names it; `id` names this waiter
    /// so that [`Registry::leave_queue`] can remove it.
    pub(crate) fn join_lobby(
        &self,
        name: String,
        id: u64,
        account: Option<String>,
    ) -> Result<oneshot::Receiver<Result<Placement, Status>>, Status> {
        if name.is_empty() {
            return Err(Status::invalid_argument("a lobby name cannot be empty"));
        }
        let (reply, receiver) = oneshot::channel();
        {
            let mut registry = self.lock();
            // A bot woken from its call has arrived. (A `Join` its process sent as it went on
            // call leaves it there: the runner is stopping that process.)
            if registry.on_call.get(&name).is_some_and(|entry| entry.woken) {
                registry.on_call.remove(&name);
            }
            let waiting = registry.lobby.entry(name).or_default();
            waiting.retain(|w| !w.reply.is_closed());
            waiting.push(Waiting { id, account, reply });
        }
        self.shared.lobby_arrivals.send_modify(|arrivals| *arrivals = arrivals.wrapping_add(1));
        Ok(receiver)
    }

    /// Sets aside the oldest live stream waiting in the lobby under `name` for another node
    /// (`crate::lend`): its waiter hands it over through the receiver returned, with the
    /// registered bot it is, if one.
    pub(crate) fn lend(
        &self,
        name: &str,
    ) -> Result<(oneshot::Receiver<Lent>, Option<String>), Status> {
        let mut registry = self.lock();
        let waiting = registry.lobby.get_mut(name);
        let lent = waiting.and_then(|waiting| {
            while !waiting.is_empty() {
                let waiter = waiting.remove(0);
                let (handover, lent) = oneshot::channel();
                if waiter.reply.send(Ok(Placement::Lent(handover))).is_ok() {
                    return Some((lent, waiter.account));
                }
            }
            None
        });
        registry.lobby.retain(|_, waiting| !waiting.is_empty());
        lent.ok_or_else(|| {
            if let Some(on_call) = registry.on_call.get_mut(name) {
                on_call.wake();
                return Status::unavailable(format!(
                    "{} is on call on this node: its runner is starting it",
                    cardroom_store::Echo(name)
                ));
            }
            Status::failed_precondition(format!(
                "no stream of {} waits in this node's lobby",
                cardroom_store::Echo(name)
            ))
        })
    }

    /// A receiver that sees every arrival in the lobby.
    pub(crate) fn lobby_arrivals(&self) -> watch::Receiver<u64> {
        self.shared.lobby_arrivals.subscribe()
    }

    /// The lobby's size: the names waiting, and their streams (a bot playing several matches
    /// at once waits on several), without the names.
    pub(crate) fn lobby_size(&self) -> (usize, usize) {
        let registry = self.lock();
        registry.lobby.values().fold((0, 0), |(names, streams), waiting| {
            match waiting.iter().filter(|w| !w.reply.is_closed()).count() {
                0 => (names, streams),
                live => (names + 1, streams + live),
            }
        })
    }

    /// Every lobby name with live waiters, and how many.
    /// Hosted bots on call count as one stream each: a match that seats one wakes it.
    pub(crate) fn lobby_waiting(&self) -> HashMap<String, usize> {
        let registry = self.lock();
        let mut waiting: HashMap<String, usize> = registry
            .lobby
            .iter()
            .map(|(name, waiting)| {
                (name.clone(), waiting.iter().filter(|w| !w.reply.is_closed()).count())
            })
            .filter(|&(_, live)| live > 0)
            .collect();
        for name in registry.on_call.keys() {
            waiting.entry(name.clone()).or_insert(1);
        }
        waiting
    }

    /// Puts the hosted bot `name` on call, unless it holds a seat in a running match: its
    /// streams waiting in the lobby end with `status`, and the lobby lists it until it arrives
    /// again or [`Registry::off_call`]. A match that wants it, here or lent, notifies the
    /// returned wake-up. Returns the filing's number too.
    pub(crate) fn go_on_call(
        &self,
        name: &str,
        status: &Status,
    ) -> Option<(u64, Arc<tokio::sync::Notify>)> {
        let id = self.next_id();
        let wake = Arc::new(tokio::sync::Notify::new());
        let waiters = {
            let mut registry = self.lock();
            let playing = registry.tokens.values().any(|seat| {
                seat.holder.as_deref() == Some(name)
                    && registry.running.contains_key(&seat.match_id)
            });
            if playing {
                return None;
            }
            let waiters = registry.lobby.remove(name).unwrap_or_default();
            let entry = OnCallEntry { id, wake: Arc::clone(&wake), woken: false };
            registry.on_call.insert(name.to_owned(), entry);
            waiters
        };
        for waiter in waiters {
            let _ = waiter.reply.send(Err(status.clone()));
        }
        Some((id, wake))
    }

    /// Takes the hosted bot `name` off call, if the filing `id` still holds it.
    pub(crate) fn off_call(&self, name: &str, id: u64) {
        let mut registry = self.lock();
        if registry.on_call.get(name).is_some_and(|entry| entry.id == id) {
            registry.on_call.remove(name);
        }
    }

    /// Ends everything the registered bot `account` holds, its key revoked or replaced: its
    /// waiters in the lobby and the queues get UNAUTHENTICATED with `reason`, and every running
    /// match with a seat it holds is told to end that seat's stream and forfeit it. Returns how
    /// many waiters and seats it reached.
    pub(crate) fn revoke(&self, account: &str, reason: &str) -> usize {
        let waiters = self.end_waiting(account, &Status::unauthenticated(reason.to_owned()));
        waiters + self.end_seats(account, reason, None)
    }

    /// Tells every running match with a seat `account` holds to end that seat's stream and
    /// forfeit it with `reason`, keeping `output` as the seat's output; returns how many.
    pub(crate) fn end_seats(&self, account: &str, reason: &str, output: Option<&str>) -> usize {
        let seats: Vec<(MatchHandle, Seat)> = {
            let registry = self.lock();
            registry
                .tokens
                .values()
                .filter(|seat| seat.holder.as_deref() == Some(account))
                .filter_map(|seat| Some((registry.running.get(&seat.match_id)?.clone(), seat.seat)))
                .collect()
        };
        let reached = seats.len();
        for (handle, seat) in seats {
            let (reason, output) = (reason.to_owned(), output.map(str::to_owned));
            tokio::spawn(async move {
                let _ = handle.commands.send(Command::Revoke { seat, reason, output }).await;
            });
        }
        reached
    }

    /// Ends the streams of the registered bot `account` that wait in the lobby or a queue with
    /// `status`; returns how many.
    pub(crate) fn end_waiting(&self, account: &str, status: &Status) -> usize {
        let held = |w: &Waiting| w.account.as_deref() == Some(account);
        let waiters = {
            let mut registry = self.lock();
            let registry = &mut *registry;
            let mut waiters = Vec::new();
            for waiting in registry.queues.values_mut().chain(registry.lobby.values_mut()) {
                let (gone, kept): (Vec<Waiting>, Vec<Waiting>) =
                    std::mem::take(waiting).into_iter().partition(held);
                *waiting = kept;
                waiters.extend(gone);
            }
            registry.queues.retain(|_, waiting| !waiting.is_empty());
            registry.lobby.retain(|_, waiting| !waiting.is_empty());
            waiters
        };
        let ended = waiters.len();
        for waiter in waiters {
            let _ = waiter.reply.send(Err(status.clone()));
        }
        ended
    }

    /// Whether the registered bot `account` holds a seat of a running match.
    pub(crate) fn is_playing(&self, account: &str) -> bool {
        let registry = self.lock();
        registry.tokens.values().any(|seat| {
            seat.holder.as_deref() == Some(account) && registry.running.contains_key(&seat.match_id)
        })
    }

    /// Removes a waiter (of a queue or the lobby) that gave up.
    pub(crate) fn leave_queue(&self, id: u64) {
        let mut registry = self.lock();
        let registry = &mut *registry;
        for waiting in registry.queues.values_mut().chain(registry.lobby.values_mut()) {
            waiting.retain(|w| w.id != id);
        }
        registry.queues.retain(|_, waiting| !waiting.is_empty());
        registry.lobby.retain(|_, waiting| !waiting.is_empty());
    }

    /// A match's status: asked of its task while it runs, the final one once it is over.
    pub(crate) async fn info(&self, match_id: &str) -> Result<pb::MatchInfo, Status> {
        let handle = match self.lookup(match_id)? {
            Ok(handle) => handle,
            Err(info) => return Ok(info),
        };
        let (reply, answer) = oneshot::channel();
        if handle.commands.send(Command::Info { reply }).await.is_ok()
            && let Ok(info) = answer.await
        {
            return Ok(info);
        }
        self.ended(match_id)
    }

    /// A spectator's stream of `match_id`: the public view as the match goes, then its end;
    /// of a match over, the end alone.
    pub(crate) async fn watch(&self, match_id: &str) -> Result<mpsc::Receiver<Watched>, Status> {
        let info = match self.lookup(match_id)? {
            Ok(handle) => {
                let (tx, rx) = mpsc::channel(self.shared.config.outbound_buffer);
                if handle.commands.send(Command::Watch { tx }).await.is_ok() {
                    return Ok(rx);
                }
                self.ended(match_id)?
            }
            Err(info) => info,
        };
        let (tx, rx) = mpsc::channel(1);
        let last =
            pb::WatchMessage { events: Vec::new(), public_json: String::new(), end: info.end };
        let _ = tx.try_send(Ok(last));
        Ok(rx)
    }

    /// The final status of a match whose task no longer takes commands. A task files it before
    /// it stops taking them ([`crate::match_task`]'s `finish`), so whoever asked a running
    /// match as it ended is answered from it.
    fn ended(&self, match_id: &str) -> Result<pb::MatchInfo, Status> {
        self.finished_info(match_id)
            .ok_or_else(|| Status::not_found(format!("no match {match_id}: it ended")))
    }

    /// A finished match's final status, while this server keeps it.
    pub(crate) fn finished_info(&self, match_id: &str) -> Option<pb::MatchInfo> {
        self.lock().finished.get(match_id).map(|f| f.info.clone())
    }

    /// A running match's handle, or its status if it is over.
    pub(crate) fn lookup(
        &self,
        match_id: &str,
    ) -> Result<Result<MatchHandle, pb::MatchInfo>, Status> {
        let registry = self.lock();
        if let Some(handle) = registry.running.get(match_id) {
            return Ok(Ok(handle.clone()));
        }
        match registry.finished.get(match_id) {
            Some(finished) => Ok(Err(finished.info.clone())),
            None => Err(Status::not_found(format!("no match {match_id}"))),
        }
    }

    /// A finished match's record: read from the record directory when it was written there,
    /// else kept in memory (for the last `keep_finished` matches).
    pub(crate) async fn record(&self, match_id: &str) -> Result<String, Status> {
        let kept = {
            let registry = self.lock();
            if registry.running.contains_key(match_id) {
                return Err(Status::failed_precondition("the match is still running"));
            }
            registry.finished.get(match_id).and_then(|f| f.record.clone())
        };
        // Serialised outside the lock.
        if let Some(record) = kept {
            return Ok(record.to_json());
        }
        // Match ids are hex: anything else cannot name a file of ours.
        let is_id = !match_id.is_empty() && match_id.bytes().all(|b| b.is_ascii_hexdigit());
        if let (Some(dir), true) = (&self.shared.config.record_dir, is_id)
            && let Ok(record) =
                tokio::fs::read_to_string(dir.join(format!("{match_id}.json"))).await
        {
            return Ok(record);
        }
        Err(Status::not_found(format!("no match {match_id}")))
    }

    /// Called by a match task when its match ends: writes the record, then files it.
    pub(crate) async fn finished(&self, match_id: &str, mut finished: Finished) {
        if let Some(dir) = &self.shared.config.record_dir
            && let Some(record) = finished.record.take()
        {
            let (dir, path) = (dir.clone(), dir.join(format!("{match_id}.json")));
            let shown = path.display().to_string();
            let written = tokio::task::spawn_blocking(move || {
                let result = write_record(&dir, &path, &record);
                (result, record)
            });
            match written.await {
                // On disk it is; memory holds only the status of a finished match.
                Ok((Ok(()), _)) => info!(path = %shown, "record written"),
                Ok((Err(error), record)) => {
                    warn!(path = %shown, cause = %error, "record not written: kept in memory");
                    finished.record = Some(record);
                }
                Err(error) => warn!(path = %shown, cause = %error, "record not written"),
            }
        }
        let mut registry = self.lock();
        registry.running.remove(match_id);
        registry.finished.insert(match_id.to_owned(), finished);
        // A long-running server forgets its oldest matches (their records stay on disk).
        let keep = self.shared.config.keep_finished;
        for oldest in registry.index.ended(match_id, listing::now_ms(), keep) {
            if let Some(forgotten) = registry.finished.remove(&oldest) {
                for token in &forgotten.tokens {
                    registry.tokens.remove(token);
                }
            }
        }
    }

    /// A page of `ListMatches`. A running match's seats are asked of its task (all the page's
    /// tasks at once, outside the lock); one that ends meanwhile is shown from its final status.
    pub(crate) async fn list_matches(
        &self,
        query: PageQuery,
    ) -> Result<pb::ListMatchesResponse, Status> {
        let next_page_token = |next: Option<u64>| next.map(|s| query.token_after(s));
        if query.finished {
            let registry = self.lock();
            let page = registry.index.page(&query);
            let matches = page
                .matches
                .iter()
                .filter_map(|listed| {
                    let finished = registry.finished.get(&listed.id)?;
                    Some(listing::summary(listed, &finished.info))
                })
                .collect();
            return Ok(pb::ListMatchesResponse {
                matches,
                next_page_token: next_page_token(page.next).unwrap_or_default(),
            });
        }
        let (page, handles) = {
            let registry = self.lock();
            let page = registry.index.page(&query);
            let handles: Vec<Option<MatchHandle>> =
                page.matches.iter().map(|l| registry.running.get(&l.id).cloned()).collect();
            (page, handles)
        };
        let mut answers = Vec::with_capacity(handles.len());
        for handle in handles {
            let (reply, answer) = oneshot::channel();
            let asked = match handle {
                Some(handle) => handle.commands.send(Command::Info { reply }).await.is_ok(),
                None => false,
            };
            answers.push(asked.then_some(answer));
        }
        let mut matches = Vec::with_capacity(answers.len());
        for (listed, answer) in page.matches.iter().zip(answers) {
            let answered = match answer {
                Some(answer) => answer.await.ok(),
                None => None,
            };
            // Not answered: it ended, and its final status is filed (or already forgotten:
            // skipped).
            let info = answered.or_else(|| self.finished_info(&listed.id));
            if let Some(info) = info {
                matches.push(listing::summary(listed, &info));
            }
        }
        Ok(pb::ListMatchesResponse {
            matches,
            next_page_token: next_page_token(page.next).unwrap_or_default(),
        })
    }

    /// Whether [`Registry::shutdown`] has begun.
    pub(crate) fn is_stopping(&self) -> bool {
        self.shared.cancel.is_cancelled()
    }

    /// Ends every match as aborted and waits until each has told its bots and written its
    /// record.
    pub(crate) async fn shutdown(&self) {
        self.shared.cancel.cancel();
        self.shared.tasks.close();
        self.shared.tasks.wait().await;
    }
}

/// Writes `record` to `path` (in `dir`, created if need be) as it is serialised: a long match's
/// record is hundreds of KB of JSON, which need not exist in memory (nor be copied for the
/// write) to reach the file.
fn write_record(dir: &Path, path: &Path, record: &AnyRecord) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
    record.write_json(&mut file)?;
    file.flush()
}

/// Takes the oldest live waiter of each name in `names` (by seat; "" is a seat the organizer
/// fills itself), or none at all if any name has nobody waiting.
fn take_from_lobby(
    lobby: &mut HashMap<String, Vec<Waiting>>,
    on_call: &mut HashMap<String, OnCallEntry>,
    names: &[String],
) -> Result<Vec<(usize, Waiting)>, Status> {
    let mut wanted: HashMap<&str, usize> = HashMap::new();
    for name in names.iter().filter(|name| !name.is_empty()) {
        *wanted.entry(name).or_default() += 1;
    }
    for (name, count) in &wanted {
        let waiting = lobby.get_mut(*name).map_or(0, |waiting| {
            waiting.retain(|w| !w.reply.is_closed());
            waiting.len()
        });
        if waiting < *count {
            if let Some(on_call) = on_call.get_mut(*name) {
                // Its runner starts it: the match waits for it to join.
                on_call.wake();
                return Err(Status::failed_precondition(format!(
                    "{} is on call: its runner is starting it",
                    cardroom_store::Echo(name)
                )));
            }
            return Err(Status::failed_precondition(format!(
                "{count} seat(s) for {} but {waiting} bot(s) of that name wait in the lobby",
                cardroom_store::Echo(name)
            )));
        }
    }
    let mut taken = Vec::new();
    for (seat, name) in names.iter().enumerate().filter(|(_, name)| !name.is_empty()) {
        if let Some(waiting) = lobby.get_mut(name) {
            taken.push((seat, waiting.remove(0)));
            if waiting.is_empty() {
                lobby.remove(name);
            }
        }
    }
    Ok(taken)
}

/// [`canonical`] for the queue's game.
struct Canonical<'a>(&'a pb::QueueRequest);

impl WireVisitor for Canonical<'_> {
    type Output = Result<String, Status>;
    fn visit<G: WireGame>(self) -> Result<String, Status> {
        canonical::<G>(self.0)
    }
}

fn canonical<G: WireGame>(queue: &pb::QueueRequest) -> Result<String, Status> {
    check_options_object(&queue.options_json)?;
    Ok(G::create(&queue.options_json, queue.seats, 0)?.options_json())
}

/// Options are a JSON object of named fields (or empty, for the defaults): serde would read an
/// array by position (`[2, 5, 9]` as packs, first_hand and limit), which no one means.
fn check_options_object(options_json: &str) -> Result<(), Status> {
    let text = options_json.trim();
    if text.is_empty() {
        return Ok(());
    }
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(_)) => Ok(()),
        Ok(other) => {
            let kind = match other {
                serde_json::Value::Array(_) => "an array",
                serde_json::Value::String(_) => "a string",
                serde_json::Value::Number(_) => "a number",
                serde_json::Value::Bool(_) => "a boolean",
                _ => "null",
            };
            Err(Status::invalid_argument(format!(
                "options_json must be a JSON object of named options (like {{\"limit\": 30}}), \
                 not {kind}"
            )))
        }
        Err(error) => Err(Status::invalid_argument(format!("options_json is not JSON: {error}"))),
    }
}

/// One part of a match's clock from the wire: 0 takes the server's `default`, and more than
/// the server's `max` is refused (a -1 sent as uint32 would otherwise be 49.7 days).
fn clock_part(field: &str, ms: u32, default: Duration, max: Duration) -> Result<Duration, Status> {
    if ms == 0 {
        return Ok(default);
    }
    let asked = Duration::from_millis(u64::from(ms));
    if asked > max {
        return Err(Status::invalid_argument(format!(
            "clock.{field} is {ms} ms; this server allows at most {} ms",
            max.as_millis()
        )));
    }
    Ok(asked)
}

/// A `Play` stream waiting for its `Join` ([`Registry::pending_join`]); dropping it stops the
/// count.
pub(crate) struct PendingJoin {
    registry: Registry,
    id: u64,
    /// Resolves when newer streams displace this one.
    pub(crate) displaced: oneshot::Receiver<()>,
}

impl Drop for PendingJoin {
    fn drop(&mut self) {
        self.registry.pending_joins().retain(|(id, _)| *id != self.id);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A match as a caller finds it when it looked the match up just before it ended: a
    /// handle whose task no longer takes commands, and the final status the task filed first.
    fn ended_under_a_handle(registry: &Registry) -> pb::MatchEnd {
        let end = pb::MatchEnd {
            standings: Vec::new(),
            aborted: false,
            reason: "the match is over".to_owned(),
        };
        let info = pb::MatchInfo {
            match_id: "m1".to_owned(),
            over: true,
            end: Some(end.clone()),
            ..Default::default()
        };
        let (commands, stopped) = mpsc::channel(1);
        drop(stopped);
        let mut state = registry.lock();
        state.running.insert("m1".to_owned(), MatchHandle { commands });
        let finished = Finished { info, record: None, tokens: Vec::new() };
        state.finished.insert("m1".to_owned(), finished);
        end
    }

    #[tokio::test]
    async fn a_match_asked_as_it_ends_answers_from_its_final_status() {
        let registry = Registry::new(Config::default());
        let end = ended_under_a_handle(&registry);
        let info = registry.info("m1").await.unwrap();
        assert!(info.over);
        assert_eq!(info.end, Some(end.clone()));
    }

    #[tokio::test]
    async fn a_match_watched_as_it_ends_sends_its_end() {
        let registry = Registry::new(Config::default());
        let end = ended_under_a_handle(&registry);
        let mut watched = registry.watch("m1").await.unwrap();
        let last = watched.recv().await.unwrap().unwrap();
        assert_eq!(last.end, Some(end));
        assert!(watched.recv().await.is_none(), "the end is the last message");
    }

    #[tokio::test]
    async fn a_match_that_ended_and_is_forgotten_is_not_found() {
        let registry = Registry::new(Config::default());
        ended_under_a_handle(&registry);
        registry.lock().finished.clear();
        assert_eq!(registry.info("m1").await.unwrap_err().code(), tonic::Code::NotFound);
        assert_eq!(registry.watch("m1").await.unwrap_err().code(), tonic::Code::NotFound);
    }
}
