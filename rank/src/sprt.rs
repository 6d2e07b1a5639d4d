//! A sequential probability ratio test for two bots that stops itself once decided, at any
//! table size (the N-player SPRT: is A better than B across four-seat tables?).
//!
//! Each sample is one duplicate set's *paired score* of bot A against bot B, in `[0, 1]`: the
//! mean over the set's matches of 1 (A placed ahead), ½ (same place) or 0 (behind)
//! ([`crate::pairwise::set_score`]). For Gin Rummy's two seatings the samples take five values
//! (the pentanomial model of chess-engine testing), for four seatings of a four-seat table nine;
//! an independent-deal match is a trinomial sample. The other bots at the table are part of
//! the conditions, as the opening book is in chess: A against B *at such tables*. The log-likelihood ratio is the
//! generalized SPRT's normal approximation (as in Fishtest):
//!
//! `LLR = n (s1 - s0) (2 x̄ - s0 - s1) / (2 v)`
//!
//! with `x̄` and `v` the samples' mean and variance and `s0`, `s1` the expected scores of the
//! hypotheses `elo0` and `elo1`. It stops at `ln(β / (1 - α))` (H0: A is not `elo1` stronger)
//! or `ln((1 - β) / α)` (H1). Smaller variance, as duplicate deals give, means fewer samples.

use serde::{Deserialize, Serialize};

/// The test's parameters.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SprtConfig {
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
    /// H0: A is `elo0` Elo stronger than B (or weaker, if negative).
    pub elo0: f64,
    /// H1: A is `elo1` Elo stronger than B.
    pub elo1: f64,
    /// No decision before this many samples (the variance is unknown at first).
    pub min_samples: u32,
}

impl Default for SprtConfig {
    fn default() -> SprtConfig {
        SprtConfig { alpha: 0.05, beta: 0.05, elo0: 0.0, elo1: 50.0, min_samples: 8 }
    }
}

/// What the test says so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtDecision {
    /// Not decided: play on.
    Continue,
    /// H0 accepted: A is not `elo1` stronger than B.
    AcceptH0,
    /// H1 accepted: A is at least `elo1` stronger than B.
    AcceptH1,
}

impl SprtDecision {
    /// The decision in words: `undecided`, `H0 accepted`, `H1 accepted`.
    pub const fn name(self) -> &'static str {
        match self {
            SprtDecision::Continue => "undecided",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        }
    }
}

/// The expected score of a player `elo` Elo stronger (the logistic curve).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score in `(0, 1)`.
pub fn score_to_elo(score: f64) -> f64 {
    let s = score.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The smallest variance the LLR divides by, so that a run of identical samples does not
/// decide at once.
const MIN_VARIANCE: f64 = 1e-2;

/// A running SPRT.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    config: SprtConfig,
    n: u32,
    sum: f64,
    sum_sq: f64,
}

impl Sprt {
    /// A test with no samples.
    pub fn new(config: SprtConfig) -> Sprt {
        Sprt { config, n: 0, sum: 0.0, sum_sq: 0.0 }
    }

    /// Adds one paired score (clamped to `[0, 1]`).
    pub fn add(&mut self, score: f64) {
        let x = score.clamp(0.0, 1.0);
        self.n += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }

    /// Samples so far.
    pub fn samples(&self) -> u32 {
        self.n
    }

    /// The mean score so far (½ with no samples).
    pub fn mean(&self) -> f64 {
        if self.n == 0 { 0.5 } else { self.sum / f64::from(self.n) }
    }

    /// The log-likelihood ratio of H1 against H0.
    pub fn llr(&self) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        let n = f64::from(self.n);
        let mean = self.sum / n;
        let variance = (self.sum_sq / n - mean * mean).max(MIN_VARIANCE);
        let s0 = elo_to_score(self.config.elo0);
        let s1 = elo_to_score(self.config.elo1);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The lower (accept H0) and upper (accept H1) bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        let SprtConfig { alpha, beta, .. } = self.config;
        ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
    }

    /// The test's state in words, for a person: who won (or that it is undecided), the LLR,
    /// its bounds and the sets it rests on. `a` and `b` are the two bots' names.
    pub fn verdict(&self, a: &str, b: &str) -> String {
        let llr = self.llr();
        let (lower, upper) = self.bounds();
        let SprtConfig { elo0, elo1, .. } = self.config;
        let n = self.n;
        match self.decision() {
            SprtDecision::AcceptH1 => format!(
                "{a} is stronger than {b} (H1: at least {elo1} Elo, accepted): \
                 LLR {llr:.2} reached the upper bound {upper:.2} after {n} sets"
            ),
            SprtDecision::AcceptH0 => format!(
                "{a} is not {elo1} Elo stronger than {b} (H0: {elo0} Elo, accepted): \
                 LLR {llr:.2} reached the lower bound {lower:.2} after {n} sets"
            ),
            SprtDecision::Continue => format!(
                "undecided between {a} and {b}: LLR {llr:.2}, between the bounds \
                 {lower:.2} and {upper:.2}, after {n} sets"
            ),
        }
    }

    /// The decision so far.
    pub fn decision(&self) -> SprtDecision {
        if self.n < self.config.min_samples.max(2) {
            return SprtDecision::Continue;
        }
        let llr = self.llr();
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duplicate::derive_seed;

    /// A uniform number in `[0, 1)` from a counter.
    fn uniform(seed: u64, i: u64) -> f64 {
        (derive_seed(seed, i) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Runs a test on games A wins with probability `p` (no draws) until it decides.
    fn run(p: f64, seed: u64, config: SprtConfig) -> (SprtDecision, u32) {
        let mut sprt = Sprt::new(config);
        for i in 0..100_000 {
            sprt.add(if uniform(seed, i) < p { 1.0 } else { 0.0 });
            let d = sprt.decision();
            if d != SprtDecision::Continue {
                return (d, sprt.samples());
            }
        }
        (SprtDecision::Continue, sprt.samples())
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert!((elo_to_score(0.0) - 0.5).abs() < 1e-12);
        assert!((elo_to_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
        for elo in [-300.0, -50.0, 0.0, 20.0, 200.0] {
            assert!((score_to_elo(elo_to_score(elo)) - elo).abs() < 1e-6);
        }
    }

    #[test]
    fn bounds_and_llr_on_known_samples() {
        let sprt = Sprt::new(SprtConfig::default());
        let (lower, upper) = sprt.bounds();
        assert!((lower - (0.05f64 / 0.95).ln()).abs() < 1e-12);
        assert!((upper - (0.95f64 / 0.05).ln()).abs() < 1e-12);
        // 10 samples: 6 wins, 4 losses: mean 0.6, variance 0.24.
        let mut sprt = Sprt::new(SprtConfig::default());
        for i in 0..10 {
            sprt.add(if i < 6 { 1.0 } else { 0.0 });
        }
        let (s0, s1) = (0.5, elo_to_score(50.0));
        let expected = 10.0 * (s1 - s0) * (1.2 - s0 - s1) / (2.0 * 0.24);
        assert!((sprt.llr() - expected).abs() < 1e-9);
        assert_eq!(sprt.decision(), SprtDecision::Continue);
    }

    #[test]
    fn no_decision_before_the_minimum() {
        let mut sprt = Sprt::new(SprtConfig::default());
        for _ in 0..7 {
            sprt.add(1.0);
            assert_eq!(sprt.decision(), SprtDecision::Continue);
        }
        sprt.add(1.0);
        assert_eq!(sprt.decision(), SprtDecision::AcceptH1);
    }

    #[test]
    fn decides_for_the_truth_on_synthetic_results() {
        let config = SprtConfig::default();
        let runs = 200u32;
        // A much stronger (+150 Elo): H1 nearly always.
        let strong = elo_to_score(150.0);
        let h1 =
            (0..runs).filter(|&s| run(strong, u64::from(s), config).0 == SprtDecision::AcceptH1);
        assert!(h1.count() >= 195);
        // Equal bots (H0 true): H1 at most about alpha of the time.
        let wrong = (0..runs)
            .filter(|&s| run(0.5, 1000 + u64::from(s), config).0 == SprtDecision::AcceptH1)
            .count();
        assert!(wrong <= 20, "{wrong} false positives of {runs}");
        // At elo1 exactly: H0 at most about beta of the time.
        let at_elo1 = elo_to_score(config.elo1);
        let missed = (0..runs)
            .filter(|&s| run(at_elo1, 5000 + u64::from(s), config).0 == SprtDecision::AcceptH0)
            .count();
        assert!(missed <= 20, "{missed} misses of {runs}");
    }

    /// One four-seat duplicate set (four rotations of one deal) of A (skill `edge`) and B
    /// against two fillers: each seat's luck is shared by every bot sitting there.
    fn four_seat_set(edge: f64, seed: u64, i: u64) -> f64 {
        let luck: Vec<f64> = (0..4).map(|s| 2.0 * uniform(seed ^ 0xD1, 4 * i + s)).collect();
        let skill = [edge, 0.0, 0.0, 0.0];
        let rotations: Vec<Vec<usize>> =
            (0..4).map(|r| (0..4).map(|s| (s + r) % 4).collect()).collect();
        let mut matches = Vec::new();
        for (j, seating) in rotations.iter().enumerate() {
            let values: Vec<f64> = seating
                .iter()
                .enumerate()
                .map(|(s, &bot)| {
                    skill[bot] + luck[s] + uniform(seed ^ 0xE2, 16 * i + 4 * j as u64 + s as u64)
                })
                .collect();
            let places: Vec<(usize, u8)> = seating
                .iter()
                .enumerate()
                .map(|(s, &bot)| (bot, 1 + values.iter().filter(|&&w| w > values[s]).count() as u8))
                .collect();
            matches.push(places);
        }
        crate::pairwise::set_score(matches.iter().map(|m| &m[..]), 0, 1).unwrap_or(0.5)
    }

    fn run_four_seat(edge: f64, seed: u64, config: SprtConfig) -> SprtDecision {
        let mut sprt = Sprt::new(config);
        for i in 0..20_000 {
            sprt.add(four_seat_set(edge, seed, i));
            if sprt.decision() != SprtDecision::Continue {
                break;
            }
        }
        sprt.decision()
    }

    #[test]
    fn four_seat_sprt_keeps_its_error_rates() {
        let config = SprtConfig { elo0: 0.0, elo1: 60.0, ..SprtConfig::default() };
        // Equal bots: H1 in at most about alpha of the runs.
        let wrong = (0..150u64)
            .filter(|&s| run_four_seat(0.0, s, config) == SprtDecision::AcceptH1)
            .count();
        assert!(wrong <= 15, "{wrong} false positives of 150");
        // A clearly stronger (its paired score near 0.6): H1 nearly always.
        let found = (0..60u64)
            .filter(|&s| run_four_seat(0.25, 1_000 + s, config) == SprtDecision::AcceptH1)
            .count();
        assert!(found >= 55, "found {found} of 60");
    }

    #[test]
    fn lower_variance_decides_sooner() {
        // The same mean score (0.6): single games (0/1) against pairs whose two games mostly
        // cancel the deal's luck (½ three times in five, else 1 or 0).
        let config = SprtConfig::default();
        let mut games = 0u64;
        let mut pairs = 0u64;
        for seed in 0..100u64 {
            games += u64::from(run(0.6, seed, config).1);
            let mut sprt = Sprt::new(config);
            let mut i = 0;
            while sprt.decision() == SprtDecision::Continue {
                let u = uniform(seed + 7_000, i);
                sprt.add(if u < 0.25 {
                    1.0
                } else if u < 0.95 {
                    0.5
                } else {
                    0.0
                });
                i += 1;
            }
            pairs += u64::from(sprt.samples()) * 2;
        }
        assert!(pairs < games, "paired {pairs} games, independent {games}");
    }
}
