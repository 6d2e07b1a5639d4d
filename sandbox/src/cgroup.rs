//! A bot's cgroups (version 1): one directory per bot in each hierarchy it needs, under a
//! `cardroom` parent, and the handful of files read and written there.
//!
//! These are plain file writes. `cgroups-rs` was considered: it pulls in zbus (D-Bus, for its
//! systemd driver) and an older nix, and its freezer does not wait for the cgroup to be frozen,
//! which is the one thing fair clocks need. What is used here fits on a page.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use crate::error::SandboxError;
use crate::spec::Limits;

/// The cgroup v1 hierarchies a bot is placed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Controller {
    Memory,
    Pids,
    Freezer,
    Cpu,
    Cpuacct,
}

impl Controller {
    const ALL: [Controller; 5] = [
        Controller::Memory,
        Controller::Pids,
        Controller::Freezer,
        Controller::Cpu,
        Controller::Cpuacct,
    ];

    /// The hierarchy's directory under the mount, named after its controller.
    fn name(self) -> &'static str {
        match self {
            Controller::Memory => "memory",
            Controller::Pids => "pids",
            Controller::Freezer => "freezer",
            Controller::Cpu => "cpu",
            Controller::Cpuacct => "cpuacct",
        }
    }
}

/// The CFS period the CPU quota is a share of, in microseconds (the kernel's default).
const CPU_PERIOD_US: u64 = 100_000;

/// How long freezing may take before it counts as failed. A cgroup freezes in microseconds
/// unless a task sits in an uninterruptible sleep.
const FREEZE_TIMEOUT: Duration = Duration::from_secs(2);

/// How long to wait for a killed bot's processes to leave its cgroups before removing them.
const EMPTY_TIMEOUT: Duration = Duration::from_secs(2);

/// Where the bots' cgroups live: `{mount}/{controller}/{parent}/r{runner pid}-b{n}`.
#[derive(Clone, Debug)]
pub struct CgroupRoot {
    /// Where the v1 hierarchies are mounted, one directory per controller.
    pub mount: PathBuf,
    /// The directory under each hierarchy's root that holds the bots' cgroups.
    pub parent: String,
}

impl Default for CgroupRoot {
    fn default() -> CgroupRoot {
        CgroupRoot { mount: PathBuf::from("/sys/fs/cgroup"), parent: "cardroom".to_owned() }
    }
}

/// Numbers the bots of this process, so that their cgroups' names never repeat.
static NEXT_BOT: AtomicU64 = AtomicU64::new(0);

impl CgroupRoot {
    fn parent_in(&self, controller: Controller) -> PathBuf {
        self.mount.join(controller.name()).join(&self.parent)
    }

    /// Creates the parent in every hierarchy, or says which one cannot be written.
    pub(crate) fn prepare(&self) -> Result<(), SandboxError> {
        for controller in Controller::ALL {
            let parent = self.parent_in(controller);
            fs::create_dir_all(&parent)
                .map_err(|source| SandboxError::Cgroup { path: parent.clone(), source })?;
        }
        Ok(())
    }

    /// Removes the cgroups of runners that are gone (a runner killed before it could clean up),
    /// killing what is left in them. Another live runner's cgroups are left alone.
    pub(crate) fn sweep(&self) {
        let Ok(entries) = fs::read_dir(self.parent_in(Controller::Freezer)) else { return };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(runner) = runner_of(&name) else { continue };
            if Path::new("/proc").join(runner.to_string()).exists() {
                continue;
            }
            let stale = BotCgroup { dirs: self.dirs(&name), name };
            stale.kill_all();
            stale.remove();
        }
    }

    fn dirs(&self, name: &str) -> [PathBuf; 5] {
        Controller::ALL.map(|c| self.parent_in(c).join(name))
    }

    /// A new cgroup for one bot in every hierarchy, with `limits` written.
    pub(crate) fn create(&self, limits: &Limits) -> Result<BotCgroup, SandboxError> {
        let n = NEXT_BOT.fetch_add(1, Ordering::Relaxed);
        let name = format!("r{}-b{n}", std::process::id());
        let cgroup = BotCgroup { dirs: self.dirs(&name), name };
        for dir in &cgroup.dirs {
            if let Err(source) = fs::create_dir(dir) {
                cgroup.remove();
                return Err(SandboxError::Cgroup { path: dir.clone(), source });
            }
        }
        if let Err(error) = cgroup.write_limits(limits) {
            cgroup.remove();
            return Err(error);
        }
        Ok(cgroup)
    }
}

/// The runner's pid in a bot cgroup's name `r{pid}-b{n}`.
fn runner_of(name: &str) -> Option<u32> {
    name.strip_prefix('r')?.split_once("-b")?.0.parse().ok()
}

/// One bot's cgroups. Dropping it kills what is left inside and removes the directories.
#[derive(Debug)]
pub(crate) struct BotCgroup {
    name: String,
    /// One directory per controller, in the order of `Controller::ALL`.
    dirs: [PathBuf; 5],
}

impl BotCgroup {
    /// The name of the bot's cgroup in each hierarchy (`r{runner pid}-b{n}`).
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    fn dir(&self, controller: Controller) -> &Path {
        &self.dirs[controller as usize]
    }

    /// The `cgroup.procs` files a process writes its pid to, to enter this cgroup everywhere.
    pub(crate) fn procs_files(&self) -> Vec<PathBuf> {
        self.dirs.iter().map(|d| d.join("cgroup.procs")).collect()
    }

    fn write(&self, controller: Controller, file: &str, value: &str) -> Result<(), SandboxError> {
        let path = self.dir(controller).join(file);
        fs::write(&path, value).map_err(|source| SandboxError::Cgroup { path, source })
    }

    fn read(&self, controller: Controller, file: &str) -> io::Result<String> {
        fs::read_to_string(self.dir(controller).join(file))
    }

    fn write_limits(&self, limits: &Limits) -> Result<(), SandboxError> {
        let memory = limits.memory.to_string();
        self.write(Controller::Memory, "memory.limit_in_bytes", &memory)?;
        // Memory and swap together, where swap accounting is on: no swapping past the limit.
        if self.dir(Controller::Memory).join("memory.memsw.limit_in_bytes").exists() {
            self.write(Controller::Memory, "memory.memsw.limit_in_bytes", &memory)?;
        }
        self.write(Controller::Pids, "pids.max", &limits.pids.to_string())?;
        self.write(Controller::Cpu, "cpu.cfs_period_us", &CPU_PERIOD_US.to_string())?;
        let quota = (limits.cpus * CPU_PERIOD_US as f64).round().max(1_000.0) as u64;
        self.write(Controller::Cpu, "cpu.cfs_quota_us", &quota.to_string())
    }

    /// Stops every process of the bot, and returns once all are stopped.
    pub(crate) fn freeze(&self) -> Result<(), SandboxError> {
        self.write(Controller::Freezer, "freezer.state", "FROZEN")?;
        // The state reads FREEZING until every task has stopped.
        let start = Instant::now();
        loop {
            let path = self.dir(Controller::Freezer).join("freezer.state");
            let state = fs::read_to_string(&path)
                .map_err(|source| SandboxError::Cgroup { path, source })?;
            if state.trim() == "FROZEN" {
                return Ok(());
            }
            if start.elapsed() > FREEZE_TIMEOUT {
                return Err(SandboxError::FreezeTimeout { cgroup: self.name.clone() });
            }
            std::thread::yield_now();
        }
    }

    /// Lets the bot's processes run again.
    pub(crate) fn thaw(&self) -> Result<(), SandboxError> {
        self.write(Controller::Freezer, "freezer.state", "THAWED")
    }

    /// A handle on the bot's freezer alone, for whoever holds the bot's clock.
    pub(crate) fn freezer(&self) -> Freezer {
        Freezer { state: self.dir(Controller::Freezer).join("freezer.state").into() }
    }

    /// The host pids of the bot's processes.
    pub(crate) fn pids(&self) -> Vec<i32> {
        self.read(Controller::Freezer, "cgroup.procs")
            .map(|procs| procs.lines().filter_map(|l| l.trim().parse().ok()).collect())
            .unwrap_or_default()
    }

    /// The CPU time the bot's processes have used, from `cpuacct.usage` (nanoseconds).
    pub(crate) fn cpu_time(&self) -> io::Result<Duration> {
        let usage = self.read(Controller::Cpuacct, "cpuacct.usage")?;
        let nanos = usage.trim().parse().map_err(|_| io::Error::other("cpuacct.usage"))?;
        Ok(Duration::from_nanos(nanos))
    }

    /// How many of the bot's processes the memory cgroup's OOM killer killed.
    pub(crate) fn oom_kills(&self) -> u64 {
        self.read(Controller::Memory, "memory.oom_control")
            .map_or(0, |text| field(&text, "oom_kill"))
    }

    /// How many forks the pids limit refused.
    pub(crate) fn pids_refused(&self) -> u64 {
        self.read(Controller::Pids, "pids.events").map_or(0, |text| field(&text, "max"))
    }

    /// Kills every process of the bot: frozen first, so that none forks in between, then
    /// SIGKILLed, then thawed so that the signals are delivered. Thawed even when the freeze
    /// did not finish in time: a cgroup left freezing keeps its killed processes stuck, each
    /// with its signal pending (seen once, with 50 bots on a busy machine).
    pub(crate) fn kill_all(&self) {
        let _ = self.freeze();
        for pid in self.pids() {
            // A process may be gone already.
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
        let _ = self.thaw();
    }

    /// Waits until the bot's processes have left, then removes its directories. A cgroup still
    /// in use cannot be removed; it is logged and left for the next runner's sweep.
    pub(crate) fn remove(&self) {
        let start = Instant::now();
        while !self.pids().is_empty() && start.elapsed() < EMPTY_TIMEOUT {
            std::thread::sleep(Duration::from_millis(1));
        }
        for dir in &self.dirs {
            if let Err(error) = fs::remove_dir(dir)
                && error.kind() != io::ErrorKind::NotFound
            {
                tracing::warn!(cgroup = %dir.display(), cause = %error, "a bot's cgroup is left");
            }
        }
    }
}

impl Drop for BotCgroup {
    fn drop(&mut self) {
        self.kill_all();
        self.remove();
    }
}

/// Freezes or thaws one bot without waiting: what a match task calls between two decisions,
/// where blocking is not allowed. The kernel stops the bot's tasks within microseconds of the
/// write; [`crate::RunningBot::freeze`] is the call that waits until they have stopped.
///
/// A bot that is gone (its cgroup removed) makes both calls fail with `NotFound`, harmlessly.
#[derive(Clone, Debug)]
pub struct Freezer {
    /// The cgroup's `freezer.state` file.
    state: std::sync::Arc<Path>,
}

impl Freezer {
    /// Asks the kernel to stop every process of the bot.
    pub fn freeze(&self) -> io::Result<()> {
        fs::write(&self.state, "FROZEN")
    }

    /// Lets the bot's processes run again.
    pub fn thaw(&self) -> io::Result<()> {
        fs::write(&self.state, "THAWED")
    }
}

/// The number after `key` in a cgroup file of `key value` lines.
fn field(text: &str, key: &str) -> u64 {
    text.lines()
        .filter_map(|line| line.split_once(' '))
        .find(|(k, _)| *k == key)
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cgroup_name_gives_its_runner() {
        assert_eq!(runner_of("r123-b4"), Some(123));
        assert_eq!(runner_of("other"), None);
        assert_eq!(runner_of("r-b4"), None);
    }

    #[test]
    fn fields_are_read_by_key() {
        let oom = "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n";
        assert_eq!(field(oom, "oom_kill"), 2);
        assert_eq!(field(oom, "oom_kill_disable"), 0);
        assert_eq!(field("max 7\n", "max"), 7);
        assert_eq!(field("", "max"), 0);
    }
}
