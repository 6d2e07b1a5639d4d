//! The import of a ladder file of the old batch arena into the one store, once: its settings
//! become a hosted ladder's file, its bots accounts of the store, and its finished duplicate
//! sets that ladder's rated sets, written through the store's own methods as a hosted ladder
//! writes them ([`import_arena_file`]).
//!
//! The old file is a SQLite database of its own schema (`PRAGMA user_version` 1: tables
//! `ladder`, `bots`, `deal_sets`, `matches` and `rating_changes`). It is opened read-only, and
//! read in one read transaction: a snapshot, even if an old arena still writes it. Nothing here
//! shares code with the old arena's storage; the queries are this module's own.
//!
//! What is carried over:
//!
//! - the ladder: its game and options (from its first match's record, as the old `ladder.config`
//!   does not name them), seats, seed, seatings, rating system, duplicate deals and format
//!   (`round_robin`, `gauntlet` and `swiss` as those plans, `adaptive` as the adaptive schedule
//!   that stops when settled, `continuous` as `least_certain` with its `sets` as `max_sets`,
//!   `sprt` as `format = "sprt"`), and `bots` listing its bots in the old order;
//! - each bot as the account of its name: an existing account is used, else one is registered
//!   and its key thrown away (the operator issues one with `cardroom bots rotate NAME`);
//! - every set whose matches are all done, in the old order (indices from 0), each match with
//!   its seats, places, record, finish time, failures and think times, then rated by
//!   [`rate_set`] from [`Rating::initial`], as the hosted runner rates;
//! - the standings snapshot of the rated sets.
//!
//! What is not: a Swiss bye (a set of one bot, with no match) and a set with a match not done
//! are skipped and counted ([`Imported`]); a hosted ladder pairs its byes itself, and plans an
//! unplayed table again. The old outcomes kept counts where the store keeps each failure: every
//! illegal action and timeout becomes a failure of its own with no observation or answer, and
//! a crash one crash. They kept no forfeits and no bot versions (the version is stored empty),
//! and their think times as 5% buckets: each bucket's decisions are counted at its lower edge,
//! so the count is exact and the sum and slowest within 5% below.
//!
//! The ladder is left paused, its reason `imported from PATH`: running it again resumes it, and
//! a ladder whose budget is spent closes at once. A ladder of the same name is refused before
//! anything is written. Import while no server runs the store's ladders: a hosted ladder's
//! runner rating sets of the ladder being imported would refuse the import's own ratings.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use cardroom_games::GameKind;
use cardroom_store::{
    AccountError, Accounts, BotId, BotName, FailureKind, LadderId, LadderStatus, Lease,
    MatchResult, NewFailure, NewMatch, NewSet, SeatResult, Store, StoreError, StoredRating,
    ThinkSummary,
};
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, params};
use serde::Deserialize;

use crate::config::{BatchLadder, ConfigError, Format};
use crate::hosted::{
    Evidence, HostedError, HostedLadderFile, LadderFileError, rate_set, sprt_standing,
};
use cardroom_rank::duplicate::derive_seed;
use cardroom_rank::rating::{Rating, RatingSystem};
use cardroom_rank::sprt::SprtConfig;
use cardroom_rank::stats::ThinkTimes;

/// The old arena's schema version this import reads (its only one).
pub const ARENA_SCHEMA_VERSION: i64 = 1;

/// The old arena's tables, every one of which an old file has.
const ARENA_TABLES: [&str; 5] = ["ladder", "bots", "deal_sets", "matches", "rating_changes"];

/// The lease owner the import claims its matches as: what a done match's `finished_by` says.
const IMPORT_OWNER: &str = "import";

/// How long the import's claim of a match lasts (it finishes the match at once).
const IMPORT_LEASE_MS: i64 = 3_600_000;

/// What an import did, for the command line to print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The old file.
    pub path: PathBuf,
    /// The hosted ladder's name.
    pub ladder: String,
    /// Its id in the store.
    pub ladder_id: LadderId,
    /// Its game.
    pub game: GameKind,
    /// Its bots' names, in the old file's order.
    pub bots: Vec<String>,
    /// Those of them registered by the import (the others were accounts already): each needs
    /// a key, which `cardroom bots rotate NAME` issues.
    pub registered: Vec<String>,
    /// Sets imported, each rated.
    pub sets: u64,
    /// Matches imported.
    pub matches: u64,
    /// Sets skipped because a match of theirs was not done.
    pub incomplete_sets: u64,
    /// Swiss byes skipped (sets of one bot, which played no match).
    pub byes: u64,
}

impl fmt::Display for Imported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "imported {} into the ladder {:?} ({}): {} bots ({}), {} sets, {} matches",
            self.path.display(),
            self.ladder,
            self.game.name(),
            self.bots.len(),
            self.bots.join(", "),
            self.sets,
            self.matches
        )?;
        if self.incomplete_sets > 0 || self.byes > 0 {
            writeln!(
                f,
                "skipped: {} sets with a match not done, {} Swiss byes",
                self.incomplete_sets, self.byes
            )?;
        }
        if !self.registered.is_empty() {
            writeln!(
                f,
                "registered as new bots: {} (issue each a key with `cardroom bots rotate NAME`)",
                self.registered.join(", ")
            )?;
        }
        write!(f, "the ladder is paused: running it resumes it")
    }
}

/// Why a file was not imported, or not whole. Every error but [`ImportError::Incomplete`]
/// comes before anything is written to the store.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file cannot be read at all.
    #[error("{}: {source}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// SQLite cannot open the file read-only.
    #[error("{}: cannot be opened read-only: {source}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        source: rusqlite::Error,
    },
    /// The file is no ladder file of the old arena.
    #[error("{} is not a ladder file of the old arena: {why}", path.display())]
    NotArenaFile {
        /// The file.
        path: PathBuf,
        /// What it is, or lacks.
        why: String,
    },
    /// The file's schema is not the one this import reads.
    #[error(
        "{}: its arena schema version is {found}; this import reads version {known} only",
        path.display()
    )]
    UnknownVersion {
        /// The file.
        path: PathBuf,
        /// The file's `user_version`.
        found: i64,
        /// The version read ([`ARENA_SCHEMA_VERSION`]).
        known: i64,
    },
    /// A query of the file failed.
    #[error("{}: reading {what} failed: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What was read.
        what: String,
        /// Why it failed.
        source: rusqlite::Error,
    },
    /// A value stored in the file cannot be read.
    #[error("{}: {what} cannot be read: {why}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The value (a column of a row).
        what: String,
        /// Why.
        why: String,
    },
    /// No finished match of the file has a record, which alone names the game and options.
    #[error(
        "{}: no finished match has a record, so the ladder's game and options are unknown: \
         there is nothing to import",
        path.display()
    )]
    NoRecord {
        /// The file.
        path: PathBuf,
    },
    /// A bot of the file has a name no account may have, and no account has it.
    #[error("{}: its bot {name:?} cannot be a bot of the store: {source}", path.display())]
    BotName {
        /// The file.
        path: PathBuf,
        /// The bot's name.
        name: String,
        /// Why.
        source: AccountError,
    },
    /// The hosted ladder made of the file's settings is refused (its name, most likely).
    #[error("{}: the hosted ladder made of it is refused: {source}", path.display())]
    Ladder {
        /// The file.
        path: PathBuf,
        /// Why.
        source: LadderFileError,
    },
    /// The store has a ladder of this name: nothing was written.
    #[error(
        "a ladder named {ladder:?} exists in the store already: nothing was imported (give \
         another name)"
    )]
    LadderExists {
        /// The name.
        ladder: String,
    },
    /// The store failed or refused.
    #[error("the store: {0}")]
    Store(#[from] StoreError),
    /// A bot could not be registered.
    #[error("registering the bot {name:?}: {source}")]
    Register {
        /// The bot's name.
        name: String,
        /// Why.
        source: AccountError,
    },
    /// A set could not be rated.
    #[error(transparent)]
    Rating(#[from] HostedError),
    /// The task reading the file died.
    #[error("the task reading the file failed: {0}")]
    Task(#[from] tokio::task::JoinError),
    /// The import failed once the ladder was created: the ladder is in the store, paused and
    /// incomplete.
    #[error(
        "{}: the import into the ladder {ladder:?} stopped after {sets} of its {of} sets: \
         {cause}; the ladder is in the store, incomplete and paused (its reason says so): \
         import the file again under another name",
        path.display()
    )]
    Incomplete {
        /// The file.
        path: PathBuf,
        /// The ladder's name.
        ladder: String,
        /// Sets imported whole (written and rated).
        sets: u64,
        /// Sets to import.
        of: u64,
        /// What went wrong.
        #[source]
        cause: Box<ImportError>,
    },
}

/// Imports the old arena file at `path` into `store` as the hosted ladder `ladder` (see the
/// module's docs): refused before anything is written if the file is no old arena file, its
/// settings make no valid hosted ladder, a bot's name can be no account, or `ladder` exists.
/// Once the ladder is created, a failure leaves it paused and incomplete and says so
/// ([`ImportError::Incomplete`]).
pub async fn import_arena_file(
    path: &Path,
    store: &Arc<dyn Store>,
    ladder: &str,
) -> Result<Imported, ImportError> {
    let old = OldFile::open(path.to_owned()).await?;
    let text = hosted_file_text(ladder, &old).map_err(|e| ImportError::Corrupt {
        path: path.to_owned(),
        what: "the ladder's settings and options".into(),
        why: format!("they make no TOML: {e}"),
    })?;
    let file = HostedLadderFile::parse(&text)
        .map_err(|source| ImportError::Ladder { path: path.to_owned(), source })?;
    if store.ladder(ladder).await?.is_some() {
        return Err(ImportError::LadderExists { ladder: ladder.to_owned() });
    }
    // Each bot's account if it has one; the others' names must be ones an account may have.
    let mut accounts = Vec::with_capacity(old.bots.len());
    for name in &old.bots {
        let account = store.bot_credential(name).await?.map(|credential| credential.account.id);
        if account.is_none() {
            BotName::parse(name).map_err(|source| ImportError::BotName {
                path: path.to_owned(),
                name: name.clone(),
                source,
            })?;
        }
        accounts.push(account);
    }
    let created_ms = old.created_ms.unwrap_or_else(now_ms);
    let new = file.new_ladder(&text);
    let created = match store.create_ladder(&new, created_ms).await {
        Ok(created) => created,
        Err(StoreError::LadderExists(_)) => {
            return Err(ImportError::LadderExists { ladder: ladder.to_owned() });
        }
        Err(error) => return Err(error.into()),
    };
    let mut import = Import {
        old,
        store: Arc::clone(store),
        ladder: created.id,
        system: file.rating_system(),
        seats: usize::from(file.seats),
        sprt: file.sprt.as_ref().map(|sprt| (sprt.a.clone(), sprt.b.clone(), sprt.config())),
        bots: Vec::new(),
        ratings: HashMap::new(),
        summary: Imported {
            path: path.to_owned(),
            ladder: ladder.to_owned(),
            ladder_id: created.id,
            game: file.game,
            bots: Vec::new(),
            registered: Vec::new(),
            sets: 0,
            matches: 0,
            incomplete_sets: 0,
            byes: 0,
        },
    };
    match import.write(accounts, created_ms).await {
        Ok(()) => Ok(import.summary),
        Err(cause) => {
            let reason = format!(
                "the import from {} stopped after {} sets: it is incomplete",
                path.display(),
                import.summary.sets
            );
            // Best effort: should the store refuse this too, the reason the import gave the
            // ladder first still says it is incomplete.
            let _ = store
                .set_ladder_status(created.id, LadderStatus::Paused, Some(&reason), now_ms())
                .await;
            Err(ImportError::Incomplete {
                path: path.to_owned(),
                ladder: ladder.to_owned(),
                sets: import.summary.sets,
                of: import.old.importable(),
                cause: Box::new(cause),
            })
        }
    }
}

/// The hosted ladder file of the old file's settings, named `ladder`: the one `cardroom arena
/// run` makes of a ladder file with these settings ([`BatchLadder`]), so that a run carries the
/// imported ladder on.
fn hosted_file_text(ladder: &str, old: &OldFile) -> Result<String, ConfigError> {
    let settings = &old.settings;
    let body = BatchLadder {
        name: ladder,
        game: old.game,
        seats: settings.table,
        options: &old.options,
        seed: settings.seed,
        duplicate: settings.duplicate,
        max_rotations: settings.max_rotations,
        rating: settings.rating,
        parallel: 2,
        move_ms: None,
        bank_ms: None,
        finals: false,
        bots: &old.bots,
        format: &settings.format,
    }
    .hosted_text()?;
    Ok(format!(
        "# A ladder of the old arena, imported into the store with its bots and finished sets.\n\
         {body}"
    ))
}

/// An import under way: the old file, the ladder created, and what is written so far.
struct Import {
    old: OldFile,
    store: Arc<dyn Store>,
    ladder: LadderId,
    system: RatingSystem,
    seats: usize,
    /// An SPRT ladder's bots and test.
    sprt: Option<(String, String, SprtConfig)>,
    /// The bots' ids, by old index.
    bots: Vec<BotId>,
    /// Their ratings after the sets rated so far.
    ratings: HashMap<BotId, Rating>,
    summary: Imported,
}

impl Import {
    /// Everything after the ladder's creation: pauses it as incomplete, enters the bots
    /// (`accounts`: each one's existing account, if any), writes and rates every complete set,
    /// then the standings, and pauses it as imported.
    async fn write(
        &mut self,
        accounts: Vec<Option<BotId>>,
        created_ms: i64,
    ) -> Result<(), ImportError> {
        let store = Arc::clone(&self.store);
        let path = self.old.path.display().to_string();
        // Paused first, so that a failure anywhere below leaves no running half of a ladder.
        let importing = format!("importing from {path}: incomplete until the import ends");
        store
            .set_ladder_status(self.ladder, LadderStatus::Paused, Some(&importing), now_ms())
            .await?;
        let accounts_api = Accounts::new(Arc::clone(&store));
        let initial = Rating::initial(self.system);
        let stored_initial = StoredRating {
            mean: initial.mean,
            sigma: initial.sigma,
            volatility: initial.volatility,
        };
        for (name, account) in self.old.bots.clone().into_iter().zip(accounts) {
            let id = match account {
                Some(id) => id,
                None => {
                    let issued = accounts_api
                        .register(&name)
                        .await
                        .map_err(|source| ImportError::Register { name: name.clone(), source })?;
                    // The key is thrown away: the operator issues the bot one.
                    self.summary.registered.push(name.clone());
                    issued.bot.id
                }
            };
            store.enter_ladder(self.ladder, id, stored_initial, created_ms).await?;
            self.bots.push(id);
            self.ratings.insert(id, initial);
            self.summary.bots.push(name);
        }
        let mut clock = created_ms;
        for (position, set) in self.old.sets.clone().into_iter().enumerate() {
            match set.kind() {
                SetKind::Bye => self.summary.byes += 1,
                SetKind::Incomplete => self.summary.incomplete_sets += 1,
                SetKind::Complete => {
                    let matches = self.old.matches(set.id).await?;
                    let deal = derive_seed(self.old.settings.seed, position as u64);
                    clock = self.write_set(&set, deal, &matches, clock).await?;
                }
            }
        }
        self.write_standings().await?;
        let reason = format!("imported from {path}");
        store.set_ladder_status(self.ladder, LadderStatus::Paused, Some(&reason), now_ms()).await?;
        Ok(())
    }

    /// Plans, plays (claims and finishes) and rates one complete old set as the ladder's next
    /// set; `clock` is the time of the last write before it. Returns the time of its last
    /// write.
    async fn write_set(
        &mut self,
        set: &OldSet,
        deal: u64,
        matches: &[OldMatch],
        clock: i64,
    ) -> Result<i64, ImportError> {
        let store = Arc::clone(&self.store);
        let index = self.summary.sets;
        let id = |bot: usize| self.bots[bot];
        let planned_ms = matches.iter().filter_map(|m| m.finished_ms).min().unwrap_or(clock);
        let new = NewSet {
            index,
            seed: deal,
            bots: set.bots.iter().map(|&bot| id(bot)).collect(),
            matches: matches
                .iter()
                .zip(0..)
                .map(|(m, rotation)| NewMatch {
                    rotation,
                    seed: m.seed,
                    seats: m.seats.iter().map(|&bot| id(bot)).collect(),
                })
                .collect(),
        };
        let planned = store.plan_set(self.ladder, &new, planned_ms).await?;
        let mut at = planned_ms;
        for (old, stored) in matches.iter().zip(&planned.matches) {
            at = old.finished_ms.unwrap_or(at);
            let lease = Lease {
                owner: IMPORT_OWNER.to_owned(),
                until_ms: at.saturating_add(IMPORT_LEASE_MS),
            };
            let claim = store.claim_match(stored.id, &lease, at).await?;
            let result = MatchResult {
                claim,
                server_match_id: format!("imported-{}-{}", self.summary.ladder, old.id),
                seats: old
                    .outcome
                    .places
                    .iter()
                    .zip(0..)
                    .map(|(&(_, place), seat)| SeatResult {
                        seat,
                        version: String::new(),
                        place,
                        forfeited: false,
                        think: old
                            .outcome
                            .health
                            .get(usize::from(seat))
                            .map(|health| think_summary(&health.think))
                            .unwrap_or_default(),
                    })
                    .collect(),
                record_json: old.record.clone(),
                failures: failures(&old.outcome.health),
            };
            store.finish_match(&result, at).await?;
            self.summary.matches += 1;
        }
        let written = store
            .open_sets(self.ladder)
            .await?
            .into_iter()
            .find(|open| open.index == index)
            .ok_or_else(|| {
                StoreError::Conflict(format!("set {index} is not open once its matches are in"))
            })?;
        let ratings = &self.ratings;
        let system = self.system;
        let updates = rate_set(system, &written, |bot| {
            ratings.get(&bot).copied().unwrap_or_else(|| Rating::initial(system))
        })?;
        store.rate_set(self.ladder, index, &updates, at).await?;
        for update in &updates {
            let after = update.after;
            self.ratings.insert(
                update.bot,
                Rating { mean: after.mean, sigma: after.sigma, volatility: after.volatility },
            );
        }
        self.summary.sets += 1;
        Ok(at)
    }

    /// The standings snapshot of the rated sets, as the hosted runner computes it (with an
    /// SPRT ladder's test).
    async fn write_standings(&self) -> Result<(), ImportError> {
        let rated = self.store.rated_sets(self.ladder).await?;
        let evidence = Evidence::from_rated(&rated, self.bots.iter().copied(), 0);
        let mut standings = evidence.standings(self.seats, now_ms());
        if let Some((a, b, config)) = &self.sprt {
            let id = |name: &str| {
                self.summary.bots.iter().position(|bot| bot == name).map(|i| self.bots[i])
            };
            if let (Some(a), Some(b)) = (id(a), id(b)) {
                standings.sprt = Some(sprt_standing(a, b, &evidence.sprt(a, b, *config)));
            }
        }
        self.store.put_standings(self.ladder, &standings).await?;
        Ok(())
    }
}

/// A seat's think times as the store sums them up: each old 5% bucket's decisions at the
/// bucket's lower edge (whole microseconds), so the count is exact and the sum and slowest
/// within 5% below.
fn think_summary(think: &ThinkTimes) -> ThinkSummary {
    let mut summary = ThinkSummary::default();
    for (lower, _, count) in think.buckets() {
        let us = lower.max(0.0).ceil() as u64;
        let mut bucket = ThinkSummary {
            count,
            sum_us: us.saturating_mul(count),
            max_us: us,
            ..ThinkSummary::default()
        };
        bucket.buckets[ThinkSummary::bucket_of(us)] = count;
        summary.merge(&bucket);
    }
    summary
}

/// The failures of a match's seats, from the old counts: one per illegal action and per
/// timeout, one crash.
fn failures(health: &[OldHealth]) -> Vec<NewFailure> {
    let kept = "the old arena file kept only a count: no observation or answer";
    let mut failures = Vec::new();
    for (seat, health) in (0u8..).zip(health) {
        let failure = |kind: FailureKind, what: &str| NewFailure {
            seat,
            kind,
            observation_json: None,
            answer: None,
            error: format!("{what} ({kept})"),
        };
        for _ in 0..health.illegal {
            failures.push(failure(FailureKind::Illegal, "an illegal action"));
        }
        for _ in 0..health.timeouts {
            failures.push(failure(FailureKind::Timeout, "a decision out of time"));
        }
        if health.crashed {
            failures.push(failure(FailureKind::Crash, "the bot's process or connection died"));
        }
    }
    failures
}

/// Milliseconds since the Unix epoch, by the system clock.
fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_millis() as i64)
}

/// The old `ladder.config`: the batch arena's settings (its ladder file's but the bots).
#[derive(Clone, Debug, Deserialize)]
struct OldSettings {
    table: u8,
    seed: u64,
    duplicate: bool,
    max_rotations: Option<usize>,
    format: Format,
    rating: RatingSystem,
}

/// An old match's outcome (the `matches.outcome` JSON).
#[derive(Clone, Debug, Deserialize)]
struct OldOutcome {
    /// Per seat, the bot (old index) and its place.
    places: Vec<(usize, u8)>,
    /// Per seat, its conduct.
    #[serde(default)]
    health: Vec<OldHealth>,
}

/// One seat's conduct in an old match.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
struct OldHealth {
    illegal: u32,
    timeouts: u32,
    crashed: bool,
    think: ThinkTimes,
}

/// The head of a record: its game's tag and options.
#[derive(Deserialize)]
struct RecordHead {
    game: String,
    #[serde(default)]
    options: serde_json::Value,
}

/// An old duplicate set, as listed: its id, table and matches done of all.
#[derive(Clone, Debug)]
struct OldSet {
    id: i64,
    bots: Vec<usize>,
    matches: u64,
    done: u64,
}

/// What becomes of an old set.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum SetKind {
    /// Every match done: imported.
    Complete,
    /// A Swiss bye: skipped.
    Bye,
    /// A match not done (or none): skipped.
    Incomplete,
}

impl OldSet {
    fn kind(&self) -> SetKind {
        if self.bots.len() == 1 && self.matches == 0 {
            SetKind::Bye
        } else if self.matches == 0 || self.done < self.matches {
            SetKind::Incomplete
        } else {
            SetKind::Complete
        }
    }
}

/// A done old match.
#[derive(Clone, Debug)]
struct OldMatch {
    id: i64,
    seed: u64,
    seats: Vec<usize>,
    outcome: OldOutcome,
    record: Option<String>,
    finished_ms: Option<i64>,
}

/// An old arena file, open read-only inside one read transaction, with what is read of it at
/// once (its matches are read set by set).
struct OldFile {
    path: PathBuf,
    conn: Arc<Mutex<Connection>>,
    settings: OldSettings,
    created_ms: Option<i64>,
    /// Names by old index.
    bots: Vec<String>,
    sets: Vec<OldSet>,
    game: GameKind,
    options: toml::Table,
}

impl OldFile {
    /// Opens and checks the file, and reads its ladder, bots, sets and game.
    async fn open(path: PathBuf) -> Result<OldFile, ImportError> {
        tokio::task::spawn_blocking(move || OldFile::open_blocking(path)).await?
    }

    fn open_blocking(path: PathBuf) -> Result<OldFile, ImportError> {
        let metadata = std::fs::metadata(&path)
            .map_err(|source| ImportError::Unreadable { path: path.clone(), source })?;
        let not_arena =
            |why: &str| ImportError::NotArenaFile { path: path.clone(), why: why.into() };
        if !metadata.is_file() {
            return Err(not_arena("it is not a file"));
        }
        let conn = Connection::open_with_flags(
            &path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|source| ImportError::Open { path: path.clone(), source })?;
        let read = |what: &str| {
            let path = path.clone();
            let what = what.to_owned();
            move |source| ImportError::Read { path, what, source }
        };
        conn.busy_timeout(Duration::from_secs(5)).map_err(read("the file"))?;
        let tables: Vec<String> = match conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            .and_then(|mut stmt| stmt.query_map([], |row| row.get(0))?.collect())
        {
            Ok(tables) => tables,
            Err(error) if error.sqlite_error_code() == Some(ErrorCode::NotADatabase) => {
                return Err(not_arena("it is not a SQLite database"));
            }
            Err(error) => return Err(read("its tables")(error)),
        };
        if tables.iter().any(|table| table == "ladders") {
            return Err(not_arena(
                "it is a cardroom store (it has a `ladders` table), whose ladders need no import",
            ));
        }
        let missing: Vec<&str> =
            ARENA_TABLES.into_iter().filter(|name| !tables.iter().any(|t| t == name)).collect();
        if missing.len() == ARENA_TABLES.len() {
            return Err(not_arena("it has none of the old arena's tables"));
        }
        if !missing.is_empty() {
            return Err(not_arena(&format!("it has no `{}` table", missing.join("`, `"))));
        }
        let found: i64 = conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(read("its schema version"))?;
        if found != ARENA_SCHEMA_VERSION {
            return Err(ImportError::UnknownVersion { path, found, known: ARENA_SCHEMA_VERSION });
        }
        // One snapshot of everything read, even if an old arena writes the file meanwhile.
        conn.execute_batch("BEGIN").map_err(read("a snapshot"))?;
        let ladder: Option<(String, Option<i64>)> = conn
            .query_row(
                "SELECT config, CAST(strftime('%s', created_at) AS INTEGER) * 1000
                 FROM ladder WHERE id = 1",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()
            .map_err(read("its ladder"))?;
        let Some((config, created_ms)) = ladder else {
            return Err(not_arena("it holds no ladder (`arena run` never began one in it)"));
        };
        let corrupt = |what: &str, why: String| ImportError::Corrupt {
            path: path.clone(),
            what: what.to_owned(),
            why,
        };
        let settings: OldSettings = serde_json::from_str(&config)
            .map_err(|e| corrupt("the ladder's settings (`ladder.config`)", e.to_string()))?;
        let rows: Vec<(i64, String)> = conn
            .prepare("SELECT id, name FROM bots ORDER BY id")
            .and_then(|mut stmt| {
                stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?.collect()
            })
            .map_err(read("its bots"))?;
        let mut bots = Vec::with_capacity(rows.len());
        for (index, (id, name)) in rows.into_iter().enumerate() {
            if id != index as i64 {
                return Err(corrupt("the bots", format!("bot {name:?} has id {id}, not {index}")));
            }
            bots.push(name);
        }
        let rows: Vec<(i64, String, i64, i64)> = conn
            .prepare(
                "SELECT s.id, s.bots, COUNT(m.id), COALESCE(SUM(m.status = 'done'), 0)
                 FROM deal_sets s LEFT JOIN matches m ON m.set_id = s.id
                 GROUP BY s.id ORDER BY s.id",
            )
            .and_then(|mut stmt| {
                stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))?
                    .collect()
            })
            .map_err(read("its sets"))?;
        let mut sets = Vec::with_capacity(rows.len());
        for (id, table, matches, done) in rows {
            let what = format!("set {id}'s bots");
            let table: Vec<usize> =
                serde_json::from_str(&table).map_err(|e| corrupt(&what, e.to_string()))?;
            if let Some(bad) = table.iter().find(|&&bot| bot >= bots.len()) {
                return Err(corrupt(&what, format!("there is no bot {bad}")));
            }
            sets.push(OldSet { id, bots: table, matches: matches as u64, done: done as u64 });
        }
        let first: Option<(i64, String)> = conn
            .query_row(
                "SELECT id, record FROM matches WHERE status = 'done' AND record IS NOT NULL
                 ORDER BY id LIMIT 1",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()
            .map_err(read("its first record"))?;
        let Some((first, record)) = first else {
            return Err(ImportError::NoRecord { path });
        };
        let what = format!("match {first}'s record");
        let head: RecordHead =
            serde_json::from_str(&record).map_err(|e| corrupt(&what, e.to_string()))?;
        let game: GameKind = head
            .game
            .parse()
            .map_err(|e: cardroom_games::UnknownGame| corrupt(&what, e.to_string()))?;
        let options = match head.options {
            serde_json::Value::Null => toml::Table::new(),
            options => toml::Table::try_from(options)
                .map_err(|e| corrupt(&format!("{what}'s options"), e.to_string()))?,
        };
        Ok(OldFile {
            path,
            conn: Arc::new(Mutex::new(conn)),
            settings,
            created_ms,
            bots,
            sets,
            game,
            options,
        })
    }

    /// The sets an import writes.
    fn importable(&self) -> u64 {
        self.sets.iter().filter(|set| set.kind() == SetKind::Complete).count() as u64
    }

    /// The matches of the set `set`, in their order, each done (checked).
    async fn matches(&self, set: i64) -> Result<Vec<OldMatch>, ImportError> {
        let conn = Arc::clone(&self.conn);
        let path = self.path.clone();
        let (bots, game) = (self.bots.len(), self.game);
        tokio::task::spawn_blocking(move || {
            let conn = conn.lock().unwrap_or_else(PoisonError::into_inner);
            read_matches(&conn, &path, set, bots, game)
        })
        .await?
    }
}

/// A row of `matches`, before its JSON is read.
type MatchRow = (i64, i64, String, String, Option<String>, Option<String>, Option<i64>);

/// The matches of the old set `set` of a file of `bots` bots and the game `game`, each checked
/// done, with seats of known bots, an outcome that seats them so, and a record of the game.
fn read_matches(
    conn: &Connection,
    path: &Path,
    set: i64,
    bots: usize,
    game: GameKind,
) -> Result<Vec<OldMatch>, ImportError> {
    let rows: Vec<MatchRow> = conn
        .prepare_cached(
            "SELECT id, seed, seats, status, outcome, record,
                    CAST(strftime('%s', finished_at) AS INTEGER) * 1000
             FROM matches WHERE set_id = ?1 ORDER BY id",
        )
        .and_then(|mut stmt| {
            stmt.query_map(params![set], |row| {
                Ok((
                    row.get(0)?,
                    row.get(1)?,
                    row.get(2)?,
                    row.get(3)?,
                    row.get(4)?,
                    row.get(5)?,
                    row.get(6)?,
                ))
            })?
            .collect()
        })
        .map_err(|source| ImportError::Read {
            path: path.to_owned(),
            what: format!("set {set}'s matches"),
            source,
        })?;
    let mut matches = Vec::with_capacity(rows.len());
    for (id, seed, seats, status, outcome, record, finished_ms) in rows {
        let corrupt = |what: &str, why: String| ImportError::Corrupt {
            path: path.to_owned(),
            what: format!("match {id}'s {what}"),
            why,
        };
        if status != "done" {
            return Err(corrupt("status", format!("{status:?}, in a set read as complete")));
        }
        let seats: Vec<usize> =
            serde_json::from_str(&seats).map_err(|e| corrupt("seats", e.to_string()))?;
        if let Some(bad) = seats.iter().find(|&&bot| bot >= bots) {
            return Err(corrupt("seats", format!("there is no bot {bad}")));
        }
        let outcome = outcome.ok_or_else(|| corrupt("outcome", "it is missing".into()))?;
        let outcome: OldOutcome =
            serde_json::from_str(&outcome).map_err(|e| corrupt("outcome", e.to_string()))?;
        let seated: Vec<usize> = outcome.places.iter().map(|&(bot, _)| bot).collect();
        if seated != seats {
            return Err(corrupt(
                "outcome",
                format!("it places the bots {seated:?}; the match seats {seats:?}"),
            ));
        }
        if let Some(record) = &record {
            let head: RecordHead =
                serde_json::from_str(record).map_err(|e| corrupt("record", e.to_string()))?;
            if head.game != game.name() {
                return Err(corrupt(
                    "record",
                    format!("it is of the game {:?}, the ladder's is {}", head.game, game.name()),
                ));
            }
        }
        // Seeds are u64s stored bit for bit in SQLite's signed integers.
        matches.push(OldMatch { id, seed: seed as u64, seats, outcome, record, finished_ms });
    }
    Ok(matches)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::hosted::Schedule;

    #[test]
    fn think_times_keep_their_count_and_stay_within_five_percent_below() {
        let micros = [0u64, 3, 15, 16, 100, 999, 40_000, 2_500_000];
        let mut old = ThinkTimes::default();
        for &us in &micros {
            old.add(us);
        }
        let summary = think_summary(&old);
        assert_eq!(summary.count, micros.len() as u64);
        assert_eq!(summary.buckets.iter().sum::<u64>(), micros.len() as u64);
        let sum: u64 = micros.iter().sum();
        assert!(summary.sum_us <= sum && summary.sum_us as f64 >= sum as f64 / 1.05, "{summary:?}");
        let max = micros[micros.len() - 1];
        assert!(summary.max_us <= max && summary.max_us as f64 >= max as f64 / 1.05);
        assert_eq!(think_summary(&ThinkTimes::default()), ThinkSummary::default());
    }

    #[test]
    fn each_counted_failure_is_a_failure_of_its_own() {
        let health = [
            OldHealth { illegal: 2, timeouts: 1, ..OldHealth::default() },
            OldHealth { crashed: true, ..OldHealth::default() },
        ];
        let kinds: Vec<(u8, FailureKind)> =
            failures(&health).iter().map(|f| (f.seat, f.kind)).collect();
        assert_eq!(
            kinds,
            [
                (0, FailureKind::Illegal),
                (0, FailureKind::Illegal),
                (0, FailureKind::Timeout),
                (1, FailureKind::Crash)
            ]
        );
        assert!(failures(&[OldHealth::default()]).is_empty());
    }

    #[test]
    fn every_old_format_makes_a_hosted_ladder_file() {
        let settings = |format: &str| -> OldSettings {
            serde_json::from_str(&format!(
                "{{\"table\":2,\"seed\":5,\"duplicate\":false,\"max_rotations\":1,\
                 \"format\":{format},\"rating\":\"glicko2\"}}"
            ))
            .unwrap()
        };
        let cases = [
            (r#"{"kind":"round_robin"}"#, Schedule::RoundRobin, Some(1), None),
            (
                r#"{"kind":"gauntlet","challenger":"c","rounds":3}"#,
                Schedule::Gauntlet,
                Some(3),
                None,
            ),
            (r#"{"kind":"swiss","rounds":4}"#, Schedule::Swiss, Some(4), None),
            (r#"{"kind":"adaptive"}"#, Schedule::Adaptive, None, Some(10_000)),
            (r#"{"kind":"continuous","sets":9}"#, Schedule::LeastCertain, None, Some(9)),
            (
                r#"{"kind":"sprt","a":"a","b":"c","max_sets":50,"sprt":{"elo1":30.0}}"#,
                Schedule::Adaptive,
                None,
                Some(50),
            ),
        ];
        for (format, schedule, rounds, max_sets) in cases {
            let old = OldFile {
                path: PathBuf::from("old.sqlite"),
                conn: Arc::new(Mutex::new(Connection::open_in_memory().unwrap())),
                settings: settings(format),
                created_ms: None,
                bots: vec!["a".into(), "b \"quoted\"".into(), "c".into()],
                sets: Vec::new(),
                game: GameKind::Gin,
                options: toml::Table::try_from(serde_json::json!({"knock_limit": 10})).unwrap(),
            };
            let text = hosted_file_text("imported", &old).unwrap();
            let file = HostedLadderFile::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!((file.schedule, file.rounds, file.max_sets), (schedule, rounds, max_sets));
            assert_eq!(
                file.stop_when_settled,
                matches!(old.settings.format, Format::Adaptive { .. })
            );
            assert_eq!((file.seed, file.max_rotations, file.duplicate), (5, Some(1), false));
            assert_eq!(file.rating_system(), RatingSystem::Glicko2);
            assert_eq!(file.bots.as_deref(), Some(&old.bots[..]));
            assert_eq!(file.options_json(), "{\"knock_limit\":10}");
            if let Some(sprt) = &file.sprt {
                assert_eq!((sprt.a.as_str(), sprt.b.as_str(), sprt.elo1), ("a", "c", 30.0));
                assert_eq!(sprt.config().alpha, SprtConfig::default().alpha);
            }
        }
    }
}
