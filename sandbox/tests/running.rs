//! A sandboxed bot's life apart from hostility: its output capped per match, its end told,
//! its death with its runner, and a sandbox that cannot be set up saying why.

mod common;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use cardroom_sandbox::{
    BotSpec, Bubblewrap, CgroupRoot, End, Limits, RunningBot, Runtime, Sandbox, SandboxError,
};
use common::{sandbox, world_readable_dir};
use tokio::io::{AsyncBufReadExt, BufReader};

/// Runs `script` with `/bin/sh` in a sandbox.
async fn shell(script: &str) -> (RunningBot, tempfile::TempDir, tempfile::TempDir) {
    let sandbox = sandbox().await;
    let code = world_readable_dir();
    let socket_dir = world_readable_dir();
    let socket = socket_dir.path().join("grpc.sock");
    std::fs::write(&socket, "").expect("a stand-in for the socket");
    let bot = sandbox
        .spawn(&BotSpec {
            code: code.path().to_owned(),
            command: vec!["/bin/sh".to_owned(), "-c".to_owned(), script.to_owned()],
            socket,
            env: Vec::new(),
            runtime: Runtime::native(),
            limits: Limits { output: 1000, ..Limits::default() },
        })
        .expect("spawn");
    (bot, code, socket_dir)
}

#[tokio::test]
async fn output_is_capped_per_match_and_taken_afresh() {
    let (mut bot, _code, _socket) = shell("head -c 3000 /dev/zero; echo oops >&2; exit 4").await;
    assert_eq!(bot.wait().await.expect("its end"), End::Exited { code: 4 });
    let output = bot.take_output();
    // stdout filled the 1000 bytes before stderr came; stderr's 5 bytes were dropped too.
    assert_eq!(output.stdout.len() + output.stderr.len(), 1000);
    assert_eq!(output.dropped, 3005 - 1000);
    assert!(output.to_string().ends_with("--- 2005 bytes more were dropped (past the cap)\n"));
    assert_eq!(bot.take_output(), Default::default());
}

#[tokio::test]
async fn a_signal_is_told_by_name() {
    let (mut bot, _code, _socket) = shell("kill -SEGV $$").await;
    let end = bot.wait().await.expect("its end");
    assert_eq!(end, End::Signalled { signal: 11 });
    assert_eq!(end.to_string(), "killed by signal 11 (SIGSEGV)");
}

#[tokio::test]
async fn a_bot_stopped_by_the_runner_is_told_so() {
    let (mut bot, _code, _socket) = shell("exec sleep 1000").await;
    bot.kill();
    assert_eq!(bot.wait().await.expect("its end"), End::Killed);
}

/// The pids in a bot cgroup `name`, as the freezer hierarchy lists them.
fn pids_of(name: &str) -> Vec<String> {
    let procs = Path::new("/sys/fs/cgroup/freezer/cardroom").join(name).join("cgroup.procs");
    std::fs::read_to_string(procs)
        .map(|p| p.lines().map(str::to_owned).collect())
        .unwrap_or_default()
}

/// Whether process `pid` is gone (or a zombie nobody reaped yet).
fn gone(pid: &str) -> bool {
    match std::fs::read_to_string(Path::new("/proc").join(pid).join("stat")) {
        Ok(stat) => stat.rsplit_once(") ").is_some_and(|(_, rest)| rest.starts_with('Z')),
        Err(_) => true,
    }
}

#[tokio::test]
async fn a_bot_dies_with_its_runner_and_its_cgroups_are_swept() {
    let code = world_readable_dir();
    let socket = code.path().join("grpc.sock");
    std::fs::write(&socket, "").expect("a stand-in for the socket");
    let mut runner = tokio::process::Command::new(env!("CARGO_BIN_EXE_sandbox-run"))
        .args([code.path(), &socket, Path::new("/bin/sleep"), Path::new("1000")])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the runner");
    let mut lines = BufReader::new(runner.stdout.take().expect("stdout")).lines();
    let line = lines.next_line().await.expect("read").expect("the runner's first line");
    let name = line.strip_prefix("cgroup ").expect("the cgroup's name").to_owned();
    // bwrap, its init in the pid namespace, and sleep.
    let pids = loop {
        let pids = pids_of(&name);
        if pids.len() >= 3 {
            break pids;
        }
        tokio::task::yield_now().await;
    };
    runner.start_kill().expect("kill the runner");
    runner.wait().await.expect("the runner's end");
    tokio::time::timeout(Duration::from_secs(10), async {
        while !pids.iter().all(|pid| gone(pid)) {
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("the bot's processes die with the runner");
    // The next runner sweeps the dead runner's cgroups.
    sandbox().await;
    for controller in ["memory", "pids", "freezer", "cpu", "cpuacct"] {
        let dir = PathBuf::from("/sys/fs/cgroup").join(controller).join("cardroom").join(&name);
        assert!(!dir.exists(), "{} is left", dir.display());
    }
}

#[tokio::test]
async fn a_sandbox_that_cannot_be_set_up_says_why() {
    let missing = Bubblewrap::with("/nonexistent/bwrap".into(), CgroupRoot::default()).await;
    let Err(error @ SandboxError::NoBubblewrap { .. }) = missing else {
        panic!("no bwrap, yet {missing:?}")
    };
    assert!(error.to_string().contains("apt-get install bubblewrap"), "{error}");
    let read_only = CgroupRoot { mount: "/proc/self".into(), parent: "cardroom".into() };
    let refused = Bubblewrap::with("bwrap".into(), read_only).await;
    let Err(error @ SandboxError::Cgroup { .. }) = refused else {
        panic!("no cgroups, yet {refused:?}")
    };
    assert!(
        error.to_string().starts_with("cgroup v1 /proc/self/memory/cardroom cannot be written")
    );
}
