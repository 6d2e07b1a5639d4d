//! A server that hosts ladders, in this process, and the registered bots that play in them:
//! what the hosted-ladder suites (`tests/hosted.rs`, the command line's `tests/reads.rs`)
//! share.

use std::sync::Arc;
use std::time::Duration;

use cardroom_arena::hosted::HostedLadders;
use cardroom_arena::hosted::replay;
use cardroom_example_bots::random::AnyRandom;
use cardroom_proto::pb;
use cardroom_rank::{Rating, RatingSystem};
use cardroom_sdk::{AnyBot, BotKey, ConnectConfig, play_any, play_concurrently};
use cardroom_server::{Config, Server};
use cardroom_store::{Accounts, LadderId, Store};

use crate::{Bot, TestServer};

/// The admin token of [`hosted_server`].
pub const ADMIN: &str = "admin-secret";

/// A server with accounts and hosted ladders over `store`, admin token [`ADMIN`], that seats
/// registered bots only, with short clocks (500 ms a move, 300 ms to reconnect).
///
/// # Panics
///
/// When the hosted ladders cannot start on `store`.
pub async fn hosted_server(store: Arc<dyn Store>) -> (TestServer, HostedLadders) {
    hosted_server_with(store, |_| {}).await
}

/// [`hosted_server`] with its configuration changed by `change`.
///
/// # Panics
///
/// When the hosted ladders cannot start on `store`.
pub async fn hosted_server_with(
    store: Arc<dyn Store>,
    change: impl FnOnce(&mut Config),
) -> (TestServer, HostedLadders) {
    let mut config = Config {
        admin_token: Some(ADMIN.into()),
        accounts: Some(Accounts::new(Arc::clone(&store))),
        registered_only: true,
        move_time: Duration::from_millis(500),
        reconnect_grace: Duration::from_millis(300),
        ..Config::default()
    };
    change(&mut config);
    let server = Server::new(config);
    let hosted = HostedLadders::start(store, server.host()).await.expect("hosted ladders start");
    let server = server.ladders(Arc::new(hosted.clone()));
    (TestServer::serve(server).await, hosted)
}

/// Registers `name` in `store`; returns its key.
///
/// # Panics
///
/// When the name cannot be registered.
pub async fn register(store: &Arc<dyn Store>, name: &str) -> String {
    let issued = Accounts::new(Arc::clone(store)).register(name).await.expect("a new bot's name");
    issued.key.expose().to_owned()
}

/// A registered random bot playing in the lobby under its name with its key, `concurrency`
/// matches at once, until the test ends.
///
/// # Panics
///
/// When `key` is not a bot key.
pub fn lobby_bot(url: String, name: &str, key: &str, version: &str, concurrency: u32) {
    // As a bot binary starts it: `--lobby NAME --key KEY`, its name left at the SDK's default.
    let mut config = ConnectConfig::lobby(url, name);
    config.key = Some(BotKey::new(key).expect("a bot key"));
    config.version = version.to_owned();
    let rejoin = config.clone();
    tokio::spawn(async move {
        play_concurrently(&rejoin, concurrency, 0, move |n| {
            let config = config.clone();
            async move { play_any(&config, |game| AnyBot::build(game, AnyRandom(n))).await }
        })
        .await
    });
}

/// A registered bot that joins the lobby as `name` with its key, version `broken-1`, and drops
/// its stream as soon as it is seated, every time, until the test ends.
pub fn crashing_bot(url: String, name: &str, key: String) {
    let name = name.to_owned();
    tokio::spawn(async move {
        loop {
            let channel = crate::connect(&url).await;
            let join = pb::Join {
                seat: Some(pb::join::Seat::Lobby(name.clone())),
                bot_name: name.clone(),
                bot_version: "broken-1".into(),
                ..Default::default()
            };
            let Ok(mut bot) = Bot::open_with_key(channel, join, &key).await else { return };
            // Seated: gone at once.
            let _ = bot.next().await;
        }
    });
}

/// Checks that the stored ratings are those of a serial replay of the ladder's rated sets: a
/// bot that sat in a rated set has the replay's rating exactly, one that sat in none (it
/// entered, but no set with it was rated yet) the initial rating and no set rated.
///
/// The ladder may still be rating sets while this reads: the rated sets and the bots are taken
/// as one snapshot, the bots read before and after the sets and the same both times (a set is
/// rated in one transaction, so no set was rated between the two reads).
///
/// # Panics
///
/// When a rating differs, or the store cannot be read.
pub async fn assert_ratings_replay(store: &dyn Store, ladder: LadderId, system: RatingSystem) {
    let (rated, bots) = crate::eventually("a snapshot of the rated sets and the bots", || async {
        let before = store.ladder_bots(ladder).await.expect("the ladder's bots");
        let rated = store.rated_sets(ladder).await.expect("the rated sets");
        let after = store.ladder_bots(ladder).await.expect("the ladder's bots");
        (before == after).then_some((rated, after))
    })
    .await;
    let replayed = replay(system, &rated).expect("the rated sets replay");
    for bot in bots {
        let stored = Rating {
            mean: bot.rating.mean,
            sigma: bot.rating.sigma,
            volatility: bot.rating.volatility,
        };
        match replayed.get(&bot.bot) {
            Some(expected) => {
                assert_eq!(&stored, expected, "{}'s rating is the replay's", bot.name)
            }
            None => {
                assert_eq!(stored, Rating::initial(system), "{} sat in no rated set", bot.name);
                assert_eq!(bot.sets_rated, 0, "{} sat in no rated set", bot.name);
            }
        }
    }
}
