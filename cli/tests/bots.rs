//! `cardroom bots`: accounts in a store file, keys printed once, list in every format.

#![allow(clippy::unwrap_used)]

use std::process::{Command, Output};

fn bots(args: &[&str], store: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .arg("bots")
        .args(args)
        .args(["--store", store])
        .output()
        .expect("cardroom runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn listed(store: &str) -> serde_json::Value {
    let output = bots(&["list", "--format", "json"], store);
    assert!(output.status.success(), "{}", text(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn a_bot_is_added_with_its_key_printed_once_then_revoked_and_rotated() {
    let dir = tempfile::tempdir().unwrap();
    let store = format!("sqlite:{}", dir.path().join("store.db").display());

    let added = bots(&["add", "alice"], &store);
    assert!(added.status.success(), "{}", text(&added.stderr));
    let key = text(&added.stdout).trim().to_owned();
    assert!(key.starts_with("crk_") && key.len() == 68, "the key alone on stdout: {key:?}");
    assert!(text(&added.stderr).contains("shown this once"), "{}", text(&added.stderr));
    // The file keeps the hash, never the key.
    let file = std::fs::read(dir.path().join("store.db")).unwrap();
    let wal = std::fs::read(dir.path().join("store.db-wal")).unwrap_or_default();
    let key_bytes = key.as_bytes();
    assert!(
        !file.windows(key_bytes.len()).chain(wal.windows(key_bytes.len())).any(|w| w == key_bytes)
    );

    let again = bots(&["add", "alice"], &store);
    assert!(!again.status.success());
    assert!(text(&again.stderr).contains("registered already"), "{}", text(&again.stderr));
    let bad = bots(&["add", "a b"], &store);
    assert!(text(&bad.stderr).contains("cannot be registered"), "{}", text(&bad.stderr));

    let list = listed(&store);
    assert_eq!(list[0]["name"], "alice");
    assert_eq!(list[0]["status"], "active");

    let revoked = bots(&["revoke", "alice"], &store);
    assert_eq!(text(&revoked.stdout), "alice: revoked\n");
    assert_eq!(listed(&store)[0]["status"], "revoked");
    let rotated = bots(&["rotate", "alice"], &store);
    assert!(rotated.status.success(), "{}", text(&rotated.stderr));
    let new_key = text(&rotated.stdout).trim().to_owned();
    assert!(new_key.starts_with("crk_") && new_key != key);
    assert_eq!(listed(&store)[0]["status"], "active");

    let csv = bots(&["list", "--format", "csv"], &store);
    let csv = text(&csv.stdout);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("name,status,registered,key_issued,versions"));
    assert!(lines.next().unwrap().starts_with("alice,active,"), "{csv}");
    let table = text(&bots(&["list"], &store).stdout);
    assert!(table.starts_with("name ") && table.contains("\nalice "), "{table}");

    let unknown = bots(&["revoke", "nobody"], &store);
    assert!(text(&unknown.stderr).contains("no bot named \"nobody\""), "{}", text(&unknown.stderr));
}

#[test]
fn a_store_of_no_known_kind_is_refused_with_what_is_accepted() {
    let output = bots(&["list"], "mysql://localhost/cardroom");
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    assert!(stderr.contains("give sqlite:FILE") && stderr.contains("postgres://"), "{stderr}");
}

#[tokio::test]
async fn bots_are_managed_in_a_postgres_store_as_in_a_file() {
    let Some(base) = cardroom_store::testing::test_pg_url("bots_in_a_postgres_store") else {
        return;
    };
    let store = cardroom_store::testing::fresh_schema_url(&base).await.unwrap();
    let added = bots(&["add", "alice"], &store);
    assert!(added.status.success(), "{}", text(&added.stderr));
    let key = text(&added.stdout).trim().to_owned();
    assert!(key.starts_with("crk_"), "{key:?}");
    let revoked = bots(&["revoke", "alice"], &store);
    assert!(revoked.status.success(), "{}", text(&revoked.stderr));
    let list = listed(&store);
    assert_eq!(list[0]["name"], "alice", "{list}");
    assert_eq!(list[0]["status"], "revoked", "{list}");
    // The key never reached the database: only its hash, and now not even that.
    let accounts = cardroom_store::Accounts::new(cardroom_store::open(&store).await.unwrap());
    let refused = accounts.authenticate("alice", Some(&key), false).await.unwrap_err();
    assert!(matches!(refused, cardroom_store::AuthError::Revoked { .. }), "{refused}");
}

#[test]
fn the_list_escapes_whatever_the_store_holds_and_never_panics_on_a_wide_cell() {
    let dir = tempfile::tempdir().unwrap();
    let store = format!("sqlite:{}", dir.path().join("store.db").display());
    assert!(bots(&["add", "alice"], &store).status.success());
    // Written straight to the store, as a store written by an older or a broken server might
    // hold them: an escape sequence, and a version far wider than `format!` pads.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let opened = cardroom_store::open(&store).await.unwrap();
        let alice = opened.bot_credential("alice").await.unwrap().unwrap().account.id;
        opened.note_version(alice, "v1\n\u{1b}[31mred", 1).await.unwrap();
        opened.note_version(alice, &"w".repeat(70_000), 2).await.unwrap();
    });
    for format in ["table", "csv"] {
        let listed = bots(&["list", "--format", format], &store);
        assert!(listed.status.success(), "{format}: {}", text(&listed.stderr));
        let out = text(&listed.stdout);
        assert!(!out.contains('\u{1b}'), "{format}: the escape reached the terminal");
        assert!(out.contains("v1\\n\\u{1b}[31mred"), "{format}: {}", &out[..200.min(out.len())]);
        assert_eq!(out.lines().count(), 2, "{format}: a header and one line for alice");
    }
}
