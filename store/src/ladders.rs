//! Hosted ladders as the store keeps them: the rows a ladder runner writes and the few it reads
//! back to schedule, rate and resume.
//!
//! The life of a match, each step one transaction:
//!
//! 1. A set is *planned* whole ([`Store::plan_set`](crate::Store::plan_set)): the set, its
//!    matches (one per seating of the deal) and their seats.
//! 2. A host *claims* a planned match ([`Store::claim_match`](crate::Store::claim_match)) with a
//!    lease (an owner and an expiry it renews); the claim carries the match's attempt number,
//!    the fencing token.
//! 3. Its result, record and failures are committed in one transaction
//!    ([`Store::finish_match`](crate::Store::finish_match)) that checks the claim: an owner
//!    whose lease was taken over (the attempt moved on) is refused and changes nothing.
//! 4. Sets are rated in set order ([`Store::rate_set`](crate::Store::rate_set)), each once.
//!
//! A match whose host died goes back to planned ([`Store::requeue_matches`]) and is played again
//! under a new attempt. A set one of whose matches cannot be played (a bot left) is *voided*
//! ([`Store::void_set`]) and never rated.
//!
//! [`Store::requeue_matches`]: crate::Store::requeue_matches
//! [`Store::void_set`]: crate::Store::void_set
//!
//! Seeds are `u64`s stored bit for bit in a signed 64-bit column.

use std::fmt;
use std::str::FromStr;

use crate::{BotId, StoreError};

/// A hosted ladder's id in its store.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LadderId(pub i64);

/// A ladder match's id in its store (not the server's match id, which each attempt has anew).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LadderMatchId(pub i64);

/// Implements `as_str`, `Display` and `FromStr` for a stored enum from its variants' names.
macro_rules! stored_enum {
    ($ty:ident, $what:literal, { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every variant, in order.
            pub const ALL: &[$ty] = &[$($ty::$variant),+];

            /// The name stored and shown.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $ty {
            type Err = StoreError;

            fn from_str(text: &str) -> Result<$ty, StoreError> {
                match text {
                    $($name => Ok($ty::$variant),)+
                    other => Err(StoreError::Corrupt(format!(
                        concat!("unknown ", $what, " {:?}"),
                        other
                    ))),
                }
            }
        }
    };
}

/// Whether a ladder schedules matches.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LadderStatus {
    /// It plans and plays sets.
    Running,
    /// Its operator paused it: nothing new starts; running matches finish and are rated.
    Paused,
    /// Closed for good: its results stay, nothing is played any more.
    Closed,
}

stored_enum!(LadderStatus, "ladder status", {
    Running => "running",
    Paused => "paused",
    Closed => "closed",
});

/// A ladder's settings: what [`Store::create_ladder`](crate::Store::create_ladder) is given.
#[derive(Clone, Debug, PartialEq)]
pub struct NewLadder {
    /// Its unique name.
    pub name: String,
    /// The game's catalogue name (`twenty-two`, `gin`).
    pub game: String,
    /// The game's options, as JSON.
    pub options_json: String,
    /// Seats per match.
    pub table_seats: u8,
    /// The rating system's name (`weng_lin`, `glicko2`, `trueskill`).
    pub rating: String,
    /// Seeds every deal.
    pub seed: u64,
    /// A bot is provisional until this many of its sets are rated.
    pub provisional_sets: u32,
    /// The ladder file as given (TOML), for the runner to read back on restart.
    pub config: String,
}

/// A stored ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    /// Its id.
    pub id: LadderId,
    /// What it plays, as created (and its file, as last updated).
    pub spec: NewLadder,
    /// Whether it runs.
    pub status: LadderStatus,
    /// Why it has its status, when an operator said.
    pub status_reason: Option<String>,
    /// When it was created, in milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// When its status last changed.
    pub status_ms: i64,
}

/// A rating as stored: a mean, its standard deviation and (Glicko-2) a volatility.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct StoredRating {
    /// The mean.
    pub mean: f64,
    /// Its standard deviation.
    pub sigma: f64,
    /// Glicko-2's volatility; 0 otherwise.
    pub volatility: f64,
}

/// A bot in a ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderBot {
    /// The bot.
    pub bot: BotId,
    /// Its registered name.
    pub name: String,
    /// When it entered the ladder.
    pub joined_ms: i64,
    /// Its rating after the last set rated.
    pub rating: StoredRating,
    /// Its sets rated so far (provisional while fewer than the ladder's `provisional_sets`).
    pub sets_rated: u32,
    /// Why it is paused (its matches kept failing, or an operator said), while it is.
    pub paused_reason: Option<String>,
    /// When it was paused, while it is.
    pub paused_ms: Option<i64>,
}

impl LadderBot {
    /// Whether it is still provisional in a ladder that wants `provisional_sets` rated sets.
    pub fn is_provisional(&self, provisional_sets: u32) -> bool {
        self.sets_rated < provisional_sets
    }
}

/// One match of a set to plan: a seating of the set's deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMatch {
    /// The seating's number in its set (0, 1, …).
    pub rotation: u32,
    /// The deal's seed.
    pub seed: u64,
    /// The bot in each seat, seat 0 first.
    pub seats: Vec<BotId>,
}

/// A duplicate set to plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewSet {
    /// Its index in the ladder: 0 for the first set, then one more each (a set planned under
    /// an index already taken is refused, so two planners never plan the same set twice).
    pub index: u64,
    /// The deal's seed.
    pub seed: u64,
    /// The table's bots, in table order.
    pub bots: Vec<BotId>,
    /// Its matches.
    pub matches: Vec<NewMatch>,
}

/// Where a set is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SetState {
    /// Planned; its matches are being played (or all are done and it waits to be rated).
    Open,
    /// Every match done and the rating updated.
    Rated,
    /// One of its matches could not be played: never rated.
    Void,
}

stored_enum!(SetState, "set state", {
    Open => "open",
    Rated => "rated",
    Void => "void",
});

/// Where a ladder match is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MatchState {
    /// Waiting for a host to claim it.
    Planned,
    /// Claimed by a host, under a lease.
    Running,
    /// Played: its result is stored.
    Done,
    /// Its set was voided before it was played.
    Void,
}

stored_enum!(MatchState, "match state", {
    Planned => "planned",
    Running => "running",
    Done => "done",
    Void => "void",
});

/// What went wrong for one bot in a match.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FailureKind {
    /// Its connection died (or it never came) during the match.
    Crash,
    /// It forfeited (out of strikes).
    Forfeit,
    /// It answered an illegal or malformed action.
    Illegal,
    /// It ran out of time for a decision.
    Timeout,
}

stored_enum!(FailureKind, "failure kind", {
    Crash => "crash",
    Forfeit => "forfeit",
    Illegal => "illegal",
    Timeout => "timeout",
});

/// One seat of a ladder match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSeat {
    /// The seat's index.
    pub seat: u8,
    /// The bot planned there.
    pub bot: BotId,
    /// The version the bot reported when it played (once done).
    pub version: Option<String>,
    /// Its place (1 is first; ties share), once done.
    pub place: Option<u8>,
    /// Whether it forfeited, once done.
    pub forfeited: bool,
    /// The first kind of failure it had in the match, if any.
    pub failure: Option<FailureKind>,
}

/// A stored ladder match.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderMatch {
    /// Its id.
    pub id: LadderMatchId,
    /// Its ladder.
    pub ladder: LadderId,
    /// Its set's index.
    pub set_index: u64,
    /// Its seating's number in the set.
    pub rotation: u32,
    /// The deal's seed.
    pub seed: u64,
    /// Where it is.
    pub state: MatchState,
    /// Its seats, seat 0 first.
    pub seats: Vec<MatchSeat>,
    /// How many times it was claimed.
    pub attempt: u32,
    /// The host playing it, while running.
    pub lease_owner: Option<String>,
    /// Until when the host's lease holds, while running.
    pub lease_until_ms: Option<i64>,
    /// The server's id of the match that played it (the last attempt's).
    pub server_match_id: Option<String>,
    /// When it was planned.
    pub planned_ms: i64,
    /// When its last attempt started.
    pub started_ms: Option<i64>,
    /// When it finished.
    pub finished_ms: Option<i64>,
}

/// A stored set with its matches.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderSet {
    /// Its ladder.
    pub ladder: LadderId,
    /// Its index.
    pub index: u64,
    /// The deal's seed.
    pub seed: u64,
    /// The table's bots, in table order.
    pub bots: Vec<BotId>,
    /// Where it is.
    pub state: SetState,
    /// Why it was voided.
    pub void_reason: Option<String>,
    /// When it was planned.
    pub planned_ms: i64,
    /// Its matches, by rotation.
    pub matches: Vec<LadderMatch>,
}

impl LadderSet {
    /// Whether every match is done (the set can be rated).
    pub fn is_complete(&self) -> bool {
        !self.matches.is_empty() && self.matches.iter().all(|m| m.state == MatchState::Done)
    }
}

/// A host's lease on the matches it plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    /// Who holds it: one server process's run id.
    pub owner: String,
    /// Until when, in milliseconds since the Unix epoch (the host renews it).
    pub until_ms: i64,
}

/// A claimed match: what a host must show to commit its result or give it back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The match.
    pub id: LadderMatchId,
    /// The host.
    pub owner: String,
    /// The attempt claimed: the fencing token (a newer claim has a higher one).
    pub attempt: u32,
}

/// One seat's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatResult {
    /// The seat.
    pub seat: u8,
    /// The version its bot reported.
    pub version: String,
    /// Its place (1 is first).
    pub place: u8,
    /// Whether it forfeited.
    pub forfeited: bool,
    /// Its bot's think times, one per decision it made (none stored when it made none).
    pub think: crate::ThinkSummary,
}

/// The outputs kept of a bot in a ladder: its last this many hosted matches' (older ones are
/// dropped as a new one is kept).
pub const OUTPUTS_KEPT: i64 = 100;

/// Migration 13, the same in both dialects: a hosted bot's stdout and stderr in each of its
/// matches (capped by its runner), for its author.
pub(crate) const OUTPUTS_MIGRATION: &str = "CREATE TABLE ladder_outputs (
        ladder_id BIGINT NOT NULL,
        match_id BIGINT NOT NULL,
        bot_id BIGINT NOT NULL,
        output TEXT NOT NULL,
        PRIMARY KEY (match_id, bot_id)
    );
    CREATE INDEX ladder_outputs_by_bot ON ladder_outputs (ladder_id, bot_id, match_id);";

/// Keeps `output` as the one of `bot` in `match_id`, and drops that bot's outputs in the ladder
/// past the last [`OUTPUTS_KEPT`]: the statements, in both dialects' placeholders.
pub(crate) const KEEP_OUTPUT: [&str; 2] = [
    "INSERT INTO ladder_outputs (ladder_id, match_id, bot_id, output) VALUES ($1, $2, $3, $4)
     ON CONFLICT (match_id, bot_id) DO UPDATE SET output = excluded.output",
    "DELETE FROM ladder_outputs WHERE ladder_id = $1 AND bot_id = $2 AND match_id <= (
         SELECT match_id FROM ladder_outputs WHERE ladder_id = $1 AND bot_id = $2
         ORDER BY match_id DESC LIMIT 1 OFFSET $3)",
];

/// The ladder, match and bot that [`Store::keep_output_by_server_id`] keeps an output for: the
/// ladder match a server match played, by its server id ($1), and the bot by its name ($2).
/// (SQLite numbers `$N` parameters in the order they first appear: $1 comes first.)
///
/// [`Store::keep_output_by_server_id`]: crate::Store::keep_output_by_server_id
pub(crate) const OUTPUT_OF_SERVER_MATCH: &str = "SELECT m.ladder_id, m.id, b.id
     FROM ladder_matches m, bots b WHERE m.server_match_id = $1 AND b.name = $2";

/// One failure of a bot in a match, with what its author needs to see why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewFailure {
    /// The seat.
    pub seat: u8,
    /// What went wrong.
    pub kind: FailureKind,
    /// The observation the bot had (the engine's JSON), when there was a decision.
    pub observation_json: Option<String>,
    /// What it answered (the action, as the server read it), if anything.
    pub answer: Option<String>,
    /// The error, in words (the rule broken, the time limit, the connection's end).
    pub error: String,
}

/// A played match's result, committed under its claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResult {
    /// The claim it was played under.
    pub claim: Claim,
    /// The server's match id.
    pub server_match_id: String,
    /// Every seat's result.
    pub seats: Vec<SeatResult>,
    /// The record (JSON, tagged by game), if the match made one.
    pub record_json: Option<String>,
    /// Its failures, in order.
    pub failures: Vec<NewFailure>,
}

/// One bot's rating change in a set's update.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RatingUpdate {
    /// The bot.
    pub bot: BotId,
    /// Its rating before.
    pub before: StoredRating,
    /// Its rating after.
    pub after: StoredRating,
}

/// A stored rating change.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChangeRow {
    /// The ladder's update number (1, 2, …), one per rated set.
    pub seq: u64,
    /// The set rated.
    pub set_index: u64,
    /// The change.
    pub update: RatingUpdate,
    /// When.
    pub at_ms: i64,
}

/// A stored failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailureRow {
    /// Its id.
    pub id: i64,
    /// The match.
    pub match_id: LadderMatchId,
    /// The bot.
    pub bot: BotId,
    /// The version it played.
    pub version: String,
    /// The failure.
    pub failure: NewFailure,
    /// When it was stored.
    pub at_ms: i64,
    /// A hosted bot's stdout and stderr in that match, while kept ([`OUTPUTS_KEPT`]).
    pub output: Option<String>,
}

/// One finished match of a bot, as the health check sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatOutcome {
    /// The match.
    pub match_id: LadderMatchId,
    /// When it finished.
    pub finished_ms: i64,
    /// The first kind of failure the bot had in it.
    pub failure: Option<FailureKind>,
}

/// Which running matches [`Store::requeue_matches`](crate::Store::requeue_matches) returns to
/// planned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Requeue {
    /// Those whose lease has expired (many hosts: a host that stopped renewing is dead).
    Expired,
    /// Every one not owned by this owner (one host, at its start: any other owner is a
    /// previous run of itself).
    NotOwnedBy(String),
    /// Those whose owner has no node row seen since `seen_since_ms` (many nodes: the node that
    /// hosted them stopped its heartbeat, so it is dead; its leases need not run out first).
    OwnerGone {
        /// The oldest heartbeat of a node taken as alive, in milliseconds since the epoch.
        seen_since_ms: i64,
    },
}
