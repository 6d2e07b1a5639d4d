//! Move generation: the legal actions of the seat to act, generated already sorted, the check
//! of any action against the rules, and the timeout policy's default action.

use crate::card::{Card, Rank};
use crate::seat::Seat;

use super::Action;
use super::cards::{Cards, MAX_HAND};
use super::error::IllegalAction;
use super::state::{Phase, State};
use super::view::{Observation, PhaseView, Trick};

impl State {
    /// The default action of the seat to act, played for it when its time runs out or after it
    /// forfeited (docs/protocol.md, "Clocks, strikes and the default action"); `None` once the
    /// match is over. It is the first of the sorted legal actions, which is always the cautious
    /// one: in the exchange, exchange nothing (TT-9); to lead, the lowest single card (TT-11);
    /// to follow, the duck, the seat's lowest cards in the number led (TT-12), which are the
    /// smallest of the legal follows.
    pub fn default_action(&self) -> Option<Action> {
        self.legal_actions().first().copied()
    }

    /// The actions of the seat to act, every distinct choice once, sorted (fewer cards first,
    /// then from the lowest card); empty only when the match is over.
    ///
    /// Suits never matter in play (TT-1), so choices that differ only in the suits of equal
    /// ranks are one choice: the listed action holds the lowest suits of each rank held (for
    /// example `7♣` and not `7♠` as well). [`State::apply`] accepts any suits held.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(&mut out);
        out
    }

    /// [`State::legal_actions`] in place of what `out` held (its allocation kept).
    pub(super) fn legal_actions_into(&self, out: &mut Vec<Action>) {
        let hand = match self.phase {
            Phase::Exchange { seat } | Phase::Play { seat, .. } => self.seats[seat.index()].hand,
            Phase::Over => Cards::EMPTY,
        };
        legal_actions(self.phase, &hand, self.stock.len(), &self.tricks, out);
    }

    /// True when `seat` may take `action` now.
    pub fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        self.check(seat, action).is_ok()
    }

    /// Checks an action; on success, tells whether a play becomes the strongest combination.
    pub(super) fn check(&self, seat: Seat, action: &Action) -> Result<bool, IllegalAction> {
        let to_act = self.to_act().ok_or(IllegalAction::MatchOver)?;
        let exchanging = matches!(self.phase, Phase::Exchange { .. });
        if seat != to_act {
            return Err(IllegalAction::NotYourTurn { seat, to_act, exchanging });
        }
        let hand = &self.seats[seat.index()].hand;
        let cards = match (action, exchanging) {
            (Action::Exchange(cards), true) | (Action::Play(cards), false) => cards,
            _ => return Err(IllegalAction::WrongPhase { exchanging }),
        };
        if !hand.contains_all(cards) {
            return Err(IllegalAction::NotInHand { cards: *cards, hand: *hand, exchanging });
        }
        match self.phase {
            Phase::Over => Err(IllegalAction::MatchOver),
            Phase::Exchange { .. } => {
                if cards.len() > self.stock.len() {
                    Err(IllegalAction::ExchangeTooMany {
                        discards: cards.len(),
                        stock: self.stock.len(),
                    })
                } else {
                    Ok(false)
                }
            }
            Phase::Play { leader, .. } if leader == seat => {
                if cards.is_empty() {
                    Err(IllegalAction::EmptyLead)
                } else if !cards.is_one_rank() {
                    Err(IllegalAction::LeadNotOneRank { cards: *cards })
                } else if cards.len() >= hand.len() && hand.len() > 1 {
                    Err(IllegalAction::LeadEmptiesHand { hand_len: hand.len() })
                } else {
                    Ok(true)
                }
            }
            Phase::Play { .. } => {
                let trick = self.current_trick();
                let strongest = trick.plays[trick.strongest].cards;
                if cards.len() != strongest.len() {
                    return Err(IllegalAction::WrongCount {
                        played: cards.len(),
                        led: strongest.len(),
                    });
                }
                let duck = hand.lowest(cards.len());
                if cards.dominates(&strongest) {
                    Ok(true)
                } else if cards.same_ranks(&duck) {
                    Ok(false)
                } else {
                    Err(IllegalAction::NeitherBeatNorDuck { cards: *cards, strongest, duck })
                }
            }
        }
    }
}

/// A sorted hand seen as runs of equal ranks: run `i` is `hand[start[i]..start[i] + count[i]]`.
/// The canonical `j` cards of a run are its first `j` (the lowest suits).
struct Runs<'a> {
    hand: &'a [Card],
    len: usize,
    start: [u8; MAX_HAND],
    count: [u8; MAX_HAND],
    /// `after[i]`: cards in runs `i..`.
    after: [u8; MAX_HAND + 1],
}

impl<'a> Runs<'a> {
    fn new(hand: &'a Cards) -> Runs<'a> {
        let cards = hand.as_slice();
        let mut runs = Runs {
            hand: cards,
            len: 0,
            start: [0; MAX_HAND],
            count: [0; MAX_HAND],
            after: [0; MAX_HAND + 1],
        };
        for (i, card) in cards.iter().enumerate() {
            if i == 0 || cards[i - 1].rank() != card.rank() {
                runs.start[runs.len] = i as u8;
                runs.len += 1;
            }
            runs.count[runs.len - 1] += 1;
        }
        for i in (0..runs.len).rev() {
            runs.after[i] = runs.after[i + 1] + runs.count[i];
        }
        runs
    }

    fn cards(&self, run: usize, j: usize) -> &'a [Card] {
        let start = self.start[run] as usize;
        &self.hand[start..start + j]
    }

    fn rank(&self, run: usize) -> Rank {
        self.hand[self.start[run] as usize].rank()
    }

    /// Every multiset of at most `max` cards (by rank) as exchanges, sorted by size and then
    /// lexicographically, with no sort: the sizes are counted first, then one walk writes
    /// each multiset at the next slot of its size (the walk meets each size's multisets in
    /// lexicographic order, as [`Runs::combinations`] explains).
    /// They replace what `out` held.
    fn exchanges(&self, max: usize, out: &mut Vec<Action>) {
        // Multisets per size: the product of (1 + x + … + x^count) over the runs.
        let mut per_size = [0usize; MAX_HAND + 1];
        per_size[0] = 1;
        for run in 0..self.len {
            for size in (0..=max).rev() {
                let count = self.count[run] as usize;
                per_size[size] = (0..=count.min(size)).map(|j| per_size[size - j]).sum();
            }
        }
        let mut next = [0usize; MAX_HAND + 1];
        for size in 1..=max {
            next[size] = next[size - 1] + per_size[size - 1];
        }
        out.clear();
        out.resize(next[max] + per_size[max], Action::Exchange(Cards::EMPTY));
        let mut current = Cards::EMPTY;
        self.walk(0, max, &mut current, &mut |cards| {
            out[next[cards.len()]] = Action::Exchange(*cards);
            next[cards.len()] += 1;
        });
    }

    fn walk(&self, run: usize, max: usize, current: &mut Cards, emit: &mut impl FnMut(&Cards)) {
        if run == self.len {
            return emit(current);
        }
        let most = (self.count[run] as usize).min(max - current.len());
        for j in (0..=most).rev() {
            for &card in self.cards(run, j) {
                current.push_in_order(card);
            }
            self.walk(run + 1, max, current, emit);
            for _ in 0..j {
                current.pop();
            }
        }
    }

    /// Every multiset of `k` cards (by rank) in lexicographic order, passed to `emit`; `accept`
    /// says whether `j` cards of run `run` may stand at positions `filled..filled + j`.
    fn combinations(
        &self,
        run: usize,
        k: usize,
        current: &mut Cards,
        accept: &impl Fn(Rank, usize, usize) -> bool,
        emit: &mut impl FnMut(&Cards),
    ) {
        let filled = current.len();
        if filled == k {
            emit(current);
            return;
        }
        if run == self.len || (self.after[run] as usize) < k - filled {
            return;
        }
        // More copies of the lower rank first: that is lexicographic order.
        let most = (self.count[run] as usize).min(k - filled);
        for j in (0..=most).rev() {
            if j > 0 && !accept(self.rank(run), filled, j) {
                continue;
            }
            for &card in self.cards(run, j) {
                current.push_in_order(card);
            }
            self.combinations(run + 1, k, current, accept, emit);
            for _ in 0..j {
                current.pop();
            }
        }
    }
}

impl Observation {
    /// The legal actions of this seat computed from the observation alone: what
    /// [`State::observation`] put in `legal_actions`, in the same order (the engine's, which
    /// `Act.index` counts in). Empty unless this seat is to act. A bot that asks the server to
    /// leave a `Turn`'s legal actions out (`Omit.legal_actions`) lists them with this.
    pub fn compute_legal_actions(&self) -> Vec<Action> {
        let phase = match self.public.phase {
            PhaseView::Exchange { to_act } if to_act == self.seat => {
                Phase::Exchange { seat: to_act }
            }
            PhaseView::Play { leader, to_act } if to_act == self.seat => {
                Phase::Play { leader, seat: to_act }
            }
            PhaseView::Exchange { .. } | PhaseView::Play { .. } | PhaseView::Over => {
                return Vec::new();
            }
        };
        let mut out = Vec::new();
        legal_actions(phase, &self.hand, self.public.stock_len, &self.public.tricks, &mut out);
        out
    }
}

/// The sorted legal actions of the seat to act in `phase`, holding `hand`, with `stock_len`
/// cards in the stock and this deal's `tricks` (the current one last): what a state and an
/// observation of the seat to act both hold, so both list the same actions in the same order.
/// They replace what `out` held (its allocation kept).
fn legal_actions(
    phase: Phase,
    hand: &Cards,
    stock_len: usize,
    tricks: &[Trick],
    out: &mut Vec<Action>,
) {
    out.clear();
    let mut current = Cards::EMPTY;
    match phase {
        Phase::Over => {}
        Phase::Exchange { .. } => {
            Runs::new(hand).exchanges(hand.len().min(stock_len), out);
        }
        Phase::Play { leader, seat } if leader == seat => {
            let runs = Runs::new(hand);
            let max = if hand.len() == 1 { 1 } else { hand.len() - 1 };
            for n in 1..=max {
                for run in 0..runs.len {
                    if runs.count[run] as usize >= n {
                        out.push(Action::Play(Cards::new(runs.cards(run, n)).unwrap_or_default()));
                    }
                }
            }
        }
        Phase::Play { .. } => {
            // The phase is `Play` only after a trick was begun (an observation read from the wire
            // is not trusted to hold one): no strongest play, nothing to follow.
            let Some(strongest) = tricks.last().and_then(|trick| trick.plays.get(trick.strongest))
            else {
                return;
            };
            let strongest = strongest.cards;
            let target = strongest.as_slice();
            // TT-12: from low to high, the card at position `i` must be at least
            // `target[i]`; `target` is sorted, so checking the last position suffices.
            let dominates =
                |rank: Rank, filled: usize, j: usize| target[filled + j - 1].rank() <= rank;
            Runs::new(hand).combinations(0, target.len(), &mut current, &dominates, &mut |c| {
                out.push(Action::Play(*c));
            });
            let duck = Action::Play(hand.lowest(target.len()));
            if let Err(at) = out.binary_search(&duck) {
                out.insert(at, duck);
            }
        }
    }
    debug_assert!(out.windows(2).all(|w| w[0] < w[1]), "legal actions sorted and distinct");
}
