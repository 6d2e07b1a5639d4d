//! The servers under test run as child processes of this binary (`serve-cardroom`,
//! `serve-pingpong`), so that their CPU time and memory are theirs alone and every message
//! crosses a real socket between two processes, as it does for real bots.

use std::process::Stdio;

use anyhow::{Context, bail};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// What a server child prints first on stdout, followed by its address.
pub(crate) const LISTENING: &str = "listening on ";

/// A server running in a child process; killed when dropped.
pub(crate) struct ServerChild {
    child: Child,
    /// `http://127.0.0.1:port`.
    pub(crate) url: String,
}

impl ServerChild {
    /// Starts this binary with `args` and waits for the address it listens on.
    pub(crate) async fn start(args: &[String]) -> anyhow::Result<ServerChild> {
        let exe = std::env::current_exe().context("finding this program")?;
        let mut child = Command::new(exe)
            .args(args)
            // The child stops when its stdin closes: when this process ends, however it ends.
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .context("starting a server child")?;
        let stdout = child.stdout.take().context("the child's stdout")?;
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).await?;
        let Some(address) = line.trim().strip_prefix(LISTENING) else {
            bail!("the server child said {line:?} instead of its address");
        };
        Ok(ServerChild { url: format!("http://{address}"), child })
    }

    /// Its process id.
    pub(crate) fn pid(&self) -> Option<u32> {
        self.child.id()
    }
}

/// The URL of a server given as `host:port` or as a URL.
pub(crate) fn http_url(server: &str) -> String {
    if server.contains("://") { server.to_owned() } else { format!("http://{server}") }
}

/// A process's CPU time (user and system, seconds) and peak resident memory (bytes).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Usage {
    pub(crate) cpu_seconds: f64,
    pub(crate) peak_rss_bytes: u64,
}

/// The tick rate of `/proc`'s CPU times, from libc's `sysconf`, not procfs's
/// `ticks_per_second`: that reads the auxiliary vector through rustix, which panics under
/// valgrind (the load profiled).
#[cfg(target_os = "linux")]
fn ticks_per_second() -> f64 {
    nix::unistd::sysconf(nix::unistd::SysconfVar::CLK_TCK)
        .ok()
        .flatten()
        .filter(|&ticks| ticks > 0)
        .unwrap_or(100) as f64 // USER_HZ, which Linux fixes at 100
}

/// The usage of process `pid` (zeros where the platform does not say).
#[cfg(target_os = "linux")]
pub(crate) fn usage(pid: Option<u32>) -> Usage {
    let Some(process) = pid.and_then(|pid| procfs::process::Process::new(pid as i32).ok()) else {
        return Usage::default();
    };
    let ticks_per_second = ticks_per_second();
    let cpu_seconds = process
        .stat()
        .map(|stat| (stat.utime + stat.stime) as f64 / ticks_per_second)
        .unwrap_or(0.0);
    let peak_rss_bytes = process.status().ok().and_then(|status| status.vmhwm).unwrap_or(0) * 1024;
    Usage { cpu_seconds, peak_rss_bytes }
}

/// The usage of process `pid` (zeros where the platform does not say).
#[cfg(not(target_os = "linux"))]
pub(crate) fn usage(_pid: Option<u32>) -> Usage {
    Usage::default()
}

/// The whole machine's CPU time so far, in seconds summed over its cores: what its processes
/// and the kernel ran (`busy`), and what the hypervisor gave to other machines while this one
/// had work (`stolen`, a virtual machine's steal time). Over a window, less what the servers
/// under test and this process ran, they say how quiet the machine was.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MachineCpu {
    pub(crate) busy_seconds: f64,
    pub(crate) stolen_seconds: f64,
}

impl MachineCpu {
    /// Over the `seconds` since `self` was read: the cores that every process but those
    /// `accounted` for (in cores) kept busy, and the cores stolen.
    pub(crate) fn since(self, seconds: f64, accounted: f64) -> (f64, f64) {
        let now = machine_cpu();
        let others = ((now.busy_seconds - self.busy_seconds) / seconds - accounted).max(0.0);
        (others, (now.stolen_seconds - self.stolen_seconds).max(0.0) / seconds)
    }
}

/// The machine's CPU time so far (zeros where the platform does not say).
#[cfg(target_os = "linux")]
pub(crate) fn machine_cpu() -> MachineCpu {
    use procfs::FromBufReadSI;
    let ticks_per_second = ticks_per_second();
    // Told the tick rate, not reading it from the auxiliary vector (see `ticks_per_second`);
    // the other facts are not used by `/proc/stat`'s reader.
    let system = procfs::ExplicitSystemInfo {
        boot_time_secs: 0,
        ticks_per_second: ticks_per_second as u64,
        page_size: 4096,
        is_little_endian: cfg!(target_endian = "little"),
    };
    let stat =
        std::fs::File::open("/proc/stat").map_err(procfs::ProcError::from).and_then(|file| {
            procfs::KernelStats::from_buf_read(std::io::BufReader::new(file), &system)
        });
    let Ok(stat) = stat else { return MachineCpu::default() };
    let cpu = stat.total;
    let ticks = cpu.user + cpu.nice + cpu.system + cpu.irq.unwrap_or(0) + cpu.softirq.unwrap_or(0);
    MachineCpu {
        busy_seconds: ticks as f64 / ticks_per_second,
        stolen_seconds: cpu.steal.unwrap_or(0) as f64 / ticks_per_second,
    }
}

/// The machine's CPU time so far (zeros where the platform does not say).
#[cfg(not(target_os = "linux"))]
pub(crate) fn machine_cpu() -> MachineCpu {
    MachineCpu::default()
}

/// Resolves when this process's stdin closes: a server child's parent has gone.
pub(crate) async fn parent_gone() {
    let mut stdin = BufReader::new(tokio::io::stdin());
    let mut line = String::new();
    while matches!(stdin.read_line(&mut line).await, Ok(n) if n > 0) {
        line.clear();
    }
}

/// Binds `127.0.0.1:0` and tells the parent where.
pub(crate) async fn listen() -> anyhow::Result<tokio::net::TcpListener> {
    let listener = cardroom_server::listen(([127, 0, 0, 1], 0).into())?;
    println!("{LISTENING}{}", listener.local_addr()?);
    Ok(listener)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The machine's busy time holds this process's: a fifth of a second of CPU spent here
    /// shows in both, and none of it is another process's once accounted for.
    #[test]
    fn the_machines_busy_time_counts_this_process() {
        let me = Some(std::process::id());
        let (machine, process) = (machine_cpu(), usage(me).cpu_seconds);
        while usage(me).cpu_seconds - process < 0.2 {
            std::hint::black_box((0..10_000u64).sum::<u64>());
        }
        let busy = machine_cpu().busy_seconds - machine.busy_seconds;
        // Each figure counts whole ticks (10 ms) on each core.
        assert!(busy >= 0.15, "the machine was busy {busy} s while this process spun 0.2 s");
        let (others, stolen) = machine.since(1.0, f64::MAX);
        assert_eq!(others, 0.0);
        assert!(stolen >= 0.0);
    }
}
