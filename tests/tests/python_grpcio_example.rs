//! The newcomer's walk-through (`examples/python-grpcio/`) stays true: stubs generated from the
//! `.proto` with grpcio-tools exactly as its README says, then its bare-grpcio bot plays a real
//! match against a Rust bot (the Rust SDK) over gRPC on `127.0.0.1:0`, in both games. The match
//! must finish with both seats playing legally: no refused action, no strike, a record that
//! the engine replays, and the same standings printed by the Python bot and seen by the Rust
//! one.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use cardroom_games::{gin, twenty_two};
use cardroom_proto::pb;
use cardroom_proto::wire::WireGame as _;
use cardroom_sdk::{Bot, ConnectConfig, PlayableGame, Played, play};
use cardroom_server::Config;
use cardroom_tests::{PATIENCE, Replay, ReplayGame, TestServer, python, workspace_root};
use tokio::process::Command;

/// The example's folder: the README's commands run from there.
fn example_dir() -> PathBuf {
    workspace_root().join("examples/python-grpcio")
}

/// Step 2 of the README, with `gen` replaced by `out`: generates the stubs from the `.proto`.
fn generate_stubs(out: &Path) {
    let output = std::process::Command::new(python())
        .current_dir(example_dir())
        .args(["-m", "grpc_tools.protoc", "-I", "../../proto/cardroom/v1"])
        .arg(format!("--python_out={}", out.display()))
        .arg(format!("--grpc_python_out={}", out.display()))
        .arg("cardroom.proto")
        .output()
        .expect("grpc_tools.protoc runs (grpcio-tools is in sdk/python's dev extras)");
    assert!(output.status.success(), "protoc: {}", String::from_utf8_lossy(&output.stderr));
    for module in ["cardroom_pb2.py", "cardroom_pb2_grpc.py"] {
        assert!(out.join(module).is_file(), "protoc wrote {module}");
    }
}

/// The first legal action, always: the Rust side of the table.
struct FirstLegal;

impl Bot<twenty_two::State> for FirstLegal {
    fn choose(&mut self, observation: &twenty_two::Observation) -> twenty_two::Action {
        observation.legal_actions[0]
    }
}

impl Bot<gin::State> for FirstLegal {
    fn choose(&mut self, observation: &gin::Observation) -> gin::Action {
        gin::State::legal_actions_of(observation)[0]
    }
}

/// The standings the example bot printed (`place P: seat S` lines), as `(seat, place)`.
fn printed_standings(stdout: &str) -> BTreeSet<(u32, u32)> {
    stdout
        .lines()
        .filter_map(|line| {
            let (place, seat) = line.strip_prefix("place ")?.split_once(": seat ")?;
            Some((seat.split_whitespace().next()?.parse().ok()?, place.parse().ok()?))
        })
        .collect()
}

/// Plays one match of `G`: the example bot on seat 0, a Rust bot on seat 1.
async fn example_bot_plays<G>(server: &TestServer, stubs: &Path, game: pb::Game, seed: u64)
where
    G: PlayableGame + ReplayGame,
    FirstLegal: Bot<G>,
{
    let (match_id, tokens) = server.create(game, 2, seed).await;
    // Step 4 of the README: `PYTHONPATH=gen python bot.py --server HOST:PORT --token TOKEN`.
    let target = server.url().trim_start_matches("http://").to_owned();
    let example = Command::new(python())
        .current_dir(example_dir())
        .env("PYTHONPATH", stubs)
        .args(["bot.py", "--server", &target, "--token", &tokens[0], "--seed", "7"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the example bot starts");
    let config = ConnectConfig::with_token(server.url(), &tokens[1]).named("rust-first-legal");
    let played: Played = tokio::time::timeout(PATIENCE, play::<G>(&config, &mut FirstLegal))
        .await
        .expect("the Rust bot's match ends in time")
        .expect("the Rust bot plays to the end");
    let output = tokio::time::timeout(PATIENCE, example.wait_with_output())
        .await
        .expect("the example bot ends in time")
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "bot.py failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains(&format!("joined match {match_id} as seat 0 of 2")), "{stdout}");

    assert!(!played.end.aborted, "{}", played.end.reason);
    assert!(played.errors.is_empty(), "the Rust bot was refused: {:?}", played.errors);
    let seen: BTreeSet<(u32, u32)> =
        played.end.standings.iter().map(|s| (u32::from(s.seat.0), u32::from(s.place))).collect();
    assert_eq!(printed_standings(&stdout), seen, "both bots saw the same end:\n{stdout}");

    let info = server.match_info(&match_id).await;
    assert!(info.over);
    for seat in &info.seats {
        assert_eq!((seat.strikes, seat.refused, seat.forfeited), (0, 0, false), "{seat:?}");
        assert!(!seat.think_us.is_empty(), "seat {} decided", seat.seat);
    }
    assert_eq!(info.seats[0].bot_name, "python-grpcio");
    let mut client = server.client().await;
    let request = pb::GetRecordRequest { match_id };
    let record = client.get_record(request).await.unwrap().into_inner().record_json;
    // Every action of the record is legal: the engine replays it to the end.
    let replay = Replay::<G>::from_json(&record);
    assert!(replay.last().standings().is_some(), "the record replays to the end");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bare_grpcio_example_plays_both_games_against_a_rust_bot() {
    let stubs = tempfile::tempdir().unwrap();
    generate_stubs(stubs.path());
    let server = TestServer::start(Config::default()).await;
    example_bot_plays::<gin::State>(&server, stubs.path(), pb::Game::GinRummy, 12).await;
    example_bot_plays::<twenty_two::State>(&server, stubs.path(), pb::Game::TwentyTwo, 22).await;
    server.stop().await.unwrap();
}
