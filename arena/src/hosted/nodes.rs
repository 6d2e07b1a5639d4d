//! This node among the others on a shared store (PostgreSQL): its heartbeat, and what it
//! learns from the others'.
//!
//! Every node writes a heartbeat to the store's `nodes` table every [`BEAT`] (and soon after a
//! bot arrives in its lobby): its lease owner name, the address it advertises, the bots
//! waiting in its lobby and its secret (which the others present to borrow a bot). A ladder's
//! scheduler reads the live nodes' lobbies as one pool (`pool.rs`), and takes a
//! node not seen for [`NODE_TTL`] as dead: the matches it was running return to planned
//! (`Requeue::OwnerGone`) without waiting for their leases to run out. The same heartbeat
//! picks up the ladders created, paused, resumed or closed through another node.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, Weak};
use std::time::Duration;

use cardroom_store::{LadderStatus, NODE_TTL, NodeBeat};
use tracing::warn;

use super::{HostedLadders, Shared, now_ms};

/// How often a node writes its heartbeat when nothing else prompts it.
pub(super) const BEAT: Duration = Duration::from_millis(500);

/// The shortest gap between two heartbeats (a burst of arrivals writes one).
const BEAT_GAP: Duration = Duration::from_millis(50);

/// How often a node reads the store's ladders, to run one created or changed on another node.
const LADDER_LOOK: Duration = Duration::from_secs(1);

/// A lobby as a heartbeat carries it, by name.
pub(super) fn lobby_beat(lobby: &HashMap<String, usize>) -> Vec<(String, u32)> {
    let mut lobby: Vec<(String, u32)> = lobby
        .iter()
        .map(|(name, &waiting)| (name.clone(), u32::try_from(waiting).unwrap_or(u32::MAX)))
        .collect();
    lobby.sort();
    lobby
}

/// The oldest heartbeat of a node still taken as alive, now.
pub(super) fn alive_since_ms() -> i64 {
    now_ms() - NODE_TTL.as_millis() as i64
}

/// Writes this node's heartbeat.
pub(super) async fn beat_once(shared: &Shared) {
    let beat = NodeBeat {
        owner: shared.run_id.clone(),
        advertise: shared.advertise.clone(),
        lobby: lobby_beat(&shared.host.lobby()),
        secret: shared.host.node_secret().to_owned(),
    };
    if let Err(error) = super::timed!(shared, beat_node(&beat, now_ms())).await {
        warn!(cause = %error, "the node's heartbeat was not stored");
    }
}

/// Writes this node's heartbeat every [`BEAT`] and after lobby arrivals, and follows the
/// store's ladders every [`LADDER_LOOK`], for as long as the ladders exist.
pub(super) async fn heartbeat(shared: Weak<Shared>) {
    let Some(mut arrivals) = shared.upgrade().map(|s| s.host.lobby_arrivals()) else { return };
    let mut every = tokio::time::interval(BEAT);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut ladders_read = tokio::time::Instant::now();
    loop {
        tokio::select! {
            _ = every.tick() => {}
            changed = arrivals.changed() => {
                if changed.is_err() {
                    return;
                }
                tokio::time::sleep(BEAT_GAP).await;
            }
        }
        let Some(shared) = shared.upgrade() else { return };
        beat_once(&shared).await;
        if ladders_read.elapsed() >= LADDER_LOOK {
            ladders_read = tokio::time::Instant::now();
            follow_ladders(shared).await;
        }
    }
}

/// Starts the store's ladders this node does not run yet, and tells the ones it runs of a
/// status or a file set through another node.
async fn follow_ladders(shared: Arc<Shared>) {
    let ladders = match shared.store.ladders().await {
        Ok(ladders) => ladders,
        Err(error) => {
            warn!(cause = %error, "the ladders could not be read");
            return;
        }
    };
    let hosted = HostedLadders { shared };
    for ladder in ladders {
        // A file another node changed: the task reads it when woken.
        let seen = hosted
            .shared
            .files
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(ladder.spec.name.clone(), ladder.spec.config.clone());
        let new_file = seen.is_some_and(|seen| seen != ladder.spec.config);
        let running = hosted.ladders().get(&ladder.spec.name).map(|status| {
            status.send_if_modified(|seen| {
                let changed = *seen != ladder.status || new_file;
                *seen = ladder.status;
                changed
            })
        });
        if running.is_none() && ladder.status != LadderStatus::Closed {
            let name = ladder.spec.name.clone();
            if let Err(error) = hosted.run(ladder).await {
                warn!(ladder = %name, cause = %error, "the ladder could not be started");
            }
        }
    }
}
