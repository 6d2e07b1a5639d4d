//! Hosted bots run in a sandbox: the runner's side of issue 39.
//!
//! A [`Sandbox`] starts a bot from a [`BotSpec`] (its unpacked code, its command, the server's
//! Unix socket, its environment, its runtime and its [`Limits`]) and hands back a
//! [`RunningBot`]. The runner freezes the bot while it is not to act, reads its output once a
//! match, kills it at its deadline, and learns why it ended ([`End`]).
//!
//! [`Bubblewrap`] is the one sandbox so far, on Debian's `bwrap`:
//!
//! - namespaces of its own: user (the bot is `nobody`), pid, ipc, uts, mount and network.
//!   There is no network: the bot reaches the server through the Unix socket bound in at
//!   [`SOCKET_IN_SANDBOX`] (gRPC over it: [`SERVER_URL_IN_SANDBOX`]);
//! - no capabilities, a new session, and death with the runner;
//! - `/usr` and the runtime read-only, the code read-only at [`CODE_IN_SANDBOX`], a
//!   size-capped tmpfs at [`HOME_IN_SANDBOX`], a `/proc` of its own and a minimal `/dev`;
//! - cgroups v1: memory (with swap), pids, a CPU quota, the freezer, and cpuacct for the CPU
//!   time used.
//!
//! ```no_run
//! use cardroom_sandbox::{Bubblewrap, BotSpec, Limits, Runtime, Sandbox, SERVER_URL_IN_SANDBOX};
//!
//! # async fn run() -> Result<(), cardroom_sandbox::SandboxError> {
//! let sandbox = Bubblewrap::new().await?;
//! let mut bot = sandbox.spawn(&BotSpec {
//!     code: "/var/lib/cardroom/bots/7/v3".into(),
//!     command: vec!["python3".into(), "bot.py".into()],
//!     socket: "/run/cardroom/grpc.sock".into(),
//!     env: vec![("CARDROOM_SERVER".into(), SERVER_URL_IN_SANDBOX.into())],
//!     runtime: Runtime::python("/opt/cardroom/venv/bin/python".as_ref())?,
//!     limits: Limits::default(),
//! })?;
//! bot.freeze()?; // the opponent's turn
//! bot.thaw()?;
//! let end = bot.wait_until(tokio::time::Instant::now() + std::time::Duration::from_secs(60)).await?;
//! println!("the bot {end}\n{}", bot.take_output());
//! # Ok(())
//! # }
//! ```

mod bubblewrap;
mod cgroup;
mod end;
mod error;
mod output;
mod running;
mod spec;

pub use bubblewrap::Bubblewrap;
pub use cgroup::{CgroupRoot, Freezer};
pub use end::End;
pub use error::SandboxError;
pub use output::{Output, OutputTaker};
pub use running::RunningBot;
pub use spec::{
    BotSpec, CODE_IN_SANDBOX, HOME_IN_SANDBOX, Limits, Runtime, SERVER_URL_IN_SANDBOX,
    SOCKET_IN_SANDBOX,
};

/// A way to run a bot isolated. Bubblewrap is one; a container runtime can be another.
///
/// An implementation starts the bot's first process inside a [`RunningBot`]'s cgroups before
/// the bot runs, so that the limits, the freezer and the end's cause hold for every process.
pub trait Sandbox: Send + Sync {
    /// Starts the bot of `spec`. It must be called inside a tokio runtime: the bot's output is
    /// read by tasks of its own.
    fn spawn(&self, spec: &BotSpec) -> Result<RunningBot, SandboxError>;
}
