//! Many nodes on one PostgreSQL database: claiming ready matches without waiting on each other
//! (`FOR UPDATE SKIP LOCKED`), and one scheduler per ladder (a session advisory lock).
//!
//! A scheduler's lock lives on a connection of its own, outside the pool, held for as long as
//! the node leads: when the node's process dies, the kernel closes its socket, PostgreSQL ends
//! the session and the lock is free for a standby at its next [`Store::try_lead`]. A node cut
//! off without its sockets closing (a partition, a machine gone dark) asks nothing more of its
//! session, and the server ends it once it has been idle for twice the store's call timeout
//! (`idle_session_timeout`, which the leader's every step, at most 250 ms apart, resets). On
//! its side, the cut-off node's next step finds the session silent within the call timeout,
//! and stops leading. A leader that lost its lock without knowing yet can do no harm: planning
//! a set index already planned and rating a set already rated are refused by the store.
//!
//! [`Store::try_lead`]: crate::Store::try_lead

use std::collections::HashMap;

use tokio::sync::Mutex;
use tokio_postgres::Client;

use crate::nodes::{
    FINISHED_COLUMNS, FINISHED_JOINS, FinishedSeatRow, RunningSeatRow, cursor_bounds, encode_lobby,
    finished_bounds, group_finished, group_running, node_row,
};
use crate::postgres::Cached;
use crate::{
    BotId, Claim, ClaimLimit, ElsewhereQuery, FinishedElsewhere, FinishedQuery, LadderId,
    LadderMatchId, Lease, MatchState, NodeBeat, NodeRow, PgStore, RunningElsewhere, StoreError,
};

/// Waits for a ladder's claim turn, until the transaction ends: the claims of one ladder with
/// a cap take turns, so that each counts the running matches the one before it claimed. Keyed
/// as [`TRY_LOCK`], apart from it.
const CLAIM_TURN: &str = "SELECT pg_advisory_xact_lock(hashtextextended(
    'cardroom claims ' || current_schema() || ' ' || ($1::BIGINT)::TEXT, 0))";

/// Counts a ladder's running matches whose lease holds.
const RUNNING: &str = "SELECT COUNT(*) FROM ladder_matches
     WHERE ladder_id = $1 AND state = 'running' AND lease_until_ms >= $2";

/// Takes a ladder's scheduler lock if it is free. The key is a 64-bit hash of the schema the
/// store works in and the ladder's id: advisory locks belong to the whole database, and
/// deployments in two schemas of one database must not share a ladder's lock.
const TRY_LOCK: &str = "SELECT pg_try_advisory_lock(hashtextextended(
    'cardroom scheduler ' || current_schema() || ' ' || ($1::BIGINT)::TEXT, 0))";

/// Releases a ladder's scheduler lock taken with [`TRY_LOCK`] on the same session.
const UNLOCK: &str = "SELECT pg_advisory_unlock(hashtextextended(
    'cardroom scheduler ' || current_schema() || ' ' || ($1::BIGINT)::TEXT, 0))";

/// The connections on which this handle holds ladders' scheduler locks.
#[derive(Debug, Default)]
pub(crate) struct Leadership {
    sessions: Mutex<HashMap<LadderId, Client>>,
}

pub(crate) async fn claim_ready(
    store: &PgStore,
    ladder: LadderId,
    ready: &[BotId],
    lease: &Lease,
    now_ms: i64,
    limit: ClaimLimit,
) -> Result<Vec<Claim>, StoreError> {
    let ready: Vec<i64> = ready.iter().map(|bot| bot.0).collect();
    let mut conn = store.conn().await?;
    let tx = conn.transaction().await?;
    let mut room = limit.claims;
    if limit.running != u32::MAX {
        tx.one(CLAIM_TURN, &[&ladder.0]).await?;
        // Read after the turn is taken (each statement sees what committed before it).
        let running: i64 = tx.one(RUNNING, &[&ladder.0, &now_ms]).await?.try_get(0)?;
        let running = u32::try_from(running).unwrap_or(u32::MAX);
        room = room.min(limit.running.saturating_sub(running));
    }
    if room == 0 {
        return Ok(Vec::new());
    }
    // The candidates are locked as they are read; a row another node has locked is skipped,
    // not waited for, and one it claimed meanwhile fails the re-checked condition. The literal
    // `state IN (...)` lets the planner walk the partial index of claimable matches in set
    // order (migration 9) rather than every match of the ladder.
    let rows = tx
        .rows(
            "WITH ready AS (
                 SELECT m.id FROM ladder_matches m
                 WHERE m.ladder_id = $1 AND m.state IN ('planned', 'running')
                     AND (m.state = $2 OR (m.state = $3 AND m.lease_until_ms < $4))
                     AND NOT EXISTS (SELECT 1 FROM ladder_match_seats s
                                     WHERE s.match_id = m.id AND s.bot_id <> ALL($5))
                 ORDER BY m.set_index, m.rotation
                 LIMIT $6
                 FOR UPDATE OF m SKIP LOCKED
             )
             UPDATE ladder_matches m
             SET state = $3, attempt = m.attempt + 1, lease_owner = $7, lease_until_ms = $8,
                 started_ms = $4
             FROM ready WHERE m.id = ready.id
             RETURNING m.id, m.attempt",
            &[
                &ladder.0,
                &MatchState::Planned.as_str(),
                &MatchState::Running.as_str(),
                &now_ms,
                &ready,
                &i64::from(room),
                &lease.owner,
                &lease.until_ms,
            ],
        )
        .await?;
    tx.commit().await?;
    let mut claims = rows
        .iter()
        .map(|row| {
            let attempt: i64 = row.try_get(1)?;
            Ok(Claim {
                id: LadderMatchId(row.try_get(0)?),
                owner: lease.owner.clone(),
                attempt: u32::try_from(attempt)
                    .map_err(|_| StoreError::Corrupt(format!("attempt {attempt}")))?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    claims.sort_by_key(|claim| claim.id);
    Ok(claims)
}

pub(crate) async fn running_matches(
    store: &PgStore,
    ladder: LadderId,
    now_ms: i64,
) -> Result<u32, StoreError> {
    let running: i64 = store.conn().await?.one(RUNNING, &[&ladder.0, &now_ms]).await?.try_get(0)?;
    u32::try_from(running).map_err(|_| StoreError::Corrupt(format!("{running} running matches")))
}

pub(crate) async fn try_lead(store: &PgStore, ladder: LadderId) -> Result<bool, StoreError> {
    let mut sessions = store.leadership().sessions.lock().await;
    if let Some(session) = sessions.get(&ladder) {
        // Still leading while the session lives: one round trip tells, within half the call's
        // bound (so that a silent session is dropped here, before the whole call times out).
        let bound = store.call_timeout() / 2;
        let answered = !session.is_closed()
            && tokio::time::timeout(bound, session.simple_query("")).await.is_ok_and(|a| a.is_ok());
        if answered {
            return Ok(true);
        }
        sessions.remove(&ladder);
    }
    let (client, connection) = store.config().connect(store.connector().clone()).await?;
    tokio::spawn(async move {
        if let Err(error) = connection.await {
            tracing::warn!(cause = %error, "the scheduler lock's connection ended");
        }
    });
    // The server ends the session, and frees the lock, once the node has asked nothing of it
    // for twice the call's bound (PostgreSQL 14 and later; before, the lock lasts until the
    // server sees the connection gone).
    let idle = format!("SET idle_session_timeout = {}", 2 * store.call_timeout().as_millis());
    if let Err(error) = client.batch_execute(&idle).await {
        tracing::warn!(cause = %error, "the scheduler's session has no idle timeout");
    }
    let won: bool = client.query_one(TRY_LOCK, &[&ladder.0]).await?.try_get(0)?;
    if won {
        sessions.insert(ladder, client);
    }
    Ok(won)
}

pub(crate) async fn resign(store: &PgStore, ladder: LadderId) -> Result<(), StoreError> {
    let Some(session) = store.leadership().sessions.lock().await.remove(&ladder) else {
        return Ok(());
    };
    // Unlocked before the session closes: a dropped session's backend lets the lock go only
    // once it has seen the connection end, so a `try_lead` right after (this handle's or
    // another node's) could still find it held. Should the unlock fail, closing the session
    // releases the lock all the same.
    if let Err(error) = session.query_one(UNLOCK, &[&ladder.0]).await {
        tracing::debug!(cause = %error, "the scheduler lock is left to the session's end");
    }
    Ok(())
}

pub(crate) async fn beat_node(
    store: &PgStore,
    beat: &NodeBeat,
    now_ms: i64,
) -> Result<(), StoreError> {
    store
        .conn()
        .await?
        .exec(
            "INSERT INTO nodes (owner, advertise, started_ms, seen_ms, lobby, secret)
             VALUES ($1, $2, $3, $3, $4, $5)
             ON CONFLICT (owner) DO UPDATE SET advertise = $2, seen_ms = $3, lobby = $4,
                 secret = $5",
            &[&beat.owner, &beat.advertise, &now_ms, &encode_lobby(&beat.lobby), &beat.secret],
        )
        .await?;
    Ok(())
}

pub(crate) async fn nodes(store: &PgStore, seen_since_ms: i64) -> Result<Vec<NodeRow>, StoreError> {
    let rows = store
        .conn()
        .await?
        .rows(
            "SELECT owner, advertise, started_ms, seen_ms, lobby, secret FROM nodes WHERE seen_ms >= $1
             ORDER BY owner",
            &[&seen_since_ms],
        )
        .await?;
    rows.iter().map(node_of).collect()
}

/// A node's row from the columns `owner, advertise, started_ms, seen_ms, lobby, secret`.
fn node_of(row: &tokio_postgres::Row) -> Result<NodeRow, StoreError> {
    let lobby: String = row.try_get(4)?;
    node_row(
        row.try_get(0)?,
        row.try_get(1)?,
        row.try_get(2)?,
        row.try_get(3)?,
        &lobby,
        row.try_get(5)?,
    )
}

pub(crate) async fn note_hosting(
    store: &PgStore,
    claim: &Claim,
    server_match_id: &str,
) -> Result<(), StoreError> {
    let noted = store
        .conn()
        .await?
        .exec(
            "UPDATE ladder_matches SET server_match_id = $4
             WHERE id = $1 AND state = 'running' AND lease_owner = $2 AND attempt = $3",
            &[&claim.id.0, &claim.owner, &i64::from(claim.attempt), &server_match_id],
        )
        .await?;
    if noted == 0 {
        return Err(StoreError::StaleClaim {
            match_id: claim.id.0,
            owner: claim.owner.clone(),
            attempt: claim.attempt,
        });
    }
    Ok(())
}

pub(crate) async fn hosting_node(
    store: &PgStore,
    server_match_id: &str,
) -> Result<Option<NodeRow>, StoreError> {
    let row = store
        .conn()
        .await?
        .opt(
            "SELECT n.owner, n.advertise, n.started_ms, n.seen_ms, n.lobby, n.secret
             FROM ladder_matches m JOIN nodes n ON n.owner = m.lease_owner
             WHERE m.server_match_id = $1 AND m.state = 'running'",
            &[&server_match_id],
        )
        .await?;
    row.as_ref().map(node_of).transpose()
}

/// Lists the matches other nodes host (`ladder_matches_by_state` finds the running ones).
const RUNNING_ELSEWHERE: &str = "
    SELECT m.id, m.server_match_id, l.game, m.started_ms, m.owner, m.advertise, b.name
    FROM (SELECT m.id, m.ladder_id, m.server_match_id, m.started_ms, n.owner, n.advertise
          FROM ladder_matches m JOIN nodes n ON n.owner = m.lease_owner
          WHERE m.state = 'running' AND m.lease_until_ms >= $1
              AND m.server_match_id IS NOT NULL AND m.started_ms IS NOT NULL
              AND n.owner <> $2 AND n.seen_ms >= $3
              AND (m.started_ms, m.id) < ($4, $5)
          ORDER BY m.started_ms DESC, m.id DESC
          LIMIT $6) m
    JOIN ladders l ON l.id = m.ladder_id
    JOIN ladder_match_seats s ON s.match_id = m.id
    JOIN bots b ON b.id = s.bot_id
    ORDER BY m.started_ms DESC, m.id DESC, s.seat";

pub(crate) async fn running_elsewhere(
    store: &PgStore,
    query: &ElsewhereQuery,
) -> Result<Vec<RunningElsewhere>, StoreError> {
    let (before_ms, before_id) = cursor_bounds(query.after);
    let rows = store
        .conn()
        .await?
        .rows(
            RUNNING_ELSEWHERE,
            &[
                &query.now_ms,
                &query.except_owner,
                &query.seen_since_ms,
                &before_ms,
                &before_id,
                &i64::from(query.limit),
            ],
        )
        .await?;
    let rows = rows
        .iter()
        .map(|row| {
            Ok((
                row.try_get(0)?,
                row.try_get(1)?,
                row.try_get(2)?,
                row.try_get(3)?,
                row.try_get(4)?,
                row.try_get(5)?,
                row.try_get(6)?,
            ))
        })
        .collect::<Result<Vec<RunningSeatRow>, StoreError>>()?;
    Ok(group_running(rows))
}

/// A row of [`FINISHED_COLUMNS`].
fn finished_row(row: &tokio_postgres::Row) -> Result<FinishedSeatRow, StoreError> {
    Ok(FinishedSeatRow {
        id: row.try_get(0)?,
        server_match_id: row.try_get(1)?,
        game: row.try_get(2)?,
        options_json: row.try_get(3)?,
        started_ms: row.try_get(4)?,
        finished_ms: row.try_get(5)?,
        owner: row.try_get(6)?,
        advertise: row.try_get(7)?,
        seen_ms: row.try_get(8)?,
        bot: row.try_get(9)?,
        place: row.try_get(10)?,
        forfeited: row.try_get(11)?,
    })
}

pub(crate) async fn finished_elsewhere(
    store: &PgStore,
    query: &FinishedQuery,
) -> Result<Vec<FinishedElsewhere>, StoreError> {
    let (before_ms, before_id) = finished_bounds(query.after);
    // Down `ladder_matches_done`, the cursor an index condition.
    let sql = format!(
        "SELECT {FINISHED_COLUMNS}
         FROM (SELECT id, ladder_id, server_match_id, started_ms, finished_ms, finished_by
               FROM ladder_matches
               WHERE state = 'done' AND finished_by IS NOT NULL AND finished_by <> $1
                   AND server_match_id IS NOT NULL
                   AND (finished_ms, id) < ($2, $3)
               ORDER BY finished_ms DESC, id DESC
               LIMIT $4) m
         {FINISHED_JOINS}
         ORDER BY m.finished_ms DESC, m.id DESC, s.seat"
    );
    let rows = store
        .conn()
        .await?
        .rows(&sql, &[&query.except_owner, &before_ms, &before_id, &i64::from(query.limit)])
        .await?;
    group_finished(rows.iter().map(finished_row).collect::<Result<_, _>>()?)
}

pub(crate) async fn finished_by_server_id(
    store: &PgStore,
    server_match_id: &str,
) -> Result<Option<FinishedElsewhere>, StoreError> {
    // By `ladder_matches_by_server_id`.
    let sql = format!(
        "SELECT {FINISHED_COLUMNS} FROM ladder_matches m {FINISHED_JOINS}
         WHERE m.server_match_id = $1 AND m.state = 'done'
         ORDER BY m.id, s.seat"
    );
    let rows = store.conn().await?.rows(&sql, &[&server_match_id]).await?;
    let rows = rows.iter().map(finished_row).collect::<Result<_, _>>()?;
    Ok(group_finished(rows)?.into_iter().next())
}
