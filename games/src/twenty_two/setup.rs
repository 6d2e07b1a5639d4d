//! Setup checking: [`Setup`], an explicit position that is not necessarily valid, and
//! [`State::from_setup`], the one checked way it becomes a match (as shakmaty's `setup.rs`
//! keeps its unchecked position apart from move generation).

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::seat::Seat;

use super::cards::Cards;
use super::error::SetupError;
use super::options::{Options, Variant};
use super::record::Start;
use super::state::{Phase, State, cards_of};
use super::view::Event;

/// An explicit position at the start of a deal's exchange, for tests, puzzles, duplicate deals
/// and bug reports. It becomes a [`State`] only through [`State::from_setup`], which checks it.
/// In JSON every field but `dealer` and `hands` may be left out.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Setup {
    /// Who dealt.
    pub dealer: Seat,
    /// One hand per seat (this gives the table size); eliminated seats hold none, every active
    /// seat the same number (TT-11).
    pub hands: Vec<Vec<Card>>,
    /// The stock, top card first. Left out: the rest of the deal's pack (TT-7), shuffled with
    /// `seed`. Given: hands, stock and penalty piles must hold the packs exactly.
    #[serde(default)]
    pub stock: Option<Vec<Card>>,
    /// Scores per seat; empty means all 0.
    #[serde(default)]
    pub scores: Vec<u32>,
    /// Penalty piles per seat, oldest first; empty means none.
    #[serde(default)]
    pub penalty_piles: Vec<Vec<Card>>,
    /// Eliminated seats, one list per deal that eliminated them, earliest first (TT-23 ranks
    /// them in reverse order).
    #[serde(default)]
    pub eliminated: Vec<Vec<Seat>>,
    /// The deal's number, for display; at least one more than the `eliminated` lists. Later
    /// deals count on, up to `u32::MAX`.
    #[serde(default = "first_deal")]
    pub deal: u32,
    /// Seeds the RNG for the stock (when left out), later deals and random ties.
    #[serde(default)]
    pub seed: u64,
}

fn first_deal() -> u32 {
    1
}

impl Setup {
    /// A first deal with these hands: nobody has scored or been eliminated, and the stock is
    /// the rest of the pack, shuffled with seed 0. Change any field afterwards.
    pub fn with_hands(dealer: Seat, hands: Vec<Vec<Card>>) -> Setup {
        Setup {
            dealer,
            hands,
            stock: None,
            scores: Vec::new(),
            penalty_piles: Vec::new(),
            eliminated: Vec::new(),
            deal: 1,
            seed: 0,
        }
    }
}

impl State {
    /// The position `setup` describes, at the start of its deal's exchange, after checking it.
    pub fn from_setup(options: Options, setup: Setup) -> Result<State, SetupError> {
        let players = setup.hands.len();
        let players_u8 = u8::try_from(players).map_err(|_| SetupError::SeatCount {
            field: "hands",
            got: players,
            players: 16,
        })?;
        options.validate(players_u8)?;
        let per_seat = |field: &'static str, got: usize| {
            if got == 0 || got == players {
                Ok(())
            } else {
                Err(SetupError::SeatCount { field, got, players })
            }
        };
        per_seat("scores", setup.scores.len())?;
        per_seat("penalty_piles", setup.penalty_piles.len())?;
        let check_seat = |seat: Seat| {
            if seat.index() < players {
                Ok(())
            } else {
                Err(SetupError::NoSuchSeat { seat, players })
            }
        };
        check_seat(setup.dealer)?;

        let mut state = State::empty(options, players_u8, setup.seed);
        state.start = Some(Start::Setup(setup.clone()));
        state.dealer = setup.dealer;
        // Earlier eliminations get smaller numbers than this deal's (TT-23 orders by them).
        state.deal = setup.deal.max(setup.eliminated.len() as u32 + 1);
        for (i, group) in setup.eliminated.iter().enumerate() {
            for &seat in group {
                check_seat(seat)?;
                if state.seats[seat.index()].eliminated_in.is_some() {
                    return Err(SetupError::Seats(format!("{seat} is eliminated twice")));
                }
                // Earlier groups get earlier (smaller) deal numbers.
                state.seats[seat.index()].eliminated_in = Some(i as u32);
            }
        }
        for (i, seat) in state.seats.iter_mut().enumerate() {
            seat.hand = Cards::new(&setup.hands[i])?;
            seat.score = setup.scores.get(i).copied().unwrap_or(0);
            seat.penalty = setup.penalty_piles.get(i).cloned().unwrap_or_default();
        }
        let active: Vec<Seat> = state.active_seats().collect();
        if active.len() < 2 {
            return Err(SetupError::Seats("at least two seats must be active".into()));
        }
        for (i, seat) in state.seats.iter().enumerate() {
            if !seat.active() && !seat.hand.is_empty() {
                return Err(SetupError::Seats(format!("eliminated seat {i} holds cards")));
            }
            if seat.active() && options.variant == Variant::Standard && seat.score >= options.limit
            {
                return Err(SetupError::Seats(format!(
                    "seat {i} has {} points, at or over the limit {} (TT-19), but is active",
                    seat.score, options.limit
                )));
            }
        }
        let first = active[0];
        let expected = state.seats[first.index()].hand.len();
        for &seat in &active {
            let got = state.seats[seat.index()].hand.len();
            if got != expected || got == 0 {
                return Err(SetupError::UnequalHands { first, expected, seat, got });
            }
        }
        state.hand_size = expected as u8;

        // TT-3, TT-7: count every copy against the packs.
        let mut left = state.pack_counts();
        let mut take = |card: Card| {
            let slot = &mut left[card.index() as usize];
            if *slot == 0 {
                return Err(SetupError::Cards(format!(
                    "{card} appears more often than the {} pack(s) hold",
                    state.packs
                )));
            }
            *slot -= 1;
            Ok(())
        };
        for seat in &state.seats {
            for &card in seat.hand.as_slice().iter().chain(&seat.penalty) {
                take(card)?;
            }
        }
        match &setup.stock {
            Some(stock) => {
                for &card in stock {
                    take(card)?;
                }
                let missing = left.iter().map(|&n| n as usize).sum::<usize>();
                if missing > 0 {
                    return Err(SetupError::Cards(format!(
                        "hands, stock and penalty piles must hold every card of the packs; {missing} are missing"
                    )));
                }
                state.stock = stock.iter().rev().copied().collect();
            }
            None => {
                state.stock = cards_of(&left);
                state.stock.shuffle(&mut state.rng);
            }
        }
        state.opening = vec![Event::DealStarted {
            deal: state.deal,
            dealer: state.dealer,
            hand_size: state.hand_size,
            stock_len: state.stock.len(),
        }];
        state.phase = Phase::Exchange { seat: state.next_active(state.dealer) };
        Ok(state)
    }
}
