//! Hold'em's names for the generic record types ([`crate::Record`]): a match as options,
//! start and actions, replayed exactly.

use super::action::Action;
use super::setup::Setup;
use super::state::State;

/// A Hold'em match as data ([`crate::Record`] of [`State`]). In JSON: `{"game": "holdem",
/// "options": {...}, "players": 6, "seed": 7, "actions": [{"seat": 3, "action": "call"},
/// {"seat": 4, "action": {"raise_to": 12}}, ...]}`.
pub type Record = crate::record::Record<State>;
/// How a recorded Hold'em match began: a seed, or an explicit [`Setup`].
pub type Start = crate::record::Start<Setup>;
/// One Hold'em action and the seat that took it.
pub type RecordedAction = crate::record::RecordedAction<Action>;
/// Why a Hold'em record does not replay.
pub type ReplayError = crate::record::ReplayError<State>;
