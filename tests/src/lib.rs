//! Helpers for cardroom's end-to-end tests (this crate's suites, `tests/e2e.rs` among them): a
//! server in process on `127.0.0.1:0` ([`TestServer`]), bots that talk to it over real gRPC
//! with every message kept as the bytes on the wire ([`Bot`], [`RawCodec`], [`watch_raw`]),
//! all seats of a match scripted from one task ([`Table`]), records replayed with the engines
//! ([`Replay`]), and the Python example bots run as real processes against it ([`PythonBot`]), and certificates
//! for a server that speaks TLS ([`TestCertificates`]); a server hosting ladders and the
//! registered bots that play in them ([`hosted_server`], [`lobby_bot`], [`crashing_bot`]); a
//! TCP proxy whose links a test cuts or freezes ([`Proxy`]); headless Chromium for the pages
//! ([`browser`]).

mod bot;
pub mod browser;
mod hosted;
mod proxy;
mod python;
mod replay;
mod server;
mod table;
mod tls;

use std::time::Duration;

pub use bot::{
    Bot, RawCodec, act, call_raw, commented_act, decode_server_message, join, next_raw,
    random_choice, watch_raw,
};
pub use hosted::{
    ADMIN, assert_ratings_replay, crashing_bot, hosted_server, hosted_server_with, lobby_bot,
    register,
};
pub use proxy::{Break, Proxy};
pub use python::{PYTHON_VAR, PythonBot, python, workspace_root};
pub use replay::{Actions, Replay, ReplayGame, places};
pub use server::{TestServer, connect, create};
pub use table::{Received, Table};
pub use tls::{CertificateFiles, TestCertificates};

/// How long a test waits for a bot or a match before it fails (a bound, never a sleep).
pub const PATIENCE: Duration = Duration::from_secs(120);

/// How long a test waits for any one message before it fails (a bound, never a sleep: the wait
/// ends as soon as the message arrives).
pub const MESSAGE_PATIENCE: Duration = Duration::from_secs(20);

/// Waits until `check` gives a value, asking again with a doubling pause (10 ms up to 200 ms),
/// for at most [`PATIENCE`]; for state a test can only read (a store, an rpc), where nothing
/// notifies it.
pub async fn eventually<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = std::time::Instant::now() + PATIENCE;
    let mut wait = Duration::from_millis(10);
    loop {
        if let Some(found) = check().await {
            return found;
        }
        assert!(std::time::Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(Duration::from_millis(200));
    }
}
