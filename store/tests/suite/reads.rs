//! The hosted ladders' reads in the store suite (see `suite.rs`): each check runs on every
//! backend.

use std::sync::Arc;

use cardroom_store::{
    BotHealth, BotId, FailureKind, KeyHash, LadderId, Lease, MatchResult, NewFailure, NewLadder,
    NewMatch, NewSet, RatingUpdate, SeatResult, Store, StoredRating, ThinkSummary,
};

const INITIAL: StoredRating = StoredRating { mean: 25.0, sigma: 8.0, volatility: 0.0 };

/// A ladder of three bots (`a`, `b`, `c`) in which `sets` duplicate sets of two matches
/// were played and rated: `a` against `b` in even sets (`a` wins both, with version `v1`
/// then `v2` from set 2), `b` against `c` in odd ones (a shared first place, then `c`
/// ahead; `c` answers an illegal action in each match). Every seat but `c`'s times two
/// decisions: 20 µs and 1 ms times one more than the set's index (`c`'s times none).
pub(crate) async fn played(
    store: Arc<dyn Store>,
    sets: u64,
) -> (Arc<dyn Store>, LadderId, [BotId; 3]) {
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
                        think: if m.seats[seat].bot == c {
                            ThinkSummary::default()
                        } else {
                            ThinkSummary::from_micros(&[20, 1_000 * (index as u32 + 1)])
                        },
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

pub(crate) async fn the_leaderboard_sums_each_bots_matches_wins_and_failures(
    store: Arc<dyn Store>,
) {
    let (store, ladder, [a, b, c]) = played(store, 4).await;
    let lines = store.leaderboard(ladder).await.unwrap();
    let summary: Vec<(BotId, &str, u64, u64, u32)> =
        lines.iter().map(|l| (l.bot, l.name.as_str(), l.matches, l.wins, l.sets_rated)).collect();
    // a: 4 matches, 4 wins; b: 4 against a (none won) and 4 against c (2 shared firsts);
    // c: 4, with 2 shared firsts and 2 outright.
    assert_eq!(summary, [(a, "a", 4, 4, 2), (b, "b", 8, 2, 4), (c, "c", 4, 4, 2)]);
    assert_eq!(lines[2].health, BotHealth { illegal: 4, ..BotHealth::default() });
    assert_eq!(lines[0].health, BotHealth::default());
    assert_eq!(lines[0].rating.mean, 28.0);
}

pub(crate) async fn a_bots_matches_page_newest_first_by_cursor(store: Arc<dyn Store>) {
    let (store, ladder, [_, b, _]) = played(store, 4).await;
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

pub(crate) async fn history_head_to_head_and_versions_are_the_bots_own(store: Arc<dyn Store>) {
    let (store, ladder, [a, b, c]) = played(store, 4).await;
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

pub(crate) async fn think_times_merge_a_bots_latest_matches_per_version(store: Arc<dyn Store>) {
    let (store, ladder, [a, b, c]) = played(store, 4).await;
    // a played sets 0 (v1) and 2 (v2), two matches each: its latest version first.
    let lines = store.bot_think_times(ladder, a, 100).await.unwrap();
    let summary: Vec<(&str, u64, u64, u64, u64)> = lines
        .iter()
        .map(|v| (v.version.as_str(), v.matches, v.think.count, v.think.sum_us, v.think.max_us))
        .collect();
    assert_eq!(summary, [("v2", 2, 4, 6_040, 3_000), ("v1", 2, 4, 2_040, 1_000)]);
    let v2 = &lines[0].think;
    assert_eq!(v2.buckets[ThinkSummary::bucket_of(20)], 2);
    assert_eq!(v2.buckets[ThinkSummary::bucket_of(3_000)], 2);
    assert_eq!(v2.buckets.iter().sum::<u64>(), 4);
    // The window is the latest matches: two of them are set 2's.
    let latest = store.bot_think_times(ladder, a, 2).await.unwrap();
    assert_eq!(latest.len(), 1);
    assert_eq!((latest[0].version.as_str(), latest[0].matches), ("v2", 2));
    // b's eight matches, all with v1; c made no timed decision, so nothing is stored of it.
    let of_b = store.bot_think_times(ladder, b, 100).await.unwrap();
    assert_eq!(of_b.iter().map(|v| (v.matches, v.think.count)).collect::<Vec<_>>(), [(8, 16)]);
    assert!(store.bot_think_times(ladder, c, 100).await.unwrap().is_empty());
}
