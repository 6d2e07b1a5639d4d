//! Python and Rust bots at the same table: the Python example bots (`example-bots/python/`, run
//! by the interpreter in `CARDROOM_PYTHON`) and Rust bots on the Rust SDK, over real gRPC to a
//! server on `127.0.0.1:0`, each match played to its end.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;

use cardroom_games::{gin, twenty_two};
use cardroom_proto::pb;
use cardroom_sdk::{Bot, ConnectConfig, MatchStart, PlayableGame, Played, WireGame, play};
use cardroom_server::Config;
use cardroom_tests::{PATIENCE, PythonBot, TestServer, python};

/// Twenty-Two: always the first, cautious legal action (exchange nothing, lead low, duck).
struct Cautious {
    /// The match as the runner announced it.
    start: Option<MatchStart>,
}

impl Bot<twenty_two::State> for Cautious {
    fn choose(&mut self, observation: &twenty_two::Observation) -> twenty_two::Action {
        observation.legal_actions[0]
    }

    fn match_start(&mut self, start: &MatchStart) {
        self.start = Some(start.clone());
    }
}

/// Gin Rummy: goes out whenever it can, otherwise the first legal action (the server's
/// default policy: draw from the stock, discard to the least deadwood).
struct GoesOut;

impl Bot<gin::State> for GoesOut {
    fn choose(&mut self, observation: &gin::Observation) -> gin::Action {
        let legal = gin::State::legal_actions_of(observation);
        let out = legal.iter().find(|action| {
            matches!(
                action,
                gin::Action::Knock { .. } | gin::Action::Gin { .. } | gin::Action::BigGin
            )
        });
        *out.unwrap_or(&legal[0])
    }
}

/// The standings as `(seat, place)` pairs.
fn standings(played: &Played) -> BTreeSet<(u32, u32)> {
    played.end.standings.iter().map(|s| (u32::from(s.seat.0), u32::from(s.place))).collect()
}

/// The standings a Python example bot printed (`place P: seat S` lines).
fn printed_standings(stdout: &str) -> BTreeSet<(u32, u32)> {
    stdout
        .lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("place ")?;
            let (place, rest) = rest.split_once(": seat ")?;
            let seat = rest.split_whitespace().next()?;
            Some((seat.parse().ok()?, place.parse().ok()?))
        })
        .collect()
}

/// Runs a Rust bot on a seat token in its own task.
fn spawn_rust<G: PlayableGame, B: Bot<G> + 'static>(
    server: &TestServer,
    token: &str,
    name: &str,
    mut bot: B,
) -> tokio::task::JoinHandle<(Played, B)> {
    let config = ConnectConfig::with_token(server.url(), token).named(name);
    tokio::spawn(async move {
        let played = tokio::time::timeout(PATIENCE, play::<G>(&config, &mut bot))
            .await
            .expect("the Rust bot's match ends in time")
            .expect("the Rust bot plays to the end");
        (played, bot)
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_two_python_and_rust_bots_play_a_match_to_the_end() {
    python(); // Fails with instructions when CARDROOM_PYTHON is missing.
    let server = TestServer::start(Config::default()).await;
    let (match_id, tokens) = server.create(pb::Game::TwentyTwo, 4, 2022).await;
    let url = server.url();
    // Seats 0 and 2 are the Python heuristic bot, seats 1 and 3 Rust bots.
    let python_bots: Vec<PythonBot> = [&tokens[0], &tokens[2]]
        .into_iter()
        .map(|token| PythonBot::spawn("tt_bot.py", &["--server", &url, "--token", token]))
        .collect();
    let rust_bots: Vec<_> = [&tokens[1], &tokens[3]]
        .into_iter()
        .map(|token| spawn_rust(&server, token, "rust-cautious", Cautious { start: None }))
        .collect();

    let mut seen = Vec::new();
    for handle in rust_bots {
        let (played, bot) = handle.await.unwrap();
        assert!(!played.end.aborted, "{}", played.end.reason);
        assert!(played.errors.is_empty(), "{:?}", played.errors);
        assert_eq!(bot.start.unwrap().match_id, match_id);
        seen.push(standings(&played));
    }
    for bot in python_bots {
        let stdout = bot.finish().await;
        assert!(stdout.contains(&format!("match {match_id} over")), "{stdout}");
        seen.push(printed_standings(&stdout));
    }
    let expected = &seen[0];
    assert_eq!(expected.len(), 4, "one standing per seat");
    assert!(expected.iter().any(|&(_, place)| place == 1), "a winner");
    assert!(seen.iter().all(|s| s == expected), "every bot saw the same standings: {seen:?}");

    let info = server.match_info(&match_id).await;
    assert!(info.over);
    let names: Vec<_> = info.seats.iter().map(|seat| seat.bot_name.as_str()).collect();
    assert_eq!(names, ["tt-heuristic", "rust-cautious", "tt-heuristic", "rust-cautious"]);
    assert!(info.seats.iter().all(|seat| seat.strikes == 0 && !seat.forfeited));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gin_python_against_rust_plays_to_the_end() {
    python();
    let server = TestServer::start(Config::default()).await;
    let (match_id, tokens) = server.create(pb::Game::GinRummy, 2, 77).await;
    let url = server.url();
    let python_bot = PythonBot::spawn("gin_bot.py", &["--server", &url, "--token", &tokens[0]]);
    let rust_bot = spawn_rust(&server, &tokens[1], "rust-goes-out", GoesOut);

    let (played, _) = rust_bot.await.unwrap();
    assert!(!played.end.aborted, "{}", played.end.reason);
    assert!(played.errors.is_empty(), "{:?}", played.errors);
    let stdout = python_bot.finish().await;
    assert!(stdout.contains(&format!("match {match_id} over")), "{stdout}");
    assert_eq!(printed_standings(&stdout), standings(&played));
    assert_eq!(standings(&played).len(), 2);

    let info = server.match_info(&match_id).await;
    assert!(info.over && info.end.is_some_and(|end| !end.aborted));
    let names: Vec<_> = info.seats.iter().map(|seat| seat.bot_name.as_str()).collect();
    assert_eq!(names, ["gin-heuristic", "rust-goes-out"]);
    assert!(info.seats.iter().all(|seat| seat.strikes == 0 && !seat.forfeited));
}
