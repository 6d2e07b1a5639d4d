//! One task per match owns its state: the only place where a match changes. The rest of the
//! server talks to it through [`Command`]s; it reads its bots' streams itself (an `Act` wakes
//! this task and no other) and writes to them without waiting; clocks are timers inside it, so
//! no lock ever guards game state.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use cardroom_games::text::{ReplyError, turn_text};
use cardroom_games::{AnyRecord, Comment, Game, Line, MAX_COMMENT_BYTES, RuleError, Seat};
use cardroom_proto::frame::{ServerFrame, TurnHeader};
use cardroom_proto::pb;
use cardroom_proto::wire::{self, WireGame};
use prost::Message as _;
use tokio::sync::{OwnedSemaphorePermit, mpsc, oneshot};
use tokio::time::Instant;
use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};
use tonic::{Status, Streaming};
use tracing::{debug, info, warn};

use cardroom_store::{FailureKind, NewFailure, ThinkSummary};

use crate::clock::{Clock, ClockRules, DeadlineTimer};
use crate::host::{HostedEnd, HostedSeat, MAX_FAILURES_KEPT};
use crate::registry::{Finished, Registry};
use crate::sandboxed::{HostedControl, SeatControl};
use crate::seat_streams::SeatStreams;
use crate::standings::final_standings;
use crate::stats::{MatchEnd, MatchOrigin};
use crate::status::read_error;
use crate::wakeups::Wakeups;

/// Where a match task sends one bot's messages, each encoded by the match task
/// ([`ServerFrame`]).
pub(crate) type BotSender = mpsc::Sender<Result<ServerFrame, Status>>;
/// Where a match task sends one spectator's messages.
pub(crate) type WatchSender = mpsc::Sender<Watched>;

/// What a spectator's stream carries.
pub(crate) type Watched = Result<pb::WatchMessage, Status>;

/// What the rest of the server asks of a match task.
pub(crate) enum Command {
    /// A bot joined (or rejoined) a seat.
    Connect(Box<Connect>),
    /// A spectator wants the public view and every event from now on.
    Watch { tx: WatchSender },
    /// The match's status.
    Info { reply: oneshot::Sender<pb::MatchInfo> },
    /// The key of the registered bot holding `seat` was revoked or replaced, or its hosted
    /// process ended: its stream ends UNAUTHENTICATED with `reason`, and the seat forfeits,
    /// keeping `output` (a hosted bot's, taken by its runner) as the seat's output.
    Revoke { seat: Seat, reason: String, output: Option<String> },
}

/// A bot joining `seat`: from now on the task reads `inbound` itself.
pub(crate) struct Connect {
    pub(crate) seat: Seat,
    pub(crate) joining: Joining,
    pub(crate) inbound: Streaming<pb::BotMessage>,
}

/// A bot connection on its way to its seat: what its `Join` said, where its messages go, and
/// its hold on one of the server's connection slots (released when the connection is dropped).
pub(crate) struct Joining {
    pub(crate) id: u64,
    pub(crate) bot_name: String,
    /// The version its `Join` reported ("" if none).
    pub(crate) bot_version: String,
    pub(crate) omit: pb::Omit,
    /// Whether its `Join` asked for each `Turn`'s text form (`Join.text`).
    pub(crate) text: bool,
    pub(crate) tx: BotSender,
    pub(crate) permit: OwnedSemaphorePermit,
    /// A hosted bot's control: the bot runs only while its seat is to act.
    pub(crate) hosted: Option<Arc<dyn HostedControl>>,
}

/// The match task's wake sources besides its seats, as [`Wakeups`] numbers them.
const COMMANDS: usize = 0;
const CANCELLED: usize = 1;
const TIMER: usize = 2;

/// What woke the match task.
enum Wake {
    Cancelled,
    Command(Option<Command>),
    Bot(Seat, Option<Result<pb::BotMessage, Status>>),
    Deadline,
}

/// Everything a new match task needs.
pub(crate) struct MatchSetup<G> {
    pub(crate) id: String,
    pub(crate) state: G,
    pub(crate) tokens: Vec<String>,
    pub(crate) clock: ClockRules,
    /// Acts a connection may send in a row without one being applied before its stream is
    /// ended (`Config::max_unapplied_acts`).
    pub(crate) max_unapplied_acts: u32,
    /// Where a hosted match's end goes (`crate::host`); its seats' failures are kept only then.
    pub(crate) report: Option<oneshot::Sender<HostedEnd>>,
}

struct Connection {
    tx: BotSender,
    /// What the bot asked to be left out (`Join.omit`).
    omit: pb::Omit,
    /// Whether it asked for the text form (`Join.text`).
    text: bool,
    /// Acts received on this connection since its last one was applied or its last `Turn`
    /// was sent.
    unapplied: u32,
    /// A hosted bot's control (thawed when the connection is let go).
    hosted: Option<SeatControl>,
    _permit: OwnedSemaphorePermit,
}

struct SeatSlot {
    token: String,
    /// The name and version of the bot that first took the seat (kept through rejoins).
    bot_name: String,
    bot_version: String,
    /// Whether a bot has taken the seat yet.
    connected_once: bool,
    /// Why the seat forfeited, once it has.
    forfeit_reason: Option<String>,
    /// What went wrong for this seat (hosted matches only, at most `MAX_FAILURES_KEPT`).
    failures: Vec<NewFailure>,
    /// A hosted bot's output in this match, once taken: at the end, or when its process
    /// ended mid-match (its runner took it then).
    output: Option<String>,
    connection: Option<Connection>,
    forfeited: bool,
    /// Its actions refused as illegal or malformed.
    refused: u32,
    /// Its bot's time for each decision, in microseconds (`SeatInfo.think_us`).
    think_us: Vec<u32>,
    /// For a connection that asked for the text form: the events since the seat last acted,
    /// as lines (at most [`RECENT_LINES`], the latest).
    recent: Vec<Line>,
}

/// The most lines of what happened since its last turn a seat's text form holds.
const RECENT_LINES: usize = 64;

/// The match task's state. Every field is owned by the task alone.
pub(crate) struct MatchTask<G: WireGame> {
    id: String,
    state: G,
    seats: Vec<SeatSlot>,
    /// Move time, banks, strikes and reconnect graces.
    clock: Clock,
    max_unapplied_acts: u32,
    /// False until every seat has joined (or the join grace passed): no turn is sent before.
    started: bool,
    /// Whether a hosted bot ever joined: only then are seats frozen and thawed (`run_only`).
    hosted: bool,
    /// Whether a connection ever asked for the text form: only then are event lines kept.
    text: bool,
    /// Grows by one with every decision; bots echo it.
    turn: u64,
    /// Text replies (`Act.reply`) refused in the current turn.
    bad_replies: u32,
    /// What the seats said beside their actions (`Act.comment`), for the record.
    comments: Vec<Comment>,
    /// When its `Turn` was last handed to the seat's connection (for the round-trip figures).
    turn_sent: Option<Instant>,
    /// The current decision's seat's observation, with its legal actions in the order sent:
    /// one for the match's life (`Game::observation_into`), not one allocated a decision.
    observation: Option<G::Observation>,
    /// The events of the action last applied: one list for the match's life
    /// (`Game::apply_into`), not one allocated a decision.
    events: Vec<G::Event>,
    watchers: Vec<WatchSender>,
    commands: mpsc::Receiver<Command>,
    /// The connected seats' streams, by seat index.
    inbound: SeatStreams<Streaming<pb::BotMessage>>,
    /// The timer of the current deadline.
    timer: DeadlineTimer,
    /// Fires once the server shuts down: one future for the match's life, not one per wake.
    cancelled: Pin<Box<WaitForCancellationFutureOwned>>,
    /// Which of the commands, the shutdown and the timer woke the task ([`Self::wake`]).
    wakeups: Wakeups<3>,
    /// The deadline the timer was last polled for: a sooner one is polled at once.
    timer_polled_for: Option<Instant>,
    registry: Registry,
    cancel: CancellationToken,
    report: Option<oneshot::Sender<HostedEnd>>,
    /// Whose match this is, for the figures (hosted: it has a `report`).
    origin: MatchOrigin,
    /// Counts the match as running until it ends.
    counted: Counted,
}

/// A match counted as running (`GetStats`, `/metrics`) from its task's creation until it ends,
/// then as ended by how it did; a task dropped without an end (it panicked) counts as aborted.
struct Counted {
    registry: Registry,
    game: cardroom_games::GameKind,
    origin: MatchOrigin,
    ended: bool,
}

impl Counted {
    fn new(registry: Registry, game: cardroom_games::GameKind, origin: MatchOrigin) -> Counted {
        registry.stats().match_started(game, origin);
        Counted { registry, game, origin, ended: false }
    }

    /// The match ended as `end` says.
    fn end(&mut self, end: MatchEnd) {
        if !std::mem::replace(&mut self.ended, true) {
            self.registry.stats().match_ended(self.game, self.origin, end);
        }
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.end(MatchEnd::Aborted);
    }
}

impl<G: WireGame> MatchTask<G> {
    pub(crate) fn new(
        setup: MatchSetup<G>,
        commands: mpsc::Receiver<Command>,
        registry: Registry,
        cancel: CancellationToken,
    ) -> MatchTask<G> {
        let seats = setup
            .tokens
            .into_iter()
            .map(|token| SeatSlot {
                token,
                bot_name: String::new(),
                bot_version: String::new(),
                connected_once: false,
                forfeit_reason: None,
                failures: Vec::new(),
                output: None,
                connection: None,
                forfeited: false,
                refused: 0,
                think_us: Vec::new(),
                recent: Vec::new(),
            })
            .collect::<Vec<_>>();
        let clock = Clock::new(setup.clock, seats.len());
        let inbound = SeatStreams::new(seats.len());
        let hosted = setup.report.is_some();
        let origin = if hosted { MatchOrigin::Hosted } else { MatchOrigin::Other };
        MatchTask {
            counted: Counted::new(registry.clone(), G::KIND, origin),
            origin,
            id: setup.id,
            state: setup.state,
            seats,
            clock,
            max_unapplied_acts: setup.max_unapplied_acts,
            started: false,
            hosted: false,
            text: false,
            turn: 0,
            bad_replies: 0,
            comments: Vec::new(),
            turn_sent: None,
            observation: None,
            events: Vec::new(),
            watchers: Vec::new(),
            commands,
            inbound,
            timer: DeadlineTimer::new(),
            cancelled: Box::pin(cancel.clone().cancelled_owned()),
            wakeups: Wakeups::new(),
            timer_polled_for: None,
            registry,
            cancel,
            report: setup.report,
        }
    }

    /// Runs the match to its end (or until the server shuts down), then reports it finished.
    ///
    /// The task comes boxed, and every future it awaits holds a pointer to it rather than a
    /// copy: an async fn keeps a value it takes as long as it runs, so `run(self)` held the task
    /// (1.5 KB) twice, and the nested `finish(self)` twice more, 9.2 KB a match in all, most of
    /// an idle seated bot's memory (BENCHMARKS.md, idle bots).
    #[tracing::instrument(name = "match", skip_all, fields(id = %self.id, game = G::NAME))]
    pub(crate) async fn run(mut self: Box<Self>) {
        let aborted = self.wait_for_seats().await;
        info!(seats = self.seats.len(), "match started");
        if !aborted {
            self.started = true;
            self.next_decision(Instant::now());
        }
        let aborted = aborted
            || loop {
                if self.state.to_act().is_none() || self.forfeit_ends_match() {
                    break false;
                }
                let deadline = self.deadline();
                match self.wake(deadline).await {
                    Wake::Cancelled | Wake::Command(None) => break true,
                    Wake::Command(Some(command)) => self.handle(command),
                    Wake::Bot(seat, message) => self.read(seat, message),
                    Wake::Deadline => self.time_out(),
                }
            };
        self.finish(aborted).await;
    }

    /// The clock starts once every seat has joined, or when the reconnect grace has passed
    /// since the match was created (missing seats then time out and strike as usual). Returns
    /// true if the server shut down meanwhile.
    async fn wait_for_seats(&mut self) -> bool {
        let deadline = Instant::now() + self.clock.rules().reconnect_grace;
        while self.seats.iter().any(|s| s.connection.is_none()) {
            match self.wake(deadline).await {
                Wake::Cancelled | Wake::Command(None) => return true,
                Wake::Command(Some(command)) => self.handle(command),
                Wake::Bot(seat, message) => self.read(seat, message),
                Wake::Deadline => break,
            }
        }
        for seat in 0..self.seats.len() {
            if self.seats[seat].connection.is_none() {
                let error = "its bot did not join within the reconnect grace".to_owned();
                self.fail(Seat(seat as u8), FailureKind::Crash, None, error);
            }
        }
        false
    }

    /// Waits for the next thing to do: a bot's message (or the end of its stream), a command,
    /// shutdown, or `deadline`, in that order when several are ready.
    ///
    /// Bots come first because a decision wakes this task once, for a bot's message, which is
    /// read at once. The commands, the shutdown and the clock are polled only when their own
    /// wakers fired ([`Wakeups`]), or, the clock, for a sooner deadline than it was polled for:
    /// a decision polls none of them. Shutdown is seen at the next wait: after the messages
    /// already buffered, which are few (a bot answers a turn once, and a flood of refused acts
    /// ends its stream).
    async fn wake(&mut self, deadline: Instant) -> Wake {
        std::future::poll_fn(|cx| self.poll_wake(deadline, cx)).await
    }

    fn poll_wake(&mut self, deadline: Instant, cx: &mut Context<'_>) -> Poll<Wake> {
        if let Poll::Ready((seat, message)) = self.inbound.poll_next(cx) {
            return Poll::Ready(Wake::Bot(Seat(seat as u8), message));
        }
        let mut look = self.wakeups.look(cx);
        if look.fired(COMMANDS)
            && let Poll::Ready(command) =
                self.commands.poll_recv(&mut self.wakeups.context(COMMANDS))
        {
            // There may be more.
            self.wakeups.mark(COMMANDS);
            return Poll::Ready(Wake::Command(command));
        }
        if look.fired(CANCELLED)
            && self.cancelled.as_mut().poll(&mut self.wakeups.context(CANCELLED)).is_ready()
        {
            self.wakeups.mark(CANCELLED);
            return Poll::Ready(Wake::Cancelled);
        }
        let sooner = self.timer_polled_for.is_none_or(|polled| deadline < polled);
        if look.fired(TIMER) || sooner {
            self.timer_polled_for = Some(deadline);
            let mut timer_cx = self.wakeups.context(TIMER);
            if self.timer.poll_until(deadline, &mut timer_cx).is_ready() {
                self.wakeups.mark(TIMER);
                return Poll::Ready(Wake::Deadline);
            }
        }
        Poll::Pending
    }

    /// A message from `seat`'s connection, or the end of its stream (`None`).
    fn read(&mut self, seat: Seat, message: Option<Result<pb::BotMessage, Status>>) {
        let status = match message {
            Some(Ok(pb::BotMessage { message: Some(pb::bot_message::Message::Act(act)) })) => {
                return self.act(seat, act);
            }
            Some(Ok(_)) => Status::invalid_argument("after Join, a bot sends only Act messages"),
            // Undecodable or oversized input ends the stream with its status.
            Some(Err(status)) => {
                debug!(%seat, cause = %status, "bot stream failed");
                let error = format!("its stream failed: {}", status.message());
                self.fail(seat, FailureKind::Crash, None, error);
                read_error(status)
            }
            None => {
                info!(%seat, "bot disconnected");
                if self.started {
                    let error = "its connection closed during the match".to_owned();
                    self.fail(seat, FailureKind::Crash, None, error);
                }
                return self.disconnect(seat);
            }
        };
        if let Some(connection) = &self.seats[seat.index()].connection {
            let _ = connection.tx.try_send(Err(status));
        }
        self.disconnect(seat);
    }

    /// Forgets `seat`'s connection: its stream ends, and the seat's reconnect grace starts.
    fn disconnect(&mut self, seat: Seat) {
        self.inbound.remove(seat.index());
        if self.seats[seat.index()].connection.take().is_some() {
            self.clock.disconnected(seat);
        }
    }

    /// Gin Rummy ends when a seat forfeits: nobody is left to play against. (Twenty-Two plays
    /// on, even with two seats: the default policy plays the forfeited seat to the end.)
    fn forfeit_ends_match(&self) -> bool {
        G::forfeit_ends_match() && self.seats.iter().any(|s| s.forfeited)
    }

    /// When the current decision times out: its clock, or the reconnect grace of a seat that
    /// has no connection.
    fn deadline(&self) -> Instant {
        match self.state.to_act() {
            Some(seat) => self.clock.deadline(seat),
            None => Instant::now(),
        }
    }

    fn handle(&mut self, command: Command) {
        match command {
            Command::Connect(connect) => self.connect(*connect),
            Command::Watch { tx } => {
                let first = pb::WatchMessage {
                    events: Vec::new(),
                    public_json: self.public_json(),
                    end: None,
                };
                if watch_send(&tx, first) {
                    self.watchers.push(tx);
                }
            }
            Command::Info { reply } => {
                let _ = reply.send(self.info(None));
            }
            Command::Revoke { seat, reason, output } => self.revoke(seat, &reason, output),
        }
    }

    /// Ends `seat`'s stream, whose bot's key was revoked or replaced (or whose hosted process
    /// ended, its runner's copy of its `output` kept), with UNAUTHENTICATED and `reason`, and
    /// forfeits the seat under the game's rule (Gin Rummy ends; Twenty-Two plays
    /// the seat by its default action to the end), the failure saying why.
    fn revoke(&mut self, seat: Seat, reason: &str, output: Option<String>) {
        let Some(slot) = self.seats.get_mut(seat.index()) else { return };
        if output.is_some() {
            slot.output = output;
        }
        if slot.forfeited {
            return;
        }
        if let Some(connection) = &slot.connection {
            let _ = connection.tx.try_send(Err(Status::unauthenticated(reason.to_owned())));
        }
        self.disconnect(seat);
        self.forfeit(seat, format!("{seat} forfeits: {reason}"));
        if self.started && self.state.to_act() == Some(seat) && !self.forfeit_ends_match() {
            self.next_decision(Instant::now());
        }
    }

    fn connect(&mut self, connect: Connect) {
        let Connect { seat, joining, inbound } = connect;
        let Joining { id, bot_name, bot_version, omit, text, tx, permit, hosted } = joining;
        if seat.index() >= self.seats.len() {
            return;
        }
        if let Some(old) = self.seats[seat.index()].connection.as_ref() {
            let _ = old.tx.try_send(Err(Status::aborted(
                "another connection joined this seat with its token",
            )));
            self.disconnect(seat);
        }
        let slot = &self.seats[seat.index()];
        let joined = pb::Joined {
            match_id: self.id.clone(),
            seat: u32::from(seat.0),
            seat_token: slot.token.clone(),
            game: G::PB as i32,
            options_json: self.state.options_json(),
            seats: self.seats.len() as u32,
            clock: Some(self.clock.rules().to_pb()),
            observation: Some(G::observation_to_pb(&self.state.observation(seat), &omit)),
        };
        let message = ServerFrame::message(&pb::ServerMessage {
            message: Some(pb::server_message::Message::Joined(joined)),
        });
        if tx.try_send(Ok(message)).is_err() {
            return;
        }
        let slot = &mut self.seats[seat.index()];
        // The seat's bot is the one that first took it: a rejoin under another name (an SDK's
        // default, say) renames nothing, and the results name the bot that played.
        if slot.connected_once {
            debug!(%seat, rejoined_as = %bot_name, "bot rejoined its seat");
        } else {
            slot.bot_name = bot_name;
            slot.bot_version = bot_version;
            slot.connected_once = true;
        }
        self.hosted |= hosted.is_some();
        self.text |= text;
        let hosted = hosted.map(SeatControl::new);
        slot.connection =
            Some(Connection { tx, omit, text, unapplied: 0, hosted, _permit: permit });
        self.inbound.insert(seat.index(), inbound);
        self.clock.connected(seat);
        info!(%seat, connection = id, "bot joined");
        if self.started && self.state.to_act() == Some(seat) {
            self.send_turn(seat, Instant::now());
        } else {
            self.run_only(self.state.to_act());
        }
    }

    fn act(&mut self, seat: Seat, act: pb::Act) {
        self.registry.stats().act_received(act.encoded_len());
        if let Some(connection) = self.seats[seat.index()].connection.as_mut() {
            connection.unapplied += 1;
            if connection.unapplied > self.max_unapplied_acts {
                // A flood (of stale acts, say) is stopped at its stream, before it costs the
                // HTTP/2 connection, and the other seats on it, anything.
                warn!(%seat, acts = connection.unapplied, "flood of refused acts: stream ended");
                let status = Status::resource_exhausted(format!(
                    "{} acts in a row refused: this stream is ended (answer each Turn once, \
                     and read what the server sends)",
                    connection.unapplied
                ));
                let _ = connection.tx.try_send(Err(status));
                return self.disconnect(seat);
            }
        }
        let slot = &self.seats[seat.index()];
        let turn = act.turn;
        let refuse = |code: pb::ActErrorCode, rule: &str, message: String| pb::ActError {
            turn,
            code: code as i32,
            rule: rule.to_owned(),
            message,
        };
        if slot.forfeited {
            let error = refuse(pb::ActErrorCode::Forfeited, "", "your seat has forfeited".into());
            return self.send_error(seat, error);
        }
        if turn != self.turn {
            let message = format!("turn {turn} is not the current turn ({}); ignored", self.turn);
            return self.send_error(seat, refuse(pb::ActErrorCode::StaleTurn, "", message));
        }
        if self.state.to_act() != Some(seat) {
            let message = format!("it is not {seat}'s turn");
            return self.send_error(seat, refuse(pb::ActErrorCode::NotYourTurn, "", message));
        }
        if act.comment.len() > MAX_COMMENT_BYTES {
            let message = format!(
                "the comment is {} bytes, over the limit of {MAX_COMMENT_BYTES}: the action is \
                 not applied",
                act.comment.len()
            );
            self.fail(seat, FailureKind::Illegal, None, message.clone());
            return self.send_error(seat, refuse(pb::ActErrorCode::Malformed, "", message));
        }
        let legal = self.observation.as_ref().map_or(&[][..], G::legal_actions_of);
        let action = match wire::act_action::<G>(&act, legal) {
            Ok(action) => action,
            Err(wire::WireError::Reply(error)) => return self.unreadable_reply(seat, &act, &error),
            Err(error) => {
                let answer = Some(format!("{act:?}"));
                let message = error.to_string();
                self.fail(seat, FailureKind::Illegal, answer, message.clone());
                return self.send_error(seat, refuse(pb::ActErrorCode::Malformed, "", message));
            }
        };
        // The one clock read of an answered decision: its round trip, what it cost the seat's
        // bank, and the start of the next decision.
        let now = Instant::now();
        let round_trip = self.turn_sent.map(|sent| now.duration_since(sent));
        match self.apply(seat, action, round_trip, now) {
            Ok(()) => {
                debug!(%seat, %action, "applied");
                if !act.comment.is_empty() {
                    // Kept for the record alone: nothing live carries it.
                    let index = usize::try_from(self.turn - 1).unwrap_or(usize::MAX);
                    self.comments.push(Comment { action: index, text: act.comment });
                }
                if let Some(connection) = self.seats[seat.index()].connection.as_mut() {
                    connection.unapplied = 0;
                }
                if let Some(round_trip) = round_trip {
                    let micros = u32::try_from(round_trip.as_micros()).unwrap_or(u32::MAX);
                    self.seats[seat.index()].think_us.push(micros);
                }
                self.next_decision(now);
            }
            Err(error) => {
                debug!(%seat, %action, cause = %error, "illegal action");
                self.fail(seat, FailureKind::Illegal, Some(action.to_string()), error.to_string());
                let error =
                    refuse(pb::ActErrorCode::IllegalAction, error.rule(), error.to_string());
                self.send_error(seat, error);
            }
        }
    }

    /// A text reply (`Act.reply`) that names no single legal action: refused with the reason.
    /// The seat's `max_bad_replies`-th in one turn forfeits it, as the language-model arenas
    /// do; the default action is then played (unless the forfeit ends the match).
    fn unreadable_reply(&mut self, seat: Seat, act: &pb::Act, error: &ReplyError) {
        self.bad_replies += 1;
        let max = self.clock.rules().max_bad_replies;
        let message = format!("{error} (bad reply {} of {max} this turn)", self.bad_replies);
        let reply = match &act.choice {
            Some(pb::act::Choice::Reply(reply)) => cardroom_store::Echo(reply).to_string(),
            _ => String::new(),
        };
        self.fail(seat, FailureKind::Illegal, Some(reply), message.clone());
        let code = pb::ActErrorCode::UnreadableReply as i32;
        self.send_error(seat, pb::ActError { turn: self.turn, code, rule: String::new(), message });
        if self.bad_replies < max {
            return;
        }
        self.forfeit(
            seat,
            format!(
                "{seat} forfeits after {max} replies in one turn that named no legal action: \
                 placed last"
            ),
        );
        if self.forfeit_ends_match() {
            return;
        }
        let now = Instant::now();
        if self.play_default(seat, now) {
            self.next_decision(now);
        }
    }

    /// The current decision's clock ran out: a strike, maybe a forfeit, and the default
    /// action (unless the forfeit ends the match).
    fn time_out(&mut self) {
        let Some(seat) = self.state.to_act() else { return };
        let strike = self.clock.strike(seat);
        let max_strikes = self.clock.rules().max_strikes;
        warn!(%seat, strikes = strike.strikes, strike.forfeits, "time out: playing the default action");
        let message = format!(
            "your time ran out: the default action was played; strike {} of {max_strikes}",
            strike.strikes,
        );
        let error = pb::ActError {
            turn: self.turn,
            code: pb::ActErrorCode::TimedOut as i32,
            rule: String::new(),
            message,
        };
        self.fail(seat, FailureKind::Timeout, None, error.message.clone());
        self.send_error(seat, error);
        if strike.forfeits {
            let max_strikes = self.clock.rules().max_strikes;
            self.forfeit(seat, format!("{seat} forfeits after {max_strikes} strikes: placed last"));
            if self.forfeit_ends_match() {
                return;
            }
        }
        let now = Instant::now();
        if self.play_default(seat, now) {
            self.next_decision(now);
        }
    }

    /// Forfeits `seat` (placed last), saying why in `message`.
    fn forfeit(&mut self, seat: Seat, message: String) {
        self.seats[seat.index()].forfeited = true;
        self.seats[seat.index()].forfeit_reason = Some(message.clone());
        warn!(%seat, %message, "seat forfeits");
        let error = pb::ActError {
            turn: self.turn,
            code: pb::ActErrorCode::Forfeited as i32,
            rule: String::new(),
            message,
        };
        self.fail(seat, FailureKind::Forfeit, None, error.message.clone());
        self.send_error(seat, error);
    }

    /// The one place a match moves on: applies `action` for `seat`, counts the decision (with
    /// the bot's round trip, `None` for the server's default), charges the seat's bank and
    /// tells bots and spectators; `now` is when the decision was made.
    /// The caller asks for the next decision.
    fn apply(
        &mut self,
        seat: Seat,
        action: G::Action,
        round_trip: Option<Duration>,
        now: Instant,
    ) -> Result<(), G::Error> {
        let mut events = std::mem::take(&mut self.events);
        events.clear();
        let applied = self.state.apply_into(seat, action, &mut events);
        if applied.is_ok() {
            self.clock.decided(seat, now);
            self.registry.stats().decision(self.origin, round_trip);
            if self.text {
                self.seats[seat.index()].recent.clear();
            }
            self.turn += 1;
            self.bad_replies = 0;
            self.broadcast(&events);
        }
        self.events = events;
        applied
    }

    /// Plays the default action for `seat` (timed out or forfeited). The default is always one
    /// of the legal actions; should the engine refuse it, the match ends (as aborted) rather
    /// than spin. Returns whether the match goes on.
    fn play_default(&mut self, seat: Seat, now: Instant) -> bool {
        let Some(action) = Game::default_action(&self.state) else { return false };
        match self.apply(seat, action, None, now) {
            Ok(()) => true,
            Err(error) => {
                warn!(%seat, %action, cause = %error, "the default action was refused");
                self.cancel.cancel();
                false
            }
        }
    }

    /// Asks the seat to act for the next decision, which starts `now`; plays forfeited seats at
    /// once.
    fn next_decision(&mut self, now: Instant) {
        while let Some(seat) = self.state.to_act() {
            if !self.seats[seat.index()].forfeited {
                self.clock.start_turn(now);
                self.turn_sent = None;
                self.send_turn(seat, now);
                return;
            }
            if self.forfeit_ends_match() || !self.play_default(seat, now) {
                return;
            }
        }
    }

    /// Sends the current decision to `seat` (if connected), and keeps its observation (the
    /// legal actions an `Act` is read against), written over the last one; the seat's time
    /// left is counted at `now`.
    fn send_turn(&mut self, seat: Seat, now: Instant) {
        let observation = match &mut self.observation {
            Some(observation) => {
                self.state.observation_into(seat, observation);
                observation
            }
            None => self.observation.insert(self.state.observation(seat)),
        };
        // Nobody reads a turn without a connection: it is sent again when one joins.
        let slot = &self.seats[seat.index()];
        let Some((omit, text)) = slot.connection.as_ref().map(|c| (c.omit, c.text)) else {
            return;
        };
        let text = if text {
            let table = G::seat_table(observation);
            turn_text(&table, &slot.recent, G::legal_actions_of(observation))
        } else {
            String::new()
        };
        // A bot that reads the typed view may list the legal actions itself with the engine
        // (`Omit.legal_actions`): the largest nested part of a Turn is then never encoded.
        let legal_actions = if omit.typed || omit.legal_actions {
            Vec::new()
        } else {
            wire::legal_actions_to_pb::<G>(G::legal_actions_of(observation))
        };
        let (move_left, bank_left) = self.clock.left(seat, now);
        let header = TurnHeader {
            turn: self.turn,
            legal_actions: &legal_actions,
            move_ms: move_left.as_millis().try_into().unwrap_or(u32::MAX),
            bank_ms: bank_left.as_millis().try_into().unwrap_or(u32::MAX),
            text: &text,
        };
        // Written straight from the engine's observation: the bytes prost would write for the
        // typed `Turn`, without the tree.
        let (frame, bytes) = ServerFrame::turn::<G>(header, observation, &omit);
        self.run_only(Some(seat));
        if self.send_frame(seat, frame) {
            if let Some(connection) = self.seats[seat.index()].connection.as_mut() {
                connection.unapplied = 0;
            }
            self.turn_sent = Some(Instant::now());
            self.registry.stats().turn_sent(bytes);
        }
    }

    /// Fair clocks for hosted bots: the bot of `seat` may run, every other hosted bot of the
    /// match is frozen (it cannot think on another seat's time).
    /// A match no hosted bot ever joined skips it: it is on every decision's path.
    fn run_only(&mut self, seat: Option<Seat>) {
        if !self.hosted {
            return;
        }
        for (index, slot) in self.seats.iter_mut().enumerate() {
            if let Some(hosted) = slot.connection.as_mut().and_then(|c| c.hosted.as_mut()) {
                hosted.set_frozen(seat.is_none_or(|seat| seat.index() != index));
            }
        }
    }

    /// Counts a failure of `seat`, and keeps it for a hosted match's report, with the
    /// observation its bot had when the failure concerns a decision (an illegal answer, a time
    /// out).
    fn fail(&mut self, seat: Seat, kind: FailureKind, answer: Option<String>, error: String) {
        self.registry.stats().failure(self.origin, kind);
        if self.report.is_none() || self.seats[seat.index()].failures.len() >= MAX_FAILURES_KEPT {
            return;
        }
        let observation_json = matches!(kind, FailureKind::Illegal | FailureKind::Timeout)
            .then(|| serde_json::to_string(&self.state.observation(seat)).ok())
            .flatten();
        let failure = NewFailure { seat: seat.0, kind, observation_json, answer, error };
        self.seats[seat.index()].failures.push(failure);
    }

    fn send_error(&mut self, seat: Seat, error: pb::ActError) {
        let refused = [pb::ActErrorCode::IllegalAction as i32, pb::ActErrorCode::Malformed as i32];
        if refused.contains(&error.code) {
            self.seats[seat.index()].refused += 1;
        }
        self.send(seat, pb::server_message::Message::Error(error));
    }

    /// Sends to a seat's connection without waiting; a bot too far behind is disconnected,
    /// its stream ended with RESOURCE_EXHAUSTED (the last place in its buffer is kept for that
    /// status). Returns whether the message was handed to a connection.
    fn send(&mut self, seat: Seat, message: pb::server_message::Message) -> bool {
        if self.seats[seat.index()].connection.is_none() {
            return false;
        }
        self.send_frame(seat, ServerFrame::message(&pb::ServerMessage { message: Some(message) }))
    }

    /// [`Self::send`] for a message already encoded.
    fn send_frame(&mut self, seat: Seat, frame: ServerFrame) -> bool {
        let Some(connection) = &self.seats[seat.index()].connection else { return false };
        match send_or_cut(&connection.tx, frame, "bot", "rejoin with your seat token") {
            Sent::Delivered => return true,
            // The stream is gone; its end is on its way to this task.
            Sent::Gone => {}
            Sent::Behind => warn!(%seat, "bot is not reading: disconnected"),
        }
        self.disconnect(seat);
        false
    }

    fn broadcast(&mut self, events: &[G::Event]) {
        if events.is_empty() {
            return;
        }
        for slot in self.seats.iter_mut().filter(|_| self.text) {
            if slot.connection.as_ref().is_some_and(|c| c.text) {
                slot.recent.extend(events.iter().map(G::event_line));
                let over = slot.recent.len().saturating_sub(RECENT_LINES);
                slot.recent.drain(..over);
            }
        }
        let listening = |slot: &SeatSlot| slot.connection.as_ref().is_some_and(|c| !c.omit.events);
        if self.watchers.is_empty() && !self.seats.iter().any(listening) {
            return;
        }
        let events: Vec<pb::Event> = events.iter().map(G::event_to_pb).collect();
        let mut without_json: Option<Vec<pb::Event>> = None;
        for seat in 0..self.seats.len() {
            let Some(connection) = &self.seats[seat].connection else { continue };
            // A text seat (a person's page) redraws its table at every move: its observation
            // comes with the events. Only text seats pay for it.
            let observation = (connection.text && !connection.omit.events).then(|| {
                G::observation_to_pb(&self.state.observation(Seat(seat as u8)), &connection.omit)
            });
            let events = match connection.omit {
                pb::Omit { events: true, .. } => continue,
                pb::Omit { json: true, .. } => without_json
                    .get_or_insert_with(|| {
                        let mut events = events.clone();
                        events.iter_mut().for_each(|event| event.json.clear());
                        events
                    })
                    .clone(),
                _ => events.clone(),
            };
            let message = pb::Events { events, observation };
            self.send(Seat(seat as u8), pb::server_message::Message::Events(message));
        }
        if !self.watchers.is_empty() {
            let message = pb::WatchMessage { events, public_json: self.public_json(), end: None };
            self.watchers.retain(|tx| watch_send(tx, message.clone()));
        }
    }

    fn public_json(&self) -> String {
        serde_json::to_string(&self.state.public_view()).unwrap_or_default()
    }

    /// Final standings: the engine's, with forfeited seats moved after everyone else.
    fn standings(&self) -> Vec<pb::Standing> {
        let forfeited: Vec<bool> = self.seats.iter().map(|s| s.forfeited).collect();
        final_standings(self.state.standings(), &forfeited)
    }

    /// The match's status (`GetMatch`), with `end` once it is over.
    fn info(&self, end: Option<pb::MatchEnd>) -> pb::MatchInfo {
        pb::MatchInfo {
            match_id: self.id.clone(),
            game: G::PB as i32,
            options_json: self.state.options_json(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| pb::SeatInfo {
                    seat: i as u32,
                    bot_name: s.bot_name.clone(),
                    connected: s.connection.is_some(),
                    strikes: self.clock.strikes(Seat(i as u8)),
                    forfeited: s.forfeited,
                    refused: s.refused,
                    think_us: s.think_us.clone(),
                })
                .collect(),
            over: end.is_some(),
            end,
        }
    }

    /// A hosted match's end: each seat's bot, version, place and failures, and the record.
    fn hosted_end(&mut self, end: &pb::MatchEnd, record: Option<&AnyRecord>) -> HostedEnd {
        let seats = self
            .seats
            .iter_mut()
            .enumerate()
            .map(|(seat, slot)| {
                let standing = end.standings.iter().find(|s| s.seat as usize == seat);
                let hosted = slot.connection.as_ref().and_then(|c| c.hosted.as_ref());
                let output = hosted.map(SeatControl::take_output).or(slot.output.take());
                HostedSeat {
                    bot_name: slot.bot_name.clone(),
                    version: slot.bot_version.clone(),
                    place: standing.map_or(0, |s| u8::try_from(s.place).unwrap_or(u8::MAX)),
                    forfeited: slot.forfeited,
                    failures: std::mem::take(&mut slot.failures),
                    think: ThinkSummary::from_micros(&slot.think_us),
                    output,
                }
            })
            .collect();
        HostedEnd {
            match_id: self.id.clone(),
            aborted: end.aborted,
            reason: end.reason.clone(),
            seats,
            record_json: record.map(AnyRecord::to_json),
        }
    }

    /// Why the match ended, in one line: the rule that ended it (the engine's
    /// `Game::end_reason`), the forfeits that did or that came before, or the shutdown.
    fn end_reason(&self, aborted: bool) -> String {
        let forfeits: Vec<&str> =
            self.seats.iter().filter_map(|s| s.forfeit_reason.as_deref()).collect();
        let rules = self.state.end_reason();
        let mut reason = match (aborted, rules) {
            (true, _) => "aborted: the server is shutting down".to_owned(),
            (false, Some(rules)) => rules,
            (false, None) if !forfeits.is_empty() => "the match ended by forfeit".to_owned(),
            (false, None) => "the match is over".to_owned(),
        };
        for forfeit in forfeits {
            reason.push_str("; ");
            reason.push_str(forfeit);
        }
        reason
    }

    async fn finish(mut self: Box<Self>, aborted: bool) {
        let reason = self.end_reason(aborted);
        let end = pb::MatchEnd { standings: self.standings(), aborted, reason };
        info!(aborted, reason = %end.reason, "match ended");
        // Filed first (record written, status kept), then told: whoever hears the end can ask
        // for the record and the final status at once. The record says why it ended (PGN's
        // Termination): the rule, or what ended it outside the rules.
        let comments = std::mem::take(&mut self.comments);
        let record = self.state.record().map(AnyRecord::from).map(|mut record| {
            record.set_termination(Some(end.reason.clone()));
            record.set_comments(comments);
            record
        });
        let tokens = self.seats.iter().map(|s| s.token.clone()).collect();
        // A hosted match's report sums up the think times before the final status takes them.
        let hosted =
            self.report.take().map(|report| (report, self.hosted_end(&end, record.as_ref())));
        // The think times grow with the match: the final status takes them over, not a copy.
        let think: Vec<Vec<u32>> =
            self.seats.iter_mut().map(|slot| std::mem::take(&mut slot.think_us)).collect();
        let mut info = self.info(Some(end.clone()));
        for (seat, think_us) in info.seats.iter_mut().zip(think) {
            seat.think_us = think_us;
        }
        if let Some((report, hosted_end)) = hosted {
            let _ = report.send(hosted_end);
        }
        let finished = Finished { info, record, tokens };
        // Boxed: the filing's future (1 KB) is made once, at the end, rather than reserved in
        // every running match's task.
        Box::pin(self.registry.finished(&self.id, finished)).await;
        // Over by the rules unless a forfeit ended it first.
        self.counted.end(if aborted {
            MatchEnd::Aborted
        } else if self.state.to_act().is_none() {
            MatchEnd::Rules
        } else {
            MatchEnd::Forfeit
        });
        for seat in 0..self.seats.len() {
            // A hosted bot runs again to read its end and join again.
            let connection = self.seats[seat].connection.as_mut();
            if let Some(hosted) = connection.and_then(|c| c.hosted.as_mut()) {
                hosted.set_frozen(false);
            }
            self.send(Seat(seat as u8), pb::server_message::Message::End(end.clone()));
        }
        let last = pb::WatchMessage {
            events: Vec::new(),
            public_json: self.public_json(),
            end: Some(end),
        };
        for watcher in &self.watchers {
            watch_send(watcher, last.clone());
        }
        answer_after_end(&mut self.commands, &last, || self.registry.finished_info(&self.id));
    }
}

/// Answers the commands that came while the match ended, and closes `commands`: a spectator
/// gets `last` (the view and the end), a status request the final status `finished` gives (filed
/// before this), and a bot's connection is dropped. Whoever sends later is refused, and reads the
/// final status from the registry: nobody asking as a match ends goes unanswered.
fn answer_after_end(
    commands: &mut mpsc::Receiver<Command>,
    last: &pb::WatchMessage,
    finished: impl Fn() -> Option<pb::MatchInfo>,
) {
    commands.close();
    while let Ok(command) = commands.try_recv() {
        match command {
            Command::Watch { tx } => {
                watch_send(&tx, last.clone());
            }
            Command::Info { reply } => {
                if let Some(info) = finished() {
                    let _ = reply.send(info);
                }
            }
            Command::Connect(_) | Command::Revoke { .. } => {}
        }
    }
}

/// Sends to a spectator without waiting; returns whether the spectator is still served.
fn watch_send(tx: &WatchSender, message: pb::WatchMessage) -> bool {
    let hint = "Watch again for the current view";
    matches!(send_or_cut(tx, message, "spectator", hint), Sent::Delivered)
}

/// What became of a message handed to an outbound channel.
enum Sent {
    Delivered,
    /// The receiving stream is gone.
    Gone,
    /// The reader left the buffer full: its stream was ended with RESOURCE_EXHAUSTED.
    Behind,
}

/// Hands `message` to a bot's or spectator's channel without waiting. The channel's last place
/// is kept for the status that ends the stream of a reader who fell behind (RESOURCE_EXHAUSTED,
/// "`who` fell behind: N messages unread; `hint`"), so a stream the server cuts off can never
/// pass for a normal end.
fn send_or_cut<T>(tx: &mpsc::Sender<Result<T, Status>>, message: T, who: &str, hint: &str) -> Sent {
    if tx.capacity() > 1 {
        return if tx.try_send(Ok(message)).is_ok() { Sent::Delivered } else { Sent::Gone };
    }
    let unread = tx.max_capacity() - 1;
    let behind =
        Status::resource_exhausted(format!("{who} fell behind: {unread} messages unread; {hint}"));
    let _ = tx.try_send(Err(behind));
    Sent::Behind
}

#[cfg(test)]
mod tests {
    //! Whole matches under paused tokio time: nobody joins, so every decision waits out the
    //! reconnect grace, times out and strikes, exactly when the clock says.

    use super::*;
    use crate::config::Config;
    use crate::registry::MatchRequest;

    const GRACE: Duration = Duration::from_secs(5);

    fn registry() -> Registry {
        Registry::new(Config {
            move_time: Duration::from_secs(2),
            bank_time: Duration::from_secs(10),
            max_strikes: 3,
            reconnect_grace: GRACE,
            // A spectator that reads only at the end must not fall behind.
            outbound_buffer: 100_000,
            ..Config::default()
        })
    }

    /// Creates a match nobody joins, watches it to its end; returns the end, the final status
    /// and how long (in tokio's paused time) the match took.
    async fn unattended(game: pb::Game, seats: u32) -> (pb::MatchEnd, pb::MatchInfo, Duration) {
        let registry = registry();
        let request = MatchRequest {
            game,
            options_json: String::new(),
            seats,
            seed: Some(11),
            clock: None,
            lobby_bots: Vec::new(),
            borrowed: Vec::new(),
        };
        let started = Instant::now();
        let (id, _) = registry.create_match(request).unwrap();
        let Ok(Ok(handle)) = registry.lookup(&id) else { panic!("the match runs") };
        let (tx, mut rx) = mpsc::channel(100_000);
        handle.commands.send(Command::Watch { tx }).await.unwrap();
        let end = loop {
            match rx.recv().await {
                Some(Ok(pb::WatchMessage { end: Some(end), .. })) => break end,
                Some(Ok(_)) => {}
                other => panic!("the spectator is served to the end, got {other:?}"),
            }
        };
        let took = started.elapsed();
        (end, registry.info(&id).await.unwrap(), took)
    }

    /// (strikes, forfeited) per seat.
    fn penalties(info: &pb::MatchInfo) -> Vec<(u32, bool)> {
        info.seats.iter().map(|s| (s.strikes, s.forfeited)).collect()
    }

    #[tokio::test(start_paused = true)]
    async fn an_absent_gin_seat_strikes_out_once_the_grace_is_over_and_loses_at_once() {
        let (end, info, took) = unattended(pb::Game::GinRummy, 2).await;
        // The grace is counted once, from the match's creation: every decision after it times
        // out at once, with no clock time added.
        assert_eq!(took, GRACE);
        assert!(!end.aborted);
        let penalties = penalties(&info);
        let out = penalties.iter().position(|&(_, forfeited)| forfeited).unwrap();
        assert_eq!(
            end.reason,
            format!("the match ended by forfeit; seat {out} forfeits after 3 strikes: placed last")
        );
        let other = 1 - out;
        assert_eq!(penalties[out], (3, true));
        assert!(penalties[other].0 < 3 && !penalties[other].1, "{penalties:?}");
        let places: Vec<(u32, u32, bool)> =
            end.standings.iter().map(|s| (s.seat, s.place, s.forfeited)).collect();
        assert_eq!(places, [(other as u32, 1, false), (out as u32, 2, true)]);
    }

    #[tokio::test(start_paused = true)]
    async fn absent_twenty_two_seats_forfeit_and_the_default_policy_plays_the_match_out() {
        let (end, info, took) = unattended(pb::Game::TwentyTwo, 3).await;
        assert_eq!(took, GRACE);
        // Twenty-Two plays on after forfeits: the engine ends it (TT-21), and the reason names
        // every forfeit.
        assert!(end.reason.starts_with("TT-21: "), "{}", end.reason);
        for seat in 0..3 {
            let forfeit = format!("seat {seat} forfeits after 3 strikes: placed last");
            assert!(end.reason.contains(&forfeit), "{}", end.reason);
        }
        assert_eq!(penalties(&info), [(3, true); 3]);
        assert!(end.standings.iter().all(|s| s.forfeited));
        let mut seats: Vec<u32> = end.standings.iter().map(|s| s.seat).collect();
        seats.sort_unstable();
        assert_eq!(seats, [0, 1, 2]);
    }

    /// What was asked of a match's task as the match ended, still queued when it stopped
    /// reading its commands, is answered from the end; what comes later is refused.
    #[tokio::test]
    async fn commands_that_came_as_the_match_ended_are_answered_from_its_end() {
        let (commands, mut queued) = mpsc::channel(8);
        let (watcher, mut watched) = mpsc::channel(8);
        commands.send(Command::Watch { tx: watcher }).await.unwrap();
        let (reply, answer) = oneshot::channel();
        commands.send(Command::Info { reply }).await.unwrap();
        let end = pb::MatchEnd { standings: Vec::new(), aborted: false, reason: "over".into() };
        let last =
            pb::WatchMessage { events: Vec::new(), public_json: "{}".into(), end: Some(end) };
        let info = pb::MatchInfo { match_id: "m1".into(), over: true, ..Default::default() };
        answer_after_end(&mut queued, &last, || Some(info.clone()));
        assert_eq!(watched.recv().await.unwrap().unwrap(), last);
        assert!(watched.recv().await.is_none(), "the end is the spectator's last message");
        assert_eq!(answer.await.unwrap(), info);
        let (reply, _) = oneshot::channel();
        assert!(commands.send(Command::Info { reply }).await.is_err(), "later ones are refused");
    }
}
