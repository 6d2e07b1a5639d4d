//! `cardroom demo`, `cardroom arena run` and `cardroom arena leaderboard`, run as a user runs
//! them: hosted ladders of registered bots on a server the demo starts itself, and arena
//! ladders over real gRPC with an external bot that crashes.
#![allow(clippy::unwrap_used)]

use std::process::{Command, Output};

mod support;

fn cardroom(args: &[&str], dir: &std::path::Path) -> Output {
    std::fs::create_dir_all(dir.join("tmp")).unwrap();
    Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(args)
        .current_dir(dir)
        // Temporary files go to the test's own folder, where the test can see what is left.
        .env("TMPDIR", dir.join("tmp"))
        .output()
        .expect("cardroom runs")
}

/// What is left in the test's temporary folder.
fn left_in_tmp(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir.join("tmp"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn leaderboard(dir: &std::path::Path, db: &str) -> serde_json::Value {
    let output = cardroom(&["arena", "leaderboard", "--db", db, "--format", "json"], dir);
    assert!(output.status.success(), "{}", text(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

fn row<'a>(board: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    board["rows"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap()
}

#[test]
fn the_demo_runs_two_hosted_ladders_of_registered_bots_and_keeps_its_store() {
    let dir = tempfile::tempdir().unwrap();
    let output = cardroom(&["demo", "--matches", "6", "--store", "demo.sqlite"], dir.path());
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    // Every bot stops before the server: none is left trying to reconnect as the runtime
    // shuts down (which panicked in tokio's timer).
    assert!(!stderr.contains("panicked"), "{stderr}");
    // No log folder is named or left behind.
    assert!(left_in_tmp(dir.path()).is_empty(), "{:?}", left_in_tmp(dir.path()));
    let python = !stdout.contains("Python example bot skipped");
    let registered = if python { 9 } else { 8 };
    assert!(stdout.contains(&format!("{registered} bots registered in demo.sqlite")), "{stdout}");
    assert!(stdout.contains("hosted ladder demo-twenty_two: Twenty-Two, 4 seats"), "{stdout}");
    assert!(stdout.contains("hosted ladder demo-gin: Gin Rummy, 2 seats"), "{stdout}");
    assert!(stdout.contains("open http://127.0.0.1:"), "{stdout}");
    assert!(stdout.contains("cardroom serve --store sqlite:demo.sqlite"), "{stdout}");
    // The standings name every bot of each ladder.
    for bot in
        ["tt-random", "tt-heuristic", "tt-careless", "tt-search", "gin-heuristic", "gin-search"]
    {
        assert!(stdout.contains(bot), "{bot}: {stdout}");
    }
    assert!(dir.path().join("demo.sqlite").is_file());
    // A second demo on the same store carries its ladders on: the bots' keys are rotated, the
    // ladders resumed, and the matches rated add up.
    let again =
        cardroom(&["demo", "--matches", "12", "--store", "demo.sqlite", "--no-python"], dir.path());
    let again_out = text(&again.stdout);
    assert!(again.status.success(), "{again_out}\n{}", text(&again.stderr));
    assert!(again_out.contains("8 bots registered in demo.sqlite"), "{again_out}");
    assert!(again_out.contains("hosted ladder demo-gin"), "{again_out}");

    // `cardroom serve --store` on the demo's file serves the hosted ladders' pages: each
    // leaderboard lists its bots, each a link to its page by name.
    let serve = ServeChild::start(dir.path());
    for (ladder, bots) in [
        ("demo-twenty_two", ["tt-random", "tt-heuristic", "tt-careless", "tt-search"]),
        ("demo-gin", ["gin-random", "gin-heuristic", "gin-careless", "gin-search"]),
    ] {
        let page = serve.get(&format!("/ladders/{ladder}"));
        assert!(page.starts_with("HTTP/1.0 200 OK"), "{page}");
        for bot in bots {
            let link = format!("<a href=\"/ladders/{ladder}/bots/{bot}\">{bot}</a>");
            assert!(page.contains(&link), "{ladder} lacks {link}: {page}");
        }
    }
    let bot = serve.get("/ladders/demo-gin/bots/gin-heuristic");
    assert!(bot.starts_with("HTTP/1.0 200 OK") && bot.contains("gin-heuristic"), "{bot}");
    // The old addresses, by account id, move for good to the names', the query kept: each of
    // the ladder's four bots is one of the registered bots' ids.
    let moved: Vec<String> = (1..=registered)
        .map(|id| serve.get(&format!("/ladders/demo-gin/bots/{id}?page=1")))
        .filter(|answer| answer.starts_with("HTTP/1.0 308"))
        .map(|answer| {
            let location = answer.lines().find_map(|l| l.strip_prefix("location: ")).unwrap();
            location.to_owned()
        })
        .collect();
    let mut expected: Vec<String> = ["gin-random", "gin-heuristic", "gin-careless", "gin-search"]
        .map(|bot| format!("/ladders/demo-gin/bots/{bot}?page=1"))
        .into();
    let mut sorted = moved.clone();
    sorted.sort();
    expected.sort();
    assert_eq!(sorted, expected, "{moved:?}");
    let front = serve.get("/");
    assert!(front.contains("href=\"/ladders/demo-gin\""), "{front}");
}

/// `cardroom serve --store sqlite:demo.sqlite` with its pages, on free ports.
struct ServeChild {
    child: std::process::Child,
    pages: std::net::SocketAddr,
}

impl ServeChild {
    fn start(dir: &std::path::Path) -> ServeChild {
        use std::io::BufRead as _;
        let mut child = Command::new(env!("CARGO_BIN_EXE_cardroom"))
            .args(["serve", "--addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0"])
            .args(["--store", "sqlite:demo.sqlite"])
            .current_dir(dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        // It prints the pages' address once they listen.
        let pages = stdout
            .lines()
            .map(Result::unwrap)
            .find_map(|line| line.strip_prefix("cardroom pages on http://").map(str::to_owned))
            .expect("the pages' address")
            .parse()
            .unwrap();
        ServeChild { child, pages }
    }

    /// The whole HTTP/1.0 response to `GET path` (the server closes after it).
    fn get(&self, path: &str) -> String {
        use std::io::{Read as _, Write as _};
        let mut stream = std::net::TcpStream::connect(self.pages).unwrap();
        write!(stream, "GET {path} HTTP/1.0\r\nHost: {}\r\n\r\n", self.pages).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    }
}

impl Drop for ServeChild {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn an_external_bot_that_crashes_is_restarted_counted_and_the_ladder_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let config = r#"
        game = "twenty_two"
        seats = 2
        db = "ladder.sqlite"
        log_dir = "logs"
        move_ms = 50
        bank_ms = 0
        reconnect_grace_ms = 50
        max_restarts = 1
        standings_every = 2

        [format]
        kind = "round_robin"
        rounds = 1

        [[bots]]
        name = "random"
        builtin = "random"

        [[bots]]
        name = "tt-heuristic"
        builtin = "tt-heuristic"

        [[bots]]
        name = "crasher"
        command = ["sh", "-c", "echo dying with $CARDROOM_TOKEN >&2; exit 3"]
    "#;
    std::fs::write(dir.path().join("ladder.toml"), config).unwrap();
    let output = cardroom(&["arena", "run", "ladder.toml"], dir.path());
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    assert!(stdout.contains("played 6 matches"), "{stdout}");
    assert!(stdout.contains("standings after 2 matches"), "{stdout}");
    let board = leaderboard(dir.path(), "ladder.sqlite");
    let crasher = row(&board, "crasher");
    // Two seatings against each of two bots; it never acted, so the server's clock struck it.
    assert_eq!(crasher["matches"], 4);
    assert_eq!(crasher["crashes"], 4, "{crasher}");
    assert!(crasher["timeouts"].as_u64().unwrap() >= 4 * 3, "{crasher}");
    assert_eq!(row(&board, "tt-heuristic")["crashes"], 0);
    let log = std::fs::read_to_string(dir.path().join("logs/crasher.log")).unwrap();
    // Started twice per match (once more after its crash), each time with a seat token.
    assert_eq!(log.lines().filter(|l| l.starts_with("dying with ")).count(), 8, "{log}");

    // The same command again finds the ladder finished.
    let again = cardroom(&["arena", "run", "ladder.toml"], dir.path());
    let stdout = text(&again.stdout);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(stdout.contains("resumed after 6 finished matches"), "{stdout}");
    assert!(stdout.contains("played 0 matches"), "{stdout}");
}

#[test]
fn bad_ladder_files_are_refused_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let config = "game = \"gin\"\ndb = \"x.sqlite\"\n[format]\nkind = \"round_robin\"\n\
                  [[bots]]\nname = \"a\"\nbuiltin = \"tt-heuristic\"\n\
                  [[bots]]\nname = \"b\"\nbuiltin = \"random\"\n";
    std::fs::write(dir.path().join("bad.toml"), config).unwrap();
    let output = cardroom(&["arena", "run", "bad.toml"], dir.path());
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("no built-in bot \"tt-heuristic\""),
        "{}",
        text(&output.stderr)
    );
}

/// A bad file, of any kind, makes nothing: no SQLite file, no log folder.
#[test]
fn a_ladder_file_is_checked_before_its_database_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let ladder = |bots: &str| {
        format!(
            "game = \"twenty_two\"\ndb = \"x.sqlite\"\nlog_dir = \"logs\"\n\
             [format]\nkind = \"round_robin\"\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n{bots}"
        )
    };
    let cases = [
        (ladder("[[bots]]\nname = \"b\"\nbuiltin = \"gin-heuristic\"\n"), "no built-in bot"),
        (ladder(""), "1 bots cannot fill tables of 2"),
        (ladder("[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n"), "bot names must differ"),
        (
            ladder("[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n")
                .replace("[format]", "options = { limit = \"x\" }\n[format]"),
            "the Twenty-Two options",
        ),
    ];
    for (config, reason) in cases {
        std::fs::write(dir.path().join("bad.toml"), &config).unwrap();
        let output = cardroom(&["arena", "run", "bad.toml"], dir.path());
        assert!(!output.status.success(), "{config}");
        assert!(text(&output.stderr).contains(reason), "{config}\n{}", text(&output.stderr));
        assert!(!dir.path().join("x.sqlite").exists(), "{config}");
    }
}

/// An external bot whose program does not exist fails the ladder before its first match (not
/// each match after the reconnect grace), naming the bot and the program.
#[test]
fn an_external_bot_that_cannot_start_fails_the_ladder_at_once() {
    let dir = tempfile::tempdir().unwrap();
    for (command, why) in
        [("no-such-cardroom-bot", "no such program on PATH"), ("./bots/missing.py", "no such file")]
    {
        let config = format!(
            "game = \"twenty_two\"\ndb = \"x.sqlite\"\nreconnect_grace_ms = 600000\n\
             [format]\nkind = \"round_robin\"\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n\
             [[bots]]\nname = \"ghost\"\ncommand = [\"{command}\", \"--fast\"]\n"
        );
        std::fs::write(dir.path().join("ghost.toml"), config).unwrap();
        let output = cardroom(&["arena", "run", "ghost.toml"], dir.path());
        let stderr = text(&output.stderr);
        assert!(!output.status.success());
        assert!(
            stderr.contains(&format!("bot \"ghost\": cannot start \"{command}\": {why}")),
            "{stderr}"
        );
        assert!(!dir.path().join("x.sqlite").exists());
    }
}

/// A resumed ladder whose budget grew plays the extra round; its leaderboard has no colour
/// codes and its log on stderr, redirected here, none either.
#[test]
fn a_resumed_ladder_plays_the_rounds_its_budget_grew_by() {
    let dir = tempfile::tempdir().unwrap();
    let config = |rounds: u32| {
        format!(
            "game = \"twenty_two\"\ndb = \"grow.sqlite\"\n[format]\nkind = \"round_robin\"\n\
             rounds = {rounds}\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n\
             [[bots]]\nname = \"b\"\nbuiltin = \"tt-heuristic\"\n"
        )
    };
    std::fs::write(dir.path().join("grow.toml"), config(1)).unwrap();
    let first = cardroom(&["arena", "run", "grow.toml"], dir.path());
    assert!(first.status.success(), "{}", text(&first.stderr));
    std::fs::write(dir.path().join("grow.toml"), config(2)).unwrap();
    let second = cardroom(&["arena", "run", "grow.toml"], dir.path());
    let stdout = text(&second.stdout);
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert!(stdout.contains("resumed after 2 finished matches"), "{stdout}");
    assert!(stdout.contains("played 2 matches"), "{stdout}");
    std::fs::write(dir.path().join("grow.toml"), config(1)).unwrap();
    let shrunk = cardroom(&["arena", "run", "grow.toml"], dir.path());
    let stderr = text(&shrunk.stderr);
    assert!(!shrunk.status.success());
    assert!(stderr.contains("format.rounds = 2, the file now says 1"), "{stderr}");
    for output in [&first, &second, &shrunk] {
        assert!(!output.stdout.contains(&0x1b) && !output.stderr.contains(&0x1b));
    }
}

/// The log of `cardroom serve`, redirected to a file, has no colour codes.
#[test]
fn a_log_redirected_to_a_file_has_no_colour_codes() {
    let dir = tempfile::tempdir().unwrap();
    let log = std::fs::File::create(dir.path().join("serve.log")).unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(["serve", "--addr", "127.0.0.1:0", "--record-dir", "records"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(log)
        .spawn()
        .unwrap();
    // The server says where it listens once it does; its log has said so by then.
    support::listening_address(&mut server);
    let status = Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
    assert!(status.success());
    assert!(server.wait().unwrap().success());
    let log = std::fs::read(dir.path().join("serve.log")).unwrap();
    assert!(text(&log).contains("cardroom serving"), "{}", text(&log));
    assert!(!log.contains(&0x1b), "{}", text(&log));
}

/// A ladder on a running server that speaks TLS: `server = "https://…"` with its `ca_file`; the
/// built-in bots play over TLS, and an external bot's command is given the CA file.
#[test]
fn a_ladder_plays_on_an_https_server_with_its_ca_file() {
    let dir = tempfile::tempdir().unwrap();
    let files = cardroom_tests::TestCertificates::new().write(dir.path());
    let mut server = Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(["serve", "--addr", "127.0.0.1:0", "--record-dir", "records"])
        // The external seat never plays: its matches start after this grace, not 10 s.
        .args(["--reconnect-grace-ms", "500"])
        .arg("--tls-cert")
        .arg(&files.cert)
        .arg("--tls-key")
        .arg(&files.key)
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let addr = support::listening_address(&mut server);
    let config = format!(
        r#"
        game = "twenty_two"
        db = "ladder.sqlite"
        log_dir = "logs"
        move_ms = 50
        server = "https://{addr}"
        ca_file = "ca.pem"

        [format]
        kind = "round_robin"
        rounds = 1

        [[bots]]
        name = "random"
        builtin = "random"

        [[bots]]
        name = "tt-heuristic"
        builtin = "tt-heuristic"

        [[bots]]
        name = "absent"
        command = ["sh", "-c", "echo trusting $CARDROOM_CA_FILE for $CARDROOM_SERVER"]
    "#
    );
    std::fs::write(dir.path().join("ladder.toml"), config).unwrap();
    let output = cardroom(&["arena", "run", "ladder.toml"], dir.path());
    let _ = server.kill();
    let _ = server.wait();
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    assert!(stdout.contains("played 6 matches"), "{stdout}");
    let board = leaderboard(dir.path(), "ladder.sqlite");
    // The built-in bots played over TLS: between themselves, with no strike.
    for name in ["random", "tt-heuristic"] {
        let bot = row(&board, name);
        assert_eq!(bot["matches"], 4, "{bot}");
        assert_eq!(bot["timeouts"], 0, "{bot}");
    }
    let log = std::fs::read_to_string(dir.path().join("logs/absent.log")).unwrap();
    let expected = format!("trusting ca.pem for https://{addr}");
    assert_eq!(log.lines().filter(|l| *l == expected).count(), 4, "{log}");

    // The arena's own server speaks plaintext: a CA file without an https:// server is refused.
    let plain = "game = \"twenty_two\"\ndb = \"plain.sqlite\"\nca_file = \"ca.pem\"\n\
                 [format]\nkind = \"round_robin\"\n\
                 [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n\
                 [[bots]]\nname = \"b\"\nbuiltin = \"random\"\n";
    std::fs::write(dir.path().join("plain.toml"), plain).unwrap();
    let output = cardroom(&["arena", "run", "plain.toml"], dir.path());
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("`ca_file` is for an https:// `server`"),
        "{}",
        text(&output.stderr)
    );
}

/// `arena power` on four-seat Twenty-Two, 2 trials, a pool of `deals` deals and the field of
/// `shares` (smaller than the default eight bots, so that a test build plays it in seconds).
fn small_power(deals: &'static str, shares: &'static str) -> [&'static str; 10] {
    [
        "arena",
        "power",
        "--game",
        "twenty_two",
        "--trials",
        "2",
        "--deals",
        deals,
        "--shares",
        shares,
    ]
}

#[test]
fn arena_power_prints_every_method_and_ends_with_the_ratio() {
    let dir = tempfile::tempdir().unwrap();
    let out = cardroom(&small_power("30", "0,0.1,0.25,0.5"), dir.path());
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("Twenty-Two at 4 seats: 5 bots, 30 deals"), "{stdout}");
    assert!(lines[1].starts_with("true order (pool head-to-head): heuristic-0% > "), "{stdout}");
    let header = lines.iter().position(|l| l.starts_with("method")).unwrap();
    // One row per method, each with its median, quartiles and shares.
    let rows = &lines[header + 1..header + 10];
    assert!(rows[0].starts_with("independent deals, Elo"), "{stdout}");
    for row in rows {
        assert_eq!(row.matches('%').count(), 2, "{row}");
    }
    let last = lines.last().unwrap();
    let ratio: f64 = last.strip_prefix("ratio ").unwrap().parse().unwrap();
    let digits = last.strip_prefix("ratio ").unwrap();
    assert!(ratio > 0.0 && digits.split_once('.').is_some_and(|(_, d)| d.len() == 2), "{last}");
}

#[test]
fn arena_power_keeps_its_pool_and_reruns_the_methods_on_the_same_matches() {
    let dir = tempfile::tempdir().unwrap();
    let args = small_power("20", "0,0.25,0.5");
    let run = |extra: &[&str]| {
        let all: Vec<&str> = args.iter().chain(extra).copied().collect();
        let out = cardroom(&all, dir.path());
        assert!(out.status.success(), "{}", text(&out.stderr));
        // Everything but the first line (the pool's time).
        text(&out.stdout).lines().skip(1).collect::<Vec<_>>().join("\n")
    };
    let played = run(&["--pool", "pool.json"]);
    assert!(dir.path().join("pool.json").exists());
    assert_eq!(run(&["--pool", "pool.json"]), played, "read back: the same matches");
    assert_eq!(run(&[]), played, "the same pool played again");
    // Another seed is another pool: the file is not read for it.
    assert_ne!(run(&["--pool", "pool.json", "--seed", "9"]), played);
}

#[test]
fn arena_power_refuses_a_field_whose_order_is_not_known() {
    let dir = tempfile::tempdir().unwrap();
    for (shares, says) in [
        ("0,0.5,0.25", "0.5 then 0.25: the shares rise"),
        ("0,1.5", "1.5 is not a share of moves"),
        ("0,0.1,0.1", "0.1 then 0.1: the shares rise"),
    ] {
        let args = ["arena", "power", "--game", "gin", "--deals", "2", "--shares", shares];
        let out = cardroom(&args, dir.path());
        assert!(!out.status.success(), "{shares}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(says), "{shares}: {stderr}");
        assert!(out.stdout.is_empty(), "nothing played for {shares}");
    }
}
