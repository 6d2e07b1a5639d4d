//! An organizer's night with the stock tools: `cardroom bots add` for four bots, `cardroom
//! serve --store sqlite:FILE --registered-only --ladder L.toml`, and the example `random` binary
//! started eight times as the README gives it (`random --server URL --lobby NAME --key KEY
//! --matches 0`, its name left at its default). The server is killed with SIGKILL while bots
//! are mid-match and started again on the same store and port. Every bot process must still
//! run and play after the restart (a bot whose match is gone goes back to the lobby); the
//! ladder resumes, no finished match is lost or counted twice, the matches that were running
//! are played again, and the ratings equal a serial replay of the stored results.
//!
//! A second test cuts one stock bot's connection mid-match (a proxy the test controls): it
//! takes its seat back with the seat token, under its registered account, though its `Join`
//! names the binary's default name.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::collections::BTreeMap;

use cardroom_proto::pb;
use cardroom_rank::RatingSystem;
use cardroom_store::{LadderId, LadderMatchId, MatchState, Store};
use cardroom_tests::{Break, Proxy, assert_ratings_replay, eventually};
use nix::sys::signal::Signal;

mod support;

use support::{StockBot, add_bot, example_bot, serve_ladder};

const LADDER: &str =
    "name = \"duel\"\ngame = \"twenty_two\"\nseats = 2\nseed = 3\nmax_concurrent = 2\n";

/// Every match of the ladder that is not planned, by id: its state, attempt and server id.
async fn matches(
    store: &dyn Store,
    ladder: LadderId,
) -> BTreeMap<LadderMatchId, (MatchState, u32, Option<String>)> {
    let mut sets = store.open_sets(ladder).await.unwrap();
    sets.extend(store.rated_sets(ladder).await.unwrap());
    sets.iter()
        .flat_map(|s| &s.matches)
        .filter(|m| m.state != MatchState::Planned)
        .map(|m| (m.id, (m.state, m.attempt, m.server_match_id.clone())))
        .collect()
}

#[test]
fn stock_bots_keep_playing_through_a_sigkill_and_restart_of_their_server() {
    let dir = tempfile::tempdir().unwrap();
    let (store_path, ladder_path, records) =
        (dir.path().join("store.db"), dir.path().join("duel.toml"), dir.path().join("records"));
    std::fs::write(&ladder_path, LADDER).unwrap();
    let store_url = format!("sqlite:{}", store_path.display());
    let names = ["ann", "ben", "cat", "dan"];
    let keys: Vec<String> = names.iter().map(|name| add_bot(&store_url, name)).collect();
    let (mut server, addr) = serve_ladder("127.0.0.1:0", &store_url, &ladder_path, &records, &[]);
    let url = format!("http://{addr}");
    let random = example_bot("random");
    let mut bots: Vec<StockBot> = Vec::new();
    for (name, key) in names.iter().zip(&keys) {
        for process in 0..2 {
            let args = ["--server", &url, "--lobby", name, "--key", key, "--matches", "0"];
            bots.push(StockBot::start(&format!("random #{process} of {name}"), &random, &args));
        }
    }
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let store = cardroom_store::open(&store_url).await.unwrap();
        let ladder = eventually("the ladder", || async {
            store.ladder("duel").await.unwrap().map(|l| l.id)
        })
        .await;
        // Mid-ladder: sets rated, and matches running under the first run's lease; killed
        // while it runs them.
        let running = support::kill_while_running(
            &mut server,
            "two rated sets and a running match",
            || async {
                (store.rated_sets(ladder).await.unwrap().len() >= 2).then_some(())?;
                let running: Vec<(LadderMatchId, u32)> = matches(store.as_ref(), ladder)
                    .await
                    .iter()
                    .filter(|(_, (state, _, _))| *state == MatchState::Running)
                    .map(|(id, (_, attempt, _))| (*id, *attempt))
                    .collect();
                (!running.is_empty()).then_some(running)
            },
        )
        .await;
        let before = matches(store.as_ref(), ladder).await;
        let rated_before = store.rated_sets(ladder).await.unwrap().len();
        let played_before: Vec<u64> = bots.iter().map(StockBot::matches).collect();

        // The same store, the same port: the bots were told nothing else.
        let (mut server, again) = serve_ladder(&addr, &store_url, &ladder_path, &records, &[]);
        assert_eq!(again, addr);
        let after = eventually(
            "the killed matches played again, two more sets rated, every bot process playing",
            || async {
                for bot in &bots {
                    bot.assert_running();
                }
                let now = matches(store.as_ref(), ladder).await;
                let replayed = running.iter().all(|(id, attempt)| {
                    now.get(id).is_some_and(|(state, again, _)| {
                        *state == MatchState::Done && again > attempt
                    })
                });
                let rated = store.rated_sets(ladder).await.unwrap().len();
                let all_played =
                    bots.iter().zip(&played_before).all(|(bot, &before)| bot.matches() > before);
                (replayed && rated >= rated_before + 2 && all_played).then_some(now)
            },
        )
        .await;
        for bot in &bots {
            bot.assert_running();
        }
        server.kill().unwrap();
        server.wait().unwrap();

        // No finished match lost or played again: the same server match, the same attempt.
        for (id, done) in before.iter().filter(|(_, (state, _, _))| *state == MatchState::Done) {
            assert_eq!(after.get(id), Some(done), "match {} kept as it finished", id.0);
        }
        // Each rated set counted once, in order, and the ratings are the replay's.
        let rated = store.rated_sets(ladder).await.unwrap();
        let mut sets: Vec<u64> =
            store.rating_changes(ladder).await.unwrap().iter().map(|c| c.set_index).collect();
        sets.dedup();
        assert_eq!(sets, rated.iter().map(|s| s.index).collect::<Vec<_>>());
        assert_ratings_replay(store.as_ref(), ladder, RatingSystem::Glicko2).await;
    });
}

#[test]
fn a_registered_stock_bot_cut_off_mid_match_takes_its_seat_back() {
    let dir = tempfile::tempdir().unwrap();
    let store_path = dir.path().join("store.db");
    let store_url = format!("sqlite:{}", store_path.display());
    let ladder_path = dir.path().join("duel.toml");
    let ladder = "name = \"duel\"\ngame = \"twenty_two\"\noptions = { limit = 99 }\nseats = 2\n\
                  seed = 9\nmax_concurrent = 1\n";
    std::fs::write(&ladder_path, ladder).unwrap();
    let (ann, ben) = (add_bot(&store_url, "ann"), add_bot(&store_url, "ben"));
    let records = dir.path().join("records");
    let (mut server, addr) = serve_ladder("127.0.0.1:0", &store_url, &ladder_path, &records, &[]);
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let proxy = Proxy::start(addr.parse().unwrap()).await;
        let random = example_bot("random");
        let (through, direct) = (format!("http://{}", proxy.addr), format!("http://{addr}"));
        let cut_off = StockBot::start(
            "random as ann, through the proxy",
            &random,
            &["--server", &through, "--lobby", "ann", "--key", &ann, "--matches", "0"],
        );
        let other = StockBot::start(
            "random as ben",
            &random,
            &["--server", &direct, "--lobby", "ben", "--key", &ben, "--matches", "0"],
        );
        let client = pb::cardroom_client::CardroomClient::connect(direct.clone()).await.unwrap();
        let info = |match_id: String| {
            let mut client = client.clone();
            async move {
                let request = pb::GetMatchRequest { match_id };
                client.get_match(request).await.ok().map(tonic::Response::into_inner)
            }
        };
        // Their first match, some turns in.
        let running = eventually("a match under way", || {
            let mut client = client.clone();
            async move {
                let request = pb::ListMatchesRequest {
                    state: pb::MatchState::Running as i32,
                    ..Default::default()
                };
                let listed = client.list_matches(request).await.ok()?.into_inner();
                let info = info(listed.matches.first()?.match_id.clone()).await?;
                let turns: usize = info.seats.iter().map(|s| s.think_us.len()).sum();
                (turns >= 10).then_some(info)
            }
        })
        .await;
        // Ben held still, the match waits for him at his turn at the latest: ann's link is cut
        // mid-match.
        other.signal(Signal::SIGSTOP);
        proxy.break_links(Break::Cut);
        eventually("ann reconnected", || async {
            cut_off.tail().lines().any(|line| line.contains("reconnected")).then_some(())
        })
        .await;
        other.signal(Signal::SIGCONT);
        let done = eventually("the match's end", || async {
            info(running.match_id.clone()).await.filter(|info| info.end.is_some())
        })
        .await;
        let ann_seat = done.seats.iter().find(|s| s.bot_name == "ann");
        assert!(ann_seat.is_some(), "the seat keeps its bot's name: {done:?}");
        assert!(!done.seats.iter().any(|s| s.forfeited), "{done:?}");
        assert!(!done.end.as_ref().unwrap().aborted, "{done:?}");
        let line = eventually("ann's line for the match", || async {
            let prefix = format!("match {}", running.match_id);
            cut_off.tail().lines().find(|line| line.starts_with(&prefix)).map(str::to_owned)
        })
        .await;
        assert!(line.ends_with("1 reconnections"), "{line}");
        cut_off.assert_running();
        other.assert_running();
    });
    server.kill().unwrap();
    server.wait().unwrap();
}
