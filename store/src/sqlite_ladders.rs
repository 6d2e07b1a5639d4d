//! The hosted ladders' tables in SQLite: the migration and one function per [`Store`]
//! method, each one transaction on the connection [`SqliteStore`](crate::SqliteStore) lends.
//!
//! [`Store`]: crate::Store

use rusqlite::{Connection, OptionalExtension, Row, Transaction, params};

use crate::sqlite::is_unique_violation;
use crate::{
    BotId, Claim, FailureKind, FailureRow, Ladder, LadderBot, LadderId, LadderMatch, LadderMatchId,
    LadderSet, LadderStatus, Lease, MatchResult, MatchSeat, MatchState, NewFailure, NewLadder,
    NewSet, RatingChangeRow, RatingUpdate, Requeue, SeatOutcome, SetState, StoreError,
    StoredRating, ThinkSummary,
};

/// Migration 2: the hosted ladders. Plain SQL PostgreSQL runs too, but for `INTEGER PRIMARY
/// KEY` (an identity column there).
pub(crate) const MIGRATION: &str = "
    CREATE TABLE ladders (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        options_json TEXT NOT NULL,
        table_seats INTEGER NOT NULL,
        rating TEXT NOT NULL,
        seed BIGINT NOT NULL,
        provisional_sets INTEGER NOT NULL,
        config TEXT NOT NULL,
        status TEXT NOT NULL,
        status_reason TEXT,
        created_ms BIGINT NOT NULL,
        status_ms BIGINT NOT NULL
    );
    CREATE TABLE ladder_bots (
        ladder_id INTEGER NOT NULL REFERENCES ladders(id),
        bot_id INTEGER NOT NULL REFERENCES bots(id),
        joined_ms BIGINT NOT NULL,
        mean DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        sets_rated INTEGER NOT NULL DEFAULT 0,
        paused_reason TEXT,
        paused_ms BIGINT,
        PRIMARY KEY (ladder_id, bot_id)
    );
    CREATE TABLE ladder_sets (
        ladder_id INTEGER NOT NULL REFERENCES ladders(id),
        set_index BIGINT NOT NULL,
        seed BIGINT NOT NULL,
        state TEXT NOT NULL,
        void_reason TEXT,
        planned_ms BIGINT NOT NULL,
        closed_ms BIGINT,
        PRIMARY KEY (ladder_id, set_index)
    );
    CREATE TABLE ladder_set_bots (
        ladder_id INTEGER NOT NULL,
        set_index BIGINT NOT NULL,
        position INTEGER NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots(id),
        PRIMARY KEY (ladder_id, set_index, position),
        FOREIGN KEY (ladder_id, set_index) REFERENCES ladder_sets(ladder_id, set_index)
    );
    CREATE TABLE ladder_matches (
        id INTEGER PRIMARY KEY,
        ladder_id INTEGER NOT NULL,
        set_index BIGINT NOT NULL,
        rotation INTEGER NOT NULL,
        seed BIGINT NOT NULL,
        state TEXT NOT NULL,
        attempt INTEGER NOT NULL DEFAULT 0,
        lease_owner TEXT,
        lease_until_ms BIGINT,
        server_match_id TEXT,
        record_json TEXT,
        planned_ms BIGINT NOT NULL,
        started_ms BIGINT,
        finished_ms BIGINT,
        UNIQUE (ladder_id, set_index, rotation),
        FOREIGN KEY (ladder_id, set_index) REFERENCES ladder_sets(ladder_id, set_index)
    );
    CREATE INDEX ladder_matches_by_state ON ladder_matches (state, lease_until_ms);
    CREATE TABLE ladder_match_seats (
        match_id INTEGER NOT NULL REFERENCES ladder_matches(id),
        seat INTEGER NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots(id),
        version TEXT,
        place INTEGER,
        forfeited BOOLEAN NOT NULL DEFAULT FALSE,
        failure TEXT,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX ladder_match_seats_by_bot ON ladder_match_seats (bot_id, match_id);
    CREATE TABLE rating_changes (
        ladder_id INTEGER NOT NULL REFERENCES ladders(id),
        seq BIGINT NOT NULL,
        set_index BIGINT NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots(id),
        mean_before DOUBLE PRECISION NOT NULL,
        sigma_before DOUBLE PRECISION NOT NULL,
        volatility_before DOUBLE PRECISION NOT NULL,
        mean_after DOUBLE PRECISION NOT NULL,
        sigma_after DOUBLE PRECISION NOT NULL,
        volatility_after DOUBLE PRECISION NOT NULL,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (ladder_id, seq, bot_id)
    );
    CREATE INDEX rating_changes_by_bot ON rating_changes (ladder_id, bot_id, seq);
    CREATE TABLE ladder_failures (
        id INTEGER PRIMARY KEY,
        ladder_id INTEGER NOT NULL REFERENCES ladders(id),
        match_id INTEGER NOT NULL REFERENCES ladder_matches(id),
        seat INTEGER NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots(id),
        version TEXT NOT NULL,
        kind TEXT NOT NULL,
        observation_json TEXT,
        answer TEXT,
        error TEXT NOT NULL,
        at_ms BIGINT NOT NULL
    );
    CREATE INDEX ladder_failures_by_bot ON ladder_failures (ladder_id, bot_id, id);
";

type Result<T> = std::result::Result<T, StoreError>;

/// A `u64` seed or index as SQLite's signed 64 bits, bit for bit.
fn signed(value: u64) -> i64 {
    value as i64
}

/// A stored seed or index back to `u64`, bit for bit.
fn unsigned(value: i64) -> u64 {
    value as u64
}

/// Reads a stored enum's text, refusing an unknown one as corrupt.
fn parse<T: std::str::FromStr<Err = StoreError>>(text: String) -> Result<T> {
    text.parse()
}

const LADDER_COLUMNS: &str = "id, name, game, options_json, table_seats, rating, seed, \
    provisional_sets, config, status, status_reason, created_ms, status_ms";

/// A row of [`LADDER_COLUMNS`], its status still text.
fn ladder_row(row: &Row<'_>) -> rusqlite::Result<(Ladder, String)> {
    let ladder = Ladder {
        id: LadderId(row.get(0)?),
        spec: NewLadder {
            name: row.get(1)?,
            game: row.get(2)?,
            options_json: row.get(3)?,
            table_seats: row.get(4)?,
            rating: row.get(5)?,
            seed: unsigned(row.get(6)?),
            provisional_sets: row.get(7)?,
            config: row.get(8)?,
        },
        status: LadderStatus::Running,
        status_reason: row.get(10)?,
        created_ms: row.get(11)?,
        status_ms: row.get(12)?,
    };
    Ok((ladder, row.get(9)?))
}

fn finish_ladder((mut ladder, status): (Ladder, String)) -> Result<Ladder> {
    ladder.status = parse(status)?;
    Ok(ladder)
}

fn ladder_where(conn: &Connection, clause: &str, value: impl rusqlite::ToSql) -> Result<Ladder> {
    let found = conn
        .query_row(
            &format!("SELECT {LADDER_COLUMNS} FROM ladders WHERE {clause}"),
            [value],
            ladder_row,
        )
        .optional()?;
    found.map(finish_ladder).unwrap_or_else(|| Err(StoreError::NoSuchLadder(clause.to_owned())))
}

fn ladder_by_id(conn: &Connection, id: LadderId) -> Result<Ladder> {
    ladder_where(conn, "id = ?1", id.0).map_err(|error| match error {
        StoreError::NoSuchLadder(_) => StoreError::NoSuchLadder(format!("with id {}", id.0)),
        other => other,
    })
}

pub(crate) fn create_ladder(conn: &mut Connection, new: &NewLadder, now_ms: i64) -> Result<Ladder> {
    let tx = conn.transaction()?;
    let inserted = tx.execute(
        "INSERT INTO ladders (name, game, options_json, table_seats, rating, seed,
             provisional_sets, config, status, created_ms, status_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10)",
        params![
            new.name,
            new.game,
            new.options_json,
            new.table_seats,
            new.rating,
            signed(new.seed),
            new.provisional_sets,
            new.config,
            LadderStatus::Running.as_str(),
            now_ms
        ],
    );
    match inserted {
        Err(error) if is_unique_violation(&error) => {
            return Err(StoreError::LadderExists(new.name.clone()));
        }
        other => other?,
    };
    let ladder = ladder_by_id(&tx, LadderId(tx.last_insert_rowid()))?;
    tx.commit()?;
    Ok(ladder)
}

pub(crate) fn ladders(conn: &mut Connection) -> Result<Vec<Ladder>> {
    let mut stmt = conn.prepare(&format!("SELECT {LADDER_COLUMNS} FROM ladders ORDER BY name"))?;
    let rows: Vec<(Ladder, String)> =
        stmt.query_map([], ladder_row)?.collect::<rusqlite::Result<_>>()?;
    rows.into_iter().map(finish_ladder).collect()
}

pub(crate) fn ladder_named(conn: &mut Connection, name: &str) -> Result<Option<Ladder>> {
    match ladder_where(conn, "name = ?1", name) {
        Ok(ladder) => Ok(Some(ladder)),
        Err(StoreError::NoSuchLadder(_)) => Ok(None),
        Err(error) => Err(error),
    }
}

pub(crate) fn set_ladder_status(
    conn: &mut Connection,
    id: LadderId,
    status: LadderStatus,
    reason: Option<&str>,
    now_ms: i64,
) -> Result<Ladder> {
    let tx = conn.transaction()?;
    let ladder = ladder_by_id(&tx, id)?;
    if ladder.status == LadderStatus::Closed {
        if status == LadderStatus::Closed {
            return Ok(ladder);
        }
        return Err(StoreError::LadderClosed(ladder.spec.name));
    }
    tx.execute(
        "UPDATE ladders SET status = ?2, status_reason = ?3, status_ms = ?4 WHERE id = ?1",
        params![id.0, status.as_str(), reason, now_ms],
    )?;
    let ladder = ladder_by_id(&tx, id)?;
    tx.commit()?;
    Ok(ladder)
}

pub(crate) fn reopen_ladder(conn: &mut Connection, id: LadderId, now_ms: i64) -> Result<Ladder> {
    let tx = conn.transaction()?;
    tx.execute(
        "UPDATE ladders SET status = ?2, status_reason = NULL, status_ms = ?3
         WHERE id = ?1 AND status = ?4",
        params![id.0, LadderStatus::Running.as_str(), now_ms, LadderStatus::Closed.as_str()],
    )?;
    let ladder = ladder_by_id(&tx, id)?;
    tx.commit()?;
    Ok(ladder)
}

pub(crate) fn update_ladder_config(
    conn: &mut Connection,
    id: LadderId,
    provisional_sets: u32,
    config: &str,
) -> Result<Ladder> {
    let tx = conn.transaction()?;
    let changed = tx.execute(
        "UPDATE ladders SET provisional_sets = ?2, config = ?3 WHERE id = ?1",
        params![id.0, provisional_sets, config],
    )?;
    if changed == 0 {
        return Err(StoreError::NoSuchLadder(format!("with id {}", id.0)));
    }
    let ladder = ladder_by_id(&tx, id)?;
    tx.commit()?;
    Ok(ladder)
}

const LADDER_BOT_COLUMNS: &str = "lb.bot_id, b.name, lb.joined_ms, lb.mean, lb.sigma, \
    lb.volatility, lb.sets_rated, lb.paused_reason, lb.paused_ms";

fn ladder_bot_row(row: &Row<'_>) -> rusqlite::Result<LadderBot> {
    Ok(LadderBot {
        bot: BotId(row.get(0)?),
        name: row.get(1)?,
        joined_ms: row.get(2)?,
        rating: StoredRating { mean: row.get(3)?, sigma: row.get(4)?, volatility: row.get(5)? },
        sets_rated: row.get(6)?,
        paused_reason: row.get(7)?,
        paused_ms: row.get(8)?,
    })
}

fn ladder_bot(conn: &Connection, ladder: LadderId, bot: BotId) -> Result<LadderBot> {
    conn.query_row(
        &format!(
            "SELECT {LADDER_BOT_COLUMNS} FROM ladder_bots lb JOIN bots b ON b.id = lb.bot_id
             WHERE lb.ladder_id = ?1 AND lb.bot_id = ?2"
        ),
        params![ladder.0, bot.0],
        ladder_bot_row,
    )
    .optional()?
    .ok_or(StoreError::NotInLadder { ladder: ladder.0, bot: bot.0 })
}

pub(crate) fn enter_ladder(
    conn: &mut Connection,
    ladder: LadderId,
    bot: BotId,
    initial: StoredRating,
    now_ms: i64,
) -> Result<LadderBot> {
    let tx = conn.transaction()?;
    ladder_by_id(&tx, ladder)?;
    tx.execute(
        "INSERT INTO ladder_bots (ladder_id, bot_id, joined_ms, mean, sigma, volatility)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (ladder_id, bot_id) DO NOTHING",
        params![ladder.0, bot.0, now_ms, initial.mean, initial.sigma, initial.volatility],
    )?;
    let row = ladder_bot(&tx, ladder, bot)?;
    tx.commit()?;
    Ok(row)
}

pub(crate) fn ladder_bots(conn: &mut Connection, ladder: LadderId) -> Result<Vec<LadderBot>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {LADDER_BOT_COLUMNS} FROM ladder_bots lb JOIN bots b ON b.id = lb.bot_id
         WHERE lb.ladder_id = ?1 ORDER BY lb.bot_id"
    ))?;
    let bots = stmt.query_map([ladder.0], ladder_bot_row)?.collect::<rusqlite::Result<_>>()?;
    Ok(bots)
}

/// Pauses the bot (`Some((reason, when))`, keeping an earlier pause's reason) or lifts its
/// pause (`None`).
pub(crate) fn pause_bot(
    conn: &mut Connection,
    ladder: LadderId,
    bot: BotId,
    pause: Option<(&str, i64)>,
) -> Result<LadderBot> {
    let tx = conn.transaction()?;
    ladder_bot(&tx, ladder, bot)?;
    match pause {
        Some((reason, now_ms)) => tx.execute(
            "UPDATE ladder_bots SET paused_reason = ?3, paused_ms = ?4
             WHERE ladder_id = ?1 AND bot_id = ?2 AND paused_reason IS NULL",
            params![ladder.0, bot.0, reason, now_ms],
        )?,
        None => tx.execute(
            "UPDATE ladder_bots SET paused_reason = NULL, paused_ms = NULL
             WHERE ladder_id = ?1 AND bot_id = ?2",
            params![ladder.0, bot.0],
        )?,
    };
    let row = ladder_bot(&tx, ladder, bot)?;
    tx.commit()?;
    Ok(row)
}

pub(crate) fn set_count(conn: &mut Connection, ladder: LadderId) -> Result<u64> {
    count_sets(conn, ladder)
}

fn count_sets(conn: &Connection, ladder: LadderId) -> Result<u64> {
    let count: i64 = conn.query_row(
        // Sets are numbered from 0 without gaps: the last index + 1 is their count, read from
        // the primary key (a COUNT(*) would scan every set of a long ladder).
        "SELECT COALESCE(MAX(set_index) + 1, 0) FROM ladder_sets WHERE ladder_id = ?1",
        [ladder.0],
        |row| row.get(0),
    )?;
    Ok(count as u64)
}

pub(crate) fn plan_set(
    conn: &mut Connection,
    ladder: LadderId,
    set: &NewSet,
    now_ms: i64,
) -> Result<LadderSet> {
    let tx = conn.transaction()?;
    ladder_by_id(&tx, ladder)?;
    let next = count_sets(&tx, ladder)?;
    if set.index != next {
        return Err(StoreError::Conflict(format!(
            "set {} cannot be planned: the ladder's next set is {next}",
            set.index
        )));
    }
    tx.execute(
        "INSERT INTO ladder_sets (ladder_id, set_index, seed, state, planned_ms)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![ladder.0, signed(set.index), signed(set.seed), SetState::Open.as_str(), now_ms],
    )?;
    for (position, bot) in set.bots.iter().enumerate() {
        tx.execute(
            "INSERT INTO ladder_set_bots (ladder_id, set_index, position, bot_id)
             VALUES (?1, ?2, ?3, ?4)",
            params![ladder.0, signed(set.index), position as i64, bot.0],
        )?;
    }
    for planned in &set.matches {
        tx.execute(
            "INSERT INTO ladder_matches (ladder_id, set_index, rotation, seed, state, planned_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                ladder.0,
                signed(set.index),
                planned.rotation,
                signed(planned.seed),
                MatchState::Planned.as_str(),
                now_ms
            ],
        )?;
        let id = tx.last_insert_rowid();
        for (seat, bot) in planned.seats.iter().enumerate() {
            tx.execute(
                "INSERT INTO ladder_match_seats (match_id, seat, bot_id) VALUES (?1, ?2, ?3)",
                params![id, seat as i64, bot.0],
            )?;
        }
    }
    let stored = set_at(&tx, ladder, set.index)?;
    tx.commit()?;
    Ok(stored)
}

const MATCH_COLUMNS: &str = "id, ladder_id, set_index, rotation, seed, state, attempt, \
    lease_owner, lease_until_ms, server_match_id, planned_ms, started_ms, finished_ms";

fn match_row(row: &Row<'_>) -> rusqlite::Result<(LadderMatch, String)> {
    let found = LadderMatch {
        id: LadderMatchId(row.get(0)?),
        ladder: LadderId(row.get(1)?),
        set_index: unsigned(row.get(2)?),
        rotation: row.get(3)?,
        seed: unsigned(row.get(4)?),
        state: MatchState::Planned,
        seats: Vec::new(),
        attempt: row.get(6)?,
        lease_owner: row.get(7)?,
        lease_until_ms: row.get(8)?,
        server_match_id: row.get(9)?,
        planned_ms: row.get(10)?,
        started_ms: row.get(11)?,
        finished_ms: row.get(12)?,
    };
    Ok((found, row.get(5)?))
}

fn seats_of(conn: &Connection, id: LadderMatchId) -> Result<Vec<MatchSeat>> {
    let mut stmt = conn.prepare_cached(
        "SELECT seat, bot_id, version, place, forfeited, failure FROM ladder_match_seats
         WHERE match_id = ?1 ORDER BY seat",
    )?;
    let rows: Vec<(MatchSeat, Option<String>)> = stmt
        .query_map([id.0], |row| {
            Ok((
                MatchSeat {
                    seat: row.get(0)?,
                    bot: BotId(row.get(1)?),
                    version: row.get(2)?,
                    place: row.get(3)?,
                    forfeited: row.get(4)?,
                    failure: None,
                },
                row.get(5)?,
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    rows.into_iter()
        .map(|(mut seat, failure)| {
            seat.failure = failure.map(parse).transpose()?;
            Ok(seat)
        })
        .collect()
}

fn matches_of_set(conn: &Connection, ladder: LadderId, index: u64) -> Result<Vec<LadderMatch>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {MATCH_COLUMNS} FROM ladder_matches WHERE ladder_id = ?1 AND set_index = ?2
         ORDER BY rotation"
    ))?;
    let rows: Vec<(LadderMatch, String)> = stmt
        .query_map(params![ladder.0, signed(index)], match_row)?
        .collect::<rusqlite::Result<_>>()?;
    rows.into_iter()
        .map(|(mut found, state)| {
            found.state = parse(state)?;
            found.seats = seats_of(conn, found.id)?;
            Ok(found)
        })
        .collect()
}

pub(crate) fn match_by_id(conn: &Connection, id: LadderMatchId) -> Result<Option<LadderMatch>> {
    let found = conn
        .query_row(
            &format!("SELECT {MATCH_COLUMNS} FROM ladder_matches WHERE id = ?1"),
            [id.0],
            match_row,
        )
        .optional()?;
    found
        .map(|(mut found, state)| {
            found.state = parse(state)?;
            found.seats = seats_of(conn, found.id)?;
            Ok(found)
        })
        .transpose()
}

/// A set's row, its bots and its matches.
fn set_from(
    conn: &Connection,
    ladder: LadderId,
    (index, seed, state, void_reason, planned_ms): (i64, i64, String, Option<String>, i64),
) -> Result<LadderSet> {
    let index = unsigned(index);
    let bots = {
        let mut stmt = conn.prepare_cached(
            "SELECT bot_id FROM ladder_set_bots WHERE ladder_id = ?1 AND set_index = ?2
             ORDER BY position",
        )?;
        stmt.query_map(params![ladder.0, signed(index)], |row| Ok(BotId(row.get(0)?)))?
            .collect::<rusqlite::Result<_>>()?
    };
    Ok(LadderSet {
        ladder,
        index,
        seed: unsigned(seed),
        bots,
        state: parse(state)?,
        void_reason,
        planned_ms,
        matches: matches_of_set(conn, ladder, index)?,
    })
}

type SetColumns = (i64, i64, String, Option<String>, i64);

fn set_columns(row: &Row<'_>) -> rusqlite::Result<SetColumns> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?))
}

fn set_at(conn: &Connection, ladder: LadderId, index: u64) -> Result<LadderSet> {
    let columns = conn
        .query_row(
            "SELECT set_index, seed, state, void_reason, planned_ms FROM ladder_sets
             WHERE ladder_id = ?1 AND set_index = ?2",
            params![ladder.0, signed(index)],
            set_columns,
        )
        .optional()?
        .ok_or_else(|| StoreError::Conflict(format!("ladder {} has no set {index}", ladder.0)))?;
    set_from(conn, ladder, columns)
}

pub(crate) fn sets_in_state(
    conn: &mut Connection,
    ladder: LadderId,
    state: SetState,
) -> Result<Vec<LadderSet>> {
    let tx = conn.transaction()?;
    let rows: Vec<SetColumns> = {
        // The state spelled out in the SQL (one of the enum's own words, never a peer's), so
        // that the open sets are read from their partial index (migration 5), not by a scan
        // of every set the ladder ever had.
        let mut stmt = tx.prepare(&format!(
            "SELECT set_index, seed, state, void_reason, planned_ms FROM ladder_sets
             WHERE ladder_id = ?1 AND state = '{}' ORDER BY set_index",
            state.as_str()
        ))?;
        stmt.query_map(params![ladder.0], set_columns)?.collect::<rusqlite::Result<_>>()?
    };
    let sets = rows.into_iter().map(|columns| set_from(&tx, ladder, columns)).collect();
    tx.commit()?;
    sets
}

pub(crate) fn claim_match(
    conn: &mut Connection,
    id: LadderMatchId,
    lease: &Lease,
    now_ms: i64,
) -> Result<Claim> {
    let tx = conn.transaction()?;
    let changed = tx.execute(
        "UPDATE ladder_matches
         SET state = ?2, attempt = attempt + 1, lease_owner = ?3, lease_until_ms = ?4,
             started_ms = ?5
         WHERE id = ?1 AND (state = ?6 OR (state = ?2 AND lease_until_ms < ?5))",
        params![
            id.0,
            MatchState::Running.as_str(),
            lease.owner,
            lease.until_ms,
            now_ms,
            MatchState::Planned.as_str()
        ],
    )?;
    if changed == 0 {
        let why = match match_by_id(&tx, id)? {
            None => "there is no such match".to_owned(),
            Some(found) => format!("it is {}", found.state),
        };
        return Err(StoreError::Conflict(format!("match {} cannot be claimed: {why}", id.0)));
    }
    let attempt: u32 =
        tx.query_row("SELECT attempt FROM ladder_matches WHERE id = ?1", [id.0], |row| row.get(0))?;
    tx.commit()?;
    Ok(Claim { id, owner: lease.owner.clone(), attempt })
}

pub(crate) fn renew_leases(conn: &mut Connection, owner: &str, until_ms: i64) -> Result<u64> {
    let changed = conn.execute(
        "UPDATE ladder_matches SET lease_until_ms = ?2 WHERE lease_owner = ?1 AND state = ?3",
        params![owner, until_ms, MatchState::Running.as_str()],
    )?;
    Ok(changed as u64)
}

/// Checks that `claim` still holds the match: running, its owner's, the same attempt.
fn check_claim(tx: &Transaction<'_>, claim: &Claim) -> Result<LadderMatch> {
    let stale = || StoreError::StaleClaim {
        match_id: claim.id.0,
        owner: claim.owner.clone(),
        attempt: claim.attempt,
    };
    let found = match_by_id(tx, claim.id)?.ok_or_else(stale)?;
    let holds = found.state == MatchState::Running
        && found.lease_owner.as_deref() == Some(claim.owner.as_str())
        && found.attempt == claim.attempt;
    if holds { Ok(found) } else { Err(stale()) }
}

pub(crate) fn finish_match(conn: &mut Connection, result: &MatchResult, now_ms: i64) -> Result<()> {
    let tx = conn.transaction()?;
    let found = check_claim(&tx, &result.claim)?;
    if result.seats.len() != found.seats.len() {
        return Err(StoreError::Conflict(format!(
            "match {} has {} seats; the result gives {}",
            found.id.0,
            found.seats.len(),
            result.seats.len()
        )));
    }
    tx.execute(
        "UPDATE ladder_matches
         SET state = ?2, lease_owner = NULL, lease_until_ms = NULL, server_match_id = ?3,
             record_json = ?4, finished_ms = ?5, finished_by = ?6
         WHERE id = ?1",
        params![
            found.id.0,
            MatchState::Done.as_str(),
            result.server_match_id,
            result.record_json,
            now_ms,
            result.claim.owner
        ],
    )?;
    for seat in &result.seats {
        let Some(planned) = found.seats.iter().find(|s| s.seat == seat.seat) else {
            return Err(StoreError::Conflict(format!(
                "match {} has no seat {}",
                found.id.0, seat.seat
            )));
        };
        let first_failure =
            result.failures.iter().find(|f| f.seat == seat.seat).map(|f| f.kind.as_str());
        tx.execute(
            "UPDATE ladder_match_seats SET version = ?3, place = ?4, forfeited = ?5, failure = ?6
             WHERE match_id = ?1 AND seat = ?2",
            params![found.id.0, seat.seat, seat.version, seat.place, seat.forfeited, first_failure],
        )?;
        // The leaderboard's counts (migration 10), in the same transaction.
        tx.execute(
            "UPDATE ladder_bots SET matches_done = matches_done + 1, wins = wins + ?3
             WHERE ladder_id = ?1 AND bot_id = ?2",
            params![found.ladder.0, planned.bot.0, i64::from(seat.place == 1)],
        )?;
        if seat.think.count > 0 {
            tx.execute(
                "INSERT INTO ladder_think_times (match_id, seat, ladder_id, bot_id, version,
                     decisions, sum_us, max_us, buckets)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    found.id.0,
                    seat.seat,
                    found.ladder.0,
                    planned.bot.0,
                    seat.version,
                    ThinkSummary::stored(seat.think.count),
                    ThinkSummary::stored(seat.think.sum_us),
                    ThinkSummary::stored(seat.think.max_us),
                    seat.think.stored_buckets()
                ],
            )?;
        }
        for failure in result.failures.iter().filter(|f| f.seat == seat.seat) {
            let column = crate::reads::failure_column(failure.kind);
            tx.execute(
                &format!(
                    "UPDATE ladder_bots SET {column} = {column} + 1
                     WHERE ladder_id = ?1 AND bot_id = ?2"
                ),
                params![found.ladder.0, planned.bot.0],
            )?;
            tx.execute(
                "INSERT INTO ladder_failures (ladder_id, match_id, seat, bot_id, version, kind,
                     observation_json, answer, error, at_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    found.ladder.0,
                    found.id.0,
                    seat.seat,
                    planned.bot.0,
                    seat.version,
                    failure.kind.as_str(),
                    failure.observation_json,
                    failure.answer,
                    failure.error,
                    now_ms
                ],
            )?;
        }
    }
    tx.commit()?;
    Ok(())
}

pub(crate) fn release_match(conn: &mut Connection, claim: &Claim) -> Result<()> {
    let tx = conn.transaction()?;
    check_claim(&tx, claim)?;
    tx.execute(
        "UPDATE ladder_matches SET state = ?2, lease_owner = NULL, lease_until_ms = NULL
         WHERE id = ?1",
        params![claim.id.0, MatchState::Planned.as_str()],
    )?;
    tx.commit()?;
    Ok(())
}

pub(crate) fn requeue_matches(conn: &mut Connection, which: &Requeue, now_ms: i64) -> Result<u64> {
    let (planned, running) = (MatchState::Planned.as_str(), MatchState::Running.as_str());
    let changed = match which {
        Requeue::Expired => conn.execute(
            "UPDATE ladder_matches SET state = ?1, lease_owner = NULL, lease_until_ms = NULL
             WHERE state = ?2 AND lease_until_ms < ?3",
            params![planned, running, now_ms],
        )?,
        Requeue::NotOwnedBy(owner) => conn.execute(
            "UPDATE ladder_matches SET state = ?1, lease_owner = NULL, lease_until_ms = NULL
             WHERE state = ?2 AND (lease_owner IS NULL OR lease_owner <> ?3)",
            params![planned, running, owner],
        )?,
        Requeue::OwnerGone { seen_since_ms } => conn.execute(
            "UPDATE ladder_matches SET state = ?1, lease_owner = NULL, lease_until_ms = NULL
             WHERE state = ?2 AND NOT EXISTS (SELECT 1 FROM nodes n
                 WHERE n.owner = ladder_matches.lease_owner AND n.seen_ms >= ?3)",
            params![planned, running, seen_since_ms],
        )?,
    };
    Ok(changed as u64)
}

pub(crate) fn void_set(
    conn: &mut Connection,
    ladder: LadderId,
    index: u64,
    reason: &str,
    now_ms: i64,
) -> Result<()> {
    let tx = conn.transaction()?;
    let set = set_at(&tx, ladder, index)?;
    if set.state != SetState::Open {
        return Err(StoreError::Conflict(format!("set {index} is {}, not open", set.state)));
    }
    if let Some(running) = set.matches.iter().find(|m| m.state == MatchState::Running) {
        return Err(StoreError::Conflict(format!(
            "set {index} cannot be voided while its match {} runs",
            running.id.0
        )));
    }
    tx.execute(
        "UPDATE ladder_sets SET state = ?3, void_reason = ?4, closed_ms = ?5
         WHERE ladder_id = ?1 AND set_index = ?2",
        params![ladder.0, signed(index), SetState::Void.as_str(), reason, now_ms],
    )?;
    tx.execute(
        "UPDATE ladder_matches SET state = ?3
         WHERE ladder_id = ?1 AND set_index = ?2 AND state = ?4",
        params![ladder.0, signed(index), MatchState::Void.as_str(), MatchState::Planned.as_str()],
    )?;
    tx.commit()?;
    Ok(())
}

pub(crate) fn rate_set(
    conn: &mut Connection,
    ladder: LadderId,
    index: u64,
    updates: &[RatingUpdate],
    now_ms: i64,
) -> Result<()> {
    let tx = conn.transaction()?;
    let set = set_at(&tx, ladder, index)?;
    if set.state != SetState::Open || !set.is_complete() {
        return Err(StoreError::Conflict(format!(
            "set {index} cannot be rated: it is {} and {} complete",
            set.state,
            if set.is_complete() { "" } else { "not" }
        )));
    }
    let earlier_open: i64 = tx.query_row(
        // `state = 'open'` spelled out, so that the partial index of open sets (migration 5)
        // answers it: the count stays as cheap at the 100,000th set as at the first.
        "SELECT COUNT(*) FROM ladder_sets
         WHERE ladder_id = ?1 AND state = 'open' AND set_index < ?2",
        params![ladder.0, signed(index)],
        |row| row.get(0),
    )?;
    if earlier_open > 0 {
        return Err(StoreError::Conflict(format!(
            "set {index} cannot be rated before the {earlier_open} open set(s) planned before it"
        )));
    }
    let seq: i64 = tx.query_row(
        "SELECT COALESCE(MAX(seq), 0) + 1 FROM rating_changes WHERE ladder_id = ?1",
        [ladder.0],
        |row| row.get(0),
    )?;
    for update in updates {
        tx.execute(
            "INSERT INTO rating_changes (ladder_id, seq, set_index, bot_id, mean_before,
                 sigma_before, volatility_before, mean_after, sigma_after, volatility_after, at_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            params![
                ladder.0,
                seq,
                signed(index),
                update.bot.0,
                update.before.mean,
                update.before.sigma,
                update.before.volatility,
                update.after.mean,
                update.after.sigma,
                update.after.volatility,
                now_ms
            ],
        )?;
        let changed = tx.execute(
            "UPDATE ladder_bots SET mean = ?3, sigma = ?4, volatility = ?5,
                 sets_rated = sets_rated + 1
             WHERE ladder_id = ?1 AND bot_id = ?2",
            params![
                ladder.0,
                update.bot.0,
                update.after.mean,
                update.after.sigma,
                update.after.volatility
            ],
        )?;
        if changed == 0 {
            return Err(StoreError::NotInLadder { ladder: ladder.0, bot: update.bot.0 });
        }
    }
    tx.execute(
        "UPDATE ladder_sets SET state = ?3, closed_ms = ?4 WHERE ladder_id = ?1 AND set_index = ?2",
        params![ladder.0, signed(index), SetState::Rated.as_str(), now_ms],
    )?;
    tx.commit()?;
    Ok(())
}

pub(crate) fn rating_changes(
    conn: &mut Connection,
    ladder: LadderId,
) -> Result<Vec<RatingChangeRow>> {
    let mut stmt = conn.prepare(
        "SELECT seq, set_index, bot_id, mean_before, sigma_before, volatility_before,
             mean_after, sigma_after, volatility_after, at_ms
         FROM rating_changes WHERE ladder_id = ?1 ORDER BY seq, bot_id",
    )?;
    let rows = stmt.query_map([ladder.0], rating_change)?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// A `rating_changes` row selected as `seq, set_index, bot_id, mean_before, sigma_before,
/// volatility_before, mean_after, sigma_after, volatility_after, at_ms`.
pub(crate) fn rating_change(row: &Row<'_>) -> rusqlite::Result<RatingChangeRow> {
    Ok(RatingChangeRow {
        seq: unsigned(row.get(0)?),
        set_index: unsigned(row.get(1)?),
        update: RatingUpdate {
            bot: BotId(row.get(2)?),
            before: StoredRating { mean: row.get(3)?, sigma: row.get(4)?, volatility: row.get(5)? },
            after: StoredRating { mean: row.get(6)?, sigma: row.get(7)?, volatility: row.get(8)? },
        },
        at_ms: row.get(9)?,
    })
}

pub(crate) fn recent_outcomes(
    conn: &mut Connection,
    ladder: LadderId,
    bot: BotId,
    limit: u32,
) -> Result<Vec<SeatOutcome>> {
    let mut stmt = conn.prepare(
        "SELECT m.id, m.finished_ms, s.failure FROM ladder_match_seats s
         JOIN ladder_matches m ON m.id = s.match_id
         WHERE m.ladder_id = ?1 AND s.bot_id = ?2 AND m.state = ?3
         ORDER BY m.finished_ms DESC, m.id DESC LIMIT ?4",
    )?;
    let rows: Vec<(i64, i64, Option<String>)> = stmt
        .query_map(params![ladder.0, bot.0, MatchState::Done.as_str(), limit], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    rows.into_iter()
        .map(|(id, finished_ms, failure)| {
            Ok(SeatOutcome {
                match_id: LadderMatchId(id),
                finished_ms,
                failure: failure.map(parse::<FailureKind>).transpose()?,
            })
        })
        .collect()
}

pub(crate) fn failures(
    conn: &mut Connection,
    ladder: LadderId,
    bot: BotId,
    limit: u32,
) -> Result<Vec<FailureRow>> {
    let mut stmt = conn.prepare(
        "SELECT f.id, f.match_id, f.seat, f.bot_id, f.version, f.kind, f.observation_json,
             f.answer, f.error, f.at_ms, o.output
         FROM ladder_failures f LEFT JOIN ladder_outputs o
             ON o.match_id = f.match_id AND o.bot_id = f.bot_id
         WHERE f.ladder_id = ?1 AND f.bot_id = ?2 ORDER BY f.id DESC LIMIT ?3",
    )?;
    type Columns = (
        i64,
        i64,
        u8,
        i64,
        String,
        String,
        Option<String>,
        Option<String>,
        String,
        i64,
        Option<String>,
    );
    let rows: Vec<Columns> = stmt
        .query_map(params![ladder.0, bot.0, limit], |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
                row.get(5)?,
                row.get(6)?,
                row.get(7)?,
                row.get(8)?,
                row.get(9)?,
                row.get(10)?,
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    rows.into_iter()
        .map(|row| {
            let (id, match_id, seat, bot, version, kind, observation_json, answer, error) =
                (row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8);
            Ok(FailureRow {
                id,
                match_id: LadderMatchId(match_id),
                bot: BotId(bot),
                version,
                failure: NewFailure { seat, kind: parse(kind)?, observation_json, answer, error },
                at_ms: row.9,
                output: row.10,
            })
        })
        .collect()
}

pub(crate) fn record(conn: &mut Connection, id: LadderMatchId) -> Result<Option<String>> {
    let found: Option<Option<String>> = conn
        .query_row("SELECT record_json FROM ladder_matches WHERE id = ?1", [id.0], |row| row.get(0))
        .optional()?;
    Ok(found.flatten())
}
