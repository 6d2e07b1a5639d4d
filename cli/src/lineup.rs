//! Bots that wait in a server's lobby with their keys, for a hosted ladder to seat them: the
//! example bots in this process, and programs in processes of their own, started again when
//! they exit. `cardroom demo` and `cardroom arena run` start their bots here.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use cardroom_sdk::{AnyBot, BotKey, ConnectConfig, TlsOptions, play_any, play_concurrently};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tracing::warn;

/// Makes an in-process bot for a match, from a seed.
pub(crate) type AnyBotMaker = Arc<dyn Fn(u64) -> AnyBot + Send + Sync>;

/// The version every in-process example bot reports: this build's.
pub(crate) const VERSION: &str = env!("CARGO_PKG_VERSION");

/// How long a program that exited waits before it is started again.
const RESTART_AFTER: Duration = Duration::from_millis(500);

/// The server the bots join: its address as the SDKs take it, and its TLS.
#[derive(Clone, Debug)]
pub(crate) struct Lobby {
    /// `http://HOST:PORT` or `https://HOST:PORT`.
    pub server: String,
    /// The CA of an `https://` server, if not the system's.
    pub ca_file: Option<PathBuf>,
}

/// A bot program: what to run, and how.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Extra environment variables.
    pub env: Vec<(String, String)>,
    /// Whether to append `--server --lobby --name --matches 0 --concurrency`.
    pub flags: bool,
    /// Where its output is appended (`None`: dropped).
    pub log: Option<PathBuf>,
    /// How often it is started again after it exits.
    pub max_restarts: u32,
    /// The matches it may play at once.
    pub concurrency: u32,
}

/// Why a bot of the lineup stopped playing.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Stopped {
    /// An in-process bot's runner ended.
    #[error("{name} stopped playing: {why}")]
    InProcess { name: String, why: String },
    /// A program exited more often than it may be restarted.
    #[error("{name} exited {times} times ({status}); see its log")]
    Program { name: String, times: u32, status: String },
}

/// The bots started, until [`Lineup::stop`].
pub(crate) struct Lineup {
    lobby: Lobby,
    tasks: JoinSet<()>,
    stopped_tx: mpsc::UnboundedSender<Stopped>,
    stopped: mpsc::UnboundedReceiver<Stopped>,
}

impl Lineup {
    /// No bots yet, joining `lobby`'s server.
    pub(crate) fn new(lobby: Lobby) -> Lineup {
        let (stopped_tx, stopped) = mpsc::unbounded_channel();
        Lineup { lobby, tasks: JoinSet::new(), stopped_tx, stopped }
    }

    /// Starts `name` in this process on `streams` lobby streams, with `key`, each playing one
    /// match after another with a bot from `make`.
    pub(crate) fn in_process(
        &mut self,
        name: &str,
        key: &str,
        streams: u32,
        make: AnyBotMaker,
    ) -> anyhow::Result<()> {
        let tls = TlsOptions { ca_file: self.lobby.ca_file.clone(), server_name: None };
        let config = ConnectConfig::lobby(self.lobby.server.clone(), name.to_owned())
            .named(name.to_owned())
            .with_key(BotKey::new(key).context("the issued key")?)
            .with_version(VERSION)
            .with_tls(tls);
        let streams = u64::from(streams.max(1));
        for stream in 0..streams {
            let (config, make) = (config.clone(), Arc::clone(&make));
            let (name, stopped) = (name.to_owned(), self.stopped_tx.clone());
            self.tasks.spawn(async move {
                let rejoin = config.clone();
                let played = play_concurrently(&rejoin, 1, 0, move |n| {
                    let (config, make) = (config.clone(), Arc::clone(&make));
                    let seed = n * streams + stream;
                    async move { play_any(&config, |_| make(seed)).await }
                })
                .await;
                let why = match played {
                    Ok(_) => "its runner ended".to_owned(),
                    Err(error) => error.to_string(),
                };
                let _ = stopped.send(Stopped::InProcess { name, why });
            });
        }
        Ok(())
    }

    /// Starts `program` as `name`, waiting in the lobby with `key` (given in `CARDROOM_KEY`,
    /// never on its command line), and starts it again each time it exits, up to its
    /// `max_restarts` times.
    pub(crate) fn program(&mut self, name: &str, key: &str, program: Program) {
        let (lobby, name, key) = (self.lobby.clone(), name.to_owned(), key.to_owned());
        let stopped = self.stopped_tx.clone();
        self.tasks.spawn(async move {
            let mut exits = 0;
            loop {
                let status = match supervise_once(&lobby, &name, &key, &program).await {
                    Ok(status) => status,
                    Err(error) => format!("{error:#}"),
                };
                exits += 1;
                if exits > program.max_restarts {
                    let _ = stopped.send(Stopped::Program { name, times: exits, status });
                    return;
                }
                warn!(bot = %name, %status, "the bot's program exited: started again");
                tokio::time::sleep(RESTART_AFTER).await;
            }
        });
    }

    /// The first bot that stopped playing, when one does.
    pub(crate) async fn stopped(&mut self) -> Stopped {
        match self.stopped.recv().await {
            Some(stopped) => stopped,
            // The lineup keeps a sender: never closed.
            None => std::future::pending().await,
        }
    }

    /// Stops every bot: the in-process ones are aborted (a bot thinking finishes that
    /// decision first), the programs killed and reaped.
    pub(crate) async fn stop(mut self) {
        self.tasks.abort_all();
        while self.tasks.join_next().await.is_some() {}
    }
}

/// Runs `program` once, to its exit; its status as text.
async fn supervise_once(
    lobby: &Lobby,
    name: &str,
    key: &str,
    program: &Program,
) -> anyhow::Result<String> {
    let (first, args) = program.command.split_first().context("an empty command")?;
    let concurrency = program.concurrency.max(1).to_string();
    let mut command = tokio::process::Command::new(first);
    command.args(args);
    if program.flags {
        command.args(["--server", &lobby.server, "--lobby", name, "--name", name]);
        command.args(["--matches", "0", "--concurrency", &concurrency]);
    }
    command
        .env("CARDROOM_SERVER", &lobby.server)
        .env("CARDROOM_LOBBY", name)
        .env("CARDROOM_BOT_NAME", name)
        .env("CARDROOM_KEY", key)
        .env("CARDROOM_BOT_VERSION", VERSION)
        .env("CARDROOM_MATCHES", "0")
        .env("CARDROOM_CONCURRENCY", &concurrency)
        .envs(program.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        // Killed when its task is aborted: no bot outlives the lineup.
        .kill_on_drop(true);
    if let Some(ca_file) = &lobby.ca_file {
        command.env("CARDROOM_CA_FILE", ca_file);
    }
    match &program.log {
        Some(path) => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("making the log directory {}", dir.display()))?;
            }
            let log = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("opening {}", path.display()))?;
            command.stdout(log.try_clone()?).stderr(log);
        }
        None => {
            command.stdout(Stdio::null()).stderr(Stdio::null());
        }
    }
    let mut child = command.spawn().with_context(|| format!("starting {first}"))?;
    let status = child.wait().await.context("waiting for the bot's program")?;
    Ok(status.to_string())
}
