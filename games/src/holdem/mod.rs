//! No-Limit Texas Hold'em, exactly as `docs/rules/holdem.md` specifies it (HE-1 to HE-20 and
//! every option), for 2 to 10 seats.
//!
//! Hands are played until one seat holds every chip or the last of `hands` hands is played
//! (HE-17). In each hand the forced bets are posted (HE-5), two hole cards dealt to each seat
//! with chips (HE-6), and four betting rounds played (HE-7), each seat to act choosing among
//! [`Action::Fold`], [`Action::Check`], [`Action::Call`] and [`Action::RaiseTo`] (HE-8 to HE-12).
//! The board, the showdown, the pots and the next hand's deal all happen inside the
//! [`State::apply`] call that ended a round or the hand.
//!
//! ```
//! use cardroom_games::holdem::{Action, Options, State};
//! let mut state = State::new(Options::default(), 6, 7).unwrap();
//! while let Some(seat) = state.to_act() {
//!     // A very simple bot: call any bet, check when it can.
//!     let legal = state.legal_actions();
//!     let action = if legal.contains(&Action::Call) { Action::Call } else { Action::Check };
//!     state.apply(seat, action).unwrap();
//! }
//! let outcome = state.outcome().unwrap();
//! // Chips are neither made nor lost (HE-14).
//! assert_eq!(outcome.stacks.iter().sum::<u32>(), 6 * 200);
//! assert!(state.end_reason().unwrap().starts_with("HE-17: "));
//! ```
//!
//! # Legal actions
//!
//! The legal list names every raise size, from the smallest (HE-9) to all in, as OpenSpiel's
//! full game does: as many as the seat has chips, at most the table's chips (2,000 at ten seats
//! of the default 200). A seat facing a bet may fold; with nothing to call it may only check or
//! raise (HE-8).
//!
//! # The evaluator
//!
//! [`Hand`] and [`HandRank`] rank the best five of up to seven cards (HE-2, HE-3) in a few
//! nanoseconds, with no table; the counts of all 133,784,560 seven-card hands' categories are
//! tested against the published ones.

mod action;
mod error;
mod eval;
mod legal;
mod options;
mod record;
mod setup;
mod state;
mod table;
mod view;

pub use action::Action;
pub use error::{IllegalAction, SetupError};
pub use eval::{Category, Hand, HandRank};
pub use options::{Betting, MAX_HANDS, MAX_RAISE_CAP, MAX_STACK, Options, OptionsError, Score};
pub use record::{Record, RecordedAction, ReplayError, Start};
pub use setup::Setup;
pub use state::{BOARD_CARDS, HOLE_CARDS, MAX_SEATS, SAMPLED_RUNOUTS, State};
pub use view::{
    AllIn, Award, Blind, Event, HandResult, KnockedOut, Observation, Outcome, PublicView, Round,
    SeatChips, SeatStatus, Street,
};

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

    const KIND: crate::GameKind = crate::GameKind::Holdem;

    /// HE-1: 2 to 10 seats, whatever the options.
    fn seats(_: &Options) -> std::ops::RangeInclusive<u8> {
        2..=MAX_SEATS
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

    fn public_view(&self) -> PublicView {
        State::public_view(self)
    }

    /// The first hand's start: the button and the forced bets (HE-4, HE-5).
    fn opening_events(&self) -> Vec<Event> {
        self.opening_events()
    }

    /// HE-6: every hand face down.
    fn public_table(view: &PublicView) -> crate::Table {
        table::public(view)
    }

    /// HE-6: the seat's own two hole cards face up.
    fn seat_table(observation: &Observation) -> crate::Table {
        table::seat(observation)
    }

    fn event_line(event: &Event) -> crate::Line {
        table::event_line(event)
    }

    fn standings(&self) -> Option<Vec<crate::Standing>> {
        self.outcome().map(|outcome| outcome.standings.clone())
    }

    /// HE-17: one seat holds every chip, or the last hand was played.
    fn end_reason(&self) -> Option<String> {
        State::end_reason(self)
    }

    fn record(&self) -> Option<Record> {
        (!self.is_sampled()).then(|| State::record(self))
    }

    /// HE-19: check when it can, fold otherwise.
    fn default_action(&self) -> Option<Action> {
        State::default_action(self)
    }

    /// A forfeited seat is played to the end by the default action (HE-19): the others play
    /// on for its chips.
    fn forfeit_ends_match() -> bool {
        false
    }

    #[cfg(feature = "schema")]
    fn schemas() -> Vec<crate::schema::SchemaFile> {
        crate::schema::forms::<State>("holdem")
    }

    fn sample<R: rand::Rng + ?Sized>(
        observation: &Observation,
        rng: &mut R,
    ) -> Result<State, SetupError> {
        State::sample_from_observation(observation, rng)
    }

    fn into_any_record(record: Record) -> crate::AnyRecord {
        crate::AnyRecord::Holdem(record)
    }

    fn from_any_record(record: crate::AnyRecord) -> Option<Record> {
        match record {
            crate::AnyRecord::Holdem(record) => Some(record),
            _ => None,
        }
    }
}
