//! What the sandbox costs a Python bot (issue 39, item 6): its start, from the spawn until the
//! server has answered its first gRPC call over the Unix socket, and the round trip of a tiny
//! call from inside the sandbox over the socket against the same program unsandboxed over TCP.
//!
//! `CARDROOM_PYTHON=.venv/bin/python cargo run --release -p cardroom-sandbox --example cost`
//!
//! The server is tonic's health service; the bot is `tests/bots/good.py`, which imports the
//! cardroom SDK first, as a hosted bot does.

#[path = "../tests/common/mod.rs"]
mod common;

use std::process::Stdio;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use cardroom_sandbox::Sandbox;
use common::{Server, bot_file, code, python, python_bot, sandbox};

/// Starts timed, and rounds of round trips per sample.
const STARTS: usize = 20;
const SAMPLES: usize = 5;
const ROUNDS: &str = "2000";

#[tokio::main]
async fn main() {
    let sandbox = sandbox().await;
    let server = Server::start().await;
    let code = code(&[("bot.py", &bot_file("good.py"))]);
    let (interpreter, _) = python();

    let mut sandboxed = Vec::new();
    let mut two_cores = Vec::new();
    let mut bare = Vec::new();
    for _ in 0..STARTS {
        for (cpus, times) in [(1.0, &mut sandboxed), (2.0, &mut two_cores)] {
            let mut spec = python_bot(&server, code.path(), &[]);
            spec.limits.cpus = cpus;
            let seen = server.checks.load(Ordering::SeqCst);
            let start = Instant::now();
            let bot = sandbox.spawn(&spec).expect("spawn");
            server.check_past(seen).await;
            times.push(start.elapsed());
            bot.kill();
        }

        let seen = server.checks.load(Ordering::SeqCst);
        let start = Instant::now();
        let mut child = tokio::process::Command::new(&interpreter)
            .arg("bot.py")
            .current_dir(code.path())
            .env("CARDROOM_SERVER", format!("unix:{}", server.socket.display()))
            .stdout(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn unsandboxed");
        server.check_past(seen).await;
        bare.push(start.elapsed());
        child.start_kill().expect("kill");
        child.wait().await.expect("its end");
    }
    println!("start until the first call is answered, median of {STARTS}:");
    println!("  sandboxed:   {:>6.1} ms", median_ms(&mut sandboxed));
    println!(
        "  two cores:   {:>6.1} ms (sandboxed, the CPU quota at two cores)",
        median_ms(&mut two_cores)
    );
    println!("  unsandboxed: {:>6.1} ms", median_ms(&mut bare));

    let mut inside = Vec::new();
    let mut outside = Vec::new();
    for _ in 0..SAMPLES {
        let mut bot =
            sandbox.spawn(&python_bot(&server, code.path(), &["--rounds", ROUNDS])).expect("spawn");
        bot.wait().await.expect("its end");
        inside.push(median_us(&bot.take_output().stdout));

        let out = tokio::process::Command::new(&interpreter)
            .args(["bot.py", "--rounds", ROUNDS])
            .current_dir(code.path())
            .env("CARDROOM_SERVER", server.tcp.to_string())
            .output()
            .await
            .expect("run unsandboxed");
        outside.push(median_us(&out.stdout));
    }
    inside.sort_by(f64::total_cmp);
    outside.sort_by(f64::total_cmp);
    let (inside, outside) = (inside[SAMPLES / 2], outside[SAMPLES / 2]);
    println!("round trip of a tiny unary call, median of {SAMPLES} runs of {ROUNDS}:");
    println!("  sandboxed over the Unix socket: {inside:>6.1} µs");
    println!("  unsandboxed over TCP:           {outside:>6.1} µs");
    println!("  ratio:                          {:>6.2}", inside / outside);
}

fn median_ms(times: &mut [Duration]) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1000.0
}

/// The median good.py printed (`median_us N`).
fn median_us(stdout: &[u8]) -> f64 {
    let text = String::from_utf8_lossy(stdout);
    text.trim()
        .strip_prefix("median_us ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no median in {text:?}"))
}
