//! Per-bot statistics beside the ratings: win rates, average place, the head-to-head table and
//! health (illegal actions, timeouts, crashes, think-time percentiles).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One seat's conduct in one match.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SeatHealth {
    /// Choices refused as illegal (replaced by the default action).
    pub illegal: u32,
    /// Decisions that ran out of time (the server played the default action).
    pub timeouts: u32,
    /// Whether the bot's process or connection died during the match.
    pub crashed: bool,
    /// Its think times.
    pub think: ThinkTimes,
}

/// Think times in microseconds, kept as a histogram with buckets 5% wide, so that a bot's
/// whole history fits in a few hundred numbers and percentiles stay within 5%.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ThinkTimes {
    buckets: BTreeMap<u16, u64>,
}

const GROWTH: f64 = 1.05;

impl ThinkTimes {
    /// Adds one decision's think time.
    pub fn add(&mut self, micros: u64) {
        let bucket = ((micros as f64 + 1.0).ln() / GROWTH.ln()).floor() as u16;
        *self.buckets.entry(bucket).or_insert(0) += 1;
    }

    /// Adds every sample of `other`.
    pub fn merge(&mut self, other: &ThinkTimes) {
        for (&b, &n) in &other.buckets {
            *self.buckets.entry(b).or_insert(0) += n;
        }
    }

    /// Decisions recorded.
    pub fn count(&self) -> u64 {
        self.buckets.values().sum()
    }

    /// The histogram: each non-empty bucket as its lower and upper edges in microseconds and
    /// its count, fastest first.
    pub fn buckets(&self) -> impl Iterator<Item = (f64, f64, u64)> + '_ {
        self.buckets.iter().map(|(&b, &n)| {
            (GROWTH.powi(i32::from(b)) - 1.0, GROWTH.powi(i32::from(b) + 1) - 1.0, n)
        })
    }

    /// The `q`-quantile (`0.5` median, `0.99`) in microseconds: the upper edge of the bucket
    /// that holds it; `None` without samples.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        let total = self.count();
        if total == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (&b, &n) in &self.buckets {
            seen += n;
            if seen >= rank {
                return Some(GROWTH.powi(i32::from(b) + 1) - 1.0);
            }
        }
        None
    }
}

/// One finished match as the statistics see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchOutcome {
    /// Per seat: the bot and its place (1 is first; ties share a place).
    pub places: Vec<(usize, u8)>,
    /// Per seat: its health.
    pub health: Vec<SeatHealth>,
    /// Decisions in the match.
    pub decisions: u64,
}

/// What the leaderboard shows of one bot besides its rating.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BotStats {
    /// Matches played.
    pub matches: u32,
    /// Matches finished first (shared first places included).
    pub wins: u32,
    /// Sum of places, for the average.
    pub place_sum: u64,
    /// Illegal choices.
    pub illegal: u32,
    /// Timeouts.
    pub timeouts: u32,
    /// Matches in which it crashed.
    pub crashes: u32,
    /// Think times.
    pub think: ThinkTimes,
}

impl BotStats {
    /// Share of matches won.
    pub fn win_rate(&self) -> f64 {
        if self.matches == 0 { 0.0 } else { f64::from(self.wins) / f64::from(self.matches) }
    }

    /// Average place (0 before any match).
    pub fn average_place(&self) -> f64 {
        if self.matches == 0 { 0.0 } else { self.place_sum as f64 / f64::from(self.matches) }
    }
}

/// Wins, ties and losses of one bot against another, counted per match in which both sat.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeadToHead {
    /// Placed ahead.
    pub wins: u32,
    /// Same place.
    pub ties: u32,
    /// Placed behind.
    pub losses: u32,
}

/// The statistics of a whole ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// Per bot.
    pub bots: Vec<BotStats>,
    /// `head_to_head[a][b]`: `a`'s record against `b`.
    pub head_to_head: Vec<Vec<HeadToHead>>,
}

impl Stats {
    /// Empty statistics for `bots` bots.
    pub fn new(bots: usize) -> Stats {
        Stats {
            bots: vec![BotStats::default(); bots],
            head_to_head: vec![vec![HeadToHead::default(); bots]; bots],
        }
    }

    /// Counts one match; bots outside the ladder are ignored.
    pub fn add(&mut self, outcome: &MatchOutcome) {
        let n = self.bots.len();
        for (i, &(bot, place)) in outcome.places.iter().enumerate() {
            let Some(stats) = self.bots.get_mut(bot) else { continue };
            stats.matches += 1;
            stats.wins += u32::from(place == 1);
            stats.place_sum += u64::from(place);
            if let Some(health) = outcome.health.get(i) {
                stats.illegal += health.illegal;
                stats.timeouts += health.timeouts;
                stats.crashes += u32::from(health.crashed);
                stats.think.merge(&health.think);
            }
            for &(other, other_place) in &outcome.places {
                if other == bot || other >= n {
                    continue;
                }
                let h = &mut self.head_to_head[bot][other];
                match place.cmp(&other_place) {
                    std::cmp::Ordering::Less => h.wins += 1,
                    std::cmp::Ordering::Equal => h.ties += 1,
                    std::cmp::Ordering::Greater => h.losses += 1,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_places_and_head_to_head() {
        let mut stats = Stats::new(3);
        let healthy = || SeatHealth::default();
        stats.add(&MatchOutcome {
            places: vec![(0, 1), (1, 2), (2, 2)],
            health: vec![healthy(), SeatHealth { illegal: 2, ..healthy() }, healthy()],
            decisions: 10,
        });
        stats.add(&MatchOutcome {
            places: vec![(2, 1), (0, 2)],
            health: vec![SeatHealth { timeouts: 1, crashed: true, ..healthy() }, healthy()],
            decisions: 5,
        });
        assert_eq!(stats.bots[0].matches, 2);
        assert_eq!(stats.bots[0].wins, 1);
        assert!((stats.bots[0].average_place() - 1.5).abs() < 1e-12);
        assert!((stats.bots[0].win_rate() - 0.5).abs() < 1e-12);
        assert_eq!(stats.bots[1].illegal, 2);
        assert_eq!((stats.bots[2].timeouts, stats.bots[2].crashes), (1, 1));
        assert_eq!(stats.head_to_head[0][2], HeadToHead { wins: 1, ties: 0, losses: 1 });
        assert_eq!(stats.head_to_head[1][2], HeadToHead { wins: 0, ties: 1, losses: 0 });
        assert_eq!(stats.head_to_head[0][1], HeadToHead { wins: 1, ties: 0, losses: 0 });
    }

    #[test]
    fn think_time_quantiles_within_five_percent() {
        let mut t = ThinkTimes::default();
        assert_eq!(t.quantile(0.5), None);
        for us in 1..=1000u64 {
            t.add(us * 100);
        }
        let median = t.quantile(0.5).unwrap();
        assert!((median / 50_000.0 - 1.0).abs() < 0.06, "median {median}");
        let p99 = t.quantile(0.99).unwrap();
        assert!((p99 / 99_000.0 - 1.0).abs() < 0.06, "p99 {p99}");
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(serde_json::from_str::<ThinkTimes>(&json).unwrap(), t);
    }
}
