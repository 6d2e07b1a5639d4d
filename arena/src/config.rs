//! The ladder file: the TOML that `cardroom arena run` reads, its defaults and its checks. It
//! names a ladder and the bots to start for it; `arena run` plays it as a hosted ladder
//! ([`LadderFile::hosted`]) on a server in process over the one store.
//!
//! Relative paths (`db`, `log_dir`, commands) are taken from the current directory. Every key
//! but `game`, `db` and `bots` has a default (the format's: the adaptive ladder, which plays
//! until the order is settled at 95%, at most 10,000 sets):
//!
//! ```toml
//! game = "twenty_two"          # or "gin"
//! # name = "tt"                # the ladder's name in the store (default: db's file name)
//! seats = 2                    # seats per table (Gin Rummy: 2)
//! options = { limit = 22 }     # the rules' options (any left out take their defaults)
//! seed = 1                     # seeds every deal
//! duplicate = true             # every seating of a set plays the same deal
//! # max_rotations = 2          # at most this many seatings per duplicate set
//! # rating = "weng_lin"        # or "glicko2" (two seats only); default: glicko2 at
//! #                            # tables of two, weng_lin at larger ones
//! db = "arena.sqlite"          # the store: a SQLite file, or a postgres:// URL; running
//!                              # again carries the ladder on
//! log_dir = "arena-logs"       # external bots' output, one file per bot
//! parallel = 2                 # matches played at once (and each bot's streams)
//! standings_every = 10         # print the standings every N matches (0: never)
//! # move_ms = 2000             # the clock (default: the server's, 2 s + 30 s bank)
//! # bank_ms = 30000
//! reconnect_grace_ms = 10000   # how long the server waits for a seat's bot to (re)connect
//! max_restarts = 2             # an external bot that exits is started again, this often
//! # finals = false             # each bot plays the version of its first set only
//! # listen = "0.0.0.0:50051"   # where the in-process server listens (default 127.0.0.1:0);
//! #                            # remote bots connect there
//! # server = "http://host:port" # or run the ladder on this running server (CreateLadder)
//! # ca_file = "ca.pem"         # an https:// server's CA (default: the system's roots); external
//! #                            # bots get it as CARDROOM_CA_FILE
//! # admin_token = "…"          # that server's admin token (needed with `server`)
//!
//! [format]                     # the format and its budget, one of:
//! kind = "adaptive"            # until the order is settled (`cardroom_rank::settle`),
//! max_sets = 10000             # or this many duplicate sets
//! # kind = "round_robin"       # rounds = 1
//! # kind = "gauntlet"          # challenger = "name", rounds = 1
//! # kind = "swiss"             # rounds = N (two seats)
//! # kind = "continuous"        # sets = N (duplicate sets in all)
//! # kind = "sprt"              # a = "name", b = "name", max_sets = 10000,
//! #                            # [format.sprt] alpha, beta, elo0, elo1, min_samples
//!
//! [[bots]]
//! name = "random"
//! builtin = "random"           # random, tt-heuristic, gin-heuristic, search
//!
//! [[bots]]
//! name = "python-tt"
//! command = [".venv/bin/python", "example-bots/python/tt_bot.py"]
//! flags = true                 # append --server ADDR --lobby NAME --name NAME --matches 0
//!                              # --concurrency N (the CARDROOM_* variables are always set,
//!                              # the key only there)
//! env = { PYTHONUNBUFFERED = "1" }
//!
//! [[bots]]
//! name = "alice"
//! lobby = "alice"              # a remote bot: registered, it waits in the server's lobby
//!                              # with its key (`--lobby alice --key …`)
//! ```
//!
//! [`LadderFile::parse`] reads and checks a file in one step, so that nothing (no store, no
//! server) is made for a ladder that cannot run. A ladder carried on may grow its budget
//! (`rounds`, `sets`, `max_sets`).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use cardroom_sdk::GameKind;
use serde::{Deserialize, Deserializer, Serialize};

use crate::hosted::{HostedLadderFile, MAX_LADDER_NAME_BYTES};
use cardroom_rank::rating::RatingSystem;
use cardroom_rank::sprt::SprtConfig;

/// Why a ladder file is refused: what is wrong, naming the key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

/// A ladder's format and its budget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Format {
    /// Every table of the field, `rounds` times.
    RoundRobin {
        /// How many times.
        #[serde(default = "one")]
        rounds: u32,
    },
    /// The challenger against every table of the others, `rounds` times.
    Gauntlet {
        /// The challenger's name.
        challenger: String,
        /// How many times.
        #[serde(default = "one")]
        rounds: u32,
    },
    /// Swiss pairing by points (two-player games).
    Swiss {
        /// Rounds.
        rounds: u32,
    },
    /// Plays where the head-to-head order is least settled until it is settled at 95% for
    /// the whole table ([`cardroom_rank::settle`]), or `max_sets`. The ladder file's default.
    Adaptive {
        /// Give up unsettled after this many sets.
        #[serde(default = "many")]
        max_sets: u32,
    },
    /// Keeps playing the table whose order is least certain by the ratings.
    Continuous {
        /// Duplicate sets in all.
        sets: u32,
    },
    /// Bot `a` against bot `b` until the SPRT decides (or `max_sets`).
    Sprt {
        /// The first bot's name (the one tested for being stronger).
        a: String,
        /// The second bot's name.
        b: String,
        /// The test.
        #[serde(default)]
        sprt: SprtConfig,
        /// Give up undecided after this many sets.
        #[serde(default = "many")]
        max_sets: u32,
    },
}

impl Format {
    /// The sets the format plays at most with `bots` bots at tables of `seats`: every set of a
    /// plan, or the budget of the others (which may stop sooner).
    pub fn max_sets(&self, bots: usize, seats: usize) -> u64 {
        use cardroom_rank::schedule::{gauntlet, round_robin};
        match self {
            Format::RoundRobin { rounds } => {
                u64::from(*rounds) * round_robin(bots, seats).len() as u64
            }
            Format::Gauntlet { rounds, .. } => {
                u64::from(*rounds) * gauntlet(0, bots, seats).len() as u64
            }
            Format::Swiss { rounds } => u64::from(*rounds) * (bots / 2) as u64,
            Format::Adaptive { max_sets } | Format::Sprt { max_sets, .. } => u64::from(*max_sets),
            Format::Continuous { sets } => u64::from(*sets),
        }
    }
}

/// A ladder file (see the module's documentation for every key and its default).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderFile {
    /// The game: `twenty_two` or `gin` (the SDK's names and aliases).
    #[serde(deserialize_with = "game_kind")]
    pub game: GameKind,
    /// The ladder's name in the store (default: the name of `db`'s file).
    #[serde(default)]
    pub name: Option<String>,
    /// Seats per table.
    #[serde(default = "two")]
    pub seats: u8,
    /// The rules' options; any left out take their defaults.
    #[serde(default)]
    pub options: toml::Table,
    /// Seeds every deal.
    #[serde(default)]
    pub seed: u64,
    /// Whether every seating of a set plays the same deal.
    #[serde(default = "yes")]
    pub duplicate: bool,
    /// At most this many seatings per duplicate set (`None`: every rotation).
    #[serde(default)]
    pub max_rotations: Option<usize>,
    /// The rating system; by default Glicko-2 at tables of two, Weng-Lin at larger ones.
    #[serde(default)]
    pub rating: Option<RatingSystem>,
    /// The store: a SQLite file, or a `postgres://` URL. Running the file again carries the
    /// ladder on.
    pub db: String,
    /// Where external bots' output goes, one file per bot.
    #[serde(default = "log_dir")]
    pub log_dir: PathBuf,
    /// Matches played at once, and the streams each bot waits on.
    #[serde(default = "two_u32")]
    pub parallel: u32,
    /// Print the standings every this many matches (0: never).
    #[serde(default = "ten")]
    pub standings_every: u64,
    /// Time per decision, in milliseconds (default: the server's).
    #[serde(default)]
    pub move_ms: Option<u32>,
    /// Each seat's bank, in milliseconds (default: the server's).
    #[serde(default)]
    pub bank_ms: Option<u32>,
    /// How long the in-process server waits for a seat's bot to (re)connect.
    #[serde(default = "ten_thousand")]
    pub reconnect_grace_ms: u64,
    /// How often an external bot that exits is started again.
    #[serde(default = "two_u32")]
    pub max_restarts: u32,
    /// A finals ladder: each bot plays the version of its first set only.
    #[serde(default)]
    pub finals: bool,
    /// Where the in-process server listens (default `127.0.0.1:0`).
    #[serde(default)]
    pub listen: Option<SocketAddr>,
    /// A running server to run the ladder on instead of one in process.
    #[serde(default)]
    pub server: Option<String>,
    /// The CA that signed an `https://` server's certificate (default: the system's roots).
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
    /// That server's admin token.
    #[serde(default)]
    pub admin_token: Option<String>,
    /// Gone: every ladder is played over gRPC. Refused with that reason.
    #[serde(default)]
    transport: Option<toml::Value>,
    /// Gone: a hosted ladder plans a set once its bots wait. Refused with that reason.
    #[serde(default)]
    remote_wait_ms: Option<toml::Value>,
    /// The format and its budget (default: the adaptive ladder, at most 10,000 sets).
    #[serde(default = "adaptive")]
    pub format: Format,
    /// The bots.
    pub bots: Vec<BotEntry>,
}

/// One bot of a ladder file: exactly one of `builtin`, `command` or `lobby`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotEntry {
    /// Its name: its account in the store, and its name in the ladder (unique).
    pub name: String,
    /// A bot built into the `cardroom` binary (`random`, `tt-heuristic`, `gin-heuristic`,
    /// `search`).
    #[serde(default)]
    pub builtin: Option<String>,
    /// A program and its arguments, started once and waiting in the lobby with the bot's key
    /// (started again if it exits, up to `max_restarts` times).
    #[serde(default)]
    pub command: Option<Vec<String>>,
    /// A remote bot: it waits in the server's lobby under this name, with its key.
    #[serde(default)]
    pub lobby: Option<String>,
    /// Whether to append `--server ADDR --lobby NAME --name NAME --matches 0 --concurrency N`
    /// to `command`.
    #[serde(default = "yes")]
    pub flags: bool,
    /// Extra environment variables for `command`.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
}

/// How a checked [`BotEntry`] plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BotSource<'a> {
    /// Built into the binary, by name.
    Builtin(&'a str),
    /// A program (never empty: the first word is the program).
    Command(&'a [String]),
    /// A remote bot in the server's lobby, by its lobby name.
    Lobby(&'a str),
}

impl BotEntry {
    /// A built-in bot.
    pub fn builtin(name: &str, builtin: &str) -> BotEntry {
        BotEntry {
            name: name.to_owned(),
            builtin: Some(builtin.to_owned()),
            command: None,
            lobby: None,
            flags: true,
            env: BTreeMap::new(),
        }
    }

    /// An external bot: `command`, started with the lobby's flags.
    pub fn command(name: &str, command: Vec<String>) -> BotEntry {
        BotEntry {
            name: name.to_owned(),
            builtin: None,
            command: Some(command),
            lobby: None,
            flags: true,
            env: BTreeMap::new(),
        }
    }

    /// Which kind of bot this is, or why it is none or several.
    pub fn source(&self) -> Result<BotSource<'_>, ConfigError> {
        let bad = || {
            ConfigError(format!(
                "bot \"{}\": give exactly one of `builtin`, a non-empty `command` or a \
                 non-empty `lobby`",
                self.name
            ))
        };
        match (&self.builtin, &self.command, &self.lobby) {
            (Some(builtin), None, None) => Ok(BotSource::Builtin(builtin)),
            (None, Some(command), None) if !command.is_empty() => Ok(BotSource::Command(command)),
            (None, None, Some(lobby)) if !lobby.is_empty() => Ok(BotSource::Lobby(lobby)),
            _ => Err(bad()),
        }
    }
}

impl LadderFile {
    /// Reads a ladder file's text and checks it ([`LadderFile::check`]).
    pub fn parse(text: &str) -> Result<LadderFile, ConfigError> {
        let file: LadderFile = toml::from_str(text).map_err(|e| ConfigError(e.to_string()))?;
        file.check()?;
        Ok(file)
    }

    /// Checks what can be checked without the game's engine or the bots' programs: every bot
    /// is of one kind, names differ, and the hosted ladder it makes is sound
    /// ([`HostedLadderFile::check`]).
    pub fn check(&self) -> Result<(), ConfigError> {
        let refuse = |message: &str| Err(ConfigError(message.to_owned()));
        if self.transport.is_some() {
            return refuse(
                "`transport` is gone: every ladder is played over gRPC, on a server in process \
                 or `server`; remove the key",
            );
        }
        if self.remote_wait_ms.is_some() {
            return refuse(
                "`remote_wait_ms` is gone: a set is planned once its bots wait in the lobby; \
                 remove the key",
            );
        }
        for bot in &self.bots {
            bot.source()?;
        }
        let names = self.names();
        if names.iter().enumerate().any(|(i, n)| names[..i].contains(n)) {
            return refuse("bot names must differ");
        }
        if names.len() < usize::from(self.seats) {
            return Err(ConfigError(format!(
                "{} bots cannot fill tables of {}",
                names.len(),
                self.seats
            )));
        }
        if self.parallel == 0 {
            return refuse("`parallel` must be at least 1");
        }
        if self.ca_file.is_some() && !self.server.as_deref().is_some_and(is_https) {
            return refuse(
                "`ca_file` is for an https:// `server`; the arena's own server speaks plaintext",
            );
        }
        if self.server.is_some() && self.admin_token.is_none() {
            return refuse("`server` needs its `admin_token`: the arena registers the bots there");
        }
        let named: Vec<&String> = match &self.format {
            Format::Gauntlet { challenger, .. } => vec![challenger],
            Format::Sprt { a, b, .. } => vec![a, b],
            _ => Vec::new(),
        };
        if let Some(missing) = named.into_iter().find(|n| !names.contains(n)) {
            return Err(ConfigError(format!(
                "the format names \"{missing}\", no bot of the ladder"
            )));
        }
        HostedLadderFile::parse(&self.hosted()?).map_err(|e| ConfigError(e.0))?;
        Ok(())
    }

    /// The ladder's name in the store: `name`, or one from `db` ([`LadderFile::name_from_path`]).
    pub fn ladder_name(&self) -> String {
        match &self.name {
            Some(name) => name.clone(),
            None => LadderFile::name_from_path(&self.db),
        }
    }

    /// A ladder name from a store's path or URL: the file's name without its extension (its
    /// characters outside letters, digits, '.', '_' and '-' made '-'), or `arena` for a URL.
    pub fn name_from_path(db: &str) -> String {
        let path = db.strip_prefix("sqlite:").unwrap_or(db);
        let stem = if db.contains("://") {
            "arena".to_owned()
        } else {
            Path::new(path).file_stem().map_or("arena".into(), |s| s.to_string_lossy().into())
        };
        let name: String = stem
            .chars()
            .map(
                |c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '-' },
            )
            .take(MAX_LADDER_NAME_BYTES)
            .collect();
        if name.is_empty() { "arena".into() } else { name }
    }

    /// The store's URL: `db` as given when it is one, else `sqlite:` and the path.
    pub fn store_url(&self) -> String {
        if self.db.starts_with("sqlite:") || self.db.contains("://") {
            self.db.clone()
        } else {
            format!("sqlite:{}", self.db)
        }
    }

    /// The hosted ladder file of this ladder ([`BatchLadder::hosted_text`]).
    pub fn hosted(&self) -> Result<String, ConfigError> {
        BatchLadder {
            name: &self.ladder_name(),
            game: self.game,
            seats: self.seats,
            options: &self.options,
            seed: self.seed,
            duplicate: self.duplicate,
            max_rotations: self.max_rotations,
            rating: self.rating_system(),
            parallel: self.parallel,
            move_ms: self.move_ms,
            bank_ms: self.bank_ms,
            finals: self.finals,
            bots: &self.names(),
            format: &self.format,
        }
        .hosted_text()
    }

    /// The rating system: the file's, else Glicko-2 at tables of two and Weng-Lin at larger.
    pub fn rating_system(&self) -> RatingSystem {
        self.rating.unwrap_or(if self.seats == 2 {
            RatingSystem::Glicko2
        } else {
            RatingSystem::WengLin
        })
    }

    /// The bots' names, in the file's order.
    pub fn names(&self) -> Vec<String> {
        self.bots.iter().map(|b| b.name.clone()).collect()
    }

    /// The options as JSON text, as the engines read them.
    pub fn options_json(&self) -> String {
        // A TOML table is always representable as JSON.
        serde_json::to_string(&self.options).unwrap_or_else(|_| "{}".to_owned())
    }
}

/// A batch ladder as a hosted ladder sees it: a ladder file's settings, or those of an old
/// arena file being imported ([`crate::import`]).
#[derive(Clone, Copy, Debug)]
pub struct BatchLadder<'a> {
    /// The ladder's name in the store.
    pub name: &'a str,
    /// The game.
    pub game: GameKind,
    /// Seats per table.
    pub seats: u8,
    /// The rules' options.
    pub options: &'a toml::Table,
    /// Seeds every deal.
    pub seed: u64,
    /// Whether every seating of a set plays the same deal.
    pub duplicate: bool,
    /// At most this many seatings per set.
    pub max_rotations: Option<usize>,
    /// The rating system.
    pub rating: RatingSystem,
    /// Matches at once, and each bot's cap.
    pub parallel: u32,
    /// The clock, if set.
    pub move_ms: Option<u32>,
    /// Each seat's bank, if set.
    pub bank_ms: Option<u32>,
    /// A finals ladder.
    pub finals: bool,
    /// The bots' names, in order (a plan is over them).
    pub bots: &'a [String],
    /// The format and its budget.
    pub format: &'a Format,
}

impl BatchLadder<'_> {
    /// The hosted ladder file ([`crate::hosted::HostedLadderFile`]'s keys): its game and
    /// deals, each bot able to play `parallel` matches at once, no bot ever paused for failing
    /// (a batch ladder records failures, it does not exclude), and the format as a schedule and
    /// a budget.
    pub fn hosted_text(&self) -> Result<String, ConfigError> {
        use toml::Value;
        let mut t = toml::Table::new();
        let mut put = |key: &str, value: Value| {
            t.insert(key.to_owned(), value);
        };
        let int = |n: u64| Value::Integer(i64::try_from(n).unwrap_or(i64::MAX));
        put("name", Value::String(self.name.to_owned()));
        put("game", Value::String(self.game.name().to_owned()));
        put("seats", int(u64::from(self.seats)));
        put("options", Value::Table(self.options.clone()));
        put("seed", int(self.seed));
        put("duplicate", Value::Boolean(self.duplicate));
        if let Some(rotations) = self.max_rotations {
            put("max_rotations", int(rotations as u64));
        }
        put("rating", Value::String(self.rating.name().to_owned()));
        put("max_concurrent", int(u64::from(self.parallel)));
        put("max_matches", int(u64::from(self.parallel)));
        put("move_ms", int(u64::from(self.move_ms.unwrap_or(0))));
        put("bank_ms", int(u64::from(self.bank_ms.unwrap_or(0))));
        put("finals", Value::Boolean(self.finals));
        put("bots", Value::Array(self.bots.iter().cloned().map(Value::String).collect()));
        let mut health = toml::Table::new();
        health.insert("max_failures".into(), int(0));
        put("health", Value::Table(health));
        let schedule = |name: &str| Value::String(name.to_owned());
        match self.format {
            Format::RoundRobin { rounds } => {
                put("schedule", schedule("round_robin"));
                put("rounds", int(u64::from(*rounds)));
            }
            Format::Gauntlet { challenger, rounds } => {
                put("schedule", schedule("gauntlet"));
                put("challenger", Value::String(challenger.clone()));
                put("rounds", int(u64::from(*rounds)));
            }
            Format::Swiss { rounds } => {
                put("schedule", schedule("swiss"));
                put("rounds", int(u64::from(*rounds)));
            }
            Format::Adaptive { max_sets } => {
                put("schedule", schedule("adaptive"));
                put("stop_when_settled", Value::Boolean(true));
                put("max_sets", int(u64::from(*max_sets)));
            }
            Format::Continuous { sets } => {
                put("schedule", schedule("least_certain"));
                put("max_sets", int(u64::from(*sets)));
            }
            Format::Sprt { a, b, sprt, max_sets } => {
                put("format", schedule("sprt"));
                put("max_sets", int(u64::from(*max_sets)));
                let mut test = toml::Table::new();
                test.insert("a".into(), Value::String(a.clone()));
                test.insert("b".into(), Value::String(b.clone()));
                test.insert("alpha".into(), Value::Float(sprt.alpha));
                test.insert("beta".into(), Value::Float(sprt.beta));
                test.insert("elo0".into(), Value::Float(sprt.elo0));
                test.insert("elo1".into(), Value::Float(sprt.elo1));
                test.insert("min_samples".into(), int(u64::from(sprt.min_samples)));
                put("sprt", Value::Table(test));
            }
        }
        toml::to_string(&t).map_err(|e| ConfigError(format!("the hosted ladder file: {e}")))
    }
}

/// Reads a game by the catalogue's names and aliases (`twenty_two`, `22`, `gin`, `gin_rummy`, …);
/// an unknown name is refused with the list of games.
pub(crate) fn game_kind<'de, D: Deserializer<'de>>(deserializer: D) -> Result<GameKind, D::Error> {
    let name = String::deserialize(deserializer)?;
    name.parse().map_err(serde::de::Error::custom)
}

fn two() -> u8 {
    2
}
fn two_u32() -> u32 {
    2
}
fn ten() -> u64 {
    10
}
fn ten_thousand() -> u64 {
    10_000
}
fn one() -> u32 {
    1
}
fn many() -> u32 {
    10_000
}
fn adaptive() -> Format {
    Format::Adaptive { max_sets: 10_000 }
}
fn yes() -> bool {
    true
}
fn log_dir() -> PathBuf {
    PathBuf::from("arena-logs")
}

/// Whether `server` is the URL of a server that speaks TLS.
fn is_https(server: &str) -> bool {
    server.starts_with("https://")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_documented_and_example_ladder_files_parse() {
        let readme = include_str!("../README.md");
        let start = readme.find("```toml\n").map(|i| i + 8).unwrap_or(0);
        let end = readme[start..].find("```").map_or(readme.len(), |i| start + i);
        let examples = [
            &readme[start..end],
            include_str!("../../examples/arena/twenty-two.toml"),
            include_str!("../../examples/arena/gin-sprt.toml"),
            include_str!("../../examples/arena/twenty-two-sprt4.toml"),
        ];
        for text in examples {
            let file = LadderFile::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert!(file.bots.len() >= 2);
        }
    }

    #[test]
    fn the_format_defaults_to_the_adaptive_ladder() {
        let file = LadderFile::parse(
            "game = \"gin\"\ndb = \"x.sqlite\"\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n\
             [[bots]]\nname = \"b\"\nbuiltin = \"gin-heuristic\"\n",
        )
        .unwrap();
        assert_eq!(file.format, Format::Adaptive { max_sets: 10_000 });
        assert!(file.duplicate);
    }

    fn ladder(bots: &str) -> String {
        format!(
            "game = \"twenty_two\"\ndb = \"x.sqlite\"\n[format]\nkind = \"round_robin\"\n{bots}"
        )
    }

    #[test]
    fn a_bot_must_be_of_exactly_one_kind() {
        let two_kinds = ladder(
            "[[bots]]\nname = \"a\"\nbuiltin = \"random\"\nlobby = \"a\"\n\
             [[bots]]\nname = \"b\"\nbuiltin = \"random\"\n",
        );
        let error = LadderFile::parse(&two_kinds).unwrap_err().to_string();
        assert!(error.contains("bot \"a\": give exactly one of"), "{error}");
        let empty = ladder(
            "[[bots]]\nname = \"a\"\ncommand = []\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n",
        );
        let error = LadderFile::parse(&empty).unwrap_err().to_string();
        assert!(error.contains("bot \"a\": give exactly one of"), "{error}");
    }

    #[test]
    fn settings_that_do_not_fit_the_bots_are_refused_when_the_file_is_read() {
        let alone = ladder("[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n");
        let error = LadderFile::parse(&alone).unwrap_err().to_string();
        assert!(error.contains("1 bots cannot fill tables of 2"), "{error}");
        let twins = ladder(
            "[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n",
        );
        let error = LadderFile::parse(&twins).unwrap_err().to_string();
        assert!(error.contains("bot names must differ"), "{error}");
        let in_process = format!(
            "transport = \"in_process\"\n{}",
            ladder(
                "[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nlobby = \"b\"\n"
            )
        );
        let error = LadderFile::parse(&in_process).unwrap_err().to_string();
        assert!(error.contains("`transport` is gone"), "{error}");
    }

    #[test]
    fn each_format_becomes_a_hosted_ladder_with_its_budget() {
        let bots = "[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n\
                    [[bots]]\nname = \"b\"\nbuiltin = \"random\"\n";
        let cases = [
            ("kind = \"round_robin\"\nrounds = 3", "round_robin", Some(3), None),
            ("kind = \"gauntlet\"\nchallenger = \"a\"", "gauntlet", Some(1), None),
            ("kind = \"swiss\"\nrounds = 2", "swiss", Some(2), None),
            ("kind = \"adaptive\"\nmax_sets = 40", "adaptive", None, Some(40)),
            ("kind = \"continuous\"\nsets = 7", "least_certain", None, Some(7)),
            ("kind = \"sprt\"\na = \"a\"\nb = \"b\"\nmax_sets = 9", "adaptive", None, Some(9)),
        ];
        for (format, schedule, rounds, max_sets) in cases {
            let text = format!(
                "game = \"gin\"\ndb = \"runs/my ladder.sqlite\"\n{bots}[format]\n{format}\n"
            );
            let file = LadderFile::parse(&text).unwrap();
            let hosted = HostedLadderFile::parse(&file.hosted().unwrap()).unwrap();
            assert_eq!(hosted.name, "my-ladder", "from the db's file name");
            assert_eq!(hosted.schedule.name(), schedule, "{format}");
            assert_eq!((hosted.rounds, hosted.max_sets), (rounds, max_sets), "{format}");
            assert_eq!(hosted.bots.as_deref(), Some(&["a".to_owned(), "b".to_owned()][..]));
            assert_eq!(hosted.health.max_failures, 0, "the arena pauses no bot");
        }
        assert_eq!(
            LadderFile::parse(&format!("game = \"gin\"\ndb = \"postgres://h/db\"\n{bots}"))
                .unwrap()
                .store_url(),
            "postgres://h/db"
        );
    }

    #[test]
    fn games_are_read_by_the_catalogues_names_and_an_unknown_one_lists_them() {
        let file = LadderFile::parse(&ladder(
            "[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n",
        ))
        .unwrap();
        assert_eq!(file.game, GameKind::TwentyTwo);
        let poker = ladder("").replace("twenty_two", "poker");
        let error = LadderFile::parse(&poker).unwrap_err().to_string();
        assert!(error.contains("unknown game \"poker\": the games are twenty_two"), "{error}");
    }
}
