//! Guessing keys is not free: `cardroom serve --auth-failures-per-peer 5` answers a peer's sixth
//! wrong key within the minute (on `Play` or `ListFailures`), and every attempt after it, with
//! RESOURCE_EXHAUSTED and the time to wait (`grpc-retry-pushback-ms`), before any key is looked
//! at; the burst is logged once with the peer's address.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::io::{BufRead as _, BufReader};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use cardroom_proto::pb;
use cardroom_tests::{Bot, connect, eventually};
use tonic::Code;

mod support;

use support::{Reaped, add_bot, listening_address};

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
        let wrong = format!("crk_{}", "0".repeat(64));
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
