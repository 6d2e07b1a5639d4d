//! The hostile bots of issue 39, item 5: each runs in a sandbox of its own beside a
//! well-behaved bot in another, both reaching one server through its Unix socket. Each test
//! asserts that the offender is contained and its end told, that the good bot still works
//! after it (the server answers it again) and ends well, and that the host's watched files
//! (the bots' code, a store file, /etc/shadow) are unchanged.

mod common;

use std::path::Path;
use std::time::Duration;

use cardroom_sandbox::{
    BotSpec, Bubblewrap, End, Limits, Output, RunningBot, Runtime, SERVER_URL_IN_SANDBOX, Sandbox,
};
use common::{Host, Server, bot_file, code, python_bot, sandbox, world_readable_dir};
use tokio::time::Instant;

/// A server, a well-behaved Python bot seen working, and a store file on the host.
struct Scene {
    server: Server,
    sandbox: Bubblewrap,
    good: RunningBot,
    good_code: tempfile::TempDir,
    store: tempfile::TempDir,
}

impl Scene {
    async fn new() -> Scene {
        let sandbox = sandbox().await;
        let server = Server::start().await;
        let good_code = code(&[("bot.py", &bot_file("good.py"))]);
        let good = sandbox.spawn(&python_bot(&server, good_code.path(), &[])).expect("spawn");
        server.next_check().await;
        let store = world_readable_dir();
        std::fs::write(store.path().join("cardroom.sqlite"), "the store").expect("a store");
        Scene { server, sandbox, good, good_code, store }
    }

    /// What a hostile bot is told of the host: the server's TCP port, the paths of another
    /// bot's code and of the store, and the good bot's pids.
    fn tell(&self, spec: &mut BotSpec) {
        let files = [
            self.good_code.path().join("bot.py"),
            self.store.path().join("cardroom.sqlite"),
            self.server.socket.clone(),
        ];
        let files: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
        let pids: Vec<String> = self.good.pids().iter().map(i32::to_string).collect();
        spec.env.extend([
            ("HOST_TCP".to_owned(), self.server.tcp.to_string()),
            ("HOST_FILES".to_owned(), files.join(":")),
            ("OTHER_PIDS".to_owned(), pids.join(" ")),
        ]);
    }

    /// The Python hostile bot doing `misdeed`.
    fn python(&self, misdeed: &str) -> (BotSpec, tempfile::TempDir) {
        let code = code(&[("bot.py", &bot_file("hostile.py"))]);
        let mut spec = python_bot(&self.server, code.path(), &[misdeed]);
        self.tell(&mut spec);
        (spec, code)
    }

    /// The Rust hostile bot doing `misdeed`: a native binary in its code directory.
    fn rust(&self, args: &[&str]) -> (BotSpec, tempfile::TempDir) {
        let code = code(&[("hostile-bot", Path::new(env!("CARGO_BIN_EXE_hostile-bot")))]);
        let mut command = vec!["./hostile-bot".to_owned()];
        command.extend(args.iter().map(|a| a.to_string()));
        let mut spec = BotSpec {
            code: code.path().to_owned(),
            command,
            socket: self.server.socket.clone(),
            env: vec![("CARDROOM_SERVER".to_owned(), SERVER_URL_IN_SANDBOX.to_owned())],
            runtime: Runtime::native(),
            limits: Limits::default(),
        };
        self.tell(&mut spec);
        (spec, code)
    }

    /// Runs `hostile` to its end (killed at `deadline` from now), and checks that the good bot
    /// works after it and that nothing watched on the host changed.
    async fn run(
        &self,
        hostile: (BotSpec, tempfile::TempDir),
        deadline: Duration,
    ) -> (End, Output) {
        let (spec, code) = hostile;
        let watched = [self.good_code.path(), self.store.path(), code.path()];
        let before = Host::snapshot(&watched);
        let mut bot = self.sandbox.spawn(&spec).expect("spawn the hostile bot");
        let cgroup = bot.cgroup().to_owned();
        let end = bot.wait_until(Instant::now() + deadline).await.expect("its end");
        let output = bot.take_output();
        drop(bot);
        for controller in ["memory", "pids", "freezer", "cpu", "cpuacct"] {
            let dir = Path::new("/sys/fs/cgroup").join(controller).join("cardroom").join(&cgroup);
            assert!(!dir.exists(), "{} is left after the bot", dir.display());
        }
        self.server.next_check().await;
        assert_eq!(Host::snapshot(&watched), before, "the host changed");
        (end, output)
    }

    /// The good bot is told to stop, and ends well.
    async fn finish(mut self) {
        self.server.finish().await;
        let end = self.good.wait().await.expect("the good bot's end");
        assert_eq!(end, End::Exited { code: 0 }, "the good bot: {}", self.good.take_output());
    }
}

fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

/// Every line of `output`'s stdout that starts with `blocked:`, after checking none says
/// `ESCAPED`.
fn blocked(output: &Output) -> Vec<String> {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!stdout.contains("ESCAPED"), "{output}");
    stdout.lines().filter(|l| l.starts_with("blocked:")).map(str::to_owned).collect()
}

#[tokio::test]
async fn no_network_but_the_socket_in_python() {
    let scene = Scene::new().await;
    let (end, output) = scene.run(scene.python("connect"), secs(30)).await;
    assert_eq!(end, End::Exited { code: 0 }, "{output}");
    // The server's TCP port, another on the loopback, and two outside addresses.
    assert_eq!(blocked(&output).len(), 4, "{output}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("Network is unreachable"), "{output}");
    scene.finish().await;
}

#[tokio::test]
async fn no_network_but_the_socket_in_rust() {
    let scene = Scene::new().await;
    let address = scene.server.tcp.to_string();
    let (end, output) = scene.run(scene.rust(&["connect", &address]), secs(30)).await;
    assert_eq!(end, End::Exited { code: 0 }, "{output}");
    assert_eq!(blocked(&output).len(), 1, "{output}");
    scene.finish().await;
}

/// Runs the Python hostile bot doing `misdeed` and checks that it ended well with `attempts`
/// attempts blocked, each refused with `refusal`.
async fn all_blocked(scene: &Scene, misdeed: &str, attempts: usize, refusal: &str) {
    let (end, output) = scene.run(scene.python(misdeed), secs(30)).await;
    assert_eq!(end, End::Exited { code: 0 }, "{output}");
    let blocked = blocked(&output);
    assert_eq!(blocked.len(), attempts, "{output}");
    assert!(blocked.iter().all(|l| l.contains(refusal)), "{output}");
}

#[tokio::test]
async fn the_host_files_another_bot_and_the_store_are_not_there() {
    let scene = Scene::new().await;
    // /etc/shadow, /etc/passwd, the other bot's code and the store; the host path of the
    // socket too (the bot has it at /run/cardroom.sock only).
    all_blocked(&scene, "read", 5, "No such file or directory").await;
    scene.finish().await;
}

#[tokio::test]
async fn its_own_code_and_the_runtime_are_read_only() {
    let scene = Scene::new().await;
    // Its code, the runtime, and the root bubblewrap built.
    all_blocked(&scene, "write-code", 5, "Read-only file system").await;
    scene.finish().await;
}

#[tokio::test]
async fn a_fork_bomb_meets_the_pids_limit_in_python() {
    let scene = Scene::new().await;
    let (end, output) = scene.run(scene.python("fork-bomb"), secs(60)).await;
    assert_eq!(end, End::PidsLimit { limit: Limits::default().pids }, "{output}");
    // Its tracebacks are more than its share of output: the rest is counted and dropped.
    assert!(String::from_utf8_lossy(&output.stderr).contains("BlockingIOError"), "{output}");
    scene.finish().await;
}

#[tokio::test]
async fn a_spawn_bomb_meets_the_pids_limit_in_rust() {
    let scene = Scene::new().await;
    let (end, output) = scene.run(scene.rust(&["spawn-bomb"]), secs(60)).await;
    assert_eq!(end, End::PidsLimit { limit: Limits::default().pids }, "{output}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("refused a process"), "{output}");
    scene.finish().await;
}

#[tokio::test]
async fn endless_allocation_is_killed_at_the_memory_limit_in_python() {
    let scene = Scene::new().await;
    let (end, output) = scene.run(scene.python("alloc"), secs(60)).await;
    assert_eq!(end, End::MemoryLimit { limit: Limits::default().memory }, "{output}");
    assert_eq!(end.to_string(), "killed at its memory limit of 256 MiB");
    scene.finish().await;
}

#[tokio::test]
async fn endless_allocation_is_killed_at_the_memory_limit_in_rust() {
    let scene = Scene::new().await;
    let (end, output) = scene.run(scene.rust(&["alloc"]), secs(60)).await;
    assert_eq!(end, End::MemoryLimit { limit: Limits::default().memory }, "{output}");
    scene.finish().await;
}

#[tokio::test]
async fn filling_the_disk_fills_only_its_capped_home() {
    let scene = Scene::new().await;
    let (end, output) = scene.run(scene.python("fill-disk"), secs(60)).await;
    assert_eq!(end, End::Exited { code: 0 }, "{output}");
    let line = blocked(&output).concat();
    let written: u64 = line
        .strip_prefix("blocked: disk full after ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("how much it wrote: {output}"));
    let home = Limits::default().home;
    assert!(written <= home && written >= home / 2, "{written} bytes of a {home}-byte home");
    scene.finish().await;
}

/// Returns once `bot` has used more than `floor` of CPU time.
async fn spinning_past(bot: &RunningBot, floor: Duration) {
    while bot.cpu_time().expect("cpu time") <= floor {
        tokio::task::yield_now().await;
    }
}

#[tokio::test]
async fn a_frozen_bot_spins_on_no_cpu() {
    let scene = Scene::new().await;
    let (spec, _code) = scene.python("spin");
    let mut spinner = scene.sandbox.spawn(&spec).expect("spawn");
    spinning_past(&spinner, Duration::from_millis(200)).await;
    spinner.freeze().expect("freeze");
    let frozen_at = spinner.cpu_time().expect("cpu time");
    // The good bot's checks are the clock: a hundred of them, the spinner frozen throughout.
    for _ in 0..100 {
        scene.server.next_check().await;
    }
    assert_eq!(spinner.cpu_time().expect("cpu time"), frozen_at, "CPU time while frozen");
    spinner.thaw().expect("thaw");
    spinning_past(&spinner, frozen_at).await;
    spinner.kill_for_time();
    assert_eq!(spinner.wait().await.expect("its end"), End::TimeLimit);
    assert!(String::from_utf8_lossy(&spinner.take_output().stdout).contains("spinning"));
    scene.finish().await;
}

#[tokio::test]
async fn another_bot_cannot_be_seen_signalled_or_traced() {
    let scene = Scene::new().await;
    // kill and ptrace for each of the good bot's processes: none is in its pid namespace.
    let attempts = 2 * scene.good.pids().len();
    all_blocked(&scene, "signal", attempts, "No such process").await;
    scene.finish().await;
}

#[tokio::test]
async fn sleeping_past_the_deadline_is_killed_for_time() {
    let scene = Scene::new().await;
    let start = Instant::now();
    let (end, output) = scene.run(scene.python("sleep"), secs(2)).await;
    assert_eq!(end, End::TimeLimit, "{output}");
    assert!(start.elapsed() < secs(10));
    scene.finish().await;
}
