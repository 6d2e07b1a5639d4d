//! Why an action or a setup is refused.

use crate::seat::Seat;

use super::cards::{Cards, TooManyCards};
use super::options::OptionsError;

/// An action the rules do not allow. The state that refused it is unchanged. Every message
/// starts with the id of the rule it breaks, which [`IllegalAction::rule`] also returns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    /// Nobody acts any more (TT-21).
    #[error("TT-21: the match is over")]
    MatchOver,
    /// Another seat is to act: exchanges go clockwise from the dealer's left (TT-9), plays go
    /// clockwise from the leader (TT-12).
    #[error("{rule}: it is {to_act}'s turn, not {seat}'s", rule = if *.exchanging { "TT-9" } else { "TT-12" })]
    NotYourTurn {
        /// Who tried to act.
        seat: Seat,
        /// Who is to act.
        to_act: Seat,
        /// True during the exchange.
        exchanging: bool,
    },
    /// A play during the exchange, or an exchange during the tricks.
    #[error("TT-9: {}", if *.exchanging { "this is the exchange: discard cards (or none) to draw as many" } else { "the exchange is over: play cards to the trick" })]
    WrongPhase {
        /// True during the exchange.
        exchanging: bool,
    },
    /// Cards that are not in the hand, counting copies.
    #[error("{rule}: you do not hold {cards}; your hand is {hand}", rule = if *.exchanging { "TT-9" } else { "TT-11" })]
    NotInHand {
        /// The cards named.
        cards: Cards,
        /// The hand.
        hand: Cards,
        /// True during the exchange.
        exchanging: bool,
    },
    /// More discards than the stock can replace.
    #[error(
        "TT-9: you may discard at most {stock} cards, as many as the stock holds, not {discards}"
    )]
    ExchangeTooMany {
        /// Cards discarded.
        discards: usize,
        /// Cards in the stock.
        stock: usize,
    },
    /// A lead of no cards.
    #[error("TT-11: a lead is one card or a set of one rank, not nothing")]
    EmptyLead,
    /// A lead of several ranks.
    #[error("TT-11: a lead of several cards must be a set of one rank, not {cards}")]
    LeadNotOneRank {
        /// The lead.
        cards: Cards,
    },
    /// A lead of the whole hand.
    #[error("TT-11: a lead must leave at least one card in your hand; you hold {hand_len}, so lead at most {}", .hand_len - 1)]
    LeadEmptiesHand {
        /// Cards in the hand.
        hand_len: usize,
    },
    /// A follow of the wrong size.
    #[error("TT-12: play exactly as many cards as were led ({led}), not {played}")]
    WrongCount {
        /// Cards played.
        played: usize,
        /// Cards led.
        led: usize,
    },
    /// A follow that neither dominates the strongest combination nor is the lowest cards.
    #[error("TT-12: {cards} neither beats the strongest combination {strongest} (each card, high to low, at least the one it meets) nor is a duck: a duck must be your {} lowest cards: {duck}", .duck.len())]
    NeitherBeatNorDuck {
        /// Cards played.
        cards: Cards,
        /// The strongest combination so far.
        strongest: Cards,
        /// The seat's lowest cards.
        duck: Cards,
    },
}

impl IllegalAction {
    /// The id of the rule broken, such as `"TT-12"`.
    pub fn rule(&self) -> &'static str {
        match self {
            IllegalAction::MatchOver => "TT-21",
            IllegalAction::NotYourTurn { exchanging: true, .. }
            | IllegalAction::NotInHand { exchanging: true, .. }
            | IllegalAction::WrongPhase { .. }
            | IllegalAction::ExchangeTooMany { .. } => "TT-9",
            IllegalAction::NotInHand { exchanging: false, .. }
            | IllegalAction::EmptyLead
            | IllegalAction::LeadNotOneRank { .. }
            | IllegalAction::LeadEmptiesHand { .. } => "TT-11",
            IllegalAction::NotYourTurn { exchanging: false, .. }
            | IllegalAction::WrongCount { .. }
            | IllegalAction::NeitherBeatNorDuck { .. } => "TT-12",
        }
    }
}

/// A [`Setup`](super::Setup) that is not a valid position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The options, or the options for this many players.
    #[error(transparent)]
    Options(#[from] OptionsError),
    /// Per-seat lists (hands, scores, penalty piles) of different lengths.
    #[error("setup: {field} has {got} entries but the table has {players} seats")]
    SeatCount {
        /// Which list.
        field: &'static str,
        /// Entries in it.
        got: usize,
        /// Seats at the table.
        players: usize,
    },
    /// A seat number past the table.
    #[error("setup: {seat} is not at a table of {players}")]
    NoSuchSeat {
        /// The seat.
        seat: Seat,
        /// Seats at the table.
        players: usize,
    },
    /// Active hands of different sizes, or an empty one (TT-11: all hands are equal).
    #[error(
        "TT-11: every active hand must hold the same number (1 to 11) of cards; {seat} holds {got}, {first} holds {expected}"
    )]
    UnequalHands {
        /// The first active seat.
        first: Seat,
        /// Its hand size.
        expected: usize,
        /// The seat that differs.
        seat: Seat,
        /// Its hand size.
        got: usize,
    },
    /// A hand of more than 11 cards.
    #[error(transparent)]
    TooManyCards(#[from] TooManyCards),
    /// An eliminated seat holding cards, or fewer than two active seats.
    #[error("setup: {0}")]
    Seats(String),
    /// More copies of a card than the packs hold, or (with an explicit stock) fewer cards in
    /// all than the packs (TT-3, TT-7).
    #[error("TT-7: {0}")]
    Cards(String),
}
