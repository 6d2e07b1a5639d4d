//! Hold'em's rule-set options (the table at the end of `docs/rules/holdem.md`).

use serde::{Deserialize, Serialize};

use crate::options::{GameOptions, OptionKind, OptionSpec};

/// The largest starting stack (HE-1). The list of legal raises names every size up to the
/// seat's chips, which a seat that won the others' may hold: at most the table's chips, ten
/// stacks of this at ten seats.
pub const MAX_STACK: u32 = 20_000;
/// The most hands a match may last (HE-17).
pub const MAX_HANDS: u32 = 100_000;
/// The largest `raise_cap` (HE-10).
pub const MAX_RAISE_CAP: u8 = 100;

/// A rule set: which Hold'em is played. `Options::default()` is a no-limit table of 100 big
/// blinds. In JSON every field may be left out and takes its default; unknown fields are refused.
///
/// ```
/// use cardroom_games::holdem::{Betting, Options};
/// let options: Options = serde_json::from_str(r#"{"betting": "limit", "stack": 1000}"#).unwrap();
/// assert_eq!(options.betting, Betting::Limit);
/// assert_eq!((options.small_blind, options.big_blind), (1, 2));
/// assert!(options.validate().is_ok());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// No-limit or fixed-limit betting (HE-9, HE-10).
    pub betting: Betting,
    /// The small blind (HE-5), 0 to `big_blind`.
    pub small_blind: u32,
    /// The big blind (HE-5), at least 1 and at most `stack`.
    pub big_blind: u32,
    /// Each seat's ante (HE-5), 0 to `big_blind`.
    pub ante: u32,
    /// The chips each seat starts the match with (HE-1), `big_blind` to 20,000.
    pub stack: u32,
    /// The most hands a match lasts (HE-17), 1 to 100,000.
    pub hands: u32,
    /// In limit betting, the most bets and raises a round allows, the big blind counting as
    /// the first before the flop (HE-10), 1 to 100.
    pub raise_cap: u8,
    /// What the standings rank (HE-18, HE-21): chips, or chips with each all-in's luck taken
    /// out.
    pub score: Score,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            betting: Betting::NoLimit,
            small_blind: 1,
            big_blind: 2,
            ante: 0,
            stack: 200,
            hands: 100,
            raise_cap: 4,
            score: Score::Chips,
        }
    }
}

/// What the standings rank (HE-18, HE-21).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// The chips at the end (HE-18).
    #[default]
    Chips,
    /// The chips at the end less each all-in's luck: every hand whose betting ended before the
    /// river counts at its equity over the board's run-outs, not at the run-out dealt (HE-21).
    /// Measured in docs/ranking.md: a ladder, which ranks by places, needs no fewer matches.
    AllInAdjusted,
}

/// How much a seat may bet (HE-9, HE-10).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Betting {
    /// Any raise from the smallest to the whole stack (HE-9).
    #[default]
    NoLimit,
    /// Bets and raises of one fixed size, a capped number of them a round (HE-10).
    Limit,
}

impl GameOptions for Options {
    fn describe() -> Vec<OptionSpec> {
        let d = Options::default();
        vec![
            OptionSpec::new(
                "betting",
                "HE-9, HE-10: no-limit (any raise up to the whole stack) or fixed-limit betting",
                &d.betting,
                OptionKind::Choice(&["\"no_limit\"", "\"limit\""]),
            ),
            OptionSpec::new(
                "small_blind",
                "HE-5: the small blind, 0 to the big blind",
                &d.small_blind,
                OptionKind::Integer { min: 0, max: u64::from(MAX_STACK) },
            ),
            OptionSpec::new(
                "big_blind",
                "HE-5: the big blind, 1 to the stack",
                &d.big_blind,
                OptionKind::Integer { min: 1, max: u64::from(MAX_STACK) },
            ),
            OptionSpec::new(
                "ante",
                "HE-5: each seat's ante, 0 to the big blind",
                &d.ante,
                OptionKind::Integer { min: 0, max: u64::from(MAX_STACK) },
            ),
            OptionSpec::new(
                "stack",
                "HE-1: the chips each seat starts the match with, the big blind to 20000",
                &d.stack,
                OptionKind::Integer { min: 1, max: u64::from(MAX_STACK) },
            ),
            OptionSpec::new(
                "hands",
                "HE-17: the most hands a match lasts",
                &d.hands,
                OptionKind::Integer { min: 1, max: u64::from(MAX_HANDS) },
            ),
            OptionSpec::new(
                "raise_cap",
                "HE-10: in limit betting, the most bets and raises a round allows (the big blind counts as one)",
                &d.raise_cap,
                OptionKind::Integer { min: 1, max: u64::from(MAX_RAISE_CAP) },
            ),
            OptionSpec::new(
                "score",
                "HE-18, HE-21: what the standings rank: chips, or chips with each all-in's luck taken out",
                &d.score,
                OptionKind::Choice(&["\"chips\"", "\"all_in_adjusted\""]),
            ),
        ]
    }
}

/// Options that cannot be played. Each message names the rule and the limit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// HE-5: the big blind is at least one chip.
    #[error("HE-5: big_blind must be at least 1")]
    BigBlind,
    /// HE-5: the small blind is at most the big blind.
    #[error("HE-5: small_blind ({small_blind}) must be at most big_blind ({big_blind})")]
    SmallBlind {
        /// The small blind.
        small_blind: u32,
        /// The big blind.
        big_blind: u32,
    },
    /// HE-5: the ante is at most the big blind.
    #[error("HE-5: ante ({ante}) must be at most big_blind ({big_blind})")]
    Ante {
        /// The ante.
        ante: u32,
        /// The big blind.
        big_blind: u32,
    },
    /// HE-1: the stack holds at least a big blind and at most [`MAX_STACK`] chips.
    #[error("HE-1: stack ({stack}) must be from big_blind ({big_blind}) to {MAX_STACK}")]
    Stack {
        /// The stack.
        stack: u32,
        /// The big blind.
        big_blind: u32,
    },
    /// HE-17: a match has 1 to [`MAX_HANDS`] hands.
    #[error("HE-17: hands ({0}) must be from 1 to {MAX_HANDS}")]
    Hands(u32),
    /// HE-10: the raise cap is 1 to [`MAX_RAISE_CAP`].
    #[error("HE-10: raise_cap ({0}) must be from 1 to {MAX_RAISE_CAP}")]
    RaiseCap(u8),
}

impl Options {
    /// Checks that the options can be played.
    pub fn validate(&self) -> Result<(), OptionsError> {
        let big_blind = self.big_blind;
        if big_blind == 0 {
            return Err(OptionsError::BigBlind);
        }
        if self.small_blind > big_blind {
            return Err(OptionsError::SmallBlind { small_blind: self.small_blind, big_blind });
        }
        if self.ante > big_blind {
            return Err(OptionsError::Ante { ante: self.ante, big_blind });
        }
        if self.stack < big_blind || self.stack > MAX_STACK {
            return Err(OptionsError::Stack { stack: self.stack, big_blind });
        }
        if self.hands == 0 || self.hands > MAX_HANDS {
            return Err(OptionsError::Hands(self.hands));
        }
        if self.raise_cap == 0 || self.raise_cap > MAX_RAISE_CAP {
            return Err(OptionsError::RaiseCap(self.raise_cap));
        }
        Ok(())
    }

    /// The fixed size of a bet or raise on `street` in limit betting (HE-10): the big blind
    /// before the flop and on the flop, twice it on the turn and river.
    pub fn limit_bet(&self, street: super::Street) -> u32 {
        match street {
            super::Street::Preflop | super::Street::Flop => self.big_blind,
            super::Street::Turn | super::Street::River => self.big_blind.saturating_mul(2),
        }
    }
}
