//! Twenty-Two's names for the generic record types ([`crate::Record`]): a match as options,
//! players, start and actions, replayed exactly.

use super::Action;
use super::setup::Setup;
use super::state::State;

/// A Twenty-Two match as data ([`crate::Record`] of [`State`]); see [`crate::Record`] for the
/// JSON form.
pub type Record = crate::record::Record<State>;
/// How a recorded Twenty-Two match began: a seed, or an explicit [`Setup`].
pub type Start = crate::record::Start<Setup>;
/// One Twenty-Two action and the seat that took it.
pub type RecordedAction = crate::record::RecordedAction<Action>;
/// Why a Twenty-Two record does not replay.
pub type ReplayError = crate::record::ReplayError<State>;
