//! `cardroom`: the game server and its tools, one module per command group. See
//! `cardroom --help`.

mod accounts;
mod arena;
mod authors;
mod bots;
mod demo;
mod gin;
mod lineup;
mod mcp;
mod power;
mod reads;
mod replay;
mod runner;
mod seasons;
mod serve;
mod submit;
mod table;

/// jemalloc, whose background thread hands freed memory back to the system (switched on first
/// thing in [`main`]).
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// cardroom: a game service where bots play cards.
#[derive(Debug, Parser)]
#[command(name = "cardroom", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per process: the size of the largest variant (`serve`'s flags) costs nothing.
#[derive(Debug, Subcommand)]
enum Command {
    /// A short ladder of the example bots over real gRPC, on a server started in this process;
    /// prints the leaderboard.
    Demo(demo::DemoArgs),
    /// Bot-vs-bot ladders: run one from a TOML file, print a leaderboard.
    #[command(subcommand)]
    Arena(arena::ArenaCommand),
    /// Run the game server (gRPC, with health and reflection) until SIGINT or SIGTERM.
    Serve(Box<serve::ServeArgs>),
    /// Host a server's submitted bots on this machine, each in a sandbox (bubblewrap, cgroups
    /// v1; needs root), reaching the server at --server with its admin token, until SIGINT or
    /// SIGTERM: what `serve --host-bots` does on the server's own machine.
    Runner(Box<runner::RunnerArgs>),
    /// Bot accounts in the server's store: register a bot (printing its key once), list,
    /// revoke, rotate; and, through a running server, lift a bot's pause in a ladder, submit a
    /// bot's code and list its submissions.
    #[command(subcommand)]
    Bots(accounts::BotsCommand),
    /// Authors, the people who own bots: the organizer issues invite codes on the store; an
    /// author joins with one and manages their own bots through the server with their token.
    #[command(subcommand)]
    Authors(authors::AuthorsCommand),
    /// Ask for unrated sets of your bot in a hosted ladder, against named opponents or the
    /// ladder's top bots, with your author token (`RequestScrimmage`).
    Scrim(authors::ScrimArgs),
    /// Your scrimmages and their results, or one match's record (`ListScrimmages`,
    /// `GetScrimmageRecord`).
    Scrims(authors::ScrimsArgs),
    /// Seasons: the organizer puts a season file on the server (its ladders, its submission
    /// deadline, its finals rule); anyone reads a season, its final standings and its events.
    #[command(subcommand)]
    Seasons(seasons::SeasonsCommand),
    /// A registered bot's seat for a language model or any agent that speaks the Model Context
    /// Protocol (stdio, or streamable HTTP with --http): tools to list the ladders, wait in the
    /// lobby, wait for the turn (its text form and JSON), act, and read a match's result.
    Mcp(Box<mcp::McpArgs>),
    /// Replay a match record (JSON): print its transcript, or with --json its final state and
    /// standings, or with --text each turn as its seat read it. A bad record names its first
    /// illegal action.
    Replay {
        /// The record file (`-` for standard input).
        file: PathBuf,
        /// Print JSON: every action with its events, the final public view and standings.
        #[arg(long, conflicts_with = "text")]
        json: bool,
        /// Print each turn in the text harness's form (what a person or a language model at
        /// the seat reads: its table, what happened since its last turn, the legal actions
        /// numbered) and the answer given.
        #[arg(long)]
        text: bool,
    },
    /// The legal actions of the seat to act at the end of a match record.
    Legal {
        /// The record file (`-` for standard input).
        file: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    // The read subcommands against a server (`cardroom ladders`, `leaderboard`, `bot`, `h2h`,
    // `record`, `failures`, `matches`), documented in `reads`.
    #[command(flatten)]
    Reads(reads::ReadCommand),
    // The games' own tools (`cardroom gin …`), each documented in its game's module.
    #[command(flatten)]
    Tools(gin::GameTools),
}

/// Runs the command line; errors are printed to stderr with exit code 1.
fn main() -> ExitCode {
    // Memory freed after a crowd of live pages (or a burst of matches) goes back to the system
    // within seconds rather than staying with the process.
    let _ = tikv_jemalloc_ctl::background_thread::write(true);
    let cli = Cli::parse();
    let result = match cli.command {
        // The MCP server speaks its protocol on stdout: it must not be locked here.
        Command::Mcp(args) => mcp::run(*args),
        command => run(command),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stops early (`| head`) is not an error.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Runs every command but `mcp`, printing to a locked stdout.
fn run(command: Command) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match command {
        Command::Demo(args) => demo::demo(args, &mut out),
        Command::Arena(command) => arena::run_command(command, &mut out),
        Command::Serve(args) => serve::serve(*args),
        Command::Runner(args) => runner::run(*args),
        Command::Bots(command) => accounts::run_command(command, &mut out),
        Command::Authors(command) => authors::run_command(command, &mut out),
        Command::Scrim(args) => authors::scrim(args, &mut out),
        Command::Scrims(args) => authors::scrims(args, &mut out),
        Command::Seasons(command) => seasons::run_command(command, &mut out),
        Command::Replay { file, json: _, text: true } => replay::replay_text(&file, &mut out),
        Command::Replay { file, json, text: false } => replay::replay(&file, json, &mut out),
        Command::Legal { file, json } => replay::legal(&file, json, &mut out),
        Command::Reads(command) => reads::run_command(command, &mut out),
        Command::Tools(command) => command.run(&mut out),
        Command::Mcp(args) => mcp::run(*args),
    }
}

/// How a command logs: text for people, or JSON for a log collector.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LogFormat {
    /// One line of text an event, with colours only on a terminal.
    #[default]
    Text,
    /// One JSON object a line: `timestamp`, `level`, `target`, `fields` (the message and the
    /// event's fields) and the spans it is in.
    Json,
}

/// Logs to stderr at `default` level unless `RUST_LOG` says otherwise, in `format`; text has
/// colours only when stderr is a terminal (a log redirected to a file gets no escape codes).
pub(crate) fn init_tracing(default: &str, format: LogFormat) {
    use std::io::IsTerminal;
    let logs = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default)),
        )
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => logs.with_ansi(std::io::stderr().is_terminal()).try_init(),
        LogFormat::Json => logs.json().try_init(),
    };
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .downcast_ref::<std::io::Error>()
        .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}
