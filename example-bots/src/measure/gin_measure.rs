//! Gin Rummy's measurement factories: its matches and bots, named for the tests and the
//! `measure` binary, and duplicate deals ([`gin_duplicate_deals`]).

use cardroom_games::gin;
use cardroom_sdk::{Bot, LocalError, MAX_LOCAL_DECISIONS, play_local_report};

use crate::search::SearchBot;

use super::{Margin, fixed};

/// Plays `deals` Gin Rummy deals twice each, the hero in seat 0 and then in seat 1 against
/// `villain` with the same cards (duplicate play, so that the luck of the deal cancels out),
/// and returns the hero's points less the villain's in each deal's first scoring hand (GR-12):
/// the matches are played to a target of 1 point with the default options otherwise. Deal `i`
/// uses seed `seed + i`; the bots are seeded from it as in [`measure`](super::measure).
pub fn gin_duplicate_deals(
    hero: impl Fn(u64) -> Box<dyn Bot<gin::State>>,
    villain: impl Fn(u64) -> Box<dyn Bot<gin::State>>,
    deals: u32,
    seed: u64,
) -> Result<Margin, LocalError> {
    let options = gin::Options { target: 1, ..gin::Options::default() };
    let mut margin = Margin::default();
    for i in 0..deals {
        let deal_seed = seed.wrapping_add(u64::from(i));
        let mut total = 0.0;
        for hero_seat in [0, 1] {
            let mut bots: Vec<Box<dyn Bot<gin::State>>> = (0..2u8)
                .map(|seat| {
                    let bot_seed = deal_seed.wrapping_mul(31).wrapping_add(u64::from(seat));
                    if seat == hero_seat { hero(bot_seed) } else { villain(bot_seed) }
                })
                .collect();
            let state = gin::State::new(options, deal_seed)
                .unwrap_or_else(|err| panic!("gin to 1 point: {err}"));
            let scores = play_local_report(state, &mut bots, MAX_LOCAL_DECISIONS)?.state.scores();
            let (hero_score, villain_score) =
                (scores[usize::from(hero_seat)], scores[usize::from(1 - hero_seat)]);
            total += f64::from(hero_score) - f64::from(villain_score);
        }
        margin.add(total);
    }
    Ok(margin)
}

/// A Gin Rummy match with the default options (two players).
pub fn gin_match(_players: u8, seed: u64) -> gin::State {
    gin::State::new(gin::Options::default(), seed)
        .unwrap_or_else(|err| panic!("gin with the default options: {err}"))
}

/// A seeded random Gin Rummy bot.
pub fn random_gin(seed: u64) -> Box<dyn Bot<gin::State>> {
    Box::new(crate::random::RandomBot::new(seed))
}

/// The Gin Rummy heuristic (it needs no seed).
pub fn heuristic_gin(_seed: u64) -> Box<dyn Bot<gin::State>> {
    Box::new(crate::gin_heuristic::GinHeuristic::new())
}

/// The search bot for Gin Rummy with a fixed number of samples per decision.
pub fn search_gin(iterations: u32) -> impl Fn(u64) -> Box<dyn Bot<gin::State>> {
    move |seed| Box::new(SearchBot::<gin::State>::new(fixed(iterations, seed)))
}
