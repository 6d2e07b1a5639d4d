//! The standings snapshots in SQLite: migration 3 and [`Store::put_standings`] /
//! [`Store::standings`], each one transaction.
//!
//! [`Store::put_standings`]: crate::Store::put_standings
//! [`Store::standings`]: crate::Store::standings

use rusqlite::{Connection, OptionalExtension, params};

use crate::standings::{SprtColumns, decode_p_better, encode_p_better};
use crate::{BotId, LadderId, Standings, StandingsRow, StoreError};

type Result<T> = std::result::Result<T, StoreError>;

/// Migration 3: one standings snapshot per ladder, its rows best first (each with its row of
/// the pairwise matrix as little-endian `f64`s).
pub(crate) const MIGRATION: &str = "
    CREATE TABLE ladder_standings (
        ladder_id INTEGER PRIMARY KEY REFERENCES ladders(id),
        revision BIGINT NOT NULL,
        first_set BIGINT NOT NULL,
        sets BIGINT NOT NULL,
        confidence DOUBLE PRECISION NOT NULL,
        settled BOOLEAN NOT NULL,
        computed_ms BIGINT NOT NULL,
        sprt_a INTEGER REFERENCES bots(id),
        sprt_b INTEGER REFERENCES bots(id),
        sprt_samples BIGINT,
        sprt_llr DOUBLE PRECISION,
        sprt_lower DOUBLE PRECISION,
        sprt_upper DOUBLE PRECISION,
        sprt_decision TEXT
    );
    CREATE TABLE ladder_standings_rows (
        ladder_id INTEGER NOT NULL REFERENCES ladder_standings(ladder_id),
        position INTEGER NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots(id),
        rank_lo INTEGER NOT NULL,
        rank_hi INTEGER NOT NULL,
        indistinguishable_from_first BOOLEAN NOT NULL,
        p_better BLOB NOT NULL,
        PRIMARY KEY (ladder_id, position)
    );
";

pub(crate) fn put_standings(
    conn: &mut Connection,
    ladder: LadderId,
    standings: &Standings,
) -> Result<()> {
    standings.check()?;
    let tx = conn.transaction()?;
    let exists: Option<i64> = tx
        .query_row("SELECT id FROM ladders WHERE id = ?1", [ladder.0], |row| row.get(0))
        .optional()?;
    if exists.is_none() {
        return Err(StoreError::NoSuchLadder(format!("with id {}", ladder.0)));
    }
    let stored: Option<i64> = tx
        .query_row(
            "SELECT revision FROM ladder_standings WHERE ladder_id = ?1",
            [ladder.0],
            |row| row.get(0),
        )
        .optional()?;
    if let Some(stored) = stored.filter(|&stored| stored as u64 > standings.revision) {
        return Err(StoreError::Conflict(format!(
            "standings of revision {} are older than the stored ones of revision {stored}",
            standings.revision
        )));
    }
    tx.execute("DELETE FROM ladder_standings_rows WHERE ladder_id = ?1", [ladder.0])?;
    tx.execute("DELETE FROM ladder_standings WHERE ladder_id = ?1", [ladder.0])?;
    let sprt = SprtColumns::of(standings.sprt.as_ref());
    tx.execute(
        "INSERT INTO ladder_standings (ladder_id, revision, first_set, sets, confidence, settled,
             computed_ms, sprt_a, sprt_b, sprt_samples, sprt_llr, sprt_lower, sprt_upper,
             sprt_decision)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        params![
            ladder.0,
            standings.revision as i64,
            standings.first_set as i64,
            standings.sets as i64,
            standings.confidence,
            standings.settled,
            standings.computed_ms,
            sprt.a,
            sprt.b,
            sprt.samples,
            sprt.llr,
            sprt.lower,
            sprt.upper,
            sprt.decision
        ],
    )?;
    for (position, row) in standings.rows.iter().enumerate() {
        tx.execute(
            "INSERT INTO ladder_standings_rows (ladder_id, position, bot_id, rank_lo, rank_hi,
                 indistinguishable_from_first, p_better)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                ladder.0,
                position as i64,
                row.bot.0,
                row.rank_lo,
                row.rank_hi,
                row.indistinguishable_from_first,
                encode_p_better(&row.p_better)
            ],
        )?;
    }
    tx.commit()?;
    Ok(())
}

pub(crate) fn standings(conn: &mut Connection, ladder: LadderId) -> Result<Option<Standings>> {
    let tx = conn.transaction()?;
    let head = tx
        .query_row(
            "SELECT revision, first_set, sets, confidence, settled, computed_ms, sprt_a, sprt_b,
                 sprt_samples, sprt_llr, sprt_lower, sprt_upper, sprt_decision
             FROM ladder_standings WHERE ladder_id = ?1",
            [ladder.0],
            |row| {
                let standings = Standings {
                    revision: row.get::<_, i64>(0)? as u64,
                    first_set: row.get::<_, i64>(1)? as u64,
                    sets: row.get::<_, i64>(2)? as u64,
                    confidence: row.get(3)?,
                    settled: row.get(4)?,
                    computed_ms: row.get(5)?,
                    rows: Vec::new(),
                    sprt: None,
                };
                let sprt = SprtColumns {
                    a: row.get(6)?,
                    b: row.get(7)?,
                    samples: row.get(8)?,
                    llr: row.get(9)?,
                    lower: row.get(10)?,
                    upper: row.get(11)?,
                    decision: row.get(12)?,
                };
                Ok((standings, sprt))
            },
        )
        .optional()?;
    let Some((mut standings, sprt)) = head else { return Ok(None) };
    standings.sprt = sprt.into_standing()?;
    let mut stmt = tx.prepare(
        "SELECT bot_id, rank_lo, rank_hi, indistinguishable_from_first, p_better
         FROM ladder_standings_rows WHERE ladder_id = ?1 ORDER BY position",
    )?;
    let raw = stmt
        .query_map([ladder.0], |row| {
            Ok((
                row.get::<_, i64>(0)?,
                row.get::<_, u32>(1)?,
                row.get::<_, u32>(2)?,
                row.get::<_, bool>(3)?,
                row.get::<_, Vec<u8>>(4)?,
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let rows = raw.len();
    for (bot, rank_lo, rank_hi, first, p_better) in raw {
        standings.rows.push(StandingsRow {
            bot: BotId(bot),
            rank_lo,
            rank_hi,
            indistinguishable_from_first: first,
            p_better: decode_p_better(&p_better, rows)?,
        });
    }
    Ok(Some(standings))
}
