//! `cardroom serve`: the game server.

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use cardroom_arena::hosted::{HostedLadderFile, HostedLadders};
use cardroom_arena::runner::{HostedBots, Limits, RunnerConfig};
use cardroom_server::{Config, TlsIdentity};
use cardroom_store::{StoreLatency, StoreOptions};
use prometheus_client::registry::Registry;

use crate::LogFormat;

/// The server's flags; each but `--no-open-queue` and `--ladder` has an environment variable
/// too (README.md lists them).
#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "CARDROOM_ADDR", default_value = "127.0.0.1:50051")]
    addr: SocketAddr,
    /// Also serve gRPC on this Unix socket (plaintext, whatever --tls-cert says): hosted bots
    /// in their sandbox reach the server through it, as `unix:PATH`. The file is made with
    /// mode 0660, replaces a stale socket file nothing listens on, and is removed on shutdown.
    #[arg(long, env = "CARDROOM_UNIX", value_name = "PATH")]
    unix: Option<PathBuf>,
    /// Run the store's submitted bots here, each in a sandbox (bubblewrap, cgroups v1; needs
    /// root): the newest submission of every active bot waits in the lobby under its name,
    /// joined through the Unix socket (--unix, else one in --host-bots-dir), frozen whenever
    /// its seat is not to act (needs --store).
    #[arg(long, env = "CARDROOM_HOST_BOTS", requires = "store")]
    host_bots: bool,
    /// When set, CreateMatch needs `authorization: Bearer <token>`.
    #[arg(long, env = "CARDROOM_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// Where finished matches' records are written, one JSON file each.
    #[arg(long, env = "CARDROOM_RECORD_DIR", default_value = "records")]
    record_dir: PathBuf,
    /// Let bots join the queue (`Join.queue`) and start matches by themselves. Default: open
    /// unless the server has an admin token.
    #[arg(long, env = "CARDROOM_OPEN_QUEUE", overrides_with = "no_open_queue")]
    open_queue: bool,
    /// Refuse `Join.queue` (PERMISSION_DENIED): matches are the organizer's to create.
    #[arg(long, overrides_with = "open_queue")]
    no_open_queue: bool,
    /// The most joined bot connections at once.
    #[arg(long, env = "CARDROOM_MAX_CONNECTIONS", default_value_t = 10_000)]
    max_connections: usize,
    /// The most Play streams at once that have not yet sent their Join (apart from
    /// --max-connections).
    #[arg(long, env = "CARDROOM_MAX_PENDING_JOINS", default_value_t = 1_000)]
    max_pending_joins: usize,
    /// How long a Play stream may take to send its Join, in milliseconds.
    #[arg(long, env = "CARDROOM_JOIN_TIMEOUT_MS", default_value_t = 10_000)]
    join_timeout_ms: u64,
    /// How often the server pings a bot's connection that has sent nothing, and how long it
    /// waits for the answer before closing it, in milliseconds (0: never): a silent link's bot
    /// leaves the lobby and loses its seats' connection.
    #[arg(long, env = "CARDROOM_KEEP_ALIVE_MS", default_value_t = 10_000)]
    keep_alive_ms: u64,
    /// The most matches running at once.
    #[arg(long, env = "CARDROOM_MAX_MATCHES", default_value_t = 10_000)]
    max_matches: usize,
    /// The largest message a client may send, in bytes.
    #[arg(long, env = "CARDROOM_MAX_MESSAGE_BYTES", default_value_t = 64 * 1024)]
    max_message_bytes: usize,
    /// Default time per decision, in milliseconds.
    #[arg(long, env = "CARDROOM_MOVE_MS", default_value_t = 2_000)]
    move_ms: u64,
    /// Default time bank per seat and match, in milliseconds.
    #[arg(long, env = "CARDROOM_BANK_MS", default_value_t = 30_000)]
    bank_ms: u64,
    /// The longest move time a match may ask for, in milliseconds.
    #[arg(long, env = "CARDROOM_MAX_MOVE_MS", default_value_t = 60_000)]
    max_move_ms: u64,
    /// The largest bank a match may ask for, in milliseconds.
    #[arg(long, env = "CARDROOM_MAX_BANK_MS", default_value_t = 900_000)]
    max_bank_ms: u64,
    /// The longest bot or lobby name, in bytes.
    #[arg(long, env = "CARDROOM_MAX_NAME_BYTES", default_value_t = 64)]
    max_name_bytes: usize,
    /// Acts a bot connection may send in a row, none applied and no new Turn, before its
    /// stream is ended (a flood stopped at its stream).
    #[arg(long, env = "CARDROOM_MAX_UNAPPLIED_ACTS", default_value_t = 1_000)]
    max_unapplied_acts: u32,
    /// Failed authentications one peer address may make a minute (a burst of as many); then
    /// its attempts are RESOURCE_EXHAUSTED until it has waited.
    #[arg(long, env = "CARDROOM_AUTH_FAILURES_PER_PEER", default_value_t = NonZeroU32::new(30).unwrap_or(NonZeroU32::MIN))]
    auth_failures_per_peer: NonZeroU32,
    /// Failed authentications for one bot name a minute, from any address.
    #[arg(long, env = "CARDROOM_AUTH_FAILURES_PER_BOT", default_value_t = NonZeroU32::new(120).unwrap_or(NonZeroU32::MIN))]
    auth_failures_per_bot: NonZeroU32,
    /// The largest bot submission (`SubmitBot`, `cardroom bots submit`): its .tar.gz, in bytes.
    #[arg(long, env = "CARDROOM_MAX_SUBMISSION_BYTES", default_value_t = 8 * 1024 * 1024)]
    max_submission_bytes: u64,
    /// The largest .tar inside a submission, in bytes.
    #[arg(long, env = "CARDROOM_MAX_SUBMISSION_UNPACKED_BYTES", default_value_t = 64 * 1024 * 1024)]
    max_submission_unpacked_bytes: u64,
    /// The most entries (files, directories, links) in a submission.
    #[arg(long, env = "CARDROOM_MAX_SUBMISSION_ENTRIES", default_value_t = 10_000)]
    max_submission_entries: u64,
    /// Strikes (timeouts) before a seat forfeits.
    #[arg(long, env = "CARDROOM_MAX_STRIKES", default_value_t = 3)]
    max_strikes: u32,
    /// Replies in the text form (`Act.reply`) one turn may have refused before the seat
    /// forfeits, when a match's clock (a ladder's `max_bad_replies`) does not set its own.
    #[arg(long, env = "CARDROOM_MAX_BAD_REPLIES", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    max_bad_replies: u32,
    /// How long a disconnected bot's turn waits for it to come back, in milliseconds.
    #[arg(long, env = "CARDROOM_RECONNECT_GRACE_MS", default_value_t = 10_000)]
    reconnect_grace_ms: u64,
    /// On shutdown, once every match has ended, how long clients get to close their
    /// connections, in milliseconds.
    #[arg(long, env = "CARDROOM_SHUTDOWN_GRACE_MS", default_value_t = 5_000)]
    shutdown_grace_ms: u64,
    /// Finished matches whose status and seat tokens stay in memory; older ones are forgotten
    /// (records are always read back from the record directory).
    #[arg(long, env = "CARDROOM_KEEP_FINISHED", default_value_t = 1_000)]
    keep_finished: usize,
    /// The server's TLS certificate chain, PEM (with --tls-key: the server speaks only TLS).
    #[arg(long, env = "CARDROOM_TLS_CERT", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert, PEM.
    #[arg(long, env = "CARDROOM_TLS_KEY", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// The store of bot accounts and hosted ladders: `sqlite:FILE` (created if need be), or
    /// `postgres://USER@HOST[:PORT]/DATABASE` for many nodes on one database (docs/deploy.md;
    /// over TLS with `?sslmode=verify-full&sslrootcert=CA.pem`). A lobby name registered there (`cardroom bots add`) is seated only on its own key, and
    /// every hosted ladder in it that is not closed resumes.
    #[arg(long, env = "CARDROOM_STORE")]
    store: Option<String>,
    /// The longest a call of a shared store (`postgres://…`) may take, in milliseconds: past
    /// it the call fails, so a node cut off from its database notices within this time
    /// (docs/deploy.md, "Partitions"). It also bounds a transaction a silent node left open,
    /// and (twice it) a ladder's scheduler lock held by a node that fell silent.
    #[arg(long, env = "CARDROOM_STORE_TIMEOUT_MS", default_value_t = 10_000, requires = "store")]
    store_timeout_ms: u64,
    /// A hosted ladder file (TOML): the server runs the ladder itself among the registered bots
    /// waiting in its lobby, created in the store or resumed from it; repeatable (needs --store).
    #[arg(long = "ladder", requires = "store")]
    ladders: Vec<PathBuf>,
    /// The address bots and spectators reach this node at (e.g. `https://node2.example:50051`),
    /// which it advertises to the other nodes on a shared store (`postgres://…`) in its
    /// heartbeat: what another node's Watch names for a match this one hosts (docs/deploy.md).
    /// Default: `http://` (`https://` with TLS) and the address it listens on.
    #[arg(long, env = "CARDROOM_ADVERTISE", requires = "store")]
    advertise: Option<String>,
    /// Seat only registered bots in the lobby: an unregistered lobby name is refused with
    /// PERMISSION_DENIED (needs --store).
    #[arg(long, env = "CARDROOM_REGISTERED_ONLY", requires = "store")]
    registered_only: bool,
    /// Also serve the web pages (the store's ladders, bots, replays, live matches, the
    /// server's figures) on this address, read-only for anyone, with `/healthz`, `/readyz` and
    /// `/metrics` for the operator's tools (docs/deploy.md, "Watching it"). With --tls-cert,
    /// only those three: the pages read the server over plaintext gRPC.
    #[arg(long, env = "CARDROOM_HTTP_ADDR")]
    http_addr: Option<SocketAddr>,
    /// How the log on standard error is written: `text`, or `json` (one object a line, with
    /// `timestamp`, `level`, `target` and `fields`, for a log collector).
    #[arg(long, env = "CARDROOM_LOG_FORMAT", value_enum, default_value = "text")]
    log_format: LogFormat,
    #[command(flatten)]
    hosted: HostedBotsArgs,
    #[command(flatten)]
    pages: PagesArgs,
}

/// Where hosted bots are unpacked, and the limits every one of them shares: `serve
/// --host-bots`'s and `cardroom runner`'s.
#[derive(Debug, clap::Args)]
pub(crate) struct HostedBotsArgs {
    /// Where the hosted bots' submissions are unpacked, one directory a bot and version.
    #[arg(long, env = "CARDROOM_HOST_BOTS_DIR", default_value = "hosted-bots")]
    host_bots_dir: PathBuf,
    /// The Python that `python3` names in a hosted bot's run command (a venv's `bin/python`
    /// with the cardroom SDK installed); unset: Debian's python3.
    #[arg(long, env = "CARDROOM_BOT_PYTHON", value_name = "PATH")]
    bot_python: Option<PathBuf>,
    /// A hosted bot's memory, in MiB (memory and swap together; its home counts in it).
    #[arg(long, env = "CARDROOM_BOT_MEMORY_MB", default_value_t = 256)]
    bot_memory_mb: u64,
    /// A hosted bot's CPU, in cores (0.5: half of one).
    #[arg(long, env = "CARDROOM_BOT_CPUS", default_value_t = 1.0)]
    bot_cpus: f64,
    /// A hosted bot's processes and threads at once.
    #[arg(long, env = "CARDROOM_BOT_PIDS", default_value_t = 64)]
    bot_pids: u32,
    /// How long a hosted bot may wait unseated before it is stopped, in milliseconds (0:
    /// never). It stays on call: the lobby lists it, and a match that wants it starts it again.
    #[arg(long, env = "CARDROOM_BOT_IDLE_MS", default_value_t = 300_000)]
    bot_idle_ms: u64,
}

impl HostedBotsArgs {
    /// The runner's settings, its bots reaching the server at `socket`.
    pub(crate) fn runner_config(&self, socket: PathBuf) -> RunnerConfig {
        let limits = Limits {
            memory: self.bot_memory_mb << 20,
            pids: self.bot_pids,
            cpus: self.bot_cpus,
            ..Limits::default()
        };
        RunnerConfig {
            socket,
            work: self.host_bots_dir.clone(),
            python: self.bot_python.clone(),
            limits,
            idle: (self.bot_idle_ms > 0).then(|| Duration::from_millis(self.bot_idle_ms)),
        }
    }

    /// Where the submissions are unpacked.
    pub(crate) fn dir(&self) -> &PathBuf {
        &self.host_bots_dir
    }

    /// The runner's own socket in its directory, when nothing else names one.
    pub(crate) fn default_socket(&self) -> PathBuf {
        self.host_bots_dir.join("cardroom.sock")
    }
}

/// The pages' limits on slow and greedy clients (docs/deploy.md, "The pages' limits").
#[derive(Debug, clap::Args)]
pub(crate) struct PagesArgs {
    /// The most connections to the pages at once (at most a quarter of the open files
    /// allowed); the next waits in the kernel's accept queue until one closes.
    #[arg(long, env = "CARDROOM_HTTP_MAX_CONNECTIONS", default_value_t = 1_024)]
    http_max_connections: usize,
    /// How long a connection to the pages gets to send a request's head, from its opening or
    /// the end of its previous response (so also how long it may sit idle), in milliseconds.
    #[arg(long, env = "CARDROOM_HTTP_HEADER_TIMEOUT_MS", default_value_t = 10_000)]
    http_header_timeout_ms: u64,
    /// How long a request's body to the pages may send nothing, in milliseconds.
    #[arg(long, env = "CARDROOM_HTTP_BODY_TIMEOUT_MS", default_value_t = 10_000)]
    http_body_timeout_ms: u64,
    /// The most live pages' event streams at once (at most half the pages' connections); one
    /// more is refused with 503.
    #[arg(long, env = "CARDROOM_SSE_MAX_STREAMS", default_value_t = 512)]
    sse_max_streams: usize,
    /// The most live streams at once from one IP address; one more is refused with 429.
    #[arg(long, env = "CARDROOM_SSE_MAX_PER_ADDRESS", default_value_t = 16)]
    sse_max_per_address: usize,
    /// Let people play a running ladder's bots from its page ("Play the bots": unrated
    /// matches, a person's clock), at most this many matches an hour from one IP address; 0:
    /// no guests.
    #[arg(long, env = "CARDROOM_GUESTS", default_value_t = 0)]
    guests: u32,
}

impl PagesArgs {
    /// The pages' configs, the connections at most a quarter of `open_files` (the process's
    /// soft limit) and the live streams at most half the connections.
    fn configs(
        &self,
        open_files: u64,
        grace: Duration,
    ) -> (cardroom_web::ServeConfig, cardroom_web::WebConfig) {
        let serve = cardroom_web::ServeConfig {
            max_connections: self.http_max_connections,
            header_timeout: Duration::from_millis(self.http_header_timeout_ms),
            body_timeout: Duration::from_millis(self.http_body_timeout_ms),
            grace,
        }
        .within_open_files(open_files);
        let web = cardroom_web::WebConfig {
            max_streams: self.sse_max_streams,
            max_streams_per_address: self.sse_max_per_address,
            ..cardroom_web::WebConfig::default()
        }
        .within_connections(serve.max_connections);
        (serve, web)
    }
}

/// Raises the process's soft limit on open files to its hard limit, and returns the soft limit
/// in force: a server's connections, each a descriptor, should not be refused for a default of
/// 1,024 when the system allows more.
pub(crate) fn raise_open_files_limit() -> u64 {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (soft, hard) = match getrlimit(Resource::RLIMIT_NOFILE) {
        Ok(limits) => limits,
        Err(error) => {
            tracing::warn!(cause = %error, "reading the limit on open files failed; assuming 1,024");
            return 1_024;
        }
    };
    if soft >= hard {
        return soft;
    }
    match setrlimit(Resource::RLIMIT_NOFILE, hard, hard) {
        Ok(()) => hard,
        Err(error) => {
            tracing::warn!(soft, hard, cause = %error, "raising the limit on open files failed");
            soft
        }
    }
}

/// Logs the pages' limits in force.
pub(crate) fn log_pages_limits(
    open_files: u64,
    serve: &cardroom_web::ServeConfig,
    web: &cardroom_web::WebConfig,
) {
    tracing::info!(
        open_files,
        connections = serve.max_connections,
        header_timeout = ?serve.header_timeout,
        body_timeout = ?serve.body_timeout,
        live_streams = web.max_streams,
        live_streams_per_address = web.max_streams_per_address,
        "the pages' limits"
    );
}

impl ServeArgs {
    /// The hosted bots' runner, with `--host-bots`.
    fn runner_config(&self) -> Option<RunnerConfig> {
        if !self.host_bots {
            return None;
        }
        let socket = self.unix.clone().unwrap_or_else(|| self.hosted.default_socket());
        Some(self.hosted.runner_config(socket))
    }

    fn config(self) -> anyhow::Result<Config> {
        let tls = match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => Some(TlsIdentity::from_pem_files(cert, key)?),
            (None, None) => None,
            _ => anyhow::bail!("give both --tls-cert and --tls-key, or neither"),
        };
        Ok(Config {
            admin_token: self.admin_token,
            queue_open: match (self.open_queue, self.no_open_queue) {
                (true, _) => Some(true),
                (_, true) => Some(false),
                _ => None,
            },
            max_connections: self.max_connections,
            max_pending_joins: self.max_pending_joins,
            join_timeout: Duration::from_millis(self.join_timeout_ms),
            keep_alive: (self.keep_alive_ms > 0).then(|| Duration::from_millis(self.keep_alive_ms)),
            max_move_time: Duration::from_millis(self.max_move_ms),
            max_bank_time: Duration::from_millis(self.max_bank_ms),
            max_name_bytes: self.max_name_bytes,
            max_unapplied_acts: self.max_unapplied_acts,
            max_matches: self.max_matches,
            max_message_bytes: self.max_message_bytes,
            record_dir: Some(self.record_dir),
            move_time: Duration::from_millis(self.move_ms),
            bank_time: Duration::from_millis(self.bank_ms),
            max_strikes: self.max_strikes,
            max_bad_replies: self.max_bad_replies,
            reconnect_grace: Duration::from_millis(self.reconnect_grace_ms),
            shutdown_grace: Duration::from_millis(self.shutdown_grace_ms),
            keep_finished: self.keep_finished,
            tls,
            registered_only: self.registered_only,
            auth_failures_per_peer: self.auth_failures_per_peer,
            auth_failures_per_bot: self.auth_failures_per_bot,
            submission_limits: cardroom_store::ArchiveLimits {
                max_archive_bytes: self.max_submission_bytes,
                max_unpacked_bytes: self.max_submission_unpacked_bytes,
                max_entries: self.max_submission_entries,
            },
            ..Config::default()
        })
    }
}

/// Runs the server (and its web pages, with `--http-addr`) until SIGINT or SIGTERM.
pub(crate) fn serve(args: ServeArgs) -> anyhow::Result<()> {
    crate::init_tracing("info", args.log_format);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let addr = args.addr;
    let runner = args.runner_config();
    let hosting = runner.as_ref().map(|runner| runner.describe().into());
    let unix = runner.as_ref().map(|runner| runner.socket.clone()).or(args.unix.clone());
    let store = args.store.clone();
    let store_timeout_ms = args.store_timeout_ms;
    let advertise = args.advertise.clone();
    let ladder_files = read_ladder_files(&args.ladders)?;
    let web = args.http_addr;
    let open_files = raise_open_files_limit();
    let guests = args.pages.guests;
    let pages_limits =
        args.pages.configs(open_files, Duration::from_millis(args.shutdown_grace_ms));
    let mut config = args.config()?;
    runtime.block_on(async move {
        let mut opened = None;
        // The store calls of the hot path, timed: a bot's Join (its account) and the ladders.
        let store_latency = StoreLatency::default();
        if let Some(store) = store {
            let options = StoreOptions { call_timeout: Duration::from_millis(store_timeout_ms) };
            let store = cardroom_store::open_with(&store, options)
                .await
                .with_context(|| format!("opening the store {store}"))?;
            let accounts = cardroom_store::Accounts::new(std::sync::Arc::clone(&store));
            config.accounts = Some(accounts.timed(store_latency.clone()));
            opened = Some(store);
        }
        let listener =
            cardroom_server::listen(addr).with_context(|| format!("listening on {addr}"))?;
        let grpc_addr = listener.local_addr()?;
        let mut server = cardroom_server::Server::new(config.clone());
        let listen_unix = |path: PathBuf| {
            cardroom_server::listen_unix(&path).with_context(|| format!("--unix {}", path.display()))
        };
        if let Some(runner) = &runner {
            std::fs::create_dir_all(&runner.work)
                .with_context(|| format!("--host-bots-dir {}", runner.work.display()))?;
        }
        let unix = unix.map(listen_unix).transpose()?;
        // The figures `/metrics` encodes: the server's, and the store's and ladders' if any.
        let mut metrics = Registry::default();
        metrics.register_collector(Box::new(server.metrics()));
        if let Some(store) = opened {
            let scheme = if config.tls.is_some() { "https" } else { "http" };
            let advertise = advertise.unwrap_or_else(|| format!("{scheme}://{grpc_addr}"));
            let started =
                HostedLadders::start_node(store, server.host(), advertise, store_latency.clone());
            let hosted = started.await.context("resuming the hosted ladders")?;
            store_latency.register(&mut metrics);
            hosted.register_metrics(&mut metrics);
            for (path, file, text) in &ladder_files {
                let ladder = hosted
                    .open(file, text)
                    .await
                    .with_context(|| format!("--ladder {}", path.display()))?;
                tracing::info!(ladder = %ladder.spec.name, status = %ladder.status, "hosted ladder");
            }
            server = server.ladders(std::sync::Arc::new(hosted));
        }
        // The hosted bots, once the server serves: their runner stops after it.
        let hosted_bots = match (runner, &config.accounts) {
            (Some(runner), Some(accounts)) => {
                let store = std::sync::Arc::clone(accounts.store());
                let started = HostedBots::start(store, server.host(), runner).await;
                Some(started.context("--host-bots")?)
            }
            _ => None,
        };
        let shutdown = shutdown_signal().context("installing the signal handlers")?;
        // One line on stdout, so that a script or a test that asked for port 0 learns the port.
        announce(&format!("cardroom listening on {grpc_addr}"));
        if let Some(socket) = unix {
            // The same line for the socket, as the SDKs' `--server` takes it.
            announce(&format!("cardroom listening on unix:{}", socket.path().display()));
            server = server.unix(socket);
        }
        let Some(http_addr) = web else {
            let served = server.serve(listener, shutdown).await;
            stop_hosted_bots(hosted_bots).await?;
            return served;
        };
        // With the gRPC listener's backlog: connections past the pages' cap wait there.
        let http =
            cardroom_server::listen(http_addr).with_context(|| format!("listening on {http_addr}"))?;
        let (serve_config, web_config) = pages_limits;
        let web_config = cardroom_web::WebConfig {
            hosted_bots: hosting,
            auth_throttle: Some(server.auth_throttle()),
            ladders: server.ladder_control().map(cardroom_web::LadderControl),
            ..web_config
        };
        log_pages_limits(open_files, &serve_config, &web_config);
        let store = config.accounts.as_ref().map(|accounts| std::sync::Arc::clone(accounts.store()));
        let metrics = std::sync::Arc::new(metrics);
        let router = if config.tls.is_some() {
            // The pages read the server over plaintext gRPC on the loopback, which a TLS server
            // does not speak: only the operator's paths, which read the server in process.
            announce(&format!("cardroom health and metrics on http://{}", http.local_addr()?));
            tracing::info!(
                "the server speaks TLS, which the pages do not read: --http-addr serves only \
                 /healthz, /readyz and /metrics"
            );
            let server = cardroom_web::GameServer::InProcess(server.host());
            cardroom_web::ops_router(metrics, cardroom_web::Readiness::new(server, store))
        } else {
            announce(&format!("cardroom pages on http://{}", http.local_addr()?));
            let channel = tonic::transport::Endpoint::from_shared(format!("http://{grpc_addr}"))
                .context("the pages' address of the server")?
                .connect_lazy();
            // The server's matches over its rpcs, and the hosted ladders of its store (if any).
            let source = cardroom_web::ServerSource::new(channel.clone(), config.admin_token.clone());
            let server = cardroom_web::GameServer::Grpc(channel);
            let readiness = cardroom_web::Readiness::new(server, store);
            // The seats people take from the pages: their streams go to this server.
            let play = cardroom_web::PlayConfig {
                server: format!("http://{grpc_addr}"),
                admin_token: config.admin_token.clone(),
                guests_per_hour: guests,
                // Half the game server's quota for the pages' own address.
                failed_links_per_minute: config.auth_failures_per_peer.get() / 2,
            };
            let web_config = cardroom_web::WebConfig { play: Some(play), ..web_config };
            cardroom_web::server_router(source, config.accounts.clone(), web_config)
                .merge(cardroom_web::ops_router(metrics, readiness))
        };
        // One signal stops both: the pages once the server has stopped.
        let (stop, stopped) = tokio::sync::watch::channel(false);
        // The pages on their own runtime at the lowest priority: page load cannot starve play.
        let pages =
            tokio::spawn(cardroom_web::serve_apart(http.into_std()?, router, serve_config, async move {
                let mut stopped = stopped;
                let _ = stopped.wait_for(|s| *s).await;
            }));
        let served = server.serve(listener, shutdown).await;
        stop_hosted_bots(hosted_bots).await?;
        let _ = stop.send(true);
        let pages = pages.await.context("the pages' task")?.context("serving the pages");
        served.and(pages)
    })
}

/// Writes one of the lines that say where the server listens on stdout. A reader that took the
/// first line and closed the pipe (a script, a test, `| head -1`) does not stop the server:
/// `println!` would panic on the broken pipe.
pub(crate) fn announce(line: &str) {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{line}").and_then(|()| stdout.flush());
}

/// Stops the hosted bots' runner, if any, and waits for every bot to end.
async fn stop_hosted_bots(runner: Option<HostedBots>) -> anyhow::Result<()> {
    if let Some(runner) = runner {
        runner.stop().await.context("--host-bots")?;
    }
    Ok(())
}

/// Reads and checks every `--ladder` file before anything starts.
fn read_ladder_files(
    paths: &[PathBuf],
) -> anyhow::Result<Vec<(PathBuf, HostedLadderFile, String)>> {
    paths
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("--ladder {}", path.display()))?;
            let file = HostedLadderFile::parse(&text)
                .with_context(|| format!("--ladder {}", path.display()))?;
            Ok((path.clone(), file, text))
        })
        .collect()
}

/// SIGINT (ctrl-c) or SIGTERM. The handlers are installed when this is called (before the
/// server says it listens), so a signal sent as soon as the port is known stops the server
/// gracefully instead of killing it.
pub(crate) fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser as _;

    use super::*;

    #[derive(clap::Parser)]
    struct Serve {
        #[command(flatten)]
        args: ServeArgs,
    }

    fn config(args: &[&str]) -> Config {
        let args = std::iter::once("serve").chain(args.iter().copied());
        Serve::try_parse_from(args)
            .map_err(anyhow::Error::from)
            .and_then(|serve| serve.args.config())
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_queue_is_closed_by_default_only_with_an_admin_token() {
        assert!(config(&[]).queue_is_open());
        assert!(!config(&["--admin-token", "t"]).queue_is_open());
        assert!(config(&["--admin-token", "t", "--open-queue"]).queue_is_open());
        assert!(!config(&["--no-open-queue"]).queue_is_open());
        // The last of the two flags wins.
        assert!(config(&["--open-queue", "--no-open-queue"]).queue_open == Some(false));
        assert!(config(&["--no-open-queue", "--open-queue"]).queue_open == Some(true));
    }

    #[test]
    fn the_new_limits_reach_the_config() {
        let config = config(&[
            "--max-pending-joins",
            "7",
            "--join-timeout-ms",
            "1500",
            "--max-move-ms",
            "9000",
            "--max-bank-ms",
            "90000",
            "--max-name-bytes",
            "32",
            "--max-unapplied-acts",
            "50",
        ]);
        assert_eq!(config.max_pending_joins, 7);
        assert_eq!(config.join_timeout, Duration::from_millis(1_500));
        assert_eq!(config.max_move_time, Duration::from_secs(9));
        assert_eq!(config.max_bank_time, Duration::from_secs(90));
        assert_eq!(config.max_name_bytes, 32);
        assert_eq!(config.max_unapplied_acts, 50);
    }

    #[test]
    fn the_pages_take_a_quarter_of_the_open_files_and_streams_half_of_that() {
        let serve = Serve::try_parse_from(["serve", "--sse-max-per-address", "40"])
            .unwrap_or_else(|e| panic!("{e}"));
        let grace = Duration::from_secs(1);
        let (served, web) = serve.args.pages.configs(256, grace);
        assert_eq!(served.max_connections, 64);
        assert_eq!((web.max_streams, web.max_streams_per_address), (32, 32));
        let (served, web) = serve.args.pages.configs(1_048_576, grace);
        assert_eq!(served.max_connections, 1_024);
        assert_eq!((web.max_streams, web.max_streams_per_address), (512, 40));
        assert_eq!(served.header_timeout, Duration::from_secs(10));
        assert_eq!(served.grace, grace);
    }
}
