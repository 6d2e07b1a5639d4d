//! The leaderboard: every bot with its rating, uncertainty and statistics, sorted by the
//! conservative rating, as a text table, JSON or CSV.

use std::fmt::Write;

use serde::Serialize;

use crate::stats::Stats;
use crate::store::{Store, StoreError};

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

/// A ladder's leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Leaderboard {
    /// Best first.
    pub rows: Vec<Row>,
}

impl Leaderboard {
    /// The leaderboard of the ladder in `store`.
    pub fn from_store(store: &Store) -> Result<Leaderboard, StoreError> {
        let names = store.bot_names()?;
        let ratings = store.ratings()?;
        let mut stats = Stats::new(names.len());
        for outcome in store.outcomes()? {
            stats.add(&outcome);
        }
        let mut rows: Vec<Row> = names
            .into_iter()
            .zip(ratings)
            .zip(stats.bots)
            .map(|((name, r), s)| Row {
                rank: 0,
                name,
                rating: r.mean,
                sigma: r.sigma,
                matches: s.matches,
                win_rate: s.win_rate(),
                average_place: s.average_place(),
                illegal: s.illegal,
                timeouts: s.timeouts,
                crashes: s.crashes,
                think_p50_ms: s.think.quantile(0.5).map(whole_micros_as_ms),
                think_p99_ms: s.think.quantile(0.99).map(whole_micros_as_ms),
            })
            .collect();
        rows.sort_by(|a, b| (b.rating - 3.0 * b.sigma).total_cmp(&(a.rating - 3.0 * a.sigma)));
        for (i, row) in rows.iter_mut().enumerate() {
            row.rank = i + 1;
        }
        Ok(Leaderboard { rows })
    }

    /// A text table.
    pub fn to_table(&self) -> String {
        let width = self.rows.iter().map(|r| r.name.len()).max().unwrap_or(3).max(3);
        let mut out = format!(
            "{:>4}  {:<width$}  {:>9}  {:>7}  {:>7}  {:>5}  {:>6}  {:>7}  {:>8}  {:>7}  {:>8}  {:>8}\n",
            "rank",
            "bot",
            "rating",
            "±σ",
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
                "{:>4}  {:<width$}  {:>9.2}  {:>7.2}  {:>7}  {:>5.1}  {:>6.2}  {:>7}  {:>8}  {:>7}  {:>8}  {:>8}",
                r.rank,
                r.name,
                r.rating,
                r.sigma,
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
        out
    }

    /// CSV with a header line; the columns are named as [`Row`]'s JSON fields.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "rank,name,rating,sigma,matches,win_rate,average_place,illegal,timeouts,crashes,think_p50_ms,think_p99_ms\n",
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
                "{},{},{},{},{},{},{},{},{},{},{},{}",
                r.rank,
                name,
                r.rating,
                r.sigma,
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
    use crate::rating::{PairedResult, Rating, RatingSystem, Ratings};
    use crate::stats::{MatchOutcome, SeatHealth};
    use crate::store::PlannedMatch;

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
        assert_eq!(table.lines().count(), 3);
        assert!(table.lines().nth(1).unwrap().contains("strong"));
        let csv = board.to_csv();
        assert!(csv.lines().nth(1).unwrap().starts_with("1,\"strong, \"\"quoted\"\"\",1662"));
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
        let mut think = crate::stats::ThinkTimes::default();
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
}
