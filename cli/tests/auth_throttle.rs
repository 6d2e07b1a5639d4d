//! Guessing keys is not free: `cardroom serve --auth-failures-per-peer 5` answers a peer's sixth
//! wrong key within the minute (on `Play` or `ListFailures`), and every attempt after it, with
//! RESOURCE_EXHAUSTED and the time to wait (`grpc-retry-pushback-ms`), before any key is looked
//! at; the burst is logged once with the peer's address. The bot pages' key form is a door
//! too, and counts in the same throttle.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::io::{BufRead as _, BufReader};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use cardroom_proto::pb;
use cardroom_tests::{Bot, connect, eventually};
use tonic::Code;

mod support;

use support::{Reaped, StockBot, add_bot, example_bot, listening_address};

#[test]
fn a_peer_that_keeps_guessing_keys_waits_and_is_logged_once() {
    let dir = tempfile::tempdir().unwrap();
    let store = format!("sqlite:{}", dir.path().join("store.db").display());
    let key = add_bot(&store, "ann");
    let mut server = Reaped(
        Command::new(env!("CARGO_BIN_EXE_cardroom"))
            .args(["serve", "--addr", "127.0.0.1:0", "--store", &store])
            .args(["--auth-failures-per-peer", "5", "--record-dir"])
            .arg(dir.path().join("records"))
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let url = format!("http://{}", listening_address(&mut server));
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let stderr = server.stderr.take().unwrap();
    let kept = Arc::clone(&log);
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            kept.lock().unwrap().push(line);
        }
    });
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let join = || pb::Join {
            seat: Some(pb::join::Seat::Lobby("ann".into())),
            bot_name: "ann".into(),
            ..Default::default()
        };
        let wrong = format!("key=crk_{}", "0".repeat(64));
        for attempt in 1..=5 {
            let refused = Bot::open_with_key(connect(&url).await, join(), &wrong).await;
            let status = refused.err().unwrap();
            assert_eq!(status.code(), Code::Unauthenticated, "attempt {attempt}: {status:?}");
        }
        // The sixth failure spends the quota; from then on every attempt waits, the right key's
        // too, and a read that checks keys as well.
        let status = Bot::open_with_key(connect(&url).await, join(), &wrong).await.err().unwrap();
        assert_eq!(status.code(), Code::Unauthenticated, "{status:?}");
        for _ in 0..20 {
            let status = Bot::open_with_key(connect(&url).await, join(), &key).await.err().unwrap();
            assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
            assert!(status.message().contains("retry in"), "{status:?}");
            let ms = status.metadata().get("grpc-retry-pushback-ms").unwrap();
            assert!(ms.to_str().unwrap().parse::<u64>().unwrap() > 0);
        }
        let mut client = pb::cardroom_client::CardroomClient::new(connect(&url).await);
        let mut request = tonic::Request::new(pb::ListFailuresRequest {
            ladder: "none".into(),
            bot: "ann".into(),
            limit: 0,
        });
        request.metadata_mut().insert("authorization", format!("Bearer {wrong}").parse().unwrap());
        let status = client.list_failures(request).await.unwrap_err();
        assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
        // One line for the burst, naming the peer.
        let line = eventually("the burst logged", || async {
            let log = log.lock().unwrap();
            log.iter().find(|l| l.contains("failed authentications over the limit")).cloned()
        })
        .await;
        assert!(line.contains("127.0.0.1"), "{line}");
        let bursts = log.lock().unwrap().iter().filter(|l| l.contains("over the limit")).count();
        assert_eq!(bursts, 1, "{:?}", log.lock().unwrap());
    });
    drop(server);
}

/// `cardroom serve --auth-failures-per-peer 3` with its pages and a hosted ladder, the stock
/// `random` bot waiting there as `ann`: the failures form on ann's page says a wrong key is
/// wrong four times, then answers 429 with `Retry-After`, the right key too. The wait is the
/// server's own: a gRPC `ListFailures` from the same address waits as well.
#[test]
fn the_pages_key_form_counts_in_the_servers_throttle() {
    let dir = tempfile::tempdir().unwrap();
    let store = format!("sqlite:{}", dir.path().join("store.db").display());
    let key = add_bot(&store, "ann");
    let ladder = dir.path().join("duel.toml");
    std::fs::write(&ladder, "name = \"duel\"\ngame = \"twenty_two\"\nseats = 2\nseed = 1\n")
        .unwrap();
    let mut server = Reaped(
        Command::new(env!("CARGO_BIN_EXE_cardroom"))
            .args(["serve", "--addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0"])
            .args(["--store", &store, "--registered-only", "--ladder"])
            .arg(&ladder)
            .args(["--auth-failures-per-peer", "3", "--record-dir"])
            .arg(dir.path().join("records"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let mut line = || lines.next().unwrap().unwrap();
    let url = format!("http://{}", line().strip_prefix("cardroom listening on ").unwrap());
    let pages = line().strip_prefix("cardroom pages on http://").unwrap().to_owned();
    let args = ["--server", &url, "--lobby", "ann", "--key", &key, "--matches", "0"];
    let _ann = StockBot::start("random as ann", &example_bot("random"), &args);
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let form = "/ladders/duel/bots/ann/failures";
        let wrong = format!("key=crk_{}", "0".repeat(64));
        let (status, page) = eventually("ann on the ladder, its page up", || async {
            let (status, page) = support::post_form(&pages, form, &wrong).await;
            (status != 404).then_some((status, page))
        })
        .await;
        assert_eq!(status, 200, "{page}");
        assert!(page.contains("wrong-key"), "{page}");
        for attempt in 2..=4 {
            let (status, page) = support::post_form(&pages, form, &wrong).await;
            assert_eq!(status, 200, "attempt {attempt}: {page}");
            assert!(page.contains("wrong-key"), "attempt {attempt}: {page}");
        }
        // The fourth failure spent the quota: every key waits now, the right one too.
        let (status, page) = support::post_form(&pages, form, &format!("key={key}")).await;
        assert_eq!(status, 429, "{page}");
        let retry = page
            .lines()
            .find_map(|l| l.to_ascii_lowercase().strip_prefix("retry-after: ").map(str::to_owned));
        let seconds: u64 = retry.unwrap().trim().parse().unwrap();
        assert!((1..=60).contains(&seconds), "{seconds}");
        assert!(page.contains("too many failed authentications from 127.0.0.1"), "{page}");
        assert!(!page.contains("What it wrote"), "no failures shown while waiting: {page}");
        // The same throttle: the gRPC door waits for this address as well.
        let mut client = pb::cardroom_client::CardroomClient::new(connect(&url).await);
        let mut request = tonic::Request::new(pb::ListFailuresRequest {
            ladder: "duel".into(),
            bot: "ann".into(),
            limit: 0,
        });
        request.metadata_mut().insert("authorization", format!("Bearer {key}").parse().unwrap());
        let status = client.list_failures(request).await.unwrap_err();
        assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    });
    drop(server);
}
