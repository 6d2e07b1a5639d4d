//! Twenty-Two's measurement factories: its matches and bots, named for the tests and the
//! `measure` binary.

use cardroom_games::twenty_two;
use cardroom_sdk::Bot;

use crate::search::SearchBot;

use super::fixed;

/// A Twenty-Two match with the default options.
pub fn twenty_two_match(players: u8, seed: u64) -> twenty_two::State {
    // Two to twelve players always make a valid table with the default options.
    twenty_two::State::new(twenty_two::Options::default(), players, seed)
        .unwrap_or_else(|err| panic!("{players} players: {err}"))
}

/// A seeded random Twenty-Two bot, for [`measure`](super::measure)'s bot factories.
pub fn random_tt(seed: u64) -> Box<dyn Bot<twenty_two::State>> {
    Box::new(crate::random::RandomBot::new(seed))
}

/// The Twenty-Two heuristic (it needs no seed).
pub fn heuristic_tt(_seed: u64) -> Box<dyn Bot<twenty_two::State>> {
    Box::new(crate::tt_heuristic::TtHeuristic::new())
}

/// for a seed), as the measurements and tests run it.
pub fn search_tt(iterations: u32) -> impl Fn(u64) -> Box<dyn Bot<twenty_two::State>> {
    move |seed| Box::new(SearchBot::<twenty_two::State>::new(fixed(iterations, seed)))
}
