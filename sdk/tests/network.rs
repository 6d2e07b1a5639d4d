//! The networked runner against a real server on 127.0.0.1:0: whole matches of SDK bots by seat
//! token and through the queue, a connection cut mid-match, a link gone silent (noticed by the
//! keep-alive), and a bot that plays illegal actions.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use cardroom_games::gin::{self, solver};
use cardroom_games::twenty_two;
use cardroom_games::{Card, Seat};
use cardroom_proto::pb;
use cardroom_sdk::{
    ActError, ActErrorCode, AnyBot, Backoff, Bot, ConnectConfig, GameKind, MatchEnd, MatchStart,
    PlayableGame, Played, RunError, play, play_any,
};
use cardroom_tests::{Break, Proxy, TestServer};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// How long a test waits for a match before it fails (a bound, not a sleep).
const PATIENCE: Duration = Duration::from_secs(60);

/// A uniformly random legal action, for any game; counts what the runner tells it.
struct RandomBot {
    rng: ChaCha8Rng,
    started: Option<MatchStart>,
    ended: Option<MatchEnd>,
}

impl RandomBot {
    fn new(seed: u64) -> RandomBot {
        RandomBot { rng: ChaCha8Rng::seed_from_u64(seed), started: None, ended: None }
    }
}

impl<G: PlayableGame> Bot<G> for RandomBot {
    fn choose(&mut self, observation: &G::Observation) -> G::Action {
        let legal = G::legal_actions_of(observation);
        legal[self.rng.random_range(0..legal.len())]
    }

    fn match_start(&mut self, start: &MatchStart) {
        self.started = Some(start.clone());
    }

    fn match_end(&mut self, end: &MatchEnd) {
        self.ended = Some(end.clone());
    }
}

/// Gin Rummy that ends hands quickly: goes out when it can, draws from the stock, and discards
/// the card that leaves the least deadwood.
struct GreedyGin;

impl Bot<gin::State> for GreedyGin {
    fn choose(&mut self, observation: &gin::Observation) -> gin::Action {
        let legal = &observation.legal_actions;
        let out = legal.iter().find(|action| {
            matches!(
                action,
                gin::Action::BigGin | gin::Action::Gin { .. } | gin::Action::Knock { .. }
            )
        });
        if let Some(out) = out {
            return *out;
        }
        if let Ok(discards) = solver::best_discards(observation.hand) {
            for (card, _) in discards.all {
                if legal.contains(&gin::Action::Discard(card)) {
                    return gin::Action::Discard(card);
                }
            }
        }
        if legal.contains(&gin::Action::DrawStock) { gin::Action::DrawStock } else { legal[0] }
    }
}

/// A Twenty-Two bot that always plays a card it does not hold, and counts the refusals.
struct Stubborn {
    refused: Arc<AtomicU32>,
}

impl Bot<twenty_two::State> for Stubborn {
    fn choose(&mut self, observation: &twenty_two::Observation) -> twenty_two::Action {
        let missing: Vec<Card> =
            Card::pack().filter(|card| !observation.hand.as_slice().contains(card)).collect();
        let cards = twenty_two::Cards::new(&missing[..1]).unwrap();
        match observation.public.phase {
            twenty_two::PhaseView::Exchange { .. } => twenty_two::Action::Exchange(cards),
            _ => twenty_two::Action::Play(cards),
        }
    }

    fn rejected(&mut self, error: &ActError) {
        if error.code == ActErrorCode::IllegalAction {
            self.refused.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// Runs `play` for one seat in a task.
fn spawn_player<G: PlayableGame, B: Bot<G> + 'static>(
    config: ConnectConfig,
    mut bot: B,
) -> JoinHandle<(Result<Played, RunError>, B)> {
    tokio::spawn(async move {
        let result = play::<G>(&config, &mut bot).await;
        (result, bot)
    })
}

async fn finish<T>(task: JoinHandle<T>) -> T {
    tokio::time::timeout(PATIENCE, task).await.expect("the match ends in time").unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sdk_bots_play_a_twenty_two_match_to_the_end() {
    let server = TestServer::start(cardroom_server::Config::default()).await;
    let tokens = server.create(pb::Game::TwentyTwo, 4, 7).await.1;
    let tasks: Vec<_> = tokens
        .iter()
        .enumerate()
        .map(|(i, token)| {
            let config = ConnectConfig::with_token(server.url(), token).named(format!("r{i}"));
            spawn_player::<twenty_two::State, _>(config, RandomBot::new(i as u64))
        })
        .collect();
    let mut ends = Vec::new();
    for (i, task) in tasks.into_iter().enumerate() {
        let (result, bot) = finish(task).await;
        let played = result.unwrap();
        assert_eq!(played.start.seat, Seat(i as u8));
        assert_eq!(played.start.seats, 4);
        assert_eq!(played.start.game, GameKind::TwentyTwo);
        assert!(played.errors.is_empty(), "{:?}", played.errors);
        assert!(played.decisions > 0);
        assert!(!played.end.aborted);
        assert_eq!(bot.started.as_ref(), Some(&played.start));
        assert_eq!(bot.ended.as_ref(), Some(&played.end));
        ends.push(played.end.standings);
    }
    assert_eq!(ends[0].len(), 4);
    assert!(ends.iter().all(|standings| standings == &ends[0]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sdk_bots_are_seated_through_the_queue_and_play_gin_to_the_end() {
    let server = TestServer::start(cardroom_server::Config::default()).await;
    // A short match (the first to 25 points): the test is about the queue and the runner.
    let config = ConnectConfig::queue(server.url(), GameKind::Gin, r#"{"target": 25}"#, 2);
    let first = spawn_player::<gin::State, _>(config.clone().named("a"), GreedyGin);
    // The second bot plays through `play_any`: it learns the game from the server.
    let second = tokio::spawn(async move {
        play_any(&config.named("b"), |game| {
            assert_eq!(game, GameKind::Gin);
            AnyBot::Gin(Box::new(GreedyGin))
        })
        .await
    });
    let (first, _) = finish(first).await;
    let first = first.unwrap();
    let second = finish(second).await.unwrap();
    assert_ne!(first.start.seat, second.start.seat);
    assert_eq!(first.start.match_id, second.start.match_id);
    assert_eq!(first.end.standings, second.end.standings);
    assert!(!first.end.aborted);
    assert_eq!(first.end.standings[0].place, 1);
}

/// A bot's configuration for the seat of `token` through `proxy`, reconnecting quickly.
fn via(proxy: &Proxy, token: &str) -> ConnectConfig {
    let mut config = ConnectConfig::with_token(format!("http://{}", proxy.addr), token);
    config.backoff = Backoff {
        initial: Duration::from_millis(10),
        max: Duration::from_millis(200),
        attempts: 50,
    };
    config
}

/// Random, and says when it has made `after` decisions.
struct Signalling {
    inner: RandomBot,
    decisions: u32,
    after: u32,
    signal: mpsc::UnboundedSender<()>,
}

impl Bot<twenty_two::State> for Signalling {
    fn choose(&mut self, observation: &twenty_two::Observation) -> twenty_two::Action {
        self.decisions += 1;
        if self.decisions == self.after {
            let _ = self.signal.send(());
        }
        Bot::<twenty_two::State>::choose(&mut self.inner, observation)
    }
}

/// A Twenty-Two match of two random bots: the first through a proxy (its configuration changed
/// by `through`), whose link breaks as `how` says after the bot's third decision; the other
/// direct (changed by `direct`). Returns what each runner played, and the first bot's decisions.
async fn play_across(
    seed: u64,
    through: impl FnOnce(&mut ConnectConfig),
    direct: impl FnOnce(&mut ConnectConfig),
    how: Break,
) -> (Played, u32, Played) {
    let server = TestServer::start(cardroom_server::Config::default()).await;
    let proxy = Proxy::start(server.addr).await;
    let tokens = server.create(pb::Game::TwentyTwo, 2, seed).await.1;
    let (signal, mut signalled) = mpsc::unbounded_channel();
    let mut first = via(&proxy, &tokens[0]);
    through(&mut first);
    let bot = Signalling { inner: RandomBot::new(seed), decisions: 0, after: 3, signal };
    let first = spawn_player::<twenty_two::State, _>(first, bot);
    let mut second = ConnectConfig::with_token(server.url(), &tokens[1]);
    direct(&mut second);
    let second = spawn_player::<twenty_two::State, _>(second, RandomBot::new(seed + 1));

    tokio::time::timeout(PATIENCE, signalled.recv()).await.unwrap().unwrap();
    proxy.break_links(how);

    let (first, bot) = finish(first).await;
    let (second, _) = finish(second).await;
    (first.unwrap(), bot.decisions, second.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_runner_reconnects_after_a_dropped_connection_and_finishes() {
    let (played, decisions, other) = play_across(11, |_| {}, |_| {}, Break::Cut).await;
    assert!(played.reconnects >= 1, "the connection was cut, so the runner reconnected");
    assert!(!played.end.aborted);
    assert!(decisions > 3, "the bot kept playing after the cut");
    assert_eq!(other.end.standings, played.end.standings);
}

/// A link that goes silent without closing (no FIN, no RST: a NAT or load balancer that dropped
/// its state) is noticed by the HTTP/2 keep-alive: a ping unanswered within `keep_alive` ends the
/// connection, and the runner reconnects and finishes the match. The other bot plays without
/// keep-alive (`None`, as the load tool's bots do) over a direct link. Without the keep-alive
/// the first bot would wait on the silent link for as long as TCP lets it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keep_alive_notices_a_link_gone_silent_and_the_runner_reconnects() {
    let (played, decisions, other) = play_across(
        13,
        |config| config.keep_alive = Some(Duration::from_millis(200)),
        |config| config.keep_alive = None,
        Break::Freeze,
    )
    .await;
    assert!(played.reconnects >= 1, "the silent link was given up and a new one opened");
    assert!(!played.end.aborted);
    assert!(decisions > 3, "the bot kept playing after the freeze");
    assert_eq!(other.reconnects, 0);
    assert_eq!(other.end.standings, played.end.standings);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_plays_illegal_actions_is_told_and_its_match_still_ends() {
    let server = TestServer::start(cardroom_server::Config::default()).await;
    let tokens = server.create(pb::Game::TwentyTwo, 2, 3).await.1;
    let refused = Arc::new(AtomicU32::new(0));
    let stubborn = Stubborn { refused: refused.clone() };
    let stubborn = spawn_player::<twenty_two::State, _>(
        ConnectConfig::with_token(server.url(), &tokens[0]),
        stubborn,
    );
    let other = spawn_player::<twenty_two::State, _>(
        ConnectConfig::with_token(server.url(), &tokens[1]),
        RandomBot::new(5),
    );
    let (result, _) = finish(stubborn).await;
    let played = result.unwrap();
    let illegal: Vec<&ActError> =
        played.errors.iter().filter(|e| e.code == ActErrorCode::IllegalAction).collect();
    assert!(!illegal.is_empty());
    assert!(illegal.iter().all(|e| e.rule.starts_with("TT-")), "{illegal:?}");
    assert_eq!(refused.load(Ordering::SeqCst) as usize, illegal.len());
    // Every refusal was followed by the first legal action, never a timeout.
    assert!(played.errors.iter().all(|e| e.code != ActErrorCode::TimedOut), "{:?}", played.errors);
    assert!(!played.end.aborted);
    let (other, _) = finish(other).await;
    assert_eq!(other.unwrap().end.standings, played.end.standings);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_token_or_the_wrong_game_is_an_error() {
    let server = TestServer::start(cardroom_server::Config::default()).await;
    let config = ConnectConfig::with_token(server.url(), "00");
    let err = play::<gin::State>(&config, &mut GreedyGin).await.unwrap_err();
    assert!(
        matches!(err, RunError::Rejected(ref status) if status.code() == tonic::Code::Unauthenticated),
        "{err}"
    );

    let tokens = server.create(pb::Game::TwentyTwo, 2, 1).await.1;
    let config = ConnectConfig::with_token(server.url(), &tokens[0]);
    let err = play::<gin::State>(&config, &mut GreedyGin).await.unwrap_err();
    assert!(matches!(err, RunError::WrongGame { expected: GameKind::Gin, .. }), "{err}");
}
