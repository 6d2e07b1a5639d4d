//! Pure rules engines for cardroom's card games.
//!
//! Each game is a module with the same shape (from shakmaty and OpenSpiel):
//!
//! - `Options`, the rule-set variant, with the defaults of `docs/rules/`;
//! - a `Setup` with public fields (hands, stock, dealer, scores) that becomes a `State` only
//!   through one checked constructor, and a seeded constructor for normal play;
//! - `State::to_act`, `State::legal_actions` (sorted, never empty unless the match is over),
//!   `State::apply` (returning the public events, or a typed error naming the broken rule and
//!   leaving the state unchanged), `State::observation` for one seat, `State::public_view` for
//!   spectators, and `State::outcome` (standings with ties);
//! - a [`Record`] (options, seed or setup, actions), one generic type over [`Game`], that
//!   replays a match exactly; [`AnyRecord`] reads a record of a game not known beforehand.
//!
//! The [`Game`] trait says all of this for generic code, and [`GameKind`], the catalogue, is
//! the one list of games: names, aliases, option tables ([`OptionSpec`]), seat ranges and
//! [`GameKind::visit`] to reach a game's engine from its name.
//!
//! No async, no I/O, no protobuf: the same options, seed and actions give the same match on
//! every platform (the only randomness is a seeded ChaCha8).

mod card;
mod catalogue;
mod game;
pub mod gin;
pub mod holdem;
mod options;
mod record;
#[cfg(feature = "schema")]
pub mod schema;
mod seat;
mod table;
pub mod text;
pub mod twenty_two;

pub use card::{Card, ParseCardError, ParseRankError, Rank, Suit, display_cards, parse_cards};
pub use catalogue::{AnyRecord, GameKind, GameVisitor, RecordVisitor, UnknownGame};
pub use game::{Game, RuleError};
pub use options::{GameOptions, OptionKind, OptionSpec};
pub use record::{
    Comment, MAX_COMMENT_BYTES, Record, RecordedAction, ReplayError, Start, write_json,
};
pub use seat::{Seat, Standing};
pub use table::{Area, Figure, Group, Hand, Line, Mark, Part, Perspective, Pile, Table, TableSeat};
