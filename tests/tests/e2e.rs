//! The server end to end: a real server on 127.0.0.1:0, real gRPC clients.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use std::time::Duration;

use cardroom_games::AnyRecord;
use cardroom_proto::pb;
use cardroom_server::Config;
use cardroom_tests::{Bot, PATIENCE, TestServer, call_raw, commented_act, create, random_choice};
use tonic::Code;

use pb::server_message::Message;

fn config() -> Config {
    Config {
        move_time: Duration::from_secs(10),
        bank_time: Duration::from_secs(10),
        ..Config::default()
    }
}

fn places(end: &pb::MatchEnd) -> Vec<(u32, u32)> {
    end.standings.iter().map(|s| (s.seat, s.place)).collect()
}

/// The Joined message that starts every stream.
async fn joined_message(bot: &mut Bot) -> pb::Joined {
    match bot.next().await.unwrap() {
        Some(Message::Joined(joined)) => joined,
        other => panic!("expected Joined, got {other:?}"),
    }
}

/// Joins every seat; returns the bots and the seat to act first.
async fn join_all(server: &TestServer, tokens: &[String]) -> (Vec<Bot>, Option<u32>) {
    let mut bots = Vec::new();
    let mut to_act = None;
    for token in tokens {
        let mut bot = Bot::with_token(server.channel().await, token).await.unwrap();
        let joined = joined_message(&mut bot).await;
        to_act = to_act.or(first_to_act(&joined));
        bots.push(bot);
    }
    (bots, to_act)
}

/// The seat to act in a Joined observation.
fn first_to_act(joined: &pb::Joined) -> Option<u32> {
    match joined.observation.as_ref()?.game.as_ref()? {
        pb::observation::Game::TwentyTwo(view) => view.public.as_ref()?.to_act,
        pb::observation::Game::Gin(view) => view.to_act,
        pb::observation::Game::Holdem(view) => view.public.as_ref()?.to_act,
    }
}

/// A Turn, skipping events.
async fn turn(bot: &mut Bot) -> pb::Turn {
    match bot.next_non_event().await {
        Some(Message::Turn(turn)) => turn,
        other => panic!("expected a turn, got {other:?}"),
    }
}

async fn error(bot: &mut Bot) -> pb::ActError {
    match bot.next_non_event().await {
        Some(Message::Error(error)) => error,
        other => panic!("expected an error, got {other:?}"),
    }
}

#[tokio::test]
async fn discovery_lists_both_games_with_options_and_seats() {
    let server = TestServer::start(config()).await;
    let games =
        server.client().await.list_games(pb::ListGamesRequest {}).await.unwrap().into_inner().games;
    let tt = games.iter().find(|g| g.name == "twenty_two").expect("twenty_two is listed");
    assert_eq!((tt.game, tt.min_seats, tt.max_seats), (pb::Game::TwentyTwo as i32, 2, 16));
    let limit = tt.options.iter().find(|o| o.name == "limit").expect("limit is an option");
    assert_eq!(limit.default_json, "22");
    let variant = tt.options.iter().find(|o| o.name == "variant").unwrap();
    assert_eq!(variant.choices_json, vec!["\"standard\"", "\"elimination\""]);
    let gin = games.iter().find(|g| g.name == "gin").expect("gin is listed");
    assert_eq!((gin.min_seats, gin.max_seats), (2, 2));
    let target = gin.options.iter().find(|o| o.name == "target").expect("target is an option");
    assert_eq!(target.default_json, "100");
    let max_hands = gin.options.iter().find(|o| o.name == "max_hands").expect("GR-17's option");
    assert_eq!(max_hands.default_json, "300");
    assert!(max_hands.description.starts_with("GR-17: "), "{}", max_hands.description);
}

#[tokio::test]
async fn create_match_needs_the_admin_token_when_the_server_has_one() {
    let server = TestServer::start(Config { admin_token: Some("s3cret".into()), ..config() }).await;
    let mut client = server.client().await;
    let request = || pb::CreateMatchRequest {
        game: pb::Game::GinRummy as i32,
        seats: 2,
        ..Default::default()
    };
    let status = client.create_match(request()).await.unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);
    let mut wrong = tonic::Request::new(request());
    wrong.metadata_mut().insert("authorization", "Bearer nope".parse().unwrap());
    assert_eq!(client.create_match(wrong).await.unwrap_err().code(), Code::Unauthenticated);
    let mut right = tonic::Request::new(request());
    right.metadata_mut().insert("authorization", "Bearer s3cret".parse().unwrap());
    let created = client.create_match(right).await.unwrap().into_inner();
    assert_eq!(created.seats.len(), 2);
    for seat in &created.seats {
        assert_eq!(seat.token.len(), 32, "128 bits in hex");
    }
    assert_ne!(created.seats[0].token, created.seats[1].token);
    // Bad requests are INVALID_ARGUMENT with a reason.
    let open = TestServer::start(config()).await;
    let mut client = open.client().await;
    let bad = pb::CreateMatchRequest {
        game: pb::Game::TwentyTwo as i32,
        seats: 13,
        ..Default::default()
    };
    let status = client.create_match(bad).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("TT-4"), "{}", status.message());
    let bad = pb::CreateMatchRequest {
        game: pb::Game::TwentyTwo as i32,
        seats: 4,
        options_json: r#"{"colour": "red"}"#.into(),
        ..Default::default()
    };
    assert_eq!(client.create_match(bad).await.unwrap_err().code(), Code::InvalidArgument);
}

#[tokio::test]
async fn a_twenty_two_match_is_played_to_the_end_watched_and_its_record_replays() {
    let server = TestServer::start(config()).await;
    let mut client = server.client().await;
    let (match_id, tokens) = create(&mut client, pb::Game::TwentyTwo, 4, "", 77, None).await;

    let mut watch =
        client.watch(pb::WatchRequest { match_id: match_id.clone() }).await.unwrap().into_inner();
    let first = tokio::time::timeout(PATIENCE, watch.message()).await.unwrap().unwrap().unwrap();
    assert!(first.events.is_empty() && !first.public_json.is_empty());

    let mut bots = Vec::new();
    for (seat, token) in tokens.iter().enumerate() {
        let mut bot = Bot::with_token(server.channel().await, token).await.unwrap();
        match bot.next().await.unwrap() {
            Some(Message::Joined(joined)) => {
                assert_eq!((joined.seat, joined.seats), (seat as u32, 4));
                assert_eq!(joined.match_id, match_id);
                let observation = joined.observation.unwrap();
                let Some(pb::observation::Game::TwentyTwo(view)) = observation.game else {
                    panic!("a Twenty-Two observation")
                };
                assert_eq!(view.hand.len(), 7);
            }
            other => panic!("expected Joined, got {other:?}"),
        }
        bots.push(tokio::spawn(bot.play_randomly(seat as u64)));
    }
    let mut ends = Vec::new();
    for bot in bots {
        ends.push(bot.await.unwrap());
    }
    assert!(ends.windows(2).all(|w| w[0] == w[1]), "every bot hears the same end");
    let end = &ends[0];
    assert!(!end.aborted);
    assert_eq!(end.standings.len(), 4);
    assert_eq!(end.standings[0].place, 1);

    // The spectator saw the match through, with no hand in any view.
    let mut watched_events = 0;
    let mut last = None;
    while let Some(message) =
        tokio::time::timeout(PATIENCE, watch.message()).await.unwrap().unwrap()
    {
        watched_events += message.events.len();
        let view: serde_json::Value = serde_json::from_str(&message.public_json).unwrap();
        assert!(view.get("hand").is_none() && view["seats"][0].get("hand").is_none());
        last = message.end.or(last);
    }
    assert!(watched_events > 20, "{watched_events}");
    assert_eq!(last.as_ref(), Some(end));

    // The record replays to the same standings.
    let record =
        client.get_record(pb::GetRecordRequest { match_id: match_id.clone() }).await.unwrap();
    let AnyRecord::TwentyTwo(record) =
        AnyRecord::from_json(&record.into_inner().record_json).unwrap()
    else {
        panic!("a Twenty-Two record")
    };
    let replayed = record.replay().unwrap();
    let standings: Vec<(u32, u32)> = replayed
        .outcome()
        .unwrap()
        .iter()
        .map(|s| (u32::from(s.seat.0), u32::from(s.place)))
        .collect();
    assert_eq!(standings, places(end));
    let info = client.get_match(pb::GetMatchRequest { match_id }).await.unwrap().into_inner();
    assert!(info.over);
    assert_eq!(info.end.as_ref(), Some(end));
}

/// `Act.comment`: kept in the record beside its action, never live (the spectator's stream
/// and the other seat carry none of it); one over 2048 bytes is refused, the action not
/// applied.
#[tokio::test]
async fn comments_are_kept_in_the_record_and_never_sent_live() {
    let server = TestServer::start(config()).await;
    let mut client = server.client().await;
    let (match_id, tokens) = create(&mut client, pb::Game::TwentyTwo, 2, "", 5, None).await;
    let mut watch = cardroom_tests::watch_raw(server.channel().await, &match_id).await;
    let mut bots = Vec::new();
    for (seat, token) in tokens.iter().enumerate() {
        let mut bot = Bot::with_token(server.channel().await, token).await.unwrap();
        bots.push(tokio::spawn(async move {
            let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(5);
            let (mut said, mut heard) = (Vec::new(), Vec::new());
            let mut refused_long = seat != 0;
            loop {
                let message = bot.next().await.unwrap().expect("the stream ends after the end");
                heard.push(format!("{message:?}"));
                match message {
                    Message::Turn(turn) => {
                        let choice = pb::act::Choice::Index(random_choice(&turn, &mut rng));
                        if !refused_long {
                            let long = "x".repeat(2049);
                            let message = commented_act(turn.turn, choice.clone(), &long);
                            bot.send(&message).await;
                            let Some(Message::Error(error)) = bot.next().await.unwrap() else {
                                panic!("a long comment is refused");
                            };
                            assert_eq!(error.code, pb::ActErrorCode::Malformed as i32);
                            assert!(error.message.contains("over the limit of 2048"), "{error:?}");
                            refused_long = true;
                        }
                        let comment = format!("secret {seat} at turn {}", turn.turn);
                        bot.send(&commented_act(turn.turn, choice, &comment)).await;
                        said.push((turn.turn, comment));
                    }
                    Message::End(_) => return (said, heard),
                    _ => {}
                }
            }
        }));
    }
    let (mut said, mut heard) = (Vec::new(), Vec::new());
    for bot in bots {
        let (own, seen) = bot.await.unwrap();
        said.extend(own);
        heard.extend(seen);
    }
    said.sort();
    // Nothing live said it: not the spectator's stream, not the seats' own streams.
    while let Some(bytes) = cardroom_tests::next_raw(&mut watch).await.unwrap() {
        heard.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    assert!(!heard.iter().any(|h| h.contains("secret")), "a comment went out live");
    // The record keeps each beside its action.
    let record = client.get_record(pb::GetRecordRequest { match_id }).await.unwrap();
    let record = AnyRecord::from_json(&record.into_inner().record_json).unwrap();
    let AnyRecord::TwentyTwo(record) = record else { panic!("a Twenty-Two record") };
    let kept: Vec<(u64, String)> =
        record.comments.iter().map(|c| (c.action as u64, c.text.clone())).collect();
    assert_eq!(kept, said, "each comment at its action's index (the turn it answered)");
    assert!(record.replay().is_ok());
}

#[tokio::test]
async fn gin_bots_are_seated_through_the_queue_and_play_to_the_end() {
    let server = TestServer::start(config()).await;
    let queue = || pb::Join {
        seat: Some(pb::join::Seat::Queue(pb::QueueRequest {
            game: pb::Game::GinRummy as i32,
            options_json: r#"{"target": 30}"#.into(),
            seats: 2,
        })),
        bot_name: "queued".into(),
        omit: None,
        ..Default::default()
    };
    let mut first = Bot::open(server.channel().await, queue()).await.unwrap();
    let mut second = Bot::open(server.channel().await, queue()).await.unwrap();
    let mut seats = Vec::new();
    let mut match_ids = Vec::new();
    for bot in [&mut first, &mut second] {
        match bot.next().await.unwrap() {
            Some(Message::Joined(joined)) => {
                assert_eq!(joined.game, pb::Game::GinRummy as i32);
                assert!(joined.options_json.contains("\"target\":30"), "{}", joined.options_json);
                assert_eq!(joined.seat_token.len(), 32);
                seats.push(joined.seat);
                match_ids.push(joined.match_id);
            }
            other => panic!("expected Joined, got {other:?}"),
        }
    }
    seats.sort();
    assert_eq!(seats, vec![0, 1]);
    assert_eq!(match_ids[0], match_ids[1]);
    let (a, b) = tokio::join!(first.play_randomly(1), second.play_randomly(2));
    assert_eq!(a, b);
    assert!(!a.aborted);
    assert_eq!(a.standings.len(), 2);
}

#[tokio::test]
async fn bad_input_is_refused_with_a_typed_error_and_the_match_goes_on() {
    let server = TestServer::start(config()).await;
    let mut client = server.client().await;
    let (_, tokens) = create(&mut client, pb::Game::TwentyTwo, 2, "", 5, None).await;
    let (mut bots, to_act) = join_all(&server, &tokens).await;
    let first = to_act.expect("someone acts first") as usize;
    let mut other = bots.remove(1 - first);
    let mut mover = bots.remove(0);
    let turn = self::turn(&mut mover).await;
    let mover = &mut mover;

    // A play during the exchange: illegal, with the rule; nothing changes.
    let play = pb::Action {
        game: Some(pb::action::Game::TwentyTwo(pb::TwentyTwoAction {
            action: Some(pb::twenty_two_action::Action::Play(pb::Cards {
                cards: vec![pb::Card { rank: pb::Rank::Ace as i32, suit: pb::Suit::Spades as i32 }],
            })),
        })),
    };
    mover.act(turn.turn, pb::act::Choice::Action(play)).await;
    let refused = error(mover).await;
    assert_eq!(refused.code, pb::ActErrorCode::IllegalAction as i32);
    assert_eq!(refused.rule, "TT-9");
    assert!(refused.message.starts_with("TT-9"), "{}", refused.message);

    // An index out of range, an empty Act, a Gin action: malformed.
    mover.act(turn.turn, pb::act::Choice::Index(100_000)).await;
    assert_eq!(error(mover).await.code, pb::ActErrorCode::Malformed as i32);
    let gin = pb::Action {
        game: Some(pb::action::Game::Gin(pb::GinAction {
            action: Some(pb::gin_action::Action::DrawStock(pb::gin_action::Empty {})),
        })),
    };
    mover.act(turn.turn, pb::act::Choice::Action(gin)).await;
    assert_eq!(error(mover).await.code, pb::ActErrorCode::Malformed as i32);
    let empty = pb::Act { turn: turn.turn, choice: None, comment: String::new() };
    mover.send(&pb::BotMessage { message: Some(pb::bot_message::Message::Act(empty)) }).await;
    assert_eq!(error(mover).await.code, pb::ActErrorCode::Malformed as i32);

    // Out of turn, and a stale turn number.
    other.act(turn.turn, pb::act::Choice::Index(0)).await;
    assert_eq!(error(&mut other).await.code, pb::ActErrorCode::NotYourTurn as i32);
    mover.act(turn.turn + 7, pb::act::Choice::Index(0)).await;
    assert_eq!(error(mover).await.code, pb::ActErrorCode::StaleTurn as i32);

    // The retry is applied once; repeating it is stale, not applied twice.
    mover.act(turn.turn, pb::act::Choice::Index(0)).await;
    mover.act(turn.turn, pb::act::Choice::Index(0)).await;
    let stale = error(mover).await;
    assert_eq!((stale.code, stale.turn), (pb::ActErrorCode::StaleTurn as i32, turn.turn));
    let next = self::turn(&mut other).await;
    assert_eq!(next.turn, turn.turn + 1);

    // A token of no seat, and a first message that is not Join.
    let status = Bot::with_token(server.channel().await, "00000000000000000000000000000000")
        .await
        .err()
        .unwrap();
    assert_eq!(status.code(), Code::Unauthenticated);
    let mut raw = pb::cardroom_client::CardroomClient::new(server.channel().await);
    let act = pb::BotMessage {
        message: Some(pb::bot_message::Message::Act(pb::Act {
            turn: 0,
            choice: None,
            comment: String::new(),
        })),
    };
    let status = raw.play(tokio_stream::iter(vec![act])).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
}

#[tokio::test]
async fn an_oversized_message_ends_that_stream_only() {
    let server = TestServer::start(Config { max_message_bytes: 1024, ..config() }).await;
    let mut client = server.client().await;
    let (_, tokens) = create(&mut client, pb::Game::GinRummy, 2, "", 9, None).await;
    let mut bot = Bot::with_token(server.channel().await, &tokens[0]).await.unwrap();
    assert!(matches!(bot.next().await.unwrap(), Some(Message::Joined(_))));
    let huge = pb::Action {
        game: Some(pb::action::Game::TwentyTwo(pb::TwentyTwoAction {
            action: Some(pb::twenty_two_action::Action::Exchange(pb::Cards {
                cards: vec![pb::Card { rank: 2, suit: 1 }; 2_000],
            })),
        })),
    };
    bot.act(0, pb::act::Choice::Action(huge)).await;
    let status = loop {
        match bot.next().await {
            Err(status) => break status,
            Ok(Some(_)) => continue,
            Ok(None) => panic!("the stream ended without a status"),
        }
    };
    assert_eq!(status.code(), Code::ResourceExhausted);
    // The seat can rejoin with its token and play on.
    let mut again = Bot::with_token(server.channel().await, &tokens[0]).await.unwrap();
    assert!(matches!(again.next().await.unwrap(), Some(Message::Joined(_))));
}

#[tokio::test]
async fn timeouts_play_the_default_count_strikes_and_forfeit() {
    let server = TestServer::start(Config { max_strikes: 2, ..config() }).await;
    let mut client = server.client().await;
    // The clock starts when all three have joined; the players answer at once.
    let clock = pb::Clock { move_ms: 300, bank_ms: 1, max_bad_replies: 0 };
    let (match_id, tokens) = create(&mut client, pb::Game::TwentyTwo, 3, "", 3, Some(clock)).await;
    // Seats 1 and 2 play; seat 0 joins but never answers.
    let mut silent = Bot::with_token(server.channel().await, &tokens[0]).await.unwrap();
    let mut handles = Vec::new();
    for (i, token) in tokens[1..].iter().enumerate() {
        let mut bot = Bot::with_token(server.channel().await, token).await.unwrap();
        assert!(matches!(bot.next().await.unwrap(), Some(Message::Joined(_))));
        handles.push(tokio::spawn(bot.play_randomly(i as u64)));
    }
    let mut codes = Vec::new();
    let end = loop {
        match silent.next().await.unwrap() {
            Some(Message::Error(error)) => codes.push(error.code),
            Some(Message::End(end)) => break end,
            Some(_) => {}
            None => panic!("the stream ended before the match"),
        }
    };
    let timed_out = pb::ActErrorCode::TimedOut as i32;
    assert_eq!(codes.iter().filter(|&&c| c == timed_out).count(), 2, "{codes:?}");
    assert!(codes.contains(&(pb::ActErrorCode::Forfeited as i32)));
    let last = end.standings.last().unwrap();
    assert_eq!((last.seat, last.place, last.forfeited), (0, 3, true));
    for handle in handles {
        assert_eq!(handle.await.unwrap(), end);
    }
    let info = client.get_match(pb::GetMatchRequest { match_id }).await.unwrap().into_inner();
    assert_eq!((info.seats[0].strikes, info.seats[0].forfeited), (2, true));
}

#[tokio::test]
async fn a_gin_seat_that_forfeits_loses_the_match_at_once() {
    let grace = Duration::from_millis(50);
    let server =
        TestServer::start(Config { max_strikes: 1, reconnect_grace: grace, ..config() }).await;
    let mut client = server.client().await;
    let clock = pb::Clock { move_ms: 20, bank_ms: 1, max_bad_replies: 0 };
    let (_, tokens) = create(&mut client, pb::Game::GinRummy, 2, "", 4, Some(clock)).await;
    // One bot joins and never answers; the other seat stays empty. The match starts after the
    // grace, and the first seat to act times out and forfeits.
    let mut watcher = Bot::with_token(server.channel().await, &tokens[0]).await.unwrap();
    let end = watcher.until_end().await;
    assert_eq!(end.standings.len(), 2);
    let loser = end.standings.iter().find(|s| s.forfeited).expect("one seat forfeited");
    assert_eq!(loser.place, 2);
    assert_eq!(end.standings.iter().find(|s| !s.forfeited).unwrap().place, 1);
}

#[tokio::test]
async fn a_bot_that_reconnects_gets_its_observation_and_turn_back() {
    let server = TestServer::start(config()).await;
    let mut client = server.client().await;
    let (_, tokens) =
        create(&mut client, pb::Game::GinRummy, 2, r#"{"target": 25}"#, 11, None).await;
    let (mut bots, to_act) = join_all(&server, &tokens).await;
    // Whoever must act: drop its stream, then come back.
    let seat = to_act.expect("someone acts first") as usize;
    let turn = self::turn(&mut bots[seat]).await;
    drop(bots.remove(seat));
    let mut back = Bot::with_token(server.channel().await, &tokens[seat]).await.unwrap();
    match back.next().await.unwrap() {
        Some(Message::Joined(joined)) => {
            assert_eq!(joined.seat, seat as u32);
            assert!(joined.observation.is_some());
        }
        other => panic!("expected Joined, got {other:?}"),
    }
    let again = self::turn(&mut back).await;
    assert_eq!(again.turn, turn.turn, "the same decision, the same turn number");
    assert_eq!(again.legal_actions, turn.legal_actions);
    back.act(again.turn, pb::act::Choice::Index(0)).await;
    let other = bots.pop().unwrap();
    let (a, b) = tokio::join!(back.play_randomly(3), other.play_randomly(4));
    assert_eq!(a, b);
    assert!(!a.aborted);
}

#[tokio::test]
async fn shutdown_aborts_running_matches_tells_the_bots_and_writes_records() {
    let dir = tempfile::tempdir().unwrap();
    let server =
        TestServer::start(Config { record_dir: Some(dir.path().to_owned()), ..config() }).await;
    let mut client = server.client().await;
    let (match_id, tokens) = create(&mut client, pb::Game::TwentyTwo, 2, "", 8, None).await;
    let mut bot = Bot::with_token(server.channel().await, &tokens[0]).await.unwrap();
    assert!(matches!(bot.next().await.unwrap(), Some(Message::Joined(_))));
    let stopping = tokio::spawn(server.stop());
    let end = bot.until_end().await;
    assert!(end.aborted);
    assert!(end.reason.contains("shutting down"), "{}", end.reason);
    assert_eq!(bot.next().await.unwrap(), None, "the stream closes after the end");
    stopping.await.unwrap().unwrap();
    let record = std::fs::read_to_string(dir.path().join(format!("{match_id}.json"))).unwrap();
    let AnyRecord::TwentyTwo(record) = AnyRecord::from_json(&record).unwrap() else { panic!("22") };
    assert!(record.replay().is_ok());
}

#[tokio::test]
async fn limits_on_matches_and_connections_are_resource_exhausted() {
    let server = TestServer::start(Config { max_matches: 1, max_connections: 1, ..config() }).await;
    let mut client = server.client().await;
    let (_, tokens) = create(&mut client, pb::Game::GinRummy, 2, "", 1, None).await;
    let request =
        pb::CreateMatchRequest { game: pb::Game::GinRummy as i32, seats: 2, ..Default::default() };
    assert_eq!(client.create_match(request).await.unwrap_err().code(), Code::ResourceExhausted);
    let mut first = Bot::with_token(server.channel().await, &tokens[0]).await.unwrap();
    assert!(matches!(first.next().await.unwrap(), Some(Message::Joined(_))));
    let status = Bot::with_token(server.channel().await, &tokens[1]).await.err().unwrap();
    assert_eq!(status.code(), Code::ResourceExhausted);
}

#[tokio::test]
async fn health_and_reflection_answer() {
    use tonic_health::pb::health_client::HealthClient;
    use tonic_reflection::pb::v1::ServerReflectionRequest;
    use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
    use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
    use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;

    let server = TestServer::start(config()).await;
    let mut health = HealthClient::new(server.channel().await);
    let status = health
        .check(tonic_health::pb::HealthCheckRequest { service: "cardroom.v1.Cardroom".into() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        status.status,
        tonic_health::pb::health_check_response::ServingStatus::Serving as i32
    );

    let mut reflection = ServerReflectionClient::new(server.channel().await);
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut responses = reflection
        .server_reflection_info(tokio_stream::iter(vec![request]))
        .await
        .unwrap()
        .into_inner();
    let response = responses.message().await.unwrap().unwrap();
    let Some(MessageResponse::ListServicesResponse(list)) = response.message_response else {
        panic!("a list of services")
    };
    let names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
    assert!(names.contains(&"cardroom.v1.Cardroom".to_owned()), "{names:?}");
}

#[tokio::test]
async fn records_are_refused_while_the_match_runs_and_unknown_matches_are_not_found() {
    let server = TestServer::start(config()).await;
    let mut client = server.client().await;
    let (match_id, _) = create(&mut client, pb::Game::GinRummy, 2, "", 2, None).await;
    let status =
        client.get_record(pb::GetRecordRequest { match_id: match_id.clone() }).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    let status =
        client.get_record(pb::GetRecordRequest { match_id: "nope".into() }).await.unwrap_err();
    assert_eq!(status.code(), Code::NotFound);
    let status =
        client.get_match(pb::GetMatchRequest { match_id: "nope".into() }).await.unwrap_err();
    assert_eq!(status.code(), Code::NotFound);
    let info = client.get_match(pb::GetMatchRequest { match_id }).await.unwrap().into_inner();
    assert!(!info.over);
    assert_eq!(info.seats.len(), 2);
    assert!(info.seats.iter().all(|s| !s.connected && s.strikes == 0));
}

#[tokio::test]
async fn a_seat_gone_at_its_turn_gets_the_default_action_after_the_grace_and_a_strike() {
    let grace = Duration::from_millis(100);
    let server = TestServer::start(Config { reconnect_grace: grace, ..config() }).await;
    let mut client = server.client().await;
    let (match_id, tokens) = create(&mut client, pb::Game::GinRummy, 2, "", 11, None).await;
    let (mut bots, to_act) = join_all(&server, &tokens).await;
    let seat = to_act.expect("someone acts first") as usize;
    let first = turn(&mut bots[seat]).await;
    // The seat to act goes away and stays away: its 10-second clock does not matter, the
    // grace does.
    drop(bots.remove(seat));
    let mut other = bots.pop().unwrap();
    let next = turn(&mut other).await;
    assert_eq!(next.turn, first.turn + 1, "the default action was played for the absent seat");
    let info = client.get_match(pb::GetMatchRequest { match_id }).await.unwrap().into_inner();
    assert_eq!(info.seats[seat].strikes, 1);
    assert!(!info.seats[seat].connected);
}

#[tokio::test]
async fn discovery_lists_every_option_of_every_rule_set_with_its_default() {
    let server = TestServer::start(config()).await;
    let games =
        server.client().await.list_games(pb::ListGamesRequest {}).await.unwrap().into_inner().games;
    for game in &games {
        let defaults: serde_json::Map<String, serde_json::Value> = game
            .options
            .iter()
            .map(|o| (o.name.clone(), serde_json::from_str(&o.default_json).unwrap()))
            .collect();
        // The listed defaults are exactly the engine's default options.
        let engine = match game.name.as_str() {
            "twenty_two" => serde_json::to_value(cardroom_games::twenty_two::Options::default()),
            "gin" => serde_json::to_value(cardroom_games::gin::Options::default()),
            "holdem" => serde_json::to_value(cardroom_games::holdem::Options::default()),
            other => panic!("unknown game {other}"),
        };
        assert_eq!(serde_json::Value::Object(defaults), engine.unwrap(), "{}", game.name);
        let rule = match game.name.as_str() {
            "gin" => "GR-",
            "holdem" => "HE-",
            _ => "TT-",
        };
        assert!(game.options.iter().all(|o| o.description.starts_with(rule)), "{}", game.name);
    }
    assert_eq!(games.len(), cardroom_games::GameKind::ALL.len());
}

/// Plays a Gin Rummy match between two random bots to its end; returns its id. The server
/// files a match (its record and status) before it tells the bots the end.
async fn play_gin(server: &TestServer, seed: u64) -> String {
    let mut client = server.client().await;
    let (match_id, tokens) = create(&mut client, pb::Game::GinRummy, 2, "", seed, None).await;
    let mut bots = Vec::new();
    for (seat, token) in tokens.iter().enumerate() {
        let bot = Bot::with_token(server.channel().await, token).await.unwrap();
        bots.push(tokio::spawn(bot.play_randomly(seed + seat as u64)));
    }
    for bot in bots {
        assert!(!bot.await.unwrap().aborted);
    }
    match_id
}

#[tokio::test]
async fn get_stats_needs_the_admin_token_when_the_server_has_one() {
    let server = TestServer::start(Config { admin_token: Some("sesame".into()), ..config() }).await;
    let mut client = server.client().await;
    let refused = client.get_stats(pb::GetStatsRequest { reset: false }).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::Unauthenticated, "stats are for the operator");
    let mut request = tonic::Request::new(pb::GetStatsRequest { reset: false });
    request.metadata_mut().insert("authorization", "Bearer sesame".parse().unwrap());
    assert_eq!(client.get_stats(request).await.unwrap().into_inner().decisions, 0);
}

#[tokio::test]
async fn get_stats_counts_decisions_and_times_their_round_trips() {
    let server = TestServer::start(config()).await;
    let match_id = play_gin(&server, 5).await;
    let mut client = server.client().await;
    let request = |reset| pb::GetStatsRequest { reset };
    let record = client.get_record(pb::GetRecordRequest { match_id }).await.unwrap();
    let AnyRecord::Gin(record) = AnyRecord::from_json(&record.into_inner().record_json).unwrap()
    else {
        panic!("a gin record")
    };
    let decisions = record.actions.len() as u64;

    let stats = client.get_stats(request(true)).await.unwrap().into_inner();
    assert_eq!(stats.decisions, decisions, "every applied action, and only those");
    assert_eq!((stats.matches_running, stats.matches_finished), (0, 1));
    let round_trip = stats.decision_round_trip.unwrap();
    assert_eq!(round_trip.count, decisions, "each bot's action answered a turn");
    assert!(round_trip.p50_us > 0 && round_trip.p50_us <= round_trip.p99_us);
    assert!(round_trip.p99_us <= round_trip.p999_us && round_trip.p999_us <= round_trip.max_us);
    assert!(stats.tasks_alive > 0);
    assert_eq!((stats.turns_sent, stats.acts_received), (decisions, decisions));
    assert!(stats.turn_bytes > 100 * decisions, "a turn carries an observation");
    assert!(stats.act_bytes >= 2 * decisions && stats.act_bytes < 16 * decisions, "acts by index");
    if cfg!(target_os = "linux") {
        assert!(stats.rss_bytes > 0 && stats.peak_rss_bytes >= stats.rss_bytes);
        assert!(stats.cpu_seconds > 0.0);
    }
    let after_reset = client.get_stats(request(false)).await.unwrap().into_inner();
    assert_eq!(after_reset.decision_round_trip.unwrap().count, 0, "the reset opened a new window");
    assert_eq!(after_reset.decisions, decisions);
}

#[tokio::test]
async fn a_long_running_server_forgets_its_oldest_matches_but_their_records_stay_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config { keep_finished: 2, record_dir: Some(dir.path().to_owned()), ..config() };
    let server = TestServer::start(config).await;
    let mut ids = Vec::new();
    for seed in 0..3 {
        ids.push(play_gin(&server, 10 + seed).await);
    }
    let mut client = server.client().await;
    let forgotten = client.get_match(pb::GetMatchRequest { match_id: ids[0].clone() }).await;
    assert_eq!(forgotten.unwrap_err().code(), tonic::Code::NotFound);
    for id in &ids[1..] {
        let info = client.get_match(pb::GetMatchRequest { match_id: id.clone() }).await.unwrap();
        assert!(info.into_inner().over, "the last two are kept");
    }
    // The oldest record is read back from the record directory.
    for id in &ids {
        let record = client.get_record(pb::GetRecordRequest { match_id: id.clone() }).await;
        let record = record.unwrap().into_inner().record_json;
        assert!(matches!(AnyRecord::from_json(&record).unwrap(), AnyRecord::Gin(_)));
    }
    // A name that is not a match id never reaches the file system.
    let escape = client.get_record(pb::GetRecordRequest { match_id: "../etc/passwd".into() }).await;
    assert_eq!(escape.unwrap_err().code(), tonic::Code::NotFound);
}

/// A record that cannot be written (the record directory is a file) stays in memory, and
/// `GetRecord` serves it from there; one that is written reads back byte for byte as the
/// engine's own JSON.
#[tokio::test]
async fn a_record_that_cannot_be_written_is_kept_in_memory_and_a_written_one_reads_back_whole() {
    let blocked = tempfile::NamedTempFile::new().unwrap();
    let server =
        TestServer::start(Config { record_dir: Some(blocked.path().join("records")), ..config() })
            .await;
    let id = play_gin(&server, 31).await;
    let mut client = server.client().await;
    let kept = client.get_record(pb::GetRecordRequest { match_id: id }).await.unwrap();
    assert!(matches!(
        AnyRecord::from_json(&kept.into_inner().record_json).unwrap(),
        AnyRecord::Gin(_)
    ));

    let dir = tempfile::tempdir().unwrap();
    let server =
        TestServer::start(Config { record_dir: Some(dir.path().to_owned()), ..config() }).await;
    let id = play_gin(&server, 31).await;
    let on_disk = std::fs::read_to_string(dir.path().join(format!("{id}.json"))).unwrap();
    let record = AnyRecord::from_json(&on_disk).unwrap();
    assert_eq!(on_disk, record.to_json(), "streamed to the file as the engine writes it");
}

#[tokio::test]
async fn the_lobby_seats_named_bots_only_when_every_one_waits() {
    let server = TestServer::start(config()).await;
    let mut client = server.client().await;
    let request = |lobby_bots: &[&str]| pb::CreateMatchRequest {
        game: pb::Game::GinRummy as i32,
        seats: 2,
        seed: Some(4),
        lobby_bots: lobby_bots.iter().map(|s| (*s).to_owned()).collect(),
        ..Default::default()
    };
    let lobby = |name: &str| pb::Join {
        seat: Some(pb::join::Seat::Lobby(name.into())),
        bot_name: name.into(),
        omit: None,
        ..Default::default()
    };
    // Nobody waits yet: refused, and no match is created.
    let refused = client.create_match(request(&["alice", ""])).await.unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    assert_eq!(
        client
            .get_stats(pb::GetStatsRequest::default())
            .await
            .unwrap()
            .into_inner()
            .matches_running,
        0
    );
    let wrong = client.create_match(request(&["alice"])).await.unwrap_err();
    assert_eq!(wrong.code(), Code::InvalidArgument, "one name per seat: {wrong:?}");
    let empty = Bot::open(server.channel().await, lobby("")).await;
    assert_eq!(empty.err().map(|e| e.code()), Some(Code::InvalidArgument));

    let mut alice = Bot::open(server.channel().await, lobby("alice")).await.unwrap();
    // Alice waits: the organizer seats her in seat 1 and hands out seat 0's token itself. A
    // create that races her arrival is refused, never half-done, so it is simply retried.
    let created = loop {
        match client.create_match(request(&["", "alice"])).await {
            Ok(created) => break created.into_inner(),
            Err(status) => assert_eq!(status.code(), Code::FailedPrecondition),
        }
        tokio::task::yield_now().await;
    };
    let joined = joined_message(&mut alice).await;
    assert_eq!((joined.match_id.as_str(), joined.seat), (created.match_id.as_str(), 1));
    let other = Bot::with_token(server.channel().await, &created.seats[0].token).await.unwrap();
    let ends = tokio::join!(alice.play_randomly(1), other.play_randomly(2));
    assert_eq!(ends.0, ends.1);
    let info = client.get_match(pb::GetMatchRequest { match_id: created.match_id }).await.unwrap();
    let seat = &info.into_inner().seats[1];
    assert_eq!(seat.bot_name, "alice");
    assert_eq!(seat.refused, 0);
    assert!(!seat.think_us.is_empty(), "each of her decisions was timed");
}

/// `Join.omit`: a bot that reads only the engine's JSON gets no typed view, no list of legal
/// actions and no events, and plays by the JSON's indices; one that reads only the typed form
/// and lists the legal actions itself (`Omit.legal_actions`, with `Omit.cards`) gets no JSON, in
/// events either, its hand as card codes and no legal actions, and plays by the indices of the
/// engine's list from the typed view; a bot
/// that omits nothing gets both. Omitting both forms is refused. All three play the same match
/// to the same end, none of their answers refused.
#[tokio::test]
async fn each_bot_gets_only_the_forms_of_the_observation_it_reads() {
    use cardroom_games::twenty_two::State;
    use cardroom_proto::wire::WireGame;
    use rand::{RngExt, SeedableRng};

    async fn play(mut bot: Bot, omit: pb::Omit, seed: u64) -> (pb::MatchEnd, usize) {
        let check = |observation: &pb::Observation| {
            assert_eq!(observation.game.is_none(), omit.typed, "{observation:?}");
            assert_eq!(observation.json.is_empty(), omit.json, "{observation:?}");
            if let Some(pb::observation::Game::TwentyTwo(view)) = &observation.game {
                // One form of the hand: codes with `Omit.cards`, `Card` messages without.
                let unsent = if omit.cards { view.hand.len() } else { view.hand_codes.len() };
                assert_eq!(unsent, 0, "{view:?}");
            }
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut events = 0;
        let mut options = None;
        loop {
            match bot.next().await.unwrap() {
                Some(Message::Joined(joined)) => {
                    check(joined.observation.as_ref().unwrap());
                    options = Some(State::options_from_json(&joined.options_json).unwrap());
                }
                Some(Message::Turn(turn)) => {
                    let observation = turn.observation.as_ref().unwrap();
                    check(observation);
                    assert_eq!(turn.legal_actions.is_empty(), omit.typed || omit.legal_actions);
                    let legal = if omit.typed {
                        let json: serde_json::Value = serde_json::from_str(&observation.json)
                            .expect("the engine's observation");
                        json["legal_actions"].as_array().expect("its legal actions").len()
                    } else if omit.legal_actions {
                        let options = options.as_ref().expect("Joined came first");
                        let mut observation =
                            State::observation_from_pb(observation, &[], options).unwrap();
                        State::fill_legal_actions(&mut observation);
                        observation.legal_actions.len()
                    } else {
                        turn.legal_actions.len()
                    };
                    let index = rng.random_range(0..legal) as u32;
                    bot.act(turn.turn, pb::act::Choice::Index(index)).await;
                }
                Some(Message::Events(message)) => {
                    events += 1;
                    for event in message.events {
                        assert!(!event.kind.is_empty() && !event.text.is_empty());
                        assert_eq!(event.json.is_empty(), omit.json, "{event:?}");
                    }
                }
                Some(Message::End(end)) => return (end, events),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    let server = TestServer::start(config()).await;
    let mut client = server.client().await;
    let (_, tokens) = create(&mut client, pb::Game::TwentyTwo, 3, "", 21, None).await;
    let join = |seat: usize, omit: pb::Omit| pb::Join {
        seat: Some(pb::join::Seat::SeatToken(tokens[seat].clone())),
        bot_name: format!("seat {seat}"),
        omit: Some(omit),
        ..Default::default()
    };
    let neither = pb::Omit { typed: true, json: true, ..pb::Omit::default() };
    let refused = Bot::open(server.channel().await, join(0, neither)).await.err().unwrap();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");

    let forms = [
        pb::Omit { typed: true, events: true, ..pb::Omit::default() },
        pb::Omit { json: true, legal_actions: true, cards: true, ..pb::Omit::default() },
        pb::Omit::default(),
    ];
    let mut bots = Vec::new();
    for (seat, omit) in forms.into_iter().enumerate() {
        let bot = Bot::open(server.channel().await, join(seat, omit)).await.unwrap();
        bots.push(tokio::spawn(play(bot, omit, seat as u64)));
    }
    let mut played = Vec::new();
    for bot in bots {
        played.push(bot.await.unwrap());
    }
    assert!(!played[0].0.aborted && played[0].0.standings.len() == 3);
    assert!(played.iter().all(|(end, _)| *end == played[0].0), "{played:?}");
    let events: Vec<usize> = played.iter().map(|(_, events)| *events).collect();
    assert_eq!(events[0], 0, "the JSON reader asked for no events");
    assert!(events[1] > 10 && events[1] == events[2], "{events:?}");
}

/// `Omit.known_cards`: a Gin Rummy bot that asks for the known cards as codes gets
/// `known_cards_codes` (one entry a seat) and no `known_cards` in every `Turn`, and its typed view
/// read either way (prost's tree, or the bytes as the Rust SDK reads them) is the observation the
/// same `Turn`'s JSON holds (GR-15: the cards each seat took from the discard pile). Its opponent,
/// which omits nothing, plays the same match to the same end.
#[tokio::test]
async fn a_gin_bot_reads_the_known_cards_as_codes_and_sees_what_the_json_shows() {
    use cardroom_games::gin::State;
    use cardroom_proto::wire::WireGame;
    use prost::Message as _;
    use rand::{RngExt, SeedableRng};

    let server = TestServer::start(config()).await;
    let mut client = server.client().await;
    let (_, tokens) = create(&mut client, pb::Game::GinRummy, 2, "", 5, None).await;
    let omit =
        pb::Omit { cards: true, known_cards: true, legal_actions: true, ..Default::default() };
    let join = pb::Join {
        seat: Some(pb::join::Seat::SeatToken(tokens[0].clone())),
        bot_name: "codes".into(),
        omit: Some(omit),
        ..Default::default()
    };
    let mut bot = Bot::open(server.channel().await, join).await.unwrap();
    let opponent = Bot::with_token(server.channel().await, &tokens[1]).await.unwrap();
    let opponent = tokio::spawn(opponent.play_randomly(1));

    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let (mut options, mut turns, mut known) = (None, 0, 0);
    let end = loop {
        match bot.next().await.unwrap() {
            Some(Message::Joined(joined)) => {
                options = Some(State::options_from_json(&joined.options_json).unwrap());
            }
            Some(Message::Turn(turn)) => {
                let options = options.as_ref().expect("Joined came first");
                let observation = turn.observation.as_ref().unwrap();
                let Some(pb::observation::Game::Gin(view)) = &observation.game else {
                    panic!("a Gin Rummy view: {observation:?}")
                };
                assert!(view.known_cards.is_empty(), "{view:?}");
                assert_eq!(view.known_cards_codes.len(), 2, "{view:?}");
                assert!(view.hand.is_empty() && view.discard_pile.is_empty(), "{view:?}");
                let mut shown = State::parse_observation(&observation.json).unwrap();
                shown.legal_actions.clear();
                let read = State::observation_from_pb(observation, &[], options).unwrap();
                assert_eq!(read, shown);
                let bytes = observation.encode_to_vec();
                let mut read = State::decode_observation(&bytes, &[], options).unwrap();
                assert_eq!(read, shown);
                turns += 1;
                known += usize::from(view.known_cards_codes.iter().any(|codes| !codes.is_empty()));
                State::fill_legal_actions(&mut read);
                let index = rng.random_range(0..read.legal_actions.len()) as u32;
                bot.act(turn.turn, pb::act::Choice::Index(index)).await;
            }
            Some(Message::Events(_)) => {}
            Some(Message::End(end)) => break end,
            other => panic!("unexpected {other:?}"),
        }
    };
    assert!(!end.aborted, "{end:?}");
    assert_eq!(opponent.await.unwrap(), end);
    assert!(turns > 20 && known > 5, "{turns} turns, {known} of them with known cards");
}

/// Plays every bot randomly, each in its own task, to the end of their match.
async fn play_all(bots: Vec<Bot>) -> Vec<pb::MatchEnd> {
    let tasks: Vec<_> = bots
        .into_iter()
        .enumerate()
        .map(|(i, bot)| tokio::spawn(bot.play_randomly(i as u64)))
        .collect();
    let mut ends = Vec::new();
    for task in tasks {
        ends.push(task.await.unwrap());
    }
    ends
}

/// A `Play` stream that never sends anything (not even its `Join`); resolves to the call's
/// status once the server ends it.
async fn silent_stream(server: &TestServer) -> tonic::Status {
    let stream = tokio_stream::pending::<prost::bytes::Bytes>();
    let call = call_raw(server.channel().await, "/cardroom.v1.Cardroom/Play", stream);
    match tokio::time::timeout(PATIENCE, call).await.expect("the server ends a silent stream") {
        Ok(_) => panic!("a stream without a Join is not answered"),
        Err(status) => status,
    }
}

/// `GetStats.connections_open`, once it equals `open` (polled until then).
async fn wait_for_open_streams(server: &TestServer, open: u64) {
    let mut client = server.client().await;
    tokio::time::timeout(PATIENCE, async {
        loop {
            let stats = client.get_stats(pb::GetStatsRequest::default()).await.unwrap();
            if stats.into_inner().connections_open == open {
                return;
            }
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("the server counts the open streams");
}

/// Opens a `Play` stream that sends nothing, in a task: it resolves to the status the server
/// ends it with.
fn spawn_silent_stream(server: &TestServer) -> tokio::task::JoinHandle<tonic::Status> {
    let url = server.url();
    tokio::spawn(async move {
        let channel = cardroom_tests::connect(&url).await;
        let stream = tokio_stream::pending::<prost::bytes::Bytes>();
        match call_raw(channel, "/cardroom.v1.Cardroom/Play", stream).await {
            Ok(_) => panic!("a stream without a Join is not answered"),
            Err(status) => status,
        }
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_play_streams_have_a_limit_of_their_own_and_never_lock_bots_out() {
    let limits =
        Config { max_connections: 2, max_pending_joins: 2, join_timeout: PATIENCE, ..config() };
    let server = TestServer::start(limits).await;
    // Two silent streams fill the room for streams without a Join (and no more than that:
    // they do not count against --max-connections).
    let oldest = spawn_silent_stream(&server);
    wait_for_open_streams(&server, 1).await;
    let _second = spawn_silent_stream(&server);
    wait_for_open_streams(&server, 2).await;
    // A third displaces the oldest, which ends saying why.
    let _third = spawn_silent_stream(&server);
    let displaced = tokio::time::timeout(PATIENCE, oldest).await.unwrap().unwrap();
    assert_eq!(displaced.code(), Code::ResourceExhausted, "{displaced}");
    assert!(displaced.message().contains("waiting for their Join"), "{displaced}");
    wait_for_open_streams(&server, 2).await;
    // Two real bots still take the two joined slots and play their match to the end.
    let (_, tokens) = server.create(pb::Game::GinRummy, 2, 21).await;
    let (bots, _) = join_all(&server, &tokens).await;
    let ends = play_all(bots).await;
    assert!(ends.iter().all(|end| !end.aborted && end.standings.len() == 2), "{ends:?}");
}

#[tokio::test]
async fn a_stream_that_sends_no_join_ends_with_deadline_exceeded_after_the_join_timeout() {
    let quick = Config { join_timeout: Duration::from_millis(200), ..config() };
    let server = TestServer::start(quick).await;
    let status = silent_stream(&server).await;
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status}");
    assert!(status.message().contains("no Join within 200 ms"), "{status}");
    wait_for_open_streams(&server, 0).await;
}

#[tokio::test]
async fn a_spectator_that_stops_reading_is_told_it_fell_behind() {
    let server = TestServer::start(Config { outbound_buffer: 8, ..config() }).await;
    let (match_id, tokens) = server.create(pb::Game::TwentyTwo, 2, 5).await;
    // A spectator whose HTTP/2 window is small: once it is full, what the server sends waits
    // in the spectator's buffer, as it does for a reader that has stopped.
    let channel = tonic::transport::Endpoint::from_shared(server.url())
        .unwrap()
        .initial_stream_window_size(Some(1024))
        .connect()
        .await
        .unwrap();
    let mut watch = cardroom_tests::watch_raw(channel, &match_id).await;
    // The spectator reads nothing while the match is played to its end.
    let (bots, _) = join_all(&server, &tokens).await;
    let ends = play_all(bots).await;
    assert!(!ends[0].aborted);
    // It gets what fitted, then (not a normal end, not an `end` message) a status saying why.
    let mut read = 0;
    let status = loop {
        match cardroom_tests::next_raw(&mut watch).await {
            Ok(Some(message)) => {
                let message = <pb::WatchMessage as prost::Message>::decode(message).unwrap();
                assert!(message.end.is_none(), "a spectator that fell behind sees no end");
                read += 1;
            }
            Ok(None) => panic!("the stream ended as if normally after {read} messages"),
            Err(status) => break status,
        }
    };
    assert!(read >= 1, "the first messages were delivered");
    assert_eq!(status.code(), Code::ResourceExhausted, "{status}");
    assert!(status.message().contains("spectator fell behind"), "{status}");
}

#[tokio::test]
async fn create_match_refuses_options_that_are_not_an_object_and_clocks_over_the_maxima() {
    let limits = Config {
        max_move_time: Duration::from_secs(5),
        max_bank_time: Duration::from_secs(60),
        ..config()
    };
    let server = TestServer::start(limits).await;
    let mut client = server.client().await;
    let request = |options: &str, clock: Option<pb::Clock>| pb::CreateMatchRequest {
        game: pb::Game::TwentyTwo as i32,
        options_json: options.into(),
        seats: 3,
        clock,
        ..Default::default()
    };
    for options in ["[2, 5, 9]", "22", "\"auto\"", "null"] {
        let status = client.create_match(request(options, None)).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{options}: {status}");
        assert!(status.message().contains("must be a JSON object"), "{status}");
    }
    // A queue reads options the same way.
    let queue = pb::Join {
        seat: Some(pb::join::Seat::Queue(pb::QueueRequest {
            game: pb::Game::TwentyTwo as i32,
            options_json: "[2, 5, 9]".into(),
            seats: 2,
        })),
        bot_name: "positional".into(),
        omit: None,
        ..Default::default()
    };
    let status = Bot::open(server.channel().await, queue).await.err().unwrap();
    assert_eq!(status.code(), Code::InvalidArgument, "{status}");
    // -1 on the wire is u32::MAX: refused, not 49.7 days.
    let clock = |move_ms, bank_ms| Some(pb::Clock { move_ms, bank_ms, max_bad_replies: 0 });
    for (clock, field) in [
        (clock(u32::MAX, 0), "move_ms"),
        (clock(0, u32::MAX), "bank_ms"),
        (clock(5_001, 0), "move_ms"),
    ] {
        let status = client.create_match(request("{}", clock)).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{status}");
        assert!(status.message().contains(&format!("clock.{field}")), "{status}");
        assert!(status.message().contains("at most"), "{status}");
    }
    let created = client.create_match(request(r#"{"limit": 30}"#, clock(5_000, 60_000))).await;
    let match_id = created.unwrap().into_inner().match_id;
    let info = client.get_match(pb::GetMatchRequest { match_id }).await.unwrap().into_inner();
    assert!(info.options_json.contains("\"limit\":30"), "{}", info.options_json);
}

#[tokio::test]
async fn twenty_two_seats_follow_the_packs_and_list_games_publishes_the_most() {
    let server = TestServer::start(config()).await;
    let mut client = server.client().await;
    let games = client.list_games(pb::ListGamesRequest {}).await.unwrap().into_inner().games;
    let tt = games.iter().find(|g| g.game == pb::Game::TwentyTwo as i32).unwrap();
    let mut most = 0;
    for (packs, max) in [("\"auto\"", 12), ("1", 12), ("2", 16), ("3", 16), ("4", 16)] {
        let request = |seats| pb::CreateMatchRequest {
            game: pb::Game::TwentyTwo as i32,
            options_json: format!(r#"{{"packs": {packs}}}"#),
            seats,
            ..Default::default()
        };
        assert!(client.create_match(request(max)).await.is_ok(), "packs {packs}: {max} seats");
        let status = client.create_match(request(max + 1)).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
        assert!(status.message().starts_with("TT-4"), "{status}");
        most = most.max(max);
    }
    assert_eq!((tt.min_seats, tt.max_seats), (2, most));
    let packs = tt.options.iter().find(|o| o.name == "packs").unwrap();
    assert!(packs.description.contains("4n+8"), "{}", packs.description);
}

#[tokio::test]
async fn bot_and_lobby_names_have_a_length_limit() {
    let server = TestServer::start(Config { max_name_bytes: 64, ..config() }).await;
    let (_, tokens) = server.create(pb::Game::GinRummy, 2, 3).await;
    let join = |name: &str| pb::Join {
        seat: Some(pb::join::Seat::SeatToken(tokens[0].clone())),
        bot_name: name.into(),
        omit: None,
        ..Default::default()
    };
    let status = Bot::open(server.channel().await, join(&"é".repeat(33))).await.err().unwrap();
    assert_eq!(status.code(), Code::InvalidArgument, "{status}");
    assert!(status.message().contains("Join.bot_name is 66 bytes"), "{status}");
    let mut bot = Bot::open(server.channel().await, join(&"b".repeat(64))).await.unwrap();
    let joined = joined_message(&mut bot).await;
    let lobby = pb::Join {
        seat: Some(pb::join::Seat::Lobby("l".repeat(65))),
        bot_name: "waiting".into(),
        omit: None,
        ..Default::default()
    };
    let status = Bot::open(server.channel().await, lobby).await.err().unwrap();
    assert_eq!(status.code(), Code::InvalidArgument, "{status}");
    assert!(status.message().contains("Join.lobby"), "{status}");
    let info = server.match_info(&joined.match_id).await;
    assert_eq!(info.seats[0].bot_name, "b".repeat(64));
}

fn queue_join() -> pb::Join {
    pb::Join {
        seat: Some(pb::join::Seat::Queue(pb::QueueRequest {
            game: pb::Game::GinRummy as i32,
            options_json: String::new(),
            seats: 2,
        })),
        bot_name: "queued".into(),
        omit: None,
        ..Default::default()
    }
}

#[tokio::test]
async fn the_queue_is_closed_on_a_server_with_an_admin_token_unless_the_operator_opens_it() {
    let token = Some("s3cret".to_owned());
    let closed = TestServer::start(Config { admin_token: token.clone(), ..config() }).await;
    let status = Bot::open(closed.channel().await, queue_join()).await.err().unwrap();
    assert_eq!(status.code(), Code::PermissionDenied, "{status}");
    assert!(status.message().contains("queue is closed"), "{status}");
    let shut = TestServer::start(Config { queue_open: Some(false), ..config() }).await;
    let status = Bot::open(shut.channel().await, queue_join()).await.err().unwrap();
    assert_eq!(status.code(), Code::PermissionDenied, "{status}");

    let opened = Config { admin_token: token, queue_open: Some(true), ..config() };
    let open = TestServer::start(opened).await;
    let mut first = Bot::open(open.channel().await, queue_join()).await.unwrap();
    let mut second = Bot::open(open.channel().await, queue_join()).await.unwrap();
    let (a, b) = (joined_message(&mut first).await, joined_message(&mut second).await);
    assert_eq!(a.match_id, b.match_id);
    assert_ne!(a.seat, b.seat);
}

#[tokio::test]
async fn an_oversized_unary_request_is_resource_exhausted_as_a_streamed_one_is() {
    let server = TestServer::start(Config { max_message_bytes: 1024, ..config() }).await;
    let request = pb::CreateMatchRequest {
        game: pb::Game::GinRummy as i32,
        seats: 2,
        options_json: format!(r#"{{"pad": "{}"}}"#, "x".repeat(2_000)),
        ..Default::default()
    };
    let status = server.client().await.create_match(request).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_that_floods_stale_acts_without_reading_is_ended_and_its_connection_plays_on() {
    let server = TestServer::start(Config { max_unapplied_acts: 100, ..config() }).await;
    // One HTTP/2 connection carries the flooding seat and both seats of another match.
    let shared = server.channel().await;
    let (flooded_id, flooded) = server.create(pb::Game::GinRummy, 2, 31).await;
    let (_, other) = server.create(pb::Game::GinRummy, 2, 32).await;
    let mut flooder = Bot::with_token(shared.clone(), &flooded[0]).await.unwrap();
    joined_message(&mut flooder).await;
    let mut bots = Vec::new();
    for token in &other {
        let mut bot = Bot::with_token(shared.clone(), token).await.unwrap();
        joined_message(&mut bot).await;
        bots.push(bot);
    }
    // The flooder reads nothing: it sends Acts for a turn long gone as fast as it can, until
    // its stream is closed.
    let (flood, mut unread) = flooder.into_parts();
    let stale = pb::BotMessage {
        message: Some(pb::bot_message::Message::Act(pb::Act {
            turn: 1_000_000,
            choice: Some(pb::act::Choice::Index(0)),
            comment: String::new(),
        })),
    };
    let stale = prost::bytes::Bytes::from(prost::Message::encode_to_vec(&stale));
    let flooding = tokio::spawn(async move {
        for _ in 0..1_000_000 {
            if flood.send(stale.clone()).await.is_err() {
                break;
            }
        }
    });
    // The other match, on the same connection, plays to its end.
    let ends = play_all(bots).await;
    assert!(ends.iter().all(|end| !end.aborted && end.standings.len() == 2), "{ends:?}");
    // The flooder got its 100 refusals, then a status saying why its stream ended.
    let mut refused = 0;
    let status = loop {
        match cardroom_tests::next_raw(&mut unread).await {
            Ok(Some(bytes)) => match cardroom_tests::decode_server_message(&bytes) {
                Message::Error(error) => {
                    assert_eq!(error.code, pb::ActErrorCode::StaleTurn as i32, "{error:?}");
                    refused += 1;
                }
                Message::Turn(_) | Message::Events(_) => {}
                other => panic!("unexpected {other:?}"),
            },
            Ok(None) => panic!("the flooding stream ended as if normally after {refused} errors"),
            Err(status) => break status,
        }
    };
    assert_eq!(refused, 100);
    assert_eq!(status.code(), Code::ResourceExhausted, "{status}");
    assert!(status.message().contains("101 acts in a row refused"), "{status}");
    flooding.abort();
    // Nothing the flooder sent was applied to its match.
    let info = server.match_info(&flooded_id).await;
    assert_eq!(info.seats[0].refused, 0, "stale acts are not counted as refused moves");
}

#[tokio::test]
async fn list_matches_pages_running_matches_newest_first_and_finished_ones_with_their_end() {
    let server = TestServer::start(config()).await;
    let mut client = server.client().await;
    let mut created = Vec::new();
    for seed in 1..=3 {
        created.push(server.create(pb::Game::TwentyTwo, 2, seed).await);
    }
    // A bot sits down in the newest match under a name.
    let (newest, tokens) = &created[2];
    let join = pb::Join {
        seat: Some(pb::join::Seat::SeatToken(tokens[0].clone())),
        bot_name: "alice".into(),
        ..Default::default()
    };
    let mut bot = Bot::open(server.channel().await, join).await.unwrap();
    joined_message(&mut bot).await;

    let list = |state: pb::MatchState, size: u32, token: &str| pb::ListMatchesRequest {
        state: state as i32,
        page_size: size,
        page_token: token.to_owned(),
    };
    let first =
        client.list_matches(list(pb::MatchState::Running, 2, "")).await.unwrap().into_inner();
    let ids: Vec<&str> = first.matches.iter().map(|m| m.match_id.as_str()).collect();
    assert_eq!(ids, [newest.as_str(), created[1].0.as_str()], "newest first");
    let seats: Vec<(&str, bool)> =
        first.matches[0].seats.iter().map(|s| (s.bot_name.as_str(), s.connected)).collect();
    assert_eq!(seats, [("alice", true), ("", false)]);
    assert_eq!(first.matches[0].game, pb::Game::TwentyTwo as i32);
    assert!(first.matches[0].created_ms > 0 && first.matches[0].ended_ms == 0);
    assert!(!first.next_page_token.is_empty());
    let second = client
        .list_matches(list(pb::MatchState::Running, 2, &first.next_page_token))
        .await
        .unwrap()
        .into_inner();
    let ids: Vec<&str> = second.matches.iter().map(|m| m.match_id.as_str()).collect();
    assert_eq!((ids, second.next_page_token.as_str()), (vec![created[0].0.as_str()], ""));

    // Refused: no state, a token of the other list, a token that is no token.
    for bad in [
        list(pb::MatchState::Unspecified, 0, ""),
        list(pb::MatchState::Finished, 0, &first.next_page_token),
        list(pb::MatchState::Running, 0, "<x>"),
    ] {
        let status = client.list_matches(bad).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    }

    // Played to its end, the oldest match moves to the finished list with its standings.
    let (oldest, tokens) = &created[0];
    let (bots, _) = join_all(&server, tokens).await;
    let players: Vec<_> = bots
        .into_iter()
        .enumerate()
        .map(|(i, b)| tokio::spawn(b.play_randomly(i as u64)))
        .collect();
    let mut ends = Vec::new();
    for player in players {
        ends.push(player.await.unwrap());
    }
    let finished =
        client.list_matches(list(pb::MatchState::Finished, 0, "")).await.unwrap().into_inner();
    assert_eq!(finished.matches.len(), 1);
    let summary = &finished.matches[0];
    assert_eq!(&summary.match_id, oldest);
    assert!(summary.ended_ms >= summary.created_ms);
    assert_eq!(summary.end.as_ref().map(places), Some(places(&ends[0])));
    let running =
        client.list_matches(list(pb::MatchState::Running, 0, "")).await.unwrap().into_inner();
    assert_eq!(running.matches.len(), 2);
    assert!(running.matches.iter().all(|m| &m.match_id != oldest));
}

/// Issue 45: two bots that always answer the first legal action never go out in Gin Rummy
/// (every hand ends at the wall, GR-10); through the server the match still ends, drawn at its
/// hand limit (GR-17, here `max_hands` 4), and its end and its record say why.
#[tokio::test]
async fn two_first_legal_action_bots_play_gin_to_the_hand_limit() {
    let server = TestServer::start(Config::default()).await;
    let mut client = server.client().await;
    let options = r#"{"max_hands": 4}"#;
    let (match_id, tokens) = create(&mut client, pb::Game::GinRummy, 2, options, 11, None).await;
    let (bots, _) = join_all(&server, &tokens).await;
    let playing: Vec<_> = bots
        .into_iter()
        .map(|bot| tokio::spawn(bot.play_by(|turn| turn.legal_actions[0].index)))
        .collect();
    let mut ends = Vec::new();
    for bot in playing {
        ends.push(tokio::time::timeout(PATIENCE, bot).await.unwrap().unwrap());
    }
    let reason = "GR-17: drawn after 4 hands, neither seat reached the target of 100 points";
    for end in &ends {
        assert!(!end.aborted, "{end:?}");
        assert_eq!(end.reason, reason);
        assert!(end.standings.iter().all(|s| s.place == 1), "drawn: {end:?}");
    }
    let record = client
        .get_record(pb::GetRecordRequest { match_id })
        .await
        .unwrap()
        .into_inner()
        .record_json;
    let record = AnyRecord::from_json(&record).unwrap();
    assert_eq!(record.termination(), Some(reason));
}

/// Text replies (`Act.reply`, issue 46): Gin Rummy's first decision answered in words and by
/// number, a reply that names no legal action refused with its reason (UNREADABLE_REPLY, the
/// match unchanged), and the seat that sends `max_bad_replies` of them in one turn forfeits,
/// the end saying why.
#[tokio::test]
async fn text_replies_are_read_refused_with_the_reason_and_forfeit_past_the_limit() {
    let server = TestServer::start(config()).await;
    let mut client = server.client().await;
    let clock = pb::Clock { move_ms: 20_000, bank_ms: 60_000, max_bad_replies: 2 };
    let (_, tokens) = create(&mut client, pb::Game::GinRummy, 2, "", 4, Some(clock)).await;
    let (mut bots, to_act) = join_all(&server, &tokens).await;
    let first = to_act.expect("someone acts first") as usize;
    let mut other = bots.remove(1 - first);
    let mut mover = bots.remove(0);
    let reply = |text: &str| pb::act::Choice::Reply(text.to_owned());

    // GR-5: the non-dealer takes or passes the upcard; "PASS" is read as the pass.
    let turn = self::turn(&mut mover).await;
    mover.act(turn.turn, reply("fold")).await;
    let refused = error(&mut mover).await;
    assert_eq!(refused.code, pb::ActErrorCode::UnreadableReply as i32, "{refused:?}");
    assert!(refused.message.contains("\"fold\" is neither a card"), "{}", refused.message);
    assert!(refused.message.contains("bad reply 1 of 2"), "{}", refused.message);
    mover.act(turn.turn, reply("PASS")).await;
    // The other seat may take the upcard or pass too: "2" is the pass, by its number.
    let next = self::turn(&mut other).await;
    assert_eq!(next.turn, turn.turn + 1, "the pass was applied once");
    other.act(next.turn, reply("2")).await;

    // The first seat's next decision: two replies naming nothing in one turn forfeit it.
    let again = self::turn(&mut mover).await;
    assert_eq!(again.turn, next.turn + 1);
    for text in ["discard 7", "knock knock"] {
        mover.act(again.turn, reply(text)).await;
    }
    let mut codes = Vec::new();
    let end = loop {
        match mover.next().await.unwrap() {
            Some(Message::Error(error)) => codes.push((error.code, error.message)),
            Some(Message::End(end)) => break end,
            Some(_) => {}
            None => panic!("the stream ended before the match"),
        }
    };
    let unreadable = pb::ActErrorCode::UnreadableReply as i32;
    assert_eq!(codes.iter().filter(|(c, _)| *c == unreadable).count(), 2, "{codes:?}");
    let forfeited = codes.iter().find(|(c, _)| *c == pb::ActErrorCode::Forfeited as i32);
    let (_, why) = forfeited.expect("the seat forfeits");
    assert!(why.contains("after 2 replies in one turn that named no legal action"), "{why}");
    let loser = end.standings.iter().find(|s| s.forfeited).expect("a seat forfeited");
    assert_eq!((loser.seat as usize, loser.place), (first, 2));
    assert!(end.reason.contains("forfeits after 2 replies"), "{}", end.reason);
}

/// `Join.text` (issue 46): every `Turn` of a seat that asked carries its text form, drawn by
/// the server from what the seat may see; the seat plays a whole Twenty-Two match by replying
/// with the words of the first action its text lists. A seat that did not ask gets no text.
#[tokio::test]
async fn a_seat_that_asks_reads_each_turn_in_words_and_plays_by_them() {
    let server = TestServer::start(config()).await;
    let mut client = server.client().await;
    let (_, tokens) = create(&mut client, pb::Game::TwentyTwo, 3, "{\"limit\": 5}", 8, None).await;
    let join = |token: &str, text: bool| pb::Join {
        seat: Some(pb::join::Seat::SeatToken(token.to_owned())),
        bot_name: "words".into(),
        text,
        ..pb::Join::default()
    };
    let mut reader = Bot::open(server.channel().await, join(&tokens[0], true)).await.unwrap();
    let mut others = Vec::new();
    for (i, token) in tokens[1..].iter().enumerate() {
        let bot = Bot::open(server.channel().await, join(token, false)).await.unwrap();
        others.push(tokio::spawn(async move {
            let mut texts = 0;
            let end = bot
                .play_by(|turn| {
                    texts += usize::from(!turn.text.is_empty());
                    (turn.turn as u32 + i as u32) % turn.legal_actions.len() as u32
                })
                .await;
            (end, texts)
        }));
    }
    let mut turns = 0;
    let end = loop {
        match reader.next().await.unwrap() {
            Some(Message::Turn(turn)) => {
                turns += 1;
                assert!(turn.text.contains("seat 0 (you):"), "{}", turn.text);
                assert!(turn.text.contains("Your turn. Legal actions:\n1. "), "{}", turn.text);
                let first = turn.text.lines().find_map(|l| l.strip_prefix("1. ")).unwrap();
                reader.act(turn.turn, pb::act::Choice::Reply(first.to_owned())).await;
            }
            Some(Message::Error(error)) => {
                panic!("a reply in the text's own words refused: {error:?}")
            }
            Some(Message::End(end)) => break end,
            Some(_) => {}
            None => panic!("the stream ended before the match"),
        }
    };
    assert!(turns > 3, "{turns} turns");
    for other in others {
        let (their_end, texts) = other.await.unwrap();
        assert_eq!(their_end, end);
        assert_eq!(texts, 0, "a seat that did not ask gets no text");
    }
}
