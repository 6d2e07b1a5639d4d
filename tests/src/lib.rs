//! Helpers for the cross-language tests in `tests/`: an in-process server on `127.0.0.1:0`, and
//! the Python example bots (`example-bots/python/`) run as real processes against it.
//!
//! The Python side needs an interpreter with the Python SDK installed, named by the
//! `CARDROOM_PYTHON` environment variable; `.ci/run` makes one in `.venv` and sets it. Without
//! it the tests fail and say so: they are never skipped.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Duration;

use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use tokio::net::TcpListener;
use tokio::process::{Child, Command};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// How long a test waits for a bot or a match before it fails (a bound, never a sleep).
pub const PATIENCE: Duration = Duration::from_secs(120);

/// The environment variable naming the Python interpreter that has the SDK installed.
pub const PYTHON_VAR: &str = "CARDROOM_PYTHON";

/// The workspace's root directory.
pub fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap_or(Path::new(".."))
}

/// The Python interpreter named by `CARDROOM_PYTHON`.
///
/// # Panics
///
/// When the variable is unset or names no file: the message says how to make one.
pub fn python() -> PathBuf {
    let how = "run .ci/run (it makes .venv with the Python SDK and sets it), or: \
               python3 -m venv .venv && .venv/bin/pip install -e sdk/python && \
               CARDROOM_PYTHON=$PWD/.venv/bin/python cargo test -p cardroom-tests";
    let Some(path) = std::env::var_os(PYTHON_VAR) else {
        panic!("{PYTHON_VAR} is not set: the cross-language tests need Python with the SDK; {how}");
    };
    let path = PathBuf::from(path);
    assert!(path.is_file(), "{PYTHON_VAR}={} is not a file; {how}", path.display());
    path
}

/// A cardroom server in this process on `127.0.0.1:0`; it stops when dropped.
pub struct TestServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Dropping it asks the server to stop.
    _stop: oneshot::Sender<()>,
    /// The server's task, aborted on drop.
    task: JoinHandle<anyhow::Result<()>>,
}

impl TestServer {
    /// Starts a server with the default configuration.
    ///
    /// # Panics
    ///
    /// When it cannot bind a port.
    pub async fn start() -> TestServer {
        if std::env::var_os("RUST_LOG").is_some() {
            let _ = tracing_subscriber::fmt().with_test_writer().try_init();
        }
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port on 127.0.0.1");
        let addr = listener.local_addr().expect("a bound listener has an address");
        let (stop, stopped) = oneshot::channel::<()>();
        let config = cardroom_server::Config::default();
        let task = tokio::spawn(cardroom_server::run(listener, config, async {
            let _ = stopped.await;
        }));
        TestServer { addr, _stop: stop, task }
    }

    /// The server's URL, `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// A client for unary calls.
    ///
    /// # Panics
    ///
    /// When the server cannot be reached.
    pub async fn client(&self) -> CardroomClient<tonic::transport::Channel> {
        CardroomClient::connect(self.url()).await.expect("the test server answers")
    }

    /// Creates a match with the default options and clock; returns its id and seat tokens.
    ///
    /// # Panics
    ///
    /// When the server refuses.
    pub async fn create(&self, game: pb::Game, seats: u32, seed: u64) -> (String, Vec<String>) {
        let response = self
            .client()
            .await
            .create_match(pb::CreateMatchRequest {
                game: game as i32,
                options_json: String::new(),
                seats,
                seed: Some(seed),
                clock: None,
                lobby_bots: Vec::new(),
            })
            .await
            .expect("CreateMatch succeeds")
            .into_inner();
        (response.match_id, response.seats.into_iter().map(|seat| seat.token).collect())
    }

    /// The status of a match.
    ///
    /// # Panics
    ///
    /// When the server refuses.
    pub async fn match_info(&self, match_id: &str) -> pb::MatchInfo {
        let request = pb::GetMatchRequest { match_id: match_id.to_owned() };
        self.client().await.get_match(request).await.expect("GetMatch succeeds").into_inner()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A Python example bot (`example-bots/python/<script>`) playing one match as a child process.
pub struct PythonBot {
    /// The script's file name, for messages.
    script: String,
    /// The running interpreter; killed if the test ends first.
    child: Child,
}

impl PythonBot {
    /// Starts `script` with `args` (such as `--server URL --token TOKEN`).
    ///
    /// # Panics
    ///
    /// When `CARDROOM_PYTHON` is missing (see [`python`]) or the process cannot start.
    pub fn spawn(script: &str, args: &[&str]) -> PythonBot {
        let path = workspace_root().join("example-bots").join("python").join(script);
        let child = Command::new(python())
            .arg(&path)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|err| panic!("cannot start {}: {err}", path.display()));
        PythonBot { script: script.to_owned(), child }
    }

    /// Waits for the bot to finish its match; returns its standard output.
    ///
    /// # Panics
    ///
    /// When it runs longer than [`PATIENCE`] or exits with an error (its stderr is shown).
    pub async fn finish(self) -> String {
        let output: Output = tokio::time::timeout(PATIENCE, self.child.wait_with_output())
            .await
            .unwrap_or_else(|_| panic!("{} still running after {PATIENCE:?}", self.script))
            .unwrap_or_else(|err| panic!("waiting for {}: {err}", self.script));
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success(),
            "{} failed ({}):\n{stdout}\n{stderr}",
            self.script,
            output.status
        );
        stdout
    }
}
