//! A PostgreSQL store over TLS (docs/deploy.md, issue 40): the test cluster (`CARDROOM_TEST_PG`)
//! is given a certificate this test makes, signed by a CA of its own, and switched to TLS
//! (`ALTER SYSTEM`, then a reload; reset at the end). A store whose URL says
//! `sslmode=verify-full&sslrootcert=CA` connects over TLS, and every connection of its pool is
//! encrypted, as `pg_stat_ssl` tells; a store that trusts another CA, the system's roots, or
//! asks for a host the certificate does not name is refused, saying why.

use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::Path;
use std::time::{Duration, Instant};

use cardroom_store::testing::{fresh_schema_url, test_pg_url};
use cardroom_store::{KeyHash, PgStore, Store as _};
use cardroom_tests::TestCertificates;
use tokio_postgres::{Client, NoTls};

/// How long the cluster may take to read its new configuration.
const RELOAD_PATIENCE: Duration = Duration::from_secs(20);

/// A superuser session on the test cluster, in clear.
async fn admin(base: &str) -> Client {
    let (client, connection) =
        tokio_postgres::connect(base, NoTls).await.expect("the test cluster");
    tokio::spawn(connection);
    client
}

/// Sets the cluster's TLS (`ssl` and its files), reloads, and waits until new sessions see it.
async fn set_tls(base: &str, files: Option<(&Path, &Path)>) {
    let client = admin(base).await;
    let statements = match files {
        Some((cert, key)) => vec![
            format!("ALTER SYSTEM SET ssl_cert_file = '{}'", cert.display()),
            format!("ALTER SYSTEM SET ssl_key_file = '{}'", key.display()),
            "ALTER SYSTEM SET ssl = on".to_owned(),
        ],
        None => ["ssl", "ssl_cert_file", "ssl_key_file"]
            .map(|setting| format!("ALTER SYSTEM RESET {setting}"))
            .to_vec(),
    };
    // One at a time: ALTER SYSTEM refuses to run in a transaction, as a batch would be.
    for statement in statements.iter().map(String::as_str).chain(["SELECT pg_reload_conf()"]) {
        client.batch_execute(statement).await.expect("the cluster's TLS set");
    }
    let wanted = if files.is_some() { "on" } else { "off" };
    let start = Instant::now();
    loop {
        // A reload reaches new sessions once the postmaster has read it: ask a new one.
        let row = admin(base).await.query_one("SHOW ssl", &[]).await.expect("SHOW ssl");
        if row.get::<_, String>(0) == wanted {
            return;
        }
        assert!(start.elapsed() < RELOAD_PATIENCE, "ssl still not {wanted}: see the server log");
        tokio::task::yield_now().await;
    }
}

/// Writes the certificate and its key where the cluster can read them: a directory anyone may
/// enter, the key owned by the cluster's owner (as the data directory is) and private to it, as
/// PostgreSQL requires.
fn write_for_cluster(certs: &TestCertificates, dir: &Path, owner: (u32, u32)) -> (String, String) {
    let files = certs.write(dir);
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))
        .expect("the directory opened");
    for file in [&files.cert, &files.key] {
        std::os::unix::fs::chown(file, Some(owner.0), Some(owner.1))
            .expect("the files given to the cluster's owner: run as root, or as that owner");
    }
    std::fs::set_permissions(&files.key, std::fs::Permissions::from_mode(0o600))
        .expect("the key made private");
    (files.cert.display().to_string(), files.key.display().to_string())
}

/// `url` with more query parameters.
fn with(url: &str, more: &str) -> String {
    let separator = if url.contains('?') { '&' } else { '?' };
    format!("{url}{separator}{more}")
}

#[tokio::test]
async fn a_store_over_tls_checks_the_servers_certificate_and_name() {
    let Some(base) = test_pg_url("a_store_over_tls_checks_the_servers_certificate_and_name") else {
        return;
    };
    let data: String = admin(&base)
        .await
        .query_one("SHOW data_directory", &[])
        .await
        .expect("the data directory")
        .get(0);
    let meta = std::fs::metadata(&data).expect("the data directory's owner");
    let dir = tempfile::tempdir().unwrap();
    // For `localhost` alone: a store that dials 127.0.0.1 asks for a name it does not carry.
    let certs = TestCertificates::for_names(&["localhost"]);
    let (cert, key) = write_for_cluster(&certs, dir.path(), (meta.uid(), meta.gid()));
    set_tls(&base, Some((Path::new(&cert), Path::new(&key)))).await;

    let schema_url = fresh_schema_url(&base).await.unwrap();
    let ca = dir.path().join("ca.pem");
    let by_name = schema_url.replacen("@127.0.0.1:", "@localhost:", 1);
    let verified = with(
        &by_name,
        &format!("sslmode=verify-full&sslrootcert={}&application_name=tls-test", ca.display()),
    );
    let store = PgStore::connect(&verified).await.expect("a store over TLS");
    store.register_bot("over-tls", KeyHash::of("key"), 1).await.unwrap();
    assert_eq!(store.bots().await.unwrap().len(), 1);
    store.ready().await.unwrap();
    let encrypted = admin(&base)
        .await
        .query_one(
            "SELECT count(*), count(*) FILTER (WHERE s.ssl) FROM pg_stat_activity a \
             JOIN pg_stat_ssl s USING (pid) WHERE a.application_name = 'tls-test'",
            &[],
        )
        .await
        .unwrap();
    let (sessions, over_tls): (i64, i64) = (encrypted.get(0), encrypted.get(1));
    assert!(sessions >= 1, "the store's pool holds its connections");
    assert_eq!(over_tls, sessions, "every connection of the store is encrypted");

    // Refusals, each naming the certificate's fault.
    let other_ca = dir.path().join("other");
    std::fs::create_dir(&other_ca).unwrap();
    let stranger = TestCertificates::new().write(&other_ca).ca;
    let refused = [
        (
            with(&by_name, &format!("sslmode=verify-full&sslrootcert={}", stranger.display())),
            "UnknownIssuer",
        ),
        (with(&by_name, "sslmode=verify-full"), "UnknownIssuer"),
        (
            with(&schema_url, &format!("sslmode=verify-full&sslrootcert={}", ca.display())),
            "not valid for name",
        ),
        (
            with(&by_name, &format!("sslmode=require&sslrootcert={}", stranger.display())),
            "UnknownIssuer",
        ),
    ];
    for (url, why) in refused {
        let error = PgStore::connect(&url).await.expect_err(&url).to_string();
        assert!(error.contains(why), "{url}: {error}");
    }
    drop(store);
    set_tls(&base, None).await;
}
