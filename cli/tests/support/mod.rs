//! What the binary's test suites share.

use std::io::{BufRead as _, BufReader};
use std::process::Child;

use cardroom_tests::eventually;
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

/// Waits until `running` (read from the store) finds `server` running something, then kills
/// the server (SIGKILL) and returns what it ran as it died. The server is stopped (SIGSTOP)
/// before `running` is read again, so nothing it runs can end between that reading and the
/// kill; if what it was seen running ended before it stopped, it goes on (SIGCONT) and the
/// wait starts over.
#[allow(dead_code, reason = "the suites that kill a server use it, the others do not")]
pub(crate) async fn kill_while_running<T, R, F>(server: &mut Child, what: &str, mut running: R) -> T
where
    R: FnMut() -> F,
    F: Future<Output = Option<T>>,
{
    let pid = Pid::from_raw(i32::try_from(server.id()).expect("a process id is an i32"));
    loop {
        eventually(what, &mut running).await;
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
