//! What every bot binary shares: the flags, logging, and how a finished match is reported.

use std::future::Future;
use std::process::ExitCode;

use cardroom_sdk::{ConnectArgs, ConnectConfig, Played, RunError};

/// The flags of every example bot: the SDK's connection flags and a seed.
#[derive(Debug, clap::Parser)]
pub struct BotArgs {
    /// Where and how to join.
    #[command(flatten)]
    pub connect: ConnectArgs,
    /// Seeds the bot's random choices (default: from the clock).
    #[arg(long, env = "CARDROOM_SEED")]
    pub seed: Option<u64>,
    /// Matches to play one after another (0: until stopped). Useful with a queue or a lobby:
    /// after each match the bot joins again.
    #[arg(long, env = "CARDROOM_MATCHES", default_value_t = 1)]
    pub matches: u64,
}

impl BotArgs {
    /// The seed given, or one from the clock.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |elapsed| elapsed.as_nanos() as u64)
        })
    }

    /// The connection configuration, with `name` as the bot's default name.
    pub fn config(&self, name: &str) -> anyhow::Result<ConnectConfig> {
        Ok(self.connect.config(name)?)
    }
}

/// Logs to standard error, at `info` unless `RUST_LOG` says otherwise, with colours only on a
/// terminal (an arena appends an external bot's stderr to its log file).
pub fn init_tracing() {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .try_init();
}

/// Plays `args.matches` matches (all of them until stopped when 0), `--concurrency` of them at
/// once, each with `one(config, seed)` (the seed grows by one a match), printing each result.
/// A bot in the lobby or a queue joins again after a match it lost (the server restarted, say)
/// or a server it could not reach, and stops on a refusal that waiting cannot change
/// ([`cardroom_sdk::play_concurrently`]), saying which.
pub async fn play_matches<F, Fut>(args: &BotArgs, name: &str, one: F) -> ExitCode
where
    F: Fn(ConnectConfig, u64) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = Result<Played, RunError>> + Send + 'static,
{
    let config = match args.config(name) {
        Ok(config) => config,
        Err(err) => return report(Err(err)),
    };
    let seed = args.seed();
    let config_for_rejoins = config.clone();
    let each = move |n: u64| {
        let played = one(config.clone(), seed.wrapping_add(n));
        async move {
            let played = played.await;
            // A failure is printed once, by the caller.
            if let Ok(played) = &played {
                print_played(played);
            }
            played
        }
    };
    let played = cardroom_sdk::play_concurrently(
        &config_for_rejoins,
        args.connect.concurrency,
        args.matches,
        each,
    );
    match played.await {
        Ok(_) => ExitCode::SUCCESS,
        Err(err) => report(Ok(Err(err))),
    }
}

/// Prints the result of a match (or `error: …`) and returns the process's exit code.
pub fn report(result: anyhow::Result<Result<Played, RunError>>) -> ExitCode {
    if print_result(result) { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// Prints the result of a match (or `error: …`); true if it was played.
fn print_result(result: anyhow::Result<Result<Played, RunError>>) -> bool {
    match result.and_then(|played| Ok(played?)) {
        Ok(played) => {
            print_played(&played);
            true
        }
        Err(err) => {
            let stops = match err.downcast_ref::<RunError>() {
                Some(RunError::Rejected(_)) => "; waiting cannot change this, so the bot stops",
                _ => "",
            };
            eprintln!("error: {err:#}{stops}");
            false
        }
    }
}

/// Prints one played match's result.
fn print_played(played: &Played) {
    let place = played.end.place().map_or_else(|| "?".to_owned(), |p| p.to_string());
    println!(
        "match {}: seat {} finished in place {place} of {}{}; {} decisions, {} refused, {} reconnections",
        played.start.match_id,
        played.start.seat.0,
        played.start.seats,
        if played.end.aborted { " (aborted)" } else { "" },
        played.decisions,
        played.errors.len(),
        played.reconnects,
    );
}
