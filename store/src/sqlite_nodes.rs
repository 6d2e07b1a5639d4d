//! Many-node coordination in SQLite, where there is one node: claiming ready matches in one
//! transaction, the scheduler's lock that the only node always holds, and the node's row.

use std::collections::HashSet;

use rusqlite::{Connection, TransactionBehavior, params};

use crate::nodes::{
    FINISHED_COLUMNS, FINISHED_JOINS, FinishedSeatRow, RunningSeatRow, cursor_bounds, encode_lobby,
    finished_bounds, group_finished, group_running, node_row,
};
use crate::{
    BotId, Claim, ClaimLimit, ElsewhereQuery, FinishedElsewhere, FinishedQuery, LadderId,
    LadderMatchId, Lease, MatchState, NodeBeat, NodeRow, RunningElsewhere, StoreError,
};

/// The statement that counts a ladder's running matches whose lease holds.
const RUNNING: &str = "SELECT COUNT(*) FROM ladder_matches
     WHERE ladder_id = ?1 AND state = 'running' AND lease_until_ms >= ?2";

/// The claimable matches of a ladder (planned, or running under a lapsed lease) with their
/// seats' bots, in set order: down the partial index of claimable matches (migration 9), never
/// the ladder's every match (a claim read them all before, a few milliseconds a claim for every
/// 4,000 matches the ladder had played). The literal `state IN (...)` is what lets the planner
/// use that index.
pub(crate) const CLAIMABLE: &str = "SELECT m.id, s.bot_id FROM ladder_matches m
     JOIN ladder_match_seats s ON s.match_id = m.id
     WHERE m.ladder_id = ?1 AND m.state IN ('planned', 'running')
         AND (m.state = 'planned' OR m.lease_until_ms < ?2)
     ORDER BY m.set_index, m.rotation, m.id, s.seat";

/// Migration 9, the same in both dialects: the partial index [`CLAIMABLE`] (and PostgreSQL's
/// claim) walks.
pub(crate) const CLAIMABLE_INDEX: &str = "CREATE INDEX ladder_matches_claimable
     ON ladder_matches (ladder_id, set_index, rotation) WHERE state IN ('planned', 'running');";

pub(crate) fn claim_ready(
    conn: &mut Connection,
    ladder: LadderId,
    ready: &[BotId],
    lease: &Lease,
    now_ms: i64,
    limit: ClaimLimit,
) -> Result<Vec<Claim>, StoreError> {
    let ready: HashSet<i64> = ready.iter().map(|bot| bot.0).collect();
    let running = MatchState::Running.as_str();
    // Immediate: the write lock from the start, so the matches read are still claimable when
    // they are written.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let already: u32 = tx.query_row(RUNNING, params![ladder.0, now_ms], |row| row.get(0))?;
    let room = limit.claims.min(limit.running.saturating_sub(already)) as usize;
    let candidates: Vec<(i64, i64)> = {
        let mut stmt = tx.prepare_cached(CLAIMABLE)?;
        stmt.query_map(params![ladder.0, now_ms], |row| Ok((row.get(0)?, row.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?
    };
    let mut claims = Vec::new();
    let mut rows = candidates.into_iter().peekable();
    while let Some((id, bot)) = rows.next() {
        let mut all_ready = ready.contains(&bot);
        while let Some((_, bot)) = rows.next_if(|(next, _)| *next == id) {
            all_ready &= ready.contains(&bot);
        }
        if !all_ready {
            continue;
        }
        if claims.len() >= room {
            break;
        }
        let attempt: u32 = tx.query_row(
            "UPDATE ladder_matches
             SET state = ?2, attempt = attempt + 1, lease_owner = ?3, lease_until_ms = ?4,
                 started_ms = ?5
             WHERE id = ?1 RETURNING attempt",
            params![id, running, lease.owner, lease.until_ms, now_ms],
            |row| row.get(0),
        )?;
        claims.push(Claim { id: LadderMatchId(id), owner: lease.owner.clone(), attempt });
    }
    tx.commit()?;
    Ok(claims)
}

pub(crate) fn running_matches(
    conn: &mut Connection,
    ladder: LadderId,
    now_ms: i64,
) -> Result<u32, StoreError> {
    Ok(conn.prepare_cached(RUNNING)?.query_row(params![ladder.0, now_ms], |row| row.get(0))?)
}

pub(crate) fn beat_node(
    conn: &mut Connection,
    beat: &NodeBeat,
    now_ms: i64,
) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO nodes (owner, advertise, started_ms, seen_ms, lobby, secret)
         VALUES (?1, ?2, ?3, ?3, ?4, ?5)
         ON CONFLICT (owner) DO UPDATE SET advertise = ?2, seen_ms = ?3, lobby = ?4,
                 secret = ?5",
        params![beat.owner, beat.advertise, now_ms, encode_lobby(&beat.lobby), beat.secret],
    )?;
    Ok(())
}

pub(crate) fn nodes(conn: &mut Connection, seen_since_ms: i64) -> Result<Vec<NodeRow>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT owner, advertise, started_ms, seen_ms, lobby, secret FROM nodes WHERE seen_ms >= ?1
         ORDER BY owner",
    )?;
    let rows = stmt
        .query_map(params![seen_since_ms], |row| {
            let lobby: String = row.get(4)?;
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, lobby, row.get(5)?))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.into_iter()
        .map(|(owner, advertise, started, seen, lobby, secret)| {
            node_row(owner, advertise, started, seen, &lobby, secret)
        })
        .collect()
}

/// The statement that notes a hosted match's server id, under its claim.
const NOTE_HOSTING: &str = "UPDATE ladder_matches SET server_match_id = ?4
     WHERE id = ?1 AND state = 'running' AND lease_owner = ?2 AND attempt = ?3";

/// The statement that finds a running ladder match's node by the match's server id.
const HOSTING_NODE: &str = "SELECT n.owner, n.advertise, n.started_ms, n.seen_ms, n.lobby, n.secret
     FROM ladder_matches m JOIN nodes n ON n.owner = m.lease_owner
     WHERE m.server_match_id = ?1 AND m.state = 'running'";

pub(crate) fn note_hosting(
    conn: &mut Connection,
    claim: &Claim,
    server_match_id: &str,
) -> Result<(), StoreError> {
    let noted = conn
        .execute(NOTE_HOSTING, params![claim.id.0, claim.owner, claim.attempt, server_match_id])?;
    if noted == 0 {
        return Err(stale(claim));
    }
    Ok(())
}

pub(crate) fn hosting_node(
    conn: &mut Connection,
    server_match_id: &str,
) -> Result<Option<NodeRow>, StoreError> {
    let mut stmt = conn.prepare_cached(HOSTING_NODE)?;
    let mut rows = stmt.query(params![server_match_id])?;
    let Some(row) = rows.next()? else { return Ok(None) };
    let lobby: String = row.get(4)?;
    node_row(row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, &lobby, row.get(5)?).map(Some)
}

/// The statement that lists the matches other nodes host (`ladder_matches_by_state` finds the
/// running ones).
const RUNNING_ELSEWHERE: &str = "
    SELECT m.id, m.server_match_id, l.game, m.started_ms, m.owner, m.advertise, b.name
    FROM (SELECT m.id, m.ladder_id, m.server_match_id, m.started_ms, n.owner, n.advertise
          FROM ladder_matches m JOIN nodes n ON n.owner = m.lease_owner
          WHERE m.state = 'running' AND m.lease_until_ms >= ?1
              AND m.server_match_id IS NOT NULL AND m.started_ms IS NOT NULL
              AND n.owner <> ?2 AND n.seen_ms >= ?3
              AND (m.started_ms < ?4 OR (m.started_ms = ?4 AND m.id < ?5))
          ORDER BY m.started_ms DESC, m.id DESC
          LIMIT ?6) m
    JOIN ladders l ON l.id = m.ladder_id
    JOIN ladder_match_seats s ON s.match_id = m.id
    JOIN bots b ON b.id = s.bot_id
    ORDER BY m.started_ms DESC, m.id DESC, s.seat";

pub(crate) fn running_elsewhere(
    conn: &mut Connection,
    query: &ElsewhereQuery,
) -> Result<Vec<RunningElsewhere>, StoreError> {
    let (before_ms, before_id) = cursor_bounds(query.after);
    let mut stmt = conn.prepare_cached(RUNNING_ELSEWHERE)?;
    let rows = stmt
        .query_map(
            params![
                query.now_ms,
                query.except_owner,
                query.seen_since_ms,
                before_ms,
                before_id,
                query.limit
            ],
            |row| {
                Ok((
                    row.get(0)?,
                    row.get(1)?,
                    row.get(2)?,
                    row.get(3)?,
                    row.get(4)?,
                    row.get(5)?,
                    row.get(6)?,
                ))
            },
        )?
        .collect::<rusqlite::Result<Vec<RunningSeatRow>>>()?;
    Ok(group_running(rows))
}

/// The done matches other nodes recorded, a page of them latest finished first, down
/// `ladder_matches_done` (the cursor bounds the index range: `finished_ms <= ?2` first).
/// Named with `INDEXED BY`: without statistics SQLite would pick `ladder_matches_by_state` and
/// sort every done match.
pub(crate) fn finished_elsewhere_sql() -> String {
    format!(
        "SELECT {FINISHED_COLUMNS}
         FROM (SELECT id, ladder_id, server_match_id, started_ms, finished_ms, finished_by
               FROM ladder_matches INDEXED BY ladder_matches_done
               WHERE state = 'done' AND finished_by IS NOT NULL AND finished_by <> ?1
                   AND server_match_id IS NOT NULL
                   AND finished_ms <= ?2 AND (finished_ms < ?2 OR id < ?3)
               ORDER BY finished_ms DESC, id DESC
               LIMIT ?4) m
         {FINISHED_JOINS}
         ORDER BY m.finished_ms DESC, m.id DESC, s.seat"
    )
}

/// The done match a server match played, by `ladder_matches_by_server_id`.
pub(crate) fn finished_by_server_id_sql() -> String {
    format!(
        "SELECT {FINISHED_COLUMNS} FROM ladder_matches m {FINISHED_JOINS}
         WHERE m.server_match_id = ?1 AND m.state = 'done'
         ORDER BY m.id, s.seat"
    )
}

/// A row of [`FINISHED_COLUMNS`].
fn finished_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<FinishedSeatRow> {
    Ok(FinishedSeatRow {
        id: row.get(0)?,
        server_match_id: row.get(1)?,
        game: row.get(2)?,
        options_json: row.get(3)?,
        started_ms: row.get(4)?,
        finished_ms: row.get(5)?,
        owner: row.get(6)?,
        advertise: row.get(7)?,
        seen_ms: row.get(8)?,
        bot: row.get(9)?,
        place: row.get(10)?,
        forfeited: row.get(11)?,
    })
}

pub(crate) fn finished_elsewhere(
    conn: &mut Connection,
    query: &FinishedQuery,
) -> Result<Vec<FinishedElsewhere>, StoreError> {
    let (before_ms, before_id) = finished_bounds(query.after);
    let mut stmt = conn.prepare_cached(&finished_elsewhere_sql())?;
    let rows = stmt
        .query_map(params![query.except_owner, before_ms, before_id, query.limit], finished_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    group_finished(rows)
}

pub(crate) fn finished_by_server_id(
    conn: &mut Connection,
    server_match_id: &str,
) -> Result<Option<FinishedElsewhere>, StoreError> {
    let mut stmt = conn.prepare_cached(&finished_by_server_id_sql())?;
    let rows = stmt
        .query_map(params![server_match_id], finished_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(group_finished(rows)?.into_iter().next())
}

/// The refusal of a claim that no longer holds.
fn stale(claim: &Claim) -> StoreError {
    StoreError::StaleClaim {
        match_id: claim.id.0,
        owner: claim.owner.clone(),
        attempt: claim.attempt,
    }
}
