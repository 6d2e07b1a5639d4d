//! The arena's three kinds of bots in one ladder, over real gRPC: an in-process Rust bot, an
//! external program the arena starts for each seat (the Python example bot), and a remote bot
//! that runs elsewhere (here: tasks of this test, on the Rust SDK) and waits in the server's
//! lobby until the arena seats it.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::Duration;

use cardroom_arena::{
    ExternalBot, Format, Leaderboard, NetBot, NetPlayer, Settings, Store, run_with,
};
use cardroom_example_bots::random::RandomBot;
use cardroom_example_bots::tt_heuristic::TtHeuristic;
use cardroom_games::twenty_two;
use cardroom_rank::RatingSystem;
use cardroom_sdk::{AnyBot, ConnectConfig, GameKind, MatchSpec, TlsOptions, play};
use cardroom_server::Config;
use cardroom_tests::{TestServer, python, workspace_root};

/// Lobby connections the remote bot keeps open: one per match the arena plays at once.
const PARALLEL: usize = 2;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_process_external_and_remote_bots_play_one_ladder() {
    let python = python(); // Fails with instructions when CARDROOM_PYTHON is missing.
    let server = TestServer::start(Config::default()).await;
    let url = server.url();

    // The remote bot: connected before the ladder starts, back in the lobby after each match.
    let remote = ConnectConfig::lobby(url.clone(), "remote-tt").named("remote-tt");
    let remote_tasks: Vec<_> = (0..PARALLEL)
        .map(|_| {
            let remote = remote.clone();
            tokio::spawn(async move {
                loop {
                    let played = play::<twenty_two::State>(&remote, &mut TtHeuristic::new()).await;
                    assert!(
                        played.unwrap().errors.is_empty(),
                        "the heuristic plays only legal actions"
                    );
                }
            })
        })
        .collect();

    let logs = tempfile::tempdir().unwrap();
    let script = workspace_root().join("example-bots/python/tt_bot.py");
    let bots = vec![
        (
            "random".to_owned(),
            NetBot::InProcess(Arc::new(|seed| AnyBot::TwentyTwo(Box::new(RandomBot::new(seed))))),
        ),
        (
            "python-tt".to_owned(),
            NetBot::External(ExternalBot {
                program: python,
                args: vec![script.to_string_lossy().into_owned()],
                env: vec![("PYTHONUNBUFFERED".into(), "1".into())],
                flags: true,
                log: logs.path().join("python-tt.log"),
            }),
        ),
        ("remote-tt".to_owned(), NetBot::Remote("remote-tt".to_owned())),
    ];
    let names: Vec<String> = bots.iter().map(|(name, _)| name.clone()).collect();
    let player = NetPlayer {
        runtime: tokio::runtime::Handle::current(),
        server: url.clone(),
        tls: TlsOptions::default(),
        spec: MatchSpec {
            game: GameKind::TwentyTwo,
            options_json: String::new(),
            seats: 2,
            seed: None,
            clock: None,
            lobby_bots: Vec::new(),
        },
        bots,
        max_restarts: 1,
        exit_grace: Duration::from_secs(5),
        admin_token: None,
        remote_wait: Duration::from_secs(60),
    };
    let settings = Settings {
        table: 2,
        seed: 11,
        duplicate: true,
        max_rotations: None,
        format: Format::RoundRobin { rounds: 1 },
        rating: RatingSystem::Glicko2,
    };
    // The ladder blocks on the runtime from its own threads, as `cardroom arena run` does.
    let board = tokio::task::spawn_blocking(move || {
        let mut store = Store::in_memory().unwrap();
        let summary =
            run_with(&settings, &names, PARALLEL, &player, &mut store, &mut |_| {}).unwrap();
        assert_eq!(summary.played, 6, "three pairs, both seatings");
        Leaderboard::from_store(&store).unwrap()
    })
    .await
    .unwrap();
    for task in remote_tasks {
        task.abort();
    }

    for row in &board.rows {
        assert_eq!(row.matches, 4, "{row:?}");
        assert_eq!((row.illegal, row.timeouts, row.crashes), (0, 0, 0), "{row:?}");
        // Think times for every kind: in process for the built-in bot, from the server's view
        // for the external and the remote one.
        assert!(row.think_p50_ms.is_some_and(|ms| ms >= 0.0), "{row:?}");
    }
    let place = |name: &str| board.rows.iter().find(|r| r.name == name).unwrap().average_place;
    assert!(place("remote-tt") < place("random"), "{board:?}");
    assert!(place("python-tt") < place("random"), "{board:?}");
}
