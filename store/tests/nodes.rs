//! Many nodes on one PostgreSQL database, each a `PgStore` of its own on one schema of the test
//! cluster (`CARDROOM_TEST_PG`): they claim matches without sharing one, and one at a time
//! leads a ladder, a standby taking over when the leader goes.
#![allow(clippy::unwrap_used)]

use std::collections::HashSet;
use std::time::{Duration, Instant};

use cardroom_store::testing::{fresh_schema_url, test_pg_url};
use cardroom_store::{
    ClaimLimit, KeyHash, LadderId, Lease, NewLadder, NewMatch, NewSet, PgStore, Store, StoredRating,
};

/// `count` nodes on one fresh schema, with a ladder of four bots; `None` when skipped.
async fn nodes(
    test: &str,
    count: usize,
) -> Option<(Vec<PgStore>, LadderId, Vec<cardroom_store::BotId>)> {
    let url = fresh_schema_url(&test_pg_url(test)?).await.unwrap();
    let mut nodes = Vec::new();
    for _ in 0..count {
        nodes.push(PgStore::connect(&url).await.unwrap());
    }
    let store = &nodes[0];
    let ladder = NewLadder {
        name: "ladder".into(),
        game: "gin".into(),
        options_json: "{}".into(),
        table_seats: 2,
        rating: "weng_lin".into(),
        seed: 7,
        provisional_sets: 1,
        config: String::new(),
    };
    let ladder = store.create_ladder(&ladder, 1).await.unwrap().id;
    let mut bots = Vec::new();
    for i in 0..4 {
        let bot = store.register_bot(&format!("bot{i}"), KeyHash::of(&i.to_string()), 1).await;
        let bot = bot.unwrap().id;
        let initial = StoredRating { mean: 25.0, sigma: 8.3, volatility: 0.0 };
        store.enter_ladder(ladder, bot, initial, 1).await.unwrap();
        bots.push(bot);
    }
    Some((nodes, ladder, bots))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_claiming_at_once_never_share_a_match() {
    let Some((nodes, ladder, bots)) = nodes("nodes_claiming_at_once", 3).await else { return };
    // 10 sets of 6 matches (every ordered pair of 3 of the 4 bots, say), 60 matches in all.
    for index in 0..10u64 {
        let matches = (0..6u32)
            .map(|rotation| NewMatch {
                rotation,
                seed: index,
                seats: vec![bots[rotation as usize % 4], bots[(rotation as usize + 1) % 4]],
            })
            .collect();
        let set = NewSet { index, seed: index, bots: bots.clone(), matches };
        nodes[0].plan_set(ladder, &set, 2).await.unwrap();
    }
    // Every node claims two at a time, all at once, until nothing is left.
    let claimers = nodes.iter().enumerate().map(|(i, node)| {
        let (node, bots) = (node.clone(), bots.clone());
        tokio::spawn(async move {
            let lease = Lease { owner: format!("node-{i}"), until_ms: 1_000_000 };
            let mut mine = Vec::new();
            loop {
                let claims = node
                    .claim_ready(ladder, &bots, &lease, 10, ClaimLimit::claims(2))
                    .await
                    .unwrap();
                if claims.is_empty() {
                    return mine;
                }
                mine.extend(claims);
            }
        })
    });
    let mut seen = HashSet::new();
    for claimer in claimers {
        for claim in claimer.await.unwrap() {
            assert_eq!(claim.attempt, 1);
            assert!(seen.insert(claim.id), "match {:?} was claimed twice", claim.id);
        }
    }
    assert_eq!(seen.len(), 60);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_claiming_at_once_keep_the_ladders_cap() {
    let Some((nodes, ladder, bots)) = nodes("nodes_claiming_under_a_cap", 3).await else { return };
    for index in 0..4u64 {
        let matches = (0..4u32)
            .map(|rotation| NewMatch {
                rotation,
                seed: index,
                seats: vec![bots[rotation as usize], bots[(rotation as usize + 1) % 4]],
            })
            .collect();
        let set = NewSet { index, seed: index, bots: bots.clone(), matches };
        nodes[0].plan_set(ladder, &set, 2).await.unwrap();
    }
    // Three nodes claim one at a time, all at once, under a cap of 5 of the 16 matches: each
    // claim counts the others' (none finishes), so 5 run in all.
    let claimers = nodes.iter().enumerate().map(|(i, node)| {
        let (node, bots) = (node.clone(), bots.clone());
        tokio::spawn(async move {
            let lease = Lease { owner: format!("node-{i}"), until_ms: 1_000_000 };
            let limit = ClaimLimit { claims: 1, running: 5 };
            let mut mine = 0;
            while !node.claim_ready(ladder, &bots, &lease, 10, limit).await.unwrap().is_empty() {
                mine += 1;
            }
            mine
        })
    });
    let mut claimed = 0;
    for claimer in claimers {
        claimed += claimer.await.unwrap();
    }
    assert_eq!(claimed, 5);
    assert_eq!(nodes[1].running_matches(ladder, 10).await.unwrap(), 5);
}

/// Polls `node` until it leads `ladder`, failing after `limit`; returns how long it took.
async fn until_it_leads(node: &PgStore, ladder: LadderId, limit: Duration) -> Duration {
    let start = Instant::now();
    while !node.try_lead(ladder).await.unwrap() {
        assert!(start.elapsed() < limit, "no takeover within {limit:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    start.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_node_leads_a_ladder_and_a_standby_takes_over_when_it_goes() {
    let Some((mut nodes, ladder, _)) = nodes("one_node_leads_a_ladder", 3).await else { return };
    assert!(nodes[0].try_lead(ladder).await.unwrap());
    for standby in &nodes[1..] {
        assert!(!standby.try_lead(ladder).await.unwrap(), "two leaders");
    }
    // The leader resigns: one standby takes over, the other stays a standby.
    nodes[0].resign(ladder).await.unwrap();
    until_it_leads(&nodes[1], ladder, Duration::from_secs(10)).await;
    assert!(!nodes[2].try_lead(ladder).await.unwrap());
    assert!(!nodes[0].try_lead(ladder).await.unwrap());
    // The leader's handle goes (as with its process, its connections close): the last standby
    // takes over.
    drop(nodes.remove(1));
    let took = until_it_leads(&nodes[1], ladder, Duration::from_secs(10)).await;
    eprintln!("a standby took the ladder over {took:?} after the leader's store went");
    assert!(!nodes[0].try_lead(ladder).await.unwrap());
}

#[tokio::test]
async fn deployments_in_two_schemas_of_one_database_lead_their_own_ladders() {
    let Some((first, ladder, _)) = nodes("two_schemas_first", 1).await else { return };
    let Some((second, other, _)) = nodes("two_schemas_second", 1).await else { return };
    assert_eq!(ladder, other, "both schemas number their first ladder alike");
    assert!(first[0].try_lead(ladder).await.unwrap());
    assert!(second[0].try_lead(other).await.unwrap(), "a lock of another schema's ladder");
}
