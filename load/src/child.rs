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

/// The usage of process `pid` (zeros where the platform does not say).
#[cfg(target_os = "linux")]
pub(crate) fn usage(pid: Option<u32>) -> Usage {
    let Some(process) = pid.and_then(|pid| procfs::process::Process::new(pid as i32).ok()) else {
        return Usage::default();
    };
    // The tick rate from libc's `sysconf`, not procfs's `ticks_per_second`: that reads the
    // auxiliary vector through rustix, which panics under valgrind (the load profiled).
    let ticks_per_second = nix::unistd::sysconf(nix::unistd::SysconfVar::CLK_TCK)
        .ok()
        .flatten()
        .filter(|&ticks| ticks > 0)
        .unwrap_or(100) as f64; // USER_HZ, which Linux fixes at 100
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
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    println!("{LISTENING}{}", listener.local_addr()?);
    Ok(listener)
}
