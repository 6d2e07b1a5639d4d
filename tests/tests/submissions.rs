//! Bot submissions over real gRPC (`SubmitBot`, `ListSubmissions`): an archive submitted with
//! the bot's key or the admin token becomes the bot's newest submission and a version of it;
//! the same archive again is one row; every refusal has its code and names its rule.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_server::Config;
use cardroom_store::testing::{Item, archive};
use cardroom_store::{Accounts, ArchiveLimits, SqliteStore, Store, sha256_hex};
use cardroom_tests::TestServer;
use tonic::transport::Channel;
use tonic::{Code, Request, Status};

const ADMIN: &str = "admin-secret";

/// Small limits, so that a test goes over them cheaply.
const LIMITS: ArchiveLimits = ArchiveLimits {
    max_archive_bytes: 64 * 1024,
    max_unpacked_bytes: 256 * 1024,
    max_entries: 100,
};

/// Archive bytes a message carries, as the CLI sends them.
const CHUNK: usize = 16 * 1024;

/// `SubmitBot` for `bot` with `credential`, the archive in chunks.
async fn submit(
    client: &mut CardroomClient<Channel>,
    bot: &str,
    run: &[&str],
    bytes: &[u8],
    credential: Option<&str>,
) -> Result<pb::SubmittedBot, Status> {
    let mut chunks: Vec<pb::SubmitBotChunk> = bytes
        .chunks(CHUNK)
        .map(|piece| pb::SubmitBotChunk { archive: piece.to_vec(), ..Default::default() })
        .collect();
    chunks[0].bot = bot.into();
    chunks[0].run = run.iter().map(|word| word.to_string()).collect();
    let mut request = Request::new(tokio_stream::iter(chunks));
    if let Some(credential) = credential {
        let value = format!("Bearer {credential}").parse().unwrap();
        request.metadata_mut().insert("authorization", value);
    }
    client.submit_bot(request).await.map(tonic::Response::into_inner)
}

async fn listed(client: &mut CardroomClient<Channel>, bot: &str) -> Vec<pb::Submission> {
    let request = pb::ListSubmissionsRequest { bot: bot.into() };
    client.list_submissions(request).await.unwrap().into_inner().submissions
}

/// Asserts that `refused` has `code` and a message holding each of `says`.
fn assert_refused(
    what: &str,
    refused: Result<pb::SubmittedBot, Status>,
    code: Code,
    says: &[&str],
) {
    let status = refused.expect_err(what);
    assert_eq!(status.code(), code, "{what}: {status:?}");
    for said in says {
        assert!(status.message().contains(said), "{what}: {:?} lacks {said:?}", status.message());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submissions_become_the_newest_version_and_bad_ones_are_refused_by_rule() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let accounts = Accounts::new(Arc::clone(&store));
    let alice = accounts.register("alice").await.unwrap();
    let bob = accounts.register("bob").await.unwrap();
    let server = TestServer::start(Config {
        admin_token: Some(ADMIN.into()),
        accounts: Some(accounts),
        submission_limits: LIMITS,
        ..Config::default()
    })
    .await;
    let mut client = server.client().await;
    let alice_key = alice.key.expose();

    // The author submits with the bot's key.
    let first =
        archive(&[Item::File("bot.py", b"print('one')"), Item::Symlink("main.py", "bot.py")]);
    let submitted = submit(&mut client, "alice", &["python3", "bot.py"], &first, Some(alice_key));
    let submitted = submitted.await.unwrap();
    let s = submitted.submission.unwrap();
    assert!(submitted.new);
    assert_eq!((s.bot.as_str(), s.sha256.clone()), ("alice", sha256_hex(&first)));
    assert_eq!(
        (s.run, s.archive_bytes),
        (vec!["python3".to_owned(), "bot.py".to_owned()], first.len() as u64)
    );
    assert_eq!(s.submitted_by, pb::SubmittedBy::Bot as i32);
    // Its SHA-256 is a version of the bot, where versions are shown.
    let bot = client.get_bot(pb::GetBotRequest { name: "alice".into() }).await.unwrap();
    let versions: Vec<String> = bot.into_inner().versions.into_iter().map(|v| v.version).collect();
    assert_eq!(versions, [sha256_hex(&first)]);

    // The organizer submits the same archive: no second row, the newest again, by the admin.
    let again = submit(&mut client, "alice", &["python3", "-u", "bot.py"], &first, Some(ADMIN));
    let again = again.await.unwrap();
    assert!(!again.new);
    assert_eq!(again.submission.unwrap().submitted_by, pb::SubmittedBy::Admin as i32);
    assert_eq!(listed(&mut client, "alice").await.len(), 1);

    // A newer archive is the one that plays; the older stays listed.
    let second = archive(&[Item::File("bot.py", b"print('two')"), Item::File("lib/x.py", b"")]);
    submit(&mut client, "alice", &["python3", "bot.py"], &second, Some(alice_key)).await.unwrap();
    let shas: Vec<String> =
        listed(&mut client, "alice").await.into_iter().map(|s| s.sha256).collect();
    assert_eq!(shas, [sha256_hex(&second), sha256_hex(&first)]);
    let alice_id = store.bot_credential("alice").await.unwrap().unwrap().account.id;
    let (newest, bytes) = store.newest_submission(alice_id).await.unwrap().unwrap();
    assert_eq!((newest.sha256, bytes), (sha256_hex(&second), second.clone()));

    // Refusals, each with its code and rule; the entry named, at most 64 bytes of it.
    let long = format!("/{}", "a".repeat(150));
    let bad: &[(&str, Vec<u8>, Code, &[&str])] = &[
        (
            "an absolute path",
            archive(&[Item::File("/etc/cron.d/x", b"")]),
            Code::InvalidArgument,
            &["\"/etc/cron.d/x\"", "an absolute path"],
        ),
        (
            "a `..`",
            archive(&[Item::File("a/../../x", b"")]),
            Code::InvalidArgument,
            &["\"a/../../x\"", "`..`"],
        ),
        (
            "a symlink out",
            archive(&[Item::Symlink("up", "../..")]),
            Code::InvalidArgument,
            &["\"up\"", "out of the tree"],
        ),
        (
            "a hardlink out",
            archive(&[Item::Hardlink("h", "../etc/passwd")]),
            Code::InvalidArgument,
            &["\"h\"", "out of the tree"],
        ),
        (
            "a fifo",
            archive(&[Item::Fifo("p")]),
            Code::InvalidArgument,
            &["\"p\"", "no devices, fifos"],
        ),
        (
            "a long name",
            archive(&[Item::File(&long[..100], b"")]),
            Code::InvalidArgument,
            &["… (100 bytes)"],
        ),
        (
            "not a gzip",
            b"PK\x03\x04 a zip file".to_vec(),
            Code::InvalidArgument,
            &["not a .tar.gz"],
        ),
        (
            "over the unpacked size",
            archive(&[Item::File("zeros", &vec![0; 300 * 1024])]),
            Code::ResourceExhausted,
            &["262144 bytes unpacked"],
        ),
    ];
    for (what, bytes, code, says) in bad {
        let refused = submit(&mut client, "alice", &["./bot"], bytes, Some(alice_key)).await;
        assert_refused(what, refused, *code, says);
    }
    let noise: Vec<u8> =
        (0..70 * 1024u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
    let refused = submit(&mut client, "alice", &["./bot"], &noise, Some(alice_key)).await;
    assert_refused(
        "over the compressed size",
        refused,
        Code::ResourceExhausted,
        &["65536 bytes compressed"],
    );
    let refused = submit(&mut client, "alice", &[], &second, Some(alice_key)).await;
    assert_refused("no run command", refused, Code::InvalidArgument, &["run command", "empty"]);

    // Credentials: none, a key of nobody's, another bot's; an unknown bot.
    let refused = submit(&mut client, "alice", &["./bot"], &second, None).await;
    assert_refused(
        "no credential",
        refused,
        Code::Unauthenticated,
        &["the bot's key or the admin token"],
    );
    let refused = submit(&mut client, "alice", &["./bot"], &second, Some("crk_wrong")).await;
    assert_refused("a wrong key", refused, Code::Unauthenticated, &["not its key"]);
    let refused = submit(&mut client, "alice", &["./bot"], &second, Some(bob.key.expose())).await;
    assert_refused("bob's key", refused, Code::PermissionDenied, &["\"bob\"'s"]);
    let refused = submit(&mut client, "nobody", &["./bot"], &second, Some(ADMIN)).await;
    assert_refused("an unknown bot", refused, Code::NotFound, &["no bot named \"nobody\""]);

    // Nothing refused was stored.
    assert_eq!(listed(&mut client, "alice").await.len(), 2);
    assert!(listed(&mut client, "bob").await.is_empty());
    let unknown =
        client.list_submissions(pb::ListSubmissionsRequest { bot: "nobody".into() }).await;
    assert_eq!(unknown.unwrap_err().code(), Code::NotFound);
}

#[tokio::test]
async fn a_server_without_a_store_takes_no_submissions() {
    let server = TestServer::start(Config::default()).await;
    let mut client = server.client().await;
    let bytes = archive(&[Item::File("bot.py", b"")]);
    let refused = submit(&mut client, "alice", &["./bot"], &bytes, Some(ADMIN)).await;
    assert_refused("no store", refused, Code::FailedPrecondition, &["no bot accounts", "--store"]);
    let listed = client.list_submissions(pb::ListSubmissionsRequest { bot: "alice".into() }).await;
    assert_eq!(listed.unwrap_err().code(), Code::FailedPrecondition);
}

/// A submission whose archive is still arriving: its first message sent, the stream left open
/// until the sender is dropped.
fn held_open(
    client: &CardroomClient<Channel>,
    bot: &str,
    bytes: &[u8],
) -> (
    tokio::sync::mpsc::Sender<pb::SubmitBotChunk>,
    tokio::task::JoinHandle<Result<pb::SubmittedBot, Status>>,
) {
    let (tx, rx) = tokio::sync::mpsc::channel(1);
    let first =
        pb::SubmitBotChunk { bot: bot.into(), run: vec!["./bot".into()], archive: bytes.to_vec() };
    tx.try_send(first).unwrap();
    let mut request = Request::new(tokio_stream::wrappers::ReceiverStream::new(rx));
    request.metadata_mut().insert("authorization", format!("Bearer {ADMIN}").parse().unwrap());
    let mut client = client.clone();
    let call =
        tokio::spawn(
            async move { client.submit_bot(request).await.map(tonic::Response::into_inner) },
        );
    (tx, call)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submissions_at_once_are_capped_and_a_slow_one_runs_out_of_time() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let accounts = Accounts::new(Arc::clone(&store));
    accounts.register("alice").await.unwrap();
    let server = TestServer::start(Config {
        admin_token: Some(ADMIN.into()),
        accounts: Some(accounts),
        submission_limits: LIMITS,
        submissions_at_once: 1,
        submission_timeout: std::time::Duration::from_secs(2),
        ..Config::default()
    })
    .await;
    let mut client = server.client().await;
    let slow = archive(&[Item::File("bot", b"#!/bin/sh\n")]);
    let quick = archive(&[Item::File("bot", b"#!/bin/sh\necho quick\n")]);

    // While one submission arrives, another is refused: its credential checked, nothing kept.
    // Which of the two takes the one slot first is a race: the held one is started again
    // until it holds the slot and the other is refused.
    let (mut sender, mut first) = held_open(&client, "alice", &slow);
    let refused = loop {
        match submit(&mut client, "alice", &["./bot"], &quick, Some(ADMIN)).await {
            Err(status) => break status,
            Ok(_) if !first.is_finished() => continue,
            Ok(_) => {
                let lost = first.await.unwrap().expect_err("a held submission cannot end");
                assert_eq!(lost.code(), Code::ResourceExhausted, "{lost:?}");
                (sender, first) = held_open(&client, "alice", &slow);
            }
        }
    };
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert!(refused.message().contains("receiving 1 submissions already"), "{refused:?}");

    // Its sender gone, the first ends and is stored; the slot is free again.
    drop(sender);
    let stored = first.await.unwrap().unwrap().submission.unwrap();
    assert_eq!(stored.sha256, sha256_hex(&slow));
    submit(&mut client, "alice", &["./bot"], &quick, Some(ADMIN)).await.unwrap();

    // One that never ends runs out of time, keeps nothing, and frees its slot.
    let before = listed(&mut client, "alice").await.len();
    let never = archive(&[Item::File("bot", b"#!/bin/sh\necho never\n")]);
    let (_sender, late) = held_open(&client, "alice", &never);
    let late = late.await.unwrap().expect_err("a submission that never ends");
    assert_eq!(late.code(), Code::DeadlineExceeded, "{late:?}");
    assert!(late.message().contains("did not arrive within 2 s"), "{late:?}");
    assert_eq!(listed(&mut client, "alice").await.len(), before, "nothing kept");
    submit(&mut client, "alice", &["./bot"], &quick, Some(ADMIN)).await.unwrap();
}
