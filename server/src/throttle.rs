//! Failed authentication, throttled: a peer address or a bot name that keeps presenting wrong
//! keys, seat tokens or admin tokens waits before it may try again, and each burst is logged
//! once with the peer's address.
//!
//! Every failure (a key that is no bot's or another's, a revoked key, an unknown seat token, a
//! wrong admin token) takes a cell from the peer's quota and, when a bot name was claimed, from
//! the name's (GCRA, `governor`'s keyed limiters). Once a quota is spent, every attempt from that
//! peer, or for that name, is refused with RESOURCE_EXHAUSTED and the time to wait (in the
//! message and in `grpc-retry-pushback-ms`) before any key is looked at: a guess costs the
//! guesser time, not the server work. A name's quota is larger than a peer's, because guesses
//! from many addresses at one bot also make that bot's own joins wait until the flood stops.
//!
//! A peer is a [`PeerKey`]: its IP address over TCP, its process over the Unix socket
//! (`serve --unix`), where there is no address. Every sandboxed bot connects through that one
//! socket, so one key for the socket would let any bot lock every other out; a process is one
//! bot's. A bot that starts process after process for fresh keys is held back by its sandbox's
//! pids limit and by the quota of every name it claims. A peer with neither (a Unix socket
//! that gives no credentials) is counted by name only.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use tonic::Status;
use tracing::warn;

/// Who a request came from, as the throttle counts peers: its IP address over TCP, its
/// process over a Unix socket (every sandboxed bot shares the one socket).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PeerKey {
    /// A TCP peer's IP address.
    Address(IpAddr),
    /// A Unix socket peer's process id, as the server's pid namespace sees it (`SO_PEERCRED`).
    Process(i32),
}

impl PeerKey {
    /// The peer of `request`, if its transport says who it is.
    pub(crate) fn of<T>(request: &tonic::Request<T>) -> Option<PeerKey> {
        if let Some(address) = request.remote_addr() {
            return Some(PeerKey::Address(address.ip()));
        }
        #[cfg(unix)]
        if let Some(unix) = request.extensions().get::<tonic::transport::server::UdsConnectInfo>() {
            return unix.peer_cred.and_then(|cred| cred.pid()).map(PeerKey::Process);
        }
        None
    }
}

impl std::fmt::Display for PeerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PeerKey::Address(ip) => write!(f, "{ip}"),
            PeerKey::Process(pid) => write!(f, "process {pid} on the Unix socket"),
        }
    }
}

/// What a throttle counts failures against.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Subject {
    Peer(PeerKey),
    Name(String),
}

impl std::fmt::Display for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Subject::Peer(peer) => write!(f, "{peer}"),
            Subject::Name(name) => write!(f, "bot {}", cardroom_store::Echo(name)),
        }
    }
}

/// Keys kept before the limiters drop the ones at rest, and the waits forget the ended ones.
const PRUNE_AT: usize = 10_000;

/// The throttle of failed authentication: each failure takes a cell from its peer's quota and
/// its bot name's (GCRA, a minute's worth in a burst); past a quota, every attempt from that
/// peer or for that name is refused ([`AuthThrottle::check`]) until the wait is over.
pub struct AuthThrottle {
    peers: DefaultKeyedRateLimiter<PeerKey>,
    names: DefaultKeyedRateLimiter<String>,
    /// Who waits, until when.
    waiting: Mutex<HashMap<Subject, Instant>>,
    clock: DefaultClock,
}

impl std::fmt::Debug for AuthThrottle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthThrottle")
            .field("waiting", &self.waiting().len())
            .finish_non_exhaustive()
    }
}

impl AuthThrottle {
    /// A throttle letting a peer fail `per_peer` times a minute and a name `per_name` times
    /// (each in a burst of as many).
    pub fn new(per_peer: NonZeroU32, per_name: NonZeroU32) -> AuthThrottle {
        AuthThrottle {
            peers: DefaultKeyedRateLimiter::keyed(Quota::per_minute(per_peer)),
            names: DefaultKeyedRateLimiter::keyed(Quota::per_minute(per_name)),
            waiting: Mutex::new(HashMap::new()),
            clock: DefaultClock::default(),
        }
    }

    fn waiting(&self) -> std::sync::MutexGuard<'_, HashMap<Subject, Instant>> {
        self.waiting.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// [`Throttled`], with the time to wait, if `peer` or `name` must wait out a burst of
    /// failures; checked before any credential is looked at.
    pub fn check(&self, peer: Option<PeerKey>, name: Option<&str>) -> Result<(), Throttled> {
        let subjects = subjects(peer, name);
        let now = Instant::now();
        let waiting = self.waiting();
        let longest = subjects
            .iter()
            .filter_map(|s| Some((s, waiting.get(s)?.checked_duration_since(now)?)))
            .max_by_key(|(_, wait)| *wait);
        match longest {
            Some((subject, wait)) => Err(Throttled { who: subject.to_string(), wait }),
            None => Ok(()),
        }
    }

    /// Counts a failed authentication from `peer` (for `name`, when one was claimed). A quota
    /// it spends makes its subject wait, and says so in the log once per burst.
    pub fn failed(&self, peer: Option<PeerKey>, name: Option<&str>) {
        let now = self.clock.now();
        let mut spent = Vec::new();
        if let Some(peer) = peer
            && let Err(until) = self.peers.check_key(&peer)
        {
            spent.push((Subject::Peer(peer), until.wait_time_from(now)));
        }
        if let Some(name) = name
            && let Err(until) = self.names.check_key(&name.to_owned())
        {
            spent.push((Subject::Name(name.to_owned()), until.wait_time_from(now)));
        }
        if self.peers.len() > PRUNE_AT {
            self.peers.retain_recent();
        }
        if self.names.len() > PRUNE_AT {
            self.names.retain_recent();
        }
        if spent.is_empty() {
            return;
        }
        let at = Instant::now();
        let mut waiting = self.waiting();
        if waiting.len() > PRUNE_AT {
            waiting.retain(|_, until| *until > at);
        }
        for (subject, wait) in spent {
            let until = at + wait;
            let was = waiting.insert(subject.clone(), until);
            if was.is_none_or(|was| was <= at) {
                warn!(
                    who = %subject,
                    peer = peer.map(tracing::field::display),
                    wait_ms = wait.as_millis() as u64,
                    "failed authentications over the limit: refusing until the wait is over"
                );
            }
        }
    }
}

/// The subjects an attempt is counted against.
fn subjects(peer: Option<PeerKey>, name: Option<&str>) -> Vec<Subject> {
    peer.map(Subject::Peer).into_iter().chain(name.map(|n| Subject::Name(n.to_owned()))).collect()
}

/// An attempt refused before its credential was looked at: its peer or its name must wait.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("too many failed authentications from {who}: retry in {:.1} s", self.wait_ms() as f64 / 1000.0)]
pub struct Throttled {
    /// Who waits: the peer, or the bot name.
    pub who: String,
    /// How much longer.
    pub wait: Duration,
}

impl Throttled {
    /// The wait in whole milliseconds, at least one.
    pub fn wait_ms(&self) -> u128 {
        self.wait.as_millis().max(1)
    }
}

/// RESOURCE_EXHAUSTED, with the wait in the message and in `grpc-retry-pushback-ms`.
impl From<Throttled> for Status {
    fn from(throttled: Throttled) -> Status {
        let mut status = Status::resource_exhausted(throttled.to_string());
        if let Ok(value) = throttled.wait_ms().to_string().parse() {
            status.metadata_mut().insert("grpc-retry-pushback-ms", value);
        }
        status
    }
}

/// Whether a refusal is a failed authentication (a credential wrong, unknown or revoked), the
/// kind the throttle counts.
pub(crate) fn is_failure(status: &Status) -> bool {
    matches!(status.code(), tonic::Code::Unauthenticated | tonic::Code::PermissionDenied)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_peer_that_keeps_failing_waits_and_others_do_not() {
        let throttle =
            AuthThrottle::new(NonZeroU32::new(3).unwrap(), NonZeroU32::new(100).unwrap());
        let guesser = PeerKey::Address("192.0.2.1".parse().unwrap());
        let other = PeerKey::Address("192.0.2.2".parse().unwrap());
        for _ in 0..3 {
            assert!(throttle.check(Some(guesser), Some("ann")).is_ok());
            throttle.failed(Some(guesser), Some("ann"));
        }
        // The fourth failure spends the quota: the guesser waits, ann's own bot does not.
        throttle.failed(Some(guesser), Some("ann"));
        let refused = Status::from(throttle.check(Some(guesser), Some("bob")).unwrap_err());
        assert_eq!(refused.code(), tonic::Code::ResourceExhausted);
        assert!(refused.message().contains("192.0.2.1") && refused.message().contains("retry in"));
        let pushback = refused.metadata().get("grpc-retry-pushback-ms").unwrap();
        let ms: u64 = pushback.to_str().unwrap().parse().unwrap();
        assert!((1..=20_000).contains(&ms), "{ms}");
        assert!(throttle.check(Some(other), Some("ann")).is_ok());
    }

    #[test]
    fn a_name_guessed_from_many_peers_waits_too() {
        let throttle =
            AuthThrottle::new(NonZeroU32::new(100).unwrap(), NonZeroU32::new(2).unwrap());
        for i in 0..3u8 {
            throttle.failed(Some(PeerKey::Address(IpAddr::from([192, 0, 2, i]))), Some("ann"));
        }
        let elsewhere = Some(PeerKey::Address("198.51.100.7".parse().unwrap()));
        let refused = throttle.check(elsewhere, Some("ann"));
        assert!(refused.unwrap_err().to_string().contains("bot \"ann\""));
        assert!(throttle.check(elsewhere, Some("bob")).is_ok());
    }

    /// Over the Unix socket each process is a peer of its own: one sandboxed bot that keeps
    /// failing waits, the others on the same socket do not; a peer with no key is counted by
    /// name only.
    #[test]
    fn unix_socket_peers_are_their_processes() {
        let throttle =
            AuthThrottle::new(NonZeroU32::new(2).unwrap(), NonZeroU32::new(100).unwrap());
        let (guesser, other) = (PeerKey::Process(4242), PeerKey::Process(4243));
        for _ in 0..3 {
            throttle.failed(Some(guesser), None);
            throttle.failed(None, None);
        }
        let refused = throttle.check(Some(guesser), None).unwrap_err();
        assert!(refused.to_string().contains("process 4242 on the Unix socket"), "{refused:?}");
        assert!(throttle.check(Some(other), None).is_ok());
        assert!(throttle.check(None, None).is_ok());
    }
}
