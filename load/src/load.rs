//! The load itself: matches of SDK bots that answer at once (or of bots that think first),
//! kept running `matches` at a time, and the windows in which the servers' own figures are
//! read.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use cardroom_example_bots::random::RandomBot;
use cardroom_proto::frame::{self, Incoming, TurnFrame};
use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_sdk::{
    AnyBot, Bot, ConnectConfig, GameKind, MatchSpec, Organizer, PlayableGame, play_any,
};
use serde::Serialize;
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_stream::wrappers::ReceiverStream;
use tonic::metadata::AsciiMetadataValue;
use tonic::transport::Channel;

use crate::child::{self, ServerChild};
use crate::pingpong;

/// How long a drained server may take to close its last connections and end their tasks.
const DRAIN_PATIENCE: Duration = Duration::from_secs(30);

/// What to play.
#[derive(Clone, Debug)]
pub(crate) struct Load {
    pub(crate) game: GameKind,
    pub(crate) seats: u32,
    pub(crate) options_json: String,
    /// Matches running at once (each ended match is replaced by a new one).
    pub(crate) matches: usize,
    /// How long each bot waits before it answers: zero for SDK bots that answer at once (a
    /// closed loop), more for [`thinking_bot`]s (an open load, as real bots make).
    pub(crate) think: Duration,
}

/// How long to measure.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Window {
    pub(crate) warmup: Duration,
    pub(crate) duration: Duration,
    /// Read the server's figures this often during the window (the soak's samples).
    pub(crate) sample_every: Option<Duration>,
}

/// A distribution of round trips, in microseconds.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub(crate) struct Latency {
    pub(crate) count: u64,
    pub(crate) p50_us: u64,
    pub(crate) p99_us: u64,
    pub(crate) p999_us: u64,
    pub(crate) max_us: u64,
    pub(crate) mean_us: f64,
}

impl Latency {
    /// The same distribution less a fixed `wait` in every round trip (the bots' think time).
    pub(crate) fn less(self, wait: Duration) -> Latency {
        let wait_us = u64::try_from(wait.as_micros()).unwrap_or(u64::MAX);
        Latency {
            count: self.count,
            p50_us: self.p50_us.saturating_sub(wait_us),
            p99_us: self.p99_us.saturating_sub(wait_us),
            p999_us: self.p999_us.saturating_sub(wait_us),
            max_us: self.max_us.saturating_sub(wait_us),
            mean_us: (self.mean_us - wait_us as f64).max(0.0),
        }
    }
}

/// One measured window of one server.
#[derive(Clone, Debug, Default, Serialize)]
pub(crate) struct Measured {
    pub(crate) seconds: f64,
    /// Decisions (cardroom) or round trips (ping-pong) per second.
    pub(crate) decisions_per_s: f64,
    /// Matches finished per second (cardroom only).
    pub(crate) matches_per_s: f64,
    pub(crate) round_trip: Latency,
    /// The server process's CPU time per second of the window: 1.0 is one core busy.
    pub(crate) server_cpu: f64,
    pub(crate) server_peak_rss_bytes: u64,
    /// This process's CPU time per second of the window (the bots, or the ping-pong clients).
    pub(crate) client_cpu: f64,
    /// Every other process's CPU time per second of the window: the machine's busy time less
    /// the server's and this process's, in cores (near 0 on a quiet machine).
    pub(crate) others_cpu: f64,
    /// The CPU time the hypervisor gave elsewhere while this machine had work, per second of
    /// the window, in cores (a virtual machine's steal time; 0 on bare metal).
    pub(crate) stolen_cpu: f64,
}

impl Measured {
    /// Each figure's median over `runs` (the round trips timed: their sum).
    pub(crate) fn median<'a>(runs: impl Iterator<Item = &'a Measured> + Clone) -> Measured {
        let of = |get: fn(&Measured) -> f64| median(runs.clone().map(get));
        // Microseconds and bytes: whole numbers, as each run's are.
        let whole = |get: fn(&Measured) -> f64| of(get).round() as u64;
        Measured {
            seconds: of(|m| m.seconds),
            decisions_per_s: of(|m| m.decisions_per_s),
            matches_per_s: of(|m| m.matches_per_s),
            round_trip: Latency {
                count: runs.clone().map(|m| m.round_trip.count).sum(),
                p50_us: whole(|m| m.round_trip.p50_us as f64),
                p99_us: whole(|m| m.round_trip.p99_us as f64),
                p999_us: whole(|m| m.round_trip.p999_us as f64),
                max_us: whole(|m| m.round_trip.max_us as f64),
                mean_us: of(|m| m.round_trip.mean_us),
            },
            server_cpu: of(|m| m.server_cpu),
            server_peak_rss_bytes: whole(|m| m.server_peak_rss_bytes as f64),
            client_cpu: of(|m| m.client_cpu),
            others_cpu: of(|m| m.others_cpu),
            stolen_cpu: of(|m| m.stolen_cpu),
        }
    }
}

/// The median of `values` (the mean of the middle two for an even count; 0 for none).
pub(crate) fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// One round of `run`: cardroom's window and its peers', every round trip less the bots'
/// think time.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct RunRound {
    /// Whether the peers were measured before cardroom (every other round after the first).
    pub(crate) peers_first: bool,
    pub(crate) cardroom: CardroomRun,
    pub(crate) bare: Option<Measured>,
    pub(crate) match_shape: Option<Measured>,
}

/// The mean message sizes of a cardroom window, as its server counted them.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub(crate) struct Sizes {
    pub(crate) turn_bytes: u64,
    pub(crate) act_bytes: u64,
}

/// The server's state at one moment of a soak.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Sample {
    pub(crate) seconds: f64,
    pub(crate) decisions_per_s: f64,
    /// Decisions since the server started (with a drained soak's last sample: every decision
    /// of the load, the denominator of a profile's instructions per decision).
    pub(crate) decisions: u64,
    pub(crate) matches_finished: u64,
    pub(crate) matches_running: u64,
    /// Of `matches_running`, those of a hosted ladder (0 from a server that does not say).
    pub(crate) hosted_matches_running: u64,
    /// Decisions in hosted matches since the server started (0 from a server that does not say).
    pub(crate) hosted_decisions: u64,
    pub(crate) connections_open: u64,
    pub(crate) tasks_alive: u64,
    pub(crate) rss_bytes: u64,
}

/// A cardroom window, with the soak's samples and the state once the load has drained.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct CardroomRun {
    pub(crate) measured: Measured,
    pub(crate) sizes: Sizes,
    pub(crate) samples: Vec<Sample>,
    /// Before any match (tasks, memory), for comparison with `drained`.
    pub(crate) idle_before: Sample,
    /// After the load stopped and every match ended (with `drain`).
    pub(crate) drained: Option<Sample>,
}

/// The decisions between two readings, and the round trips of the second's window, of the
/// load's own matches: a hosted ladder's (`ServerStats.hosted`, whose bots think) are left
/// out. A server that does not split its figures gives its totals.
fn own_figures(start: &pb::ServerStats, end: &pb::ServerStats) -> (u64, pb::Latency) {
    let (before, after, round_trip) = match (&start.others, &end.others) {
        (Some(start), Some(end)) => (start.decisions, end.decisions, end.decision_round_trip),
        _ => (start.decisions, end.decisions, end.decision_round_trip),
    };
    (after.saturating_sub(before), round_trip.unwrap_or_default())
}

/// The server's figures (`GetStats`).
pub(crate) async fn server_stats(
    client: &mut CardroomClient<Channel>,
    reset: bool,
) -> anyhow::Result<pb::ServerStats> {
    Ok(client.get_stats(pb::GetStatsRequest { reset }).await?.into_inner())
}

fn sample(stats: &pb::ServerStats, seconds: f64, decisions_per_s: f64) -> Sample {
    Sample {
        seconds,
        decisions_per_s,
        decisions: stats.decisions,
        matches_finished: stats.matches_finished,
        matches_running: stats.matches_running,
        hosted_matches_running: stats.hosted.map_or(0, |hosted| hosted.matches_running),
        hosted_decisions: stats.hosted.map_or(0, |hosted| hosted.decisions),
        connections_open: stats.connections_open,
        tasks_alive: stats.tasks_alive,
        rss_bytes: stats.rss_bytes,
    }
}

/// The load's bot: it answers at once, at random, except that it goes out as soon as it may
/// ([`QuickGame::goes_out`]: in Gin Rummy, a knock or gin). Random gin players almost never
/// knock, so their matches run to hundreds of void hands, unlike any real bot's; this one's
/// matches are as long as real ones.
pub(crate) struct QuickBot(RandomBot);

impl QuickBot {
    pub(crate) fn any(game: GameKind, seed: u64) -> AnyBot {
        /// A [`QuickBot`] for the visited game.
        struct Any(u64);
        impl QuickVisitor for Any {
            type Output = AnyBot;
            fn visit<G: QuickGame>(self) -> AnyBot {
                G::into_any(Box::new(QuickBot(RandomBot::new(self.0))))
            }
        }
        visit(game, Any(seed))
    }
}

impl<G: QuickGame> Bot<G> for QuickBot {
    fn choose(&mut self, observation: &G::Observation) -> G::Action {
        let out = G::legal_actions_of(observation).iter().find(|action| G::goes_out(action));
        match out {
            Some(action) => *action,
            None => Bot::<G>::choose(&mut self.0, observation),
        }
    }
}

/// A game the load plays: what its bot ([`QuickBot`]) plays at once, and how the SDK's runner
/// takes the bot. Each game implements it in its own module (`tt_load`, `gin_load`).
pub(crate) trait QuickGame: PlayableGame {
    /// Whether the bot plays `action` as soon as it is legal (an action that ends the hand).
    fn goes_out(action: &Self::Action) -> bool {
        let _ = action;
        false
    }

    /// `bot` as the SDK's networked runner takes it.
    fn into_any(bot: Box<dyn Bot<Self>>) -> AnyBot;
}

/// Generic code run for a game chosen at run time: [`visit`] calls [`QuickVisitor::visit`]
/// with that game's engine.
pub(crate) trait QuickVisitor {
    /// What the visit gives back.
    type Output;
    /// The visit, with `G` the chosen game's engine.
    fn visit<G: QuickGame>(self) -> Self::Output;
}

/// Runs `visitor` with the engine of `game`, which the catalogue's list names
/// ([`cardroom_sdk::games::with_game!`]: a game without a [`QuickGame`] implementation does
/// not compile).
pub(crate) fn visit<V: QuickVisitor>(game: GameKind, visitor: V) -> V::Output {
    cardroom_sdk::games::with_game!(game, G => visitor.visit::<G>())
}

/// The open load's bot: after each `Turn` it waits `think` (as a bot that thinks would,
/// without holding a thread), then answers as a [`QuickBot`] would. It is not an SDK bot (the
/// SDK's `Bot::choose` is synchronous: a thousand bots each blocking a thread to wait would
/// measure the thread pool, not the server), but it asks for what the SDK asks for (the typed
/// view, no JSON, no events: `cardroom_sdk::OMIT`) and reads it the same way (the engine's observation
/// read from the `Turn`'s bytes with `WireGame::decode_observation`, through
/// `cardroom_proto::frame::play`), so the server and the bot do the same work as for it.
/// It plays one match over `channel`, seated as `sit` says.
pub(crate) async fn thinking_bot(
    channel: Channel,
    sit: Sit,
    game: GameKind,
    think: Duration,
    seed: u64,
) -> anyhow::Result<()> {
    use pb::server_message::Message;
    let mut client = tonic::client::Grpc::new(channel);
    let (tx, rx) = mpsc::channel(4);
    let (seat, bot_name, bot_version, key) = match sit {
        Sit::Token(token) => (pb::join::Seat::SeatToken(token), "bench".to_owned(), "", None),
        Sit::Lobby { name, key } => (pb::join::Seat::Lobby(name.clone()), name, "load", Some(key)),
    };
    let join = pb::Join {
        seat: Some(seat),
        bot_name,
        bot_version: bot_version.to_owned(),
        omit: Some(cardroom_sdk::OMIT),
        text: false,
    };
    tx.send(pb::BotMessage { message: Some(pb::bot_message::Message::Join(join)) }).await?;
    let mut request = tonic::Request::new(ReceiverStream::new(rx));
    if let Some(key) = key {
        request.metadata_mut().insert("authorization", key);
    }
    let mut inbound = frame::play(&mut client, request).await?;
    let mut answer: Option<Answer> = None;
    while let Some(message) = inbound.message().await? {
        let message = match message {
            Incoming::Turn(turn) => {
                if !think.is_zero() {
                    tokio::time::sleep(think).await;
                }
                let answer = answer.as_mut().context("a Turn before Joined")?;
                let act = pb::Act {
                    turn: turn.turn,
                    choice: Some(pb::act::Choice::Index(answer(&turn)?)),
                    comment: String::new(),
                };
                tx.send(pb::BotMessage { message: Some(pb::bot_message::Message::Act(act)) })
                    .await?;
                continue;
            }
            Incoming::Message(message) => message.message,
        };
        match message {
            Some(Message::Joined(joined)) => {
                let answerer = Answerer { options_json: joined.options_json, seed };
                answer = Some(visit(game, answerer)?);
            }
            Some(Message::End(_)) => return Ok(()),
            Some(Message::Error(error)) => anyhow::bail!("an action was refused: {error:?}"),
            _ => {}
        }
    }
    anyhow::bail!("the stream ended before the match")
}

/// How a [`thinking_bot`] takes its seat.
pub(crate) enum Sit {
    /// With a seat token from `CreateMatch` (the load's own matches).
    Token(String),
    /// As a registered bot waiting in the lobby under its name, with its key's
    /// `authorization` header (a hosted ladder's bots).
    Lobby { name: String, key: AsciiMetadataValue },
}

/// A [`QuickBot`]'s answers in one match: the index, among the legal actions of a turn, of its
/// choice (the SDK's way: the engine's observation read from the `Turn`'s bytes).
type Answer = Box<dyn FnMut(&TurnFrame) -> anyhow::Result<u32> + Send>;

/// Builds a match's [`Answer`], with the match's options read once (from `Joined`), as the
/// SDK reads them.
struct Answerer {
    options_json: String,
    seed: u64,
}

impl QuickVisitor for Answerer {
    type Output = anyhow::Result<Answer>;
    fn visit<G: QuickGame>(self) -> anyhow::Result<Answer> {
        let options = G::options_from_json(&self.options_json).map_err(anyhow::Error::msg)?;
        let mut bot = QuickBot(RandomBot::new(self.seed));
        Ok(Box::new(move |turn: &TurnFrame| {
            let observation = turn.observation.as_ref().context("the turn has no observation")?;
            let mut observation = G::decode_observation(observation, &turn.legal_actions, &options)
                .map_err(anyhow::Error::msg)
                .context("reading the observation")?;
            // Joined with `Omit.legal_actions` (and `cards`), as the SDK does: the engine lists
            // them.
            if turn.legal_actions.is_empty() {
                G::fill_legal_actions(&mut observation);
            }
            let action = Bot::<G>::choose(&mut bot, &observation);
            let legal = G::legal_actions_of(&observation);
            let index = legal.iter().position(|candidate| *candidate == action);
            Ok(u32::try_from(index.context("the bot chose a legal action")?)?)
        }))
    }
}

/// Keeps one match running after another until `stop`, each seat played by a [`QuickBot`]
/// (or, with a think time, a [`thinking_bot`]) over its own connection.
async fn slot(
    url: String,
    mut organizer: Organizer,
    spec: MatchSpec,
    think: Duration,
    first_seed: u64,
    stop: Arc<AtomicBool>,
) -> anyhow::Result<()> {
    let mut seed = first_seed;
    while !stop.load(Ordering::Relaxed) {
        let spec = MatchSpec { seed: Some(seed), ..spec.clone() };
        let created = organizer.create_match(&spec).await.context("creating a match")?;
        let mut bots = JoinSet::new();
        for (seat, token) in created.tokens.into_iter().enumerate() {
            let bot_seed = seed.wrapping_mul(31).wrapping_add(seat as u64);
            if think.is_zero() {
                // No HTTP/2 keep-alive, as neither the bare tonic clients nor the thinking bots
                // below have: on loopback a dead link is an error at once, and the pings'
                // bookkeeping on every frame is the client's cost, not the server's.
                let mut config = ConnectConfig::with_token(url.clone(), token).named("bench");
                config.keep_alive = None;
                bots.spawn(async move {
                    play_any(&config, |game| QuickBot::any(game, bot_seed)).await?;
                    anyhow::Ok(())
                });
            } else {
                let (url, game) = (url.clone(), spec.game);
                bots.spawn(async move {
                    let channel = pingpong::connect(&url).await?;
                    thinking_bot(channel, Sit::Token(token), game, think, bot_seed).await
                });
            }
        }
        while let Some(played) = bots.join_next().await {
            played?.context("a bot's match")?;
        }
        seed += 1;
    }
    Ok(())
}

/// Runs `load` against the cardroom server at `url` and measures one window; with `drain`,
/// stops the load afterwards and waits for every match to end before a last reading.
pub(crate) async fn cardroom(
    url: &str,
    load: &Load,
    window: Window,
    drain: bool,
) -> anyhow::Result<CardroomRun> {
    let mut stats = CardroomClient::new(pingpong::connect(url).await?);
    let before = server_stats(&mut stats, false).await?;
    let idle_before = sample(&before, 0.0, 0.0);
    let organizer = Organizer::new(url)?;
    let spec = MatchSpec {
        game: load.game,
        options_json: load.options_json.clone(),
        seats: load.seats,
        seed: None,
        clock: None,
        lobby_bots: Vec::new(),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let mut slots = JoinSet::new();
    for index in 0..load.matches {
        let first_seed = index as u64 * 1_000_000;
        slots.spawn(slot(
            url.to_owned(),
            organizer.clone(),
            spec.clone(),
            load.think,
            first_seed,
            stop.clone(),
        ));
    }
    // Only the slots' clones stay: once they end, the organizer's connection closes too.
    drop(organizer);

    let load_failed = |slots: &mut JoinSet<anyhow::Result<()>>| -> anyhow::Result<()> {
        match slots.try_join_next() {
            Some(Ok(Err(error))) => Err(error.context("the load stopped")),
            Some(Err(panic)) => Err(anyhow::anyhow!("a load task failed: {panic}")),
            _ => Ok(()),
        }
    };
    tokio::time::sleep(window.warmup).await;
    load_failed(&mut slots)?;
    let start_stats = server_stats(&mut stats, true).await?;
    let client_before = child::usage(Some(std::process::id())).cpu_seconds;
    let machine_before = child::machine_cpu();
    let start = Instant::now();
    let mut samples = Vec::new();
    let mut last = (start_stats.decisions, start);
    let end = start + window.duration;
    while let Some(next) = window.sample_every.map(|every| Instant::now() + every) {
        if next >= end {
            break;
        }
        tokio::time::sleep_until(next.into()).await;
        load_failed(&mut slots)?;
        let now = server_stats(&mut stats, false).await?;
        let rate = (now.decisions - last.0) as f64 / last.1.elapsed().as_secs_f64();
        samples.push(sample(&now, start.elapsed().as_secs_f64(), rate));
        last = (now.decisions, Instant::now());
    }
    tokio::time::sleep_until(end.into()).await;
    load_failed(&mut slots)?;
    let end_stats = server_stats(&mut stats, true).await?;
    let seconds = start.elapsed().as_secs_f64();
    let client_cpu = (child::usage(Some(std::process::id())).cpu_seconds - client_before) / seconds;
    let server_cpu = (end_stats.cpu_seconds - start_stats.cpu_seconds) / seconds;
    let (others_cpu, stolen_cpu) = machine_before.since(seconds, server_cpu + client_cpu);
    stop.store(true, Ordering::Relaxed);

    let per_second = |a: u64, b: u64| (b - a) as f64 / seconds;
    let (own_decisions, round_trip) = own_figures(&start_stats, &end_stats);
    let measured = Measured {
        seconds,
        decisions_per_s: own_decisions as f64 / seconds,
        matches_per_s: per_second(start_stats.matches_finished, end_stats.matches_finished),
        round_trip: Latency {
            count: round_trip.count,
            p50_us: round_trip.p50_us,
            p99_us: round_trip.p99_us,
            p999_us: round_trip.p999_us,
            max_us: round_trip.max_us,
            mean_us: round_trip.mean_us,
        },
        server_cpu,
        server_peak_rss_bytes: end_stats.peak_rss_bytes,
        client_cpu,
        others_cpu,
        stolen_cpu,
    };
    let mean = |bytes: (u64, u64), count: (u64, u64)| {
        (bytes.1 - bytes.0).checked_div(count.1 - count.0).unwrap_or(0)
    };
    let sizes = Sizes {
        turn_bytes: mean(
            (start_stats.turn_bytes, end_stats.turn_bytes),
            (start_stats.turns_sent, end_stats.turns_sent),
        ),
        act_bytes: mean(
            (start_stats.act_bytes, end_stats.act_bytes),
            (start_stats.acts_received, end_stats.acts_received),
        ),
    };
    let drained = if drain {
        while let Some(result) = slots.join_next().await {
            result.context("a load task")??;
        }
        // Connections close and their tasks end a moment after the bots return: wait (a
        // bounded while) for the server to settle back to where it started.
        let settled = Instant::now() + DRAIN_PATIENCE;
        let after = loop {
            let after = server_stats(&mut stats, false).await?;
            let clean = after.matches_running == 0
                && after.connections_open == 0
                && after.tasks_alive <= before.tasks_alive;
            if clean || Instant::now() > settled {
                break after;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        Some(sample(&after, start.elapsed().as_secs_f64(), 0.0))
    } else {
        slots.abort_all();
        None
    };
    Ok(CardroomRun { measured, sizes, samples, idle_before, drained })
}

/// How the baseline's streams are driven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Each stream answered on its own: the bare ping-pong.
    Streams,
    /// Two streams a match, driven by one task taking turns (`Ping.pair`): a cardroom match's
    /// shape, without its game.
    Matches,
}

/// Runs `matches` ping-pong matches (of `shape`) with cardroom's message `sizes`, each client
/// waiting `think` before it answers, against a baseline server in a child process (or the
/// running `serve-pingpong` at `server`, whose CPU and memory are then not read) and measures
/// one window.
pub(crate) async fn pingpong(
    matches: usize,
    shape: Shape,
    sizes: Sizes,
    think: Duration,
    window: Window,
    server: Option<&str>,
) -> anyhow::Result<Measured> {
    let (child, url) = match server {
        Some(server) => (None, child::http_url(server)),
        None => {
            let child = ServerChild::start(&["serve-pingpong".to_owned()]).await?;
            let url = child.url.clone();
            (Some(child), url)
        }
    };
    let server_pid = child.as_ref().and_then(ServerChild::pid);
    let stop = Arc::new(AtomicBool::new(false));
    let mut clients = JoinSet::new();
    let pong_bytes = u32::try_from(sizes.turn_bytes).unwrap_or(u32::MAX);
    let streams = match shape {
        Shape::Streams => matches,
        Shape::Matches => 2 * matches,
    };
    for stream in 0..streams {
        // Streams of a match's shape pair up two by two (pair 0: a stream of its own).
        let pair = if shape == Shape::Matches { 1 + stream as u64 / 2 } else { 0 };
        let client = pingpong::client(
            pair,
            url.clone(),
            sizes.act_bytes as usize,
            pong_bytes,
            think,
            stop.clone(),
        );
        clients.spawn(client);
    }
    tokio::time::sleep(window.warmup).await;
    pingpong::stats(&url, true).await?;
    let cpu_before = child::usage(server_pid).cpu_seconds;
    let client_before = child::usage(Some(std::process::id())).cpu_seconds;
    let machine_before = child::machine_cpu();
    let start = Instant::now();
    tokio::time::sleep(window.duration).await;
    let reply = pingpong::stats(&url, true).await?;
    let seconds = start.elapsed().as_secs_f64();
    let usage = child::usage(server_pid);
    let client_cpu = (child::usage(Some(std::process::id())).cpu_seconds - client_before) / seconds;
    let server_cpu = (usage.cpu_seconds - cpu_before) / seconds;
    let (others_cpu, stolen_cpu) = machine_before.since(seconds, server_cpu + client_cpu);
    stop.store(true, Ordering::Relaxed);
    clients.abort_all();
    Ok(Measured {
        seconds,
        decisions_per_s: reply.count as f64 / seconds,
        matches_per_s: 0.0,
        round_trip: Latency {
            count: reply.count,
            p50_us: reply.p50_us,
            p99_us: reply.p99_us,
            p999_us: reply.p999_us,
            max_us: reply.max_us,
            mean_us: reply.mean_us,
        },
        server_cpu,
        server_peak_rss_bytes: usage.peak_rss_bytes,
        client_cpu,
        others_cpu,
        stolen_cpu,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_odd_and_even_counts() {
        assert_eq!(median([3.0, 1.0, 2.0].into_iter()), 2.0);
        assert_eq!(median([4.0, 1.0, 3.0, 2.0].into_iter()), 2.5);
        assert_eq!(median(std::iter::empty()), 0.0);
    }

    #[test]
    fn the_load_plays_every_game_of_the_catalogue() {
        for game in GameKind::ALL {
            assert_eq!(QuickBot::any(game, 1).game(), game);
        }
    }
}
