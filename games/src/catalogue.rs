//! The catalogue: the one list of the games cardroom hosts, with their names, aliases, option
//! tables and seat ranges, and [`GameKind::visit`] to run generic code for a game chosen at run
//! time (in the manner of shakmaty's `Variant`).
//!
//! Code above the engines dispatches on a [`GameKind`] only through the catalogue: a
//! [`GameVisitor`] is written once, generic over [`Game`], and the catalogue picks the engine.
//! Code that needs more of a game than [`Game`] (the wire's conversions, a bot, Python's) uses
//! [`with_game!`](crate::with_game), which names the chosen engine as a type and so meets
//! whatever traits every engine implements, and [`for_each_game!`](crate::for_each_game),
//! which writes an enum with a variant per game (as [`AnyRecord`] is written). The list of
//! engines is `for_each_game!`'s, and nowhere else: a new game is a variant of [`GameKind`],
//! an entry of that list, and its `Game` implementation.
//!
//! ```
//! use cardroom_games::{Game, GameKind, GameVisitor};
//!
//! /// How many options each game has.
//! struct CountOptions;
//! impl GameVisitor for CountOptions {
//!     type Output = usize;
//!     fn visit<G: Game>(self) -> usize {
//!         G::describe_options().len()
//!     }
//! }
//!
//! let kind: GameKind = "22".parse().unwrap();
//! assert_eq!(kind, GameKind::TwentyTwo);
//! assert_eq!(kind.visit(CountOptions), kind.options().len());
//! assert_eq!(GameKind::Gin.seats(), 2..=2);
//! ```

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::options::OptionSpec;
use crate::record::Record;

/// A game cardroom hosts. Its name ([`GameKind::name`]) is how records, the wire's `name`
/// fields, ladder files and the command line spell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    /// Twenty-Two ("22"): [`twenty_two::State`](crate::twenty_two::State), 2 to 12 players
    /// (16 with four packs).
    TwentyTwo,
    /// Gin Rummy: [`gin::State`](crate::gin::State), 2 players.
    Gin,
    /// No-Limit Texas Hold'em: [`holdem::State`](crate::holdem::State), 2 to 10 players.
    Holdem,
}

impl GameKind {
    /// Every game, in the order `ListGames` publishes them.
    pub const ALL: [GameKind; 3] = [GameKind::TwentyTwo, GameKind::Gin, GameKind::Holdem];

    /// The game's name in records, on the wire and on the command line: `twenty_two`, `gin`,
    /// `holdem`.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::TwentyTwo => "twenty_two",
            GameKind::Gin => "gin",
            GameKind::Holdem => "holdem",
        }
    }

    /// The game's title for people: `Twenty-Two`, `Gin Rummy`.
    pub const fn title(self) -> &'static str {
        match self {
            GameKind::TwentyTwo => "Twenty-Two",
            GameKind::Gin => "Gin Rummy",
            GameKind::Holdem => "Texas Hold'em",
        }
    }

    /// Other spellings [`FromStr`] accepts besides the name (compared ignoring case, with `-`
    /// read as `_`), among them the contract's enum value names.
    pub const fn aliases(self) -> &'static [&'static str] {
        match self {
            GameKind::TwentyTwo => &["22", "tt", "twentytwo", "game_twenty_two"],
            GameKind::Gin => &["gin_rummy", "ginrummy", "game_gin_rummy"],
            GameKind::Holdem => &["texas_holdem", "nlhe", "game_holdem"],
        }
    }

    /// The game's option table, as `ListGames` publishes it: every option with its
    /// description (citing its rule) and its default.
    pub fn options(self) -> Vec<OptionSpec> {
        struct Options;
        impl GameVisitor for Options {
            type Output = Vec<OptionSpec>;
            fn visit<G: Game>(self) -> Vec<OptionSpec> {
                G::describe_options()
            }
        }
        self.visit(Options)
    }

    /// The seats a table may have with the default options ([`Game::seats`] for others).
    pub fn seats(self) -> RangeInclusive<u8> {
        struct Seats;
        impl GameVisitor for Seats {
            type Output = RangeInclusive<u8>;
            fn visit<G: Game>(self) -> RangeInclusive<u8> {
                G::seats(&G::Options::default())
            }
        }
        self.visit(Seats)
    }

    /// Runs `visitor` with this game's engine as its type parameter.
    pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
        crate::with_game!(self, G => visitor.visit::<G>())
    }
}

/// Calls the macro `$callback` with the catalogue's list of engines: the one list of which
/// engine each [`GameKind`] is. The callback receives the tokens given in parentheses after
/// it (none without them), in a group of their own, then one entry per game, `Kind =>
/// Engine,`, `Kind` a [`GameKind`] variant's name and `Engine` its [`Game`]'s path:
///
/// ```text
/// (TOKENS) TwentyTwo => cardroom_games::twenty_two::State, Gin => cardroom_games::gin::State,
/// ```
///
/// It writes what has a part per game, such as an enum with a variant per game and its
/// `match`es, which the callback writes once for every game. [`with_game!`](crate::with_game)
/// is built on it.
///
/// ```
/// use cardroom_games::{Game, GameKind, Record};
///
/// macro_rules! any_record_count {
///     (() $($Kind:ident => $Engine:ty,)*) => {
///         /// A count of records of one game.
///         enum Count {
///             $($Kind(Vec<Record<$Engine>>),)*
///         }
///         impl Count {
///             fn kind(&self) -> GameKind {
///                 match self {
///                     $(Count::$Kind(_) => <$Engine as Game>::KIND,)*
///                 }
///             }
///         }
///     };
/// }
/// cardroom_games::for_each_game!(any_record_count!);
/// assert_eq!(Count::Gin(Vec::new()).kind(), GameKind::Gin);
/// ```
#[macro_export]
macro_rules! for_each_game {
    ($($callback:ident)::+ ! $(( $($tokens:tt)* ))?) => {
        $($callback)::+! {
            ($($($tokens)*)?)
            TwentyTwo => $crate::twenty_two::State,
            Gin => $crate::gin::State,
            Holdem => $crate::holdem::State,
        }
    };
}

/// `$body` for the game `$kind` (a [`GameKind`]), with `$G` the name of that game's engine: a
/// `match` with an arm per game, in each of which `$G` is a type alias of the arm's engine.
/// The body is checked for every game, so it may use any trait every engine implements, not
/// only [`Game`] (which [`GameKind::visit`] is limited to): how the wire, the SDK and the
/// bindings dispatch on a game chosen at run time.
///
/// ```
/// use cardroom_games::{Game, GameKind};
///
/// /// A trait of this crate's own, implemented for every engine.
/// trait Seats: Game {
///     fn most_seats() -> u8 {
///         *Self::seats(&Self::Options::default()).end()
///     }
/// }
/// impl<G: Game> Seats for G {}
///
/// let kind: GameKind = "gin".parse().unwrap();
/// assert_eq!(cardroom_games::with_game!(kind, G => G::most_seats()), 2);
/// ```
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        $crate::for_each_game!($crate::__with_game_arms!($kind, $G => $body))
    };
}

/// [`with_game!`](crate::with_game)'s `match`, over [`for_each_game!`](crate::for_each_game)'s
/// list.
#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_arms {
    (($kind:expr, $G:ident => $body:expr) $($Kind:ident => $Engine:ty,)*) => {
        match $kind {
            $($crate::GameKind::$Kind => {
                type $G = $Engine;
                $body
            })*
        }
    };
}

/// Generic code run for a game chosen at run time: [`GameKind::visit`] calls
/// [`GameVisitor::visit`] with that game's engine.
pub trait GameVisitor {
    /// What the visit gives back.
    type Output;
    /// The visit, with `G` the chosen game's engine.
    fn visit<G: Game>(self) -> Self::Output;
}

/// A name that is no game of the catalogue.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {given:?}: the games are {}", names())]
pub struct UnknownGame {
    /// The name given.
    pub given: String,
}

/// The games' names, for messages: `twenty_two (or 22, tt, …), gin (or …)`.
fn names() -> String {
    GameKind::ALL
        .iter()
        .map(|kind| format!("{} (or {})", kind.name(), kind.aliases().join(", ")))
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for GameKind {
    type Err = UnknownGame;

    /// A game's name or one of its aliases, ignoring case, with `-` read as `_`.
    fn from_str(text: &str) -> Result<GameKind, UnknownGame> {
        let key = text.trim().to_ascii_lowercase().replace('-', "_");
        GameKind::ALL
            .into_iter()
            .find(|kind| kind.name() == key || kind.aliases().contains(&key.as_str()))
            .ok_or_else(|| UnknownGame { given: text.to_owned() })
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// [`AnyRecord`] and the methods with an arm per game, from the catalogue's list.
macro_rules! any_record {
    (() $($Kind:ident => $Engine:ty,)*) => {
        /// A record of any game of the catalogue, for readers that learn the game from the
        /// record's `"game"` tag. Its JSON is its record's with that tag ([`Record::to_json`]).
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(tag = "game", rename_all = "snake_case")]
        pub enum AnyRecord {
            $(
                #[doc = concat!("A match of [`GameKind::", stringify!($Kind), "`].")]
                $Kind(Record<$Engine>),
            )*
        }

        impl AnyRecord {
            /// The record's game.
            pub fn kind(&self) -> GameKind {
                match self {
                    $(AnyRecord::$Kind(_) => GameKind::$Kind,)*
                }
            }

            /// Why the match ended ([`Record::termination`]).
            pub fn termination(&self) -> Option<&str> {
                match self {
                    $(AnyRecord::$Kind(record) => record.termination.as_deref(),)*
                }
            }

            /// Sets why the match ended ([`Record::termination`]): for a match ended from
            /// outside the rules (a forfeit, an abort), whose engine gives no reason.
            pub fn set_termination(&mut self, termination: Option<String>) {
                match self {
                    $(AnyRecord::$Kind(record) => record.termination = termination,)*
                }
            }

            /// Sets what the seats said beside their actions ([`Record::comments`]).
            pub fn set_comments(&mut self, comments: Vec<crate::Comment>) {
                match self {
                    $(AnyRecord::$Kind(record) => record.comments = comments,)*
                }
            }

            /// Runs `visitor` on the record with its game's type.
            pub fn visit<V: RecordVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $(AnyRecord::$Kind(record) => visitor.visit(record),)*
                }
            }
        }
    };
}
crate::for_each_game!(any_record!);

impl AnyRecord {
    /// Reads a record of any game from JSON.
    pub fn from_json(json: &str) -> Result<AnyRecord, serde_json::Error> {
        serde_json::from_str(json)
    }

    /// Writes the record as JSON, one action to a line ([`crate::write_json`]).
    pub fn to_json(&self) -> String {
        crate::record::json_string(self)
    }

    /// Writes the record to `writer` as [`AnyRecord::to_json`] does, as it is serialised (a
    /// long match's record need not be in memory to reach a file).
    pub fn write_json(&self, writer: impl std::io::Write) -> serde_json::Result<()> {
        crate::record::write_json(writer, self)
    }

    /// The record of `G`, `None` for another game's.
    pub fn downcast<G: Game>(self) -> Option<Record<G>> {
        G::from_any_record(self)
    }
}

/// Generic code run on a record whose game is known only at run time ([`AnyRecord::visit`]).
pub trait RecordVisitor {
    /// What the visit gives back.
    type Output;
    /// The visit, with `G` the record's game.
    fn visit<G: Game>(self, record: &Record<G>) -> Self::Output;
}

impl<G: Game> From<Record<G>> for AnyRecord {
    fn from(record: Record<G>) -> AnyRecord {
        G::into_any_record(record)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_parse_back_and_nothing_else_does() {
        for kind in GameKind::ALL {
            assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
            assert_eq!(kind.to_string(), kind.name());
            for alias in kind.aliases() {
                assert_eq!(alias.parse::<GameKind>(), Ok(kind), "{alias}");
                assert_eq!(alias.to_uppercase().replace('_', "-").parse::<GameKind>(), Ok(kind));
            }
            // The serde name is the catalogue's name.
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.name());
        }
        assert_eq!("Twenty-Two".parse::<GameKind>(), Ok(GameKind::TwentyTwo));
        assert_eq!("GAME_GIN_RUMMY".parse::<GameKind>(), Ok(GameKind::Gin));
        assert_eq!("Hold'em".replace('\'', "").parse::<GameKind>(), Ok(GameKind::Holdem));
        let error = "bridge".parse::<GameKind>().unwrap_err().to_string();
        assert!(
            error.starts_with("unknown game \"bridge\": the games are twenty_two (or 22"),
            "{error}"
        );
        assert!(error.contains("gin (or gin_rummy"), "{error}");
    }

    #[test]
    fn each_kind_visits_its_own_engine() {
        struct Name;
        impl GameVisitor for Name {
            type Output = (GameKind, &'static str);
            fn visit<G: Game>(self) -> (GameKind, &'static str) {
                (G::KIND, G::NAME)
            }
        }
        for kind in GameKind::ALL {
            assert_eq!(kind.visit(Name), (kind, kind.name()));
        }
    }

    #[test]
    fn the_list_of_engines_is_every_kind_in_the_order_of_all() {
        macro_rules! kinds {
            (() $($Kind:ident => $Engine:ty,)*) => {
                [$((GameKind::$Kind, <$Engine as Game>::KIND)),*]
            };
        }
        let listed = crate::for_each_game!(kinds!);
        assert_eq!(listed.map(|(kind, _)| kind), GameKind::ALL);
        for (kind, engine) in listed {
            assert_eq!(engine, kind);
            assert_eq!(crate::with_game!(kind, G => G::NAME), kind.name());
        }
    }

    #[test]
    fn seat_ranges_with_the_default_options() {
        assert_eq!(GameKind::TwentyTwo.seats(), 2..=12);
        assert_eq!(GameKind::Gin.seats(), 2..=2);
        assert_eq!(GameKind::Holdem.seats(), 2..=10);
    }
}
