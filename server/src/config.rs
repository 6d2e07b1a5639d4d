//! The server's settings: addresses aside, everything an operator may want to change.

use std::path::PathBuf;
use std::time::Duration;

use crate::tls::TlsIdentity;

/// How the server runs. `Config::default()` suits tests and a local server.
#[derive(Clone, Debug)]
pub struct Config {
    /// When set, `CreateMatch` needs `authorization: Bearer <admin_token>`.
    pub admin_token: Option<String>,
    /// The most `Play` streams open at once; more are refused with RESOURCE_EXHAUSTED.
    pub max_connections: usize,
    /// The most matches running at once; more are refused with RESOURCE_EXHAUSTED.
    pub max_matches: usize,
    /// The largest message a client may send, in bytes; larger ones end the stream with
    /// RESOURCE_EXHAUSTED.
    pub max_message_bytes: usize,
    /// Where finished matches' records are written (`<match id>.json`); none keeps them in
    /// memory only.
    pub record_dir: Option<PathBuf>,
    /// Time for one decision when a match does not set its own.
    pub move_time: Duration,
    /// A seat's time bank for a whole match when a match does not set its own.
    pub bank_time: Duration,
    /// Strikes (timeouts, disconnections at one's turn) before a seat forfeits.
    pub max_strikes: u32,
    /// How long a disconnected seat's turn waits for it to reconnect before the default
    /// action is played (never longer than its clock).
    pub reconnect_grace: Duration,
    /// After a shutdown has ended every match, how long clients get to close their
    /// connections before the server stops anyway.
    pub shutdown_grace: Duration,
    /// The certificate and key to serve TLS with; none serves plaintext HTTP/2, fit only for
    /// loopback or a network where seat and admin tokens may travel in clear.
    pub tls: Option<TlsIdentity>,
    /// How long a client gets to finish its TLS handshake before its connection is dropped.
    pub tls_handshake_timeout: Duration,
    /// Finished matches whose status and seat tokens stay in memory (and their records, when
    /// there is no `record_dir`: with one, records are read back from disk); older ones are
    /// forgotten, so a long-running server's memory stays flat.
    pub keep_finished: usize,
    /// Messages buffered towards one bot or spectator; one that falls further behind is
    /// disconnected rather than slowing its match.
    pub outbound_buffer: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            admin_token: None,
            max_connections: 10_000,
            max_matches: 10_000,
            max_message_bytes: 64 * 1024,
            record_dir: None,
            move_time: Duration::from_secs(2),
            bank_time: Duration::from_secs(30),
            max_strikes: 3,
            reconnect_grace: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(5),
            tls: None,
            tls_handshake_timeout: Duration::from_secs(10),
            keep_finished: 1_000,
            outbound_buffer: 256,
        }
    }
}
