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
//! # max_bad_replies = 3       # text replies refused in one turn before a forfeit
//! provisional_sets = 5        # a bot is provisional until this many of its sets are rated
//! absent_ms = 5000            # a bot out of the lobby this long (and playing nothing) has left:
//!                             # its planned sets are voided
//! wait_ms = 30000             # the adaptive schedule may plan a table for a busy bot (a slow
//!                             # bot must get its share): it waits this long at most
//! # bots = ["alice", "bob"]   # only these registered bots (default: every registered bot
//!                             # waiting in the lobby)
//! allow_same_author = false   # two bots of one author may sit at one table (collusion):
//!                             # by default never, whatever the schedule
//! scrimmages_per_hour = 12    # unrated sets an author may ask for an hour (0: none)
//! people = false              # the ladder's page seats a person under a registered bot's name
//!                             # and key, rated as that bot (`cardroom serve --http-addr`); by
//!                             # default people play it only unrated, as guests (`--guests`)
//!
//! schedule = "adaptive"      # the next table: "adaptive" (every bot its share, then where the
//!                             # order is least settled: the arena's `fair` schedule),
//!                             # "least_certain" (by ratings, among the bots free at the time),
//!                             # or a plan over `bots`, in their order: "round_robin" (every
//!                             # table, `rounds` times), "gauntlet" (`challenger` at every table
//!                             # of the others, `rounds` times) or "swiss" (two seats: `rounds`
//!                             # rounds paired by points); a planned ladder closes once played
//! # rounds = 1                # a plan's rounds
//! # challenger = "alice"      # the gauntlet's bot
//! # max_sets = 10000          # close the ladder once this many sets are rated (default: never)
//! duplicate = true            # every seating of a set plays the same deal; false: each its own
//! stop_when_settled = false   # close the ladder once its order is settled at 95%
//! finals = false              # a finals ladder: each bot plays only the version of its first
//!                             # rated set (a set with another is void, the bot paused), no
//!                             # bot enters once the first set is planned (but those `bots`
//!                             # lists), and the standings weigh all its sets at once
//! format = "ladder"           # or "sprt": is `sprt.a` better than `sprt.b`? Every table
//!                             # holds both (other waiting bots fill it), one sample per set;
//!                             # the ladder closes itself with the decision
//!
//! # [sprt]                    # with format = "sprt" (the batch arena's SPRT)
//! # a = "alice"               # the bot tested for being stronger
//! # b = "bob"
//! # elo0 = 0.0                # H0: a is elo0 stronger; H1: elo1 stronger
//! # elo1 = 50.0
//! # alpha = 0.05              # the chance of accepting H1 when H0 holds
//! # beta = 0.05               # the chance of accepting H0 when H1 holds
//! # min_samples = 8           # no decision before this many sets
//!
//! [health]
//! window = 5                  # a bot's last N matches in the ladder
//! max_failures = 3            # paused once this many of them failed (crash, forfeit, illegal
//!                             # action, timeout); 0: never paused
//! ```

use cardroom_proto::wire::{self, WireGame, WireVisitor};
use cardroom_sdk::GameKind;
use cardroom_store::NewLadder;
use serde::Deserialize;

use crate::config::game_kind;
use cardroom_rank::rating::RatingSystem;
use cardroom_rank::sprt::SprtConfig;

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
    /// Replies in the text form (`Act.reply`: a language model's seat) one turn may have
    /// refused before its seat forfeits (0: the server's, 3 by default).
    #[serde(default)]
    pub max_bad_replies: u32,
    /// A bot is provisional until this many of its sets are rated.
    #[serde(default = "five")]
    pub provisional_sets: u32,
    /// A bot out of the lobby this long, playing nothing, has left (milliseconds).
    #[serde(default = "five_thousand")]
    pub absent_ms: u64,
    /// The longest a table planned for a busy bot waits for it (milliseconds); then its set is
    /// void and that bot is passed over until it is free.
    #[serde(default = "thirty_thousand")]
    pub wait_ms: u64,
    /// Only these registered bots (default: every one waiting in the lobby).
    #[serde(default)]
    pub bots: Option<Vec<String>>,
    /// Whether two bots of one author may sit at one table (default: never).
    #[serde(default)]
    pub allow_same_author: bool,
    /// Scrimmages an author may ask for an hour (0: none).
    #[serde(default = "twelve")]
    pub scrimmages_per_hour: u32,
    /// Whether the ladder's page seats a person under a registered bot's name and key, in the
    /// ladder's rated sets (default: people play it only as unrated guests).
    #[serde(default)]
    pub people: bool,
    /// When a failing bot is paused.
    #[serde(default)]
    pub health: Health,
    /// How the next table is chosen.
    #[serde(default)]
    pub schedule: Schedule,
    /// A planned schedule's rounds (round robin, gauntlet, Swiss).
    #[serde(default)]
    pub rounds: Option<u32>,
    /// The gauntlet's bot.
    #[serde(default)]
    pub challenger: Option<String>,
    /// The ladder closes once this many sets are rated.
    #[serde(default)]
    pub max_sets: Option<u64>,
    /// Whether every seating of a set plays the same deal.
    #[serde(default = "yes")]
    pub duplicate: bool,
    /// Whether the ladder closes itself once its order is settled.
    #[serde(default)]
    pub stop_when_settled: bool,
    /// Whether this is a finals ladder: bots frozen, no late entrants.
    #[serde(default)]
    pub finals: bool,
    /// What the ladder plays for.
    #[serde(default)]
    pub format: HostedFormat,
    /// The head-to-head test, with `format = "sprt"`.
    #[serde(default)]
    pub sprt: Option<HostedSprt>,
}

/// What a hosted ladder plays for.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HostedFormat {
    /// A standing ladder among every bot admitted.
    #[default]
    Ladder,
    /// The N-player SPRT of `[sprt]`: every table holds `a` and `b`, and the ladder closes
    /// itself once the test decides.
    Sprt,
}

/// A hosted SPRT: is `a` better than `b` across the ladder's tables ([`SprtConfig`]'s test,
/// one sample per rated set holding both: `a`'s pentanomial score against `b`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostedSprt {
    /// The bot tested for being stronger.
    pub a: String,
    /// The bot it is tested against.
    pub b: String,
    /// H0: `a` is this many Elo stronger than `b`.
    #[serde(default = "sprt_elo0")]
    pub elo0: f64,
    /// H1: `a` is this many Elo stronger than `b`.
    #[serde(default = "sprt_elo1")]
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    #[serde(default = "sprt_alpha")]
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    #[serde(default = "sprt_beta")]
    pub beta: f64,
    /// No decision before this many samples.
    #[serde(default = "sprt_min_samples")]
    pub min_samples: u32,
}

impl HostedSprt {
    /// The test's parameters.
    pub fn config(&self) -> SprtConfig {
        SprtConfig {
            alpha: self.alpha,
            beta: self.beta,
            elo0: self.elo0,
            elo1: self.elo1,
            min_samples: self.min_samples,
        }
    }
}

fn sprt_elo0() -> f64 {
    SprtConfig::default().elo0
}

fn sprt_elo1() -> f64 {
    SprtConfig::default().elo1
}

fn sprt_alpha() -> f64 {
    SprtConfig::default().alpha
}

fn sprt_beta() -> f64 {
    SprtConfig::default().beta
}

fn sprt_min_samples() -> u32 {
    SprtConfig::default().min_samples
}

/// How a hosted ladder chooses its next table among the bots waiting.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Schedule {
    /// The fair adaptive schedule ([`cardroom_rank::fair`]): every bot present, free or busy, within
    /// its share of the sets (a table may wait for a busy bot, at most `wait_ms`), then a table
    /// holding the least settled adjacent pair of the order, and no settled pair to fill the
    /// time while the order is open. Once it is settled, the bots that played least, so a
    /// ladder that does not stop when settled keeps playing.
    #[default]
    Adaptive,
    /// The continuous format's pairing: the two bots whose ratings are least certainly
    /// ordered, and the bots closest to them in rating ([`cardroom_rank::schedule::least_certain`]).
    LeastCertain,
    /// Every table of `bots` ([`cardroom_rank::schedule::round_robin`]), `rounds` times.
    RoundRobin,
    /// `challenger` at every table of the others ([`cardroom_rank::schedule::gauntlet`]),
    /// `rounds` times.
    Gauntlet,
    /// `rounds` Swiss rounds among `bots` at tables of two
    /// ([`cardroom_rank::schedule::SwissState`]), each paired once the last is rated.
    Swiss,
}

impl Schedule {
    /// Whether the schedule is a plan over the file's `bots`, which closes the ladder once
    /// played.
    pub fn is_planned(self) -> bool {
        matches!(self, Schedule::RoundRobin | Schedule::Gauntlet | Schedule::Swiss)
    }

    /// The name the file gives it.
    pub fn name(self) -> &'static str {
        match self {
            Schedule::Adaptive => "adaptive",
            Schedule::LeastCertain => "least_certain",
            Schedule::RoundRobin => "round_robin",
            Schedule::Gauntlet => "gauntlet",
            Schedule::Swiss => "swiss",
        }
    }
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
        check_name("name", &self.name).map_err(LadderFileError)?;
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
        match (self.format, &self.sprt) {
            (HostedFormat::Sprt, None) => {
                return refuse(
                    "`format` = \"sprt\" needs an `[sprt]` table naming `a` and `b`".into(),
                );
            }
            (HostedFormat::Ladder, Some(_)) => {
                return refuse("`[sprt]` is only for `format` = \"sprt\"".into());
            }
            (HostedFormat::Sprt, Some(sprt)) => {
                if sprt.a == sprt.b {
                    return refuse(format!("`sprt.a` and `sprt.b` are both {:?}", sprt.a));
                }
                let unit = |x: f64| x > 0.0 && x < 0.5;
                if !unit(sprt.alpha) || !unit(sprt.beta) {
                    return refuse(format!(
                        "`sprt.alpha` ({}) and `sprt.beta` ({}) must be between 0 and 0.5",
                        sprt.alpha, sprt.beta
                    ));
                }
                if sprt.elo0.partial_cmp(&sprt.elo1) != Some(std::cmp::Ordering::Less) {
                    return refuse(format!(
                        "`sprt.elo0` ({}) must be below `sprt.elo1` ({})",
                        sprt.elo0, sprt.elo1
                    ));
                }
                if !(self.admits(&sprt.a) && self.admits(&sprt.b)) {
                    return refuse("`bots` must name `sprt.a` and `sprt.b`".into());
                }
            }
            (HostedFormat::Ladder, None) => {}
        }
        self.check_plan()?;
        if self.max_sets == Some(0) {
            return refuse("`max_sets` must be at least 1".into());
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

    /// Checks `schedule`, `rounds` and `challenger` together.
    fn check_plan(&self) -> Result<(), LadderFileError> {
        let refuse = |message: String| Err(LadderFileError(message));
        let schedule = self.schedule.name();
        if !self.schedule.is_planned() {
            if self.rounds.is_some() {
                return refuse(format!("`rounds` is for a planned `schedule`, not {schedule:?}"));
            }
            if self.challenger.is_some() {
                return refuse(format!(
                    "`challenger` is for `schedule` = \"gauntlet\", not {schedule:?}"
                ));
            }
            return Ok(());
        }
        if self.format == HostedFormat::Sprt {
            return refuse(format!(
                "`format` = \"sprt\" chooses its own tables: `schedule` = {schedule:?} cannot be"
            ));
        }
        if self.rounds == Some(0) {
            return refuse("`rounds` must be at least 1".into());
        }
        let Some(bots) = &self.bots else {
            return refuse(format!("`schedule` = {schedule:?} needs `bots`, the field it plans"));
        };
        match (self.schedule, &self.challenger) {
            (Schedule::Gauntlet, None) => {
                return refuse("`schedule` = \"gauntlet\" needs a `challenger`".into());
            }
            (Schedule::Gauntlet, Some(challenger)) if !bots.contains(challenger) => {
                return refuse(format!("`challenger` {challenger:?} is not one of `bots`"));
            }
            (Schedule::Gauntlet, Some(_)) => {}
            (_, Some(_)) => {
                return refuse(format!(
                    "`challenger` is for `schedule` = \"gauntlet\", not {schedule:?}"
                ));
            }
            (_, None) => {}
        }
        if self.schedule == Schedule::Swiss && self.seats != 2 {
            return refuse(format!("`schedule` = \"swiss\" needs `seats` = 2, not {}", self.seats));
        }
        Ok(())
    }

    /// A planned schedule's rounds (one unless the file says).
    pub fn plan_rounds(&self) -> u32 {
        self.rounds.unwrap_or(1)
    }

    /// Whether `self` gives a ladder stored as `stored` more to play: more rounds of its plan,
    /// or a larger `max_sets` (a closed ladder then runs again).
    pub fn grows(&self, stored: &HostedLadderFile) -> bool {
        let more_sets = match (self.max_sets, stored.max_sets) {
            (None, Some(_)) => true,
            (Some(new), Some(old)) => new > old,
            _ => false,
        };
        more_sets || (self.schedule.is_planned() && self.plan_rounds() > stored.plan_rounds())
    }

    /// The ladder row the store creates for this file (its text `text`).
    pub fn new_ladder(&self, text: &str) -> NewLadder {
        NewLadder {
            name: self.name.clone(),
            game: self.game.name().to_owned(),
            options_json: self.options_json(),
            table_seats: self.seats,
            rating: self.rating_system().name().to_owned(),
            seed: self.seed,
            provisional_sets: self.provisional_sets,
            config: text.to_owned(),
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

    /// The options as JSON.
    pub fn options_json(&self) -> String {
        // A TOML table is always representable as JSON.
        serde_json::to_string(&self.options).unwrap_or_else(|_| "{}".to_owned())
    }

    /// What a restarted ladder may not change: the game, its options, the table, the seed, the
    /// seatings, the rating system and a plan (they make its sets and ratings what they are). `Err`
    /// names the first field that differs from `stored`.
    pub fn same_ladder(&self, stored: &HostedLadderFile) -> Result<(), LadderFileError> {
        // A plan is over its bots in their order.
        let planned = self.schedule.is_planned() || stored.schedule.is_planned();
        let differs = [
            ("game", self.game != stored.game),
            // Options left out take their defaults: compared as the engine reads them.
            ("options", self.full_options() != stored.full_options()),
            ("seats", self.seats != stored.seats),
            ("seed", self.seed != stored.seed),
            ("max_rotations", self.max_rotations != stored.max_rotations),
            ("rating", self.rating_system() != stored.rating_system()),
            ("format", self.format != stored.format || self.sprt != stored.sprt),
            ("finals", self.finals != stored.finals),
            ("schedule", planned && self.schedule != stored.schedule),
            ("bots", planned && self.bots != stored.bots),
            ("challenger", self.challenger != stored.challenger),
            ("duplicate", self.duplicate != stored.duplicate),
        ];
        match differs.iter().find(|(_, differs)| *differs) {
            Some((field, _)) => Err(LadderFileError(format!(
                "ladder {:?} exists with another `{field}`: a ladder's game, options, seats, seed, \
                 seatings, rating system, format, finals and plan never change (give the new one another name)",
                self.name
            ))),
            None => Ok(()),
        }
    }

    /// The options with every field, as the engine reads them (`None` if it refuses them).
    fn full_options(&self) -> Option<serde_json::Value> {
        struct Full<'a>(&'a str, u8);
        impl WireVisitor for Full<'_> {
            type Output = Option<String>;
            fn visit<G: WireGame>(self) -> Option<String> {
                G::create(self.0, u32::from(self.1), 0).ok().map(|game| game.options_json())
            }
        }
        let json = wire::visit(self.game, Full(&self.options_json(), self.seats))?;
        serde_json::from_str(&json).ok()
    }

    /// Whether `name` may play in this ladder.
    pub fn admits(&self, name: &str) -> bool {
        self.bots.as_ref().is_none_or(|bots| bots.iter().any(|b| b == name))
    }
}

/// Checks a ladder's or season's name, the file's `field`: 1 to [`MAX_LADDER_NAME_BYTES`]
/// bytes of letters, digits, '.', '_' and '-' (it goes in the pages' paths as it is).
pub(crate) fn check_name(field: &str, name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > MAX_LADDER_NAME_BYTES {
        return Err(format!("`{field}` must be 1 to {MAX_LADDER_NAME_BYTES} bytes"));
    }
    if let Some(bad) =
        name.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
    {
        return Err(format!(
            "`{field}` {name:?}: {bad:?} is not one of the letters, digits, '.', '_' and '-'"
        ));
    }
    Ok(())
}

/// Whether the game takes these options at this table size: the engine's own check, whose
/// refusal names the rule.
struct CheckTable<'a> {
    options_json: &'a str,
    seats: u8,
}

impl WireVisitor for CheckTable<'_> {
    type Output = Result<(), wire::WireError>;
    fn visit<G: WireGame>(self) -> Result<(), wire::WireError> {
        G::create(self.options_json, u32::from(self.seats), 0).map(|_| ())
    }
}

fn yes() -> bool {
    true
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

fn twelve() -> u32 {
    12
}

fn sixty_four() -> u32 {
    64
}

fn five_thousand() -> u64 {
    5_000
}

fn thirty_thousand() -> u64 {
    30_000
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
            ("name = \"g\"\ngame = \"gin\"\nschedule = \"round_robin\"", "needs `bots`"),
            ("name = \"g\"\ngame = \"gin\"\nrounds = 2", "`rounds`"),
            ("name = \"g\"\ngame = \"gin\"\nmax_sets = 0", "`max_sets`"),
            (
                "name = \"g\"\ngame = \"gin\"\nschedule = \"gauntlet\"\nbots = [\"a\", \"b\"]",
                "`challenger`",
            ),
            (
                "name = \"g\"\ngame = \"gin\"\nschedule = \"gauntlet\"\nchallenger = \"c\"\n\
                 bots = [\"a\", \"b\"]",
                "not one of `bots`",
            ),
            (
                "name = \"t\"\ngame = \"twenty_two\"\nseats = 3\nschedule = \"swiss\"\n\
                 bots = [\"a\", \"b\", \"c\"]",
                "`seats` = 2",
            ),
        ];
        for (text, field) in cases {
            let refused = HostedLadderFile::parse(text).unwrap_err();
            assert!(refused.to_string().contains(field), "{text:?}: {refused}");
        }
        assert!(HostedLadderFile::parse("name = \"t\"\ngame = \"twenty_two\"\nseats = 12").is_ok());
    }

    #[test]
    fn the_schedule_is_adaptive_unless_the_file_says_otherwise() {
        let file = HostedLadderFile::parse("name = \"g\"\ngame = \"gin\"").unwrap();
        assert_eq!((file.schedule, file.stop_when_settled), (Schedule::Adaptive, false));
        let text =
            "name = \"g\"\ngame = \"gin\"\nschedule = \"least_certain\"\nstop_when_settled = true";
        let file = HostedLadderFile::parse(text).unwrap();
        assert_eq!((file.schedule, file.stop_when_settled), (Schedule::LeastCertain, true));
        let refused = HostedLadderFile::parse("name = \"g\"\ngame = \"gin\"\nschedule = \"elo\"");
        assert!(refused.unwrap_err().to_string().contains("schedule"));
    }

    #[test]
    fn an_sprt_names_two_bots_and_sound_error_rates() {
        let base = "name = \"s\"\ngame = \"twenty_two\"\nseats = 4\nformat = \"sprt\"\n";
        let file =
            HostedLadderFile::parse(&format!("{base}[sprt]\na = \"x\"\nb = \"y\"\nelo1 = 80"))
                .unwrap();
        let sprt = file.sprt.unwrap();
        assert_eq!((sprt.a.as_str(), sprt.b.as_str()), ("x", "y"));
        assert_eq!(sprt.config(), SprtConfig { elo1: 80.0, ..SprtConfig::default() });
        let cases = [
            (base.to_owned(), "`[sprt]`"),
            (format!("{base}[sprt]\na = \"x\"\nb = \"x\""), "`sprt.a`"),
            (format!("{base}[sprt]\na = \"x\"\nb = \"y\"\nalpha = 0.7"), "`sprt.alpha`"),
            (format!("{base}[sprt]\na = \"x\"\nb = \"y\"\nelo0 = 9\nelo1 = 1"), "`sprt.elo0`"),
            (
                format!("{base}bots = [\"x\", \"p\", \"q\", \"r\"]\n[sprt]\na = \"x\"\nb = \"y\""),
                "`bots`",
            ),
            ("name = \"s\"\ngame = \"gin\"\n[sprt]\na = \"x\"\nb = \"y\"".to_owned(), "`[sprt]`"),
        ];
        for (text, field) in cases {
            let refused = HostedLadderFile::parse(&text).unwrap_err();
            assert!(refused.to_string().contains(field), "{text:?}: {refused}");
        }
    }

    #[test]
    fn the_example_hosted_ladder_files_parse() {
        for text in [
            include_str!("../../../examples/hosted/twenty-two-4.toml"),
            include_str!("../../../examples/hosted/gin-finals.toml"),
            include_str!("../../../examples/hosted/twenty-two-sprt4.toml"),
        ] {
            HostedLadderFile::parse(text).unwrap();
        }
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
