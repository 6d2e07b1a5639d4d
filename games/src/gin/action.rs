//! [`Action`]: what a seat may do.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::solver::Arrangement;
use crate::card::Card;

/// One move in a hand. Small and `Copy` (32 bytes). In JSON a unit action is a string
/// (`"draw_stock"`) and the others an object with one key:
/// `{"discard": "7C"}`, `{"gin": {"discard": "KD"}}`,
/// `{"knock": {"discard": "9H", "melds": [["AS", "2S", "3S"], ["5C", "5D", "5H"]]}}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Take the first upcard (GR-5).
    TakeUpcard,
    /// Pass the first upcard (GR-5), or, at the wall with `wall_knock`, decline the upcard and
    /// let the hand be a draw (GR-10).
    PassUpcard,
    /// Draw the top card of the stock (GR-6).
    DrawStock,
    /// Draw the top card of the discard pile (GR-6; at the wall, GR-10).
    DrawDiscard,
    /// Discard a card face up, ending the turn (GR-6).
    Discard(Card),
    /// Knock (GR-7): discard face down and lay out these melds; the rest of the hand is deadwood,
    /// at least 1 and at most the knock limit (with no deadwood it is [`Action::Gin`]).
    Knock {
        /// The card discarded face down.
        discard: Card,
        /// The melds laid, in canonical form.
        melds: Arrangement,
    },
    /// Gin (GR-8): discard face down and lay the other ten cards out in melds. The engine lays
    /// them out (the arrangement does not matter: nothing is laid off on gin, GR-9).
    Gin {
        /// The card discarded face down.
        discard: Card,
    },
    /// Big gin (GR-8, option `big_gin`): all eleven cards in melds, no discard.
    BigGin,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::TakeUpcard => f.write_str("take the upcard"),
            Action::PassUpcard => f.write_str("pass"),
            Action::DrawStock => f.write_str("draw from the stock"),
            Action::DrawDiscard => f.write_str("draw from the discard pile"),
            Action::Discard(card) => write!(f, "discard {card}"),
            Action::Knock { discard, melds } => {
                write!(f, "knock, discarding {discard}, with {melds}")
            }
            Action::Gin { discard } => write!(f, "gin, discarding {discard}"),
            Action::BigGin => f.write_str("big gin"),
        }
    }
}
