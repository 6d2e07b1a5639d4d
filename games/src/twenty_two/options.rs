//! Twenty-Two's rule-set options (the table at the end of `docs/rules/twenty-two.md`).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::options::{GameOptions, OptionKind, OptionSpec};

/// The fewest players at a table (TT-4).
pub const MIN_PLAYERS: u8 = 2;
/// The most players at a table: 12 with the automatic pack count (TT-3, TT-4), up to 16 when
/// four packs are chosen.
pub const MAX_PLAYERS: u8 = 16;

/// A rule set: which variant of Twenty-Two is played. `Options::default()` is the rules' default.
/// In JSON every field may be left out and takes its default.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// How many packs (TT-3).
    pub packs: Packs,
    /// The hand size of the first deal (TT-6), and of every deal in the `elimination` variant
    /// (TT-26). 1 to 11.
    pub first_hand: u8,
    /// The score at which a player is eliminated (TT-19). At least 1.
    pub limit: u32,
    /// Who wins a trick (TT-14).
    pub trick_winner: TrickWinner,
    /// Which of several losers deals next (TT-20).
    pub tied_dealer: TiedDealer,
    /// Standard scoring, or seed 003's elimination game (TT-26 to TT-28).
    pub variant: Variant,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            packs: Packs::Auto,
            first_hand: 7,
            limit: 22,
            trick_winner: TrickWinner::StrongestCombination,
            tied_dealer: TiedDealer::Random,
            variant: Variant::Standard,
        }
    }
}

/// Options that cannot be played, or do not fit the number of players.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// TT-4: 2 to 12 players (16 with four packs).
    #[error(
        "TT-4: {players} players cannot play; a table has {MIN_PLAYERS} to {max} players with these packs"
    )]
    Players {
        /// Players asked for.
        players: u8,
        /// The most these options allow.
        max: u8,
    },
    /// TT-3: 1 to 4 packs.
    #[error("TT-3: packs must be auto or 1 to 4, not {0}")]
    Packs(u8),
    /// TT-6: the first hand is 1 to 11 cards.
    #[error("TT-6: first_hand must be 1 to 11 cards, not {0}")]
    FirstHand(u8),
    /// TT-19: the limit is positive.
    #[error("TT-19: limit must be at least 1")]
    Limit,
}

impl Options {
    /// The packs used by a table of `players` (TT-3): 1 up to 6 players, 2 up to 9, 3 up to 12,
    /// 4 beyond, unless fixed.
    pub fn pack_count(&self, players: u8) -> u8 {
        match self.packs {
            Packs::Fixed(n) => n,
            Packs::Auto => match players {
                0..=6 => 1,
                7..=9 => 2,
                10..=12 => 3,
                _ => 4,
            },
        }
    }

    /// The most players these options seat (TT-4: "2 to 12 players, more with more packs"):
    /// 12 with the automatic pack count (TT-3), else 4 per fixed pack beyond the first two, so
    /// every player is dealt at least one card, and 16 at most ([`MAX_PLAYERS`]).
    pub fn max_players(&self) -> u8 {
        match self.packs {
            Packs::Auto => 12,
            Packs::Fixed(n) => n.saturating_mul(4).saturating_add(8).min(MAX_PLAYERS),
        }
    }

    /// Checks the options alone and for a table of `players`.
    pub fn validate(&self, players: u8) -> Result<(), OptionsError> {
        if let Packs::Fixed(n) = self.packs
            && !(1..=4).contains(&n)
        {
            return Err(OptionsError::Packs(n));
        }
        if !(1..=11).contains(&self.first_hand) {
            return Err(OptionsError::FirstHand(self.first_hand));
        }
        if self.limit == 0 {
            return Err(OptionsError::Limit);
        }
        let max = self.max_players();
        if !(MIN_PLAYERS..=max).contains(&players) {
            return Err(OptionsError::Players { players, max });
        }
        Ok(())
    }
}

impl GameOptions for Options {
    fn describe() -> Vec<OptionSpec> {
        let d = Options::default();
        vec![
            OptionSpec::new(
                "packs",
                "TT-3, TT-4: packs shuffled together: \"auto\" (1 up to 6 players, 2 up to 9, 3 up to 12: 2 to 12 seats) or 1 to 4 (n packs seat 2 to 4n+8 players, at most 16)",
                &d.packs,
                OptionKind::Choice(&["\"auto\"", "1", "2", "3", "4"]),
            ),
            OptionSpec::new(
                "first_hand",
                "TT-6: cards in the first hand (every hand in the elimination variant), 1 to 11",
                &d.first_hand,
                OptionKind::Integer { min: 1, max: 11 },
            ),
            OptionSpec::new(
                "limit",
                "TT-19: the score that eliminates",
                &d.limit,
                OptionKind::Integer { min: 1, max: u64::from(u32::MAX) },
            ),
            OptionSpec::new(
                "trick_winner",
                "TT-14: who wins a trick",
                &d.trick_winner,
                OptionKind::Choice(&["\"strongest_combination\"", "\"highest_card\""]),
            ),
            OptionSpec::new(
                "tied_dealer",
                "TT-20: which of several losers deals next",
                &d.tied_dealer,
                OptionKind::Choice(&["\"random\"", "\"nearest_left_of_previous_dealer\""]),
            ),
            OptionSpec::new(
                "variant",
                "TT-26..28: standard scoring or seed 003's elimination game",
                &d.variant,
                OptionKind::Choice(&["\"standard\"", "\"elimination\""]),
            ),
        ]
    }
}

/// How many packs are shuffled together (TT-3). Written `"auto"` or a number in JSON.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Packs {
    /// One pack up to 6 players, two up to 9, three up to 12.
    #[default]
    Auto,
    /// This many packs, 1 to 4.
    Fixed(u8),
}

impl fmt::Display for Packs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Packs::Auto => f.write_str("auto"),
            Packs::Fixed(n) => write!(f, "{n}"),
        }
    }
}

impl Serialize for Packs {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Packs::Auto => serializer.serialize_str("auto"),
            Packs::Fixed(n) => serializer.serialize_u8(*n),
        }
    }
}

impl<'de> Deserialize<'de> for Packs {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Packs, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Repr {
            Count(u8),
            Word(String),
        }
        match Repr::deserialize(deserializer)? {
            Repr::Count(n) => Ok(Packs::Fixed(n)),
            Repr::Word(word) if word == "auto" => Ok(Packs::Auto),
            Repr::Word(word) => Err(serde::de::Error::custom(format!(
                "packs must be \"auto\" or a number, not {word:?}"
            ))),
        }
    }
}

/// Who wins a trick (TT-14).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TrickWinner {
    /// The player of the final strongest combination (TT-13).
    #[default]
    StrongestCombination,
    /// The player of the highest single card, the later one among equals (001 rule 17).
    HighestCard,
}

/// Which loser deals next when several lost the same deal (TT-20).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TiedDealer {
    /// One of them, drawn with the match's seeded RNG.
    #[default]
    Random,
    /// The first of them clockwise from the seat left of the previous dealer.
    NearestLeftOfPreviousDealer,
}

/// Which game is played at the end of a deal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Penalty piles and a score limit (TT-17 to TT-23).
    #[default]
    Standard,
    /// Seed 003: every card is played, the holder of the highest won card is eliminated
    /// (TT-26 to TT-28).
    Elimination,
}
