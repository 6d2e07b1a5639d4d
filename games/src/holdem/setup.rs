//! Setup checking: [`Setup`], the start of a hand that is not necessarily valid, and
//! [`State::from_setup`], the one checked way it becomes a match; and sampling a full state
//! from one seat's observation.

use rand::seq::SliceRandom;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::error::SetupError;
use super::options::{MAX_STACK, Options};
use super::state::{BOARD_CARDS, HOLE_CARDS, MAX_SEATS, NO_CARD, State};
use super::view::{Observation, SeatStatus};
use crate::card::Card;
use crate::record::Start;
use crate::seat::Seat;

/// The start of a hand, not necessarily valid: public fields, checked once by
/// [`State::from_setup`]. Good for tests, puzzles, duplicate deals, bug reports and the
/// differential test against the ACPC dealer.
///
/// ```
/// use cardroom_games::holdem::{Action, Options, Setup, State};
/// use cardroom_games::{Seat, parse_cards};
/// let setup = Setup {
///     button: Seat(0),
///     stacks: vec![100, 100],
///     hole_cards: vec![parse_cards("AS AD").unwrap(), parse_cards("7C 2H").unwrap()],
///     board: parse_cards("KS 9D 4C 3H 8S").unwrap(),
///     hand_number: 1,
///     seed: 0,
/// };
/// let mut state = State::from_setup(Options::default(), setup).unwrap();
/// // Heads-up the button posts the small blind and acts first (HE-5, HE-7).
/// assert_eq!(state.to_act(), Some(Seat(0)));
/// state.apply(Seat(0), Action::RaiseTo(100)).unwrap();
/// state.apply(Seat(1), Action::Call).unwrap();
/// // Both all in: the board is run out and the aces win everything (HE-13, HE-15).
/// assert_eq!(state.end_reason().unwrap(), "HE-17: seat 0 holds every chip");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Setup {
    /// Who has the button (HE-4): a seat with chips.
    pub button: Seat,
    /// Each seat's chips before the forced bets; 0 for a seat out of the match. Two to ten
    /// seats.
    pub stacks: Vec<u32>,
    /// Each seat's two hole cards; none for a seat without chips.
    pub hole_cards: Vec<Vec<Card>>,
    /// The five board cards to come, flop first.
    pub board: Vec<Card>,
    /// This hand's number, from 1 (later hands count on); at most `hands` (HE-17).
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
        let players = setup.stacks.len();
        if !(2..=usize::from(MAX_SEATS)).contains(&players) {
            return Err(SetupError::Players(players));
        }
        if setup.hole_cards.len() != players {
            return Err(SetupError::Lengths {
                stacks: players,
                hole_cards: setup.hole_cards.len(),
            });
        }
        // Ten stacks of this many chips still add up inside a u32 with room to spare.
        let max = MAX_STACK * u32::from(MAX_SEATS);
        let mut holes = Vec::with_capacity(players);
        let mut seen = Vec::with_capacity(2 * players + BOARD_CARDS);
        for (index, (&stack, cards)) in setup.stacks.iter().zip(&setup.hole_cards).enumerate() {
            let seat = Seat(index as u8);
            if stack > max {
                return Err(SetupError::Stack { seat, stack, max });
            }
            let want = if stack > 0 { HOLE_CARDS } else { 0 };
            if cards.len() != want {
                return Err(SetupError::HoleCards { seat, want, got: cards.len() });
            }
            holes.push([
                cards.first().copied().unwrap_or(NO_CARD),
                cards.get(1).copied().unwrap_or(NO_CARD),
            ]);
            seen.extend(cards);
        }
        if setup.stacks.iter().filter(|&&stack| stack > 0).count() < 2 {
            return Err(SetupError::TooFewWithChips);
        }
        if setup.stacks.get(setup.button.index()).is_none_or(|&stack| stack == 0) {
            return Err(SetupError::Button(setup.button));
        }
        let board: [Card; BOARD_CARDS] =
            setup.board.as_slice().try_into().map_err(|_| SetupError::Board(setup.board.len()))?;
        seen.extend(board);
        seen.sort_unstable();
        if let Some(pair) = seen.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(SetupError::Duplicate(pair[0]));
        }
        if setup.hand_number == 0 || setup.hand_number > options.hands {
            return Err(SetupError::HandNumber { given: setup.hand_number, hands: options.hands });
        }
        let rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let mut state = State::empty(
            options,
            Start::Setup(setup.clone()),
            rng,
            setup.button,
            setup.stacks.clone(),
        );
        state.hand_number = setup.hand_number;
        for (index, &stack) in setup.stacks.iter().enumerate() {
            if stack == 0 {
                // Knocked out before the setup's hand: placed by the hand before it.
                state.knocked_out[index] =
                    Some(super::view::KnockedOut { hand_number: setup.hand_number - 1, stack: 0 });
            }
        }
        let mut opening = Vec::new();
        state.begin_hand(holes, board, &mut opening);
        state.opening = opening;
        Ok(state)
    }

    /// A full state that `observation`'s seat cannot tell from the one it observed: the
    /// public view and its own hole cards copied, every other seat dealt in this hand (folded
    /// or not) two cards and the board's unturned cards dealt uniformly at random from the
    /// cards it cannot see; later hands shuffle with a fresh RNG drawn from `rng`. Nothing is
    /// inferred from the other seats' play. Its record is not a match's
    /// ([`State::is_sampled`]).
    pub fn sample_from_observation<R: Rng + ?Sized>(
        observation: &Observation,
        rng: &mut R,
    ) -> Result<State, SetupError> {
        let public = &observation.public;
        let seats = &public.betting.seats;
        let players = seats.len();
        if !(2..=usize::from(MAX_SEATS)).contains(&players) {
            return Err(SetupError::Players(players));
        }
        let Some(&me) = seats.get(observation.seat.index()) else {
            return Err(SetupError::Observation("its seat is not at the table"));
        };
        let mine = &observation.hole_cards;
        let expected = if me.status == SeatStatus::Out { 0 } else { HOLE_CARDS };
        if mine.len() != expected || public.board.len() > BOARD_CARDS {
            return Err(SetupError::Observation("the seat's cards or the board are miscounted"));
        }
        let mut unseen: Vec<Card> = Card::pack()
            .filter(|card| !mine.contains(card) && !public.board.contains(card))
            .collect();
        unseen.shuffle(rng);
        let mut deck = unseen.into_iter();
        let mut draw = || deck.next().ok_or(SetupError::Observation("too few cards left"));
        let mut holes = Vec::with_capacity(players);
        for (index, chips) in seats.iter().enumerate() {
            let hole = if index == observation.seat.index() && mine.len() == HOLE_CARDS {
                [mine[0], mine[1]]
            } else if chips.status == SeatStatus::Out {
                [NO_CARD; HOLE_CARDS]
            } else {
                [draw()?, draw()?]
            };
            holes.push(hole);
        }
        let mut board = [NO_CARD; BOARD_CARDS];
        for (slot, card) in board.iter_mut().zip(&public.board) {
            *slot = *card;
        }
        for slot in board.iter_mut().skip(public.board.len()) {
            *slot = draw()?;
        }
        let fresh = ChaCha8Rng::seed_from_u64(rng.random());
        let stacks = seats.iter().map(|chips| chips.stack).collect();
        let mut state = State::empty(public.options, Start::Seed(0), fresh, public.button, stacks);
        state.sampled = true;
        state.hand_number = public.hand_number;
        state.holes = holes;
        state.board = board;
        state.board_len = public.board.len();
        state.betting = public.betting.clone();
        state.knocked_out = public.knocked_out.clone();
        state.hand_stacks = seats.iter().map(|chips| chips.stack + chips.committed).collect();
        state.last_hand = public.last_hand.clone();
        state.outcome = public.outcome.clone();
        // The luck so far, as far as the rounded adjusted chips tell it (HE-21).
        if public.adjusted.len() == players {
            let net = state.net_before_hand();
            state.luck = net.iter().zip(&public.adjusted).map(|(&n, &a)| (n - a) as f64).collect();
        }
        Ok(state)
    }
}
