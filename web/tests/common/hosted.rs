//! A store holding one hosted ladder, written through the store's own methods from the
//! matches of the `tt` ladder file (real, verified records): what `cardroom serve --store`
//! shows, without a server playing it.

use std::collections::HashMap;
use std::sync::Arc;

use cardroom_store::{
    Accounts, BotId, FailureKind, KeyHash, Lease, MatchResult, NewFailure, NewLadder, NewMatch,
    NewSet, RatingUpdate, SeatResult, SqliteStore, Store, StoredRating, ThinkSummary,
};
use cardroom_web::{LocalSource, StoreSource, WebConfig};

use super::{EVIL_NAME, Fixture};

/// The hosted ladder's name.
pub const LADDER: &str = "hosted-tt";

/// What a failure's answer says: markup, to check that the failures are escaped.
pub const EVIL_ANSWER: &str = "<img src=x onerror=alert(1)>";

/// The store, its bots' ids and keys, and the ladder files it was drawn from.
pub struct Hosted {
    pub files: Fixture,
    pub store: Arc<dyn Store>,
    /// By the `tt` file's bot index: the bot's account id and key.
    pub bots: Vec<(BotId, String)>,
    /// The ladder's store id.
    pub ladder: cardroom_store::LadderId,
    /// The ladder match that is still running (claimed, not finished).
    pub running: cardroom_store::LadderMatchId,
}

const NOW: i64 = 1_796_000_000_000;

impl Hosted {
    /// The `tt` file's sets as the hosted ladder's rated sets (two matches each), a failure
    /// of the [`EVIL_NAME`] bot with [`EVIL_ANSWER`] in the first match it plays, two timed
    /// decisions per seat, and a last set one of whose matches runs.
    pub async fn new() -> Hosted {
        let files = Fixture::ladders();
        let arena = cardroom_arena::Store::open(&files.tt).unwrap();
        let names = arena.bot_names().unwrap();
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
        let mut bots = Vec::new();
        for (i, name) in names.iter().enumerate() {
            // The store itself takes any name (accounts refuse markup): the pages escape
            // whatever it holds.
            let key = format!("key-of-bot-{i}");
            let account = store.register_bot(name, KeyHash::of(&key), NOW).await.unwrap();
            bots.push((account.id, key));
        }
        let spec = NewLadder {
            name: LADDER.into(),
            game: "twenty_two".into(),
            options_json: "{}".into(),
            table_seats: 2,
            rating: "weng_lin".into(),
            seed: 11,
            provisional_sets: 1,
            config: String::new(),
        };
        let ladder = store.create_ladder(&spec, NOW).await.unwrap();
        let initial = StoredRating { mean: 25.0, sigma: 8.0, volatility: 0.0 };
        let mut ratings = HashMap::new();
        for (id, _) in &bots {
            store.enter_ladder(ladder.id, *id, initial, NOW).await.unwrap();
            ratings.insert(*id, initial);
        }
        let lease = Lease { owner: "test".into(), until_ms: NOW + 3_600_000 };
        let mut matches = arena.finished_matches(None, 0, 1_000).unwrap();
        matches.reverse();
        let mut index = 0;
        let mut at = NOW;
        let mut failed = false;
        for set in matches.chunks(2) {
            let seat_ids =
                |m: &cardroom_arena::FinishedMatch| m.seats.iter().map(|&b| bots[b].0).collect();
            let planned = store
                .plan_set(
                    ladder.id,
                    &NewSet {
                        index,
                        seed: set[0].seed,
                        bots: seat_ids(&set[0]),
                        matches: set
                            .iter()
                            .zip(0..)
                            .map(|(m, rotation)| NewMatch {
                                rotation,
                                seed: m.seed,
                                seats: seat_ids(m),
                            })
                            .collect(),
                    },
                    at,
                )
                .await
                .unwrap();
            for (m, stored) in set.iter().zip(&planned.matches) {
                at += 1_000;
                let claim = store.claim_match(stored.id, &lease, at).await.unwrap();
                let evil_seat = m.seats.iter().position(|&b| names[b] == EVIL_NAME);
                let failures = match evil_seat {
                    Some(seat) if !failed => vec![NewFailure {
                        seat: seat as u8,
                        kind: FailureKind::Illegal,
                        observation_json: Some("{\"hand\":[\"7h\"]}".into()),
                        answer: Some(EVIL_ANSWER.into()),
                        error: "GR-1: not a legal action".into(),
                    }],
                    _ => Vec::new(),
                };
                let result = MatchResult {
                    claim,
                    server_match_id: format!("server{}", stored.id.0),
                    seats: m
                        .outcome
                        .places
                        .iter()
                        .zip(0..)
                        .map(|(&(_, place), seat)| SeatResult {
                            seat,
                            version: "1.0".into(),
                            place,
                            forfeited: false,
                            // Two decisions a seat: 150 µs (300 µs on seat 1) and 40 ms.
                            think: ThinkSummary::from_micros(&[
                                150 * (u32::from(seat) + 1),
                                40_000,
                            ]),
                        })
                        .collect(),
                    record_json: arena.record(m.id).unwrap(),
                    failures,
                };
                failed |= !result.failures.is_empty();
                store.finish_match(&result, at).await.unwrap();
            }
            // The winner of the set's first match gains, the others lose.
            let updates: Vec<RatingUpdate> = set[0]
                .outcome
                .places
                .iter()
                .map(|&(b, place)| {
                    let id = bots[b].0;
                    let before = ratings[&id];
                    let shift = if place == 1 { 1.5 } else { -1.0 };
                    let after = StoredRating {
                        mean: before.mean + shift,
                        sigma: before.sigma * 0.9,
                        volatility: 0.0,
                    };
                    ratings.insert(id, after);
                    RatingUpdate { bot: id, before, after }
                })
                .collect();
            store.rate_set(ladder.id, index, &updates, at).await.unwrap();
            index += 1;
        }
        // One more set, its first match running.
        let seats = vec![bots[0].0, bots[1].0];
        let open = store
            .plan_set(
                ladder.id,
                &NewSet {
                    index,
                    seed: 99,
                    bots: seats.clone(),
                    matches: vec![
                        NewMatch { rotation: 0, seed: 99, seats: seats.clone() },
                        NewMatch { rotation: 1, seed: 99, seats: vec![seats[1], seats[0]] },
                    ],
                },
                at,
            )
            .await
            .unwrap();
        let running = open.matches[0].id;
        store.claim_match(running, &lease, at + 1).await.unwrap();
        Hosted { files, store, bots, ladder: ladder.id, running }
    }

    /// The pages over the store, with the ladder files beside it.
    pub fn router(&self) -> axum::Router {
        let local = LocalSource::new([self.files.tt.clone(), self.files.gin.clone()]);
        let source = StoreSource::new(Accounts::new(Arc::clone(&self.store)), local);
        cardroom_web::router(Arc::new(source), WebConfig { page_size: 2, ..WebConfig::default() })
    }

    /// The name of the bot whose account is `id`.
    pub fn name_of(&self, id: BotId) -> String {
        let arena = cardroom_arena::Store::open(&self.files.tt).unwrap();
        let index = self.bots.iter().position(|(bot, _)| *bot == id).unwrap();
        arena.bot_names().unwrap()[index].clone()
    }

    /// The `tt` file's index of the bot named `name`.
    pub fn index_of(&self, name: &str) -> usize {
        let arena = cardroom_arena::Store::open(&self.files.tt).unwrap();
        arena.bot_names().unwrap().iter().position(|n| n == name).unwrap()
    }
}
