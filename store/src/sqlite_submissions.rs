//! Bot submissions on SQLite (see the `submissions` module).

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::submissions::{
    ARCHIVES_KEPT, NewSubmission, SUBMISSION_COLUMNS, SUBMISSIONS_LISTED, Submission,
    SubmissionRow, Submitted, run_to_json, sql,
};
use crate::{BotId, StoreError};

type Result<T> = std::result::Result<T, StoreError>;

/// A row of [`SUBMISSION_COLUMNS`] (and the archive after them, when asked for).
fn submission(row: &Row<'_>) -> rusqlite::Result<SubmissionRow> {
    Ok(SubmissionRow {
        bot_id: row.get(0)?,
        sha256: row.get(1)?,
        run: row.get(2)?,
        archive_bytes: row.get(3)?,
        unpacked_bytes: row.get(4)?,
        submitted_ms: row.get(5)?,
        submitted_by: row.get(6)?,
        archive_kept: row.get(7)?,
    })
}

/// Stores `new` as `bot`'s newest submission and notes its version, in one transaction.
pub(crate) fn submit(
    conn: &mut Connection,
    bot: BotId,
    new: &NewSubmission,
    now_ms: i64,
) -> Result<Submitted> {
    let tx = conn.transaction()?;
    let serial: i64 = tx.query_row(sql::NEXT_SERIAL, [bot.0], |row| row.get(0))?;
    let before: i64 = tx.query_row(sql::EXISTS, params![bot.0, new.sha256], |row| row.get(0))?;
    tx.execute(
        sql::UPSERT,
        params![
            bot.0,
            new.sha256,
            serial,
            run_to_json(&new.run),
            new.archive,
            new.archive.len() as i64,
            new.unpacked_bytes as i64,
            now_ms,
            new.by.as_str(),
        ],
    )?;
    tx.execute(sql::DROP_OLD_ARCHIVES, params![bot.0, ARCHIVES_KEPT as i64])?;
    crate::sqlite::note_version_in(&tx, bot, &new.sha256, now_ms)?;
    let row = tx.query_row(
        &format!(
            "SELECT {SUBMISSION_COLUMNS} FROM bot_submissions WHERE bot_id = ?1 AND sha256 = ?2"
        ),
        params![bot.0, new.sha256],
        submission,
    )?;
    tx.commit()?;
    Ok(Submitted { submission: row.into_submission()?, new: before == 0 })
}

/// `bot`'s submissions, newest first.
pub(crate) fn submissions(conn: &Connection, bot: BotId) -> Result<Vec<Submission>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {SUBMISSION_COLUMNS} FROM bot_submissions WHERE bot_id = ?1
         ORDER BY serial DESC LIMIT ?2"
    ))?;
    let rows = stmt
        .query_map(params![bot.0, SUBMISSIONS_LISTED], submission)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.into_iter().map(SubmissionRow::into_submission).collect()
}

/// The newest submission of every active bot, by name.
pub(crate) fn newest_of_active(conn: &Connection) -> Result<Vec<(String, Submission)>> {
    let mut stmt = conn.prepare(&crate::submissions::newest_of_active_sql())?;
    let rows = stmt
        .query_map([], |row| Ok((row.get::<_, String>(8)?, submission(row)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.into_iter().map(|(name, row)| Ok((name, row.into_submission()?))).collect()
}

/// `bot`'s newest submission and its archive.
pub(crate) fn newest(conn: &Connection, bot: BotId) -> Result<Option<(Submission, Vec<u8>)>> {
    let found = conn
        .query_row(
            &format!(
                "SELECT {SUBMISSION_COLUMNS}, archive FROM bot_submissions WHERE bot_id = ?1
                 ORDER BY serial DESC LIMIT 1"
            ),
            [bot.0],
            |row| Ok((submission(row)?, row.get::<_, Option<Vec<u8>>>(8)?)),
        )
        .optional()?;
    let Some((row, archive)) = found else { return Ok(None) };
    let archive = archive.ok_or_else(|| missing_archive(&row.sha256))?;
    Ok(Some((row.into_submission()?, archive)))
}

/// The newest submission without its archive: never written so.
pub(crate) fn missing_archive(sha256: &str) -> StoreError {
    StoreError::Corrupt(format!("the newest submission {sha256} has no archive"))
}
