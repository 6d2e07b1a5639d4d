//! `pages`: do the pages starve play? The stock `cardroom serve` with its pages, a hosted
//! ladder of registered stock bots (`random --lobby NAME --key KEY --matches 0`, each with two
//! streams), and three windows of the same length: quiet, then `clients` clients fetching a
//! bot's page as fast as it comes, then quiet again. Each window reads the server's matches
//! finished and CPU from `GetStats`; the report gives the match rate under the page load
//! against the quiet windows' mean, and the server's CPU a page (the page window's CPU less the
//! quiet windows' mean, over the pages served).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_sdk::GameKind;
use cardroom_store::Accounts;
use hdrhistogram::Histogram;
use http_body_util::BodyExt as _;
use serde::Serialize;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// What `pages` runs.
#[derive(Clone, Debug)]
pub(crate) struct PagesRun {
    /// Registered bots in the ladder (each a stock bot process with two streams).
    pub(crate) bots: usize,
    /// Clients fetching the bot's page in the page window.
    pub(crate) clients: usize,
    pub(crate) game: GameKind,
    pub(crate) seats: u32,
    pub(crate) warmup: Duration,
    pub(crate) window: Duration,
    /// Page windows, each between two quiet ones.
    pub(crate) rounds: usize,
    /// The `cardroom` binary.
    pub(crate) cardroom: PathBuf,
    /// The stock bot binary.
    pub(crate) bot: PathBuf,
}

/// One window's figures.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub(crate) struct WindowFigures {
    pub(crate) seconds: f64,
    pub(crate) matches_finished: u64,
    pub(crate) matches_per_s: f64,
    pub(crate) server_cpu_s: f64,
    pub(crate) pages: u64,
    pub(crate) page_p50_ms: f64,
    pub(crate) page_p99_ms: f64,
}

/// The whole measurement.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct PagesReport {
    pub(crate) bots: usize,
    pub(crate) clients: usize,
    pub(crate) page: String,
    /// Quiet and page windows, alternating, quiet first and last.
    pub(crate) windows: Vec<(bool, WindowFigures)>,
    /// The median over the page windows of each one's match rate over the mean of the quiet
    /// windows either side (a busy ladder's rate drifts as it grows: neighbours compare).
    pub(crate) match_rate_ratio: f64,
    /// The median over the page windows of the server's CPU a page served, less the quiet
    /// windows' either side, in milliseconds.
    pub(crate) server_cpu_ms_per_page: f64,
}

/// A child process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.start_kill();
    }
}

/// A sibling of this program named `name` (the workspace's binaries share a directory).
pub(crate) fn sibling(name: &str) -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe().context("finding this program")?;
    let path = exe.with_file_name(name);
    if !path.is_file() {
        bail!(
            "{} is not there: build it (`cargo build --release -p cardroom-cli -p \
             cardroom-example-bots`) or give its path",
            path.display()
        );
    }
    Ok(path)
}

pub(crate) async fn run(run: &PagesRun) -> anyhow::Result<PagesReport> {
    let dir = tempfile::tempdir()?;
    let store_url = format!("sqlite:{}", dir.path().join("store.sqlite").display());
    let store = cardroom_store::open(&store_url).await?;
    let accounts = Accounts::new(Arc::clone(&store));
    let mut keys = Vec::new();
    for i in 0..run.bots {
        let name = format!("pages-{i:03}");
        let issued = accounts.register(&name).await?;
        keys.push((name, issued.key.expose().to_owned()));
    }
    let ladder = dir.path().join("pages.toml");
    std::fs::write(
        &ladder,
        format!(
            "name = \"pages\"\ngame = \"{}\"\nseats = {}\nseed = 1\nmax_concurrent = 2\n\
             max_matches = 64\n",
            run.game, run.seats
        ),
    )?;
    let (server, grpc, http) = serve(&run.cardroom, &store_url, &ladder, dir.path()).await?;
    let _server = server;
    let mut bots = Vec::new();
    for (name, key) in &keys {
        let child = Command::new(&run.bot)
            .args(["--server", &grpc, "--lobby", name, "--matches", "0", "--concurrency", "2"])
            .env("CARDROOM_KEY", key)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("starting {}", run.bot.display()))?;
        bots.push(Killed(child));
    }
    // The first bot's page, by its name (`pages-000`: nothing to escape).
    let page = format!("/ladders/pages/bots/{}", keys[0].0);
    let mut client = CardroomClient::connect(grpc.clone()).await?;
    tokio::time::sleep(run.warmup).await;
    let mut windows = vec![(false, window(&mut client, run.window, None).await?)];
    for _ in 0..run.rounds.max(1) {
        let load = Some((http.as_str(), page.as_str(), run.clients));
        windows.push((true, window(&mut client, run.window, load).await?));
        windows.push((false, window(&mut client, run.window, None).await?));
    }
    let (mut ratios, mut cpus) = (Vec::new(), Vec::new());
    for at in (1..windows.len()).step_by(2) {
        let (before, loaded, after) = (&windows[at - 1].1, &windows[at].1, &windows[at + 1].1);
        let quiet_rate = (before.matches_per_s + after.matches_per_s) / 2.0;
        let quiet_cpu = (before.server_cpu_s + after.server_cpu_s) / 2.0;
        ratios.push(loaded.matches_per_s / quiet_rate.max(f64::MIN_POSITIVE));
        cpus.push((loaded.server_cpu_s - quiet_cpu).max(0.0) * 1e3 / loaded.pages.max(1) as f64);
    }
    Ok(PagesReport {
        bots: run.bots,
        clients: run.clients,
        page,
        windows,
        match_rate_ratio: crate::load::median(ratios.into_iter()),
        server_cpu_ms_per_page: crate::load::median(cpus.into_iter()),
    })
}

/// `cardroom serve` with its pages, the store and the ladder; its gRPC and pages' URLs.
async fn serve(
    cardroom: &Path,
    store: &str,
    ladder: &Path,
    dir: &Path,
) -> anyhow::Result<(Killed, String, String)> {
    let mut child = Command::new(cardroom)
        .args(["serve", "--addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0", "--store", store])
        .arg("--registered-only")
        .arg("--ladder")
        .arg(ladder)
        .arg("--record-dir")
        .arg(dir.join("records"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .with_context(|| format!("starting {}", cardroom.display()))?;
    let stdout = child.stdout.take().context("the server's stdout")?;
    let mut lines = BufReader::new(stdout).lines();
    let (mut grpc, mut http) = (None, None);
    while grpc.is_none() || http.is_none() {
        let Some(line) = lines.next_line().await? else {
            bail!("the server stopped before it said where it listens");
        };
        if let Some(addr) = line.strip_prefix("cardroom listening on ") {
            grpc = Some(format!("http://{}", addr.trim()));
        } else if let Some(url) = line.strip_prefix("cardroom pages on ") {
            http = Some(url.trim().to_owned());
        }
    }
    // Its later lines are read and dropped, so that a full pipe never stops it.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Ok((Killed(child), grpc.unwrap_or_default(), http.unwrap_or_default()))
}

/// One window of `length`: the server's figures over it and, with `pages` (the pages' URL, a
/// page's path, clients), the page load's.
async fn window(
    client: &mut CardroomClient<tonic::transport::Channel>,
    length: Duration,
    pages: Option<(&str, &str, usize)>,
) -> anyhow::Result<WindowFigures> {
    let stats = |client: &mut CardroomClient<tonic::transport::Channel>| {
        let mut client = client.clone();
        async move {
            let reply = client.get_stats(pb::GetStatsRequest { reset: false }).await?;
            anyhow::Ok(reply.into_inner())
        }
    };
    let before = stats(client).await?;
    let started = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    // The page clients stand for people far away: they run on a thread of their own at the
    // lowest priority (`SCHED_IDLE`, as the server's pages do), so that their own CPU on this
    // machine is not taken from the bots and the server.
    let fetching = match pages {
        Some((base, path, clients)) => {
            let url: http::Uri = format!("{base}{path}").parse()?;
            Some(clients_apart(url, clients, Arc::clone(&stop))?)
        }
        None => None,
    };
    tokio::time::sleep(length).await;
    stop.store(true, Ordering::Relaxed);
    let after = stats(client).await?;
    let seconds = started.elapsed().as_secs_f64();
    let latencies = match fetching {
        Some(fetching) => fetching.await??,
        None => Histogram::<u64>::new(3)?,
    };
    let finished = after.matches_finished.saturating_sub(before.matches_finished);
    Ok(WindowFigures {
        seconds,
        matches_finished: finished,
        matches_per_s: finished as f64 / seconds,
        server_cpu_s: after.cpu_seconds - before.cpu_seconds,
        pages: latencies.len(),
        page_p50_ms: latencies.value_at_quantile(0.5) as f64 / 1e3,
        page_p99_ms: latencies.value_at_quantile(0.99) as f64 / 1e3,
    })
}

/// `clients` clients fetching `url` until `stop`, on a thread at the lowest priority; their
/// pages' times, merged.
fn clients_apart(
    url: http::Uri,
    clients: usize,
    stop: Arc<AtomicBool>,
) -> anyhow::Result<tokio::sync::oneshot::Receiver<anyhow::Result<Histogram<u64>>>> {
    let (done, merged) = tokio::sync::oneshot::channel();
    std::thread::Builder::new().name("page-clients".to_owned()).spawn(move || {
        cardroom_web::lower_priority();
        let fetched = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(anyhow::Error::from);
        let fetched = fetched.and_then(|runtime| {
            runtime.block_on(async move {
                let mut fetchers = tokio::task::JoinSet::new();
                for _ in 0..clients {
                    fetchers.spawn(fetch_until(url.clone(), Arc::clone(&stop)));
                }
                let mut latencies = Histogram::<u64>::new(3)?;
                while let Some(one) = fetchers.join_next().await {
                    latencies.add(one??)?;
                }
                Ok(latencies)
            })
        });
        let _ = done.send(fetched);
    })?;
    Ok(merged)
}

/// Fetches `url` again and again until `stop`; each page's time, in microseconds.
async fn fetch_until(url: http::Uri, stop: Arc<AtomicBool>) -> anyhow::Result<Histogram<u64>> {
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
        .build::<_, http_body_util::Empty<bytes::Bytes>>(connector);
    let mut latencies = Histogram::<u64>::new(3)?;
    while !stop.load(Ordering::Relaxed) {
        let started = Instant::now();
        let response = client.get(url.clone()).await?;
        anyhow::ensure!(response.status().is_success(), "{url}: {}", response.status());
        response.into_body().collect().await?;
        latencies.record(started.elapsed().as_micros().try_into().unwrap_or(u64::MAX))?;
    }
    Ok(latencies)
}
