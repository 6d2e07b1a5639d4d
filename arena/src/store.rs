//! Storage: one SQLite file per ladder, with schema migrations (`PRAGMA user_version`).
//!
//! Every planned duplicate set and its matches are written before they are played; a match
//! becomes `done` in one transaction with its result and record, and a set is rated in one
//! transaction with its rating changes. Killing the arena at any moment therefore loses no
//! finished match: on restart, [`Store::pending_matches`] lists exactly the unfinished ones
//! (which are replayed from their seeds) and [`Store::unrated_sets`] the finished sets whose
//! rating a kill interrupted.
//!
//! SQLite's write-ahead log makes a committed transaction survive the death of the process.

use std::path::Path;

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

use cardroom_rank::rating::{PairedResult, Rating, RatingChange};
use cardroom_rank::stats::MatchOutcome;

/// Why storage failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A stored JSON column could not be read or written.
    #[error("stored JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The file holds a newer schema than this arena knows.
    #[error("the database has schema version {found}, this arena knows up to {known}")]
    NewerSchema {
        /// The file's version.
        found: i64,
        /// The newest this code knows.
        known: i64,
    },
    /// A file opened read-only holds an older schema than this arena's (or none): only a
    /// writer migrates.
    #[error(
        "the database has schema version {found}, a reader needs {known}: run the arena on it once"
    )]
    OlderSchema {
        /// The file's version.
        found: i64,
        /// The version this code reads.
        known: i64,
    },
    /// The file holds another ladder (other bots or settings).
    #[error("the database holds another ladder: {0}")]
    OtherLadder(String),
}

/// The migrations, in order: migration `i` takes the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: the ladder, its bots, sets, matches and rating changes.
    "CREATE TABLE ladder (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        config TEXT NOT NULL,
        created_at TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE TABLE bots (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        mean REAL NOT NULL,
        sigma REAL NOT NULL,
        volatility REAL NOT NULL
    );
    CREATE TABLE deal_sets (
        id INTEGER PRIMARY KEY,
        round INTEGER NOT NULL,
        bots TEXT NOT NULL,
        paired TEXT,
        rated INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        set_id INTEGER NOT NULL REFERENCES deal_sets(id),
        seed INTEGER NOT NULL,
        seats TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'done')),
        outcome TEXT,
        record TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        finished_at TEXT
    );
    CREATE INDEX matches_by_set ON matches(set_id);
    CREATE INDEX matches_by_status ON matches(status);
    CREATE TABLE rating_changes (
        id INTEGER PRIMARY KEY,
        set_id INTEGER NOT NULL REFERENCES deal_sets(id),
        bot INTEGER NOT NULL REFERENCES bots(id),
        mean_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mean_after REAL NOT NULL,
        sigma_after REAL NOT NULL,
        volatility_after REAL NOT NULL
    );",
];

/// One match to play: its seed and which bot sits in each seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedMatch {
    /// The deal's seed.
    pub seed: u64,
    /// `seats[seat]` is the bot (ladder index) in that seat.
    pub seats: Vec<usize>,
}

/// A stored match not yet finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingMatch {
    /// Its id.
    pub id: i64,
    /// Its set.
    pub set_id: i64,
    /// What to play.
    pub planned: PlannedMatch,
}

/// A stored duplicate set.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredSet {
    /// Its id.
    pub id: i64,
    /// The round that planned it.
    pub round: u32,
    /// The bots at its table (a single bot: a Swiss bye).
    pub bots: Vec<usize>,
    /// Its paired result once every match is done and it is rated.
    pub paired: Option<PairedResult>,
}

/// A finished match as stored, for readers (the web pages).
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedMatch {
    /// Its id.
    pub id: i64,
    /// Its duplicate set.
    pub set_id: i64,
    /// The deal's seed.
    pub seed: u64,
    /// `seats[seat]` is the bot (ladder index) in that seat.
    pub seats: Vec<usize>,
    /// Its outcome.
    pub outcome: MatchOutcome,
    /// When it finished (UTC, `YYYY-MM-DD HH:MM:SS`).
    pub finished_at: String,
}

/// One point of a bot's rating history: its rating after a rated set.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RatingPoint {
    /// The set that changed it.
    pub set_id: i64,
    /// The rating before that set.
    pub before: Rating,
    /// The rating after it.
    pub after: Rating,
}

/// A ladder's SQLite file.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens (or creates) the file and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::init(Connection::open(path)?)
    }

    /// A store in memory, for tests.
    pub fn in_memory() -> Result<Store, StoreError> {
        Store::init(Connection::open_in_memory()?)
    }

    /// Opens an existing file for reading only: nothing is created, migrated or written, so
    /// that a reader (the web pages) can never disturb the arena that writes it.
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let store = Store { conn };
        let known = MIGRATIONS.len() as i64;
        match store.schema_version()? {
            found if found > known => Err(StoreError::NewerSchema { found, known }),
            found if found < known => Err(StoreError::OlderSchema { found, known }),
            _ => Ok(store),
        }
    }

    fn init(conn: Connection) -> Result<Store, StoreError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let mut store = Store { conn };
        store.migrate()?;
        Ok(store)
    }

    /// The schema version.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        Ok(self.conn.pragma_query_value(None, "user_version", |row| row.get(0))?)
    }

    fn migrate(&mut self) -> Result<(), StoreError> {
        let known = MIGRATIONS.len() as i64;
        let found = self.schema_version()?;
        if found > known {
            return Err(StoreError::NewerSchema { found, known });
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(found.max(0) as usize) {
            let tx = self.conn.transaction()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", i as i64 + 1)?;
            tx.commit()?;
        }
        Ok(())
    }

    /// Starts a ladder, or checks that the file holds this one: the same `config` (a canonical
    /// JSON text of the ladder's settings) and bots. Returns `true` if it was new.
    pub fn begin(
        &mut self,
        config: &str,
        bots: &[String],
        initial: Rating,
    ) -> Result<bool, StoreError> {
        let tx = self.conn.transaction()?;
        let stored: Option<String> =
            tx.query_row("SELECT config FROM ladder WHERE id = 1", [], |r| r.get(0)).optional()?;
        match stored {
            Some(stored) => {
                if stored != config {
                    return Err(StoreError::OtherLadder("its settings differ".into()));
                }
                let names: Vec<String> = {
                    let mut stmt = tx.prepare("SELECT name FROM bots ORDER BY id")?;
                    stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?
                };
                if names != bots {
                    return Err(StoreError::OtherLadder(format!(
                        "its bots are {}, the file's are {}",
                        names.join(", "),
                        bots.join(", ")
                    )));
                }
                Ok(false)
            }
            None => {
                tx.execute("INSERT INTO ladder (id, config) VALUES (1, ?1)", [config])?;
                for (i, name) in bots.iter().enumerate() {
                    tx.execute(
                        "INSERT INTO bots (id, name, mean, sigma, volatility) VALUES (?1, ?2, ?3, ?4, ?5)",
                        params![i as i64, name, initial.mean, initial.sigma, initial.volatility],
                    )?;
                }
                tx.commit()?;
                Ok(true)
            }
        }
    }

    /// The bots' names, by index.
    pub fn bot_names(&self) -> Result<Vec<String>, StoreError> {
        let mut stmt = self.conn.prepare("SELECT name FROM bots ORDER BY id")?;
        let names = stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
        Ok(names)
    }

    /// The stored settings of the ladder, if begun.
    pub fn config(&self) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT config FROM ladder WHERE id = 1", [], |r| r.get(0))
            .optional()?)
    }

    /// Replaces the stored settings of a begun ladder (a resumed ladder whose budget grew).
    pub fn set_config(&mut self, config: &str) -> Result<(), StoreError> {
        self.conn.execute("UPDATE ladder SET config = ?1 WHERE id = 1", [config])?;
        Ok(())
    }

    /// The current ratings, by bot index.
    pub fn ratings(&self) -> Result<Vec<Rating>, StoreError> {
        let mut stmt = self.conn.prepare("SELECT mean, sigma, volatility FROM bots ORDER BY id")?;
        let ratings = stmt
            .query_map([], |r| {
                Ok(Rating { mean: r.get(0)?, sigma: r.get(1)?, volatility: r.get(2)? })
            })?
            .collect::<Result<_, _>>()?;
        Ok(ratings)
    }

    /// Stores a planned set and its matches (all pending) in one transaction; returns its id.
    pub fn add_set(
        &mut self,
        round: u32,
        bots: &[usize],
        matches: &[PlannedMatch],
    ) -> Result<i64, StoreError> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO deal_sets (round, bots) VALUES (?1, ?2)",
            params![round, serde_json::to_string(bots)?],
        )?;
        let set_id = tx.last_insert_rowid();
        for m in matches {
            tx.execute(
                "INSERT INTO matches (set_id, seed, seats, status) VALUES (?1, ?2, ?3, 'pending')",
                params![set_id, m.seed as i64, serde_json::to_string(&m.seats)?],
            )?;
        }
        tx.commit()?;
        Ok(set_id)
    }

    /// Stores a Swiss bye (a set of one bot, no matches, rated at once).
    pub fn add_bye(&mut self, round: u32, bot: usize) -> Result<(), StoreError> {
        let paired = PairedResult { places: vec![(bot, 1.0)] };
        self.conn.execute(
            "INSERT INTO deal_sets (round, bots, paired, rated) VALUES (?1, ?2, ?3, 1)",
            params![round, serde_json::to_string(&[bot])?, serde_json::to_string(&paired)?],
        )?;
        Ok(())
    }

    /// The unfinished matches, oldest first.
    pub fn pending_matches(&self) -> Result<Vec<PendingMatch>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT id, set_id, seed, seats FROM matches WHERE status = 'pending' ORDER BY id",
        )?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(id, set_id, seed, seats)| {
                Ok(PendingMatch {
                    id,
                    set_id,
                    planned: PlannedMatch {
                        seed: seed as u64,
                        seats: serde_json::from_str(&seats)?,
                    },
                })
            })
            .collect()
    }

    /// Notes that a match is being (re)started, for the record of replays.
    pub fn start_match(&mut self, id: i64) -> Result<(), StoreError> {
        self.conn.execute("UPDATE matches SET attempts = attempts + 1 WHERE id = ?1", [id])?;
        Ok(())
    }

    /// Stores a finished match's outcome and record. Returns `true` if this finished its set.
    pub fn finish_match(
        &mut self,
        id: i64,
        outcome: &MatchOutcome,
        record: Option<&str>,
    ) -> Result<bool, StoreError> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "UPDATE matches SET status = 'done', outcome = ?2, record = ?3, finished_at = datetime('now')
             WHERE id = ?1 AND status = 'pending'",
            params![id, serde_json::to_string(outcome)?, record],
        )?;
        let left: i64 = tx.query_row(
            "SELECT COUNT(*) FROM matches WHERE status = 'pending'
             AND set_id = (SELECT set_id FROM matches WHERE id = ?1)",
            [id],
            |r| r.get(0),
        )?;
        tx.commit()?;
        Ok(left == 0)
    }

    /// Finished sets not yet rated, each with its matches' outcomes: those before the first
    /// unfinished set, oldest first, so that sets are rated in the order they were planned
    /// (and the ratings do not depend on which worker finished first).
    pub fn unrated_sets(&self) -> Result<Vec<(i64, Vec<MatchOutcome>)>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT id, EXISTS (SELECT 1 FROM matches m WHERE m.set_id = s.id AND m.status = 'pending')
             FROM deal_sets s WHERE rated = 0 ORDER BY id",
        )?;
        let rows: Vec<(i64, bool)> =
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<_, _>>()?;
        rows.into_iter()
            .take_while(|&(_, unfinished)| !unfinished)
            .map(|(id, _)| Ok((id, self.set_outcomes(id)?)))
            .collect()
    }

    /// The matches' outcomes of every rated set, oldest first: what the leaderboard's
    /// head-to-head evidence is built from.
    pub fn rated_set_outcomes(&self) -> Result<Vec<Vec<MatchOutcome>>, StoreError> {
        self.rated_set_outcomes_after(0)
    }

    /// [`Store::rated_set_outcomes`] less the first `skip` rated sets (those a caller has
    /// already read, when sets are rated in plan order).
    pub fn rated_set_outcomes_after(
        &self,
        skip: usize,
    ) -> Result<Vec<Vec<MatchOutcome>>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT id FROM deal_sets WHERE rated = 1 ORDER BY id LIMIT -1 OFFSET ?1")?;
        let skip = i64::try_from(skip).unwrap_or(i64::MAX);
        let ids: Vec<i64> = stmt.query_map([skip], |r| r.get(0))?.collect::<Result<_, _>>()?;
        ids.into_iter().map(|id| self.set_outcomes(id)).collect()
    }

    fn set_outcomes(&self, set_id: i64) -> Result<Vec<MatchOutcome>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT outcome FROM matches WHERE set_id = ?1 AND status = 'done' ORDER BY id",
        )?;
        let texts: Vec<String> =
            stmt.query_map([set_id], |r| r.get(0))?.collect::<Result<_, _>>()?;
        texts.iter().map(|t| Ok(serde_json::from_str(t)?)).collect()
    }

    /// Rates a finished set: stores its paired result and rating changes and updates the bots,
    /// in one transaction.
    pub fn rate_set(
        &mut self,
        set_id: i64,
        paired: &PairedResult,
        changes: &[RatingChange],
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "UPDATE deal_sets SET paired = ?2, rated = 1 WHERE id = ?1",
            params![set_id, serde_json::to_string(paired)?],
        )?;
        for c in changes {
            tx.execute(
                "INSERT INTO rating_changes
                 (set_id, bot, mean_before, sigma_before, mean_after, sigma_after, volatility_after)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    set_id,
                    c.bot as i64,
                    c.before.mean,
                    c.before.sigma,
                    c.after.mean,
                    c.after.sigma,
                    c.after.volatility
                ],
            )?;
            tx.execute(
                "UPDATE bots SET mean = ?2, sigma = ?3, volatility = ?4 WHERE id = ?1",
                params![c.bot as i64, c.after.mean, c.after.sigma, c.after.volatility],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Every set, oldest first.
    pub fn sets(&self) -> Result<Vec<StoredSet>, StoreError> {
        let mut stmt =
            self.conn.prepare("SELECT id, round, bots, paired FROM deal_sets ORDER BY id")?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, u32>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, Option<String>>(3)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(id, round, bots, paired)| {
                Ok(StoredSet {
                    id,
                    round,
                    bots: serde_json::from_str(&bots)?,
                    paired: paired.map(|p| serde_json::from_str(&p)).transpose()?,
                })
            })
            .collect()
    }

    /// Rounds planned so far.
    pub fn rounds(&self) -> Result<u32, StoreError> {
        let max: Option<u32> =
            self.conn.query_row("SELECT MAX(round) FROM deal_sets", [], |r| r.get(0))?;
        Ok(max.map_or(0, |m| m + 1))
    }

    /// Every finished match's outcome, oldest first.
    pub fn outcomes(&self) -> Result<Vec<MatchOutcome>, StoreError> {
        let mut stmt =
            self.conn.prepare("SELECT outcome FROM matches WHERE status = 'done' ORDER BY id")?;
        let texts: Vec<String> = stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
        texts.iter().map(|t| Ok(serde_json::from_str(t)?)).collect()
    }

    /// Matches finished and matches in total.
    pub fn progress(&self) -> Result<(u64, u64), StoreError> {
        Ok(self.conn.query_row(
            "SELECT COUNT(*) FILTER (WHERE status = 'done'), COUNT(*) FROM matches",
            [],
            |r| Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64)),
        )?)
    }

    /// A finished match's record (JSON), by match id.
    pub fn record(&self, id: i64) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT record FROM matches WHERE id = ?1", [id], |r| {
                r.get::<_, Option<String>>(0)
            })
            .optional()?
            .flatten())
    }

    /// A number that changes whenever a match finishes or a set is rated: readers poll it to
    /// learn that the leaderboard moved.
    pub fn revision(&self) -> Result<u64, StoreError> {
        Ok(self.conn.query_row(
            "SELECT (SELECT COUNT(*) FROM matches WHERE status = 'done')
                  + (SELECT COUNT(*) FROM rating_changes)",
            [],
            |r| r.get::<_, i64>(0),
        )? as u64)
    }

    /// Bot `bot`'s rating after each rated set it played, oldest first.
    pub fn rating_history(&self, bot: usize) -> Result<Vec<RatingPoint>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT c.set_id, c.mean_before, c.sigma_before, c.mean_after, c.sigma_after,
                    c.volatility_after, b.volatility
             FROM rating_changes c JOIN bots b ON b.id = c.bot
             WHERE c.bot = ?1 ORDER BY c.id",
        )?;
        let points = stmt
            .query_map([bot as i64], |r| {
                Ok(RatingPoint {
                    set_id: r.get(0)?,
                    // The volatility before a change is not stored; the latest stands in.
                    before: Rating { mean: r.get(1)?, sigma: r.get(2)?, volatility: r.get(6)? },
                    after: Rating { mean: r.get(3)?, sigma: r.get(4)?, volatility: r.get(5)? },
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok(points)
    }

    /// Finished matches, newest first: those of bot `bot` (every match if `None`), skipping
    /// `offset` and returning at most `limit`.
    pub fn finished_matches(
        &self,
        bot: Option<usize>,
        offset: u64,
        limit: u64,
    ) -> Result<Vec<FinishedMatch>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT id, set_id, seed, seats, outcome, finished_at FROM matches
             WHERE status = 'done'
               AND (?1 IS NULL OR EXISTS (SELECT 1 FROM json_each(seats) WHERE value = ?1))
             ORDER BY id DESC LIMIT ?2 OFFSET ?3",
        )?;
        let rows = stmt
            .query_map(
                params![bot.map(|b| b as i64), limit as i64, offset as i64],
                FinishedRow::read,
            )?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter().map(FinishedRow::parse).collect()
    }

    /// Finished matches of bot `bot` (every match if `None`).
    pub fn finished_count(&self, bot: Option<usize>) -> Result<u64, StoreError> {
        Ok(self.conn.query_row(
            "SELECT COUNT(*) FROM matches WHERE status = 'done'
               AND (?1 IS NULL OR EXISTS (SELECT 1 FROM json_each(seats) WHERE value = ?1))",
            [bot.map(|b| b as i64)],
            |r| r.get::<_, i64>(0),
        )? as u64)
    }

    /// One finished match and its record (JSON, if kept); `None` for an unknown or unfinished
    /// match.
    pub fn finished_match(
        &self,
        id: i64,
    ) -> Result<Option<(FinishedMatch, Option<String>)>, StoreError> {
        let row = self
            .conn
            .query_row(
                "SELECT id, set_id, seed, seats, outcome, finished_at, record FROM matches
                 WHERE id = ?1 AND status = 'done'",
                [id],
                |r| Ok((FinishedRow::read(r)?, r.get::<_, Option<String>>(6)?)),
            )
            .optional()?;
        row.map(|(row, record)| Ok((row.parse()?, record))).transpose()
    }

    /// How many rating changes are stored.
    pub fn rating_change_count(&self) -> Result<u64, StoreError> {
        Ok(self.conn.query_row("SELECT COUNT(*) FROM rating_changes", [], |r| r.get::<_, i64>(0))?
            as u64)
    }
}

/// A finished match's columns, before its JSON is parsed.
struct FinishedRow {
    id: i64,
    set_id: i64,
    seed: i64,
    seats: String,
    outcome: String,
    finished_at: Option<String>,
}

impl FinishedRow {
    fn read(r: &rusqlite::Row<'_>) -> rusqlite::Result<FinishedRow> {
        Ok(FinishedRow {
            id: r.get(0)?,
            set_id: r.get(1)?,
            seed: r.get(2)?,
            seats: r.get(3)?,
            outcome: r.get(4)?,
            finished_at: r.get(5)?,
        })
    }

    fn parse(self) -> Result<FinishedMatch, StoreError> {
        Ok(FinishedMatch {
            id: self.id,
            set_id: self.set_id,
            seed: self.seed as u64,
            seats: serde_json::from_str(&self.seats)?,
            outcome: serde_json::from_str(&self.outcome)?,
            finished_at: self.finished_at.unwrap_or_default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardroom_rank::rating::{RatingSystem, Ratings};
    use cardroom_rank::stats::SeatHealth;

    fn outcome(places: &[(usize, u8)]) -> MatchOutcome {
        MatchOutcome {
            places: places.to_vec(),
            health: vec![SeatHealth::default(); places.len()],
            decisions: 3,
        }
    }

    #[test]
    fn migrates_and_refuses_another_ladder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ladder.sqlite");
        let initial = Rating::initial(RatingSystem::Glicko2);
        let names = vec!["a".to_owned(), "b".to_owned()];
        {
            let mut store = Store::open(&path).unwrap();
            assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as i64);
            assert!(store.begin("{}", &names, initial).unwrap());
        }
        let mut store = Store::open(&path).unwrap();
        assert!(!store.begin("{}", &names, initial).unwrap());
        assert!(matches!(
            store.begin("{\"x\":1}", &names, initial),
            Err(StoreError::OtherLadder(_))
        ));
        assert!(matches!(store.begin("{}", &names[..1], initial), Err(StoreError::OtherLadder(_))));
        assert_eq!(store.ratings().unwrap(), vec![initial; 2]);
        store.conn.pragma_update(None, "user_version", 99).unwrap();
        drop(store);
        assert!(matches!(Store::open(&path), Err(StoreError::NewerSchema { found: 99, .. })));
    }

    #[test]
    fn pending_until_finished_then_rated_once() {
        let mut store = Store::in_memory().unwrap();
        let initial = Rating::initial(RatingSystem::Glicko2);
        store.begin("{}", &["a".into(), "b".into()], initial).unwrap();
        let plan = [
            PlannedMatch { seed: u64::MAX, seats: vec![0, 1] },
            PlannedMatch { seed: u64::MAX, seats: vec![1, 0] },
        ];
        let set = store.add_set(0, &[0, 1], &plan).unwrap();
        assert_eq!(store.rounds().unwrap(), 1);
        let pending = store.pending_matches().unwrap();
        assert_eq!(pending.len(), 2);
        assert_eq!(pending[0].planned, plan[0], "u64 seeds survive the i64 column");
        store.start_match(pending[0].id).unwrap();
        assert!(
            !store.finish_match(pending[0].id, &outcome(&[(0, 1), (1, 2)]), Some("{}")).unwrap()
        );
        assert!(store.unrated_sets().unwrap().is_empty());
        assert!(store.finish_match(pending[1].id, &outcome(&[(1, 2), (0, 1)]), None).unwrap());
        assert_eq!(store.progress().unwrap(), (2, 2));
        assert_eq!(store.record(pending[0].id).unwrap().as_deref(), Some("{}"));
        let unrated = store.unrated_sets().unwrap();
        assert_eq!(unrated.len(), 1);
        let paired = PairedResult::from_matches(unrated[0].1.iter().map(|o| &o.places[..]));
        let mut ratings = Ratings::from_ratings(RatingSystem::Glicko2, store.ratings().unwrap());
        let changes = ratings.update(&paired).unwrap();
        store.rate_set(set, &paired, &changes).unwrap();
        assert!(store.unrated_sets().unwrap().is_empty());
        assert_eq!(store.ratings().unwrap(), ratings.all());
        assert_eq!(store.rating_change_count().unwrap(), 2);
        assert_eq!(store.sets().unwrap()[0].paired, Some(paired));
        assert_eq!(store.outcomes().unwrap().len(), 2);
        store.add_bye(1, 1).unwrap();
        assert_eq!(store.sets().unwrap()[1].bots, vec![1]);
        assert!(store.unrated_sets().unwrap().is_empty());
    }

    #[test]
    fn readers_page_finished_matches_and_see_the_rating_history() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ladder.sqlite");
        assert!(Store::open_read_only(&path).is_err(), "a reader creates no file");
        assert!(!path.exists());
        let mut store = Store::open(&path).unwrap();
        let initial = Rating::initial(RatingSystem::WengLin);
        store.begin("{}", &["a".into(), "b".into(), "c".into()], initial).unwrap();
        let plan = [
            PlannedMatch { seed: 1, seats: vec![0, 1] },
            PlannedMatch { seed: 2, seats: vec![1, 2] },
            PlannedMatch { seed: 3, seats: vec![2, 0] },
        ];
        let set = store.add_set(0, &[0, 1, 2], &plan).unwrap();
        let reader = Store::open_read_only(&path).unwrap();
        let before = reader.revision().unwrap();
        let pending = store.pending_matches().unwrap();
        for (m, places) in
            pending.iter().zip([[(0, 1), (1, 2)], [(1, 1), (2, 2)], [(2, 1), (0, 2)]])
        {
            store.finish_match(m.id, &outcome(&places), Some("{}")).unwrap();
        }
        assert!(reader.revision().unwrap() > before);
        assert_eq!(reader.finished_count(None).unwrap(), 3);
        assert_eq!(reader.finished_count(Some(0)).unwrap(), 2);
        let newest_of_a = reader.finished_matches(Some(0), 0, 1).unwrap();
        assert_eq!(newest_of_a.len(), 1);
        assert_eq!((newest_of_a[0].id, newest_of_a[0].seed), (pending[2].id, 3));
        assert_eq!(reader.finished_matches(Some(0), 1, 10).unwrap()[0].seats, vec![0, 1]);
        let (m, record) = reader.finished_match(pending[1].id).unwrap().unwrap();
        assert_eq!((m.set_id, record.as_deref()), (set, Some("{}")));
        assert!(reader.finished_match(9_999).unwrap().is_none());

        let outcomes = store.unrated_sets().unwrap().remove(0).1;
        let paired = PairedResult::from_matches(outcomes.iter().map(|o| &o.places[..]));
        let mut ratings = Ratings::new(RatingSystem::WengLin, 3);
        let changes = ratings.update(&paired).unwrap();
        store.rate_set(set, &paired, &changes).unwrap();
        let history = reader.rating_history(1).unwrap();
        assert_eq!(history.len(), 1);
        assert_eq!((history[0].set_id, history[0].after.mean), (set, ratings.all()[1].mean));
        assert_eq!(history[0].before.mean, initial.mean);
    }
}
