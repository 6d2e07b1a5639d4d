//! The ladder file: the TOML that `cardroom arena run` reads, its defaults and its checks.
//!
//! Relative paths (`db`, `log_dir`, commands) are taken from the current directory. Every key
//! but `game`, `db` and `bots` has a default (the format's: the adaptive ladder, which plays
//! until the order is settled at 95%, at most 10,000 sets):
//!
//! ```toml
//! game = "twenty_two"          # or "gin"
//! seats = 2                    # seats per table (Gin Rummy: 2)
//! options = { limit = 22 }     # the rules' options (any left out take their defaults)
//! seed = 1                     # seeds every deal
//! duplicate = true             # every seating of a set plays the same deal
//! # max_rotations = 2          # at most this many seatings per duplicate set
//! # rating = "weng_lin"        # or "glicko2" (two seats only); default: glicko2 at
//! #                            # tables of two, weng_lin at larger ones
//! db = "arena.sqlite"          # the ladder's SQLite file: running again resumes it
//! log_dir = "arena-logs"       # external bots' output, one file per bot
//! parallel = 2                 # matches played at once
//! transport = "auto"           # "auto": gRPC when an external bot plays, else in process;
//!                              # "grpc": always over a server; "in_process": never
//! standings_every = 10         # print the standings every N matches (0: never)
//! # move_ms = 2000             # the clock over gRPC (default: the server's, 2 s + 30 s bank)
//! # bank_ms = 30000
//! reconnect_grace_ms = 10000   # how long the server waits for a seat's bot to (re)connect
//! max_restarts = 2             # an external bot that dies mid-match is started again
//! # listen = "0.0.0.0:50051"   # where the in-process server listens (default 127.0.0.1:0);
//! #                            # remote bots connect there
//! # server = "http://host:port" # or play on this running server instead of one in process
//! # ca_file = "ca.pem"         # an https:// server's CA (default: the system's roots); external
//! #                            # bots get it as CARDROOM_CA_FILE
//! # admin_token = "…"          # that server's admin token, if it has one
//! remote_wait_ms = 60000       # how long a match waits for its remote bots to be in the lobby
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
//! flags = true                 # append --server ADDR --token TOKEN (the CARDROOM_SERVER and
//!                              # CARDROOM_TOKEN environment variables are always set)
//! env = { PYTHONUNBUFFERED = "1" }
//!
//! [[bots]]
//! name = "alice"
//! lobby = "alice"              # a remote bot, already connected: it waits in the server's
//!                              # lobby under this name (`--lobby alice`) and is seated there
//! ```
//!
//! [`LadderFile::parse`] reads and checks a file in one step, so that nothing (no SQLite file,
//! no server) is made for a ladder that cannot run. A resumed ladder may grow its budget (see
//! [`Settings::resume`](crate::Settings::resume)).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;

use cardroom_sdk::{Clock, GameKind};
use serde::{Deserialize, Deserializer};

use crate::ladder::{ArenaError, Format, Settings};
use cardroom_rank::rating::RatingSystem;

/// How a ladder's matches are played.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    /// Over gRPC if any bot is external or remote (or `server` is given), else in process.
    #[default]
    Auto,
    /// Always over gRPC, through a server started in process (or `server`).
    Grpc,
    /// In process only (no external or remote bots).
    InProcess,
}

/// A ladder file (see the module's documentation for every key and its default).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderFile {
    /// The game: `twenty_two` or `gin` (the SDK's names and aliases).
    #[serde(deserialize_with = "game_kind")]
    pub game: GameKind,
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
    /// The ladder's SQLite file; running the same file again resumes it.
    pub db: PathBuf,
    /// Where external bots' output goes, one file per bot.
    #[serde(default = "log_dir")]
    pub log_dir: PathBuf,
    /// Matches played at once.
    #[serde(default = "two_usize")]
    pub parallel: usize,
    /// In process or over gRPC.
    #[serde(default)]
    pub transport: Transport,
    /// Print the standings every this many matches (0: never).
    #[serde(default = "ten")]
    pub standings_every: u64,
    /// Time per decision over gRPC, in milliseconds (default: the server's).
    #[serde(default)]
    pub move_ms: Option<u32>,
    /// Each seat's bank over gRPC, in milliseconds (default: the server's).
    #[serde(default)]
    pub bank_ms: Option<u32>,
    /// How long the in-process server waits for a seat's bot to (re)connect.
    #[serde(default = "ten_thousand")]
    pub reconnect_grace_ms: u64,
    /// How often an external bot that dies mid-match is started again.
    #[serde(default = "two_u32")]
    pub max_restarts: u32,
    /// Where the in-process server listens (default `127.0.0.1:0`).
    #[serde(default)]
    pub listen: Option<SocketAddr>,
    /// A running server to play on instead of one in process.
    #[serde(default)]
    pub server: Option<String>,
    /// The CA that signed an `https://` server's certificate (default: the system's roots).
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
    /// That server's admin token, if it has one.
    #[serde(default)]
    pub admin_token: Option<String>,
    /// How long a match waits for its remote bots to be in the lobby, in milliseconds.
    #[serde(default = "sixty_thousand")]
    pub remote_wait_ms: u64,
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
    /// Its name in the ladder (unique).
    pub name: String,
    /// A bot built into the `cardroom` binary (`random`, `tt-heuristic`, `gin-heuristic`,
    /// `search`).
    #[serde(default)]
    pub builtin: Option<String>,
    /// A program and its arguments, started for every seat the bot plays.
    #[serde(default)]
    pub command: Option<Vec<String>>,
    /// A remote bot waiting in the server's lobby under this name.
    #[serde(default)]
    pub lobby: Option<String>,
    /// Whether to append `--server ADDR --token TOKEN` to `command`.
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

    /// An external bot: `command` started for every seat, with `--server`/`--token` flags.
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
    pub fn source(&self) -> Result<BotSource<'_>, ArenaError> {
        let bad = || {
            ArenaError::Config(format!(
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
    pub fn parse(text: &str) -> Result<LadderFile, ArenaError> {
        let file: LadderFile =
            toml::from_str(text).map_err(|e| ArenaError::Config(e.to_string()))?;
        file.check()?;
        Ok(file)
    }

    /// Checks what can be checked without the game's engine or the bots' programs: every bot
    /// is of one kind, the transport can play them, and the settings fit the bots
    /// ([`Settings::check`]).
    pub fn check(&self) -> Result<(), ArenaError> {
        for bot in &self.bots {
            bot.source()?;
        }
        if self.transport == Transport::InProcess && self.needs_network() {
            return Err(ArenaError::Config(
                "transport = \"in_process\" cannot play external or remote bots, nor use `server`"
                    .into(),
            ));
        }
        if self.parallel == 0 {
            return Err(ArenaError::Config("parallel must be at least 1".into()));
        }
        if self.ca_file.is_some() && !self.server.as_deref().is_some_and(is_https) {
            return Err(ArenaError::Config(
                "`ca_file` is for an https:// `server`; the arena's own server speaks plaintext"
                    .into(),
            ));
        }
        self.settings().check(&self.names())
    }

    /// Whether some bot is external or remote, or the file names a running server.
    pub fn needs_network(&self) -> bool {
        self.server.is_some() || self.bots.iter().any(|b| b.builtin.is_none())
    }

    /// Whether the matches are played over gRPC.
    pub fn uses_grpc(&self) -> bool {
        match self.transport {
            Transport::Auto => self.needs_network(),
            Transport::Grpc => true,
            Transport::InProcess => false,
        }
    }

    /// The rating system: the file's, else Glicko-2 at tables of two and Weng-Lin at larger.
    pub fn rating_system(&self) -> RatingSystem {
        self.rating.unwrap_or(if self.seats == 2 {
            RatingSystem::Glicko2
        } else {
            RatingSystem::WengLin
        })
    }

    /// The ladder's settings, as its store keeps them.
    pub fn settings(&self) -> Settings {
        Settings {
            table: self.seats,
            seed: self.seed,
            duplicate: self.duplicate,
            max_rotations: self.max_rotations,
            format: self.format.clone(),
            rating: self.rating_system(),
        }
    }

    /// The bots' names, in the file's order.
    pub fn names(&self) -> Vec<String> {
        self.bots.iter().map(|b| b.name.clone()).collect()
    }

    /// The match clock over gRPC, if the file sets one (an unset half takes 2 s a move or a
    /// 30 s bank).
    pub fn clock(&self) -> Option<Clock> {
        match (self.move_ms, self.bank_ms) {
            (None, None) => None,
            (move_ms, bank_ms) => Some(Clock {
                move_ms: move_ms.unwrap_or(2_000),
                bank_ms: bank_ms.unwrap_or(30_000),
            }),
        }
    }

    /// The options as JSON text, as the engines and `CreateMatch` read them.
    pub fn options_json(&self) -> String {
        // A TOML table is always representable as JSON.
        serde_json::to_string(&self.options).unwrap_or_else(|_| "{}".to_owned())
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
fn two_usize() -> usize {
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
fn sixty_thousand() -> u64 {
    60_000
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
        assert!(error.contains("cannot play external or remote bots"), "{error}");
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
