//! The standings snapshots in PostgreSQL: SQLite's (`sqlite_standings`) in PostgreSQL's
//! dialect.

use crate::postgres::Cached;
use crate::standings::{SprtColumns, decode_p_better, encode_p_better};
use crate::{BotId, LadderId, PgStore, Standings, StandingsRow, StoreError};

type Result<T> = std::result::Result<T, StoreError>;

/// Migration 3 (see `sqlite_standings::MIGRATION`).
pub(crate) const MIGRATION: &str = "
    CREATE TABLE ladder_standings (
        ladder_id BIGINT PRIMARY KEY REFERENCES ladders(id),
        revision BIGINT NOT NULL,
        first_set BIGINT NOT NULL,
        sets BIGINT NOT NULL,
        confidence DOUBLE PRECISION NOT NULL,
        settled BOOLEAN NOT NULL,
        computed_ms BIGINT NOT NULL,
        sprt_a BIGINT REFERENCES bots(id),
        sprt_b BIGINT REFERENCES bots(id),
        sprt_samples BIGINT,
        sprt_llr DOUBLE PRECISION,
        sprt_lower DOUBLE PRECISION,
        sprt_upper DOUBLE PRECISION,
        sprt_decision TEXT
    );
    CREATE TABLE ladder_standings_rows (
        ladder_id BIGINT NOT NULL REFERENCES ladder_standings(ladder_id),
        position BIGINT NOT NULL,
        bot_id BIGINT NOT NULL REFERENCES bots(id),
        rank_lo BIGINT NOT NULL,
        rank_hi BIGINT NOT NULL,
        indistinguishable_from_first BOOLEAN NOT NULL,
        p_better BYTEA NOT NULL,
        PRIMARY KEY (ladder_id, position)
    );
";

/// A stored rank back to `u32`; out of range is corrupt.
fn rank(value: i64) -> Result<u32> {
    u32::try_from(value).map_err(|_| StoreError::Corrupt(format!("a standings rank of {value}")))
}

pub(crate) async fn put_standings(
    store: &PgStore,
    ladder: LadderId,
    standings: &Standings,
) -> Result<()> {
    standings.check()?;
    let mut conn = store.conn().await?;
    let tx = conn.transaction().await?;
    // The ladder's row lock orders concurrent writers of its snapshot.
    if tx.opt("SELECT id FROM ladders WHERE id = $1 FOR UPDATE", &[&ladder.0]).await?.is_none() {
        return Err(StoreError::NoSuchLadder(format!("with id {}", ladder.0)));
    }
    let stored = tx
        .opt("SELECT revision FROM ladder_standings WHERE ladder_id = $1", &[&ladder.0])
        .await?
        .map(|row| row.try_get::<_, i64>(0))
        .transpose()?;
    if let Some(stored) = stored.filter(|&stored| stored as u64 > standings.revision) {
        return Err(StoreError::Conflict(format!(
            "standings of revision {} are older than the stored ones of revision {stored}",
            standings.revision
        )));
    }
    tx.exec("DELETE FROM ladder_standings_rows WHERE ladder_id = $1", &[&ladder.0]).await?;
    tx.exec("DELETE FROM ladder_standings WHERE ladder_id = $1", &[&ladder.0]).await?;
    let sprt = SprtColumns::of(standings.sprt.as_ref());
    tx.exec(
        "INSERT INTO ladder_standings (ladder_id, revision, first_set, sets, confidence, settled,
             computed_ms, sprt_a, sprt_b, sprt_samples, sprt_llr, sprt_lower, sprt_upper,
             sprt_decision)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
        &[
            &ladder.0,
            &(standings.revision as i64),
            &(standings.first_set as i64),
            &(standings.sets as i64),
            &standings.confidence,
            &standings.settled,
            &standings.computed_ms,
            &sprt.a,
            &sprt.b,
            &sprt.samples,
            &sprt.llr,
            &sprt.lower,
            &sprt.upper,
            &sprt.decision,
        ],
    )
    .await?;
    for (position, row) in standings.rows.iter().enumerate() {
        tx.exec(
            "INSERT INTO ladder_standings_rows (ladder_id, position, bot_id, rank_lo, rank_hi,
                 indistinguishable_from_first, p_better)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
            &[
                &ladder.0,
                &(position as i64),
                &row.bot.0,
                &i64::from(row.rank_lo),
                &i64::from(row.rank_hi),
                &row.indistinguishable_from_first,
                &encode_p_better(&row.p_better),
            ],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

pub(crate) async fn standings(store: &PgStore, ladder: LadderId) -> Result<Option<Standings>> {
    let mut conn = store.conn().await?;
    let tx = conn
        .build_transaction()
        .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await?;
    let Some(head) = tx
        .opt(
            "SELECT revision, first_set, sets, confidence, settled, computed_ms, sprt_a, sprt_b,
                 sprt_samples, sprt_llr, sprt_lower, sprt_upper, sprt_decision
             FROM ladder_standings WHERE ladder_id = $1",
            &[&ladder.0],
        )
        .await?
    else {
        return Ok(None);
    };
    let sprt = SprtColumns {
        a: head.try_get(6)?,
        b: head.try_get(7)?,
        samples: head.try_get(8)?,
        llr: head.try_get(9)?,
        lower: head.try_get(10)?,
        upper: head.try_get(11)?,
        decision: head.try_get(12)?,
    };
    let mut standings = Standings {
        revision: head.try_get::<_, i64>(0)? as u64,
        first_set: head.try_get::<_, i64>(1)? as u64,
        sets: head.try_get::<_, i64>(2)? as u64,
        confidence: head.try_get(3)?,
        settled: head.try_get(4)?,
        computed_ms: head.try_get(5)?,
        rows: Vec::new(),
        sprt: sprt.into_standing()?,
    };
    let rows = tx
        .rows(
            "SELECT bot_id, rank_lo, rank_hi, indistinguishable_from_first, p_better
             FROM ladder_standings_rows WHERE ladder_id = $1 ORDER BY position",
            &[&ladder.0],
        )
        .await?;
    let k = rows.len();
    for row in rows {
        standings.rows.push(StandingsRow {
            bot: BotId(row.try_get(0)?),
            rank_lo: rank(row.try_get(1)?)?,
            rank_hi: rank(row.try_get(2)?)?,
            indistinguishable_from_first: row.try_get(3)?,
            p_better: decode_p_better(row.try_get::<_, &[u8]>(4)?, k)?,
        });
    }
    Ok(Some(standings))
}
