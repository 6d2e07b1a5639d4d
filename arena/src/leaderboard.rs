//! The leaderboard: every bot with its rating, uncertainty and statistics, as a text table,
//! JSON or CSV, and what an organizer can trust of the order: each bot's rank interval, the
//! probability that one bot is better than another, and which bots cannot be told from the
//! first.
//!
//! Two modes ([`Mode`]). *Live* sorts by the conservative rating of the ladder's sequential
//! updates, as bots come, go and change. *Finals* is for the end of a competition, when the
//! bots are frozen: every rated set weighs the same whatever its place in the ladder (no rating
//! drift), the order is the head-to-head one ([`PairTable::order`]) and the rating shown is
//! the Elo of each bot's mean head-to-head score. In both, the intervals and probabilities come
//! from the head-to-head evidence of the rated sets ([`cardroom_rank::pairwise`]): rank intervals hold
//! for the whole table at 95%, at any time they are looked at.

use std::fmt::Write;

use serde::Serialize;

use crate::store::{Store, StoreError};
use cardroom_rank::pairwise::PairTable;
use cardroom_rank::sprt::score_to_elo;
use cardroom_rank::stats::Stats;

/// The error rate of the leaderboard's rank intervals and "indistinguishable from first".
pub const ALPHA: f64 = 0.05;

/// How the leaderboard orders and rates the bots.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// The sequential ratings' conservative estimate.
    #[default]
    Live,
    /// Frozen bots: every set weighs the same, the order is the head-to-head one.
    Finals,
}

/// One bot's line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// Its rank, from 1.
    pub rank: usize,
    /// Its name.
    pub name: String,
    /// Rating mean.
    pub rating: f64,
    /// Rating uncertainty (standard deviation).
    pub sigma: f64,
    /// The best rank it can have at 95% confidence for the whole table (one more than the bots
    /// confidently better than it).
    pub rank_low: usize,
    /// The worst rank it can have at 95% confidence.
    pub rank_high: usize,
    /// No bot is confidently better than it: it cannot be told from the first.
    pub indistinguishable_from_first: bool,
    /// Matches played.
    pub matches: u32,
    /// Share of matches won.
    pub win_rate: f64,
    /// Average place.
    pub average_place: f64,
    /// Illegal choices.
    pub illegal: u32,
    /// Timeouts.
    pub timeouts: u32,
    /// Crashes.
    pub crashes: u32,
    /// Median think time, milliseconds, to the microsecond (at most 3 decimals).
    pub think_p50_ms: Option<f64>,
    /// 99th-percentile think time, milliseconds, to the microsecond.
    pub think_p99_ms: Option<f64>,
}

/// Microseconds as milliseconds rounded to the microsecond, so that JSON and CSV print `0.05`,
/// not the bucket edge's `0.05000000000000004`.
fn whole_micros_as_ms(micros: f64) -> f64 {
    micros.round() / 1000.0
}

/// A finals rating: the Elo of `bot`'s mean head-to-head score against the field, and its
/// standard error in Elo (the delta method on the mean of its pairs' standard errors).
fn finals_rating(pairs: &PairTable, bot: usize, score: f64) -> (f64, f64) {
    let others: Vec<usize> = (0..pairs.bots()).filter(|&b| b != bot).collect();
    let k = others.len().max(1) as f64;
    let variance: f64 = others
        .iter()
        .map(|&b| {
            let t = pairs.tally(bot, b);
            if t.n == 0 { 0.25 } else { t.standard_error(0.0).powi(2) }
        })
        .sum::<f64>()
        / (k * k);
    let s = score.clamp(0.01, 0.99);
    let slope = 400.0 / std::f64::consts::LN_10 / (s * (1.0 - s));
    (score_to_elo(score), slope * variance.sqrt())
}

/// A ladder's leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Leaderboard {
    /// How it is ordered and rated.
    pub mode: Mode,
    /// Best first.
    pub rows: Vec<Row>,
    /// `p_better[i][j]`: how sure the evidence is that the bot of row `i` is better than the
    /// bot of row `j` ([`cardroom_rank::settle::confidence_better`]: honest however often it is looked
    /// at; 0 without evidence, and on the diagonal).
    pub p_better: Vec<Vec<f64>>,
}

impl Leaderboard {
    /// The live leaderboard of the ladder in `store`.
    pub fn from_store(store: &Store) -> Result<Leaderboard, StoreError> {
        Leaderboard::from_store_in(store, Mode::Live)
    }

    /// The leaderboard of the ladder in `store` in `mode`.
    pub fn from_store_in(store: &Store, mode: Mode) -> Result<Leaderboard, StoreError> {
        let names = store.bot_names()?;
        let ratings = store.ratings()?;
        let mut stats = Stats::new(names.len());
        for outcome in store.outcomes()? {
            stats.add(&outcome);
        }
        let mut pairs = PairTable::new(names.len());
        for set in store.rated_set_outcomes()? {
            let matches: Vec<&[(usize, u8)]> = set.iter().map(|o| &o.places[..]).collect();
            pairs.add_set(&matches);
        }
        let intervals = pairs.rank_intervals(0.0, ALPHA);
        let scores = pairs.mean_scores(0.0);
        let mut rows: Vec<(usize, Row)> = names
            .into_iter()
            .zip(ratings)
            .zip(stats.bots)
            .enumerate()
            .map(|(bot, ((name, r), s))| {
                let (rating, sigma) = match mode {
                    Mode::Live => (r.mean, r.sigma),
                    Mode::Finals => finals_rating(&pairs, bot, scores[bot]),
                };
                (
                    bot,
                    Row {
                        rank: 0,
                        name,
                        rating,
                        sigma,
                        rank_low: intervals[bot].0,
                        rank_high: intervals[bot].1,
                        indistinguishable_from_first: intervals[bot].0 == 1,
                        matches: s.matches,
                        win_rate: s.win_rate(),
                        average_place: s.average_place(),
                        illegal: s.illegal,
                        timeouts: s.timeouts,
                        crashes: s.crashes,
                        think_p50_ms: s.think.quantile(0.5).map(whole_micros_as_ms),
                        think_p99_ms: s.think.quantile(0.99).map(whole_micros_as_ms),
                    },
                )
            })
            .collect();
        match mode {
            Mode::Live => rows.sort_by(|(_, a), (_, b)| {
                (b.rating - 3.0 * b.sigma).total_cmp(&(a.rating - 3.0 * a.sigma))
            }),
            Mode::Finals => {
                let order = pairs.order(0.0, &[]);
                rows.sort_by_key(|(bot, _)| order.iter().position(|b| b == bot));
            }
        }
        let bots: Vec<usize> = rows.iter().map(|&(bot, _)| bot).collect();
        let p_better = bots
            .iter()
            .map(|&a| {
                bots.iter()
                    .map(|&b| cardroom_rank::settle::confidence_better(&pairs, a, b))
                    .collect()
            })
            .collect();
        let mut rows: Vec<Row> = rows.into_iter().map(|(_, row)| row).collect();
        for (i, row) in rows.iter_mut().enumerate() {
            row.rank = i + 1;
        }
        Ok(Leaderboard { mode, rows, p_better })
    }

    /// The names of the bots that cannot be told from the first.
    pub fn indistinguishable_from_first(&self) -> Vec<&str> {
        self.rows
            .iter()
            .filter(|r| r.indistinguishable_from_first)
            .map(|r| r.name.as_str())
            .collect()
    }

    /// A text table.
    pub fn to_table(&self) -> String {
        let width = self.rows.iter().map(|r| r.name.len()).max().unwrap_or(3).max(3);
        let mut out = format!(
            "{:>4}  {:<width$}  {:>9}  {:>7}  {:>7}  {:>7}  {:>5}  {:>6}  {:>7}  {:>8}  {:>7}  {:>8}  {:>8}\n",
            "rank",
            "bot",
            "rating",
            "±σ",
            "ranks",
            "matches",
            "win%",
            "place",
            "illegal",
            "timeouts",
            "crashes",
            "p50 ms",
            "p99 ms"
        );
        let ms = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.3}"));
        for r in &self.rows {
            let _ = writeln!(
                out,
                "{:>4}  {:<width$}  {:>9.2}  {:>7.2}  {:>7}  {:>7}  {:>5.1}  {:>6.2}  {:>7}  {:>8}  {:>7}  {:>8}  {:>8}",
                r.rank,
                r.name,
                r.rating,
                r.sigma,
                format!(
                    "{}{}-{}",
                    if r.indistinguishable_from_first { "*" } else { "" },
                    r.rank_low,
                    r.rank_high
                ),
                r.matches,
                100.0 * r.win_rate,
                r.average_place,
                r.illegal,
                r.timeouts,
                r.crashes,
                ms(r.think_p50_ms),
                ms(r.think_p99_ms),
            );
        }
        let _ = writeln!(
            out,
            "ranks: the 95% interval for the whole table; *: cannot be told from the first ({})",
            match self.mode {
                Mode::Live => "live ratings",
                Mode::Finals => "finals: every set weighs the same",
            }
        );
        out
    }

    /// The pairwise confidences as a text table: how sure that the row's bot is better than
    /// the column's.
    pub fn to_pairwise_table(&self) -> String {
        let width = self.rows.iter().map(|r| r.name.len()).max().unwrap_or(3).max(9);
        let mut out = format!("{:<width$}", "sure row>");
        for r in &self.rows {
            let _ = write!(out, "  {:>6}", r.rank);
        }
        out.push('\n');
        for (row, p) in self.rows.iter().zip(&self.p_better) {
            let _ = write!(out, "{:<width$}", format!("{} {}", row.rank, row.name));
            for x in p {
                let _ = write!(out, "  {x:>6.3}");
            }
            out.push('\n');
        }
        out
    }

    /// CSV with a header line; the columns are named as [`Row`]'s JSON fields.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "rank,name,rating,sigma,rank_low,rank_high,indistinguishable_from_first,matches,win_rate,average_place,illegal,timeouts,crashes,think_p50_ms,think_p99_ms\n",
        );
        let opt = |v: Option<f64>| v.map_or_else(String::new, |v| v.to_string());
        for r in &self.rows {
            let name = if r.name.contains([',', '"', '\n']) {
                format!("\"{}\"", r.name.replace('"', "\"\""))
            } else {
                r.name.clone()
            };
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                r.rank,
                name,
                r.rating,
                r.sigma,
                r.rank_low,
                r.rank_high,
                r.indistinguishable_from_first,
                r.matches,
                r.win_rate,
                r.average_place,
                r.illegal,
                r.timeouts,
                r.crashes,
                opt(r.think_p50_ms),
                opt(r.think_p99_ms)
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::PlannedMatch;
    use cardroom_rank::rating::{PairedResult, Rating, RatingSystem, Ratings};
    use cardroom_rank::stats::{MatchOutcome, SeatHealth};

    #[test]
    fn sorted_by_conservative_rating_in_every_form() {
        let mut store = Store::in_memory().unwrap();
        let names = ["weak".to_owned(), "strong, \"quoted\"".to_owned()];
        store.begin("{}", &names, Rating::initial(RatingSystem::Glicko2)).unwrap();
        let set =
            store.add_set(0, &[0, 1], &[PlannedMatch { seed: 1, seats: vec![0, 1] }]).unwrap();
        let id = store.pending_matches().unwrap()[0].id;
        let outcome = MatchOutcome {
            places: vec![(0, 2), (1, 1)],
            health: vec![SeatHealth::default(), SeatHealth::default()],
            decisions: 1,
        };
        store.finish_match(id, &outcome, None).unwrap();
        let paired = PairedResult::from_matches([&outcome.places[..]]);
        let mut ratings = Ratings::new(RatingSystem::Glicko2, 2);
        let changes = ratings.update(&paired).unwrap();
        store.rate_set(set, &paired, &changes).unwrap();

        let board = Leaderboard::from_store(&store).unwrap();
        assert_eq!(board.rows[0].name, names[1]);
        assert_eq!((board.rows[0].rank, board.rows[0].matches), (1, 1));
        assert!((board.rows[0].win_rate - 1.0).abs() < 1e-12);
        let table = board.to_table();
        assert_eq!(table.lines().count(), 4);
        assert!(table.lines().nth(1).unwrap().contains("strong"));
        let csv = board.to_csv();
        assert!(csv.lines().nth(1).unwrap().starts_with("1,\"strong, \"\"quoted\"\"\",1662"));
        // One set is no evidence: both may be first.
        assert_eq!(board.indistinguishable_from_first().len(), 2);
        assert_eq!((board.rows[1].rank_low, board.rows[1].rank_high), (1, 2));
        let json = serde_json::to_value(&board).unwrap();
        assert_eq!(json["rows"][1]["name"], "weak");
    }

    #[test]
    fn csv_columns_are_the_json_fields_and_think_times_are_whole_microseconds() {
        let mut store = Store::in_memory().unwrap();
        let names = ["a".to_owned(), "b".to_owned()];
        store.begin("{}", &names, Rating::initial(RatingSystem::Glicko2)).unwrap();
        store.add_set(0, &[0, 1], &[PlannedMatch { seed: 1, seats: vec![0, 1] }]).unwrap();
        let id = store.pending_matches().unwrap()[0].id;
        let mut think = cardroom_rank::stats::ThinkTimes::default();
        for micros in [48, 50, 52] {
            think.add(micros);
        }
        let seat = SeatHealth { think, ..SeatHealth::default() };
        let outcome = MatchOutcome {
            places: vec![(0, 1), (1, 2)],
            health: vec![seat.clone(), seat],
            decisions: 3,
        };
        store.finish_match(id, &outcome, None).unwrap();
        let board = Leaderboard::from_store(&store).unwrap();

        let json = serde_json::to_value(&board).unwrap();
        let fields: Vec<&String> = json["rows"][0].as_object().unwrap().keys().collect();
        let csv = board.to_csv();
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let mut sorted = header.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, fields, "{csv}");
        // The bucket edge is a whole number of microseconds: at most 3 decimals in both forms.
        let p50 = board.rows[0].think_p50_ms.unwrap().to_string();
        let decimals = p50.split_once('.').map_or(0, |(_, d)| d.len());
        assert!(decimals <= 3 && p50.starts_with("0.0"), "{p50}");
        assert!(csv.lines().nth(1).unwrap().contains(&format!(",{p50},")), "{csv}");
        assert!(serde_json::to_string(&board).unwrap().contains(&format!(":{p50},")));
    }

    #[test]
    fn finals_order_by_head_to_head_with_intervals_and_probabilities() {
        // Three bots; "best" always first, "middle" second, "worst" third, over 40 sets of
        // two matches each, rated in an order that favours "worst" late (live ratings drift).
        let mut store = Store::in_memory().unwrap();
        let names = ["worst".to_owned(), "middle".to_owned(), "best".to_owned()];
        store.begin("{}", &names, Rating::initial(RatingSystem::WengLin)).unwrap();
        let mut ratings = Ratings::new(RatingSystem::WengLin, 3);
        for i in 0..40u64 {
            let planned = [
                PlannedMatch { seed: i, seats: vec![0, 1, 2] },
                PlannedMatch { seed: i, seats: vec![2, 0, 1] },
            ];
            let set = store.add_set(0, &[0, 1, 2], &planned).unwrap();
            for m in store.pending_matches().unwrap() {
                let outcome = MatchOutcome {
                    places: vec![(0, 3), (1, 2), (2, 1)],
                    health: vec![SeatHealth::default(); 3],
                    decisions: 1,
                };
                store.finish_match(m.id, &outcome, None).unwrap();
            }
            let (_, outcomes) = store.unrated_sets().unwrap().remove(0);
            let paired = PairedResult::from_matches(outcomes.iter().map(|o| &o.places[..]));
            let changes = ratings.update(&paired).unwrap();
            store.rate_set(set, &paired, &changes).unwrap();
        }
        for mode in [Mode::Live, Mode::Finals] {
            let board = Leaderboard::from_store_in(&store, mode).unwrap();
            let order: Vec<&str> = board.rows.iter().map(|r| r.name.as_str()).collect();
            assert_eq!(order, ["best", "middle", "worst"], "{mode:?}");
            let intervals: Vec<(usize, usize)> =
                board.rows.iter().map(|r| (r.rank_low, r.rank_high)).collect();
            assert_eq!(intervals, [(1, 1), (2, 2), (3, 3)]);
            assert_eq!(board.indistinguishable_from_first(), ["best"]);
            assert!(board.p_better[0][2] > 0.99 && board.p_better[2][0] == 0.0);
            assert_eq!(board.p_better[1][1], 0.0);
            assert_eq!(board.to_pairwise_table().lines().count(), 4);
        }
        let finals = Leaderboard::from_store_in(&store, Mode::Finals).unwrap();
        assert!(finals.rows[0].rating > 0.0 && finals.rows[2].rating < 0.0);
        assert_eq!(serde_json::to_value(&finals).unwrap()["mode"], "finals");
    }
}
