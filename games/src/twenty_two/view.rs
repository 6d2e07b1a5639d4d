//! What a seat or a spectator sees (TT-24, TT-25), and the public events of a match.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank, display_cards};
use crate::seat::{Seat, Standing};

use super::Action;
use super::cards::Cards;
use super::options::Options;

/// One seat's card, face up: a dealer draw (TT-5) or a revealed last card (TT-17).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SeatCard {
    /// The seat.
    pub seat: Seat,
    /// Its card.
    pub card: Card,
}

/// Cards one seat put on a trick.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Play {
    /// Who played.
    pub seat: Seat,
    /// What they played.
    pub cards: Cards,
}

/// One trick of the current deal, finished or under way.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Trick {
    /// The plays in order; the first is the lead.
    pub plays: Vec<Play>,
    /// The strongest combination so far (TT-13), as an index into `plays`.
    pub strongest: usize,
    /// Who won it, once every active seat has played.
    pub winner: Option<Seat>,
}

/// How one deal ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DealResult {
    /// The deal's number, from 1.
    pub deal: u32,
    /// Standard variant: every active seat's last card, revealed at once (TT-17). Empty in the
    /// elimination variant, where every card was played face up.
    pub revealed: Vec<SeatCard>,
    /// The rank that lost: the highest last card (TT-17), or the highest won card (TT-27).
    pub rank: Rank,
    /// Who lost the deal.
    pub losers: Vec<Seat>,
    /// How the elimination variant chose among several holders of `rank` (TT-27).
    pub tie_break: TieBreak,
    /// Who was eliminated by this deal.
    pub eliminated: Vec<Seat>,
}

/// How the elimination variant settles a tie for the highest won card (TT-27).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// No tie to settle.
    None,
    /// The holder of more points lost.
    Points,
    /// Equal points: drawn at random.
    Random,
}

/// Where the match stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "phase")]
pub enum PhaseView {
    /// TT-9: `to_act` may exchange.
    Exchange {
        /// Who exchanges now.
        to_act: Seat,
    },
    /// TT-11, TT-12: `to_act` leads (when it is `leader`) or follows.
    Play {
        /// Who led this trick.
        leader: Seat,
        /// Who plays now.
        to_act: Seat,
    },
    /// TT-21: the match is over.
    Over,
}

/// One seat as everybody sees it (TT-24).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PublicSeat {
    /// The seat.
    pub seat: Seat,
    /// Its score: the penalty points taken (TT-18).
    pub score: u32,
    /// Its penalty cards, face up, oldest first (TT-18).
    pub penalty_pile: Vec<Card>,
    /// True once eliminated (TT-19, TT-28).
    pub eliminated: bool,
    /// Cards in hand.
    pub hand_len: usize,
    /// How many cards it exchanged this deal, once it has (TT-9).
    pub exchanged: Option<u8>,
    /// Elimination variant: the cards of the tricks it won this deal (TT-27).
    pub won: Vec<Card>,
}

/// Everything public about a match (TT-24): what spectators see, and part of every seat's
/// observation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PublicView {
    /// The rule set.
    pub options: Options,
    /// Packs in play (TT-3).
    pub packs: u8,
    /// The current deal's number, from 1.
    pub deal: u32,
    /// The current dealer.
    pub dealer: Seat,
    /// Cards dealt to each active seat this deal (TT-6, TT-8).
    pub hand_size: u8,
    /// Cards left in the stock.
    pub stock_len: usize,
    /// Every seat.
    pub seats: Vec<PublicSeat>,
    /// Who acts.
    pub phase: PhaseView,
    /// This deal's tricks, the current one last.
    pub tricks: Vec<Trick>,
    /// How the previous deal ended.
    pub last_deal: Option<DealResult>,
    /// The draw that chose the current dealer, round by round (TT-5), when one was made.
    pub dealer_draw: Vec<Vec<SeatCard>>,
    /// The final standings, once the match is over (TT-23).
    pub standings: Option<Vec<Standing>>,
}

/// What one seat may see (TT-24, TT-25): the public view, its own hand and exchange discards,
/// and its legal actions when it is to act.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Observation {
    /// Whose observation this is.
    pub seat: Seat,
    /// Its hand, low to high.
    pub hand: Cards,
    /// The cards it discarded in this deal's exchange.
    pub discards: Vec<Card>,
    /// Its legal actions, sorted; empty unless it is to act.
    pub legal_actions: Vec<Action>,
    /// Everything public.
    pub public: PublicView,
}

/// A public event: what everybody learns when an action is applied.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// A dealer was chosen by drawing cards (TT-5; before every deal in the elimination
    /// variant).
    DealerDrawn {
        /// The draws, round by round; later rounds are the ties drawing again.
        rounds: Vec<Vec<SeatCard>>,
        /// Who deals.
        dealer: Seat,
    },
    /// A deal began (TT-6 to TT-8).
    DealStarted {
        /// Its number, from 1.
        deal: u32,
        /// The dealer.
        dealer: Seat,
        /// Cards each active seat holds.
        hand_size: u8,
        /// Cards in the stock.
        stock_len: usize,
    },
    /// A seat exchanged this many cards (TT-9).
    Exchanged {
        /// Who.
        seat: Seat,
        /// How many.
        count: u8,
    },
    /// A seat led or followed.
    Played {
        /// Who.
        seat: Seat,
        /// What.
        cards: Cards,
        /// True when the play became the strongest combination (a lead always does, TT-13).
        strongest: bool,
    },
    /// A trick was won (TT-14).
    TrickWon {
        /// Who won it, and leads next.
        seat: Seat,
    },
    /// A deal was lost (TT-17, TT-27).
    DealLost(DealResult),
    /// A penalty card went to a seat's pile (TT-18).
    Penalty {
        /// Who.
        seat: Seat,
        /// The card.
        card: Card,
        /// The seat's score now.
        score: u32,
    },
    /// The match is over (TT-21 to TT-23, TT-28).
    MatchOver {
        /// Final standings, first place first.
        standings: Vec<Standing>,
    },
}

/// The event's line on the table (`table.rs`), in words: for transcripts and the wire's
/// `Event.text`.
impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::table::event_line(self).fmt(f)
    }
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} holds {}", self.seat, display_cards(self.hand.as_slice()))
    }
}
