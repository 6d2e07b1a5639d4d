//! The `cardroom` binary's record tools, run as a user runs them.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::process::{Command, Output};

use cardroom_games::twenty_two::{Action, Cards, Options, State};
use cardroom_games::{AnyRecord, Card};

mod support;

fn cardroom(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardroom")).args(args).output().expect("cardroom runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A Twenty-Two match played with the first legal action, `steps` actions long (or to the end).
fn played(steps: usize) -> State {
    let mut state = State::new(Options::default(), 4, 21).unwrap();
    for _ in 0..steps {
        let Some(seat) = state.to_act() else { break };
        let action = state.legal_actions()[0];
        state.apply(seat, action).unwrap();
    }
    state
}

fn write_record(dir: &tempfile::TempDir, name: &str, state: &State) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, AnyRecord::TwentyTwo(state.record().unwrap()).to_json()).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn replay_prints_the_transcript_and_the_standings() {
    let dir = tempfile::tempdir().unwrap();
    let state = played(usize::MAX);
    let file = write_record(&dir, "match.json", &state);
    let output = cardroom(&["replay", &file]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("dealer draw:"), "{text}");
    assert!(text.contains("seat 1 exchanges nothing") || text.contains("exchanges nothing"));
    assert!(text.contains("final standings:\n  1. "), "{text}");

    // What a seat said beside its action (`Act.comment`) is printed under it.
    let mut commented = state.record().unwrap();
    let text = "keeping the low cards".to_owned();
    commented.comments = vec![cardroom_games::Comment { action: 1, text }];
    let path = dir.path().join("commented.json");
    std::fs::write(&path, AnyRecord::TwentyTwo(commented.clone()).to_json()).unwrap();
    let output = cardroom(&["replay", &path.display().to_string()]);
    let printed = stdout(&output);
    let second = commented.actions[1];
    let under = format!("{} {}\n    says: \"keeping the low cards\"\n", second.seat, second.action);
    assert!(printed.contains(&under), "{printed}");
    assert_eq!(printed.matches("says:").count(), 1, "{printed}");

    let output = cardroom(&["replay", &file, "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["game"], "twenty_two");
    assert_eq!(json["over"], true);
    assert_eq!(json["standings"], serde_json::to_value(state.outcome().unwrap()).unwrap());
    assert_eq!(json["final"], serde_json::to_value(state.public_view()).unwrap());
    assert_eq!(json["actions"], state.record().unwrap().actions.len());
}

/// `replay --text`: each turn as the text harness gave it to its seat (issue 46), then the
/// action taken, by its number in that list and its words.
#[test]
fn replay_text_prints_each_turn_as_its_seat_read_it() {
    let dir = tempfile::tempdir().unwrap();
    let state = played(usize::MAX);
    let file = write_record(&dir, "match.json", &state);
    let output = cardroom(&["replay", &file, "--text"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let actions = &state.record().unwrap().actions;
    assert_eq!(text.matches("--- turn ").count(), actions.len(), "{text}");
    assert_eq!(text.matches("Your turn. Legal actions:").count(), actions.len(), "{text}");
    for (turn, recorded) in text.split("--- turn ").skip(1).zip(actions) {
        assert!(turn.contains(&format!("{} (you)", recorded.seat)), "{turn}");
        let answer = turn.lines().find_map(|l| l.strip_prefix("> ")).unwrap();
        let (number, words) = answer.split_once(". ").unwrap();
        assert_eq!(words, recorded.action.to_string(), "{turn}");
        assert!(turn.contains(&format!("\n{number}. {words}\n")), "listed so: {turn}");
    }
    assert!(text.contains("--- the end"), "{text}");
}

#[test]
fn legal_lists_the_actions_of_the_seat_to_act() {
    let dir = tempfile::tempdir().unwrap();
    let state = played(6);
    let file = write_record(&dir, "partial.json", &state);
    let output = cardroom(&["legal", &file, "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["to_act"], state.to_act().unwrap().0);
    assert_eq!(json["legal_actions"], serde_json::to_value(state.legal_actions()).unwrap());

    let text = stdout(&cardroom(&["legal", &file]));
    let seat = state.to_act().unwrap();
    assert!(
        text.starts_with(&format!("{seat} to act, {} legal actions:", state.legal_actions().len()))
    );
    assert!(text.contains(&format!("    0  {}", state.legal_actions()[0])), "{text}");

    let over = write_record(&dir, "over.json", &played(usize::MAX));
    assert!(stdout(&cardroom(&["legal", &over])).contains("the match is over"));
}

#[test]
fn a_bad_record_names_the_first_illegal_action_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let state = played(8);
    let mut record = state.record().unwrap();
    // Action 5 is a play during the tricks: make seat play a card it cannot hold twice.
    let ace: Card = "AS".parse().unwrap();
    record.actions[5].action = Action::Play(Cards::new(&[ace, ace]).unwrap());
    let path = dir.path().join("bad.json");
    std::fs::write(&path, AnyRecord::TwentyTwo(record).to_json()).unwrap();
    for command in [&["replay"][..], &["legal"], &["replay", "--text"]] {
        let output = cardroom(&[command, &[path.to_str().unwrap()]].concat());
        assert_eq!(output.status.code(), Some(1));
        let error = stderr(&output);
        assert!(error.contains("action 5 ("), "{error}");
        assert!(error.contains("is illegal: TT-11"), "{error}");
    }

    std::fs::write(&path, "{\"game\": \"poker\"}").unwrap();
    let error = stderr(&cardroom(&["replay", path.to_str().unwrap()]));
    assert!(error.contains("is not a match record"), "{error}");
    let error = stderr(&cardroom(&["replay", "/no/such/file.json"]));
    assert!(error.contains("reading the record /no/such/file.json"), "{error}");
}

/// `cardroom serve` ends running matches as aborted on SIGTERM, writes their records and exits
/// cleanly.
#[test]
fn serve_shuts_down_gracefully_on_sigterm() {
    use cardroom_proto::pb;

    let dir = tempfile::tempdir().unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(["serve", "--addr", "127.0.0.1:0", "--record-dir", dir.path().to_str().unwrap()])
        .args(["--shutdown-grace-ms", "200"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The server says where it listens once it does: its first line on stdout.
    let addr = support::listening_address(&mut server);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let match_id = runtime.block_on(async {
        let client = pb::cardroom_client::CardroomClient::connect(format!("http://{addr}")).await;
        let mut client = client.expect("the server accepts connections");
        let request = pb::CreateMatchRequest {
            game: pb::Game::TwentyTwo as i32,
            seats: 3,
            seed: Some(1),
            ..Default::default()
        };
        client.create_match(request).await.unwrap().into_inner().match_id
    });
    let status = Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
    assert!(status.success());
    let exit = server.wait().unwrap();
    assert!(exit.success(), "{exit:?}");
    let record = std::fs::read_to_string(dir.path().join(format!("{match_id}.json"))).unwrap();
    assert!(matches!(AnyRecord::from_json(&record).unwrap(), AnyRecord::TwentyTwo(_)));
}

/// `cardroom serve --http-addr` serves the web pages beside gRPC: the server's page reads its
/// figures over gRPC, an unknown path is a 404, and SIGTERM stops both.
#[test]
fn serve_serves_the_pages_beside_grpc_and_stops_both() {
    use std::io::{BufRead as _, BufReader, Read as _, Write as _};

    let mut server = Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(["serve", "--addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0"])
        .args(["--shutdown-grace-ms", "200"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let grpc = lines.next().unwrap().unwrap();
    assert!(grpc.starts_with("cardroom listening on 127.0.0.1:"), "{grpc}");
    let pages = lines.next().unwrap().unwrap();
    let addr = pages.strip_prefix("cardroom pages on http://").unwrap_or_else(|| panic!("{pages}"));
    let get = |path: &str| {
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    };
    let page = get("/server");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains(r#"<dd class="running">0</dd>"#), "{page}");
    assert!(get("/no/such/page").starts_with("HTTP/1.1 404"));
    let status = Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
    assert!(status.success());
    let exit = server.wait().unwrap();
    assert!(exit.success(), "{exit:?}");
}

/// `cardroom serve --tls-cert --tls-key` prints its listening line and serves TLS: a client that
/// trusts the test's CA creates a match over `https://`.
#[test]
fn serve_speaks_tls_with_a_certificate_and_key() {
    use cardroom_proto::pb;
    use tonic::transport::{Certificate, ClientTlsConfig, Endpoint};

    let dir = tempfile::tempdir().unwrap();
    let certificates = cardroom_tests::TestCertificates::new();
    let files = certificates.write(dir.path());
    let mut server = Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(["serve", "--addr", "127.0.0.1:0", "--record-dir", dir.path().to_str().unwrap()])
        .arg("--tls-cert")
        .arg(&files.cert)
        .arg("--tls-key")
        .arg(&files.key)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let addr: std::net::SocketAddr = support::listening_address(&mut server).parse().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let created = runtime.block_on(async {
        let tls =
            ClientTlsConfig::new().ca_certificate(Certificate::from_pem(&certificates.ca_pem));
        let endpoint =
            Endpoint::from_shared(format!("https://{addr}")).unwrap().tls_config(tls).unwrap();
        let channel = endpoint.connect().await.expect("the server accepts TLS connections");
        let request = pb::CreateMatchRequest {
            game: pb::Game::TwentyTwo as i32,
            seats: 2,
            seed: Some(1),
            ..Default::default()
        };
        pb::cardroom_client::CardroomClient::new(channel).create_match(request).await
    });
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(created.unwrap().into_inner().seats.len(), 2);
}

/// A certificate without its key, or a key that is not one, stops `cardroom serve` before it
/// listens, saying what is wrong.
#[test]
fn serve_refuses_a_half_or_broken_tls_identity() {
    let dir = tempfile::tempdir().unwrap();
    let files = cardroom_tests::TestCertificates::new().write(dir.path());
    let cert = files.cert.to_str().unwrap();

    let output = cardroom(&["serve", "--addr", "127.0.0.1:0", "--tls-cert", cert]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("--tls-key"), "{}", stderr(&output));
    assert!(stdout(&output).is_empty(), "{}", stdout(&output));

    let output =
        cardroom(&["serve", "--addr", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", cert]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("not a PEM private key"), "{}", stderr(&output));
    assert!(stdout(&output).is_empty(), "{}", stdout(&output));
}
