//! The timeout policy: the action the server plays for a seat whose time ran out or that
//! forfeited (docs/protocol.md, "Clocks, strikes and the default action").

use std::cmp::Reverse;

use super::action::Action;
use super::cardset::CardSet;
use super::solver;
use super::state::State;
use super::view::Phase;

impl State {
    /// The default action of the seat to act; `None` once the match is over. It never goes
    /// out when it has a choice: it passes the first upcard (GR-5) and declines the upcard at
    /// the wall (GR-10), draws from the stock (GR-6), and discards the card that leaves the
    /// least deadwood in the ten cards kept (by the exact solver, GR-3), the highest card among
    /// equals (rank with the ace low, then suit: ♣ ♦ ♥ ♠), never the card just taken from the
    /// discard pile unless `discard_taken_upcard` allows it (GR-6). The one exception: a seat
    /// that took the upcard at the wall must go out (GR-10), and then goes big gin (GR-8), else
    /// gin, else the knock with the least deadwood (GR-7; the first such knock in the legal
    /// order). The action is always legal.
    pub fn default_action(&self) -> Option<Action> {
        let seat = self.to_act()?;
        match self.phase() {
            Phase::FirstUpcard { .. } | Phase::Wall { .. } => Some(Action::PassUpcard),
            Phase::Draw { .. } => Some(Action::DrawStock),
            Phase::Discard { .. } => {
                let hand = self.hand(seat);
                let legal = self.legal_actions();
                least_deadwood_discard(hand, &legal)
                    .or_else(|| best_go_out(hand, &legal))
                    .or_else(|| legal.first().copied())
            }
            Phase::MatchOver => None,
        }
    }
}

/// Among the legal ordinary discards, the one that leaves the least deadwood, the highest card
/// (ace low, then suit) among equals.
fn least_deadwood_discard(hand: CardSet, legal: &[Action]) -> Option<Action> {
    legal
        .iter()
        .filter_map(|action| match *action {
            Action::Discard(card) => Some(card),
            _ => None,
        })
        .min_by_key(|&card| {
            let left = solver::deadwood(hand - CardSet::single(card)).unwrap_or(u8::MAX);
            (left, Reverse(card.rank().ace_low_index()), Reverse(card.suit()))
        })
        .map(Action::Discard)
}

/// Among the legal ways to go out, big gin, then gin, then the knock with the least deadwood
/// (the first in the legal order among equals).
fn best_go_out(hand: CardSet, legal: &[Action]) -> Option<Action> {
    legal
        .iter()
        .filter_map(|action| match *action {
            Action::BigGin => Some((0, 0, *action)),
            Action::Gin { .. } => Some((1, 0, *action)),
            Action::Knock { discard, melds } => {
                let deadwood = hand - CardSet::single(discard) - melds.cards();
                Some((2, deadwood.value(), *action))
            }
            _ => None,
        })
        .min_by_key(|&(kind, deadwood, _)| (kind, deadwood))
        .map(|(_, _, action)| action)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::Card;

    fn card(code: &str) -> Card {
        code.parse().unwrap()
    }

    #[test]
    fn gr_3_default_discard_keeps_melds_and_breaks_ties_high() {
        // Melds 2♣ 3♣ 4♣ and 7♦ 7♥ 7♠; deadwood candidates K♣ K♦ Q♠ 9♥ 5♠.
        let hand: CardSet = "2C 3C 4C 7D 7H 7S KC KD QS 9H 5S".parse().unwrap();
        let legal: Vec<Action> = hand.iter_card_order().map(Action::Discard).collect();
        // K♣, K♦ and Q♠ each leave 10 + 10 + 9 + 5 = 34: the highest of them is K♦.
        assert_eq!(least_deadwood_discard(hand, &legal), Some(Action::Discard(card("KD"))));
        // With the discard of the card just taken forbidden, K♣ is next.
        let legal: Vec<Action> =
            legal.into_iter().filter(|a| *a != Action::Discard(card("KD"))).collect();
        assert_eq!(least_deadwood_discard(hand, &legal), Some(Action::Discard(card("KC"))));
    }
}
