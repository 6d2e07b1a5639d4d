//! The order test: a confidence set over the orders of a small field, which settles a ladder's
//! order without testing every pair at `alpha / (K (K - 1) / 2)`.
//!
//! [`crate::pairwise`]'s test claims "every bot is better than the next" once each adjacent
//! pair passes its own betting test at `alpha` divided by the number of pairs (a union bound:
//! the data choose which pairs are adjacent). This test asks instead, of every order `σ` of the
//! `K` bots, whether the data reject it. If `σ` is the truth (each bot better than every bot
//! below it: its expected score against it above ½), then every lower bot's score against a
//! higher one has expected value at most ½, so a gambler who, on every set, stakes on lower
//! bots beating higher ones makes a nonnegative supermartingale of their wealth: by Ville's
//! inequality it ever reaches `1 / alpha` with probability at most `alpha`. Each order has its
//! own gambler, tested at `alpha` itself; the order `π` is *settled* once every other order is
//! rejected. The error rate is `alpha` whenever the bots' head-to-head is a true order (no
//! cycle): if `π` is wrong, the true order was rejected, which happens with probability at most
//! `alpha`, however the ladder chose its tables and whenever it looked.
//!
//! Why it gains: an order that differs from `π` only by swapping the closest pair is rejected
//! by that pair's evidence alone, at `1 / alpha` (20) instead of the union bound's
//! `K (K - 1) / 2 / alpha` (200 with five bots), and the closest pair is what costs the
//! matches. Every order that differs from `π` puts some bot of `π` below the next one of `π`
//! (else it would be `π`): those are the pairs still open while such an order stands.
//!
//! The bets: on a set, order `σ`'s wealth is multiplied by `1 + Σ λ (x - ½)` over the pairs
//! that sat together, `x` the bot lower in `σ`'s score against the higher in the set (in
//! `0..=1`), `λ` a stake fixed from the sets before (predictable, so the bet stays fair): the
//! same mixture as the pairwise test's, ten fixed stakes ([`STAKES`], bet only on pairs whose
//! earlier samples, if any, lean that way) and the growth-optimal plug-in stake, their sum
//! capped at [`STAKES`]`[0]` so that every factor stays positive. It needs every order of the
//! bots (`K!`), so it is for fields of at most [`MAX_BOTS`] bots.

use serde::Serialize;

use crate::pairwise::{ADAPTIVE_AFTER, LogWealth, PairTable, STAKES, adaptive_stake, mixed};

/// The most bots the order test takes: `8! = 40,320` orders, each with its own wealth (3.5 MB
/// of it). A set costs a pass over every order, but no order's bets are worked out on its own:
/// a set's bets on an order depend only on how it ranks the bots that sat together, so they are
/// worked out once for each of those rankings (24 at a four-seat table) and added to every
/// order with that ranking. Some 0.5 ms a set at eight bots (BENCHMARKS.md, "Settlement").
pub const MAX_BOTS: usize = 8;

/// The evidence against every order of a small field (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq)]
pub struct OrderTest {
    bots: usize,
    /// How its gamblers stake.
    betting: Betting,
    /// Each bot's place (0 first) in every order of the bots, `bots` entries an order, the
    /// orders in [`permutations`]' (lexicographic) sequence, one after the other.
    places: Vec<u8>,
    /// The logarithms of each order's gamblers' wealth, by the order's number in that sequence
    /// ([`lexicographic_rank`]).
    wealth: Vec<LogWealth>,
}

/// The stakes of one set on the lower bot of `(upper, lower)` beating the upper, and that
/// lower bot's score less ½.
#[derive(Copy, Clone, Debug)]
struct Bet {
    excess: f64,
    stakes: LogWealth,
}

impl OrderTest {
    /// No evidence yet among `bots` bots, staking by [`Betting::default`]; `None` for more
    /// than [`MAX_BOTS`].
    pub fn new(bots: usize) -> Option<OrderTest> {
        OrderTest::with_betting(bots, Betting::default())
    }

    /// No evidence yet among `bots` bots, staking by `betting`; `None` for more than
    /// [`MAX_BOTS`].
    pub fn with_betting(bots: usize, betting: Betting) -> Option<OrderTest> {
        if bots > MAX_BOTS {
            return None;
        }
        let all = permutations(bots);
        let mut places = vec![0u8; all.len() * bots];
        for (i, order) in all.iter().enumerate() {
            for (place, &bot) in order.iter().enumerate() {
                // At most MAX_BOTS (8) places: they fit a byte.
                places[i * bots + bot] = place as u8;
            }
        }
        let wealth = vec![[0.0; STAKES.len() + 1]; all.len()];
        Some(OrderTest { bots, betting, places, wealth })
    }

    /// The bots of the field.
    pub fn bots(&self) -> usize {
        self.bots
    }

    /// The same evidence over one more bot, put at index `at` (the bots from `at` on move up
    /// one), who has sat in no set yet: no replay of the sets, since a set's bets on an order
    /// depend only on how it ranks the set's bots, so every order of the larger field has the
    /// wealth of the order of this one it leaves when the new bot is taken out. `None` past
    /// [`MAX_BOTS`].
    pub fn with_bot_at(&self, at: usize) -> Option<OrderTest> {
        let k = self.bots + 1;
        let at = at.min(self.bots);
        let mut grown = OrderTest::with_betting(k, self.betting)?;
        let mut order = vec![0; k];
        let mut without = Vec::with_capacity(self.bots);
        for (places, wealth) in grown.places.chunks_exact(k).zip(&mut grown.wealth) {
            for (bot, &place) in places.iter().enumerate() {
                order[usize::from(place)] = bot;
            }
            without.clear();
            without.extend(
                order.iter().filter(|&&b| b != at).map(|&b| if b > at { b - 1 } else { b }),
            );
            *wealth = self.wealth[lexicographic_rank(&without)];
        }
        Some(grown)
    }

    /// Every order, as its bots' places, with its wealth.
    fn each(&self) -> impl Iterator<Item = (&[u8], &LogWealth)> {
        self.places.chunks_exact(self.bots.max(1)).zip(&self.wealth)
    }

    /// The number of `order` among this field's orders; `None` if it is not one.
    fn number(&self, order: &[usize]) -> Option<usize> {
        let mut seen = vec![false; self.bots];
        let is_order = order.len() == self.bots
            && order.iter().all(|&bot| bot < self.bots && !std::mem::replace(&mut seen[bot], true));
        is_order.then(|| lexicographic_rank(order))
    }

    /// Bets on one set: `samples` holds `(a, b, x)`, `a`'s score `x` (in `0..=1`) against `b`,
    /// for every two bots that sat together in it; `before` is the head-to-head evidence of
    /// the sets before this one (the stakes' source, so that each bet is fixed before its
    /// outcome). Call it before adding the set to `before`.
    pub fn add_set(&mut self, before: &PairTable, samples: &[(usize, usize, f64)]) {
        let k = self.bots;
        // bets[upper * k + lower]: betting that `lower`, below `upper` in an order, is better.
        let mut bets: Vec<Option<Bet>> = vec![None; k * k];
        // The pairs bet on, `a < b`, each once.
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for &(a, b, x) in samples {
            if a == b || a >= k || b >= k {
                continue;
            }
            let x = x.clamp(0.0, 1.0);
            // `b` over `a` in the order, bet on `a` better; and the other way round.
            let betting = self.betting;
            bets[b * k + a] = Some(Bet { excess: x - 0.5, stakes: stakes(before, a, b, betting) });
            bets[a * k + b] = Some(Bet { excess: 0.5 - x, stakes: stakes(before, b, a, betting) });
            pairs.push((a.min(b), a.max(b)));
        }
        pairs.sort_unstable();
        pairs.dedup();
        // At most 28 pairs among eight bots: an order's ranking of them is a bit each (set
        // when the pair's second bot is above its first), and its gains are worked out the
        // first time an order ranks them that way.
        let gains_of = |ranking: u32| -> LogWealth {
            let placed: Vec<&Bet> = pairs
                .iter()
                .enumerate()
                .filter_map(|(i, &(a, b))| {
                    let (upper, lower) = if ranking >> i & 1 == 1 { (b, a) } else { (a, b) };
                    bets[upper * k + lower].as_ref()
                })
                .collect();
            let mut gains = [0.0; STAKES.len() + 1];
            for (i, g) in gains.iter_mut().enumerate() {
                let total: f64 = placed.iter().map(|b| b.stakes[i]).sum();
                let scale = if total > STAKES[0] { STAKES[0] / total } else { 1.0 };
                let gain: f64 = placed.iter().map(|b| b.stakes[i] * scale * b.excess).sum();
                // Each excess is at least -½ and the stakes sum to at most 1.8: above 0.1.
                *g = gain.ln_1p();
            }
            gains
        };
        // Up to four seats (six pairs) a ranking indexes a table of 64; past that, a map.
        let mut dense: Vec<Option<LogWealth>> =
            if pairs.len() <= 6 { vec![None; 1 << pairs.len()] } else { Vec::new() };
        let mut sparse: std::collections::HashMap<u32, LogWealth> = Default::default();
        for (places, wealth) in self.places.chunks_exact(k.max(1)).zip(&mut self.wealth) {
            let ranking = pairs
                .iter()
                .enumerate()
                .fold(0u32, |r, (i, &(a, b))| r | u32::from(places[b] < places[a]) << i);
            let gains = match dense.get_mut(ranking as usize) {
                Some(slot) => slot.get_or_insert_with(|| gains_of(ranking)),
                None => sparse.entry(ranking).or_insert_with(|| gains_of(ranking)),
            };
            for (w, g) in wealth.iter_mut().zip(gains.iter()) {
                *w += g;
            }
        }
    }

    /// Whether the data reject `order` (a permutation of the bots) at `alpha`; `false` for
    /// anything that is not an order of this field.
    pub fn rejected(&self, order: &[usize], alpha: f64) -> bool {
        self.number(order).is_some_and(|i| reaches(&self.wealth[i], (1.0 / alpha).ln()))
    }

    /// For each adjacent pair of `order`, whether some other order not rejected at `alpha`
    /// puts its lower bot above its upper one: the pairs still open. `order` is settled when
    /// none is.
    pub fn open_pairs(&self, order: &[usize], alpha: f64) -> Vec<bool> {
        let k = self.bots;
        let threshold = (1.0 / alpha).ln();
        let mut open = vec![false; order.len().saturating_sub(1)];
        let own = self.number(order);
        for (number, (places, wealth)) in self.each().enumerate() {
            if own == Some(number) || reaches(wealth, threshold) {
                continue;
            }
            for (i, w) in order.windows(2).enumerate() {
                if w[0] < k && w[1] < k && places[w[1]] < places[w[0]] {
                    open[i] = true;
                }
            }
        }
        open
    }

    /// Rank intervals at `alpha` for the whole table, by bot: each bot's best and worst rank
    /// (1 first) over `order` and every order not rejected. The true order is among those
    /// with probability at least `1 - alpha`, so every bot's true rank is in its interval at
    /// once with that probability.
    pub fn rank_intervals(&self, order: &[usize], alpha: f64) -> Vec<(usize, usize)> {
        let threshold = (1.0 / alpha).ln();
        let mut intervals = vec![(usize::MAX, 0); self.bots];
        let mut widen = |p: usize, bot: usize| {
            if let Some((lo, hi)) = intervals.get_mut(bot) {
                *lo = (*lo).min(p + 1);
                *hi = (*hi).max(p + 1);
            }
        };
        for (places, _) in self.each().filter(|(_, w)| !reaches(w, threshold)) {
            for (bot, &p) in places.iter().enumerate() {
                widen(usize::from(p), bot);
            }
        }
        for (p, &bot) in order.iter().enumerate() {
            widen(p, bot);
        }
        intervals
    }

    /// Whether `order` is settled at `alpha`: every other order is rejected.
    pub fn settled(&self, order: &[usize], alpha: f64) -> bool {
        order.len() == self.bots && self.open_pairs(order, alpha).iter().all(|&o| !o)
    }
}

/// Whether the mixture of `wealth` ([`mixed`]) reaches `threshold`, without its logarithm and
/// exponentials where a bound decides: the mixture is at most the largest of its parts (its
/// weights sum to 1) and at least any part times that part's weight.
fn reaches(wealth: &LogWealth, threshold: f64) -> bool {
    let top = wealth.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if top < threshold {
        return false;
    }
    let grid_weight = (0.5 / STAKES.len() as f64).ln();
    let floor = wealth
        .iter()
        .enumerate()
        .map(|(i, w)| w + if i < STAKES.len() { grid_weight } else { 0.5f64.ln() })
        .fold(f64::NEG_INFINITY, f64::max);
    floor >= threshold || mixed(wealth) >= threshold
}

/// How an order's gamblers stake (see the [module docs](self)): either way, every stake is
/// fixed from the sets before (predictable), so the order test keeps its error rate.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Betting {
    /// Half the wealth on the growth-optimal plug-in stake, half shared by that stake times
    /// each of [`KELLY_FRACTIONS`] (a hedge against the plug-in's early errors): the default.
    #[default]
    KellyFractions,
    /// The pairwise test's mixture: half on the plug-in stake, half shared by the fixed
    /// stakes of [`STAKES`] (the order test's bets until this session, kept for the power
    /// table).
    FixedGrid,
}

/// The multiples of the plug-in stake that [`Betting::KellyFractions`] also bets, a geometric
/// grid from 2 down to ¼: the plug-in's first estimates of a pair's edge and variance are
/// noisy, and a mixture over its multiples loses little where it is right and much less where
/// it is not.
pub const KELLY_FRACTIONS: [f64; STAKES.len()] =
    [2.0, 1.59, 1.26, 1.0, 0.794, 0.630, 0.5, 0.397, 0.315, 0.25];

/// The stakes on `a` being better than `b` from the evidence `before`, by `betting`:
///
/// - [`Betting::FixedGrid`]: each fixed stake of [`STAKES`] unless `a`'s earlier scores
///   against `b` average ½ or less (so that the pairs an order has right do not dilute the
///   bets on those it has wrong), and last the growth-optimal plug-in stake once there are
///   [`ADAPTIVE_AFTER`] samples;
/// - [`Betting::KellyFractions`]: from [`ADAPTIVE_AFTER`] samples on, the plug-in stake times
///   each of [`KELLY_FRACTIONS`], and last the plug-in stake itself (none before: nothing is
///   known of the pair yet; none against the earlier scores' lean, as the plug-in is 0 there).
fn stakes(before: &PairTable, a: usize, b: usize, betting: Betting) -> LogWealth {
    let t = before.tally(a, b);
    let edge = t.mean(0.0) - 0.5;
    let mut out = [0.0; STAKES.len() + 1];
    if betting == Betting::FixedGrid && (t.n == 0 || edge > 0.0) {
        out[..STAKES.len()].copy_from_slice(&STAKES);
    }
    if t.n >= ADAPTIVE_AFTER {
        let plug_in = adaptive_stake(edge, t.variance(0.0), 1.0).min(STAKES[0]);
        out[STAKES.len()] = plug_in;
        if betting == Betting::KellyFractions {
            for (stake, fraction) in out.iter_mut().zip(KELLY_FRACTIONS) {
                *stake = (plug_in * fraction).min(STAKES[0]);
            }
        }
    }
    out
}

/// The place of `order` (an order of `0..n`) in [`permutations`]`(n)`: its Lehmer code read in
/// the factorial base.
fn lexicographic_rank(order: &[usize]) -> usize {
    let n = order.len();
    let mut rank = 0;
    for (i, &x) in order.iter().enumerate() {
        let smaller_after = order[i + 1..].iter().filter(|&&y| y < x).count();
        rank = rank * (n - i) + smaller_after;
    }
    rank
}

/// Every order of `0..n`, in lexicographic order.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    let mut current: Vec<usize> = (0..n).collect();
    let mut all = vec![current.clone()];
    // The next lexicographic permutation, until the last.
    loop {
        let Some(i) = (1..n).rev().find(|&i| current[i - 1] < current[i]) else {
            return all;
        };
        let j = (i..n).rev().find(|&j| current[j] > current[i - 1]).unwrap_or(i);
        current.swap(i - 1, j);
        current[i..].reverse();
        all.push(current.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duplicate::derive_seed;

    fn uniform(seed: u64, i: u64) -> f64 {
        (derive_seed(seed, i) >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn permutations_are_every_order_once() {
        let all = permutations(4);
        assert_eq!(all.len(), 24);
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 24);
        assert_eq!(permutations(1), vec![vec![0]]);
        assert!(OrderTest::new(MAX_BOTS + 1).is_none());
        let eight = OrderTest::new(MAX_BOTS).unwrap_or_else(|| unreachable!());
        assert_eq!(eight.wealth.len(), 40_320);
    }

    /// When each test first settles, over up to `sets` sets among `k` bots at tables of `k`
    /// (bot `a` beats bot `b` with probability `p(a, b)`, else loses): the order test's set
    /// and the order it settled on, and the union bound's set.
    fn race(
        k: usize,
        sets: u64,
        seed: u64,
        p: impl Fn(usize, usize) -> f64,
    ) -> (Option<(u64, Vec<usize>)>, Option<u64>) {
        let win = |a: usize, b: usize, u: f64| if u < p(a, b) { 1.0 } else { 0.0 };
        race_scored(k, sets, seed, Betting::default(), win)
    }

    /// [`race`] with `betting`'s stakes and each sample `score(a, b, u)` for a uniform `u`.
    fn race_scored(
        k: usize,
        sets: u64,
        seed: u64,
        betting: Betting,
        score: impl Fn(usize, usize, f64) -> f64,
    ) -> (Option<(u64, Vec<usize>)>, Option<u64>) {
        let mut test = OrderTest::with_betting(k, betting).unwrap_or_else(|| unreachable!());
        let mut pairs = PairTable::new(k);
        let (mut by_orders, mut by_union) = (None, None);
        for s in 0..sets {
            let mut samples = Vec::new();
            for a in 0..k {
                for b in a + 1..k {
                    let u = uniform(seed, s * 100 + (a * k + b) as u64);
                    samples.push((a, b, score(a, b, u)));
                }
            }
            test.add_set(&pairs, &samples);
            for &(a, b, x) in &samples {
                pairs.add(a, b, x, 0.0);
            }
            let order = pairs.order(0.0, &[]);
            if by_orders.is_none() && test.settled(&order, 0.05) {
                by_orders = Some((s, order.clone()));
            }
            if by_union.is_none() && pairs.settled(&order, 0.0, 0.05) {
                by_union = Some(s);
            }
            if by_orders.is_some() && by_union.is_some() {
                break;
            }
        }
        (by_orders, by_union)
    }

    /// The bets of one set on one order, worked out on their own: what `add_set` did for
    /// every order before it shared the work among orders that rank a set's bots alike.
    fn one_order_gains(
        k: usize,
        before: &PairTable,
        samples: &[(usize, usize, f64)],
        order: &[usize],
    ) -> LogWealth {
        let mut bets: Vec<Option<Bet>> = vec![None; k * k];
        for &(a, b, x) in samples {
            let betting = Betting::default();
            bets[b * k + a] = Some(Bet { excess: x - 0.5, stakes: stakes(before, a, b, betting) });
            bets[a * k + b] = Some(Bet { excess: 0.5 - x, stakes: stakes(before, b, a, betting) });
        }
        let placed: Vec<&Bet> = order
            .iter()
            .enumerate()
            .flat_map(|(i, &upper)| order[i + 1..].iter().map(move |&lower| (upper, lower)))
            .filter_map(|(upper, lower)| bets[upper * k + lower].as_ref())
            .collect();
        let mut gains = [0.0; STAKES.len() + 1];
        for (i, g) in gains.iter_mut().enumerate() {
            let total: f64 = placed.iter().map(|b| b.stakes[i]).sum();
            let scale = if total > STAKES[0] { STAKES[0] / total } else { 1.0 };
            *g = placed.iter().map(|b| b.stakes[i] * scale * b.excess).sum::<f64>().ln_1p();
        }
        gains
    }

    #[test]
    fn a_bot_added_keeps_every_order_s_wealth_without_a_replay() {
        // Five bots, forty sets at four-seat tables; then a sixth bot, put in the middle of
        // the field's indices, and twenty sets more with it: the grown test equals one that
        // had the six bots from the start.
        let sets: Vec<Vec<(usize, usize, f64)>> = (0..60u64)
            .map(|s| {
                let k = if s < 40 { 5 } else { 6 };
                let table: Vec<usize> = (0..4).map(|i| (s as usize * 3 + i) % k).collect();
                let mut samples = Vec::new();
                for (i, &a) in table.iter().enumerate() {
                    for &b in &table[i + 1..] {
                        let u = uniform(s, (a * 8 + b) as u64);
                        samples.push((a, b, if (u < 0.7) == (a < b) { 1.0 } else { 0.0 }));
                    }
                }
                samples
            })
            .collect();
        // The new bot is index 2 of six; in the five-bot field's indices, bots 2, 3 and 4 are
        // 3, 4 and 5 of the six.
        let widen = |b: usize| if b >= 2 { b + 1 } else { b };
        let mut small = OrderTest::new(5).unwrap_or_else(|| unreachable!());
        let mut small_pairs = PairTable::new(5);
        let mut whole = OrderTest::new(6).unwrap_or_else(|| unreachable!());
        let mut whole_pairs = PairTable::new(6);
        for (s, samples) in sets.iter().enumerate() {
            // Sets 40 on are in the six bots' indices; the sets before, in the five's.
            let wide: Vec<(usize, usize, f64)> = if s < 40 {
                samples.iter().map(|&(a, b, x)| (widen(a), widen(b), x)).collect()
            } else {
                samples.clone()
            };
            whole.add_set(&whole_pairs, &wide);
            for &(a, b, x) in &wide {
                whole_pairs.add(a, b, x, 0.0);
            }
            if s < 40 {
                small.add_set(&small_pairs, samples);
                for &(a, b, x) in samples {
                    small_pairs.add(a, b, x, 0.0);
                }
            }
            if s == 39 {
                small = small.with_bot_at(2).unwrap_or_else(|| unreachable!());
                small_pairs = whole_pairs.clone();
            }
            if s >= 40 {
                small.add_set(&small_pairs, samples);
                for &(a, b, x) in samples {
                    small_pairs.add(a, b, x, 0.0);
                }
            }
        }
        assert_eq!(small, whole);
        assert!(whole.wealth.iter().any(|w| w.iter().any(|&x| x > 1.0)), "the bets paid");
        let eight = OrderTest::new(MAX_BOTS).unwrap_or_else(|| unreachable!());
        assert!(eight.with_bot_at(0).is_none(), "no ninth bot");
    }

    #[test]
    fn ranks_are_places_in_the_list_of_orders() {
        for (i, order) in permutations(5).iter().enumerate() {
            assert_eq!(lexicographic_rank(order), i);
        }
    }

    #[test]
    fn every_order_gains_what_its_own_bets_pay() {
        // Six bots at tables of two, four and six, fifty sets: every order's wealth is the sum
        // of what its own bets paid, set by set.
        let k = 6;
        let mut test = OrderTest::new(k).unwrap_or_else(|| unreachable!());
        let mut expected = test.wealth.clone();
        let mut pairs = PairTable::new(k);
        for s in 0..50u64 {
            let seated = [2, 4, 6][s as usize % 3];
            let first = derive_seed(7, s) as usize % k;
            let table: Vec<usize> = (0..seated).map(|i| (first + i * 5) % k).collect();
            let mut samples = Vec::new();
            for (i, &a) in table.iter().enumerate() {
                for &b in &table[i + 1..] {
                    let x = (uniform(s, (a * k + b) as u64) * 8.0).floor() / 8.0;
                    samples.push((a, b, if a < 2 { 1.0 - x / 2.0 } else { x }));
                }
            }
            for (order, w) in permutations(k).iter().zip(&mut expected) {
                let gains = one_order_gains(k, &pairs, &samples, order);
                w.iter_mut().zip(gains).for_each(|(w, g)| *w += g);
            }
            test.add_set(&pairs, &samples);
            for &(a, b, x) in &samples {
                pairs.add(a, b, x, 0.0);
            }
        }
        for (got, want) in test.wealth.iter().zip(&expected) {
            for (g, w) in got.iter().zip(want) {
                assert!((g - w).abs() < 1e-9, "{got:?} against {want:?}");
            }
        }
        assert!(test.wealth.iter().any(|w| w.iter().any(|&x| x > 1.0)), "the bets paid");
    }

    #[test]
    fn eight_bots_at_four_seat_tables_settle_their_order() {
        // Eight bots, each better than the next (0.8 a match), four at a table: the tables
        // walk round the field, so that every adjacent pair sits together in three of eight.
        let k = 8;
        let mut test = OrderTest::new(k).unwrap_or_else(|| unreachable!());
        let mut pairs = PairTable::new(k);
        let truth: Vec<usize> = (0..k).collect();
        let mut settled = None;
        for s in 0..400u64 {
            let table: Vec<usize> = (0..4).map(|i| (s as usize + i) % k).collect();
            let mut samples = Vec::new();
            for (i, &a) in table.iter().enumerate() {
                for &b in &table[i + 1..] {
                    let u = uniform(s, (a * k + b) as u64);
                    let better = if u < 0.8 { a.min(b) } else { a.max(b) };
                    samples.push((a, b, if better == a { 1.0 } else { 0.0 }));
                }
            }
            test.add_set(&pairs, &samples);
            for &(a, b, x) in &samples {
                pairs.add(a, b, x, 0.0);
            }
            let order = pairs.order(0.0, &[]);
            if test.settled(&order, 0.05) {
                settled = Some((s, order));
                break;
            }
        }
        let last = pairs.order(0.0, &[]);
        let open = test.open_pairs(&last, 0.05);
        let (sets, order) =
            settled.unwrap_or_else(|| panic!("not settled in 400 sets: {last:?} {open:?}"));
        assert_eq!(order, truth, "after {sets} sets");
        let intervals = test.rank_intervals(&order, 0.05);
        assert!(intervals.iter().enumerate().all(|(bot, &(lo, hi))| lo == bot + 1 && hi == lo));
        assert!(!test.rejected(&truth, 0.05));
        let mut swapped = truth.clone();
        swapped.swap(3, 4);
        assert!(test.rejected(&swapped, 0.05));
        // Not orders of the field: never "rejected", whatever the wealth.
        let mut twice = swapped.clone();
        twice[0] = twice[1];
        assert!(!test.rejected(&twice, 0.05) && !test.rejected(&swapped[1..], 0.05));
    }

    #[test]
    fn the_order_test_keeps_its_error_rate_under_continuous_monitoring() {
        // Bots 0 and 1 equal, bot 2 clearly below: a settled order puts one of the two above
        // the other without evidence (it rejected a true order), at most about alpha of the
        // time, asked after every set.
        let p = |a: usize, b: usize| if (a, b) == (0, 1) { 0.5 } else { 0.8 };
        let wrong = (0..200u64).filter(|&seed| race(3, 1_000, seed, p).0.is_some()).count();
        assert!(wrong <= 14, "{wrong} of 200 settled on a coin flip");
    }

    /// A four-seat set's pentanomial-like score: the mean of four matches' 1 or 0, each won
    /// with probability `p` (nine values in steps of ⅛ for four-seat sets; five here).
    fn four_matches(p: f64, u: f64) -> f64 {
        // The four matches' wins from one uniform: its base-16 digits.
        let digits = (u * 65_536.0) as u32;
        (0..4).filter(|i| f64::from((digits >> (4 * i)) & 15) / 16.0 + 1.0 / 32.0 < p).count()
            as f64
            / 4.0
    }

    #[test]
    fn both_bettings_keep_the_error_rate_on_low_variance_samples() {
        // Bots 0 and 1 equal, each set the mean of four matches (variance 1/16, a quarter of a
        // coin flip's): the plug-in stakes high, and its Kelly multiples higher still.
        let score =
            |a: usize, b: usize, u: f64| four_matches(if (a, b) == (0, 1) { 0.5 } else { 0.8 }, u);
        for betting in [Betting::KellyFractions, Betting::FixedGrid] {
            let wrong = (0..200u64)
                .filter(|&seed| race_scored(3, 1_000, seed, betting, score).0.is_some())
                .count();
            assert!(wrong <= 14, "{betting:?}: {wrong} of 200 settled on a coin flip");
        }
    }

    #[test]
    fn the_kelly_fractions_settle_a_close_order_sooner_than_the_fixed_grid() {
        let score =
            |a: usize, b: usize, u: f64| four_matches(if (a, b) == (0, 1) { 0.6 } else { 0.8 }, u);
        let sets = |betting: Betting| -> u64 {
            (0..20u64)
                .map(|seed| {
                    let (settled, _) = race_scored(4, 3_000, seed + 900, betting, score);
                    let (sets, order) = settled.unwrap_or_else(|| panic!("seed {seed}: open"));
                    assert_eq!(order, vec![0, 1, 2, 3], "{betting:?}, seed {seed}");
                    sets
                })
                .sum()
        };
        // Over the 20 ladders, fewer sets (734 against 753 here; the power table's gain on
        // four-seat Twenty-Two is larger, some 12%).
        let (kelly, grid) = (sets(Betting::KellyFractions), sets(Betting::FixedGrid));
        assert!(kelly < grid, "Kelly fractions {kelly} sets, the grid {grid}");
    }

    #[test]
    fn the_order_test_finds_a_close_order_sooner_than_the_union_bound() {
        let p = |a: usize, b: usize| if (a, b) == (0, 1) { 0.6 } else { 0.9 };
        let mut by_orders = Vec::new();
        let mut by_union = Vec::new();
        for seed in 0..20u64 {
            let (orders, union) = race(4, 3_000, seed + 500, p);
            let (sets, order) = orders.unwrap_or_else(|| panic!("seed {seed}: never settled"));
            assert_eq!(order, vec![0, 1, 2, 3]);
            by_orders.push(sets);
            by_union.push(
                union.unwrap_or_else(|| panic!("seed {seed}: the union bound never settled")),
            );
        }
        // Over the 20 ladders, the order test needs at least a tenth fewer sets.
        let (orders, union): (u64, u64) = (by_orders.iter().sum(), by_union.iter().sum());
        assert!(orders * 10 < union * 9, "{by_orders:?} vs {by_union:?}");
    }
}
