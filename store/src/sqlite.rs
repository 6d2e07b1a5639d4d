//! [`SqliteStore`]: the store in one SQLite file, the embedded default.
//!
//! One connection behind a std mutex, used only inside `spawn_blocking`: no query runs on the
//! server's async threads. The write-ahead log lets `cardroom bots` change the file while a
//! server reads it, and makes a committed transaction survive the process's death. Schema
//! migrations are numbered (`PRAGMA user_version`), each applied in its own transaction.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::authors::AUTHOR_COLUMNS;
use crate::keys::KeyHash;
use crate::scrimmages::{self, SCRIMMAGE_COLUMNS};
use crate::seasons::{
    EventScope, EventsFrom, NewSeason, NewSeasonEvent, Season, SeasonChange, SeasonCursor,
    SeasonEvent, SeasonId, SeasonState,
};
use crate::sqlite_ladders as ladders;
use crate::sqlite_reads as reads;
use crate::sqlite_seasons;
use crate::sqlite_submissions as submissions;
use crate::submissions::{NewSubmission, Submission, Submitted};
use crate::{
    AccountRow, Author, AuthorId, BotAccount, BotCredential, BotId, BotVersion, BotVersions, Claim,
    FailureRow, HeadToHead, Ladder, LadderBot, LadderId, LadderMatch, LadderMatchId, LadderSet,
    LadderStatus, LadderVersion, LeaderboardLine, Lease, MatchResult, NewLadder, NewSet, NodeBeat,
    NodeRow, RatingChangeRow, RatingUpdate, Requeue, Scrimmage, ScrimmageId, ScrimmageState,
    SeatOutcome, Store, StoreError, StoredRating, VERSIONS_KEPT,
};

/// Migration 5, the same SQL on both backends: a partial index of the open sets, in set order
/// (the few a ladder has open at a time, however many it has closed).
pub(crate) const OPEN_SETS_INDEX: &str =
    "CREATE INDEX ladder_sets_open ON ladder_sets (ladder_id, set_index) WHERE state = 'open'";

/// The migrations, in order: migration `i` takes the schema from version `i` to `i + 1`. The
/// PostgreSQL store has the same steps in its dialect (`postgres::MIGRATIONS`); times are
/// integers from the caller, no database clock.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: bot accounts (a key's hash, never the key) and the versions they report.
    "CREATE TABLE bots (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        key_hash BLOB UNIQUE,
        created_ms BIGINT NOT NULL,
        key_issued_ms BIGINT NOT NULL,
        revoked_ms BIGINT
    );
    CREATE TABLE bot_versions (
        bot_id INTEGER NOT NULL REFERENCES bots(id),
        version TEXT NOT NULL,
        first_seen_ms BIGINT NOT NULL,
        last_seen_ms BIGINT NOT NULL,
        PRIMARY KEY (bot_id, version)
    );",
    // 2: hosted ladders: their bots, sets, matches (claimed under a lease), rating changes and
    // failures.
    crate::sqlite_ladders::MIGRATION,
    // 3: each ladder's standings snapshot.
    crate::sqlite_standings::MIGRATION,
    // 4: the nodes on the store, their heartbeats and lobbies.
    crate::nodes::MIGRATION,
    // 5: an index of each ladder's open sets (rating a set checks none before it is open).
    OPEN_SETS_INDEX,
    // 6: each seat's think times in a done match (a bot's page draws their histogram).
    crate::think::SQLITE_MIGRATION,
    // 7: which node recorded each done match; indexes of the done matches and of server ids.
    crate::nodes::FINISHED_MIGRATION,
    // 8: each bot's count of versions forgotten (a bot keeps its last `VERSIONS_KEPT`).
    VERSIONS_FORGOTTEN,
    // 9: the partial index of a ladder's claimable matches, in set order.
    crate::sqlite_nodes::CLAIMABLE_INDEX,
    // 10: each bot's done matches, wins and failures in a ladder, on its row.
    crate::reads::LEADERBOARD_COUNTS,
    // 11: bot submissions: each archive, its version (SHA-256) and its run command.
    crate::submissions::SQLITE_MIGRATION,
    // 12: each node's secret, which the others present when they ask it for a bot.
    crate::nodes::SECRET_MIGRATION,
    // 13: a hosted bot's output in each of its matches.
    crate::ladders::OUTPUTS_MIGRATION,
    // 14: authors, their invites, and the author of each bot.
    crate::authors::SQLITE_MIGRATION,
    // 15: scrimmages, apart from the ladders' sets.
    crate::scrimmages::SQLITE_MIGRATION,
    // 16: seasons, their ladders and their events.
    crate::seasons::SQLITE_MIGRATION,
];

/// Migration 8, the same in both dialects.
pub(crate) const VERSIONS_FORGOTTEN: &str =
    "ALTER TABLE bots ADD COLUMN versions_forgotten BIGINT NOT NULL DEFAULT 0;";

/// The columns an account is selected with, in the order [`credential`] reads them.
const ACCOUNT_COLUMNS: &str = "id, name, created_ms, key_issued_ms, revoked_ms, key_hash, \
                               (SELECT name FROM authors WHERE authors.id = bots.author_id)";

/// Read-only connections a file store keeps beside its writer: the pages' and read rpcs' reads
/// run on them (WAL lets readers and the writer go at once), so that they never queue behind,
/// nor hold up, a ladder's writes.
const READERS: usize = 2;

/// The store in a SQLite file (or in memory).
#[derive(Clone, Debug)]
pub struct SqliteStore {
    /// The one connection that writes (and reads what the writing side reads).
    conn: Arc<Mutex<Connection>>,
    /// Read-only connections for the read side ([`READERS`] of them; none in memory, where a
    /// second connection would be another database).
    readers: Arc<Vec<Mutex<Connection>>>,
}

impl SqliteStore {
    /// Opens (or creates) the file and brings its schema up to date.
    pub async fn open(path: impl Into<PathBuf>) -> Result<SqliteStore, StoreError> {
        let path = path.into();
        let writer = path.clone();
        let conn = tokio::task::spawn_blocking(move || Connection::open(writer)).await?;
        let store = SqliteStore::init(conn.map_err(backend)?, Vec::new()).await?;
        // Opened once the schema is there: a reader never sees a file being migrated.
        let readers = tokio::task::spawn_blocking(move || {
            (0..READERS)
                .map(|_| {
                    let conn = Connection::open_with_flags(
                        &path,
                        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY
                            | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
                    )?;
                    conn.busy_timeout(std::time::Duration::from_secs(5))?;
                    Ok(Mutex::new(conn))
                })
                .collect::<rusqlite::Result<Vec<_>>>()
        })
        .await?
        .map_err(backend)?;
        Ok(SqliteStore { conn: store.conn, readers: Arc::new(readers) })
    }

    /// A store in memory, gone with the process.
    pub async fn in_memory() -> Result<SqliteStore, StoreError> {
        SqliteStore::init(Connection::open_in_memory().map_err(backend)?, Vec::new()).await
    }

    async fn init(
        conn: Connection,
        readers: Vec<Mutex<Connection>>,
    ) -> Result<SqliteStore, StoreError> {
        let store = SqliteStore { conn: Arc::new(Mutex::new(conn)), readers: Arc::new(readers) };
        store
            .run(|conn| {
                conn.busy_timeout(std::time::Duration::from_secs(5))?;
                conn.pragma_update(None, "journal_mode", "WAL")?;
                conn.pragma_update(None, "synchronous", "NORMAL")?;
                conn.pragma_update(None, "foreign_keys", "ON")?;
                Ok(())
            })
            .await?;
        store.run(migrate).await?;
        Ok(store)
    }

    /// The schema version.
    pub async fn schema_version(&self) -> Result<i64, StoreError> {
        self.run(|conn| Ok(schema_version(conn)?)).await
    }

    /// Runs `work` on the connection in a blocking thread.
    async fn run<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let conn = Arc::clone(&self.conn);
        tokio::task::spawn_blocking(move || {
            // A panic mid-query leaves no transaction open (rusqlite rolls back on drop).
            let mut conn = conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            work(&mut conn)
        })
        .await?
    }

    /// Runs `work`, which only reads, on a free reader connection (the writer in memory): a
    /// page's read neither waits for a ladder's write nor holds one up.
    async fn read<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    {
        if self.readers.is_empty() {
            return self.run(work).await;
        }
        let readers = Arc::clone(&self.readers);
        tokio::task::spawn_blocking(move || {
            let free = readers.iter().find_map(|reader| reader.try_lock().ok());
            let mut conn = match free {
                Some(conn) => conn,
                None => readers[0].lock().unwrap_or_else(|poisoned| poisoned.into_inner()),
            };
            work(&mut conn)
        })
        .await?
    }
}

pub(crate) fn backend(error: rusqlite::Error) -> StoreError {
    StoreError::Backend(Box::new(error))
}

impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> StoreError {
        backend(error)
    }
}

fn schema_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
}

fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let known = MIGRATIONS.len() as i64;
    let found = schema_version(conn)?;
    if found > known {
        return Err(StoreError::NewerSchema { found, known });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found.max(0) as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
        tx.commit()?;
    }
    Ok(())
}

/// A row of [`ACCOUNT_COLUMNS`].
fn credential(row: &Row<'_>) -> rusqlite::Result<BotCredential> {
    let row = AccountRow {
        id: row.get(0)?,
        name: row.get(1)?,
        created_ms: row.get(2)?,
        key_issued_ms: row.get(3)?,
        revoked_ms: row.get(4)?,
        key_hash: row.get(5)?,
        author: row.get(6)?,
    };
    Ok(row.into_credential())
}

/// A row of [`SCRIMMAGE_COLUMNS`].
fn scrimmage_row(row: &Row<'_>) -> rusqlite::Result<scrimmages::ScrimmageRow> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
        row.get(6)?,
        row.get(7)?,
        row.get(8)?,
    ))
}

/// A row of [`AUTHOR_COLUMNS`].
fn author_row(row: &Row<'_>) -> rusqlite::Result<Author> {
    Ok(Author {
        id: AuthorId(row.get(0)?),
        name: row.get(1)?,
        created_ms: row.get(2)?,
        token_issued_ms: row.get(3)?,
    })
}

fn account_named(conn: &Connection, name: &str) -> Result<BotCredential, StoreError> {
    conn.query_row(
        &format!("SELECT {ACCOUNT_COLUMNS} FROM bots WHERE name = ?1"),
        [name],
        credential,
    )
    .optional()?
    .ok_or_else(|| StoreError::NoSuchBot(name.to_owned()))
}

/// Whether `error` is a UNIQUE constraint's refusal.
pub(crate) fn is_unique_violation(error: &rusqlite::Error) -> bool {
    matches!(
        error,
        rusqlite::Error::SqliteFailure(failure, _)
            if failure.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                || failure.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
    )
}

/// Notes that `bot` reported `version` at `now_ms`, in the caller's transaction: beyond
/// [`VERSIONS_KEPT`] versions the one least recently seen is forgotten (and counted).
pub(crate) fn note_version_in(
    tx: &Connection,
    bot: BotId,
    version: &str,
    now_ms: i64,
) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO bot_versions (bot_id, version, first_seen_ms, last_seen_ms)
         VALUES (?1, ?2, ?3, ?3)
         ON CONFLICT (bot_id, version) DO UPDATE SET last_seen_ms = excluded.last_seen_ms",
        params![bot.0, version, now_ms],
    )?;
    let forgotten = tx.execute(
        "DELETE FROM bot_versions WHERE bot_id = ?1 AND version NOT IN (
             SELECT version FROM bot_versions WHERE bot_id = ?1
             ORDER BY last_seen_ms DESC, version DESC LIMIT ?2)",
        params![bot.0, VERSIONS_KEPT as i64],
    )?;
    if forgotten > 0 {
        tx.execute(
            "UPDATE bots SET versions_forgotten = versions_forgotten + ?2 WHERE id = ?1",
            params![bot.0, forgotten as i64],
        )?;
    }
    Ok(())
}

#[async_trait::async_trait]
impl Store for SqliteStore {
    async fn register_bot_of(
        &self,
        name: &str,
        key_hash: KeyHash,
        author: Option<AuthorId>,
        now_ms: i64,
    ) -> Result<BotAccount, StoreError> {
        let name = name.to_owned();
        self.run(move |conn| {
            let tx = conn.transaction()?;
            let inserted = tx.execute(
                "INSERT INTO bots (name, key_hash, created_ms, key_issued_ms, author_id)
                 VALUES (?1, ?2, ?3, ?3, ?4)",
                params![name, key_hash.0.as_slice(), now_ms, author.map(|a| a.0)],
            );
            match inserted {
                Err(error) if is_unique_violation(&error) => {
                    return Err(StoreError::NameTaken(name));
                }
                other => other?,
            };
            let account = account_named(&tx, &name)?.account;
            tx.commit()?;
            Ok(account)
        })
        .await
    }

    async fn replace_key(
        &self,
        name: &str,
        key_hash: KeyHash,
        now_ms: i64,
    ) -> Result<BotAccount, StoreError> {
        let name = name.to_owned();
        self.run(move |conn| {
            let tx = conn.transaction()?;
            let changed = tx.execute(
                "UPDATE bots SET key_hash = ?2, key_issued_ms = ?3, revoked_ms = NULL WHERE name = ?1",
                params![name, key_hash.0.as_slice(), now_ms],
            )?;
            if changed == 0 {
                return Err(StoreError::NoSuchBot(name));
            }
            let account = account_named(&tx, &name)?.account;
            tx.commit()?;
            Ok(account)
        })
        .await
    }

    async fn revoke_bot(&self, name: &str, now_ms: i64) -> Result<BotAccount, StoreError> {
        let name = name.to_owned();
        self.run(move |conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "UPDATE bots SET key_hash = NULL, revoked_ms = ?2
                 WHERE name = ?1 AND revoked_ms IS NULL",
                params![name, now_ms],
            )?;
            let account = account_named(&tx, &name)?.account;
            tx.commit()?;
            Ok(account)
        })
        .await
    }

    async fn bots(&self) -> Result<Vec<BotAccount>, StoreError> {
        self.run(|conn| {
            let mut stmt =
                conn.prepare(&format!("SELECT {ACCOUNT_COLUMNS} FROM bots ORDER BY name"))?;
            let bots = stmt
                .query_map([], |row| credential(row).map(|c| c.account))?
                .collect::<Result<_, _>>()?;
            Ok(bots)
        })
        .await
    }

    async fn bot_credential(&self, name: &str) -> Result<Option<BotCredential>, StoreError> {
        let name = name.to_owned();
        self.run(move |conn| match account_named(conn, &name) {
            Ok(credential) => Ok(Some(credential)),
            Err(StoreError::NoSuchBot(_)) => Ok(None),
            Err(error) => Err(error),
        })
        .await
    }

    async fn bot_by_key(&self, key_hash: &KeyHash) -> Result<Option<BotAccount>, StoreError> {
        let key_hash = *key_hash;
        self.run(move |conn| {
            let found = conn
                .query_row(
                    &format!("SELECT {ACCOUNT_COLUMNS} FROM bots WHERE key_hash = ?1"),
                    [key_hash.0.as_slice()],
                    credential,
                )
                .optional()?;
            Ok(found.map(|credential| credential.account))
        })
        .await
    }

    async fn create_invite(
        &self,
        code_hash: KeyHash,
        now_ms: i64,
        expires_ms: i64,
    ) -> Result<(), StoreError> {
        self.run(move |conn| {
            conn.execute(
                "INSERT INTO author_invites (code_hash, created_ms, expires_ms) VALUES (?1, ?2, ?3)",
                params![code_hash.0.as_slice(), now_ms, expires_ms],
            )?;
            Ok(())
        })
        .await
    }

    async fn redeem_invite(
        &self,
        code_hash: KeyHash,
        name: &str,
        token_hash: KeyHash,
        now_ms: i64,
    ) -> Result<Author, StoreError> {
        let name = name.to_owned();
        self.run(move |conn| {
            let tx = conn.transaction()?;
            let found = tx
                .query_row(
                    "SELECT expires_ms, author_id IS NOT NULL FROM author_invites
                     WHERE code_hash = ?1",
                    [code_hash.0.as_slice()],
                    |row| Ok((row.get::<_, i64>(0)?, row.get::<_, bool>(1)?)),
                )
                .optional()?;
            crate::authors::check_invite(found, now_ms)?;
            let inserted = tx.execute(
                "INSERT INTO authors (name, token_hash, created_ms, token_issued_ms)
                 VALUES (?1, ?2, ?3, ?3)",
                params![name, token_hash.0.as_slice(), now_ms],
            );
            match inserted {
                Err(error) if is_unique_violation(&error) => {
                    return Err(StoreError::AuthorNameTaken(name));
                }
                other => other?,
            };
            let author = tx.query_row(
                &format!("SELECT {AUTHOR_COLUMNS} FROM authors WHERE name = ?1"),
                [&name],
                author_row,
            )?;
            tx.execute(
                "UPDATE author_invites SET author_id = ?2, redeemed_ms = ?3 WHERE code_hash = ?1",
                params![code_hash.0.as_slice(), author.id.0, now_ms],
            )?;
            tx.commit()?;
            Ok(author)
        })
        .await
    }

    async fn replace_author_token(
        &self,
        author: AuthorId,
        token_hash: KeyHash,
        now_ms: i64,
    ) -> Result<Author, StoreError> {
        self.run(move |conn| {
            conn.execute(
                "UPDATE authors SET token_hash = ?2, token_issued_ms = ?3 WHERE id = ?1",
                params![author.0, token_hash.0.as_slice(), now_ms],
            )?;
            let query = format!("SELECT {AUTHOR_COLUMNS} FROM authors WHERE id = ?1");
            Ok(conn.query_row(&query, [author.0], author_row)?)
        })
        .await
    }

    async fn author_by_token(&self, token_hash: &KeyHash) -> Result<Option<Author>, StoreError> {
        let token_hash = *token_hash;
        self.run(move |conn| {
            let query = format!("SELECT {AUTHOR_COLUMNS} FROM authors WHERE token_hash = ?1");
            Ok(conn.query_row(&query, [token_hash.0.as_slice()], author_row).optional()?)
        })
        .await
    }

    async fn author(&self, name: &str) -> Result<Option<(Author, Vec<BotAccount>)>, StoreError> {
        let name = name.to_owned();
        self.run(move |conn| {
            let query = format!("SELECT {AUTHOR_COLUMNS} FROM authors WHERE name = ?1");
            let Some(author) = conn.query_row(&query, [&name], author_row).optional()? else {
                return Ok(None);
            };
            let mut bots = conn.prepare(&format!(
                "SELECT {ACCOUNT_COLUMNS} FROM bots WHERE author_id = ?1 ORDER BY name"
            ))?;
            let bots = bots
                .query_map([author.id.0], credential)?
                .map(|row| row.map(|credential| credential.account))
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(Some((author, bots)))
        })
        .await
    }

    async fn put_season(
        &self,
        season: &NewSeason,
        event: &NewSeasonEvent,
        now_ms: i64,
    ) -> Result<Season, StoreError> {
        let (season, event) = (season.clone(), event.clone());
        self.run(move |conn| sqlite_seasons::put(conn, &season, &event, now_ms)).await
    }

    async fn season(&self, name: &str) -> Result<Option<Season>, StoreError> {
        let name = name.to_owned();
        self.read(move |conn| sqlite_seasons::by_name(conn, &name)).await
    }

    async fn seasons(&self) -> Result<Vec<Season>, StoreError> {
        self.read(|conn| sqlite_seasons::all(conn)).await
    }

    async fn advance_season(
        &self,
        id: SeasonId,
        from: &[SeasonState],
        to: SeasonState,
        change: &SeasonChange,
        event: &NewSeasonEvent,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let (from, change, event) = (from.to_vec(), change.clone(), event.clone());
        self.run(move |conn| sqlite_seasons::advance(conn, id, &from, to, &change, &event, now_ms))
            .await
    }

    async fn note_season_event(
        &self,
        scope: EventScope,
        event: &NewSeasonEvent,
        now_ms: i64,
    ) -> Result<u64, StoreError> {
        let event = event.clone();
        self.run(move |conn| sqlite_seasons::note_scoped(conn, &scope, &event, now_ms)).await
    }

    async fn season_events(
        &self,
        season: SeasonId,
        from: EventsFrom,
        author: Option<AuthorId>,
        limit: u32,
    ) -> Result<Vec<SeasonEvent>, StoreError> {
        self.read(move |conn| sqlite_seasons::events(conn, season, from, author, limit)).await
    }

    async fn move_season_cursor(
        &self,
        id: SeasonId,
        cursor: SeasonCursor,
        from: i64,
        to: i64,
        event: Option<&NewSeasonEvent>,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let event = event.cloned();
        self.run(move |conn| {
            sqlite_seasons::move_cursor(conn, id, cursor, (from, to), event.as_ref(), now_ms)
        })
        .await
    }

    async fn frozen_seasons(&self, bot: BotId, now_ms: i64) -> Result<Vec<Season>, StoreError> {
        self.read(move |conn| sqlite_seasons::frozen(conn, bot, now_ms)).await
    }

    async fn request_scrimmages(
        &self,
        ladder: LadderId,
        author: AuthorId,
        tables: &[(Vec<BotId>, u64)],
        quota: u32,
        now_ms: i64,
    ) -> Result<Vec<ScrimmageId>, StoreError> {
        let tables = tables.to_vec();
        self.run(move |conn| {
            let tx = conn.transaction()?;
            let since = now_ms - scrimmages::QUOTA_WINDOW_MS;
            let (used, oldest): (u32, Option<i64>) = tx.query_row(
                "SELECT COUNT(*), MIN(requested_ms) FROM scrimmages
                 WHERE author_id = ?1 AND ladder_id = ?2 AND requested_ms > ?3",
                params![author.0, ladder.0, since],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )?;
            scrimmages::check_quota(used, tables.len(), quota, oldest, now_ms)?;
            let mut ids = Vec::with_capacity(tables.len());
            for (bots, seed) in &tables {
                tx.execute(
                    "INSERT INTO scrimmages (ladder_id, author_id, bots, seed, requested_ms, state)
                     VALUES (?1, ?2, ?3, ?4, ?5, 'pending')",
                    params![ladder.0, author.0, scrimmages::bots_json(bots), *seed as i64, now_ms],
                )?;
                ids.push(ScrimmageId(tx.last_insert_rowid()));
            }
            tx.commit()?;
            Ok(ids)
        })
        .await
    }

    async fn ladder_scrimmages(
        &self,
        ladder: LadderId,
        state: ScrimmageState,
    ) -> Result<Vec<Scrimmage>, StoreError> {
        self.run(move |conn| {
            let mut query = conn.prepare(&format!(
                "SELECT {SCRIMMAGE_COLUMNS} FROM scrimmages WHERE ladder_id = ?1 AND state = ?2
                 ORDER BY id"
            ))?;
            let rows = query.query_map(params![ladder.0, state.as_str()], scrimmage_row)?;
            rows.map(|row| scrimmages::from_row(row?)).collect()
        })
        .await
    }

    async fn start_scrimmage(&self, id: ScrimmageId, owner: &str) -> Result<bool, StoreError> {
        let owner = owner.to_owned();
        self.run(move |conn| {
            let changed = conn.execute(
                "UPDATE scrimmages SET state = 'running', owner = ?2
                 WHERE id = ?1 AND state = 'pending'",
                params![id.0, owner],
            )?;
            Ok(changed == 1)
        })
        .await
    }

    async fn end_scrimmage(
        &self,
        id: ScrimmageId,
        state: ScrimmageState,
        results: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let results = results.to_owned();
        self.run(move |conn| {
            conn.execute(
                "UPDATE scrimmages SET state = ?2, results = ?3, finished_ms = ?4 WHERE id = ?1",
                params![id.0, state.as_str(), results, now_ms],
            )?;
            Ok(())
        })
        .await
    }

    async fn requeue_scrimmages(&self, ladder: LadderId, owner: &str) -> Result<u64, StoreError> {
        let owner = owner.to_owned();
        self.run(move |conn| {
            let changed = conn.execute(
                "UPDATE scrimmages SET state = 'pending', owner = NULL
                 WHERE ladder_id = ?1 AND state = 'running' AND owner <> ?2",
                params![ladder.0, owner],
            )?;
            Ok(changed as u64)
        })
        .await
    }

    async fn author_scrimmages(
        &self,
        author: AuthorId,
        limit: u32,
    ) -> Result<Vec<Scrimmage>, StoreError> {
        self.run(move |conn| {
            let mut query = conn.prepare(&format!(
                "SELECT {SCRIMMAGE_COLUMNS} FROM scrimmages WHERE author_id = ?1
                 ORDER BY id DESC LIMIT ?2"
            ))?;
            let rows = query.query_map(params![author.0, limit], scrimmage_row)?;
            rows.map(|row| scrimmages::from_row(row?)).collect()
        })
        .await
    }

    async fn scrimmage(&self, id: ScrimmageId) -> Result<Option<Scrimmage>, StoreError> {
        self.run(move |conn| {
            let query = format!("SELECT {SCRIMMAGE_COLUMNS} FROM scrimmages WHERE id = ?1");
            let row = conn.query_row(&query, [id.0], scrimmage_row).optional()?;
            row.map(scrimmages::from_row).transpose()
        })
        .await
    }

    async fn note_version(&self, bot: BotId, version: &str, now_ms: i64) -> Result<(), StoreError> {
        let version = version.to_owned();
        self.run(move |conn| {
            let tx = conn.transaction()?;
            note_version_in(&tx, bot, &version, now_ms)?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn submit_bot(
        &self,
        bot: BotId,
        submission: &NewSubmission,
        now_ms: i64,
    ) -> Result<Submitted, StoreError> {
        let submission = submission.clone();
        self.run(move |conn| submissions::submit(conn, bot, &submission, now_ms)).await
    }

    async fn submissions(&self, name: &str) -> Result<Vec<Submission>, StoreError> {
        let name = name.to_owned();
        self.read(move |conn| {
            let bot = account_named(conn, &name)?.account.id;
            submissions::submissions(conn, bot)
        })
        .await
    }

    async fn newest_submission(
        &self,
        bot: BotId,
    ) -> Result<Option<(Submission, Vec<u8>)>, StoreError> {
        self.read(move |conn| submissions::newest(conn, bot)).await
    }

    async fn newest_submissions(&self) -> Result<Vec<(String, Submission)>, StoreError> {
        self.read(|conn| submissions::newest_of_active(conn)).await
    }

    async fn bot_versions(&self, name: &str) -> Result<BotVersions, StoreError> {
        let name = name.to_owned();
        self.run(move |conn| {
            let tx = conn.transaction()?;
            let bot = account_named(&tx, &name)?.account.id;
            let versions = {
                let mut stmt = tx.prepare(
                    "SELECT version, first_seen_ms, last_seen_ms FROM bot_versions
                     WHERE bot_id = ?1 ORDER BY first_seen_ms, version",
                )?;
                stmt.query_map([bot.0], |row| {
                    Ok(BotVersion {
                        version: row.get(0)?,
                        first_seen_ms: row.get(1)?,
                        last_seen_ms: row.get(2)?,
                    })
                })?
                .collect::<Result<_, _>>()?
            };
            let forgotten: i64 = tx.query_row(
                "SELECT versions_forgotten FROM bots WHERE id = ?1",
                [bot.0],
                |row| row.get(0),
            )?;
            tx.commit()?;
            Ok(BotVersions { kept: versions, forgotten: u64::try_from(forgotten).unwrap_or(0) })
        })
        .await
    }

    async fn create_ladder(&self, ladder: &NewLadder, now_ms: i64) -> Result<Ladder, StoreError> {
        let ladder = ladder.clone();
        self.run(move |conn| ladders::create_ladder(conn, &ladder, now_ms)).await
    }

    async fn ladders(&self) -> Result<Vec<Ladder>, StoreError> {
        self.read(ladders::ladders).await
    }

    async fn ladder(&self, name: &str) -> Result<Option<Ladder>, StoreError> {
        let name = name.to_owned();
        self.read(move |conn| ladders::ladder_named(conn, &name)).await
    }

    async fn set_ladder_status(
        &self,
        ladder: LadderId,
        status: LadderStatus,
        reason: Option<&str>,
        now_ms: i64,
    ) -> Result<Ladder, StoreError> {
        let reason = reason.map(str::to_owned);
        self.run(move |conn| {
            ladders::set_ladder_status(conn, ladder, status, reason.as_deref(), now_ms)
        })
        .await
    }

    async fn reopen_ladder(&self, ladder: LadderId, now_ms: i64) -> Result<Ladder, StoreError> {
        self.run(move |conn| ladders::reopen_ladder(conn, ladder, now_ms)).await
    }

    async fn update_ladder_config(
        &self,
        ladder: LadderId,
        provisional_sets: u32,
        config: &str,
    ) -> Result<Ladder, StoreError> {
        let config = config.to_owned();
        self.run(move |conn| ladders::update_ladder_config(conn, ladder, provisional_sets, &config))
            .await
    }

    async fn enter_ladder(
        &self,
        ladder: LadderId,
        bot: BotId,
        initial: StoredRating,
        now_ms: i64,
    ) -> Result<LadderBot, StoreError> {
        self.run(move |conn| ladders::enter_ladder(conn, ladder, bot, initial, now_ms)).await
    }

    async fn ladder_bots(&self, ladder: LadderId) -> Result<Vec<LadderBot>, StoreError> {
        self.read(move |conn| ladders::ladder_bots(conn, ladder)).await
    }

    async fn pause_bot(
        &self,
        ladder: LadderId,
        bot: BotId,
        reason: &str,
        now_ms: i64,
    ) -> Result<LadderBot, StoreError> {
        let reason = reason.to_owned();
        self.run(move |conn| ladders::pause_bot(conn, ladder, bot, Some((&reason, now_ms)))).await
    }

    async fn resume_bot(&self, ladder: LadderId, bot: BotId) -> Result<LadderBot, StoreError> {
        self.run(move |conn| ladders::pause_bot(conn, ladder, bot, None)).await
    }

    async fn plan_set(
        &self,
        ladder: LadderId,
        set: &NewSet,
        now_ms: i64,
    ) -> Result<LadderSet, StoreError> {
        let set = set.clone();
        self.run(move |conn| ladders::plan_set(conn, ladder, &set, now_ms)).await
    }

    async fn set_count(&self, ladder: LadderId) -> Result<u64, StoreError> {
        self.read(move |conn| ladders::set_count(conn, ladder)).await
    }

    async fn open_sets(&self, ladder: LadderId) -> Result<Vec<LadderSet>, StoreError> {
        self.read(move |conn| ladders::sets_in_state(conn, ladder, crate::SetState::Open)).await
    }

    async fn rated_sets(&self, ladder: LadderId) -> Result<Vec<LadderSet>, StoreError> {
        self.read(move |conn| ladders::sets_in_state(conn, ladder, crate::SetState::Rated)).await
    }

    async fn claim_match(
        &self,
        id: LadderMatchId,
        lease: &Lease,
        now_ms: i64,
    ) -> Result<Claim, StoreError> {
        let lease = lease.clone();
        self.run(move |conn| ladders::claim_match(conn, id, &lease, now_ms)).await
    }

    async fn renew_leases(&self, owner: &str, until_ms: i64) -> Result<u64, StoreError> {
        let owner = owner.to_owned();
        self.run(move |conn| ladders::renew_leases(conn, &owner, until_ms)).await
    }

    async fn finish_match(&self, result: &MatchResult, now_ms: i64) -> Result<(), StoreError> {
        let result = result.clone();
        self.run(move |conn| ladders::finish_match(conn, &result, now_ms)).await
    }

    async fn release_match(&self, claim: &Claim) -> Result<(), StoreError> {
        let claim = claim.clone();
        self.run(move |conn| ladders::release_match(conn, &claim)).await
    }

    async fn requeue_matches(&self, which: &Requeue, now_ms: i64) -> Result<u64, StoreError> {
        let which = which.clone();
        self.run(move |conn| ladders::requeue_matches(conn, &which, now_ms)).await
    }

    async fn void_set(
        &self,
        ladder: LadderId,
        index: u64,
        reason: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let reason = reason.to_owned();
        self.run(move |conn| ladders::void_set(conn, ladder, index, &reason, now_ms)).await
    }

    async fn rate_set(
        &self,
        ladder: LadderId,
        index: u64,
        updates: &[RatingUpdate],
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let updates = updates.to_vec();
        self.run(move |conn| ladders::rate_set(conn, ladder, index, &updates, now_ms)).await
    }

    async fn rating_changes(&self, ladder: LadderId) -> Result<Vec<RatingChangeRow>, StoreError> {
        self.read(move |conn| ladders::rating_changes(conn, ladder)).await
    }

    async fn recent_outcomes(
        &self,
        ladder: LadderId,
        bot: BotId,
        limit: u32,
    ) -> Result<Vec<SeatOutcome>, StoreError> {
        self.run(move |conn| ladders::recent_outcomes(conn, ladder, bot, limit)).await
    }

    async fn failures(
        &self,
        ladder: LadderId,
        bot: BotId,
        limit: u32,
    ) -> Result<Vec<FailureRow>, StoreError> {
        self.read(move |conn| ladders::failures(conn, ladder, bot, limit)).await
    }

    async fn ladder_record(&self, id: LadderMatchId) -> Result<Option<String>, StoreError> {
        self.read(move |conn| ladders::record(conn, id)).await
    }

    async fn keep_output_by_server_id(
        &self,
        server_match_id: &str,
        bot: &str,
        output: &str,
    ) -> Result<bool, StoreError> {
        let (server_match_id, bot, output) =
            (server_match_id.to_owned(), bot.to_owned(), output.to_owned());
        self.run(move |conn| {
            let tx = conn.transaction()?;
            let found = tx
                .query_row(
                    crate::ladders::OUTPUT_OF_SERVER_MATCH,
                    params![server_match_id, bot],
                    |row| Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?, row.get::<_, i64>(2)?)),
                )
                .optional()?;
            let Some((ladder, id, bot)) = found else { return Ok(false) };
            keep_output_in(&tx, ladder, id, bot, &output)?;
            tx.commit()?;
            Ok(true)
        })
        .await
    }

    async fn keep_output(
        &self,
        ladder: LadderId,
        id: LadderMatchId,
        bot: BotId,
        output: &str,
    ) -> Result<(), StoreError> {
        let output = output.to_owned();
        self.run(move |conn| {
            let tx = conn.transaction()?;
            keep_output_in(&tx, ladder.0, id.0, bot.0, &output)?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn claim_ready(
        &self,
        ladder: LadderId,
        ready: &[BotId],
        lease: &Lease,
        now_ms: i64,
        limit: crate::ClaimLimit,
    ) -> Result<Vec<Claim>, StoreError> {
        let (ready, lease) = (ready.to_vec(), lease.clone());
        self.run(move |conn| {
            crate::sqlite_nodes::claim_ready(conn, ladder, &ready, &lease, now_ms, limit)
        })
        .await
    }

    async fn running_matches(&self, ladder: LadderId, now_ms: i64) -> Result<u32, StoreError> {
        self.read(move |conn| crate::sqlite_nodes::running_matches(conn, ladder, now_ms)).await
    }

    /// One node has the file: it leads every ladder.
    async fn try_lead(&self, _ladder: LadderId) -> Result<bool, StoreError> {
        Ok(true)
    }

    async fn resign(&self, _ladder: LadderId) -> Result<(), StoreError> {
        Ok(())
    }

    async fn leaderboard(&self, ladder: LadderId) -> Result<Vec<LeaderboardLine>, StoreError> {
        self.read(move |conn| reads::leaderboard(conn, ladder)).await
    }

    async fn bot_matches(
        &self,
        ladder: LadderId,
        bot: BotId,
        before: Option<LadderMatchId>,
        limit: u32,
    ) -> Result<Vec<LadderMatch>, StoreError> {
        self.read(move |conn| reads::bot_matches(conn, ladder, bot, before, limit)).await
    }

    async fn bot_rating_history(
        &self,
        ladder: LadderId,
        bot: BotId,
    ) -> Result<Vec<RatingChangeRow>, StoreError> {
        self.read(move |conn| reads::bot_rating_history(conn, ladder, bot)).await
    }

    async fn head_to_head(
        &self,
        ladder: LadderId,
        bot: BotId,
    ) -> Result<Vec<HeadToHead>, StoreError> {
        self.read(move |conn| reads::head_to_head(conn, ladder, bot)).await
    }

    async fn bot_ladder_versions(
        &self,
        ladder: LadderId,
        bot: BotId,
    ) -> Result<Vec<LadderVersion>, StoreError> {
        self.read(move |conn| reads::bot_ladder_versions(conn, ladder, bot)).await
    }

    async fn ladder_match(&self, id: LadderMatchId) -> Result<Option<LadderMatch>, StoreError> {
        self.read(move |conn| reads::ladder_match(conn, id)).await
    }

    async fn bot_think_times(
        &self,
        ladder: LadderId,
        bot: BotId,
        matches: u32,
    ) -> Result<Vec<crate::VersionThink>, StoreError> {
        self.read(move |conn| reads::bot_think_times(conn, ladder, bot, matches)).await
    }

    async fn put_standings(
        &self,
        ladder: LadderId,
        standings: &crate::Standings,
    ) -> Result<(), StoreError> {
        let standings = standings.clone();
        self.run(move |conn| crate::sqlite_standings::put_standings(conn, ladder, &standings)).await
    }

    async fn standings(&self, ladder: LadderId) -> Result<Option<crate::Standings>, StoreError> {
        self.read(move |conn| crate::sqlite_standings::standings(conn, ladder)).await
    }

    async fn ready(&self) -> Result<(), StoreError> {
        let found = self.read(|conn| Ok(schema_version(conn)?)).await?;
        crate::schema_is(found, MIGRATIONS.len() as i64)
    }

    /// The process that opened the file is its one node.
    fn is_shared(&self) -> bool {
        false
    }

    async fn beat_node(&self, beat: &NodeBeat, now_ms: i64) -> Result<(), StoreError> {
        let beat = beat.clone();
        self.run(move |conn| crate::sqlite_nodes::beat_node(conn, &beat, now_ms)).await
    }

    async fn nodes(&self, seen_since_ms: i64) -> Result<Vec<NodeRow>, StoreError> {
        self.run(move |conn| crate::sqlite_nodes::nodes(conn, seen_since_ms)).await
    }

    async fn note_hosting(&self, claim: &Claim, server_match_id: &str) -> Result<(), StoreError> {
        let (claim, server_match_id) = (claim.clone(), server_match_id.to_owned());
        self.run(move |conn| crate::sqlite_nodes::note_hosting(conn, &claim, &server_match_id))
            .await
    }

    async fn hosting_node(&self, server_match_id: &str) -> Result<Option<NodeRow>, StoreError> {
        let server_match_id = server_match_id.to_owned();
        self.run(move |conn| crate::sqlite_nodes::hosting_node(conn, &server_match_id)).await
    }

    async fn running_elsewhere(
        &self,
        query: &crate::ElsewhereQuery,
    ) -> Result<Vec<crate::RunningElsewhere>, StoreError> {
        let query = query.clone();
        self.run(move |conn| crate::sqlite_nodes::running_elsewhere(conn, &query)).await
    }

    async fn finished_elsewhere(
        &self,
        query: &crate::FinishedQuery,
    ) -> Result<Vec<crate::FinishedElsewhere>, StoreError> {
        let query = query.clone();
        self.run(move |conn| crate::sqlite_nodes::finished_elsewhere(conn, &query)).await
    }

    async fn finished_by_server_id(
        &self,
        server_match_id: &str,
    ) -> Result<Option<crate::FinishedElsewhere>, StoreError> {
        let server_match_id = server_match_id.to_owned();
        self.run(move |conn| crate::sqlite_nodes::finished_by_server_id(conn, &server_match_id))
            .await
    }
}

/// Keeps `output` as bot `bot`'s in ladder match `id` of ladder `ladder`, and drops that bot's
/// outputs in the ladder past the last [`crate::OUTPUTS_KEPT`] (`ladders::KEEP_OUTPUT`).
fn keep_output_in(
    tx: &rusqlite::Transaction<'_>,
    ladder: i64,
    id: i64,
    bot: i64,
    output: &str,
) -> Result<(), StoreError> {
    let [keep, drop] = crate::ladders::KEEP_OUTPUT;
    tx.execute(keep, params![ladder, id, bot, output])?;
    tx.execute(drop, params![ladder, bot, crate::OUTPUTS_KEPT])?;
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_file_keeps_its_accounts_across_opens_and_migrates_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.db");
        let hash = KeyHash::of("crk_test");
        {
            let store = SqliteStore::open(&path).await.unwrap();
            assert_eq!(store.schema_version().await.unwrap(), MIGRATIONS.len() as i64);
            store.register_bot("alice", hash, 1_000).await.unwrap();
        }
        let store = SqliteStore::open(&path).await.unwrap();
        assert_eq!(store.schema_version().await.unwrap(), MIGRATIONS.len() as i64);
        let alice = store.bot_credential("alice").await.unwrap().unwrap();
        assert_eq!(alice.key_hash, Some(hash));
        assert_eq!(alice.account.created_ms, 1_000);
        assert_eq!(store.bot_by_key(&hash).await.unwrap().map(|a| a.name), Some("alice".into()));
        assert_eq!(store.bot_credential("bob").await.unwrap(), None);
    }

    /// The plans SQLite picks for the reads a hosted ladder makes at every step and every
    /// rated set: they must come from an index, not a scan of the ladder's every set (the
    /// cost of a scan grows with the ladder: 100,000 matches made each rated set slower).
    #[tokio::test]
    async fn the_open_sets_the_set_count_and_the_finished_matches_are_read_from_indexes() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(&dir.path().join("store.db")).await.unwrap();
        let plans = store
            .run(|conn| {
                let plan = |sql: &str| -> rusqlite::Result<String> {
                    let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
                    let details: Vec<String> =
                        stmt.query_map([], |row| row.get(3))?.collect::<rusqlite::Result<_>>()?;
                    Ok(details.join("; "))
                };
                let open = "SELECT set_index FROM ladder_sets
                     WHERE ladder_id = 1 AND state = 'open' ORDER BY set_index";
                let earlier = "SELECT COUNT(*) FROM ladder_sets
                     WHERE ladder_id = 1 AND state = 'open' AND set_index < 7";
                let count = "SELECT COALESCE(MAX(set_index) + 1, 0) FROM ladder_sets
                     WHERE ladder_id = 1";
                // The other nodes' done matches, a page after a cursor, and one by server id.
                let finished = crate::sqlite_nodes::finished_elsewhere_sql()
                    .replace("?1", "'here'")
                    .replace("?2", "1000")
                    .replace("?3", "7")
                    .replace("?4", "50");
                let by_server_id =
                    crate::sqlite_nodes::finished_by_server_id_sql().replace("?1", "'srv'");
                let claimable =
                    crate::sqlite_nodes::CLAIMABLE.replace("?1", "1").replace("?2", "1000");
                Ok([
                    plan(open)?,
                    plan(earlier)?,
                    plan(count)?,
                    plan(&finished)?,
                    plan(&by_server_id)?,
                    plan(&claimable)?,
                ])
            })
            .await
            .unwrap();
        assert!(
            plans[3].contains("ladder_matches_done")
                && !plans[3].contains("TEMP B-TREE FOR ORDER BY"),
            "the finished listing down its index, in its order: {}",
            plans[3]
        );
        assert!(
            plans[4].contains("ladder_matches_by_server_id"),
            "a done match by its server id: {}",
            plans[4]
        );
        assert!(
            plans[5].contains("ladder_matches_claimable")
                && !plans[5].contains("TEMP B-TREE FOR ORDER BY"),
            "the claimable matches down their index, in set order: {}",
            plans[5]
        );
        assert!(plans[0].contains("ladder_sets_open"), "the open sets: {}", plans[0]);
        assert!(plans[1].contains("ladder_sets_open"), "open sets before one: {}", plans[1]);
        assert!(
            plans[2].contains("USING") && !plans[2].starts_with("SCAN"),
            "the set count from the primary key: {}",
            plans[2]
        );
    }

    /// Ready while the file answers at the schema this code migrates to; not once another
    /// program has left it at an older one (or a newer one), read on the read side.
    #[tokio::test]
    async fn ready_means_the_file_answers_at_this_schema() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.db");
        let store = SqliteStore::open(&path).await.unwrap();
        store.ready().await.unwrap();
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", 3).unwrap();
        let behind = store.ready().await.unwrap_err();
        let known = MIGRATIONS.len() as i64;
        assert!(matches!(behind, StoreError::SchemaBehind { found: 3, known: k } if k == known));
        assert!(behind.to_string().contains("migrations up to"), "{behind}");
        conn.pragma_update(None, "user_version", 99).unwrap();
        let newer = store.ready().await.unwrap_err();
        assert!(matches!(newer, StoreError::NewerSchema { found: 99, .. }), "{newer}");
    }

    #[tokio::test]
    async fn a_newer_schema_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.db");
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", 99).unwrap();
        drop(conn);
        let refused = SqliteStore::open(&path).await.unwrap_err();
        assert!(matches!(refused, StoreError::NewerSchema { found: 99, .. }), "{refused}");
    }
}
