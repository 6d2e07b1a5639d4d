//! The fault suite: chaos bots against a real server on `127.0.0.1:0`, over real gRPC.
//!
//! Each test plays one chaos behaviour in its own match (every seat of it scripted from the
//! test through a [`Table`], so that the order of events is certain) while three well-behaved
//! matches run beside it ([`Bystanders`]). Each checks that the chaos is refused exactly as the
//! contract says (`proto/cardroom/v1/cardroom.proto`, `docs/protocol.md`), that the chaos
//! bot's own match still ends with a record that replays through the engine with the expected
//! outcome (strikes, forfeits), and that the bystanders all finish normally: completed, no
//! strikes, records that replay to their standings. Clocks are short; nothing sleeps: every
//! wait is for a message, with a timeout only as a safety net.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use cardroom_games::{Seat, gin, twenty_two};
use cardroom_proto::pb;
use cardroom_sdk::{Organizer, WireGame};
use cardroom_server::Config;
use cardroom_tests::{
    Bot, MESSAGE_PATIENCE, Replay, ReplayGame, Table, TestServer, act, create, join, places,
};
use pb::server_message::Message;
use prost::Message as _;
use prost::bytes::Bytes;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tonic::Code;

/// The fault server: short clocks and few strikes, so that a stall resolves in a second; a
/// small message limit. (The bank outlasts any slow moment of a well-behaved bot on a busy
/// machine; the reconnect grace is also how long a new match waits for its seats.)
fn config() -> Config {
    Config {
        move_time: Duration::from_millis(200),
        bank_time: Duration::from_millis(800),
        max_strikes: 2,
        reconnect_grace: Duration::from_secs(2),
        max_message_bytes: MAX_MESSAGE_BYTES,
        ..Config::default()
    }
}

/// The fault server's message limit.
const MAX_MESSAGE_BYTES: usize = 4096;

/// A clock no well-behaved bot runs out of, for matches where time is not the point.
const CALM: pb::Clock = pb::Clock { move_ms: 20_000, bank_ms: 60_000, max_bad_replies: 0 };

/// Well-behaved matches played beside a chaos match: Twenty-Two at three and five seats and a
/// Gin Rummy match, every seat a random bot on its own connection.
struct Bystanders {
    /// Each match's id, game and seats' tasks.
    matches: Vec<(String, pb::Game, Vec<JoinHandle<pb::MatchEnd>>)>,
    /// Lets the bots play.
    go: watch::Sender<bool>,
}

impl Bystanders {
    /// Creates the matches and seats every bot; each waits for [`Bystanders::release`] before
    /// its first action, so the matches are under way when the chaos begins and play on while
    /// it lasts.
    async fn start(server: &TestServer) -> Bystanders {
        let tables = [
            (pb::Game::TwentyTwo, 3, r#"{"limit": 12}"#),
            (pb::Game::TwentyTwo, 5, r#"{"limit": 8}"#),
            (pb::Game::GinRummy, 2, r#"{"target": 25}"#),
        ];
        let (go, ready) = watch::channel(false);
        let mut client = server.client().await;
        let mut matches = Vec::new();
        for (i, (game, seats, options)) in tables.into_iter().enumerate() {
            let seed = 9_000 + i as u64;
            let (match_id, tokens) =
                create(&mut client, game, seats, options, seed, Some(CALM)).await;
            let mut bots = Vec::new();
            for (seat, token) in tokens.iter().enumerate() {
                let bot = Bot::with_token(server.channel().await, token).await.unwrap();
                let mut ready = ready.clone();
                bots.push(tokio::spawn(async move {
                    let _ = ready.wait_for(|go| *go).await;
                    bot.play_randomly(seed * 16 + seat as u64).await
                }));
            }
            matches.push((match_id, game, bots));
        }
        Bystanders { matches, go }
    }

    /// Lets the bots play.
    fn release(&self) {
        self.go.send_replace(true);
    }

    /// Waits for every bystander match and checks that it finished normally.
    async fn finish(self, server: &TestServer) {
        self.release();
        for (match_id, game, bots) in self.matches {
            let mut ends = Vec::new();
            for bot in bots {
                ends.push(bot.await.expect("a bystander plays its match to the end"));
            }
            assert!(ends.iter().all(|e| *e == ends[0]), "{match_id}: every seat hears one end");
            let nothing = vec![0; ends.len()];
            assert_clean_end(server, game, &match_id, &ends[0], &nothing).await;
        }
    }
}

/// A fault test's world: a server and the bystanders beside the chaos.
struct Scene {
    /// The server.
    server: TestServer,
    /// The well-behaved matches.
    bystanders: Bystanders,
}

impl Scene {
    /// Starts a server with `config` and seats the bystanders.
    async fn start(config: Config) -> Scene {
        let server = TestServer::start(config).await;
        let bystanders = Bystanders::start(&server).await;
        Scene { server, bystanders }
    }

    /// Creates a chaos match (short: Twenty-Two to 12 points, Gin Rummy to 25) and joins
    /// every seat through a table; the bystanders start playing.
    async fn chaos(
        &self,
        game: pb::Game,
        seats: u32,
        seed: u64,
        clock: Option<pb::Clock>,
    ) -> Table {
        let options = match game {
            pb::Game::TwentyTwo => r#"{"limit": 12}"#,
            _ => r#"{"target": 25}"#,
        };
        let mut client = self.server.client().await;
        let (match_id, tokens) = create(&mut client, game, seats, options, seed, clock).await;
        let table = Table::join(&self.server, &match_id, tokens, seed).await.0;
        self.bystanders.release();
        table
    }

    /// The record of a finished match, replayed.
    async fn replay<G: ReplayGame>(&self, match_id: &str) -> Replay<G> {
        let record = Organizer::new(&self.server.url()).unwrap().record(match_id).await.unwrap();
        Replay::from_json(&record)
    }

    /// Each seat's strikes, forfeit and refused actions, from `GetMatch`.
    async fn penalties(&self, match_id: &str) -> Vec<(u32, bool, u32)> {
        penalties(&self.server, match_id).await
    }

    /// Checks that a chaos match, in spite of the chaos, ended as a normal match, with no
    /// action refused as illegal or malformed.
    async fn assert_clean_end(&self, game: pb::Game, table: &Table, end: &pb::MatchEnd) {
        let nothing = vec![0; table.tokens.len()];
        assert_clean_end(&self.server, game, &table.match_id, end, &nothing).await;
    }

    /// Checks the end of a two-seat chaos match whose seat 0 forfeited after two strikes: seat
    /// 1 first, seat 0 last and marked, and the same in `GetMatch`.
    async fn assert_forfeited_last(&self, table: &Table, end: &pb::MatchEnd) {
        assert!(!end.aborted);
        let standings: Vec<_> =
            end.standings.iter().map(|s| (s.seat, s.place, s.forfeited)).collect();
        assert_eq!(standings, [(1, 1, false), (0, 2, true)], "the forfeited seat is last");
        let status = self.penalties(&table.match_id).await;
        assert_eq!(status, [(2, true, 0), (0, false, 0)]);
    }

    /// Checks the bystanders.
    async fn finish(self) {
        self.bystanders.finish(&self.server).await;
    }
}

/// Each seat's strikes, forfeit and actions refused as illegal or malformed, from `GetMatch`.
async fn penalties(server: &TestServer, match_id: &str) -> Vec<(u32, bool, u32)> {
    let status = Organizer::new(&server.url()).unwrap().status(match_id).await.unwrap();
    status.seats.iter().map(|s| (s.strikes, s.forfeited, s.refused)).collect()
}

/// Checks that a match ended normally: not aborted, nobody struck or forfeited, `refused[seat]`
/// actions refused as illegal or malformed, and its record replays through the engine to the
/// standings of `end`.
async fn assert_clean_end(
    server: &TestServer,
    game: pb::Game,
    match_id: &str,
    end: &pb::MatchEnd,
    refused: &[u32],
) {
    assert!(!end.aborted, "{match_id}: {}", end.reason);
    // The rule that ended it, as the engine says it.
    let by_rule = end.reason.starts_with("TT-") || end.reason.starts_with("GR-");
    assert!(by_rule, "{match_id}: {}", end.reason);
    let mut organizer = Organizer::new(&server.url()).unwrap();
    let status = organizer.status(match_id).await.unwrap();
    assert!(status.over && !status.aborted, "{match_id}");
    let clean: Vec<_> = refused.iter().map(|&refused| (0, false, refused)).collect();
    assert_eq!(penalties(server, match_id).await, clean, "{match_id}: strikes, forfeits, refusals");
    let record = organizer.record(match_id).await.unwrap();
    let replayed = match game {
        pb::Game::TwentyTwo => Replay::<twenty_two::State>::from_json(&record).places(),
        _ => Replay::<gin::State>::from_json(&record).places(),
    };
    assert_eq!(replayed, Some(places(end)), "{match_id}: the record replays to the end");
}

/// Answers `seat`'s turns until it gets one numbered `n` or more, and returns that one
/// unanswered.
async fn turn_from(table: &mut Table, seat: usize, n: u64) -> pb::Turn {
    loop {
        let turn = next_turn(table, seat).await;
        if turn.turn >= n {
            return turn;
        }
        table.answer(seat).await;
    }
}

/// Plays until `seat` receives a turn, and returns it unanswered.
async fn next_turn(table: &mut Table, seat: usize) -> pb::Turn {
    match table.play_until(|(s, m)| *s == seat && matches!(m, Ok(Message::Turn(_)))).await {
        (_, Ok(Message::Turn(turn))) => turn,
        other => unreachable!("{other:?}"),
    }
}

/// Plays until `seat` receives an `ActError`, and returns it.
async fn next_error(table: &mut Table, seat: usize) -> pb::ActError {
    match table.play_until(|(s, m)| *s == seat && matches!(m, Ok(Message::Error(_)))).await {
        (_, Ok(Message::Error(error))) => error,
        other => unreachable!("{other:?}"),
    }
}

/// Plays until `seat`'s stream ends with a status, and returns it.
async fn next_status(table: &mut Table, seat: usize) -> tonic::Status {
    match table.play_until(|(s, m)| *s == seat && m.is_err()).await {
        (_, Err(status)) => status,
        other => unreachable!("{other:?}"),
    }
}

/// The public events messages in `messages`: one per action applied since the seat joined
/// (every action has events, and a seat joins before its match starts).
fn events_heard(messages: &[Bytes]) -> u64 {
    let decoded = messages.iter().map(|bytes| cardroom_tests::decode_server_message(bytes));
    decoded.filter(|m| matches!(m, Message::Events(_))).count() as u64
}

/// Plays until `seat` has heard the events of action `k` (counted from 0), that is until the
/// server has applied it.
async fn until_applied(table: &mut Table, seat: usize, k: u64) {
    let mut heard = events_heard(&table.received[seat]);
    if heard > k {
        return;
    }
    let _events = table
        .play_until(|(s, m)| {
            heard += u64::from(*s == seat && matches!(m, Ok(Message::Events(_))));
            heard > k
        })
        .await;
}

/// The turn number of the first `Turn` in `messages` after their last `Joined`.
fn first_turn_after_last_joined(messages: &[Bytes]) -> Option<u64> {
    let decoded: Vec<Message> =
        messages.iter().map(|bytes| cardroom_tests::decode_server_message(bytes)).collect();
    let last_joined = decoded.iter().rposition(|m| matches!(m, Message::Joined(_)))?;
    decoded[last_joined..].iter().find_map(|m| match m {
        Message::Turn(turn) => Some(turn.turn),
        _ => None,
    })
}

/// Holds seat 0, which never answers, until the server has timed it out twice and it has
/// forfeited; checks those refusals (TIMED_OUT for strikes 1 and 2 of 2, then FORFEITED) and
/// returns the two time-outs.
async fn stall_until_forfeit(table: &mut Table) -> (pb::ActError, pb::ActError) {
    table.hold(0, true);
    let first = next_error(table, 0).await;
    let second = next_error(table, 0).await;
    let forfeit = next_error(table, 0).await;
    assert!(is(&first, pb::ActErrorCode::TimedOut, first.turn), "{first:?}");
    assert!(first.message.contains("strike 1 of 2"), "{}", first.message);
    assert!(is(&second, pb::ActErrorCode::TimedOut, second.turn), "{second:?}");
    assert!(second.message.contains("strike 2 of 2"), "{}", second.message);
    assert!(second.turn > first.turn);
    assert!(is(&forfeit, pb::ActErrorCode::Forfeited, second.turn), "{forfeit:?}");
    (first, second)
}

/// Whether `error` has this code and names this turn.
fn is(error: &pb::ActError, code: pb::ActErrorCode, turn: u64) -> bool {
    error.code == code as i32 && error.turn == turn
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_disconnects_mid_match_is_played_for_after_the_grace_and_rejoins() {
    let scene = Scene::start(Config { max_strikes: 10, ..config() }).await;
    let mut table = scene.chaos(pb::Game::TwentyTwo, 3, 71, Some(CALM)).await;

    // Well into the match, seat 0's connection dies at its turn.
    let k0 = turn_from(&mut table, 0, 8).await.turn;
    table.hold(1, true);
    table.hold(2, true);
    table.disconnect(0);
    // With the others held only seat 0's decisions can be made, and only by the server: after
    // the reconnect grace (the clock is far longer), its default action, heard by seat 1.
    until_applied(&mut table, 1, k0).await;

    // Back with its token: Joined, then (if it is to act) the pending turn.
    let (joined, _) = table.rejoin(0).await;
    let joined = joined.unwrap();
    assert_eq!((joined.seat, joined.match_id.as_str()), (0, table.match_id.as_str()));
    assert!(joined.observation.is_some());
    table.hold(1, false);
    table.hold(2, false);
    let end = table.play_to_end().await;
    assert!(!end.aborted && end.reason.starts_with("TT-"), "{end:?}");

    let replay = scene.replay::<twenty_two::State>(&table.match_id).await;
    assert_eq!(replay.places(), Some(places(&end)), "no forfeit: the engine's standings");
    // Seat 0's decisions from the cut until its first turn after rejoining were made for it:
    // each the documented default (the first legal action), each a strike.
    let back = first_turn_after_last_joined(&table.received[0])
        .map_or(replay.actions.len(), |turn| turn as usize);
    let defaulted: Vec<usize> =
        (k0 as usize..back).filter(|&k| replay.actions[k].0 == Seat(0)).collect();
    assert_eq!(defaulted.first(), Some(&(k0 as usize)), "the cut turn was played for seat 0");
    assert!(defaulted.iter().all(|&k| replay.is_first_legal(k)), "defaults: {defaulted:?}");
    let status = scene.penalties(&table.match_id).await;
    assert_eq!(status, [(defaulted.len() as u32, false, 0), (0, false, 0), (0, false, 0)]);
    scene.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_twenty_two_bot_that_stalls_times_out_twice_forfeits_and_the_match_plays_on() {
    let scene = Scene::start(config()).await;
    // The server's short clock: 200 ms a decision and an 800 ms bank.
    let mut table = scene.chaos(pb::Game::TwentyTwo, 2, 72, None).await;
    let (first, second) = stall_until_forfeit(&mut table).await;

    // With seat 1 held the match waits for it, so the forfeited seat's next Act is answered:
    // FORFEITED, whatever it says.
    table.hold(1, true);
    table.send(0, &act(second.turn + 1, pb::act::Choice::Index(0))).await;
    let refused = next_error(&mut table, 0).await;
    assert!(is(&refused, pb::ActErrorCode::Forfeited, second.turn + 1), "{refused:?}");
    let refused_at = table.received[0].len();

    // The match plays on, seat 0 by the default policy; it still hears events and the end.
    table.hold(1, false);
    let end = table.play_to_end().await;
    scene.assert_forfeited_last(&table, &end).await;
    assert!(end.reason.starts_with("TT-") && end.reason.contains("forfeits"), "{}", end.reason);
    let heard = events_heard(&table.received[0][refused_at..]);
    assert!(heard > 0, "a forfeited seat still receives events");

    let replay = scene.replay::<twenty_two::State>(&table.match_id).await;
    assert!(replay.last().is_over(), "Twenty-Two plays the forfeited seat to the end");
    let mine: Vec<usize> =
        (0..replay.actions.len()).filter(|&k| replay.actions[k].0 == Seat(0)).collect();
    assert_eq!(mine[..2], [first.turn as usize, second.turn as usize], "the strikes' turns");
    assert!(mine.iter().all(|&k| replay.is_first_legal(k)), "every seat-0 action a default");
    scene.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gin_bot_that_stalls_forfeits_and_loses_the_match_at_once() {
    let scene = Scene::start(config()).await;
    let mut table = scene.chaos(pb::Game::GinRummy, 2, 73, None).await;
    let (first, second) = stall_until_forfeit(&mut table).await;
    let end = table.play_to_end().await;
    scene.assert_forfeited_last(&table, &end).await;
    assert_eq!(
        end.reason,
        "the match ended by forfeit; seat 0 forfeits after 2 strikes: placed last"
    );

    // The record stops at the forfeited decision: the first stall was played for seat 0, the
    // second ended the match instead.
    let replay = scene.replay::<gin::State>(&table.match_id).await;
    assert_eq!(replay.actions.len(), second.turn as usize);
    assert_eq!(replay.actions[first.turn as usize].0, Seat(0));
    assert_eq!(replay.last().to_act(), Some(Seat(0)), "the engine's match is unfinished");
    scene.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_reconnects_and_repeats_a_stale_turn_is_not_applied_twice() {
    let scene = Scene::start(config()).await;
    let mut table = scene.chaos(pb::Game::TwentyTwo, 3, 74, Some(CALM)).await;

    // Seat 0 answers a turn; the answer is applied (seat 1 hears it); then its connection
    // drops and it rejoins, unsure whether the answer arrived.
    turn_from(&mut table, 0, 6).await;
    table.hold(1, true);
    table.hold(2, true);
    let (answered, index) = table.answer(0).await;
    until_applied(&mut table, 1, answered.turn).await;
    table.disconnect(0);
    table.hold(0, true);
    table.rejoin(0).await.0.unwrap();
    // It sends the answer again, and an answer for a turn far ahead: both STALE_TURN.
    table.send(0, &act(answered.turn, pb::act::Choice::Index(index))).await;
    table.send(0, &act(answered.turn + 1_000, pb::act::Choice::Index(0))).await;
    let again = next_error(&mut table, 0).await;
    assert!(is(&again, pb::ActErrorCode::StaleTurn, answered.turn), "{again:?}");
    let current = answered.turn + 1;
    assert!(again.message.contains(&format!("({current})")), "{}", again.message);
    let ahead = next_error(&mut table, 0).await;
    assert!(is(&ahead, pb::ActErrorCode::StaleTurn, answered.turn + 1_000), "{ahead:?}");
    // (The turn sent after the rejoin comes before the refusals on the stream.)
    if let Some(pending) = table.pending(0) {
        assert_eq!(pending.turn, current, "the current turn sent again after the rejoin");
    }
    for seat in 0..3 {
        table.hold(seat, false);
    }

    // A second stream joins the seat while the first is open: the first ends ABORTED, the new
    // one gets the pending turn again with the same number; the replaced stream's answer does
    // not count.
    let pending = next_turn(&mut table, 0).await;
    table.hold(0, true);
    let old_sender = table.sender(0);
    let (joined, old) = table.rejoin(0).await;
    assert_eq!(joined.unwrap().seat, 0);
    let mut old = old.expect("the first stream was open");
    let status = loop {
        match cardroom_tests::next_raw(&mut old).await {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("the replaced stream ended without a status"),
            Err(status) => break status,
        }
    };
    assert_eq!(status.code(), Code::Aborted, "{status}");
    let repeated = next_turn(&mut table, 0).await;
    assert_eq!(repeated.turn, pending.turn);
    assert_eq!(repeated.legal_actions, pending.legal_actions);
    let count = pending.legal_actions.len() as u32;
    let old_choice = act(pending.turn, pb::act::Choice::Index(count - 1));
    let _ = old_sender.send(old_choice.encode_to_vec().into()).await;
    table.answer_with(0, 0).await;
    table.hold(0, false);
    let end = table.play_to_end().await;

    scene.assert_clean_end(pb::Game::TwentyTwo, &table, &end).await;
    let replay = scene.replay::<twenty_two::State>(&table.match_id).await;
    let applied = |k: u64| twenty_two::State::action_to_pb(&replay.actions[k as usize].1);
    let chosen = |turn: &pb::Turn, index: u32| turn.legal_actions[index as usize].action.clone();
    assert_eq!(Some(applied(answered.turn)), chosen(&answered, index), "applied once");
    assert_eq!(Some(applied(pending.turn)), chosen(&pending, 0), "the new stream's answer");
    scene.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_actions_applies_one_per_turn_and_refuses_the_rest() {
    let scene = Scene::start(config()).await;
    let mut table = scene.chaos(pb::Game::TwentyTwo, 3, 75, Some(CALM)).await;
    let turn = turn_from(&mut table, 0, 5).await;
    for seat in 0..3 {
        table.hold(seat, true);
    }
    table.take_pending(0);

    // Seat 0 floods without reading: unreadable answers, then answers for the current turn
    // by index, then answers for turns far ahead. (Fewer than the server's outbound buffer of
    // refusals, so that a reader as slow as this test's is never dropped.)
    let mut rng = ChaCha8Rng::seed_from_u64(75);
    let legal = turn.legal_actions.len() as u32;
    let indices: Vec<u32> = (0..100).map(|_| rng.random_range(0..legal)).collect();
    let mut flood: Vec<pb::BotMessage> =
        (0..40).map(|_| act(turn.turn, pb::act::Choice::Index(100_000))).collect();
    flood.extend(indices.iter().map(|&i| act(turn.turn, pb::act::Choice::Index(i))));
    flood.extend((0..100).map(|k| act(turn.turn + 1_000 + k, pb::act::Choice::Index(0))));
    let sender = table.sender(0);
    let flooding = tokio::spawn(async move {
        for message in flood {
            sender.send(message.encode_to_vec().into()).await.unwrap();
        }
    });
    let mut refused = Vec::new();
    while refused.len() < 239 {
        refused.push(next_error(&mut table, 0).await);
    }
    flooding.await.unwrap();
    // In order: 40 MALFORMED; the first answer by index applied, the 99 others STALE_TURN;
    // the 100 for later turns STALE_TURN.
    let t = turn.turn;
    assert!(refused[..40].iter().all(|e| is(e, pb::ActErrorCode::Malformed, t)));
    assert!(refused[40..139].iter().all(|e| is(e, pb::ActErrorCode::StaleTurn, t)));
    for (k, error) in refused[139..].iter().enumerate() {
        assert!(is(error, pb::ActErrorCode::StaleTurn, t + 1_000 + k as u64), "{error:?}");
    }

    for seat in 0..3 {
        table.hold(seat, false);
    }
    let end = table.play_to_end().await;
    // The unreadable answers count as refused (MALFORMED); stale ones do not.
    let refused = [40, 0, 0];
    assert_clean_end(&scene.server, pb::Game::TwentyTwo, &table.match_id, &end, &refused).await;
    let replay = scene.replay::<twenty_two::State>(&table.match_id).await;
    let applied = twenty_two::State::action_to_pb(&replay.actions[t as usize].1);
    assert_eq!(Some(applied), turn.legal_actions[indices[0] as usize].action, "the first one");
    scene.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_on_raw_tcp_connections_is_hung_up_on_and_the_server_serves_on() {
    let scene = Scene::start(config()).await;
    let mut table = scene.chaos(pb::Game::GinRummy, 2, 76, Some(CALM)).await;
    next_turn(&mut table, 0).await;

    let mut rng = ChaCha8Rng::seed_from_u64(76);
    let noise: Vec<u8> = (0..4096).map(|_| rng.random()).collect();
    let mut preface_then_junk = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    preface_then_junk.extend_from_slice(&[0, 0, 4, 0xfe, 0xff, 0x7f, 0xff, 0xff, 0xff, 1, 2, 3, 4]);
    preface_then_junk.extend_from_slice(&noise[..512]);
    let junk = [
        noise,
        b"GET / HTTP/1.1\r\nHost: cardroom\r\n\r\n".to_vec(),
        b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03".to_vec(), // a TLS hello
        preface_then_junk,
    ];
    for bytes in junk {
        let mut tcp = tokio::net::TcpStream::connect(scene.server.addr).await.unwrap();
        // The server may hang up before reading it all: a failed write is fine.
        let _ = tcp.write_all(&bytes).await;
        let _ = tcp.shutdown().await;
        let mut reply = Vec::new();
        let closed = tokio::time::timeout(MESSAGE_PATIENCE, tcp.read_to_end(&mut reply)).await;
        assert!(closed.is_ok(), "the server hangs up on a connection that is not gRPC");
    }

    // The chaos bot's match, the bystanders and new calls are all served.
    let end = table.play_to_end().await;
    scene.assert_clean_end(pb::Game::GinRummy, &table, &end).await;
    let games = scene.server.client().await.list_games(pb::ListGamesRequest {}).await.unwrap();
    assert_eq!(games.into_inner().games.len(), cardroom_games::GameKind::ALL.len());
    scene.finish().await;
}

/// A payload that is not a protobuf message: a length-delimited field 1 that claims five bytes
/// and has one.
const NOT_PROTOBUF: &[u8] = &[0x0a, 0x05, 0x01];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grpc_frame_that_is_not_a_message_ends_that_stream_with_invalid_argument() {
    let scene = Scene::start(config()).await;
    let mut table = scene.chaos(pb::Game::TwentyTwo, 3, 77, Some(CALM)).await;

    // As the first message of a stream: undecodable, or valid but not a Join.
    let join_again = join(&table.tokens[0], "again");
    let firsts = [
        Bytes::from_static(NOT_PROTOBUF),
        Bytes::from_static(&[0xff; 12]),
        Bytes::new(),
        act(0, pb::act::Choice::Index(0)).encode_to_vec().into(),
    ];
    for first in firsts {
        let status =
            Bot::open_raw(scene.server.channel().await, first.clone()).await.err().unwrap();
        assert_eq!(status.code(), Code::InvalidArgument, "first message {first:?}: {status}");
    }

    // Mid-match, at its turn: the stream ends with INVALID_ARGUMENT; the seat rejoins with its
    // token, gets the same turn again and plays on.
    for payload in [Bytes::from_static(NOT_PROTOBUF), join_again.encode_to_vec().into()] {
        let turn = next_turn(&mut table, 0).await;
        table.take_pending(0);
        table.send_raw(0, payload.clone()).await;
        let status = next_status(&mut table, 0).await;
        assert_eq!(status.code(), Code::InvalidArgument, "{payload:?}: {status}");
        table.rejoin(0).await.0.unwrap();
        let again = next_turn(&mut table, 0).await;
        assert_eq!((again.turn, &again.legal_actions), (turn.turn, &turn.legal_actions));
    }
    let end = table.play_to_end().await;
    scene.assert_clean_end(pb::Game::TwentyTwo, &table, &end).await;
    scene.finish().await;
}

/// `message` padded with an unknown field (which the server skips) to exactly `len` bytes.
fn padded(message: &pb::BotMessage, len: usize) -> Bytes {
    let mut bytes = message.encode_to_vec();
    // Field 15, length-delimited: a one-byte tag, a two-byte length, then the filler.
    let filler = len - bytes.len() - 3;
    assert!((128..16_384).contains(&filler), "a two-byte length");
    bytes.push((15 << 3) | 2);
    bytes.extend_from_slice(&[(filler as u8 & 0x7f) | 0x80, (filler >> 7) as u8]);
    bytes.resize(len, 0);
    pb::BotMessage::decode(bytes.as_slice()).expect("padding keeps the message valid");
    bytes.into()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_over_the_size_limit_ends_that_stream_with_resource_exhausted() {
    let scene = Scene::start(config()).await;
    let mut table = scene.chaos(pb::Game::TwentyTwo, 3, 78, Some(CALM)).await;

    // An oversized first message.
    let oversized = join(&table.tokens[0], &"x".repeat(MAX_MESSAGE_BYTES));
    let status = Bot::open(scene.server.channel().await, pb::Join::default()).await.err().unwrap();
    assert_eq!(status.code(), Code::InvalidArgument, "a Join with no seat: {status}");
    let status = Bot::open_raw(scene.server.channel().await, oversized.encode_to_vec().into())
        .await
        .err()
        .unwrap();
    assert_eq!(status.code(), Code::ResourceExhausted, "an oversized Join: {status}");

    // Mid-match: an answer of exactly the limit is read and applied.
    let turn = next_turn(&mut table, 0).await;
    table.take_pending(0);
    let answer = act(turn.turn, pb::act::Choice::Index(0));
    table.send_raw(0, padded(&answer, MAX_MESSAGE_BYTES)).await;
    until_applied(&mut table, 0, turn.turn).await;
    let limit_turn = turn.turn;
    // One byte more ends the stream; the seat rejoins and plays on.
    let turn = next_turn(&mut table, 0).await;
    table.take_pending(0);
    let answer = act(turn.turn, pb::act::Choice::Index(0));
    table.send_raw(0, padded(&answer, MAX_MESSAGE_BYTES + 1)).await;
    let status = next_status(&mut table, 0).await;
    assert_eq!(status.code(), Code::ResourceExhausted, "{status}");
    table.rejoin(0).await.0.unwrap();
    let again = next_turn(&mut table, 0).await;
    assert_eq!(again.turn, turn.turn, "the oversized answer was not applied");

    let end = table.play_to_end().await;
    scene.assert_clean_end(pb::Game::TwentyTwo, &table, &end).await;
    let replay = scene.replay::<twenty_two::State>(&table.match_id).await;
    assert_eq!(replay.actions[limit_turn as usize].0, Seat(0));
    assert!(replay.is_first_legal(limit_turn as usize), "index 0 applied from the padded Act");
    scene.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_decides_the_seat_forged_ones_are_denied_and_a_displaced_bot_takes_it_back() {
    let scene = Scene::start(config()).await;
    let mut table = scene.chaos(pb::Game::TwentyTwo, 3, 79, Some(CALM)).await;
    let mut other = scene.chaos(pb::Game::GinRummy, 2, 80, Some(CALM)).await;

    // A token of no seat: a real one with a digit changed, an empty one.
    let mut forged = table.tokens[0].clone().into_bytes();
    forged[7] = if forged[7] == b'0' { b'1' } else { b'0' };
    for token in [String::from_utf8(forged).unwrap(), String::new()] {
        let status = Bot::with_token(scene.server.channel().await, &token).await.err().unwrap();
        assert_eq!(status.code(), Code::Unauthenticated, "{token:?}: {status}");
    }

    // Seat 0's bot joins with seat 1's token while seat 1 is to act: the token is the seat's
    // credential, so the bot is seated as seat 1 and seat 1's own stream ends ABORTED.
    let turn = next_turn(&mut table, 1).await;
    table.hold(1, true);
    let mut impostor =
        Bot::with_token(scene.server.channel().await, &table.tokens[1]).await.unwrap();
    let Some(Message::Joined(joined)) = impostor.next().await.unwrap() else { panic!() };
    assert_eq!((joined.seat, &joined.match_id), (1, &table.match_id));
    let status = next_status(&mut table, 1).await;
    assert_eq!(status.code(), Code::Aborted, "{status}");
    let Some(Message::Turn(stolen)) = impostor.next_non_event().await else { panic!() };
    assert_eq!(stolen.turn, turn.turn, "the seat's pending turn");
    // The rightful bot takes its seat back with its token; the impostor's stream ends ABORTED.
    table.rejoin(1).await.0.unwrap();
    let status = loop {
        match impostor.next().await {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("the impostor's stream ended without a status"),
            Err(status) => break status,
        }
    };
    assert_eq!(status.code(), Code::Aborted, "{status}");

    // Seat 0's bot joins with a seat token of another match: it is seated there, not here.
    let theirs = next_turn(&mut other, 0).await;
    other.hold(0, true);
    let mut stray = Bot::with_token(scene.server.channel().await, &other.tokens[0]).await.unwrap();
    let Some(Message::Joined(joined)) = stray.next().await.unwrap() else { panic!() };
    assert_eq!((joined.seat, &joined.match_id), (0, &other.match_id));
    assert_eq!(next_status(&mut other, 0).await.code(), Code::Aborted);
    let Some(Message::Turn(stolen)) = stray.next_non_event().await else { panic!() };
    assert_eq!(stolen.turn, theirs.turn);
    other.rejoin(0).await.0.unwrap();
    other.hold(0, false);
    drop(stray);

    table.hold(1, false);
    let end = table.play_to_end().await;
    let other_end = other.play_to_end().await;
    scene.assert_clean_end(pb::Game::TwentyTwo, &table, &end).await;
    scene.assert_clean_end(pb::Game::GinRummy, &other, &other_end).await;

    // A token of a finished match: its end, and the stream closes.
    let mut late = Bot::with_token(scene.server.channel().await, &table.tokens[2]).await.unwrap();
    assert_eq!(late.next().await.unwrap(), Some(Message::End(end)));
    assert_eq!(late.next().await.unwrap(), None);
    scene.finish().await;
}

/// One case of the out-of-turn test: a game and its seats.
struct OutOfTurn {
    game: pb::Game,
    seats: u32,
    seed: u64,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acting_out_of_turn_is_refused_every_time_and_changes_nothing() {
    let scene = Scene::start(config()).await;
    let cases = [
        OutOfTurn { game: pb::Game::TwentyTwo, seats: 3, seed: 81 },
        OutOfTurn { game: pb::Game::GinRummy, seats: 2, seed: 82 },
    ];
    for case in cases {
        let mut table = scene.chaos(case.game, case.seats, case.seed, Some(CALM)).await;
        for seat in 0..case.seats as usize {
            table.hold(seat, true);
        }
        // Whenever another seat is to act, seat 0 answers its turn first, and a turn ahead:
        // NOT_YOUR_TURN and STALE_TURN. Then the seat to act answers.
        let mut pokes = 0;
        let mut end = None;
        while let Some((seat, message)) = table.next().await {
            match message {
                Ok(Message::Turn(turn)) if seat != 0 => {
                    table.send(0, &act(turn.turn, pb::act::Choice::Index(0))).await;
                    table.send(0, &act(turn.turn + 1, pb::act::Choice::Index(0))).await;
                    let refused = next_error(&mut table, 0).await;
                    assert!(is(&refused, pb::ActErrorCode::NotYourTurn, turn.turn), "{refused:?}");
                    let ahead = next_error(&mut table, 0).await;
                    assert!(is(&ahead, pb::ActErrorCode::StaleTurn, turn.turn + 1), "{ahead:?}");
                    pokes += 1;
                    table.answer(seat).await;
                }
                Ok(Message::Turn(_)) => {
                    table.answer(0).await;
                }
                Ok(Message::End(this)) => end = Some(this),
                Ok(Message::Error(error)) => panic!("seat {seat}: {error:?}"),
                Err(status) => panic!("seat {seat}: {status}"),
                Ok(_) => {}
            }
        }
        let end = end.unwrap();
        assert!(pokes >= 10, "{pokes} turns of other seats");
        scene.assert_clean_end(case.game, &table, &end).await;
    }
    scene.finish().await;
}
