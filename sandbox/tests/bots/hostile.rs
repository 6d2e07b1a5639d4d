//! The hostile bots in Rust: one binary, the misdeed chosen by its first argument.
//!
//! - `alloc`: allocates and touches memory without end.
//! - `spawn-bomb`: starts copies of itself without end (a fork bomb without `unsafe`); the
//!   first copy refused a process exits 1.
//! - `connect ADDRESS`: connects to a TCP address; exits 0 if refused, 3 if connected.

use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("alloc") => {
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                // Written, so that the pages are really taken.
                hoard.push(vec![1; 1 << 20]);
            }
        }
        // Each copy starts copies until one is refused a process and exits with the error.
        Some("spawn-bomb") => loop {
            if let Err(error) = Command::new("/proc/self/exe").arg("spawn-bomb").spawn() {
                eprintln!("refused a process: {error}");
                std::process::exit(1);
            }
        },
        Some("connect") => {
            let address = args.get(2).cloned().unwrap_or_default();
            let addr = address.parse().expect("an address");
            match TcpStream::connect_timeout(&addr, Duration::from_secs(2)) {
                Ok(_) => {
                    println!("ESCAPED: connected to {address}");
                    std::process::exit(3);
                }
                Err(error) => println!("blocked: connect to {address}: {error}"),
            }
        }
        _ => {
            eprintln!("usage: hostile-bot alloc|spawn-bomb|connect ADDRESS");
            std::process::exit(2);
        }
    }
}
