//! Bot submissions: the code an author (or the organizer) submits for the server to run, as a
//! checked `.tar.gz` ([`crate::check_archive`]) with its run command (migration 11).
//!
//! A submission's version is its archive's SHA-256 in hex, noted as a version of its bot in
//! the same transaction. The newest submission is the one that plays. Submitting an archive
//! again makes it the newest, with the run command given; no second row is made. Every
//! submission stays listed, but only the last [`ARCHIVES_KEPT`] keep their archive.

use crate::{BotId, StoreError};

/// The submissions of a bot whose archives are kept: older ones keep their row (version, run
/// command, sizes, time) and lose their bytes, so a bot cannot grow the store without end.
pub const ARCHIVES_KEPT: usize = 8;

/// The most submissions of a bot listed ([`crate::Store::submissions`]).
pub const SUBMISSIONS_LISTED: u32 = 100;

/// Migration 11 with the type of its bytes (`BLOB`, `BYTEA`). `serial` orders a bot's
/// submissions, newest highest; `run` is the command as a JSON array of strings.
macro_rules! migration {
    ($bytes:literal) => {
        concat!(
            "CREATE TABLE bot_submissions (
                bot_id BIGINT NOT NULL REFERENCES bots(id),
                sha256 TEXT NOT NULL,
                serial BIGINT NOT NULL,
                run TEXT NOT NULL,
                archive ",
            $bytes,
            ",
                archive_bytes BIGINT NOT NULL,
                unpacked_bytes BIGINT NOT NULL,
                submitted_ms BIGINT NOT NULL,
                submitted_by TEXT NOT NULL,
                PRIMARY KEY (bot_id, sha256)
            );
            CREATE UNIQUE INDEX bot_submissions_by_serial ON bot_submissions (bot_id, serial);"
        )
    };
}

/// Migration 11 on SQLite.
pub(crate) const SQLITE_MIGRATION: &str = migration!("BLOB");

/// Migration 11 on PostgreSQL.
pub(crate) const POSTGRES_MIGRATION: &str = migration!("BYTEA");

/// Who submitted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SubmittedBy {
    /// The organizer, with the admin token.
    Admin,
    /// The bot's author, with the bot's key.
    Bot,
    /// The bot's author, with the author's token.
    Author,
}

impl SubmittedBy {
    /// As stored and shown: `admin` or `bot`.
    pub fn as_str(self) -> &'static str {
        match self {
            SubmittedBy::Admin => "admin",
            SubmittedBy::Bot => "bot",
            SubmittedBy::Author => "author",
        }
    }

    pub(crate) fn parse(stored: &str) -> Result<SubmittedBy, StoreError> {
        match stored {
            "admin" => Ok(SubmittedBy::Admin),
            "bot" => Ok(SubmittedBy::Bot),
            "author" => Ok(SubmittedBy::Author),
            other => Err(StoreError::Corrupt(format!("a submission by {other:?}"))),
        }
    }
}

/// A submission to store: a checked archive and how to run it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewSubmission {
    /// The archive's SHA-256, lowercase hex: its version.
    pub sha256: String,
    /// The command that runs the bot, from the unpacked tree (no shell: the first word is the
    /// program).
    pub run: Vec<String>,
    /// The `.tar.gz`.
    pub archive: Vec<u8>,
    /// The size of the `.tar` inside.
    pub unpacked_bytes: u64,
    /// Who submitted.
    pub by: SubmittedBy,
}

/// A stored submission, without its archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// Its bot.
    pub bot: BotId,
    /// The archive's SHA-256, lowercase hex: the version it plays as.
    pub sha256: String,
    /// The run command.
    pub run: Vec<String>,
    /// The archive's size, compressed.
    pub archive_bytes: u64,
    /// The size of the `.tar` inside.
    pub unpacked_bytes: u64,
    /// When it was last submitted, in milliseconds since the Unix epoch.
    pub submitted_ms: i64,
    /// Who submitted it last.
    pub submitted_by: SubmittedBy,
    /// Whether its archive is still kept (the last [`ARCHIVES_KEPT`] are).
    pub archive_kept: bool,
}

/// What storing a submission did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submitted {
    /// The submission, now its bot's newest.
    pub submission: Submission,
    /// Whether the archive was new to its bot (else the same archive was submitted before,
    /// and is the newest again).
    pub new: bool,
}

/// The columns of a submission, as every backend reads them.
pub(crate) const SUBMISSION_COLUMNS: &str = "bot_id, sha256, run, archive_bytes, unpacked_bytes, \
     submitted_ms, submitted_by, archive IS NOT NULL";

/// The newest submission of every bot whose key is not revoked, and the bot's name after
/// [`SUBMISSION_COLUMNS`]: what a runner hosts. The same in both dialects.
pub(crate) fn newest_of_active_sql() -> String {
    format!(
        "SELECT {SUBMISSION_COLUMNS}, bots.name FROM bot_submissions
         JOIN bots ON bots.id = bot_submissions.bot_id
         WHERE bots.revoked_ms IS NULL AND bot_submissions.serial = (
             SELECT MAX(newer.serial) FROM bot_submissions newer WHERE newer.bot_id = bots.id)
         ORDER BY bots.name"
    )
}

/// The stored run command, a JSON array of strings.
pub(crate) fn run_to_json(run: &[String]) -> String {
    serde_json::Value::from(run.to_vec()).to_string()
}

/// The run command from its stored JSON array.
pub(crate) fn run_from_json(stored: &str) -> Result<Vec<String>, StoreError> {
    serde_json::from_str(stored)
        .map_err(|error| StoreError::Corrupt(format!("a submission's run command: {error}")))
}

/// The columns of [`SUBMISSION_COLUMNS`], as every backend reads them.
pub(crate) struct SubmissionRow {
    pub(crate) bot_id: i64,
    pub(crate) sha256: String,
    pub(crate) run: String,
    pub(crate) archive_bytes: i64,
    pub(crate) unpacked_bytes: i64,
    pub(crate) submitted_ms: i64,
    pub(crate) submitted_by: String,
    pub(crate) archive_kept: bool,
}

impl SubmissionRow {
    /// The submission, its stored text parsed.
    pub(crate) fn into_submission(self) -> Result<Submission, StoreError> {
        let size = |bytes: i64| {
            u64::try_from(bytes)
                .map_err(|_| StoreError::Corrupt(format!("a submission of {bytes} bytes")))
        };
        Ok(Submission {
            bot: BotId(self.bot_id),
            run: run_from_json(&self.run)?,
            archive_bytes: size(self.archive_bytes)?,
            unpacked_bytes: size(self.unpacked_bytes)?,
            submitted_ms: self.submitted_ms,
            submitted_by: SubmittedBy::parse(&self.submitted_by)?,
            archive_kept: self.archive_kept,
            sha256: self.sha256,
        })
    }
}

/// A bot's submissions' SQL, the same on both backends but for the placeholders' spelling
/// (SQLite takes PostgreSQL's `$n` too).
pub(crate) mod sql {
    /// The next serial of bot `$1`.
    pub(crate) const NEXT_SERIAL: &str =
        "SELECT COALESCE(MAX(serial), 0) + 1 FROM bot_submissions WHERE bot_id = $1";

    /// Whether bot `$1` has a submission of archive `$2`.
    pub(crate) const EXISTS: &str =
        "SELECT COUNT(*) FROM bot_submissions WHERE bot_id = $1 AND sha256 = $2";

    /// Stores a submission as its bot's newest (the same archive again: its row, renewed).
    pub(crate) const UPSERT: &str = "INSERT INTO bot_submissions (bot_id, sha256, serial, run, \
         archive, archive_bytes, unpacked_bytes, submitted_ms, submitted_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (bot_id, sha256) DO UPDATE SET serial = excluded.serial, run = excluded.run,
             archive = excluded.archive, submitted_ms = excluded.submitted_ms,
             submitted_by = excluded.submitted_by";

    /// Drops the archives of bot `$1` but its newest `$2`.
    pub(crate) const DROP_OLD_ARCHIVES: &str =
        "UPDATE bot_submissions SET archive = NULL WHERE bot_id = $1 AND archive IS NOT NULL
         AND serial NOT IN (SELECT serial FROM bot_submissions WHERE bot_id = $1
                            ORDER BY serial DESC LIMIT $2)";
}
