//! `cardroom runner`: a server's submitted bots, hosted on another machine (issue 39).
//!
//! The runner reads the server's submissions with its admin token (`Runners`), runs the newest
//! of every active bot in a sandbox, and passes their streams on to the server through its own
//! Unix socket (`RunnerRelay`), keeping their clocks frozen off their turn. It stops on SIGINT
//! or SIGTERM, its bots with it.

use anyhow::Context as _;
use cardroom_arena::runner::HostedBots;
use cardroom_proto::pb;
use cardroom_server::RunnerRelay;

use crate::LogFormat;
use crate::reads::ServerArgs;
use crate::serve::{HostedBotsArgs, announce, shutdown_signal};

/// `cardroom runner`'s arguments.
#[derive(Debug, clap::Args)]
pub(crate) struct RunnerArgs {
    /// The server's admin token: the runner reads the submissions, and its bots play, with it.
    #[arg(long, env = "CARDROOM_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: String,
    #[command(flatten)]
    server: ServerArgs,
    #[command(flatten)]
    hosted: HostedBotsArgs,
    /// How the log on standard error is written: `text`, or `json` (one object a line).
    #[arg(long, env = "CARDROOM_LOG_FORMAT", value_enum, default_value = "text")]
    log_format: LogFormat,
}

/// Runs the runner until SIGINT or SIGTERM.
pub(crate) fn run(args: RunnerArgs) -> anyhow::Result<()> {
    crate::init_tracing("info", args.log_format);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async move {
        let channel = args.server.channel()?;
        let relay = RunnerRelay::new(channel, &args.admin_token).context("--admin-token")?;
        check_server(&relay).await?;
        let socket = args.hosted.default_socket();
        let dir = args.hosted.dir();
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--host-bots-dir {}", dir.display()))?;
        let config = args.hosted.runner_config(socket.clone());
        let bots = HostedBots::start_remote(relay, config).await.context("the runner")?;
        let shutdown = shutdown_signal().context("installing the signal handlers")?;
        announce(&format!(
            "cardroom runner hosting the bots of {} on unix:{}",
            args.server.address(),
            socket.display()
        ));
        shutdown.await;
        tracing::info!("stopping the hosted bots");
        bots.stop().await.context("the runner")
    })
}

/// Asks the server for its hosted bots once: a refusal no wait changes (a wrong admin token, a
/// server with none or with no store) stops the runner here, saying so; a server not reached yet
/// is waited for.
async fn check_server(relay: &RunnerRelay) -> anyhow::Result<()> {
    let request = relay.authorized(pb::ListHostedBotsRequest {});
    match relay.runners().list_hosted_bots(request).await {
        Ok(_) => Ok(()),
        Err(status)
            if matches!(
                status.code(),
                tonic::Code::Unavailable | tonic::Code::DeadlineExceeded
            ) =>
        {
            tracing::warn!(
                cause = %status.message(),
                "the server is not reached yet: the runner starts, and reads its bots every second"
            );
            Ok(())
        }
        Err(status) => anyhow::bail!(
            "the server refused the runner ({:?}): {}; waiting cannot change this, so the runner \
             stops",
            status.code(),
            status.message()
        ),
    }
}
