//! The standings snapshots in the store suite (see `suite.rs`): each check runs on every
//! backend.

use std::sync::Arc;

use cardroom_store::{
    BotId, KeyHash, LadderId, NewLadder, SprtStanding, Standings, StandingsRow, Store, StoreError,
    StoredRating,
};

/// A ladder of three bots `a`, `b`, `c`.
async fn ladder(store: &Arc<dyn Store>) -> (LadderId, [BotId; 3]) {
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
    let initial = StoredRating { mean: 25.0, sigma: 8.0, volatility: 0.0 };
    let mut bots = Vec::new();
    for name in ["a", "b", "c"] {
        let bot = store.register_bot(name, KeyHash::of(name), 1).await.unwrap().id;
        store.enter_ladder(ladder, bot, initial, 1).await.unwrap();
        bots.push(bot);
    }
    (ladder, [bots[0], bots[1], bots[2]])
}

/// Standings of `revision` over `bots`, best first: the first two indistinguishable, the
/// probabilities awkward fractions (stored exactly).
fn snapshot(revision: u64, bots: [BotId; 3], sprt: Option<SprtStanding>) -> Standings {
    let p = [[0.5, 0.6, 1.0 - 1e-12], [0.4, 0.5, 2.0 / 3.0], [1e-12, 1.0 / 3.0, 0.5]];
    let ranks = [(1, 2), (1, 2), (3, 3)];
    Standings {
        revision,
        first_set: 0,
        sets: revision,
        confidence: 0.95,
        settled: false,
        computed_ms: 100 + revision as i64,
        rows: (0..3)
            .map(|i| StandingsRow {
                bot: bots[i],
                rank_lo: ranks[i].0,
                rank_hi: ranks[i].1,
                indistinguishable_from_first: ranks[i].0 == 1,
                p_better: p[i].to_vec(),
            })
            .collect(),
        sprt,
    }
}

pub(crate) async fn standings_are_replaced_whole_and_never_by_an_older_revision(
    store: Arc<dyn Store>,
) {
    let (ladder, [a, b, c]) = ladder(&store).await;
    assert_eq!(store.standings(ladder).await.unwrap(), None);

    let first = snapshot(4, [b, a, c], None);
    store.put_standings(ladder, &first).await.unwrap();
    assert_eq!(store.standings(ladder).await.unwrap().as_ref(), Some(&first));

    // A newer revision replaces every row, here with an SPRT and a new order.
    let sprt = SprtStanding {
        a,
        b,
        samples: 9,
        llr: -1.25,
        lower: -2.944_438_979_166_440_5,
        upper: 2.944_438_979_166_440_5,
        decision: "undecided".into(),
    };
    let second = snapshot(5, [a, c, b], Some(sprt));
    store.put_standings(ladder, &second).await.unwrap();
    assert_eq!(store.standings(ladder).await.unwrap().as_ref(), Some(&second));

    // An older one is refused and changes nothing; the same revision again replaces it.
    let refused = store.put_standings(ladder, &first).await;
    assert!(matches!(refused, Err(StoreError::Conflict(_))), "{refused:?}");
    assert_eq!(store.standings(ladder).await.unwrap().as_ref(), Some(&second));
    let mut again = snapshot(5, [c, b, a], None);
    again.settled = true;
    store.put_standings(ladder, &again).await.unwrap();
    assert_eq!(store.standings(ladder).await.unwrap().as_ref(), Some(&again));

    // A ragged matrix is refused before it reaches the database; an unknown ladder too.
    let mut ragged = snapshot(6, [a, b, c], None);
    ragged.rows[2].p_better.pop();
    assert!(matches!(store.put_standings(ladder, &ragged).await, Err(StoreError::Conflict(_))));
    let elsewhere = snapshot(1, [a, b, c], None);
    let missing = store.put_standings(LadderId(ladder.0 + 100), &elsewhere).await;
    assert!(matches!(missing, Err(StoreError::NoSuchLadder(_))), "{missing:?}");
    assert_eq!(store.standings(ladder).await.unwrap().as_ref(), Some(&again));
}
