//! [`SandboxError`]: why a sandbox could not be set up or a bot not started.

use std::path::PathBuf;

/// Why a sandbox could not be set up, or a bot not started or controlled.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// bubblewrap is not installed (Debian: `apt-get install bubblewrap`).
    #[error("bubblewrap's `{program}` cannot be run (apt-get install bubblewrap): {source}")]
    NoBubblewrap {
        /// The program looked for.
        program: PathBuf,
        /// Why it could not run.
        source: std::io::Error,
    },
    /// The kernel refused the namespaces the sandbox needs.
    #[error("the kernel refused the sandbox's namespaces (bwrap said: {stderr})")]
    NamespacesRefused {
        /// What bwrap printed.
        stderr: String,
    },
    /// A cgroup file or directory could not be written: the hierarchy is not mounted, not
    /// writable, or not delegated to this user.
    #[error(
        "cgroup v1 {path} cannot be written (the runner needs the memory, pids, freezer, cpu \
             and cpuacct hierarchies writable): {source}"
    )]
    Cgroup {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A bot's processes did not all stop in time.
    #[error("bot cgroup {cgroup} did not freeze in time")]
    FreezeTimeout {
        /// The cgroup's name.
        cgroup: String,
    },
    /// The bot's runtime could not be read.
    #[error("the runtime of {program}: {cause}")]
    Runtime {
        /// The interpreter asked.
        program: PathBuf,
        /// What went wrong.
        cause: String,
    },
    /// The sandbox's process could not be started or waited for.
    #[error("the sandbox's process: {0}")]
    Process(#[source] std::io::Error),
}
