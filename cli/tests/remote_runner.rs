//! A runner on another machine through the stock commands (issue 39): `cardroom serve` with a
//! store, an admin token and a hosted ladder, and `cardroom runner --server URL` hosting its
//! submitted bots in sandboxes of its own, beside a stock `random` bot that plays from outside.
//!
//! - A wrong admin token stops the runner at once, saying so.
//! - The submitted bot plays rated sets at its submission's version, through the runner's
//!   socket; nothing but the runner's own bots may play through that socket.
//! - While the other seat holds its turn (SIGSTOP), the hosted bot's cgroup, on the runner's
//!   side, is frozen.
//! - What it prints in a match is kept with that match, for its author.
//! - Left unseated (its opponent gone), it is stopped and put on call (`OnCall`); a match that
//!   wants it starts it again.
//! - A newer submission that crashes forfeits its match, the failure naming its exit code and
//!   carrying its output.
//! - A revoked bot is stopped; SIGTERM stops the runner, no bot left behind.
//!
//! It needs root (bubblewrap's namespaces, cgroups v1) and `CARDROOM_PYTHON`, as `.ci/run`
//! gives it.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::io::BufRead as _;
use std::path::Path;
use std::process::{Command, Stdio};

use cardroom_store::{FailureKind, MatchState};
use cardroom_tests::eventually;
use nix::sys::signal::Signal;

mod support;

use support::{
    CRASHING_BOT, LOUD_BOT, LogOnFailure, Reaped, StockBot, add_bot, eventually_quick, example_bot,
    freezer_states, version_in,
};

/// Short two-seat matches, one at a time a bot; a failing bot is never paused.
const LADDER: &str = "name = \"duel\"\ngame = \"twenty_two\"\noptions = { limit = 5 }\n\
                      seats = 2\nseed = 3\nmax_concurrent = 1\nmove_ms = 2000\nbank_ms = 30000\n\
                      [health]\nmax_failures = 0\n";

/// `cardroom bots submit ann` of `code` (written as `bot.py` in `dir/name`) with `credential`
/// (`--key KEY` or `--admin-token T`); the version it prints.
fn submit(dir: &Path, name: &str, code: &str, url: &str, credential: [&str; 2]) -> String {
    let path = dir.join(name);
    std::fs::create_dir_all(&path).unwrap();
    std::fs::write(path.join("bot.py"), code).unwrap();
    let path = path.display().to_string();
    let args = ["bots", "submit", "ann", &path, "--run", "python3 bot.py", "--server", url];
    version_in(&cardroom(&[&args[..], &credential[..]].concat()))
}

/// Runs `cardroom ARGS`; its stdout, or a panic with its stderr.
fn cardroom(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_cardroom")).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_runner_elsewhere_hosts_submitted_bots_frozen_off_turn_with_their_output_kept() {
    let python = cardroom_tests::python();
    let dir = tempfile::tempdir().unwrap();
    let store_url = format!("sqlite:{}", dir.path().join("store.db").display());
    let ladder_path = dir.path().join("duel.toml");
    std::fs::write(&ladder_path, LADDER).unwrap();
    let ann = add_bot(&store_url, "ann");
    let ben = add_bot(&store_url, "ben");
    let (_server, address) = support::serve_ladder(
        "127.0.0.1:0",
        &store_url,
        &ladder_path,
        &dir.path().join("records"),
        &["--admin-token", "T", "--reconnect-grace-ms", "500"],
    );
    let url = format!("http://{address}");
    let hosted_dir = dir.path().join("runner");
    let runner = |token: &str| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_cardroom"));
        command
            .args(["runner", "--server", &url, "--admin-token", token, "--bot-python"])
            .arg(&python)
            .arg("--host-bots-dir")
            .arg(&hosted_dir)
            .args(["--bot-idle-ms", "1500"]);
        command
    };

    // A wrong token: the runner stops at once, saying why.
    let refused = runner("wrong").output().unwrap();
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{said}");
    assert!(said.contains("the admin token is wrong") && said.contains("runner stops"), "{said}");

    let v1 = submit(dir.path(), "loud", LOUD_BOT, &url, ["--key", &ann]);
    let log_path = dir.path().join("runner.log");
    let _log = LogOnFailure { path: log_path.clone(), whose: "the runner" };
    let mut process = Reaped(
        runner("T")
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log_path).unwrap())
            .spawn()
            .unwrap(),
    );
    let mut announced = String::new();
    std::io::BufReader::new(process.stdout.take().unwrap()).read_line(&mut announced).unwrap();
    let socket = announced.trim().rsplit_once(" on ").unwrap().1.to_owned();
    assert!(socket.starts_with("unix:"), "{announced}");
    let random = example_bot("random");
    let args = ["--server", &url, "--lobby", "ben", "--key", &ben, "--matches", "0"];
    let mut ben_bot = StockBot::start("random as ben", &random, &args);

    // The runner's socket is its own bots' alone: a stock bot there is refused, and stops.
    let intruder = StockBot::start(
        "random on the runner's socket",
        &random,
        &["--server", &socket, "--lobby", "ann", "--matches", "0"],
    );
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        eventually("the intruder refused", || async { intruder.exited().then_some(()) }).await;
        assert!(intruder.tail().contains("only the hosted bots it started"), "{}", intruder.tail());

        let store = cardroom_store::open(&store_url).await.unwrap();
        let ladder = eventually("the ladder", || async {
            store.ladder("duel").await.unwrap().map(|l| l.id)
        })
        .await;
        let ann_id = store.bot_credential("ann").await.unwrap().unwrap().account.id;
        eventually("two rated sets with the runner's bot", || async {
            (store.rated_sets(ladder).await.unwrap().len() >= 2).then_some(())
        })
        .await;
        let versions = support::versions_played(store.as_ref(), ladder, ann_id).await;
        assert!(!versions.is_empty() && versions.iter().all(|v| *v == v1), "{versions:?}");

        // Ben holds his turn: ann's processes, on the runner's side, are frozen meanwhile.
        let pid = process.id();
        eventually("the hosted bot frozen while the other seat holds its turn", || async {
            let open = store.open_sets(ladder).await.unwrap();
            if !open.iter().flat_map(|s| &s.matches).any(|m| m.state == MatchState::Running) {
                return None;
            }
            ben_bot.signal(Signal::SIGSTOP);
            let frozen = eventually_quick(|| freezer_states(pid).iter().any(|s| s == "FROZEN"));
            ben_bot.signal(Signal::SIGCONT);
            frozen.then_some(())
        })
        .await;

        // What she printed in a match is kept with it, for her author.
        let output = support::failure_output(store.as_ref(), ladder, ann_id).await;
        assert!(output.contains("thinking aloud at turn"), "{output}");

        // Ben goes away: ann, unseated, is stopped while idle, on call. Back, ben wants a
        // match, which starts her again.
        let back = || StockBot::start("random as ben, back", &random, &args);
        ben_bot =
            support::idle_then_woken(store.as_ref(), ladder, pid, &log_path, ben_bot, back).await;

        // A crash on the first turn: the match's failure says how the process ended.
        submit(dir.path(), "crasher", CRASHING_BOT, &url, ["--admin-token", "T"]);
        let crash = eventually("the crash's forfeit, saying why", || async {
            let failures = store.failures(ladder, ann_id, 10).await.unwrap();
            failures.into_iter().find(|f| {
                f.failure.kind == FailureKind::Forfeit && f.failure.error.contains("exit")
            })
        })
        .await;
        assert!(crash.failure.error.contains("code 3"), "{:?}", crash.failure.error);
        let read = cardroom(&[
            "failures", "duel", "ann", "--key", &ann, "--server", &url, "--format", "json",
        ]);
        assert!(read.contains("leaving on purpose"), "the crash's output is shown: {read}");

        // The first code again, running; then revoked: stopped on the runner.
        let again = submit(dir.path(), "loud", LOUD_BOT, &url, ["--admin-token", "T"]);
        assert_eq!(again, v1, "the same code is the same version");
        eventually("the first code running again", || async {
            (!freezer_states(pid).is_empty()).then_some(())
        })
        .await;
        cardroom(&["bots", "revoke", "ann", "--store", &store_url]);
        eventually("the revoked hosted bot stopped", || async {
            freezer_states(pid).is_empty().then_some(())
        })
        .await;
        ben_bot.assert_running();
    });
    support::stop_gracefully(&mut process);
    assert_eq!(support::hosted_cgroups(process.id()), Vec::<String>::new(), "no bot is left");
}
