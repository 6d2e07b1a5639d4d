//! The matches other nodes of a shared store host (hosted ladder matches on many nodes): where
//! each runs, listed beside this server's own (`ListMatches`), and watched through this server
//! (`Watch` streams the hosting node's public view), so that a spectator behind an ordinary load
//! balancer, and the web pages reading this server, reach a match wherever it runs.
//!
//! The store says which node holds each running match's lease and that node's advertised
//! address (its heartbeat). A `Watch` this server passes on carries [`PROXIED_METADATA`], and the
//! node it reaches passes nothing on again: a request crosses at most one node more, even when
//! two nodes' views of the store disagree for a moment.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use cardroom_games::GameKind;
use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_proto::wire;
use cardroom_store::{NodeRow, RunningElsewhere};
use tonic::transport::{Channel, ClientTlsConfig, Endpoint};
use tonic::{Code, Status, Streaming};

use crate::service::NODE_METADATA;

/// The request metadata key of a `Watch` one node passes on to the node hosting the match:
/// the node it reaches answers from its own matches only.
pub const PROXIED_METADATA: &str = "cardroom-proxied";

/// How long connecting to another node may take before a `Watch` through it is UNAVAILABLE.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// The most nodes whose channels are kept; past it the cache starts again (nodes that restart
/// on new addresses would otherwise pile up).
const MAX_PEERS: usize = 64;

/// Channels to the other nodes by advertised address, each made once and shared by every
/// `Watch` through it (a tonic channel multiplexes its calls on one HTTP/2 connection). A std
/// `Mutex`: it is held only to look up or insert, never across an `.await`.
#[derive(Debug, Default)]
pub(crate) struct Peers {
    channels: Mutex<HashMap<String, Channel>>,
}

impl Peers {
    /// The channel to the node at `address` (`http://…` or `https://…`, the system's roots
    /// trusted), connected at its first call.
    fn channel(&self, address: &str) -> Result<Channel, Status> {
        let mut channels = self.channels.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(channel) = channels.get(address) {
            return Ok(channel.clone());
        }
        let unusable = |error: &dyn std::fmt::Display| {
            Status::unavailable(format!("the node address {address:?} is unusable: {error}"))
        };
        let mut endpoint = Endpoint::from_shared(address.to_owned())
            .map_err(|error| unusable(&error))?
            .connect_timeout(CONNECT_TIMEOUT);
        if address.starts_with("https://") {
            endpoint = endpoint
                .tls_config(ClientTlsConfig::new().with_native_roots())
                .map_err(|error| unusable(&error))?;
        }
        let channel = endpoint.connect_lazy();
        if channels.len() >= MAX_PEERS {
            channels.clear();
        }
        channels.insert(address.to_owned(), channel.clone());
        Ok(channel)
    }

    /// The hosting node's `Watch` stream of `match_id`, asked as passed on: what it sends (the
    /// public view only) goes to the spectator as it is, its end and errors included.
    pub(crate) async fn watch(
        &self,
        node: &NodeRow,
        match_id: &str,
    ) -> Result<Streaming<pb::WatchMessage>, Status> {
        let address = &node.beat.advertise;
        let channel = self.channel(address)?;
        let mut request = tonic::Request::new(pb::WatchRequest { match_id: match_id.to_owned() });
        request.metadata_mut().insert(PROXIED_METADATA, tonic::metadata::MetadataValue::from(1));
        match CardroomClient::new(channel).watch(request).await {
            Ok(stream) => Ok(stream.into_inner()),
            Err(status) => {
                let code = match status.code() {
                    // It ended and was forgotten there meanwhile: as if asked there.
                    Code::NotFound => Code::NotFound,
                    _ => Code::Unavailable,
                };
                Err(naming(
                    code,
                    node,
                    format!(
                        "match {match_id} runs on the node at {}, which answered: {}",
                        node_address(node),
                        status.message()
                    ),
                ))
            }
        }
    }
}

/// How a node is named to a spectator: its advertised address, or its lease owner name when it
/// advertises none.
pub(crate) fn node_address(node: &NodeRow) -> &str {
    if node.beat.advertise.is_empty() { &node.beat.owner } else { &node.beat.advertise }
}

/// A status with `message` naming `node` in the `cardroom-node` trailing metadata.
pub(crate) fn naming(code: Code, node: &NodeRow, message: String) -> Status {
    let mut metadata = tonic::metadata::MetadataMap::new();
    if let Ok(value) = node_address(node).parse() {
        metadata.insert(NODE_METADATA, value);
    }
    Status::with_metadata(code, message, metadata)
}

/// A match another node hosts, as `ListMatches` lists it: its bots as seated when it started
/// (every seat taken and connected then: the hosting node tells the live state), with `host`
/// naming that node.
pub(crate) fn summary(running: &RunningElsewhere) -> pb::MatchSummary {
    let game = running.game.parse::<GameKind>().map_or(pb::Game::Unspecified, wire::game_to_pb);
    pb::MatchSummary {
        match_id: running.server_match_id.clone(),
        game: game as i32,
        seats: running
            .bots
            .iter()
            .enumerate()
            .map(|(seat, name)| pb::SeatSummary {
                seat: u32::try_from(seat).unwrap_or(u32::MAX),
                bot_name: name.clone(),
                connected: true,
            })
            .collect(),
        created_ms: running.started_ms,
        ended_ms: 0,
        end: None,
        host: if running.advertise.is_empty() {
            running.owner.clone()
        } else {
            running.advertise.clone()
        },
    }
}
