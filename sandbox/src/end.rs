//! [`End`]: why a bot's processes ended, as its author reads it.

use std::fmt;

use nix::sys::signal::Signal;

/// Why a sandboxed bot ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The bot exited by itself with this code.
    Exited {
        /// The exit code.
        code: i32,
    },
    /// A signal killed the bot (one it caused itself, as a segfault, or sent itself).
    Signalled {
        /// The signal's number.
        signal: i32,
    },
    /// The memory cgroup's OOM killer killed the bot at its memory limit.
    MemoryLimit {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The bot ended (an error or a crash) after the pids limit had refused it a process.
    PidsLimit {
        /// The limit.
        limit: u32,
    },
    /// The runner killed the bot at its deadline.
    TimeLimit,
    /// The runner killed the bot for another reason (it was no longer needed).
    Killed,
}

impl End {
    /// Whether the bot ended by itself with exit code 0.
    pub fn is_success(&self) -> bool {
        *self == End::Exited { code: 0 }
    }
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            End::Exited { code } => write!(f, "exited with code {code}"),
            End::Signalled { signal } => match Signal::try_from(signal) {
                Ok(name) => write!(f, "killed by signal {signal} ({name})"),
                Err(_) => write!(f, "killed by signal {signal}"),
            },
            End::MemoryLimit { limit } => {
                write!(f, "killed at its memory limit of {} MiB", limit >> 20)
            }
            End::PidsLimit { limit } => write!(
                f,
                "ended after its limit of {limit} processes and threads refused it another"
            ),
            End::TimeLimit => f.write_str("killed at its time limit"),
            End::Killed => f.write_str("stopped by the runner"),
        }
    }
}

/// What the runner knows when the sandbox's first process has ended, in the order the causes
/// are told: a limit the bot hit comes before how its last process ended.
#[derive(Clone, Debug)]
pub(crate) struct Facts {
    /// The sandbox's exit status: bubblewrap passes the bot's code on, and a bot killed by
    /// signal N as code 128 + N. `None` when the sandbox's own process was killed.
    pub(crate) code: Option<i32>,
    /// The signal that killed the sandbox's own process, if one did.
    pub(crate) signal: Option<i32>,
    /// Processes the OOM killer killed.
    pub(crate) oom_kills: u64,
    /// Forks the pids limit refused.
    pub(crate) pids_refused: u64,
    /// Why the runner killed the bot, if it did.
    pub(crate) killed: Option<End>,
}

impl Facts {
    pub(crate) fn end(self, memory: u64, pids: u32) -> End {
        if self.oom_kills > 0 {
            return End::MemoryLimit { limit: memory };
        }
        if let Some(killed) = self.killed {
            return killed;
        }
        let ended = match (self.code, self.signal) {
            // bubblewrap's 128 + N for a bot killed by signal N. A bot that exits with such a
            // code by itself reads as the signal too.
            (Some(code), _) if (129..=128 + 64).contains(&code) => {
                End::Signalled { signal: code - 128 }
            }
            (Some(code), _) => End::Exited { code },
            (None, Some(signal)) => End::Signalled { signal },
            (None, None) => End::Killed,
        };
        if self.pids_refused > 0 && !ended.is_success() {
            return End::PidsLimit { limit: pids };
        }
        ended
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(code: Option<i32>) -> Facts {
        Facts { code, signal: None, oom_kills: 0, pids_refused: 0, killed: None }
    }

    #[test]
    fn ends_are_told_by_their_cause() {
        let check = |facts: Facts, end: End, text: &str| {
            let told = facts.end(256 << 20, 64);
            assert_eq!(told, end);
            assert_eq!(told.to_string(), text);
        };
        check(facts(Some(0)), End::Exited { code: 0 }, "exited with code 0");
        check(facts(Some(3)), End::Exited { code: 3 }, "exited with code 3");
        check(facts(Some(139)), End::Signalled { signal: 11 }, "killed by signal 11 (SIGSEGV)");
        check(
            Facts { oom_kills: 1, ..facts(Some(137)) },
            End::MemoryLimit { limit: 256 << 20 },
            "killed at its memory limit of 256 MiB",
        );
        check(
            Facts { pids_refused: 5, ..facts(Some(1)) },
            End::PidsLimit { limit: 64 },
            "ended after its limit of 64 processes and threads refused it another",
        );
        // A bot that met the pids limit and still finished well finished well.
        check(
            Facts { pids_refused: 5, ..facts(Some(0)) },
            End::Exited { code: 0 },
            "exited with code 0",
        );
        check(
            Facts { killed: Some(End::TimeLimit), signal: Some(9), ..facts(None) },
            End::TimeLimit,
            "killed at its time limit",
        );
    }
}
