//! The server's settings: addresses aside, everything an operator may want to change.

use std::num::NonZeroU32;
use std::path::PathBuf;
use std::time::Duration;

use crate::tls::TlsIdentity;

/// How the server runs. `Config::default()` suits tests and a local server.
#[derive(Clone, Debug)]
pub struct Config {
    /// When set, `CreateMatch` needs `authorization: Bearer <admin_token>`.
    pub admin_token: Option<String>,
    /// Whether bots may join a queue (`Join.queue`) and start matches without an organizer.
    /// `None` decides from `admin_token`: closed on a server that has one (its matches are
    /// the organizer's to create), open otherwise. A closed queue refuses with
    /// PERMISSION_DENIED.
    pub queue_open: Option<bool>,
    /// The most joined `Play` streams (bots with a seat, or waiting in a queue or the lobby)
    /// open at once; more are refused with RESOURCE_EXHAUSTED. Streams that have not yet sent
    /// their `Join` do not count: they have `max_pending_joins`.
    pub max_connections: usize,
    /// The most `Play` streams open at once that have not yet sent their `Join` (at least
    /// one); beyond it the oldest of them ends with RESOURCE_EXHAUSTED. Kept apart from
    /// `max_connections`, and the newest stream wins, so that silent streams can never lock
    /// joined bots out.
    pub max_pending_joins: usize,
    /// How long a `Play` stream may take to send its `Join`; one that takes longer ends with
    /// DEADLINE_EXCEEDED.
    pub join_timeout: Duration,
    /// How often the server pings a bot's connection that has sent nothing (HTTP/2 PING), and
    /// how long it waits for the answer before it closes the connection; none never pings. A
    /// link gone silent (a partition, a middlebox that lost its state) is so noticed: the
    /// bot's waiting streams leave the lobby, and its seats lose their connection.
    pub keep_alive: Option<Duration>,
    /// The longest move time a match may ask for (`Clock.move_ms`); more is INVALID_ARGUMENT.
    pub max_move_time: Duration,
    /// The largest bank a match may ask for (`Clock.bank_ms`); more is INVALID_ARGUMENT.
    pub max_bank_time: Duration,
    /// The longest bot name (`Join.bot_name`) or lobby name, in bytes; longer ones are
    /// INVALID_ARGUMENT.
    pub max_name_bytes: usize,
    /// The most matches running at once; more are refused with RESOURCE_EXHAUSTED.
    pub max_matches: usize,
    /// The largest message a client may send, in bytes; larger ones end the stream with
    /// RESOURCE_EXHAUSTED.
    pub max_message_bytes: usize,
    /// Where finished matches' records are written (`<match id>.json`); none keeps them in
    /// memory only.
    pub record_dir: Option<PathBuf>,
    /// Time for one decision when a match does not set its own.
    pub move_time: Duration,
    /// A seat's time bank for a whole match when a match does not set its own.
    pub bank_time: Duration,
    /// Strikes (timeouts, disconnections at one's turn) before a seat forfeits.
    pub max_strikes: u32,
    /// Replies in the text form (`Act.reply`) one turn may have refused before its seat
    /// forfeits, when a match does not set its own.
    pub max_bad_replies: u32,
    /// How long a disconnected seat's turn waits for it to reconnect before the default
    /// action is played (never longer than its clock).
    pub reconnect_grace: Duration,
    /// After a shutdown has ended every match, how long clients get to close their
    /// connections before the server stops anyway.
    pub shutdown_grace: Duration,
    /// The certificate and key to serve TLS with; none serves plaintext HTTP/2, fit only for
    /// loopback or a network where seat and admin tokens may travel in clear.
    pub tls: Option<TlsIdentity>,
    /// How long a client gets to finish its TLS handshake before its connection is dropped.
    pub tls_handshake_timeout: Duration,
    /// Finished matches whose status and seat tokens stay in memory (and their records, when
    /// there is no `record_dir`: with one, records are read back from disk); older ones are
    /// forgotten, so a long-running server's memory stays flat.
    pub keep_finished: usize,
    /// Messages buffered towards one bot or spectator; one that falls further behind is
    /// disconnected rather than slowing its match (its stream ends with RESOURCE_EXHAUSTED).
    pub outbound_buffer: usize,
    /// Acts one connection may send in a row without one of them being applied (stale,
    /// out of turn, malformed, illegal) and without a new `Turn` for it; the next ends its
    /// stream with RESOURCE_EXHAUSTED. A
    /// flood is stopped at its stream, long before HTTP/2's own limits would close the whole
    /// connection and every other seat on it.
    pub max_unapplied_acts: u32,
    /// The bot accounts (in the server's store): a `Play` stream that claims a registered name
    /// (its lobby name, else its `bot_name`) must present that bot's key as `authorization:
    /// Bearer <key>`. None: no accounts, no keys checked, and no account rpcs.
    pub accounts: Option<cardroom_store::Accounts>,
    /// Whether the lobby seats registered bots only (with `accounts`): an unregistered lobby
    /// name is refused with PERMISSION_DENIED. Otherwise unregistered names wait in the lobby
    /// without a key, as on a server with no accounts.
    pub registered_only: bool,
    /// Failed authentications (a wrong or revoked key, an unknown seat token, a wrong admin
    /// token) one peer address may make a minute, in a burst of as many; then it waits, and
    /// its attempts are RESOURCE_EXHAUSTED with the time to wait.
    pub auth_failures_per_peer: NonZeroU32,
    /// Failed authentications for one bot name a minute, from any address (a name guessed
    /// from many addresses waits too).
    pub auth_failures_per_bot: NonZeroU32,
    /// How large a submitted bot's archive may be (`SubmitBot`): compressed, unpacked, and
    /// its entries. Over a limit is RESOURCE_EXHAUSTED naming it.
    pub submission_limits: cardroom_store::ArchiveLimits,
    /// Submissions (`SubmitBot`) received at once; one more is RESOURCE_EXHAUSTED until one
    /// ends. Each holds up to its compressed limit in memory while it arrives.
    pub submissions_at_once: usize,
    /// How long a submission's archive may take to arrive, from its first message to its
    /// last; a slower one is DEADLINE_EXCEEDED and nothing is kept.
    pub submission_timeout: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            admin_token: None,
            queue_open: None,
            max_connections: 10_000,
            max_pending_joins: 1_000,
            join_timeout: Duration::from_secs(10),
            keep_alive: Some(Duration::from_secs(10)),
            max_move_time: Duration::from_secs(60),
            max_bank_time: Duration::from_secs(15 * 60),
            max_name_bytes: 64,
            max_matches: 10_000,
            max_message_bytes: 64 * 1024,
            record_dir: None,
            move_time: Duration::from_secs(2),
            bank_time: Duration::from_secs(30),
            max_strikes: 3,
            max_bad_replies: 3,
            reconnect_grace: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(5),
            tls: None,
            tls_handshake_timeout: Duration::from_secs(10),
            keep_finished: 1_000,
            outbound_buffer: 256,
            max_unapplied_acts: 1_000,
            accounts: None,
            registered_only: false,
            auth_failures_per_peer: NonZeroU32::new(30).unwrap_or(NonZeroU32::MIN),
            auth_failures_per_bot: NonZeroU32::new(120).unwrap_or(NonZeroU32::MIN),
            submission_limits: cardroom_store::ArchiveLimits::default(),
            submissions_at_once: 4,
            submission_timeout: Duration::from_secs(120),
        }
    }
}

impl Config {
    /// Whether `Join.queue` is served: `queue_open`, or else open unless there is an admin
    /// token.
    pub fn queue_is_open(&self) -> bool {
        self.queue_open.unwrap_or(self.admin_token.is_none())
    }
}
