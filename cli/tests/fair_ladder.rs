//! A hosted ladder of stock bots of different speeds: three that answer at once (`random` twice,
//! `tt-heuristic`) and one that thinks 200 ms a decision (`search --budget-ms 200`). The adaptive
//! schedule gives the slow bot its share: every bot's rated sets stay within 2x of the median
//! bot's (the old schedule, choosing among the bots free at each instant, let the fast ones play
//! each other without end while the slow one waited).

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use cardroom_tests::eventually;

mod support;

use support::{StockBot, add_bot, example_bot, serve_ladder};

/// Short matches (a limit of 5 points), two seats, one match at a time per bot.
const LADDER: &str = "name = \"speeds\"\ngame = \"twenty_two\"\noptions = { limit = 5 }\n\
                      seats = 2\nseed = 11\nmax_concurrent = 1\n";

#[test]
fn a_slow_bot_gets_its_share_of_a_ladder_of_fast_ones() {
    let dir = tempfile::tempdir().unwrap();
    let store_url = format!("sqlite:{}", dir.path().join("store.db").display());
    let ladder = dir.path().join("speeds.toml");
    std::fs::write(&ladder, LADDER).unwrap();
    let bots = [("quick1", "random"), ("quick2", "random"), ("steady", "tt-heuristic")];
    let keys: Vec<String> = bots.iter().map(|(name, _)| add_bot(&store_url, name)).collect();
    let slow_key = add_bot(&store_url, "slow");
    let records = dir.path().join("records");
    let (server, listening) = serve_ladder("127.0.0.1:0", &store_url, &ladder, &records, &[]);
    let url = format!("http://{listening}");
    let mut processes = Vec::new();
    for ((name, binary), key) in bots.iter().zip(&keys) {
        let args = ["--server", &url, "--lobby", name, "--key", key, "--matches", "0"];
        processes.push(StockBot::start(name, &example_bot(binary), &args));
    }
    let args = ["--server", &url, "--lobby", "slow", "--key", &slow_key, "--matches", "0"];
    let slow_args = [&args[..], &["--budget-ms", "200"]].concat();
    processes.push(StockBot::start("slow", &example_bot("search"), &slow_args));

    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let sets = runtime.block_on(async {
        let store = cardroom_store::open(&store_url).await.unwrap();
        let ladder = eventually("the ladder", || async {
            store.ladder("speeds").await.unwrap().map(|l| l.id)
        })
        .await;
        eventually("six rated sets of the slow bot", || async {
            for process in &processes {
                process.assert_running();
            }
            let lines = store.leaderboard(ladder).await.unwrap();
            let slow = lines.iter().find(|l| l.name == "slow")?;
            (lines.len() == 4 && slow.sets_rated >= 6)
                .then(|| lines.iter().map(|l| (l.name.clone(), l.sets_rated)).collect::<Vec<_>>())
        })
        .await
    });
    drop(server);
    let mut counts: Vec<u32> = sets.iter().map(|(_, n)| *n).collect();
    counts.sort_unstable();
    let median = f64::from(counts[1] + counts[2]) / 2.0;
    for (name, n) in &sets {
        let ratio = f64::from(*n) / median;
        assert!(
            (0.5..=2.0).contains(&ratio),
            "{name}: {n} rated sets, the median {median}: {sets:?}"
        );
    }
}
