//! The Python example bots (`example-bots/python/`) run as real processes against a server.
//!
//! The Python side needs an interpreter with the Python SDK installed, named by the
//! `CARDROOM_PYTHON` environment variable; `.ci/run` makes one in `.venv` and sets it. Without
//! it the tests that need Python fail and say so: they are never skipped.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use tokio::process::{Child, Command};

use crate::PATIENCE;

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
