//! Scrimmages on PostgreSQL (see the `scrimmages` module).

use tokio_postgres::Row;

use crate::postgres::{Cached, PgStore};
use crate::scrimmages::{
    self, QUOTA_WINDOW_MS, SCRIMMAGE_COLUMNS, Scrimmage, ScrimmageId, ScrimmageRow, ScrimmageState,
};
use crate::{AuthorId, BotId, LadderId, StoreError};

type Result<T> = std::result::Result<T, StoreError>;

/// An author's scrimmage requests take turns, until the transaction ends: each counts the
/// ones before it against the quota.
const QUOTA_TURN: &str = "SELECT pg_advisory_xact_lock(hashtextextended(
    'cardroom scrimmages ' || current_schema() || ' ' || ($1::BIGINT)::TEXT, 0))";

/// A row of [`SCRIMMAGE_COLUMNS`].
fn row(row: &Row) -> Result<Scrimmage> {
    let read: ScrimmageRow = (
        row.try_get(0)?,
        row.try_get(1)?,
        row.try_get(2)?,
        row.try_get(3)?,
        row.try_get(4)?,
        row.try_get(5)?,
        row.try_get(6)?,
        row.try_get(7)?,
        row.try_get(8)?,
    );
    scrimmages::from_row(read)
}

pub(crate) async fn request(
    store: &PgStore,
    ladder: LadderId,
    author: AuthorId,
    tables: &[(Vec<BotId>, u64)],
    quota: u32,
    now_ms: i64,
) -> Result<Vec<ScrimmageId>> {
    let mut conn = store.conn().await?;
    let tx = conn.transaction().await?;
    tx.one(QUOTA_TURN, &[&author.0]).await?;
    let since = now_ms - QUOTA_WINDOW_MS;
    let counted = tx
        .one(
            "SELECT COUNT(*), MIN(requested_ms) FROM scrimmages
             WHERE author_id = $1 AND ladder_id = $2 AND requested_ms > $3",
            &[&author.0, &ladder.0, &since],
        )
        .await?;
    let used: i64 = counted.try_get(0)?;
    let oldest: Option<i64> = counted.try_get(1)?;
    let used = u32::try_from(used).unwrap_or(u32::MAX);
    scrimmages::check_quota(used, tables.len(), quota, oldest, now_ms)?;
    let mut ids = Vec::with_capacity(tables.len());
    for (bots, seed) in tables {
        let inserted = tx
            .one(
                "INSERT INTO scrimmages (ladder_id, author_id, bots, seed, requested_ms, state)
                 VALUES ($1, $2, $3, $4, $5, 'pending') RETURNING id",
                &[&ladder.0, &author.0, &scrimmages::bots_json(bots), &(*seed as i64), &now_ms],
            )
            .await?;
        ids.push(ScrimmageId(inserted.try_get(0)?));
    }
    tx.commit().await?;
    Ok(ids)
}

pub(crate) async fn of_ladder(
    store: &PgStore,
    ladder: LadderId,
    state: ScrimmageState,
) -> Result<Vec<Scrimmage>> {
    let conn = store.conn().await?;
    let query = format!(
        "SELECT {SCRIMMAGE_COLUMNS} FROM scrimmages WHERE ladder_id = $1 AND state = $2 ORDER BY id"
    );
    let rows = conn.rows(&query, &[&ladder.0, &state.as_str()]).await?;
    rows.iter().map(row).collect()
}

pub(crate) async fn start(store: &PgStore, id: ScrimmageId, owner: &str) -> Result<bool> {
    let conn = store.conn().await?;
    let changed = conn
        .exec(
            "UPDATE scrimmages SET state = 'running', owner = $2 WHERE id = $1 AND state = 'pending'",
            &[&id.0, &owner],
        )
        .await?;
    Ok(changed == 1)
}

pub(crate) async fn end(
    store: &PgStore,
    id: ScrimmageId,
    state: ScrimmageState,
    results: &str,
    now_ms: i64,
) -> Result<()> {
    let conn = store.conn().await?;
    conn.exec(
        "UPDATE scrimmages SET state = $2, results = $3, finished_ms = $4 WHERE id = $1",
        &[&id.0, &state.as_str(), &results, &now_ms],
    )
    .await?;
    Ok(())
}

pub(crate) async fn requeue(store: &PgStore, ladder: LadderId, owner: &str) -> Result<u64> {
    let conn = store.conn().await?;
    conn.exec(
        "UPDATE scrimmages SET state = 'pending', owner = NULL
         WHERE ladder_id = $1 AND state = 'running' AND owner <> $2",
        &[&ladder.0, &owner],
    )
    .await
}

pub(crate) async fn of_author(
    store: &PgStore,
    author: AuthorId,
    limit: u32,
) -> Result<Vec<Scrimmage>> {
    let conn = store.conn().await?;
    let query = format!(
        "SELECT {SCRIMMAGE_COLUMNS} FROM scrimmages WHERE author_id = $1 ORDER BY id DESC LIMIT $2"
    );
    let rows = conn.rows(&query, &[&author.0, &i64::from(limit)]).await?;
    rows.iter().map(row).collect()
}

pub(crate) async fn one(store: &PgStore, id: ScrimmageId) -> Result<Option<Scrimmage>> {
    let conn = store.conn().await?;
    let query = format!("SELECT {SCRIMMAGE_COLUMNS} FROM scrimmages WHERE id = $1");
    conn.opt(&query, &[&id.0]).await?.as_ref().map(row).transpose()
}
