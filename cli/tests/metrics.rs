//! What an operator watches (issue 40), through the stock `cardroom serve` with its pages and
//! the stock `random` bots, as docs/deploy.md ("Watching it") has them:
//!
//! - `/metrics` during a hosted ladder is Prometheus' text exposition format, and its figures
//!   move: the lobby, matches running and finished, decisions, the round trip, claims and
//!   results by ladder, the store's call times;
//! - `/healthz` answers 200; `/readyz` answers 200 over a store at this build's schema and 503,
//!   with the reason, while it is not (a SQLite file a newer cardroom migrated; a PostgreSQL
//!   store out of reach), and 200 again once it is back;
//! - `--log-format json` writes one JSON object a line, with its level and message;
//! - a node that speaks TLS answers the three paths on its `--http-addr`, with no pages.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead as _, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use cardroom_tests::{Break, Proxy, eventually};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

mod support;

use support::{Reaped, StockBot, add_bot, example_bot};

/// Short matches (a limit of 5 points), two seats, one match at a time per bot.
const LADDER: &str = "name = \"duel\"\ngame = \"twenty_two\"\noptions = { limit = 5 }\n\
                      seats = 2\nseed = 5\nmax_concurrent = 1\n";

/// `cardroom serve --http-addr 127.0.0.1:0 --log-format json` over `store`, registered bots
/// only; killed when dropped. Its log (standard error) is kept, line by line.
struct Node {
    process: Reaped,
    grpc: String,
    pages: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
    /// The thread that reads the log; it ends with the server's standard error.
    reader: std::thread::JoinHandle<()>,
}

impl Node {
    /// Starts the server, with the hosted ladder file `ladder` if given.
    fn start(store: &str, records: &Path, ladder: Option<&Path>) -> Node {
        let mut process = Reaped(
            Command::new(env!("CARGO_BIN_EXE_cardroom"))
                .args(["serve", "--addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0"])
                .args(["--store", store, "--registered-only", "--log-format", "json"])
                .arg("--record-dir")
                .arg(records)
                .args(ladder.into_iter().flat_map(|ladder| [Path::new("--ladder"), ladder]))
                .env("RUST_LOG", "info")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap(),
        );
        let log = Arc::new(Mutex::new(Vec::new()));
        let (stderr, kept) = (process.stderr.take().unwrap(), Arc::clone(&log));
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                kept.lock().unwrap().push(line);
            }
        });
        let mut lines = BufReader::new(process.stdout.take().unwrap()).lines();
        let mut line = || lines.next().unwrap().unwrap();
        let grpc = line().strip_prefix("cardroom listening on ").unwrap().to_owned();
        let pages = line();
        let pages = pages.strip_prefix("cardroom pages on http://").unwrap().parse().unwrap();
        Node { process, grpc, pages, log, reader }
    }

    /// A GET of `path` on the pages' address: the status and the body.
    async fn get(&self, path: &str) -> (u16, String) {
        get(self.pages, path).await
    }

    /// `/metrics`, checked as Prometheus' text format and parsed.
    async fn scrape(&self) -> Scrape {
        scrape(self.pages).await
    }

    /// Stops the server with SIGTERM, as a service manager does, and returns its log.
    fn stop(self) -> Vec<String> {
        let Node { mut process, log, reader, .. } = self;
        let pid = nix::unistd::Pid::from_raw(i32::try_from(process.id()).unwrap());
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
        let exit = process.wait().unwrap();
        assert!(exit.success(), "{exit:?}");
        // The reader ends with the pipe: every line is in once it has.
        reader.join().unwrap();
        std::mem::take(&mut *log.lock().unwrap())
    }
}

/// A GET of `path` on `addr`: the status and the body.
async fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, body.to_owned())
}

/// `/metrics` on `addr`, checked as Prometheus' text format and parsed.
async fn scrape(addr: SocketAddr) -> Scrape {
    let (status, text) = get(addr, "/metrics").await;
    assert_eq!(status, 200, "{text}");
    Scrape::parse(&text)
}

/// One series: its name and labels.
type Series = (String, BTreeMap<String, String>);

/// A scrape in Prometheus' text exposition format (0.0.4), checked as Prometheus reads it:
/// every sample belongs to a family declared once by its `# TYPE` line (a histogram's as
/// `_bucket`, `_sum` and `_count`), names and labels are well formed, each series appears
/// once, counters end in `_total`, and each histogram's buckets add up to its count.
struct Scrape {
    types: HashMap<String, String>,
    samples: HashMap<Series, f64>,
}

impl Scrape {
    fn parse(text: &str) -> Scrape {
        let name_ok = |name: &str| {
            let mut chars = name.chars();
            chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
        };
        let mut types = HashMap::new();
        let mut samples = HashMap::new();
        for line in text.lines().filter(|line| !line.is_empty()) {
            if let Some(comment) = line.strip_prefix("# ") {
                let mut words = comment.splitn(3, ' ');
                let (kind, name, rest) = (words.next(), words.next().unwrap(), words.next());
                assert!(name_ok(name), "a bad name in {line:?}");
                if kind == Some("TYPE") {
                    let kind = rest.unwrap();
                    assert!(
                        ["counter", "gauge", "histogram", "summary", "untyped"].contains(&kind),
                        "{line:?}"
                    );
                    if kind == "counter" {
                        assert!(name.ends_with("_total"), "a counter not in _total: {line:?}");
                    }
                    let declared = types.insert(name.to_owned(), kind.to_owned());
                    assert!(declared.is_none(), "{name} declared twice");
                } else {
                    assert_eq!(kind, Some("HELP"), "{line:?}");
                }
                continue;
            }
            let (series, value) = line.rsplit_once(' ').unwrap();
            let value: f64 = match value {
                "+Inf" => f64::INFINITY,
                "-Inf" => f64::NEG_INFINITY,
                value => value.parse().unwrap_or_else(|_| panic!("a bad value in {line:?}")),
            };
            let (name, labels) = match series.split_once('{') {
                Some((name, labels)) => (name, labels.strip_suffix('}').unwrap()),
                None => (series, ""),
            };
            assert!(name_ok(name), "a bad name in {line:?}");
            let family = ["_bucket", "_sum", "_count"]
                .iter()
                .filter_map(|suffix| name.strip_suffix(suffix))
                .find(|family| types.get(*family).is_some_and(|kind| kind == "histogram"))
                .unwrap_or(name);
            assert!(types.contains_key(family), "{name} has no # TYPE before it");
            let mut parsed = BTreeMap::new();
            let mut rest = labels;
            while !rest.is_empty() {
                let (label, after) = rest.split_once("=\"").unwrap();
                assert!(name_ok(label), "a bad label in {line:?}");
                // The value runs to the first quote not escaped.
                let mut value = String::new();
                let mut chars = after.char_indices();
                let end = loop {
                    match chars.next().unwrap() {
                        (_, '\\') => value.push(chars.next().unwrap().1),
                        (at, '"') => break at,
                        (_, c) => value.push(c),
                    }
                };
                parsed.insert(label.to_owned(), value);
                rest = after[end + 1..].strip_prefix(',').unwrap_or(&after[end + 1..]);
            }
            let again = samples.insert((name.to_owned(), parsed), value);
            assert!(again.is_none(), "{line:?} twice");
        }
        let scrape = Scrape { types, samples };
        scrape.check_histograms();
        scrape
    }

    /// Each histogram series' buckets only grow, and its `+Inf` bucket is its count.
    fn check_histograms(&self) {
        for (family, _) in self.types.iter().filter(|(_, kind)| *kind == "histogram") {
            let mut buckets: BTreeMap<BTreeMap<String, String>, Vec<(f64, f64)>> = BTreeMap::new();
            for ((name, labels), &value) in &self.samples {
                if name.strip_suffix("_bucket") != Some(family) {
                    continue;
                }
                let mut labels = labels.clone();
                let le = labels.remove("le").unwrap();
                let le = if le == "+Inf" { f64::INFINITY } else { le.parse().unwrap() };
                buckets.entry(labels).or_default().push((le, value));
            }
            for (labels, mut series) in buckets {
                series.sort_by(|a, b| a.0.total_cmp(&b.0));
                assert!(series.windows(2).all(|w| w[0].1 <= w[1].1), "{family} {labels:?}");
                let count = self.samples[&(format!("{family}_count"), labels.clone())];
                assert_eq!(series.last().unwrap(), &(f64::INFINITY, count), "{family} {labels:?}");
            }
        }
    }

    /// The sum of `name`'s series whose labels include `labels`.
    fn sum(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        self.samples
            .iter()
            .filter(|((n, l), _)| {
                n == name && labels.iter().all(|(k, v)| l.get(*k).map(String::as_str) == Some(*v))
            })
            .map(|(_, value)| value)
            .sum()
    }
}

/// The figures a test follows between scrapes.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
struct Moving {
    finished: f64,
    decisions: f64,
    round_trips: f64,
    claims: f64,
    results: f64,
    claim_calls: f64,
    result_calls: f64,
}

impl Moving {
    fn of(scrape: &Scrape) -> Moving {
        let hosted = [("origin", "hosted")];
        let duel = [("ladder", "duel")];
        let calls = |operation| {
            scrape.sum("cardroom_store_call_seconds_count", &[("operation", operation)])
        };
        Moving {
            finished: scrape.sum("cardroom_matches_finished_total", &hosted),
            decisions: scrape.sum("cardroom_decisions_total", &hosted),
            round_trips: scrape.sum("cardroom_decision_round_trip_seconds_count", &hosted),
            claims: scrape.sum("cardroom_ladder_claims_total", &duel),
            results: scrape.sum("cardroom_ladder_results_total", &duel),
            claim_calls: calls("claim_ready"),
            result_calls: calls("finish_match"),
        }
    }

    /// Whether every figure is beyond `before`'s.
    fn all_beyond(&self, before: &Moving) -> bool {
        let pairs = [
            (self.finished, before.finished),
            (self.decisions, before.decisions),
            (self.round_trips, before.round_trips),
            (self.claims, before.claims),
            (self.results, before.results),
            (self.claim_calls, before.claim_calls),
            (self.result_calls, before.result_calls),
        ];
        pairs.iter().all(|(now, then)| now > then)
    }
}

#[test]
fn the_figures_move_during_a_hosted_ladder_and_readyz_follows_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let store_path = dir.path().join("store.db");
    let store_url = format!("sqlite:{}", store_path.display());
    let ladder = dir.path().join("duel.toml");
    std::fs::write(&ladder, LADDER).unwrap();
    let keys: Vec<String> = ["ann", "ben"].iter().map(|name| add_bot(&store_url, name)).collect();
    let node = Node::start(&store_url, &dir.path().join("records"), Some(&ladder));
    let url = format!("http://{}", node.grpc);
    let random = example_bot("random");
    let bot = |name: &str, key: &str| {
        let args = ["--server", &url, "--lobby", name, "--key", key, "--matches", "0"];
        StockBot::start(name, &random, &args)
    };
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        assert_eq!(node.get("/healthz").await, (200, "ok\n".to_owned()));
        assert_eq!(node.get("/readyz").await, (200, "ready\n".to_owned()));
        let first = node.scrape().await;
        for (family, kind) in [
            ("cardroom_matches_running", "gauge"),
            ("cardroom_matches_finished_total", "counter"),
            ("cardroom_decisions_total", "counter"),
            ("cardroom_decision_round_trip_seconds", "histogram"),
            ("cardroom_failures_total", "counter"),
            ("cardroom_lobby_bots", "gauge"),
            ("cardroom_lobby_streams", "gauge"),
            ("cardroom_connections_open", "gauge"),
            ("cardroom_store_call_seconds", "histogram"),
            ("cardroom_ladder_claims_total", "counter"),
            ("cardroom_ladder_results_total", "counter"),
            ("cardroom_ladder_matches_released_total", "counter"),
            ("cardroom_ladder_failures_total", "counter"),
            ("cardroom_ladder_matches_running", "gauge"),
            ("cardroom_ladder_bots_seen", "gauge"),
            ("cardroom_requeued_matches_total", "counter"),
            ("cardroom_lease_renewals_total", "counter"),
            ("cardroom_leases_renewed_total", "counter"),
            ("process_cpu_seconds_total", "counter"),
            ("process_resident_memory_bytes", "gauge"),
        ] {
            assert_eq!(first.types.get(family).map(String::as_str), Some(kind), "{family}");
        }
        let before = Moving::of(&first);
        assert_eq!((before.finished, before.claims), (0.0, 0.0), "{before:?}");

        // One bot alone: it waits in the lobby, and the ladder sees it.
        let ann = bot("ann", &keys[0]);
        eventually("ann in the lobby", || async {
            let scrape = node.scrape().await;
            let seen = scrape.sum("cardroom_ladder_bots_seen", &[("ladder", "duel")]);
            (scrape.sum("cardroom_lobby_bots", &[]) == 1.0 && seen == 1.0).then_some(())
        })
        .await;

        // Two: they play, and every figure moves, twice over.
        let ben = bot("ben", &keys[1]);
        let seen_running = std::cell::Cell::new(false);
        let mut last = before;
        for round in 0..2 {
            last = eventually(&format!("the figures moving (round {round})"), || async {
                ann.assert_running();
                ben.assert_running();
                let scrape = node.scrape().await;
                let running = scrape.sum("cardroom_matches_running", &[("origin", "hosted")]);
                let here = scrape.sum("cardroom_ladder_matches_running", &[("ladder", "duel")]);
                if running == 1.0 && here == 1.0 {
                    seen_running.set(true);
                }
                let now = Moving::of(&scrape);
                (now.all_beyond(&last) && seen_running.get()).then_some(now)
            })
            .await;
        }
        assert!(last.results <= last.claims, "{last:?}");
        let scrape = node.scrape().await;
        assert!(
            scrape.sum("cardroom_store_call_seconds_count", &[("operation", "bot_credential")])
                >= 2.0
        );
        assert!(scrape.sum("cardroom_lease_renewals_total", &[("outcome", "ok")]) >= 1.0);
        assert_eq!(scrape.sum("cardroom_lease_renewals_total", &[("outcome", "failed")]), 0.0);

        // A newer cardroom migrates the file under this one: not ready, saying why, until the
        // schema is this build's again.
        let file = rusqlite::Connection::open(&store_path).unwrap();
        file.busy_timeout(cardroom_tests::MESSAGE_PATIENCE).unwrap();
        let ours: i64 = file.pragma_query_value(None, "user_version", |row| row.get(0)).unwrap();
        file.pragma_update(None, "user_version", 99).unwrap();
        let (status, body) = node.get("/readyz").await;
        assert_eq!(status, 503, "{body}");
        assert!(body.starts_with("not ready: the store: "), "{body}");
        assert!(body.contains("schema version 99"), "{body}");
        assert_eq!(node.get("/healthz").await.0, 200, "alive all the same");
        file.pragma_update(None, "user_version", ours).unwrap();
        assert_eq!(node.get("/readyz").await.0, 200);
    });

    // The log: one JSON object a line, each with its time, level and message.
    let log = node.stop();
    assert!(!log.is_empty());
    for line in &log {
        let event: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
        assert!(event["timestamp"].is_string(), "{line}");
        assert!(
            ["TRACE", "DEBUG", "INFO", "WARN", "ERROR"].contains(&event["level"].as_str().unwrap())
        );
        assert!(event["fields"]["message"].is_string(), "{line}");
    }
    let hosted = log.iter().find(|line| line.contains("\"hosted ladder\"")).unwrap();
    let hosted: serde_json::Value = serde_json::from_str(hosted).unwrap();
    assert_eq!(hosted["level"], "INFO");
    assert_eq!(hosted["fields"]["ladder"], "duel");
}

/// A node on PostgreSQL, reached through a proxy the test breaks: ready while the database
/// answers, 503 naming the store while it is out of reach (every connection refused), ready
/// again once it is back; alive all along, its heartbeats' store calls timed on `/metrics`.
#[test]
fn readyz_answers_503_while_postgres_is_out_of_reach() {
    let Some(base) = cardroom_store::testing::test_pg_url("readyz_postgres") else { return };
    let dir = tempfile::tempdir().unwrap();
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let url = cardroom_store::testing::fresh_schema_url(&base).await.unwrap();
        let (user, rest) = url.split_once('@').unwrap();
        let (database, tail) = rest.split_once('/').unwrap();
        let database = tokio::net::lookup_host(database).await.unwrap().next().unwrap();
        let proxy = Proxy::start(database).await;
        let through = format!("{user}@{}/{tail}", proxy.addr);
        let node = Node::start(&through, &dir.path().join("records"), None);
        assert_eq!(node.get("/readyz").await, (200, "ready\n".to_owned()));
        eventually("a heartbeat timed", || async {
            let scrape = node.scrape().await;
            let beats =
                scrape.sum("cardroom_store_call_seconds_count", &[("operation", "beat_node")]);
            (beats >= 1.0).then_some(())
        })
        .await;

        proxy.break_links(Break::Down);
        let body = eventually("not ready", || async {
            let (status, body) = node.get("/readyz").await;
            (status == 503).then_some(body)
        })
        .await;
        assert!(body.starts_with("not ready: the store"), "{body}");
        assert_eq!(node.get("/healthz").await.0, 200, "alive all the same");
        assert_eq!(node.get("/metrics").await.0, 200, "its figures too");

        proxy.break_links(Break::None);
        eventually("ready again", || async { (node.get("/readyz").await.0 == 200).then_some(()) })
            .await;
        node.stop();
    });
}

/// A server that speaks only TLS has no pages (they read it over plaintext gRPC), but its
/// `--http-addr` answers the operator's three paths, the game server asked in the process.
#[test]
fn a_tls_node_answers_health_and_metrics_on_its_http_address() {
    let dir = tempfile::tempdir().unwrap();
    let files = cardroom_tests::TestCertificates::new().write(dir.path());
    let mut server = Reaped(
        Command::new(env!("CARGO_BIN_EXE_cardroom"))
            .args(["serve", "--addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0"])
            .arg("--tls-cert")
            .arg(&files.cert)
            .arg("--tls-key")
            .arg(&files.key)
            .arg("--record-dir")
            .arg(dir.path().join("records"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let grpc = lines.next().unwrap().unwrap();
    assert!(grpc.starts_with("cardroom listening on 127.0.0.1:"), "{grpc}");
    let http = lines.next().unwrap().unwrap();
    let http = http.strip_prefix("cardroom health and metrics on http://").unwrap();
    let http: SocketAddr = http.parse().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        assert_eq!(get(http, "/healthz").await, (200, "ok\n".to_owned()));
        assert_eq!(get(http, "/readyz").await, (200, "ready\n".to_owned()));
        let figures = scrape(http).await;
        let decisions = figures.types.get("cardroom_decisions_total").map(String::as_str);
        assert_eq!(decisions, Some("counter"));
        assert_eq!(get(http, "/server").await.0, 404, "no pages");
    });
}
