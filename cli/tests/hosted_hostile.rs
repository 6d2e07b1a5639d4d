//! Hostile hosted bots on one ladder with good ones (issue 39, item 5), through the stock
//! commands: `cardroom serve --host-bots` and `cardroom bots submit`. Each hostile bot does its
//! misdeed at its first turn, in a match of its own beside the good bots' matches:
//!
//! - `alloc` allocates without end: the memory limit kills it, and its match's failure says so;
//! - `fork` forks without end: the pids limit stops it;
//! - `escape` tries the server's TCP port, the internet, a host file, the store, another bot's
//!   code, the host's `/etc/shadow`, its own code and `/usr`, and fills its home; then it
//!   leaves (exit 0): every attempt is blocked, as the output its author reads says.
//!
//! - `stop` stops its whole process (SIGSTOP) at its turn: it times out, and loses by the clock.
//!
//! The good bots' matches go on throughout and the host's files are unchanged.
//!
//! It needs root (bubblewrap's namespaces, cgroups v1) and `CARDROOM_PYTHON`, as `.ci/run`
//! gives it.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::path::Path;
use std::process::Command;

use cardroom_store::{FailureKind, FailureRow, LadderId, MatchState, Store};
use cardroom_tests::eventually;

mod support;

use support::{add_bot, serve_ladder};

/// Two-seat matches, one at a time a bot, no pause however often a bot fails.
/// Short clocks (half a second a move, a one-second bank), so that a bot that stops loses soon.
const LADDER: &str = "name = \"rough\"\ngame = \"twenty_two\"\noptions = { limit = 5 }\n\
                      seats = 2\nseed = 9\nmax_concurrent = 1\nmove_ms = 500\nbank_ms = 1000\n\
                      [health]\nmax_failures = 0\n";

/// A bot that plays the first legal action, after its misdeed (its first argument) at its
/// first turn.
const HOSTILE: &str = r#"import os
import signal
import socket
import sys

import cardroom

MISDEED = sys.argv.pop(1)


def escape():
    escaped = False
    host, port = os.environ["HOST_TCP"].rsplit(":", 1)
    for address in [(host, int(port)), ("1.1.1.1", 443)]:
        try:
            socket.create_connection(address, timeout=2).close()
            escaped = True
            print(f"ESCAPED: connect to {address}", flush=True)
        except OSError as error:
            print(f"blocked: connect to {address}: {error}", flush=True)
    reads = [(path, "r") for path in os.environ["HOST_FILES"].split(":") + ["/etc/shadow"]]
    writes = [("/bot/bot.py", "a"), ("/usr/x", "w")]
    for path, mode in reads + writes:
        try:
            with open(path, mode) as file:
                file.write("planted") if mode != "r" else file.read(1)
            escaped = True
            print(f"ESCAPED: open {path} ({mode})", flush=True)
        except OSError as error:
            print(f"blocked: open {path} ({mode}): {error}", flush=True)
    try:
        with open("/tmp/fill", "wb") as file:
            while True:
                file.write(b"x" * (1 << 20))
                file.flush()
    except OSError as error:
        print(f"blocked: fill the disk: {error}", flush=True)
    os._exit(3 if escaped else 0)


def misdeed():
    if MISDEED == "alloc":
        hoard = []
        while True:
            hoard.append(bytearray(1 << 20))
    elif MISDEED == "fork":
        while True:
            os.fork()
    elif MISDEED == "escape":
        escape()
    elif MISDEED == "stop":
        # Past the clock: the whole process stops, its SDK's timer too.
        os.kill(os.getpid(), signal.SIGSTOP)


class Hostile(cardroom.Bot):
    def choose(self, turn):
        misdeed()
        return 0


sys.exit(cardroom.main(Hostile()))
"#;

/// Runs `cardroom bots ARGS`; panics with its stderr if it fails.
fn bots(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_cardroom")).arg("bots").args(args).output().unwrap();
    assert!(out.status.success(), "bots {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// The done matches of the ladder between `a` and `b`.
async fn done_between(store: &dyn Store, ladder: LadderId, a: &str, b: &str) -> usize {
    let a = store.bot_credential(a).await.unwrap().unwrap().account.id;
    let b = store.bot_credential(b).await.unwrap().unwrap().account.id;
    let mut sets = store.rated_sets(ladder).await.unwrap();
    sets.extend(store.open_sets(ladder).await.unwrap());
    sets.iter()
        .flat_map(|s| &s.matches)
        .filter(|m| m.state == MatchState::Done)
        .filter(|m| m.seats.iter().any(|s| s.bot == a) && m.seats.iter().any(|s| s.bot == b))
        .count()
}

/// Whether the kernel refused a fork to one of the bots of the server `pid` (its pids cgroups'
/// `pids.events`: `max N`).
fn forks_refused(pid: u32) -> bool {
    let Ok(entries) = std::fs::read_dir("/sys/fs/cgroup/pids/cardroom") else { return false };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&format!("r{pid}-b")))
        .filter_map(|e| std::fs::read_to_string(e.path().join("pids.events")).ok())
        .any(|events| {
            events.lines().any(|line| line.strip_prefix("max ").is_some_and(|n| n.trim() != "0"))
        })
}

/// The first failure of `name` in the ladder that `check` accepts.
async fn failure_of(
    store: &dyn Store,
    ladder: LadderId,
    name: &str,
    check: impl Fn(&FailureRow) -> bool,
) -> FailureRow {
    let bot = store.bot_credential(name).await.unwrap().unwrap().account.id;
    eventually(&format!("{name}'s failure"), || async {
        store.failures(ladder, bot, 50).await.unwrap().into_iter().find(&check)
    })
    .await
}

#[test]
fn hostile_hosted_bots_lose_their_own_matches_and_nothing_else() {
    let python = cardroom_tests::python();
    let dir = tempfile::tempdir().unwrap();
    let store_url = format!("sqlite:{}", dir.path().join("store.db").display());
    let ladder_path = dir.path().join("rough.toml");
    std::fs::write(&ladder_path, LADDER).unwrap();
    let secret = dir.path().join("secret");
    std::fs::write(&secret, "the host's").unwrap();
    let names = ["good1", "good2", "alloc", "fork", "escape", "stop"];
    for name in names {
        add_bot(&store_url, name);
    }
    let (hosted, python) = (dir.path().join("hosted"), python.display().to_string());
    let hosting = ["--admin-token", "T", "--host-bots", "--bot-memory-mb", "96"];
    let paths = ["--bot-python", &python, "--host-bots-dir", &hosted.display().to_string()];
    let records = dir.path().join("records");
    let extra = [&hosting[..], &paths[..]].concat();
    let (mut server, address) =
        serve_ladder("127.0.0.1:0", &store_url, &ladder_path, &records, &extra);
    let url = format!("http://{address}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    for name in names {
        let code = dir.path().join(format!("code-{name}"));
        std::fs::create_dir_all(&code).unwrap();
        let run = if name.starts_with("good") {
            std::fs::copy(root.join("example-bots/python/tt_bot.py"), code.join("bot.py")).unwrap();
            "python3 bot.py".to_owned()
        } else {
            // What the escape tries, written into its code: the server's TCP address, a host
            // file, the store and another bot's code.
            let good_code = dir.path().join("code-good1").join("bot.py");
            let store_file = dir.path().join("store.db");
            let files = [&secret, &store_file, &good_code].map(|p| p.display().to_string());
            let text = HOSTILE
                .replace(r#"os.environ["HOST_TCP"]"#, &format!("{address:?}"))
                .replace(r#"os.environ["HOST_FILES"]"#, &format!("{:?}", files.join(":")));
            std::fs::write(code.join("bot.py"), text).unwrap();
            format!("python3 bot.py {name}")
        };
        let code = code.display().to_string();
        bots(&["submit", name, &code, "--run", &run, "--server", &url, "--admin-token", "T"]);
    }
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let store = cardroom_store::open(&store_url).await.unwrap();
        let store = store.as_ref();
        let ladder = eventually("the ladder", || async {
            store.ladder("rough").await.unwrap().map(|l| l.id)
        })
        .await;
        let forfeit = |f: &FailureRow| f.failure.kind == FailureKind::Forfeit;
        let alloc = failure_of(store, ladder, "alloc", |f| {
            forfeit(f) && f.failure.error.contains("memory limit")
        })
        .await;
        assert!(alloc.failure.error.contains("96 MiB"), "{:?}", alloc.failure.error);
        // The fork bomb hits its pids limit: the kernel refuses its forks (the SDK plays on
        // after the error, slowed).
        let server_pid = server.id();
        eventually("the fork bomb refused at its pids limit", || async {
            forks_refused(server_pid).then_some(())
        })
        .await;
        let escape = failure_of(store, ladder, "escape", |f| {
            forfeit(f) && f.failure.error.contains("exited with code 0")
        })
        .await;
        let said = escape.output.unwrap_or_default();
        // Two connections, four reads, two writes and the disk, all refused.
        assert_eq!(said.matches("blocked: ").count(), 9, "every attempt blocked:\n{said}");
        assert!(said.contains("No space left"), "the home is capped:\n{said}");
        assert!(!said.contains("ESCAPED"), "{said}");
        // The bot that stops past its clock loses its match by the clock.
        failure_of(store, ladder, "stop", |f| f.failure.kind == FailureKind::Timeout).await;
        // The good bots played on, among themselves, after all that.
        let before = done_between(store, ladder, "good1", "good2").await;
        eventually("the good bots' next match", || async {
            (done_between(store, ladder, "good1", "good2").await > before).then_some(())
        })
        .await;
        assert_eq!(std::fs::read_to_string(&secret).unwrap(), "the host's");
        assert!(server.try_wait().unwrap().is_none(), "the server runs on");
    });
    // Stopped as an operator stops it, the server takes every hosted bot with it, the fork
    // bomb's processes included.
    support::stop_gracefully(&mut server);
    assert_eq!(support::hosted_cgroups(server.id()), Vec::<String>::new());
}
