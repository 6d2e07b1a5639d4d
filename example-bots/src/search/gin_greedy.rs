//! A fast Gin Rummy playout policy, [`GinGreedy`].

use cardroom_games::gin::{self, CardSet, solver};
use cardroom_games::{Card, Seat};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::rollout::Policy;

/// A fast Gin Rummy playout policy that uses only the seat's own hand and the upcard: go out
/// whenever possible (big gin, then gin, then the knock with the least deadwood); take the
/// upcard when it lowers the hand's deadwood; discard the card that leaves the least deadwood
/// (the highest such card). With probability `noise` it plays a random legal action instead.
#[derive(Copy, Clone, Debug)]
pub struct GinGreedy {
    /// Probability of a random legal action, so that playouts vary.
    pub noise: f64,
}

impl Default for GinGreedy {
    fn default() -> GinGreedy {
        GinGreedy { noise: 0.05 }
    }
}

/// Deadwood of at most ten cards (GR-2); a hand the solver refuses counts as hopeless.
fn deadwood(cards: CardSet) -> u8 {
    solver::deadwood(cards).unwrap_or(u8::MAX)
}

/// The least deadwood after discarding one of `allowed` from 11 cards, and that discard (the
/// highest card among equals).
fn best_discard(hand: CardSet, allowed: CardSet) -> Option<(u8, Card)> {
    let mut best: Option<(u8, Card)> = None;
    for card in allowed {
        let d = deadwood(hand - CardSet::single(card));
        let better = match best {
            None => true,
            Some((bd, bc)) => d < bd || (d == bd && card_value(card) >= card_value(bc)),
        };
        if better {
            best = Some((d, card));
        }
    }
    best
}

fn card_value(card: Card) -> u32 {
    CardSet::single(card).value()
}

impl Policy<gin::State> for GinGreedy {
    fn act(&mut self, state: &gin::State, seat: Seat, rng: &mut ChaCha8Rng) -> Option<gin::Action> {
        let legal = state.legal_actions();
        let &first = legal.first()?;
        Some(self.pick(state, seat, &legal, first, rng))
    }
}

impl GinGreedy {
    fn pick(
        &self,
        state: &gin::State,
        seat: Seat,
        legal: &[gin::Action],
        first: gin::Action,
        rng: &mut ChaCha8Rng,
    ) -> gin::Action {
        if legal.len() == 1 {
            return first;
        }
        if rng.random_bool(self.noise) {
            return legal[rng.random_range(0..legal.len())];
        }
        let hand = state.hand(seat);
        match state.phase() {
            gin::Phase::FirstUpcard { .. } | gin::Phase::Draw { .. } | gin::Phase::Wall { .. } => {
                let Some(top) = state.discard_pile().last().map(|p| p.card) else { return first };
                let take = if legal.contains(&gin::Action::TakeUpcard) {
                    gin::Action::TakeUpcard
                } else {
                    gin::Action::DrawDiscard
                };
                if !legal.contains(&take) {
                    return first;
                }
                if matches!(state.phase(), gin::Phase::Wall { .. }) {
                    // Offered at the wall only when it goes out.
                    return take;
                }
                let with = hand | CardSet::single(top);
                let allowed = if state.options().discard_taken_upcard {
                    with
                } else {
                    with - CardSet::single(top)
                };
                let improves = best_discard(with, allowed).is_some_and(|(d, _)| d < deadwood(hand));
                if improves {
                    take
                } else if legal.contains(&gin::Action::PassUpcard) {
                    gin::Action::PassUpcard
                } else {
                    gin::Action::DrawStock
                }
            }
            gin::Phase::Discard { .. } => {
                if legal.contains(&gin::Action::BigGin) {
                    return gin::Action::BigGin;
                }
                let mut knock: Option<(u32, gin::Action)> = None;
                for &action in legal {
                    match action {
                        gin::Action::Gin { .. } => return action,
                        gin::Action::Knock { discard, melds } => {
                            let left = (hand - CardSet::single(discard) - melds.cards()).value();
                            if knock.is_none_or(|(best, _)| left < best) {
                                knock = Some((left, action));
                            }
                        }
                        _ => {}
                    }
                }
                if let Some((_, action)) = knock {
                    return action;
                }
                let allowed: CardSet = legal
                    .iter()
                    .filter_map(|a| match a {
                        gin::Action::Discard(card) => Some(*card),
                        _ => None,
                    })
                    .fold(CardSet::EMPTY, |set, card| set | CardSet::single(card));
                best_discard(hand, allowed).map_or(first, |(_, card)| gin::Action::Discard(card))
            }
            gin::Phase::MatchOver => first,
        }
    }
}
