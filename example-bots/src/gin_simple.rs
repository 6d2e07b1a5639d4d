//! [`SimpleGin`]: cardroom's rendition of the strategy of OpenSpiel's simple Gin Rummy bot
//! (`pyspiel.make_simple_gin_rummy_bot`), for tuning the other bots in process, thousands of
//! matches a minute. The numbers in the README are measured against OpenSpiel's own bot over a
//! server (`example-bots/python/openspiel_bot.py`); this one only stands near it.
//!
//! The strategy, as OpenSpiel documents it:
//!
//! - **Drawing** (GR-5, GR-6): it takes the upcard when it would then be able to knock, or when
//!   the upcard is in a meld of the best arrangement of the eleven cards; otherwise it draws
//!   from the stock (or passes the first upcard). At the wall (GR-10) it takes the upcard only
//!   to knock.
//! - **Going out** (GR-7, GR-8): it knocks (or goes gin) as soon as it may, discarding as below
//!   and laying the best arrangement of the ten cards left.
//! - **Discarding**: the highest-ranked card (king high, ace low) of the deadwood of the best
//!   arrangement of its eleven cards; it never steers away from what the opponent wants.
//!
//! Where OpenSpiel's own approximations differ from the exact solver (GR-3), this rendition
//! uses the exact solver; which of several equal arrangements counts as "best" is the solver's
//! first, so ties may go another way than OpenSpiel's.

use cardroom_games::gin::{Action, CardSet, Observation, Phase, State, solver};
use cardroom_games::{Card, Suit};
use cardroom_sdk::Bot;

/// The simple strategy described in the [module documentation](self).
#[derive(Clone, Copy, Debug, Default)]
pub struct SimpleGin;

impl SimpleGin {
    /// The bot.
    pub fn new() -> SimpleGin {
        SimpleGin
    }
}

/// OpenSpiel's order of cards by rank: ace low, king high, then its suit order (spades, clubs,
/// diamonds, hearts).
fn rank_order(card: Card) -> (u8, u8) {
    let suit = match card.suit() {
        Suit::Spades => 0,
        Suit::Clubs => 1,
        Suit::Diamonds => 2,
        Suit::Hearts => 3,
    };
    (card.rank().ace_low_index(), suit)
}

/// The cards outside the best arrangement of `hand` (the solver's first, on ties).
fn best_deadwood(hand: CardSet) -> CardSet {
    match solver::min_deadwood(hand) {
        Ok((_, arrangements)) => {
            arrangements.first().map_or(hand, |arrangement| hand - arrangement.cards())
        }
        Err(_) => hand,
    }
}

/// The simple bot's discard from eleven cards: its highest-ranked deadwood card, or, with all
/// eleven melded, a card whose discard keeps gin.
fn simple_discard(hand: CardSet) -> Option<Card> {
    let deadwood = best_deadwood(hand);
    if let Some(card) = deadwood.iter().max_by_key(|&card| rank_order(card)) {
        return Some(card);
    }
    hand.iter().find(|&card| {
        let mut kept = hand;
        kept.remove(card);
        solver::deadwood(kept) == Ok(0)
    })
}

/// Whether the simple bot takes `upcard` into `hand` (ten cards).
fn takes(hand: CardSet, upcard: Card, knock_limit: u8) -> bool {
    let mut with = hand;
    with.insert(upcard);
    solver::knock_deadwood(with).is_ok_and(|deadwood| deadwood <= knock_limit)
        || !best_deadwood(with).contains(upcard)
}

impl SimpleGin {
    /// The knock (or gin) it plays with eleven cards, if it may go out: its discard, laying the
    /// best arrangement of the other ten; else the legal way out with that discard and the
    /// least deadwood; else the legal way out with the least deadwood.
    fn go_out(observation: &Observation) -> Option<Action> {
        let hand = observation.hand;
        let discard = simple_discard(hand)?;
        let mut kept = hand;
        kept.remove(discard);
        let best = solver::min_deadwood(kept).ok().and_then(|(_, all)| all.into_iter().next());
        let mut nearest: Option<((bool, u32), Action)> = None;
        for &action in &observation.legal_actions {
            let (card, deadwood) = match action {
                Action::Gin { discard } => (discard, 0),
                Action::Knock { discard: card, melds } => {
                    if card == discard && best.as_ref() == Some(&melds) {
                        return Some(action);
                    }
                    let mut rest = hand;
                    rest.remove(card);
                    (card, (rest - melds.cards()).value())
                }
                _ => continue,
            };
            let key = (card != discard, deadwood);
            if nearest.is_none_or(|(best_key, _)| key < best_key) {
                nearest = Some((key, action));
            }
        }
        nearest.map(|(_, action)| action)
    }
}

impl Bot<State> for SimpleGin {
    fn choose(&mut self, observation: &Observation) -> Action {
        let legal = &observation.legal_actions;
        let fallback = legal.first().copied().unwrap_or(Action::DrawStock);
        if legal.len() <= 1 {
            return fallback;
        }
        let take = |action: Action| legal.contains(&action).then_some(action);
        let upcard = observation.public.discard_pile.last().map(|pile| pile.card);
        let limit = observation.public.knock_limit;
        let wanted = upcard.is_some_and(|card| takes(observation.hand, card, limit));
        let choice = match observation.public.phase {
            Phase::FirstUpcard { .. } if wanted => take(Action::TakeUpcard),
            Phase::FirstUpcard { .. } => take(Action::PassUpcard),
            Phase::Draw { .. } if wanted => take(Action::DrawDiscard),
            Phase::Draw { .. } => take(Action::DrawStock),
            Phase::Wall { .. } => {
                let may_knock = upcard.is_some_and(|card| {
                    let mut with = observation.hand;
                    with.insert(card);
                    solver::knock_deadwood(with).is_ok_and(|deadwood| deadwood <= limit)
                });
                if may_knock { take(Action::DrawDiscard) } else { take(Action::PassUpcard) }
            }
            Phase::Discard { .. } => SimpleGin::go_out(observation).or_else(|| {
                simple_discard(observation.hand).and_then(|card| take(Action::Discard(card)))
            }),
            Phase::MatchOver => None,
        };
        choice.unwrap_or(fallback)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &str) -> CardSet {
        text.split_whitespace().map(|code| code.parse::<Card>().unwrap()).collect()
    }

    #[test]
    fn discards_the_highest_ranked_deadwood_card() {
        // Melds 2S-3S-4S, 7C-7D-7H; deadwood AC 5D 9H JD KC: the king goes, not the jack.
        let hand = cards("2S 3S 4S 7C 7D 7H AC 5D 9H JD KC");
        assert_eq!(simple_discard(hand), Some("KC".parse().unwrap()));
    }

    #[test]
    fn takes_an_upcard_that_melds_or_lets_it_knock() {
        let hand = cards("2S 3S 4S 7C 7D 7H AC 5D 9H KC");
        assert!(takes(hand, "7S".parse().unwrap(), 10), "7S makes a set of four");
        assert!(takes(hand, "5S".parse().unwrap(), 10), "5S extends the run");
        assert!(!takes(hand, "QH".parse().unwrap(), 10), "QH melds nothing");
        // AD: melds nothing, but keeping it and throwing KC leaves AC AD 5D 9H = 16 > 10.
        assert!(!takes(hand, "AD".parse().unwrap(), 10));
        // 9D: the discard of KC leaves AC 5D 9D 9H = 24; no knock, no meld.
        assert!(!takes(hand, "9D".parse().unwrap(), 10));
    }
}
