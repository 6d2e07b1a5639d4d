//! Setup checking: [`Setup`], the start of a hand that is not necessarily valid, and
//! [`State::from_setup`], the one checked way it becomes a match.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::cardset::CardSet;
use super::error::SetupError;
use super::options::Options;
use super::record::Start;
use super::state::{HAND_SIZE, State, WALL};
use crate::card::Card;
use crate::seat::Seat;

/// The start of a hand, not necessarily valid: public fields, checked once by
/// [`State::from_setup`]. Good for tests, puzzles, duplicate deals and bug reports.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Setup {
    /// Who dealt (GR-4); the other seat decides first on the upcard (GR-5).
    pub dealer: Seat,
    /// Ten cards for each seat.
    pub hands: [Vec<Card>; 2],
    /// The discard pile, bottom first; its last card is the upcard. Usually just the upcard.
    pub discard_pile: Vec<Card>,
    /// The stock, top card first; at least 3 cards.
    pub stock: Vec<Card>,
    /// Totals so far, each below the target.
    #[serde(default)]
    pub scores: [u32; 2],
    /// Hands won so far (for `box_bonus`).
    #[serde(default)]
    pub hands_won: [u32; 2],
    /// This hand's number, from 1 (later hands count on); at most `max_hands` (GR-17).
    #[serde(default = "first_hand")]
    pub hand_number: u32,
    /// Seeds the ChaCha8 shuffles of the later hands.
    #[serde(default)]
    pub seed: u64,
}

fn first_hand() -> u32 {
    1
}

impl State {
    /// A match from an explicit start of a hand, checked (see [`Setup`]). Later hands are
    /// shuffled from `setup.seed`.
    pub fn from_setup(options: Options, setup: Setup) -> Result<State, SetupError> {
        options.validate()?;
        if setup.dealer.0 > 1 {
            return Err(SetupError::NoSuchSeat(setup.dealer));
        }
        let mut seen = CardSet::EMPTY;
        let mut hands = [CardSet::EMPTY; 2];
        for (seat, cards) in setup.hands.iter().enumerate() {
            if cards.len() != HAND_SIZE {
                return Err(SetupError::HandSize { seat: Seat(seat as u8), got: cards.len() });
            }
            for &card in cards {
                hands[seat].insert(card);
            }
        }
        if setup.discard_pile.is_empty() {
            return Err(SetupError::NoUpcard);
        }
        if setup.stock.len() <= WALL {
            return Err(SetupError::StockTooSmall(setup.stock.len()));
        }
        let all = setup.hands[0]
            .iter()
            .chain(&setup.hands[1])
            .chain(&setup.discard_pile)
            .chain(&setup.stock);
        for &card in all {
            if !seen.insert(card) {
                return Err(SetupError::Duplicate(card));
            }
        }
        if seen != CardSet::FULL {
            return Err(SetupError::Missing(CardSet::FULL - seen));
        }
        for score in setup.scores {
            if score >= options.target {
                return Err(SetupError::ScoreAtTarget { score, target: options.target });
            }
        }
        if setup.hand_number > options.max_hands {
            return Err(SetupError::PastLastHand {
                hand_number: setup.hand_number,
                max_hands: options.max_hands,
            });
        }
        let rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let mut state = State::empty(options, Start::Setup(setup.clone()), rng, setup.dealer);
        state.scores = setup.scores;
        state.hands_won = setup.hands_won;
        state.hand_number = setup.hand_number;
        let stock = setup.stock.iter().rev().copied().collect();
        state.begin_hand(hands, &setup.discard_pile, stock, &mut Vec::new());
        Ok(state)
    }
}
