//! A hosted ladder survives SIGKILL: `cardroom serve --store --ladder` is killed mid-ladder and
//! started again on the same store; the ladder resumes, no finished match is lost or counted
//! twice, the matches that were running are played again, and the ratings equal a serial
//! replay of the stored results.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cardroom_arena::RatingSystem;
use cardroom_example_bots::random::AnyRandom;
use cardroom_sdk::{AnyBot, Backoff, BotKey, ConnectConfig, play_any};
use cardroom_store::{Accounts, LadderId, LadderMatchId, MatchState, Store};
use cardroom_tests::{assert_ratings_replay, eventually};

mod support;

const LADDER: &str =
    "name = \"duel\"\ngame = \"twenty_two\"\nseats = 2\nseed = 3\nmax_concurrent = 2\n";

fn serve(store: &Path, ladder: &Path, records: &Path) -> (Child, String) {
    let mut server = Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(["serve", "--addr", "127.0.0.1:0", "--registered-only"])
        .arg("--store")
        .arg(format!("sqlite:{}", store.display()))
        .arg("--ladder")
        .arg(ladder)
        .arg("--record-dir")
        .arg(records)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let addr = support::listening_address(&mut server);
    (server, format!("http://{addr}"))
}

/// A registered random bot that keeps two streams in the lobby of whichever server `url` names
/// now, joining again after every match, lost connection or refusal, until the test ends.
fn lobby_bot(url: Arc<Mutex<String>>, name: &'static str, key: String) {
    for stream in 0..2u64 {
        let (url, key) = (Arc::clone(&url), key.clone());
        tokio::spawn(async move {
            for n in 0u64.. {
                let server = url.lock().unwrap().clone();
                let mut config = ConnectConfig::lobby(server, name).named(name);
                config.key = Some(BotKey::new(&key).unwrap());
                config.version = "v1".into();
                // Give up on a dead server quickly: the next round reads its new address.
                config.backoff = Backoff {
                    initial: Duration::from_millis(20),
                    max: Duration::from_millis(200),
                    attempts: 5,
                };
                let seed = stream * 1_000_000 + n;
                let _ = play_any(&config, |game| AnyBot::build(game, AnyRandom(seed))).await;
            }
        });
    }
}

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
fn a_hosted_ladder_survives_sigkill_and_resumes_on_its_store() {
    let dir = tempfile::tempdir().unwrap();
    let (store_path, ladder_path, records) =
        (dir.path().join("store.db"), dir.path().join("duel.toml"), dir.path().join("records"));
    std::fs::write(&ladder_path, LADDER).unwrap();
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let store =
            cardroom_store::open(&format!("sqlite:{}", store_path.display())).await.unwrap();
        let accounts = Accounts::new(Arc::clone(&store));
        let (mut server, url) = serve(&store_path, &ladder_path, &records);
        let url = Arc::new(Mutex::new(url));
        for name in ["alice", "bob"] {
            let key = accounts.register(name).await.unwrap().key.expose().to_owned();
            lobby_bot(Arc::clone(&url), name, key);
        }
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

        let (mut server, new_url) = serve(&store_path, &ladder_path, &records);
        *url.lock().unwrap() = new_url;
        let after =
            eventually("the killed matches played again and two more sets rated", || async {
                let now = matches(store.as_ref(), ladder).await;
                let replayed = running.iter().all(|(id, attempt)| {
                    now.get(id).is_some_and(|(state, again, _)| {
                        *state == MatchState::Done && again > attempt
                    })
                });
                let rated = store.rated_sets(ladder).await.unwrap().len();
                (replayed && rated >= rated_before + 2).then_some(now)
            })
            .await;
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
