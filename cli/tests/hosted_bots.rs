//! Hosted bots through the stock commands (issue 39): `cardroom serve --host-bots` over a
//! SQLite store with a hosted ladder, an author's `cardroom bots submit` of the example Python
//! bot, and a stock `random` bot playing it from outside with its key.
//!
//! - The submitted bot plays rated sets at its submission's version (its SHA-256), with no key.
//! - While the remote bot holds its turn (SIGSTOP), the hosted bot's cgroup is frozen.
//! - Left unseated (its opponent gone), it is stopped and put on call; a match that wants it
//!   starts it again.
//! - A newer submission plays from its next match on.
//! - A submitted bot that crashes on its first turn forfeits that match, its failure naming
//!   its exit code, and is started again.
//! - A revoked hosted bot is stopped.
//!
//! It needs root (bubblewrap's namespaces, cgroups v1) and `CARDROOM_PYTHON`, as `.ci/run`
//! gives it.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::path::Path;
use std::process::Command;

use cardroom_store::{FailureKind, MatchState};
use cardroom_tests::eventually;
use nix::sys::signal::Signal;

mod support;

use support::{
    CRASHING_BOT, LogOnFailure, StockBot, add_bot, eventually_quick, example_bot, freezer_states,
    version_in,
};

/// Short two-seat matches, one at a time a bot, so that sets come quickly; a failing bot is
/// paused only after many failures.
const LADDER: &str = "name = \"duel\"\ngame = \"twenty_two\"\noptions = { limit = 5 }\n\
                      seats = 2\nseed = 3\nmax_concurrent = 1\nmove_ms = 2000\nbank_ms = 30000\n\
                      [health]\nmax_failures = 0\n";

/// Runs `cardroom bots ARGS`; its stdout, or a panic with its stderr.
fn bots(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_cardroom")).arg("bots").args(args).output().unwrap();
    assert!(out.status.success(), "bots {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The example Python bot's code in a directory of its own, `extra` written beside it.
fn code(dir: &Path, name: &str, extra: &str) -> String {
    let code = dir.join(name);
    std::fs::create_dir_all(&code).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    std::fs::copy(root.join("example-bots/python/tt_bot.py"), code.join("tt_bot.py")).unwrap();
    std::fs::write(code.join("NOTE"), extra).unwrap();
    code.display().to_string()
}

#[test]
fn a_submitted_bot_plays_sandboxed_frozen_off_turn_and_is_replaced_restarted_and_stopped() {
    let python = cardroom_tests::python();
    let dir = tempfile::tempdir().unwrap();
    let store_url = format!("sqlite:{}", dir.path().join("store.db").display());
    let ladder_path = dir.path().join("duel.toml");
    std::fs::write(&ladder_path, LADDER).unwrap();
    let ann = add_bot(&store_url, "ann");
    let ben = add_bot(&store_url, "ben");
    let log_path = dir.path().join("server.log");
    let _log = LogOnFailure { path: log_path.clone(), whose: "the server" };
    let extra = ["--reconnect-grace-ms", "500", "--bot-idle-ms", "1500"];
    let mut server =
        support::serve_hosting(&python, dir.path(), &store_url, &ladder_path, &log_path, &extra);
    let (url, pages) = support::addresses(&mut server);
    // Ann is submitted by her author, with her key; ben plays from outside.
    let first = bots(&[
        "submit",
        "ann",
        &code(dir.path(), "v1", "one"),
        "--run",
        "python3 tt_bot.py",
        "--server",
        &url,
        "--key",
        &ann,
    ]);
    let v1 = version_in(&first);
    let random = example_bot("random");
    let args = ["--server", &url, "--lobby", "ben", "--key", &ben, "--matches", "0"];
    let mut ben_bot = StockBot::start("random as ben", &random, &args);
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let store = cardroom_store::open(&store_url).await.unwrap();
        let ladder = eventually("the ladder", || async {
            store.ladder("duel").await.unwrap().map(|l| l.id)
        })
        .await;
        let ann_id = store.bot_credential("ann").await.unwrap().unwrap().account.id;
        // The ladder's page says how its bots are hosted, and its clock.
        let page = support::get(&pages, "/ladders/duel");
        assert!(page.contains("Clock: 2000 ms a move and a bank of 30000 ms a seat."), "{page}");
        assert!(page.contains("256 MiB of memory"), "{page}");
        assert!(page.contains("frozen while its seat is not to act"), "{page}");
        // Rated sets, ann at her submission's version.
        eventually("three rated sets with the hosted bot", || async {
            (store.rated_sets(ladder).await.unwrap().len() >= 3).then_some(())
        })
        .await;
        let played = support::versions_played(store.as_ref(), ladder, ann_id).await;
        assert!(!played.is_empty() && played.iter().all(|v| *v == v1), "{played:?}");

        // Ben holds his turn: ann's processes are frozen meanwhile.
        let pid = server.id();
        eventually("the hosted bot frozen while the other seat holds its turn", || async {
            let running = store
                .open_sets(ladder)
                .await
                .unwrap()
                .into_iter()
                .flat_map(|s| s.matches)
                .any(|m| m.state == MatchState::Running);
            if !running {
                return None;
            }
            ben_bot.signal(Signal::SIGSTOP);
            // A turn of ben's comes within the match (his clock is 2 s and a bank).
            let frozen = eventually_quick(|| freezer_states(pid).iter().any(|s| s == "FROZEN"));
            ben_bot.signal(Signal::SIGCONT);
            frozen.then_some(())
        })
        .await;

        // Ben goes away: ann, unseated, is stopped while idle, on call. Back, ben wants a
        // match, which starts her again.
        let back = || StockBot::start("random as ben, back", &random, &args);
        ben_bot =
            support::idle_then_woken(store.as_ref(), ladder, pid, &log_path, ben_bot, back).await;

        // A newer submission plays from its next match on.
        let second = bots(&[
            "submit",
            "ann",
            &code(dir.path(), "v2", "two"),
            "--run",
            "python3 tt_bot.py",
            "--server",
            &url,
            "--admin-token",
            "T",
        ]);
        let v2 = version_in(&second);
        assert_ne!(v1, v2);
        eventually("a match at the newer version", || async {
            support::versions_played(store.as_ref(), ladder, ann_id)
                .await
                .contains(&v2)
                .then_some(())
        })
        .await;
        let played = support::versions_played(store.as_ref(), ladder, ann_id).await;
        let first_v2 = played.iter().position(|v| *v == v2).unwrap();
        assert!(played[first_v2..].iter().all(|v| *v == v2), "never back to v1: {played:?}");

        // A crash on the first turn: the match's failure says how the process ended.
        let crasher = dir.path().join("crasher");
        std::fs::create_dir_all(&crasher).unwrap();
        std::fs::write(crasher.join("bot.py"), CRASHING_BOT).unwrap();
        bots(&[
            "submit",
            "ann",
            &crasher.display().to_string(),
            "--run",
            "python3 bot.py",
            "--server",
            &url,
            "--key",
            &ann,
        ]);
        let failure = eventually("the crash's forfeit, saying why", || async {
            let failures = store.failures(ladder, ann_id, 10).await.unwrap();
            failures.into_iter().find(|f| {
                f.failure.kind == FailureKind::Forfeit && f.failure.error.contains("exit")
            })
        })
        .await;
        assert!(failure.failure.error.contains("code 3"), "{:?}", failure.failure.error);
        // Its author reads what it wrote in that match, with its key.
        let read = Command::new(env!("CARGO_BIN_EXE_cardroom"))
            .args(["failures", "duel", "ann", "--key", &ann, "--server", &url, "--format", "json"])
            .output()
            .unwrap();
        let read = String::from_utf8_lossy(&read.stdout);
        assert!(read.contains("leaving on purpose"), "the crash's output is shown: {read}");
        // Each of its failures carries what it wrote in that match.
        let outputs = store.failures(ladder, ann_id, 10).await.unwrap();
        assert!(outputs.iter().all(|f| f.output.is_some()), "{outputs:?}");

        // Revoked: stopped, and no hosted bot is left in its cgroups.
        bots(&["revoke", "ann", "--store", &store_url]);
        eventually("the revoked hosted bot stopped", || async {
            freezer_states(pid).is_empty().then_some(())
        })
        .await;
        ben_bot.assert_running();
    });
    support::stop_gracefully(&mut server);
    assert_eq!(support::hosted_cgroups(server.id()), Vec::<String>::new(), "no bot is left");
}
