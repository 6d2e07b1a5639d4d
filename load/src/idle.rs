//! Idle bots: many SDK bots connected at once, each seated in a match whose other seat never
//! comes, so the server holds their streams and matches without a single turn. What it costs
//! is memory, which is what this measures.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_sdk::{ConnectConfig, MatchSpec, Organizer, play_any};
use serde::Serialize;
use tokio::task::JoinSet;

use crate::load::{QuickBot, server_stats};
use crate::pingpong;

/// Creators working at once (CreateMatch calls in flight).
const CREATORS: usize = 32;
/// How long all the bots may take to connect.
const CONNECT_PATIENCE: Duration = Duration::from_secs(300);

/// What idle bots cost the server.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct IdleRun {
    pub(crate) bots: usize,
    pub(crate) seconds_to_connect: f64,
    pub(crate) connections_open: u64,
    pub(crate) matches_running: u64,
    pub(crate) tasks_alive: u64,
    pub(crate) rss_before_bytes: u64,
    pub(crate) rss_bytes: u64,
    pub(crate) peak_rss_bytes: u64,
}

/// Connects `bots` idle bots to the server at `url` and reads its memory once all are in.
pub(crate) async fn idle(url: &str, bots: usize) -> anyhow::Result<IdleRun> {
    let mut stats = CardroomClient::new(pingpong::connect(url).await?);
    let before = server_stats(&mut stats, false).await?;
    let start = Instant::now();
    let mut creators = JoinSet::new();
    for creator in 0..CREATORS {
        let mut organizer = Organizer::new(url)?;
        let url = url.to_owned();
        let count = bots / CREATORS + usize::from(creator < bots % CREATORS);
        creators.spawn(async move {
            let spec = MatchSpec {
                game: crate::gin_load::DEFAULT_GAME,
                options_json: String::new(),
                seats: 2,
                seed: None,
                clock: None,
                lobby_bots: Vec::new(),
            };
            let mut seated = Vec::with_capacity(count);
            for _ in 0..count {
                let created = organizer.create_match(&spec).await?;
                let config = ConnectConfig::with_token(url.clone(), &created.tokens[0]);
                seated.push(tokio::spawn(async move {
                    play_any(&config.named("idle"), |game| QuickBot::any(game, 0)).await
                }));
            }
            anyhow::Ok(seated)
        });
    }
    let mut seated = Vec::with_capacity(bots);
    while let Some(created) = creators.join_next().await {
        seated.extend(created.context("a creator")??);
    }
    // Wait until the server holds every stream (polling: this is a tool, not a test).
    let after = loop {
        let now = server_stats(&mut stats, false).await?;
        if now.connections_open >= bots as u64 {
            break now;
        }
        if start.elapsed() > CONNECT_PATIENCE {
            bail!("only {} of {bots} bots connected in {CONNECT_PATIENCE:?}", now.connections_open);
        }
        if let Some(gone) = seated.iter().position(|bot| bot.is_finished()) {
            let result = seated.swap_remove(gone).await?;
            bail!("an idle bot stopped: {result:?}");
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    let seconds_to_connect = start.elapsed().as_secs_f64();
    for bot in &seated {
        bot.abort();
    }
    Ok(IdleRun {
        bots,
        seconds_to_connect,
        connections_open: after.connections_open,
        matches_running: after.matches_running,
        tasks_alive: after.tasks_alive,
        rss_before_bytes: before.rss_bytes,
        rss_bytes: after.rss_bytes,
        peak_rss_bytes: after.peak_rss_bytes,
    })
}
