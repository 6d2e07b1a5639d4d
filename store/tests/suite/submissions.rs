//! The bot submissions' part of the store suite (see `suite.rs`): each check runs on every
//! backend. The store keeps what it is given: archives are checked before (`Accounts::submit`).

use std::sync::Arc;

use cardroom_store::{
    ARCHIVES_KEPT, BotId, KeyHash, NewSubmission, Store, StoreError, Submission, SubmittedBy,
    sha256_hex,
};

/// A submission of `archive`, run as `run`.
fn new(archive: &[u8], run: &[&str], by: SubmittedBy) -> NewSubmission {
    NewSubmission {
        sha256: sha256_hex(archive),
        run: run.iter().map(|word| word.to_string()).collect(),
        archive: archive.to_vec(),
        unpacked_bytes: 10 * archive.len() as u64,
        by,
    }
}

async fn listed(store: &dyn Store, name: &str) -> Vec<(String, Vec<String>)> {
    let submissions = store.submissions(name).await.unwrap();
    submissions.into_iter().map(|s: Submission| (s.sha256, s.run)).collect()
}

/// A submission is kept with its archive and run command, its SHA-256 a version of its bot;
/// a newer one is the newest; the same archive again is no second row but the newest again,
/// with its new run command.
pub(crate) async fn the_newest_submission_plays_and_the_same_archive_is_one_row(
    store: Arc<dyn Store>,
) {
    let alice = store.register_bot("alice", KeyHash::of("crk_alice"), 0).await.unwrap().id;
    let bob = store.register_bot("bob", KeyHash::of("crk_bob"), 0).await.unwrap().id;
    assert_eq!(store.newest_submission(alice).await.unwrap(), None);
    assert!(store.submissions("alice").await.unwrap().is_empty());

    let first = store
        .submit_bot(alice, &new(b"first", &["python3", "bot.py"], SubmittedBy::Bot), 1_000)
        .await
        .unwrap();
    assert!(first.new);
    let a = sha256_hex(b"first");
    let stored = &first.submission;
    assert_eq!((stored.bot, stored.sha256.as_str()), (alice, a.as_str()));
    assert_eq!((stored.archive_bytes, stored.unpacked_bytes), (5, 50));
    assert_eq!(
        (stored.submitted_ms, stored.submitted_by, stored.archive_kept),
        (1_000, SubmittedBy::Bot, true)
    );
    let (newest, archive) = store.newest_submission(alice).await.unwrap().unwrap();
    assert_eq!((newest, archive), (first.submission.clone(), b"first".to_vec()));
    let versions = store.bot_versions("alice").await.unwrap().kept;
    assert_eq!(versions.iter().map(|v| v.version.as_str()).collect::<Vec<_>>(), [a.as_str()]);

    let second = store
        .submit_bot(alice, &new(b"second", &["./bot"], SubmittedBy::Admin), 2_000)
        .await
        .unwrap();
    assert!(second.new);
    let b = sha256_hex(b"second");
    let (newest, archive) = store.newest_submission(alice).await.unwrap().unwrap();
    assert_eq!((newest.sha256.as_str(), archive.as_slice()), (b.as_str(), b"second".as_slice()));
    assert_eq!(newest.submitted_by, SubmittedBy::Admin);
    let words = |run: &[&str]| run.iter().map(|w| w.to_string()).collect::<Vec<_>>();
    assert_eq!(
        listed(store.as_ref(), "alice").await,
        [(b.clone(), words(&["./bot"])), (a.clone(), words(&["python3", "bot.py"]))]
    );

    let again = store
        .submit_bot(alice, &new(b"first", &["python3", "-u", "bot.py"], SubmittedBy::Bot), 3_000)
        .await
        .unwrap();
    assert!(!again.new);
    assert_eq!(again.submission.submitted_ms, 3_000);
    assert_eq!(
        listed(store.as_ref(), "alice").await,
        [(a.clone(), words(&["python3", "-u", "bot.py"])), (b.clone(), words(&["./bot"]))]
    );
    assert_eq!(store.newest_submission(alice).await.unwrap().unwrap().1, b"first");
    let versions = store.bot_versions("alice").await.unwrap().kept;
    assert_eq!(versions.len(), 2, "{versions:?}");

    // Another bot's submissions are its own, the same archive too.
    assert!(store.submissions("bob").await.unwrap().is_empty());
    let bobs = store.submit_bot(bob, &new(b"first", &["x"], SubmittedBy::Bot), 4_000).await;
    assert!(bobs.unwrap().new);
    assert_eq!(listed(store.as_ref(), "alice").await.len(), 2);

    let unknown = store.submissions("nobody").await.unwrap_err();
    assert!(matches!(unknown, StoreError::NoSuchBot(_)), "{unknown}");
    assert_eq!(store.newest_submission(BotId(i64::MAX)).await.unwrap(), None);

    // What a runner hosts, in one read: each active bot's newest, by name; a revoked bot none.
    let hosted = |store: Arc<dyn Store>| async move {
        let newest = store.newest_submissions().await.unwrap();
        newest.into_iter().map(|(name, s)| (name, s.sha256)).collect::<Vec<_>>()
    };
    let carol = store.register_bot("carol", KeyHash::of("crk_carol"), 0).await.unwrap().id;
    assert_eq!(hosted(Arc::clone(&store)).await, [("alice".into(), a.clone()), ("bob".into(), a)]);
    store.revoke_bot("alice", 5_000).await.unwrap();
    store.submit_bot(carol, &new(b"third", &["x"], SubmittedBy::Bot), 6_000).await.unwrap();
    let c = sha256_hex(b"third");
    assert_eq!(hosted(store).await, [("bob".into(), sha256_hex(b"first")), ("carol".into(), c)]);
}

/// Every submission stays listed; only the newest `ARCHIVES_KEPT` keep their archive.
pub(crate) async fn old_submissions_stay_listed_and_lose_their_archives(store: Arc<dyn Store>) {
    let alice = store.register_bot("alice", KeyHash::of("crk_alice"), 0).await.unwrap().id;
    let count = ARCHIVES_KEPT + 2;
    for i in 0..count {
        let archive = format!("archive {i}");
        let submission = new(archive.as_bytes(), &["run"], SubmittedBy::Bot);
        store.submit_bot(alice, &submission, i as i64).await.unwrap();
    }
    let submissions = store.submissions("alice").await.unwrap();
    assert_eq!(submissions.len(), count);
    let kept: Vec<bool> = submissions.iter().map(|s| s.archive_kept).collect();
    assert_eq!(kept[..ARCHIVES_KEPT], vec![true; ARCHIVES_KEPT]);
    assert_eq!(kept[ARCHIVES_KEPT..], [false, false]);
    assert_eq!(submissions[0].sha256, sha256_hex(format!("archive {}", count - 1).as_bytes()));
    // An old archive submitted again is kept again, as the newest.
    store.submit_bot(alice, &new(b"archive 0", &["run"], SubmittedBy::Bot), 99).await.unwrap();
    let (newest, archive) = store.newest_submission(alice).await.unwrap().unwrap();
    assert_eq!((newest.archive_kept, archive.as_slice()), (true, b"archive 0".as_slice()));
    assert_eq!(store.submissions("alice").await.unwrap().len(), count);
}
