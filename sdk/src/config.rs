//! How a networked bot finds its match: [`ConnectConfig`], and [`ConnectArgs`], the command-line
//! flags (with environment variables) that every bot binary flattens into its own `clap` parser.

use std::path::PathBuf;
use std::time::Duration;

use crate::bot::GameKind;
use crate::tls::TlsOptions;

/// The server a bot connects to when none is given.
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:50051";

/// How a bot takes its seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JoinBy {
    /// A seat token from `CreateMatch` (or from an earlier `Joined`).
    Token(String),
    /// Wait in the server's queue for a table of `seats` playing `game` with these options.
    Queue {
        /// The game.
        game: GameKind,
        /// Options as a JSON object; empty for the defaults.
        options_json: String,
        /// Seats at the table.
        seats: u32,
    },
    /// Wait in the server's lobby under this name until an organizer (an arena) seats the bot
    /// in a match it creates: how a bot running elsewhere plays an arena's ladder.
    Lobby(String),
}

/// A bot account's key, sent as `authorization: Bearer <key>` with every `Play` stream: the
/// server seats a registered name only on its own key. Its `Debug` never shows the key.
#[derive(Clone)]
pub struct BotKey {
    /// `Bearer <key>`, checked once to be a valid header value, and marked sensitive.
    header: tonic::metadata::AsciiMetadataValue,
}

impl BotKey {
    /// The key as issued (`cardroom bots add`, or the `RegisterBot` rpc).
    pub fn new(key: &str) -> Result<BotKey, ConfigError> {
        let mut header =
            tonic::metadata::AsciiMetadataValue::try_from(format!("Bearer {}", key.trim()))
                .map_err(|_| ConfigError::BadKey)?;
        header.set_sensitive(true);
        Ok(BotKey { header })
    }

    /// The `authorization` header's value.
    pub(crate) fn header(&self) -> &tonic::metadata::AsciiMetadataValue {
        &self.header
    }
}

impl std::fmt::Debug for BotKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BotKey(…)")
    }
}

impl PartialEq for BotKey {
    fn eq(&self, other: &BotKey) -> bool {
        self.header.as_bytes() == other.header.as_bytes()
    }
}

impl Eq for BotKey {}

/// Reconnection back-off: after a failed attempt wait `initial`, then twice as long each time,
/// never more than `max`; give up after `attempts` failures in a row.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Backoff {
    /// The first wait.
    pub initial: Duration,
    /// The longest wait.
    pub max: Duration,
    /// Failed attempts in a row before the runner gives up.
    pub attempts: u32,
}

impl Default for Backoff {
    fn default() -> Backoff {
        Backoff { initial: Duration::from_millis(100), max: Duration::from_secs(5), attempts: 20 }
    }
}

impl Backoff {
    /// The wait after `failures` failed attempts in a row (1 for the first failure).
    pub fn delay(&self, failures: u32) -> Duration {
        let doublings = failures.saturating_sub(1).min(30);
        self.initial.saturating_mul(1u32 << doublings).min(self.max)
    }
}

/// Everything the networked runner needs to play one match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectConfig {
    /// The server's address, such as `http://127.0.0.1:50051`, `https://host:port` for a
    /// server that speaks TLS, or `unix:/run/cardroom.sock` for its Unix socket.
    pub server: String,
    /// How an `https://` server's certificate is checked (kept across reconnections).
    pub tls: TlsOptions,
    /// How to take a seat.
    pub join: JoinBy,
    /// The bot's name, shown in standings and logs.
    pub name: String,
    /// The bot account's key, for a server that keeps accounts (a registered lobby name is
    /// seated only on its own key).
    pub key: Option<BotKey>,
    /// The bot's version (a tag or a commit hash), reported in `Join.bot_version`; empty for
    /// none.
    pub version: String,
    /// Reconnection back-off.
    pub backoff: Backoff,
    /// HTTP/2 keep-alive: after this long without a frame from the server the runner pings it,
    /// and a ping unanswered for as long again ends the connection (the runner then reconnects),
    /// so that a link that went silent is noticed even while the bot waits for its turn.
    /// Default 10 s. `None` sends no pings: a silent link is then noticed only when TCP gives
    /// up on data the bot sent (many minutes), and never while the bot only waits. It suits
    /// bots on the server's own host, such as the load tool's, and spares hyper a lock and a
    /// clock read on every frame (about 4% of a quick bot's instructions a decision,
    /// BENCHMARKS.md).
    pub keep_alive: Option<Duration>,
}

impl ConnectConfig {
    /// Joins the seat of `token` on `server`.
    pub fn with_token(server: impl Into<String>, token: impl Into<String>) -> ConnectConfig {
        ConnectConfig::new(server.into(), JoinBy::Token(token.into()))
    }

    /// Waits in `server`'s queue for a table of `seats` playing `game` with `options_json`.
    pub fn queue(
        server: impl Into<String>,
        game: GameKind,
        options_json: impl Into<String>,
        seats: u32,
    ) -> ConnectConfig {
        let options_json = options_json.into();
        ConnectConfig::new(server.into(), JoinBy::Queue { game, options_json, seats })
    }

    /// Waits in `server`'s lobby under `name` until an organizer seats the bot.
    pub fn lobby(server: impl Into<String>, name: impl Into<String>) -> ConnectConfig {
        ConnectConfig::new(server.into(), JoinBy::Lobby(name.into()))
    }

    fn new(server: String, join: JoinBy) -> ConnectConfig {
        ConnectConfig {
            server,
            tls: TlsOptions::default(),
            join,
            name: "rust-bot".to_owned(),
            key: None,
            version: String::new(),
            backoff: Backoff::default(),
            keep_alive: Some(Duration::from_secs(10)),
        }
    }

    /// The same configuration with this bot name.
    pub fn named(mut self, name: impl Into<String>) -> ConnectConfig {
        self.name = name.into();
        self
    }

    /// The same configuration, authenticating with a bot account's `key`.
    pub fn with_key(mut self, key: BotKey) -> ConnectConfig {
        self.key = Some(key);
        self
    }

    /// The same configuration, reporting this version of the bot.
    pub fn with_version(mut self, version: impl Into<String>) -> ConnectConfig {
        self.version = version.into();
        self
    }

    /// The same configuration, checking an `https://` server's certificate as `tls` says.
    pub fn with_tls(mut self, tls: TlsOptions) -> ConnectConfig {
        self.tls = tls;
        self
    }
}

/// The flags every bot binary takes (flatten them with `#[command(flatten)]`).
///
/// ```text
/// --server URL          [env CARDROOM_SERVER]   default http://127.0.0.1:50051; https://… for TLS;
///                                               unix:PATH for a Unix socket (`serve --unix`)
/// --ca-file PEM         [env CARDROOM_CA_FILE]  trust this CA for https:// (default: the system's)
/// --tls-server-name N   [env CARDROOM_TLS_SERVER_NAME]  the name the certificate must carry
/// --token TOKEN         [env CARDROOM_TOKEN]    a seat token; or join a queue:
/// --queue-game GAME     [env CARDROOM_QUEUE_GAME]     twenty_two (22) | gin
/// --queue-options JSON  [env CARDROOM_QUEUE_OPTIONS]  default {} (every option at its default)
/// --queue-seats N       [env CARDROOM_QUEUE_SEATS]    default 2
/// --name NAME           [env CARDROOM_BOT_NAME]
/// --key KEY             [env CARDROOM_KEY]          the bot account's key
/// --bot-version V       [env CARDROOM_BOT_VERSION]  reported in Join.bot_version
/// --concurrency K       [env CARDROOM_CONCURRENCY]  matches played at once (a lobby bot waits
///                                                   on K streams: a hosted ladder's cap)
/// --reconnect-initial-ms, --reconnect-max-ms, --reconnect-attempts
/// ```
#[derive(Clone, Debug, clap::Args)]
pub struct ConnectArgs {
    /// The server's address: `host:port`, `http://…`, `https://…` for TLS, or `unix:PATH` (or
    /// `unix:///ABSOLUTE/PATH`) for its Unix socket (`cardroom serve --unix PATH`).
    #[arg(long, env = "CARDROOM_SERVER", default_value = DEFAULT_SERVER)]
    pub server: String,
    /// For an https:// server: trust the certificate authorities in this PEM file instead of
    /// the system's roots.
    #[arg(long, env = "CARDROOM_CA_FILE")]
    pub ca_file: Option<PathBuf>,
    /// For an https:// server: the name its certificate must carry, when not the URL's host.
    #[arg(long, env = "CARDROOM_TLS_SERVER_NAME")]
    pub tls_server_name: Option<String>,
    /// A seat token (from CreateMatch); without it, --queue-game joins a queue.
    #[arg(long, env = "CARDROOM_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// Join the queue for this game instead of a seat token.
    #[arg(long, env = "CARDROOM_QUEUE_GAME")]
    pub queue_game: Option<GameKind>,
    /// The queue's options as a JSON object (empty: every option at its default).
    #[arg(long, env = "CARDROOM_QUEUE_OPTIONS", default_value = "")]
    pub queue_options: String,
    /// The queue's table size.
    #[arg(long, env = "CARDROOM_QUEUE_SEATS", default_value_t = 2)]
    pub queue_seats: u32,
    /// Wait in the server's lobby under this name until an organizer (an arena) seats the bot.
    #[arg(long, env = "CARDROOM_LOBBY")]
    pub lobby: Option<String>,
    /// The bot's name in standings and logs (default: the binary's name).
    #[arg(long, env = "CARDROOM_BOT_NAME")]
    pub name: Option<String>,
    /// The bot account's key (from `cardroom bots add`), sent as `authorization: Bearer`.
    #[arg(long, env = "CARDROOM_KEY", hide_env_values = true)]
    pub key: Option<String>,
    /// The bot's version (a tag or a commit hash), kept with its results.
    #[arg(long, env = "CARDROOM_BOT_VERSION", default_value = "")]
    pub bot_version: String,
    /// Matches played at once, each on its own stream (with --lobby: how many matches a hosted
    /// ladder may seat the bot in at a time). Read by the bot's loop
    /// ([`play_concurrently`](crate::play_concurrently)), not by one match's runner.
    #[arg(long, env = "CARDROOM_CONCURRENCY", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub concurrency: u32,
    /// The first wait before reconnecting, in milliseconds.
    #[arg(long, default_value_t = 100)]
    pub reconnect_initial_ms: u64,
    /// The longest wait between reconnection attempts, in milliseconds.
    #[arg(long, default_value_t = 5_000)]
    pub reconnect_max_ms: u64,
    /// Failed connection attempts in a row before giving up.
    #[arg(long, default_value_t = 20)]
    pub reconnect_attempts: u32,
}

/// The flags do not say how to join.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Neither a token, a queue nor a lobby.
    #[error(
        "give a seat token (--token or CARDROOM_TOKEN), a queue (--queue-game) or a lobby name (--lobby)"
    )]
    NoSeat,
    /// More than one of them.
    #[error("give one of a seat token, a queue (--queue-game) or a lobby name (--lobby)")]
    MoreThanOne,
    /// The key cannot be sent in a header (it is not printable ASCII).
    #[error(
        "the key (--key or CARDROOM_KEY) is not printable ASCII: give the key as it was issued"
    )]
    BadKey,
}

impl ConnectArgs {
    /// The configuration these flags describe; `default_name` names the bot unless `--name`
    /// does.
    pub fn config(&self, default_name: &str) -> Result<ConnectConfig, ConfigError> {
        let join = match (&self.token, self.queue_game, &self.lobby) {
            (Some(token), None, None) => JoinBy::Token(token.clone()),
            (None, Some(game), None) => JoinBy::Queue {
                game,
                options_json: self.queue_options.clone(),
                seats: self.queue_seats,
            },
            (None, None, Some(lobby)) => JoinBy::Lobby(lobby.clone()),
            (None, None, None) => return Err(ConfigError::NoSeat),
            _ => return Err(ConfigError::MoreThanOne),
        };
        let mut config = ConnectConfig::new(self.server.clone(), join);
        config.tls =
            TlsOptions { ca_file: self.ca_file.clone(), server_name: self.tls_server_name.clone() };
        config.name = self.name.clone().unwrap_or_else(|| default_name.to_owned());
        config.key = self.key.as_deref().map(BotKey::new).transpose()?;
        config.version = self.bot_version.clone();
        config.backoff = Backoff {
            initial: Duration::from_millis(self.reconnect_initial_ms),
            max: Duration::from_millis(self.reconnect_max_ms),
            attempts: self.reconnect_attempts,
        };
        Ok(config)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        connect: ConnectArgs,
    }

    #[test]
    fn back_off_doubles_up_to_its_cap() {
        let backoff = Backoff {
            initial: Duration::from_millis(100),
            max: Duration::from_millis(1_000),
            attempts: 5,
        };
        let waits: Vec<u128> = (1..=6).map(|n| backoff.delay(n).as_millis()).collect();
        assert_eq!(waits, [100, 200, 400, 800, 1_000, 1_000]);
        assert_eq!(backoff.delay(u32::MAX), Duration::from_millis(1_000));
    }

    #[test]
    fn flags_choose_a_token_or_a_queue() {
        let cli = Cli::try_parse_from(["bot", "--server", "http://h:1", "--token", "T"]).unwrap();
        let config = cli.connect.config("random").unwrap();
        assert_eq!(config.join, JoinBy::Token("T".into()));
        assert_eq!(config.name, "random");
        assert_eq!(config.server, "http://h:1");
        assert_eq!(config.tls, TlsOptions::default());

        let cli = Cli::try_parse_from([
            "bot",
            "--server",
            "https://h:1",
            "--ca-file",
            "ca.pem",
            "--tls-server-name",
            "cardroom.test",
            "--token",
            "T",
        ])
        .unwrap();
        let config = cli.connect.config("random").unwrap();
        assert_eq!(config.tls.ca_file, Some(PathBuf::from("ca.pem")));
        assert_eq!(config.tls.server_name.as_deref(), Some("cardroom.test"));

        let cli = Cli::try_parse_from([
            "bot",
            "--queue-game",
            "22",
            "--queue-seats",
            "4",
            "--queue-options",
            r#"{"limit": 11}"#,
            "--name",
            "me",
        ])
        .unwrap();
        let config = cli.connect.config("random").unwrap();
        assert_eq!(
            config.join,
            JoinBy::Queue {
                game: GameKind::TwentyTwo,
                options_json: r#"{"limit": 11}"#.into(),
                seats: 4
            }
        );
        assert_eq!(config.name, "me");

        assert_eq!((config.key, config.version), (None, String::new()));

        let cli = Cli::try_parse_from([
            "bot",
            "--lobby",
            "alice",
            "--key",
            "crk_00ff",
            "--bot-version",
            "v1.2",
        ])
        .unwrap();
        let config = cli.connect.config("random").unwrap();
        assert_eq!(config.join, JoinBy::Lobby("alice".into()));
        assert_eq!(
            config.key.as_ref().map(|key| key.header().as_bytes()),
            Some(&b"Bearer crk_00ff"[..])
        );
        assert_eq!(format!("{:?}", config.key), "Some(BotKey(…))");
        assert_eq!(config.version, "v1.2");
        let bad = Cli::try_parse_from(["bot", "--lobby", "a", "--key", "crk\n1"]).unwrap();
        assert_eq!(bad.connect.config("x").unwrap_err(), ConfigError::BadKey);

        let both = Cli::try_parse_from(["bot", "--token", "T", "--queue-game", "gin"]).unwrap();
        assert_eq!(both.connect.config("x").unwrap_err(), ConfigError::MoreThanOne);
    }
}
