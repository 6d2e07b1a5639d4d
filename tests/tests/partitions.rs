//! Partitions, not only kills (docs/deploy.md, "Partitions"): two nodes of one PostgreSQL
//! database (the test cluster of `CARDROOM_TEST_PG`) run a hosted ladder of registered random
//! bots, each bot the SDK's stock runner in the lobby of both nodes. A proxy the test controls
//! stands between node A and the database, or between A and its bots, and partitions the link:
//! the open connections go silent (nothing crosses, nothing closes), and new ones are accepted
//! and left silent, until the test heals it.
//!
//! Cut from the database while it leads and hosts matches, A's store calls fail within the
//! store's bound, it stops leading, B takes the ladder over, takes A's matches back and plays
//! them; the results A brings after the heal are refused by the fencing token; A rejoins by
//! itself and plays again; and every result is stored once, the ratings those of a serial
//! replay.
//!
//! Cut from its bots, A's matches end by the ladder's clock, each recorded with its seats'
//! failures; the bots give up the silent link, play on through B, come back to A once healed,
//! and nothing is rated twice.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::collections::{BTreeMap, HashSet};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cardroom_arena::hosted::{HostedLadderFile, HostedLadders};
use cardroom_rank::RatingSystem;
use cardroom_server::Config;
use cardroom_store::testing::{fresh_schema_url, test_pg_url};
use cardroom_store::{
    LadderId, LadderMatch, MatchState, NODE_TTL, Store, StoreError, StoreOptions,
};
use cardroom_tests::{
    Break, Proxy, TestServer, assert_ratings_replay, eventually, hosted_server_with, lobby_bot,
    register,
};
use prometheus_client::registry::Registry;

/// The nodes' bound on a store call: short, so that a cut is noticed in a test's time.
const CALL_TIMEOUT: Duration = Duration::from_secs(2);

/// How often a node pings a bot's connection that has sent nothing, and how long it waits for
/// the answer.
const KEEP_ALIVE: Duration = Duration::from_secs(1);

/// The ladder: two-seat Twenty-Two; a bot plays at most one match on each node at once.
const LADDER: &str = "name = \"duel\"\ngame = \"twenty_two\"\nseats = 2\nseed = 11\n\
                      max_concurrent = 2\nabsent_ms = 3000\n";

const BOTS: [&str; 3] = ["alice", "bob", "carol"];

/// One node in this process: its server, its ladders and what it counts for `/metrics`.
struct Node {
    /// Its store, as it reaches it.
    store: Arc<dyn Store>,
    server: TestServer,
    hosted: HostedLadders,
    metrics: Registry,
}

impl Node {
    /// A node over the store at `url`, bounded as [`CALL_TIMEOUT`] says, that pings its bots'
    /// silent connections every [`KEEP_ALIVE`].
    async fn start(url: &str) -> Node {
        let options = StoreOptions { call_timeout: CALL_TIMEOUT };
        let store = cardroom_store::open_with(url, options).await.unwrap();
        let keep_alive = |config: &mut Config| config.keep_alive = Some(KEEP_ALIVE);
        let (server, hosted) = hosted_server_with(Arc::clone(&store), keep_alive).await;
        let mut metrics = Registry::default();
        hosted.register_metrics(&mut metrics);
        Node { store, server, hosted, metrics }
    }

    /// Stops: no match starts any more, the running ones play out and their results are
    /// stored, and the server stops. Returns the results it stored.
    async fn stop(self) -> u64 {
        self.hosted.stop_scheduling();
        self.hosted.stopped().await;
        let results = self.results();
        self.server.stop().await.unwrap();
        results
    }

    /// The value of the series `series` (name and labels) on its `/metrics`, 0 if absent.
    fn counted(&self, series: &str) -> u64 {
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.metrics).unwrap();
        text.lines()
            .find_map(|line| line.strip_prefix(series)?.trim().parse::<f64>().ok())
            .map_or(0, |value| value as u64)
    }

    /// Results it stored.
    fn results(&self) -> u64 {
        self.counted("cardroom_ladder_results_total{ladder=\"duel\"}")
    }

    /// Results the store refused it, their claims lapsed.
    fn refused(&self) -> u64 {
        self.counted("cardroom_ladder_matches_released_total{ladder=\"duel\",why=\"refused\"}")
    }
}

/// The address of the database a PostgreSQL URL names.
fn database(url: &str) -> SocketAddr {
    let authority = url.split_once('@').unwrap().1;
    authority.split(['/', '?']).next().unwrap().parse().unwrap()
}

/// `url` naming its sessions `name` (PostgreSQL's `application_name`).
fn named(url: &str, name: &str) -> String {
    let separator = if url.contains('?') { '&' } else { '?' };
    format!("{url}{separator}application_name={name}")
}

/// The node (its sessions' name) that holds a ladder's scheduler lock: a session-level
/// advisory lock, on a session idle between the leader's steps.
async fn leader(base: &str) -> Option<String> {
    let (client, connection) = tokio_postgres::connect(base, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    let row = client
        .query_opt(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
             WHERE l.locktype = 'advisory' AND l.granted AND a.state = 'idle'
                 AND a.application_name LIKE 'node-%'",
            &[],
        )
        .await
        .unwrap();
    row.map(|row| row.get(0))
}

/// The nodes' database sessions, with the locks they hold and wait for: what a failure prints,
/// to tell which session kept what.
async fn sessions(base: &str) -> String {
    let (client, connection) = tokio_postgres::connect(base, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    let rows = client
        .query(
            "SELECT a.application_name || ' pid ' || a.pid || ' ' || COALESCE(a.state, '?')
                 || ' for ' || COALESCE(EXTRACT(EPOCH FROM now() - a.state_change)::TEXT, '?')
                 || ' s, waits ' || COALESCE(a.wait_event_type || '/' || a.wait_event, 'nothing')
                 || ', locks ' || COALESCE((SELECT string_agg(l.locktype || ':' || l.mode
                     || CASE WHEN l.granted THEN '' ELSE ' (waiting)' END, ', ')
                     FROM pg_locks l WHERE l.pid = a.pid), 'none')
                 || ': ' || left(a.query, 80)
             FROM pg_stat_activity a WHERE a.application_name LIKE 'node-%'
             ORDER BY a.application_name, a.pid",
            &[],
        )
        .await
        .unwrap();
    rows.iter().map(|row| row.get::<_, String>(0)).collect::<Vec<_>>().join("\n")
}

/// Every match of the ladder's open and rated sets, by id.
async fn matches(store: &dyn Store, ladder: LadderId) -> BTreeMap<i64, LadderMatch> {
    let mut sets = store.open_sets(ladder).await.unwrap();
    sets.extend(store.rated_sets(ladder).await.unwrap());
    sets.into_iter().flat_map(|s| s.matches).map(|m| (m.id.0, m)).collect()
}

/// The matches running under `owner`'s claims, with their attempts.
async fn running_on(store: &dyn Store, ladder: LadderId, owner: &str) -> Vec<(i64, u32)> {
    matches(store, ladder)
        .await
        .values()
        .filter(|m| m.state == MatchState::Running && m.lease_owner.as_deref() == Some(owner))
        .map(|m| (m.id.0, m.attempt))
        .collect()
}

/// A fresh schema of the test cluster, the test's own store on it, the bots registered with
/// their keys, and node A over a proxy to the database.
async fn setup(base: &str) -> (String, Arc<dyn Store>, Vec<(String, String)>) {
    let url = fresh_schema_url(base).await.unwrap();
    let store = cardroom_store::open(&url).await.unwrap();
    let mut keys = Vec::new();
    for name in BOTS {
        keys.push((name.to_owned(), register(&store, name).await));
    }
    (url, store, keys)
}

/// Each bot's stock runner in `node`'s lobby, one match at a time.
fn bots_on(url: &str, keys: &[(String, String)]) {
    for (name, key) in keys {
        lobby_bot(url.to_owned(), name, key, "v1", 1);
    }
}

/// Checks what every test ends with: each match of a rated set recorded once, each rated set
/// rated once and in order, the ratings a serial replay's, and every result the nodes stored
/// counted in the store once (`stored`: the results the nodes counted).
async fn assert_each_result_once(store: &dyn Store, ladder: LadderId, stored: u64) {
    let rated = store.rated_sets(ladder).await.unwrap();
    let mut server_ids = HashSet::new();
    for m in rated.iter().flat_map(|s| &s.matches) {
        assert_eq!(m.state, MatchState::Done, "match {} of a rated set", m.id.0);
        assert!(store.ladder_record(m.id).await.unwrap().is_some(), "match {}", m.id.0);
        assert!(server_ids.insert(m.server_match_id.clone().unwrap()), "match {} once", m.id.0);
    }
    let mut sets: Vec<u64> =
        store.rating_changes(ladder).await.unwrap().iter().map(|c| c.set_index).collect();
    sets.dedup();
    assert_eq!(sets, rated.iter().map(|s| s.index).collect::<Vec<_>>(), "each set rated once");
    assert_ratings_replay(store, ladder, RatingSystem::Glicko2).await;
    // Each stored result counts once for each of its two seats on the bots' rows.
    let seats: u64 = store.leaderboard(ladder).await.unwrap().iter().map(|l| l.matches).sum();
    assert_eq!(seats, 2 * stored, "the store holds every result the nodes stored, once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_the_store_is_fenced_off_and_rejoins_by_itself() {
    let Some(base) = test_pg_url("a_node_cut_off_from_the_store") else { return };
    let (url, store, keys) = setup(&base).await;
    let proxy = Proxy::start(database(&url)).await;
    let through_proxy = url.replacen(&database(&url).to_string(), &proxy.addr.to_string(), 1);
    let (a_url, b_url) = (named(&through_proxy, "node-a"), named(&url, "node-b"));

    // A alone first: it leads the ladder.
    let a = Node::start(&a_url).await;
    bots_on(&a.server.url(), &keys);
    a.hosted.open(&HostedLadderFile::parse(LADDER).unwrap(), LADDER).await.unwrap();
    let ladder = store.ladder("duel").await.unwrap().unwrap().id;
    let a_id = a.hosted.run_id().to_owned();
    eventually("a match on A", || async {
        (!running_on(store.as_ref(), ladder, &a_id).await.is_empty()).then_some(())
    })
    .await;
    let b = Node::start(&b_url).await;
    bots_on(&b.server.url(), &keys);
    let b_id = b.hosted.run_id().to_owned();
    eventually("matches done on B", || async { (b.results() >= 2).then_some(()) }).await;

    // Cut while A hosts a match.
    let cut_off = eventually("a match on A to cut off", || async {
        let running = running_on(store.as_ref(), ladder, &a_id).await;
        if running.is_empty() {
            return None;
        }
        proxy.break_links(Break::Partition);
        Some(running)
    })
    .await;
    let cut = Instant::now();
    assert_eq!(leader(&base).await.as_deref(), Some("node-a"), "A led as it was cut off");

    // A's store calls fail within the bound, on the silent connections and on new ones.
    let started = Instant::now();
    let failed = a.store.bots().await.unwrap_err();
    let took = started.elapsed();
    eprintln!("a store call of the cut-off node failed after {took:?}: {failed}");
    assert!(matches!(failed, StoreError::Timeout { .. }), "{failed}");
    assert!(took < CALL_TIMEOUT + Duration::from_secs(1), "{took:?}");
    // A result whose commit reached the store as the links went silent is stored under A's
    // claim, rightly (the lease still held): such a match was not cut off.
    let now = matches(store.as_ref(), ladder).await;
    let (stored_at_cut, cut_off): (Vec<_>, Vec<_>) =
        cut_off.into_iter().partition(|(id, attempt)| {
            now.get(id).is_some_and(|m| m.state == MatchState::Done && m.attempt == *attempt)
        });
    eprintln!(
        "{} of A's matches stored as the cut came, {} cut off",
        stored_at_cut.len(),
        cut_off.len()
    );

    // B takes A's matches back once A's heartbeat is gone, and plays them under new claims.
    let told = std::cell::Cell::new(false);
    let taken_back = eventually("A's matches taken back", || async {
        if !told.get() && cut.elapsed() > 10 * NODE_TTL {
            // Long past the heartbeat's lifetime: what the sessions hold, should this fail.
            told.set(true);
            eprintln!("sessions {:?} after the cut:\n{}", cut.elapsed(), sessions(&base).await);
        }
        let now = matches(store.as_ref(), ladder).await;
        cut_off
            .iter()
            .all(|(id, attempt)| {
                now.get(id).is_none_or(|m| m.attempt > *attempt || m.state == MatchState::Planned)
            })
            .then(|| cut.elapsed())
    })
    .await;
    let played = eventually("A's matches played again elsewhere", || async {
        let now = matches(store.as_ref(), ladder).await;
        cut_off
            .iter()
            .all(|(id, attempt)| {
                now.get(id).is_none_or(|m| m.state == MatchState::Done && m.attempt > *attempt)
            })
            .then(|| cut.elapsed())
    })
    .await;
    eprintln!(
        "A's matches taken back {taken_back:?} after the cut (heartbeat TTL {NODE_TTL:?}), \
         played again by {played:?}"
    );
    if !cut_off.is_empty() {
        assert!(taken_back >= NODE_TTL, "taken back only once A's heartbeat is stale");
    }
    let b_leads = eventually("B leading", || async {
        (leader(&base).await.as_deref() == Some("node-b")).then(|| cut.elapsed())
    })
    .await;
    eprintln!("B leads {b_leads:?} after the cut");
    // B leads now: it plans and rates without A.
    let rated = store.rated_sets(ladder).await.unwrap().len();
    eventually("sets rated without A", || async {
        (store.rated_sets(ladder).await.unwrap().len() >= rated + 2).then_some(())
    })
    .await;

    // Healed: A's late results are refused, its heartbeat is back, and it plays again.
    let results_before_heal = a.results();
    proxy.break_links(Break::None);
    let healed = Instant::now();
    if !cut_off.is_empty() {
        eventually("A's late results refused", || async { (a.refused() >= 1).then_some(()) }).await;
    }
    eventually("A's heartbeat seen again", || async {
        let since = now_ms() - NODE_TTL.as_millis() as i64;
        let nodes = store.nodes(since).await.unwrap();
        nodes.iter().any(|n| n.beat.owner == a_id).then_some(())
    })
    .await;
    let rejoined = eventually("A storing results again", || async {
        (a.results() >= results_before_heal + 2).then(|| healed.elapsed())
    })
    .await;
    eprintln!(
        "A's late results refused: {}; A stored results again {rejoined:?} after the heal",
        a.refused()
    );
    for (id, attempt) in &cut_off {
        let m = matches(store.as_ref(), ladder).await.remove(id);
        if let Some(m) = m {
            assert!(m.attempt > *attempt, "match {id}: played again, never under A's old claim");
        }
    }
    assert_ne!(a_id, b_id);

    let stored = a.stop().await + b.stop().await;
    assert_each_result_once(store.as_ref(), ladder, stored).await;
}

/// Milliseconds since the Unix epoch, as the store's times.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as i64)
}

/// The ladder of the bots' partition: a short clock (100 ms a move, no bank), so that a seat
/// cut off loses its match in a test's time, and a health check that pauses no bot for it.
const QUICK_LADDER: &str = "name = \"duel\"\ngame = \"twenty_two\"\nseats = 2\nseed = 13\n\
                            max_concurrent = 2\nabsent_ms = 3000\nmove_ms = 100\nbank_ms = 1\n\
                            [health]\nwindow = 5\nmax_failures = 0\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_its_bots_records_their_losses_and_they_come_back() {
    let Some(base) = test_pg_url("a_node_cut_off_from_its_bots") else { return };
    let (url, store, keys) = setup(&base).await;
    let a = Node::start(&url).await;
    let b = Node::start(&url).await;
    // The bots reach A through the proxy, B directly.
    let proxy = Proxy::start(a.server.addr).await;
    bots_on(&format!("http://{}", proxy.addr), &keys);
    bots_on(&b.server.url(), &keys);
    a.hosted.open(&HostedLadderFile::parse(QUICK_LADDER).unwrap(), QUICK_LADDER).await.unwrap();
    let ladder = store.ladder("duel").await.unwrap().unwrap().id;
    let a_id = a.hosted.run_id().to_owned();
    let timeouts = "cardroom_ladder_failures_total{ladder=\"duel\",kind=\"timeout\"}";

    eventually("matches done on A and B", || async {
        (a.results() >= 2 && b.results() >= 2).then_some(())
    })
    .await;
    let failed_before = a.counted(timeouts);
    proxy.break_links(Break::Partition);
    let cut = Instant::now();
    // What A plays with the silent bots ends by the clock, recorded with their time-outs, until
    // its pings find the links silent: then its lobby is empty, and it starts nothing more.
    let emptied = eventually("A's lobby emptied", || async {
        let since = now_ms() - NODE_TTL.as_millis() as i64;
        let nodes = store.nodes(since).await.unwrap();
        let beat = nodes.into_iter().find(|n| n.beat.owner == a_id)?;
        let running = running_on(store.as_ref(), ladder, &a_id).await;
        (beat.beat.lobby.is_empty() && running.is_empty()).then(|| cut.elapsed())
    })
    .await;
    let failed = a.counted(timeouts) - failed_before;
    eprintln!(
        "A's lobby emptied {emptied:?} after the cut (keep-alive {KEEP_ALIVE:?}); \
         {failed} seats' time-outs recorded meanwhile"
    );
    assert!(emptied < 4 * KEEP_ALIVE + Duration::from_secs(2), "{emptied:?}");
    assert!(failed >= 1, "the silent seats' matches were recorded with their time-outs");
    // The ladder plays on through B meanwhile.
    let b_results = b.results();
    eventually("results on B", || async { (b.results() >= b_results + 3).then_some(()) }).await;
    let a_results = a.results();

    // Healed: the bots' runners come back to A by themselves, and play there.
    proxy.break_links(Break::None);
    let healed = Instant::now();
    let back = eventually("the bots playing on A again", || async {
        (a.results() >= a_results + 2).then(|| healed.elapsed())
    })
    .await;
    eprintln!("the bots play on A again {back:?} after the heal");
    let stored = a.stop().await + b.stop().await;
    assert_each_result_once(store.as_ref(), ladder, stored).await;
}
