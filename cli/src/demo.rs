//! `cardroom demo`: the service in one command. It starts a server in this process with its web
//! pages, on free ports; registers the example bots in a SQLite store (the Python example bot
//! too, when a Python with the SDK is found: submitted, and hosted in a sandbox as `serve
//! --host-bots` does where bubblewrap and cgroups v1 are there, else run as a plain process);
//! opens a hosted ladder of each game (Twenty-Two and Hold'em at four-seat tables); lets the bots wait in the lobby with their keys while the server
//! schedules, plays and rates duplicate sets by itself; prints the pages' address; and stops
//! after `--matches N` or Ctrl-C, leaving the store where it says, so that `cardroom serve
//! --store` on that file shows the ladders again.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use cardroom_arena::hosted::{HostedLadderFile, HostedLadders};
use cardroom_arena::runner::{HostedBots, Limits, RunnerConfig};
use cardroom_example_bots::catalogue::{self, ExampleGame, ExampleVisitor};
use cardroom_example_bots::diluted::Diluted;
use cardroom_example_bots::search::{Budget, SearchBot, SearchConfig};
use cardroom_sdk::GameKind;
use cardroom_server::{Config, Server};
use cardroom_store::{AccountError, Accounts, LadderId, Store, StoreError, SubmittedBy};

/// `cardroom demo`'s flags.
#[derive(Debug, clap::Args)]
pub(crate) struct DemoArgs {
    /// Stop once this many matches are played and rated, each ladder its share (half each),
    /// and every bot has played a rated set (0: until Ctrl-C); the matches running then are
    /// played out first.
    #[arg(long, default_value_t = 200)]
    matches: u64,
    /// The SQLite store the demo keeps its bots, ladders, matches and ratings in (created if
    /// need be; a second demo on the same file carries on its ladders).
    #[arg(long, default_value = "cardroom-demo.sqlite")]
    store: PathBuf,
    /// The gRPC address to listen on.
    #[arg(long, default_value = "127.0.0.1:0")]
    addr: SocketAddr,
    /// The web pages' address.
    #[arg(long, default_value = "127.0.0.1:0")]
    http_addr: SocketAddr,
    /// The Python interpreter for the Python example bot (default: $CARDROOM_PYTHON, then
    /// `.venv/bin/python`, then `python3`; it needs the `cardroom` package).
    #[arg(long)]
    python: Option<PathBuf>,
    /// Leave the Python example bot out.
    #[arg(long)]
    no_python: bool,
    /// Run the Python example bot as a plain process, not hosted in a sandbox.
    #[arg(long)]
    no_sandbox: bool,
}

/// Guest matches one address may start an hour from the demo's ladder pages.
const DEMO_GUESTS_PER_HOUR: u32 = 20;

/// Matches each in-process bot plays at once (its streams in the lobby, and the ladders' cap):
/// one a core.
const DEMO_STREAMS: u32 = 2;

/// How long the demo, done, waits for the matches running to be played out.
const STOP_PATIENCE: Duration = Duration::from_secs(60);

/// How long the demo, its matches rated, still waits for a bot that has played no rated set.
const LATE_PATIENCE: Duration = Duration::from_secs(60);

/// The demo's search bot's thinking time a decision, in milliseconds.
const DEMO_SEARCH_MS: u64 = 10;

/// The demo's ladders: one for each game of the catalogue, at four-seat tables where the game
/// seats four (Twenty-Two, Hold'em).
fn ladder_file(game: GameKind, bots: &[String]) -> String {
    let seats = if game.seats().contains(&4) { 4 } else { 2 };
    let bots = bots.iter().map(|b| format!("{b:?}")).collect::<Vec<_>>().join(", ");
    format!(
        "name = \"demo-{name}\"\ngame = \"{name}\"\nseats = {seats}\nseed = 2024\n\
         max_concurrent = {DEMO_STREAMS}\nprovisional_sets = 3\nbots = [{bots}]\n",
        name = game.name()
    )
}

use crate::lineup::{AnyBotMaker, Lineup, Lobby, Program};

/// A bot of the demo: its lobby name and how it is made.
struct DemoBot {
    name: String,
    game: GameKind,
    kind: Kind,
}

enum Kind {
    /// An example bot, in this process.
    InProcess(AnyBotMaker),
    /// The Python example bot, its own process: the interpreter and the script.
    Python(PathBuf, PathBuf),
}

/// Each game's in-process example bots: random, the heuristic, the heuristic playing a random
/// move a third of the time ("careless"), and the search.
fn example_bots(game: GameKind) -> anyhow::Result<Vec<DemoBot>> {
    struct Lineup(GameKind);
    impl ExampleVisitor for Lineup {
        type Output = anyhow::Result<Vec<DemoBot>>;
        fn visit<G: ExampleGame>(self) -> anyhow::Result<Vec<DemoBot>> {
            let prefix = G::HEURISTIC.strip_suffix("-heuristic").unwrap_or(G::NAME);
            let bot = |name: String, make: AnyBotMaker| DemoBot {
                name,
                game: self.0,
                kind: Kind::InProcess(make),
            };
            let builtin = |name: &str| -> anyhow::Result<AnyBotMaker> {
                let make = crate::bots::builtin::<G>(name)?;
                Ok(Arc::new(move |seed| G::into_any(make(seed))))
            };
            let careless: AnyBotMaker = Arc::new(|seed| {
                G::into_any(Box::new(Diluted::new(G::heuristic(seed), 1.0 / 3.0, seed ^ 0x5eed)))
            });
            // Every bot gets its share of a ladder, so the slowest sets the demo's pace: the
            // search thinks DEMO_SEARCH_MS a decision (its binary's default is 100 ms).
            let search: AnyBotMaker = Arc::new(|seed| {
                let budget = Budget::Time(Duration::from_millis(DEMO_SEARCH_MS));
                let config = SearchConfig { budget, seed, ..SearchConfig::default() };
                G::into_any(Box::new(SearchBot::<G>::new(config)))
            });
            Ok(vec![
                bot(format!("{prefix}-random"), builtin("random")?),
                bot(G::HEURISTIC.to_owned(), builtin(G::HEURISTIC)?),
                bot(format!("{prefix}-careless"), careless),
                bot(format!("{prefix}-search"), search),
            ])
        }
    }
    catalogue::visit(game, Lineup(game))
}

/// Runs `cardroom demo`.
pub(crate) fn demo(args: DemoArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    crate::init_tracing("warn", crate::LogFormat::Text);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(run(args, out))
}

async fn run(args: DemoArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let started = Instant::now();
    let mut bots = Vec::new();
    for game in GameKind::ALL {
        bots.extend(example_bots(game)?);
    }
    let python = if args.no_python {
        Err("--no-python".to_owned())
    } else {
        find_python_bot(args.python.as_deref())
    };
    match python {
        Ok((python, script)) => {
            writeln!(out, "Python example bot: {} {}", python.display(), script.display())?;
            bots.push(DemoBot {
                name: "python-tt".into(),
                game: GameKind::ALL[0],
                kind: Kind::Python(python, script),
            });
        }
        Err(why) => writeln!(out, "Python example bot skipped: {why}")?,
    }

    // The store, and every bot's account: a new key for each (a bot registered by an earlier
    // demo on this file gets its key rotated: keys are shown once and the demo kept none).
    let url = format!("sqlite:{}", args.store.display());
    let store = cardroom_store::open(&url).await.with_context(|| format!("opening {url}"))?;
    let accounts = Accounts::new(Arc::clone(&store));
    let mut keys = Vec::with_capacity(bots.len());
    for bot in &bots {
        let issued = match accounts.register(&bot.name).await {
            Err(AccountError::Store(StoreError::NameTaken(_))) => accounts.rotate(&bot.name).await,
            issued => issued,
        }
        .with_context(|| format!("registering {}", bot.name))?;
        keys.push(issued.key);
    }
    writeln!(out, "{} bots registered in {}", bots.len(), args.store.display())?;

    // The server with its hosted ladders.
    let config = Config { accounts: Some(accounts), registered_only: true, ..Config::default() };
    let server = Server::new(config.clone());
    let hosted = HostedLadders::start(Arc::clone(&store), server.host())
        .await
        .context("resuming the hosted ladders")?;
    let mut ladders: Vec<(String, LadderId)> = Vec::new();
    // Each ladder's bots, by name, in the order of `ladders`.
    let mut entrants: Vec<Vec<String>> = Vec::new();
    for game in GameKind::ALL {
        let names: Vec<String> =
            bots.iter().filter(|b| b.game == game).map(|b| b.name.clone()).collect();
        let text = ladder_file(game, &names);
        let file = HostedLadderFile::parse(&text).context("the demo's ladder file")?;
        let ladder =
            hosted.open(&file, &text).await.with_context(|| format!("ladder {}", file.name))?;
        writeln!(
            out,
            "hosted ladder {}: {}, {} seats, {} bots",
            ladder.spec.name,
            game.title(),
            file.seats,
            names.len()
        )?;
        ladders.push((ladder.spec.name.clone(), ladder.id));
        entrants.push(names);
    }
    let mut server = server.ladders(Arc::new(hosted.clone()));
    // The Python example bot, submitted and hosted in a sandbox where the machine allows it.
    let work = std::env::temp_dir().join(format!("cardroom-demo-{}", std::process::id()));
    let mut hosted_bots = None;
    let mut hosting = None;
    if let Some(bot) = bots.iter().find(|b| matches!(b.kind, Kind::Python(..)))
        && !args.no_sandbox
    {
        match host_python_bot(&accounts_of(&config)?, &server, bot, &work).await {
            Ok((socket, runner, described)) => {
                writeln!(out, "Python example bot hosted in a sandbox (its submission plays)")?;
                server = server.unix(socket);
                hosted_bots = Some(runner);
                hosting = Some(described.into());
            }
            Err(why) => writeln!(out, "Python example bot not hosted ({why:#}): a plain process")?,
        }
    }
    let listener = cardroom_server::listen(args.addr)
        .with_context(|| format!("listening on {}", args.addr))?;
    let grpc_addr = listener.local_addr()?;
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let until_stopped = |mut stopped: tokio::sync::watch::Receiver<bool>| async move {
        let _ = stopped.wait_for(|s| *s).await;
    };
    let auth_throttle = Some(server.auth_throttle());
    let serving = tokio::spawn(server.serve(listener, until_stopped(stopped.clone())));

    // The pages.
    let http = cardroom_server::listen(args.http_addr)
        .with_context(|| format!("listening on {}", args.http_addr))?;
    let http_addr = http.local_addr()?;
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{grpc_addr}"))
        .context("the pages' address of the server")?
        .connect_lazy();
    // The hosted ladders from the store, their running matches from the server.
    let matches = cardroom_web::ServerSource::new(channel, None);
    // The limits of `cardroom serve`'s defaults.
    let open_files = crate::serve::raise_open_files_limit();
    let serve_config = cardroom_web::ServeConfig {
        grace: config.shutdown_grace,
        ..cardroom_web::ServeConfig::default()
    }
    .within_open_files(open_files);
    // A person may play the demo's bots from a ladder's page ("Play the bots").
    let play = cardroom_web::PlayConfig {
        server: format!("http://{grpc_addr}"),
        admin_token: config.admin_token.clone(),
        guests_per_hour: DEMO_GUESTS_PER_HOUR,
        failed_links_per_minute: config.auth_failures_per_peer.get() / 2,
    };
    let web_config = cardroom_web::WebConfig {
        hosted_bots: hosting,
        auth_throttle,
        play: Some(play),
        ..Default::default()
    }
    .within_connections(serve_config.max_connections);
    crate::serve::log_pages_limits(open_files, &serve_config, &web_config);
    let router = cardroom_web::server_router(matches, config.accounts.clone(), web_config);
    // The pages on their own runtime at the lowest priority: page load cannot starve play.
    let pages = tokio::spawn(cardroom_web::serve_apart(
        http.into_std()?,
        router,
        serve_config,
        until_stopped(stopped.clone()),
    ));

    // The bots, each waiting in the lobby with its key.
    let mut lineup = Lineup::new(Lobby { server: format!("http://{grpc_addr}"), ca_file: None });
    for (bot, key) in bots.iter().zip(keys) {
        match &bot.kind {
            Kind::Python(..) if hosted_bots.is_some() => {}
            Kind::InProcess(make) => {
                lineup.in_process(&bot.name, key.expose(), DEMO_STREAMS, Arc::clone(make))?
            }
            Kind::Python(python, script) => {
                let program = Program {
                    command: vec![python.display().to_string(), script.display().to_string()],
                    env: Vec::new(),
                    flags: true,
                    log: None,
                    max_restarts: 2,
                    concurrency: 1,
                };
                lineup.program(&bot.name, key.expose(), program);
            }
        }
    }
    writeln!(out, "cardroom listening on {grpc_addr}")?;
    writeln!(out, "open http://{http_addr}/ to watch the ladders")?;
    match args.matches {
        0 => writeln!(out, "playing until Ctrl-C")?,
        n => writeln!(out, "playing until {n} matches are rated (or Ctrl-C)")?,
    }
    out.flush()?;

    // Until enough matches are rated, or Ctrl-C.
    let mut ticks = tokio::time::interval(Duration::from_millis(250));
    let mut reported = 0;
    // When every ladder had its share: from then on the demo waits for the bots not yet in its
    // standings, at most `LATE_PATIENCE`.
    let mut share_since: Option<std::time::Instant> = None;
    let interrupted = loop {
        tokio::select! {
            _ = tokio::signal::ctrl_c() => break true,
            _ = ticks.tick() => {}
            stopped = lineup.stopped() => anyhow::bail!("an example bot stopped playing: {stopped}"),
        }
        let (each, missing) = rated_matches(&*store, &ladders, &entrants).await?;
        let played: u64 = each.iter().sum();
        // Every ladder its share: a four-seat ladder's sets are longer, but it gets as many
        // matches rated as the other. And every bot in the standings: a bot that joined late
        // (the sandboxed Python one starts last) has played a rated set, unless it is still
        // missing after `LATE_PATIENCE`.
        let share = args.matches.div_ceil(ladders.len().max(1) as u64);
        let shared = args.matches != 0 && each.iter().all(|&n| n >= share);
        if shared {
            share_since.get_or_insert_with(std::time::Instant::now);
        } else {
            share_since = None;
        }
        let late = share_since.is_some_and(|since| since.elapsed() >= LATE_PATIENCE);
        let done = shared && (missing.is_empty() || late);
        if played >= reported + 20 || done {
            writeln!(out, "{played} matches rated ({:.0} s)", started.elapsed().as_secs_f64())?;
            out.flush()?;
            reported = played;
        }
        if done {
            if !missing.is_empty() {
                let missing = missing.join(", ");
                let waited = LATE_PATIENCE.as_secs();
                writeln!(out, "not in the standings after {waited} s more: {missing}")?;
            }
            break false;
        }
    };
    if interrupted {
        writeln!(out, "interrupted")?;
    }
    // No match starts any more; those running are played out and stored while the bots are
    // still there (a bot stuck past the patience leaves its match to be played another day).
    hosted.stop_scheduling();
    if tokio::time::timeout(STOP_PATIENCE, hosted.stopped()).await.is_err() {
        writeln!(
            out,
            "matches still running after {} s: they will be played again",
            STOP_PATIENCE.as_secs()
        )?;
    }
    // The bots go next, so that none of them sees the server go and tries again.
    lineup.stop().await;
    if let Some(runner) = hosted_bots {
        runner.stop().await.context("the hosted bots")?;
    }
    let _ = std::fs::remove_dir_all(&work);
    let _ = stop.send(true);
    serving.await.context("the server's task")??;
    pages.await.context("the pages' task")?.context("serving the pages")?;

    for (name, ladder) in &ladders {
        writeln!(out, "\n{name}")?;
        print_standings(&*store, *ladder, out).await?;
    }
    let file = args.store.display();
    writeln!(
        out,
        "\ndemo done in {:.1} s; the ladders are kept in {file}:",
        started.elapsed().as_secs_f64()
    )?;
    writeln!(out, "  cardroom serve --store sqlite:{file} --http-addr 127.0.0.1:8080")?;
    writeln!(out, "serves them again (and `cardroom demo --store {file}` carries them on)")?;
    Ok(())
}

/// The accounts of the demo's server.
fn accounts_of(config: &Config) -> anyhow::Result<Accounts> {
    config.accounts.clone().context("the demo's server keeps accounts")
}

/// Submits the Python example bot's script as `bot`'s code (by the organizer) and starts the
/// runner that hosts it, with a Unix socket under `work` for the server to serve, and says how
/// it hosts for the pages; or why not.
async fn host_python_bot(
    accounts: &Accounts,
    server: &Server,
    bot: &DemoBot,
    work: &Path,
) -> anyhow::Result<(cardroom_server::UnixSocketListener, HostedBots, String)> {
    let Kind::Python(python, script) = &bot.kind else { anyhow::bail!("not the Python bot") };
    let code = work.join("code");
    std::fs::create_dir_all(&code).with_context(|| format!("making {}", code.display()))?;
    let name = script.file_name().context("the script's name")?;
    std::fs::copy(script, code.join(name)).context("copying the script")?;
    let archive = cardroom_store::pack_dir(&code).context("packing the script")?;
    let id = accounts.store().bot_credential(&bot.name).await?.context("the bot's account")?;
    let run = vec!["python3".to_owned(), name.to_string_lossy().into_owned()];
    let limits = cardroom_store::ArchiveLimits::default();
    accounts.submit(id.account.id, archive, run, SubmittedBy::Admin, limits).await?;
    let socket = work.join("cardroom.sock");
    let listener = cardroom_server::listen_unix(&socket).context("the Unix socket")?;
    let config = RunnerConfig {
        socket,
        work: work.join("hosted"),
        python: Some(python.clone()),
        limits: Limits::default(),
        // The demo's bots play all along.
        idle: None,
    };
    let described = config.describe();
    let store = Arc::clone(accounts.store());
    let runner = HostedBots::start(store, server.host(), config).await?;
    Ok((listener, runner, described))
}

/// Matches played in rated sets, by ladder, and the bots of `entrants` (each ladder's, by
/// name) that have played no rated set and are not paused.
async fn rated_matches(
    store: &dyn Store,
    ladders: &[(String, LadderId)],
    entrants: &[Vec<String>],
) -> anyhow::Result<(Vec<u64>, Vec<String>)> {
    let mut played = Vec::with_capacity(ladders.len());
    let mut missing = Vec::new();
    for ((_, ladder), names) in ladders.iter().zip(entrants) {
        let sets = store.rated_sets(*ladder).await.context("reading the ladder")?;
        played.push(sets.iter().map(|s| s.matches.len() as u64).sum::<u64>());
        let bots = store.ladder_bots(*ladder).await.context("reading the ladder's bots")?;
        // A bot enters the ladder's rows once it is first seated, so one not there has not.
        let done = |name: &String| {
            bots.iter().any(|b| &b.name == name && (b.sets_rated > 0 || b.paused_reason.is_some()))
        };
        missing.extend(names.iter().filter(|name| !done(name)).cloned());
    }
    Ok((played, missing))
}

/// A ladder's bots by rating (mean less three deviations), as a table.
async fn print_standings(
    store: &dyn Store,
    ladder: LadderId,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let mut bots = store.ladder_bots(ladder).await.context("reading the ladder's bots")?;
    bots.sort_by(|a, b| {
        let low = |r: &cardroom_store::StoredRating| r.mean - 3.0 * r.sigma;
        low(&b.rating).total_cmp(&low(&a.rating))
    });
    writeln!(out, "{:<4} {:<16} {:>8} {:>7} {:>5}", "rank", "bot", "rating", "±", "sets")?;
    for (rank, bot) in bots.iter().enumerate() {
        writeln!(
            out,
            "{:<4} {:<16} {:>8.1} {:>7.1} {:>5}{}",
            rank + 1,
            bot.name,
            bot.rating.mean,
            bot.rating.sigma,
            bot.sets_rated,
            bot.paused_reason.as_deref().map(|r| format!("  paused: {r}")).unwrap_or_default()
        )?;
    }
    Ok(())
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
