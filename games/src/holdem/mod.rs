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
//! full game does: at most `stack + 1` raises, which the stack's limit of 20,000 bounds. A seat
//! facing a bet may fold; with nothing to call it may only check or raise (HE-8).
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
mod setup;
mod state;
mod view;

pub use action::Action;
pub use error::{IllegalAction, SetupError};
pub use eval::{Category, Hand, HandRank};
pub use options::{Betting, MAX_HANDS, MAX_RAISE_CAP, MAX_STACK, Options, OptionsError};
pub use setup::Setup;
pub use state::{BOARD_CARDS, HOLE_CARDS, MAX_SEATS, State};
pub use view::{
    Award, Blind, Event, HandResult, KnockedOut, Observation, Outcome, PublicView, Round,
    SeatChips, SeatStatus, Street,
};
