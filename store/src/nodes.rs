//! Many nodes on one store: each node's row in the `nodes` table (its lease owner name, the
//! address it advertises, when it was last seen and which bots wait in its lobby), which the
//! scheduler of a ladder reads to plan tables of bots that wait on one node, and which tells a
//! dead node's matches (its row no longer seen) from a live one's; and what one node needs of
//! the others' matches: how many run (a ladder's cap holds across nodes) and which, to list,
//! and which finished matches they recorded, to list and to answer for.

use crate::LadderMatchId;

/// What a node writes about itself at each heartbeat ([`Store::beat_node`]).
///
/// [`Store::beat_node`]: crate::Store::beat_node
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeBeat {
    /// The node's name as a lease owner (its run id): one per process, new at each start.
    pub owner: String,
    /// The address bots and spectators reach this node at (`--advertise`; "" if none given).
    pub advertise: String,
    /// The bots waiting in its lobby now, by name, with how many of each one's streams wait.
    pub lobby: Vec<(String, u32)>,
    /// A random secret of the process, new at each start: another node that asks it for a bot
    /// of its lobby (to seat at a match it hosts) presents it. Only the store's readers learn
    /// it, and they are trusted with everything.
    pub secret: String,
}

/// A node as the store last heard of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeRow {
    /// What it wrote last.
    pub beat: NodeBeat,
    /// Its first heartbeat, in milliseconds since the Unix epoch.
    pub started_ms: i64,
    /// Its latest heartbeat.
    pub seen_ms: i64,
}

/// How long a node may go unseen before it is taken as dead: many heartbeats (a node on a
/// loaded machine that misses a few is not declared dead). Its matches are then played again
/// elsewhere, and no other node lists them as running.
pub const NODE_TTL: std::time::Duration = std::time::Duration::from_secs(3);

/// How many matches one [`Store::claim_ready`] may claim.
///
/// [`Store::claim_ready`]: crate::Store::claim_ready
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClaimLimit {
    /// At most this many in this call.
    pub claims: u32,
    /// And never so many that more than this many of the ladder's matches run at once: those
    /// claimed under a lease not yet expired, by any node (the ladder's `max_matches`).
    pub running: u32,
}

impl ClaimLimit {
    /// At most `claims` matches, however many of the ladder's run.
    pub const fn claims(claims: u32) -> ClaimLimit {
        ClaimLimit { claims, running: u32::MAX }
    }
}

/// Which running ladder matches [`Store::running_elsewhere`] lists: those other nodes host.
///
/// [`Store::running_elsewhere`]: crate::Store::running_elsewhere
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElsewhereQuery {
    /// The asking node's lease owner name: its own matches are left out.
    pub except_owner: String,
    /// Only matches of nodes seen since then (the live ones).
    pub seen_since_ms: i64,
    /// Only matches whose lease holds at this time.
    pub now_ms: i64,
    /// Only matches after this one in the listing's order (the last of the page before).
    pub after: Option<RunningCursor>,
    /// At most this many.
    pub limit: u32,
}

/// A place in the listing of running matches, which is newest started first (then highest id
/// first): the match started at `started_ms` with id `id`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunningCursor {
    /// When the match's attempt started, in milliseconds since the Unix epoch.
    pub started_ms: i64,
    /// Its id.
    pub id: LadderMatchId,
}

/// A ladder match that another node hosts now, as [`Store::running_elsewhere`] lists it:
/// nothing in it is hidden.
///
/// [`Store::running_elsewhere`]: crate::Store::running_elsewhere
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunningElsewhere {
    /// The ladder match.
    pub id: LadderMatchId,
    /// The hosting server's id of the match (what `Watch` takes).
    pub server_match_id: String,
    /// The ladder's game, by its catalogue name.
    pub game: String,
    /// Its bots' names, seat 0 first.
    pub bots: Vec<String>,
    /// When its attempt started (was claimed), in milliseconds since the Unix epoch.
    pub started_ms: i64,
    /// The hosting node's lease owner name.
    pub owner: String,
    /// The address the hosting node advertises ("" if none).
    pub advertise: String,
}

impl RunningElsewhere {
    /// Where a listing continues after this match.
    pub fn cursor(&self) -> RunningCursor {
        RunningCursor { started_ms: self.started_ms, id: self.id }
    }
}

/// One row of the running-elsewhere query: a match's columns and one seat's bot name, the
/// rows in listing order and each match's seats in seat order.
pub(crate) type RunningSeatRow = (i64, String, String, i64, String, String, String);

/// The matches of running-elsewhere rows, in the rows' order.
pub(crate) fn group_running(rows: Vec<RunningSeatRow>) -> Vec<RunningElsewhere> {
    let mut matches: Vec<RunningElsewhere> = Vec::new();
    for (id, server_match_id, game, started_ms, owner, advertise, bot) in rows {
        match matches.last_mut() {
            Some(last) if last.id.0 == id => last.bots.push(bot),
            _ => matches.push(RunningElsewhere {
                id: LadderMatchId(id),
                server_match_id,
                game,
                bots: vec![bot],
                started_ms,
                owner,
                advertise,
            }),
        }
    }
    matches
}

/// The cursor's bounds as the queries take them: before every match when none is given.
pub(crate) fn cursor_bounds(after: Option<RunningCursor>) -> (i64, i64) {
    after.map_or((i64::MAX, i64::MAX), |cursor| (cursor.started_ms, cursor.id.0))
}

/// Which finished ladder matches [`Store::finished_elsewhere`] lists: those other nodes
/// recorded.
///
/// [`Store::finished_elsewhere`]: crate::Store::finished_elsewhere
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedQuery {
    /// The asking node's lease owner name: the matches it recorded itself are left out.
    pub except_owner: String,
    /// Only matches after this one in the listing's order (the last of the page before).
    pub after: Option<FinishedCursor>,
    /// At most this many.
    pub limit: u32,
}

/// A place in the listing of finished matches, which is latest finished first (then highest
/// id first): the match finished at `finished_ms` with id `id`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinishedCursor {
    /// When the match's result was recorded, in milliseconds since the Unix epoch.
    pub finished_ms: i64,
    /// Its id.
    pub id: LadderMatchId,
}

/// One seat of a [`FinishedElsewhere`] match: its bot and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedSeat {
    /// The bot's registered name.
    pub bot: String,
    /// Its place (1 is first; ties share).
    pub place: u8,
    /// Whether it forfeited.
    pub forfeited: bool,
}

/// A done ladder match with the node that recorded it, as [`Store::finished_elsewhere`] lists
/// it and [`Store::finished_by_server_id`] finds it: its result, nothing hidden (the record,
/// which holds the hands, is read apart with [`Store::ladder_record`]).
///
/// [`Store::finished_elsewhere`]: crate::Store::finished_elsewhere
/// [`Store::finished_by_server_id`]: crate::Store::finished_by_server_id
/// [`Store::ladder_record`]: crate::Store::ladder_record
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedElsewhere {
    /// The ladder match.
    pub id: LadderMatchId,
    /// The hosting server's id of the match that played it.
    pub server_match_id: String,
    /// The ladder's game, by its catalogue name.
    pub game: String,
    /// The ladder's options, as its file gave them (JSON).
    pub options_json: String,
    /// Its seats, seat 0 first.
    pub seats: Vec<FinishedSeat>,
    /// When the attempt that played it started, in milliseconds since the Unix epoch.
    pub started_ms: i64,
    /// When its result was recorded.
    pub finished_ms: i64,
    /// The lease owner name of the node that played it and recorded its result.
    pub owner: String,
    /// The address that node advertises ("" if none, or if its row is gone).
    pub advertise: String,
    /// When that node was last seen, if its row is still there.
    pub seen_ms: Option<i64>,
}

impl FinishedElsewhere {
    /// Where a listing continues after this match.
    pub fn cursor(&self) -> FinishedCursor {
        FinishedCursor { finished_ms: self.finished_ms, id: self.id }
    }
}

/// The columns both backends select for [`FinishedElsewhere`] rows, one row per seat (`m` the
/// match with `finished_by`, `l` its ladder, `n` its node if any, `s` a seat, `b` its bot).
pub(crate) const FINISHED_COLUMNS: &str = "m.id, m.server_match_id, l.game, l.options_json, \
    COALESCE(m.started_ms, m.finished_ms), m.finished_ms, COALESCE(m.finished_by, ''), \
    COALESCE(n.advertise, ''), n.seen_ms, b.name, COALESCE(s.place, 0), s.forfeited";

/// What follows [`FINISHED_COLUMNS`] in both backends' queries, the matches `m` given: their
/// ladders, nodes (if still there), seats and bots.
pub(crate) const FINISHED_JOINS: &str = "JOIN ladders l ON l.id = m.ladder_id
    LEFT JOIN nodes n ON n.owner = m.finished_by
    JOIN ladder_match_seats s ON s.match_id = m.id
    JOIN bots b ON b.id = s.bot_id";

/// One row of [`FINISHED_COLUMNS`]: a match's columns and one seat's.
pub(crate) struct FinishedSeatRow {
    pub(crate) id: i64,
    pub(crate) server_match_id: String,
    pub(crate) game: String,
    pub(crate) options_json: String,
    pub(crate) started_ms: i64,
    pub(crate) finished_ms: i64,
    pub(crate) owner: String,
    pub(crate) advertise: String,
    pub(crate) seen_ms: Option<i64>,
    pub(crate) bot: String,
    pub(crate) place: i64,
    pub(crate) forfeited: bool,
}

/// The matches of finished rows, in the rows' order; a place out of range is
/// [`StoreError::Corrupt`](crate::StoreError::Corrupt).
pub(crate) fn group_finished(
    rows: Vec<FinishedSeatRow>,
) -> Result<Vec<FinishedElsewhere>, crate::StoreError> {
    let mut matches: Vec<FinishedElsewhere> = Vec::new();
    for row in rows {
        let place = u8::try_from(row.place).map_err(|_| {
            crate::StoreError::Corrupt(format!("match {}'s place {}", row.id, row.place))
        })?;
        let seat = FinishedSeat { bot: row.bot, place, forfeited: row.forfeited };
        match matches.last_mut() {
            Some(last) if last.id.0 == row.id => last.seats.push(seat),
            _ => matches.push(FinishedElsewhere {
                id: LadderMatchId(row.id),
                server_match_id: row.server_match_id,
                game: row.game,
                options_json: row.options_json,
                seats: vec![seat],
                started_ms: row.started_ms,
                finished_ms: row.finished_ms,
                owner: row.owner,
                advertise: row.advertise,
                seen_ms: row.seen_ms,
            }),
        }
    }
    Ok(matches)
}

/// The finished cursor's bounds as the queries take them: before every match when none is
/// given.
pub(crate) fn finished_bounds(after: Option<FinishedCursor>) -> (i64, i64) {
    after.map_or((i64::MAX, i64::MAX), |cursor| (cursor.finished_ms, cursor.id.0))
}

/// Migration 7, the same SQL on both backends: which node recorded each done match (the lease
/// owner of the claim it was finished under; none for matches done before), an index of the
/// done matches latest finished first (the finished listing pages down it), and one of the
/// matches by their server id (a spectator's `GetMatch`, `GetRecord` or `Watch` names a match
/// by it).
pub(crate) const FINISHED_MIGRATION: &str = "
    ALTER TABLE ladder_matches ADD COLUMN finished_by TEXT;
    CREATE INDEX ladder_matches_done ON ladder_matches (finished_ms, id) WHERE state = 'done';
    CREATE INDEX ladder_matches_by_server_id ON ladder_matches (server_match_id)
        WHERE server_match_id IS NOT NULL;";

/// The migration (number 4 of both backends; the same SQL in both dialects): one row per node
/// process, its lobby as text, one `waiting<TAB>name` line per bot (names have neither tabs nor
/// line breaks).
pub(crate) const MIGRATION: &str = "
    CREATE TABLE nodes (
        owner TEXT PRIMARY KEY,
        advertise TEXT NOT NULL,
        started_ms BIGINT NOT NULL,
        seen_ms BIGINT NOT NULL,
        lobby TEXT NOT NULL
    );
    CREATE INDEX nodes_by_seen ON nodes (seen_ms);";

/// Migration 12, the same SQL on both backends: each node's secret, which the other nodes
/// present when they ask it for a bot of its lobby.
pub(crate) const SECRET_MIGRATION: &str =
    "ALTER TABLE nodes ADD COLUMN secret TEXT NOT NULL DEFAULT '';";

/// A lobby as the `lobby` column holds it. A name with a tab or a line break (no registered
/// bot's: registered names are letters, digits, `.`, `_` and `-`) is left out.
pub(crate) fn encode_lobby(lobby: &[(String, u32)]) -> String {
    lobby
        .iter()
        .filter(|(name, _)| !name.contains(['\t', '\n', '\r']))
        .map(|(name, waiting)| format!("{waiting}\t{name}\n"))
        .collect()
}

/// The `lobby` column read back; a line that is not `waiting<TAB>name` is
/// [`StoreError::Corrupt`](crate::StoreError::Corrupt).
pub(crate) fn decode_lobby(text: &str) -> Result<Vec<(String, u32)>, crate::StoreError> {
    text.lines()
        .map(|line| {
            line.split_once('\t')
                .and_then(|(waiting, name)| Some((name.to_owned(), waiting.parse().ok()?)))
                .ok_or_else(|| crate::StoreError::Corrupt(format!("a node's lobby line {line:?}")))
        })
        .collect()
}

/// A node's row from its columns.
pub(crate) fn node_row(
    owner: String,
    advertise: String,
    started_ms: i64,
    seen_ms: i64,
    lobby: &str,
    secret: String,
) -> Result<NodeRow, crate::StoreError> {
    Ok(NodeRow {
        beat: NodeBeat { owner, advertise, lobby: decode_lobby(lobby)?, secret },
        started_ms,
        seen_ms,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_lobby_reads_back_as_written() {
        let lobby = vec![("alice".to_owned(), 2), ("bob".to_owned(), 1)];
        assert_eq!(decode_lobby(&encode_lobby(&lobby)).unwrap(), lobby);
        assert_eq!(decode_lobby("").unwrap(), Vec::new());
        assert!(decode_lobby("two\tbob\n").is_err());
        let odd = vec![("a\tb".to_owned(), 1), ("carol".to_owned(), 1)];
        assert_eq!(decode_lobby(&encode_lobby(&odd)).unwrap(), vec![("carol".to_owned(), 1)]);
    }
}
