//! A hosted ladder's standings: what an organizer can trust about its order, as the ladder's
//! runner last computed it from the stored sets (the arena's `Settlement`), kept one snapshot
//! per ladder (migration 3: `ladder_standings` and `ladder_standings_rows`).
//!
//! The store only keeps what it is given: it knows no statistics. A snapshot is tagged with
//! the ladder's revision (its sets rated when computed), and a snapshot of an older revision
//! than the stored one is refused, so a slow writer never hides a newer snapshot.

use crate::{BotId, StoreError};

/// A ladder's standings at one revision (see the `standings` module's docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// The ladder's sets rated when the standings were computed: the revision they are of.
    pub revision: u64,
    /// The first set index the standings count (0; a finals ladder's first finals set).
    pub first_set: u64,
    /// The sets counted (rated sets from `first_set` on).
    pub sets: u64,
    /// The confidence of the rank intervals and of "indistinguishable from first", for the
    /// whole order at once (0.95).
    pub confidence: f64,
    /// Whether every bot is confidently better than the next at that confidence.
    pub settled: bool,
    /// When the standings were computed, in milliseconds since the Unix epoch.
    pub computed_ms: i64,
    /// The bots, best first.
    pub rows: Vec<StandingsRow>,
    /// The head-to-head SPRT's state, in a ladder of format `sprt`.
    pub sprt: Option<SprtStanding>,
}

/// One bot's line of [`Standings`].
#[derive(Clone, Debug, PartialEq)]
pub struct StandingsRow {
    /// The bot.
    pub bot: BotId,
    /// Its best possible rank (1 is first) at the standings' confidence.
    pub rank_lo: u32,
    /// Its worst possible rank.
    pub rank_hi: u32,
    /// Whether it could be first: its rank interval includes 1 (it is not confidently worse
    /// than the leader).
    pub indistinguishable_from_first: bool,
    /// How sure the evidence is that this bot is better than each bot of [`Standings::rows`],
    /// in the rows' order: one less an anytime-valid p-value adjusted for every pair of the
    /// table (the arena's `confidence_better`), honest however often it is looked at; 0
    /// against itself and without evidence.
    pub p_better: Vec<f64>,
}

/// A head-to-head SPRT's state ("is `a` better than `b`?").
#[derive(Clone, Debug, PartialEq)]
pub struct SprtStanding {
    /// The bot tested.
    pub a: BotId,
    /// The bot it is tested against.
    pub b: BotId,
    /// The samples so far (duplicate sets).
    pub samples: u32,
    /// The log-likelihood ratio of H1 (a is better by `elo1`) against H0 (by `elo0`).
    pub llr: f64,
    /// The bound below which H0 is accepted.
    pub lower: f64,
    /// The bound above which H1 is accepted.
    pub upper: f64,
    /// The decision: `undecided`, `H0 accepted` or `H1 accepted` (the arena's
    /// `SprtDecision::as_str`).
    pub decision: String,
}

impl Standings {
    /// Checks the snapshot is whole: every row's `p_better` has one entry per row, every rank
    /// interval is within `1..=rows` and ordered, and no bot appears twice.
    /// [`StoreError::Conflict`] names what is wrong.
    pub fn check(&self) -> Result<(), StoreError> {
        let k = self.rows.len();
        for (i, row) in self.rows.iter().enumerate() {
            if row.p_better.len() != k {
                return Err(StoreError::Conflict(format!(
                    "standings row {i} has {} pairwise probabilities for {k} rows",
                    row.p_better.len()
                )));
            }
            if row.rank_lo < 1 || row.rank_lo > row.rank_hi || row.rank_hi as usize > k {
                return Err(StoreError::Conflict(format!(
                    "standings row {i} has the rank interval {}..={} among {k} bots",
                    row.rank_lo, row.rank_hi
                )));
            }
            if self.rows[..i].iter().any(|other| other.bot == row.bot) {
                return Err(StoreError::Conflict(format!(
                    "bot {} appears twice in the standings",
                    row.bot.0
                )));
            }
        }
        Ok(())
    }
}

/// A row's pairwise probabilities as stored: little-endian `f64`s, exact.
pub(crate) fn encode_p_better(p: &[f64]) -> Vec<u8> {
    p.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The stored probabilities back, `rows` of them; anything else is corrupt.
pub(crate) fn decode_p_better(bytes: &[u8], rows: usize) -> Result<Vec<f64>, StoreError> {
    if bytes.len() != rows * 8 {
        return Err(StoreError::Corrupt(format!(
            "a standings row holds {} bytes of pairwise probabilities for {rows} rows",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(8)
        .map(|chunk| {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            f64::from_le_bytes(word)
        })
        .collect())
}

/// The SPRT columns of a `ladder_standings` row (all set or none) as a [`SprtStanding`].
pub(crate) struct SprtColumns {
    pub(crate) a: Option<i64>,
    pub(crate) b: Option<i64>,
    pub(crate) samples: Option<i64>,
    pub(crate) llr: Option<f64>,
    pub(crate) lower: Option<f64>,
    pub(crate) upper: Option<f64>,
    pub(crate) decision: Option<String>,
}

impl SprtColumns {
    /// The columns of `sprt`.
    pub(crate) fn of(sprt: Option<&SprtStanding>) -> SprtColumns {
        SprtColumns {
            a: sprt.map(|s| s.a.0),
            b: sprt.map(|s| s.b.0),
            samples: sprt.map(|s| i64::from(s.samples)),
            llr: sprt.map(|s| s.llr),
            lower: sprt.map(|s| s.lower),
            upper: sprt.map(|s| s.upper),
            decision: sprt.map(|s| s.decision.clone()),
        }
    }

    /// The state, if the columns hold one; some set and some not is corrupt.
    pub(crate) fn into_standing(self) -> Result<Option<SprtStanding>, StoreError> {
        match self {
            SprtColumns {
                a: Some(a),
                b: Some(b),
                samples: Some(samples),
                llr: Some(llr),
                lower: Some(lower),
                upper: Some(upper),
                decision: Some(decision),
            } => Ok(Some(SprtStanding {
                a: BotId(a),
                b: BotId(b),
                samples: u32::try_from(samples)
                    .map_err(|_| StoreError::Corrupt(format!("an SPRT of {samples} samples")))?,
                llr,
                lower,
                upper,
                decision,
            })),
            SprtColumns {
                a: None,
                b: None,
                samples: None,
                llr: None,
                lower: None,
                upper: None,
                decision: None,
            } => Ok(None),
            _ => Err(StoreError::Corrupt("a standings snapshot with half an SPRT".into())),
        }
    }
}

/// The one order of a ladder's leaderboard, as indices into `lines`: the standings' order (the
/// head-to-head order their rank intervals and pairwise matrix are of: `position` gives a bot's
/// place in it, best first, `None` for a bot they do not hold yet), then the bots they do not
/// hold, by conservative rating (mean less three deviations), then by id. Every table of a
/// ladder (the `GetLeaderboard` rpc, the command line, the pages) ranks its rows so, so that
/// its rank column, its rank intervals and the order it prints agree.
pub fn leaderboard_order(
    lines: &[crate::LeaderboardLine],
    position: impl Fn(crate::BotId) -> Option<usize>,
) -> Vec<usize> {
    let low = |line: &crate::LeaderboardLine| line.rating.mean - 3.0 * line.rating.sigma;
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&lines[a], &lines[b]);
        let at = |bot| position(bot).unwrap_or(usize::MAX);
        at(x.bot).cmp(&at(y.bot)).then(low(y).total_cmp(&low(x))).then(x.bot.cmp(&y.bot))
    });
    order
}

impl Standings {
    /// `bot`'s place in the standings' order (0 is first), if they hold it.
    pub fn position(&self, bot: crate::BotId) -> Option<usize> {
        self.rows.iter().position(|row| row.bot == bot)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_round_trip_exactly_and_a_short_row_is_corrupt() {
        let p = [0.5, 1.0 / 3.0, f64::MIN_POSITIVE, 0.999_999_999_9];
        assert_eq!(decode_p_better(&encode_p_better(&p), 4).unwrap(), p);
        assert!(matches!(decode_p_better(&encode_p_better(&p), 3), Err(StoreError::Corrupt(_))));
    }

    #[test]
    fn a_snapshot_with_a_ragged_matrix_or_a_rank_out_of_range_is_refused() {
        let row = |bot, lo, hi, p: Vec<f64>| StandingsRow {
            bot: BotId(bot),
            rank_lo: lo,
            rank_hi: hi,
            indistinguishable_from_first: lo == 1,
            p_better: p,
        };
        let mut standings = Standings {
            revision: 3,
            first_set: 0,
            sets: 3,
            confidence: 0.95,
            settled: false,
            computed_ms: 1,
            rows: vec![row(1, 1, 2, vec![0.5, 0.7]), row(2, 1, 2, vec![0.3, 0.5])],
            sprt: None,
        };
        standings.check().unwrap();
        standings.rows[1].p_better.pop();
        assert!(matches!(standings.check(), Err(StoreError::Conflict(_))));
        standings.rows[1] = row(2, 2, 3, vec![0.3, 0.5]);
        assert!(matches!(standings.check(), Err(StoreError::Conflict(_))));
        standings.rows[1] = row(1, 1, 2, vec![0.3, 0.5]);
        assert!(matches!(standings.check(), Err(StoreError::Conflict(_))));
    }
}
