//! Bot submissions on PostgreSQL (see the `submissions` module).

use tokio_postgres::Row;

use crate::postgres::{Cached, PgStore};
use crate::submissions::{
    ARCHIVES_KEPT, NewSubmission, SUBMISSION_COLUMNS, SUBMISSIONS_LISTED, Submission,
    SubmissionRow, Submitted, run_to_json, sql,
};
use crate::{BotId, StoreError};

type Result<T> = std::result::Result<T, StoreError>;

/// A row of [`SUBMISSION_COLUMNS`].
fn submission(row: &Row) -> Result<SubmissionRow> {
    Ok(SubmissionRow {
        bot_id: row.try_get(0)?,
        sha256: row.try_get(1)?,
        run: row.try_get(2)?,
        archive_bytes: row.try_get(3)?,
        unpacked_bytes: row.try_get(4)?,
        submitted_ms: row.try_get(5)?,
        submitted_by: row.try_get(6)?,
        archive_kept: row.try_get(7)?,
    })
}

/// Stores `new` as `bot`'s newest submission and notes its version, in one transaction.
pub(crate) async fn submit(
    store: &PgStore,
    bot: BotId,
    new: &NewSubmission,
    now_ms: i64,
) -> Result<Submitted> {
    let mut conn = store.conn().await?;
    let tx = conn.transaction().await?;
    // The bot's row locked first: two submissions of one bot take serials in turn.
    tx.exec("SELECT 1 FROM bots WHERE id = $1 FOR UPDATE", &[&bot.0]).await?;
    let serial: i64 = tx.one(sql::NEXT_SERIAL, &[&bot.0]).await?.try_get(0)?;
    let before: i64 = tx.one(sql::EXISTS, &[&bot.0, &new.sha256]).await?.try_get(0)?;
    tx.exec(
        sql::UPSERT,
        &[
            &bot.0,
            &new.sha256,
            &serial,
            &run_to_json(&new.run),
            &new.archive,
            &(new.archive.len() as i64),
            &(new.unpacked_bytes as i64),
            &now_ms,
            &new.by.as_str(),
        ],
    )
    .await?;
    tx.exec(sql::DROP_OLD_ARCHIVES, &[&bot.0, &(ARCHIVES_KEPT as i64)]).await?;
    crate::postgres::note_version_in(&tx, bot, &new.sha256, now_ms).await?;
    let row = tx
        .one(
            &format!(
                "SELECT {SUBMISSION_COLUMNS} FROM bot_submissions WHERE bot_id = $1 AND sha256 = $2"
            ),
            &[&bot.0, &new.sha256],
        )
        .await?;
    let row = submission(&row)?;
    tx.commit().await?;
    Ok(Submitted { submission: row.into_submission()?, new: before == 0 })
}

/// `bot`'s submissions, newest first.
pub(crate) async fn submissions(store: &PgStore, bot: BotId) -> Result<Vec<Submission>> {
    let conn = store.conn().await?;
    let rows = conn
        .rows(
            &format!(
                "SELECT {SUBMISSION_COLUMNS} FROM bot_submissions WHERE bot_id = $1
                 ORDER BY serial DESC LIMIT $2"
            ),
            &[&bot.0, &i64::from(SUBMISSIONS_LISTED)],
        )
        .await?;
    rows.iter().map(|row| submission(row)?.into_submission()).collect()
}

/// The newest submission of every active bot, by name.
pub(crate) async fn newest_of_active(store: &PgStore) -> Result<Vec<(String, Submission)>> {
    let conn = store.conn().await?;
    let rows = conn.rows(&crate::submissions::newest_of_active_sql(), &[]).await?;
    rows.iter().map(|row| Ok((row.try_get(8)?, submission(row)?.into_submission()?))).collect()
}

/// `bot`'s newest submission and its archive.
pub(crate) async fn newest(store: &PgStore, bot: BotId) -> Result<Option<(Submission, Vec<u8>)>> {
    let conn = store.conn().await?;
    let row = conn
        .opt(
            &format!(
                "SELECT {SUBMISSION_COLUMNS}, archive FROM bot_submissions WHERE bot_id = $1
                 ORDER BY serial DESC LIMIT 1"
            ),
            &[&bot.0],
        )
        .await?;
    let Some(row) = row else { return Ok(None) };
    let archive: Option<Vec<u8>> = row.try_get(8)?;
    let row = submission(&row)?;
    let archive = archive.ok_or_else(|| crate::sqlite_submissions::missing_archive(&row.sha256))?;
    Ok(Some((row.into_submission()?, archive)))
}
