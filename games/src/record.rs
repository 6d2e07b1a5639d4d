//! Records of any game: the JSON replay format, tagged with the game.

use serde::{Deserialize, Serialize};

use crate::{gin, twenty_two};

/// A match record of any game, tagged by `"game"` in JSON:
/// `{"game": "twenty_two", "players": 4, "seed": 7, "actions": [...]}` or
/// `{"game": "gin", "seed": 7, "actions": [...]}`. Each game's record type documents the rest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum Record {
    /// A Twenty-Two match.
    TwentyTwo(twenty_two::Record),
    /// A Gin Rummy match.
    Gin(gin::Record),
}

impl Record {
    /// Reads a record from JSON.
    pub fn from_json(json: &str) -> Result<Record, serde_json::Error> {
        serde_json::from_str(json)
    }

    /// Writes the record as pretty JSON.
    pub fn to_json(&self) -> String {
        // Records hold only strings, numbers and lists: serialization cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}
