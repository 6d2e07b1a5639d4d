//! Hold'em's actions (HE-8).

use std::fmt;

use serde::{Deserialize, Serialize};

/// A seat's move. Sorted as the legal list is: fold, check, call, then raises from the
/// smallest. In JSON: `"fold"`, `"check"`, `"call"`, `{"raise_to": 12}`.
///
/// ```
/// use cardroom_games::holdem::Action;
/// assert_eq!(serde_json::to_string(&Action::RaiseTo(12)).unwrap(), r#"{"raise_to":12}"#);
/// assert_eq!(Action::RaiseTo(12).to_string(), "raise to 12");
/// assert!(Action::Call < Action::RaiseTo(4));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Give up the hand (HE-8): only when facing a bet.
    Fold,
    /// Pass with nothing to call (HE-8).
    Check,
    /// Match the bet, or put in every chip when short (HE-8).
    Call,
    /// Make the round's bet this many chips in all, counting what the seat put in on this round
    /// already (HE-8 to HE-10); the first bet of a round is one too.
    RaiseTo(u32),
}

impl fmt::Display for Action {
    /// `fold`, `check`, `call`, `raise to 12`: the words of the text harness.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Fold => f.write_str("fold"),
            Action::Check => f.write_str("check"),
            Action::Call => f.write_str("call"),
            Action::RaiseTo(to) => write!(f, "raise to {to}"),
        }
    }
}
