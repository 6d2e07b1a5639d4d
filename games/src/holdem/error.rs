//! Why an action or a setup is refused.

use super::options::OptionsError;
use crate::card::Card;
use crate::seat::Seat;

/// An action the rules do not allow. The state that refused it is unchanged. Every message
/// starts with the id of the rule it breaks, which [`IllegalAction::rule`] also returns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    /// Nobody acts any more (HE-17).
    #[error("HE-17: the match is over")]
    MatchOver,
    /// A seat the table does not have (HE-1).
    #[error("HE-1: the table has {players} seats, 0 to {}; there is no {seat}", players - 1)]
    NoSuchSeat {
        /// The seat named.
        seat: Seat,
        /// Seats at the table.
        players: u8,
    },
    /// Another seat is to act (HE-7).
    #[error("HE-7: it is {to_act}'s turn, not {seat}'s")]
    NotYourTurn {
        /// Who tried to act.
        seat: Seat,
        /// Who is to act.
        to_act: Seat,
    },
    /// A fold with nothing to call (HE-8).
    #[error("HE-8: there is nothing to call, so check (a fold is only for facing a bet)")]
    FoldWithoutBet,
    /// A check facing a bet (HE-8).
    #[error("HE-8: there are {to_call} chips to call: call, raise or fold")]
    CheckFacingBet {
        /// The chips to call.
        to_call: u32,
    },
    /// A call with nothing to call (HE-8).
    #[error("HE-8: there is nothing to call: check")]
    CallWithoutBet,
    /// A raise with no more chips than the bet (HE-8).
    #[error("HE-8: your {chips} chips do not cover more than the bet of {bet}: call or fold")]
    ShortOfTheBet {
        /// The most the seat could have in on this round.
        chips: u32,
        /// The round's bet.
        bet: u32,
    },
    /// A raise when every other seat is all in (HE-12).
    #[error("HE-12: every other seat still in is all in, so nobody could call a raise")]
    NobodyToCall,
    /// A raise past the round's cap in limit betting (HE-10).
    #[error("HE-10: this round has had its {cap} bets and raises: call or fold")]
    RaiseCapped {
        /// The cap.
        cap: u8,
    },
    /// A raise when a short all-in did not reopen the betting (HE-11).
    #[error(
        "HE-11: you acted on a bet of {acted_at} and the bet is now {bet}, less than a full \
         raise more: the betting is not reopened for you, so call or fold"
    )]
    NotReopened {
        /// The bet the seat last acted on.
        acted_at: u32,
        /// The bet now.
        bet: u32,
    },
    /// A raise smaller than the smallest (HE-9).
    #[error("HE-9: the smallest raise is to {min}, not {to}")]
    RaiseTooSmall {
        /// The raise tried.
        to: u32,
        /// The smallest.
        min: u32,
    },
    /// A raise larger than the seat's chips (HE-9).
    #[error("HE-9: you can put in {max} on this round at most (all in), not {to}")]
    RaiseTooLarge {
        /// The raise tried.
        to: u32,
        /// The seat's chips on this round.
        max: u32,
    },
    /// A raise of another size than the limit's (HE-10).
    #[error("HE-10: in limit betting the raise is to {size}, not {to}")]
    LimitSize {
        /// The raise tried.
        to: u32,
        /// The one size allowed.
        size: u32,
    },
}

impl IllegalAction {
    /// The id of the broken rule, such as `"HE-9"`.
    pub fn rule(&self) -> &'static str {
        match self {
            IllegalAction::MatchOver => "HE-17",
            IllegalAction::NoSuchSeat { .. } => "HE-1",
            IllegalAction::NotYourTurn { .. } => "HE-7",
            IllegalAction::FoldWithoutBet
            | IllegalAction::CheckFacingBet { .. }
            | IllegalAction::CallWithoutBet
            | IllegalAction::ShortOfTheBet { .. } => "HE-8",
            IllegalAction::NobodyToCall => "HE-12",
            IllegalAction::RaiseCapped { .. } | IllegalAction::LimitSize { .. } => "HE-10",
            IllegalAction::NotReopened { .. } => "HE-11",
            IllegalAction::RaiseTooSmall { .. } | IllegalAction::RaiseTooLarge { .. } => "HE-9",
        }
    }
}

/// A match that cannot be created: options that cannot be played, a table size outside the
/// rules, or a setup that is no position of the game. The message names the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The options cannot be played.
    #[error(transparent)]
    Options(#[from] OptionsError),
    /// HE-1: 2 to 10 seats.
    #[error("HE-1: hold'em seats 2 to 10 players, not {0}")]
    Players(usize),
    /// HE-1: one list entry a seat.
    #[error(
        "HE-1: the setup has {stacks} stacks and {hole_cards} hole-card lists; they must match"
    )]
    Lengths {
        /// Stacks given.
        stacks: usize,
        /// Hole-card lists given.
        hole_cards: usize,
    },
    /// HE-1: a stack too large for the table's chips to be counted.
    #[error("HE-1: {seat} has {stack} chips; a setup's stack is at most {max}")]
    Stack {
        /// The seat.
        seat: Seat,
        /// Its chips.
        stack: u32,
        /// The most allowed.
        max: u32,
    },
    /// HE-17: a match goes on only with two seats holding chips.
    #[error("HE-17: at least two seats need chips to play a hand")]
    TooFewWithChips,
    /// HE-4: the button is on a seat with chips.
    #[error("HE-4: the button must be on a seat with chips, and {0} has none")]
    Button(Seat),
    /// HE-6: two hole cards for a seat with chips, none for a seat without.
    #[error("HE-6: {seat} must hold {want} hole cards, not {got}")]
    HoleCards {
        /// The seat.
        seat: Seat,
        /// Cards it must hold.
        want: usize,
        /// Cards given.
        got: usize,
    },
    /// HE-6: five board cards.
    #[error("HE-6: the board to come is five cards, not {0}")]
    Board(usize),
    /// HE-1: one pack, each card once.
    #[error("HE-1: {0} is dealt twice")]
    Duplicate(Card),
    /// HE-17: the hand's number is within the match's hands.
    #[error("HE-17: the hand number must be from 1 to the match's {hands} hands, not {given}")]
    HandNumber {
        /// The number given.
        given: u32,
        /// The match's hands.
        hands: u32,
    },
    /// An observation that is no position of the game (for sampling).
    #[error("HE-6: the observation cannot be sampled: {0}")]
    Observation(&'static str),
}
