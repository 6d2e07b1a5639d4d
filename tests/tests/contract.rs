//! The fine print of docs/protocol.md ("The fine print"), each statement checked against a
//! real server on `127.0.0.1:0`: a half-closed send side leaves the seat; a finished match's
//! token gets `End` without `Joined`; `STALE_TURN` wins over `NOT_YOUR_TURN`; a clock field
//! of 0 takes the server's default; the reconnect grace is counted once from the drop, so an
//! absent Gin Rummy seat takes a strike for each of the two decisions of its turn.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use cardroom_games::{Seat, gin};
use cardroom_proto::pb;
use cardroom_server::Config;
use cardroom_tests::{Bot, Table, TestServer, act, create};
use pb::server_message::Message;

/// The first message of a new stream, which must be `Joined`.
async fn joined(bot: &mut Bot) -> pb::Joined {
    match bot.next().await.unwrap() {
        Some(Message::Joined(joined)) => joined,
        other => panic!("expected Joined, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_closing_the_send_side_leaves_the_seat() {
    let server = TestServer::start(Config::default()).await;
    let (match_id, tokens) = server.create(pb::Game::GinRummy, 2, 1).await;
    let mut bot = Bot::with_token(server.channel().await, &tokens[0]).await.unwrap();
    joined(&mut bot).await;
    assert!(server.match_info(&match_id).await.seats[0].connected);

    let (sender, mut stream) = bot.into_parts();
    drop(sender); // The request stream ends: a half-close.
    // The response stream ends with OK and no `End`: the seat is left, not the match over.
    let rest = cardroom_tests::next_raw(&mut stream).await;
    assert!(matches!(rest, Ok(None)), "{rest:?}");
    let info = server.match_info(&match_id).await;
    assert!(!info.seats[0].connected && !info.over, "{info:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_matchs_token_gets_its_end_without_joined() {
    let server = TestServer::start(Config::default()).await;
    let (match_id, tokens) = server.create(pb::Game::GinRummy, 2, 2).await;
    let (mut table, _) = Table::join(&server, &match_id, tokens.clone(), 2).await;
    let end = table.play_to_end().await;

    let mut late = Bot::with_token(server.channel().await, &tokens[1]).await.unwrap();
    match late.next().await.unwrap() {
        Some(Message::End(again)) => assert_eq!(again, end),
        other => panic!("expected End, got {other:?}"),
    }
    assert!(matches!(late.next().await, Ok(None)), "then the stream ends with OK");
}

/// The next `ActError` `seat` receives; no other seat may be refused meanwhile.
async fn refusal(table: &mut Table, seat: usize) -> pb::ActError {
    loop {
        match table.next().await.unwrap() {
            (from, Ok(Message::Error(error))) if from == seat => return error,
            (from, Ok(Message::Error(error))) => panic!("seat {from}: {error:?}"),
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_turn_wins_over_not_your_turn() {
    let server = TestServer::start(Config::default()).await;
    let (match_id, tokens) = server.create(pb::Game::TwentyTwo, 2, 3).await;
    let (mut table, _) = Table::join(&server, &match_id, tokens, 3).await;
    let (to_act, turn) = loop {
        if let (seat, Ok(Message::Turn(turn))) = table.next().await.unwrap() {
            break (seat, turn);
        }
    };
    let other = 1 - to_act;
    // Both apply to an old turn number from the seat not to act: STALE_TURN is the answer.
    table.send(other, &act(turn.turn + 1, pb::act::Choice::Index(0))).await;
    let error = refusal(&mut table, other).await;
    assert_eq!(error.code, pb::ActErrorCode::StaleTurn as i32, "{error:?}");
    // With the current number, only NOT_YOUR_TURN applies.
    table.send(other, &act(turn.turn, pb::act::Choice::Index(0))).await;
    let error = refusal(&mut table, other).await;
    assert_eq!(error.code, pb::ActErrorCode::NotYourTurn as i32, "{error:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_field_of_zero_takes_the_servers_default() {
    let config = Config::default();
    let (default_move, default_bank) = (config.move_time, config.bank_time);
    let server = TestServer::start(config).await;
    let mut client = server.client().await;
    for (asked, expected) in [
        (pb::Clock { move_ms: 1500, bank_ms: 0, max_bad_replies: 0 }, (1500, default_bank)),
        (
            pb::Clock { move_ms: 0, bank_ms: 7000, max_bad_replies: 0 },
            (default_move.as_millis() as u32, secs(7)),
        ),
    ] {
        let (_, tokens) = create(&mut client, pb::Game::GinRummy, 2, "", 4, Some(asked)).await;
        let mut bot = Bot::with_token(server.channel().await, &tokens[0]).await.unwrap();
        let clock = joined(&mut bot).await.clock.unwrap();
        assert_eq!((clock.move_ms, clock.bank_ms), (expected.0, expected.1.as_millis() as u32));
    }
}

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_absent_gin_seat_takes_a_strike_for_each_decision_once_its_grace_has_passed() {
    let max_strikes = 8;
    let config =
        Config { reconnect_grace: Duration::from_millis(300), max_strikes, ..Config::default() };
    let server = TestServer::start(config).await;
    let (match_id, tokens) = server.create(pb::Game::GinRummy, 2, 5).await;
    let (mut table, _) = Table::join(&server, &match_id, tokens, 5).await;
    let absent = 0;
    table.disconnect(absent);
    let end = table.play_to_end().await;
    let absent_standing = end.standings.iter().find(|s| s.seat == absent as u32).unwrap();
    assert!(absent_standing.forfeited, "{end:?}");

    let info = server.match_info(&match_id).await;
    assert_eq!(info.seats[absent].strikes, max_strikes);
    let mut client = server.client().await;
    let request = pb::GetRecordRequest { match_id };
    let record = client.get_record(request).await.unwrap().into_inner().record_json;
    let record = gin::Record::from_json(&record).unwrap();
    let played: Vec<gin::Action> = record
        .actions
        .iter()
        .filter(|recorded| recorded.seat == Seat(absent as u8))
        .map(|recorded| recorded.action)
        .collect();
    // Every decision of the absent seat was struck and played by default; the last strike
    // forfeited instead of playing (a Gin Rummy forfeit ends the match at once).
    assert_eq!(played.len() as u32, max_strikes - 1, "{played:?}");
    // A turn of two decisions, both struck: a draw from the stock, then a discard.
    let two_in_a_turn = record.actions.windows(2).any(|pair| {
        pair.iter().all(|r| r.seat == Seat(absent as u8))
            && pair[0].action == gin::Action::DrawStock
            && matches!(pair[1].action, gin::Action::Discard(_))
    });
    assert!(two_in_a_turn, "{played:?}");
}
