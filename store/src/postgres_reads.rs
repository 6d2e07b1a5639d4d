//! The read methods of hosted ladders in PostgreSQL: SQLite's queries (`sqlite_reads`) in
//! PostgreSQL's dialect, each in one snapshot.

use crate::postgres::Cached;
use crate::postgres_ladders::{match_by_id, unsigned, with_seats};
use crate::{
    BotHealth, BotId, HeadToHead, LadderId, LadderMatch, LadderMatchId, LadderVersion,
    LeaderboardLine, MatchState, PgStore, RatingChangeRow, RatingUpdate, StoreError, StoredRating,
    ThinkSummary, VersionThink,
};

type Result<T> = std::result::Result<T, StoreError>;

/// A count from `COUNT` or `SUM` (never negative).
fn count(value: i64) -> u64 {
    value.max(0) as u64
}

pub(crate) async fn leaderboard(store: &PgStore, ladder: LadderId) -> Result<Vec<LeaderboardLine>> {
    // A row a bot: the counts are kept on it (migration 10).
    let conn = store.conn().await?;
    let rows = conn
        .rows(
            "SELECT lb.bot_id, b.name, lb.mean, lb.sigma, lb.volatility, lb.sets_rated,
                 lb.paused_reason, lb.matches_done, lb.wins, lb.crashes, lb.forfeits, lb.illegal,
                 lb.timeouts
             FROM ladder_bots lb JOIN bots b ON b.id = lb.bot_id
             WHERE lb.ladder_id = $1 ORDER BY lb.bot_id",
            &[&ladder.0],
        )
        .await?;
    rows.iter()
        .map(|row| {
            let sets_rated: i64 = row.try_get(5)?;
            let tally = |i| row.try_get::<_, i64>(i).map(count);
            Ok(LeaderboardLine {
                bot: BotId(row.try_get(0)?),
                name: row.try_get(1)?,
                rating: StoredRating {
                    mean: row.try_get(2)?,
                    sigma: row.try_get(3)?,
                    volatility: row.try_get(4)?,
                },
                sets_rated: u32::try_from(sets_rated)
                    .map_err(|_| StoreError::Corrupt(format!("sets_rated {sets_rated}")))?,
                paused_reason: row.try_get(6)?,
                matches: tally(7)?,
                wins: tally(8)?,
                health: BotHealth {
                    crashes: tally(9)?,
                    forfeits: tally(10)?,
                    illegal: tally(11)?,
                    timeouts: tally(12)?,
                },
            })
        })
        .collect()
}

pub(crate) async fn bot_matches(
    store: &PgStore,
    ladder: LadderId,
    bot: BotId,
    before: Option<LadderMatchId>,
    limit: u32,
) -> Result<Vec<LadderMatch>> {
    let mut conn = store.conn().await?;
    let tx = conn
        .build_transaction()
        .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await?;
    let before = before.map_or(i64::MAX, |id| id.0);
    let rows = tx
        .rows(
            "SELECT m.id, m.ladder_id, m.set_index, m.rotation, m.seed, m.state, m.attempt,
                 m.lease_owner, m.lease_until_ms, m.server_match_id, m.planned_ms, m.started_ms,
                 m.finished_ms
             FROM ladder_match_seats s JOIN ladder_matches m ON m.id = s.match_id
             WHERE s.bot_id = $1 AND s.match_id < $2 AND m.ladder_id = $3 AND m.state = $4
             ORDER BY s.match_id DESC LIMIT $5",
            &[&bot.0, &before, &ladder.0, &MatchState::Done.as_str(), &i64::from(limit)],
        )
        .await?;
    let found = with_seats(&tx, &rows).await?;
    tx.commit().await?;
    Ok(found)
}

pub(crate) async fn bot_rating_history(
    store: &PgStore,
    ladder: LadderId,
    bot: BotId,
) -> Result<Vec<RatingChangeRow>> {
    let conn = store.conn().await?;
    let rows = conn
        .rows(
            "SELECT seq, set_index, mean_before, sigma_before, volatility_before,
                 mean_after, sigma_after, volatility_after, at_ms
             FROM rating_changes WHERE ladder_id = $1 AND bot_id = $2 ORDER BY seq",
            &[&ladder.0, &bot.0],
        )
        .await?;
    rows.iter()
        .map(|row| {
            Ok(RatingChangeRow {
                seq: unsigned(row.try_get(0)?),
                set_index: unsigned(row.try_get(1)?),
                update: RatingUpdate {
                    bot,
                    before: StoredRating {
                        mean: row.try_get(2)?,
                        sigma: row.try_get(3)?,
                        volatility: row.try_get(4)?,
                    },
                    after: StoredRating {
                        mean: row.try_get(5)?,
                        sigma: row.try_get(6)?,
                        volatility: row.try_get(7)?,
                    },
                },
                at_ms: row.try_get(8)?,
            })
        })
        .collect()
}

pub(crate) async fn head_to_head(
    store: &PgStore,
    ladder: LadderId,
    bot: BotId,
) -> Result<Vec<HeadToHead>> {
    let conn = store.conn().await?;
    let rows = conn
        .rows(
            "SELECT o.bot_id, b.name,
                 SUM(CASE WHEN me.place < o.place THEN 1 ELSE 0 END),
                 SUM(CASE WHEN me.place = o.place THEN 1 ELSE 0 END),
                 SUM(CASE WHEN me.place > o.place THEN 1 ELSE 0 END)
             FROM ladder_match_seats me
             JOIN ladder_matches m ON m.id = me.match_id
             JOIN ladder_match_seats o ON o.match_id = me.match_id AND o.bot_id <> me.bot_id
             JOIN bots b ON b.id = o.bot_id
             WHERE me.bot_id = $1 AND m.ladder_id = $2 AND m.state = $3
             GROUP BY o.bot_id, b.name ORDER BY o.bot_id",
            &[&bot.0, &ladder.0, &MatchState::Done.as_str()],
        )
        .await?;
    rows.iter()
        .map(|row| {
            Ok(HeadToHead {
                opponent: BotId(row.try_get(0)?),
                name: row.try_get(1)?,
                wins: count(row.try_get(2)?),
                ties: count(row.try_get(3)?),
                losses: count(row.try_get(4)?),
            })
        })
        .collect()
}

pub(crate) async fn bot_ladder_versions(
    store: &PgStore,
    ladder: LadderId,
    bot: BotId,
) -> Result<Vec<LadderVersion>> {
    let conn = store.conn().await?;
    let rows = conn
        .rows(
            "SELECT s.version, MIN(m.finished_ms), MAX(m.finished_ms), COUNT(*)
             FROM ladder_match_seats s JOIN ladder_matches m ON m.id = s.match_id
             WHERE s.bot_id = $1 AND m.ladder_id = $2 AND m.state = $3
                 AND s.version IS NOT NULL
             GROUP BY s.version ORDER BY MIN(m.finished_ms), s.version COLLATE \"C\"",
            &[&bot.0, &ladder.0, &MatchState::Done.as_str()],
        )
        .await?;
    rows.iter()
        .map(|row| {
            Ok(LadderVersion {
                version: row.try_get(0)?,
                first_ms: row.try_get::<_, Option<i64>>(1)?.unwrap_or_default(),
                last_ms: row.try_get::<_, Option<i64>>(2)?.unwrap_or_default(),
                matches: count(row.try_get(3)?),
            })
        })
        .collect()
}

pub(crate) async fn ladder_match(
    store: &PgStore,
    id: LadderMatchId,
) -> Result<Option<LadderMatch>> {
    let mut conn = store.conn().await?;
    let tx = conn.build_transaction().read_only(true).start().await?;
    let found = match_by_id(&tx, id, false).await?;
    tx.commit().await?;
    Ok(found)
}

pub(crate) async fn bot_think_times(
    store: &PgStore,
    ladder: LadderId,
    bot: BotId,
    matches: u32,
) -> Result<Vec<VersionThink>> {
    let conn = store.conn().await?;
    // Newest first down `ladder_think_times_by_bot`, at most `matches` rows.
    let rows = conn
        .rows(
            "SELECT version, decisions, sum_us, max_us, buckets FROM ladder_think_times
             WHERE ladder_id = $1 AND bot_id = $2 ORDER BY match_id DESC LIMIT $3",
            &[&ladder.0, &bot.0, &i64::from(matches)],
        )
        .await?;
    let found = rows
        .iter()
        .map(|row| {
            let buckets: Vec<u8> = row.try_get(4)?;
            let think = ThinkSummary::from_stored(
                row.try_get(1)?,
                row.try_get(2)?,
                row.try_get(3)?,
                &buckets,
            )?;
            Ok((row.try_get::<_, String>(0)?, think))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(crate::think::by_version(found))
}
