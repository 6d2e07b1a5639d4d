//! The server's Unix socket (`Server::unix`, `serve --unix`) through the library: plaintext
//! beside a TLS port, the same matches on both, and a shutdown that drains a match played over
//! the socket before it stops serving there and removes the socket file. The stock bots over
//! the socket are in cli/tests/unix_socket.rs.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::time::Duration;

use cardroom_proto::pb;
use cardroom_sdk::{GameKind, MatchSpec, Organizer, TlsOptions};
use cardroom_server::{Config, Server, listen_unix};
use cardroom_tests::{Bot, TestCertificates, TestServer};

use pb::server_message::Message;

#[tokio::test]
async fn a_match_over_the_socket_of_a_tls_server_is_drained_at_shutdown() {
    let certificates = TestCertificates::new();
    let dir = tempfile::tempdir().unwrap();
    let files = certificates.write(dir.path());
    let path = dir.path().join("cardroom.sock");
    let config = Config {
        tls: Some(certificates.identity()),
        move_time: Duration::from_secs(10),
        ..Config::default()
    };
    let server = TestServer::serve(Server::new(config).unix(listen_unix(&path).unwrap())).await;
    // The organizer creates the match over TLS; a bot joins it over the socket, in plaintext.
    let tls = TlsOptions::with_ca_file(files.ca);
    let mut organizer = Organizer::with_tls(&server.https_url(), &tls).unwrap();
    let spec = MatchSpec {
        game: GameKind::TwentyTwo,
        options_json: String::new(),
        seats: 2,
        seed: Some(39),
        clock: None,
        lobby_bots: Vec::new(),
    };
    let created = organizer.create_match(&spec).await.unwrap();
    let url = format!("unix:{}", path.display());
    let channel = cardroom_sdk::channel(&url, &TlsOptions::default()).unwrap();
    let mut bot = Bot::with_token(channel, &created.tokens[0]).await.unwrap();
    assert!(matches!(bot.next().await.unwrap(), Some(Message::Joined(_))));

    let stopping = tokio::spawn(server.stop());
    let end = bot.until_end().await;
    assert!(end.aborted && end.reason.contains("shutting down"), "{end:?}");
    assert_eq!(bot.next().await.unwrap(), None, "the stream closes after the end");
    stopping.await.unwrap().unwrap();
    assert!(!path.exists(), "the socket file outlived the server");
}
