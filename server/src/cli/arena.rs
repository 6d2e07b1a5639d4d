//! `cardroom arena run CONFIG.toml`, `cardroom arena leaderboard` and `cardroom demo`.
//!
//! # The ladder file
//!
//! `arena run` reads a TOML file. Relative paths (`db`, `log_dir`, commands) are taken from the
//! current directory. Every key but `game`, `db`, `format` and `bots` has a default:
//!
//! ```toml
//! game = "twenty_two"          # or "gin"
//! seats = 2                    # seats per table (Gin Rummy: 2)
//! options = { limit = 22 }     # the rules' options (any left out take their defaults)
//! seed = 1                     # seeds every deal
//! duplicate = true             # every seating of a set plays the same deal
//! # max_rotations = 2          # at most this many seatings per duplicate set
//! # rating = "weng_lin"        # or "glicko2" (two seats only); default: glicko2 at
//! #                            # tables of two, weng_lin at larger ones
//! db = "arena.sqlite"          # the ladder's SQLite file: running again resumes it
//! log_dir = "arena-logs"       # external bots' output, one file per bot
//! parallel = 2                 # matches played at once
//! transport = "auto"           # "auto": gRPC when an external bot plays, else in process;
//!                              # "grpc": always over a server; "in_process": never
//! standings_every = 10         # print the standings every N matches (0: never)
//! # move_ms = 2000             # the clock over gRPC (default: the server's, 2 s + 30 s bank)
//! # bank_ms = 30000
//! reconnect_grace_ms = 10000   # how long the server waits for a seat's bot to (re)connect
//! max_restarts = 2             # an external bot that dies mid-match is started again
//! # listen = "0.0.0.0:50051"   # where the in-process server listens (default 127.0.0.1:0);
//! #                            # remote bots connect there
//! # server = "http://host:port" # or play on this running server instead of one in process
//! # admin_token = "…"          # that server's admin token, if it has one
//! remote_wait_ms = 60000       # how long a match waits for its remote bots to be in the lobby
//!
//! [format]                     # the format and its budget, one of:
//! kind = "round_robin"         # rounds = 1
//! rounds = 5
//! # kind = "gauntlet"          # challenger = "name", rounds = 1
//! # kind = "swiss"             # rounds = N (two seats)
//! # kind = "continuous"        # sets = N (duplicate sets in all)
//! # kind = "sprt"              # a = "name", b = "name", max_sets = 10000,
//! #                            # [format.sprt] alpha, beta, elo0, elo1, min_samples
//!
//! [[bots]]
//! name = "random"
//! builtin = "random"           # random, tt-heuristic, gin-heuristic, search
//!
//! [[bots]]
//! name = "python-tt"
//! command = [".venv/bin/python", "example-bots/python/tt_bot.py"]
//! flags = true                 # append --server ADDR --token TOKEN (the CARDROOM_SERVER and
//!                              # CARDROOM_TOKEN environment variables are always set)
//! env = { PYTHONUNBUFFERED = "1" }
//!
//! [[bots]]
//! name = "alice"
//! lobby = "alice"              # a remote bot, already connected: it waits in the server's
//!                              # lobby under this name (`--lobby alice`) and is seated there
//! ```
//!
//! Over gRPC the arena starts a server in process (or uses `server`), creates every match with
//! `CreateMatch` and the planned seed, plays its built-in bots through the SDK's networked
//! runner, starts an external bot's command for every seat it plays, and has the server seat
//! remote bots from its lobby.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use cardroom_arena::{
    AnyBotMaker, BotMaker, ExternalBot, Format, Ladder, Leaderboard, NetBot, NetPlayer, Progress,
    Rating, RatingSystem, Settings, Store, Summary, run, run_with,
};
use cardroom_example_bots::gin_heuristic::GinHeuristic;
use cardroom_example_bots::random::RandomBot;
use cardroom_example_bots::search::{SearchBot, SearchConfig, Searchable};
use cardroom_example_bots::tt_heuristic::TtHeuristic;
use cardroom_games::{Game, GameKind, gin, twenty_two};
use cardroom_sdk::{AnyBot, Clock, MatchSpec};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Deserialize;

/// `cardroom arena …`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum ArenaCommand {
    /// Run (or resume) the ladder a TOML file describes, with a progress bar and live
    /// standings, then print its leaderboard.
    Run {
        /// The ladder file (TOML; see `arena/README.md`).
        config: PathBuf,
    },
    /// Print the leaderboard of a ladder's SQLite file.
    Leaderboard {
        /// The ladder's SQLite file.
        #[arg(long)]
        db: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value = "table")]
        format: OutputFormat,
    },
}

/// How the leaderboard is printed.
#[derive(Copy, Clone, Debug, clap::ValueEnum)]
pub(crate) enum OutputFormat {
    /// A text table.
    Table,
    /// JSON.
    Json,
    /// CSV with a header line.
    Csv,
}

/// `cardroom demo`'s flags.
#[derive(Debug, clap::Args)]
pub(crate) struct DemoArgs {
    /// Matches to play, about (whole rounds of the round robin are played).
    #[arg(long, default_value_t = 120)]
    matches: u64,
    /// Keep the ladder in this SQLite file (default: in memory).
    #[arg(long)]
    db: Option<PathBuf>,
    /// The Python interpreter for the Python example bot (default: $CARDROOM_PYTHON, then
    /// `.venv/bin/python`, then `python3`; it needs the `cardroom` package).
    #[arg(long)]
    python: Option<PathBuf>,
    /// Leave the Python example bot out.
    #[arg(long)]
    no_python: bool,
}

/// How matches are played.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Transport {
    /// Over gRPC if any bot is external, else in process.
    #[default]
    Auto,
    /// Always over gRPC, through a server started in process.
    Grpc,
    /// In process only (no external bots).
    InProcess,
}

/// A ladder file (see the module's documentation).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ArenaConfig {
    game: GameKind,
    #[serde(default = "two")]
    seats: u8,
    #[serde(default)]
    options: toml::Table,
    #[serde(default)]
    seed: u64,
    #[serde(default = "yes")]
    duplicate: bool,
    #[serde(default)]
    max_rotations: Option<usize>,
    #[serde(default)]
    rating: Option<RatingSystem>,
    db: PathBuf,
    #[serde(default = "log_dir")]
    log_dir: PathBuf,
    #[serde(default = "two_usize")]
    parallel: usize,
    #[serde(default)]
    transport: Transport,
    #[serde(default = "ten")]
    standings_every: u64,
    #[serde(default)]
    move_ms: Option<u32>,
    #[serde(default)]
    bank_ms: Option<u32>,
    #[serde(default = "ten_thousand")]
    reconnect_grace_ms: u64,
    #[serde(default = "two_u32")]
    max_restarts: u32,
    #[serde(default)]
    listen: Option<std::net::SocketAddr>,
    #[serde(default)]
    server: Option<String>,
    #[serde(default)]
    admin_token: Option<String>,
    #[serde(default = "sixty_thousand")]
    remote_wait_ms: u64,
    format: Format,
    bots: Vec<BotConfig>,
}

/// One bot of a ladder file: `builtin`, `command` or `lobby`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BotConfig {
    name: String,
    #[serde(default)]
    builtin: Option<String>,
    #[serde(default)]
    command: Option<Vec<String>>,
    #[serde(default)]
    lobby: Option<String>,
    #[serde(default = "yes")]
    flags: bool,
    #[serde(default)]
    env: BTreeMap<String, String>,
}

fn two() -> u8 {
    2
}
fn two_usize() -> usize {
    2
}
fn two_u32() -> u32 {
    2
}
fn ten() -> u64 {
    10
}
fn ten_thousand() -> u64 {
    10_000
}
fn sixty_thousand() -> u64 {
    60_000
}
fn yes() -> bool {
    true
}
fn log_dir() -> PathBuf {
    PathBuf::from("arena-logs")
}

/// Runs `cardroom arena …`.
pub(crate) fn run_command(command: ArenaCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        ArenaCommand::Run { config } => {
            init_tracing();
            let text = std::fs::read_to_string(&config)
                .with_context(|| format!("reading {}", config.display()))?;
            let config: ArenaConfig =
                toml::from_str(&text).with_context(|| format!("in {}", config.display()))?;
            let mut store = Store::open(&config.db)
                .with_context(|| format!("opening {}", config.db.display()))?;
            run_ladder(&config, &mut store, out)?;
            Ok(())
        }
        ArenaCommand::Leaderboard { db, format } => {
            if !db.exists() {
                bail!("{} does not exist", db.display());
            }
            let store = Store::open(&db).with_context(|| format!("opening {}", db.display()))?;
            let board = Leaderboard::from_store(&store)?;
            match format {
                OutputFormat::Table => write!(out, "{}", board.to_table())?,
                OutputFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&board)?)?,
                OutputFormat::Csv => write!(out, "{}", board.to_csv())?,
            }
            Ok(())
        }
    }
}

/// Runs `cardroom demo`: a short round robin of the example bots over real gRPC.
pub(crate) fn demo(args: DemoArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    init_tracing();
    let started = Instant::now();
    let logs = std::env::temp_dir().join(format!("cardroom-demo-{}", std::process::id()));
    let mut bots =
        vec![builtin_bot("random", "random"), builtin_bot("tt-heuristic", "tt-heuristic")];
    let python = if args.no_python {
        Err("--no-python".to_owned())
    } else {
        find_python_bot(args.python.as_deref())
    };
    match python {
        Ok((python, script)) => {
            writeln!(out, "Python example bot: {} {}", python.display(), script.display())?;
            bots.push(BotConfig {
                name: "python-tt".into(),
                builtin: None,
                command: Some(vec![
                    python.to_string_lossy().into_owned(),
                    script.to_string_lossy().into_owned(),
                ]),
                lobby: None,
                flags: true,
                env: BTreeMap::new(),
            });
        }
        Err(why) => writeln!(out, "Python example bot skipped: {why}")?,
    }
    // Round robin of two-seat tables: every pair, in both seatings.
    let per_round = (bots.len() * (bots.len() - 1)) as u64;
    let rounds = args.matches.div_ceil(per_round).max(1);
    let config = ArenaConfig {
        game: GameKind::TwentyTwo,
        seats: 2,
        options: toml::Table::new(),
        seed: 2024,
        duplicate: true,
        max_rotations: None,
        rating: None,
        db: args.db.clone().unwrap_or_default(),
        log_dir: logs.clone(),
        parallel: 4,
        transport: Transport::Grpc,
        standings_every: (rounds * per_round / 4).max(1),
        move_ms: None,
        bank_ms: None,
        reconnect_grace_ms: 10_000,
        max_restarts: 2,
        listen: None,
        server: None,
        admin_token: None,
        remote_wait_ms: 60_000,
        format: Format::RoundRobin { rounds: u32::try_from(rounds).unwrap_or(u32::MAX) },
        bots,
    };
    writeln!(
        out,
        "Twenty-Two, two seats, duplicate deals: {} matches over gRPC on a server in this process",
        rounds * per_round
    )?;
    out.flush()?;
    let mut store = match &args.db {
        Some(db) => Store::open(db).with_context(|| format!("opening {}", db.display()))?,
        None => Store::in_memory()?,
    };
    run_ladder(&config, &mut store, out)?;
    writeln!(
        out,
        "demo done in {:.1} s; external bots' logs in {}",
        started.elapsed().as_secs_f64(),
        logs.display()
    )?;
    Ok(())
}

fn builtin_bot(name: &str, builtin: &str) -> BotConfig {
    BotConfig {
        name: name.into(),
        builtin: Some(builtin.into()),
        command: None,
        lobby: None,
        flags: true,
        env: BTreeMap::new(),
    }
}

/// Logs to stderr, warnings only unless `RUST_LOG` says otherwise (the progress bar and the
/// standings are the output).
fn init_tracing() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .try_init();
}

/// The workspace this binary was built from, to find the example bots and `.venv` from a
/// checkout wherever the command runs.
const WORKSPACE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// A Python that can import `cardroom`, and the Python example bot; or why not.
fn find_python_bot(explicit: Option<&Path>) -> Result<(PathBuf, PathBuf), String> {
    let script =
        ["example-bots/python/tt_bot.py", &format!("{WORKSPACE}/example-bots/python/tt_bot.py")]
            .into_iter()
            .map(PathBuf::from)
            .find(|p| p.is_file())
            .ok_or("example-bots/python/tt_bot.py not found")?;
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(python) = explicit {
        candidates.push(python.to_owned());
    } else {
        if let Some(python) = std::env::var_os("CARDROOM_PYTHON") {
            candidates.push(python.into());
        }
        candidates.push(".venv/bin/python".into());
        candidates.push(format!("{WORKSPACE}/.venv/bin/python").into());
        candidates.push("python3".into());
    }
    for python in &candidates {
        let works = std::process::Command::new(python)
            .args(["-c", "import cardroom"])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if works {
            let script = std::fs::canonicalize(&script).unwrap_or(script);
            return Ok((python.clone(), script));
        }
    }
    Err("no python3 with the `cardroom` package (make .venv with `bash .ci/run`, or set CARDROOM_PYTHON)".into())
}

/// The search bot with its default budget (100 ms a decision).
fn search_bot<G: Searchable>(seed: u64) -> SearchBot<G> {
    SearchBot::new(SearchConfig { seed, ..SearchConfig::default() })
}

/// A built-in Twenty-Two bot.
fn tt_bot(name: &str) -> Option<BotMaker<twenty_two::State>> {
    match name {
        "random" => Some(Arc::new(|seed| Box::new(RandomBot::new(seed)))),
        "tt-heuristic" => Some(Arc::new(|_| Box::new(TtHeuristic::new()))),
        "search" => Some(Arc::new(|seed| Box::new(search_bot::<twenty_two::State>(seed)))),
        _ => None,
    }
}

/// A built-in Gin Rummy bot.
fn gin_bot(name: &str) -> Option<BotMaker<gin::State>> {
    match name {
        "random" => Some(Arc::new(|seed| Box::new(RandomBot::new(seed)))),
        "gin-heuristic" => Some(Arc::new(|_| Box::new(GinHeuristic::new()))),
        "search" => Some(Arc::new(|seed| Box::new(search_bot::<gin::State>(seed)))),
        _ => None,
    }
}

fn unknown_builtin(name: &str, game: GameKind) -> anyhow::Error {
    let known = match game {
        GameKind::TwentyTwo => "random, tt-heuristic, search",
        GameKind::Gin => "random, gin-heuristic, search",
    };
    anyhow::anyhow!("no built-in bot {name:?} for {game:?} (built in: {known})")
}

/// Checks the bots and runs the ladder, printing progress, standings and the leaderboard.
fn run_ladder(config: &ArenaConfig, store: &mut Store, out: &mut dyn Write) -> anyhow::Result<()> {
    for bot in &config.bots {
        let kinds = [bot.builtin.is_some(), bot.command.is_some(), bot.lobby.is_some()];
        if kinds.iter().filter(|&&k| k).count() != 1
            || bot.command.as_ref().is_some_and(Vec::is_empty)
            || bot.lobby.as_ref().is_some_and(String::is_empty)
        {
            bail!("bot {:?}: give one of `builtin`, a non-empty `command` or `lobby`", bot.name);
        }
    }
    let networked = config.bots.iter().any(|b| b.command.is_some() || b.lobby.is_some())
        || config.server.is_some();
    let grpc = match config.transport {
        Transport::Auto => networked,
        Transport::Grpc => true,
        Transport::InProcess if networked => {
            bail!(
                "transport = \"in_process\" cannot play external or remote bots, nor use `server`"
            )
        }
        Transport::InProcess => false,
    };
    let rating = config.rating.unwrap_or(match config.game {
        GameKind::Gin => RatingSystem::Glicko2,
        GameKind::TwentyTwo if config.seats == 2 => RatingSystem::Glicko2,
        GameKind::TwentyTwo => RatingSystem::WengLin,
    });
    let settings = Settings {
        table: config.seats,
        seed: config.seed,
        duplicate: config.duplicate,
        max_rotations: config.max_rotations,
        format: config.format.clone(),
        rating,
    };
    let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
    let options_json = serde_json::to_string(&config.options)?;
    let (done_before, _) = store.progress()?;
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template(
            "{bar:40.cyan/blue} {pos}/{len} matches  {elapsed_precise}  {msg}",
        )?
        .progress_chars("=> "),
    );
    let mut last_standings = done_before;
    let mut observe = |p: &Progress<'_>| {
        bar.set_length(p.planned);
        bar.set_position(p.done);
        if let Some((decision, llr)) = p.sprt {
            bar.set_message(format!("SPRT {decision:?}, LLR {llr:.2}"));
        }
        if config.standings_every > 0 && p.done >= last_standings + config.standings_every {
            last_standings = p.done;
            let text = standings(&names, p.ratings, p.done);
            if bar.is_hidden() {
                println!("{text}");
            } else {
                bar.println(text);
            }
        }
    };
    let summary = if grpc {
        run_networked(config, &settings, &names, &options_json, store, &mut observe)?
    } else {
        run_in_process(config, &settings, &options_json, store, &mut observe)?
    };
    bar.finish_and_clear();
    if done_before > 0 {
        writeln!(out, "resumed after {done_before} finished matches")?;
    }
    writeln!(out, "played {} matches", summary.played)?;
    if let Some(decision) = summary.sprt {
        writeln!(out, "SPRT: {decision:?}")?;
    }
    write!(out, "{}", Leaderboard::from_store(store)?.to_table())?;
    Ok(())
}

/// The live standings: names by conservative rating.
fn standings(names: &[String], ratings: &[Rating], done: u64) -> String {
    let mut order: Vec<usize> = (0..names.len().min(ratings.len())).collect();
    let score = |r: &Rating| r.mean - 3.0 * r.sigma;
    order.sort_by(|&a, &b| score(&ratings[b]).total_cmp(&score(&ratings[a])));
    let mut text = format!("standings after {done} matches:");
    for (rank, &i) in order.iter().enumerate() {
        let r = &ratings[i];
        text.push_str(&format!(
            "\n  {:>2}. {:<16} {:>8.1} ±{:.1}",
            rank + 1,
            names[i],
            r.mean,
            r.sigma
        ));
    }
    text
}

fn run_in_process(
    config: &ArenaConfig,
    settings: &Settings,
    options_json: &str,
    store: &mut Store,
    observe: &mut dyn FnMut(&Progress<'_>),
) -> anyhow::Result<Summary> {
    let seats = config.seats;
    let builtin = |b: &BotConfig| b.builtin.clone().unwrap_or_default();
    Ok(match config.game {
        GameKind::TwentyTwo => {
            let options: twenty_two::Options =
                serde_json::from_str(options_json).context("the Twenty-Two options")?;
            let mut bots = Vec::new();
            for b in &config.bots {
                let make =
                    tt_bot(&builtin(b)).ok_or_else(|| unknown_builtin(&builtin(b), config.game))?;
                bots.push((b.name.clone(), make));
            }
            let ladder = Ladder {
                settings: settings.clone(),
                bots,
                new_match: Arc::new(move |seed| {
                    Game::new(options, seats, seed)
                        .map_err(|e: twenty_two::SetupError| e.to_string())
                }),
                parallel: config.parallel,
            };
            run(&ladder, store, observe)?
        }
        GameKind::Gin => {
            let options: gin::Options =
                serde_json::from_str(options_json).context("the Gin Rummy options")?;
            let mut bots = Vec::new();
            for b in &config.bots {
                let make = gin_bot(&builtin(b))
                    .ok_or_else(|| unknown_builtin(&builtin(b), config.game))?;
                bots.push((b.name.clone(), make));
            }
            let ladder = Ladder {
                settings: settings.clone(),
                bots,
                new_match: Arc::new(move |seed| {
                    Game::new(options, seats, seed).map_err(|e: gin::SetupError| e.to_string())
                }),
                parallel: config.parallel,
            };
            run(&ladder, store, observe)?
        }
    })
}

fn run_networked(
    config: &ArenaConfig,
    settings: &Settings,
    names: &[String],
    options_json: &str,
    store: &mut Store,
    observe: &mut dyn FnMut(&Progress<'_>),
) -> anyhow::Result<Summary> {
    let mut bots = Vec::new();
    for b in &config.bots {
        let bot = match (&b.builtin, &b.command, &b.lobby) {
            (Some(name), _, _) => NetBot::InProcess(any_bot(name, config.game)?),
            (None, Some(command), _) => {
                let (program, args) = command.split_first().context("empty command")?;
                NetBot::External(ExternalBot {
                    program: program.into(),
                    args: args.to_vec(),
                    env: b.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
                    flags: b.flags,
                    log: config.log_dir.join(format!("{}.log", file_name(&b.name))),
                })
            }
            (None, None, Some(lobby)) => NetBot::Remote(lobby.clone()),
            (None, None, None) => bail!("bot {:?} has no `builtin`, `command` or `lobby`", b.name),
        };
        bots.push((b.name.clone(), bot));
    }
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    // A running server, or one in process until the ladder ends.
    let (address, server) = match &config.server {
        Some(server) => (server.clone(), None),
        None => {
            let listen = config.listen.unwrap_or_else(|| ([127, 0, 0, 1], 0).into());
            let listener = runtime
                .block_on(tokio::net::TcpListener::bind(listen))
                .with_context(|| format!("listening on {listen}"))?;
            let address = listener.local_addr()?;
            if config.listen.is_some() {
                eprintln!("the arena's server listens on {address}");
            }
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            let server_config = cardroom_server::Config {
                record_dir: None,
                shutdown_grace: Duration::from_millis(500),
                reconnect_grace: Duration::from_millis(config.reconnect_grace_ms),
                admin_token: config.admin_token.clone(),
                ..cardroom_server::Config::default()
            };
            let server = runtime.spawn(cardroom_server::run(listener, server_config, async {
                let _ = stopped.await;
            }));
            (address.to_string(), Some((stop, server)))
        }
    };
    let clock = match (config.move_ms, config.bank_ms) {
        (None, None) => None,
        (move_ms, bank_ms) => {
            Some(Clock { move_ms: move_ms.unwrap_or(2_000), bank_ms: bank_ms.unwrap_or(30_000) })
        }
    };
    let player = NetPlayer {
        runtime: runtime.handle().clone(),
        server: address,
        spec: MatchSpec {
            game: config.game,
            options_json: options_json.to_owned(),
            seats: u32::from(config.seats),
            seed: None,
            clock,
            lobby_bots: Vec::new(),
        },
        bots,
        max_restarts: config.max_restarts,
        exit_grace: Duration::from_secs(5),
        admin_token: config.admin_token.clone(),
        remote_wait: Duration::from_millis(config.remote_wait_ms),
    };
    let summary = run_with(settings, names, config.parallel, &player, store, observe);
    if let Some((stop, server)) = server {
        let _ = stop.send(());
        match runtime.block_on(server) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!(cause = %e, "the in-process server failed"),
            Err(e) => tracing::warn!(cause = %e, "the in-process server panicked"),
        }
    }
    Ok(summary?)
}

/// A built-in bot for the networked runner.
fn any_bot(name: &str, game: GameKind) -> anyhow::Result<AnyBotMaker> {
    Ok(match game {
        GameKind::TwentyTwo => {
            let make = tt_bot(name).ok_or_else(|| unknown_builtin(name, game))?;
            Arc::new(move |seed| AnyBot::TwentyTwo(make(seed)))
        }
        GameKind::Gin => {
            let make = gin_bot(name).ok_or_else(|| unknown_builtin(name, game))?;
            Arc::new(move |seed| AnyBot::Gin(make(seed)))
        }
    })
}

/// A bot's name made safe as a file name.
fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_and_example_ladder_files_parse() {
        let readme = include_str!("../../../arena/README.md");
        let start = readme.find("```toml\n").map(|i| i + 8).unwrap_or(0);
        let end = readme[start..].find("```").map_or(readme.len(), |i| start + i);
        let examples = [
            &readme[start..end],
            include_str!("../../../examples/arena/twenty-two.toml"),
            include_str!("../../../examples/arena/gin-sprt.toml"),
        ];
        for text in examples {
            let config: ArenaConfig =
                toml::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert!(config.bots.len() >= 2);
        }
    }
}
