//! [`RunningBot`]: the handle on a sandboxed bot, whatever sandbox started it.

use std::os::unix::process::ExitStatusExt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use tokio::process::Child;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::cgroup::{BotCgroup, Freezer};
use crate::end::{End, Facts};
use crate::error::SandboxError;
use crate::output::{self, CappedOutput, Output, OutputTaker, Stream};
use crate::spec::Limits;

/// A sandboxed bot: freeze and thaw it, read its output, kill it, wait for its end.
///
/// Dropping it kills whatever is left of the bot and removes its cgroups.
#[derive(Debug)]
pub struct RunningBot {
    /// The sandbox's first process (bubblewrap). The bot's processes are its descendants.
    child: Child,
    /// Holds every process of the bot, the limits and the freezer.
    cgroup: BotCgroup,
    output: Arc<Mutex<CappedOutput>>,
    /// The tasks that read stdout and stderr into `output`.
    readers: Vec<JoinHandle<()>>,
    limits: Limits,
    /// Why the runner killed the bot, once it has.
    killed: Mutex<Option<End>>,
}

impl RunningBot {
    /// The handle on `child`, already in `cgroup`, its stdout and stderr piped.
    pub(crate) fn start(mut child: Child, cgroup: BotCgroup, limits: Limits) -> RunningBot {
        let output = CappedOutput::new(limits.output);
        let mut readers = Vec::new();
        if let Some(stdout) = child.stdout.take() {
            readers.push(tokio::spawn(output::drain(stdout, Stream::Stdout, output.clone())));
        }
        if let Some(stderr) = child.stderr.take() {
            readers.push(tokio::spawn(output::drain(stderr, Stream::Stderr, output.clone())));
        }
        RunningBot { child, cgroup, output, readers, limits, killed: Mutex::new(None) }
    }

    /// The name of the bot's cgroup in each hierarchy.
    pub fn cgroup(&self) -> &str {
        self.cgroup.name()
    }

    /// Stops all of the bot's processes: while it is not to act, it cannot think on its
    /// opponent's time. Returns once every process is stopped.
    pub fn freeze(&self) -> Result<(), SandboxError> {
        self.cgroup.freeze()
    }

    /// Lets the bot's processes run again.
    pub fn thaw(&self) -> Result<(), SandboxError> {
        self.cgroup.thaw()
    }

    /// A handle that freezes and thaws the bot without waiting, for a match task to hold.
    pub fn freezer(&self) -> Freezer {
        self.cgroup.freezer()
    }

    /// The CPU time all of the bot's processes have used so far.
    pub fn cpu_time(&self) -> std::io::Result<Duration> {
        self.cgroup.cpu_time()
    }

    /// The host pids of the bot's processes (bubblewrap's among them).
    pub fn pids(&self) -> Vec<i32> {
        self.cgroup.pids()
    }

    /// What the bot wrote since the last call, capped at [`Limits::output`], and a fresh
    /// start: one call per match.
    pub fn take_output(&self) -> Output {
        self.output.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    /// A handle that takes the bot's output as [`RunningBot::take_output`] does, for whoever
    /// sees its matches end.
    pub fn output_taker(&self) -> OutputTaker {
        OutputTaker(Arc::clone(&self.output))
    }

    /// Kills every process of the bot, telling its end as `why`.
    fn kill_for(&self, why: End) {
        self.killed.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(why);
        // The sandbox's first process too: just after the spawn it may not have entered the
        // cgroups yet. Its death takes the rest (bwrap's --die-with-parent).
        if let Some(pid) = self.child.id().and_then(|pid| i32::try_from(pid).ok()) {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
        self.cgroup.kill_all();
    }

    /// Kills the bot because it is no longer needed: its end is [`End::Killed`].
    pub fn kill(&self) {
        self.kill_for(End::Killed);
    }

    /// Kills the bot at its deadline: its end is [`End::TimeLimit`].
    pub fn kill_for_time(&self) {
        self.kill_for(End::TimeLimit);
    }

    /// Waits for the bot to end, and tells why it did.
    pub async fn wait(&mut self) -> Result<End, SandboxError> {
        let status = self.child.wait().await.map_err(SandboxError::Process)?;
        // The pid namespace is gone with bubblewrap: no process is left to hold the pipes.
        for reader in self.readers.drain(..) {
            let _ = reader.await;
        }
        let facts = Facts {
            code: status.code(),
            signal: status.signal(),
            oom_kills: self.cgroup.oom_kills(),
            pids_refused: self.cgroup.pids_refused(),
            killed: self.killed.lock().unwrap_or_else(|e| e.into_inner()).clone(),
        };
        Ok(facts.end(self.limits.memory, self.limits.pids))
    }

    /// Waits for the bot to end, killing it at `deadline` ([`End::TimeLimit`]).
    pub async fn wait_until(&mut self, deadline: Instant) -> Result<End, SandboxError> {
        if tokio::time::timeout_at(deadline, self.child.wait()).await.is_err() {
            self.kill_for_time();
        }
        self.wait().await
    }
}
