//! Seats and standings, shared by every game.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A seat at the table, numbered clockwise from 0. "Left" is the next seat clockwise.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat as an index into per-seat arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// One seat's final place in a finished match: 1 is first. Tied seats share a place and the
/// next place is skipped ("1224" competition ranking), so ratings can read ties directly.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Standing {
    /// 1 for the winner(s); seats with equal `place` are tied.
    pub place: u8,
    /// The seat.
    pub seat: Seat,
}
