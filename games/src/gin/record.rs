//! [`Record`]: a match as options, start and actions, replayed exactly.

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::error::ReplayError;
use super::options::Options;
use super::state::{Setup, State};
use super::view::Event;
use crate::seat::Seat;

/// A Gin Rummy match as data: it replays exactly, with the same rules engine, on every
/// platform. See the [module documentation](super) for the JSON form.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Record {
    /// The rule set; any field left out takes its default.
    #[serde(default)]
    pub options: Options,
    /// A seed (`"seed": 7`), or an explicit setup (`"setup": {...}`).
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

/// One action and the seat that took it: `{"seat": 0, "action": "draw_stock"}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RecordedAction {
    /// Who acted.
    pub seat: Seat,
    /// What they did.
    pub action: Action,
}

impl Record {
    /// The state at the start, before any action.
    pub fn initial_state(&self) -> Result<State, ReplayError> {
        Ok(match &self.start {
            Start::Seed(seed) => State::new(self.options, *seed)?,
            Start::Setup(setup) => State::from_setup(self.options, setup.clone())?,
        })
    }

    /// Replays every action; the state after the last one, or the first illegal action.
    pub fn replay(&self) -> Result<State, ReplayError> {
        self.replay_with(|_, _| {})
    }

    /// Replays every action, handing each action's index and events to `on_events`.
    pub fn replay_with(
        &self,
        mut on_events: impl FnMut(usize, &[Event]),
    ) -> Result<State, ReplayError> {
        let mut state = self.initial_state()?;
        for (index, &RecordedAction { seat, action }) in self.actions.iter().enumerate() {
            let events = state.apply(seat, action).map_err(|error| ReplayError::Illegal {
                index,
                seat,
                action,
                error,
            })?;
            on_events(index, &events);
        }
        Ok(state)
    }
}
