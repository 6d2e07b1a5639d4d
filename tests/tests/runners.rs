//! The `Runners` rpcs and a runner's bot on `Play` (`proto/cardroom/v1/runners.proto`), over
//! real gRPC: what `cardroom runner` asks of a server, each refusal with its code and words.
//! `cli/tests/remote_runner.rs` runs the runner itself.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use cardroom_games::GameKind;
use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_proto::pb::runners_client::RunnersClient;
use cardroom_server::{Config, HOSTED_METADATA, HostedMatch, HostedSeatFrom};
use cardroom_store::testing::{Item, archive};
use cardroom_store::{Accounts, ArchiveLimits, SqliteStore, Store, SubmittedBy, sha256_hex};
use cardroom_tests::{TestServer, eventually};
use rand::{Rng as _, SeedableRng as _};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;
use tonic::{Code, Request, Status};

const ADMIN: &str = "admin-secret";

/// `message` with `credential` as its bearer, if any.
fn with<T>(message: T, credential: Option<&str>) -> Request<T> {
    let mut request = Request::new(message);
    if let Some(credential) = credential {
        let value = format!("Bearer {credential}").parse().unwrap();
        request.metadata_mut().insert("authorization", value);
    }
    request
}

/// A `Play` stream as a runner opens it for `bot`, joining the lobby `lobby`; the stream's
/// sender is kept, so that the stream stays open.
async fn play_as(
    channel: Channel,
    bot: &str,
    lobby: &str,
    credential: Option<&str>,
) -> Result<(mpsc::Sender<pb::BotMessage>, tonic::Streaming<pb::ServerMessage>), Status> {
    let (tx, rx) = mpsc::channel(4);
    let join = pb::Join {
        bot_name: "whatever the bot says".into(),
        bot_version: "v1".into(),
        seat: Some(pb::join::Seat::Lobby(lobby.into())),
        ..Default::default()
    };
    tx.send(pb::BotMessage { message: Some(pb::bot_message::Message::Join(join)) }).await.unwrap();
    let mut request = with(ReceiverStream::new(rx), credential);
    request.metadata_mut().insert(HOSTED_METADATA, bot.parse().unwrap());
    let stream = CardroomClient::new(channel).play(request).await?.into_inner();
    Ok((tx, stream))
}

fn assert_refused<T: std::fmt::Debug>(
    what: &str,
    answer: Result<T, Status>,
    code: Code,
    says: &str,
) {
    let status = answer.expect_err(what);
    assert_eq!(status.code(), code, "{what}: {status:?}");
    assert!(status.message().contains(says), "{what}: {:?} lacks {says:?}", status.message());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runner_reads_submissions_plays_as_its_bots_and_reports_them_with_the_admin_token() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let accounts = Accounts::new(Arc::clone(&store));
    let alice = accounts.register("alice").await.unwrap().bot;
    accounts.register("bob").await.unwrap();
    accounts.register("carl").await.unwrap();
    // Alice's code is larger than a message, so that it comes in several chunks.
    let mut noise = vec![0u8; 100_000];
    rand_chacha::ChaCha8Rng::seed_from_u64(7).fill_bytes(&mut noise);
    let code = archive(&[Item::File("bot.py", b"print('hi')"), Item::File("data", &noise)]);
    let run = vec!["python3".to_owned(), "bot.py".to_owned()];
    let limits = ArchiveLimits::default();
    accounts.submit(alice.id, code.clone(), run, SubmittedBy::Admin, limits).await.unwrap();
    let server = cardroom_server::Server::new(Config {
        admin_token: Some(ADMIN.into()),
        accounts: Some(accounts.clone()),
        ..Config::default()
    });
    let host = server.host();
    let server = TestServer::serve(server).await;
    let channel = server.channel().await;
    let mut runners = RunnersClient::new(channel.clone());

    // Only with the admin token.
    let listed = runners.list_hosted_bots(with(pb::ListHostedBotsRequest {}, None)).await;
    assert_refused("no token", listed, Code::Unauthenticated, "needs its admin token");
    let listed = runners.list_hosted_bots(with(pb::ListHostedBotsRequest {}, Some("x"))).await;
    assert_refused("a wrong token", listed, Code::Unauthenticated, "admin token is wrong");
    let listed = runners.list_hosted_bots(with(pb::ListHostedBotsRequest {}, Some(ADMIN))).await;
    let bots = listed.unwrap().into_inner().bots;
    let names: Vec<(&str, &str)> =
        bots.iter().map(|s| (s.bot.as_str(), s.sha256.as_str())).collect();
    assert_eq!(names, [("alice", sha256_hex(&code).as_str())], "only bots with a submission");

    // The archive, whole, in chunks within the message limit; the first names its version.
    let fetch = |bot: &str| with(pb::FetchSubmissionRequest { bot: bot.into() }, Some(ADMIN));
    let mut chunks = runners.fetch_submission(fetch("alice")).await.unwrap().into_inner();
    let (mut fetched, mut pieces, mut version) = (Vec::new(), 0, None);
    while let Some(chunk) = chunks.message().await.unwrap() {
        pieces += 1;
        version = version.or(chunk.submission.map(|s| s.sha256));
        fetched.extend_from_slice(&chunk.archive);
    }
    assert!(pieces > 1, "{} bytes came in {pieces} chunk", fetched.len());
    assert_eq!((fetched, version), (code.clone(), Some(sha256_hex(&code))));
    let none = runners.fetch_submission(fetch("bob")).await;
    assert_refused("a bot with no submission", none, Code::NotFound, "no submission");
    let none = runners.fetch_submission(fetch("nobody")).await;
    assert_eq!(none.unwrap_err().code(), Code::NotFound);

    // A runner's bot plays as itself, in its own lobby, with the admin token.
    let refused = play_as(channel.clone(), "alice", "alice", None).await;
    assert_refused("no token", refused, Code::Unauthenticated, "needs its admin token");
    let refused = play_as(channel.clone(), "alice", "bob", Some(ADMIN)).await;
    assert_refused("another's lobby", refused, Code::PermissionDenied, "under its own name");
    let refused = play_as(channel.clone(), "nobody", "nobody", Some(ADMIN)).await;
    assert_eq!(refused.unwrap_err().code(), Code::NotFound);
    accounts.revoke("carl").await.unwrap();
    let refused = play_as(channel.clone(), "carl", "carl", Some(ADMIN)).await;
    assert_refused("a revoked bot", refused, Code::PermissionDenied, "revoked");
    let (_alice_stream, mut waiting) =
        play_as(channel.clone(), "alice", "alice", Some(ADMIN)).await.unwrap();
    eventually("alice in the lobby", || async { host.lobby().contains_key("alice").then_some(()) })
        .await;

    // Its process ended: its waiting stream ends, saying why.
    let ended = runners
        .end_hosted_bot(with(
            pb::EndHostedBotRequest {
                bot: "alice".into(),
                reason: "its process was killed by signal 9".into(),
                output: "last words".into(),
            },
            Some(ADMIN),
        ))
        .await
        .unwrap();
    assert_eq!(ended.into_inner().ended, 1);
    let status = waiting.message().await.unwrap_err();
    assert_eq!(status.code(), Code::Unavailable);
    assert!(status.message().contains("killed by signal 9"), "{status:?}");
    assert!(!host.lobby().contains_key("alice"));

    // Output for a match that is no ladder match of hers.
    let kept = runners
        .keep_hosted_output(with(
            pb::KeepHostedOutputRequest {
                match_id: "m-none".into(),
                bot: "alice".into(),
                output: "hello".into(),
            },
            Some(ADMIN),
        ))
        .await;
    assert_refused("an unknown match", kept, Code::NotFound, "no ladder match");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_an_admin_token_hosts_no_runners_bots() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let accounts = Accounts::new(Arc::clone(&store));
    accounts.register("alice").await.unwrap();
    let server = TestServer::start(Config { accounts: Some(accounts), ..Config::default() }).await;
    let channel = server.channel().await;
    let mut runners = RunnersClient::new(channel.clone());
    let listed = runners.list_hosted_bots(with(pb::ListHostedBotsRequest {}, Some("any"))).await;
    assert_refused("no admin token", listed, Code::FailedPrecondition, "anyone could play");
    let played = play_as(channel, "alice", "alice", Some("any")).await;
    assert_refused("no admin token", played, Code::FailedPrecondition, "anyone could play");
    server.stop().await.unwrap();
}

/// A hosted match of alice and bob, each waiting in this node's lobby.
fn duel() -> HostedMatch {
    HostedMatch {
        game: GameKind::TwentyTwo,
        options_json: String::new(),
        seed: 1,
        seats: vec![HostedSeatFrom::here("alice"), HostedSeatFrom::here("bob")],
        move_ms: 0,
        bank_ms: 0,
        max_bad_replies: 0,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_on_call_stays_listed_is_woken_by_a_match_that_wants_it_and_arrives_again() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let accounts = Accounts::new(Arc::clone(&store));
    accounts.register("alice").await.unwrap();
    accounts.register("bob").await.unwrap();
    let server = cardroom_server::Server::new(Config {
        admin_token: Some(ADMIN.into()),
        accounts: Some(accounts),
        ..Config::default()
    });
    let host = server.host();
    let server = TestServer::serve(server).await;
    let channel = server.channel().await;
    let mut runners = RunnersClient::new(channel.clone());
    let (_alice, mut waiting) =
        play_as(channel.clone(), "alice", "alice", Some(ADMIN)).await.unwrap();
    eventually("alice waits", || async { host.lobby().contains_key("alice").then_some(()) }).await;

    // Her runner puts her on call: her waiting stream ends, and the lobby still lists her.
    let on_call = |bot: &str| with(pb::OnCallRequest { bot: bot.into() }, Some(ADMIN));
    let refused = runners.on_call(with(pb::OnCallRequest { bot: "alice".into() }, None)).await;
    assert_refused("no token", refused, Code::Unauthenticated, "needs its admin token");
    let mut call = runners.on_call(on_call("alice")).await.unwrap().into_inner();
    assert_eq!(call.message().await.unwrap(), Some(pb::OnCallUpdate { woken: false }));
    let ended = waiting.message().await.unwrap_err();
    assert_eq!(ended.code(), Code::Unavailable);
    assert!(ended.message().contains("was idle"), "{ended:?}");
    assert_eq!(host.lobby().get("alice"), Some(&1), "listed while on call");

    // A match that wants her wakes her, and waits for her to join.
    let (_bob, _bob_waiting) = play_as(channel.clone(), "bob", "bob", Some(ADMIN)).await.unwrap();
    eventually("bob waits", || async { host.lobby().contains_key("bob").then_some(()) }).await;
    let not_yet = host.start(duel()).await.map(|started| started.match_id);
    assert!(format!("{not_yet:?}").contains("on call"), "{not_yet:?}");
    assert_eq!(call.message().await.unwrap(), Some(pb::OnCallUpdate { woken: true }));
    assert_eq!(host.lobby().get("alice"), Some(&1), "listed until she arrives");
    let (_alice, _alice_waiting) =
        play_as(channel.clone(), "alice", "alice", Some(ADMIN)).await.unwrap();
    let started =
        eventually("the match, once she has arrived", || async { host.start(duel()).await.ok() })
            .await;

    // Once she has arrived, her call (still open) lists her no more; playing, she cannot go on
    // call.
    assert!(!host.lobby().contains_key("alice"), "seated, she waits nowhere");
    drop(call);
    let refused = runners.on_call(on_call("alice")).await;
    assert_refused("a bot in a match", refused, Code::FailedPrecondition, "not idle");
    drop(started);
    server.stop().await.unwrap();
}
