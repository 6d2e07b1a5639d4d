//! Win rates of one bot against others, in process ([`cardroom_sdk::play_local`]), with
//! Wilson 95% confidence intervals: what `cargo run --release -p cardroom-example-bots --bin
//! measure` prints, and what the tests assert.
//!
//! The measurements are written once, generic over the game; each game's named matches and bot
//! factories (`twenty_two_match`, `heuristic_gin`, …, and Gin Rummy's duplicate deals) are in
//! its own module, re-exported here.

use cardroom_games::{Game, Seat};
use cardroom_sdk::{Bot, LocalError, PlayableGame, play_local};

use crate::search::{Budget, SearchBot, SearchConfig, Searchable};

mod gin_measure;
mod table;
mod tt_measure;

pub use gin_measure::*;
pub use table::{Clock, header, report_time, row, timed};
pub use tt_measure::*;

/// Makes a bot from a seed.
pub type Maker<G> = fn(u64) -> Box<dyn Bot<G>>;

/// What one bot (the *hero*) achieved over a series of matches.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Matches played.
    pub matches: u32,
    /// Matches the hero finished first (ties for first included).
    pub wins: u32,
    /// The sum of the hero's places, for the average place.
    pub place_sum: u64,
}

impl Tally {
    /// Both series of matches as one.
    pub fn and(self, other: Tally) -> Tally {
        Tally {
            matches: self.matches + other.matches,
            wins: self.wins + other.wins,
            place_sum: self.place_sum + other.place_sum,
        }
    }

    /// The hero's share of first places.
    pub fn win_rate(&self) -> f64 {
        if self.matches == 0 { 0.0 } else { f64::from(self.wins) / f64::from(self.matches) }
    }

    /// The hero's average place (1 is first).
    pub fn average_place(&self) -> f64 {
        if self.matches == 0 { 0.0 } else { self.place_sum as f64 / f64::from(self.matches) }
    }

    /// The Wilson 95% confidence interval of the win rate.
    pub fn wilson95(&self) -> (f64, f64) {
        wilson(self.wins, self.matches, 1.959_964)
    }
}

/// The Wilson score interval for `successes` out of `trials` at `z` standard deviations.
pub fn wilson(successes: u32, trials: u32, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = f64::from(trials);
    let p = f64::from(successes) / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * ((p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt()) / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Plays `matches` matches of `players` seats: the hero in one seat (seat `i % players` in
/// match `i`, so every seat is played equally), `villain` in the others. Match `i` is dealt
/// with seed `seed + i` and the bots are seeded from it, so a run is reproducible.
pub fn measure<G: PlayableGame>(
    new_match: impl Fn(u8, u64) -> G,
    hero: impl Fn(u64) -> Box<dyn Bot<G>>,
    villain: impl Fn(u64) -> Box<dyn Bot<G>>,
    players: u8,
    matches: u32,
    seed: u64,
) -> Result<Tally, LocalError> {
    let mut tally = Tally::default();
    for i in 0..matches {
        let match_seed = seed.wrapping_add(u64::from(i));
        let hero_seat = Seat((i % u32::from(players)) as u8);
        let mut bots: Vec<Box<dyn Bot<G>>> = (0..players)
            .map(|seat| {
                let bot_seed = match_seed.wrapping_mul(31).wrapping_add(u64::from(seat));
                if Seat(seat) == hero_seat { hero(bot_seed) } else { villain(bot_seed) }
            })
            .collect();
        let standings = play_local(new_match(players, match_seed), &mut bots)?;
        let place = standings
            .iter()
            .find(|standing| standing.seat == hero_seat)
            .map_or(players, |standing| standing.place);
        tally.matches += 1;
        tally.place_sum += u64::from(place);
        if place == 1 {
            tally.wins += 1;
        }
    }
    Ok(tally)
}

/// The hero's point margin over duplicate deals (as [`gin_duplicate_deals`] plays them): the
/// mean and its standard error.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Margin {
    /// Deals played (each twice).
    pub deals: u32,
    /// The sum of the margins, one per deal.
    pub sum: f64,
    /// The sum of their squares.
    pub squares: f64,
}

impl Margin {
    fn add(&mut self, margin: f64) {
        self.deals += 1;
        self.sum += margin;
        self.squares += margin * margin;
    }

    /// Both series of deals as one.
    pub fn and(self, other: Margin) -> Margin {
        Margin {
            deals: self.deals + other.deals,
            sum: self.sum + other.sum,
            squares: self.squares + other.squares,
        }
    }

    /// The average margin per deal (two hands).
    pub fn mean(&self) -> f64 {
        if self.deals == 0 { 0.0 } else { self.sum / f64::from(self.deals) }
    }

    /// The standard error of [`Margin::mean`].
    pub fn standard_error(&self) -> f64 {
        if self.deals < 2 {
            return f64::INFINITY;
        }
        let n = f64::from(self.deals);
        let variance = ((self.squares - n * self.mean() * self.mean()) / (n - 1.0)).max(0.0);
        (variance / n).sqrt()
    }
}

/// A match of `G` with the default options for `players` seats, dealt with `seed`.
///
/// # Panics
///
/// If the default options cannot seat `players` ([`Game::seats`]).
pub fn default_match<G: Game>(players: u8, seed: u64) -> G {
    G::new(G::Options::default(), players, seed)
        .unwrap_or_else(|err| panic!("{} with {players} players: {err}", G::NAME))
}

/// A seeded random bot of any game, for [`measure`](super::measure)'s bot factories.
pub fn random<G: PlayableGame>(seed: u64) -> Box<dyn Bot<G>> {
    Box::new(crate::random::RandomBot::new(seed))
}

/// The search bot with a fixed number of samples per decision (deterministic for a seed), as
/// the measurements and tests run it.
pub fn search<G: Searchable>(iterations: u32) -> impl Fn(u64) -> Box<dyn Bot<G>> {
    move |seed| Box::new(SearchBot::<G>::new(fixed(iterations, seed)))
}

pub(crate) fn fixed(iterations: u32, seed: u64) -> SearchConfig {
    SearchConfig { budget: Budget::Iterations(iterations), seed, ..SearchConfig::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 50 of 100: about 0.404 to 0.596.
        let (lo, hi) = wilson(50, 100, 1.959_964);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3, "{lo} {hi}");
        // 0 of 10: 0 to about 0.278.
        let (lo, hi) = wilson(0, 10, 1.959_964);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 1e-3, "{lo} {hi}");
    }
}
