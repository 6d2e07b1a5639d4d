//! Ladders over the network: [`NetPlayer`] plays each planned match on a cardroom server.
//!
//! A match is created with `CreateMatch` and the planned seed (so duplicate deals hold on the
//! server too); each seat is then played by either
//!
//! - an in-process bot ([`NetBot::InProcess`]) through the SDK's networked runner
//!   ([`play_any`]), over real gRPC, with its think times measured and the server's refusals
//!   (`ActError`s) counted in its health; or
//! - an external program ([`NetBot::External`]) that the arena starts for the seat, passing the
//!   server's address and the seat token as `--server`/`--token` flags and as the
//!   `CARDROOM_SERVER`/`CARDROOM_TOKEN` environment variables. Its standard output and error
//!   are appended to its log file. If it dies before the match is over it is started again
//!   (it reconnects with the same token), up to `max_restarts` times; the crash is counted in
//!   its health either way, and its timeouts are the strikes the server counted; or
//! - a remote bot ([`NetBot::Remote`]) that runs elsewhere and waits in the server's lobby under
//!   its name: the match is created with that name in `lobby_bots`, so the server seats it
//!   directly. A remote bot between two matches is briefly out of the lobby, so creating a
//!   match that needs it is retried for up to `remote_wait`.
//!
//! The server's view of every seat completes the health of external and remote bots: their
//! refused actions and their think times (from `Turn` sent to `Act` received) come from
//! `GetMatch`; a remote bot that forfeits counts as crashed.
//!
//! When every seat is done the outcome is read from the server (`GetMatch`) and the record
//! with `GetRecord`.

use std::fs::OpenOptions;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use cardroom_sdk::{
    ActErrorCode, AnyBot, Bot, BotMapper, ConnectConfig, CreatedMatch, MatchSpec, Organizer,
    PlayableGame, Played, RunError, TlsOptions, play_any,
};
use tokio::process::{Child, Command};
use tokio::sync::watch;
use tracing::{debug, info, warn};

use crate::ladder::{ArenaError, MatchPlayer, Timed};
use crate::store::PlannedMatch;
use cardroom_rank::duplicate::derive_seed;
use cardroom_rank::stats::{MatchOutcome, SeatHealth, ThinkTimes};

/// Makes an in-process bot from a seed (derived from the match's seed and the seat).
pub type AnyBotMaker = Arc<dyn Fn(u64) -> AnyBot + Send + Sync>;

/// How one bot of a networked ladder plays its seats.
#[derive(Clone)]
pub enum NetBot {
    /// In this process, through the SDK's networked runner.
    InProcess(AnyBotMaker),
    /// A program started for every seat it plays.
    External(ExternalBot),
    /// A bot already connected to the server, waiting in its lobby under this name.
    Remote(String),
}

/// An external bot: a command line the arena runs once per seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalBot {
    /// The program.
    pub program: PathBuf,
    /// Its arguments, before the `--server`/`--token` flags.
    pub args: Vec<String>,
    /// Extra environment variables.
    pub env: Vec<(String, String)>,
    /// Whether to append `--server ADDR --token TOKEN` (the environment variables are always
    /// set).
    pub flags: bool,
    /// Where its standard output and error are appended.
    pub log: PathBuf,
}

impl ExternalBot {
    /// Checks that the program can be started, before any match waits for it: a path (with a
    /// `/`) must name an executable file, a bare name must be found on `PATH` (the bot's own
    /// `env` may set `PATH`). `name` is the bot's, for the message.
    pub fn check_program(&self, name: &str) -> Result<PathBuf, ArenaError> {
        let program = &self.program;
        let cannot = |why: &str| {
            ArenaError::Config(format!(
                "bot \"{name}\": cannot start \"{}\": {why}",
                program.display()
            ))
        };
        if program.components().count() > 1 {
            return if is_executable(program) {
                Ok(program.clone())
            } else if program.is_file() {
                Err(cannot("the file is not executable"))
            } else {
                Err(cannot("no such file"))
            };
        }
        let path = self
            .env
            .iter()
            .rev()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| std::ffi::OsString::from(v))
            .or_else(|| std::env::var_os("PATH"))
            .unwrap_or_default();
        std::env::split_paths(&path)
            .map(|dir| dir.join(program))
            .find(|candidate| is_executable(candidate))
            .ok_or_else(|| cannot("no such program on PATH"))
    }
}

/// Whether `path` is a file this process may execute.
fn is_executable(path: &std::path::Path) -> bool {
    let Ok(metadata) = std::fs::metadata(path) else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        metadata.is_file() && metadata.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        metadata.is_file()
    }
}

/// Plays planned matches on a cardroom server (see the module's documentation).
pub struct NetPlayer {
    /// The runtime the network work runs on; [`MatchPlayer::play_match`] blocks on it, so it
    /// must be called from outside the runtime (the ladder's worker threads are).
    pub runtime: tokio::runtime::Handle,
    /// The server's address, `host:port` or a URL (`https://…` for a server that speaks TLS).
    pub server: String,
    /// How an `https://` server's certificate is checked; its CA file is passed on to external
    /// bots as `CARDROOM_CA_FILE`.
    pub tls: TlsOptions,
    /// The matches to create; the seed is each planned match's.
    pub spec: MatchSpec,
    /// The bots, by ladder index, with their names.
    pub bots: Vec<(String, NetBot)>,
    /// How often an external bot that dies mid-match is started again.
    pub max_restarts: u32,
    /// How long an external bot may keep running after its match is over before it is killed.
    pub exit_grace: Duration,
    /// The server's admin token, for `CreateMatch`, if it has one.
    pub admin_token: Option<String>,
    /// How long a match waits for its remote bots to be in the lobby.
    pub remote_wait: Duration,
}

impl MatchPlayer for NetPlayer {
    fn play_match(
        &self,
        planned: &PlannedMatch,
    ) -> Result<(MatchOutcome, Option<String>), ArenaError> {
        self.runtime.block_on(self.play(planned))
    }
}

impl NetPlayer {
    /// Plays one match on the server.
    pub async fn play(
        &self,
        planned: &PlannedMatch,
    ) -> Result<(MatchOutcome, Option<String>), ArenaError> {
        let err = |message: String| ArenaError::Match { seed: planned.seed, message };
        let net = |e: RunError| err(e.to_string());
        let mut organizer = Organizer::with_tls(&self.server, &self.tls).map_err(net)?;
        if let Some(token) = &self.admin_token {
            organizer = organizer.with_admin_token(token).map_err(net)?;
        }
        let mut lobby_bots = Vec::with_capacity(planned.seats.len());
        for &bot in &planned.seats {
            let (_, kind) = self.bots.get(bot).ok_or_else(|| err(format!("no bot {bot}")))?;
            lobby_bots.push(match kind {
                NetBot::Remote(lobby) => lobby.clone(),
                NetBot::InProcess(_) | NetBot::External(_) => String::new(),
            });
        }
        let spec = MatchSpec { seed: Some(planned.seed), lobby_bots, ..self.spec.clone() };
        let created = self.create(&mut organizer, &spec).await.map_err(net)?;
        if created.tokens.len() != planned.seats.len() {
            return Err(err(format!("{} seat tokens", created.tokens.len())));
        }
        let match_id = created.match_id.clone();
        let (over_tx, over_rx) = watch::channel(false);
        let watcher = {
            let mut organizer = organizer.clone();
            let match_id = match_id.clone();
            tokio::spawn(async move {
                let result = organizer.wait_end(&match_id).await;
                let _ = over_tx.send(true);
                result
            })
        };
        let mut seats = Vec::with_capacity(planned.seats.len());
        for (seat, (&bot, token)) in planned.seats.iter().zip(&created.tokens).enumerate() {
            let (name, kind) = self.bots.get(bot).ok_or_else(|| err(format!("no bot {bot}")))?;
            let config = ConnectConfig::with_token(self.server.clone(), token.clone())
                .named(name.clone())
                .with_tls(self.tls.clone());
            let task = match kind {
                NetBot::InProcess(make) => {
                    let think = Arc::new(Mutex::new(ThinkTimes::default()));
                    let bot = timed(make(derive_seed(planned.seed, 1000 + seat as u64)), &think);
                    tokio::spawn(async move {
                        let played = play_any(&config, move |_| bot).await;
                        in_process_health(played, &think)
                    })
                }
                NetBot::External(external) => {
                    let seat = ExternalSeat {
                        bot: external.clone(),
                        name: name.clone(),
                        server: self.server.clone(),
                        tls: self.tls.clone(),
                        token: token.clone(),
                        organizer: organizer.clone(),
                        match_id: match_id.clone(),
                        max_restarts: self.max_restarts,
                        exit_grace: self.exit_grace,
                    };
                    tokio::spawn(seat.run(over_rx.clone()))
                }
                // The server seated it; its health comes from the server below.
                NetBot::Remote(_) => tokio::spawn(async { SeatHealth::default() }),
            };
            seats.push(task);
        }
        let mut health = Vec::with_capacity(seats.len());
        for task in seats {
            health.push(task.await.map_err(|e| err(e.to_string()))?);
        }
        // Every seat is done; a seat whose bot gave up is played out by the server's clock.
        match watcher.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => warn!(cause = %e, %match_id, "watching the match failed"),
            Err(e) => warn!(cause = %e, %match_id, "the match watcher failed"),
        }
        let status = organizer.status(&match_id).await.map_err(net)?;
        if !status.over || status.aborted {
            return Err(err(format!("match {match_id} did not finish")));
        }
        let mut places: Vec<(usize, u8)> = planned.seats.iter().map(|&b| (b, 0)).collect();
        for standing in &status.standings {
            if let Some(p) = places.get_mut(standing.seat.index()) {
                p.1 = standing.place;
            }
        }
        for (seat, h) in health.iter_mut().enumerate() {
            let Some(server) = status.seats.get(seat) else { continue };
            h.timeouts = h.timeouts.max(server.strikes);
            let kind = planned.seats.get(seat).and_then(|&bot| self.bots.get(bot)).map(|b| &b.1);
            if matches!(kind, Some(NetBot::External(_) | NetBot::Remote(_))) {
                // In-process bots are timed in process (their own thinking); the others as
                // the server saw them.
                h.illegal = h.illegal.max(server.refused);
                for &micros in &server.think_us {
                    h.think.add(u64::from(micros));
                }
            }
            if matches!(kind, Some(NetBot::Remote(_))) && server.forfeited {
                h.crashed = true;
            }
        }
        let record = match organizer.record(&match_id).await {
            Ok(record) => Some(record),
            Err(e) => {
                warn!(cause = %e, %match_id, "no record");
                None
            }
        };
        let decisions = record.as_deref().map_or(0, count_actions);
        Ok((MatchOutcome { places, health, decisions }, record))
    }
}

impl NetPlayer {
    /// Creates the match; while a remote bot it needs is not in the lobby yet (it may be
    /// between two matches), tries again with a growing pause, for up to `remote_wait`.
    async fn create(
        &self,
        organizer: &mut Organizer,
        spec: &MatchSpec,
    ) -> Result<CreatedMatch, RunError> {
        let give_up = tokio::time::Instant::now() + self.remote_wait;
        let mut pause = Duration::from_millis(20);
        loop {
            match organizer.create_match(spec).await {
                Err(error)
                    if error.not_ready() && tokio::time::Instant::now() + pause < give_up =>
                {
                    debug!(cause = %error, "waiting for remote bots");
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(1));
                }
                result => return result,
            }
        }
    }
}

/// The bot with its think times measured into `think`.
fn timed(bot: AnyBot, think: &Arc<Mutex<ThinkTimes>>) -> AnyBot {
    struct Time(Arc<Mutex<ThinkTimes>>);
    impl BotMapper for Time {
        fn map<G: PlayableGame>(self, inner: Box<dyn Bot<G>>) -> Box<dyn Bot<G>> {
            Box::new(Timed { inner, think: self.0 })
        }
    }
    bot.map(Time(Arc::clone(think)))
}

/// An in-process seat's health from what the runner saw.
fn in_process_health(played: Result<Played, RunError>, think: &Mutex<ThinkTimes>) -> SeatHealth {
    let think = think.lock().unwrap_or_else(PoisonError::into_inner).clone();
    match played {
        Ok(played) => {
            let count = |codes: &[ActErrorCode]| {
                played.errors.iter().filter(|e| codes.contains(&e.code)).count() as u32
            };
            SeatHealth {
                illegal: count(&[ActErrorCode::IllegalAction, ActErrorCode::Malformed]),
                timeouts: count(&[ActErrorCode::TimedOut]),
                crashed: false,
                think,
            }
        }
        Err(e) => {
            warn!(cause = %e, "in-process bot failed");
            SeatHealth { crashed: true, think, ..SeatHealth::default() }
        }
    }
}

/// Actions in a record's JSON (`actions` array), 0 if it has none.
fn count_actions(record: &str) -> u64 {
    serde_json::from_str::<serde_json::Value>(record)
        .ok()
        .and_then(|v| v.get("actions").and_then(|a| a.as_array()).map(|a| a.len() as u64))
        .unwrap_or(0)
}

/// One seat played by an external program.
struct ExternalSeat {
    bot: ExternalBot,
    name: String,
    server: String,
    tls: TlsOptions,
    token: String,
    organizer: Organizer,
    match_id: String,
    max_restarts: u32,
    exit_grace: Duration,
}

impl ExternalSeat {
    /// Starts the program, restarts it if it dies mid-match, and returns the seat's health.
    async fn run(mut self, mut over: watch::Receiver<bool>) -> SeatHealth {
        let mut crashes = 0u32;
        loop {
            let mut child = match self.spawn() {
                Ok(child) => child,
                Err(e) => {
                    warn!(bot = %self.name, program = %self.bot.program.display(), cause = %e, "cannot start the bot");
                    crashes += 1;
                    break;
                }
            };
            let ended = async {
                if over.wait_for(|&o| o).await.is_err() {
                    std::future::pending::<()>().await;
                }
            };
            let status = tokio::select! {
                status = child.wait() => status,
                () = ended => match tokio::time::timeout(self.exit_grace, child.wait()).await {
                    Ok(status) => status,
                    Err(_) => {
                        warn!(bot = %self.name, "still running after its match: killed");
                        let _ = child.kill().await;
                        break;
                    }
                },
            };
            if status.as_ref().is_ok_and(|s| s.success()) {
                break;
            }
            let finished = self.organizer.status(&self.match_id).await.is_ok_and(|s| s.over);
            if finished {
                break;
            }
            crashes += 1;
            let status = status.map_or_else(|e| e.to_string(), |s| s.to_string());
            warn!(bot = %self.name, %status, crashes, log = %self.bot.log.display(), "external bot died mid-match");
            if crashes > self.max_restarts {
                break;
            }
            info!(bot = %self.name, "restarting it");
        }
        SeatHealth { crashed: crashes > 0, ..SeatHealth::default() }
    }

    fn spawn(&self) -> std::io::Result<Child> {
        if let Some(dir) = self.bot.log.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let log = OpenOptions::new().create(true).append(true).open(&self.bot.log)?;
        let mut command = Command::new(&self.bot.program);
        command.args(&self.bot.args);
        if self.bot.flags {
            command.arg("--server").arg(&self.server).arg("--token").arg(&self.token);
        }
        command
            .env("CARDROOM_SERVER", &self.server)
            .env("CARDROOM_TOKEN", &self.token)
            .env("CARDROOM_BOT_NAME", &self.name);
        if let Some(ca_file) = &self.tls.ca_file {
            command.env("CARDROOM_CA_FILE", ca_file);
        }
        if let Some(name) = &self.tls.server_name {
            command.env("CARDROOM_TLS_SERVER_NAME", name);
        }
        command
            .envs(self.bot.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::from(log.try_clone()?))
            .stderr(Stdio::from(log))
            .kill_on_drop(true);
        command.spawn()
    }
}
