//! Seasons on SQLite (see the `seasons` module).

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::seasons::{
    self, EventRow, EventScope, EventsFrom, NewSeason, NewSeasonEvent, Season, SeasonChange,
    SeasonCursor, SeasonEvent, SeasonId, SeasonRow, SeasonState, sql,
};
use crate::{AuthorId, BotId, StoreError};

type Result<T> = std::result::Result<T, StoreError>;

fn season_row(row: &Row<'_>) -> rusqlite::Result<SeasonRow> {
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
        row.get(11)?,
    ))
}

fn event_row(row: &Row<'_>) -> rusqlite::Result<EventRow> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?, row.get(6)?))
}

/// The seasons of `rows`, each with its ladders.
fn with_ladders(conn: &Connection, rows: Vec<SeasonRow>) -> Result<Vec<Season>> {
    let mut ladders = conn.prepare_cached(sql::LADDERS)?;
    rows.into_iter()
        .map(|row| {
            let names = ladders
                .query_map([row.0], |row| row.get(0))?
                .collect::<rusqlite::Result<Vec<String>>>()?;
            seasons::from_row(row, names)
        })
        .collect()
}

pub(crate) fn by_name(conn: &Connection, name: &str) -> Result<Option<Season>> {
    let row = conn.query_row(sql::BY_NAME, [name], season_row).optional()?;
    Ok(with_ladders(conn, row.into_iter().collect())?.pop())
}

pub(crate) fn all(conn: &Connection) -> Result<Vec<Season>> {
    let rows = conn
        .prepare_cached(sql::ALL)?
        .query_map([], season_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    with_ladders(conn, rows)
}

fn note(conn: &Connection, season: SeasonId, event: &NewSeasonEvent, now_ms: i64) -> Result<()> {
    conn.execute(
        sql::EVENT,
        params![
            season.0,
            now_ms,
            event.kind.as_str(),
            event.author.map(|a| a.0),
            event.bot,
            event.text
        ],
    )?;
    Ok(())
}

pub(crate) fn put(
    conn: &mut Connection,
    new: &NewSeason,
    event: &NewSeasonEvent,
    now_ms: i64,
) -> Result<Season> {
    let tx = conn.transaction()?;
    let id = match by_name(&tx, &new.name)? {
        Some(season) => {
            season.check_changeable(now_ms)?;
            tx.execute(sql::UPDATE, params![new.config, new.deadline_ms, now_ms, season.id.0])?;
            tx.execute(sql::FORGET_LADDERS, [season.id.0])?;
            season.id
        }
        None => {
            tx.execute(sql::INSERT, params![new.name, new.config, new.deadline_ms, now_ms])?;
            SeasonId(tx.last_insert_rowid())
        }
    };
    for ladder in &new.ladders {
        tx.execute(sql::ADD_LADDER, params![id.0, ladder])?;
    }
    note(&tx, id, event, now_ms)?;
    let season = by_name(&tx, &new.name)?;
    tx.commit()?;
    season.ok_or_else(|| StoreError::Corrupt(format!("season {:?} was not kept", new.name)))
}

pub(crate) fn advance(
    conn: &mut Connection,
    id: SeasonId,
    from: &[SeasonState],
    to: SeasonState,
    change: &SeasonChange,
    event: &NewSeasonEvent,
    now_ms: i64,
) -> Result<bool> {
    let tx = conn.transaction()?;
    let state: Option<String> = tx
        .query_row("SELECT state FROM seasons WHERE id = ?1", [id.0], |row| row.get(0))
        .optional()?;
    let Some(state) = state else {
        return Ok(false);
    };
    if !from.contains(&SeasonState::parse(&state)?) {
        return Ok(false);
    }
    tx.execute(
        sql::ADVANCE,
        params![to.as_str(), now_ms, change.finals_ladder, change.finalists, change.outcome, id.0],
    )?;
    if let Some(finals) = &change.finals_ladder {
        tx.execute(sql::ADD_LADDER, params![id.0, finals])?;
    }
    note(&tx, id, event, now_ms)?;
    tx.commit()?;
    Ok(true)
}

pub(crate) fn note_scoped(
    conn: &Connection,
    scope: &EventScope,
    event: &NewSeasonEvent,
    now_ms: i64,
) -> Result<u64> {
    let (kind, author) = (event.kind.as_str(), event.author.map(|a| a.0));
    let noted = match scope {
        EventScope::Season(id) => {
            note(conn, *id, event, now_ms)?;
            1
        }
        EventScope::Ladder(ladder) => conn.execute(
            sql::EVENT_BY_LADDER,
            params![now_ms, kind, author, event.bot, event.text, ladder],
        )?,
        EventScope::Unfinished => conn
            .execute(sql::EVENT_UNFINISHED, params![now_ms, kind, author, event.bot, event.text])?,
    };
    Ok(noted as u64)
}

pub(crate) fn events(
    conn: &Connection,
    season: SeasonId,
    from: EventsFrom,
    author: Option<AuthorId>,
    limit: u32,
) -> Result<Vec<SeasonEvent>> {
    let author = author.map(|a| a.0);
    let rows = match from {
        EventsFrom::After(after) => conn
            .prepare_cached(sql::EVENTS)?
            .query_map(params![season.0, after, author, limit], event_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?,
        EventsFrom::Newest => conn
            .prepare_cached(sql::NEWEST_EVENTS)?
            .query_map(params![season.0, author, limit], event_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?,
    };
    rows.into_iter().map(seasons::event_from_row).collect()
}

pub(crate) fn frozen(conn: &Connection, bot: BotId, now_ms: i64) -> Result<Vec<Season>> {
    let rows = conn
        .prepare_cached(sql::FROZEN)?
        .query_map(params![now_ms, bot.0], season_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    with_ladders(conn, rows)
}

pub(crate) fn move_cursor(
    conn: &mut Connection,
    id: SeasonId,
    cursor: SeasonCursor,
    (from, to): (i64, i64),
    event: Option<&NewSeasonEvent>,
    now_ms: i64,
) -> Result<bool> {
    let tx = conn.transaction()?;
    if tx.execute(cursor.statement(), params![to, id.0, from])? != 1 {
        return Ok(false);
    }
    if let Some(event) = event {
        note(&tx, id, event, now_ms)?;
    }
    tx.commit()?;
    Ok(true)
}
