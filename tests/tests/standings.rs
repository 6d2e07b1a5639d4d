//! A hosted ladder's standings over real gRPC: the runner writes a snapshot after its rated sets
//! and `GetLeaderboard` returns it, its numbers those of the arena's `Settlement` over the
//! stored sets; a ladder whose file asks to stop once settled closes itself with the order as
//! its reason.

#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use cardroom_arena::hosted::{HostedLadderFile, HostedLadders, STANDINGS_CONFIDENCE, rate_set};
use cardroom_example_bots::random::AnyRandom;
use cardroom_proto::pb;
use cardroom_rank::schedule::{Belief, least_certain};
use cardroom_rank::{MatchOutcome, Rating, RatingSystem, Settlement};
use cardroom_sdk::{AnyBot, BotKey, ConnectConfig, play_any, play_concurrently};
use cardroom_server::{Config, Host, LadderCommand, LadderControl, Server};
use cardroom_store::{
    Accounts, BotId, LadderId, LadderSet, LadderStatus, Lease, MatchResult, NewMatch, NewSet,
    SeatResult, SqliteStore, Store,
};
use cardroom_tests::{TestServer, eventually, lobby_bot};

/// A server with accounts and hosted ladders over `store`.
async fn hosted_server(store: Arc<dyn Store>) -> (TestServer, HostedLadders) {
    let (server, hosted, _) = hosted_server_and_host(store).await;
    (server, hosted)
}

/// [`hosted_server`], and the handle on its lobby.
async fn hosted_server_and_host(store: Arc<dyn Store>) -> (TestServer, HostedLadders, Host) {
    let config = Config {
        accounts: Some(Accounts::new(Arc::clone(&store))),
        registered_only: true,
        move_time: Duration::from_millis(500),
        ..Config::default()
    };
    let server = Server::new(config);
    let host = server.host();
    let hosted = HostedLadders::start(store, server.host()).await.unwrap();
    let server = server.ladders(Arc::new(hosted.clone()));
    (TestServer::serve(server).await, hosted, host)
}

/// The settlement the arena computes from `sets` (rated sets, in set order) among `bots`
/// (bot `i` is `bots[i]`), at tables of `seats`.
fn settlement_of(bots: &[BotId], sets: &[LadderSet], seats: usize) -> Settlement {
    let index: HashMap<BotId, usize> = bots.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let outcomes: Vec<Vec<MatchOutcome>> = sets
        .iter()
        .map(|set| {
            set.matches
                .iter()
                .map(|m| MatchOutcome {
                    places: m.seats.iter().map(|s| (index[&s.bot], s.place.unwrap())).collect(),
                    health: Vec::new(),
                    decisions: 0,
                })
                .collect()
        })
        .collect();
    Settlement::from_sets(bots.len(), seats, &outcomes, 1.0 - STANDINGS_CONFIDENCE)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_returns_the_standings_settlement_computes_from_the_stored_sets() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let (server, hosted) = hosted_server(Arc::clone(&store)).await;
    let names = ["alice", "bob", "carol"];
    for name in names {
        let issued = Accounts::new(Arc::clone(&store)).register(name).await.unwrap();
        let mut config = ConnectConfig::lobby(server.url(), name);
        config.key = Some(BotKey::new(issued.key.expose()).unwrap());
        let rejoin = config.clone();
        tokio::spawn(async move {
            play_concurrently(&rejoin, 1, 0, move |n| {
                let config = config.clone();
                async move { play_any(&config, |game| AnyBot::build(game, AnyRandom(n))).await }
            })
            .await
        });
    }
    // The default schedule: adaptive.
    let text = "name = \"tt\"\ngame = \"twenty_two\"\nseed = 3\n";
    hosted.open(&HostedLadderFile::parse(text).unwrap(), text).await.unwrap();
    let ladder = store.ladder("tt").await.unwrap().unwrap().id;
    let client = server.client().await;
    let request = || pb::GetLeaderboardRequest { ladder: "tt".into() };
    let board = eventually("standings of four rated sets", || {
        let mut client = client.clone();
        async move {
            let board = client.get_leaderboard(request()).await.unwrap().into_inner();
            let revision = board.standings.as_ref().map_or(0, |s| s.revision);
            (revision >= 4 && board.rows.len() == 3).then_some(board)
        }
    })
    .await;
    let standings = board.standings.clone().unwrap();
    // The numbers are the settlement of the first `revision` rated sets (the ladder went on).
    let mut rated = store.rated_sets(ladder).await.unwrap();
    rated.truncate(standings.revision as usize);
    assert_eq!(rated.len() as u64, standings.revision);
    let bots: Vec<BotId> = {
        let mut bots: Vec<BotId> =
            store.ladder_bots(ladder).await.unwrap().iter().map(|b| b.bot).collect();
        bots.sort_unstable();
        bots
    };
    let name_of: HashMap<BotId, String> =
        store.ladder_bots(ladder).await.unwrap().into_iter().map(|b| (b.bot, b.name)).collect();
    let expected = settlement_of(&bots, &rated, 2);
    assert_eq!((standings.sets, standings.first_set), (standings.revision, 0));
    assert_eq!(standings.confidence, STANDINGS_CONFIDENCE);
    assert_eq!(standings.settled, expected.settled);
    let order: Vec<&str> = expected.order.iter().map(|&i| name_of[&bots[i]].as_str()).collect();
    assert_eq!(standings.order, order);
    let at = |name: &str| bots.iter().position(|b| name_of[b] == name).unwrap();
    for row in &board.rows {
        let a = at(&row.bot);
        let (lo, hi) = expected.rank_intervals[a];
        assert_eq!((row.rank_lo as usize, row.rank_hi as usize), (lo, hi), "{}", row.bot);
        assert_eq!(row.indistinguishable_from_first, lo == 1, "{}", row.bot);
        let p: Vec<f64> =
            board.rows.iter().map(|other| expected.p_better[a][at(&other.bot)]).collect();
        assert_eq!(row.p_better, p, "{}'s row of the matrix, in the rows' order", row.bot);
    }
    // Random bots cannot be told apart in four sets: each may be first.
    assert!(board.rows.iter().all(|r| r.indistinguishable_from_first), "{board:?}");
    server.stop().await.unwrap();
}

/// Plays and rates, straight in the store, `sets` duplicate sets of two matches in which
/// `winner` beats `loser` in both (the ratings as the runner rates), every seat on `v1`.
async fn stored_wins(
    store: &Arc<dyn Store>,
    ladder: LadderId,
    winner: BotId,
    loser: BotId,
    sets: u64,
) {
    let sweeps = vec![([winner, loser], true); sets as usize];
    stored_sets(store, ladder, 0, &sweeps).await;
}

/// Plays and rates, straight in the store, one duplicate set of two matches per entry of
/// `sets` from set index `first` on: `[a, b]` and whether `a` wins both (else each wins one),
/// the ratings as the runner rates them, every seat on `v1`.
async fn stored_sets(
    store: &Arc<dyn Store>,
    ladder: LadderId,
    first: u64,
    sets: &[([BotId; 2], bool)],
) {
    let system = RatingSystem::Glicko2;
    let mut ratings: HashMap<BotId, Rating> = store
        .ladder_bots(ladder)
        .await
        .unwrap()
        .into_iter()
        .map(|b| {
            let r = b.rating;
            (b.bot, Rating { mean: r.mean, sigma: r.sigma, volatility: r.volatility })
        })
        .collect();
    for (i, &(bots, sweep)) in sets.iter().enumerate() {
        let index = first + i as u64;
        let winners = if sweep { [bots[0], bots[0]] } else { bots };
        let done = played_set_won_by(store, ladder, index, bots, winners, |_| "v1").await;
        let updates = rate_set(system, &done, |bot| {
            ratings.get(&bot).copied().unwrap_or_else(|| Rating::initial(system))
        })
        .unwrap();
        for update in &updates {
            let after = update.after;
            ratings.insert(
                update.bot,
                Rating { mean: after.mean, sigma: after.sigma, volatility: after.volatility },
            );
        }
        store.rate_set(ladder, index, &updates, 5).await.unwrap();
    }
}

/// Plans and plays, straight in the store, set `index`: two matches in which `winner` beats
/// `loser`, each seat's bot on `version(bot)`; returns the set, complete and not rated.
async fn played_set(
    store: &Arc<dyn Store>,
    ladder: LadderId,
    index: u64,
    [winner, loser]: [BotId; 2],
    version: impl Fn(BotId) -> &'static str,
) -> LadderSet {
    played_set_won_by(store, ladder, index, [winner, loser], [winner, winner], version).await
}

/// Plans and plays, straight in the store, set `index` of `bots`: two matches, the first with
/// `bots` in that seat order, the second rotated, won by `winners[0]` and `winners[1]`; each
/// seat's bot on `version(bot)`. Returns the set, complete and not rated.
async fn played_set_won_by(
    store: &Arc<dyn Store>,
    ladder: LadderId,
    index: u64,
    [first, second]: [BotId; 2],
    winners: [BotId; 2],
    version: impl Fn(BotId) -> &'static str,
) -> LadderSet {
    let set = NewSet {
        index,
        seed: index,
        bots: vec![first, second],
        matches: vec![
            NewMatch { rotation: 0, seed: index, seats: vec![first, second] },
            NewMatch { rotation: 1, seed: index, seats: vec![second, first] },
        ],
    };
    let planned = store.plan_set(ladder, &set, 2).await.unwrap();
    for m in &planned.matches {
        let lease = Lease { owner: "earlier-run".into(), until_ms: i64::MAX };
        let claim = store.claim_match(m.id, &lease, 3).await.unwrap();
        let seats = m
            .seats
            .iter()
            .map(|seat| SeatResult {
                seat: seat.seat,
                version: version(seat.bot).into(),
                place: if seat.bot == winners[m.rotation as usize % 2] { 1 } else { 2 },
                forfeited: false,
                think: Default::default(),
            })
            .collect();
        let result = MatchResult {
            claim,
            server_match_id: format!("m{}", m.id.0),
            seats,
            record_json: None,
            failures: Vec::new(),
        };
        store.finish_match(&result, 4).await.unwrap();
    }
    let open = store.open_sets(ladder).await.unwrap();
    open.into_iter().find(|set| set.index == index).unwrap()
}

/// A ladder of `text` (a hosted ladder file) created straight in the store, with the bots
/// `strong` and `weak` registered and entered; returns it and the bots.
async fn stored_ladder(store: &Arc<dyn Store>, text: &str) -> (LadderId, [BotId; 2]) {
    let (ladder, bots) = stored_ladder_of(store, text, &["strong", "weak"]).await;
    (ladder, [bots[0].0, bots[1].0])
}

/// A ladder of `text` (a hosted ladder file) created straight in the store, with the bots
/// `names` registered and entered; returns it and each bot with its key.
async fn stored_ladder_of(
    store: &Arc<dyn Store>,
    text: &str,
    names: &[&str],
) -> (LadderId, Vec<(BotId, String)>) {
    let accounts = Accounts::new(Arc::clone(store));
    let mut bots = Vec::new();
    for name in names {
        let issued = accounts.register(name).await.unwrap();
        bots.push((issued.bot.id, issued.key.expose().to_owned()));
    }
    let file = HostedLadderFile::parse(text).unwrap();
    let new = file.new_ladder(text);
    let ladder = store.create_ladder(&new, 1).await.unwrap().id;
    let initial = Rating::initial(file.rating_system());
    let initial = cardroom_store::StoredRating {
        mean: initial.mean,
        sigma: initial.sigma,
        volatility: initial.volatility,
    };
    for (bot, _) in &bots {
        store.enter_ladder(ladder, *bot, initial, 1).await.unwrap();
    }
    (ladder, bots)
}

/// Waits until `bot` is paused in `ladder`; returns the reason.
async fn paused_reason(store: &Arc<dyn Store>, ladder: LadderId, bot: BotId) -> String {
    eventually("the bot paused", || async {
        let bots = store.ladder_bots(ladder).await.unwrap();
        bots.into_iter().find(|b| b.bot == bot).and_then(|b| b.paused_reason)
    })
    .await
}

/// Waits until the ladder `name` is closed; returns its reason.
async fn closed_reason(store: &Arc<dyn Store>, name: &str) -> String {
    eventually("the ladder closed", || async {
        let ladder = store.ladder(name).await.unwrap().unwrap();
        (ladder.status == LadderStatus::Closed).then_some(ladder.status_reason.unwrap_or_default())
    })
    .await
}

#[tokio::test]
async fn a_ladder_that_stops_when_settled_closes_itself_with_the_order() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let text = "name = \"duel\"\ngame = \"gin\"\nstop_when_settled = true\n";
    let (ladder, [strong, weak]) = stored_ladder(&store, text).await;
    // Enough sets of `strong` winning everything for the test to tell them apart at 95%.
    let sets = 12;
    stored_wins(&store, ladder, strong, weak, sets).await;
    let rated = store.rated_sets(ladder).await.unwrap();
    assert!(settlement_of(&[strong, weak], &rated, 2).settled, "the evidence settles the order");

    // A server starting on that store writes the standings and closes the ladder, no bot needed.
    let (server, _hosted) = hosted_server(Arc::clone(&store)).await;
    let reason = closed_reason(&store, "duel").await;
    assert_eq!(reason, "settled: the order strong > weak holds at 95% after 12 sets");
    let standings = store.standings(ladder).await.unwrap().unwrap();
    assert!(standings.settled);
    assert_eq!((standings.revision, standings.sets), (sets, sets));
    let rows: Vec<(BotId, u32, u32, bool)> = standings
        .rows
        .iter()
        .map(|r| (r.bot, r.rank_lo, r.rank_hi, r.indistinguishable_from_first))
        .collect();
    assert_eq!(rows, vec![(strong, 1, 1, true), (weak, 2, 2, false)]);
    assert!(standings.rows[0].p_better[1] > 0.99, "{standings:?}");
    server.stop().await.unwrap();
}

#[tokio::test]
async fn an_sprt_ladder_closes_itself_with_its_decision_and_shows_its_llr() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let text = "name = \"sprt\"\ngame = \"gin\"\nformat = \"sprt\"\n[sprt]\na = \"strong\"\nb = \"weak\"\n";
    let (ladder, [strong, weak]) = stored_ladder(&store, text).await;
    stored_wins(&store, ladder, strong, weak, 10).await;
    let (server, _hosted) = hosted_server(Arc::clone(&store)).await;
    let reason = closed_reason(&store, "sprt").await;
    assert!(
        reason.starts_with("strong is stronger than weak (H1: at least 50 Elo, accepted)"),
        "{reason}"
    );
    let mut client = server.client().await;
    let board = client
        .get_leaderboard(pb::GetLeaderboardRequest { ladder: "sprt".into() })
        .await
        .unwrap()
        .into_inner();
    let sprt = board.standings.unwrap().sprt.unwrap();
    assert_eq!((sprt.a.as_str(), sprt.b.as_str(), sprt.samples), ("strong", "weak", 10));
    assert_eq!(sprt.decision, "H1 accepted");
    assert!(sprt.llr >= sprt.upper && sprt.lower < 0.0, "{sprt:?}");
    // The bounds are the test's: ln(β / (1 - α)) and ln((1 - β) / α) at α = β = 0.05.
    assert!((sprt.upper - (0.95f64 / 0.05).ln()).abs() < 1e-12, "{sprt:?}");
    server.stop().await.unwrap();
}

#[tokio::test]
async fn a_finals_set_played_with_a_new_version_is_void_and_its_bot_paused() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let text = "name = \"final\"\ngame = \"gin\"\nfinals = true\n";
    let (ladder, [strong, weak]) = stored_ladder(&store, text).await;
    stored_wins(&store, ladder, strong, weak, 2).await;
    // Set 2 was played, not yet rated, with `strong` on a version of after the finals began.
    let version = move |bot: BotId| if bot == strong { "v2" } else { "v1" };
    played_set(&store, ladder, 2, [strong, weak], version).await;
    // A season of the ladder is told of the pause.
    let season = cardroom_store::NewSeason {
        name: "winter".into(),
        config: String::new(),
        ladders: vec!["final".into()],
        deadline_ms: i64::MAX,
    };
    let opened = cardroom_store::NewSeasonEvent {
        kind: cardroom_store::SeasonEventKind::Changed,
        author: None,
        bot: None,
        text: "opened".into(),
    };
    let season = store.put_season(&season, &opened, 1).await.unwrap();
    let (server, _hosted) = hosted_server(Arc::clone(&store)).await;
    let paused = paused_reason(&store, ladder, strong).await;
    assert_eq!(
        paused,
        "finals: strong is frozen at version \"v1\"; version \"v2\" is refused a seat (set 2 is void)"
    );
    let told = eventually("the season told", || async {
        let events = store
            .season_events(season.id, cardroom_store::EventsFrom::After(0), None, 10)
            .await
            .unwrap();
        events.into_iter().find(|e| e.kind == cardroom_store::SeasonEventKind::Paused)
    })
    .await;
    assert_eq!(
        (told.kind, told.bot.as_deref()),
        (cardroom_store::SeasonEventKind::Paused, Some("strong"))
    );
    assert_eq!(told.text, format!("strong is paused in \"final\": {paused}"));
    // The set is void, never rated: the standings and ratings are those of sets 0 and 1.
    let rated = store.rated_sets(ladder).await.unwrap();
    assert_eq!(rated.iter().map(|s| s.index).collect::<Vec<_>>(), vec![0, 1]);
    assert!(store.open_sets(ladder).await.unwrap().is_empty());
    let standings =
        eventually("the standings", || async { store.standings(ladder).await.unwrap() }).await;
    assert_eq!((standings.revision, standings.sets), (2, 2));
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_comes_to_a_finals_ladder_after_it_began_is_paused_with_the_reason() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let text = "name = \"final\"\ngame = \"gin\"\nfinals = true\n";
    let (ladder, [strong, weak]) = stored_ladder(&store, text).await;
    stored_wins(&store, ladder, strong, weak, 2).await;
    // A bot registered after the finals' first sets comes to the lobby.
    let issued = Accounts::new(Arc::clone(&store)).register("late").await.unwrap();
    let (server, _hosted) = hosted_server(Arc::clone(&store)).await;
    lobby_bot(server.url(), "late", issued.key.expose(), "v1", 1);
    let late = issued.bot.id;
    let paused = paused_reason(&store, ladder, late).await;
    assert_eq!(
        paused,
        "finals: late entered after the finals began (set 1 was planned before it came); the \
         field is frozen, so it is not scheduled"
    );
    // Its author reads the reason on the leaderboard, where a paused bot's shows; the
    // standings (the frozen field's) leave it out.
    let client = server.client().await;
    let board = eventually("the standings", || async {
        let board = client
            .clone()
            .get_leaderboard(pb::GetLeaderboardRequest { ladder: "final".into() })
            .await
            .unwrap()
            .into_inner();
        board.standings.is_some().then_some(board)
    })
    .await;
    let row = board.rows.iter().find(|r| r.bot == "late").unwrap();
    assert_eq!(row.paused_reason, paused);
    assert_eq!((row.rank_lo, row.rank_hi), (0, 0), "not ranked among the frozen field");
    let standings = board.standings.unwrap();
    assert_eq!(standings.order, vec!["strong", "weak"]);
    // Nothing was planned for it.
    assert_eq!(store.set_count(ladder).await.unwrap(), 2);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_adaptive_schedule_plays_the_open_pair_where_least_certain_would_replay_a_settled_one()
{
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let text = "name = \"open\"\ngame = \"gin\"\n";
    let names = ["alpha", "beta", "gamma"];
    let (ladder, bots) = stored_ladder_of(&store, text, &names).await;
    let [a, b, c] = [bots[0].0, bots[1].0, bots[2].0];
    // alpha is told apart from beta (ahead in 10 sets of 40, level in the rest), so their
    // ratings stay close; beta swept gamma in 5 sets, too few to settle that pair.
    let mut sets: Vec<([BotId; 2], bool)> = Vec::new();
    for i in 0..40 {
        sets.push(([a, b], i % 4 == 0));
    }
    sets.extend([([b, c], true); 5]);
    stored_sets(&store, ladder, 0, &sets).await;
    let rated = store.rated_sets(ladder).await.unwrap();
    let ids = [a, b, c];
    let expected = settlement_of(&ids, &rated, 2);
    assert!(!expected.settled && expected.order == vec![0, 1, 2], "{expected:?}");
    assert_eq!(expected.next_table, Some(vec![1, 2]), "beta against gamma is the open pair");
    // The ratings' least certain pair is the settled one.
    let rows = store.ladder_bots(ladder).await.unwrap();
    let beliefs: Vec<Belief> = ids
        .iter()
        .map(|id| {
            let row = rows.iter().find(|r| r.bot == *id).unwrap();
            Belief { mean: row.rating.mean, sigma: row.rating.sigma }
        })
        .collect();
    assert_eq!(least_certain(&beliefs, 2), Some(vec![0, 1]), "{beliefs:?}");

    // Paused until all three wait in the lobby, so that the first table is chosen among all.
    store.set_ladder_status(ladder, LadderStatus::Paused, Some("waiting"), 6).await.unwrap();
    let (server, hosted, host) = hosted_server_and_host(Arc::clone(&store)).await;
    for ((_, key), name) in bots.iter().zip(names) {
        lobby_bot(server.url(), name, key, "v1", 1);
    }
    eventually("the three bots in the lobby", || async {
        let lobby = host.lobby();
        names.iter().all(|n| lobby.get(*n).is_some_and(|&k| k > 0)).then_some(())
    })
    .await;
    hosted.command(LadderCommand::Resume { name: "open".into() }).await.unwrap();
    let next = sets.len() as u64;
    let planned = eventually("the next set planned", || async {
        let open = store.open_sets(ladder).await.unwrap();
        let rated = store.rated_sets(ladder).await.unwrap();
        open.into_iter().chain(rated).find(|set| set.index == next)
    })
    .await;
    let mut seated = planned.bots.clone();
    seated.sort_unstable();
    assert_eq!(seated, vec![b, c], "the adaptive schedule seats the open pair");
    server.stop().await.unwrap();
}

/// Divisions: at the promotion time, the lower division's bot its standings are sure is first
/// goes up and the upper's sure last goes down; the ladders' `bots` change, once, and an event
/// says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_a_promotion_time_the_sure_best_of_a_division_goes_up_and_the_sure_worst_down() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
    let division = |name: &str, bots: [&str; 2]| {
        format!("name = \"{name}\"\ngame = \"gin\"\nbots = [\"{}\", \"{}\"]\n", bots[0], bots[1])
    };
    let (upper, top) =
        stored_ladder_of(&store, &division("div-a", ["a1", "a2"]), &["a1", "a2"]).await;
    let (lower, low) =
        stored_ladder_of(&store, &division("div-b", ["b1", "b2"]), &["b1", "b2"]).await;
    stored_wins(&store, upper, top[0].0, top[1].0, 12).await;
    stored_wins(&store, lower, low[0].0, low[1].0, 12).await;
    let (server, hosted) = hosted_server(Arc::clone(&store)).await;
    for ladder in [upper, lower] {
        eventually("the standings, settled", || async {
            store.standings(ladder).await.unwrap().filter(|s| s.settled)
        })
        .await;
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    let at = |ms: i64| cardroom_server::rfc3339(now.as_millis() as i64 + ms);
    let season = format!(
        "name = \"s\"\nladders = [\"div-a\", \"div-b\"]\ndeadline = \"{}\"\n\
         divisions = [\"div-a\", \"div-b\"]\npromotions = [\"{}\"]\n",
        at(3_600_000),
        at(1_000)
    );
    let made = hosted.put_season(&season).await.unwrap();
    let season = eventually("the promotion", || async {
        store.season("s").await.unwrap().filter(|s| s.promotions_done == 1)
    })
    .await;
    let events = store
        .season_events(season.id, cardroom_store::EventsFrom::After(0), None, 10)
        .await
        .unwrap();
    let moved = events.iter().find(|e| e.kind == cardroom_store::SeasonEventKind::Moved).unwrap();
    assert_eq!(moved.text, "promotion and relegation: a2 down to div-b, b1 up to div-a");
    let bots = |name: &'static str| {
        let store = Arc::clone(&store);
        async move {
            let ladder = store.ladder(name).await.unwrap().unwrap();
            HostedLadderFile::parse(&ladder.spec.config).unwrap().bots.unwrap()
        }
    };
    assert_eq!(bots("div-a").await, ["a1", "b1"]);
    assert_eq!(bots("div-b").await, ["b2", "a2"]);
    assert_eq!(made.promotions_done, 0);
    server.stop().await.unwrap();
}
