//! Records: a match as options, start and actions, replayed exactly.

use serde::{Deserialize, Serialize};

use crate::seat::Seat;

use super::Action;
use super::error::{IllegalAction, SetupError};
use super::options::Options;
use super::state::{Setup, State};
use super::view::Event;

/// A Twenty-Two match as data: it replays exactly, with the same rules engine, on every
/// platform. This is cardroom's replay format. In JSON (inside a
/// [`crate::Record`], which adds `"game": "twenty_two"`):
///
/// ```json
/// {
///   "options": { "limit": 22 },
///   "players": 4,
///   "seed": 7,
///   "actions": [
///     { "seat": 1, "action": { "exchange": ["2C", "9H"] } },
///     { "seat": 2, "action": { "exchange": [] } },
///     { "seat": 1, "action": { "play": ["7S", "7D"] } }
///   ]
/// }
/// ```
///
/// `options` may leave out any field (it takes the default). Instead of `"seed"`, a record may
/// start from `"setup"`, an explicit [`Setup`]. Cards are written `AS`, `TH`, `2C`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Record {
    /// The rule set.
    #[serde(default)]
    pub options: Options,
    /// Seats at the table.
    pub players: u8,
    /// A seed, or an explicit setup.
    #[serde(flatten)]
    pub start: Start,
    /// Every action, in order.
    #[serde(default)]
    pub actions: Vec<RecordedAction>,
}

/// How a recorded match began.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// [`State::new`] with this seed.
    Seed(u64),
    /// [`State::from_setup`] with this setup.
    Setup(Setup),
}

/// One action and the seat that took it: `{"seat": 1, "action": {"play": ["7S"]}}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RecordedAction {
    /// Who acted.
    pub seat: Seat,
    /// What they did.
    pub action: Action,
}

/// Why a record does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The start is not a valid match.
    #[error("the record's start is invalid: {0}")]
    Start(#[from] SetupError),
    /// A setup whose table size differs from `players`.
    #[error("the record says {players} players but its setup has {hands} hands")]
    Players {
        /// `players` in the record.
        players: u8,
        /// Hands in the setup.
        hands: usize,
    },
    /// The first illegal action.
    #[error("action {index} ({seat}: {action}) is illegal: {error}")]
    Illegal {
        /// Its position in `actions`, from 0.
        index: usize,
        /// Who took it.
        seat: Seat,
        /// What it was.
        action: Action,
        /// The rule it breaks.
        error: IllegalAction,
    },
}

impl Record {
    /// The state the record begins with.
    pub fn initial_state(&self) -> Result<State, ReplayError> {
        match &self.start {
            Start::Seed(seed) => Ok(State::new(self.options, self.players, *seed)?),
            Start::Setup(setup) => {
                if setup.hands.len() != self.players as usize {
                    return Err(ReplayError::Players {
                        players: self.players,
                        hands: setup.hands.len(),
                    });
                }
                Ok(State::from_setup(self.options, setup.clone())?)
            }
        }
    }

    /// Replays every action and returns the final state.
    pub fn replay(&self) -> Result<State, ReplayError> {
        self.replay_with(|_, _| {})
    }

    /// Replays every action, handing each action's events to `on_events` (the opening events
    /// first, with no action), and returns the final state.
    pub fn replay_with(
        &self,
        mut on_events: impl FnMut(Option<&RecordedAction>, &[Event]),
    ) -> Result<State, ReplayError> {
        let mut state = self.initial_state()?;
        on_events(None, state.opening_events());
        for (index, recorded) in self.actions.iter().enumerate() {
            let events = state.apply(recorded.seat, recorded.action).map_err(|error| {
                ReplayError::Illegal { index, seat: recorded.seat, action: recorded.action, error }
            })?;
            on_events(Some(recorded), &events);
        }
        Ok(state)
    }
}
