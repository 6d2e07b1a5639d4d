//! The read side of hosted ladders in SQLite: one function per read method of
//! [`Store`](crate::Store) (`leaderboard`, `bot_matches`, `bot_rating_history`,
//! `head_to_head`, `bot_ladder_versions`, `ladder_match`), each a query on the indexes of
//! migration 2 (`ladder_match_seats_by_bot`, `rating_changes_by_bot`,
//! `ladder_failures_by_bot`).

use rusqlite::{Connection, params};

use crate::{
    BotHealth, BotId, HeadToHead, LadderId, LadderMatch, LadderMatchId, LadderVersion,
    LeaderboardLine, RatingChangeRow, StoreError, StoredRating, ThinkSummary, VersionThink,
};

type Result<T> = std::result::Result<T, StoreError>;

pub(crate) fn leaderboard(conn: &mut Connection, ladder: LadderId) -> Result<Vec<LeaderboardLine>> {
    // A row a bot: the counts are kept on it (migration 10).
    let mut stmt = conn.prepare_cached(
        "SELECT lb.bot_id, b.name, lb.mean, lb.sigma, lb.volatility, lb.sets_rated,
             lb.paused_reason, lb.matches_done, lb.wins, lb.crashes, lb.forfeits, lb.illegal,
             lb.timeouts
         FROM ladder_bots lb JOIN bots b ON b.id = lb.bot_id
         WHERE lb.ladder_id = ?1 ORDER BY lb.bot_id",
    )?;
    let lines = stmt
        .query_map([ladder.0], |row| {
            let count = |i| row.get::<_, i64>(i).map(|n| u64::try_from(n).unwrap_or(0));
            Ok(LeaderboardLine {
                bot: BotId(row.get(0)?),
                name: row.get(1)?,
                rating: StoredRating {
                    mean: row.get(2)?,
                    sigma: row.get(3)?,
                    volatility: row.get(4)?,
                },
                sets_rated: row.get(5)?,
                paused_reason: row.get(6)?,
                matches: count(7)?,
                wins: count(8)?,
                health: BotHealth {
                    crashes: count(9)?,
                    forfeits: count(10)?,
                    illegal: count(11)?,
                    timeouts: count(12)?,
                },
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(lines)
}

pub(crate) fn bot_matches(
    conn: &mut Connection,
    ladder: LadderId,
    bot: BotId,
    before: Option<LadderMatchId>,
    limit: u32,
) -> Result<Vec<LadderMatch>> {
    let tx = conn.transaction()?;
    let ids: Vec<i64> = {
        // Newest first down the (bot_id, match_id) index, from the cursor.
        let mut stmt = tx.prepare(
            "SELECT s.match_id FROM ladder_match_seats s
             JOIN ladder_matches m ON m.id = s.match_id
             WHERE s.bot_id = ?1 AND s.match_id < ?2 AND m.ladder_id = ?3 AND m.state = 'done'
             ORDER BY s.match_id DESC LIMIT ?4",
        )?;
        let before = before.map_or(i64::MAX, |id| id.0);
        stmt.query_map(params![bot.0, before, ladder.0, limit], |row| row.get(0))?
            .collect::<rusqlite::Result<_>>()?
    };
    let mut found = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(m) = crate::sqlite_ladders::match_by_id(&tx, LadderMatchId(id))? {
            found.push(m);
        }
    }
    Ok(found)
}

pub(crate) fn bot_rating_history(
    conn: &mut Connection,
    ladder: LadderId,
    bot: BotId,
) -> Result<Vec<RatingChangeRow>> {
    let mut stmt = conn.prepare(
        "SELECT seq, set_index, bot_id, mean_before, sigma_before, volatility_before,
             mean_after, sigma_after, volatility_after, at_ms
         FROM rating_changes WHERE ladder_id = ?1 AND bot_id = ?2 ORDER BY seq",
    )?;
    let rows = stmt
        .query_map([ladder.0, bot.0], crate::sqlite_ladders::rating_change)?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

pub(crate) fn head_to_head(
    conn: &mut Connection,
    ladder: LadderId,
    bot: BotId,
) -> Result<Vec<HeadToHead>> {
    let mut stmt = conn.prepare(
        "SELECT o.bot_id, b.name,
             SUM(CASE WHEN me.place < o.place THEN 1 ELSE 0 END),
             SUM(CASE WHEN me.place = o.place THEN 1 ELSE 0 END),
             SUM(CASE WHEN me.place > o.place THEN 1 ELSE 0 END)
         FROM ladder_match_seats me
         JOIN ladder_matches m ON m.id = me.match_id
         JOIN ladder_match_seats o ON o.match_id = me.match_id AND o.bot_id <> me.bot_id
         JOIN bots b ON b.id = o.bot_id
         WHERE me.bot_id = ?1 AND m.ladder_id = ?2 AND m.state = 'done'
         GROUP BY o.bot_id, b.name ORDER BY o.bot_id",
    )?;
    let rows = stmt
        .query_map([bot.0, ladder.0], |row| {
            Ok(HeadToHead {
                opponent: BotId(row.get(0)?),
                name: row.get(1)?,
                wins: row.get::<_, i64>(2)? as u64,
                ties: row.get::<_, i64>(3)? as u64,
                losses: row.get::<_, i64>(4)? as u64,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

pub(crate) fn bot_ladder_versions(
    conn: &mut Connection,
    ladder: LadderId,
    bot: BotId,
) -> Result<Vec<LadderVersion>> {
    let mut stmt = conn.prepare(
        "SELECT s.version, MIN(m.finished_ms), MAX(m.finished_ms), COUNT(*)
         FROM ladder_match_seats s JOIN ladder_matches m ON m.id = s.match_id
         WHERE s.bot_id = ?1 AND m.ladder_id = ?2 AND m.state = 'done' AND s.version IS NOT NULL
         GROUP BY s.version ORDER BY MIN(m.finished_ms), s.version",
    )?;
    let rows = stmt
        .query_map([bot.0, ladder.0], |row| {
            Ok(LadderVersion {
                version: row.get(0)?,
                first_ms: row.get::<_, Option<i64>>(1)?.unwrap_or_default(),
                last_ms: row.get::<_, Option<i64>>(2)?.unwrap_or_default(),
                matches: row.get::<_, i64>(3)? as u64,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

pub(crate) fn ladder_match(
    conn: &mut Connection,
    id: LadderMatchId,
) -> Result<Option<LadderMatch>> {
    crate::sqlite_ladders::match_by_id(conn, id)
}

pub(crate) fn bot_think_times(
    conn: &mut Connection,
    ladder: LadderId,
    bot: BotId,
    matches: u32,
) -> Result<Vec<VersionThink>> {
    // Newest first down `ladder_think_times_by_bot`, at most `matches` rows.
    let mut stmt = conn.prepare(
        "SELECT version, decisions, sum_us, max_us, buckets FROM ladder_think_times
         WHERE ladder_id = ?1 AND bot_id = ?2 ORDER BY match_id DESC LIMIT ?3",
    )?;
    let mut rows = stmt.query(params![ladder.0, bot.0, matches])?;
    let mut found = Vec::new();
    while let Some(row) = rows.next()? {
        let buckets: Vec<u8> = row.get(4)?;
        let think = ThinkSummary::from_stored(row.get(1)?, row.get(2)?, row.get(3)?, &buckets)?;
        found.push((row.get::<_, String>(0)?, think));
    }
    Ok(crate::think::by_version(found))
}
