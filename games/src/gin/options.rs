//! Gin Rummy's rule-set options (the table at the end of `docs/rules/gin-rummy.md`).

use serde::{Deserialize, Serialize};

use crate::options::{GameOptions, OptionKind, OptionSpec};

/// A rule set: which variant of Gin Rummy is played. `Options::default()` is the rules' default.
/// In JSON every field may be left out and takes its default; unknown fields are refused.
///
/// ```
/// use cardroom_games::gin::{FirstUpcard, Options};
/// let options: Options = serde_json::from_str(r#"{"knock_limit": 7, "first_upcard": "seed"}"#).unwrap();
/// assert_eq!(options.knock_limit, 7);
/// assert_eq!(options.first_upcard, FirstUpcard::Seed);
/// assert_eq!(options.target, 100);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Who may take the first upcard (GR-5).
    pub first_upcard: FirstUpcard,
    /// Whether a card just taken from the discard pile may be discarded in the same turn (GR-6;
    /// `true` is OpenSpiel's rule).
    pub discard_taken_upcard: bool,
    /// The most deadwood with which one may knock (GR-7), 0 to 10; 0 means gin only.
    pub knock_limit: u8,
    /// The first upcard's value sets the hand's knock limit, an ace meaning gin only (GR-14).
    pub oklahoma: bool,
    /// With `oklahoma`, a spade as first upcard doubles the hand's score (GR-14).
    pub oklahoma_spades_double: bool,
    /// Added to the defender's deadwood for gin (GR-12).
    pub gin_bonus: u32,
    /// Added for an undercut (GR-12).
    pub undercut_bonus: u32,
    /// Whether big gin (11 melded cards, no discard) is allowed (GR-8).
    pub big_gin: bool,
    /// Added to the defender's deadwood for big gin (GR-12).
    pub big_gin_bonus: u32,
    /// Whether the defender wins a tie, `D == K` (GR-12; `false` is OpenSpiel's: nobody scores).
    pub tie_is_undercut: bool,
    /// At the wall, whether the next player may still take the upcard to knock (GR-10; `true` is
    /// OpenSpiel's rule).
    pub wall_knock: bool,
    /// A hand in which the upcard has been taken this many times ends as a draw (GR-11). At least 1.
    pub max_upcard_draws: u32,
    /// The total that ends the match (GR-13). At least 1.
    pub target: u32,
    /// The most hands a match lasts: after this many, a match in which neither seat reached
    /// the target ends drawn (GR-17). At least 1.
    pub max_hands: u32,
    /// 100 points to the player who reaches the target (GR-13).
    pub game_bonus: bool,
    /// 25 points per hand won, for each player (GR-13).
    pub box_bonus: bool,
    /// Double the total of the player who reaches the target if the other scored no points in
    /// hands (GR-13).
    pub shutout_double: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            first_upcard: FirstUpcard::Standard,
            discard_taken_upcard: false,
            knock_limit: 10,
            oklahoma: false,
            oklahoma_spades_double: false,
            gin_bonus: 25,
            undercut_bonus: 25,
            big_gin: false,
            big_gin_bonus: 31,
            tie_is_undercut: true,
            wall_knock: false,
            max_upcard_draws: 50,
            target: 100,
            max_hands: 300,
            game_bonus: false,
            box_bonus: false,
            shutout_double: false,
        }
    }
}

impl GameOptions for Options {
    fn describe() -> Vec<OptionSpec> {
        let d = Options::default();
        vec![
            OptionSpec::new(
                "first_upcard",
                "GR-5: after both pass the first upcard, the non-dealer draws (standard) or the dealer takes a normal turn (seed)",
                &d.first_upcard,
                OptionKind::Choice(&["\"standard\"", "\"seed\""]),
            ),
            OptionSpec::new(
                "discard_taken_upcard",
                "GR-6: may a card just taken from the discard pile be discarded in the same turn",
                &d.discard_taken_upcard,
                OptionKind::Bool,
            ),
            OptionSpec::new(
                "knock_limit",
                "GR-7: the most deadwood a knocker may hold, 0 to 10",
                &d.knock_limit,
                OptionKind::Integer { min: 0, max: 10 },
            ),
            OptionSpec::new(
                "oklahoma",
                "GR-14: the first upcard's value sets the hand's knock limit (an ace: gin only)",
                &d.oklahoma,
                OptionKind::Bool,
            ),
            OptionSpec::new(
                "oklahoma_spades_double",
                "GR-14: with oklahoma, a spade upcard doubles the hand's score",
                &d.oklahoma_spades_double,
                OptionKind::Bool,
            ),
            OptionSpec::new(
                "gin_bonus",
                "GR-12: the bonus for gin",
                &d.gin_bonus,
                OptionKind::Integer { min: 0, max: u64::from(MAX_POINTS) },
            ),
            OptionSpec::new(
                "undercut_bonus",
                "GR-12: the bonus for an undercut",
                &d.undercut_bonus,
                OptionKind::Integer { min: 0, max: u64::from(MAX_POINTS) },
            ),
            OptionSpec::new(
                "big_gin",
                "GR-8: may a player go out with all eleven cards melded",
                &d.big_gin,
                OptionKind::Bool,
            ),
            OptionSpec::new(
                "big_gin_bonus",
                "GR-12: the bonus for big gin",
                &d.big_gin_bonus,
                OptionKind::Integer { min: 0, max: u64::from(MAX_POINTS) },
            ),
            OptionSpec::new(
                "tie_is_undercut",
                "GR-12: does equal deadwood count as an undercut",
                &d.tie_is_undercut,
                OptionKind::Bool,
            ),
            OptionSpec::new(
                "wall_knock",
                "GR-10: at the wall, may the next player take the upcard to knock",
                &d.wall_knock,
                OptionKind::Bool,
            ),
            OptionSpec::new(
                "max_upcard_draws",
                "GR-11: upcard draws after which a hand is a draw",
                &d.max_upcard_draws,
                OptionKind::Integer { min: 1, max: u64::from(u32::MAX) },
            ),
            OptionSpec::new(
                "target",
                "GR-13: the total that ends the match",
                &d.target,
                OptionKind::Integer { min: 1, max: u64::from(MAX_POINTS) },
            ),
            OptionSpec::new(
                "max_hands",
                "GR-17: hands after which a match in which nobody reached the target ends drawn",
                &d.max_hands,
                OptionKind::Integer { min: 1, max: u64::from(u32::MAX) },
            ),
            OptionSpec::new(
                "game_bonus",
                "GR-13: 100 points to the match winner",
                &d.game_bonus,
                OptionKind::Bool,
            ),
            OptionSpec::new(
                "box_bonus",
                "GR-13: 25 points per hand won",
                &d.box_bonus,
                OptionKind::Bool,
            ),
            OptionSpec::new(
                "shutout_double",
                "GR-13: double the winner's total if the loser scored nothing",
                &d.shutout_double,
                OptionKind::Bool,
            ),
        ]
    }
}

/// The game bonus (GR-13).
pub const GAME_BONUS: u32 = 100;
/// The box bonus per hand won (GR-13).
pub const BOX_BONUS: u32 = 25;

/// How the first upcard is offered (GR-5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FirstUpcard {
    /// The non-dealer may take it or pass, then the dealer; if both pass the non-dealer draws
    /// from the stock.
    #[default]
    Standard,
    /// Seed 004: the non-dealer may take it or pass; after a pass the dealer takes a normal turn.
    Seed,
}

/// Options that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// GR-7: the knock limit is 0 to 10.
    #[error("GR-7: knock_limit must be 0 to 10, not {0}")]
    KnockLimit(u8),
    /// GR-14: spades double only in Oklahoma.
    #[error("GR-14: oklahoma_spades_double needs oklahoma")]
    SpadesWithoutOklahoma,
    /// GR-11: the upcard limit is at least 1.
    #[error("GR-11: max_upcard_draws must be at least 1")]
    MaxUpcardDraws,
    /// GR-13: the target is at least 1.
    #[error("GR-13: target must be at least 1")]
    Target,
    /// GR-17: a match has at least one hand.
    #[error("GR-17: max_hands must be at least 1")]
    MaxHands,
    /// Scores would not fit: bonuses and target are capped at a million so totals never overflow.
    #[error("GR-12: {field} must be at most {MAX_POINTS}, not {value}")]
    TooLarge {
        /// The option.
        field: &'static str,
        /// Its value.
        value: u32,
    },
}

/// The largest bonus or target: keeps every total far from overflowing.
pub const MAX_POINTS: u32 = 1_000_000;

impl Options {
    /// Checks that the options can be played.
    pub fn validate(&self) -> Result<(), OptionsError> {
        if self.knock_limit > 10 {
            return Err(OptionsError::KnockLimit(self.knock_limit));
        }
        if self.oklahoma_spades_double && !self.oklahoma {
            return Err(OptionsError::SpadesWithoutOklahoma);
        }
        if self.max_upcard_draws == 0 {
            return Err(OptionsError::MaxUpcardDraws);
        }
        if self.target == 0 {
            return Err(OptionsError::Target);
        }
        if self.max_hands == 0 {
            return Err(OptionsError::MaxHands);
        }
        for (field, value) in [
            ("gin_bonus", self.gin_bonus),
            ("undercut_bonus", self.undercut_bonus),
            ("big_gin_bonus", self.big_gin_bonus),
            ("target", self.target),
        ] {
            if value > MAX_POINTS {
                return Err(OptionsError::TooLarge { field, value });
            }
        }
        Ok(())
    }
}
