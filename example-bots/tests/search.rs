//! The search bot against the heuristics it plays out with, over fixed seeds and a fixed number of
//! samples per move (so the result is reproducible): it beats the Twenty-Two heuristic by a
//! conservative margin (the full measurement in `example-bots/README.md` shows a larger one), and
//! holds its own against the Gin Rummy heuristic, which it only matches (README).

#![allow(clippy::unwrap_used)]

use cardroom_example_bots::gin_heuristic::GinHeuristic;
use cardroom_example_bots::measure::{gin_match, measure, twenty_two_match};
use cardroom_example_bots::search::{Budget, SearchBot, SearchConfig};
use cardroom_example_bots::tt_heuristic::TtHeuristic;
use cardroom_sdk::Bot;
use cardroom_sdk::games::{gin, twenty_two};

fn config(seed: u64, iterations: u32) -> SearchConfig {
    SearchConfig { budget: Budget::Iterations(iterations), seed, ..SearchConfig::default() }
}

fn search_tt(seed: u64) -> Box<dyn Bot<twenty_two::State>> {
    Box::new(SearchBot::<twenty_two::State>::new(config(seed, 24)))
}

fn heuristic_tt(_seed: u64) -> Box<dyn Bot<twenty_two::State>> {
    Box::new(TtHeuristic::new())
}

fn search_gin(seed: u64) -> Box<dyn Bot<gin::State>> {
    Box::new(SearchBot::<gin::State>::new(config(seed, 16)))
}

fn heuristic_gin(_seed: u64) -> Box<dyn Bot<gin::State>> {
    Box::new(GinHeuristic::new())
}

#[test]
fn search_beats_the_twenty_two_heuristic_at_a_table_of_three() {
    let tally = measure(twenty_two_match, search_tt, heuristic_tt, 3, 48, 1).unwrap();
    println!("{tally:?}");
    // An equal bot wins a third and averages place 2: the whole 95% interval must be above.
    assert!(tally.wilson95().0 > 1.0 / 3.0, "{tally:?}");
    assert!(tally.average_place() < 1.8, "{tally:?}");
}

#[test]
fn search_holds_its_own_against_the_gin_heuristic() {
    let tally = measure(gin_match, search_gin, heuristic_gin, 2, 24, 1).unwrap();
    println!("{tally:?}");
    // An equal bot wins half; a search that trusted noisy playouts would lose far more often.
    assert!(tally.win_rate() >= 0.4, "{tally:?}");
}
