//! Ladders of the example bots, in process: every format runs to its end, the example bots
//! come out in the expected order, and a ladder killed with SIGKILL resumes without losing a
//! finished match.
#![allow(clippy::unwrap_used)]

use std::io::BufRead;
use std::process::Command;
use std::sync::Arc;

use cardroom_arena::{Format, Ladder, Settings, Store, run};
use cardroom_example_bots::gin_heuristic::GinHeuristic;
use cardroom_example_bots::random::RandomBot;
use cardroom_example_bots::tt_heuristic::TtHeuristic;
use cardroom_rank::{RatingSystem, Settlement, SprtConfig, SprtDecision, Stats};
use cardroom_sdk::games::{gin, twenty_two};

fn tt_ladder(bots: &[&str], table: u8, format: Format, seed: u64) -> Ladder<twenty_two::State> {
    Ladder {
        settings: Settings {
            table,
            seed,
            duplicate: true,
            max_rotations: None,
            format,
            rating: RatingSystem::WengLin,
        },
        bots: bots
            .iter()
            .map(|&name| {
                let make: cardroom_arena::BotMaker<twenty_two::State> = if name.starts_with("tt") {
                    Arc::new(|_| Box::new(TtHeuristic::new()))
                } else {
                    Arc::new(|seed| Box::new(RandomBot::new(seed)))
                };
                (name.to_owned(), make)
            })
            .collect(),
        new_match: Arc::new(move |seed| {
            twenty_two::State::new(twenty_two::Options::default(), table, seed)
                .map_err(|e| e.to_string())
        }),
        parallel: 2,
    }
}

fn gin_ladder(bots: &[&str], format: Format) -> Ladder<gin::State> {
    Ladder {
        settings: Settings {
            table: 2,
            seed: 3,
            duplicate: true,
            max_rotations: None,
            format,
            rating: RatingSystem::Glicko2,
        },
        bots: bots
            .iter()
            .map(|&name| {
                let make: cardroom_arena::BotMaker<gin::State> = if name.starts_with("gin") {
                    Arc::new(|_| Box::new(GinHeuristic::new()))
                } else {
                    Arc::new(|seed| Box::new(RandomBot::new(seed)))
                };
                (name.to_owned(), make)
            })
            .collect(),
        new_match: Arc::new(|seed| {
            gin::State::new(gin::Options::default(), seed).map_err(|e| e.to_string())
        }),
        parallel: 2,
    }
}

fn order(ratings: &[cardroom_rank::Rating]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..ratings.len()).collect();
    idx.sort_by(|&a, &b| ratings[b].mean.total_cmp(&ratings[a].mean));
    idx
}

#[test]
fn twenty_two_round_robin_ranks_the_heuristic_first() {
    let ladder =
        tt_ladder(&["random-1", "tt", "random-2"], 3, Format::RoundRobin { rounds: 40 }, 1);
    let mut store = Store::in_memory().unwrap();
    let mut seen = 0;
    let summary = run(&ladder, &mut store, &mut |p| seen = p.done).unwrap();
    // 40 rounds of one table, each in 3 rotations.
    assert_eq!(summary.played, 120);
    assert_eq!(seen, 120);
    assert_eq!(order(&summary.ratings)[0], 1, "{:?}", summary.ratings);
    assert_eq!(store.rating_change_count().unwrap(), 120);
    let mut stats = Stats::new(3);
    for outcome in store.outcomes().unwrap() {
        stats.add(&outcome);
    }
    assert_eq!(stats.bots[1].matches, 120);
    assert!(stats.bots[1].average_place() < stats.bots[0].average_place());
    assert!(stats.bots[1].think.count() > 0);
    // Running again finds nothing left to do.
    let again = run(&ladder, &mut store, &mut |_| {}).unwrap();
    assert_eq!(again.played, 0);
    assert_eq!(again.ratings, summary.ratings);
}

#[test]
fn gin_swiss_and_gauntlet_rank_the_heuristic_first() {
    let bots = ["random-1", "random-2", "gin", "random-3", "random-4"];
    let ladder = gin_ladder(&bots, Format::Swiss { rounds: 3 });
    let mut store = Store::in_memory().unwrap();
    let summary = run(&ladder, &mut store, &mut |_| {}).unwrap();
    // 5 bots: 2 pairs and a bye per round, 2 matches per pair.
    assert_eq!(summary.played, 3 * 2 * 2);
    let sets = store.sets().unwrap();
    assert_eq!(sets.iter().filter(|s| s.bots.len() == 1).count(), 3, "one bye a round");
    assert_eq!(order(&summary.ratings)[0], 2, "{:?}", summary.ratings);

    let ladder = gin_ladder(&bots[..3], Format::Gauntlet { challenger: "gin".into(), rounds: 2 });
    let mut store = Store::in_memory().unwrap();
    let summary = run(&ladder, &mut store, &mut |_| {}).unwrap();
    assert_eq!(summary.played, 2 * 2 * 2);
    assert!(store.sets().unwrap().iter().all(|s| s.bots.contains(&2)));
    assert_eq!(order(&summary.ratings)[0], 2);
}

#[test]
fn continuous_ladder_spends_its_sets_on_close_pairs() {
    let ladder = tt_ladder(&["tt", "random-1", "random-2"], 2, Format::Continuous { sets: 30 }, 5);
    let mut store = Store::in_memory().unwrap();
    let summary = run(&ladder, &mut store, &mut |_| {}).unwrap();
    assert_eq!(summary.played, 60);
    let sets = store.sets().unwrap();
    let between_randoms = sets.iter().filter(|s| s.bots == [1, 2]).count();
    // The first pairing is arbitrary among equals; later the two randoms are hardest to order.
    assert!(between_randoms >= 10, "{between_randoms} of 30 sets between the randoms");
}

#[test]
fn sprt_head_to_head_stops_when_decided() {
    let format = Format::Sprt {
        a: "gin".into(),
        b: "random".into(),
        sprt: SprtConfig { elo1: 100.0, ..SprtConfig::default() },
        max_sets: 200,
    };
    let ladder = gin_ladder(&["random", "gin"], format);
    let mut store = Store::in_memory().unwrap();
    let summary = run(&ladder, &mut store, &mut |_| {}).unwrap();
    assert_eq!(summary.sprt.map(|t| t.decision()), Some(SprtDecision::AcceptH1));
    assert!(summary.played < 400, "{} matches", summary.played);
    // Said for a person: who won, the LLR and the bound it reached.
    let test = summary.sprt.unwrap();
    let verdict = test.verdict("gin", "random");
    let (_, upper) = test.bounds();
    assert!(verdict.starts_with("gin is stronger than random"), "{verdict}");
    assert!(verdict.contains(&format!("LLR {:.2}", test.llr())), "{verdict}");
    assert!(verdict.contains(&format!("upper bound {upper:.2}")), "{verdict}");
}

#[test]
fn adaptive_ladder_stops_once_the_order_is_settled() {
    let format = Format::Adaptive { max_sets: 300 };
    let ladder = tt_ladder(&["random", "tt"], 2, format, 4);
    let mut store = Store::in_memory().unwrap();
    let summary = run(&ladder, &mut store, &mut |_| {}).unwrap();
    let sets = store.rated_set_outcomes().unwrap();
    let settlement = Settlement::from_sets(2, 2, &sets, 0.05);
    assert!(settlement.settled, "{settlement:?}");
    assert_eq!(settlement.order, vec![1, 0]);
    assert!(summary.played < 600, "{} matches", summary.played);
    assert_eq!(summary.played, 2 * sets.len() as u64);
}

#[test]
fn adaptive_ladder_spends_its_sets_on_the_open_pair() {
    // The two random bots cannot be told apart: the budget runs out on them.
    let format = Format::Adaptive { max_sets: 40 };
    let ladder = tt_ladder(&["tt", "random-1", "random-2"], 2, format, 5);
    let mut store = Store::in_memory().unwrap();
    let summary = run(&ladder, &mut store, &mut |_| {}).unwrap();
    assert_eq!(summary.played, 80);
    let between_randoms = store.sets().unwrap().iter().filter(|s| s.bots == [1, 2]).count();
    assert!(between_randoms >= 20, "{between_randoms} of 40 sets between the randoms");
}

#[test]
fn four_seat_sprt_stops_when_decided() {
    // Is the heuristic better than a random bot across four-seat tables?
    let format = Format::Sprt {
        a: "tt".into(),
        b: "random-1".into(),
        sprt: SprtConfig { elo1: 100.0, ..SprtConfig::default() },
        max_sets: 200,
    };
    let ladder = tt_ladder(&["random-1", "tt", "random-2", "random-3"], 4, format, 6);
    let mut store = Store::in_memory().unwrap();
    let summary = run(&ladder, &mut store, &mut |_| {}).unwrap();
    let test = summary.sprt.unwrap();
    assert_eq!(test.decision(), SprtDecision::AcceptH1);
    // Every set is four matches, all at the one table of the four bots.
    assert_eq!(summary.played, 4 * u64::from(test.samples()));
    assert!(test.samples() < 200, "{} sets", test.samples());
    assert!(test.verdict("tt", "random-1").starts_with("tt is stronger than random-1"));
}

/// The child of [`a_killed_ladder_resumes`]: runs a long ladder into the file it is given.
#[test]
fn child_ladder() {
    let Ok(path) = std::env::var("CARDROOM_ARENA_CHILD_DB") else { return };
    let ladder = tt_ladder(&["a", "b", "c"], 3, Format::RoundRobin { rounds: 300 }, 9);
    let mut store = Store::open(std::path::Path::new(&path)).unwrap();
    run(&ladder, &mut store, &mut |p| println!("done {}", p.done)).unwrap();
}

#[test]
fn a_killed_ladder_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ladder.sqlite");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_ladder", "--nocapture"])
        .env("CARDROOM_ARENA_CHILD_DB", &path)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Read the child's progress until some matches are stored, then SIGKILL it mid-ladder.
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let done_before = loop {
        let line = lines.next().expect("the child ended early").unwrap();
        if let Some(done) = line.strip_prefix("done ").and_then(|n| n.parse::<u64>().ok())
            && done >= 30
        {
            break done;
        }
    };
    child.kill().unwrap();
    child.wait().unwrap();

    let mut store = Store::open(&path).unwrap();
    let (done, total) = store.progress().unwrap();
    assert!(done >= done_before && done < 900, "killed mid-ladder: {done} of {total}");
    let finished: Vec<_> = store.outcomes().unwrap();

    let ladder = tt_ladder(&["a", "b", "c"], 3, Format::RoundRobin { rounds: 300 }, 9);
    let summary = run(&ladder, &mut store, &mut |_| {}).unwrap();
    assert_eq!(store.progress().unwrap(), (900, 900));
    assert_eq!(summary.played, 900 - done);
    // No finished match was lost or replayed.
    assert_eq!(store.outcomes().unwrap()[..finished.len()], finished[..]);
    assert_eq!(store.rating_change_count().unwrap(), 900);
    // The same ladder run without a kill ends with the same ratings.
    let mut fresh = Store::in_memory().unwrap();
    let uninterrupted = run(&ladder, &mut fresh, &mut |_| {}).unwrap();
    assert_eq!(uninterrupted.ratings, summary.ratings);
}

#[test]
fn the_progress_counts_to_the_known_total_from_the_first_match() {
    for format in [
        Format::RoundRobin { rounds: 2 },
        Format::Gauntlet { challenger: "tt".into(), rounds: 2 },
        Format::Continuous { sets: 3 },
    ] {
        let ladder = tt_ladder(&["tt", "random-1", "random-2"], 2, format.clone(), 9);
        let mut store = Store::in_memory().unwrap();
        let mut totals = Vec::new();
        let summary = run(&ladder, &mut store, &mut |p| totals.push((p.done, p.total))).unwrap();
        let played = summary.played;
        assert_eq!(ladder.settings.total_matches(3), played, "{format:?}");
        assert!(totals.iter().all(|&(_, total)| total == played), "{format:?}: {totals:?}");
    }
}

#[test]
fn a_resumed_ladder_may_grow_its_budget_and_a_changed_setting_is_named() {
    let mut store = Store::in_memory().unwrap();
    let bots = ["tt", "random-1", "random-2"];
    let four = tt_ladder(&bots, 2, Format::RoundRobin { rounds: 4 }, 4);
    assert_eq!(run(&four, &mut store, &mut |_| {}).unwrap().played, 4 * 3 * 2);

    // Five rounds: the fifth is played, and the ladder then knows it has five.
    let five = tt_ladder(&bots, 2, Format::RoundRobin { rounds: 5 }, 4);
    assert_eq!(run(&five, &mut store, &mut |_| {}).unwrap().played, 3 * 2);
    assert_eq!(run(&five, &mut store, &mut |_| {}).unwrap().played, 0);

    // Back to four: refused, naming the setting, both values and what may change.
    let error = run(&four, &mut store, &mut |_| {}).unwrap_err().to_string();
    assert!(error.contains("format.rounds = 5, the file now says 4"), "{error}");
    assert!(error.contains("can grow"), "{error}");
    // Another seed: refused, with the way forward.
    let reseeded = tt_ladder(&bots, 2, Format::RoundRobin { rounds: 5 }, 5);
    let error = run(&reseeded, &mut store, &mut |_| {}).unwrap_err().to_string();
    assert!(error.contains("seed = 4, the file now says 5"), "{error}");
    assert!(error.contains("another `db`"), "{error}");
}
