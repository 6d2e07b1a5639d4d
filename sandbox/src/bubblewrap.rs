//! [`Bubblewrap`]: the [`Sandbox`] on Debian's `bwrap`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use tokio::process::Command;

use crate::Sandbox;
use crate::cgroup::{BotCgroup, CgroupRoot};
use crate::error::SandboxError;
use crate::running::RunningBot;
use crate::spec::{BotSpec, CODE_IN_SANDBOX, HOME_IN_SANDBOX, SOCKET_IN_SANDBOX};

/// The user and group a bot runs as inside its user namespace (`nobody`).
const BOT_ID: &str = "65534";

/// The namespaces and privileges every sandbox starts with: every namespace of its own, so no
/// network but the loopback of an empty network namespace; no capabilities; a new session, so
/// no terminal to inject input into; and death with the runner.
const ISOLATION: &[&str] = &[
    "--unshare-user",
    "--unshare-ipc",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--uid",
    BOT_ID,
    "--gid",
    BOT_ID,
    "--hostname",
    "bot",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--clearenv",
];

/// The system's programs and libraries, read-only, with Debian's merged-/usr links.
const SYSTEM: &[&str] = &[
    "--ro-bind",
    "/usr",
    "/usr",
    "--symlink",
    "usr/bin",
    "/bin",
    "--symlink",
    "usr/sbin",
    "/sbin",
    "--symlink",
    "usr/lib",
    "/lib",
    "--symlink",
    "usr/lib64",
    "/lib64",
];

/// The sandbox on bubblewrap: namespaces from `bwrap`, limits from cgroups v1.
///
/// The runner runs as root, or with the cgroup hierarchies delegated to its user. Bots run as
/// `nobody` in a user namespace of their own.
#[derive(Clone, Debug)]
pub struct Bubblewrap {
    program: PathBuf,
    cgroups: CgroupRoot,
}

impl Bubblewrap {
    /// The sandbox with `bwrap` from `PATH` and the cgroups under `/sys/fs/cgroup/*/cardroom`.
    /// See [`Bubblewrap::with`].
    pub async fn new() -> Result<Bubblewrap, SandboxError> {
        Bubblewrap::with(PathBuf::from("bwrap"), CgroupRoot::default()).await
    }

    /// The sandbox with the `bwrap` at `program` and the cgroups under `cgroups`. It checks
    /// that the kernel grants the namespaces and that the cgroups can be written, naming the
    /// reason when not, and removes the cgroups of runners that died.
    pub async fn with(program: PathBuf, cgroups: CgroupRoot) -> Result<Bubblewrap, SandboxError> {
        let sandbox = Bubblewrap { program, cgroups };
        let probe = Command::new(&sandbox.program)
            .args(ISOLATION)
            .args(SYSTEM)
            .args(["--", "/usr/bin/true"])
            .stdin(Stdio::null())
            .output()
            .await
            .map_err(|source| SandboxError::NoBubblewrap {
                program: sandbox.program.clone(),
                source,
            })?;
        if !probe.status.success() {
            let stderr = String::from_utf8_lossy(&probe.stderr).trim().to_owned();
            return Err(SandboxError::NamespacesRefused { stderr });
        }
        sandbox.cgroups.prepare()?;
        sandbox.cgroups.sweep();
        Ok(sandbox)
    }

    /// bwrap's arguments for `spec`, up to and including the bot's command.
    fn arguments(&self, spec: &BotSpec) -> Vec<OsString> {
        let mut args: Vec<OsString> = ISOLATION.iter().map(OsString::from).collect();
        let mut add = |items: &[&dyn AsRef<std::ffi::OsStr>]| {
            args.extend(items.iter().map(|item| item.as_ref().to_owned()));
        };
        add(&SYSTEM.iter().map(|a| a as &dyn AsRef<std::ffi::OsStr>).collect::<Vec<_>>());
        for path in &spec.runtime.paths {
            add(&[&"--ro-bind", path, path]);
        }
        add(&[&"--ro-bind", &spec.code, &CODE_IN_SANDBOX]);
        add(&[&"--ro-bind", &spec.socket, &SOCKET_IN_SANDBOX]);
        // A /proc of its own pid namespace, a minimal /dev (null, zero, full, random, urandom,
        // tty), and the one writable place: a tmpfs home capped at `limits.home`, /tmp a link
        // to it.
        add(&[&"--proc", &"/proc", &"--dev", &"/dev"]);
        let size = spec.limits.home.to_string();
        add(&[&"--size", &size, &"--perms", &"0700", &"--tmpfs", &HOME_IN_SANDBOX]);
        add(&[&"--symlink", &"home/bot", &"/tmp"]);
        // bwrap builds the root on a tmpfs of its own, with no size: read-only once built.
        add(&[&"--remount-ro", &"/"]);
        add(&[&"--chdir", &CODE_IN_SANDBOX]);
        let mut path: Vec<&Path> = spec.runtime.bin.iter().map(PathBuf::as_path).collect();
        path.extend([Path::new("/usr/bin"), Path::new("/bin")]);
        let path = std::env::join_paths(path).unwrap_or_default();
        add(&[&"--setenv", &"PATH", &path]);
        add(&[&"--setenv", &"HOME", &HOME_IN_SANDBOX, &"--setenv", &"TMPDIR", &HOME_IN_SANDBOX]);
        for (name, value) in &spec.env {
            add(&[&"--setenv", name, value]);
        }
        add(&[&"--"]);
        args.extend(spec.command.iter().map(OsString::from));
        args
    }

    /// The command that starts bwrap inside `cgroup`. Without `unsafe` there is no hook
    /// between fork and exec, so a shell takes its place: it writes its own pid into each
    /// `cgroup.procs`, then execs bwrap. Every process of the sandbox is born inside the
    /// cgroups, before the bot runs a single instruction.
    fn command(&self, spec: &BotSpec, cgroup: &BotCgroup) -> Command {
        const ENTER: &str = "while [ \"$1\" != -- ]; do \
            echo $$ > \"$1\" || exit 125; shift; done; shift; exec \"$@\"";
        let mut command = Command::new("/bin/sh");
        command.args(["-c", ENTER, "sh"]);
        command.args(cgroup.procs_files());
        command.arg("--").arg(&self.program).args(self.arguments(spec));
        command
    }
}

impl Sandbox for Bubblewrap {
    fn spawn(&self, spec: &BotSpec) -> Result<RunningBot, SandboxError> {
        let cgroup = self.cgroups.create(&spec.limits)?;
        let child = self
            .command(spec, &cgroup)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(SandboxError::Process)?;
        tracing::debug!(cgroup = cgroup.name(), code = %spec.code.display(), "bot started");
        Ok(RunningBot::start(child, cgroup, spec.limits.clone()))
    }
}
