//! Bots the organizer's runner hosts in a sandbox (issue 39), as the server sees them.
//!
//! A hosted bot has no key: it reaches the server through the Unix socket bound into its
//! sandbox, and the kernel says which process connected (`SO_PEERCRED`). The runner files each
//! bot it starts under the name of the bot's freezer cgroup ([`Sandboxed::file`]); a `Play`
//! stream from a process in that cgroup is that bot, at the version the runner started, and
//! nothing else: it may wait only in the lobby under its own name, or take its own seat back.
//! A process cannot leave its cgroup (it has no capability and no cgroup file system), so
//! this is a credential no bot can forge or leak.
//!
//! The same filing carries the bot's freezer: the match task thaws a hosted seat when it is
//! to act and freezes it when it is not, so that no hosted bot thinks on another's time.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// What a match task does to a hosted bot: stop and restart its processes, without waiting,
/// and take what it wrote once its match is over.
pub trait HostedControl: Send + Sync {
    /// Stops every process of the bot.
    fn freeze(&self);
    /// Lets them run again.
    fn thaw(&self);
    /// Its stdout and stderr since the last take (capped by the runner), as its author reads
    /// them: one take a match.
    fn take_output(&self) -> String;
}

/// A hosted bot as its runner filed it.
#[derive(Clone)]
pub struct SandboxedBot {
    /// The registered bot it plays as.
    pub name: String,
    /// The version it runs (its submission's SHA-256).
    pub version: String,
    /// Its freezer and output.
    pub control: Arc<dyn HostedControl>,
    /// Set when a newer submission is to replace it: its next `Join` of the lobby is refused
    /// (UNAVAILABLE), so that it plays out its matches here and is seated in no new one.
    pub retiring: Arc<AtomicBool>,
}

impl std::fmt::Debug for SandboxedBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SandboxedBot")
            .field("name", &self.name)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

/// The hosted bots running now, by the name of their freezer cgroup.
#[derive(Clone, Default)]
pub(crate) struct Sandboxed {
    by_cgroup: Arc<Mutex<HashMap<String, SandboxedBot>>>,
}

impl Sandboxed {
    /// Files `bot`, whose processes are in the freezer cgroup named `cgroup` (its last path
    /// component), until the returned filing is dropped.
    pub(crate) fn file(&self, cgroup: &str, bot: SandboxedBot) -> Filed {
        self.lock().insert(cgroup.to_owned(), bot);
        Filed { sandboxed: self.clone(), cgroup: cgroup.to_owned() }
    }

    /// The hosted bot the process `pid` belongs to, if it is one.
    pub(crate) fn of_process(&self, pid: i32) -> Option<SandboxedBot> {
        if self.lock().is_empty() {
            return None;
        }
        let cgroup = freezer_cgroup(pid)?;
        self.lock().get(&cgroup).cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, SandboxedBot>> {
        self.by_cgroup.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A hosted bot's filing: its streams are recognized while this lives.
pub struct Filed {
    sandboxed: Sandboxed,
    cgroup: String,
}

impl std::fmt::Debug for Filed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Filed").field("cgroup", &self.cgroup).finish()
    }
}

impl Drop for Filed {
    fn drop(&mut self) {
        self.sandboxed.lock().remove(&self.cgroup);
    }
}

/// The last component of the freezer cgroup of the process `pid` (`/proc/PID/cgroup` has a
/// line `N:freezer:/cardroom/r12-b3` on cgroup v1).
fn freezer_cgroup(pid: i32) -> Option<String> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/cgroup")).ok()?;
    cgroup_of(&text, "freezer")
}

/// The last path component of the cgroup of `controller` in a `/proc/PID/cgroup` text.
fn cgroup_of(text: &str, controller: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
        if !controllers.split(',').any(|c| c == controller) {
            return None;
        }
        let last = path.rsplit('/').next().filter(|last| !last.is_empty())?;
        Some(last.to_owned())
    })
}

/// PERMISSION_DENIED unless a hosted bot's `Join` waits in the lobby under its own name `name`
/// or takes back a seat by its token (checked against the seat's holder after): a hosted bot
/// plays only as itself, where its ladders seat it. UNAVAILABLE in the lobby once `retiring`:
/// a newer submission replaces it. The server checks it on its socket and for a runner's bot;
/// a runner's relay checks it too, before the stream leaves the runner.
pub(crate) fn check_hosted_join(
    name: &str,
    retiring: bool,
    seat: &Option<cardroom_proto::pb::join::Seat>,
) -> Result<(), tonic::Status> {
    use cardroom_proto::pb::join::Seat;
    match seat {
        Some(Seat::Lobby(_)) if retiring => Err(tonic::Status::unavailable(format!(
            "the hosted bot {name:?} is being replaced by its newer submission: this process \
             plays no new match"
        ))),
        Some(Seat::Lobby(lobby)) if lobby == name => Ok(()),
        Some(Seat::SeatToken(_)) => Ok(()),
        _ => Err(tonic::Status::permission_denied(format!(
            "a hosted bot waits only in the lobby under its own name ({name:?}) or takes its own \
             seat back by its token"
        ))),
    }
}

/// A hosted seat's freezer as its match task holds it: thawed when the seat is to act, frozen
/// when it is not, and thawed for good when the task lets the connection go (the bot must be
/// able to read its `End` and join again).
pub(crate) struct SeatControl {
    control: Arc<dyn HostedControl>,
    frozen: bool,
}

impl SeatControl {
    pub(crate) fn new(control: Arc<dyn HostedControl>) -> SeatControl {
        SeatControl { control, frozen: false }
    }

    /// Freezes the bot, or thaws it, unless it is so already.
    pub(crate) fn set_frozen(&mut self, frozen: bool) {
        if self.frozen != frozen {
            self.frozen = frozen;
            if frozen { self.control.freeze() } else { self.control.thaw() }
        }
    }
}

impl SeatControl {
    /// The bot's output since the last take.
    pub(crate) fn take_output(&self) -> String {
        self.control.take_output()
    }
}

impl Drop for SeatControl {
    fn drop(&mut self) {
        self.set_frozen(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicI32, Ordering};

    #[test]
    fn a_hosted_bot_joins_only_its_own_lobby_or_a_seat_and_no_lobby_once_retiring() {
        use cardroom_proto::pb::join::Seat;
        let lobby = |name: &str| Some(Seat::Lobby(name.to_owned()));
        assert!(check_hosted_join("ann", false, &lobby("ann")).is_ok());
        assert!(check_hosted_join("ann", false, &Some(Seat::SeatToken("t".into()))).is_ok());
        let other = check_hosted_join("ann", false, &lobby("ben")).unwrap_err();
        assert_eq!(other.code(), tonic::Code::PermissionDenied);
        assert_eq!(
            check_hosted_join("ann", false, &None).unwrap_err().code(),
            tonic::Code::PermissionDenied
        );
        let retiring = check_hosted_join("ann", true, &lobby("ann")).unwrap_err();
        assert_eq!(retiring.code(), tonic::Code::Unavailable);
        assert!(check_hosted_join("ann", true, &Some(Seat::SeatToken("t".into()))).is_ok());
    }

    #[test]
    fn the_freezer_cgroup_is_read_from_a_processs_cgroup_list() {
        let text = "12:pids:/cardroom/r1-b2\n7:freezer:/cardroom/r1-b2\n3:cpu,cpuacct:/x\n";
        assert_eq!(cgroup_of(text, "freezer").as_deref(), Some("r1-b2"));
        assert_eq!(cgroup_of(text, "cpuacct").as_deref(), Some("x"));
        assert_eq!(cgroup_of("7:freezer:/\n", "freezer"), None, "the root is nobody's");
        assert_eq!(cgroup_of("0::/user.slice\n", "freezer"), None);
    }

    #[test]
    fn this_process_is_no_hosted_bot() {
        let sandboxed = Sandboxed::default();
        let pid = std::process::id() as i32;
        assert!(sandboxed.of_process(pid).is_none());
        struct Never;
        impl HostedControl for Never {
            fn freeze(&self) {}
            fn thaw(&self) {}
            fn take_output(&self) -> String {
                String::new()
            }
        }
        let bot = SandboxedBot {
            name: "x".into(),
            version: "v".into(),
            control: Arc::new(Never),
            retiring: Arc::default(),
        };
        let filed = sandboxed.file("no-such-cgroup", bot);
        assert!(sandboxed.of_process(pid).is_none());
        drop(filed);
        assert!(sandboxed.lock().is_empty(), "a filing ends when dropped");
    }

    #[test]
    fn a_seat_freezer_writes_only_changes_and_thaws_when_let_go() {
        /// Counts: +1 a freeze, -1 a thaw, and how many calls.
        #[derive(Default)]
        struct Count(AtomicI32, AtomicI32);
        impl HostedControl for Count {
            fn freeze(&self) {
                self.0.fetch_add(1, Ordering::SeqCst);
                self.1.fetch_add(1, Ordering::SeqCst);
            }
            fn thaw(&self) {
                self.0.fetch_sub(1, Ordering::SeqCst);
                self.1.fetch_add(1, Ordering::SeqCst);
            }
            fn take_output(&self) -> String {
                String::new()
            }
        }
        let count = Arc::new(Count::default());
        let mut seat = SeatControl::new(count.clone());
        seat.set_frozen(false);
        assert_eq!(count.1.load(Ordering::SeqCst), 0, "not frozen: nothing written");
        seat.set_frozen(true);
        seat.set_frozen(true);
        assert_eq!((count.0.load(Ordering::SeqCst), count.1.load(Ordering::SeqCst)), (1, 1));
        drop(seat);
        assert_eq!(count.0.load(Ordering::SeqCst), 0, "thawed when let go");
    }
}
