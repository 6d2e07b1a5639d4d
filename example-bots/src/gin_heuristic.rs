//! [`GinHeuristic`]: a rule-based Gin Rummy player built on the engine's exact meld solver
//! ([`cardroom_games::gin::solver`]).
//!
//! - **Drawing** (GR-5, GR-6, GR-10): it takes the upcard when the card ends up in a meld of
//!   the best arrangement of the ten cards it would keep and lowers its deadwood, or when the
//!   deadwood it leaves, plus a cost for showing it to the opponent (`take_cost`, 4 points), is
//!   at most the deadwood a blind draw is expected to leave (the average over every card it has
//!   not seen, [`expected_deadwood`]); otherwise it draws blind from the stock, which tells the
//!   opponent nothing. At the wall it takes the upcard whenever the rules let it (only to go
//!   out).
//! - **Going out** (GR-7, GR-8): big gin, then gin, whenever possible. It knocks as soon as it
//!   may while the stock holds 22 cards or more (an early knock is rarely undercut: the
//!   opponent's hand has had few draws to improve), later only with 5 deadwood or less
//!   (`late_stock`, `late_knock`), laying the arrangement with the least deadwood and, among
//!   those, the fewest cards the defender could lay off (the fourth card of a set, the cards at
//!   either end of a run, unless they are in its own hand or dead in the discard pile).
//! - **Discarding** (GR-6): the card whose discard leaves the least deadwood expected after the
//!   next draw (`lookahead`: exact, by the solver, over every card it has not seen), plus a
//!   danger cost for cards the opponent is known to want: a card of the same rank as one the
//!   opponent took from the discard pile (GR-15, `known_cards`), or of the same suit within two
//!   ranks of one; and a small bonus for the rank of a card the opponent discarded itself (it
//!   is not collecting it). Among equal costs, the higher card goes.
//!
//! The weights were tuned against [`SimpleGin`](crate::gin_simple::SimpleGin), the stand-in for
//! OpenSpiel's simple bot, under OpenSpiel's rules (`gin-simple`, 3,000 matches a setting):
//! the lookahead discard took the old heuristic from 46.7% to 50.3%, the upcard lookahead, the
//! lighter danger and the late knock limit together to 57–58%. [`GinHeuristic::fast`] is the
//! old heuristic, for playouts.

use cardroom_games::gin::{Action, CardSet, Observation, Phase, State, solver};
use cardroom_games::{Card, Seat};
use cardroom_sdk::Bot;

/// The Gin Rummy heuristic described in the [module documentation](self).
#[derive(Clone, Debug)]
pub struct GinHeuristic {
    /// Deadwood points an upcard must save, when it completes no meld, to be worth taking
    /// (revealing it to the opponent, GR-15) instead of a blind draw.
    pub take_margin: u8,
    /// The danger cost, in deadwood points, of discarding a card of the same rank as one the
    /// opponent is known to hold.
    pub same_rank_danger: u8,
    /// The danger cost of discarding a card of the same suit next to one the opponent is known
    /// to hold (half as much two ranks away).
    pub run_danger: u8,
    /// With a value, an upcard that completes no meld is taken when the deadwood it leaves,
    /// plus this cost in tenths of a point (for what taking it tells the opponent, GR-15), is
    /// at most the deadwood a blind draw is expected to leave ([`expected_deadwood`]), instead
    /// of by [`take_margin`](Self::take_margin).
    pub take_cost: Option<u8>,
    /// Whether discards are judged by the deadwood expected after the next draw (a one-step
    /// lookahead over every card it has not seen, [`expected_deadwood`]) rather than by the
    /// deadwood now: of two discards that leave the same deadwood, the one whose kept cards
    /// more unseen cards would improve is better. About 300 solver calls a discard, so the
    /// search's playouts leave it off.
    pub lookahead: bool,
    /// Knock timing (GR-7): once the stock holds fewer than this many cards, the opponent has
    /// had time to build its hand and an undercut (GR-12) grows likely, so it knocks only with
    /// at most [`late_knock`](Self::late_knock) deadwood (gin is always played).
    pub late_stock: usize,
    /// The most deadwood it knocks with once the stock is below
    /// [`late_stock`](Self::late_stock).
    pub late_knock: u8,
}

impl Default for GinHeuristic {
    fn default() -> GinHeuristic {
        GinHeuristic {
            take_margin: 4,
            same_rank_danger: 2,
            run_danger: 1,
            take_cost: Some(40),
            lookahead: true,
            late_stock: 22,
            late_knock: 5,
        }
    }
}

impl GinHeuristic {
    /// The heuristic with its default weights.
    pub fn new() -> GinHeuristic {
        GinHeuristic::default()
    }

    /// The heuristic as it was before the lookahead and the knock timing (upcards by
    /// `take_margin` 4, danger 6 and 4, a knock whenever legal): a hundred times cheaper a
    /// decision, and the playout policy the search was tuned with.
    pub fn fast() -> GinHeuristic {
        GinHeuristic {
            take_margin: 4,
            same_rank_danger: 6,
            run_danger: 4,
            take_cost: None,
            lookahead: false,
            late_stock: 0,
            late_knock: 10,
        }
    }

    /// Whether taking `card` into `hand` (ten cards) is worth it.
    fn wants(&self, observation: &Observation, card: Card, may_discard_it: bool) -> bool {
        let hand = observation.hand;
        let Ok(now) = solver::deadwood(hand) else { return false };
        let mut with = hand;
        with.insert(card);
        let mut best: Option<(u8, CardSet)> = None;
        for discard in with.iter() {
            if discard == card && !may_discard_it {
                continue;
            }
            let mut kept = with;
            kept.remove(discard);
            if let Ok(deadwood) = solver::deadwood(kept)
                && best.is_none_or(|(b, _)| deadwood < b)
            {
                best = Some((deadwood, kept));
            }
        }
        let Some((after, kept)) = best else { return false };
        if after >= now {
            return false;
        }
        let melded = solver::min_deadwood(kept).is_ok_and(|(_, arrangements)| {
            arrangements.iter().any(|arrangement| arrangement.cards().contains(card))
        });
        if melded {
            return true;
        }
        match self.take_cost {
            // The lookahead: the card now against what a blind draw is expected to leave.
            Some(cost) => {
                let opponent = Seat(1 - observation.seat.0.min(1));
                let known = observation
                    .public
                    .known_cards
                    .get(opponent.index())
                    .copied()
                    .unwrap_or_default();
                let dead: CardSet =
                    observation.public.discard_pile.iter().map(|pile| pile.card).collect();
                let unseen = CardSet::FULL - hand - dead - known;
                expected_deadwood(hand, unseen)
                    .is_some_and(|blind| 10 * i32::from(after) + i32::from(cost) <= blind)
            }
            None => now - after >= self.take_margin,
        }
    }

    /// The discard with the least deadwood left plus danger.
    fn discard(&self, observation: &Observation, me: Seat) -> Option<Action> {
        let opponent = Seat(1 - me.0.min(1));
        let known =
            observation.public.known_cards.get(opponent.index()).copied().unwrap_or_default();
        let their_discards: Vec<Card> = observation
            .public
            .discard_pile
            .iter()
            .filter(|pile| pile.by == Some(opponent))
            .map(|pile| pile.card)
            .collect();
        let hand = observation.hand;
        let dead: CardSet = observation.public.discard_pile.iter().map(|pile| pile.card).collect();
        let unseen = CardSet::FULL - hand - dead - known;
        observation
            .legal_actions
            .iter()
            .filter_map(|action| match *action {
                Action::Discard(card) => {
                    let mut kept = hand;
                    kept.remove(card);
                    // In tenths of a point, so that the expectation keeps its first decimal.
                    let deadwood = if self.lookahead {
                        expected_deadwood(kept, unseen - CardSet::single(card))?
                    } else {
                        10 * i32::from(solver::deadwood(kept).ok()?)
                    };
                    let danger = 10 * self.danger(card, known, &their_discards);
                    let value = i32::from(card.rank().ace_low_index()) + 1;
                    Some((deadwood + danger, -value, *action))
                }
                _ => None,
            })
            .min_by_key(|&(cost, value, _)| (cost, value))
            .map(|(_, _, action)| action)
    }

    /// How much the opponent may want `card`, in deadwood points.
    fn danger(&self, card: Card, known: CardSet, their_discards: &[Card]) -> i32 {
        let rank = i32::from(card.rank().ace_low_index());
        let mut danger = 0;
        for held in known.iter() {
            let held_rank = i32::from(held.rank().ace_low_index());
            if held.rank() == card.rank() {
                danger += i32::from(self.same_rank_danger);
            } else if held.suit() == card.suit() {
                match (held_rank - rank).abs() {
                    1 => danger += i32::from(self.run_danger),
                    2 => danger += i32::from(self.run_danger) / 2,
                    _ => {}
                }
            }
        }
        if their_discards.iter().any(|discarded| discarded.rank() == card.rank()) {
            danger -= 1;
        }
        danger
    }

    /// The best way out: big gin, gin, else the knock with the least deadwood and the fewest
    /// layoff spots, if the knock timing allows it.
    fn go_out(&self, observation: &Observation) -> Option<Action> {
        let legal = &observation.legal_actions;
        if let Some(action) = legal.iter().find(|action| matches!(action, Action::BigGin)) {
            return Some(*action);
        }
        if let Some(action) = legal.iter().find(|action| matches!(action, Action::Gin { .. })) {
            return Some(*action);
        }
        let dead: CardSet = observation.public.discard_pile.iter().map(|pile| pile.card).collect();
        let visible = dead | observation.hand;
        let late = observation.public.stock_size < self.late_stock;
        legal
            .iter()
            .filter_map(|action| match *action {
                Action::Knock { discard, melds } => {
                    let mut kept = observation.hand;
                    kept.remove(discard);
                    let deadwood = (kept - melds.cards()).value();
                    if late && deadwood > u32::from(self.late_knock) {
                        return None;
                    }
                    Some(((deadwood, layoff_spots(melds.melds(), visible)), *action))
                }
                _ => None,
            })
            .min_by_key(|&(key, _)| key)
            .map(|(_, action)| action)
    }
}

/// The deadwood of the ten cards `kept` expected after one more draw, in tenths of a point:
/// the average, over the `unseen` cards as equally likely draws, of the least deadwood left
/// after drawing that card and discarding the best one (GR-3), or of keeping `kept` as it is
/// when the draw helps nothing. `None` when the solver refuses the hand (more than 11 cards).
pub fn expected_deadwood(kept: CardSet, unseen: CardSet) -> Option<i32> {
    let now = solver::deadwood(kept).ok()?;
    if unseen.is_empty() {
        return Some(10 * i32::from(now));
    }
    let mut total = 0u32;
    for card in unseen.iter() {
        let mut with = kept;
        with.insert(card);
        let after = solver::knock_deadwood(with).ok()?.min(now);
        total += u32::from(after);
    }
    let draws = unseen.len() as u32;
    i32::try_from((10 * total + draws / 2) / draws).ok()
}

/// Cards the defender could lay off on these melds (GR-9), not counting visible ones.
fn layoff_spots(melds: impl Iterator<Item = CardSet>, visible: CardSet) -> usize {
    let mut spots = CardSet::EMPTY;
    for meld in melds {
        let cards = meld.to_vec();
        let (Some(first), Some(last)) = (cards.first(), cards.last()) else { continue };
        if first.rank() == last.rank() {
            // A set: the missing suits.
            for card in Card::pack().filter(|card| card.rank() == first.rank()) {
                if !meld.contains(card) {
                    spots.insert(card);
                }
            }
        } else {
            // A run: one card below and one above, in the suit (ace low).
            for neighbour in
                [first.rank().ace_low_index().checked_sub(1), Some(last.rank().ace_low_index() + 1)]
                    .into_iter()
                    .flatten()
                    .filter_map(|index| {
                        Card::pack()
                            .find(|c| c.suit() == first.suit() && c.rank().ace_low_index() == index)
                    })
            {
                spots.insert(neighbour);
            }
        }
    }
    (spots - visible).len()
}

impl Bot<State> for GinHeuristic {
    fn choose(&mut self, observation: &Observation) -> Action {
        let legal = &observation.legal_actions;
        let fallback = legal.first().copied().unwrap_or(Action::DrawStock);
        if legal.len() <= 1 {
            return fallback;
        }
        let me = observation.seat;
        let upcard = observation.public.discard_pile.last().map(|pile| pile.card);
        let may_discard_it = observation.public.options.discard_taken_upcard;
        let take = |action: Action| legal.contains(&action).then_some(action);
        let choice = match observation.public.phase {
            Phase::FirstUpcard { .. } => {
                match upcard.filter(|&card| self.wants(observation, card, may_discard_it)) {
                    Some(_) => take(Action::TakeUpcard),
                    None => take(Action::PassUpcard),
                }
            }
            Phase::Wall { .. } => take(Action::DrawDiscard).or_else(|| take(Action::TakeUpcard)),
            Phase::Draw { .. } => {
                match upcard.filter(|&card| self.wants(observation, card, may_discard_it)) {
                    Some(_) => take(Action::DrawDiscard).or_else(|| take(Action::DrawStock)),
                    None => take(Action::DrawStock),
                }
            }
            Phase::Discard { .. } => {
                self.go_out(observation).or_else(|| self.discard(observation, me))
            }
            Phase::MatchOver => None,
        };
        choice.unwrap_or(fallback)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &str) -> CardSet {
        text.split_whitespace()
            .map(|code| code.parse::<Card>().unwrap_or_else(|e| panic!("{e}")))
            .collect()
    }

    #[test]
    fn the_expected_deadwood_averages_the_best_discard_after_each_unseen_draw() {
        // Three runs and KH: deadwood 10.
        let kept = cards("AS 2S 3S 4C 5C 6C 7D 8D 9D KH");
        assert_eq!(expected_deadwood(kept, CardSet::EMPTY), Some(100));
        // KS melds nothing (10 after the best discard); 2H leaves 2 once KH goes (GR-3).
        assert_eq!(expected_deadwood(kept, cards("KS 2H")), Some(60));
        // A draw that helps nothing leaves the deadwood as it is.
        assert_eq!(expected_deadwood(kept, cards("QC")), Some(100));
    }
}
