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

/// A count of the contract's JSON mapping (a 64-bit one is a string there).
fn count(value: &serde_json::Value) -> u64 {
    value.as_u64().or_else(|| value.as_str()?.parse().ok()).unwrap_or_else(|| panic!("{value}"))
}

fn row<'a>(board: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    board["rows"].as_array().unwrap().iter().find(|r| r["bot"] == name).unwrap()
}

#[test]
fn the_demo_runs_a_hosted_ladder_of_each_game_with_registered_bots_and_keeps_its_store() {
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
    // Four example bots for each of the three games, and the Python one.
    let registered = if python { 13 } else { 12 };
    if python {
        // Submitted and hosted in a sandbox, as `serve --host-bots` does: CI has what it needs,
        // and a machine without it says why.
        let hosted = "Python example bot hosted in a sandbox";
        assert!(stdout.contains(hosted), "{stdout}");
        assert!(stdout.contains("python-tt"), "in the standings: {stdout}");
    }
    assert!(stdout.contains(&format!("{registered} bots registered in demo.sqlite")), "{stdout}");
    assert!(stdout.contains("hosted ladder demo-twenty_two: Twenty-Two, 4 seats"), "{stdout}");
    assert!(stdout.contains("hosted ladder demo-gin: Gin Rummy, 2 seats"), "{stdout}");
    assert!(stdout.contains("hosted ladder demo-holdem: Texas Hold'em, 4 seats"), "{stdout}");
    assert!(stdout.contains("open http://127.0.0.1:"), "{stdout}");
    assert!(stdout.contains("cardroom serve --store sqlite:demo.sqlite"), "{stdout}");
    // The standings name every bot of each ladder.
    for bot in [
        "tt-random",
        "tt-heuristic",
        "tt-careless",
        "tt-search",
        "gin-heuristic",
        "gin-search",
        "holdem-heuristic",
        "holdem-search",
    ] {
        assert!(stdout.contains(bot), "{bot}: {stdout}");
    }
    assert!(dir.path().join("demo.sqlite").is_file());
    // A second demo on the same store carries its ladders on: the bots' keys are rotated, the
    // ladders resumed, and the matches rated add up.
    let again =
        cardroom(&["demo", "--matches", "12", "--store", "demo.sqlite", "--no-python"], dir.path());
    let again_out = text(&again.stdout);
    assert!(again.status.success(), "{again_out}\n{}", text(&again.stderr));
    assert!(again_out.contains("12 bots registered in demo.sqlite"), "{again_out}");
    assert!(again_out.contains("hosted ladder demo-gin"), "{again_out}");

    // `cardroom serve --store` on the demo's file serves the hosted ladders' pages: each
    // leaderboard lists its bots, each a link to its page by name.
    let serve = ServeChild::start(dir.path());
    for (ladder, bots) in [
        ("demo-twenty_two", ["tt-random", "tt-heuristic", "tt-careless", "tt-search"]),
        ("demo-gin", ["gin-random", "gin-heuristic", "gin-careless", "gin-search"]),
        ("demo-holdem", ["holdem-random", "holdem-heuristic", "holdem-careless", "holdem-search"]),
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

/// A ladder file of `bots` (TOML `[[bots]]` tables) in `format`, on `ladder.sqlite`.
fn ladder_file(game: &str, format: &str, bots: &str) -> String {
    format!(
        "game = \"{game}\"\ndb = \"ladder.sqlite\"\nlog_dir = \"logs\"\nstandings_every = 2\n\
         [format]\n{format}\n{bots}"
    )
}

/// `[[bots]]` tables of built-in bots, `name = builtin` each.
fn builtins(bots: &[(&str, &str)]) -> String {
    bots.iter()
        .map(|(name, b)| format!("[[bots]]\nname = \"{name}\"\nbuiltin = \"{b}\"\n"))
        .collect()
}

/// A stock example bot as a ladder file's `command` bot (the flags the arena appends make it
/// wait in the lobby with its key).
fn stock(name: &str, binary: &str) -> String {
    let path = support::example_bot(binary);
    format!("[[bots]]\nname = \"{name}\"\ncommand = [\"{}\"]\n", path.display())
}

fn run_file(dir: &std::path::Path, config: &str) -> (Output, String) {
    std::fs::write(dir.join("ladder.toml"), config).unwrap();
    let output = cardroom(&["arena", "run", "ladder.toml"], dir);
    let stdout = text(&output.stdout);
    (output, stdout)
}

/// A round robin of two built-in bots and a stock bot the arena starts as a program: played to
/// its plan on a hosted ladder in `db`, the program's log kept, and the same file run again
/// carries the ladder on once its budget grows; a changed seed is refused, naming it.
#[test]
fn a_ladder_of_built_in_and_program_bots_plays_its_plan_and_grows() {
    let dir = tempfile::tempdir().unwrap();
    let bots = builtins(&[("random", "random"), ("tt-heuristic", "tt-heuristic")])
        + &stock("stock", "random");
    let config = |rounds: u32| {
        ladder_file("twenty_two", &format!("kind = \"round_robin\"\nrounds = {rounds}"), &bots)
    };
    let (output, stdout) = run_file(dir.path(), &config(1));
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    assert!(stdout.contains("played 6 matches in 3 sets"), "{stdout}");
    assert!(stdout.contains("standings after "), "{stdout}");
    assert!(
        stdout.contains("ladder ladder: played: the round_robin of 1 round, 3 sets"),
        "{stdout}"
    );
    let board = leaderboard(dir.path(), "ladder.sqlite");
    for name in ["random", "tt-heuristic", "stock"] {
        assert_eq!(count(&row(&board, name)["matches"]), 4, "{name}: {board}");
    }
    assert_eq!(board["rows"][0]["bot"], "tt-heuristic", "{board}");
    let log = std::fs::read_to_string(dir.path().join("logs/stock.log")).unwrap();
    assert!(log.contains("match "), "the stock bot logged its matches: {log}");

    let (output, stdout) = run_file(dir.path(), &config(2));
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    assert!(stdout.contains("played 12 matches in 6 sets (6 in this run)"), "{stdout}");
    // Run again as it is, the ladder is played: nothing more.
    let (output, stdout) = run_file(dir.path(), &config(2));
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    assert!(stdout.contains("played 12 matches in 6 sets (0 in this run)"), "{stdout}");
    let (output, _) =
        run_file(dir.path(), &config(2).replace("standings_every", "seed = 9\nstandings_every"));
    let stderr = text(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("exists with another `seed`"), "{stderr}");
    // Neither the refusal nor the runs before it write colour codes to a pipe.
    assert!(!output.stdout.contains(&0x1b) && !output.stderr.contains(&0x1b));
}

/// A bot program that exits is started again, `max_restarts` times; then the run stops,
/// saying which bot and where its log is, and the ladder is kept for the next run.
#[test]
fn a_program_that_keeps_exiting_stops_the_run_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let bots = builtins(&[("random", "random"), ("tt-heuristic", "tt-heuristic")])
        + "[[bots]]\nname = \"crasher\"\n\
           command = [\"sh\", \"-c\", \"echo dying as $CARDROOM_LOBBY on $CARDROOM_SERVER >&2; exit 3\"]\n";
    let config = ladder_file("twenty_two", "kind = \"round_robin\"", &bots)
        .replace("standings_every", "max_restarts = 1\nstandings_every");
    let (output, stdout) = run_file(dir.path(), &config);
    let stderr = text(&output.stderr);
    assert!(!output.status.success(), "{stdout}");
    assert!(stderr.contains("crasher exited 2 times (exit status: 3); see its log"), "{stderr}");
    let log = std::fs::read_to_string(dir.path().join("logs/crasher.log")).unwrap();
    assert_eq!(
        log.lines().filter(|l| l.starts_with("dying as crasher on http://")).count(),
        2,
        "{log}"
    );
    // The key is in its environment, never on its command line or in its log.
    assert!(!log.contains("--key"), "{log}");
    // The ladder is in the store, with the sets the others could play.
    let board = leaderboard(dir.path(), "ladder.sqlite");
    assert_eq!(board["ladder"]["name"], "ladder", "{board}");
}

/// `cardroom arena run` killed with SIGKILL mid-ladder: the same command carries the ladder on
/// and plays exactly its plan, no finished match lost or played twice.
#[test]
fn a_killed_ladder_run_carries_on_to_its_plan() {
    use std::io::BufRead as _;
    let dir = tempfile::tempdir().unwrap();
    let bots =
        builtins(&[("random", "random"), ("tt-heuristic", "tt-heuristic"), ("random-2", "random")]);
    let config = ladder_file("twenty_two", "kind = \"round_robin\"\nrounds = 4", &bots);
    std::fs::write(dir.path().join("ladder.toml"), &config).unwrap();
    let mut run = Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(["arena", "run", "ladder.toml"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = std::io::BufReader::new(run.stdout.take().unwrap());
    // Killed once it has reported standings: some matches are stored, others running.
    let reported = stdout.lines().map_while(Result::ok).any(|l| l.starts_with("standings after"));
    assert!(reported, "the run reported standings");
    run.kill().unwrap();
    run.wait().unwrap();
    let (output, stdout) = run_file(dir.path(), &config);
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    assert!(stdout.contains("played 24 matches in 12 sets"), "{stdout}");
    let board = leaderboard(dir.path(), "ladder.sqlite");
    for name in ["random", "tt-heuristic", "random-2"] {
        assert_eq!(count(&row(&board, name)["matches"]), 16, "{name}: {board}");
    }
}

/// Each format of the ladder file ends as it says: a gauntlet and a Swiss ladder once played,
/// the continuous ladder after its sets, the SPRT once decided, and the adaptive ladder once
/// its order is settled; the heuristic comes out first each time.
#[test]
fn every_format_ends_as_its_file_says() {
    let dir = tempfile::tempdir().unwrap();
    let tt =
        builtins(&[("tt-heuristic", "tt-heuristic"), ("random", "random"), ("random-2", "random")]);
    let gin = builtins(&[("gin-heuristic", "gin-heuristic"), ("random", "random")]);
    let cases = [
        (
            "twenty_two",
            "kind = \"gauntlet\"\nchallenger = \"tt-heuristic\"\nrounds = 2",
            &tt,
            "played: the gauntlet of 2 rounds, 4 sets",
        ),
        (
            "twenty_two",
            "kind = \"swiss\"\nrounds = 2",
            &(tt.clone() + &builtins(&[("random-3", "random")])),
            "played: the swiss of 2 rounds, 4 sets",
        ),
        ("twenty_two", "kind = \"continuous\"\nsets = 3", &tt, "played: its 3 sets are rated"),
        (
            "gin",
            "kind = \"sprt\"\na = \"gin-heuristic\"\nb = \"random\"\n[format.sprt]\nelo1 = 200.0",
            &gin,
            "gin-heuristic is stronger than random",
        ),
        (
            "twenty_two",
            "kind = \"adaptive\"",
            &builtins(&[("tt-heuristic", "tt-heuristic"), ("random", "random")]),
            "settled: the order tt-heuristic > random",
        ),
    ];
    for (i, (game, format, bots, reason)) in cases.into_iter().enumerate() {
        let config =
            ladder_file(game, format, bots).replace("ladder.sqlite", &format!("f{i}.sqlite"));
        let (output, stdout) = run_file(dir.path(), &config);
        assert!(output.status.success(), "{format}: {stdout}\n{}", text(&output.stderr));
        assert!(stdout.contains(reason), "{format}: {stdout}");
        let board = leaderboard(dir.path(), &format!("f{i}.sqlite"));
        assert!(
            board["rows"][0]["bot"].as_str().unwrap().ends_with("-heuristic"),
            "{format}: {board}"
        );
    }
}

/// The three kinds of bots in one ladder, started as users start them: a built-in bot, the
/// Python example bot as the arena's program, and a remote bot (the stock binary) that the
/// test starts with the key the arena printed, against the address the arena printed.
#[test]
fn built_in_program_and_remote_bots_play_one_ladder() {
    use std::io::BufRead as _;
    let python = cardroom_tests::python();
    let script = cardroom_tests::workspace_root().join("example-bots/python/tt_bot.py");
    let dir = tempfile::tempdir().unwrap();
    let bots = builtins(&[("tt-heuristic", "tt-heuristic")])
        + &format!(
            "[[bots]]\nname = \"python-tt\"\ncommand = [\"{}\", \"{}\"]\n\
             env = {{ PYTHONUNBUFFERED = \"1\" }}\n[[bots]]\nname = \"alice\"\nlobby = \"alice\"\n",
            python.display(),
            script.display()
        );
    let config = ladder_file("twenty_two", "kind = \"round_robin\"", &bots)
        .replace("standings_every", "listen = \"127.0.0.1:0\"\nstandings_every");
    std::fs::write(dir.path().join("ladder.toml"), config).unwrap();
    let mut run = Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(["arena", "run", "ladder.toml"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr =
        std::io::BufReader::new(run.stderr.take().unwrap()).lines().map_while(Result::ok);
    let address = stderr
        .find_map(|l| l.strip_prefix("the arena's server listens on ").map(str::to_owned))
        .unwrap();
    let key = stderr
        .find_map(|l| l.strip_prefix("alice: registered; its key, shown once: ").map(str::to_owned))
        .unwrap();
    std::thread::spawn(move || stderr.for_each(drop));
    let alice = support::StockBot::start(
        "alice",
        &support::example_bot("random"),
        &["--server", &address, "--lobby", "alice", "--key", &key, "--matches", "0"],
    );
    let output = run.wait_with_output().unwrap();
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", alice.tail());
    assert!(stdout.contains("played 6 matches in 3 sets"), "{stdout}");
    let board = leaderboard(dir.path(), "ladder.sqlite");
    for name in ["tt-heuristic", "python-tt", "alice"] {
        assert_eq!(count(&row(&board, name)["matches"]), 4, "{name}: {board}");
    }
    assert!(alice.matches() >= 4, "{}", alice.tail());
}

/// An old arena file (the arena's own SQLite schema, before its ladders were kept in the store)
/// moves into a store with `arena import`; `arena run` with a file of that ladder's settings
/// then carries it on: its round robin, grown from 2 rounds to 3, plays only the third.
#[test]
fn an_old_arena_file_is_imported_and_carried_on() {
    let dir = tempfile::tempdir().unwrap();
    let fixture =
        cardroom_tests::workspace_root().join("arena/tests/fixtures/old-arena-twenty-two.sqlite");
    std::fs::copy(&fixture, dir.path().join("old.sqlite")).unwrap();
    let output = cardroom(
        &["arena", "import", "old.sqlite", "--store", "new.sqlite", "--ladder", "tt"],
        dir.path(),
    );
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    let board = leaderboard(dir.path(), "new.sqlite");
    for name in ["random", "tt-heuristic", "random-2"] {
        assert_eq!(count(&row(&board, name)["matches"]), 8, "{name}: {board}");
    }
    // Imported twice under one name: refused, nothing written.
    let again = cardroom(
        &["arena", "import", "old.sqlite", "--store", "new.sqlite", "--ladder", "tt"],
        dir.path(),
    );
    assert!(!again.status.success());
    assert!(text(&again.stderr).contains("tt"), "{}", text(&again.stderr));
    let bots =
        builtins(&[("random", "random"), ("tt-heuristic", "tt-heuristic"), ("random-2", "random")]);
    let config = ladder_file("twenty_two", "kind = \"round_robin\"\nrounds = 3", &bots)
        .replace("ladder.sqlite", "new.sqlite")
        .replace("standings_every", "name = \"tt\"\nseed = 7\nstandings_every");
    let (output, stdout) = run_file(dir.path(), &config);
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    assert!(stdout.contains("played 18 matches in 9 sets (6 in this run)"), "{stdout}");
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
        (
            ladder("[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n")
                .replace("[format]", "transport = \"in_process\"\n[format]"),
            "`transport` is gone",
        ),
    ];
    for (config, reason) in cases {
        std::fs::write(dir.path().join("bad.toml"), &config).unwrap();
        let output = cardroom(&["arena", "run", "bad.toml"], dir.path());
        assert!(!output.status.success(), "{config}");
        assert!(text(&output.stderr).contains(reason), "{config}\n{}", text(&output.stderr));
        assert!(!dir.path().join("x.sqlite").exists(), "{config}");
        assert!(!dir.path().join("logs").exists(), "{config}");
    }
}

/// A program that does not exist fails the ladder before anything is made, naming the bot and
/// the program.
#[test]
fn an_external_bot_that_cannot_start_fails_the_ladder_at_once() {
    let dir = tempfile::tempdir().unwrap();
    for (command, why) in
        [("no-such-cardroom-bot", "no such program on PATH"), ("./bots/missing.py", "no such file")]
    {
        let config = format!(
            "game = \"twenty_two\"\ndb = \"x.sqlite\"\n\
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

/// A ladder on a running server that speaks TLS: `server = "https://…"` with its `ca_file` and
/// `admin_token`; the arena creates the ladder there, the built-in bots play over TLS, and the
/// stock bot it starts is given the CA file and plays too.
#[test]
fn a_ladder_plays_on_an_https_server_with_its_ca_file() {
    let dir = tempfile::tempdir().unwrap();
    let files = cardroom_tests::TestCertificates::new().write(dir.path());
    let mut server = Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(["serve", "--addr", "127.0.0.1:0", "--store", "sqlite:served.sqlite"])
        .args(["--registered-only", "--admin-token", "let-me-in"])
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
    let bots = builtins(&[("random", "random"), ("tt-heuristic", "tt-heuristic")])
        + &stock("stock", "random");
    let config = ladder_file("twenty_two", "kind = \"round_robin\"", &bots).replace(
        "standings_every",
        &format!("server = \"https://{addr}\"\nca_file = \"ca.pem\"\nadmin_token = \"let-me-in\"\nstandings_every"),
    );
    let (output, stdout) = run_file(dir.path(), &config);
    let url = format!("https://{addr}");
    let board = cardroom(
        &["leaderboard", "ladder", "--server", &url, "--ca-file", "ca.pem", "--format", "json"],
        dir.path(),
    );
    let _ = server.kill();
    let _ = server.wait();
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    assert!(stdout.contains("ladder ladder created on the server"), "{stdout}");
    assert!(stdout.contains("played 6 matches in 3 sets"), "{stdout}");
    assert!(board.status.success(), "{}", text(&board.stderr));
    let board: serde_json::Value = serde_json::from_slice(&board.stdout).unwrap();
    for name in ["random", "tt-heuristic", "stock"] {
        assert_eq!(count(&row(&board, name)["matches"]), 4, "{name}: {board}");
    }
    assert!(!dir.path().join("ladder.sqlite").exists(), "the server's store keeps the ladder");

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
