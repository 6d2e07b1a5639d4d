//! What the binary's test suites share.

use std::io::{BufRead as _, BufReader};
use std::process::Child;

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
