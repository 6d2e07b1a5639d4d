//! Head-to-head evidence between every two bots, and when it is enough to trust their order.
//!
//! The sample for a pair `(a, b)` is one *set*'s paired score of `a` against `b`: the mean,
//! over the set's matches in which both sat, of 1 (`a` placed ahead), ½ (same place) or 0
//! (behind). That is the pentanomial model of chess-engine testing carried to any table size:
//! a duplicate set of Gin Rummy's two seatings takes five values (0, ¼, ½, ¾, 1), a four-seat
//! Twenty-Two set nine; its variance, measured on the sets themselves, already holds the
//! correlation between the seatings of one deal, which is where duplicate deals gain.
//!
//! A sample may carry a *control*: the same score of a frozen reference bot on the same deal
//! and seats, less its known mean ([`PairTally::add_controlled`]). Subtracting `beta` times the
//! control removes the luck both share without moving the mean (a control variate).
//!
//! Whether `a` is better than `b` is decided by an anytime-valid test ([`confident_better`]): a
//! test that may be looked at after every set and stopped as soon as it passes, keeping its
//! error rate, unlike a z-test repeated after every set. It is a test by betting: a gambler
//! who starts with 1 and stakes a fixed share `λ` of their wealth on every sample paying
//! `λ (x - ½)` cannot, if `a`'s expected score is at most ½, ever multiply their wealth by
//! `1 / alpha` with probability above `alpha` (Ville's inequality on a nonnegative
//! supermartingale). The tally keeps the wealth of a grid of fixed stakes ([`STAKES`]) and of
//! one adaptive stake (the growth-optimal share for the samples so far, fixed before each
//! sample), and the test uses their weighted mean, itself such a wealth: the stake that fits
//! the pair's effect and variance wins, so the test adapts to the variance of the samples
//! themselves (duplicate sets' smaller variance is paid for as it is measured), with no
//! assumption but `0 <= x <= 1`.

use serde::{Deserialize, Serialize};

/// The smallest variance of one sample that the tests assume, so that a run of identical
/// samples (a random bot losing every set) does not decide on its second sample.
pub const MIN_VARIANCE: f64 = 1e-2;

/// The fixed shares of wealth the betting test stakes on each sample (see the [module docs](self)):
/// a geometric grid from 1.8 (nearly all-in on a deviation of ½) down to 0.047, which fits a
/// pair whose expected score differs from ½ by about its variance times the stake.
pub const STAKES: [f64; 10] = [1.8, 1.2, 0.8, 0.533, 0.356, 0.237, 0.158, 0.105, 0.070, 0.047];

/// The logarithms of the wealth of each stake of [`STAKES`], betting one way, and last of an
/// adaptive stake: the growth-optimal share for the mean and variance of the samples before
/// each (a predictable plug-in, so still a fair bet), none before [`ADAPTIVE_AFTER`] samples.
pub(crate) type LogWealth = [f64; STAKES.len() + 1];

/// The adaptive stake bets from this many samples on.
pub const ADAPTIVE_AFTER: u32 = 4;

/// The betting evidence of one pair, both ways and with and without the control.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Wealth {
    /// Betting that the first bot is the better, on the raw scores.
    pub up: LogWealth,
    /// Betting that the second bot is the better, on the raw scores.
    pub down: LogWealth,
    /// Betting that the first bot is the better, on the luck-adjusted scores.
    pub up_controlled: LogWealth,
    /// Betting that the second bot is the better, on the luck-adjusted scores.
    pub down_controlled: LogWealth,
}

/// Multiplies each stake's wealth by `1 + stake * excess / range`, in logarithms: `excess` is
/// the sample's deviation from ½ in the direction bet on, at most `range / 2` either way;
/// `adaptive` is the last stake's share.
fn bet(wealth: &mut LogWealth, excess: f64, range: f64, adaptive: f64) {
    let stakes = STAKES.iter().copied().chain([adaptive.clamp(0.0, STAKES[0])]);
    for (w, stake) in wealth.iter_mut().zip(stakes) {
        // |excess| <= range / 2 and stake <= 1.8: every factor is at least 0.1, never 0.
        *w += (stake * excess / range).ln_1p();
    }
}

/// The logarithm of the mixed wealth: half on the adaptive stake, half shared by the grid.
pub(crate) fn mixed(wealth: &LogWealth) -> f64 {
    let top = wealth.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let grid = STAKES.len() as f64;
    let sum: f64 = wealth
        .iter()
        .enumerate()
        .map(|(i, w)| (w - top).exp() * if i < STAKES.len() { 0.5 / grid } else { 0.5 })
        .sum();
    top + sum.ln()
}

/// The growth-optimal share to stake on a deviation of mean `edge` and variance `variance`,
/// in units of `range` (see [`bet`]), `0` against the direction bet on.
pub(crate) fn adaptive_stake(edge: f64, variance: f64, range: f64) -> f64 {
    (range * edge / (variance + edge * edge)).max(0.0)
}

/// Running sums of one pair's samples (the first bot's scores against the second) and of
/// their controls.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PairTally {
    /// Samples.
    pub n: u32,
    /// Sum of the scores.
    pub sum: f64,
    /// Sum of their squares.
    pub sum_sq: f64,
    /// Sum of the controls (each already less its known mean).
    pub control: f64,
    /// Sum of the controls' squares.
    pub control_sq: f64,
    /// Sum of score times control.
    pub cross: f64,
    /// The betting test's evidence, sample by sample (sequential: not a function of the sums).
    #[serde(default)]
    pub wealth: Wealth,
}

impl PairTally {
    /// Adds one score, without a control.
    pub fn add(&mut self, score: f64) {
        self.add_controlled(score, 0.0);
    }

    /// Adds one score and its control (the reference's score on the same deal and seats, less
    /// the reference's mean there).
    pub fn add_controlled(&mut self, score: f64, control: f64) {
        // The bets assume a score in 0..=1 and a control in -1..=1 (the arena's are); the
        // sums keep the values as given.
        let (x, c) = (score.clamp(0.0, 1.0), control.clamp(-1.0, 1.0));
        // Raw scores: the deviation from ½ is at most ½ either way.
        let excess = x - 0.5;
        // Every stake is fixed from the samples before this one (predictable): a fair bet.
        let ready = self.n >= ADAPTIVE_AFTER;
        let before = *self;
        let stake = |beta: f64, range: f64, sign: f64| {
            let edge = sign * (before.mean(beta) - 0.5);
            if ready { adaptive_stake(edge, before.variance(beta), range) } else { 0.0 }
        };
        bet(&mut self.wealth.up, excess, 1.0, stake(0.0, 1.0, 1.0));
        bet(&mut self.wealth.down, -excess, 1.0, stake(0.0, 1.0, -1.0));
        // Luck-adjusted: the coefficient from the samples before this one only, the deviation
        // then at most ½ + beta.
        let beta = control_beta([&before]).min(1.0);
        let adjusted = excess - beta * c;
        let range = 1.0 + 2.0 * beta;
        let (up, down) = (stake(beta, range, 1.0), stake(beta, range, -1.0));
        bet(&mut self.wealth.up_controlled, adjusted, range, up);
        bet(&mut self.wealth.down_controlled, -adjusted, range, down);
        self.n += 1;
        self.sum += score;
        self.sum_sq += score * score;
        self.control += control;
        self.control_sq += control * control;
        self.cross += score * control;
    }

    /// The same evidence seen from the other bot: scores `1 - x`, controls negated.
    pub fn reversed(&self) -> PairTally {
        let n = f64::from(self.n);
        PairTally {
            n: self.n,
            sum: n - self.sum,
            sum_sq: n - 2.0 * self.sum + self.sum_sq,
            control: -self.control,
            control_sq: self.control_sq,
            cross: -(self.control - self.cross),
            wealth: Wealth {
                up: self.wealth.down,
                down: self.wealth.up,
                up_controlled: self.wealth.down_controlled,
                down_controlled: self.wealth.up_controlled,
            },
        }
    }

    /// The logarithm of the betting test's wealth on the first bot being the better: on the
    /// luck-adjusted scores if `controlled`, else on the raw ones. [`confident_better`] says so
    /// once it reaches `ln(1 / alpha)`.
    pub fn log_evidence(&self, controlled: bool) -> f64 {
        mixed(if controlled { &self.wealth.up_controlled } else { &self.wealth.up })
    }

    /// Adds every sample of `other` to the sums (the betting evidence, being sequential, is
    /// this tally's own and is not merged).
    pub fn merge(&mut self, other: &PairTally) {
        self.n += other.n;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
        self.control += other.control;
        self.control_sq += other.control_sq;
        self.cross += other.cross;
    }

    /// The mean of `score - beta * control` (½ with no samples).
    pub fn mean(&self, beta: f64) -> f64 {
        if self.n == 0 {
            return 0.5;
        }
        (self.sum - beta * self.control) / f64::from(self.n)
    }

    /// The variance of one sample of `score - beta * control` (population form, at least
    /// [`MIN_VARIANCE`]).
    pub fn variance(&self, beta: f64) -> f64 {
        if self.n == 0 {
            return 0.25;
        }
        let n = f64::from(self.n);
        let mean = self.mean(beta);
        let second = (self.sum_sq - 2.0 * beta * self.cross + beta * beta * self.control_sq) / n;
        (second - mean * mean).max(MIN_VARIANCE)
    }

    /// The standard error of [`PairTally::mean`].
    pub fn standard_error(&self, beta: f64) -> f64 {
        (self.variance(beta) / f64::from(self.n.max(1))).sqrt()
    }

    /// The probability that the first bot is the better (its expected score above ½), in the
    /// normal approximation: `Φ((mean - ½) / se)`; ½ with no samples. Looked at after every
    /// set it overstates (between equal bots it passes 0.975 in most ladders sooner or later):
    /// what a ladder shows is [`crate::settle::confidence_better`].
    pub fn p_better(&self, beta: f64) -> f64 {
        if self.n == 0 {
            return 0.5;
        }
        normal_cdf((self.mean(beta) - 0.5) / self.standard_error(beta))
    }
}

/// The control-variate coefficient that minimises the variance of `score - beta * control`
/// over the pooled samples of `tallies`: their covariance over the controls' variance, 0 when
/// the controls do not vary (a two-seat duplicate set, whose seatings' controls cancel).
pub fn control_beta<'a>(tallies: impl IntoIterator<Item = &'a PairTally>) -> f64 {
    let mut total = PairTally::default();
    for t in tallies {
        total.merge(t);
    }
    if total.n < 2 {
        return 0.0;
    }
    let n = f64::from(total.n);
    let var_c = total.control_sq / n - (total.control / n).powi(2);
    if var_c < 1e-9 {
        return 0.0;
    }
    let cov = total.cross / n - (total.sum / n) * (total.control / n);
    (cov / var_c).clamp(0.0, 2.0)
}

/// The mixing variance of [`normal_mixture_better`]'s confidence sequence, in units of a
/// sample's variance times samples: the boundary is tightest where the summed variance is near
/// it (about 40 sets of variance ¼).
pub const MIXTURE_RHO: f64 = 10.0;

/// No decision by [`normal_mixture_better`] before this many samples: the variance is
/// estimated from them.
pub const MIN_SAMPLES: u32 = 8;

/// Whether the first bot of `tally` is better than the second at error rate `alpha`, by the
/// betting test (see the [module docs](self)): on the luck-adjusted scores when `beta` is
/// positive (their coefficient is the tally's own, from the samples before each, not `beta`),
/// else on the raw scores. The chance that this ever says so of a bot that is not better is
/// at most `alpha`, however often it is asked, for any scores in `0..=1`.
pub fn confident_better(tally: &PairTally, beta: f64, alpha: f64) -> bool {
    tally.n > 0 && tally.log_evidence(beta > 0.0) >= (1.0 / alpha).ln()
}

/// The test the arena used before [`confident_better`], kept for the power table's
/// comparison: Robbins' normal-mixture confidence sequence, with `S` the sum of `score - ½`
/// and `V` the summed variance, better once `S >= sqrt(2 (V + ρ) ln(sqrt((V + ρ) / ρ) /
/// alpha))`. Anytime-valid for sub-Gaussian samples of known variance; here the variance is
/// the measured one (a plug-in), and `ρ` ([`MIXTURE_RHO`]) is fixed in absolute units, so a
/// method whose samples have a smaller variance pays more for each than it should.
pub fn normal_mixture_better(tally: &PairTally, beta: f64, alpha: f64) -> bool {
    if tally.n < MIN_SAMPLES {
        return false;
    }
    let n = f64::from(tally.n);
    let excess = n * (tally.mean(beta) - 0.5);
    excess > 0.0 && excess >= boundary(n * tally.variance(beta), alpha)
}

/// The normal-mixture confidence sequence's boundary for summed variance `v` at error rate
/// `alpha`.
pub fn boundary(v: f64, alpha: f64) -> f64 {
    let v = v + MIXTURE_RHO;
    (2.0 * v * ((v / MIXTURE_RHO).sqrt() / alpha).ln()).sqrt()
}

/// The standard normal distribution function (through `libm`'s `erfc`).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// `a`'s paired score against `b` over one set's matches (each a list of `(bot, place)`): the
/// mean over the matches where both sat of 1 (ahead), ½ (level) or 0 (behind); `None` if they
/// never sat together. For two seatings of one Gin Rummy deal it takes five values (the
/// pentanomial sample), for four seatings of a four-seat deal nine.
pub fn set_score<'a>(
    matches: impl IntoIterator<Item = &'a [(usize, u8)]>,
    a: usize,
    b: usize,
) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0u32);
    for places in matches {
        let pa = places.iter().find(|(bot, _)| *bot == a).map(|&(_, p)| p);
        let pb = places.iter().find(|(bot, _)| *bot == b).map(|&(_, p)| p);
        if let (Some(pa), Some(pb)) = (pa, pb) {
            sum += match pa.cmp(&pb) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
            n += 1;
        }
    }
    (n > 0).then(|| sum / f64::from(n))
}

/// One set's samples: the paired score ([`set_score`]) of every two bots that sat together,
/// as `(a, b, a's score against b)` with `a < b`.
pub fn set_samples(matches: &[&[(usize, u8)]]) -> Vec<(usize, usize, f64)> {
    let mut bots: Vec<usize> = matches.iter().flat_map(|m| m.iter().map(|&(b, _)| b)).collect();
    bots.sort_unstable();
    bots.dedup();
    let mut samples = Vec::with_capacity(bots.len() * bots.len().saturating_sub(1) / 2);
    for (i, &a) in bots.iter().enumerate() {
        for &b in &bots[i + 1..] {
            if let Some(x) = set_score(matches.iter().copied(), a, b) {
                samples.push((a, b, x));
            }
        }
    }
    samples
}

/// The evidence between every two of `bots` bots: `tally(a, b)` is `a`'s scores against `b`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairTable {
    bots: usize,
    /// Upper triangle, row-major: `(a, b)` with `a < b`.
    tallies: Vec<PairTally>,
}

impl PairTable {
    /// No evidence between `bots` bots.
    pub fn new(bots: usize) -> PairTable {
        PairTable { bots, tallies: vec![PairTally::default(); bots * bots.saturating_sub(1) / 2] }
    }

    /// The number of bots.
    pub fn bots(&self) -> usize {
        self.bots
    }

    fn index(&self, a: usize, b: usize) -> usize {
        let (lo, hi) = (a.min(b), a.max(b));
        lo * (2 * self.bots - lo - 1) / 2 + (hi - lo - 1)
    }

    /// `a`'s evidence against `b` (`a != b`, both below [`PairTable::bots`]).
    pub fn tally(&self, a: usize, b: usize) -> PairTally {
        let t = self.tallies[self.index(a, b)];
        if a < b { t } else { t.reversed() }
    }

    /// The evidence between the bots `keep` only (distinct, each below [`PairTable::bots`]),
    /// their tallies as they are: bot `i` of the new table is bot `keep[i]` of this one.
    pub fn restricted(&self, keep: &[usize]) -> PairTable {
        let mut table = PairTable::new(keep.len());
        for (i, &a) in keep.iter().enumerate() {
            for (j, &b) in keep.iter().enumerate().skip(i + 1) {
                let at = table.index(i, j);
                table.tallies[at] = self.tally(a, b);
            }
        }
        table
    }

    /// Adds `a`'s score against `b`, with its control (0 for none).
    pub fn add(&mut self, a: usize, b: usize, score: f64, control: f64) {
        if a == b || a >= self.bots || b >= self.bots {
            return;
        }
        let i = self.index(a, b);
        if a < b {
            self.tallies[i].add_controlled(score, control);
        } else {
            self.tallies[i].add_controlled(1.0 - score, -control);
        }
    }

    /// Adds one set: the paired score ([`set_score`]) of every two bots that sat together.
    pub fn add_set(&mut self, matches: &[&[(usize, u8)]]) {
        for (a, b, x) in set_samples(matches) {
            self.add(a, b, x, 0.0);
        }
    }

    /// The pooled control-variate coefficient ([`control_beta`]).
    pub fn beta(&self) -> f64 {
        control_beta(&self.tallies)
    }

    /// Each bot's mean score against the bots it has met (½ against those it has not), the
    /// order's key: a bot that beats everyone scores near 1.
    pub fn mean_scores(&self, beta: f64) -> Vec<f64> {
        (0..self.bots)
            .map(|a| {
                let others = self.bots.saturating_sub(1).max(1) as f64;
                (0..self.bots).filter(|&b| b != a).map(|b| self.tally(a, b).mean(beta)).sum::<f64>()
                    / others
            })
            .collect()
    }

    /// The bots, best first, by [`PairTable::mean_scores`] (ties by `tie_break`, lower
    /// first), then made consistent with the head-to-head: two neighbours change places while
    /// the lower scores above ½ against the higher, so that no bot is shown above one that
    /// beats it directly (an order a test can confirm pair by pair).
    pub fn order(&self, beta: f64, tie_break: &[u64]) -> Vec<usize> {
        let scores = self.mean_scores(beta);
        let mut order: Vec<usize> = (0..self.bots).collect();
        order.sort_by(|&a, &b| {
            scores[b].total_cmp(&scores[a]).then_with(|| tie_break.get(a).cmp(&tie_break.get(b)))
        });
        // Bubble passes: at most bots² swaps, and a cycle of head-to-heads cannot loop forever.
        for _ in 0..self.bots {
            let mut swapped = false;
            for i in 1..order.len() {
                if self.tally(order[i], order[i - 1]).mean(beta) > 0.5 {
                    order.swap(i, i - 1);
                    swapped = true;
                }
            }
            if !swapped {
                break;
            }
        }
        order
    }

    /// Whether every bot of `order` is confidently better than the next, each test at
    /// `alpha / (bots (bots - 1) / 2)` (every pair's, so that the claim holds at `alpha` even
    /// though the data chose which pairs are adjacent).
    pub fn settled(&self, order: &[usize], beta: f64, alpha: f64) -> bool {
        let each = self.pair_alpha(alpha);
        order.windows(2).all(|w| confident_better(&self.tally(w[0], w[1]), beta, each))
    }

    /// The error rate of each pair's test when the whole table's is `alpha`.
    pub fn pair_alpha(&self, alpha: f64) -> f64 {
        let pairs = (self.bots * self.bots.saturating_sub(1) / 2).max(1);
        alpha / pairs as f64
    }

    /// Rank intervals at error rate `alpha` for the whole table: bot `a`'s best rank is one
    /// more than the bots confidently better than it, its worst the bots less those it is
    /// confidently better than.
    pub fn rank_intervals(&self, beta: f64, alpha: f64) -> Vec<(usize, usize)> {
        let each = self.pair_alpha(alpha);
        (0..self.bots)
            .map(|a| {
                let others = (0..self.bots).filter(|&b| b != a);
                let above = others
                    .clone()
                    .filter(|&b| confident_better(&self.tally(b, a), beta, each))
                    .count();
                let below =
                    others.filter(|&b| confident_better(&self.tally(a, b), beta, each)).count();
                (1 + above, self.bots - below)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duplicate::derive_seed;

    fn uniform(seed: u64, i: u64) -> f64 {
        (derive_seed(seed, i) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A standard normal variate (Box-Muller) from a counter.
    fn normal(seed: u64, i: u64) -> f64 {
        let u = uniform(seed, 2 * i).max(1e-300);
        let v = uniform(seed, 2 * i + 1);
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    #[test]
    fn normal_cdf_matches_known_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_964) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_25).abs() < 1e-6);
        assert!(normal_cdf(8.0) > 0.999_999 && normal_cdf(-8.0) < 1e-6);
    }

    #[test]
    fn reversed_tally_is_the_other_bots_view() {
        let mut t = PairTally::default();
        for (x, c) in [(1.0, 0.2), (0.25, -0.1), (0.5, 0.0), (0.75, 0.3)] {
            t.add_controlled(x, c);
        }
        let r = t.reversed();
        for beta in [0.0, 0.7] {
            assert!((t.mean(beta) + r.mean(beta) - 1.0).abs() < 1e-12);
            assert!((t.variance(beta) - r.variance(beta)).abs() < 1e-12);
        }
        let mut table = PairTable::new(3);
        table.add(2, 0, 1.0, 0.0);
        assert_eq!(table.tally(0, 2).sum, 0.0);
        assert_eq!(table.tally(2, 0).sum, 1.0);
    }

    #[test]
    fn the_control_variate_is_unbiased_and_cuts_the_variance() {
        // Score = skill + luck + noise; the control sees the same luck (mean zero).
        let (skill, runs) = (0.55, 20_000u64);
        let mut t = PairTally::default();
        for i in 0..runs {
            let luck = 0.2 * normal(1, i);
            let noise = 0.1 * normal(2, i);
            t.add_controlled(skill + luck + noise, luck + 0.05 * normal(3, i));
        }
        let beta = control_beta([&t]);
        assert!((beta - 0.98).abs() < 0.05, "beta {beta}");
        // Unbiased at a fixed beta and at the estimated one.
        for b in [0.0, 0.5, 1.0, beta] {
            assert!((t.mean(b) - skill).abs() < 4.0 * t.standard_error(b), "beta {b}");
        }
        assert!(t.variance(beta) < 0.3 * t.variance(0.0));
    }

    #[test]
    fn the_confidence_sequence_keeps_its_error_rate_under_continuous_monitoring() {
        // Equal bots, 200 ladders of up to 2,000 sets, the test asked after every set: it
        // must wrongly call one better in at most about alpha of them.
        let alpha = 0.05;
        let wrong = (0..200u64)
            .filter(|&seed| {
                let mut t = PairTally::default();
                (0..2_000u64).any(|i| {
                    let u = uniform(seed, i);
                    t.add(if u < 0.3 {
                        1.0
                    } else if u < 0.7 {
                        0.5
                    } else {
                        0.0
                    });
                    confident_better(&t, 0.0, alpha)
                })
            })
            .count();
        assert!(wrong <= 10, "{wrong} of 200");
        // A clearly better bot (expected score 0.6) is found, and soon.
        let mut t = PairTally::default();
        let found = (0..2_000u64).position(|i| {
            t.add(if uniform(99, i) < 0.6 { 1.0 } else { 0.0 });
            confident_better(&t, 0.0, alpha)
        });
        assert!(found.is_some_and(|n| n < 800), "{found:?}");
    }

    #[test]
    fn the_betting_test_keeps_its_error_rate_on_low_variance_samples() {
        // Duplicate sets of equal bots are mostly split (½), so their variance is small: the
        // test must not mistake that for evidence. Here the null's boundary case, mean ½ and
        // variance 0.025; and a bot whose mean is ½ - 0.01 (worse), which must be called
        // better even less often.
        let sample = |seed: u64, i: u64, shift: f64| {
            let u = uniform(seed, i) + shift;
            if u < 0.05 {
                0.0
            } else if u < 0.95 {
                0.5
            } else {
                1.0
            }
        };
        for shift in [0.0, -0.01] {
            let wrong = (0..200u64)
                .filter(|&seed| {
                    let mut t = PairTally::default();
                    (0..2_000u64).any(|i| {
                        t.add(sample(seed + 1_000, i, shift));
                        confident_better(&t, 0.0, 0.05)
                    })
                })
                .count();
            assert!(wrong <= 10, "shift {shift}: {wrong} of 200");
        }
        // And its small variance pays: an edge of 0.05 at variance 0.0225 is found in few sets.
        let mut t = PairTally::default();
        let found = (0..2_000u64).position(|i| {
            t.add(sample(7, i, 0.05));
            confident_better(&t, 0.0, 0.05)
        });
        assert!(found.is_some_and(|n| n < 400), "{found:?}");
    }

    #[test]
    fn rank_intervals_cover_the_true_ranks() {
        // Five bots with true expected scores 0.5 + (b - a) * 0.05 between them; many
        // replications of 300 sets per pair: every true rank must lie in its interval in at
        // least 95% of them, and the clearly separated ends must be pinned.
        let truth = |a: usize, b: usize| 0.5 + 0.05 * (b as f64 - a as f64);
        let (mut covered, mut total, mut pinned) = (0, 0, 0);
        for rep in 0..100u64 {
            let mut table = PairTable::new(5);
            for a in 0..5 {
                for b in a + 1..5 {
                    for i in 0..300u64 {
                        let u = uniform(rep * 100 + (a * 5 + b) as u64, i);
                        table.add(a, b, if u < truth(a, b) { 1.0 } else { 0.0 }, 0.0);
                    }
                }
            }
            let intervals = table.rank_intervals(0.0, 0.05);
            for (bot, &(lo, hi)) in intervals.iter().enumerate() {
                total += 1;
                covered += usize::from(lo <= bot + 1 && bot < hi);
            }
            pinned += usize::from(intervals[4].0 > 1);
        }
        assert!(covered * 100 >= 95 * total, "{covered} of {total}");
        assert!(pinned >= 50, "the worst bot shown below first in {pinned} of 100");
    }

    #[test]
    fn a_restricted_table_keeps_each_kept_pairs_tally_in_its_new_orientation() {
        let mut table = PairTable::new(4);
        table.add(0, 3, 1.0, 0.0);
        table.add(3, 0, 1.0, 0.0);
        table.add(3, 1, 0.75, 0.0);
        table.add(2, 1, 0.25, 0.0);
        let kept = table.restricted(&[3, 1, 0]);
        assert_eq!(kept.bots(), 3);
        assert_eq!(kept.tally(0, 1), table.tally(3, 1));
        assert_eq!(kept.tally(1, 0), table.tally(1, 3));
        assert_eq!(kept.tally(2, 0), table.tally(0, 3));
        assert_eq!(kept.tally(1, 2).n, 0);
    }

    #[test]
    fn order_and_settled() {
        let mut table = PairTable::new(3);
        for _ in 0..50 {
            table.add(0, 1, 1.0, 0.0);
            table.add(1, 2, 1.0, 0.0);
            table.add(0, 2, 1.0, 0.0);
        }
        let order = table.order(0.0, &[0, 0, 0]);
        assert_eq!(order, vec![0, 1, 2]);
        assert!(table.settled(&order, 0.0, 0.05));
        assert!(!table.settled(&[1, 0, 2], 0.0, 0.05));
        assert_eq!(table.rank_intervals(0.0, 0.05), vec![(1, 1), (2, 2), (3, 3)]);
        assert!(table.tally(0, 1).p_better(0.0) > 0.999);
    }
}
