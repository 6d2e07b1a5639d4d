//! Gin Rummy's names for the generic record types ([`crate::Record`]): a match as options,
//! start and actions, replayed exactly.

use super::action::Action;
use super::setup::Setup;
use super::state::State;

/// A Gin Rummy match as data ([`crate::Record`] of [`State`]); see the
/// [module documentation](super) for the JSON form.
pub type Record = crate::record::Record<State>;
/// How a recorded Gin Rummy match began: a seed, or an explicit [`Setup`].
pub type Start = crate::record::Start<Setup>;
/// One Gin Rummy action and the seat that took it.
pub type RecordedAction = crate::record::RecordedAction<Action>;
/// Why a Gin Rummy record does not replay.
pub type ReplayError = crate::record::ReplayError<State>;
