//! The hosted ladder file: the TOML that `cardroom serve --ladder FILE` and the `CreateLadder`
//! rpc read, its defaults and its checks. Every key but `name` and `game` has a default:
//!
//! ```toml
//! name = "tt-4"               # the ladder's name, unique in the server's store
//! game = "twenty_two"         # or "gin"
//! seats = 4                   # seats per table: Twenty-Two 2 to 12 (its packs allowing), Gin 2
//! options = { limit = 22 }    # the rules' options (any left out take their defaults)
//! seed = 1                    # seeds every deal
//! # max_rotations = 4         # at most this many seatings per duplicate set (default: all)
//! # rating = "weng_lin"       # or "glicko2" (two seats), "trueskill"; default: glicko2 at
//! #                           # tables of two, weng_lin at larger ones
//! max_concurrent = 1          # matches one bot plays at once in this ladder (its cap)
//! max_matches = 64            # matches this ladder runs at once
//! # move_ms = 2000            # the clock (default: the server's)
//! # bank_ms = 30000
//! provisional_sets = 5        # a bot is provisional until this many of its sets are rated
//! absent_ms = 5000            # a bot out of the lobby this long (and playing nothing) has left:
//!                             # its planned sets are voided
//! # bots = ["alice", "bob"]   # only these registered bots (default: every registered bot
//!                             # waiting in the lobby)
//!
//! [health]
//! window = 5                  # a bot's last N matches in the ladder
//! max_failures = 3            # paused once this many of them failed (crash, forfeit, illegal
//!                             # action, timeout); 0: never paused
//! ```

use cardroom_proto::wire::{self, WireGame, WireVisitor};
use cardroom_sdk::GameKind;
use serde::Deserialize;

use crate::config::game_kind;
use crate::rating::RatingSystem;

/// The longest ladder name, in bytes.
pub const MAX_LADDER_NAME_BYTES: usize = 64;

/// A hosted ladder file (see the module's documentation for every key and its default).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostedLadderFile {
    /// The ladder's name.
    pub name: String,
    /// The game.
    #[serde(deserialize_with = "game_kind")]
    pub game: GameKind,
    /// Seats per table.
    #[serde(default = "two")]
    pub seats: u8,
    /// The rules' options.
    #[serde(default)]
    pub options: toml::Table,
    /// Seeds every deal.
    #[serde(default)]
    pub seed: u64,
    /// At most this many seatings per duplicate set (`None`: every rotation).
    #[serde(default)]
    pub max_rotations: Option<usize>,
    /// The rating system (default by table size).
    #[serde(default)]
    pub rating: Option<RatingSystem>,
    /// Matches one bot plays at once in this ladder.
    #[serde(default = "one")]
    pub max_concurrent: u32,
    /// Matches the ladder runs at once.
    #[serde(default = "sixty_four")]
    pub max_matches: u32,
    /// Time per decision in milliseconds (0: the server's).
    #[serde(default)]
    pub move_ms: u32,
    /// Each seat's bank in milliseconds (0: the server's).
    #[serde(default)]
    pub bank_ms: u32,
    /// A bot is provisional until this many of its sets are rated.
    #[serde(default = "five")]
    pub provisional_sets: u32,
    /// A bot out of the lobby this long, playing nothing, has left (milliseconds).
    #[serde(default = "five_thousand")]
    pub absent_ms: u64,
    /// Only these registered bots (default: every one waiting in the lobby).
    #[serde(default)]
    pub bots: Option<Vec<String>>,
    /// When a failing bot is paused.
    #[serde(default)]
    pub health: Health,
}

/// When a bot whose matches keep failing is paused.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Health {
    /// A bot's last this many matches in the ladder count.
    #[serde(default = "five")]
    pub window: u32,
    /// Paused once this many of them failed; 0: never.
    #[serde(default = "three")]
    pub max_failures: u32,
}

impl Default for Health {
    fn default() -> Health {
        Health { window: five(), max_failures: three() }
    }
}

/// Why a hosted ladder file is refused: the field and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the hosted ladder file: {0}")]
pub struct LadderFileError(pub String);

impl HostedLadderFile {
    /// Reads and checks a ladder file whole.
    pub fn parse(text: &str) -> Result<HostedLadderFile, LadderFileError> {
        let file: HostedLadderFile =
            toml::from_str(text).map_err(|e| LadderFileError(e.to_string()))?;
        file.check()?;
        Ok(file)
    }

    /// Checks every field, each error naming its field.
    pub fn check(&self) -> Result<(), LadderFileError> {
        let refuse = |message: String| Err(LadderFileError(message));
        let name = &self.name;
        if name.is_empty() || name.len() > MAX_LADDER_NAME_BYTES {
            return refuse(format!("`name` must be 1 to {MAX_LADDER_NAME_BYTES} bytes"));
        }
        if let Some(bad) =
            name.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
        {
            return refuse(format!(
                "`name` {name:?}: {bad:?} is not one of the letters, digits, '.', '_' and '-'"
            ));
        }
        wire::visit(
            self.game,
            CheckTable { options_json: &self.options_json(), seats: self.seats },
        )
        .map_err(|why| {
            LadderFileError(format!("`seats` = {} with `options`: {why}", self.seats))
        })?;
        if self.rating_system() == RatingSystem::Glicko2 && self.seats != 2 {
            return refuse(format!("`rating` = \"glicko2\" needs `seats` = 2, not {}", self.seats));
        }
        if self.max_rotations == Some(0) {
            return refuse("`max_rotations` must be at least 1".into());
        }
        if self.max_concurrent == 0 {
            return refuse("`max_concurrent` must be at least 1".into());
        }
        if self.max_matches == 0 {
            return refuse("`max_matches` must be at least 1".into());
        }
        if self.health.window == 0 || self.health.max_failures > self.health.window {
            return refuse(format!(
                "`health.max_failures` ({}) must be at most `health.window` ({}), which is at \
                 least 1",
                self.health.max_failures, self.health.window
            ));
        }
        if let Some(bots) = &self.bots {
            if let Some(twice) = bots.iter().enumerate().find(|(i, b)| bots[..*i].contains(b)) {
                return refuse(format!("`bots` names {:?} twice", twice.1));
            }
            if bots.len() < usize::from(self.seats) {
                return refuse(format!(
                    "`bots` names {} bots, too few for tables of {}",
                    bots.len(),
                    self.seats
                ));
            }
        }
        Ok(())
    }

    /// The rating system: the file's, else Glicko-2 at tables of two and Weng-Lin at larger.
    pub fn rating_system(&self) -> RatingSystem {
        self.rating.unwrap_or(if self.seats == 2 {
            RatingSystem::Glicko2
        } else {
            RatingSystem::WengLin
        })
    }

    /// The options as JSON.
    pub fn options_json(&self) -> String {
        // A TOML table is always representable as JSON.
        serde_json::to_string(&self.options).unwrap_or_else(|_| "{}".to_owned())
    }

    /// What a restarted ladder may not change: the game, its options, the table, the seed, the
    /// seatings and the rating system (they make its sets and ratings what they are). `Err`
    /// names the first field that differs from `stored`.
    pub fn same_ladder(&self, stored: &HostedLadderFile) -> Result<(), LadderFileError> {
        let differs = [
            ("game", self.game != stored.game),
            ("options", self.options != stored.options),
            ("seats", self.seats != stored.seats),
            ("seed", self.seed != stored.seed),
            ("max_rotations", self.max_rotations != stored.max_rotations),
            ("rating", self.rating_system() != stored.rating_system()),
        ];
        match differs.iter().find(|(_, differs)| *differs) {
            Some((field, _)) => Err(LadderFileError(format!(
                "ladder {:?} exists with another `{field}`: a ladder's game, options, seats, seed, \
                 seatings and rating system never change (give the new one another name)",
                self.name
            ))),
            None => Ok(()),
        }
    }

    /// Whether `name` may play in this ladder.
    pub fn admits(&self, name: &str) -> bool {
        self.bots.as_ref().is_none_or(|bots| bots.iter().any(|b| b == name))
    }
}

/// Whether the game takes these options at this table size: the engine's own check, whose
/// refusal names the rule.
struct CheckTable<'a> {
    options_json: &'a str,
    seats: u8,
}

impl WireVisitor for CheckTable<'_> {
    type Output = Result<(), String>;
    fn visit<G: WireGame>(self) -> Result<(), String> {
        G::create(self.options_json, u32::from(self.seats), 0).map(|_| ())
    }
}

fn one() -> u32 {
    1
}

fn two() -> u8 {
    2
}

fn three() -> u32 {
    3
}

fn five() -> u32 {
    5
}

fn sixty_four() -> u32 {
    64
}

fn five_thousand() -> u64 {
    5_000
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_minimal_file_takes_the_defaults() {
        let file = HostedLadderFile::parse("name = \"gin\"\ngame = \"gin\"").unwrap();
        assert_eq!((file.seats, file.max_concurrent, file.health), (2, 1, Health::default()));
        assert_eq!(file.rating_system(), RatingSystem::Glicko2);
        assert!(file.admits("anyone"));
    }

    #[test]
    fn each_refusal_names_its_field() {
        let cases = [
            ("name = \"a b\"\ngame = \"gin\"", "`name`"),
            ("name = \"g\"\ngame = \"gin\"\nseats = 3", "`seats`"),
            ("name = \"t\"\ngame = \"twenty_two\"\nseats = 13", "`seats`"),
            ("name = \"t\"\ngame = \"twenty_two\"\nseats = 3\nrating = \"glicko2\"", "`rating`"),
            ("name = \"g\"\ngame = \"gin\"\nmax_concurrent = 0", "`max_concurrent`"),
            ("name = \"g\"\ngame = \"gin\"\n[health]\nwindow = 2\nmax_failures = 3", "`health"),
            ("name = \"g\"\ngame = \"gin\"\nbots = [\"a\", \"a\"]", "`bots`"),
            ("name = \"g\"\ngame = \"gin\"\nsets = 3", "sets"),
        ];
        for (text, field) in cases {
            let refused = HostedLadderFile::parse(text).unwrap_err();
            assert!(refused.to_string().contains(field), "{text:?}: {refused}");
        }
        assert!(HostedLadderFile::parse("name = \"t\"\ngame = \"twenty_two\"\nseats = 12").is_ok());
    }

    #[test]
    fn a_restart_may_change_the_cap_but_not_the_deals() {
        let stored = HostedLadderFile::parse("name = \"g\"\ngame = \"gin\"\nseed = 1").unwrap();
        let capped = HostedLadderFile { max_concurrent: 4, ..stored.clone() };
        assert!(capped.same_ladder(&stored).is_ok());
        let reseeded = HostedLadderFile { seed: 2, ..stored.clone() };
        assert!(reseeded.same_ladder(&stored).unwrap_err().to_string().contains("`seed`"));
    }
}
