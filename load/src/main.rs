//! `cardroom-load`: cardroom under load, over real gRPC, against a bare tonic baseline.
//!
//! `run` starts a cardroom server in a child process (or targets `--server`), keeps
//! `--matches` matches of SDK bots that answer at once running (with `--think-ms`, bots that
//! wait that long before each answer: an open load), and reads the server's own
//! figures (`GetStats`: decisions, the decision round trip from `Turn` sent to `Act` received,
//! CPU, peak RSS) over a measured window. In the same run it starts a bare tonic ping-pong
//! server (also a child process), drives as many streams with cardroom's mean message sizes,
//! times its round trips the same way, and prints the ratios, so that the comparison holds on
//! a noisy machine; it does so for `--rounds` rounds (default 3, which goes first alternating)
//! and judges the goals on the median of each round's ratio. `soak` runs the load for
//! minutes, samples memory and task counts, drains and checks that nothing leaked. `run
//! --hosted-bots N` compares, round after round, a server with no ladder and one whose hosted
//! ladder keeps its registered bots busy, under the same load (`hosted`). `idle` connects
//! thousands of bots that never play and reports the server's memory. `pages` measures what
//! clients fetching a bot's page cost a hosted ladder's play (`pages`).
//!
//! To pin both processes to one core, run it under `taskset -c 0`: the children inherit it.

mod child;
mod gin_load;
mod holdem_load;
mod hosted;
mod idle;
mod load;
mod pages;
mod pingpong;
mod report;
mod tt_load;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use cardroom_arena::hosted::{HostedLadderFile, HostedLadders};
use cardroom_sdk::GameKind;
use clap::{Parser, Subcommand};

use crate::child::ServerChild;
use crate::load::{CardroomRun, Load, Measured, RunRound, Shape, Sizes, Window};

/// `cardroom serve`'s allocator (jemalloc, its background thread on): the servers this program
/// runs stand for it, cardroom's and the bare peer alike.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

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
        /// Also run bare tonic in a match's shape: two streams a match, one server task taking
        /// turns between them (two messages each, as a Gin Rummy turn), to tell what the shape
        /// of a match costs the transport from what cardroom's own work costs.
        #[arg(long, conflicts_with = "no_baseline")]
        match_shape: bool,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Rounds of every server (cardroom, bare tonic, the match shape; which goes first
        /// alternates, each round a fresh child process of each): the report takes each
        /// figure's median, and each ratio's median over the rounds, so that one window's luck
        /// on a noisy machine does not decide a verdict.
        #[arg(long, default_value_t = 3)]
        rounds: usize,
        #[command(flatten)]
        hosted: HostedArgs,
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
    /// The bare tonic peer alone (`run`'s baseline, or with --match-shape its match-shaped
    /// peer) for one window: against a child process, or a running `serve-pingpong` (how
    /// `scripts/bench-decision profile` counts the peer's instructions, as it counts
    /// cardroom's).
    Peer {
        /// Matches (streams of the bare ping-pong, pairs of streams in a match's shape).
        #[arg(long, default_value_t = 64)]
        matches: usize,
        /// Two streams a match, one server task taking turns between them.
        #[arg(long)]
        match_shape: bool,
        /// The server's message, in bytes (cardroom's mean `Turn`; `run` prints it).
        #[arg(long, default_value_t = 137)]
        turn_bytes: u64,
        /// The client's answer, in bytes (cardroom's mean `Act`).
        #[arg(long, default_value_t = 4)]
        act_bytes: u64,
        /// Each client waits this long before it answers.
        #[arg(long, default_value_t = 0)]
        think_ms: u64,
        /// A running `cardroom-load serve-pingpong` to target instead of a child process (its
        /// CPU and memory are then not read).
        #[arg(long)]
        server: Option<String>,
        /// Seconds of load before the window opens.
        #[arg(long, default_value_t = 2.0)]
        warmup_s: f64,
        /// Seconds in the window.
        #[arg(long, default_value_t = 10.0)]
        duration_s: f64,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Do the pages starve play? The stock `cardroom serve` with its pages and a hosted ladder
    /// of stock bots: a quiet window, one with clients fetching a bot's page, another quiet.
    Pages {
        /// Registered bots in the ladder (stock bot processes, two streams each).
        #[arg(long, default_value_t = 8)]
        bots: usize,
        /// Clients fetching the bot's page in the page window.
        #[arg(long, default_value_t = 16)]
        clients: usize,
        /// The ladder's game.
        #[arg(long, default_value_t = tt_load::PAGES_GAME)]
        game: GameKind,
        /// Seats per table.
        #[arg(long, default_value_t = 2)]
        seats: u32,
        /// Seconds before the first window.
        #[arg(long, default_value_t = 5.0)]
        warmup_s: f64,
        /// Seconds in each window.
        #[arg(long, default_value_t = 10.0)]
        duration_s: f64,
        /// Page windows, each between two quiet ones.
        #[arg(long, default_value_t = 3)]
        rounds: usize,
        /// The `cardroom` binary (default: beside this program).
        #[arg(long)]
        cardroom: Option<PathBuf>,
        /// The stock bot binary (default: `random` beside this program).
        #[arg(long)]
        bot: Option<PathBuf>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// (Internal) a cardroom server for the parent process.
    #[command(hide = true)]
    ServeCardroom {
        #[arg(long)]
        limit: usize,
        /// The store of bot accounts and hosted ladders (`sqlite:FILE`).
        #[arg(long)]
        store: Option<String>,
        /// A hosted ladder file to run (needs --store).
        #[arg(long, requires = "store")]
        ladder: Option<PathBuf>,
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

/// `run`'s hosted ladder in the background (issue 13's load check).
#[derive(clap::Args, Debug)]
struct HostedArgs {
    /// Compare, in the same run, a server with no ladder and one with this many registered
    /// bots waiting in its lobby and a hosted ladder keeping them busy, under the same load
    /// (no bare tonic baseline then). Zero: the usual run.
    #[arg(long, default_value_t = 0)]
    hosted_bots: usize,
    /// The hosted ladder's cap on its matches running at once.
    #[arg(long, default_value_t = 100)]
    hosted_matches: u32,
    /// How long a hosted bot thinks before each answer.
    #[arg(long, default_value_t = 50)]
    hosted_think_ms: u64,
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
        return Ok((child::http_url(url), None));
    }
    let limit = (connections + 64).max(10_000).to_string();
    let child =
        ServerChild::start(&["serve-cardroom".to_owned(), "--limit".to_owned(), limit]).await?;
    Ok((child.url.clone(), Some(child)))
}

/// `serve-cardroom`: cardroom's own server with clocks too long to run out under load (a
/// timeout would change what is measured), its records in a temporary directory; with
/// `store`, its bot accounts and hosted ladders there, and `ladder` run.
async fn serve_cardroom(
    limit: usize,
    store: Option<String>,
    ladder: Option<PathBuf>,
) -> anyhow::Result<()> {
    let records = tempfile::tempdir()?;
    let mut config = cardroom_server::Config {
        max_connections: limit,
        max_matches: limit,
        move_time: Duration::from_secs(60),
        bank_time: Duration::from_secs(600),
        reconnect_grace: Duration::from_secs(3600),
        record_dir: Some(records.path().to_owned()),
        ..cardroom_server::Config::default()
    };
    let Some(store) = store else {
        let listener = child::listen().await?;
        return cardroom_server::run(listener, config, child::parent_gone()).await;
    };
    let store = cardroom_store::open(&store).await.with_context(|| format!("opening {store}"))?;
    config.accounts = Some(cardroom_store::Accounts::new(Arc::clone(&store)));
    let server = cardroom_server::Server::new(config);
    let hosted = HostedLadders::start(store, server.host()).await?;
    if let Some(path) = ladder {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let file = HostedLadderFile::parse(&text)?;
        hosted.open(&file, &text).await?;
    }
    let server = server.ladders(Arc::new(hosted));
    let listener = child::listen().await?;
    server.serve(listener, child::parent_gone()).await
}

/// Which peers a `run` measures beside cardroom.
#[derive(Clone, Copy, Debug)]
struct Peers {
    bare: bool,
    match_shape: bool,
}

/// One round of `run`: cardroom's window (a fresh child server unless `--server`) and each
/// peer's, the peers first if `peers_first` (they then send `sizes`, an earlier round's), every
/// round trip less the bots' think time.
async fn run_round(
    load: &LoadArgs,
    window: Window,
    peers: Peers,
    sizes: Option<Sizes>,
    peers_first: bool,
) -> anyhow::Result<RunRound> {
    let think = load.load().think;
    let less_think = |mut measured: Measured| {
        measured.round_trip = measured.round_trip.less(think);
        measured
    };
    let measure_peers =
        async |sizes: Sizes| -> anyhow::Result<(Option<Measured>, Option<Measured>)> {
            let peer = |shape| load::pingpong(load.matches, shape, sizes, think, window, None);
            let bare =
                if peers.bare { Some(less_think(peer(Shape::Streams).await?)) } else { None };
            let shaped = if peers.match_shape {
                Some(less_think(peer(Shape::Matches).await?))
            } else {
                None
            };
            Ok((bare, shaped))
        };
    let measure_cardroom = async || -> anyhow::Result<CardroomRun> {
        let (url, _child) = cardroom_server(&load.server, load.matches * 2).await?;
        let mut run = load::cardroom(&url, &load.load(), window, false).await?;
        run.measured = less_think(run.measured);
        Ok(run)
    };
    let (cardroom, (bare, match_shape)) = match sizes.filter(|_| peers_first) {
        Some(sizes) => {
            let peers = measure_peers(sizes).await?;
            (measure_cardroom().await?, peers)
        }
        None => {
            let cardroom = measure_cardroom().await?;
            let peers = measure_peers(sizes.unwrap_or(cardroom.sizes)).await?;
            (cardroom, peers)
        }
    };
    Ok(RunRound { peers_first: sizes.is_some() && peers_first, cardroom, bare, match_shape })
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _ = tikv_jemalloc_ctl::background_thread::write(true);
    match Cli::parse().command {
        Command::Run { load, warmup_s, duration_s, json, rounds, hosted, .. }
            if hosted.hosted_bots > 0 =>
        {
            anyhow::ensure!(
                load.server.is_none(),
                "--hosted-bots starts its own servers: it cannot target --server"
            );
            let window = Window {
                warmup: Duration::from_secs_f64(warmup_s),
                duration: Duration::from_secs_f64(duration_s),
                sample_every: None,
            };
            let hosted = hosted::Hosted {
                bots: hosted.hosted_bots,
                matches: hosted.hosted_matches,
                think: Duration::from_millis(hosted.hosted_think_ms),
                rounds,
            };
            let comparison = hosted::compare(&load.load(), window, hosted).await?;
            report::hosted(&load.load(), window, &comparison, json)
        }
        Command::Run {
            load, warmup_s, duration_s, no_baseline, match_shape, json, rounds, ..
        } => {
            anyhow::ensure!(rounds > 0, "--rounds must be at least 1");
            let window = Window {
                warmup: Duration::from_secs_f64(warmup_s),
                duration: Duration::from_secs_f64(duration_s),
                sample_every: None,
            };
            let peers = Peers { bare: !no_baseline, match_shape };
            let mut done: Vec<RunRound> = Vec::with_capacity(rounds);
            for round in 0..rounds {
                // The first round measures cardroom first: the peers send its message sizes.
                let sizes = done.first().map(|first| first.cardroom.sizes);
                done.push(run_round(&load, window, peers, sizes, round % 2 == 1).await?);
            }
            report::run(&load.load(), window, &done, json)
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
        Command::Peer {
            matches,
            match_shape,
            turn_bytes,
            act_bytes,
            think_ms,
            server,
            warmup_s,
            duration_s,
            json,
        } => {
            let window = Window {
                warmup: Duration::from_secs_f64(warmup_s),
                duration: Duration::from_secs_f64(duration_s),
                sample_every: None,
            };
            let shape = if match_shape { Shape::Matches } else { Shape::Streams };
            let think = Duration::from_millis(think_ms);
            let sizes = Sizes { turn_bytes, act_bytes };
            let mut measured =
                load::pingpong(matches, shape, sizes, think, window, server.as_deref()).await?;
            measured.round_trip = measured.round_trip.less(think);
            report::peer(shape, matches, sizes, &measured, server.is_none(), json)
        }
        Command::Pages {
            bots,
            clients,
            game,
            seats,
            warmup_s,
            duration_s,
            rounds,
            cardroom,
            bot,
            json,
        } => {
            let run = pages::PagesRun {
                bots,
                clients,
                game,
                seats,
                warmup: Duration::from_secs_f64(warmup_s),
                window: Duration::from_secs_f64(duration_s),
                rounds,
                cardroom: cardroom.map_or_else(|| pages::sibling("cardroom"), Ok)?,
                bot: bot.map_or_else(|| pages::sibling("random"), Ok)?,
            };
            let report = pages::run(&run).await?;
            report::pages(&report, json)
        }
        Command::ServeCardroom { limit, store, ladder } => {
            serve_cardroom(limit, store, ladder).await
        }
        Command::ServePingpong => pingpong::serve().await,
    }
}
