//! Stores for tests, of this crate and of the others: a PostgreSQL store in a schema of its own
//! inside the throwaway cluster that `CARDROOM_TEST_PG` names.
//!
//! `scripts/pg-test-cluster start DIR` starts such a cluster and prints the variable; `.ci/run`
//! always does, so in CI every PostgreSQL test runs. Without the variable a test that needs
//! PostgreSQL fails, naming the command; `CARDROOM_TEST_PG=skip` skips those tests, saying so on
//! standard error, for a machine without PostgreSQL. Each store gets a new schema, so tests run
//! in parallel on one database without seeing each other's rows; the schemas go with the
//! cluster. Never point the variable at a database you keep.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use tokio_postgres::NoTls;

use crate::{PgStore, StoreError};

/// Migration 10's count of each bot's done matches, wins and failures from the stored matches:
/// SQL that sets every `ladder_bots` row's counts anew (both dialects), for tests that check
/// the counts kept by each result against a recount.
pub const LEADERBOARD_RECOUNT: &str = crate::reads::COUNT_STORED;

/// The variable naming the test cluster's database: a `postgres://` URL, or `skip`.
pub const TEST_PG_VAR: &str = "CARDROOM_TEST_PG";

/// The test cluster's URL from [`TEST_PG_VAR`]; `None` (said on standard error) when it is
/// `skip`.
///
/// # Panics
///
/// When the variable is unset: a PostgreSQL test must not pass without running.
pub fn test_pg_url(test: &str) -> Option<String> {
    match std::env::var(TEST_PG_VAR) {
        Ok(url) if url == "skip" => {
            eprintln!("SKIPPED {test}: {TEST_PG_VAR}=skip, this PostgreSQL test did not run");
            None
        }
        Ok(url) => Some(url),
        Err(_) => panic!(
            "{test} needs PostgreSQL: run `eval \"$(scripts/pg-test-cluster start \"$(mktemp -d)\")\"` \
             to start a throwaway cluster and set {TEST_PG_VAR}, or set {TEST_PG_VAR}=skip to skip \
             the PostgreSQL tests"
        ),
    }
}

/// Makes a new, empty schema in the database at `base` and returns the URL of the same
/// database whose connections work in that schema (their `search_path`).
pub async fn fresh_schema_url(base: &str) -> Result<String, StoreError> {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_nanos());
    let schema = format!(
        "test_{}_{}_{}",
        std::process::id(),
        nanos % 1_000_000_000_000,
        COUNT.fetch_add(1, Ordering::Relaxed)
    );
    let (client, connection) = tokio_postgres::connect(base, NoTls).await?;
    let connection = tokio::spawn(connection);
    client.batch_execute(&format!("CREATE SCHEMA {schema}")).await?;
    drop(client);
    connection.await??;
    let separator = if base.contains('?') { '&' } else { '?' };
    Ok(format!("{base}{separator}options=-csearch_path%3D{schema}"))
}

/// A [`PgStore`] in a new schema of the test cluster; `None` when the PostgreSQL tests are
/// skipped (see [`test_pg_url`]).
///
/// # Panics
///
/// When [`TEST_PG_VAR`] is unset, or the cluster cannot be reached.
pub async fn fresh_pg_store(test: &str) -> Option<PgStore> {
    let base = test_pg_url(test)?;
    let opened = async { PgStore::connect(&fresh_schema_url(&base).await?).await }.await;
    match opened {
        Ok(store) => Some(store),
        Err(error) => panic!("{test}: the test cluster {TEST_PG_VAR}={base} fails: {error}"),
    }
}

/// One entry of a hand-made archive ([`archive`]).
#[derive(Clone, Copy, Debug)]
pub enum Item<'a> {
    /// A regular file and its bytes.
    File(&'a str, &'a [u8]),
    /// A symbolic link and its target.
    Symlink(&'a str, &'a str),
    /// A hard link and its target.
    Hardlink(&'a str, &'a str),
    /// A fifo.
    Fifo(&'a str),
}

/// A `.tar.gz` of `items`, written header by header with the names as given (at most 100
/// bytes, unchecked: a `..` or an absolute path is written as an attacker would).
///
/// # Panics
///
/// On a name or target over 100 bytes.
pub fn archive(items: &[Item<'_>]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut builder = tar::Builder::new(gz);
    for item in items {
        let mut header = tar::Header::new_gnu();
        header.set_mode(0o644);
        let (name, kind, link, data): (&str, _, Option<&str>, &[u8]) = match *item {
            Item::File(name, data) => (name, tar::EntryType::Regular, None, data),
            Item::Symlink(name, to) => (name, tar::EntryType::Symlink, Some(to), b""),
            Item::Hardlink(name, to) => (name, tar::EntryType::Link, Some(to), b""),
            Item::Fifo(name) => (name, tar::EntryType::Fifo, None, b""),
        };
        header.set_entry_type(kind);
        header.set_size(data.len() as u64);
        // Raw bytes: `set_path` itself refuses `..`, and the point is to send them.
        header.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
        if let Some(link) = link {
            header.as_old_mut().linkname[..link.len()].copy_from_slice(link.as_bytes());
        }
        header.set_cksum();
        builder.append(&header, data).expect("writing to memory");
    }
    builder.into_inner().and_then(|gz| gz.finish()).expect("writing to memory")
}
