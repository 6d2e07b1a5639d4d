//! The read side of hosted ladders in SQLite: one function per read method of
//! [`Store`](crate::Store) (`leaderboard`, `bot_matches`, `bot_rating_history`,
//! `head_to_head`, `bot_ladder_versions`, `ladder_match`), each a query on the indexes of
//! migration 2 (`ladder_match_seats_by_bot`, `rating_changes_by_bot`,
//! `ladder_failures_by_bot`).

use std::collections::HashMap;

use rusqlite::{Connection, params};

use crate::{
    BotHealth, BotId, FailureKind, HeadToHead, LadderId, LadderMatch, LadderMatchId, LadderVersion,
    LeaderboardLine, RatingChangeRow, StoreError, StoredRating,
};

type Result<T> = std::result::Result<T, StoreError>;

pub(crate) fn leaderboard(conn: &mut Connection, ladder: LadderId) -> Result<Vec<LeaderboardLine>> {
    let tx = conn.transaction()?;
    // Matches and wins per bot, from the seats of the ladder's done matches.
    let mut played: HashMap<i64, (u64, u64)> = HashMap::new();
    {
        let mut stmt = tx.prepare(
            "SELECT s.bot_id, COUNT(*), COALESCE(SUM(CASE WHEN s.place = 1 THEN 1 ELSE 0 END), 0)
             FROM ladder_bots b
             JOIN ladder_match_seats s ON s.bot_id = b.bot_id
             JOIN ladder_matches m ON m.id = s.match_id
             WHERE b.ladder_id = ?1 AND m.ladder_id = ?1 AND m.state = 'done'
             GROUP BY s.bot_id",
        )?;
        let mut rows = stmt.query([ladder.0])?;
        while let Some(row) = rows.next()? {
            let (matches, wins): (i64, i64) = (row.get(1)?, row.get(2)?);
            played.insert(row.get(0)?, (matches as u64, wins as u64));
        }
    }
    let mut health: HashMap<i64, BotHealth> = HashMap::new();
    {
        let mut stmt = tx.prepare(
            "SELECT bot_id, kind, COUNT(*) FROM ladder_failures WHERE ladder_id = ?1
             GROUP BY bot_id, kind",
        )?;
        let mut rows = stmt.query([ladder.0])?;
        while let Some(row) = rows.next()? {
            let kind: FailureKind = row.get::<_, String>(1)?.parse()?;
            let count: i64 = row.get(2)?;
            health.entry(row.get(0)?).or_default().add(kind, count as u64);
        }
    }
    let mut stmt = tx.prepare(
        "SELECT lb.bot_id, b.name, lb.mean, lb.sigma, lb.volatility, lb.sets_rated,
             lb.paused_reason
         FROM ladder_bots lb JOIN bots b ON b.id = lb.bot_id
         WHERE lb.ladder_id = ?1 ORDER BY lb.bot_id",
    )?;
    let lines = stmt
        .query_map([ladder.0], |row| {
            let bot: i64 = row.get(0)?;
            let (matches, wins) = played.get(&bot).copied().unwrap_or_default();
            Ok(LeaderboardLine {
                bot: BotId(bot),
                name: row.get(1)?,
                rating: StoredRating {
                    mean: row.get(2)?,
                    sigma: row.get(3)?,
                    volatility: row.get(4)?,
                },
                sets_rated: row.get(5)?,
                paused_reason: row.get(6)?,
                matches,
                wins,
                health: health.get(&bot).copied().unwrap_or_default(),
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::{
        BotHealth, BotId, FailureKind, KeyHash, LadderId, Lease, MatchResult, NewFailure,
        NewLadder, NewMatch, NewSet, RatingUpdate, SeatResult, SqliteStore, Store, StoredRating,
    };

    const INITIAL: StoredRating = StoredRating { mean: 25.0, sigma: 8.0, volatility: 0.0 };

    /// A ladder of three bots (`a`, `b`, `c`) in which `sets` duplicate sets of two matches
    /// were played and rated: `a` against `b` in even sets (`a` wins both, with version `v1`
    /// then `v2` from set 2), `b` against `c` in odd ones (a shared first place, then `c`
    /// ahead; `c` answers an illegal action in each match).
    async fn played(sets: u64) -> (SqliteStore, LadderId, [BotId; 3]) {
        let store = SqliteStore::in_memory().await.unwrap();
        let ladder = NewLadder {
            name: "tt".into(),
            game: "twenty-two".into(),
            options_json: "{}".into(),
            table_seats: 2,
            rating: "weng_lin".into(),
            seed: 1,
            provisional_sets: 1,
            config: String::new(),
        };
        let ladder = store.create_ladder(&ladder, 1).await.unwrap().id;
        let mut bots = Vec::new();
        for name in ["a", "b", "c"] {
            let bot = store.register_bot(name, KeyHash::of(name), 1).await.unwrap().id;
            store.enter_ladder(ladder, bot, INITIAL, 1).await.unwrap();
            bots.push(bot);
        }
        let [a, b, c] = [bots[0], bots[1], bots[2]];
        for index in 0..sets {
            let (x, y) = if index % 2 == 0 { (a, b) } else { (b, c) };
            let set = NewSet {
                index,
                seed: index,
                bots: vec![x, y],
                matches: vec![
                    NewMatch { rotation: 0, seed: index, seats: vec![x, y] },
                    NewMatch { rotation: 1, seed: index, seats: vec![y, x] },
                ],
            };
            let planned = store.plan_set(ladder, &set, 10).await.unwrap();
            for (rotation, m) in planned.matches.iter().enumerate() {
                let lease = Lease { owner: "run".into(), until_ms: 1_000_000 };
                let claim = store.claim_match(m.id, &lease, 20).await.unwrap();
                // Places of seat 0 and seat 1.
                let places: [u8; 2] = match (index % 2, rotation) {
                    (0, 0) => [1, 2],
                    (0, _) => [2, 1],
                    (_, 0) => [1, 1],
                    (_, _) => [1, 2],
                };
                let version = |seat: usize| {
                    if m.seats[seat].bot == a && index >= 2 { "v2" } else { "v1" }.to_owned()
                };
                let failures = m
                    .seats
                    .iter()
                    .filter(|s| s.bot == c)
                    .map(|s| NewFailure {
                        seat: s.seat,
                        kind: FailureKind::Illegal,
                        observation_json: Some("{}".into()),
                        answer: Some("play 2C".into()),
                        error: "TT-12".into(),
                    })
                    .collect();
                let result = MatchResult {
                    claim,
                    server_match_id: format!("m{index}-{rotation}"),
                    seats: (0..2)
                        .map(|seat| SeatResult {
                            seat: seat as u8,
                            version: version(seat),
                            place: places[seat],
                            forfeited: false,
                        })
                        .collect(),
                    record_json: Some("{}".into()),
                    failures,
                };
                store.finish_match(&result, 100 + index as i64).await.unwrap();
            }
            let after = StoredRating { mean: 26.0 + index as f64, ..INITIAL };
            let updates = [x, y].map(|bot| RatingUpdate { bot, before: INITIAL, after });
            store.rate_set(ladder, index, &updates, 200).await.unwrap();
        }
        (store, ladder, [a, b, c])
    }

    #[tokio::test]
    async fn the_leaderboard_sums_each_bots_matches_wins_and_failures() {
        let (store, ladder, [a, b, c]) = played(4).await;
        let lines = store.leaderboard(ladder).await.unwrap();
        let summary: Vec<(BotId, &str, u64, u64, u32)> = lines
            .iter()
            .map(|l| (l.bot, l.name.as_str(), l.matches, l.wins, l.sets_rated))
            .collect();
        // a: 4 matches, 4 wins; b: 4 against a (none won) and 4 against c (2 shared firsts);
        // c: 4, with 2 shared firsts and 2 outright.
        assert_eq!(summary, [(a, "a", 4, 4, 2), (b, "b", 8, 2, 4), (c, "c", 4, 4, 2)]);
        assert_eq!(lines[2].health, BotHealth { illegal: 4, ..BotHealth::default() });
        assert_eq!(lines[0].health, BotHealth::default());
        assert_eq!(lines[0].rating.mean, 28.0);
    }

    #[tokio::test]
    async fn a_bots_matches_page_newest_first_by_cursor() {
        let (store, ladder, [_, b, _]) = played(4).await;
        let first = store.bot_matches(ladder, b, None, 5).await.unwrap();
        let ids: Vec<i64> = first.iter().map(|m| m.id.0).collect();
        assert_eq!(ids.len(), 5);
        assert!(ids.windows(2).all(|w| w[0] > w[1]), "{ids:?}");
        assert!(first.iter().all(|m| m.seats.iter().any(|s| s.bot == b)));
        let rest = store.bot_matches(ladder, b, first.last().map(|m| m.id), 5).await.unwrap();
        assert_eq!(rest.len(), 3);
        assert!(rest.iter().all(|m| m.id.0 < ids[4]));
        let one = store.ladder_match(first[0].id).await.unwrap().unwrap();
        assert_eq!(one, first[0]);
    }

    #[tokio::test]
    async fn history_head_to_head_and_versions_are_the_bots_own() {
        let (store, ladder, [a, b, c]) = played(4).await;
        let history = store.bot_rating_history(ladder, a).await.unwrap();
        let sets: Vec<u64> = history.iter().map(|h| h.set_index).collect();
        assert_eq!(sets, [0, 2]);
        assert!(history.iter().all(|h| h.update.bot == a));
        let against = store.head_to_head(ladder, b).await.unwrap();
        let lines: Vec<(BotId, u64, u64, u64)> =
            against.iter().map(|h| (h.opponent, h.wins, h.ties, h.losses)).collect();
        assert_eq!(lines, [(a, 0, 0, 4), (c, 0, 2, 2)]);
        let versions = store.bot_ladder_versions(ladder, a).await.unwrap();
        let versions: Vec<(&str, u64)> =
            versions.iter().map(|v| (v.version.as_str(), v.matches)).collect();
        assert_eq!(versions, [("v1", 2), ("v2", 2)]);
    }
}
