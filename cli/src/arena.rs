//! `cardroom arena run CONFIG.toml` and `cardroom arena leaderboard`.
//!
//! The ladder file is `cardroom_arena::config` (documented there and in arena/README.md); the
//! bots it names are made in [`crate::bots`]. Over gRPC the arena starts a server in process
//! (or uses `server`), creates every match with `CreateMatch` and the planned seed, plays its
//! built-in bots through the SDK's networked runner, starts an external bot's command for every
//! seat it plays, and has the server seat remote bots from its lobby.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use cardroom_arena::leaderboard::Mode;
use cardroom_arena::{
    Format, Ladder, LadderFile, Leaderboard, NetPlayer, Progress, Settings, Store, Summary, run,
    run_with,
};
use cardroom_example_bots::catalogue::ExampleGame;
use cardroom_rank::Rating;
use cardroom_sdk::{MatchSpec, TlsOptions};
use indicatif::{ProgressBar, ProgressStyle};

use crate::bots;

/// `cardroom arena …`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum ArenaCommand {
    /// Run (or resume) the ladder a TOML file describes, with a progress bar and live
    /// standings, then print its leaderboard.
    Run {
        /// The ladder file (TOML; see `arena/README.md`).
        config: PathBuf,
    },
    /// Measure how many matches each ranking method needs to rank a field of bots of known
    /// order right at 95% confidence, on simulated ladders; the last line is `ratio X.XX`, the
    /// baseline's median over the best method's (docs/ranking.md).
    Power(crate::power::PowerArgs),
    /// Print the leaderboard of a ladder's SQLite file.
    Leaderboard {
        /// The ladder's SQLite file.
        #[arg(long)]
        db: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value = "table")]
        format: OutputFormat,
        /// Finals mode, for frozen bots at the end of a competition: every set weighs the
        /// same and the order is the head-to-head one (no rating drift).
        #[arg(long)]
        finals: bool,
        /// With the text table: the probability that each bot is better than each other.
        #[arg(long)]
        pairwise: bool,
    },
}

/// How the leaderboard (and every listing, `crate::table`) is printed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum OutputFormat {
    /// A text table.
    Table,
    /// JSON.
    Json,
    /// CSV with a header line.
    Csv,
}

/// Runs `cardroom arena …`.
pub(crate) fn run_command(command: ArenaCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        ArenaCommand::Run { config } => {
            crate::init_tracing("warn");
            let text = std::fs::read_to_string(&config)
                .with_context(|| format!("reading {}", config.display()))?;
            let file =
                LadderFile::parse(&text).with_context(|| format!("in {}", config.display()))?;
            // Everything is checked before the SQLite file is made.
            bots::check(&file).with_context(|| format!("in {}", config.display()))?;
            let mut store = open_store(&file.db)?;
            run_ladder(&file, &mut store, out)
        }
        ArenaCommand::Power(args) => crate::power::run(args, out),
        ArenaCommand::Leaderboard { db, format, finals, pairwise } => {
            if !db.exists() {
                anyhow::bail!("{} does not exist", db.display());
            }
            let store = open_store(&db)?;
            let mode = if finals { Mode::Finals } else { Mode::Live };
            let board = Leaderboard::from_store_in(&store, mode)?;
            match format {
                OutputFormat::Table => {
                    write!(out, "{}", board.to_table())?;
                    if pairwise {
                        write!(out, "{}", board.to_pairwise_table())?;
                    }
                }
                OutputFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&board)?)?,
                OutputFormat::Csv => write!(out, "{}", board.to_csv())?,
            }
            Ok(())
        }
    }
}

/// Opens (or creates) a ladder's SQLite file.
pub(crate) fn open_store(db: &Path) -> anyhow::Result<Store> {
    Store::open(db).with_context(|| format!("opening {}", db.display()))
}

/// Runs a checked ladder ([`bots::check`]), printing progress, standings and the
/// leaderboard.
pub(crate) fn run_ladder(
    file: &LadderFile,
    store: &mut Store,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let settings = file.settings();
    let names = file.names();
    let (done_before, _) = store.progress()?;
    // The bar counts to the format's known total from the start; indicatif draws it only on a
    // terminal.
    let bar = ProgressBar::new(settings.total_matches(names.len())).with_style(
        ProgressStyle::with_template(
            "{bar:40.cyan/blue} {pos}/{len} matches  {elapsed_precise}  {msg}",
        )?
        .progress_chars("=> "),
    );
    bar.set_position(done_before);
    let mut last_standings = done_before;
    let mut observe = |p: &Progress<'_>| {
        bar.set_length(p.total.max(p.planned));
        bar.set_position(p.done);
        if let Some((decision, llr)) = p.sprt {
            bar.set_message(format!("SPRT {}, LLR {llr:.2}", decision.name()));
        }
        if file.standings_every > 0 && p.done >= last_standings + file.standings_every {
            last_standings = p.done;
            let text = standings(&names, p.ratings, p.done);
            if bar.is_hidden() {
                println!("{text}");
            } else {
                bar.println(text);
            }
        }
    };
    let summary = if file.uses_grpc() {
        run_networked(file, &settings, &names, store, &mut observe)?
    } else {
        run_in_process(file, &settings, store, &mut observe)?
    };
    bar.finish_and_clear();
    if done_before > 0 {
        writeln!(out, "resumed after {done_before} finished matches")?;
    }
    writeln!(out, "played {} matches", summary.played)?;
    if let (Some(test), Format::Sprt { a, b, .. }) = (summary.sprt, &settings.format) {
        writeln!(out, "SPRT: {}", test.verdict(a, b))?;
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
    file: &LadderFile,
    settings: &Settings,
    store: &mut Store,
    observe: &mut dyn FnMut(&Progress<'_>),
) -> anyhow::Result<Summary> {
    bots::with_builtins(file.game, InProcess { file, settings, store, observe })
}

/// The in-process ladder of a file, for its game: its options parsed, its built-in bots made.
struct InProcess<'a> {
    file: &'a LadderFile,
    settings: &'a Settings,
    store: &'a mut Store,
    observe: &'a mut dyn FnMut(&Progress<'_>),
}

impl bots::WithBuiltins for InProcess<'_> {
    type Output = anyhow::Result<Summary>;

    fn with<G: ExampleGame>(self, builtin: bots::Builtin<G>) -> anyhow::Result<Summary> {
        let file = self.file;
        let options: G::Options = serde_json::from_str(&file.options_json())
            .with_context(|| format!("the {} options", G::KIND.title()))?;
        let mut ladder_bots = Vec::new();
        for b in &file.bots {
            ladder_bots.push((b.name.clone(), builtin(&b.builtin.clone().unwrap_or_default())?));
        }
        let seats = file.seats;
        let ladder = Ladder {
            settings: self.settings.clone(),
            bots: ladder_bots,
            new_match: Arc::new(move |seed| {
                G::new(options, seats, seed).map_err(|e| e.to_string())
            }),
            parallel: file.parallel,
        };
        Ok(run(&ladder, self.store, self.observe)?)
    }
}

fn run_networked(
    file: &LadderFile,
    settings: &Settings,
    names: &[String],
    store: &mut Store,
    observe: &mut dyn FnMut(&Progress<'_>),
) -> anyhow::Result<Summary> {
    let net_bots = bots::net_bots(file)?;
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    // A running server, or one in process until the ladder ends.
    let (address, server) = match &file.server {
        Some(server) => (server.clone(), None),
        None => {
            let listen = file.listen.unwrap_or_else(|| ([127, 0, 0, 1], 0).into());
            let listener = runtime
                .block_on(tokio::net::TcpListener::bind(listen))
                .with_context(|| format!("listening on {listen}"))?;
            let address = listener.local_addr()?;
            if file.listen.is_some() {
                eprintln!("the arena's server listens on {address}");
            }
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            let server_config = cardroom_server::Config {
                record_dir: None,
                shutdown_grace: Duration::from_millis(500),
                reconnect_grace: Duration::from_millis(file.reconnect_grace_ms),
                admin_token: file.admin_token.clone(),
                ..cardroom_server::Config::default()
            };
            let server = runtime.spawn(cardroom_server::run(listener, server_config, async {
                let _ = stopped.await;
            }));
            (address.to_string(), Some((stop, server)))
        }
    };
    let player = NetPlayer {
        runtime: runtime.handle().clone(),
        server: address,
        tls: TlsOptions { ca_file: file.ca_file.clone(), server_name: None },
        spec: MatchSpec {
            game: file.game,
            options_json: file.options_json(),
            seats: u32::from(file.seats),
            seed: None,
            clock: file.clock(),
            lobby_bots: Vec::new(),
        },
        bots: net_bots,
        max_restarts: file.max_restarts,
        exit_grace: Duration::from_secs(5),
        admin_token: file.admin_token.clone(),
        remote_wait: Duration::from_millis(file.remote_wait_ms),
    };
    let summary = run_with(settings, names, file.parallel, &player, store, observe);
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
