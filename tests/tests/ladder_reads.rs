//! The hosted ladders' public read rpcs over real gRPC, against a store with known content:
//! the leaderboard, a bot's matches by page, its history, versions and head-to-head, a match's
//! record once done, and failures for the bot's own key only (UNAUTHENTICATED without one,
//! PERMISSION_DENIED with another bot's).

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use cardroom_proto::pb;
use cardroom_server::Config;
use cardroom_store::{
    Accounts, BotId, FailureKind, Lease, MatchResult, NewFailure, NewLadder, NewMatch, NewSet,
    RatingUpdate, SeatResult, SqliteStore, Store, StoredRating,
};
use cardroom_tests::TestServer;
use tonic::{Code, Request};

const INITIAL: StoredRating = StoredRating { mean: 25.0, sigma: 8.0, volatility: 0.0 };

/// A ladder `tt` in which `strong` beat `weak` in every match of three duplicate sets, `weak`
/// answering an illegal action in each; returns the server, the two bots' keys and the store.
async fn server() -> (TestServer, [String; 2], Arc<dyn Store>) {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let accounts = Accounts::new(Arc::clone(&store));
    let strong = accounts.register("strong").await.unwrap();
    let weak = accounts.register("weak").await.unwrap();
    let new = NewLadder {
        name: "tt".into(),
        game: "twenty-two".into(),
        options_json: "{}".into(),
        table_seats: 2,
        rating: "weng_lin".into(),
        seed: 1,
        provisional_sets: 5,
        config: String::new(),
    };
    let ladder = store.create_ladder(&new, 1).await.unwrap().id;
    let bots: [BotId; 2] = [strong.bot.id, weak.bot.id];
    for bot in bots {
        store.enter_ladder(ladder, bot, INITIAL, 1).await.unwrap();
    }
    for index in 0..3u64 {
        let [s, w] = bots;
        let set = NewSet {
            index,
            seed: index,
            bots: vec![s, w],
            matches: vec![
                NewMatch { rotation: 0, seed: index, seats: vec![s, w] },
                NewMatch { rotation: 1, seed: index, seats: vec![w, s] },
            ],
        };
        let planned = store.plan_set(ladder, &set, 2).await.unwrap();
        for m in &planned.matches {
            let lease = Lease { owner: "run".into(), until_ms: i64::MAX };
            let claim = store.claim_match(m.id, &lease, 3).await.unwrap();
            let seats = m
                .seats
                .iter()
                .map(|seat| SeatResult {
                    seat: seat.seat,
                    version: "v1".into(),
                    place: if seat.bot == s { 1 } else { 2 },
                    forfeited: false,
                    think: Default::default(),
                })
                .collect();
            let weak_seat = m.seats.iter().find(|seat| seat.bot == w).unwrap().seat;
            let failures = vec![NewFailure {
                seat: weak_seat,
                kind: FailureKind::Illegal,
                observation_json: Some(r#"{"hand":["2C"]}"#.into()),
                answer: Some("play 3D".into()),
                error: "TT-12: 3D is not in the hand".into(),
            }];
            let result = MatchResult {
                claim,
                server_match_id: format!("srv{}", m.id.0),
                seats,
                record_json: Some(r#"{"game":"twenty-two"}"#.into()),
                failures,
            };
            store.finish_match(&result, 10 + index as i64).await.unwrap();
        }
        let step = index as f64 + 1.0;
        let updates = [
            RatingUpdate {
                bot: s,
                before: INITIAL,
                after: StoredRating { mean: 25.0 + step, ..INITIAL },
            },
            RatingUpdate {
                bot: w,
                before: INITIAL,
                after: StoredRating { mean: 25.0 - step, ..INITIAL },
            },
        ];
        store.rate_set(ladder, index, &updates, 20 + index as i64).await.unwrap();
    }
    let config = Config { accounts: Some(accounts), ..Config::default() };
    let keys = [strong.key.expose().to_owned(), weak.key.expose().to_owned()];
    (TestServer::start(config).await, keys, store)
}

#[tokio::test]
async fn the_leaderboard_and_a_bots_pages_are_the_stores_content() {
    let (server, _, _) = server().await;
    let mut client = server.client().await;
    let ladders =
        client.list_ladders(pb::ListLaddersRequest::default()).await.unwrap().into_inner();
    let names: Vec<&str> = ladders.ladders.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["tt"]);

    let board = client
        .get_leaderboard(pb::GetLeaderboardRequest { ladder: "tt".into() })
        .await
        .unwrap()
        .into_inner();
    let rows: Vec<(u32, &str, f64, u64, u64, bool)> = board
        .rows
        .iter()
        .map(|r| (r.rank, r.bot.as_str(), r.rating, r.matches, r.wins, r.provisional))
        .collect();
    assert_eq!(rows, [(1, "strong", 28.0, 6, 6, true), (2, "weak", 22.0, 6, 0, true)]);
    assert_eq!(board.rows[1].health.unwrap().illegal, 6);
    assert_eq!(board.rows[0].win_rate, 1.0);

    // A bot's matches, four to a page, newest first.
    let page = |token: String| pb::ListBotMatchesRequest {
        ladder: "tt".into(),
        bot: "weak".into(),
        page_size: 4,
        page_token: token,
    };
    let first = client.list_bot_matches(page(String::new())).await.unwrap().into_inner();
    assert_eq!(first.matches.len(), 4);
    assert!(first.matches.iter().all(|m| m.record_json.is_empty() && m.state == "done"));
    let second = client.list_bot_matches(page(first.next_page_token)).await.unwrap().into_inner();
    assert_eq!((second.matches.len(), second.next_page_token.as_str()), (2, ""));
    let mut ids: Vec<i64> = first.matches.iter().chain(&second.matches).map(|m| m.id).collect();
    assert!(ids.windows(2).all(|w| w[0] > w[1]));
    ids.dedup();
    assert_eq!(ids.len(), 6);
    let seat = &first.matches[0].seats.iter().find(|s| s.bot == "weak").unwrap();
    assert_eq!((seat.place, seat.failure.as_str(), seat.version.as_str()), (2, "illegal", "v1"));

    let bot = client
        .get_ladder_bot(pb::GetLadderBotRequest { ladder: "tt".into(), bot: "strong".into() })
        .await
        .unwrap()
        .into_inner();
    let history: Vec<f64> = bot.history.iter().map(|h| h.rating).collect();
    assert_eq!(history, [26.0, 27.0, 28.0]);
    assert_eq!(
        bot.versions.iter().map(|v| (v.version.as_str(), v.matches)).collect::<Vec<_>>(),
        [("v1", 6)]
    );
    let h2h: Vec<(&str, u64, u64, u64)> =
        bot.head_to_head.iter().map(|h| (h.opponent.as_str(), h.wins, h.ties, h.losses)).collect();
    assert_eq!(h2h, [("weak", 6, 0, 0)]);
    let pair = client
        .get_head_to_head(pb::GetHeadToHeadRequest {
            ladder: "tt".into(),
            a: "weak".into(),
            b: "strong".into(),
        })
        .await
        .unwrap()
        .into_inner()
        .a_against_b
        .unwrap();
    assert_eq!((pair.wins, pair.ties, pair.losses), (0, 0, 6));

    // A match with its record, once done.
    let one = client
        .get_ladder_match(pb::GetLadderMatchRequest { id: ids[0] })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(one.record_json, r#"{"game":"twenty-two"}"#);

    // What does not exist is NOT_FOUND; a bad page token INVALID_ARGUMENT.
    let missing = client
        .get_leaderboard(pb::GetLeaderboardRequest { ladder: "nope".into() })
        .await
        .unwrap_err();
    assert_eq!(missing.code(), Code::NotFound);
    let unknown_bot = client
        .get_ladder_bot(pb::GetLadderBotRequest { ladder: "tt".into(), bot: "nobody".into() })
        .await
        .unwrap_err();
    assert_eq!(unknown_bot.code(), Code::NotFound);
    let bad_token = client.list_bot_matches(page("x".into())).await.unwrap_err();
    assert_eq!(bad_token.code(), Code::InvalidArgument);
    let no_match =
        client.get_ladder_match(pb::GetLadderMatchRequest { id: 999_999 }).await.unwrap_err();
    assert_eq!(no_match.code(), Code::NotFound);
}

#[tokio::test]
async fn failures_are_shown_only_on_the_bots_own_key() {
    let (server, [strong_key, weak_key], _) = server().await;
    let mut client = server.client().await;
    let request = |key: Option<&str>| {
        let mut request = Request::new(pb::ListFailuresRequest {
            ladder: "tt".into(),
            bot: "weak".into(),
            limit: 0,
        });
        if let Some(key) = key {
            request
                .metadata_mut()
                .insert("authorization", format!("Bearer {key}").parse().unwrap());
        }
        request
    };
    let none = client.list_failures(request(None)).await.unwrap_err();
    assert_eq!(none.code(), Code::Unauthenticated);
    let nobodys = client.list_failures(request(Some("crk_0000"))).await.unwrap_err();
    assert_eq!(nobodys.code(), Code::Unauthenticated);
    let others = client.list_failures(request(Some(&strong_key))).await.unwrap_err();
    assert_eq!(others.code(), Code::PermissionDenied);
    let own = client.list_failures(request(Some(&weak_key))).await.unwrap().into_inner();
    assert_eq!(own.failures.len(), 6);
    let f = &own.failures[0];
    assert_eq!(
        (f.kind.as_str(), f.answer.as_str(), f.observation_json.as_str()),
        ("illegal", "play 3D", r#"{"hand":["2C"]}"#)
    );
    assert!(f.error.starts_with("TT-12"));
}
