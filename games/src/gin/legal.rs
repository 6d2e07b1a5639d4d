//! Move generation: the legal actions of the seat to act, sorted and distinct, with every
//! knock arrangement within the limit (GR-7) in canonical form.

use super::action::Action;
use super::cardset::CardSet;
use super::solver;
use super::state::State;
use super::view::Phase;
use crate::card::Card;

use super::options::Options;
use super::view::Observation;

/// What move generation reads: the rules, the hand's knock limit, the phase, the hand of the
/// seat to act and the upcard. A state and an observation of the seat to act hold the same, so
/// both list the same legal actions in the same order.
struct Mover<'a> {
    options: &'a Options,
    knock_limit: u8,
    phase: Phase,
    /// The hand of the phase's seat.
    hand: CardSet,
    /// The top of the discard pile.
    upcard: Option<Card>,
}

impl Mover<'_> {
    /// The cards of the hand to act that may be discarded: all but a card just taken from the
    /// discard pile (GR-6, unless `discard_taken_upcard`).
    fn allowed_discards(&self, hand: CardSet, taken: Option<Card>) -> CardSet {
        allowed_discards(self.options, hand, taken)
    }

    /// Every legal action of the seat to act, sorted and without duplicates (see
    /// [`State::legal_actions`]).
    fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(&mut out);
        out
    }

    /// [`Mover::legal_actions`] in place of what `out` held (its allocation kept).
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::FirstUpcard { .. } => out.extend([Action::TakeUpcard, Action::PassUpcard]),
            Phase::Draw { stock_only: true, .. } => out.push(Action::DrawStock),
            Phase::Draw { stock_only: false, .. } => {
                out.extend([Action::DrawStock, Action::DrawDiscard]);
            }
            Phase::Wall { .. } => {
                out.push(Action::PassUpcard);
                if let Some(top) = self.upcard {
                    let hand = self.hand | CardSet::single(top);
                    if can_go_out(
                        self.options,
                        self.knock_limit,
                        hand,
                        self.allowed_discards(hand, Some(top)),
                    ) {
                        out.push(Action::DrawDiscard);
                    }
                }
            }
            Phase::Discard { taken, must_go_out, .. } => {
                let hand = self.hand;
                let allowed = self.allowed_discards(hand, taken);
                out.reserve(12);
                if !must_go_out {
                    // Already in order: discards sort by card, before every go-out action.
                    out.extend(allowed.iter_card_order().map(Action::Discard));
                }
                let plain = out.len();
                self.go_out_actions(hand, allowed, out);
                if out.len() > plain {
                    out[plain..].sort_unstable();
                    out.dedup();
                }
            }
            Phase::MatchOver => {}
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

/// The cards of `hand` that may be discarded under `options` (GR-6).
fn allowed_discards(options: &Options, hand: CardSet, taken: Option<Card>) -> CardSet {
    match taken {
        Some(card) if !options.discard_taken_upcard => hand - CardSet::single(card),
        _ => hand,
    }
}

/// Whether an 11-card hand can knock or go gin (GR-7, GR-8).
fn can_go_out(options: &Options, knock_limit: u8, hand: CardSet, allowed: CardSet) -> bool {
    (options.big_gin && solver::all_melded(hand))
        || solver::knock_within(hand, allowed, u32::from(knock_limit)).is_some()
}

impl State {
    /// The cards of the hand to act that may be discarded: all but a card just taken from the
    /// discard pile (GR-6, unless `discard_taken_upcard`).
    pub(super) fn allowed_discards(&self, hand: CardSet, taken: Option<Card>) -> CardSet {
        allowed_discards(&self.options, hand, taken)
    }

    /// Whether an 11-card hand can knock or go gin (GR-7, GR-8).
    pub(super) fn can_go_out(&self, hand: CardSet, allowed: CardSet) -> bool {
        can_go_out(&self.options, self.knock_limit, hand, allowed)
    }

    /// Every legal action of the seat to act, sorted and without duplicates; empty once the
    /// match is over. Knocks are listed for every discard and every arrangement within the
    /// knock limit (GR-7), in canonical form.
    pub fn legal_actions(&self) -> Vec<Action> {
        self.mover().legal_actions()
    }

    /// [`State::legal_actions`] in place of what `out` held (its allocation kept).
    pub(super) fn legal_actions_into(&self, out: &mut Vec<Action>) {
        self.mover().legal_actions_into(out);
    }

    /// Move generation for the seat to act.
    fn mover(&self) -> Mover<'_> {
        let hand = match self.phase {
            Phase::FirstUpcard { seat }
            | Phase::Draw { seat, .. }
            | Phase::Wall { seat }
            | Phase::Discard { seat, .. } => self.hands[seat.index()],
            Phase::MatchOver => CardSet::EMPTY,
        };
        Mover {
            options: &self.options,
            knock_limit: self.knock_limit,
            phase: self.phase,
            hand,
            upcard: self.pile.last().map(|top| top.card),
        }
    }
}

impl Observation {
    /// The legal actions of this seat computed from the observation alone: what
    /// [`State::observation`] put in `legal_actions`, in the same order (the engine's, which
    /// `Act.index` counts in). Empty when another seat is to act. A bot that asks the server to
    /// leave a `Turn`'s legal actions out (`Omit.legal_actions`) lists them with this.
    pub fn compute_legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.compute_legal_actions_into(&mut out);
        out
    }

    /// [`Observation::compute_legal_actions`] in place of what `out` held (its allocation
    /// kept): for a reader that keeps one observation for a match and writes each `Turn` over
    /// it.
    pub fn compute_legal_actions_into(&self, out: &mut Vec<Action>) {
        if self.public.to_act != Some(self.seat) {
            out.clear();
            return;
        }
        Mover {
            options: &self.public.options,
            knock_limit: self.public.knock_limit,
            phase: self.public.phase,
            hand: self.hand,
            upcard: self.public.discard_pile.last().map(|top| top.card),
        }
        .legal_actions_into(out);
    }
}
