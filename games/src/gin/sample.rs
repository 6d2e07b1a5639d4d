//! [`State::sample_from_observation`]: a full position built from one seat's observation, for
//! search bots (determinization).

use rand::Rng;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::seat::Seat;

use super::cardset::CardSet;
use super::error::SetupError;
use super::record::Start;
use super::state::State;
use super::view::{Observation, Phase};

impl State {
    /// A full, valid position that the observing seat cannot tell from the one it observed:
    /// `sample.observation(seat) == *observation` (with `seat = observation.seat`).
    ///
    /// Everything public is copied from the observation (GR-15): options, scores, hands won,
    /// hand number, dealer, phase (with the card just taken from the pile), knock limit,
    /// multiplier, stock size, the discard pile and who discarded each card, the cards each
    /// seat took from the pile and still holds, hand sizes, upcard draws, every hand's result
    /// and the outcome; so are the seat's own hand and the card it just drew (GR-16). The cards
    /// the seat cannot see — the 52 less its hand, the discard pile and the opponent's known
    /// cards — are shuffled with `rng` and dealt, in the numbers the observation shows, into
    /// the rest of the opponent's hand and the stock. The sample gets a fresh ChaCha8 RNG,
    /// drawn from `rng`, for the later hands' shuffles.
    ///
    /// The sample is **uniform** over the unseen cards: it infers nothing from the opponent's
    /// play (a card it passed or discarded next to is as likely in its hand as any other).
    ///
    /// What the observation cannot give is filled in by convention:
    /// - the match's record: a sampled state starts its own action list and its record's start
    ///   is a placeholder (`seed 0`), so [`State::record`] of a sample does not replay to it;
    ///   it is for search, not for storing, and [`State::is_sampled`] says so (the `Game`
    ///   trait's `record` gives none);
    /// - when the opponent has just drawn from the stock, its drawn card (seen only in its own
    ///   observation) is one of its unseen cards at random;
    /// - once the match is over, the knocker's face-down discard cannot be told from the stock,
    ///   so the stock is drawn from a pool one card larger.
    ///
    /// Errors when the observation is not one the engine could produce: invalid options, a seat
    /// past 1, a card seen twice, or counts that do not add up to the pack.
    pub fn sample_from_observation<R: Rng + ?Sized>(
        observation: &Observation,
        rng: &mut R,
    ) -> Result<State, SetupError> {
        let public = &observation.public;
        public.options.validate()?;
        let me = observation.seat;
        if me.0 > 1 {
            return Err(SetupError::NoSuchSeat(me));
        }
        if public.dealer.0 > 1 {
            return Err(SetupError::NoSuchSeat(public.dealer));
        }
        let opponent = Seat(1 - me.0);
        if let Some(seat) = public.phase.to_act()
            && seat.0 > 1
        {
            return Err(SetupError::NoSuchSeat(seat));
        }

        // The unseen cards (GR-15, GR-16).
        let mut seen = observation.hand;
        let known = public.known_cards[opponent.index()];
        let shown = public.discard_pile.iter().map(|pile| pile.card).chain(known.iter());
        for card in shown {
            if !seen.insert(card) {
                return Err(SetupError::Duplicate(card));
            }
        }
        let mut pool = (CardSet::FULL - seen).to_vec();
        let hand_len = public.hand_sizes[opponent.index()];
        let hidden = hand_len
            .checked_sub(known.len())
            .ok_or(SetupError::HandSize { seat: opponent, got: hand_len })?;
        let needed = hidden.saturating_add(public.stock_size);
        if pool.len() < needed {
            return Err(SetupError::HandSize { seat: opponent, got: hand_len });
        }
        if pool.len() > needed && public.phase != Phase::MatchOver {
            return Err(SetupError::Missing(CardSet::FULL - seen));
        }
        pool.shuffle(rng);

        let mut hands = [CardSet::EMPTY; 2];
        hands[me.index()] = observation.hand;
        let unseen_in_hand = pool.split_off(pool.len() - hidden);
        hands[opponent.index()] = known;
        for &card in &unseen_in_hand {
            hands[opponent.index()].insert(card);
        }
        pool.truncate(public.stock_size);
        let drawn = match public.phase {
            Phase::Discard { seat, .. } if seat == me => observation.drawn,
            Phase::Discard { taken: None, .. } => unseen_in_hand.first().copied(),
            _ => None,
        };

        Ok(State {
            options: public.options,
            start: Start::Seed(0),
            sampled: true,
            actions: Vec::new(),
            rng: ChaCha8Rng::from_rng(rng),
            scores: public.scores,
            hands_won: public.hands_won,
            hand_number: public.hand_number,
            dealer: public.dealer,
            hands,
            stock: pool,
            pile: public.discard_pile.clone(),
            known: public.known_cards,
            drawn,
            upcard_draws: public.upcard_draws,
            knock_limit: public.knock_limit,
            multiplier: public.multiplier,
            phase: public.phase,
            // A sample knows the last hand's result only: its `results()` is no history.
            results: public.last_result.into_iter().collect(),
            outcome: public.outcome.clone(),
        })
    }
}
