//! cardroom's storage: one interface, [`Store`], behind the server's bot accounts, with SQLite
//! ([`SqliteStore`]) as its embedded default and PostgreSQL ([`PgStore`]) for many server nodes
//! on one database.
//!
//! Every method is async and is one transaction, takes the time from its caller (no database clock), and speaks
//! in plain structs, never in a backend's types. Keys never reach a backend: [`Accounts`] makes
//! them, shows them once, and hands the store only their SHA-256 ([`KeyHash`]).
//!
//! ```
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! let store = cardroom_store::open("sqlite::memory:").await?;
//! let accounts = cardroom_store::Accounts::new(store);
//! let issued = accounts.register("alice").await?;
//! let alice = accounts.authenticate("alice", Some(issued.key.expose()), false).await?;
//! assert_eq!(alice.map(|bot| bot.name), Some("alice".to_owned()));
//! # Ok(()) }
//! ```

mod accounts;
mod archive;
mod authors;
mod echo;
mod json_column;
mod keys;
mod ladders;
mod latency;
mod nodes;
mod postgres;
mod postgres_ladders;
mod postgres_nodes;
mod postgres_reads;
mod postgres_scrimmages;
mod postgres_seasons;
mod postgres_standings;
mod postgres_submissions;
mod postgres_tls;
mod reads;
mod scrimmages;
mod seasons;
mod sqlite;
mod sqlite_ladders;
mod sqlite_nodes;
mod sqlite_reads;
mod sqlite_seasons;
mod sqlite_standings;
mod sqlite_submissions;
mod standings;
mod submissions;
pub mod testing;
mod think;

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

pub use accounts::{
    AUTHOR_TOKEN_PREFIX, AccountError, Accounts, AuthError, BotName, INVITE_PREFIX,
    IssuedAuthorToken, IssuedInvite, IssuedKey, MAX_NAME_BYTES, MAX_RUN_BYTES, MAX_RUN_WORDS,
    SubmitError,
};
pub use archive::{
    ArchiveError, ArchiveLimits, CheckedArchive, check_archive, pack_dir, sha256_hex,
    unpack_archive,
};
pub use authors::{Author, AuthorId, InviteRefusal};
pub use echo::{ECHO_BYTES, Echo};
pub use keys::{BotKey, KeyHash};
pub use ladders::{
    Claim, FailureKind, FailureRow, Ladder, LadderBot, LadderId, LadderMatch, LadderMatchId,
    LadderSet, LadderStatus, Lease, MatchResult, MatchSeat, MatchState, NewFailure, NewLadder,
    NewMatch, NewSet, OUTPUTS_KEPT, RatingChangeRow, RatingUpdate, Requeue, SeatOutcome,
    SeatResult, SetState, StoredRating,
};
pub use latency::StoreLatency;
pub use nodes::{
    ClaimLimit, ElsewhereQuery, FinishedCursor, FinishedElsewhere, FinishedQuery, FinishedSeat,
    NODE_TTL, NodeBeat, NodeRow, RunningCursor, RunningElsewhere,
};
pub use postgres::PgStore;
pub use reads::{BotHealth, HeadToHead, LadderVersion, LeaderboardLine};
pub use scrimmages::{
    QUOTA_WINDOW_MS, Scrimmage, ScrimmageId, ScrimmageMatch, ScrimmageResults, ScrimmageSeat,
    ScrimmageState,
};
pub use seasons::{
    EventScope, EventsFrom, Finalists, NewSeason, NewSeasonEvent, RankedBot, SEASON_EVENTS_READ,
    Season, SeasonChange, SeasonCursor, SeasonEvent, SeasonEventKind, SeasonId, SeasonOutcome,
    SeasonState,
};
pub use sqlite::SqliteStore;
pub use standings::{SprtStanding, Standings, StandingsRow, leaderboard_order};
pub use submissions::{
    ARCHIVES_KEPT, NewSubmission, SUBMISSIONS_LISTED, Submission, Submitted, SubmittedBy,
};
pub use think::{THINK_BUCKETS, ThinkSummary, VersionThink};

/// A bot account's id in its store.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BotId(pub i64);

/// Whether a bot may play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BotStatus {
    /// Its key is valid.
    Active,
    /// Its key was revoked: the bot's name is still taken, and it plays again only with a new
    /// key (rotating it).
    Revoked,
}

impl BotStatus {
    /// The status as stored and shown: `active` or `revoked`.
    pub fn as_str(self) -> &'static str {
        match self {
            BotStatus::Active => "active",
            BotStatus::Revoked => "revoked",
        }
    }
}

impl fmt::Display for BotStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A registered bot, as everyone may see it (no key, no hash).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotAccount {
    /// Its id.
    pub id: BotId,
    /// Its name: the lobby name it plays under.
    pub name: String,
    /// Whether it may play.
    pub status: BotStatus,
    /// When it was registered, in milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// When its current key was issued (registration or the last rotation).
    pub key_issued_ms: i64,
    /// When its key was revoked, while it is.
    pub revoked_ms: Option<i64>,
    /// The author who owns it, if an author added it (the organizer's bots have none).
    pub author: Option<String>,
}

/// A bot account with the hash of its key, for checking a key presented for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotCredential {
    /// The account.
    pub account: BotAccount,
    /// Its key's hash; `None` while revoked.
    pub key_hash: Option<KeyHash>,
}

/// The columns of a `bots` row, as every backend reads them (`ACCOUNT_COLUMNS`).
pub(crate) struct AccountRow {
    pub(crate) id: i64,
    pub(crate) name: String,
    pub(crate) created_ms: i64,
    pub(crate) key_issued_ms: i64,
    pub(crate) revoked_ms: Option<i64>,
    pub(crate) key_hash: Option<Vec<u8>>,
    pub(crate) author: Option<String>,
}

impl AccountRow {
    /// The account and its hash.
    pub(crate) fn into_credential(self) -> BotCredential {
        let account = BotAccount {
            id: BotId(self.id),
            name: self.name,
            status: if self.revoked_ms.is_some() { BotStatus::Revoked } else { BotStatus::Active },
            created_ms: self.created_ms,
            key_issued_ms: self.key_issued_ms,
            revoked_ms: self.revoked_ms,
            author: self.author,
        };
        // A revoked bot's hash is gone; a stored hash of another length matches no key.
        let key_hash = self.key_hash.as_deref().and_then(KeyHash::from_slice);
        BotCredential { account, key_hash }
    }
}

/// The versions a store keeps of each bot: the ones last seen. A bot that reports a new
/// version at every join (a hash per build, or a flood) cannot grow its account's rows or
/// replies beyond this; the ones forgotten are counted ([`BotVersions::forgotten`]).
pub const VERSIONS_KEPT: usize = 16;

/// The versions a store keeps of a bot, and how many more it forgot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotVersions {
    /// At most [`VERSIONS_KEPT`], first seen first.
    pub kept: Vec<BotVersion>,
    /// Versions reported once and forgotten since, the least recently seen first out.
    pub forgotten: u64,
}

/// A version (a tag or a hash) a bot reported when it joined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotVersion {
    /// The version as the bot reported it.
    pub version: String,
    /// When the bot first joined with it, in milliseconds since the Unix epoch.
    pub first_seen_ms: i64,
    /// When the bot last joined with it (as noted: a server notes each version once per run).
    pub last_seen_ms: i64,
}

/// `error`'s message followed by each of its causes' that it does not already say: a pool's
/// "error performing TLS handshake" says which certificate check failed only in its causes.
fn with_causes(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        let said = next.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        cause = next.source();
    }
    text
}

/// Why storage failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database failed (its own message, with its causes).
    #[error("database: {}", with_causes(.0.as_ref()))]
    Backend(Box<dyn std::error::Error + Send + Sync>),
    /// The database holds a newer schema than this code knows.
    #[error("the database has schema version {found}, this cardroom knows up to {known}")]
    NewerSchema {
        /// The database's version.
        found: i64,
        /// The newest this code knows.
        known: i64,
    },
    /// The database holds an older schema than this code knows: its migrations are not done.
    #[error("the database has schema version {found}: its migrations up to {known} are not done")]
    SchemaBehind {
        /// The database's version.
        found: i64,
        /// The version this code migrates to.
        known: i64,
    },
    /// A bot of this name is registered already.
    #[error("a bot named {} is registered already", Echo(.0))]
    NameTaken(String),
    /// No bot of this name is registered.
    #[error("no bot named {} is registered", Echo(.0))]
    NoSuchBot(String),
    /// An invite code was not redeemed.
    #[error("{0}")]
    Invite(InviteRefusal),
    /// An author of this name exists already.
    #[error("an author named {} exists already", Echo(.0))]
    AuthorNameTaken(String),
    /// An author asked for more scrimmages than a ladder allows an hour.
    #[error(
        "{asked} more scrimmage(s) would pass the ladder's quota of {quota} an hour ({used} in \
         the last hour): the next may be asked for in {} s",
        (retry_after_ms + 999) / 1000
    )]
    OverQuota {
        /// Asked for in the last hour.
        used: u32,
        /// Asked for now.
        asked: u32,
        /// The quota.
        quota: u32,
        /// How long until one more fits.
        retry_after_ms: i64,
    },
    /// The store's address is not one this build opens.
    #[error(
        "the store {0:?} is not one cardroom opens: give sqlite:FILE (or sqlite::memory: for a store that \
         lives as long as the process) or postgres://USER@HOST[:PORT]/DATABASE"
    )]
    BadUrl(String),
    /// A PostgreSQL store's TLS, as its URL asks for it (`sslmode`, `sslrootcert`), cannot be
    /// set up: the reason.
    #[error("the store's TLS: {0}")]
    StoreTls(String),
    /// A ladder of this name exists already.
    #[error("a ladder named {} exists already", Echo(.0))]
    LadderExists(String),
    /// No such ladder.
    #[error("no ladder {}", Echo(.0))]
    NoSuchLadder(String),
    /// A closed ladder stays closed.
    #[error("the ladder {0:?} is closed: a closed ladder is never run again")]
    LadderClosed(String),
    /// The bot is not in the ladder.
    #[error("bot {bot} is not in ladder {ladder}")]
    NotInLadder {
        /// The ladder's id.
        ladder: i64,
        /// The bot's id.
        bot: i64,
    },
    /// A ladder write refused because the rows are not where the writer thought (a set index
    /// already planned, a match not claimable, a set rated out of order): nothing changed.
    #[error("refused: {0}")]
    Conflict(String),
    /// A claim that no longer holds (another host claimed the match since, or it was requeued):
    /// the result is refused and nothing changed.
    #[error("match {match_id}: the claim of {owner:?} (attempt {attempt}) no longer holds")]
    StaleClaim {
        /// The ladder match's id.
        match_id: i64,
        /// The owner who claimed.
        owner: String,
        /// The attempt it claimed.
        attempt: u32,
    },
    /// A call of a shared store (PostgreSQL) that took longer than its bound
    /// ([`StoreOptions::call_timeout`]): the database is out of reach, or stalled. Nothing is
    /// known of what the call did: a write may have committed or not.
    #[error(
        "the store's {operation} took longer than {} ms: the database is out of reach or stalled",
        .after.as_millis()
    )]
    Timeout {
        /// The `Store` method.
        operation: &'static str,
        /// Its bound.
        after: std::time::Duration,
    },
    /// A stored value this code cannot read.
    #[error("the store holds a value this cardroom cannot read: {0}")]
    Corrupt(String),
    /// The blocking task that ran the query died.
    #[error("the storage task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
}

/// Whether a database at schema version `found` is the one this code migrates to (`known`).
pub(crate) fn schema_is(found: i64, known: i64) -> Result<(), StoreError> {
    match found.cmp(&known) {
        std::cmp::Ordering::Equal => Ok(()),
        std::cmp::Ordering::Less => Err(StoreError::SchemaBehind { found, known }),
        std::cmp::Ordering::Greater => Err(StoreError::NewerSchema { found, known }),
    }
}

/// The storage interface: bot accounts and the versions they report.
///
/// Every method is one transaction (a write commits whole or not at all), takes any time it
/// writes from its caller, and returns plain structs: a PostgreSQL implementation fits behind
/// it as SQLite does. Reads of what everyone may see return [`BotAccount`]s, never hashes.
#[async_trait::async_trait]
pub trait Store: fmt::Debug + Send + Sync + 'static {
    /// Registers `name` with the hash of its first key. [`StoreError::NameTaken`] if the name
    /// is registered, revoked or not.
    async fn register_bot(
        &self,
        name: &str,
        key_hash: KeyHash,
        now_ms: i64,
    ) -> Result<BotAccount, StoreError> {
        self.register_bot_of(name, key_hash, None, now_ms).await
    }

    /// Registers `name` as [`Store::register_bot`] does, owned by `author` if given.
    async fn register_bot_of(
        &self,
        name: &str,
        key_hash: KeyHash,
        author: Option<AuthorId>,
        now_ms: i64,
    ) -> Result<BotAccount, StoreError>;

    // Authors (see the `authors` module's docs).

    /// Stores an invite code's hash, good until `expires_ms`.
    async fn create_invite(
        &self,
        code_hash: KeyHash,
        now_ms: i64,
        expires_ms: i64,
    ) -> Result<(), StoreError>;

    /// Redeems the invite `code_hash` for a new author `name` whose token has `token_hash`, in
    /// one transaction: [`StoreError::Invite`] for a code unknown, used or expired,
    /// [`StoreError::AuthorNameTaken`] for a name taken (the code stays unused).
    async fn redeem_invite(
        &self,
        code_hash: KeyHash,
        name: &str,
        token_hash: KeyHash,
        now_ms: i64,
    ) -> Result<Author, StoreError>;

    /// Replaces `author`'s token hash: the old token stops working at once.
    async fn replace_author_token(
        &self,
        author: AuthorId,
        token_hash: KeyHash,
        now_ms: i64,
    ) -> Result<Author, StoreError>;

    /// The author whose token has this hash, if any.
    async fn author_by_token(&self, token_hash: &KeyHash) -> Result<Option<Author>, StoreError>;

    /// The author `name` and its bots, by name, if there is one.
    async fn author(&self, name: &str) -> Result<Option<(Author, Vec<BotAccount>)>, StoreError>;

    // Scrimmages (see the `scrimmages` module's docs).

    /// Stores `tables` (each a table and its seed) as `author`'s pending scrimmages in `ladder`,
    /// unless they pass `quota` an hour with the author's others ([`StoreError::OverQuota`]).
    async fn request_scrimmages(
        &self,
        ladder: LadderId,
        author: AuthorId,
        tables: &[(Vec<BotId>, u64)],
        quota: u32,
        now_ms: i64,
    ) -> Result<Vec<ScrimmageId>, StoreError>;

    /// `ladder`'s scrimmages in `state`, oldest first.
    async fn ladder_scrimmages(
        &self,
        ladder: LadderId,
        state: ScrimmageState,
    ) -> Result<Vec<Scrimmage>, StoreError>;

    /// Marks a pending scrimmage running for `owner` (a node's lease owner name); false if it
    /// was not pending.
    async fn start_scrimmage(&self, id: ScrimmageId, owner: &str) -> Result<bool, StoreError>;

    /// Ends a scrimmage as `state` (done or failed) with its results (JSON).
    async fn end_scrimmage(
        &self,
        id: ScrimmageId,
        state: ScrimmageState,
        results: &str,
        now_ms: i64,
    ) -> Result<(), StoreError>;

    /// Returns `ladder`'s running scrimmages of owners other than `owner` (a leader that went
    /// away) to pending; how many.
    async fn requeue_scrimmages(&self, ladder: LadderId, owner: &str) -> Result<u64, StoreError>;

    /// `author`'s scrimmages, newest first, at most `limit`.
    async fn author_scrimmages(
        &self,
        author: AuthorId,
        limit: u32,
    ) -> Result<Vec<Scrimmage>, StoreError>;

    /// One scrimmage.
    async fn scrimmage(&self, id: ScrimmageId) -> Result<Option<Scrimmage>, StoreError>;

    // Seasons (see the `seasons` module's docs).

    /// Makes the season `season`, or gives one still before its deadline its new file, ladders
    /// and deadline (and the state open again, so that a later deadline gets its notice
    /// again), noting `event` in it, in one transaction. [`StoreError::Conflict`] for a season
    /// past its deadline.
    async fn put_season(
        &self,
        season: &NewSeason,
        event: &NewSeasonEvent,
        now_ms: i64,
    ) -> Result<Season, StoreError>;

    /// The season `name`, if there is one.
    async fn season(&self, name: &str) -> Result<Option<Season>, StoreError>;

    /// Every season, oldest first.
    async fn seasons(&self) -> Result<Vec<Season>, StoreError>;

    /// Moves a season in one of `from` to `to`, setting `change`, and notes `event` in it, in
    /// one transaction: false, and nothing written, if it was in none of `from`.
    async fn advance_season(
        &self,
        id: SeasonId,
        from: &[SeasonState],
        to: SeasonState,
        change: &SeasonChange,
        event: &NewSeasonEvent,
        now_ms: i64,
    ) -> Result<bool, StoreError>;

    /// Notes `event` in every season of `scope`; how many.
    async fn note_season_event(
        &self,
        scope: EventScope,
        event: &NewSeasonEvent,
        now_ms: i64,
    ) -> Result<u64, StoreError>;

    /// `season`'s events `from` a cursor or its newest, oldest first, at most `limit`: the
    /// public ones and `author`'s own.
    async fn season_events(
        &self,
        season: SeasonId,
        from: EventsFrom,
        author: Option<AuthorId>,
        limit: u32,
    ) -> Result<Vec<SeasonEvent>, StoreError>;

    /// Moves a season's `cursor` from `from` to `to`, noting `event` with it, in one
    /// transaction: false, and nothing written, if it was not at `from` (another node moved
    /// it meanwhile).
    async fn move_season_cursor(
        &self,
        id: SeasonId,
        cursor: SeasonCursor,
        from: i64,
        to: i64,
        event: Option<&NewSeasonEvent>,
        now_ms: i64,
    ) -> Result<bool, StoreError>;

    /// The seasons past their deadline at `now_ms` and not done that have a ladder `bot` is
    /// entered in: while there is one, the bot's versions are frozen.
    async fn frozen_seasons(&self, bot: BotId, now_ms: i64) -> Result<Vec<Season>, StoreError>;

    /// Replaces `name`'s key hash (the old key stops working) and makes it active again if it
    /// was revoked.
    async fn replace_key(
        &self,
        name: &str,
        key_hash: KeyHash,
        now_ms: i64,
    ) -> Result<BotAccount, StoreError>;

    /// Revokes `name`'s key: the bot cannot play until its key is replaced. Revoking a
    /// revoked bot changes nothing.
    async fn revoke_bot(&self, name: &str, now_ms: i64) -> Result<BotAccount, StoreError>;

    /// Every registered bot, by name.
    async fn bots(&self) -> Result<Vec<BotAccount>, StoreError>;

    /// `name`'s account and key hash, if registered.
    async fn bot_credential(&self, name: &str) -> Result<Option<BotCredential>, StoreError>;

    /// The active bot whose key has this hash, if any.
    async fn bot_by_key(&self, key_hash: &KeyHash) -> Result<Option<BotAccount>, StoreError>;

    /// Notes that `bot` joined reporting `version` at `now_ms`, in one transaction: beyond
    /// [`VERSIONS_KEPT`] versions the one least recently seen is forgotten (and counted).
    async fn note_version(&self, bot: BotId, version: &str, now_ms: i64) -> Result<(), StoreError>;

    /// The versions kept of `name`, first seen first, and how many it forgot.
    async fn bot_versions(&self, name: &str) -> Result<BotVersions, StoreError>;

    // Bot submissions (see the `submissions` module's docs).

    /// Stores a checked archive as `bot`'s newest submission and notes its SHA-256 as a version
    /// of `bot` (as [`Store::note_version`]), in one transaction. The same archive again is
    /// no second row: it becomes the newest, with this run command.
    async fn submit_bot(
        &self,
        bot: BotId,
        submission: &NewSubmission,
        now_ms: i64,
    ) -> Result<Submitted, StoreError>;

    /// `name`'s submissions, newest first (at most [`SUBMISSIONS_LISTED`]), without their
    /// archives. [`StoreError::NoSuchBot`] for a name not registered.
    async fn submissions(&self, name: &str) -> Result<Vec<Submission>, StoreError>;

    /// The newest submission of every bot whose key is not revoked, with the bot's name, by
    /// name: what a runner hosts, in one read.
    async fn newest_submissions(&self) -> Result<Vec<(String, Submission)>, StoreError>;

    /// `bot`'s newest submission and its archive, if it has one: what a runner starts.
    async fn newest_submission(
        &self,
        bot: BotId,
    ) -> Result<Option<(Submission, Vec<u8>)>, StoreError>;

    // Hosted ladders (see the `ladders` module's docs for a match's life).

    /// Creates a ladder, running. [`StoreError::LadderExists`] if the name is taken.
    async fn create_ladder(&self, ladder: &NewLadder, now_ms: i64) -> Result<Ladder, StoreError>;

    /// Every ladder, by name.
    async fn ladders(&self) -> Result<Vec<Ladder>, StoreError>;

    /// The ladder named `name`, if any.
    async fn ladder(&self, name: &str) -> Result<Option<Ladder>, StoreError>;

    /// Sets a ladder's status (with the operator's reason, if any). A closed ladder is refused
    /// ([`StoreError::LadderClosed`]) any status but closed: only [`Store::reopen_ladder`]
    /// runs it again.
    async fn set_ladder_status(
        &self,
        ladder: LadderId,
        status: LadderStatus,
        reason: Option<&str>,
        now_ms: i64,
    ) -> Result<Ladder, StoreError>;

    /// Runs a closed ladder again, its reason cleared: its file grew its budget (`max_sets`,
    /// `rounds`). A ladder not closed is left as it is.
    async fn reopen_ladder(&self, ladder: LadderId, now_ms: i64) -> Result<Ladder, StoreError>;

    /// Replaces a ladder's file and provisional threshold (the settings a restart may change;
    /// the runner refuses a change of game, options, table, seed or rating system).
    async fn update_ladder_config(
        &self,
        ladder: LadderId,
        provisional_sets: u32,
        config: &str,
    ) -> Result<Ladder, StoreError>;

    /// Enters `bot` in the ladder with `initial` as its rating; a bot already in it keeps its
    /// row (and rating). Returns the row.
    async fn enter_ladder(
        &self,
        ladder: LadderId,
        bot: BotId,
        initial: StoredRating,
        now_ms: i64,
    ) -> Result<LadderBot, StoreError>;

    /// The ladder's bots, by id.
    async fn ladder_bots(&self, ladder: LadderId) -> Result<Vec<LadderBot>, StoreError>;

    /// Pauses `bot` in the ladder with `reason` (it is not scheduled until resumed); a paused
    /// bot keeps its first reason.
    async fn pause_bot(
        &self,
        ladder: LadderId,
        bot: BotId,
        reason: &str,
        now_ms: i64,
    ) -> Result<LadderBot, StoreError>;

    /// Lifts `bot`'s pause in the ladder.
    async fn resume_bot(&self, ladder: LadderId, bot: BotId) -> Result<LadderBot, StoreError>;

    /// Plans a set whole: the set, its matches and their seats. [`StoreError::Conflict`] when
    /// its index is not the ladder's next (one more than the last planned, 0 for the first).
    async fn plan_set(
        &self,
        ladder: LadderId,
        set: &NewSet,
        now_ms: i64,
    ) -> Result<LadderSet, StoreError>;

    /// The number of sets planned in the ladder (so the next set's index).
    async fn set_count(&self, ladder: LadderId) -> Result<u64, StoreError>;

    /// The ladder's open sets (neither rated nor void), by index, with their matches.
    async fn open_sets(&self, ladder: LadderId) -> Result<Vec<LadderSet>, StoreError>;

    /// The ladder's rated sets, by index, with their matches: what a replay of the ratings
    /// reads.
    async fn rated_sets(&self, ladder: LadderId) -> Result<Vec<LadderSet>, StoreError>;

    /// Claims a match for `lease.owner`: planned, or running under a lease expired by
    /// `now_ms`. Its attempt grows by one. [`StoreError::Conflict`] if it is neither.
    async fn claim_match(
        &self,
        id: LadderMatchId,
        lease: &Lease,
        now_ms: i64,
    ) -> Result<Claim, StoreError>;

    /// Extends to `until_ms` the lease of every match `owner` holds; returns how many.
    async fn renew_leases(&self, owner: &str, until_ms: i64) -> Result<u64, StoreError>;

    /// Commits a played match: its seats' places, versions and failures, its record and the
    /// server's match id, in one transaction that checks the claim still holds (else
    /// [`StoreError::StaleClaim`], nothing written).
    async fn finish_match(&self, result: &MatchResult, now_ms: i64) -> Result<(), StoreError>;

    /// Gives a claimed match back, unplayed (it returns to planned). Fenced as
    /// [`Store::finish_match`].
    async fn release_match(&self, claim: &Claim) -> Result<(), StoreError>;

    /// Returns running matches to planned (see [`Requeue`]); returns how many.
    async fn requeue_matches(&self, which: &Requeue, now_ms: i64) -> Result<u64, StoreError>;

    /// Voids an open set: its matches not done are void, and it is never rated.
    /// [`StoreError::Conflict`] if it is not open or one of its matches is running.
    async fn void_set(
        &self,
        ladder: LadderId,
        index: u64,
        reason: &str,
        now_ms: i64,
    ) -> Result<(), StoreError>;

    /// Rates a complete set: stores each change (the ladder's next update number), sets each
    /// bot's rating and counts the set. [`StoreError::Conflict`] unless the set is open and
    /// complete and every set before it is rated or void (sets are rated in order, once).
    async fn rate_set(
        &self,
        ladder: LadderId,
        index: u64,
        updates: &[RatingUpdate],
        now_ms: i64,
    ) -> Result<(), StoreError>;

    /// The ladder's rating changes, in update order.
    async fn rating_changes(&self, ladder: LadderId) -> Result<Vec<RatingChangeRow>, StoreError>;

    /// `bot`'s last `limit` finished matches in the ladder, latest first, each with the first
    /// kind of failure it had.
    async fn recent_outcomes(
        &self,
        ladder: LadderId,
        bot: BotId,
        limit: u32,
    ) -> Result<Vec<SeatOutcome>, StoreError>;

    /// `bot`'s last `limit` failures in the ladder, latest first.
    async fn failures(
        &self,
        ladder: LadderId,
        bot: BotId,
        limit: u32,
    ) -> Result<Vec<FailureRow>, StoreError>;

    /// A ladder match's record, once it is done.
    async fn ladder_record(&self, id: LadderMatchId) -> Result<Option<String>, StoreError>;

    /// Keeps a hosted bot's stdout and stderr in a ladder match, for its author (read with
    /// its failures); only its last [`OUTPUTS_KEPT`] in the ladder stay.
    async fn keep_output(
        &self,
        ladder: LadderId,
        id: LadderMatchId,
        bot: BotId,
        output: &str,
    ) -> Result<(), StoreError>;

    /// Keeps `output` as the bot named `bot`'s in the ladder match that the server match
    /// `server_match_id` played (as [`Store::keep_output`] does), for the node that lent the
    /// bot and holds its process: it knows the match by its server id alone. False when no
    /// ladder match has that server id, or no bot that name.
    async fn keep_output_by_server_id(
        &self,
        server_match_id: &str,
        bot: &str,
        output: &str,
    ) -> Result<bool, StoreError>;

    // Many nodes on one store (see the `postgres` module's docs).

    /// Claims for `lease.owner` up to `limit.claims` of the ladder's claimable matches
    /// (planned, or running under a lease expired by `now_ms`) whose every seat's bot is in
    /// `ready` (the bots waiting in this node's lobby), earliest set first, and never so many
    /// that more than `limit.running` of the ladder's matches run (under leases that hold at
    /// `now_ms`, on any node): the count and the claims are one transaction, and claims of one
    /// ladder from many nodes take turns (PostgreSQL: a transaction's advisory lock), so the
    /// cap holds across nodes. Each claim's attempt grows by one, as [`Store::claim_match`]'s.
    /// Nodes claiming at once never claim the same match.
    async fn claim_ready(
        &self,
        ladder: LadderId,
        ready: &[BotId],
        lease: &Lease,
        now_ms: i64,
        limit: ClaimLimit,
    ) -> Result<Vec<Claim>, StoreError>;

    /// How many of the ladder's matches run at `now_ms`: claimed, by any node, under a lease
    /// that still holds.
    async fn running_matches(&self, ladder: LadderId, now_ms: i64) -> Result<u32, StoreError>;

    /// Tries to become, or checks that this handle still is, the one scheduler of `ladder`
    /// (who plans and rates its sets) among every node on the store. Cheap: a standby calls it
    /// every few hundred milliseconds and takes over when the leader goes. PostgreSQL: a
    /// session advisory lock on a connection of its own, released when the leader's process or
    /// connection dies; SQLite: one node has the file, so always `true`.
    async fn try_lead(&self, ladder: LadderId) -> Result<bool, StoreError>;

    /// Stops leading `ladder` (nothing if this handle does not lead it).
    async fn resign(&self, ladder: LadderId) -> Result<(), StoreError>;
    // Reads for the public read rpcs and the web pages (the `reads` module).

    /// Every bot of the ladder with its rating, sets rated, pause, matches done, wins and
    /// failures by kind, by bot id (unranked).
    async fn leaderboard(&self, ladder: LadderId) -> Result<Vec<LeaderboardLine>, StoreError>;

    /// `bot`'s done matches in the ladder with their seats, newest (highest id) first: at most
    /// `limit`, all with ids below `before` when given (the last id of the page before).
    async fn bot_matches(
        &self,
        ladder: LadderId,
        bot: BotId,
        before: Option<LadderMatchId>,
        limit: u32,
    ) -> Result<Vec<LadderMatch>, StoreError>;

    /// `bot`'s rating changes in the ladder, in update order.
    async fn bot_rating_history(
        &self,
        ladder: LadderId,
        bot: BotId,
    ) -> Result<Vec<RatingChangeRow>, StoreError>;

    /// `bot` against each opponent it met in the ladder's done matches, by opponent id.
    async fn head_to_head(
        &self,
        ladder: LadderId,
        bot: BotId,
    ) -> Result<Vec<HeadToHead>, StoreError>;

    /// The versions `bot` played the ladder's done matches with, first used first.
    async fn bot_ladder_versions(
        &self,
        ladder: LadderId,
        bot: BotId,
    ) -> Result<Vec<LadderVersion>, StoreError>;

    /// A ladder match with its seats, in any state.
    async fn ladder_match(&self, id: LadderMatchId) -> Result<Option<LadderMatch>, StoreError>;

    /// `bot`'s think times over its last `matches` done matches in the ladder that timed its
    /// decisions, merged per version, the version of its latest match first (the `think`
    /// module; migration 6).
    async fn bot_think_times(
        &self,
        ladder: LadderId,
        bot: BotId,
        matches: u32,
    ) -> Result<Vec<VersionThink>, StoreError>;

    // Standings snapshots (the `standings` module).

    /// Replaces the ladder's standings snapshot with `standings`. Refused with
    /// [`StoreError::Conflict`] when the snapshot is not whole ([`Standings::check`]) or is of
    /// an older revision than the stored one (an equal revision replaces it).
    async fn put_standings(
        &self,
        ladder: LadderId,
        standings: &Standings,
    ) -> Result<(), StoreError>;

    /// The ladder's last standings snapshot, if its runner wrote one.
    async fn standings(&self, ladder: LadderId) -> Result<Option<Standings>, StoreError>;

    // The nodes on one store (the `nodes` module).

    /// Whether the store answers and holds the schema this code knows, its migrations done: one
    /// cheap query (the schema's version, on a read connection where the backend has one). What
    /// a node's `/readyz` asks.
    async fn ready(&self) -> Result<(), StoreError>;

    /// Whether several nodes may work on this store at once (PostgreSQL), or only the one
    /// process that opened it (SQLite).
    fn is_shared(&self) -> bool;

    /// Records a node's heartbeat: its row is created at the first, and each one replaces its
    /// advertised address and lobby and sets when it was last seen to `now_ms`.
    async fn beat_node(&self, beat: &NodeBeat, now_ms: i64) -> Result<(), StoreError>;

    /// The nodes seen since `seen_since_ms` (the live ones), by owner name.
    async fn nodes(&self, seen_since_ms: i64) -> Result<Vec<NodeRow>, StoreError>;

    /// Notes the server's id of the match that plays a claimed ladder match, once it has
    /// started, so that a spectator asking another node can be told where it runs. Fenced as
    /// [`Store::finish_match`].
    async fn note_hosting(&self, claim: &Claim, server_match_id: &str) -> Result<(), StoreError>;

    /// The node hosting the running ladder match whose server id is `server_match_id` (noted by
    /// [`Store::note_hosting`]), if one is and its node has a row.
    async fn hosting_node(&self, server_match_id: &str) -> Result<Option<NodeRow>, StoreError>;

    /// The ladder matches (of every ladder) that other nodes than `query.except_owner` host
    /// now: running under a lease that holds, their server id noted ([`Store::note_hosting`]),
    /// their node seen since `query.seen_since_ms`; newest started first, at most
    /// `query.limit`, after `query.after` when given. What a node lists beside its own running
    /// matches.
    async fn running_elsewhere(
        &self,
        query: &ElsewhereQuery,
    ) -> Result<Vec<RunningElsewhere>, StoreError>;

    /// The done ladder matches (of every ladder) that other nodes than `query.except_owner`
    /// recorded (migration 7 notes who; matches done before it are not listed), latest
    /// finished first, at most `query.limit`, after `query.after` when given; read down an
    /// index of the done matches in that order. What a node lists after its own finished
    /// matches.
    async fn finished_elsewhere(
        &self,
        query: &FinishedQuery,
    ) -> Result<Vec<FinishedElsewhere>, StoreError>;

    /// The done ladder match that the server match `server_match_id` played, with the node
    /// that recorded it (whichever node that was), if there is one: read by an index of the
    /// matches' server ids.
    async fn finished_by_server_id(
        &self,
        server_match_id: &str,
    ) -> Result<Option<FinishedElsewhere>, StoreError>;
}

/// Where a store lives, parsed from `--store`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreUrl {
    /// `sqlite:FILE` (also `sqlite://FILE`): a SQLite file, created if need be.
    Sqlite(PathBuf),
    /// `sqlite::memory:`: a SQLite database in memory, gone with the process.
    SqliteMemory,
    /// `postgres://…` (also `postgresql://…`): a PostgreSQL database, in libpq's URL form.
    Postgres(String),
}

impl std::str::FromStr for StoreUrl {
    type Err = StoreError;

    fn from_str(url: &str) -> Result<StoreUrl, StoreError> {
        if url == "sqlite::memory:" {
            return Ok(StoreUrl::SqliteMemory);
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(StoreUrl::Postgres(url.to_owned()));
        }
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
            .filter(|path| !path.is_empty())
            .ok_or_else(|| StoreError::BadUrl(url.to_owned()))?;
        Ok(StoreUrl::Sqlite(PathBuf::from(path)))
    }
}

/// Opens the store at `url` (see [`StoreUrl`]), bringing its schema up to date.
pub async fn open(url: &str) -> Result<Arc<dyn Store>, StoreError> {
    open_with(url, StoreOptions::default()).await
}

/// [`open`] with `options`.
pub async fn open_with(url: &str, options: StoreOptions) -> Result<Arc<dyn Store>, StoreError> {
    Ok(match url.parse()? {
        StoreUrl::Sqlite(path) => Arc::new(SqliteStore::open(path).await?),
        StoreUrl::SqliteMemory => Arc::new(SqliteStore::in_memory().await?),
        StoreUrl::Postgres(url) => Arc::new(PgStore::connect_with(&url, options).await?),
    })
}

/// How a store is opened. Only a shared store (PostgreSQL) uses it: a SQLite file is on the
/// node's own disk, where no link can be cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreOptions {
    /// The longest a store call may take, a free connection and a new one included: past it the
    /// call fails with [`StoreError::Timeout`]. It also bounds what the database holds for a
    /// node that fell silent: a transaction it left open, and a ladder's scheduler lock (twice
    /// this) once its session stops answering (docs/deploy.md, "Partitions").
    pub call_timeout: std::time::Duration,
}

impl Default for StoreOptions {
    fn default() -> StoreOptions {
        StoreOptions { call_timeout: std::time::Duration::from_secs(10) }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn store_urls_name_a_sqlite_file_memory_or_a_postgres_database() {
        let parse = |url: &str| url.parse::<StoreUrl>();
        assert_eq!(parse("sqlite:bots.db").unwrap(), StoreUrl::Sqlite("bots.db".into()));
        assert_eq!(parse("sqlite:///var/c.db").unwrap(), StoreUrl::Sqlite("/var/c.db".into()));
        assert_eq!(parse("sqlite::memory:").unwrap(), StoreUrl::SqliteMemory);
        for url in ["postgres://u@h:5433/db", "postgresql://h/db?sslmode=disable"] {
            assert_eq!(parse(url).unwrap(), StoreUrl::Postgres(url.into()));
        }
        for bad in ["bots.db", "sqlite:", "mysql://host/db", "postgres:db", ""] {
            assert!(matches!(parse(bad), Err(StoreError::BadUrl(url)) if url == bad), "{bad}");
        }
    }
}
