//! Hosted ladders over real gRPC: registered SDK bots wait in the lobby with their keys and the
//! server plays duplicate sets among them by itself, storing every match, record and rating
//! update (the ratings equal a serial replay); a bot that crashes every match is paused with
//! its reason; the admin ladder rpcs.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use cardroom_arena::hosted::HostedLadderFile;
use cardroom_proto::pb;
use cardroom_rank::RatingSystem;
use cardroom_store::{FailureKind, LadderId, MatchState, SetState, SqliteStore, Store};
use cardroom_tests::{
    ADMIN, assert_ratings_replay, crashing_bot, eventually, hosted_server, lobby_bot, register,
};
use tonic::{Code, Request};

async fn ladder_id(store: &Arc<dyn Store>, name: &str) -> LadderId {
    store.ladder(name).await.unwrap().unwrap().id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registered_bots_in_the_lobby_play_duplicate_sets_by_themselves() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let (server, hosted) = hosted_server(Arc::clone(&store)).await;
    let names = ["alice", "bob", "carol"];
    for name in names {
        let key = register(&store, name).await;
        lobby_bot(server.url(), name, &key, "v1", 2);
    }
    let text = "name = \"tt3\"\ngame = \"twenty_two\"\nseats = 3\nseed = 7\nmax_concurrent = 2\n\
                provisional_sets = 2\n";
    hosted.open(&HostedLadderFile::parse(text).unwrap(), text).await.unwrap();
    let ladder = ladder_id(&store, "tt3").await;
    let rated = eventually("three rated sets", || async {
        let rated = store.rated_sets(ladder).await.unwrap();
        (rated.len() >= 3).then_some(rated)
    })
    .await;
    for set in &rated {
        assert_eq!(set.state, SetState::Rated);
        assert_eq!(set.matches.len(), 3, "every rotation of a 3-seat table");
        let mut bots = set.bots.clone();
        bots.sort_unstable();
        for m in &set.matches {
            assert_eq!(m.state, MatchState::Done);
            assert_eq!(m.seed, set.seed, "one deal per set");
            let mut seated: Vec<_> = m.seats.iter().map(|s| s.bot).collect();
            seated.sort_unstable();
            assert_eq!(seated, bots);
            assert!(
                m.seats.iter().all(|s| s.version.as_deref() == Some("v1") && s.place.is_some())
            );
            let record = store.ladder_record(m.id).await.unwrap().expect("a record");
            assert!(record.contains("\"game\""), "{record}");
        }
    }
    // Every rating update is stored, one per rated set, in set order. The ladder plays on, so
    // the changes are read between two reads of the rated sets that agree.
    let (changes, rated_now) =
        eventually("the rating changes of a settled count of sets", || async {
            let before = store.rated_sets(ladder).await.unwrap().len();
            let changes = store.rating_changes(ladder).await.unwrap();
            let rated = store.rated_sets(ladder).await.unwrap().len();
            (before == rated).then_some((changes, rated))
        })
        .await;
    let mut seqs: Vec<u64> = changes.iter().map(|c| c.seq).collect();
    assert!(seqs.is_sorted(), "{seqs:?}");
    seqs.dedup();
    assert_eq!(seqs.len(), rated_now);
    assert_ratings_replay(store.as_ref(), ladder, RatingSystem::WengLin).await;
    let bots = store.ladder_bots(ladder).await.unwrap();
    assert_eq!(bots.len(), 3);
    assert!(bots.iter().all(|b| b.paused_reason.is_none()));
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_crashes_every_match_is_paused_with_its_reason() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let (server, hosted) = hosted_server(Arc::clone(&store)).await;
    let key = register(&store, "crasher").await;
    crashing_bot(server.url(), "crasher", key);
    let key = register(&store, "steady").await;
    lobby_bot(server.url(), "steady", &key, "v1", 1);
    let text =
        "name = \"gin\"\ngame = \"gin\"\nmove_ms = 100\n[health]\nwindow = 3\nmax_failures = 2\n";
    hosted.open(&HostedLadderFile::parse(text).unwrap(), text).await.unwrap();
    let ladder = ladder_id(&store, "gin").await;
    let crasher = store.bot_credential("crasher").await.unwrap().unwrap().account.id;
    let paused = eventually("the crasher paused", || async {
        let bots = store.ladder_bots(ladder).await.unwrap();
        bots.into_iter().find(|b| b.bot == crasher && b.paused_reason.is_some())
    })
    .await;
    let reason = paused.paused_reason.unwrap();
    assert!(reason.starts_with("2 of its last 2 matches failed"), "{reason}");
    let failures = store.failures(ladder, crasher, 100).await.unwrap();
    assert!(failures.iter().all(|f| f.version == "broken-1"));
    let kinds: Vec<FailureKind> = failures.iter().map(|f| f.failure.kind).collect();
    assert!(
        kinds.contains(&FailureKind::Timeout) && kinds.contains(&FailureKind::Forfeit),
        "{kinds:?}"
    );
    // A time out keeps the observation the bot had when its time ran out.
    let timeout = failures.iter().find(|f| f.failure.kind == FailureKind::Timeout).unwrap();
    assert!(
        timeout.failure.observation_json.as_deref().is_some_and(|o| o.contains("hand")),
        "{timeout:?}"
    );
    assert!(timeout.failure.error.contains("time ran out"), "{timeout:?}");
    // The steady bot is healthy, and the crasher's sets were rated (a crash is a loss).
    let steady = store.bot_credential("steady").await.unwrap().unwrap().account.id;
    let rows = store.ladder_bots(ladder).await.unwrap();
    assert!(rows.iter().any(|b| b.bot == steady && b.paused_reason.is_none()));
    let outcomes = store.recent_outcomes(ladder, steady, 10).await.unwrap();
    assert!(outcomes.iter().all(|o| o.failure.is_none()), "{outcomes:?}");
    server.stop().await.unwrap();
}

/// `message` with `token` as the bearer.
fn with_token<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
}

#[tokio::test]
async fn the_admin_ladder_rpcs_create_pause_resume_and_close() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let (server, _hosted) = hosted_server(Arc::clone(&store)).await;
    let mut client = server.client().await;
    let file = "name = \"duel\"\ngame = \"gin\"\n";
    let create = || pb::CreateLadderRequest { config_toml: file.into() };
    let wrong = client.create_ladder(with_token(create(), "guess")).await.unwrap_err();
    assert_eq!(wrong.code(), Code::Unauthenticated);
    let created = client.create_ladder(with_token(create(), ADMIN)).await.unwrap().into_inner();
    assert_eq!((created.name.as_str(), created.status.as_str()), ("duel", "running"));
    assert_eq!((created.game.as_str(), created.table_seats), ("gin", 2));
    let again = client.create_ladder(with_token(create(), ADMIN)).await.unwrap_err();
    assert_eq!(again.code(), Code::AlreadyExists, "{again:?}");
    let bad =
        pb::CreateLadderRequest { config_toml: "name = \"x\"\ngame = \"gin\"\nseats = 4".into() };
    let bad = client.create_ladder(with_token(bad, ADMIN)).await.unwrap_err();
    assert_eq!(bad.code(), Code::InvalidArgument);
    assert!(bad.message().contains("`seats`"), "{bad:?}");

    let named =
        |name: &str, reason: &str| pb::LadderRequest { name: name.into(), reason: reason.into() };
    let paused = client.pause_ladder(with_token(named("duel", "maintenance"), ADMIN)).await;
    let paused = paused.unwrap().into_inner();
    assert_eq!((paused.status.as_str(), paused.reason.as_str()), ("paused", "maintenance"));
    let stored = store.ladder("duel").await.unwrap().unwrap();
    assert_eq!(stored.status_reason.as_deref(), Some("maintenance"));
    let resumed = client.resume_ladder(with_token(named("duel", ""), ADMIN)).await.unwrap();
    assert_eq!(resumed.into_inner().status, "running");
    let closed = client.close_ladder(with_token(named("duel", "season over"), ADMIN)).await;
    assert_eq!(closed.unwrap().into_inner().status, "closed");
    let reopened = client.resume_ladder(with_token(named("duel", ""), ADMIN)).await.unwrap_err();
    assert_eq!(reopened.code(), Code::FailedPrecondition, "{reopened:?}");
    let unknown = client.pause_ladder(with_token(named("nope", ""), ADMIN)).await.unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound, "{unknown:?}");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_bot_with_its_key_plays_a_hosted_ladder() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let (server, hosted) = hosted_server(Arc::clone(&store)).await;
    let key = register(&store, "rusty").await;
    lobby_bot(server.url(), "rusty", &key, "r1", 1);
    let key = register(&store, "pythonic").await;
    let address = server.addr.to_string();
    let python = cardroom_tests::PythonBot::spawn(
        "tt_bot.py",
        &["--server", &address, "--lobby", "pythonic", "--key", &key, "--bot-version", "py1"],
    );
    let text = "name = \"tt\"\ngame = \"twenty_two\"\n";
    hosted.open(&HostedLadderFile::parse(text).unwrap(), text).await.unwrap();
    let ladder = ladder_id(&store, "tt").await;
    let out = python.finish().await;
    assert!(out.contains("match "), "{out}");
    let pythonic = store.bot_credential("pythonic").await.unwrap().unwrap().account.id;
    let seat = eventually("the Python bot's match stored", || async {
        let mut sets = store.open_sets(ladder).await.unwrap();
        sets.extend(store.rated_sets(ladder).await.unwrap());
        sets.iter()
            .flat_map(|s| &s.matches)
            .filter(|m| m.state == MatchState::Done)
            .flat_map(|m| m.seats.clone())
            .find(|s| s.bot == pythonic)
    })
    .await;
    assert_eq!(seat.version.as_deref(), Some("py1"));
    assert!(seat.failure.is_none(), "{seat:?}");
    server.stop().await.unwrap();
}
