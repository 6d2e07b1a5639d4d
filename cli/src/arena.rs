//! `cardroom arena run CONFIG.toml`, `arena leaderboard`, `arena import` and `arena power`.
//!
//! A ladder file (`cardroom_arena::config`, documented there and in arena/README.md) is a
//! hosted ladder and the bots to start for it. `arena run` opens the ladder on a server in
//! process over the file's store (or creates it on the file's `server`), registers the bots
//! (each bot it starts gets a new key), starts them in the lobby through [`crate::lineup`], and
//! waits until the hosted ladder closes itself by its format; then it prints the leaderboard
//! through the same read rpc as `cardroom leaderboard`.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use cardroom_arena::hosted::{HostedLadderFile, HostedLadders};
use cardroom_arena::{BotSource, LadderFile};
use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_server::{Config, LadderCommand, LadderControl, Server};
use cardroom_store::{Accounts, LadderStatus};
use indicatif::{ProgressBar, ProgressStyle};
use tonic::Code;
use tonic::transport::Channel;

use crate::bots;
use crate::lineup::{Lineup, Lobby};
use crate::reads::{RpcError, ServerArgs, answer, print_leaderboard, with_bearer};
use crate::table::Format;

/// `cardroom arena …`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum ArenaCommand {
    /// Run (or carry on) the ladder a TOML file describes, as a hosted ladder on its store,
    /// with a progress bar and live standings, then print its leaderboard.
    Run {
        /// The ladder file (TOML; see `arena/README.md`).
        config: PathBuf,
    },
    /// Measure how many matches each ranking method needs to rank a field of bots of known
    /// order right at 95% confidence, on simulated ladders; the last line is `ratio X.XX`, the
    /// baseline's median over the best method's (docs/ranking.md).
    Power(crate::power::PowerArgs),
    /// Print the leaderboard of a ladder in a store (`arena run`'s `db`), as `cardroom
    /// leaderboard` prints it from a running server.
    Leaderboard {
        /// The store: a SQLite file, `sqlite:FILE` or `postgres://…`.
        #[arg(long)]
        db: String,
        /// The ladder (default: the store's only ladder).
        #[arg(long)]
        ladder: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Move a ladder file of the arena's old schema (its own SQLite file, before its ladders
    /// were kept in the store) into a store as a hosted ladder, paused: its bots (registered if
    /// new, with no key: `cardroom bots rotate` issues one), sets, matches, records, ratings
    /// and standings. `arena run` with the same ladder `name` and `db` carries it on.
    Import {
        /// The old ladder file (SQLite); it is only read.
        file: PathBuf,
        /// The store: a SQLite file, `sqlite:FILE` or `postgres://…` (made if need be).
        #[arg(long)]
        store: String,
        /// The ladder's name in the store (default: the old file's name, without `.sqlite`).
        #[arg(long)]
        ladder: Option<String>,
    },
}

/// How long a ladder, done or interrupted, waits for the matches running to be played out.
const STOP_PATIENCE: Duration = Duration::from_secs(60);

/// How often the ladder's progress is read.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// Runs `cardroom arena …`.
pub(crate) fn run_command(command: ArenaCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        ArenaCommand::Run { config } => {
            crate::init_tracing("warn", crate::LogFormat::Text);
            let text = std::fs::read_to_string(&config)
                .with_context(|| format!("reading {}", config.display()))?;
            let file =
                LadderFile::parse(&text).with_context(|| format!("in {}", config.display()))?;
            // Everything is checked before the store or a server is touched.
            bots::check(&file).with_context(|| format!("in {}", config.display()))?;
            runtime()?.block_on(run_ladder(&file, out))
        }
        ArenaCommand::Power(args) => crate::power::run(args, out),
        ArenaCommand::Leaderboard { db, ladder, format } => {
            runtime()?.block_on(leaderboard(&store_url(&db), ladder, format, out))
        }
        ArenaCommand::Import { file, store, ladder } => {
            crate::init_tracing("warn", crate::LogFormat::Text);
            let ladder = match ladder {
                Some(ladder) => ladder,
                None => LadderFile::name_from_path(&file.display().to_string()),
            };
            runtime()?.block_on(async {
                let url = store_url(&store);
                let store =
                    cardroom_store::open(&url).await.with_context(|| format!("opening {url}"))?;
                let imported = cardroom_arena::import_arena_file(&file, &store, &ladder)
                    .await
                    .with_context(|| format!("importing {}", file.display()))?;
                write!(out, "{imported}")?;
                anyhow::Ok(())
            })
        }
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Runtime::new().context("starting the async runtime")
}

/// A store's URL: `db` as given when it is one, else a SQLite file's path.
fn store_url(db: &str) -> String {
    if db.starts_with("sqlite:") || db.contains("://") {
        db.to_owned()
    } else {
        format!("sqlite:{db}")
    }
}

/// A server in this process over a store, on a free port of 127.0.0.1 unless told where.
struct Local {
    url: String,
    admin_token: String,
    hosted: HostedLadders,
    stop: tokio::sync::oneshot::Sender<()>,
    serving: tokio::task::JoinHandle<anyhow::Result<()>>,
}

impl Local {
    /// Starts the server over `store_url` with its hosted ladders, and opens `ladder` (the
    /// hosted file `text`): created, carried on, or running again if its budget grew.
    async fn start(
        store_url: &str,
        listen: Option<SocketAddr>,
        reconnect_grace: Duration,
        text: &str,
    ) -> anyhow::Result<Local> {
        let store = cardroom_store::open(store_url)
            .await
            .with_context(|| format!("opening {store_url}"))?;
        let admin_token = new_admin_token()?;
        let config = Config {
            accounts: Some(Accounts::new(Arc::clone(&store))),
            registered_only: true,
            admin_token: Some(admin_token.clone()),
            reconnect_grace,
            ..Config::default()
        };
        let server = Server::new(config);
        let hosted = HostedLadders::start(Arc::clone(&store), server.host())
            .await
            .context("resuming the store's hosted ladders")?;
        let file = HostedLadderFile::parse(text).context("the hosted ladder")?;
        let ladder =
            hosted.open(&file, text).await.with_context(|| format!("ladder {}", file.name))?;
        if ladder.status == LadderStatus::Paused {
            // Paused by its operator or imported: this run carries it on.
            hosted
                .command(LadderCommand::Resume { name: file.name.clone() })
                .await
                .with_context(|| format!("resuming ladder {}", file.name))?;
        }
        let server = server.ladders(Arc::new(hosted.clone()));
        let address = listen.unwrap_or_else(|| ([127, 0, 0, 1], 0).into());
        let listener =
            cardroom_server::listen(address).with_context(|| format!("listening on {address}"))?;
        let address = listener.local_addr()?;
        if listen.is_some() {
            eprintln!("the arena's server listens on {address}");
        }
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = tokio::spawn(server.serve(listener, async {
            let _ = stopped.await;
        }));
        Ok(Local { url: format!("http://{address}"), admin_token, hosted, stop, serving })
    }

    /// Stops the server.
    async fn stop(self) -> anyhow::Result<()> {
        let _ = self.stop.send(());
        self.serving.await.context("the server's task")?.context("the server")
    }
}

/// A fresh admin token for the server in process: the arena registers its bots through it.
fn new_admin_token() -> anyhow::Result<String> {
    let mut bytes = [0u8; 24];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness for a token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Runs a checked ladder ([`bots::check`]) to its end, printing progress, standings and the
/// leaderboard.
async fn run_ladder(file: &LadderFile, out: &mut dyn Write) -> anyhow::Result<()> {
    let name = file.ladder_name();
    let text = file.hosted()?;
    let (local, url, admin_token) = match (&file.server, &file.admin_token) {
        (Some(server), Some(token)) => (None, server.clone(), token.clone()),
        _ => {
            let grace = Duration::from_millis(file.reconnect_grace_ms);
            let local = Local::start(&file.store_url(), file.listen, grace, &text).await?;
            let (url, token) = (local.url.clone(), local.admin_token.clone());
            (Some(local), url, token)
        }
    };
    let mut client = ServerArgs::new(url.clone(), file.ca_file.clone()).client()?;
    if local.is_none() {
        create_on_server(&mut client, &admin_token, &name, &text, out).await?;
    }
    // The ladder's matches before this run's bots play any.
    let before = board(&mut client, &name).await?.1;
    let mut lineup = Lineup::new(Lobby { server: url, ca_file: file.ca_file.clone() });
    let started = start_bots(&mut client, &admin_token, file, &mut lineup, out).await;
    let watched = match started {
        Ok(()) => watch(&mut client, file, &name, before, &mut lineup, out).await,
        Err(error) => Err(error),
    };
    // No match starts any more; those running are played out and stored while the bots are
    // still there (one stuck past the patience is played again by the next run).
    if let Some(local) = &local {
        local.hosted.stop_scheduling();
        if tokio::time::timeout(STOP_PATIENCE, local.hosted.stopped()).await.is_err() {
            writeln!(
                out,
                "matches still running after {} s: the next run plays them again",
                STOP_PATIENCE.as_secs()
            )?;
        }
    }
    lineup.stop().await;
    let printed = match &watched {
        Ok(_) => print_leaderboard(&mut client, name.clone(), Format::Table, out).await,
        Err(_) => Ok(()),
    };
    if let Some(local) = local {
        local.stop().await?;
    }
    let reason = watched?;
    printed?;
    writeln!(out, "ladder {name}: {reason}")?;
    Ok(())
}

/// Creates the ladder on a running server (`CreateLadder`); one of that name there already is
/// carried on as the server has it.
async fn create_on_server(
    client: &mut CardroomClient<Channel>,
    admin_token: &str,
    name: &str,
    text: &str,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let request = pb::CreateLadderRequest { config_toml: text.to_owned() };
    let request = with_bearer(request, admin_token, "the admin token")?;
    match client.create_ladder(request).await {
        Ok(_) => writeln!(out, "ladder {name} created on the server")?,
        Err(status) if status.code() == Code::AlreadyExists => {
            writeln!(out, "ladder {name} exists on the server: carried on with its own file")?;
            let request = pb::LadderRequest { name: name.to_owned(), reason: String::new() };
            let request = with_bearer(request, admin_token, "the admin token")?;
            match client.resume_ladder(request).await {
                Ok(_) => {}
                // Running already.
                Err(status) if status.code() == Code::FailedPrecondition => {}
                Err(status) => return Err(RpcError { rpc: "ResumeLadder", status }.into()),
            }
        }
        Err(status) => return Err(RpcError { rpc: "CreateLadder", status }.into()),
    }
    Ok(())
}

/// Registers every bot of the file (a bot the arena starts gets a new key, whether new or
/// not: keys are shown once), and starts the built-in bots and programs in the lobby. A remote
/// bot registered here has its key printed once; one registered before keeps its key.
async fn start_bots(
    client: &mut CardroomClient<Channel>,
    admin_token: &str,
    file: &LadderFile,
    lineup: &mut Lineup,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    for entry in &file.bots {
        let source = entry.source()?;
        let register = pb::RegisterBotRequest { name: entry.name.clone() };
        let registered =
            client.register_bot(with_bearer(register, admin_token, "the admin token")?).await;
        let key = match registered {
            Ok(issued) => issued.into_inner().key,
            Err(status) if status.code() == Code::AlreadyExists => {
                if let BotSource::Lobby(_) = source {
                    writeln!(out, "{}: registered already; it joins with its key", entry.name)?;
                    continue;
                }
                let rotate = pb::RotateBotKeyRequest { name: entry.name.clone() };
                let request = with_bearer(rotate, admin_token, "the admin token")?;
                answer("RotateBotKey", client.rotate_bot_key(request).await)?.key
            }
            Err(status) => return Err(RpcError { rpc: "RegisterBot", status }.into()),
        };
        match source {
            BotSource::Builtin(builtin) => {
                let make = bots::any_bot(builtin, file.game)?;
                lineup.in_process(&entry.name, &key, file.parallel, make)?;
            }
            BotSource::Command(command) => {
                lineup.program(&entry.name, &key, bots::program(file, entry, command)?);
            }
            BotSource::Lobby(_) => {
                // Keys go to stderr, never into a log of the standings.
                eprintln!(
                    "{name}: registered; its key, shown once: {key}\n  start it with --lobby {name} \
                     (CARDROOM_KEY={key}) against this ladder's server",
                    name = entry.name
                );
            }
        }
    }
    Ok(())
}

/// Follows the ladder until it closes (its reason), printing progress and the standings every
/// `standings_every` matches; an error if a bot stops playing or on Ctrl-C.
async fn watch(
    client: &mut CardroomClient<Channel>,
    file: &LadderFile,
    name: &str,
    before: u64,
    lineup: &mut Lineup,
    out: &mut dyn Write,
) -> anyhow::Result<String> {
    let seats = usize::from(file.seats);
    let total = file.format.max_sets(file.bots.len(), seats);
    // The bar counts sets to the format's budget; indicatif draws it only on a terminal.
    let bar = ProgressBar::new(total).with_style(
        ProgressStyle::with_template(
            "{bar:40.cyan/blue} {pos}/{len} sets  {elapsed_precise}  {msg}",
        )?
        .progress_chars("=> "),
    );
    let mut ticks = tokio::time::interval(PROGRESS_EVERY);
    let mut printed_at = None;
    let reason = loop {
        tokio::select! {
            _ = ticks.tick() => {}
            stopped = lineup.stopped() => {
                bar.finish_and_clear();
                anyhow::bail!("{stopped}: the ladder stops here (run the file again to carry it on)");
            }
            _ = tokio::signal::ctrl_c() => {
                bar.finish_and_clear();
                anyhow::bail!("interrupted: run the file again to carry the ladder on");
            }
        }
        let (board, matches) = board(client, name).await?;
        let ladder = board.ladder.clone().unwrap_or_default();
        let sets = board.standings.as_ref().map_or(0, |s| s.sets);
        bar.set_position(sets);
        if let Some(sprt) = board.standings.as_ref().and_then(|s| s.sprt.as_ref()) {
            bar.set_message(format!("SPRT LLR {:.2}", sprt.llr));
        }
        let due = file.standings_every > 0
            && printed_at.is_none_or(|at| matches >= at + file.standings_every);
        if due && matches > 0 {
            printed_at = Some(matches);
            let text = standings(&board, matches);
            if bar.is_hidden() {
                writeln!(out, "{text}")?;
            } else {
                bar.println(text);
            }
        }
        if ladder.status == "closed" {
            bar.finish_and_clear();
            let now = matches.saturating_sub(before);
            writeln!(out, "played {matches} matches in {sets} sets ({now} in this run)")?;
            break ladder.status_reason;
        }
    };
    Ok(reason)
}

/// The ladder's leaderboard (`GetLeaderboard`), and the matches its rated sets hold.
async fn board(
    client: &mut CardroomClient<Channel>,
    name: &str,
) -> anyhow::Result<(pb::LadderLeaderboard, u64)> {
    let request = pb::GetLeaderboardRequest { ladder: name.to_owned() };
    let board = answer("GetLeaderboard", client.get_leaderboard(request).await)?;
    let seats = board.ladder.as_ref().map_or(1, |l| u64::from(l.table_seats.max(1)));
    let matches = board.rows.iter().map(|r| r.matches).sum::<u64>() / seats;
    Ok((board, matches))
}

/// The live standings: the bots in the leaderboard's order, with their ratings.
fn standings(board: &pb::LadderLeaderboard, matches: u64) -> String {
    let mut text = format!("standings after {matches} matches:");
    for row in &board.rows {
        text.push_str(&format!(
            "\n  {:>2}. {:<16} {:>8.1} ±{:.1}",
            row.rank, row.bot, row.rating, row.sigma
        ));
    }
    text
}

/// `arena leaderboard`: a server in process over the store answers `GetLeaderboard`, printed
/// as `cardroom leaderboard` prints it.
async fn leaderboard(
    store_url: &str,
    ladder: Option<String>,
    format: Format,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let store =
        cardroom_store::open(store_url).await.with_context(|| format!("opening {store_url}"))?;
    let ladder = match ladder {
        Some(ladder) => ladder,
        None => {
            let names: Vec<String> =
                store.ladders().await?.into_iter().map(|l| l.spec.name).collect();
            match &names[..] {
                [one] => one.clone(),
                [] => anyhow::bail!("{store_url} holds no ladder"),
                many => anyhow::bail!(
                    "{store_url} holds {} ladders: name one with --ladder ({})",
                    many.len(),
                    many.join(", ")
                ),
            }
        }
    };
    let config = Config { accounts: Some(Accounts::new(store)), ..Config::default() };
    let server = Server::new(config);
    let listener = cardroom_server::listen(([127, 0, 0, 1], 0).into())?;
    let address = listener.local_addr()?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(server.serve(listener, async {
        let _ = stopped.await;
    }));
    let mut client = ServerArgs::new(format!("http://{address}"), None).client()?;
    let printed = print_leaderboard(&mut client, ladder, format, out).await;
    let _ = stop.send(());
    serving.await.context("the server's task")?.context("the server")?;
    printed
}
