//! The exact meld solver (GR-2, GR-3, GR-7, GR-9): minimum deadwood with every optimal
//! arrangement, the knock check on 11 cards as the minimum over all discards, every arrangement a
//! knocker may lay within a limit, and the defender's best layout with layoffs.
//!
//! Hands are [`CardSet`]s of at most [`MAX_HAND`] cards. The search is a branch-and-bound over
//! *atoms*: sets of 3 or 4 and runs of 3 to 5 cards (a longer run is two or more atoms, and
//! [`Arrangement`] merges them back). At each step it takes the lowest card that can still be in
//! a meld and either leaves it out or puts it in each atom it starts; cards that can be in no meld
//! any more (found with shifts over the 52-bit layout) drop out of the search at once. A random
//! 11-card hand has few such cards, so the knock check is a few dozen nanoseconds on average.
//!
//! ```
//! use cardroom_games::gin::{CardSet, solver};
//! let hand: CardSet = "2S 8S 9S AC 2C 7C 8C 2D 8D 2H".parse().unwrap();
//! let (deadwood, arrangements) = solver::min_deadwood(hand).unwrap();
//! assert_eq!(deadwood, 17);
//! assert_eq!(arrangements.len(), 1);
//! assert_eq!(arrangements[0].to_string(), "[2♣ 2♦ 2♥ 2♠] [8♣ 8♦ 8♠]");
//! ```

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::cardset::{ACES, CardSet, FULL, KINGS, SUIT_BITS, bits_max_value, bits_value};
use crate::card::Card;

/// The most cards the solver takes: a hand after a draw.
pub const MAX_HAND: usize = 11;

/// The most melds in an [`Arrangement`]: four melds need 12 cards.
pub const MAX_MELDS: usize = 3;

/// Bits where a run of three may start: rank index 0 to 10 of each suit.
const RUN3_STARTS: u64 = {
    let suit = (1u64 << 11) - 1;
    suit | suit << 13 | suit << 26 | suit << 39
};

/// Why the solver refuses its input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolverError {
    /// More cards than a hand can hold.
    #[error("GR-4: a hand holds at most {MAX_HAND} cards (10, and 11 after a draw), not {0}")]
    TooManyCards(usize),
    /// An 11-card question about a hand of another size.
    #[error("GR-3: the knock check is for a hand after a draw: 11 cards, not {0}")]
    NotElevenCards(usize),
    /// The knocker's melds and the defender's hand share cards.
    #[error("GR-1: the knocker's melds and the defender's hand share {0}")]
    Overlap(CardSet),
}

/// Why a list of card sets is not an [`Arrangement`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArrangementError {
    /// A set of cards that is neither a set nor a run.
    #[error(
        "GR-2: {0} is not a meld (3 or 4 cards of one rank, or 3 or more of one suit in sequence, ace low)"
    )]
    NotAMeld(CardSet),
    /// A card in two melds.
    #[error("GR-2: a card belongs to at most one meld, but {0} is in two")]
    Overlap(CardSet),
    /// More melds than a hand can hold.
    #[error("GR-2: a hand of at most 11 cards holds at most {MAX_MELDS} melds, not {0}")]
    TooManyMelds(usize),
}

/// Whether the cards form one meld (GR-2): 3 or 4 cards of one rank, or 3 or more cards of one
/// suit in sequence with the ace low (Q-K-A and K-A-2 are not runs).
pub fn is_meld(cards: CardSet) -> bool {
    is_set(cards.bits()) || is_run(cards.bits())
}

fn is_set(bits: u64) -> bool {
    let n = bits.count_ones();
    let ranks = (bits | bits >> 13 | bits >> 26 | bits >> 39) & SUIT_BITS;
    (n == 3 || n == 4) && ranks.count_ones() == 1
}

fn is_run(bits: u64) -> bool {
    if bits.count_ones() < 3 || bits & !FULL != 0 {
        return false;
    }
    let low = bits.trailing_zeros();
    let high = 63 - bits.leading_zeros();
    let span = ((1u64 << (high - low + 1)) - 1) << low;
    low / 13 == high / 13 && bits == span
}

/// The cards of `hand` that are in at least one meld made of cards of `hand`.
#[inline]
fn meldable(hand: u64) -> u64 {
    let starts = hand & (hand >> 1) & (hand >> 2) & RUN3_STARTS;
    let runs = starts | starts << 1 | starts << 2;
    let s0 = hand & SUIT_BITS;
    let s1 = (hand >> 13) & SUIT_BITS;
    let s2 = (hand >> 26) & SUIT_BITS;
    let s3 = (hand >> 39) & SUIT_BITS;
    let three = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3);
    let sets = (three | three << 13 | three << 26 | three << 39) & hand;
    runs | sets
}

/// The atoms (sets of 3 or 4, runs of 3 to 5) of `hand` whose lowest card is bit `c`, which
/// must be the lowest card of `hand`.
#[inline]
fn atoms(c: u32, hand: u64) -> ([u64; 7], usize) {
    let mut out = [0u64; 7];
    let mut n = 0;
    let rank = c % 13;
    if rank <= 10 && (hand >> c) & 0b111 == 0b111 {
        out[n] = 0b111 << c;
        n += 1;
        if rank <= 9 && (hand >> c) & 0b1000 != 0 {
            out[n] = 0b1111 << c;
            n += 1;
            if rank <= 8 && (hand >> c) & 0b10000 != 0 {
                out[n] = 0b11111 << c;
                n += 1;
            }
        }
    }
    let mut others = [0u64; 3];
    let mut k = 0;
    let mut bit = c + 13;
    while bit < 52 {
        if hand & (1 << bit) != 0 {
            others[k] = 1 << bit;
            k += 1;
        }
        bit += 13;
    }
    let base = 1u64 << c;
    match k {
        2 => {
            out[n] = base | others[0] | others[1];
            n += 1;
        }
        3 => {
            out[n] = base | others[0] | others[1] | others[2];
            out[n + 1] = base | others[1] | others[2];
            out[n + 2] = base | others[0] | others[2];
            out[n + 3] = base | others[0] | others[1];
            n += 4;
        }
        _ => {}
    }
    (out, n)
}

/// The highest total value of disjoint melds in `hand`.
fn max_melded(hand: u64) -> u32 {
    let m = meldable(hand);
    if m == 0 {
        return 0;
    }
    let total = bits_value(m);
    let c = m.trailing_zeros();
    let (atoms, n) = atoms(c, m);
    let mut best = 0;
    for &atom in &atoms[..n] {
        let got = bits_value(atom) + max_melded(m & !atom);
        if got > best {
            best = got;
            if best == total {
                return best;
            }
        }
    }
    let without = m & !(1u64 << c);
    if bits_value(without) > best {
        best = best.max(max_melded(without));
    }
    best
}

/// The deadwood of `hand` after its best arrangement.
#[inline]
fn deadwood_bits(hand: u64) -> u32 {
    bits_value(hand) - max_melded(hand)
}

/// Branch and bound for the knock check: the least `value(D) - value(d)` over arrangements with
/// deadwood `D` and discards `d` in `D & allowed`. `rest` holds cards not yet decided, `dead` the
/// cards decided to be deadwood. `best` starts at a bound and only goes down.
fn knock_search(rest: u64, dead: u64, allowed: u64, best: &mut u32) {
    let m = meldable(rest);
    let dead = dead | (rest & !m);
    let dead_value = bits_value(dead);
    let bound = dead_value.saturating_sub(bits_max_value(dead & allowed));
    if bound >= *best {
        return;
    }
    if m == 0 {
        if dead & allowed != 0 {
            *best = bound;
        }
        return;
    }
    let c = m.trailing_zeros();
    let (atoms, n) = atoms(c, m);
    for &atom in &atoms[..n] {
        knock_search(m & !atom, dead, allowed, best);
        if *best == 0 {
            return;
        }
    }
    let cbit = 1u64 << c;
    knock_search(m & !cbit, dead | cbit, allowed, best);
}

/// The least deadwood left after discarding one of the cards of `allowed` from an 11-card
/// `hand`, if that is at most `limit`; `None` if every such discard leaves more.
pub(crate) fn knock_within(hand: CardSet, allowed: CardSet, limit: u32) -> Option<u32> {
    let mut best = limit.saturating_add(1);
    knock_search(hand.bits(), 0, allowed.bits(), &mut best);
    (best <= limit).then_some(best)
}

/// Whether all of `hand` fits into melds.
pub(crate) fn all_melded(hand: CardSet) -> bool {
    let bits = hand.bits();
    // Every card must at least be in some meld before the search is worth running.
    hand.len() <= MAX_HAND && meldable(bits) == bits && deadwood_bits(bits) == 0
}

/// The deadwood of a hand of at most 11 cards after its best arrangement (GR-2). This is the
/// fast path: no arrangement is built.
pub fn deadwood(hand: CardSet) -> Result<u8, SolverError> {
    check_size(hand)?;
    Ok(deadwood_bits(hand.bits()) as u8)
}

fn check_size(hand: CardSet) -> Result<(), SolverError> {
    if hand.len() > MAX_HAND { Err(SolverError::TooManyCards(hand.len())) } else { Ok(()) }
}

/// The minimum deadwood of a hand of at most 11 cards (GR-2) and every arrangement that reaches
/// it, sorted. Arrangements are in canonical form ([`Arrangement`]): runs of one suit that touch
/// are one run.
pub fn min_deadwood(hand: CardSet) -> Result<(u8, Vec<Arrangement>), SolverError> {
    check_size(hand)?;
    let best = deadwood_bits(hand.bits());
    Ok((best as u8, arrangements_within(hand, best)))
}

/// The knock check (GR-3): for a hand of 11 cards, the minimum over every discard of the
/// remaining 10 cards' deadwood.
pub fn knock_deadwood(hand: CardSet) -> Result<u8, SolverError> {
    if hand.len() != 11 {
        return Err(SolverError::NotElevenCards(hand.len()));
    }
    let mut best = u32::MAX;
    knock_search(hand.bits(), 0, hand.bits(), &mut best);
    Ok(best as u8)
}

/// What each discard from an 11-card hand leaves (GR-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Discards {
    /// The least deadwood after a discard: the knock check.
    pub deadwood: u8,
    /// The discards that reach it, in card order.
    pub best: Vec<Card>,
    /// Every card of the hand with the deadwood left after discarding it, best first (ties in
    /// card order).
    pub all: Vec<(Card, u8)>,
}

/// For an 11-card hand, the deadwood left by every discard and the best discards (GR-3).
pub fn best_discards(hand: CardSet) -> Result<Discards, SolverError> {
    if hand.len() != 11 {
        return Err(SolverError::NotElevenCards(hand.len()));
    }
    let mut all: Vec<(Card, u8)> = hand
        .iter()
        .map(|card| (card, deadwood_bits((hand - CardSet::single(card)).bits()) as u8))
        .collect();
    all.sort_by_key(|&(card, deadwood)| (deadwood, CardSet::bit(card)));
    let deadwood = all.first().map_or(0, |&(_, d)| d);
    let best = all.iter().filter(|&&(_, d)| d == deadwood).map(|&(card, _)| card).collect();
    Ok(Discards { deadwood, best, all })
}

/// Every arrangement of a hand of at most 11 cards whose deadwood is at most `limit` (GR-7: the
/// arrangements a knocker holding these cards after the discard may lay), sorted, in canonical
/// form. Arrangements that leave meldable cards out are included: the rules let the knocker lay
/// any arrangement within the limit.
pub fn knock_arrangements(hand: CardSet, limit: u8) -> Result<Vec<Arrangement>, SolverError> {
    check_size(hand)?;
    Ok(arrangements_within(hand, u32::from(limit)))
}

pub(crate) fn arrangements_within(hand: CardSet, limit: u32) -> Vec<Arrangement> {
    let mut out = Vec::new();
    let mut stack = Stack::default();
    enumerate(hand.bits(), 0, limit, &mut stack, &mut out);
    out.sort_unstable();
    out.dedup();
    out
}

/// Up to three atoms chosen so far.
#[derive(Default)]
struct Stack {
    atoms: [u64; MAX_MELDS],
    len: usize,
}

impl Stack {
    fn push(&mut self, atom: u64) -> bool {
        if self.len == MAX_MELDS {
            return false;
        }
        self.atoms[self.len] = atom;
        self.len += 1;
        true
    }

    fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    fn arrangement(&self) -> Arrangement {
        Arrangement::canonical(&self.atoms[..self.len])
    }
}

fn enumerate(
    rest: u64,
    dead_value: u32,
    limit: u32,
    stack: &mut Stack,
    out: &mut Vec<Arrangement>,
) {
    let m = meldable(rest);
    let dead_value = dead_value + bits_value(rest & !m);
    if dead_value > limit {
        return;
    }
    if m == 0 {
        out.push(stack.arrangement());
        return;
    }
    let c = m.trailing_zeros();
    let (atoms, n) = atoms(c, m);
    for &atom in &atoms[..n] {
        if stack.push(atom) {
            enumerate(m & !atom, dead_value, limit, stack, out);
            stack.pop();
        }
    }
    let cbit = 1u64 << c;
    enumerate(m & !cbit, dead_value + bits_value(cbit), limit, stack, out);
}

/// The melds a player lays out: at most three disjoint melds (GR-2), in canonical form.
///
/// Canonical form merges runs of one suit that touch (4♠5♠6♠ and 7♠8♠9♠ are the run 4♠…9♠:
/// splitting a run never changes what can be laid off on it, GR-9), and lists the melds by their
/// first card. Every `Arrangement` value is canonical, so two equal arrangements are equal
/// values. Serde writes a list of melds, each a list of card codes.
#[derive(Copy, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Arrangement {
    melds: [CardSet; MAX_MELDS],
}

impl Arrangement {
    /// No melds.
    pub const EMPTY: Arrangement = Arrangement { melds: [CardSet::EMPTY; MAX_MELDS] };

    /// The arrangement of these melds, checked (GR-2) and put in canonical form.
    pub fn new(melds: &[CardSet]) -> Result<Arrangement, ArrangementError> {
        let mut seen = CardSet::EMPTY;
        for &meld in melds {
            if !is_meld(meld) {
                return Err(ArrangementError::NotAMeld(meld));
            }
            if !meld.is_disjoint(seen) {
                return Err(ArrangementError::Overlap(meld & seen));
            }
            seen |= meld;
        }
        let bits: Vec<u64> = melds.iter().map(|meld| meld.bits()).collect();
        let merged = merge_runs(&bits);
        if merged.len() > MAX_MELDS {
            return Err(ArrangementError::TooManyMelds(merged.len()));
        }
        Ok(Arrangement::from_merged(&merged))
    }

    /// From valid, disjoint atoms (at most three).
    fn canonical(atoms: &[u64]) -> Arrangement {
        Arrangement::from_merged(&merge_runs(atoms))
    }

    fn from_merged(merged: &[u64]) -> Arrangement {
        let mut melds = [CardSet::EMPTY; MAX_MELDS];
        for (slot, &bits) in melds.iter_mut().zip(merged) {
            *slot = CardSet::from_bits(bits).unwrap_or_default();
        }
        let n = merged.len().min(MAX_MELDS);
        melds[..n].sort_unstable_by_key(|meld| meld.bits().trailing_zeros());
        Arrangement { melds }
    }

    /// The melds, in canonical order.
    pub fn melds(&self) -> impl Iterator<Item = CardSet> + '_ {
        self.melds.iter().copied().filter(|meld| !meld.is_empty())
    }

    /// The melds as a fixed array (empty sets after the last meld).
    pub const fn as_array(&self) -> [CardSet; MAX_MELDS] {
        self.melds
    }

    /// How many melds.
    pub fn len(&self) -> usize {
        self.melds().count()
    }

    /// Whether there are no melds.
    pub fn is_empty(&self) -> bool {
        self.melds[0].is_empty()
    }

    /// Every card in a meld.
    pub fn cards(&self) -> CardSet {
        self.melds[0] | self.melds[1] | self.melds[2]
    }
}

/// Merges runs of one suit that touch, until none do. The input melds are valid and disjoint.
fn merge_runs(melds: &[u64]) -> Vec<u64> {
    let mut out: Vec<u64> = melds.iter().copied().filter(|&m| m != 0).collect();
    'again: loop {
        for i in 0..out.len() {
            for j in 0..out.len() {
                let (a, b) = (out[i], out[j]);
                if i == j || !is_run(a) || !is_run(b) {
                    continue;
                }
                let top = 63 - a.leading_zeros();
                let bottom = b.trailing_zeros();
                if top + 1 == bottom && bottom % 13 != 0 {
                    out[i] = a | b;
                    out.remove(j);
                    continue 'again;
                }
            }
        }
        return out;
    }
}

impl fmt::Display for Arrangement {
    /// Each meld in brackets, such as `[A♠ 2♠ 3♠] [5♣ 5♦ 5♥]`; `no melds` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("no melds");
        }
        for (i, meld) in self.melds().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "[{meld}]")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Arrangement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.melds()).finish()
    }
}

impl Serialize for Arrangement {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.melds())
    }
}

impl<'de> Deserialize<'de> for Arrangement {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Arrangement, D::Error> {
        let melds = Vec::<CardSet>::deserialize(deserializer)?;
        Arrangement::new(&melds).map_err(serde::de::Error::custom)
    }
}

/// How the defender lays out after a knock (GR-9): their own melds, the cards they lay off on
/// the knocker's melds, and what is left.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Layout {
    /// The defender's own melds.
    pub melds: Arrangement,
    /// Every card laid off on the knocker's melds.
    pub layoffs: CardSet,
    /// The cards laid off on each of the knocker's melds, in the order of
    /// [`Arrangement::melds`] (cards between two runs of one suit go to the lower run).
    pub onto: [CardSet; MAX_MELDS],
    /// The cards left over.
    pub deadwood_cards: CardSet,
    /// Their value: the defender's deadwood `D` of GR-12.
    pub deadwood: u8,
}

impl fmt::Display for Layout {
    /// Such as `melds [5♣ 5♦ 5♥], laid off 8♠, deadwood 7 (3♦ 4♥)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "melds {}, ", self.melds)?;
        if self.layoffs.is_empty() {
            f.write_str("nothing laid off, ")?;
        } else {
            write!(f, "laid off {}, ", self.layoffs)?;
        }
        write!(f, "deadwood {}", self.deadwood)?;
        if !self.deadwood_cards.is_empty() {
            write!(f, " ({})", self.deadwood_cards)?;
        }
        Ok(())
    }
}

/// What can be laid off on the knocker's melds.
struct Targets {
    /// Cards of the knocker's runs: layoffs grow from them.
    runs: u64,
    /// The missing fourth card of each of the knocker's three-card sets.
    fourths: u64,
}

impl Targets {
    fn new(knocker: &Arrangement) -> Targets {
        let mut runs = 0;
        let mut fourths = 0;
        for meld in knocker.melds() {
            let bits = meld.bits();
            if is_run(bits) {
                runs |= bits;
            } else if bits.count_ones() == 3 {
                let rank = u64::from(bits.trailing_zeros() % 13);
                let all = (1u64 << rank) * (1 | 1 << 13 | 1 << 26 | 1 << 39);
                fourths |= all & !bits;
            }
        }
        Targets { runs, fourths }
    }

    /// The largest set of cards of `rest` that can be laid off: every card joined to one of the
    /// knocker's runs through cards of `rest` of its suit (chained extensions), and the fourth
    /// cards of three-card sets. Any set of valid layoffs is valid together, so this is the
    /// unique largest one.
    #[inline]
    fn layoffs(&self, rest: u64) -> u64 {
        let mut reach = self.runs;
        loop {
            let grow = (((reach << 1) & !ACES) | ((reach >> 1) & !KINGS)) & rest & !reach;
            if grow == 0 {
                break;
            }
            reach |= grow;
        }
        (reach & rest) | (self.fourths & rest)
    }
}

struct DefenderSearch<'a> {
    targets: &'a Targets,
    best_deadwood: u32,
    best_melds: [u64; MAX_MELDS],
    best_len: usize,
    best_layoffs: u64,
    stack: Stack,
}

impl DefenderSearch<'_> {
    fn search(&mut self, undecided: u64, rest: u64) {
        if self.best_deadwood == 0 {
            return;
        }
        let m = meldable(undecided);
        let rest = rest | (undecided & !m);
        if m == 0 {
            let layoffs = self.targets.layoffs(rest);
            let deadwood = bits_value(rest & !layoffs);
            if deadwood < self.best_deadwood {
                self.best_deadwood = deadwood;
                self.best_melds = self.stack.atoms;
                self.best_len = self.stack.len;
                self.best_layoffs = layoffs;
            }
            return;
        }
        let c = m.trailing_zeros();
        let (atoms, n) = atoms(c, m);
        for &atom in &atoms[..n] {
            if self.stack.push(atom) {
                self.search(m & !atom, rest);
                self.stack.pop();
            }
        }
        let cbit = 1u64 << c;
        self.search(m & !cbit, rest | cbit);
    }
}

/// The defender's best layout after a knock with `knocker`'s melds (GR-9): the defender's own
/// melds and layoffs (chained run extensions included) that leave the least deadwood. Among
/// layouts with that deadwood the first found is returned, which prefers own melds to layoffs
/// and is the same on every run. Pass [`Arrangement::EMPTY`] after gin, where nothing is laid
/// off.
pub fn defender_layout(knocker: &Arrangement, defender: CardSet) -> Result<Layout, SolverError> {
    check_size(defender)?;
    let shared = knocker.cards() & defender;
    if !shared.is_empty() {
        return Err(SolverError::Overlap(shared));
    }
    Ok(layout(knocker, defender))
}

pub(crate) fn layout(knocker: &Arrangement, defender: CardSet) -> Layout {
    let targets = Targets::new(knocker);
    let mut search = DefenderSearch {
        targets: &targets,
        best_deadwood: u32::MAX,
        best_melds: [0; MAX_MELDS],
        best_len: 0,
        best_layoffs: 0,
        stack: Stack::default(),
    };
    search.search(defender.bits(), 0);
    let melds = Arrangement::canonical(&search.best_melds[..search.best_len]);
    let layoffs = CardSet::from_bits(search.best_layoffs).unwrap_or_default();
    let deadwood_cards = defender - melds.cards() - layoffs;
    Layout {
        melds,
        layoffs,
        onto: assign_layoffs(knocker, layoffs.bits()),
        deadwood_cards,
        deadwood: deadwood_cards.value() as u8,
    }
}

/// Which of the knocker's melds each laid-off card goes on: runs in order take the cards joined
/// to them below, then above; three-card sets take their fourth card if no run took it.
fn assign_layoffs(knocker: &Arrangement, layoffs: u64) -> [CardSet; MAX_MELDS] {
    let mut onto = [CardSet::EMPTY; MAX_MELDS];
    let mut left = layoffs;
    for (slot, meld) in onto.iter_mut().zip(knocker.as_array()) {
        let bits = meld.bits();
        if !is_run(bits) {
            continue;
        }
        let mut taken = 0;
        let mut down = bits.trailing_zeros();
        while down % 13 != 0 && left & (1 << (down - 1)) != 0 {
            down -= 1;
            taken |= 1 << down;
        }
        let mut up = 63 - bits.leading_zeros();
        while up % 13 != 12 && left & (1 << (up + 1)) != 0 {
            up += 1;
            taken |= 1 << up;
        }
        left &= !taken;
        *slot = CardSet::from_bits(taken).unwrap_or_default();
    }
    for (slot, meld) in onto.iter_mut().zip(knocker.as_array()) {
        let bits = meld.bits();
        if bits.count_ones() == 3 && is_set(bits) {
            let rank = u64::from(bits.trailing_zeros() % 13);
            let fourth = ((1u64 << rank) * (1 | 1 << 13 | 1 << 26 | 1 << 39)) & !bits & left;
            left &= !fourth;
            *slot = CardSet::from_bits(fourth).unwrap_or_default();
        }
    }
    onto
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn set(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    #[test]
    fn meldable_finds_runs_and_sets_but_not_around_the_corner() {
        assert_eq!(meldable(set("QS KS AS").bits()), 0);
        assert_eq!(meldable(set("KC AD 2D").bits()), 0);
        assert_eq!(meldable(set("KS AS 2S").bits()), 0);
        assert_eq!(meldable(set("AS 2S 3S 9H").bits()), set("AS 2S 3S").bits());
        assert_eq!(meldable(set("7S 7H 7D 9H").bits()), set("7S 7H 7D").bits());
        assert_eq!(meldable(set("7S 7H 9H").bits()), 0);
    }

    #[test]
    fn merging_runs_gives_one_canonical_form() {
        let split = Arrangement::new(&[set("7S 8S 9S"), set("4S 5S 6S")]).unwrap();
        let whole = Arrangement::new(&[set("4S 5S 6S 7S 8S 9S")]).unwrap();
        assert_eq!(split, whole);
        assert_eq!(whole.len(), 1);
        let kings_and_aces = Arrangement::new(&[set("JC QC KC"), set("AD 2D 3D")]).unwrap();
        assert_eq!(kings_and_aces.len(), 2);
        assert!(Arrangement::new(&[set("QS KS AS")]).is_err());
        assert!(Arrangement::new(&[set("4S 5S 6S"), set("6S 6H 6D")]).is_err());
    }
}
