//! `cardroom serve`: the game server.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use cardroom_server::Config;

/// The server's flags; each has an environment variable too.
#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "CARDROOM_ADDR", default_value = "127.0.0.1:50051")]
    addr: SocketAddr,
    /// When set, CreateMatch needs `authorization: Bearer <token>`.
    #[arg(long, env = "CARDROOM_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// Where finished matches' records are written, one JSON file each.
    #[arg(long, env = "CARDROOM_RECORD_DIR", default_value = "records")]
    record_dir: PathBuf,
    /// The most bot connections at once.
    #[arg(long, env = "CARDROOM_MAX_CONNECTIONS", default_value_t = 10_000)]
    max_connections: usize,
    /// The most matches running at once.
    #[arg(long, env = "CARDROOM_MAX_MATCHES", default_value_t = 10_000)]
    max_matches: usize,
    /// The largest message a client may send, in bytes.
    #[arg(long, env = "CARDROOM_MAX_MESSAGE_BYTES", default_value_t = 64 * 1024)]
    max_message_bytes: usize,
    /// Default time per decision, in milliseconds.
    #[arg(long, env = "CARDROOM_MOVE_MS", default_value_t = 2_000)]
    move_ms: u64,
    /// Default time bank per seat and match, in milliseconds.
    #[arg(long, env = "CARDROOM_BANK_MS", default_value_t = 30_000)]
    bank_ms: u64,
    /// Strikes (timeouts) before a seat forfeits.
    #[arg(long, env = "CARDROOM_MAX_STRIKES", default_value_t = 3)]
    max_strikes: u32,
    /// How long a disconnected bot's turn waits for it to come back, in milliseconds.
    #[arg(long, env = "CARDROOM_RECONNECT_GRACE_MS", default_value_t = 10_000)]
    reconnect_grace_ms: u64,
    /// On shutdown, once every match has ended, how long clients get to close their
    /// connections, in milliseconds.
    #[arg(long, env = "CARDROOM_SHUTDOWN_GRACE_MS", default_value_t = 5_000)]
    shutdown_grace_ms: u64,
    /// Finished matches whose status and seat tokens stay in memory; older ones are forgotten
    /// (records are always read back from the record directory).
    #[arg(long, env = "CARDROOM_KEEP_FINISHED", default_value_t = 1_000)]
    keep_finished: usize,
}

impl ServeArgs {
    fn config(self) -> Config {
        Config {
            admin_token: self.admin_token,
            max_connections: self.max_connections,
            max_matches: self.max_matches,
            max_message_bytes: self.max_message_bytes,
            record_dir: Some(self.record_dir),
            move_time: Duration::from_millis(self.move_ms),
            bank_time: Duration::from_millis(self.bank_ms),
            max_strikes: self.max_strikes,
            reconnect_grace: Duration::from_millis(self.reconnect_grace_ms),
            shutdown_grace: Duration::from_millis(self.shutdown_grace_ms),
            keep_finished: self.keep_finished,
            ..Config::default()
        }
    }
}

/// Runs the server until SIGINT or SIGTERM.
pub(crate) fn serve(args: ServeArgs) -> anyhow::Result<()> {
    crate::init_tracing("info");
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async move {
        let shutdown = shutdown_signal().context("installing the signal handlers")?;
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("listening on {}", args.addr))?;
        // One line on stdout, so that a script or a test that asked for port 0 learns the port.
        println!("cardroom listening on {}", listener.local_addr()?);
        cardroom_server::run(listener, args.config(), shutdown).await
    })
}

/// SIGINT (ctrl-c) or SIGTERM. The handlers are installed when this is called (before the
/// server says it listens), so a signal sent as soon as the port is known stops the server
/// gracefully instead of killing it.
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}
