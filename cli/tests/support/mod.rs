//! What the binary's test suites share.

use std::io::{BufRead as _, BufReader};
use std::process::Child;

use nix::sys::signal::Signal;
use nix::unistd::Pid;

/// The address `cardroom serve` listens on, read from the one line it prints on stdout once it
/// does (`cardroom listening on ADDR`); the child must have been spawned with a piped stdout.
pub(crate) fn listening_address(server: &mut Child) -> String {
    let stdout = server.stdout.take().expect("the server's stdout is piped");
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("the server's first line");
    line.trim()
        .strip_prefix("cardroom listening on ")
        .unwrap_or_else(|| panic!("not a listening line: {line:?}"))
        .to_owned()
}

/// Kills `server` (SIGKILL) while it runs what `running` reads from the store, and returns
/// that. The server is stopped (SIGSTOP) before the store is read, so what is read is what it
/// ran as it died; if it ran nothing (what it was seen running ended before it stopped), it
/// goes on (SIGCONT) and `running` is read again once `sighted` sees it running something.
#[allow(dead_code, reason = "the suites that kill a server use it, the others do not")]
pub(crate) async fn kill_while_running<T, R, S, F, G>(
    server: &mut Child,
    mut sighted: S,
    mut running: R,
) -> T
where
    S: FnMut() -> G,
    G: Future,
    R: FnMut() -> F,
    F: Future<Output = Option<T>>,
{
    let pid = Pid::from_raw(i32::try_from(server.id()).expect("a process id is an i32"));
    loop {
        sighted().await;
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
