//! The bot accounts' part of the store suite (see `suite.rs`): each check runs on every
//! backend.

use std::sync::Arc;

use cardroom_store::{BotStatus, InviteRefusal, KeyHash, Store, StoreError, VERSIONS_KEPT};

/// Registering keeps the hash and the time; a name is registered once; an unknown name is
/// found by nothing.
pub(crate) async fn registering_keeps_the_hash_and_refuses_a_taken_name(store: Arc<dyn Store>) {
    let hash = KeyHash::of("crk_alice");
    let alice = store.register_bot("alice", hash, 1_000).await.unwrap();
    assert_eq!((alice.name.as_str(), alice.status), ("alice", BotStatus::Active));
    assert_eq!((alice.created_ms, alice.key_issued_ms, alice.revoked_ms), (1_000, 1_000, None));
    let credential = store.bot_credential("alice").await.unwrap().unwrap();
    assert_eq!(credential.key_hash, Some(hash));
    assert_eq!(credential.account, alice);
    assert_eq!(store.bot_by_key(&hash).await.unwrap(), Some(alice.clone()));
    assert_eq!(store.bot_by_key(&KeyHash::of("crk_nobody")).await.unwrap(), None);
    assert_eq!(store.bot_credential("bob").await.unwrap(), None);

    let taken = store.register_bot("alice", KeyHash::of("crk_other"), 2_000).await.unwrap_err();
    assert!(matches!(&taken, StoreError::NameTaken(name) if name == "alice"), "{taken}");
    // The refused registration changed nothing.
    assert_eq!(store.bot_credential("alice").await.unwrap().unwrap().key_hash, Some(hash));
}

/// Bots are listed by name, in byte order, whatever the database's collation.
pub(crate) async fn bots_are_listed_by_name(store: Arc<dyn Store>) {
    for (i, name) in ["carol", "Bob", "alice", "a.b", "a_b", "a-b"].into_iter().enumerate() {
        store.register_bot(name, KeyHash::of(name), i as i64).await.unwrap();
    }
    let names: Vec<String> = store.bots().await.unwrap().into_iter().map(|bot| bot.name).collect();
    assert_eq!(names, ["Bob", "a-b", "a.b", "a_b", "alice", "carol"]);
    let ids: Vec<_> = store.bots().await.unwrap().into_iter().map(|bot| bot.id).collect();
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "ids are distinct: {ids:?}");
}

/// A revoked bot has no hash and is found by no key; replacing its key makes it active again,
/// and an unknown name is refused by both.
pub(crate) async fn revoking_and_replacing_a_key(store: Arc<dyn Store>) {
    let hash = KeyHash::of("crk_test");
    store.register_bot("alice", hash, 1).await.unwrap();
    let revoked = store.revoke_bot("alice", 2).await.unwrap();
    assert_eq!((revoked.status, revoked.revoked_ms), (BotStatus::Revoked, Some(2)));
    // Revoking again keeps the first revocation's time.
    assert_eq!(store.revoke_bot("alice", 3).await.unwrap().revoked_ms, Some(2));
    assert_eq!(store.bot_credential("alice").await.unwrap().unwrap().key_hash, None);
    assert_eq!(store.bot_by_key(&hash).await.unwrap(), None);

    let new = KeyHash::of("crk_new");
    let back = store.replace_key("alice", new, 4).await.unwrap();
    assert_eq!((back.status, back.key_issued_ms, back.revoked_ms), (BotStatus::Active, 4, None));
    assert_eq!(back.created_ms, 1);
    assert_eq!(store.bot_by_key(&new).await.unwrap().map(|bot| bot.name), Some("alice".into()));
    assert_eq!(store.bot_by_key(&hash).await.unwrap(), None);

    for refused in [
        store.replace_key("nobody", KeyHash::of("k"), 5).await.unwrap_err(),
        store.revoke_bot("nobody", 5).await.unwrap_err(),
    ] {
        assert!(matches!(&refused, StoreError::NoSuchBot(name) if name == "nobody"), "{refused}");
    }
}

/// Two bots cannot share a key hash: the second registration is refused.
pub(crate) async fn a_key_hash_belongs_to_one_bot(store: Arc<dyn Store>) {
    let hash = KeyHash::of("crk_shared");
    store.register_bot("alice", hash, 1).await.unwrap();
    let refused = store.register_bot("bob", hash, 2).await.unwrap_err();
    assert!(matches!(refused, StoreError::NameTaken(_)), "{refused}");
    assert_eq!(store.bot_credential("bob").await.unwrap(), None);
}

/// A version keeps its first sighting and moves its last; versions are listed first seen
/// first, and an unknown bot's are refused.
pub(crate) async fn a_version_keeps_its_first_sighting_and_moves_its_last(store: Arc<dyn Store>) {
    let bot = store.register_bot("alice", KeyHash::of("k"), 1).await.unwrap().id;
    store.note_version(bot, "v1", 10).await.unwrap();
    store.note_version(bot, "v2", 20).await.unwrap();
    store.note_version(bot, "v1", 30).await.unwrap();
    let versions = store.bot_versions("alice").await.unwrap();
    let seen: Vec<(&str, i64, i64)> = versions
        .kept
        .iter()
        .map(|v| (v.version.as_str(), v.first_seen_ms, v.last_seen_ms))
        .collect();
    assert_eq!(seen, [("v1", 10, 30), ("v2", 20, 20)]);
    assert_eq!(versions.forgotten, 0);
    let unknown = store.bot_versions("nobody").await.unwrap_err();
    assert!(matches!(unknown, StoreError::NoSuchBot(_)), "{unknown}");
}

/// A bot that reports a new version at every join keeps its last `VERSIONS_KEPT`, the one
/// least recently seen forgotten first, and a count of the rest.
pub(crate) async fn a_flood_of_versions_keeps_the_last_ones_and_a_count(store: Arc<dyn Store>) {
    let bot = store.register_bot("alice", KeyHash::of("k"), 1).await.unwrap().id;
    let flood = VERSIONS_KEPT as i64 * 3;
    for i in 0..flood {
        store.note_version(bot, &format!("v{i}"), 100 + i).await.unwrap();
    }
    // The first version seen again: it is among the last seen, kept.
    store.note_version(bot, "v0", 100 + flood).await.unwrap();
    let versions = store.bot_versions("alice").await.unwrap();
    assert_eq!(versions.kept.len(), VERSIONS_KEPT);
    assert_eq!(versions.forgotten, flood as u64 - VERSIONS_KEPT as u64 + 1);
    let kept: Vec<&str> = versions.kept.iter().map(|v| v.version.as_str()).collect();
    assert!(kept.contains(&"v0") && kept.contains(&format!("v{}", flood - 1).as_str()), "{kept:?}");
    assert!(!kept.contains(&"v1"), "{kept:?}");
}

/// Many registrations at once, as many nodes would send them: each commits whole, and a name
/// raced for is registered once.
pub(crate) async fn concurrent_registrations_commit_whole(store: Arc<dyn Store>) {
    let attempts = (0..16).map(|i| {
        let store = Arc::clone(&store);
        // Two attempts at each of eight names.
        let name = format!("bot{}", i % 8);
        tokio::spawn(async move { store.register_bot(&name, KeyHash::of(&i.to_string()), i).await })
    });
    let mut registered = 0;
    for attempt in attempts {
        match attempt.await.unwrap() {
            Ok(_) => registered += 1,
            Err(StoreError::NameTaken(_)) => {}
            Err(error) => panic!("{error}"),
        }
    }
    assert_eq!(registered, 8);
    assert_eq!(store.bots().await.unwrap().len(), 8);
}

/// An invite is redeemed once, before it expires; a name taken leaves it unused. The author's
/// bots carry their author, and the author lists them.
pub(crate) async fn an_invite_makes_one_author_who_owns_the_bots_registered_for_it(
    store: Arc<dyn Store>,
) {
    let (code, other) = (KeyHash::of("cri_one"), KeyHash::of("cri_two"));
    store.create_invite(code, 1_000, 5_000).await.unwrap();
    store.create_invite(other, 1_000, 2_000).await.unwrap();
    let refusal = |error: StoreError| match error {
        StoreError::Invite(refusal) => refusal,
        other => panic!("{other}"),
    };
    let unknown = store.redeem_invite(KeyHash::of("cri_none"), "ann", KeyHash::of("t"), 1_500);
    assert_eq!(refusal(unknown.await.unwrap_err()), InviteRefusal::Unknown);
    let late = store.redeem_invite(other, "ann", KeyHash::of("t"), 2_000).await.unwrap_err();
    assert_eq!(refusal(late), InviteRefusal::Expired);
    let ann = store.redeem_invite(code, "ann", KeyHash::of("cra_ann"), 1_500).await.unwrap();
    assert_eq!((ann.name.as_str(), ann.created_ms, ann.token_issued_ms), ("ann", 1_500, 1_500));
    let again = store.redeem_invite(code, "bob", KeyHash::of("cra_bob"), 1_600).await.unwrap_err();
    assert_eq!(refusal(again), InviteRefusal::Used);
    // A name taken: refused, and the invite is still good.
    store.create_invite(KeyHash::of("cri_three"), 1_000, 9_000).await.unwrap();
    let taken = store.redeem_invite(KeyHash::of("cri_three"), "ann", KeyHash::of("x"), 1_700);
    assert!(matches!(taken.await.unwrap_err(), StoreError::AuthorNameTaken(name) if name == "ann"));
    let bob = store.redeem_invite(KeyHash::of("cri_three"), "bob", KeyHash::of("cra_bob"), 1_800);
    let bob = bob.await.unwrap();

    assert_eq!(store.author_by_token(&KeyHash::of("cra_ann")).await.unwrap(), Some(ann.clone()));
    assert_eq!(store.author_by_token(&KeyHash::of("cra_none")).await.unwrap(), None);
    let a1 = store.register_bot_of("a1", KeyHash::of("k1"), Some(ann.id), 2_000).await.unwrap();
    assert_eq!(a1.author.as_deref(), Some("ann"));
    store.register_bot_of("a2", KeyHash::of("k2"), Some(ann.id), 2_000).await.unwrap();
    store.register_bot_of("b1", KeyHash::of("k3"), Some(bob.id), 2_000).await.unwrap();
    let plain = store.register_bot("house", KeyHash::of("k4"), 2_000).await.unwrap();
    assert_eq!(plain.author, None, "the organizer's bot has no author");
    let credential = store.bot_credential("a2").await.unwrap().unwrap();
    assert_eq!(credential.account.author.as_deref(), Some("ann"));
    let listed: Vec<(String, Option<String>)> =
        store.bots().await.unwrap().into_iter().map(|b| (b.name, b.author)).collect();
    assert!(listed.contains(&("b1".to_owned(), Some("bob".to_owned()))), "{listed:?}");
    let (author, bots) = store.author("ann").await.unwrap().unwrap();
    assert_eq!(author, ann);
    let names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["a1", "a2"]);
    assert_eq!(store.author("nobody").await.unwrap(), None);
    // A new token: the old one finds nobody.
    let rotated = store.replace_author_token(ann.id, KeyHash::of("cra_ann2"), 3_000).await;
    assert_eq!(rotated.unwrap().token_issued_ms, 3_000);
    assert_eq!(store.author_by_token(&KeyHash::of("cra_ann")).await.unwrap(), None);
    let found = store.author_by_token(&KeyHash::of("cra_ann2")).await.unwrap();
    assert_eq!(found.map(|a| a.id), Some(ann.id));
}
