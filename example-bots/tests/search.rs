//! The search bot against the heuristics it plays out with, over fixed seeds and a fixed number of
//! samples per move (so the result is reproducible): it beats the Twenty-Two heuristic by a
//! conservative margin, and outscores the Gin Rummy heuristic it plays out with
//! ([`GinHeuristic::fast`](cardroom_example_bots::gin_heuristic::GinHeuristic::fast)) over
//! duplicate deals (the full match measurements, with larger margins, are in
//! `example-bots/README.md`).

#![allow(clippy::unwrap_used)]

use std::thread;

use cardroom_example_bots::measure::{
    fast_heuristic_gin, gin_duplicate_deals, heuristic_tt, measure, search_gin, search_tt,
    twenty_two_match,
};

#[test]
fn search_beats_the_twenty_two_heuristic_at_a_table_of_three() {
    let tally = measure(twenty_two_match, search_tt(24), heuristic_tt, 3, 48, 1).unwrap();
    println!("{tally:?}");
    // An equal bot wins a third and averages place 2: the whole 95% interval must be above.
    assert!(tally.wilson95().0 > 1.0 / 3.0, "{tally:?}");
    assert!(tally.average_place() < 1.8, "{tally:?}");
}

/// 100 deals, each played twice with the seats swapped (so the luck of the cards cancels out),
/// at 100 samples per move; two threads play half each. A bot no better than the heuristic
/// averages a margin of zero; this asserts the search's average margin two standard errors
/// above it (it is about three: about 8 points per deal, with a standard error under 3).
#[test]
fn search_outscores_the_gin_heuristic_over_duplicate_deals() {
    let half = |seed| move || gin_duplicate_deals(search_gin(100), fast_heuristic_gin, 50, seed);
    let (first, second) = thread::scope(|scope| {
        let first = scope.spawn(half(1));
        let second = scope.spawn(half(51));
        (first.join().unwrap().unwrap(), second.join().unwrap().unwrap())
    });
    let margin = first.and(second);
    let (mean, error) = (margin.mean(), margin.standard_error());
    println!("{margin:?}: {mean:.2} ± {error:.2} points per deal");
    assert!(mean - 2.0 * error > 0.0, "{margin:?}: {mean:.2} ± {error:.2}");
}
