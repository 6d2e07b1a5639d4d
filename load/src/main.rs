//! `cardroom-load`: cardroom under load, over real gRPC, against a bare tonic baseline.
//!
//! `run` starts a cardroom server in a child process (or targets `--server`), keeps
//! `--matches` matches of SDK bots that answer at once running (with `--think-ms`, bots that
//! wait that long before each answer: an open load), and reads the server's own
//! figures (`GetStats`: decisions, the decision round trip from `Turn` sent to `Act` received,
//! CPU, peak RSS) over a measured window. In the same run it starts a bare tonic ping-pong
//! server (also a child process), drives as many streams with cardroom's mean message sizes,
//! times its round trips the same way, and prints the ratios, so that the comparison holds on
//! a noisy machine. `soak` runs the load for minutes, samples memory and task counts, drains
//! and checks that nothing leaked. `idle` connects thousands of bots that never play and
//! reports the server's memory.
//!
//! To pin both processes to one core, run it under `taskset -c 0`: the children inherit it.

mod child;
mod gin_load;
mod idle;
mod load;
mod pingpong;
mod report;
mod tt_load;

use std::time::Duration;

use cardroom_sdk::GameKind;
use clap::{Parser, Subcommand};

use crate::child::ServerChild;
use crate::load::{Load, Window};

/// The baseline's generated code (`proto/pingpong.proto`).
#[allow(missing_docs, unreachable_pub, clippy::all, clippy::pedantic)]
mod pb {
    tonic::include_proto!("cardroom.bench.v1");
}

#[derive(Parser, Debug)]
#[command(
    version,
    about = "cardroom's load tool: matches of SDK bots over real gRPC, against bare tonic"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Concurrent matches for a measured window, then the bare tonic baseline.
    Run {
        #[command(flatten)]
        load: LoadArgs,
        /// Seconds of load before the window opens.
        #[arg(long, default_value_t = 2.0)]
        warmup_s: f64,
        /// Seconds in the window.
        #[arg(long, default_value_t = 10.0)]
        duration_s: f64,
        /// Skip the bare tonic baseline.
        #[arg(long)]
        no_baseline: bool,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// The load for minutes, sampling the server's memory and tasks; then it drains and checks
    /// that every match, stream and task is gone.
    Soak {
        #[command(flatten)]
        load: LoadArgs,
        /// Minutes of load.
        #[arg(long, default_value_t = 10.0)]
        minutes: f64,
        /// Seconds between samples.
        #[arg(long, default_value_t = 30.0)]
        sample_s: f64,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Bots that connect and never play (each waits for an opponent that never comes): the
    /// server's memory with that many streams open.
    Idle {
        /// Bots to connect.
        #[arg(long, default_value_t = 10_000)]
        bots: usize,
        /// A running server to target instead of a child process (it must have no admin
        /// token, and enough `--max-connections`/`--max-matches`).
        #[arg(long)]
        server: Option<String>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// (Internal) a cardroom server for the parent process.
    #[command(hide = true)]
    ServeCardroom {
        #[arg(long)]
        limit: usize,
    },
    /// (Internal) the bare tonic baseline server for the parent process.
    #[command(hide = true)]
    ServePingpong,
}

/// What the load plays, and where.
#[derive(clap::Args, Debug)]
struct LoadArgs {
    /// The game.
    #[arg(long, default_value_t = gin_load::DEFAULT_GAME)]
    game: GameKind,
    /// Seats per match.
    #[arg(long, default_value_t = 2)]
    seats: u32,
    /// Rule options as JSON (empty: the defaults).
    #[arg(long, default_value = "")]
    options: String,
    /// Matches running at once.
    #[arg(long, default_value_t = 64)]
    matches: usize,
    /// Each bot waits this long before it answers, as bots that think do (an open load rather
    /// than a closed loop of instant answers); `run` reports round trips less this wait. Zero:
    /// SDK bots that answer at once.
    #[arg(long, default_value_t = 0)]
    think_ms: u64,
    /// A running server to target instead of a child process (it must have no admin token).
    /// Its CPU and memory are still read from `GetStats`.
    #[arg(long)]
    server: Option<String>,
}

impl LoadArgs {
    fn load(&self) -> Load {
        Load {
            game: self.game,
            seats: self.seats,
            options_json: self.options.clone(),
            matches: self.matches,
            think: Duration::from_millis(self.think_ms),
        }
    }
}

/// The cardroom server to load: `--server`, or a child process sized for `connections`.
async fn cardroom_server(
    server: &Option<String>,
    connections: usize,
) -> anyhow::Result<(String, Option<ServerChild>)> {
    if let Some(url) = server {
        let url = if url.contains("://") { url.clone() } else { format!("http://{url}") };
        return Ok((url, None));
    }
    let limit = (connections + 64).max(10_000).to_string();
    let child =
        ServerChild::start(&["serve-cardroom".to_owned(), "--limit".to_owned(), limit]).await?;
    Ok((child.url.clone(), Some(child)))
}

/// `serve-cardroom`: cardroom's own server with clocks too long to run out under load (a
/// timeout would change what is measured), its records in a temporary directory.
async fn serve_cardroom(limit: usize) -> anyhow::Result<()> {
    let records = tempfile::tempdir()?;
    let config = cardroom_server::Config {
        max_connections: limit,
        max_matches: limit,
        move_time: Duration::from_secs(60),
        bank_time: Duration::from_secs(600),
        reconnect_grace: Duration::from_secs(3600),
        record_dir: Some(records.path().to_owned()),
        ..cardroom_server::Config::default()
    };
    let listener = child::listen().await?;
    cardroom_server::run(listener, config, child::parent_gone()).await
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Run { load, warmup_s, duration_s, no_baseline, json } => {
            let (url, _child) = cardroom_server(&load.server, load.matches * 2).await?;
            let window = Window {
                warmup: Duration::from_secs_f64(warmup_s),
                duration: Duration::from_secs_f64(duration_s),
                sample_every: None,
            };
            let think = load.load().think;
            let mut cardroom = load::cardroom(&url, &load.load(), window, false).await?;
            drop(_child);
            let mut baseline = if no_baseline {
                None
            } else {
                Some(load::pingpong(load.matches, cardroom.sizes, think, window).await?)
            };
            // What the server and the transport add: the bots' own wait taken out.
            cardroom.measured.round_trip = cardroom.measured.round_trip.less(think);
            if let Some(baseline) = &mut baseline {
                baseline.round_trip = baseline.round_trip.less(think);
            }
            report::run(&load.load(), window, &cardroom, baseline.as_ref(), json)
        }
        Command::Soak { load, minutes, sample_s, json } => {
            let (url, _child) = cardroom_server(&load.server, load.matches * 2).await?;
            let window = Window {
                warmup: Duration::ZERO,
                duration: Duration::from_secs_f64(minutes * 60.0),
                sample_every: Some(Duration::from_secs_f64(sample_s)),
            };
            let run = load::cardroom(&url, &load.load(), window, true).await?;
            report::soak(&load.load(), &run, json)
        }
        Command::Idle { bots, server, json } => {
            let (url, _child) = cardroom_server(&server, bots).await?;
            let run = idle::idle(&url, bots).await?;
            report::idle(&run, json)
        }
        Command::ServeCardroom { limit } => serve_cardroom(limit).await,
        Command::ServePingpong => pingpong::serve().await,
    }
}
