//! What the engine tells: streets, the betting, events, hand results, observations and the
//! public view.

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::eval::HandRank;
use super::options::Options;
use crate::card::Card;
use crate::seat::{Seat, Standing};

/// A betting round, named for the board cards before it (HE-6, HE-7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Street {
    /// Before the flop: the hole cards only.
    Preflop,
    /// After the first three board cards.
    Flop,
    /// After the fourth.
    Turn,
    /// After the fifth.
    River,
}

impl Street {
    /// Board cards showing during this round.
    pub const fn board_cards(self) -> usize {
        match self {
            Street::Preflop => 0,
            Street::Flop => 3,
            Street::Turn => 4,
            Street::River => 5,
        }
    }

    /// The round after this one, `None` after the river.
    pub const fn next(self) -> Option<Street> {
        match self {
            Street::Preflop => Some(Street::Flop),
            Street::Flop => Some(Street::Turn),
            Street::Turn => Some(Street::River),
            Street::River => None,
        }
    }

    /// `preflop`, `flop`, `turn`, `river`.
    pub const fn name(self) -> &'static str {
        match self {
            Street::Preflop => "preflop",
            Street::Flop => "flop",
            Street::Turn => "turn",
            Street::River => "river",
        }
    }
}

/// Where a seat is in the current hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SeatStatus {
    /// Still in the hand, with chips to bet.
    Active,
    /// Still in the hand, every chip put in (HE-8).
    AllIn,
    /// Folded this hand (HE-8).
    Folded,
    /// Out of the match: it had no chips when the hand began (HE-17).
    Out,
}

impl SeatStatus {
    /// Whether the seat may still win chips in this hand.
    pub const fn in_hand(self) -> bool {
        matches!(self, SeatStatus::Active | SeatStatus::AllIn)
    }
}

/// One seat's chips in the current hand. Public (HE-6: only the hole cards are private).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SeatChips {
    /// Chips behind: not yet put in.
    pub stack: u32,
    /// Chips put in on this betting round (HE-8).
    pub bet: u32,
    /// Chips put in this hand: antes, blinds and every round's bets (HE-14).
    pub committed: u32,
    /// In the hand, all in, folded or out.
    pub status: SeatStatus,
    /// The round's bet when the seat last acted on this round, `None` before it acts (posting a
    /// blind is not acting): what decides whether the betting is reopened for it (HE-11).
    pub acted_at: Option<u32>,
}

/// The betting of the hand in play: everything that decides the legal actions (HE-7 to
/// HE-13). Public.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Round {
    /// The betting round.
    pub street: Street,
    /// Every seat's chips, in seat order.
    pub seats: Vec<SeatChips>,
    /// The round's bet: the most any seat has put in on this round.
    pub bet: u32,
    /// The smallest full raise's increment (HE-9): the big blind, or the round's largest full
    /// raise so far.
    pub raise_by: u32,
    /// Bets and raises on this round, the big blind counting as the first before the flop
    /// (HE-10).
    pub raises: u8,
    /// Who is to act, `None` between hands and once the match is over.
    pub to_act: Option<Seat>,
}

/// A forced bet (HE-5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Blind {
    /// Every seat's ante: into the pot, not a bet.
    Ante,
    /// The small blind.
    Small,
    /// The big blind.
    Big,
}

/// One pot's share at the end of a hand (HE-14, HE-15).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Award {
    /// Which pot: 0 the main pot, then the side pots in order.
    pub pot: u8,
    /// The pot's chips.
    pub amount: u32,
    /// Who won it, in order clockwise from the button; several split it (HE-15).
    pub winners: Vec<Seat>,
    /// The chips each winner got: the odd chips went to the first (HE-15).
    pub shares: Vec<u32>,
    /// The winning hand, `None` when the pot was not contested: every other seat folded, or
    /// the winner alone put those chips in (a bet nobody called, HE-14).
    pub hand: Option<HandRank>,
}

/// The result of one hand. Public.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HandResult {
    /// The hand's number, from 1.
    pub hand_number: u32,
    /// Who had the button.
    pub button: Seat,
    /// The board as far as it was dealt.
    pub board: Vec<Card>,
    /// The hole cards shown at the showdown (HE-16), by seat; empty for a seat that did not
    /// show.
    pub shown: Vec<Vec<Card>>,
    /// Where each pot went.
    pub awards: Vec<Award>,
    /// Each seat's chips won (or lost, negative) in the hand.
    pub net: Vec<i64>,
    /// Each seat's chips after the hand.
    pub stacks: Vec<u32>,
    /// When the betting ended before the river with two or more seats in and the table ranks
    /// by [`crate::holdem::Score::AllInAdjusted`]: each seat's equity over the run-outs
    /// (HE-21). Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_in: Option<AllIn>,
}

impl HandResult {
    /// Each seat's luck in this hand (HE-21): its chips won less its equity, zero for every
    /// seat of a hand without [`HandResult::all_in`]. The seats' luck sums to zero.
    pub fn luck(&self) -> Vec<f64> {
        let Some(all_in) = &self.all_in else {
            return vec![0.0; self.net.len()];
        };
        let won = self.won();
        won.iter().zip(all_in.equity()).map(|(&won, equity)| won as f64 - equity).collect()
    }

    /// Each seat's chips won from the pots (its own uncalled bet included).
    pub fn won(&self) -> Vec<u64> {
        let mut won = vec![0u64; self.net.len()];
        for award in &self.awards {
            for (seat, &share) in award.winners.iter().zip(&award.shares) {
                if let Some(w) = won.get_mut(seat.index()) {
                    *w += u64::from(share);
                }
            }
        }
        won
    }
}

/// A hand's equity at its all-in (HE-21): what each seat wins, summed over the board's
/// run-outs from the cards no seat was dealt.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AllIn {
    /// The round the betting ended on: the board had its cards, and the rest were to come.
    pub street: Street,
    /// The run-outs counted: every one with one or two cards to come, a sample with five.
    pub runouts: u32,
    /// Each seat's chips won, summed over those run-outs (the pots split by HE-15 in each).
    pub won: Vec<u64>,
}

impl AllIn {
    /// Each seat's equity: its chips won on average over the run-outs.
    pub fn equity(&self) -> impl Iterator<Item = f64> + '_ {
        let runouts = f64::from(self.runouts.max(1));
        self.won.iter().map(move |&won| won as f64 / runouts)
    }
}

/// When a seat was knocked out (HE-18).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KnockedOut {
    /// The hand it lost its last chip in.
    pub hand_number: u32,
    /// The chips it began that hand with.
    pub stack: u32,
}

/// A finished match (HE-17, HE-18).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Outcome {
    /// Each seat's chips at the end.
    pub stacks: Vec<u32>,
    /// Each seat's chips won or lost over the match.
    pub net: Vec<i64>,
    /// Hands played.
    pub hands_played: u32,
    /// Places, best first: most chips first (HE-18), or most adjusted chips (HE-21).
    pub standings: Vec<Standing>,
    /// With [`crate::holdem::Score::AllInAdjusted`]: each seat's net less its luck in every
    /// all-in (HE-21), to the nearest chip, which the standings rank. Empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adjusted: Vec<i64>,
}

/// Something that happened, as anyone at the table saw it: every action and board card, and
/// the hole cards shown at a showdown (HE-16); no hole card otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A hand began (HE-4, HE-6): the button, and each seat's chips before the forced bets.
    HandStarted {
        /// The hand's number, from 1.
        hand_number: u32,
        /// Who has the button.
        button: Seat,
        /// Each seat's chips (0 for a seat out of the match).
        stacks: Vec<u32>,
    },
    /// A forced bet (HE-5).
    Posted {
        /// Who posted.
        seat: Seat,
        /// Which one.
        blind: Blind,
        /// The chips: less than the option's when the seat is short.
        amount: u32,
        /// Whether it put the seat all in.
        all_in: bool,
    },
    /// A seat acted (HE-8).
    Acted {
        /// Who.
        seat: Seat,
        /// What.
        action: Action,
        /// The chips it put in with this action.
        amount: u32,
        /// Whether it is now all in.
        all_in: bool,
    },
    /// Board cards were turned (HE-6).
    BoardDealt {
        /// The round they open.
        street: Street,
        /// The new cards.
        cards: Vec<Card>,
    },
    /// A seat showed its hole cards at the showdown (HE-16).
    Showed {
        /// Who.
        seat: Seat,
        /// The two hole cards.
        cards: Vec<Card>,
        /// Its best hand with the board (HE-3).
        hand: HandRank,
    },
    /// A pot went to its winners (HE-14, HE-15).
    PotWon {
        /// The pot and who won it.
        award: Award,
    },
    /// A hand ended.
    HandEnded {
        /// The result.
        result: HandResult,
    },
    /// A seat lost its last chip and is out of the match (HE-17).
    KnockedOut {
        /// Who.
        seat: Seat,
    },
    /// The match ended (HE-17).
    MatchOver {
        /// Chips and standings.
        outcome: Outcome,
    },
}

/// What a spectator sees: everything but the hole cards not shown (HE-6, HE-16).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PublicView {
    /// The rule set.
    pub options: Options,
    /// The current hand's number, from 1.
    pub hand_number: u32,
    /// Who has the button.
    pub button: Seat,
    /// The board cards turned so far.
    pub board: Vec<Card>,
    /// The betting, with each seat's chips and who is to act.
    pub betting: Round,
    /// For each seat knocked out of the match, when (HE-18).
    pub knocked_out: Vec<Option<KnockedOut>>,
    /// The last finished hand's result, if a hand has finished. The whole history is in the
    /// events and the record: an observation's size must not grow with the match.
    pub last_hand: Option<HandResult>,
    /// With [`crate::holdem::Score::AllInAdjusted`]: each seat's chips won over the finished
    /// hands less its luck in their all-ins, to the nearest chip (HE-21). Empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adjusted: Vec<i64>,
    /// The outcome, once the match is over.
    pub outcome: Option<Outcome>,
}

impl PublicView {
    /// Every chip put in this hand, in every pot.
    pub fn pot(&self) -> u32 {
        self.betting.seats.iter().map(|seat| seat.committed).sum()
    }
}

/// What one seat sees: the public view, its own hole cards, and its legal actions when it is
/// to act.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Observation {
    /// The seat observing.
    pub seat: Seat,
    /// Its two hole cards; none for a seat out of the match.
    pub hole_cards: Vec<Card>,
    /// Its legal actions, sorted; empty when another seat is to act.
    pub legal_actions: Vec<Action>,
    /// Everything public.
    pub public: PublicView,
}
