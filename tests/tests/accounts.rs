//! Bot accounts over real gRPC: keys issued by the admin rpcs, a registered lobby name seated
//! only on its own key (UNAUTHENTICATED without a valid one, PERMISSION_DENIED on another
//! bot's), revoked and rotated keys, and SDK bots that play on their keys and report their
//! versions.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use cardroom_example_bots::random::RandomBot;
use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_sdk::{AnyBot, BotKey, ConnectConfig, play_any};
use cardroom_server::Config;
use cardroom_store::{Accounts, SqliteStore, Store};
use cardroom_tests::{Bot, PATIENCE, TestServer};
use tonic::transport::Channel;
use tonic::{Code, Request};

const ADMIN: &str = "admin-secret";

/// A server keeping accounts in a fresh store in memory, with an admin token.
async fn server(registered_only: bool) -> TestServer {
    server_on(Arc::new(SqliteStore::in_memory().await.unwrap()), registered_only).await
}

/// A server keeping accounts in `store`, with an admin token.
async fn server_on(store: Arc<dyn Store>, registered_only: bool) -> TestServer {
    TestServer::start(Config {
        admin_token: Some(ADMIN.into()),
        accounts: Some(Accounts::new(store)),
        registered_only,
        ..Config::default()
    })
    .await
}

/// `message` with the admin token.
fn admin<T>(message: T) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert("authorization", format!("Bearer {ADMIN}").parse().unwrap());
    request
}

async fn register(client: &mut CardroomClient<Channel>, name: &str) -> String {
    let request = admin(pb::RegisterBotRequest { name: name.into() });
    client.register_bot(request).await.unwrap().into_inner().key
}

fn lobby(name: &str) -> pb::Join {
    pb::Join {
        seat: Some(pb::join::Seat::Lobby(name.into())),
        bot_name: name.into(),
        ..Default::default()
    }
}

/// The status a lobby join is refused with.
async fn refused(server: &TestServer, join: pb::Join, key: Option<&str>) -> tonic::Status {
    let opened = match key {
        Some(key) => Bot::open_with_key(server.channel().await, join, key).await,
        None => Bot::open(server.channel().await, join).await,
    };
    opened.err().expect("the join is refused")
}

#[tokio::test]
async fn a_registered_name_is_seated_only_on_its_own_valid_key() {
    seated_only_on_its_own_valid_key(server(false).await).await;
}

#[tokio::test]
async fn a_registered_name_is_seated_only_on_its_own_valid_key_on_postgres() {
    let test = "a_registered_name_is_seated_only_on_its_own_valid_key_on_postgres";
    let Some(store) = cardroom_store::testing::fresh_pg_store(test).await else { return };
    seated_only_on_its_own_valid_key(server_on(Arc::new(store), false).await).await;
}

/// Every way a lobby join is refused, or seated, on its key, over gRPC.
async fn seated_only_on_its_own_valid_key(server: TestServer) {
    let mut client = server.client().await;
    let alice = register(&mut client, "alice").await;
    let bob = register(&mut client, "bob").await;
    assert!(alice.starts_with("crk_") && alice.len() == 68, "{alice}");

    let missing = refused(&server, lobby("alice"), None).await;
    assert_eq!(missing.code(), Code::Unauthenticated, "{missing:?}");
    assert!(missing.message().contains("registered"), "{missing:?}");
    let forged = "crk_".to_owned() + &"0".repeat(64);
    let wrong = refused(&server, lobby("alice"), Some(&forged)).await;
    assert_eq!(wrong.code(), Code::Unauthenticated, "{wrong:?}");
    let borrowed = refused(&server, lobby("alice"), Some(&bob)).await;
    assert_eq!(borrowed.code(), Code::PermissionDenied, "{borrowed:?}");
    // A key claiming an unregistered name is still checked, and still its own bot's.
    let elsewhere = refused(&server, lobby("mallory"), Some(&bob)).await;
    assert_eq!(elsewhere.code(), Code::PermissionDenied, "{elsewhere:?}");
    // A registered name shown as `bot_name` from an unregistered lobby name needs its key too.
    let posing = pb::Join { bot_name: "alice".into(), ..lobby("mallory") };
    assert_eq!(refused(&server, posing, None).await.code(), Code::Unauthenticated);
    // Unregistered names keep waiting without a key; alice waits on hers.
    Bot::open(server.channel().await, lobby("guest")).await.unwrap();
    Bot::open_with_key(server.channel().await, lobby("alice"), &alice).await.unwrap();

    // Revoked: the old key is refused; rotated: the new one works, the old one never again.
    let revoked = client.revoke_bot(admin(pb::RevokeBotRequest { name: "bob".into() })).await;
    assert_eq!(revoked.unwrap().into_inner().status, pb::BotStatus::Revoked as i32);
    let status = refused(&server, lobby("bob"), Some(&bob)).await;
    assert_eq!(status.code(), Code::Unauthenticated, "{status:?}");
    assert!(status.message().contains("revoked"), "{status:?}");
    let rotated = client.rotate_bot_key(admin(pb::RotateBotKeyRequest { name: "bob".into() }));
    let rotated = rotated.await.unwrap().into_inner();
    assert_eq!(rotated.bot.unwrap().status, pb::BotStatus::Active as i32);
    assert_eq!(refused(&server, lobby("bob"), Some(&bob)).await.code(), Code::Unauthenticated);
    Bot::open_with_key(server.channel().await, lobby("bob"), &rotated.key).await.unwrap();
}

#[tokio::test]
async fn the_account_rpcs_need_the_admin_token_and_say_what_is_wrong() {
    let server = server(false).await;
    let mut client = server.client().await;
    let anonymous = client.register_bot(pb::RegisterBotRequest { name: "x".into() }).await;
    assert_eq!(anonymous.unwrap_err().code(), Code::Unauthenticated);
    let listed = client.list_bots(pb::ListBotsRequest::default()).await;
    assert_eq!(listed.unwrap_err().code(), Code::Unauthenticated);
    register(&mut client, "alice").await;
    let again = client.register_bot(admin(pb::RegisterBotRequest { name: "alice".into() })).await;
    assert_eq!(again.unwrap_err().code(), Code::AlreadyExists);
    let bad = client.register_bot(admin(pb::RegisterBotRequest { name: "a b".into() })).await;
    assert_eq!(bad.unwrap_err().code(), Code::InvalidArgument);
    let unknown = client.revoke_bot(admin(pb::RevokeBotRequest { name: "nobody".into() })).await;
    assert_eq!(unknown.unwrap_err().code(), Code::NotFound);
    let unknown = client.rotate_bot_key(admin(pb::RotateBotKeyRequest { name: "nobody".into() }));
    assert_eq!(unknown.await.unwrap_err().code(), Code::NotFound);

    // A server without a store, or without an admin token, serves no account rpcs.
    for config in [
        Config { admin_token: Some(ADMIN.into()), ..Config::default() },
        Config {
            accounts: Some(Accounts::new(Arc::new(SqliteStore::in_memory().await.unwrap()))),
            ..Config::default()
        },
    ] {
        let server = TestServer::start(config).await;
        let mut client = server.client().await;
        let status = client.list_bots(admin(pb::ListBotsRequest::default())).await.unwrap_err();
        assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    }
}

#[tokio::test]
async fn a_server_for_registered_bots_only_refuses_other_lobby_names() {
    let server = server(true).await;
    let mut client = server.client().await;
    let alice = register(&mut client, "alice").await;
    let status = refused(&server, lobby("guest"), None).await;
    assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");
    assert!(status.message().contains("registered bots only"), "{status:?}");
    Bot::open_with_key(server.channel().await, lobby("alice"), &alice).await.unwrap();
    // Seat tokens are their own credential: an organizer's seats need no account.
    let request =
        pb::CreateMatchRequest { game: pb::Game::GinRummy as i32, seats: 2, ..Default::default() };
    let created = client.create_match(admin(request)).await.unwrap().into_inner();
    Bot::with_token(server.channel().await, &created.seats[0].token).await.unwrap();
}

/// SDK bots on their keys: a registered bot and a guest wait in the lobby, the organizer seats
/// both, the match is played, the registered bot's seat carries its registered name, and the
/// version it reported is kept with its account.
#[tokio::test]
async fn sdk_bots_play_on_their_keys_and_their_versions_are_kept() {
    let server = server(false).await;
    let mut client = server.client().await;
    let key = register(&mut client, "alice").await;
    let alice = ConnectConfig::lobby(server.url(), "alice")
        .named("alice-dev")
        .with_key(BotKey::new(&key).unwrap())
        .with_version("v1.0.0");
    let guest = ConnectConfig::lobby(server.url(), "guest").named("guest");
    let bot = |seed| move |_| AnyBot::TwentyTwo(Box::new(RandomBot::new(seed)));
    let alice_plays = tokio::spawn(async move { play_any(&alice, bot(1)).await });
    let guest_plays = tokio::spawn(async move { play_any(&guest, bot(2)).await });
    let request = pb::CreateMatchRequest {
        game: pb::Game::TwentyTwo as i32,
        seats: 2,
        seed: Some(5),
        lobby_bots: vec!["alice".into(), "guest".into()],
        ..Default::default()
    };
    let created = tokio::time::timeout(PATIENCE, async {
        loop {
            match client.create_match(admin(request.clone())).await {
                Ok(created) => break created.into_inner(),
                // Until both wait in the lobby: refused, never half-done, so retried.
                Err(status) => assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}"),
            }
            tokio::task::yield_now().await;
        }
    })
    .await
    .unwrap();
    let (alice, guest) = tokio::join!(alice_plays, guest_plays);
    let (alice, guest) = (alice.unwrap().unwrap(), guest.unwrap().unwrap());
    assert_eq!(alice.end.standings, guest.end.standings);
    assert_eq!((alice.end.seat.0, guest.end.seat.0), (0, 1));
    assert_eq!(alice.start.match_id, created.match_id);
    let info = client.get_match(pb::GetMatchRequest { match_id: created.match_id }).await;
    let names: Vec<String> =
        info.unwrap().into_inner().seats.into_iter().map(|s| s.bot_name).collect();
    assert_eq!(names, ["alice", "guest"], "a registered bot plays under its registered name");

    let bots =
        client.list_bots(admin(pb::ListBotsRequest::default())).await.unwrap().into_inner().bots;
    assert_eq!(bots.len(), 1);
    // Anyone may read a bot's account, without its key.
    let public = client.get_bot(pb::GetBotRequest { name: "alice".into() }).await.unwrap();
    assert_eq!(public.into_inner(), bots[0]);
    let unknown = client.get_bot(pb::GetBotRequest { name: "guest".into() }).await.unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);
    let versions: Vec<&str> = bots[0].versions.iter().map(|v| v.version.as_str()).collect();
    assert_eq!((bots[0].name.as_str(), versions), ("alice", vec!["v1.0.0"]));
}

#[tokio::test]
async fn replies_stay_bounded_however_many_versions_names_and_bytes_a_client_sends() {
    let server = server(false).await;
    let mut client = server.client().await;
    let key = register(&mut client, "alice").await;
    // A new version at every join: the account keeps its last ones and a count.
    for i in 0..40 {
        let join = pb::Join { bot_version: format!("build-{i}"), ..lobby("alice") };
        let bot = Bot::open_with_key(server.channel().await, join, &key).await.unwrap();
        drop(bot);
    }
    let bot = client.get_bot(pb::GetBotRequest { name: "alice".into() }).await.unwrap();
    let bot = bot.into_inner();
    assert_eq!(bot.versions.len(), cardroom_store::VERSIONS_KEPT);
    assert_eq!(bot.versions_forgotten, 40 - cardroom_store::VERSIONS_KEPT as u64);
    assert_eq!(bot.versions.last().unwrap().version, "build-39");
    // A version is short printable text: an escape sequence is refused, not stored.
    let join = pb::Join { bot_version: "v1\n\u{1b}[31mred".into(), ..lobby("alice") };
    let status = refused(&server, join, Some(&key)).await;
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    assert!(status.message().contains("control character"), "{status:?}");
    // An empty lobby name is malformed, whatever key comes with it.
    let status = refused(&server, lobby(""), Some(&key)).await;
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    // A message repeats at most 64 bytes of what was sent.
    let long = "x".repeat(5_000);
    let status = client.register_bot(admin(pb::RegisterBotRequest { name: long })).await;
    let status = status.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    assert!(status.message().len() < 200, "{} bytes: {status:?}", status.message().len());
    // Lists come in pages of at most 200.
    for i in 0..240 {
        register(&mut client, &format!("bot{i:03}")).await;
    }
    let mut names = Vec::new();
    let mut page_token = String::new();
    loop {
        let request = pb::ListBotsRequest { page_size: 50, page_token };
        let page = client.list_bots(admin(request)).await.unwrap().into_inner();
        assert!(page.bots.len() <= 50);
        names.extend(page.bots.into_iter().map(|b| b.name));
        if page.next_page_token.is_empty() {
            break;
        }
        page_token = page.next_page_token;
    }
    assert_eq!(names.len(), 241);
    assert!(names.windows(2).all(|w| w[0] < w[1]), "by name, each once");
    let request = pb::ListBotsRequest { page_size: 10_000, page_token: String::new() };
    let page = client.list_bots(admin(request)).await.unwrap().into_inner();
    assert_eq!((page.bots.len(), page.next_page_token.is_empty()), (200, false));
}
