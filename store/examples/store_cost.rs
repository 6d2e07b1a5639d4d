//! The store's cost per finished match: plans duplicate sets of two-seat matches and drives
//! each match through what a hosted ladder writes (claim, finish with its record and seats,
//! and, per set, the rating update), then prints the time per match.
//!
//! ```text
//! cargo run --release -p cardroom-store --example store_cost -- STORE [SETS]
//! ```
//!
//! STORE is any `--store` address (`sqlite:FILE`, `postgres://…`); it should be empty. One task
//! drives the matches one after another, so the figure is the latency of the store's writes,
//! not its throughput under many nodes.

use std::time::{Duration, Instant};

use cardroom_store::{
    BotId, KeyHash, Lease, MatchResult, NewLadder, NewMatch, NewSet, RatingUpdate, SeatResult,
    StoredRating,
};

/// Bots in the ladder; each set seats two of them.
const BOTS: usize = 8;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let url = args.next().ok_or("usage: store_cost STORE [SETS]")?;
    let sets: u64 = args.next().map(|sets| sets.parse()).transpose()?.unwrap_or(250);
    let store = cardroom_store::open(&url).await?;

    let ladder = NewLadder {
        name: format!("bench-{}", std::process::id()),
        game: "gin".into(),
        options_json: "{}".into(),
        table_seats: 2,
        rating: "weng_lin".into(),
        seed: 1,
        provisional_sets: 3,
        config: String::new(),
    };
    let ladder = store.create_ladder(&ladder, 0).await?.id;
    let initial = StoredRating { mean: 25.0, sigma: 25.0 / 3.0, volatility: 0.0 };
    let mut bots: Vec<BotId> = Vec::new();
    for i in 0..BOTS {
        let name = format!("bench-{}-{i}", std::process::id());
        let bot = store.register_bot(&name, KeyHash::of(&name), 0).await?.id;
        store.enter_ladder(ladder, bot, initial, 0).await?;
        bots.push(bot);
    }
    // A record of the size a Gin Rummy match makes (a few kilobytes of JSON).
    let record = format!("{{\"game\":\"gin\",\"actions\":[{}]}}", vec!["\"draw\""; 600].join(","));

    let (mut plan, mut play, mut rate) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let owner = Lease { owner: "bench".into(), until_ms: i64::MAX };
    for index in 0..sets {
        let (a, b) = (bots[index as usize % BOTS], bots[(index as usize + 1) % BOTS]);
        let set = NewSet {
            index,
            seed: index,
            bots: vec![a, b],
            matches: vec![
                NewMatch { rotation: 0, seed: index, seats: vec![a, b] },
                NewMatch { rotation: 1, seed: index, seats: vec![b, a] },
            ],
        };
        let start = Instant::now();
        let planned = store.plan_set(ladder, &set, 1).await?;
        plan += start.elapsed();

        let start = Instant::now();
        for played in &planned.matches {
            let claim = store.claim_match(played.id, &owner, 2).await?;
            let result = MatchResult {
                claim,
                server_match_id: format!("m{}", played.id.0),
                seats: (0..2)
                    .map(|seat| SeatResult {
                        seat,
                        version: "v1".into(),
                        place: seat + 1,
                        forfeited: false,
                        think: Default::default(),
                    })
                    .collect(),
                record_json: Some(record.clone()),
                failures: Vec::new(),
            };
            store.finish_match(&result, 3).await?;
        }
        play += start.elapsed();

        let start = Instant::now();
        let after = StoredRating { mean: 26.0, ..initial };
        let updates: Vec<RatingUpdate> =
            [a, b].map(|bot| RatingUpdate { bot, before: initial, after }).into();
        store.rate_set(ladder, index, &updates, 4).await?;
        rate += start.elapsed();
    }

    let matches = (sets * 2) as f64;
    let per_match = |total: Duration| total.as_secs_f64() * 1e3 / matches;
    println!(
        "{url}: {sets} sets, {matches} matches: {:.3} ms per finished match \
         (planning {:.3}, claim + finish {:.3}, rating {:.3})",
        per_match(plan + play + rate),
        per_match(plan),
        per_match(play),
        per_match(rate),
    );
    Ok(())
}
