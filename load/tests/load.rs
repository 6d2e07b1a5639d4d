//! The load tool end to end: its runs, short, against its own child servers.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use serde_json::Value;

fn bench(args: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_cardroom-load")).args(args).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

fn number(value: &Value) -> f64 {
    value.as_f64().unwrap_or_else(|| panic!("{value} is a number"))
}

/// Two rounds: the second measures the peers first, with the first round's message sizes;
/// the report's figures are the medians of the rounds' (of two: their mean).
#[test]
fn run_measures_cardroom_and_the_bare_tonic_baseline_with_the_same_message_sizes() {
    let report = bench(&[
        "run",
        "--matches",
        "3",
        "--warmup-s",
        "0.3",
        "--duration-s",
        "1",
        "--rounds",
        "2",
        "--json",
    ]);
    let rounds = report["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 2, "{report}");
    assert_eq!(rounds[0]["peers_first"], false, "{report}");
    assert_eq!(rounds[1]["peers_first"], true, "{report}");
    let rate = |round: &Value| number(&round["cardroom"]["measured"]["decisions_per_s"]);
    let mean = (rate(&rounds[0]) + rate(&rounds[1])) / 2.0;
    let median = number(&report["cardroom"]["measured"]["decisions_per_s"]);
    assert!((median - mean).abs() < 1e-6 * mean, "{median} is the median of {rounds:?}");
    let ratio = |round: &Value| number(&round["ratios"]["decisions_per_s"]);
    let median_ratio = number(&report["ratios"]["decisions_per_s"]);
    assert!((median_ratio - (ratio(&rounds[0]) + ratio(&rounds[1])) / 2.0).abs() < 1e-9);
    for server in ["cardroom", "baseline"] {
        let measured =
            if server == "cardroom" { &report["cardroom"]["measured"] } else { &report[server] };
        assert!(number(&measured["decisions_per_s"]) > 0.0, "{server}: {measured}");
        let round_trip = &measured["round_trip"];
        assert!(number(&round_trip["count"]) > 0.0, "{server}: {round_trip}");
        let (p50, p99) = (number(&round_trip["p50_us"]), number(&round_trip["p99_us"]));
        assert!(0.0 < p50 && p50 <= p99 && p99 <= number(&round_trip["max_us"]), "{round_trip}");
        assert!(number(&measured["server_cpu"]) > 0.0, "{server}: {measured}");
        assert!(number(&measured["server_peak_rss_bytes"]) > 0.0, "{server}: {measured}");
    }
    let sizes = &report["cardroom"]["sizes"];
    assert!(number(&sizes["turn_bytes"]) > 100.0, "a turn carries an observation: {sizes}");
    assert!(number(&sizes["act_bytes"]) > 0.0, "{sizes}");
    assert!(number(&report["ratios"]["p50"]) > 0.0);
}

/// With a think time the bots wait before every answer: a match has one decision in flight,
/// so no more than `matches / think` decisions a second can happen, on either server; the
/// report says the wait it took out of the round trips.
#[test]
fn run_with_a_think_time_is_an_open_load_and_reports_round_trips_less_the_wait() {
    let report = bench(&[
        "run",
        "--matches",
        "3",
        "--think-ms",
        "20",
        "--warmup-s",
        "0.3",
        "--duration-s",
        "1",
        "--rounds",
        "1",
        "--json",
    ]);
    assert_eq!(number(&report["think_ms"]), 20.0, "{report}");
    for measured in [&report["cardroom"]["measured"], &report["baseline"]] {
        let rate = number(&measured["decisions_per_s"]);
        assert!(0.0 < rate && rate <= 3.0 / 0.020, "{measured}");
        assert!(number(&measured["round_trip"]["count"]) > 0.0, "{measured}");
    }
    let sizes = &report["cardroom"]["sizes"];
    // A seat's observation: ten or eleven card codes, the discard pile, scores, the phase.
    assert!(number(&sizes["turn_bytes"]) > 60.0, "a Turn carries the observation: {sizes}");
}

/// `peer`: the bare tonic peer alone, in a child process of its own (its CPU read), or against a
/// running `serve-pingpong` as `scripts/bench-decision profile` runs it (its CPU not read), in
/// either shape.
#[test]
fn peer_measures_the_bare_ping_pong_in_a_child_or_a_running_server() {
    let window = ["--warmup-s", "0.2", "--duration-s", "0.6", "--json"];
    let child = bench(&[&["peer", "--matches", "2"][..], &window].concat());
    assert_eq!(child["server_measured"], true, "{child}");
    assert_eq!(child["match_shape"], false, "{child}");
    assert!(number(&child["measured"]["round_trip"]["count"]) > 0.0, "{child}");
    assert!(number(&child["measured"]["server_cpu"]) > 0.0, "{child}");

    let mut server = Command::new(env!("CARGO_BIN_EXE_cardroom-load"))
        .arg("serve-pingpong")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let address = line.trim().strip_prefix("listening on ").unwrap().to_owned();
    let args = ["peer", "--server", &address, "--matches", "2", "--match-shape"];
    let sizes = ["--turn-bytes", "50", "--act-bytes", "3"];
    let peer = bench(&[&args[..], &sizes, &window].concat());
    // The server stops when its stdin closes.
    drop(server.stdin.take());
    assert!(server.wait().unwrap().success());
    assert_eq!(peer["server_measured"], false, "{peer}");
    assert_eq!(peer["match_shape"], true, "{peer}");
    assert_eq!(peer["sizes"]["turn_bytes"], 50, "{peer}");
    assert_eq!(peer["sizes"]["act_bytes"], 3, "{peer}");
    let measured = &peer["measured"];
    assert!(number(&measured["round_trip"]["count"]) > 0.0, "{peer}");
    assert!(number(&measured["client_cpu"]) > 0.0, "{peer}");
    assert_eq!(number(&measured["server_cpu"]), 0.0, "not this run's child: {peer}");
}

#[test]
fn soak_drains_back_to_no_match_no_stream_and_no_more_tasks_than_before() {
    let report = bench(&[
        "soak",
        "--game",
        "22",
        "--seats",
        "3",
        "--matches",
        "4",
        "--minutes",
        "0.02",
        "--sample-s",
        "0.4",
        "--json",
    ]);
    let samples = report["samples"].as_array().unwrap();
    assert!(samples.len() >= 2, "{report}");
    assert!(samples.iter().all(|s| number(&s["rss_bytes"]) > 0.0));
    let (before, drained) = (&report["idle_before"], &report["drained"]);
    assert!(number(&drained["matches_finished"]) > 0.0, "{report}");
    assert_eq!(number(&drained["matches_running"]), 0.0, "{report}");
    assert_eq!(number(&drained["connections_open"]), 0.0, "{report}");
    assert!(number(&drained["tasks_alive"]) <= number(&before["tasks_alive"]), "{report}");
}

#[test]
fn idle_bots_stay_connected_and_the_server_says_what_they_cost() {
    let report = bench(&["idle", "--bots", "40", "--json"]);
    assert_eq!(number(&report["connections_open"]), 40.0, "{report}");
    assert_eq!(number(&report["matches_running"]), 40.0, "each waits in its own match");
    assert!(number(&report["rss_bytes"]) > 0.0);
}

/// `run --hosted-bots`, tiny: each round a server with no ladder and one whose registered bots
/// keep its hosted ladder busy; the hosted matches are seen running during the ladder's window
/// and never during the other's, and the load's own matches are measured on both.
#[test]
fn run_with_hosted_bots_compares_a_busy_hosted_ladder_with_no_ladder() {
    let report = bench(&[
        "run",
        "--matches",
        "2",
        "--hosted-bots",
        "6",
        "--hosted-matches",
        "2",
        "--hosted-think-ms",
        "20",
        "--rounds",
        "1",
        "--warmup-s",
        "0.3",
        "--duration-s",
        "1",
        "--json",
    ]);
    let round = &report["rounds"][0];
    let (ladder, no_ladder) = (&round["ladder"], &round["no_ladder"]);
    assert!(number(&ladder["hosted_running"]["samples"]) > 0.0, "{round}");
    assert!(number(&ladder["hosted_running"]["max"]) > 0.0, "the ladder was busy: {round}");
    assert!(number(&ladder["hosted_running"]["decisions_per_s"]) > 0.0, "{round}");
    assert_eq!(number(&no_ladder["hosted_running"]["max"]), 0.0, "{round}");
    for side in [ladder, no_ladder] {
        assert!(number(&side["measured"]["decisions_per_s"]) > 0.0, "{side}");
        let round_trip = &side["measured"]["round_trip"];
        assert!(number(&round_trip["count"]) > 0.0, "{side}");
        assert!(number(&round_trip["p50_us"]) > 0.0, "{side}");
    }
    assert!(number(&report["ratios"]["decisions_per_s"]) > 0.0, "{report}");
    assert!(report["within_tolerance"].is_boolean(), "{report}");
}
