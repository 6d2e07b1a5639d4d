//! Why an action, a setup or a replay is refused.

use super::action::Action;
use super::cardset::CardSet;
use super::options::OptionsError;
use crate::card::Card;
use crate::seat::Seat;

/// An action the rules do not allow. The state that refused it is unchanged. Every message
/// starts with the id of the rule it breaks, which [`IllegalAction::rule`] also returns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    /// Nobody acts any more: a total reached the target (GR-13), or the last hand was played
    /// (GR-17).
    #[error("GR-13: the match is over")]
    MatchOver,
    /// Gin is for two players, seats 0 and 1 (GR-1).
    #[error("GR-1: gin is played by two players, seat 0 and seat 1; there is no {seat}")]
    NoSuchSeat {
        /// The seat named.
        seat: Seat,
    },
    /// Another seat is to act (GR-5, GR-6).
    #[error("GR-6: it is {to_act}'s turn, not {seat}'s")]
    NotYourTurn {
        /// Who tried to act.
        seat: Seat,
        /// Who is to act.
        to_act: Seat,
    },
    /// The first upcard is on offer: take it or pass (GR-5).
    #[error("GR-5: the first upcard is on offer: take it or pass, not {action}")]
    UpcardOnOffer {
        /// The action tried.
        action: Action,
    },
    /// Taking or passing the first upcard outside its offer (GR-5).
    #[error(
        "GR-5: the first upcard is no longer on offer: draw from the stock or the discard pile"
    )]
    NoUpcardOffer,
    /// After both players passed the first upcard the non-dealer draws from the stock (GR-5).
    #[error("GR-5: both players passed the first upcard, so the non-dealer draws from the stock")]
    StockOnly,
    /// A discard, knock or gin before drawing (GR-6).
    #[error("GR-6: draw first (from the stock or the discard pile), then discard")]
    MustDraw,
    /// A draw after drawing (GR-6).
    #[error("GR-6: you have drawn; now discard, knock or go gin")]
    AlreadyDrew,
    /// A card not in the hand (GR-6).
    #[error("GR-6: you do not hold {card}")]
    NotInHand {
        /// The card named.
        card: Card,
    },
    /// Discarding the card just taken from the discard pile (GR-6, option `discard_taken_upcard`).
    #[error(
        "GR-6: a card just taken from the discard pile may not be discarded this turn ({card})"
    )]
    DiscardTakenCard {
        /// The card.
        card: Card,
    },
    /// Drawing from the stock at the wall (GR-10).
    #[error(
        "GR-10: only 2 cards are left in the stock, which is closed; take the upcard to knock or pass"
    )]
    WallStockClosed,
    /// Taking the upcard at the wall without being able to knock with it (GR-10).
    #[error(
        "GR-10: at the wall the upcard may only be taken to knock, and {upcard} does not let you"
    )]
    WallCannotGoOut {
        /// The upcard.
        upcard: Card,
    },
    /// An ordinary discard after taking the upcard at the wall (GR-10).
    #[error("GR-10: the upcard was taken at the wall, so you must knock or go gin")]
    WallMustGoOut,
    /// Melds with cards not in the hand after the discard (GR-7).
    #[error("GR-7: the melds hold {cards}, which you do not hold after discarding {discard}")]
    MeldsNotInHand {
        /// The cards not held.
        cards: CardSet,
        /// The discard.
        discard: Card,
    },
    /// A knock whose deadwood is over the hand's limit (GR-7, GR-14).
    #[error("GR-7: you may knock with at most {limit} deadwood, and these melds leave {deadwood}")]
    DeadwoodTooHigh {
        /// The deadwood of the arrangement given.
        deadwood: u8,
        /// This hand's knock limit.
        limit: u8,
    },
    /// A knock with no deadwood, which is gin (GR-8).
    #[error("GR-8: these melds leave no deadwood, which is gin: play gin instead of knock")]
    KnockIsGin,
    /// Gin with deadwood (GR-8).
    #[error(
        "GR-8: gin needs every card but the discard in melds; after discarding {discard} the deadwood is {deadwood}"
    )]
    NotGin {
        /// The discard.
        discard: Card,
        /// The least deadwood of the ten cards left.
        deadwood: u8,
    },
    /// Big gin when the option is off (GR-8).
    #[error("GR-8: big gin is not played in this match (option big_gin)")]
    BigGinOff,
    /// Big gin with a card outside melds (GR-8).
    #[error("GR-8: big gin needs all eleven cards in melds; the deadwood is {deadwood}")]
    NotBigGin {
        /// The least deadwood of the eleven cards.
        deadwood: u8,
    },
}

impl IllegalAction {
    /// The id of the rule broken, such as `"GR-6"`.
    pub fn rule(&self) -> &'static str {
        match self {
            IllegalAction::MatchOver => "GR-13",
            IllegalAction::NoSuchSeat { .. } => "GR-1",
            IllegalAction::UpcardOnOffer { .. }
            | IllegalAction::NoUpcardOffer
            | IllegalAction::StockOnly => "GR-5",
            IllegalAction::NotYourTurn { .. }
            | IllegalAction::MustDraw
            | IllegalAction::AlreadyDrew
            | IllegalAction::NotInHand { .. }
            | IllegalAction::DiscardTakenCard { .. } => "GR-6",
            IllegalAction::MeldsNotInHand { .. } | IllegalAction::DeadwoodTooHigh { .. } => "GR-7",
            IllegalAction::KnockIsGin
            | IllegalAction::NotGin { .. }
            | IllegalAction::BigGinOff
            | IllegalAction::NotBigGin { .. } => "GR-8",
            IllegalAction::WallStockClosed
            | IllegalAction::WallCannotGoOut { .. }
            | IllegalAction::WallMustGoOut => "GR-10",
        }
    }
}

/// A [`Setup`](super::Setup) that is not a valid start of a hand.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The options.
    #[error(transparent)]
    Options(#[from] OptionsError),
    /// A table of other than two players (GR-1).
    #[error("GR-1: Gin Rummy is played by 2 players, not {0}")]
    Players(u8),
    /// A seat past the two players.
    #[error("GR-1: gin is played by two players, seat 0 and seat 1; there is no {0}")]
    NoSuchSeat(Seat),
    /// A hand of other than ten cards (GR-4).
    #[error("GR-4: each player is dealt 10 cards; {seat} holds {got}")]
    HandSize {
        /// The seat.
        seat: Seat,
        /// Cards in its hand.
        got: usize,
    },
    /// No upcard (GR-4).
    #[error("GR-4: the discard pile must hold the first upcard")]
    NoUpcard,
    /// A stock too small to play (GR-10: the hand is a draw when 2 are left).
    #[error("GR-10: the stock must hold at least 3 cards, not {0}")]
    StockTooSmall(usize),
    /// A card twice (GR-1).
    #[error("GR-1: {0} appears twice; there is one pack")]
    Duplicate(Card),
    /// Not the whole pack (GR-1).
    #[error("GR-1: the hands, discard pile and stock must hold the 52 cards; missing {0}")]
    Missing(CardSet),
    /// A total that already ends the match (GR-13).
    #[error("GR-13: a total of {score} already reaches the target {target}")]
    ScoreAtTarget {
        /// The total.
        score: u32,
        /// The target.
        target: u32,
    },
    /// A hand past the match's last (GR-17).
    #[error("GR-17: hand {hand_number} is past the match's last hand, {max_hands} (max_hands)")]
    PastLastHand {
        /// The setup's hand number.
        hand_number: u32,
        /// The option.
        max_hands: u32,
    },
}
