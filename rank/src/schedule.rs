//! Who plays whom: the tables of each format, as lists of bot indices (positions in the
//! ladder's bot list). Each table is then played as one duplicate set ([`crate::duplicate`]).
//!
//! Round robin and gauntlet are fixed in advance; Swiss and the continuous ladder look at the
//! results so far; the SPRT head-to-head is one table played until [`crate::Sprt`] decides.

use std::collections::HashMap;

/// Every table of `table` bots out of `bots` (all combinations, in lexicographic order): one
/// round of a round robin. Two-player tables are every pair once.
pub fn round_robin(bots: usize, table: usize) -> Vec<Vec<usize>> {
    combinations(&(0..bots).collect::<Vec<_>>(), table)
}

/// A gauntlet round: `challenger` against every table that can be filled from the others
/// (for two players: the challenger against each other bot once).
pub fn gauntlet(challenger: usize, bots: usize, table: usize) -> Vec<Vec<usize>> {
    if table == 0 || challenger >= bots {
        return Vec::new();
    }
    let others: Vec<usize> = (0..bots).filter(|&b| b != challenger).collect();
    combinations(&others, table - 1)
        .into_iter()
        .map(|rest| {
            let mut t = Vec::with_capacity(table);
            t.push(challenger);
            t.extend(rest);
            t
        })
        .collect()
}

/// All `k`-subsets of `items`, in lexicographic order.
fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k > items.len() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut idx: Vec<usize> = (0..k).collect();
    loop {
        out.push(idx.iter().map(|&i| items[i]).collect());
        // Advance the rightmost index that can still move.
        let Some(pos) = (0..k).rev().find(|&p| idx[p] < items.len() - k + p) else {
            return out;
        };
        idx[pos] += 1;
        for p in pos + 1..k {
            idx[p] = idx[p - 1] + 1;
        }
    }
}

/// One Swiss round for two-player games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissRound {
    /// The pairs, strongest score group first.
    pub pairs: Vec<[usize; 2]>,
    /// The bot that sits out (odd fields): the lowest-ranked bot that has not had a bye yet.
    pub bye: Option<usize>,
}

/// The results a Swiss round is paired from.
#[derive(Clone, Debug, Default)]
pub struct SwissState {
    /// Points per bot: 1 per set won, ½ per set drawn, 1 per bye.
    pub points: Vec<f64>,
    /// Byes received per bot.
    pub byes: Vec<u32>,
    /// How often each pair (smaller index first) has met.
    pub met: HashMap<(usize, usize), u32>,
}

impl SwissState {
    /// A field of `bots` bots with no results.
    pub fn new(bots: usize) -> SwissState {
        SwissState { points: vec![0.0; bots], byes: vec![0; bots], met: HashMap::new() }
    }

    /// How often `a` and `b` have met.
    pub fn met(&self, a: usize, b: usize) -> u32 {
        self.met.get(&(a.min(b), a.max(b))).copied().unwrap_or(0)
    }

    /// Records a set between `a` and `b`; `score` is `a`'s (1 win, ½ draw, 0 loss).
    pub fn record(&mut self, a: usize, b: usize, score: f64) {
        self.points[a] += score;
        self.points[b] += 1.0 - score;
        *self.met.entry((a.min(b), a.max(b))).or_insert(0) += 1;
    }

    /// Records a bye.
    pub fn record_bye(&mut self, bot: usize) {
        self.points[bot] += 1.0;
        self.byes[bot] += 1;
    }

    /// Pairs the next round: bots ranked by points (then by index), the bye to the lowest-ranked
    /// bot without one, then each bot, from the top, paired with the highest-ranked bot it has
    /// met least often (a backtracking search first looks for a round with no rematch at all).
    pub fn pair(&self) -> SwissRound {
        let mut order: Vec<usize> = (0..self.points.len()).collect();
        order.sort_by(|&a, &b| self.points[b].total_cmp(&self.points[a]).then(a.cmp(&b)));
        let mut bye = None;
        if order.len() % 2 == 1 {
            let pos = order.iter().rposition(|&b| self.byes[b] == 0).unwrap_or(order.len() - 1);
            bye = Some(order.remove(pos));
        }
        let pairs = self.pair_without_rematch(&order).unwrap_or_else(|| self.pair_greedy(&order));
        SwissRound { pairs, bye }
    }

    fn pair_without_rematch(&self, order: &[usize]) -> Option<Vec<[usize; 2]>> {
        fn go(
            state: &SwissState,
            left: &mut Vec<usize>,
            out: &mut Vec<[usize; 2]>,
            budget: &mut u32,
        ) -> bool {
            let Some(&top) = left.first() else { return true };
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            for i in 1..left.len() {
                let other = left[i];
                if state.met(top, other) > 0 {
                    continue;
                }
                left.remove(i);
                left.remove(0);
                out.push([top, other]);
                if go(state, left, out, budget) {
                    return true;
                }
                out.pop();
                left.insert(0, top);
                left.insert(i, other);
            }
            false
        }
        let mut left = order.to_vec();
        let mut out = Vec::new();
        let mut budget = 10_000;
        go(self, &mut left, &mut out, &mut budget).then_some(out)
    }

    fn pair_greedy(&self, order: &[usize]) -> Vec<[usize; 2]> {
        let mut left = order.to_vec();
        let mut out = Vec::new();
        while left.len() >= 2 {
            let top = left.remove(0);
            let pos = (0..left.len()).min_by_key(|&i| (self.met(top, left[i]), i)).unwrap_or(0);
            out.push([top, left.remove(pos)]);
        }
        out
    }
}

/// A bot's rating as the continuous ladder sees it: a mean and its uncertainty (standard
/// deviation), on any scale.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Belief {
    /// The rating's mean.
    pub mean: f64,
    /// Its standard deviation.
    pub sigma: f64,
}

/// The continuous ladder's next table: the two bots whose order is least certain (the
/// smallest `|mean_a - mean_b| / sqrt(sigma_a² + sigma_b²)`, ties to the pair with the larger
/// total uncertainty, then to the lower indices), and for larger tables the bots closest in
/// mean to that pair. `None` when there are fewer bots than seats.
pub fn least_certain(beliefs: &[Belief], table: usize) -> Option<Vec<usize>> {
    if table < 2 || beliefs.len() < table {
        return None;
    }
    let mut best: Option<(f64, f64, usize, usize)> = None;
    for a in 0..beliefs.len() {
        for b in a + 1..beliefs.len() {
            let (x, y) = (beliefs[a], beliefs[b]);
            let spread = (x.sigma * x.sigma + y.sigma * y.sigma).sqrt().max(f64::MIN_POSITIVE);
            let z = (x.mean - y.mean).abs() / spread;
            let better = match best {
                None => true,
                Some((bz, bs, _, _)) => z < bz - 1e-12 || ((z - bz).abs() <= 1e-12 && spread > bs),
            };
            if better {
                best = Some((z, spread, a, b));
            }
        }
    }
    let (_, _, a, b) = best?;
    let centre = (beliefs[a].mean + beliefs[b].mean) / 2.0;
    let mut rest: Vec<usize> = (0..beliefs.len()).filter(|&i| i != a && i != b).collect();
    rest.sort_by(|&i, &j| {
        (beliefs[i].mean - centre)
            .abs()
            .total_cmp(&(beliefs[j].mean - centre).abs())
            .then(i.cmp(&j))
    });
    let mut out = vec![a, b];
    out.extend(rest.into_iter().take(table - 2));
    out.sort_unstable();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_pairs_everyone_once() {
        assert_eq!(
            round_robin(4, 2),
            vec![vec![0, 1], vec![0, 2], vec![0, 3], vec![1, 2], vec![1, 3], vec![2, 3]]
        );
        assert_eq!(round_robin(5, 3).len(), 10);
        assert_eq!(round_robin(4, 4), vec![vec![0, 1, 2, 3]]);
        assert!(round_robin(2, 3).is_empty());
    }

    #[test]
    fn gauntlet_puts_the_challenger_at_every_table() {
        assert_eq!(gauntlet(2, 4, 2), vec![vec![2, 0], vec![2, 1], vec![2, 3]]);
        let tables = gauntlet(0, 5, 3);
        assert_eq!(tables.len(), 6);
        assert!(tables.iter().all(|t| t[0] == 0 && t.len() == 3 && !t[1..].contains(&0)));
    }

    #[test]
    fn swiss_first_round_pairs_by_index() {
        let state = SwissState::new(4);
        assert_eq!(state.pair(), SwissRound { pairs: vec![[0, 1], [2, 3]], bye: None });
    }

    #[test]
    fn swiss_pairs_score_groups_and_avoids_rematches() {
        let mut state = SwissState::new(4);
        state.record(0, 1, 1.0);
        state.record(2, 3, 1.0);
        // Winners 0 and 2 meet, losers 1 and 3.
        assert_eq!(state.pair().pairs, vec![[0, 2], [1, 3]]);
        state.record(0, 2, 1.0);
        state.record(1, 3, 0.5);
        // 0 (2 points) has met 1 and 2, so meets 3; 2 and 1 have not met.
        let round = state.pair();
        assert_eq!(round.pairs, vec![[0, 3], [2, 1]]);
    }

    #[test]
    fn swiss_bye_goes_to_the_lowest_without_one() {
        let mut state = SwissState::new(3);
        let round = state.pair();
        assert_eq!(round.bye, Some(2));
        assert_eq!(round.pairs, vec![[0, 1]]);
        state.record(0, 1, 1.0);
        state.record_bye(2);
        // 2 and 0 have a point each, 1 none but 1 has had no bye: 1 sits out.
        let round = state.pair();
        assert_eq!(round.bye, Some(1));
        assert_eq!(round.pairs, vec![[0, 2]]);
    }

    #[test]
    fn swiss_allows_a_rematch_only_when_forced() {
        let mut state = SwissState::new(2);
        state.record(0, 1, 1.0);
        assert_eq!(state.pair().pairs, vec![[0, 1]]);
    }

    #[test]
    fn continuous_picks_the_least_certain_pair() {
        let b = |mean, sigma| Belief { mean, sigma };
        // 1 and 2 are close and uncertain; 0 is far ahead.
        let beliefs = [b(40.0, 1.0), b(25.0, 3.0), b(24.0, 3.0), b(10.0, 1.0)];
        assert_eq!(least_certain(&beliefs, 2), Some(vec![1, 2]));
        // Three seats: the closest to the pair's centre joins (3 at 14.5 away, 0 at 15.5).
        assert_eq!(least_certain(&beliefs, 3), Some(vec![1, 2, 3]));
        // Equal means: the more uncertain pair first.
        let beliefs = [b(25.0, 1.0), b(25.0, 1.0), b(25.0, 5.0), b(25.0, 5.0)];
        assert_eq!(least_certain(&beliefs, 2), Some(vec![2, 3]));
        assert_eq!(least_certain(&beliefs[..1], 2), None);
    }
}
