//! Move generation: the legal actions of the seat to act, sorted and distinct, with every
//! knock arrangement within the limit (GR-7) in canonical form.

use super::action::Action;
use super::cardset::CardSet;
use super::solver;
use super::state::State;
use super::view::Phase;
use crate::card::Card;

impl State {
    /// The cards of the hand to act that may be discarded: all but a card just taken from the
    /// discard pile (GR-6, unless `discard_taken_upcard`).
    pub(super) fn allowed_discards(&self, hand: CardSet, taken: Option<Card>) -> CardSet {
        match taken {
            Some(card) if !self.options.discard_taken_upcard => hand - CardSet::single(card),
            _ => hand,
        }
    }

    /// Whether an 11-card hand can knock or go gin (GR-7, GR-8).
    pub(super) fn can_go_out(&self, hand: CardSet, allowed: CardSet) -> bool {
        (self.options.big_gin && solver::all_melded(hand))
            || solver::knock_within(hand, allowed, u32::from(self.knock_limit)).is_some()
    }

    /// Every legal action of the seat to act, sorted and without duplicates; empty once the
    /// match is over. Knocks are listed for every discard and every arrangement within the
    /// knock limit (GR-7), in canonical form.
    pub fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            Phase::FirstUpcard { .. } => vec![Action::TakeUpcard, Action::PassUpcard],
            Phase::Draw { stock_only: true, .. } => vec![Action::DrawStock],
            Phase::Draw { stock_only: false, .. } => vec![Action::DrawStock, Action::DrawDiscard],
            Phase::Wall { seat } => {
                let mut out = vec![Action::PassUpcard];
                if let Some(top) = self.pile.last() {
                    let hand = self.hands[seat.index()] | CardSet::single(top.card);
                    if self.can_go_out(hand, self.allowed_discards(hand, Some(top.card))) {
                        out.push(Action::DrawDiscard);
                    }
                }
                out
            }
            Phase::Discard { seat, taken, must_go_out } => {
                let hand = self.hands[seat.index()];
                let allowed = self.allowed_discards(hand, taken);
                let mut out = Vec::with_capacity(12);
                if !must_go_out {
                    // Already in order: discards sort by card, before every go-out action.
                    out.extend(allowed.iter_card_order().map(Action::Discard));
                }
                let plain = out.len();
                self.go_out_actions(hand, allowed, &mut out);
                if out.len() > plain {
                    out[plain..].sort_unstable();
                    out.dedup();
                }
                out
            }
            Phase::MatchOver => Vec::new(),
        }
    }

    fn go_out_actions(&self, hand: CardSet, allowed: CardSet, out: &mut Vec<Action>) {
        if self.options.big_gin && solver::all_melded(hand) {
            out.push(Action::BigGin);
        }
        let limit = u32::from(self.knock_limit);
        if solver::knock_within(hand, allowed, limit).is_none() {
            return;
        }
        for discard in allowed {
            let rest = hand - CardSet::single(discard);
            for melds in solver::arrangements_within(rest, limit) {
                if (rest - melds.cards()).is_empty() {
                    out.push(Action::Gin { discard });
                } else {
                    out.push(Action::Knock { discard, melds });
                }
            }
        }
    }
}
