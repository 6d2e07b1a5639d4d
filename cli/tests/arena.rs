//! `cardroom demo`, `cardroom arena run` and `cardroom arena leaderboard`, run as a user runs
//! them: ladders over real gRPC on a server the command starts itself, with an external bot
//! that crashes.
#![allow(clippy::unwrap_used)]

use std::process::{Command, Output};

fn cardroom(args: &[&str], dir: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("cardroom runs")
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
fn the_demo_plays_a_ladder_over_grpc_and_prints_the_leaderboard() {
    let dir = tempfile::tempdir().unwrap();
    let output = cardroom(&["demo", "--matches", "6", "--db", "demo.sqlite"], dir.path());
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", text(&output.stderr));
    assert!(stdout.contains("over gRPC"), "{stdout}");
    let python = !stdout.contains("Python example bot skipped");
    assert!(stdout.contains("rank") && stdout.contains("tt-heuristic"), "{stdout}");
    let board = leaderboard(dir.path(), "demo.sqlite");
    let rows = board["rows"].as_array().unwrap();
    assert_eq!(rows.len(), if python { 3 } else { 2 }, "{board}");
    // Every bot played and none misbehaved; the heuristic beats the random bot.
    for r in rows {
        assert!(r["matches"].as_u64().unwrap() > 0, "{r}");
        assert_eq!((r["illegal"].as_u64(), r["crashes"].as_u64()), (Some(0), Some(0)), "{r}");
    }
    assert!(row(&board, "tt-heuristic")["think_p50_ms"].is_number());
    let csv =
        cardroom(&["arena", "leaderboard", "--db", "demo.sqlite", "--format", "csv"], dir.path());
    assert!(text(&csv.stdout).starts_with("rank,name,rating"));
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
