//! What the engine tells: phases, events, hand results, observations and the public view.

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::cardset::CardSet;
use super::options::Options;
use super::solver::{Arrangement, Layout};
use crate::card::Card;
use crate::seat::{Seat, Standing};

/// Where a hand stands, and who is to act. Public (GR-15).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// `seat` may take the first upcard or pass (GR-5).
    FirstUpcard {
        /// Who decides.
        seat: Seat,
    },
    /// `seat` draws from the stock or the discard pile (GR-6); only from the stock after both
    /// players passed the first upcard (GR-5).
    Draw {
        /// Who draws.
        seat: Seat,
        /// Whether only the stock may be drawn from.
        stock_only: bool,
    },
    /// `seat` holds 11 cards and discards, knocks or goes gin (GR-6 to GR-8).
    Discard {
        /// Who discards.
        seat: Seat,
        /// The card just taken from the discard pile, if any.
        taken: Option<Card>,
        /// After taking the upcard at the wall: knock or gin, no ordinary discard (GR-10).
        must_go_out: bool,
    },
    /// The wall with `wall_knock` (GR-10): `seat` may take the upcard to knock, or pass and let
    /// the hand be a draw.
    Wall {
        /// Who decides.
        seat: Seat,
    },
    /// A total reached the target (GR-13), or the last hand was played (GR-17).
    MatchOver,
}

impl Phase {
    /// Who is to act, if anyone.
    pub fn to_act(self) -> Option<Seat> {
        match self {
            Phase::FirstUpcard { seat }
            | Phase::Draw { seat, .. }
            | Phase::Discard { seat, .. }
            | Phase::Wall { seat } => Some(seat),
            Phase::MatchOver => None,
        }
    }
}

/// How a player went out (GR-7, GR-8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum GoOut {
    /// A knock with some deadwood (GR-7).
    Knock,
    /// A knock with no deadwood (GR-8).
    Gin,
    /// Eleven cards in melds, no discard (GR-8).
    BigGin,
}

/// A knock or gin laid open at the end of a hand (GR-9, GR-12). Public once the hand is over.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Showdown {
    /// Who went out.
    pub knocker: Seat,
    /// How.
    pub kind: GoOut,
    /// The card discarded face down (none for big gin), shown now the hand is over (GR-16).
    pub discard: Option<Card>,
    /// The knocker's melds.
    pub melds: Arrangement,
    /// The knocker's deadwood cards.
    pub deadwood_cards: CardSet,
    /// Their value, `K` (GR-12).
    pub deadwood: u8,
    /// The other player.
    pub defender: Seat,
    /// The defender's layout, computed by the engine (GR-9): after gin, own melds only.
    pub layout: Layout,
}

/// How a hand ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "end", rename_all = "snake_case")]
pub enum HandEnd {
    /// Someone knocked or went gin.
    Showdown(Showdown),
    /// Two cards left in the stock and nobody knocked (GR-10): a draw.
    Wall,
    /// The upcard was taken `max_upcard_draws` times (GR-11): a draw.
    UpcardLimit,
}

/// The result of one hand. Public (GR-15).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HandResult {
    /// The hand's number, from 1.
    pub hand_number: u32,
    /// Who dealt it.
    pub dealer: Seat,
    /// How it ended.
    pub end: HandEnd,
    /// Who won the hand: the scorer (GR-12); none for a draw or a tie that is not an undercut.
    pub winner: Option<Seat>,
    /// Whether the defender undercut the knocker (GR-12).
    pub undercut: bool,
    /// The points the winner scored, after any Oklahoma doubling (GR-12, GR-14).
    pub points: u32,
    /// The totals after the hand.
    pub scores: [u32; 2],
}

/// A finished match: a total reached the target (GR-13), or the last hand was played and the
/// match is drawn (GR-17: no winner, both seats first, the totals the hand points).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Outcome {
    /// Final totals: hand points plus any game bonus, box bonuses and shutout doubling.
    pub totals: [u32; 2],
    /// Points scored in hands alone.
    pub points: [u32; 2],
    /// Hands won by each seat.
    pub hands_won: [u32; 2],
    /// The higher total; none if the totals are equal (possible only with box bonuses), or if
    /// the match was drawn at the hand limit (GR-17).
    pub winner: Option<Seat>,
    /// Places: the winner first, or both first without a winner.
    pub standings: Vec<Standing>,
}

/// One card of the discard pile and who discarded it (none for the first upcard). Public
/// (GR-15).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PileCard {
    /// The card.
    pub card: Card,
    /// Who discarded it.
    pub by: Option<Seat>,
}

/// Something that happened, as anyone at the table saw it (GR-15): cards drawn from the stock
/// and the knock discard are not shown until the hand is over.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A hand was dealt; the upcard is the top of the discard pile.
    HandDealt {
        /// The hand's number, from 1.
        hand_number: u32,
        /// Who dealt.
        dealer: Seat,
        /// The first upcard.
        upcard: Card,
        /// This hand's knock limit (GR-7, GR-14).
        knock_limit: u8,
        /// This hand's score multiplier: 2 for an Oklahoma spade, else 1 (GR-14).
        multiplier: u32,
    },
    /// The first upcard was taken (GR-5).
    UpcardTaken {
        /// Who took it.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The first upcard was passed (GR-5), or the upcard declined at the wall (GR-10).
    UpcardPassed {
        /// Who passed.
        seat: Seat,
    },
    /// A card was drawn from the stock; which one is private (GR-16).
    DrewStock {
        /// Who drew.
        seat: Seat,
    },
    /// The top of the discard pile was taken (GR-6).
    DrewDiscard {
        /// Who took it.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A card was discarded face up (GR-6).
    Discarded {
        /// Who discarded.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A player knocked or went gin and laid out (GR-7, GR-8); the discard is face down.
    WentOut {
        /// Who.
        seat: Seat,
        /// How.
        kind: GoOut,
        /// The melds laid.
        melds: Arrangement,
        /// The deadwood cards.
        deadwood_cards: CardSet,
        /// Their value.
        deadwood: u8,
    },
    /// The defender laid out (GR-9).
    LaidOut {
        /// The defender.
        seat: Seat,
        /// Melds, layoffs, deadwood.
        layout: Layout,
    },
    /// A hand ended, with its score (GR-12) or as a draw (GR-10, GR-11).
    HandEnded {
        /// The result.
        result: HandResult,
    },
    /// The match ended (GR-13, GR-17).
    MatchOver {
        /// Totals and winner.
        outcome: Outcome,
    },
}

/// What a spectator sees: everything public (GR-15), nothing private (GR-16).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PublicView {
    /// The rule set.
    pub options: Options,
    /// The current hand's number, from 1.
    pub hand_number: u32,
    /// Who dealt this hand.
    pub dealer: Seat,
    /// The phase.
    pub phase: Phase,
    /// Who is to act.
    pub to_act: Option<Seat>,
    /// Totals so far (points scored in hands).
    pub scores: [u32; 2],
    /// Hands won so far.
    pub hands_won: [u32; 2],
    /// This hand's knock limit (GR-7, GR-14).
    pub knock_limit: u8,
    /// This hand's score multiplier (GR-14).
    pub multiplier: u32,
    /// Cards in the stock.
    pub stock_size: usize,
    /// The discard pile, bottom first: the last card is the upcard.
    pub discard_pile: Vec<PileCard>,
    /// Cards in each hand.
    pub hand_sizes: [usize; 2],
    /// For each seat, the cards it took from the discard pile and still holds (GR-15).
    pub known_cards: [CardSet; 2],
    /// Times the upcard was taken this hand (GR-11).
    pub upcard_draws: u32,
    /// The last finished hand's result, if a hand has finished. The whole history is in the
    /// `HandEnd` events and the record, not here: an observation's size must not grow with the
    /// length of the match (it is sent with every turn).
    pub last_result: Option<HandResult>,
    /// The outcome, once the match is over.
    pub outcome: Option<Outcome>,
}

/// What one seat sees (GR-15, GR-16): the public view, its own hand, and its legal actions
/// when it is to act.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Observation {
    /// The seat observing.
    pub seat: Seat,
    /// Its hand.
    pub hand: CardSet,
    /// The card it just drew from the stock, while it holds 11 cards.
    pub drawn: Option<Card>,
    /// Its legal actions, sorted; empty when another seat is to act.
    pub legal_actions: Vec<Action>,
    /// Everything public.
    pub public: PublicView,
}
