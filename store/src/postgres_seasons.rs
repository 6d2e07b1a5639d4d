//! Seasons on PostgreSQL (see the `seasons` module).

use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use crate::postgres::{Cached, PgStore};
use crate::seasons::{
    self, EventRow, EventScope, EventsFrom, NewSeason, NewSeasonEvent, Season, SeasonChange,
    SeasonCursor, SeasonEvent, SeasonId, SeasonRow, SeasonState, sql,
};
use crate::{AuthorId, BotId, StoreError};

type Result<T> = std::result::Result<T, StoreError>;

fn season_row(row: &Row) -> Result<SeasonRow> {
    Ok((
        row.try_get(0)?,
        row.try_get(1)?,
        row.try_get(2)?,
        row.try_get(3)?,
        row.try_get(4)?,
        row.try_get(5)?,
        row.try_get(6)?,
        row.try_get(7)?,
        row.try_get(8)?,
        row.try_get(9)?,
        row.try_get(10)?,
        row.try_get(11)?,
    ))
}

fn event_row(row: &Row) -> Result<SeasonEvent> {
    let read: EventRow = (
        row.try_get(0)?,
        row.try_get(1)?,
        row.try_get(2)?,
        row.try_get(3)?,
        row.try_get(4)?,
        row.try_get(5)?,
        row.try_get(6)?,
    );
    seasons::event_from_row(read)
}

/// The seasons of `rows`, each with its ladders.
async fn with_ladders(conn: &impl Cached, rows: &[Row]) -> Result<Vec<Season>> {
    let mut found = Vec::with_capacity(rows.len());
    for row in rows {
        let read = season_row(row)?;
        let ladders = conn.rows(sql::LADDERS, &[&read.0]).await?;
        let names =
            ladders.iter().map(|row| row.try_get(0)).collect::<std::result::Result<_, _>>()?;
        found.push(seasons::from_row(read, names)?);
    }
    Ok(found)
}

async fn by_name(conn: &impl Cached, name: &str) -> Result<Option<Season>> {
    let rows = conn.rows(sql::BY_NAME, &[&name]).await?;
    Ok(with_ladders(conn, &rows).await?.pop())
}

pub(crate) async fn season(store: &PgStore, name: &str) -> Result<Option<Season>> {
    by_name(&store.conn().await?, name).await
}

pub(crate) async fn all(store: &PgStore) -> Result<Vec<Season>> {
    let conn = store.conn().await?;
    let rows = conn.rows(sql::ALL, &[]).await?;
    with_ladders(&conn, &rows).await
}

async fn note(
    conn: &impl Cached,
    season: SeasonId,
    event: &NewSeasonEvent,
    now_ms: i64,
) -> Result<()> {
    let author = event.author.map(|a| a.0);
    let params: [&(dyn ToSql + Sync); 6] =
        [&season.0, &now_ms, &event.kind.as_str(), &author, &event.bot, &event.text];
    conn.exec(sql::EVENT, &params).await?;
    Ok(())
}

pub(crate) async fn put(
    store: &PgStore,
    new: &NewSeason,
    event: &NewSeasonEvent,
    now_ms: i64,
) -> Result<Season> {
    let mut conn = store.conn().await?;
    let tx = conn.transaction().await?;
    let locked = tx.opt("SELECT id FROM seasons WHERE name = $1 FOR UPDATE", &[&new.name]).await?;
    let id = match locked {
        Some(_) => {
            let season = by_name(&tx, &new.name)
                .await?
                .ok_or_else(|| StoreError::Corrupt(format!("season {:?} went", new.name)))?;
            season.check_changeable(now_ms)?;
            tx.exec(sql::UPDATE, &[&new.config, &new.deadline_ms, &now_ms, &season.id.0]).await?;
            tx.exec(sql::FORGET_LADDERS, &[&season.id.0]).await?;
            season.id
        }
        None => {
            let inserted = tx
                .one(
                    &format!("{} RETURNING id", sql::INSERT),
                    &[&new.name, &new.config, &new.deadline_ms, &now_ms],
                )
                .await?;
            SeasonId(inserted.try_get(0)?)
        }
    };
    for ladder in &new.ladders {
        tx.exec(sql::ADD_LADDER, &[&id.0, ladder]).await?;
    }
    note(&tx, id, event, now_ms).await?;
    let season = by_name(&tx, &new.name).await?;
    tx.commit().await?;
    season.ok_or_else(|| StoreError::Corrupt(format!("season {:?} was not kept", new.name)))
}

pub(crate) async fn advance(
    store: &PgStore,
    id: SeasonId,
    from: &[SeasonState],
    to: SeasonState,
    change: &SeasonChange,
    event: &NewSeasonEvent,
    now_ms: i64,
) -> Result<bool> {
    let mut conn = store.conn().await?;
    let tx = conn.transaction().await?;
    let Some(row) = tx.opt("SELECT state FROM seasons WHERE id = $1 FOR UPDATE", &[&id.0]).await?
    else {
        return Ok(false);
    };
    let state: String = row.try_get(0)?;
    if !from.contains(&SeasonState::parse(&state)?) {
        return Ok(false);
    }
    let params: [&(dyn ToSql + Sync); 6] =
        [&to.as_str(), &now_ms, &change.finals_ladder, &change.finalists, &change.outcome, &id.0];
    tx.exec(sql::ADVANCE, &params).await?;
    if let Some(finals) = &change.finals_ladder {
        tx.exec(sql::ADD_LADDER, &[&id.0, finals]).await?;
    }
    note(&tx, id, event, now_ms).await?;
    tx.commit().await?;
    Ok(true)
}

pub(crate) async fn note_scoped(
    store: &PgStore,
    scope: EventScope,
    event: &NewSeasonEvent,
    now_ms: i64,
) -> Result<u64> {
    let conn = store.conn().await?;
    let (kind, author) = (event.kind.as_str(), event.author.map(|a| a.0));
    match scope {
        EventScope::Season(id) => {
            note(&conn, id, event, now_ms).await?;
            Ok(1)
        }
        EventScope::Ladder(ladder) => {
            let params: [&(dyn ToSql + Sync); 6] =
                [&now_ms, &kind, &author, &event.bot, &event.text, &ladder];
            conn.exec(sql::EVENT_BY_LADDER, &params).await
        }
        EventScope::Unfinished => {
            let params: [&(dyn ToSql + Sync); 5] =
                [&now_ms, &kind, &author, &event.bot, &event.text];
            conn.exec(sql::EVENT_UNFINISHED, &params).await
        }
    }
}

pub(crate) async fn events(
    store: &PgStore,
    season: SeasonId,
    from: EventsFrom,
    author: Option<AuthorId>,
    limit: u32,
) -> Result<Vec<SeasonEvent>> {
    let conn = store.conn().await?;
    let (author, limit) = (author.map(|a| a.0), i64::from(limit));
    let rows = match from {
        EventsFrom::After(after) => {
            conn.rows(sql::EVENTS, &[&season.0, &after, &author, &limit]).await?
        }
        EventsFrom::Newest => conn.rows(sql::NEWEST_EVENTS, &[&season.0, &author, &limit]).await?,
    };
    rows.iter().map(event_row).collect()
}

pub(crate) async fn frozen(store: &PgStore, bot: BotId, now_ms: i64) -> Result<Vec<Season>> {
    let conn = store.conn().await?;
    let rows = conn.rows(sql::FROZEN, &[&now_ms, &bot.0]).await?;
    with_ladders(&conn, &rows).await
}

pub(crate) async fn move_cursor(
    store: &PgStore,
    id: SeasonId,
    cursor: SeasonCursor,
    (from, to): (i64, i64),
    event: Option<&NewSeasonEvent>,
    now_ms: i64,
) -> Result<bool> {
    let mut conn = store.conn().await?;
    let tx = conn.transaction().await?;
    if tx.exec(cursor.statement(), &[&to, &id.0, &from]).await? != 1 {
        return Ok(false);
    }
    if let Some(event) = event {
        note(&tx, id, event, now_ms).await?;
    }
    tx.commit().await?;
    Ok(true)
}
