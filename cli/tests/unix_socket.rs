//! `cardroom serve --unix PATH`: the server on a Unix socket beside its TCP port, as hosted bots
//! reach it from their sandbox. The stock `random` bot and the Python example bot, given only
//! `--server unix:PATH`, meet in the queue and finish their matches; a stale socket file is
//! replaced and a live one refused; the failed-authentication throttle counts a socket peer by
//! its process; the file is gone after shutdown.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::io::{BufRead as _, BufReader};
use std::os::unix::fs::PermissionsExt as _;
use std::process::{Command, Stdio};

use cardroom_proto::pb;
use cardroom_sdk::TlsOptions;
use cardroom_tests::{PATIENCE, PythonBot, eventually, python};
use tonic::Code;

mod support;

use support::{Reaped, StockBot, example_bot};

/// Matches the two bots play against each other.
const MATCHES: u64 = 3;

#[test]
fn stock_bots_play_over_the_unix_socket_and_the_file_goes_with_the_server() {
    python(); // Fails with instructions when CARDROOM_PYTHON is missing.
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("cardroom.sock");
    let records = dir.path().join("records");
    // A server that died without removing its socket: the file is there, nothing listens.
    drop(std::os::unix::net::UnixListener::bind(&socket).unwrap());
    assert!(socket.exists());

    let serve = |socket: &std::path::Path| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_cardroom"));
        command
            .args(["serve", "--addr", "127.0.0.1:0", "--admin-token", "secret", "--open-queue"])
            .args(["--auth-failures-per-peer", "2", "--shutdown-grace-ms", "200", "--unix"])
            .arg(socket)
            .arg("--record-dir")
            .arg(&records)
            .env("RUST_LOG", "warn");
        command
    };
    let mut server =
        Reaped(serve(&socket).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap());
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let tcp = lines.next().unwrap().unwrap();
    let tcp = tcp.strip_prefix("cardroom listening on ").unwrap_or_else(|| panic!("{tcp}"));
    let unix = lines.next().unwrap().unwrap();
    let url = format!("unix:{}", socket.display());
    assert_eq!(unix, format!("cardroom listening on {url}"));
    let mode = std::fs::metadata(&socket).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o660, "the socket file's mode");

    // A second server on the same socket is refused while the first listens on it.
    let second = serve(&socket).output().unwrap();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "a second server started: {stderr}");
    assert!(stderr.contains("already listens on"), "{stderr}");

    let matches = MATCHES.to_string();
    let args = ["--server", &url, "--queue-game", "twenty_two", "--matches", &matches];
    let random = StockBot::start("random over the Unix socket", &example_bot("random"), &args);
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let python_bot = PythonBot::spawn("tt_bot.py", &args);
        let stdout = tokio::time::timeout(PATIENCE, python_bot.finish()).await.unwrap();
        let over = stdout.lines().filter(|line| line.starts_with("match ")).count();
        assert_eq!(over as u64, MATCHES, "the Python bot's matches:\n{stdout}");
        eventually("the random bot's matches", || async {
            if random.matches() == MATCHES {
                return Some(());
            }
            assert!(!random.exited(), "{} stopped early:\n{}", random.label, random.tail());
            None
        })
        .await;
        eventually("a record of every match", || async {
            let written = std::fs::read_dir(&records).ok()?.count() as u64;
            (written == MATCHES).then_some(())
        })
        .await;

        // The throttle counts this process as the socket's peer: its wrong admin tokens make it
        // wait, naming it, while a peer over TCP does not.
        let stats = |channel: tonic::transport::Channel| async move {
            let mut client = pb::cardroom_client::CardroomClient::new(channel);
            let mut request = tonic::Request::new(pb::GetStatsRequest::default());
            request.metadata_mut().insert("authorization", "Bearer wrong".parse().unwrap());
            client.get_stats(request).await.unwrap_err()
        };
        let over_unix = || cardroom_sdk::channel(&url, &TlsOptions::default()).unwrap();
        for _ in 0..3 {
            assert_eq!(stats(over_unix()).await.code(), Code::Unauthenticated);
        }
        let waits = stats(over_unix()).await;
        assert_eq!(waits.code(), Code::ResourceExhausted, "{waits:?}");
        let me = format!("process {} on the Unix socket", std::process::id());
        assert!(waits.message().contains(&me), "{waits:?}");
        let over_tcp = cardroom_sdk::channel(tcp, &TlsOptions::default()).unwrap();
        assert_eq!(stats(over_tcp).await.code(), Code::Unauthenticated);
    });

    let status = Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
    assert!(status.success());
    let exit = server.wait().unwrap();
    assert!(exit.success(), "{exit:?}");
    assert!(!socket.exists(), "the socket file outlived the server");
}
