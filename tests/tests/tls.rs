//! The server over TLS, end to end: SDK bots and an organizer play whole matches over `https://`
//! with a certificate each test makes; health and reflection answer over TLS; a plaintext
//! client and a client that does not trust the certificate are refused cleanly, and the server
//! serves on.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use cardroom_example_bots::random::RandomBot;
use cardroom_proto::pb;
use cardroom_sdk::{
    AnyBot, ConnectConfig, GameKind, MatchSpec, Organizer, Played, RunError, TlsOptions, play_any,
};
use cardroom_server::Config;
use cardroom_tests::{PATIENCE, TestCertificates, TestServer, call_raw, next_raw};
use prost::Message;
use prost::bytes::Bytes;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint};
use tonic_reflection::pb::v1 as reflection;

/// A server with a fresh certificate, and the CA file that trusts it.
async fn tls_server() -> (TestServer, TestCertificates, tempfile::TempDir, TlsOptions) {
    let certificates = TestCertificates::new();
    let dir = tempfile::tempdir().unwrap();
    let files = certificates.write(dir.path());
    let server =
        TestServer::start(Config { tls: Some(certificates.identity()), ..Config::default() }).await;
    (server, certificates, dir, TlsOptions::with_ca_file(files.ca))
}

/// A TLS channel to `url` that trusts `ca_pem`.
async fn tls_channel(url: &str, ca_pem: &str) -> Channel {
    let tls = ClientTlsConfig::new().ca_certificate(Certificate::from_pem(ca_pem));
    Endpoint::from_shared(url.to_owned()).unwrap().tls_config(tls).unwrap().connect().await.unwrap()
}

/// A two-seat Twenty-Two match dealt by `seed`.
fn two_seats(seed: u64) -> MatchSpec {
    MatchSpec {
        game: GameKind::TwentyTwo,
        options_json: String::new(),
        seats: 2,
        seed: Some(seed),
        clock: None,
        lobby_bots: Vec::new(),
    }
}

/// Creates a two-seat Twenty-Two match through `organizer` and plays it with two SDK bots
/// over `server` (an `https://` URL) trusting `tls`, and checks that both saw it end as the
/// server says it did.
async fn play_match(organizer: &mut Organizer, server: &str, tls: &TlsOptions, seed: u64) {
    let created = organizer.create_match(&two_seats(seed)).await.unwrap();
    let bots: Vec<_> = created
        .tokens
        .iter()
        .enumerate()
        .map(|(seat, token)| {
            let config = ConnectConfig::with_token(server, token.clone())
                .named(format!("tls-{seat}"))
                .with_tls(tls.clone());
            tokio::spawn(async move {
                play_any(&config, move |_| AnyBot::TwentyTwo(Box::new(RandomBot::new(seat as u64))))
                    .await
            })
        })
        .collect();
    let mut played: Vec<Played> = Vec::new();
    for bot in bots {
        let joined = tokio::time::timeout(PATIENCE, bot).await.expect("the match ends in time");
        played.push(joined.unwrap().unwrap());
    }
    let status = organizer.status(&created.match_id).await.unwrap();
    assert!(status.over && !status.aborted);
    for bot in &played {
        assert!(bot.decisions > 0);
        assert!(bot.errors.is_empty(), "{:?}", bot.errors);
        assert_eq!(bot.end.standings, status.standings);
    }
    let record = organizer.record(&created.match_id).await.unwrap();
    assert!(record.contains("\"twenty_two\""), "{record}");
}

#[tokio::test]
async fn sdk_bots_and_an_organizer_play_a_whole_match_over_tls() {
    let (server, _certificates, _dir, tls) = tls_server().await;
    let url = server.https_url();
    let mut organizer = Organizer::with_tls(&url, &tls).unwrap();
    play_match(&mut organizer, &url, &tls, 7).await;

    // The certificate names `localhost` too: a client reaching 127.0.0.1 may ask for that name.
    let by_name = TlsOptions { server_name: Some("localhost".into()), ..tls.clone() };
    let mut organizer = Organizer::with_tls(&url, &by_name).unwrap();
    play_match(&mut organizer, &url, &by_name, 8).await;
    server.stop().await.unwrap();
}

#[tokio::test]
async fn health_and_reflection_answer_over_tls() {
    let (server, certificates, _dir, _tls) = tls_server().await;
    let channel = tls_channel(&server.https_url(), &certificates.ca_pem).await;

    let mut health = tonic_health::pb::health_client::HealthClient::new(channel.clone());
    let request =
        tonic_health::pb::HealthCheckRequest { service: "cardroom.v1.Cardroom".to_owned() };
    let status = health.check(request).await.unwrap().into_inner().status;
    assert_eq!(status, tonic_health::pb::health_check_response::ServingStatus::Serving as i32);

    let request = reflection::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(reflection::server_reflection_request::MessageRequest::ListServices(
            String::new(),
        )),
    };
    let requests = tokio_stream::once(Bytes::from(request.encode_to_vec()));
    let method = "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo";
    let mut responses = call_raw(channel, method, requests).await.unwrap();
    let response = next_raw(&mut responses).await.unwrap().unwrap();
    let response = reflection::ServerReflectionResponse::decode(response).unwrap();
    let Some(reflection::server_reflection_response::MessageResponse::ListServicesResponse(list)) =
        response.message_response
    else {
        panic!("not a list of services: {response:?}");
    };
    let names: Vec<&str> = list.service.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"cardroom.v1.Cardroom"), "{names:?}");
    server.stop().await.unwrap();
}

#[tokio::test]
async fn a_plaintext_client_to_the_tls_port_fails_and_the_server_serves_on() {
    let (server, _certificates, _dir, tls) = tls_server().await;

    // A plaintext HTTP/2 client: its preface is not a TLS ClientHello, so the server drops the
    // connection; the call fails, within the test's patience rather than hanging.
    let plaintext = async {
        let channel = Endpoint::from_shared(server.url())
            .unwrap()
            .connect()
            .await
            .map_err(|e| e.to_string())?;
        let mut client = pb::cardroom_client::CardroomClient::new(channel);
        client.list_games(pb::ListGamesRequest {}).await.map_err(|e| e.to_string())
    };
    let outcome = tokio::time::timeout(PATIENCE, plaintext).await.expect("no hang");
    assert!(outcome.is_err(), "a plaintext call to a TLS port succeeded");

    // The SDK's runner, told `http://`, does not get a seat either.
    let mut organizer = Organizer::with_tls(&server.https_url(), &tls).unwrap();
    let spec = two_seats(1);
    let created = organizer.create_match(&spec).await.unwrap();
    let mut plain = ConnectConfig::with_token(server.url(), created.tokens[0].clone());
    plain.backoff.attempts = 2;
    let refused = play_any(&plain, |_| AnyBot::TwentyTwo(Box::new(RandomBot::new(0)))).await;
    assert!(matches!(refused, Err(RunError::GaveUp { .. })), "{refused:?}");

    // The server is unharmed: over TLS, a whole match is played after it.
    let mut organizer = Organizer::with_tls(&server.https_url(), &tls).unwrap();
    play_match(&mut organizer, &server.https_url(), &tls, 9).await;
    server.stop().await.unwrap();
}

#[tokio::test]
async fn a_client_that_does_not_trust_the_certificate_is_told_why_at_once() {
    let (server, _certificates, _dir, tls) = tls_server().await;
    let url = server.https_url();
    let mut organizer = Organizer::with_tls(&url, &tls).unwrap();
    let spec = two_seats(1);
    let created = organizer.create_match(&spec).await.unwrap();

    // Another CA: the server's certificate has an unknown issuer. The runner stops at its first
    // attempt instead of backing off twenty times.
    let other_dir = tempfile::tempdir().unwrap();
    let other = TestCertificates::new().write(other_dir.path());
    let config = ConnectConfig::with_token(&url, created.tokens[0].clone())
        .with_tls(TlsOptions::with_ca_file(&other.ca));
    let refused = tokio::time::timeout(
        PATIENCE,
        play_any(&config, |_| AnyBot::TwentyTwo(Box::new(RandomBot::new(0)))),
    )
    .await
    .expect("refused at once");
    let Err(error @ RunError::Untrusted { .. }) = refused else {
        panic!("not refused as untrusted: {refused:?}");
    };
    let message = error.to_string();
    assert!(message.contains("UnknownIssuer") && message.contains("--ca-file"), "{message}");

    // The system's roots do not know the test CA either.
    let mut untrusting = Organizer::new(&url).unwrap();
    let refused = untrusting.create_match(&spec).await.unwrap_err();
    assert!(matches!(refused, RunError::Untrusted { .. }), "{refused}");

    // The right CA, but a name the certificate does not carry.
    let wrong_name = TlsOptions { server_name: Some("cardroom.invalid".into()), ..tls.clone() };
    let refused =
        Organizer::with_tls(&url, &wrong_name).unwrap().create_match(&spec).await.unwrap_err();
    assert!(refused.to_string().contains("not valid for name \"cardroom.invalid\""), "{refused}");

    // None of it harmed the server: the seat is still there for a bot that trusts it.
    let seat_0 = config.with_tls(tls.clone());
    let seat_1 = ConnectConfig::with_token(&url, created.tokens[1].clone()).with_tls(tls);
    let both = async {
        tokio::join!(
            play_any(&seat_0, |_| AnyBot::TwentyTwo(Box::new(RandomBot::new(0)))),
            play_any(&seat_1, |_| AnyBot::TwentyTwo(Box::new(RandomBot::new(1)))),
        )
    };
    let (a, b) = tokio::time::timeout(PATIENCE, both).await.expect("the match ends in time");
    assert_eq!(a.unwrap().end.standings, b.unwrap().end.standings);
    server.stop().await.unwrap();
}
