//! [`State::sample_from_observation`]: a full position built from one seat's observation, for
//! search bots (determinization).

use rand::Rng;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::card::Card;
use crate::seat::Seat;

use super::cards::Cards;
use super::error::SetupError;
use super::state::{Phase, SeatState, State, cards_of};
use super::view::{Observation, PhaseView};

impl State {
    /// A full, valid position that the observing seat cannot tell from the one it observed:
    /// `sample.observation(seat) == *observation` (with `seat = observation.seat`).
    ///
    /// Everything public is copied from the observation (TT-24): options, packs, scores,
    /// penalty piles, eliminations, dealer, deal number, hand size, hand and stock sizes,
    /// exchange counts, the tricks of this deal, whose turn it is, the last deal's result, the
    /// dealer draw and the standings; so are the seat's own hand and exchange discards (TT-25).
    /// The cards the seat cannot see — every card of the packs that is not in a penalty pile,
    /// in a trick of this deal, in its hand or in its discards — are shuffled with `rng` and
    /// dealt, in the numbers the observation shows, into the other active hands, the other
    /// seats' exchange discards and the stock. The sample gets a fresh ChaCha8 RNG, drawn from
    /// `rng`, for later deals and random ties.
    ///
    /// The sample is **uniform** over the unseen cards: it infers nothing from the other seats'
    /// plays (a seat that ducked may well be dealt high cards). It has no record
    /// ([`State::record`] is `None`) and no opening events.
    ///
    /// Two things the observation does not show are filled in by convention; neither changes
    /// any seat's observation or legal actions:
    /// - the deal that eliminated each eliminated seat is the last deal's number for the seats
    ///   it eliminated and 0 for earlier ones, so the final standings may order seats that
    ///   were eliminated before the current deal differently (TT-23) — never relative to the
    ///   observing seat when it is still active;
    /// - once the match is over, cards that left play uncounted (the last cards revealed)
    ///   cannot be told from the stock, so the stock and the other seats' discards are drawn
    ///   from a slightly larger pool.
    ///
    /// Errors when the observation is not one the engine could produce: options invalid for
    /// the table, a seat out of range, more copies of a card than the packs hold, or counts that
    /// do not add up to the packs.
    pub fn sample_from_observation<R: Rng + ?Sized>(
        observation: &Observation,
        rng: &mut R,
    ) -> Result<State, SetupError> {
        let public = &observation.public;
        let players = public.seats.len();
        let players_u8 = u8::try_from(players).map_err(|_| SetupError::SeatCount {
            field: "seats",
            got: players,
            players: usize::from(u8::MAX),
        })?;
        public.options.validate(players_u8)?;
        let check_seat = |seat: Seat| {
            if seat.index() < players {
                Ok(())
            } else {
                Err(SetupError::NoSuchSeat { seat, players })
            }
        };
        let me = observation.seat;
        check_seat(me)?;
        check_seat(public.dealer)?;
        let phase = match public.phase {
            PhaseView::Exchange { to_act } => {
                check_seat(to_act)?;
                Phase::Exchange { seat: to_act }
            }
            PhaseView::Play { leader, to_act } => {
                check_seat(leader)?;
                check_seat(to_act)?;
                Phase::Play { leader, seat: to_act }
            }
            PhaseView::Over => Phase::Over,
        };
        let packs = public.options.pack_count(players_u8);
        if packs != public.packs {
            return Err(SetupError::Cards(format!(
                "the observation says {} pack(s), the options {packs}",
                public.packs
            )));
        }

        // The unseen cards: the packs less everything the seat sees (TT-7, TT-24, TT-25).
        let mut left = [packs; 52];
        let mut take = |card: Card| {
            let slot = &mut left[card.index() as usize];
            if *slot == 0 {
                return Err(SetupError::Cards(format!(
                    "{card} is seen more often than the {packs} pack(s) hold"
                )));
            }
            *slot -= 1;
            Ok(())
        };
        let seen = public
            .seats
            .iter()
            .flat_map(|seat| seat.penalty_pile.iter())
            .chain(
                public
                    .tricks
                    .iter()
                    .flat_map(|trick| trick.plays.iter())
                    .flat_map(|play| play.cards.as_slice().iter()),
            )
            .chain(observation.hand.as_slice())
            .chain(&observation.discards);
        for &card in seen {
            take(card)?;
        }
        let mut pool = cards_of(&left);

        let hidden_discards = |i: usize| usize::from(public.seats[i].exchanged.unwrap_or(0));
        let needed = (0..players)
            .filter(|&i| i != me.index())
            .map(|i| public.seats[i].hand_len.saturating_add(hidden_discards(i)))
            .fold(public.stock_len, usize::saturating_add);
        if pool.len() < needed || (pool.len() > needed && phase != Phase::Over) {
            return Err(SetupError::Cards(format!(
                "{} cards are unseen, but the other hands, discards and the stock hold {needed}",
                pool.len()
            )));
        }
        pool.shuffle(rng);

        let mut seats = Vec::with_capacity(players);
        let last_deal = public.last_deal.as_ref();
        for (i, seen) in public.seats.iter().enumerate() {
            let mut seat = SeatState::new();
            seat.score = seen.score;
            seat.penalty = seen.penalty_pile.clone();
            seat.eliminated_in = seen.eliminated.then(|| match last_deal {
                Some(deal) if deal.eliminated.contains(&Seat(i as u8)) => deal.deal,
                _ => 0,
            });
            seat.exchanged = seen.exchanged;
            seat.won = seen.won.clone();
            if i == me.index() {
                seat.hand = observation.hand;
                seat.discards = observation.discards.clone();
            } else {
                // `needed` counted these cards, so the pool holds them.
                seat.hand = Cards::new(&pool[pool.len() - seen.hand_len..])?;
                pool.truncate(pool.len() - seen.hand_len);
                seat.discards = pool.split_off(pool.len() - hidden_discards(i));
            }
            seats.push(seat);
        }
        pool.truncate(public.stock_len);

        Ok(State {
            options: public.options,
            packs,
            seats,
            dealer: public.dealer,
            deal: public.deal,
            hand_size: public.hand_size,
            stock: pool,
            phase,
            tricks: public.tricks.clone(),
            last_deal: public.last_deal.clone(),
            dealer_draw: public.dealer_draw.clone(),
            standings: public.standings.clone(),
            rng: ChaCha8Rng::from_rng(rng),
            start: None,
            actions: Vec::new(),
            opening: Vec::new(),
        })
    }
}
