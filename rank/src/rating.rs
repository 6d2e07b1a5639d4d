//! Ratings with their uncertainty, through the `skillratings` crate: Weng-Lin (a Bayesian
//! approximation of TrueSkill for any number of players, ties included) for Twenty-Two's
//! standings, Glicko-2 for Gin Rummy's two-player results, and TrueSkill itself (its factor
//! graph, any number of players) to compare with Weng-Lin.
//!
//! One update per *duplicate set*, from its paired result ([`PairedResult`]): each bot's mean
//! place over the set's seatings. The luck of the deal has then largely cancelled, and a set
//! that both bots win once is a draw, as it should be.

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use skillratings::trueskill::{TrueSkillConfig, TrueSkillRating, trueskill_multi_team};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use skillratings::{MultiTeamOutcome, Outcomes};

/// Which rating system a ladder uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatingSystem {
    /// Weng-Lin (OpenSkill), any table size, ties allowed. Mean 25, uncertainty 25/3.
    WengLin,
    /// Glicko-2, two players only. Mean 1500, deviation 350.
    Glicko2,
    /// TrueSkill (Herbrich et al.'s factor graph), any table size, ties allowed. Mean 25,
    /// uncertainty 25/3.
    #[serde(rename = "trueskill")]
    TrueSkill,
}

impl RatingSystem {
    /// Its name in a ladder file: `weng_lin`, `glicko2`.
    pub const fn name(self) -> &'static str {
        match self {
            RatingSystem::WengLin => "weng_lin",
            RatingSystem::Glicko2 => "glicko2",
            RatingSystem::TrueSkill => "trueskill",
        }
    }
}

/// One bot's rating.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The mean (Weng-Lin's `rating`, Glicko-2's `rating`).
    pub mean: f64,
    /// The standard deviation (Weng-Lin's `uncertainty`, Glicko-2's `deviation`).
    pub sigma: f64,
    /// Glicko-2's volatility; 0 for Weng-Lin.
    pub volatility: f64,
}

impl Rating {
    /// A new bot's rating in `system`.
    pub fn initial(system: RatingSystem) -> Rating {
        match system {
            RatingSystem::WengLin => {
                let r = WengLinRating::new();
                Rating { mean: r.rating, sigma: r.uncertainty, volatility: 0.0 }
            }
            RatingSystem::Glicko2 => {
                let r = Glicko2Rating::new();
                Rating { mean: r.rating, sigma: r.deviation, volatility: r.volatility }
            }
            RatingSystem::TrueSkill => {
                let r = TrueSkillRating::new();
                Rating { mean: r.rating, sigma: r.uncertainty, volatility: 0.0 }
            }
        }
    }

    /// The conservative estimate the leaderboard sorts by: `mean - 3 sigma` (Weng-Lin's usual
    /// "ordinal"; for Glicko-2 the lower end of a 99.7% interval).
    pub fn conservative(&self) -> f64 {
        self.mean - 3.0 * self.sigma
    }

    fn weng_lin(self) -> WengLinRating {
        WengLinRating { rating: self.mean, uncertainty: self.sigma }
    }

    fn trueskill(self) -> TrueSkillRating {
        TrueSkillRating { rating: self.mean, uncertainty: self.sigma }
    }

    fn glicko2(self) -> Glicko2Rating {
        Glicko2Rating { rating: self.mean, deviation: self.sigma, volatility: self.volatility }
    }
}

/// The result of one duplicate set: each bot at the table with its mean place over the set's
/// matches (1 is first). Lower is better; equal means are a tie.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairedResult {
    /// `(bot, mean place)`, one entry per bot at the table.
    pub places: Vec<(usize, f64)>,
}

impl PairedResult {
    /// Averages the places of `matches`, each a list of `(bot, place)`.
    pub fn from_matches<'a>(matches: impl IntoIterator<Item = &'a [(usize, u8)]>) -> PairedResult {
        let mut sums: Vec<(usize, f64, u32)> = Vec::new();
        for places in matches {
            for &(bot, place) in places {
                match sums.iter_mut().find(|(b, _, _)| *b == bot) {
                    Some(entry) => {
                        entry.1 += f64::from(place);
                        entry.2 += 1;
                    }
                    None => sums.push((bot, f64::from(place), 1)),
                }
            }
        }
        PairedResult {
            places: sums.into_iter().map(|(b, sum, n)| (b, sum / f64::from(n))).collect(),
        }
    }

    /// Competition ranks (1, 1, 3, …) in the order of `places`: a bot's rank is one more than
    /// the number of bots with a strictly better mean place.
    pub fn ranks(&self) -> Vec<usize> {
        self.places
            .iter()
            .map(|&(_, p)| 1 + self.places.iter().filter(|&&(_, q)| q < p - 1e-9).count())
            .collect()
    }

    /// `a`'s score against `b`: 1 if its mean place is better, ½ if equal, 0 if worse; `None`
    /// if either is not at the table.
    pub fn score(&self, a: usize, b: usize) -> Option<f64> {
        let pa = self.places.iter().find(|(bot, _)| *bot == a)?.1;
        let pb = self.places.iter().find(|(bot, _)| *bot == b)?.1;
        Some(if (pa - pb).abs() < 1e-9 {
            0.5
        } else if pa < pb {
            1.0
        } else {
            0.0
        })
    }
}

/// One bot's rating before and after an update.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    /// The bot.
    pub bot: usize,
    /// Its rating before.
    pub before: Rating,
    /// Its rating after.
    pub after: Rating,
}

/// Why a result cannot be rated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RatingError {
    /// Glicko-2 rates two-player results only.
    #[error("Glicko-2 rates two-player results, this one has {0} bots")]
    NotTwoPlayers(usize),
    /// A bot index outside the ladder.
    #[error("bot {0} is not in the ladder")]
    UnknownBot(usize),
}

/// The ratings of every bot in a ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    system: RatingSystem,
    ratings: Vec<Rating>,
}

impl Ratings {
    /// `bots` new bots.
    pub fn new(system: RatingSystem, bots: usize) -> Ratings {
        Ratings { system, ratings: vec![Rating::initial(system); bots] }
    }

    /// Ratings loaded from storage.
    pub fn from_ratings(system: RatingSystem, ratings: Vec<Rating>) -> Ratings {
        Ratings { system, ratings }
    }

    /// The system.
    pub fn system(&self) -> RatingSystem {
        self.system
    }

    /// Every bot's rating, by bot index.
    pub fn all(&self) -> &[Rating] {
        &self.ratings
    }

    /// The new ratings of `result`'s bots under a multi-team system (Weng-Lin, TrueSkill), each
    /// bot a team of one ranked by its place: `to` gives a bot's rating in the system's type,
    /// `rate` runs the update, `back` reads a new rating's mean and uncertainty.
    fn rate_solo_teams<R: Clone>(
        &self,
        result: &PairedResult,
        to: impl Fn(Rating) -> R,
        rate: impl FnOnce(&[(&[R], MultiTeamOutcome)]) -> Vec<Vec<R>>,
        back: impl Fn(&R) -> (f64, f64),
    ) -> Vec<Rating> {
        let teams: Vec<[R; 1]> =
            result.places.iter().map(|&(b, _)| [to(self.ratings[b])]).collect();
        let ranks = result.ranks();
        let input: Vec<(&[R], MultiTeamOutcome)> = teams
            .iter()
            .zip(&ranks)
            .map(|(team, &rank)| (&team[..], MultiTeamOutcome::new(rank)))
            .collect();
        rate(&input)
            .into_iter()
            .zip(&result.places)
            .map(|(team, &(b, _))| {
                team.first().map_or(self.ratings[b], |r| {
                    let (mean, sigma) = back(r);
                    Rating { mean, sigma, volatility: 0.0 }
                })
            })
            .collect()
    }

    /// Updates the ratings of the bots in `result` and returns the changes.
    pub fn update(&mut self, result: &PairedResult) -> Result<Vec<RatingChange>, RatingError> {
        for &(bot, _) in &result.places {
            if bot >= self.ratings.len() {
                return Err(RatingError::UnknownBot(bot));
            }
        }
        let new: Vec<Rating> = match self.system {
            RatingSystem::WengLin => self.rate_solo_teams(
                result,
                |r| r.weng_lin(),
                |input| weng_lin_multi_team(input, &WengLinConfig::new()),
                |r| (r.rating, r.uncertainty),
            ),
            RatingSystem::TrueSkill => self.rate_solo_teams(
                result,
                |r| r.trueskill(),
                |input| {
                    // Without weights the crate cannot refuse the teams (one player each).
                    trueskill_multi_team(input, &TrueSkillConfig::new(), None)
                        .unwrap_or_else(|_| input.iter().map(|(team, _)| team.to_vec()).collect())
                },
                |r| (r.rating, r.uncertainty),
            ),
            RatingSystem::Glicko2 => {
                let [(a, _), (b, _)] = result.places[..] else {
                    return Err(RatingError::NotTwoPlayers(result.places.len()));
                };
                let outcome = match result.score(a, b) {
                    Some(s) if s > 0.75 => Outcomes::WIN,
                    Some(s) if s < 0.25 => Outcomes::LOSS,
                    _ => Outcomes::DRAW,
                };
                let (ra, rb) = glicko2(
                    &self.ratings[a].glicko2(),
                    &self.ratings[b].glicko2(),
                    &outcome,
                    &Glicko2Config::new(),
                );
                [ra, rb]
                    .into_iter()
                    .map(|r| Rating {
                        mean: r.rating,
                        sigma: r.deviation,
                        volatility: r.volatility,
                    })
                    .collect()
            }
        };
        let changes: Vec<RatingChange> = result
            .places
            .iter()
            .zip(new)
            .map(|(&(bot, _), after)| RatingChange { bot, before: self.ratings[bot], after })
            .collect();
        for change in &changes {
            self.ratings[change.bot] = change.after;
        }
        Ok(changes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn paired_places_and_ranks() {
        let m1: &[(usize, u8)] = &[(0, 1), (1, 2), (2, 3)];
        let m2: &[(usize, u8)] = &[(0, 2), (1, 1), (2, 3)];
        let paired = PairedResult::from_matches([m1, m2]);
        assert_eq!(paired.places, vec![(0, 1.5), (1, 1.5), (2, 3.0)]);
        assert_eq!(paired.ranks(), vec![1, 1, 3]);
        assert_eq!(paired.score(0, 1), Some(0.5));
        assert_eq!(paired.score(0, 2), Some(1.0));
        assert_eq!(paired.score(2, 1), Some(0.0));
        assert_eq!(paired.score(0, 9), None);
    }

    #[test]
    fn glicko2_matches_the_reference_win() {
        // The crate's documented example: two new players, one win: 1662 / 1338, RD 290.
        let mut ratings = Ratings::new(RatingSystem::Glicko2, 2);
        let changes = ratings.update(&PairedResult { places: vec![(0, 1.0), (1, 2.0)] }).unwrap();
        assert_eq!(changes.len(), 2);
        assert!(close(ratings.all()[0].mean, 1662.0, 0.5));
        assert!(close(ratings.all()[1].mean, 1338.0, 0.5));
        assert!(close(ratings.all()[0].sigma, 290.0, 0.5));
        assert!(close(changes[0].before.mean, 1500.0, 1e-9));
    }

    #[test]
    fn glicko2_split_duplicate_set_is_a_draw() {
        let mut ratings = Ratings::new(RatingSystem::Glicko2, 2);
        let m1: &[(usize, u8)] = &[(0, 1), (1, 2)];
        let m2: &[(usize, u8)] = &[(1, 1), (0, 2)];
        ratings.update(&PairedResult::from_matches([m1, m2])).unwrap();
        assert!(close(ratings.all()[0].mean, 1500.0, 1e-6));
        assert!(close(ratings.all()[1].mean, 1500.0, 1e-6));
        assert!(ratings.all()[0].sigma < 350.0, "a draw still teaches something");
        let three = PairedResult { places: vec![(0, 1.0), (1, 2.0), (1, 3.0)] };
        assert_eq!(ratings.update(&three), Err(RatingError::NotTwoPlayers(3)));
    }

    #[test]
    fn weng_lin_orders_places_and_shares_ties() {
        let mut ratings = Ratings::new(RatingSystem::WengLin, 4);
        // 2 first, 0 and 3 tie for second, 1 last.
        let result = PairedResult { places: vec![(0, 2.0), (1, 4.0), (2, 1.0), (3, 2.0)] };
        assert_eq!(result.ranks(), vec![2, 4, 1, 2]);
        ratings.update(&result).unwrap();
        let r = ratings.all();
        assert!(r[2].mean > r[0].mean && r[0].mean > r[1].mean);
        assert!(close(r[0].mean, r[3].mean, 1e-9), "tied bots move alike");
        assert!(r.iter().all(|x| x.sigma < 25.0 / 3.0));
        // Matches the crate called directly.
        let d = WengLinRating::new();
        let direct = weng_lin_multi_team(
            &[
                (&[d][..], MultiTeamOutcome::new(2)),
                (&[d][..], MultiTeamOutcome::new(4)),
                (&[d][..], MultiTeamOutcome::new(1)),
                (&[d][..], MultiTeamOutcome::new(2)),
            ],
            &WengLinConfig::new(),
        );
        assert!(close(r[2].mean, direct[2][0].rating, 1e-12));
        assert_eq!(
            ratings.update(&PairedResult { places: vec![(9, 1.0)] }),
            Err(RatingError::UnknownBot(9))
        );
    }

    #[test]
    fn trueskill_orders_places_like_weng_lin_and_matches_the_crate() {
        let result = PairedResult { places: vec![(0, 2.0), (1, 3.0), (2, 1.0)] };
        let mut ts = Ratings::new(RatingSystem::TrueSkill, 3);
        ts.update(&result).unwrap();
        let r = ts.all();
        assert!(r[2].mean > r[0].mean && r[0].mean > r[1].mean);
        let d = TrueSkillRating::new();
        let direct = trueskill_multi_team(
            &[
                (&[d][..], MultiTeamOutcome::new(2)),
                (&[d][..], MultiTeamOutcome::new(3)),
                (&[d][..], MultiTeamOutcome::new(1)),
            ],
            &TrueSkillConfig::new(),
            None,
        )
        .unwrap();
        assert!(close(r[1].mean, direct[1][0].rating, 1e-12));
        assert!(close(r[1].sigma, direct[1][0].uncertainty, 1e-12));
    }

    #[test]
    fn repeated_wins_separate_the_bots() {
        let mut ratings = Ratings::new(RatingSystem::WengLin, 2);
        for _ in 0..20 {
            ratings.update(&PairedResult { places: vec![(0, 1.0), (1, 2.0)] }).unwrap();
        }
        let r = ratings.all();
        assert!(r[0].conservative() > r[1].mean + r[1].sigma);
    }
}
