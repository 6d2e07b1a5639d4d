//! [`TtHeuristic`]: a rule-based Twenty-Two player.
//!
//! Only the last card counts (TT-17): whoever holds the highest last card loses the deal. So the
//! bot plans to end the deal on its lowest card (the *keeper*) and spends every trick getting
//! rid of high cards while it still can:
//!
//! - **Exchange** (TT-9): discard the middle cards (5 to J by default) and keep both ends: the
//!   low cards are keepers, and the high ones (Q, K, A) are *beaters*, the cards that win the
//!   right to lead and spare the low cards from being ducked (TT-12); the middle cards do
//!   neither. (Measured: this beats exchanging every card above a threshold, and exchanging
//!   nothing, by a wide margin; see the README.) The keeper itself is never exchanged.
//! - **Lead** (TT-11): lead the highest rank held, with every copy of it (a high pair or set
//!   makes the others either beat with as many high cards or duck their own low cards, TT-12),
//!   keeping the keeper back; with two cards left, lead the higher and keep the lower.
//! - **Follow** (TT-12): beat whenever it can, with the highest cards that beat, so that the
//!   high cards leave the hand while they can still win something and the low cards stay; duck
//!   only when no beat keeps a lower card than the duck would. Winning a trick is never bad:
//!   the winner leads, and leading is how high cards are shed safely.
//! - **Last trick**: with two cards the choice is forced by the rules above: play the high one
//!   (lead or beat) and keep the low one, or duck the low one when nothing beats.
//!
//! In the `elimination` variant (TT-26 to TT-28) the cards one wins are what counts, so the bot
//! turns around: it ducks whenever it may and leads its lowest card.

use cardroom_games::Rank;
use cardroom_games::twenty_two::{Action, Cards, Observation, PhaseView, State, Variant};
use cardroom_sdk::Bot;

/// The Twenty-Two heuristic described in the [module documentation](self).
#[derive(Clone, Debug)]
pub struct TtHeuristic {
    /// Cards ranked above this are exchanged (TT-9), up to `exchange_up_to`.
    pub exchange_above: Rank,
    /// The highest rank exchanged: higher cards are kept to beat with.
    pub exchange_up_to: Rank,
}

impl Default for TtHeuristic {
    fn default() -> TtHeuristic {
        TtHeuristic { exchange_above: Rank::Four, exchange_up_to: Rank::Jack }
    }
}

impl TtHeuristic {
    /// The heuristic with its default exchange band (5 to J).
    pub fn new() -> TtHeuristic {
        TtHeuristic::default()
    }

    /// The exchange that sheds the most of the band's rank, keeping the lowest card.
    fn exchange(&self, observation: &Observation) -> Option<Action> {
        let keeper = observation.hand.as_slice().first().copied();
        let threshold = i32::from(self.exchange_above.index());
        let top = self.exchange_up_to;
        observation
            .legal_actions
            .iter()
            .filter(|action| match action {
                // Never exchange the keeper: some card of its rank must stay.
                Action::Exchange(cards) => keeper.is_none_or(|keeper| {
                    count_rank(&observation.hand, keeper.rank()) > count_rank(cards, keeper.rank())
                }),
                Action::Play(_) => false,
            })
            .max_by_key(|action| {
                let gain: i32 = action
                    .cards()
                    .as_slice()
                    .iter()
                    .map(|card| {
                        if card.rank() > top {
                            -100
                        } else {
                            i32::from(card.rank().index()) - threshold
                        }
                    })
                    .sum();
                // More gain first; among equals, fewer cards.
                (gain, std::cmp::Reverse(action.cards().len()))
            })
            .copied()
    }

    /// The lead: the highest rank with all its copies, never emptying the hand of its keeper.
    fn lead(observation: &Observation) -> Option<Action> {
        observation.legal_actions.iter().max_by_key(|action| lead_key(action.cards())).copied()
    }

    /// The follow that keeps the lowest cards: the beat with the highest cards, or the duck.
    fn follow(observation: &Observation) -> Option<Action> {
        observation.legal_actions.iter().max_by_key(|action| played_weight(action.cards())).copied()
    }
}

/// Cards of `rank` among `cards`.
fn count_rank(cards: &Cards, rank: Rank) -> usize {
    cards.as_slice().iter().filter(|card| card.rank() == rank).count()
}

/// How much rank a play sheds: the sum of its ranks, highest card first as a tie-break.
fn played_weight(cards: &Cards) -> (u32, Option<u8>) {
    let sum = cards.as_slice().iter().map(|card| u32::from(card.rank().index())).sum();
    (sum, cards.highest().map(|card| card.rank().index()))
}

/// A lead's preference: the highest rank, then the most copies.
fn lead_key(cards: &Cards) -> (Option<u8>, usize) {
    (cards.highest().map(|card| card.rank().index()), cards.len())
}

impl Bot<State> for TtHeuristic {
    fn choose(&mut self, observation: &Observation) -> Action {
        let legal = &observation.legal_actions;
        let fallback = legal.first().copied().unwrap_or(Action::Exchange(Cards::EMPTY));
        if legal.len() <= 1 {
            return fallback;
        }
        let elimination = observation.public.options.variant == Variant::Elimination;
        let choice = match observation.public.phase {
            PhaseView::Exchange { .. } if elimination => None,
            PhaseView::Exchange { .. } => self.exchange(observation),
            // In the elimination variant the first action is the cautious one: the lowest lead
            // or the duck.
            PhaseView::Play { .. } if elimination => None,
            PhaseView::Play { leader, to_act } if leader == to_act => {
                TtHeuristic::lead(observation)
            }
            PhaseView::Play { .. } => TtHeuristic::follow(observation),
            PhaseView::Over => None,
        };
        choice.unwrap_or(fallback)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use cardroom_games::twenty_two::Options;
    use cardroom_games::{Seat, parse_cards};

    use super::*;

    fn cards(text: &str) -> Cards {
        Cards::new(&parse_cards(text).unwrap()).unwrap()
    }

    #[test]
    fn leads_its_highest_set_and_beats_with_its_highest_cards() {
        let mut bot = TtHeuristic::new();
        // A real observation, with its hand and legal actions replaced.
        let state = State::new(Options::default(), 2, 9).unwrap();
        let seat = state.to_act().unwrap();
        let mut observation = state.observation(seat);
        observation.public.phase = PhaseView::Play { leader: seat, to_act: seat };
        observation.hand = cards("2C 5D KS KH");
        observation.legal_actions = vec![
            Action::Play(cards("2C")),
            Action::Play(cards("5D")),
            Action::Play(cards("KH")),
            Action::Play(cards("KH KS")),
        ];
        assert_eq!(bot.choose(&observation), Action::Play(cards("KH KS")));

        observation.public.phase = PhaseView::Play { leader: Seat(seat.0 ^ 1), to_act: seat };
        observation.legal_actions =
            vec![Action::Play(cards("2C")), Action::Play(cards("5D")), Action::Play(cards("KH"))];
        assert_eq!(bot.choose(&observation), Action::Play(cards("KH")));
    }
}
