//! The runner: the submitted bots a node hosts, each in a sandbox (`cardroom serve
//! --host-bots`, issue 39), or a runner on another machine hosts for a server (`cardroom
//! runner --server URL`).
//!
//! Both are one runner over a `Venue`. A node's reads its store and tells its `Host`; its bots
//! reach the server on the server's Unix socket. A runner elsewhere reads and tells through the
//! server's `Runners` rpcs with the admin token; its bots reach the server through its own
//! socket, whose relay passes their streams on (`cardroom_server::RunnerRelay`) and keeps their
//! fair clock there. The rest of this page is the same for both.
//!
//! Every second the runner reads the store's bots. An active bot with a submission runs its
//! newest one: the archive unpacked once under the runner's directory, its run command started
//! in a [`Sandbox`] with the server's Unix socket bound in and the stock runner's settings in
//! its environment (`CARDROOM_SERVER`, `CARDROOM_LOBBY`, `CARDROOM_MATCHES=0`). It has no key:
//! the server knows it by its cgroup (`cardroom_server::Host::file_sandboxed`), and freezes it
//! whenever its seat is not to act. It waits in the lobby under its name, and the node's
//! hosted ladders seat it like any bot there.
//!
//! - A newer submission replaces the running one once the bot plays no match here: the new
//!   version plays from its next set on.
//! - A revoked bot, or one whose submissions are gone, is stopped.
//! - A bot whose process ends (a crash, the memory limit, a signal) forfeits the seats it held,
//!   the failure saying why, and starts again after a pause that doubles up to a minute.
//!   The ladders' health rule pauses a bot that keeps failing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use cardroom_proto::pb;
pub use cardroom_sandbox::Limits;
use cardroom_sandbox::{
    BotSpec, Bubblewrap, Freezer, OutputTaker, RunningBot, Runtime, SERVER_URL_IN_SANDBOX, Sandbox,
};
use cardroom_server::{Filed, Host, HostedControl, RunnerRelay, SandboxedBot};
use cardroom_store::Store;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tracing::{debug, info, warn};

/// How often the runner reads the store's bots and submissions.
pub const RUNNER_POLL: Duration = Duration::from_secs(1);

/// The first pause before a bot whose process ended starts again; it doubles up to
/// [`MAX_RESTART_PAUSE`], and starts over once a run lasted that long.
const FIRST_RESTART_PAUSE: Duration = Duration::from_secs(1);

/// The longest pause before a bot starts again.
const MAX_RESTART_PAUSE: Duration = Duration::from_secs(60);

/// What a runner needs besides its store and server.
#[derive(Clone, Debug)]
pub struct RunnerConfig {
    /// The server's Unix socket on the host, bound into every sandbox.
    pub socket: PathBuf,
    /// Where submissions are unpacked, one directory a bot and version.
    pub work: PathBuf,
    /// The interpreter (a venv's `bin/python` with the cardroom SDK) that `python3` names
    /// in a run command; `None`: Debian's.
    pub python: Option<PathBuf>,
    /// Every hosted bot's limits.
    pub limits: Limits,
    /// How long a bot may wait unseated before it is stopped and put on call (the lobby still
    /// lists it; a match that wants it starts it again); `None`: never.
    pub idle: Option<Duration>,
}

/// The runner at work: [`HostedBots::stop`] stops it and every bot it runs.
#[derive(Debug)]
pub struct HostedBots {
    task: JoinHandle<Result<(), RunnerError>>,
    stop: CancellationToken,
}

impl HostedBots {
    /// Starts the runner of `store`'s submitted bots on the server of `host`, in bubblewrap
    /// sandboxes; an error if bubblewrap or the cgroups are not there.
    pub async fn start(
        store: Arc<dyn Store>,
        host: Host,
        config: RunnerConfig,
    ) -> Result<HostedBots, RunnerError> {
        let venue = Arc::new(Node { store, host });
        HostedBots::start_at(venue, config).await
    }

    /// Starts a runner on another machine than the server (`cardroom runner`): its bots reach
    /// the server through `relay`, which the runner serves on `config.socket` (made here), and
    /// the submissions come from the server's `Runners` rpcs.
    pub async fn start_remote(
        relay: RunnerRelay,
        config: RunnerConfig,
    ) -> Result<HostedBots, RunnerError> {
        let sandbox = Bubblewrap::new().await.map_err(RunnerError::Sandbox)?;
        let socket = cardroom_server::listen_unix(&config.socket)
            .map_err(|source| RunnerError::Work { path: config.socket.clone(), source })?;
        let stop = CancellationToken::new();
        let venue = Arc::new(Remote { relay: relay.clone() });
        let bots = run(venue, Arc::new(sandbox), config, stop.clone());
        let until = stop.clone().cancelled_owned();
        let serving = async move { relay.serve(socket, until).await };
        let task = tokio::spawn(async move {
            // Stopping kills the bots, whose streams then end: the socket stops once they have.
            let (ran, served) = tokio::join!(bots, serving);
            if let Err(error) = served {
                warn!(cause = %error, "the runner's socket stopped serving");
            }
            ran
        });
        Ok(HostedBots { task, stop })
    }

    async fn start_at(
        venue: Arc<dyn Venue>,
        config: RunnerConfig,
    ) -> Result<HostedBots, RunnerError> {
        let sandbox = Bubblewrap::new().await.map_err(RunnerError::Sandbox)?;
        let stop = CancellationToken::new();
        let task = tokio::spawn(run(venue, Arc::new(sandbox), config, stop.clone()));
        Ok(HostedBots { task, stop })
    }

    /// Stops the runner and every bot it runs (a bot in a match forfeits it), and waits for
    /// them to end.
    pub async fn stop(self) -> Result<(), RunnerError> {
        self.stop.cancel();
        self.task.await.map_err(|error| RunnerError::Task(error.to_string()))?
    }
}

impl RunnerConfig {
    /// How the bots are hosted, in a sentence for the ladder pages: the limits every hosted
    /// bot shares, and the freezer.
    pub fn describe(&self) -> String {
        let Limits { memory, pids, cpus, home, .. } = self.limits;
        let idle = match self.idle {
            Some(idle) => format!(
                " One that waits {} s unseated is stopped, and started again when a match wants \
                 it.",
                idle.as_secs_f64()
            ),
            None => String::new(),
        };
        format!(
            "Submitted bots are hosted here, each in a sandbox with no network: {} MiB of \
             memory, {cpus} CPU cores, {pids} processes and a {} MiB home, the same for every \
             hosted bot; a hosted bot is frozen while its seat is not to act.{idle}",
            memory >> 20,
            home >> 20
        )
    }
}

/// Runs the hosted bots `venue` wants until `stop` is cancelled, then stops them all and
/// returns.
async fn run(
    venue: Arc<dyn Venue>,
    sandbox: Arc<dyn Sandbox>,
    config: RunnerConfig,
    stop: CancellationToken,
) -> Result<(), RunnerError> {
    let runtime = match &config.python {
        Some(python) => Runtime::python(python).map_err(RunnerError::Runtime)?,
        None => Runtime::native(),
    };
    std::fs::create_dir_all(&config.work)
        .map_err(|source| RunnerError::Work { path: config.work.clone(), source })?;
    let runner = Runner { venue, sandbox, config, runtime };
    let mut running: HashMap<String, Hosted> = HashMap::new();
    let mut every = tokio::time::interval(RUNNER_POLL);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = every.tick() => {}
            () = stop.cancelled() => break,
        }
        match runner.venue.wanted().await {
            Ok(wanted) => runner.reconcile(&mut running, wanted).await,
            Err(error) => warn!(%error, "the runner could not read the bots"),
        }
    }
    for (_, hosted) in running.drain() {
        hosted.stop().await;
    }
    Ok(())
}

/// Why the runner could not start.
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    /// The sandbox cannot run here.
    #[error("the hosted bots' sandbox: {0}")]
    Sandbox(cardroom_sandbox::SandboxError),
    /// The runner's task failed.
    #[error("the hosted bots' runner: {0}")]
    Task(String),
    /// The Python runtime could not be read.
    #[error("the hosted bots' Python: {0}")]
    Runtime(cardroom_sandbox::SandboxError),
    /// The working directory could not be made.
    #[error("the runner's directory {}: {source}", path.display())]
    Work {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

struct Runner {
    venue: Arc<dyn Venue>,
    sandbox: Arc<dyn Sandbox>,
    config: RunnerConfig,
    runtime: Runtime,
}

/// A hosted bot the runner looks after: the version it runs, and how to stop it.
struct Hosted {
    version: String,
    /// Set once a newer submission waits to replace it (`SandboxedBot::retiring`).
    retiring: Arc<AtomicBool>,
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl Hosted {
    async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.task.await;
    }
}

impl Runner {
    /// Starts what is wanted and not running, stops what runs and is not wanted, and replaces
    /// an older version once its bot plays no match here.
    async fn reconcile(
        &self,
        running: &mut HashMap<String, Hosted>,
        wanted: HashMap<String, Wanted>,
    ) {
        let gone: Vec<String> =
            running.keys().filter(|name| !wanted.contains_key(*name)).cloned().collect();
        for name in gone {
            if let Some(hosted) = running.remove(&name) {
                info!(bot = %name, "hosted bot stopped: revoked, or its submissions gone");
                hosted.stop().await;
            }
        }
        for (name, submission) in wanted {
            if let Some(hosted) = running.get(&name) {
                if hosted.version == submission.sha256 {
                    continue;
                }
                if !hosted.retiring.swap(true, Ordering::SeqCst) {
                    // Seated in no new match: replaced once its matches here are over.
                    let why = "the hosted bot is being replaced by its newer submission";
                    self.venue.end_waiting(&name, why);
                }
                if self.venue.is_playing(&name) {
                    continue;
                }
                if let Some(old) = running.remove(&name) {
                    info!(bot = %name, from = %old.version, to = %submission.sha256,
                        "hosted bot replaced by its newer submission");
                    old.stop().await;
                }
            }
            match self.prepare(&name, &submission).await {
                Ok(spec) => {
                    let hosted = self.start(name.clone(), submission.sha256.clone(), spec);
                    running.insert(name, hosted);
                }
                Err(error) => warn!(bot = %name, cause = %error, "hosted bot not started"),
            }
        }
    }

    /// The bot's code unpacked (once a version) and what to run.
    async fn prepare(&self, name: &str, submission: &Wanted) -> Result<BotSpec, String> {
        let code = self.config.work.join(dir_name(name)).join(&submission.sha256);
        if !code.is_dir() {
            let (newest, archive) = self.venue.archive(name).await?;
            if newest != submission.sha256 {
                return Err("a newer submission came meanwhile".into());
            }
            unpack(&archive, &code).map_err(|error| format!("unpacking it: {error}"))?;
        }
        let env = [
            ("CARDROOM_SERVER", SERVER_URL_IN_SANDBOX),
            ("CARDROOM_LOBBY", name),
            ("CARDROOM_BOT_NAME", name),
            ("CARDROOM_MATCHES", "0"),
            ("CARDROOM_CONCURRENCY", "1"),
            ("PYTHONUNBUFFERED", "1"),
        ];
        Ok(BotSpec {
            code,
            command: submission.run.clone(),
            socket: self.config.socket.clone(),
            env: env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect(),
            runtime: self.runtime.clone(),
            limits: self.config.limits.clone(),
        })
    }

    /// Starts the bot's task: it runs the bot, files it with the server, and starts it again
    /// whenever it ends, until told to stop.
    fn start(&self, name: String, version: String, spec: BotSpec) -> Hosted {
        let (stop, stopped) = oneshot::channel();
        let retiring = Arc::new(AtomicBool::new(false));
        let retiring_now = Arc::clone(&retiring);
        let idle = self.config.idle;
        let bot = Bot { name, version: version.clone(), retiring: retiring_now, spec, idle };
        let venue = Arc::clone(&self.venue);
        let sandbox = Arc::clone(&self.sandbox);
        let task = tokio::spawn(keep_running(venue, sandbox, bot, stopped));
        Hosted { version, retiring, stop, task }
    }
}

/// One hosted bot: who it is to the server, and what to run.
struct Bot {
    name: String,
    version: String,
    retiring: Arc<AtomicBool>,
    spec: BotSpec,
    idle: Option<Duration>,
}

/// Runs one hosted bot again and again until `stopped`; with an idle limit, stops it while it
/// waits unseated that long, on call until a match wants it.
async fn keep_running(
    venue: Arc<dyn Venue>,
    sandbox: Arc<dyn Sandbox>,
    bot: Bot,
    mut stopped: oneshot::Receiver<()>,
) {
    let Bot { name, version, retiring, spec, idle } = bot;
    let mut pause = FIRST_RESTART_PAUSE;
    // On call, its process stopped: what wakes it.
    let mut asleep: Option<Box<dyn Called>> = None;
    // Woken, and kept on call until it has joined again (a crash before then keeps it listed
    // while it starts again).
    let mut _woken: Option<Box<dyn Called>> = None;
    loop {
        if let Some(mut call) = asleep.take() {
            tokio::select! {
                () = call.woken() => info!(bot = %name, "hosted bot woken: a match wants it"),
                _ = &mut stopped => return,
            }
            _woken = Some(call);
        }
        let started = tokio::time::Instant::now();
        match sandbox.spawn(&spec) {
            Ok(mut bot) => {
                info!(bot = %name, %version, cgroup = bot.cgroup(), "hosted bot started");
                let sandboxed = SandboxedBot {
                    name: name.clone(),
                    version: version.clone(),
                    control: Arc::new(Control(bot.freezer(), bot.output_taker())),
                    retiring: Arc::clone(&retiring),
                };
                let filed = venue.file(bot.cgroup(), sandboxed);
                let freezer = bot.freezer();
                let end = tokio::select! {
                    end = bot.wait() => Some(end),
                    call = on_call_when_idle(venue.as_ref(), &name, idle, &freezer) => {
                        asleep = Some(call);
                        None
                    }
                    _ = &mut stopped => {
                        drop(filed);
                        finish(&mut bot).await;
                        return;
                    }
                };
                drop(filed);
                let Some(end) = end else {
                    // On call now: stopped until a match wants it. What it wrote while it
                    // waited belongs to no match.
                    finish(&mut bot).await;
                    let _ = bot.take_output();
                    info!(bot = %name, %version, "hosted bot stopped while idle: on call");
                    pause = FIRST_RESTART_PAUSE;
                    continue;
                };
                let output = bot.take_output();
                let why = match &end {
                    Ok(end) => format!("its process {end}"),
                    Err(error) => format!("its process could not be watched: {error}"),
                };
                warn!(bot = %name, %version, %why, stderr = %last_bytes(&output.stderr, 2048),
                    "hosted bot ended");
                // Whatever it held here forfeits now, saying why, rather than after the
                // reconnect grace.
                let reason = format!("the hosted bot {name:?} ended: {why}");
                venue.end_bot(&name, &reason, output.to_string()).await;
            }
            Err(error) => warn!(bot = %name, cause = %error, "hosted bot could not start"),
        }
        if started.elapsed() >= MAX_RESTART_PAUSE {
            pause = FIRST_RESTART_PAUSE;
        }
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            _ = &mut stopped => return,
        }
        pause = (pause * 2).min(MAX_RESTART_PAUSE);
    }
}

/// Resolves once the bot `name` has waited unseated for `idle` and is on call (never without
/// an idle limit). It is frozen first, so that it cannot join a match as it goes on call, and
/// thawed again if it is seated meanwhile.
async fn on_call_when_idle(
    venue: &dyn Venue,
    name: &str,
    idle: Option<Duration>,
    freezer: &Freezer,
) -> Box<dyn Called> {
    let Some(idle) = idle else { return std::future::pending().await };
    let look = (idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(5));
    let mut since = tokio::time::Instant::now();
    loop {
        tokio::time::sleep(look).await;
        if venue.is_playing(name) {
            since = tokio::time::Instant::now();
            continue;
        }
        if since.elapsed() < idle {
            continue;
        }
        let _ = freezer.freeze();
        if let Some(call) = venue.go_on_call(name).await {
            return call;
        }
        // Seated as it was looked at: it plays on.
        let _ = freezer.thaw();
        since = tokio::time::Instant::now();
    }
}

/// The last `n` bytes of `bytes` as text, for a log line.
fn last_bytes(bytes: &[u8], n: usize) -> String {
    String::from_utf8_lossy(&bytes[bytes.len().saturating_sub(n)..]).into_owned()
}

/// Kills a bot no longer wanted and waits for its end.
async fn finish(bot: &mut RunningBot) {
    bot.kill();
    let _ = bot.wait().await;
}

/// The sandbox's freezer and the bot's output, as the server's match tasks call them.
struct Control(Freezer, OutputTaker);

impl HostedControl for Control {
    fn take_output(&self) -> String {
        self.1.take().to_string()
    }

    fn freeze(&self) {
        if let Err(error) = self.0.freeze() {
            tracing::debug!(cause = %error, "freezing a hosted bot");
        }
    }

    fn thaw(&self) {
        if let Err(error) = self.0.thaw() {
            tracing::debug!(cause = %error, "thawing a hosted bot");
        }
    }
}

/// A bot to run: its newest submission's version and run command.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Wanted {
    sha256: String,
    run: Vec<String>,
}

/// Where a runner's bots play, what it reads there and what it tells: this node's own server
/// and store ([`Node`], `serve --host-bots`), or a server elsewhere ([`Remote`], `cardroom
/// runner --server URL`).
#[async_trait::async_trait]
trait Venue: Send + Sync {
    /// Every active bot's newest submission, by name.
    async fn wanted(&self) -> Result<HashMap<String, Wanted>, String>;
    /// `bot`'s newest submission's version and archive.
    async fn archive(&self, bot: &str) -> Result<(String, Vec<u8>), String>;
    /// Files a bot the runner started, until the filing is dropped.
    fn file(&self, cgroup: &str, bot: SandboxedBot) -> Filed;
    /// Ends `bot`'s streams waiting to be seated, saying why.
    fn end_waiting(&self, bot: &str, why: &str);
    /// Whether `bot` holds a seat.
    fn is_playing(&self, bot: &str) -> bool;
    /// `bot`'s process ended, with `reason`: what it held ends, its seats forfeiting with
    /// `output`.
    async fn end_bot(&self, bot: &str, reason: &str, output: String);
    /// Puts `bot` on call, unless it holds a seat: listed in the lobby while the runner stops
    /// it, for as long as the returned call lives (or until it joins again once woken).
    async fn go_on_call(&self, bot: &str) -> Option<Box<dyn Called>>;
}

/// A bot on call at its venue ([`Venue::go_on_call`]).
#[async_trait::async_trait]
trait Called: Send {
    /// Resolves once a match wants the bot.
    async fn woken(&mut self);
}

#[async_trait::async_trait]
impl Called for cardroom_server::OnCall {
    async fn woken(&mut self) {
        cardroom_server::OnCall::woken(self).await;
    }
}

/// A bot on call at a server elsewhere: the `OnCall` call, open while it lasts.
struct RemoteCall(tonic::Streaming<pb::OnCallUpdate>);

#[async_trait::async_trait]
impl Called for RemoteCall {
    async fn woken(&mut self) {
        // Woken, or the call is gone (the server restarted): either way the bot starts again
        // and joins.
        while let Ok(Some(update)) = self.0.message().await {
            if update.woken {
                return;
            }
        }
    }
}

/// The runner of a node: its server's `Host`, and its store.
struct Node {
    store: Arc<dyn Store>,
    host: Host,
}

#[async_trait::async_trait]
impl Venue for Node {
    async fn wanted(&self) -> Result<HashMap<String, Wanted>, String> {
        let newest = self.store.newest_submissions().await.map_err(|error| error.to_string())?;
        let wanted =
            newest.into_iter().map(|(name, s)| (name, Wanted { sha256: s.sha256, run: s.run }));
        Ok(wanted.collect())
    }

    async fn archive(&self, bot: &str) -> Result<(String, Vec<u8>), String> {
        let credential = self.store.bot_credential(bot).await.map_err(|error| error.to_string())?;
        let id = credential.ok_or("the bot is gone from the store")?.account.id;
        let newest = self.store.newest_submission(id).await.map_err(|error| error.to_string())?;
        let (newest, archive) = newest.ok_or("its submission is gone from the store")?;
        Ok((newest.sha256, archive))
    }

    fn file(&self, cgroup: &str, bot: SandboxedBot) -> Filed {
        self.host.file_sandboxed(cgroup, bot)
    }

    fn end_waiting(&self, bot: &str, why: &str) {
        self.host.end_waiting(bot, why);
    }

    fn is_playing(&self, bot: &str) -> bool {
        self.host.is_playing(bot)
    }

    async fn end_bot(&self, bot: &str, reason: &str, output: String) {
        self.host.end_bot(bot, reason, &output);
    }

    async fn go_on_call(&self, bot: &str) -> Option<Box<dyn Called>> {
        Some(Box::new(self.host.go_on_call(bot)?))
    }
}

/// A runner on another machine: the server's `Runners` rpcs, and the relay its bots play
/// through.
struct Remote {
    relay: RunnerRelay,
}

/// A refusal of the server's, in a sentence.
fn refused(status: tonic::Status) -> String {
    format!("the server refused: {} ({:?})", status.message(), status.code())
}

#[async_trait::async_trait]
impl Venue for Remote {
    async fn wanted(&self) -> Result<HashMap<String, Wanted>, String> {
        let request = self.relay.authorized(pb::ListHostedBotsRequest {});
        let listed = self.relay.runners().list_hosted_bots(request).await.map_err(refused)?;
        let bots = listed.into_inner().bots;
        Ok(bots.into_iter().map(|s| (s.bot, Wanted { sha256: s.sha256, run: s.run })).collect())
    }

    async fn archive(&self, bot: &str) -> Result<(String, Vec<u8>), String> {
        let request = self.relay.authorized(pb::FetchSubmissionRequest { bot: bot.to_owned() });
        let mut chunks =
            self.relay.runners().fetch_submission(request).await.map_err(refused)?.into_inner();
        let (mut version, mut archive) = (None, Vec::new());
        while let Some(chunk) = chunks.message().await.map_err(refused)? {
            if let Some(submission) = chunk.submission {
                version = Some(submission.sha256);
            }
            archive.extend_from_slice(&chunk.archive);
        }
        Ok((version.ok_or("the server named no version")?, archive))
    }

    fn file(&self, cgroup: &str, bot: SandboxedBot) -> Filed {
        self.relay.file(cgroup, bot)
    }

    fn end_waiting(&self, bot: &str, why: &str) {
        self.relay.end_waiting(bot, why);
    }

    fn is_playing(&self, bot: &str) -> bool {
        self.relay.is_playing(bot)
    }

    async fn end_bot(&self, bot: &str, reason: &str, output: String) {
        if let Err(status) = self.relay.end_bot(bot, reason, output).await {
            warn!(%bot, cause = %status, "the server was not told of a hosted bot's end");
        }
    }

    async fn go_on_call(&self, bot: &str) -> Option<Box<dyn Called>> {
        let request = self.relay.authorized(pb::OnCallRequest { bot: bot.to_owned() });
        let mut call = match self.relay.runners().on_call(request).await {
            Ok(call) => call.into_inner(),
            Err(status) => {
                debug!(%bot, cause = %status, "a hosted bot not put on call");
                return None;
            }
        };
        // The first update says it is on call.
        match call.message().await {
            Ok(Some(update)) if !update.woken => Some(Box::new(RemoteCall(call))),
            _ => None,
        }
    }
}

/// A bot's directory under the runner's: its name, which is printable text without a slash
/// once `/` and a leading `.` are replaced.
fn dir_name(name: &str) -> String {
    let name = name.replace('/', "_");
    match name.strip_prefix('.') {
        Some(rest) => format!("_{rest}"),
        None => name,
    }
}

/// Unpacks `archive` at `code` through a directory beside it, so that a half-unpacked tree is
/// never taken for a whole one.
fn unpack(archive: &[u8], code: &Path) -> std::io::Result<()> {
    let parent = code.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)?;
    let partial = parent.join(format!(".partial-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&partial);
    cardroom_store::unpack_archive(archive, &partial)?;
    std::fs::rename(&partial, code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bots_directory_name_stays_under_the_runners() {
        assert_eq!(dir_name("alice"), "alice");
        assert_eq!(dir_name("a/b"), "a_b");
        assert_eq!(dir_name(".."), "_.");
        assert_eq!(dir_name(".hidden"), "_hidden");
    }
}
