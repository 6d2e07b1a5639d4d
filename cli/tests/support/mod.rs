//! What the binary's test suites share.

use std::io::{BufRead as _, BufReader};
use std::process::Child;

use cardroom_tests::eventually;
use nix::sys::signal::Signal;
use nix::unistd::Pid;

/// The address `cardroom serve` listens on, read from the one line it prints on stdout once it
/// does (`cardroom listening on ADDR`); the child must have been spawned with a piped stdout.
#[allow(dead_code, reason = "pages_limits reads both lines, the pages' too, itself")]
pub(crate) fn listening_address(server: &mut Child) -> String {
    let stdout = server.stdout.take().expect("the server's stdout is piped");
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("the server's first line");
    line.trim()
        .strip_prefix("cardroom listening on ")
        .unwrap_or_else(|| panic!("not a listening line: {line:?}"))
        .to_owned()
}

/// Waits until `running` (read from the store) finds `server` running something, then kills
/// the server (SIGKILL) and returns what it ran as it died. The server is stopped (SIGSTOP)
/// before `running` is read again, so nothing it runs can end between that reading and the
/// kill; if what it was seen running ended before it stopped, it goes on (SIGCONT) and the
/// wait starts over.
#[allow(dead_code, reason = "the suites that kill a server use it, the others do not")]
pub(crate) async fn kill_while_running<T, R, F>(server: &mut Child, what: &str, mut running: R) -> T
where
    R: FnMut() -> F,
    F: Future<Output = Option<T>>,
{
    let pid = Pid::from_raw(i32::try_from(server.id()).expect("a process id is an i32"));
    loop {
        eventually(what, &mut running).await;
        nix::sys::signal::kill(pid, Signal::SIGSTOP).expect("the server stops");
        if let Some(ran) = running().await {
            server.kill().expect("the server is killed");
            server.wait().expect("the killed server is reaped");
            return ran;
        }
        eprintln!("what the server was seen running ended before it stopped: it goes on");
        nix::sys::signal::kill(pid, Signal::SIGCONT).expect("the server goes on");
    }
}

/// A stock example bot's binary (`random`, `tt-heuristic`, …) as cargo builds it beside
/// `cardroom` (`cargo test --workspace` builds every workspace binary); built here when a run
/// of this package's tests alone left it out.
#[allow(dead_code, reason = "the suites that start stock bots use it, the others do not")]
pub(crate) fn example_bot(name: &str) -> std::path::PathBuf {
    static BUILT: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let cardroom = std::path::Path::new(env!("CARGO_BIN_EXE_cardroom"));
    let binary = cardroom.with_file_name(name);
    let _built = BUILT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if !binary.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let status = std::process::Command::new(cargo)
            .args(["build", "-p", "cardroom-example-bots", "--bin", name])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "cargo build of the example bot {name} failed");
    }
    binary
}

/// A stock bot process, started as a user starts it. It reads its standard output (the line a
/// bot prints as each match ends) and keeps the last lines of its log, for the messages of a
/// test that fails; killed when dropped.
#[allow(dead_code, reason = "the suites that start stock bots use it, the others do not")]
pub(crate) struct StockBot {
    /// What it is, in messages: its binary and lobby.
    pub(crate) label: String,
    process: std::sync::Mutex<Child>,
    matches: std::sync::Arc<std::sync::atomic::AtomicU64>,
    log: std::sync::Arc<std::sync::Mutex<std::collections::VecDeque<String>>>,
}

#[allow(dead_code, reason = "the suites that start stock bots use it, the others do not")]
impl StockBot {
    /// Starts `binary` with `args` (its log at `RUST_LOG=info`).
    pub(crate) fn start(label: &str, binary: &std::path::Path, args: &[&str]) -> StockBot {
        use std::sync::atomic::Ordering;
        let mut process = std::process::Command::new(binary)
            .args(args)
            .env("RUST_LOG", "info")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap_or_else(|error| panic!("{} starts: {error}", binary.display()));
        let matches = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let log = std::sync::Arc::new(std::sync::Mutex::new(std::collections::VecDeque::new()));
        let stdout = process.stdout.take().expect("piped");
        let (counted, kept) = (std::sync::Arc::clone(&matches), std::sync::Arc::clone(&log));
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if line.starts_with("match ") {
                    counted.fetch_add(1, Ordering::Relaxed);
                }
                keep(&kept, line);
            }
        });
        let stderr = process.stderr.take().expect("piped");
        let kept = std::sync::Arc::clone(&log);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                keep(&kept, line);
            }
        });
        StockBot { label: label.to_owned(), process: std::sync::Mutex::new(process), matches, log }
    }

    /// Sends it `signal` (SIGSTOP holds it still, SIGCONT lets it go on).
    pub(crate) fn signal(&self, signal: Signal) {
        let id = self.process().id();
        let pid = Pid::from_raw(i32::try_from(id).expect("a process id is an i32"));
        nix::sys::signal::kill(pid, signal).expect("the bot takes the signal");
    }

    /// Matches it has reported over.
    pub(crate) fn matches(&self) -> u64 {
        self.matches.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether the process has exited.
    pub(crate) fn exited(&self) -> bool {
        self.process().try_wait().expect("the bot's status").is_some()
    }

    /// Panics, with its last lines, if the process has exited.
    pub(crate) fn assert_running(&self) {
        let status = self.process().try_wait().expect("the bot's status");
        if let Some(status) = status {
            panic!("{} exited ({status}); its last lines:\n{}", self.label, self.tail());
        }
    }

    /// Its last lines, stdout and stderr as they came.
    pub(crate) fn tail(&self) -> String {
        let log = self.log.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        log.iter().map(String::as_str).collect::<Vec<_>>().join("\n")
    }
}

impl StockBot {
    fn process(&self) -> std::sync::MutexGuard<'_, Child> {
        self.process.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Drop for StockBot {
    fn drop(&mut self) {
        let mut process = self.process();
        let _ = process.kill();
        let _ = process.wait();
    }
}

/// Keeps `line` among the last 40.
fn keep(log: &std::sync::Mutex<std::collections::VecDeque<String>>, line: String) {
    let mut log = log.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if log.len() == 40 {
        log.pop_front();
    }
    log.push_back(line);
}

/// Registers `name` in the store with `cardroom bots add NAME --store URL`, as an organizer
/// does; returns the key it prints.
#[allow(dead_code, reason = "the suites that register bots with the CLI use it")]
pub(crate) fn add_bot(store: &str, name: &str) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_cardroom"))
        .args(["bots", "add", name, "--store", store])
        .output()
        .expect("cardroom runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("a key is ASCII").trim().to_owned()
}

/// Stops `server` with SIGTERM, as an operator's Ctrl-C does, and waits for it to exit (at most
/// [`cardroom_tests::PATIENCE`]); panics if it does not, or exits with an error.
#[allow(dead_code, reason = "the suites that stop a server gracefully use it")]
pub(crate) fn stop_gracefully(server: &mut Child) {
    let pid = Pid::from_raw(i32::try_from(server.id()).expect("a process id is an i32"));
    nix::sys::signal::kill(pid, Signal::SIGTERM).expect("the server takes SIGTERM");
    let deadline = std::time::Instant::now() + cardroom_tests::PATIENCE;
    let status = loop {
        if let Some(status) = server.try_wait().expect("the server's status") {
            break status;
        }
        assert!(std::time::Instant::now() < deadline, "the server did not stop on SIGTERM");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(status.success(), "the server stopped with {status}");
}

/// The cgroups (v1 freezer) of the hosted bots the server `pid` started that are still there.
#[allow(dead_code, reason = "the suites of hosted bots use it")]
pub(crate) fn hosted_cgroups(pid: u32) -> Vec<String> {
    let prefix = format!("r{pid}-b");
    let Ok(entries) = std::fs::read_dir("/sys/fs/cgroup/freezer/cardroom") else { return vec![] };
    entries
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(&prefix))
        .collect()
}

/// A server child killed (SIGKILL) and reaped when dropped, so that a failing test leaves no
/// server running behind it.
#[allow(dead_code, reason = "the suites that start a server of their own use it")]
pub(crate) struct Reaped(pub(crate) Child);

impl std::ops::Deref for Reaped {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Reaped {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `cardroom serve --registered-only` on `addr` (`127.0.0.1:0` for a free port) over the SQLite
/// store `store` (a `sqlite:` URL) with the hosted ladder file `ladder`, records in `records`,
/// and `extra` flags; returns the process (killed when dropped) and the address it listens on.
#[allow(dead_code, reason = "the suites that host a ladder use it")]
pub(crate) fn serve_ladder(
    addr: &str,
    store: &str,
    ladder: &std::path::Path,
    records: &std::path::Path,
    extra: &[&str],
) -> (Reaped, String) {
    let mut server = Reaped(
        std::process::Command::new(env!("CARGO_BIN_EXE_cardroom"))
            .args(["serve", "--addr", addr, "--registered-only", "--store", store])
            .arg("--ladder")
            .arg(ladder)
            .arg("--record-dir")
            .arg(records)
            .args(extra)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap_or_else(|error| panic!("cardroom serve starts: {error}")),
    );
    let listening = listening_address(&mut server);
    (server, listening)
}

/// The freezer states (`FROZEN`, `THAWED`, …) of the hosted bots the server `pid` started
/// that are still there ([`hosted_cgroups`]).
#[allow(dead_code, reason = "the suites of hosted bots use it, the others do not")]
pub(crate) fn freezer_states(pid: u32) -> Vec<String> {
    let parent = std::path::Path::new("/sys/fs/cgroup/freezer/cardroom");
    hosted_cgroups(pid)
        .iter()
        .filter_map(|name| std::fs::read_to_string(parent.join(name).join("freezer.state")).ok())
        .map(|state| state.trim().to_owned())
        .collect()
}

/// Whether `check` holds within a few seconds, asked every 10 ms (a bound, not a sleep).
#[allow(dead_code, reason = "the suites of hosted bots use it, the others do not")]
pub(crate) fn eventually_quick(mut check: impl FnMut() -> bool) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while std::time::Instant::now() < deadline {
        if check() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    false
}

/// A hosted bot's code that says so at each turn and answers an index no turn has (a failure
/// the server records, MALFORMED); its runner then plays the first legal action.
#[allow(dead_code, reason = "the suites of hosted bots use it")]
pub(crate) const LOUD_BOT: &str = "import sys\nimport cardroom\n\n\
                                   class Loud(cardroom.Bot):\n    \
                                   def choose(self, turn):\n        \
                                   print('thinking aloud at turn', turn.number, flush=True)\n        \
                                   return 10_000\n\n\
                                   sys.exit(cardroom.main(Loud()))\n";

/// A hosted bot's code that dies at its first turn, exit code 3 (`os._exit`: a crash, no
/// cleanup), having said so.
#[allow(dead_code, reason = "the suites of hosted bots use it")]
pub(crate) const CRASHING_BOT: &str = "import os\nimport sys\nimport cardroom\n\n\
                                       class Crash(cardroom.Bot):\n    \
                                       def choose(self, turn):\n        \
                                       print('leaving on purpose', flush=True)\n        \
                                       os._exit(3)\n\n\
                                       sys.exit(cardroom.main(Crash()))\n";

/// The version a `cardroom bots submit` output names (`… sha256 HEX …`).
#[allow(dead_code, reason = "the suites of hosted bots use it")]
pub(crate) fn version_in(submitted: &str) -> String {
    submitted
        .split_whitespace()
        .find(|word| word.len() == 64 && word.chars().all(|c| c.is_ascii_hexdigit()))
        .unwrap_or_else(|| panic!("no version in {submitted:?}"))
        .to_owned()
}

/// A child's log file, whose last lines are printed when the test fails.
#[allow(dead_code, reason = "the suites of hosted bots use it")]
pub(crate) struct LogOnFailure {
    /// The file.
    pub(crate) path: std::path::PathBuf,
    /// Whose log it is, for the heading.
    pub(crate) whose: &'static str,
}

impl Drop for LogOnFailure {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let text = std::fs::read_to_string(&self.path).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            eprintln!(
                "--- {}'s log, last lines\n{}",
                self.whose,
                lines[lines.len().saturating_sub(80)..].join("\n")
            );
        }
    }
}

/// The first output kept with one of `bot`'s failures in `ladder`, once there is one.
#[allow(dead_code, reason = "the suites of hosted bots use it")]
pub(crate) async fn failure_output(
    store: &dyn cardroom_store::Store,
    ladder: cardroom_store::LadderId,
    bot: cardroom_store::BotId,
) -> String {
    eventually("the bot's output kept with a failure", || async {
        let failures = store.failures(ladder, bot, 10).await.expect("the store answers");
        failures.into_iter().find_map(|f| f.output)
    })
    .await
}

/// The versions `bot` played at in the ladder's finished matches, oldest first.
#[allow(dead_code, reason = "the suites of hosted bots use it")]
pub(crate) async fn versions_played(
    store: &dyn cardroom_store::Store,
    ladder: cardroom_store::LadderId,
    bot: cardroom_store::BotId,
) -> Vec<String> {
    let mut sets = store.rated_sets(ladder).await.expect("the store answers");
    sets.extend(store.open_sets(ladder).await.expect("the store answers"));
    let mut matches: Vec<_> = sets.into_iter().flat_map(|s| s.matches).collect();
    matches.sort_by_key(|m| m.id.0);
    matches
        .iter()
        .filter(|m| m.state == cardroom_store::MatchState::Done)
        .flat_map(|m| &m.seats)
        .filter(|s| s.bot == bot)
        .filter_map(|s| s.version.clone())
        .collect()
}

/// Stops `opponent`, the only opponent of the hosted bot that the runner `pid` runs, and checks
/// that the bot, unseated, is stopped while idle. Then starts the opponent again (`back`) and
/// checks that the ladder plays on, the bot woken from its call. The runner's log at `log`
/// says both. Returns the opponent, back.
#[allow(dead_code, reason = "the suites of hosted bots use it")]
pub(crate) async fn idle_then_woken(
    store: &dyn cardroom_store::Store,
    ladder: cardroom_store::LadderId,
    pid: u32,
    log: &std::path::Path,
    opponent: StockBot,
    back: impl FnOnce() -> StockBot,
) -> StockBot {
    drop(opponent);
    eventually("the hosted bot stopped while idle", || async {
        freezer_states(pid).is_empty().then_some(())
    })
    .await;
    let rated = store.rated_sets(ladder).await.expect("the store answers").len();
    let opponent = back();
    eventually("the hosted bot woken, playing again", || async {
        let now = store.rated_sets(ladder).await.expect("the store answers").len();
        (now > rated).then_some(())
    })
    .await;
    let log = std::fs::read_to_string(log).expect("the runner's log");
    assert!(log.contains("stopped while idle: on call"), "the runner's log says so");
    assert!(log.contains("woken: a match wants it"), "the runner's log says so");
    opponent
}

/// The server's gRPC URL and its pages' address, from the lines it prints on stdout (the
/// gRPC port, the Unix socket of its hosted bots, the pages).
#[allow(dead_code, reason = "the suites that read the pages use it")]
pub(crate) fn addresses(server: &mut std::process::Child) -> (String, String) {
    use std::io::BufRead as _;
    let lines = std::io::BufReader::new(server.stdout.take().unwrap()).lines();
    let (mut url, mut pages) = (None, None);
    for line in lines.map(Result::unwrap) {
        if let Some(address) = line.strip_prefix("cardroom listening on 127.0.0.1:") {
            url = Some(format!("http://127.0.0.1:{address}"));
        } else if let Some(address) = line.strip_prefix("cardroom pages on http://") {
            pages = Some(address.to_owned());
            break;
        }
    }
    (url.unwrap(), pages.unwrap())
}

/// `cardroom serve` on `127.0.0.1:0` with its pages (`--http-addr 127.0.0.1:0`), the store
/// `store` (registered bots only), the admin token `T`, `ladders` and the records in `records`,
/// and `extra` flags; with its gRPC URL and its pages' address.
#[allow(dead_code, reason = "the suites that read the pages of a hosted ladder use it")]
pub(crate) fn serve_pages(
    store: &str,
    ladders: &[&std::path::Path],
    records: &std::path::Path,
    extra: &[&str],
) -> (Reaped, String, String) {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_cardroom"));
    command.args(["serve", "--addr", "127.0.0.1:0", "--registered-only", "--store", store]);
    command.args(["--admin-token", "T", "--http-addr", "127.0.0.1:0"]);
    for ladder in ladders {
        command.arg("--ladder").arg(ladder);
    }
    command.arg("--record-dir").arg(records).args(extra);
    let spawned = command.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::null());
    let mut server = Reaped(spawned.spawn().expect("cardroom serve starts"));
    let (url, pages) = addresses(&mut server);
    (server, url, pages)
}

/// The whole HTTP/1.0 answer to `GET path` from the pages at `address`.
#[allow(dead_code, reason = "the suites that read the pages use it")]
pub(crate) fn get(address: &str, path: &str) -> String {
    use std::io::{Read as _, Write as _};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {address}\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

/// A POST of a page's form on `pages` (`host:port`) with `body` (`key=…&name=…`, encoded):
/// the status and the whole answer.
#[allow(dead_code, reason = "the suites that post the pages' forms use it")]
pub(crate) async fn post_form(pages: &str, path: &str, body: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let mut stream = tokio::net::TcpStream::connect(pages).await.expect("the pages answer");
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {pages}\r\nContent-Type: \
         application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("the request is written");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("the answer is read");
    let status = answer.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, answer)
}

/// `cardroom ARGS`.
#[allow(dead_code, reason = "the suites that run the read commands use it")]
pub(crate) fn cardroom<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_cardroom")).args(args).output().unwrap()
}

/// `cardroom ARGS`'s stdout, trimmed, or a panic with its stderr.
#[allow(dead_code, reason = "the suites that run the read commands use it")]
pub(crate) fn ok<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S]) -> String {
    let out = cardroom(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// `cardroom ARGS`'s stderr, which must say each of `says`, once it failed.
#[allow(dead_code, reason = "the suites that run the read commands use it")]
pub(crate) fn refused<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S], says: &[&str]) {
    let out = cardroom(args);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded: {said}");
    for s in says {
        assert!(said.contains(s), "{args:?}: {said:?} lacks {s:?}");
    }
}

/// `check`'s answer once it has one, asked every 50 ms for [`cardroom_tests::PATIENCE`].
#[allow(dead_code, reason = "the suites that run the read commands use it")]
pub(crate) fn eventually_sync<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = std::time::Instant::now() + cardroom_tests::PATIENCE;
    loop {
        if let Some(found) = check() {
            return found;
        }
        assert!(std::time::Instant::now() < deadline, "not within the patience: {what}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// `cardroom serve --registered-only --host-bots` (its bots run by `python`) over the SQLite
/// store `store`, with the hosted ladder file `ladder`, the admin token `T`, its hosted bots,
/// records and log (`log`) under `dir`, its pages on a free port and `extra` flags; returns the
/// process (killed when dropped).
#[allow(dead_code, reason = "the suites of hosted bots use it")]
pub(crate) fn serve_hosting(
    python: &std::path::Path,
    dir: &std::path::Path,
    store: &str,
    ladder: &std::path::Path,
    log: &std::path::Path,
    extra: &[&str],
) -> Reaped {
    Reaped(
        std::process::Command::new(env!("CARGO_BIN_EXE_cardroom"))
            .args(["serve", "--addr", "127.0.0.1:0", "--registered-only", "--store", store])
            .args(["--admin-token", "T", "--host-bots", "--bot-python"])
            .arg(python)
            .arg("--host-bots-dir")
            .arg(dir.join("hosted"))
            .arg("--ladder")
            .arg(ladder)
            .arg("--record-dir")
            .arg(dir.join("records"))
            .args(["--http-addr", "127.0.0.1:0"])
            .args(extra)
            .stdout(std::process::Stdio::piped())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .unwrap(),
    )
}
