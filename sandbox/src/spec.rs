//! What to run and under which limits: [`BotSpec`], [`Limits`] and [`Runtime`].

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::SandboxError;

/// Where the server's Unix socket appears inside the sandbox.
pub const SOCKET_IN_SANDBOX: &str = "/run/cardroom.sock";

/// The server's address as a bot inside the sandbox writes it (`--server` or
/// `CARDROOM_SERVER`): gRPC over the socket bound at [`SOCKET_IN_SANDBOX`].
pub const SERVER_URL_IN_SANDBOX: &str = "unix:/run/cardroom.sock";

/// Where the bot's code appears inside the sandbox, read-only; its working directory.
pub const CODE_IN_SANDBOX: &str = "/bot";

/// The bot's home inside the sandbox: the one writable place, a size-capped tmpfs. `/tmp` is
/// a link to it, and `HOME` and `TMPDIR` name it.
pub const HOME_IN_SANDBOX: &str = "/home/bot";

/// One bot to run.
#[derive(Clone, Debug)]
pub struct BotSpec {
    /// The bot's unpacked code on the host, bound read-only at [`CODE_IN_SANDBOX`].
    pub code: PathBuf,
    /// The program and its arguments, run in [`CODE_IN_SANDBOX`] (e.g. `python3 bot.py`).
    /// A program without a slash is looked up in the runtime's `PATH`.
    pub command: Vec<String>,
    /// The server's Unix socket on the host, bound at [`SOCKET_IN_SANDBOX`].
    pub socket: PathBuf,
    /// The bot's environment, on top of `HOME`, `TMPDIR` and `PATH`: the server's address
    /// ([`SERVER_URL_IN_SANDBOX`]) and the bot's key, typically. Nothing else of the runner's
    /// environment is passed on.
    pub env: Vec<(String, String)>,
    /// The interpreter or libraries the command needs, read-only.
    pub runtime: Runtime,
    /// The bot's limits.
    pub limits: Limits,
}

/// A bot's limits, the same for every hosted bot of a ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Memory, and memory with swap, in bytes (the memory cgroup). The home's tmpfs is
    /// counted in it too.
    pub memory: u64,
    /// Processes and threads at once (the pids cgroup).
    pub pids: u32,
    /// CPU, in cores: 0.5 is half of one core (the CFS quota of the cpu cgroup).
    pub cpus: f64,
    /// The size of the writable home, in bytes (bubblewrap's `--size` on its tmpfs).
    pub home: u64,
    /// The output kept per match: stdout and stderr together, in bytes. The rest is counted
    /// and dropped.
    pub output: usize,
}

impl Default for Limits {
    /// 256 MiB of memory, 64 processes, one core, a 16 MiB home and 64 KiB of output.
    fn default() -> Limits {
        Limits { memory: 256 << 20, pids: 64, cpus: 1.0, home: 16 << 20, output: 64 << 10 }
    }
}

/// The host directories a bot's command needs, bound read-only at the same paths, and the
/// directories to look its program up in. `/usr` is always bound; a dynamically linked
/// binary or Debian's `python3` needs nothing more.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Runtime {
    /// Directories bound read-only at the same path.
    pub paths: Vec<PathBuf>,
    /// Directories put before `/usr/bin:/bin` in the bot's `PATH`.
    pub bin: Vec<PathBuf>,
}

impl Runtime {
    /// `/usr` alone: Debian's programs and libraries, or a static binary in the bot's code.
    pub fn native() -> Runtime {
        Runtime::default()
    }

    /// The Python of `interpreter` (a venv's `bin/python`, with the cardroom SDK installed):
    /// its installation, the venv and every directory on its `sys.path`, and the venv's
    /// `bin` first in `PATH`, so that `python3 bot.py` runs it.
    pub fn python(interpreter: &Path) -> Result<Runtime, SandboxError> {
        const PATHS: &str = "import json, sys; \
            print(json.dumps([sys.base_prefix, sys.prefix] + [p for p in sys.path if p]))";
        let error = |cause: String| SandboxError::Runtime { program: interpreter.into(), cause };
        let out = Command::new(interpreter)
            .args(["-c", PATHS])
            .output()
            .map_err(|e| error(e.to_string()))?;
        if !out.status.success() {
            return Err(error(String::from_utf8_lossy(&out.stderr).into_owned()));
        }
        let listed: Vec<PathBuf> =
            serde_json::from_slice(&out.stdout).map_err(|e| error(e.to_string()))?;
        let mut paths: Vec<PathBuf> = Vec::new();
        for path in listed {
            // Zip files and missing entries on sys.path are skipped; nested ones and those
            // under /usr are covered already.
            let covered = path.starts_with("/usr") || paths.iter().any(|p| path.starts_with(p));
            if path.is_dir() && !covered {
                paths.retain(|p| !p.starts_with(&path));
                paths.push(path);
            }
        }
        let bin = interpreter.parent().map(Path::to_path_buf).into_iter().collect();
        Ok(Runtime { paths, bin })
    }
}
