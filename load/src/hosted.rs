//! `run --hosted-bots N`: the load with a busy hosted ladder in the background, against the
//! same load on a server with no ladder, in the same run.
//!
//! Each round measures two servers, each a fresh child process with the same configuration:
//! one with no store and no ladder, and one with a store (SQLite, in a temporary directory) of
//! `bots` registered bots (their keys issued through the store's account API), a hosted ladder
//! whose caps keep about `matches` of its matches running, and the bots waiting in its lobby
//! with their keys, each over its own connection, several streams at once, thinking `think`
//! before every answer. Once the ladder is that busy, the usual load runs on top and its own
//! matches are measured (`ServerStats.others`: the ladder's matches are left out of the
//! figures, not of the machine). Rounds alternate which server goes first, so that the
//! machine's drift hits both alike, and the report takes each figure's median.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;
use cardroom_arena::hosted::HostedLadderFile;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_sdk::GameKind;
use cardroom_store::Accounts;
use serde::Serialize;
use tokio::task::JoinSet;
use tonic::metadata::AsciiMetadataValue;
use tonic::transport::Channel;

use crate::child::ServerChild;
use crate::load::{self, CardroomRun, Load, Measured, Sit, Window, median};
use crate::pingpong;

/// How long a fresh hosted server may take to have its ladder busy before the round fails.
const BUSY_PATIENCE: Duration = Duration::from_secs(60);

/// The hosted ladder in the background, as `run`'s flags give it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hosted {
    /// Registered bots waiting in the lobby.
    pub(crate) bots: usize,
    /// The ladder's `max_matches`: the hosted matches kept running.
    pub(crate) matches: u32,
    /// How long a hosted bot thinks before each answer.
    pub(crate) think: Duration,
    /// Rounds of both servers.
    pub(crate) rounds: usize,
}

impl Hosted {
    /// Streams each bot keeps in the lobby, and so the ladder's `max_concurrent`: twice what
    /// `matches` needs of the bots, so that about half of every bot's streams wait in the lobby
    /// at any moment and the ladder always has bots to choose among.
    fn streams_per_bot(&self, seats: u32) -> u32 {
        let seats_needed = self.matches as usize * seats as usize;
        let per_bot = (2 * seats_needed).div_ceil(self.bots.max(1));
        u32::try_from(per_bot.max(1)).unwrap_or(u32::MAX)
    }

    /// The hosted matches a round waits for before it measures: nine tenths of the cap (a
    /// ladder replacing its ended matches is rarely at the cap itself).
    fn busy_at(&self) -> u64 {
        u64::from(self.matches * 9).div_ceil(10).max(1)
    }
}

/// The hosted matches running during one window, from the samples of `GetStats`.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub(crate) struct Running {
    pub(crate) samples: usize,
    pub(crate) min: u64,
    pub(crate) mean: f64,
    pub(crate) max: u64,
    /// The hosted matches' decisions a second, from the first sample to the last.
    pub(crate) decisions_per_s: f64,
}

impl Running {
    fn of(run: &CardroomRun) -> Running {
        let counts: Vec<u64> = run.samples.iter().map(|s| s.hosted_matches_running).collect();
        Running {
            samples: counts.len(),
            min: counts.iter().copied().min().unwrap_or(0),
            mean: counts.iter().sum::<u64>() as f64 / counts.len().max(1) as f64,
            max: counts.iter().copied().max().unwrap_or(0),
            decisions_per_s: match (run.samples.first(), run.samples.last()) {
                (Some(first), Some(last)) if last.seconds > first.seconds => {
                    last.hosted_decisions.saturating_sub(first.hosted_decisions) as f64
                        / (last.seconds - first.seconds)
                }
                _ => 0.0,
            },
        }
    }
}

/// One server's window in one round.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Side {
    pub(crate) measured: Measured,
    pub(crate) hosted_running: Running,
    /// The machine's one-minute load average at the window's end (None where unknown).
    pub(crate) load_average: Option<f64>,
}

impl Side {
    /// The server's CPU per decision in microseconds, every decision it served counted: the
    /// load's and the hosted matches'. Where the ladder only adds decisions, each no dearer
    /// than the load's, this stays level with the server's that has no ladder.
    pub(crate) fn server_us_per_decision(&self) -> f64 {
        let decisions = self.measured.decisions_per_s + self.hosted_running.decisions_per_s;
        self.measured.server_cpu * 1e6 / decisions.max(f64::MIN_POSITIVE)
    }
}

/// One round: both servers, in the order they ran.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Round {
    pub(crate) no_ladder: Side,
    pub(crate) ladder: Side,
    pub(crate) ladder_first: bool,
}

/// Each figure's median over the rounds, for one server.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub(crate) struct Medians {
    pub(crate) decisions_per_s: f64,
    pub(crate) p50_us: f64,
    pub(crate) p99_us: f64,
    pub(crate) server_cpu: f64,
    /// [`Side::server_us_per_decision`]'s median.
    pub(crate) server_us_per_decision: f64,
}

impl Medians {
    fn of<'a>(sides: impl Iterator<Item = &'a Side> + Clone) -> Medians {
        let median_of = |get: fn(&Measured) -> f64| median(sides.clone().map(|s| get(&s.measured)));
        Medians {
            decisions_per_s: median_of(|m| m.decisions_per_s),
            p50_us: median_of(|m| m.round_trip.p50_us as f64),
            p99_us: median_of(|m| m.round_trip.p99_us as f64),
            server_cpu: median_of(|m| m.server_cpu),
            server_us_per_decision: median(sides.clone().map(Side::server_us_per_decision)),
        }
    }
}

/// The ladder's medians over the no-ladder server's, per figure.
#[derive(Clone, Copy, Debug, Serialize)]
pub(crate) struct Ratios {
    pub(crate) decisions_per_s: f64,
    pub(crate) p50: f64,
    pub(crate) p99: f64,
    /// The server's CPU per decision, every decision counted (not part of the verdict: under
    /// a closed loop that fills the cores, it tells a dearer decision from a shared CPU).
    pub(crate) server_us_per_decision: f64,
}

/// How far apart the two servers' figures may be (issue 13's "within 10%").
pub(crate) const TOLERANCE: f64 = 0.10;

impl Ratios {
    /// Whether every figure of the ladder's server is within [`TOLERANCE`] of the other's
    /// (fewer decisions a second, or longer round trips, by no more than that).
    pub(crate) fn within_tolerance(&self) -> bool {
        self.decisions_per_s >= 1.0 - TOLERANCE
            && self.p50 <= 1.0 + TOLERANCE
            && self.p99 <= 1.0 + TOLERANCE
    }
}

/// The whole comparison.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Comparison {
    pub(crate) bots: usize,
    pub(crate) streams_per_bot: u32,
    pub(crate) hosted_matches_cap: u32,
    pub(crate) hosted_think_ms: u128,
    pub(crate) rounds: Vec<Round>,
    pub(crate) no_ladder: Medians,
    pub(crate) ladder: Medians,
    pub(crate) ratios: Ratios,
    pub(crate) within_tolerance: bool,
}

/// Runs `hosted.rounds` rounds of `load` on both servers and compares them.
pub(crate) async fn compare(
    load: &Load,
    window: Window,
    hosted: Hosted,
) -> anyhow::Result<Comparison> {
    anyhow::ensure!(hosted.rounds > 0, "--rounds must be at least 1");
    let dir = tempfile::tempdir()?;
    let store_url = format!("sqlite:{}", dir.path().join("store.sqlite").display());
    let keys = register(&store_url, hosted.bots).await?;
    let per_bot = hosted.streams_per_bot(load.seats);
    let ladder_path = dir.path().join("ladder.toml");
    write_ladder(&ladder_path, load, &hosted, per_bot)?;
    let connections = load.matches * load.seats as usize + hosted.bots * per_bot as usize;
    let limit = (connections + 64).max(10_000).to_string();
    let plain_args = vec!["serve-cardroom".to_owned(), "--limit".to_owned(), limit];
    let mut hosted_args = plain_args.clone();
    hosted_args.extend([
        "--store".to_owned(),
        store_url,
        "--ladder".to_owned(),
        ladder_path.display().to_string(),
    ]);
    // Samples through the window: the hosted matches running, a few times a window at least.
    let window =
        Window { sample_every: Some(Duration::from_secs(1).min(window.duration / 5)), ..window };
    let mut rounds = Vec::new();
    for round in 0..hosted.rounds {
        let ladder_first = round % 2 == 1;
        let (no_ladder, ladder) = if ladder_first {
            let ladder = ladder_side(&hosted_args, load, window, &hosted, &keys, per_bot).await?;
            (plain_side(&plain_args, load, window).await?, ladder)
        } else {
            let no_ladder = plain_side(&plain_args, load, window).await?;
            (no_ladder, ladder_side(&hosted_args, load, window, &hosted, &keys, per_bot).await?)
        };
        rounds.push(Round { no_ladder, ladder, ladder_first });
    }
    let no_ladder = Medians::of(rounds.iter().map(|r| &r.no_ladder));
    let ladder = Medians::of(rounds.iter().map(|r| &r.ladder));
    let ratio = |a: f64, b: f64| a / b.max(f64::MIN_POSITIVE);
    let ratios = Ratios {
        decisions_per_s: ratio(ladder.decisions_per_s, no_ladder.decisions_per_s),
        p50: ratio(ladder.p50_us, no_ladder.p50_us),
        p99: ratio(ladder.p99_us, no_ladder.p99_us),
        server_us_per_decision: ratio(
            ladder.server_us_per_decision,
            no_ladder.server_us_per_decision,
        ),
    };
    Ok(Comparison {
        bots: hosted.bots,
        streams_per_bot: per_bot,
        hosted_matches_cap: hosted.matches,
        hosted_think_ms: hosted.think.as_millis(),
        rounds,
        no_ladder,
        ladder,
        ratios,
        within_tolerance: ratios.within_tolerance(),
    })
}

/// Registers `bots` bots in the store at `url` (created), each with its first key; returns
/// their names with their keys' `authorization` headers.
async fn register(url: &str, bots: usize) -> anyhow::Result<Vec<(String, AsciiMetadataValue)>> {
    let store = cardroom_store::open(url).await.with_context(|| format!("opening {url}"))?;
    let accounts = Accounts::new(store);
    let mut keys = Vec::with_capacity(bots);
    for index in 0..bots {
        let name = format!("load-{index:04}");
        let issued =
            accounts.register(&name).await.with_context(|| format!("registering {name}"))?;
        let header = AsciiMetadataValue::try_from(format!("Bearer {}", issued.key.expose()))
            .context("a key that is not a header value")?;
        keys.push((name, header));
    }
    Ok(keys)
}

/// The hosted ladder's file: the load's game, every registered bot, the caps, and no pausing
/// (a bot is never paused for its health: the background stays the same size).
fn write_ladder(path: &Path, load: &Load, hosted: &Hosted, per_bot: u32) -> anyhow::Result<()> {
    let text = format!(
        "name = \"load\"\ngame = \"{game}\"\nseats = {seats}\nseed = 1\n\
         max_concurrent = {per_bot}\nmax_matches = {matches}\n[health]\nmax_failures = 0\n",
        game = load.game.name(),
        seats = load.seats,
        matches = hosted.matches,
    );
    HostedLadderFile::parse(&text).context("the hosted ladder's file")?;
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

/// The server with no ladder: a fresh child, the load, its window.
async fn plain_side(args: &[String], load: &Load, window: Window) -> anyhow::Result<Side> {
    let child = ServerChild::start(args).await?;
    let run = load::cardroom(&child.url, load, window, false).await?;
    Ok(side(&run, load))
}

/// The server with the ladder: a fresh child on the store, the bots in its lobby, the ladder
/// busy, then the load and its window.
async fn ladder_side(
    args: &[String],
    load: &Load,
    window: Window,
    hosted: &Hosted,
    keys: &[(String, AsciiMetadataValue)],
    per_bot: u32,
) -> anyhow::Result<Side> {
    let child = ServerChild::start(args).await?;
    let mut bots = lobby_bots(&child.url, keys, per_bot, load.game, hosted.think).await?;
    let busy = wait_until_busy(&child.url, hosted.busy_at(), &mut bots).await;
    let run = match busy {
        Ok(()) => load::cardroom(&child.url, load, window, false).await,
        Err(error) => Err(error),
    };
    let failed = bot_failure(&mut bots);
    // The bots go before their server.
    bots.abort_all();
    drop(child);
    let run = run?;
    failed?;
    Ok(side(&run, load))
}

/// One window's figures, the load's bots' own wait (`--think-ms`) taken out of every round
/// trip, as `run` reports them: what the server and the transport add, which a ladder must not
/// grow (a fixed wait in both would only shrink the ratios towards 1).
fn side(run: &CardroomRun, load: &Load) -> Side {
    let mut measured = run.measured.clone();
    measured.round_trip = measured.round_trip.less(load.think);
    Side { measured, hosted_running: Running::of(run), load_average: load_average() }
}

/// Every registered bot in the lobby of the server at `url`: one connection each, `per_bot`
/// streams on it, each playing one hosted match after another, thinking `think` per decision.
async fn lobby_bots(
    url: &str,
    keys: &[(String, AsciiMetadataValue)],
    per_bot: u32,
    game: GameKind,
    think: Duration,
) -> anyhow::Result<JoinSet<anyhow::Result<()>>> {
    let mut bots = JoinSet::new();
    for (index, (name, key)) in keys.iter().enumerate() {
        let channel = pingpong::connect(url).await?;
        for stream in 0..per_bot {
            let (channel, name, key) = (channel.clone(), name.clone(), key.clone());
            let mut seed = (index as u64) << 32 | u64::from(stream) << 24;
            bots.spawn(async move {
                loop {
                    let sit = Sit::Lobby { name: name.clone(), key: key.clone() };
                    load::thinking_bot(channel.clone(), sit, game, think, seed)
                        .await
                        .with_context(|| format!("hosted bot {name}"))?;
                    seed += 1;
                }
            });
        }
    }
    Ok(bots)
}

/// The first error of a lobby bot that has stopped, if one has.
fn bot_failure(bots: &mut JoinSet<anyhow::Result<()>>) -> anyhow::Result<()> {
    match bots.try_join_next() {
        Some(Ok(Err(error))) => Err(error.context("a hosted bot stopped")),
        Some(Err(panic)) => Err(anyhow::anyhow!("a hosted bot's task failed: {panic}")),
        _ => Ok(()),
    }
}

/// Waits until the server at `url` runs `busy_at` hosted matches (every bot's first join
/// takes a store read, and the ladder schedules its sets as bots arrive).
async fn wait_until_busy(
    url: &str,
    busy_at: u64,
    bots: &mut JoinSet<anyhow::Result<()>>,
) -> anyhow::Result<()> {
    let mut stats = CardroomClient::new(pingpong::connect(url).await?);
    let deadline = Instant::now() + BUSY_PATIENCE;
    loop {
        bot_failure(bots)?;
        let running = hosted_running(&mut stats).await?;
        if running >= busy_at {
            return Ok(());
        }
        anyhow::ensure!(
            Instant::now() < deadline,
            "the hosted ladder ran {running} matches after {BUSY_PATIENCE:?}, not {busy_at}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn hosted_running(stats: &mut CardroomClient<Channel>) -> anyhow::Result<u64> {
    let now = load::server_stats(stats, false).await?;
    let hosted = now.hosted.context("the server does not report its hosted matches")?;
    Ok(hosted.matches_running)
}

/// The machine's one-minute load average (Linux's `/proc/loadavg`).
fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bots_keep_twice_the_streams_the_cap_needs() {
        let hosted = Hosted { bots: 200, matches: 100, think: Duration::ZERO, rounds: 1 };
        assert_eq!(hosted.streams_per_bot(2), 2, "100 matches of 2 seats need 200 streams");
        assert_eq!(hosted.busy_at(), 90);
        let tiny = Hosted { bots: 6, matches: 2, ..hosted };
        assert_eq!(tiny.streams_per_bot(2), 2);
        assert_eq!(tiny.busy_at(), 2);
    }

    #[test]
    fn within_tolerance_means_every_figure_within_ten_percent() {
        let ratios =
            Ratios { decisions_per_s: 0.95, p50: 1.05, p99: 1.09, server_us_per_decision: 1.3 };
        assert!(ratios.within_tolerance());
        assert!(!Ratios { decisions_per_s: 0.85, ..ratios }.within_tolerance());
        assert!(!Ratios { p99: 1.2, ..ratios }.within_tolerance());
    }
}
