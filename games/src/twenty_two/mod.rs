//! Twenty-Two ("22"), 2 to 12 players: avoid winning the last trick. The rules, with the ids
//! cited throughout (`TT-…`), are `docs/rules/twenty-two.md`.
//!
//! ```
//! use cardroom_games::twenty_two::{Options, State};
//!
//! let mut state = State::new(Options::default(), 4, 42).unwrap();
//! while let Some(seat) = state.to_act() {
//!     // The lowest legal action: exchange nothing, lead or duck low.
//!     let action = state.legal_actions()[0];
//!     state.apply(seat, action).unwrap();
//! }
//! let standings = state.outcome().unwrap();
//! assert_eq!(standings.len(), 4);
//! assert_eq!(standings[0].place, 1);
//! // The record replays to the same end.
//! let replayed = state.record().unwrap().replay().unwrap();
//! assert_eq!(replayed.outcome(), state.outcome());
//! ```
//!
//! Suits never matter in play, so [`State::legal_actions`] lists each choice of ranks once
//! (with the lowest suits held); [`State::apply`] takes any suits the seat holds.

mod cards;
mod error;
mod legal;
mod options;
mod record;
mod sample;
#[cfg(feature = "schema")]
mod schema;
mod setup;
mod state;
mod table;
mod view;

use std::fmt;

use serde::{Deserialize, Serialize};

pub use cards::{Cards, MAX_HAND, TooManyCards};
pub use error::{IllegalAction, SetupError};
pub use options::{
    MAX_PLAYERS, MIN_PLAYERS, Options, OptionsError, Packs, TiedDealer, TrickWinner, Variant,
};
pub use record::{Record, RecordedAction, ReplayError, Start};
pub use setup::Setup;
pub use state::{State, penalty_value};
pub use view::{
    DealResult, Event, Observation, PhaseView, Play, PublicSeat, PublicView, SeatCard, TieBreak,
    Trick,
};

/// What a seat does: exchange cards before the tricks (TT-9), or play cards to a trick (TT-11,
/// TT-12). Written `{"exchange": ["2C"]}` or `{"play": ["7S", "7D"]}` in JSON.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Discard these cards face down and draw as many from the stock (none is allowed).
    Exchange(Cards),
    /// Lead or follow with these cards.
    Play(Cards),
}

impl Action {
    /// The cards the action names.
    pub fn cards(&self) -> &Cards {
        match self {
            Action::Exchange(cards) | Action::Play(cards) => cards,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Exchange(cards) if cards.is_empty() => f.write_str("exchanges nothing"),
            Action::Exchange(cards) => write!(f, "exchanges {cards}"),
            Action::Play(cards) => write!(f, "plays {cards}"),
        }
    }
}

impl crate::game::RuleError for IllegalAction {
    fn rule(&self) -> &'static str {
        IllegalAction::rule(self)
    }
}

impl crate::game::Game for State {
    type Options = Options;
    type Setup = Setup;
    type Action = Action;
    type Event = Event;
    type Observation = Observation;
    type PublicView = PublicView;
    type Error = IllegalAction;
    type CreateError = SetupError;
    type SetupError = SetupError;
    type SampleError = SetupError;

    const KIND: crate::GameKind = crate::GameKind::TwentyTwo;

    /// TT-4: 2 to 12 players, up to 16 with fixed packs ([`Options::max_players`]).
    fn seats(options: &Options) -> std::ops::RangeInclusive<u8> {
        MIN_PLAYERS..=options.max_players()
    }

    fn new(options: Options, players: u8, seed: u64) -> Result<State, SetupError> {
        State::new(options, players, seed)
    }

    fn from_setup(options: Options, setup: Setup) -> Result<State, SetupError> {
        State::from_setup(options, setup)
    }

    fn options(&self) -> &Options {
        State::options(self)
    }

    fn players(&self) -> u8 {
        State::players(self)
    }

    fn to_act(&self) -> Option<crate::Seat> {
        State::to_act(self)
    }

    fn legal_actions(&self) -> Vec<Action> {
        State::legal_actions(self)
    }

    fn apply_into(
        &mut self,
        seat: crate::Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalAction> {
        State::apply_into(self, seat, action, events)
    }

    fn observation(&self, seat: crate::Seat) -> Observation {
        State::observation(self, seat)
    }

    fn observation_into(&self, seat: crate::Seat, observation: &mut Observation) {
        State::observation_into(self, seat, observation);
    }

    fn public_view(&self) -> PublicView {
        State::public_view(self)
    }

    fn opening_events(&self) -> Vec<Event> {
        State::opening_events(self).to_vec()
    }

    /// TT-24: every hand face down; the tricks, the penalty piles and the scores face up.
    fn public_table(view: &PublicView) -> crate::Table {
        table::public(view)
    }

    /// TT-25: the seat's own hand and exchange discards face up.
    fn seat_table(observation: &Observation) -> crate::Table {
        table::seat(observation)
    }

    fn event_line(event: &Event) -> crate::Line {
        table::event_line(event)
    }

    fn standings(&self) -> Option<Vec<crate::Standing>> {
        self.outcome().map(<[_]>::to_vec)
    }

    /// TT-21 or TT-28 (one player left), TT-22 (all eliminated at once) or TT-8 (no card to deal).
    fn end_reason(&self) -> Option<String> {
        State::end_reason(self)
    }

    fn record(&self) -> Option<Record> {
        State::record(self)
    }

    fn default_action(&self) -> Option<Action> {
        State::default_action(self)
    }

    /// A forfeited seat is played by [`State::default_action`] to the end, at any table size.
    fn forfeit_ends_match() -> bool {
        false
    }

    #[cfg(feature = "schema")]
    fn schemas() -> Vec<crate::schema::SchemaFile> {
        crate::schema::forms::<State>("twenty-two")
    }

    fn sample<R: rand::Rng + ?Sized>(
        observation: &Observation,
        rng: &mut R,
    ) -> Result<State, SetupError> {
        State::sample_from_observation(observation, rng)
    }

    fn into_any_record(record: Record) -> crate::AnyRecord {
        crate::AnyRecord::TwentyTwo(record)
    }

    fn from_any_record(record: crate::AnyRecord) -> Option<Record> {
        match record {
            crate::AnyRecord::TwentyTwo(record) => Some(record),
            _ => None,
        }
    }
}
