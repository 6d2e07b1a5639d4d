//! Think times of hosted matches: each seat's decisions summed up in a fixed, log-spaced
//! histogram ([`ThinkSummary`]), stored with the match's result (migration 6) and read back
//! merged over a bot's recent matches, per version ([`VersionThink`]).
//!
//! A summary is a few numbers whatever the match's length: [`THINK_BUCKETS`] counts, where
//! bucket 0 holds decisions faster than 16 µs and bucket `i` the decisions from
//! 2<sup>i+3</sup> µs to twice that (the last one everything from about 67 s), plus the count,
//! the sum and the slowest. Quantiles read from it are within a factor of two.

use crate::StoreError;

/// Buckets in a [`ThinkSummary`].
pub const THINK_BUCKETS: usize = 24;

/// Migration 6 with the type of its bytes (`BLOB`, `BYTEA`): one row per seat of a done match
/// that made decisions, and the index a bot's page reads its latest rows by.
macro_rules! migration {
    ($bytes:literal) => {
        concat!(
            "CREATE TABLE ladder_think_times (
                match_id BIGINT NOT NULL REFERENCES ladder_matches(id),
                seat BIGINT NOT NULL,
                ladder_id BIGINT NOT NULL REFERENCES ladders(id),
                bot_id BIGINT NOT NULL REFERENCES bots(id),
                version TEXT NOT NULL,
                decisions BIGINT NOT NULL,
                sum_us BIGINT NOT NULL,
                max_us BIGINT NOT NULL,
                buckets ",
            $bytes,
            " NOT NULL,
                PRIMARY KEY (match_id, seat)
            );
            CREATE INDEX ladder_think_times_by_bot
                ON ladder_think_times (ladder_id, bot_id, match_id);"
        )
    };
}

/// Migration 6 on SQLite.
pub(crate) const SQLITE_MIGRATION: &str = migration!("BLOB");

/// Migration 6 on PostgreSQL.
pub(crate) const POSTGRES_MIGRATION: &str = migration!("BYTEA");

/// Bytes of a summary's stored buckets: each count a little-endian `u32`.
const STORED_BYTES: usize = THINK_BUCKETS * 4;

/// One seat's (or many seats') think times: a log-spaced histogram, count, sum and maximum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThinkSummary {
    /// Decisions per bucket (see [`ThinkSummary::edges_us`]).
    pub buckets: [u64; THINK_BUCKETS],
    /// Decisions timed.
    pub count: u64,
    /// Their total, microseconds.
    pub sum_us: u64,
    /// The slowest, microseconds.
    pub max_us: u64,
}

/// One version's think times over a bot's recent matches ([`Store::bot_think_times`]).
///
/// [`Store::bot_think_times`]: crate::Store::bot_think_times
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionThink {
    /// The version the bot reported ("" if none).
    pub version: String,
    /// Matches of the window it played with it.
    pub matches: u64,
    /// Its think times in them, merged.
    pub think: ThinkSummary,
}

impl ThinkSummary {
    /// The summary of `micros`, one decision's think time each.
    pub fn from_micros(micros: &[u32]) -> ThinkSummary {
        let mut summary = ThinkSummary::default();
        for &us in micros {
            summary.add(u64::from(us));
        }
        summary
    }

    /// Adds one decision of `us` microseconds.
    pub fn add(&mut self, us: u64) {
        self.buckets[Self::bucket_of(us)] += 1;
        self.count += 1;
        self.sum_us = self.sum_us.saturating_add(us);
        self.max_us = self.max_us.max(us);
    }

    /// Adds every decision of `other`.
    pub fn merge(&mut self, other: &ThinkSummary) {
        for (mine, theirs) in self.buckets.iter_mut().zip(&other.buckets) {
            *mine = mine.saturating_add(*theirs);
        }
        self.count = self.count.saturating_add(other.count);
        self.sum_us = self.sum_us.saturating_add(other.sum_us);
        self.max_us = self.max_us.max(other.max_us);
    }

    /// The bucket a decision of `us` microseconds falls in.
    pub fn bucket_of(us: u64) -> usize {
        if us < 16 {
            return 0;
        }
        // 16..32 has 5 significant bits and is bucket 1.
        let bits = (u64::BITS - us.leading_zeros()) as usize;
        (bits - 4).min(THINK_BUCKETS - 1)
    }

    /// Bucket `i`'s edges in microseconds, lower inclusive and upper exclusive; the last
    /// bucket's upper edge is open (`u64::MAX`).
    pub fn edges_us(i: usize) -> (u64, u64) {
        let lower = if i == 0 { 0 } else { 1u64 << (i + 3) };
        let upper = if i + 1 >= THINK_BUCKETS { u64::MAX } else { 1u64 << (i + 4) };
        (lower, upper)
    }

    /// The mean think time, microseconds; `None` without decisions.
    pub fn mean_us(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum_us as f64 / self.count as f64)
    }

    /// An upper bound of the `q`-quantile (`0.5` the median), microseconds: the upper edge of
    /// the bucket that holds it, never above the slowest decision; `None` without decisions.
    pub fn quantile_us(&self, q: f64) -> Option<u64> {
        let total: u64 = self.buckets.iter().sum();
        if total == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (i, &n) in self.buckets.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return Some(Self::edges_us(i).1.min(self.max_us));
            }
        }
        Some(self.max_us)
    }

    /// The buckets as stored: each count a little-endian `u32` (a seat's decisions in one
    /// match fit; a larger count is stored as `u32::MAX`).
    pub(crate) fn stored_buckets(&self) -> Vec<u8> {
        self.buckets
            .iter()
            .flat_map(|&n| u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes())
            .collect()
    }

    /// A stored summary read back; [`StoreError::Corrupt`] if its buckets are not
    /// [`THINK_BUCKETS`] counts or a number is negative.
    pub(crate) fn from_stored(
        count: i64,
        sum_us: i64,
        max_us: i64,
        buckets: &[u8],
    ) -> Result<ThinkSummary, StoreError> {
        let corrupt = || {
            StoreError::Corrupt(format!(
                "a think-time summary of {} bytes (count {count}, sum {sum_us}, max {max_us}); \
                 one is {STORED_BYTES} bytes and non-negative numbers",
                buckets.len()
            ))
        };
        if buckets.len() != STORED_BYTES {
            return Err(corrupt());
        }
        let unsigned = |n: i64| u64::try_from(n).map_err(|_| corrupt());
        let mut summary = ThinkSummary {
            buckets: [0; THINK_BUCKETS],
            count: unsigned(count)?,
            sum_us: unsigned(sum_us)?,
            max_us: unsigned(max_us)?,
        };
        for (slot, bytes) in summary.buckets.iter_mut().zip(buckets.chunks_exact(4)) {
            let mut word = [0u8; 4];
            word.copy_from_slice(bytes);
            *slot = u64::from(u32::from_le_bytes(word));
        }
        Ok(summary)
    }

    /// A stored number (`INTEGER`/`BIGINT`): saturated at `i64::MAX`.
    pub(crate) fn stored(n: u64) -> i64 {
        i64::try_from(n).unwrap_or(i64::MAX)
    }
}

/// Merges one row per seat, newest match first, into one line per version, the version of
/// the newest match first.
pub(crate) fn by_version(
    rows: impl IntoIterator<Item = (String, ThinkSummary)>,
) -> Vec<VersionThink> {
    let mut out: Vec<VersionThink> = Vec::new();
    for (version, think) in rows {
        match out.iter_mut().find(|v| v.version == version) {
            Some(line) => {
                line.matches += 1;
                line.think.merge(&think);
            }
            None => out.push(VersionThink { version, matches: 1, think }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_time_falls_in_the_bucket_whose_edges_hold_it() {
        for us in [0, 1, 15, 16, 17, 31, 32, 1_000, 65_535, 1 << 26, (1 << 26) - 1, u64::MAX] {
            let i = ThinkSummary::bucket_of(us);
            let (lower, upper) = ThinkSummary::edges_us(i);
            assert!(lower <= us && (us < upper || upper == u64::MAX), "{us} in bucket {i}");
        }
        assert_eq!(ThinkSummary::bucket_of(u64::MAX), THINK_BUCKETS - 1);
    }

    #[test]
    fn a_summary_survives_storage_and_quantiles_bound_the_times() {
        let times: Vec<u32> = (1..=1_000).map(|i| i * 37).collect();
        let summary = ThinkSummary::from_micros(&times);
        assert_eq!(summary.count, 1_000);
        assert_eq!(summary.max_us, 37_000);
        assert_eq!(summary.sum_us, times.iter().map(|&t| u64::from(t)).sum::<u64>());
        let stored = summary.stored_buckets();
        let back = ThinkSummary::from_stored(1_000, summary.sum_us as i64, 37_000, &stored);
        assert_eq!(back.unwrap(), summary);
        // The true median is 18,500 µs: the bound is its bucket's upper edge, within 2x.
        let median = summary.quantile_us(0.5).unwrap();
        assert!((18_500..=37_000).contains(&median), "{median}");
        assert_eq!(summary.quantile_us(1.0), Some(37_000));
        assert_eq!(ThinkSummary::default().quantile_us(0.5), None);
        assert!(matches!(
            ThinkSummary::from_stored(1, 1, 1, &stored[..8]),
            Err(StoreError::Corrupt(_))
        ));
        assert!(matches!(
            ThinkSummary::from_stored(-1, 1, 1, &stored),
            Err(StoreError::Corrupt(_))
        ));
    }

    #[test]
    fn rows_merge_per_version_newest_first() {
        let one = ThinkSummary::from_micros(&[100, 200]);
        let lines = by_version([("2".into(), one), ("1".into(), one), ("2".into(), one)]);
        assert_eq!(lines.len(), 2);
        assert_eq!(
            (lines[0].version.as_str(), lines[0].matches, lines[0].think.count),
            ("2", 2, 4)
        );
        assert_eq!((lines[1].version.as_str(), lines[1].matches), ("1", 1));
    }
}
