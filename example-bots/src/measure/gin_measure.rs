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

/// The Gin Rummy heuristic as the search plays it out ([`GinHeuristic::fast`]: no lookahead,
/// the weights from before the tuning against OpenSpiel's bot).
///
/// [`GinHeuristic::fast`]: crate::gin_heuristic::GinHeuristic::fast
pub fn fast_heuristic_gin(_seed: u64) -> Box<dyn Bot<gin::State>> {
    Box::new(crate::gin_heuristic::GinHeuristic::fast())
}

/// The search bot for Gin Rummy with a fixed number of samples per decision.
pub fn search_gin(iterations: u32) -> impl Fn(u64) -> Box<dyn Bot<gin::State>> {
    move |seed| Box::new(SearchBot::<gin::State>::new(fixed(iterations, seed)))
}

/// OpenSpiel's `gin_rummy` rules, where cardroom has the option: the taken upcard may be
/// discarded (GR-6), a tie is nobody's (GR-12), and at the wall the upcard may still be taken to
/// knock (GR-10); knock limit 10, gin and undercut bonuses 25, no Oklahoma and no big gin are
/// cardroom's defaults too. The same table is `OPENSPIEL_OPTIONS` in
/// `example-bots/python/openspiel_bot.py`.
pub fn openspiel_options() -> gin::Options {
    gin::Options {
        discard_taken_upcard: true,
        tie_is_undercut: false,
        wall_knock: true,
        ..gin::Options::default()
    }
}

/// Plays `deals` whole matches twice each with `options`, the hero in seat 0 and then in seat 1
/// against `villain`, on the same seed (duplicate deals: the same cards come to the same seat),
/// and counts the hero's wins over all `2 × deals` matches. Fails on options the rules refuse
/// or a match that does not end. Deal `i` uses seed `seed + i`; the
/// bots are seeded from it as in [`measure`](super::measure).
pub fn gin_duplicate_matches(
    hero: impl Fn(u64) -> Box<dyn Bot<gin::State>>,
    villain: impl Fn(u64) -> Box<dyn Bot<gin::State>>,
    options: gin::Options,
    deals: u32,
    seed: u64,
) -> anyhow::Result<super::Tally> {
    let mut tally = super::Tally::default();
    for i in 0..deals {
        let deal_seed = seed.wrapping_add(u64::from(i));
        for hero_seat in [0u8, 1] {
            let mut bots: Vec<Box<dyn Bot<gin::State>>> = (0..2u8)
                .map(|seat| {
                    let bot_seed = deal_seed.wrapping_mul(31).wrapping_add(u64::from(seat));
                    if seat == hero_seat { hero(bot_seed) } else { villain(bot_seed) }
                })
                .collect();
            let state = gin::State::new(options, deal_seed)?;
            let standings = play_local_report(state, &mut bots, MAX_LOCAL_DECISIONS)?.standings;
            let place = standings
                .iter()
                .find(|standing| standing.seat.0 == hero_seat)
                .map_or(2, |standing| standing.place);
            tally.matches += 1;
            tally.place_sum += u64::from(place);
            if place == 1 {
                tally.wins += 1;
            }
        }
    }
    Ok(tally)
}

/// [`SimpleGin`](crate::gin_simple::SimpleGin), the in-process stand-in for OpenSpiel's simple
/// bot (it needs no seed).
pub fn simple_gin(_seed: u64) -> Box<dyn Bot<gin::State>> {
    Box::new(crate::gin_simple::SimpleGin::new())
}
