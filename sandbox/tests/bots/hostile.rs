//! The hostile bots in Rust: one binary, the misdeed chosen by its first argument.
//!
//! - `alloc`: allocates and touches memory without end.
//! - `spawn-bomb`: starts copies of itself without end (a fork bomb without `unsafe`).
//! - `spin`: burns CPU without end.
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
        Some("spawn-bomb") => loop {
            let _ = Command::new("/proc/self/exe").arg("spawn-bomb").spawn();
        },
        Some("spin") => {
            let mut n: u64 = 0;
            loop {
                n = std::hint::black_box(n.wrapping_add(1));
            }
        }
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
            eprintln!("usage: hostile-bot alloc|spawn-bomb|spin|connect ADDRESS");
            std::process::exit(2);
        }
    }
}
