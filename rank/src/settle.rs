//! Is the order settled yet, and if not, which table to play next: the adaptive ladder of
//! [`crate::power`]'s best method, as a small API any ladder can call with its stored sets
//! (the arena's own `adaptive` format, and ladders a server hosts).
//!
//! The evidence is the head-to-head one of [`crate::pairwise`]: one pentanomial sample per
//! pair per duplicate set. For a field of at most [`crate::orders::MAX_BOTS`] bots it is
//! judged by the order test ([`crate::orders`]): every order of the bots tested at `alpha`
//! itself, the order settled once every other is rejected; for larger fields, by the pairwise
//! betting test at `alpha` for the whole order (each pair at `alpha / (K (K - 1) / 2)`). Both
//! are anytime-valid, so a ladder may ask after every set and stop as soon as it is told the
//! order is settled. Until then the next table is one holding the least certain open adjacent
//! pair of the current order and, of those, the one holding the most open adjacent pairs (then
//! the one whose pairs have the fewest samples, then the first of [`round_robin`]'s): matches
//! go where the order is still open, none to pairs already told apart.

use serde::Serialize;

use crate::orders::OrderTest;
use crate::pairwise::{PairTable, confident_better, set_samples};
use crate::schedule::round_robin;
use crate::stats::MatchOutcome;

/// What a ladder's sets say about its order (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Settlement {
    /// The bots (their indices), best first ([`PairTable::order`]).
    pub order: Vec<usize>,
    /// Every bot of `order` is confidently better than the next, at the error rate asked for
    /// the whole order.
    pub settled: bool,
    /// The table to play next (the bots' indices, ascending), `None` once settled or when
    /// there are fewer bots than seats.
    pub next_table: Option<Vec<usize>>,
    /// By bot index: its best and worst rank at that error rate, for the whole table
    /// ([`OrderTest::rank_intervals`], or [`PairTable::rank_intervals`] for larger fields).
    pub rank_intervals: Vec<(usize, usize)>,
    /// The order's open adjacent pairs, each `(above, below, how certain)` (the z of the
    /// one's mean score against the other: lower is less certain), in `order`'s order.
    pub open: Vec<(usize, usize, f64)>,
    /// By bot index, `[a][b]`: how sure the evidence is that `a` is better than `b`, in a form
    /// that stays honest however often it is looked at ([`confidence_better`]): 0 without
    /// evidence and on the diagonal.
    pub p_better: Vec<Vec<f64>>,
}

/// How sure the head-to-head evidence `pairs` is that `a` is better than `b`: one less the
/// anytime-valid p-value of the betting test ([`crate::pairwise`]) against "`a` is no better",
/// its wealth `E` adjusted for every pair of the table at once: `1 - min(1, m / E)` with `m`
/// the pairs `K (K - 1) / 2` of `K` bots. The wealth is a nonnegative supermartingale under
/// that null (Ville's inequality), so among bots of equal strength the chance that any cell of
/// the table *ever* shows `c` or more, however often the table is redrawn, is at most
/// `2 (1 - c)` (the two directions of each pair): under 5% for 0.975. A pair shows 0.95 exactly
/// when the whole order's test at 95% tells it apart ([`PairTable::settled`]'s per-pair rate).
/// A normal approximation of the mean score, looked at after every set, says 97.5% between
/// equal bots in most ladders sooner or later: this does not.
pub fn confidence_better(pairs: &PairTable, a: usize, b: usize) -> f64 {
    if a == b {
        return 0.0;
    }
    let k = pairs.bots() as f64;
    let comparisons = (k * (k - 1.0) / 2.0).max(1.0);
    let log_wealth = pairs.tally(a, b).log_evidence(false);
    (1.0 - (comparisons.ln() - log_wealth).exp()).max(0.0)
}

impl Settlement {
    /// The settlement of a ladder of `bots` bots at tables of `table` seats from its finished
    /// duplicate sets, each the outcomes of its matches, **in the order they were played**
    /// (the test is sequential), at error rate `alpha` for the whole order.
    ///
    /// It replays the order test over every set (some 15 ms for 1,000 sets of five bots, 0.15 s
    /// for 10,000, half a second for 1,000 sets of eight: BENCHMARKS.md): a ladder that asks
    /// after every set keeps a [`SetEvidence`] instead and adds each set once.
    pub fn from_sets(
        bots: usize,
        table: usize,
        sets: &[Vec<MatchOutcome>],
        alpha: f64,
    ) -> Settlement {
        let mut evidence = SetEvidence::new(bots);
        for set in sets {
            evidence.add_set(set);
        }
        evidence.settlement(table, alpha)
    }

    /// The settlement of the head-to-head evidence `pairs` alone (the pairwise test with its
    /// union bound, at any number of bots) at tables of `table` seats, at error rate `alpha`
    /// for the whole order.
    pub fn from_pairs(pairs: &PairTable, table: usize, alpha: f64) -> Settlement {
        Settlement::from_evidence(pairs, None, table, alpha)
    }

    /// The settlement of `pairs` and, for a field of at most [`crate::orders::MAX_BOTS`] bots,
    /// the order test `orders` of the same sets (which then decides whether the order is
    /// settled, the rank intervals and which pairs are open), at tables of `table` seats, at
    /// error rate `alpha` for the whole order.
    pub fn from_evidence(
        pairs: &PairTable,
        orders: Option<&OrderTest>,
        table: usize,
        alpha: f64,
    ) -> Settlement {
        let order = pairs.order(0.0, &[]);
        let orders = orders.filter(|o| o.bots() == pairs.bots());
        let (open, rank_intervals) = match orders {
            Some(orders) => {
                let open = orders.open_pairs(&order, alpha);
                let unsettled: Vec<(usize, usize, f64)> = order
                    .windows(2)
                    .zip(&open)
                    .filter(|&(_, &open)| open)
                    .map(|(w, _)| (w[0], w[1], certainty(pairs, w[0], w[1], 0.0)))
                    .collect();
                (unsettled, orders.rank_intervals(&order, alpha))
            }
            None => (open_pairs(pairs, &order, alpha, 0.0), pairs.rank_intervals(0.0, alpha)),
        };
        let settled = open.is_empty();
        let next_table = if settled { None } else { table_for(pairs, &open, table) };
        let k = pairs.bots();
        let p_better =
            (0..k).map(|a| (0..k).map(|b| confidence_better(pairs, a, b)).collect()).collect();
        Settlement { rank_intervals, order, settled, next_table, open, p_better }
    }
}

/// The evidence [`Settlement::from_sets`] replays, grown one set at a time: a ladder that
/// plans after every set adds each set once instead of replaying them all.
#[derive(Clone, Debug, PartialEq)]
pub struct SetEvidence {
    pairs: PairTable,
    orders: Option<OrderTest>,
    sets: usize,
}

impl SetEvidence {
    /// No sets yet among `bots` bots.
    pub fn new(bots: usize) -> SetEvidence {
        SetEvidence { pairs: PairTable::new(bots), orders: OrderTest::new(bots), sets: 0 }
    }

    /// Adds the next set played, the outcomes of its matches.
    pub fn add_set(&mut self, set: &[MatchOutcome]) {
        let matches: Vec<&[(usize, u8)]> = set.iter().map(|o| &o.places[..]).collect();
        add_set(&mut self.pairs, self.orders.as_mut(), &matches);
        self.sets += 1;
    }

    /// The head-to-head evidence of the sets added.
    pub fn pairs(&self) -> &PairTable {
        &self.pairs
    }

    /// The sets added.
    pub fn sets(&self) -> usize {
        self.sets
    }

    /// The settlement of the sets added, at tables of `table` seats, at error rate `alpha` for
    /// the whole order ([`Settlement::from_sets`]'s).
    pub fn settlement(&self, table: usize, alpha: f64) -> Settlement {
        Settlement::from_evidence(&self.pairs, self.orders.as_ref(), table, alpha)
    }
}

/// Adds one set (its matches' places, by bot index) to `pairs` and, if given, to the order
/// test `orders` first (whose stakes come from the sets before).
pub fn add_set(pairs: &mut PairTable, orders: Option<&mut OrderTest>, matches: &[&[(usize, u8)]]) {
    let samples = set_samples(matches);
    if let Some(orders) = orders {
        orders.add_set(pairs, &samples);
    }
    for (a, b, x) in samples {
        pairs.add(a, b, x, 0.0);
    }
}

/// The adaptive schedule's next table for `order` (see the [module docs](self)), the
/// luck-adjusted scores judged if `beta` is positive; `None` when every adjacent pair is
/// settled or the bots cannot fill a table.
pub fn next_table_controlled(
    pairs: &PairTable,
    order: &[usize],
    table: usize,
    alpha: f64,
    beta: f64,
) -> Option<Vec<usize>> {
    table_for(pairs, &open_pairs(pairs, order, alpha, beta), table)
}

/// The adjacent pairs of `order` that the pairwise test at `alpha` for the whole order does
/// not tell apart (on the luck-adjusted scores if `beta` is positive), each `(above, below,
/// how certain)`.
fn open_pairs(
    pairs: &PairTable,
    order: &[usize],
    alpha: f64,
    beta: f64,
) -> Vec<(usize, usize, f64)> {
    let each = pairs.pair_alpha(alpha);
    order
        .windows(2)
        .filter(|w| !confident_better(&pairs.tally(w[0], w[1]), beta, each))
        .map(|w| (w[0], w[1], certainty(pairs, w[0], w[1], beta)))
        .collect()
}

/// The table for the `unsettled` adjacent pairs, each `(above, below, how certain)` (see the
/// [module docs](self)); `None` if there are none or no table holds the least certain.
pub(crate) fn table_for(
    pairs: &PairTable,
    unsettled: &[(usize, usize, f64)],
    table: usize,
) -> Option<Vec<usize>> {
    let &(a, b, _) = unsettled.iter().min_by(|x, y| x.2.total_cmp(&y.2))?;
    let holds = |t: &[usize], x: usize, y: usize| t.contains(&x) && t.contains(&y);
    let samples = |t: &[usize]| -> u64 {
        let mut n = 0;
        for (i, &x) in t.iter().enumerate() {
            for &y in &t[i + 1..] {
                n += u64::from(pairs.tally(x, y).n);
            }
        }
        n
    };
    if combinations_above(pairs.bots() - 2, table.saturating_sub(2), MAX_TABLES_WEIGHED) {
        return Some(greedy_table(pairs, unsettled, table, (a, b)));
    }
    round_robin(pairs.bots(), table)
        .into_iter()
        .filter(|t| holds(t, a, b))
        .map(|t| {
            let open = unsettled.iter().filter(|&&(x, y, _)| holds(&t, x, y)).count();
            (open, samples(&t), t)
        })
        // The most open pairs, then the fewest samples; `min_by` keeps the first of equals.
        .min_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)))
        .map(|(_, _, t)| t)
}

/// The most tables holding the least certain pair that [`table_for`] weighs one by one; with
/// more (many bots at large tables: 200 bots at four seats hold 19,503 such tables, their
/// round robin 64 million), it fills the table greedily instead ([`greedy_table`]).
const MAX_TABLES_WEIGHED: u64 = 4096;

/// Whether `n` choose `k` exceeds `limit` (computed without overflow).
fn combinations_above(n: usize, k: usize, limit: u64) -> bool {
    let k = k.min(n.saturating_sub(k));
    let mut count: u64 = 1;
    for i in 0..k {
        // count * (n - i) / (i + 1) stays an integer: it is C(n, i + 1).
        count = count.saturating_mul((n - i) as u64) / (i as u64 + 1);
        if count > limit {
            return true;
        }
    }
    false
}

/// A table of `table` seats holding the pair `(a, b)`, filled one bot at a time with the bot
/// that adds the most `unsettled` pairs to it, then the fewest samples with the bots seated,
/// then the lowest index: [`table_for`]'s preference, taken seat by seat.
fn greedy_table(
    pairs: &PairTable,
    unsettled: &[(usize, usize, f64)],
    table: usize,
    (a, b): (usize, usize),
) -> Vec<usize> {
    let mut seated = vec![a.min(b), a.max(b)];
    while seated.len() < table {
        let best = (0..pairs.bots())
            .filter(|c| !seated.contains(c))
            .map(|c| {
                let open = unsettled
                    .iter()
                    .filter(|&&(x, y, _)| {
                        (x == c && seated.contains(&y)) || (y == c && seated.contains(&x))
                    })
                    .count();
                let samples: u64 = seated.iter().map(|&s| u64::from(pairs.tally(c, s).n)).sum();
                (open, samples, c)
            })
            .min_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
        match best {
            Some((_, _, c)) => seated.push(c),
            None => break,
        }
    }
    seated.sort_unstable();
    seated
}

/// How far the pair `(a, b)`, `a` shown above `b`, is from settled: the z of `a`'s mean score
/// against `b` (minus infinity with fewer than two samples: least certain of all).
pub(crate) fn certainty(pairs: &PairTable, a: usize, b: usize, beta: f64) -> f64 {
    let t = pairs.tally(a, b);
    if t.n < 2 { f64::NEG_INFINITY } else { (t.mean(beta) - 0.5) / t.standard_error(beta) }
}

/// The adaptive schedule's next table for `order` on the raw scores
/// ([`next_table_controlled`] without the control).
pub fn next_table(
    pairs: &PairTable,
    order: &[usize],
    table: usize,
    alpha: f64,
) -> Option<Vec<usize>> {
    next_table_controlled(pairs, order, table, alpha, 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finished match's outcome: only the places matter here.
    fn outcome(places: &[(usize, u8)]) -> MatchOutcome {
        MatchOutcome { places: places.to_vec(), health: Vec::new(), decisions: 0 }
    }

    #[test]
    fn an_open_order_asks_for_its_least_certain_pair_then_settles() {
        // Three bots at tables of two: 0 always beats 2 and 1 always beats 2; 0 and 1 split.
        let mut sets: Vec<Vec<MatchOutcome>> = Vec::new();
        for _ in 0..30 {
            sets.push(vec![outcome(&[(0, 1), (2, 2)]), outcome(&[(2, 2), (0, 1)])]);
            sets.push(vec![outcome(&[(1, 1), (2, 2)]), outcome(&[(2, 2), (1, 1)])]);
            sets.push(vec![outcome(&[(0, 1), (1, 2)]), outcome(&[(1, 1), (0, 2)])]);
        }
        let s = Settlement::from_sets(3, 2, &sets, 0.05);
        assert!(!s.settled);
        assert_eq!(s.order[2], 2);
        // 0 against 1 is the open pair: that is the table to play.
        assert_eq!(s.next_table, Some(vec![0, 1]));
        assert_eq!(s.rank_intervals[2], (3, 3));
        assert_eq!(s.rank_intervals[0], (1, 2));
        // 0 is surely better than 2; nothing says 0 is better than 1, nor 1 than 0.
        assert!(s.p_better[0][2] > 0.99, "{:?}", s.p_better);
        assert!(s.p_better[0][1] < 0.5 && s.p_better[1][0] < 0.5, "{:?}", s.p_better);
        assert_eq!(
            s.open.iter().map(|&(a, b, _)| (a.min(b), a.max(b))).collect::<Vec<_>>(),
            [(0, 1)]
        );
        // Once 0 wins its sets against 1 too, the order is settled and nothing is asked.
        for _ in 0..30 {
            sets.push(vec![outcome(&[(0, 1), (1, 2)]), outcome(&[(1, 2), (0, 1)])]);
        }
        let s = Settlement::from_sets(3, 2, &sets, 0.05);
        assert!(s.settled, "{s:?}");
        assert_eq!(s.order, vec![0, 1, 2]);
        assert_eq!(s.next_table, None);
        assert_eq!(s.rank_intervals, vec![(1, 1), (2, 2), (3, 3)]);
    }

    #[test]
    fn a_ladder_too_large_to_weigh_every_table_still_gets_one_holding_its_open_pair() {
        // 200 bots at four seats: no round robin is built, the table is filled greedily.
        assert!(combinations_above(198, 2, MAX_TABLES_WEIGHED));
        assert!(!combinations_above(10, 2, MAX_TABLES_WEIGHED));
        let s = Settlement::from_sets(200, 4, &[], 0.05);
        let next = s.next_table.expect("a table");
        assert_eq!(next.len(), 4);
        assert!(next.windows(2).all(|w| w[0] < w[1]), "{next:?}");
        // With evidence only between 0 and 1 (0 ahead), the open pair without samples leads.
        let mut sets = Vec::new();
        for _ in 0..3 {
            sets.push(vec![outcome(&[(0, 1), (1, 2)]), outcome(&[(1, 2), (0, 1)])]);
        }
        let s = Settlement::from_sets(200, 4, &sets, 0.05);
        // The order is 0, 2, 3, …, 199, 1: its first pair without samples is (0, 2), and each
        // seat after goes to the bot that opens one more adjacent pair.
        assert_eq!(s.next_table, Some(vec![0, 2, 3, 4]));
    }

    #[test]
    fn evidence_grown_set_by_set_settles_as_the_replay_of_every_set() {
        let mut sets: Vec<Vec<MatchOutcome>> = Vec::new();
        let mut grown = SetEvidence::new(3);
        for i in 0..40u8 {
            let (a, b) = ([0, 0, 1][usize::from(i % 3)], [1, 2, 2][usize::from(i % 3)]);
            let first = if i % 5 == 0 { (b, a) } else { (a, b) };
            let set = vec![outcome(&[(first.0, 1), (first.1, 2)]), outcome(&[(a, 1), (b, 2)])];
            grown.add_set(&set);
            sets.push(set);
            assert_eq!(grown.settlement(2, 0.05), Settlement::from_sets(3, 2, &sets, 0.05));
        }
        assert_eq!(grown.sets(), 40);
    }

    #[test]
    fn with_no_sets_every_table_is_open() {
        let s = Settlement::from_sets(5, 4, &[], 0.05);
        assert!(!s.settled);
        let next = s.next_table.expect("a table");
        assert_eq!(next.len(), 4);
        assert!(s.rank_intervals.iter().all(|&r| r == (1, 5)));
        assert_eq!(Settlement::from_sets(2, 3, &[], 0.05).next_table, None);
    }
}
