//! The matches other nodes of a shared store host (hosted ladder matches on many nodes): where
//! each runs, listed beside this server's own (`ListMatches`), asked about and watched through
//! this server (`GetMatch` and `Watch` pass the hosting node's answer and public view on), and,
//! once over, listed, described and their records read from the store (`ListMatches` of the
//! finished ones, `GetMatch`, `GetRecord`), so that a spectator behind an ordinary load
//! balancer, and the web pages reading this server, reach a match wherever it runs or ran.
//!
//! The store says which node holds each running match's lease and that node's advertised
//! address (its heartbeat), and which node recorded each done match. A request this server
//! passes on carries [`PROXIED_METADATA`], and the node it reaches passes nothing on again: a
//! request crosses at most one node more, even when two nodes' views of the store disagree for
//! a moment. Only public data crosses: a `MatchInfo` and the public view hold nothing hidden,
//! and a record only ever leaves a server once its match is over.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use cardroom_games::{Game, GameKind, GameVisitor};
use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use cardroom_proto::wire;
use cardroom_store::{FinishedElsewhere, NodeRow, RunningElsewhere};
use tonic::metadata::MetadataMap;
use tonic::transport::{Channel, ClientTlsConfig, Endpoint};
use tonic::{Code, Response, Status, Streaming};

use crate::service::NODE_METADATA;

/// The request metadata key of a `GetMatch` or `Watch` one node passes on to the node hosting
/// the match: the node it reaches answers from its own matches (and the store) only.
pub const PROXIED_METADATA: &str = "cardroom-proxied";

/// How long connecting to another node may take before a request through it is UNAVAILABLE.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// How long another node may take to answer a `GetMatch` passed on to it.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(5);

/// Another node of the store, as a request passed on to it names it: its lease owner name and
/// the address it advertises ("" if none).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Peer<'a> {
    pub(crate) owner: &'a str,
    pub(crate) advertise: &'a str,
}

impl<'a> From<&'a NodeRow> for Peer<'a> {
    fn from(node: &'a NodeRow) -> Peer<'a> {
        Peer { owner: &node.beat.owner, advertise: &node.beat.advertise }
    }
}

impl<'a> From<&'a FinishedElsewhere> for Peer<'a> {
    fn from(finished: &'a FinishedElsewhere) -> Peer<'a> {
        Peer { owner: &finished.owner, advertise: &finished.advertise }
    }
}

impl Peer<'_> {
    /// How the node is named to a spectator: its advertised address, or its lease owner name
    /// when it advertises none.
    pub(crate) fn address(&self) -> &str {
        if self.advertise.is_empty() { self.owner } else { self.advertise }
    }

    /// Metadata naming the node (`cardroom-node`).
    pub(crate) fn metadata(&self) -> MetadataMap {
        let mut metadata = MetadataMap::new();
        if let Ok(value) = self.address().parse() {
            metadata.insert(NODE_METADATA, value);
        }
        metadata
    }
}

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
    pub(crate) fn channel(&self, address: &str) -> Result<Channel, Status> {
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

    /// A request for `match_id` passed on to `peer`: marked so that it goes no further.
    fn passed_on<T>(message: T) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        request.metadata_mut().insert(PROXIED_METADATA, tonic::metadata::MetadataValue::from(1));
        request
    }

    /// The status a spectator gets when `peer` refused or could not take a request for
    /// `match_id`: NOT_FOUND when it no longer knows the match (it ended and was forgotten
    /// there meanwhile: as if asked there), else UNAVAILABLE; both naming the node.
    fn refused(peer: Peer<'_>, match_id: &str, status: &Status) -> Status {
        let code = match status.code() {
            Code::NotFound => Code::NotFound,
            _ => Code::Unavailable,
        };
        let message = format!(
            "match {match_id} runs on the node at {}, which answered: {}",
            peer.address(),
            status.message()
        );
        naming(code, peer, message)
    }

    /// The hosting node's `Watch` stream of `match_id`, asked as passed on: what it sends (the
    /// public view only) goes to the spectator as it is, its end and errors included.
    pub(crate) async fn watch(
        &self,
        peer: Peer<'_>,
        match_id: &str,
    ) -> Result<Streaming<pb::WatchMessage>, Status> {
        let channel = self.channel(peer.advertise)?;
        let request = Self::passed_on(pb::WatchRequest { match_id: match_id.to_owned() });
        match CardroomClient::new(channel).watch(request).await {
            Ok(stream) => Ok(stream.into_inner()),
            Err(status) => Err(Self::refused(peer, match_id, &status)),
        }
    }

    /// The hosting node's `GetMatch` answer for `match_id`, asked as passed on, as it is (a
    /// `MatchInfo` holds nothing hidden), with `cardroom-node` metadata naming the node.
    pub(crate) async fn get_match(
        &self,
        peer: Peer<'_>,
        match_id: &str,
    ) -> Result<Response<pb::MatchInfo>, Status> {
        let channel = self.channel(peer.advertise)?;
        let mut request = Self::passed_on(pb::GetMatchRequest { match_id: match_id.to_owned() });
        request.set_timeout(ANSWER_TIMEOUT);
        match CardroomClient::new(channel).get_match(request).await {
            Ok(answer) => {
                Ok(Response::from_parts(peer.metadata(), answer.into_inner(), Default::default()))
            }
            Err(status) => Err(Self::refused(peer, match_id, &status)),
        }
    }
}

/// A status with `message` naming `peer` in the `cardroom-node` trailing metadata.
pub(crate) fn naming(code: Code, peer: Peer<'_>, message: String) -> Status {
    Status::with_metadata(code, message, peer.metadata())
}

/// A match another node hosts, as `ListMatches` lists it: its bots as seated when it started
/// (every seat taken and connected then: the hosting node tells the live state), with `host`
/// naming that node.
pub(crate) fn summary(running: &RunningElsewhere) -> pb::MatchSummary {
    pb::MatchSummary {
        match_id: running.server_match_id.clone(),
        game: game_of(&running.game) as i32,
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
        host: Peer { owner: &running.owner, advertise: &running.advertise }.address().to_owned(),
    }
}

/// A done ladder match another node recorded, as `ListMatches` lists the finished ones: its
/// bots and result from the store, with `host` naming the node that played it.
pub(crate) fn finished_summary(finished: &FinishedElsewhere) -> pb::MatchSummary {
    pb::MatchSummary {
        match_id: finished.server_match_id.clone(),
        game: game_of(&finished.game) as i32,
        seats: finished
            .seats
            .iter()
            .enumerate()
            .map(|(seat, stored)| pb::SeatSummary {
                seat: u32::try_from(seat).unwrap_or(u32::MAX),
                bot_name: stored.bot.clone(),
                connected: false,
            })
            .collect(),
        created_ms: finished.started_ms,
        ended_ms: finished.finished_ms,
        end: Some(stored_end(finished)),
        host: Peer::from(finished).address().to_owned(),
    }
}

/// A done ladder match's status as the store has it (`GetMatch` when the node that played it
/// no longer has it, or is gone): its options, its bots and its result. What only the
/// hosting node counted (strikes, refused actions, think times) is not stored and reads 0.
pub(crate) fn stored_info(finished: &FinishedElsewhere) -> pb::MatchInfo {
    let game = finished.game.parse::<GameKind>().ok();
    let options_json = game
        .and_then(|kind| kind.visit(EveryOption(&finished.options_json)))
        .unwrap_or_else(|| finished.options_json.clone());
    pb::MatchInfo {
        match_id: finished.server_match_id.clone(),
        game: game_of(&finished.game) as i32,
        options_json,
        seats: finished
            .seats
            .iter()
            .enumerate()
            .map(|(seat, stored)| pb::SeatInfo {
                seat: u32::try_from(seat).unwrap_or(u32::MAX),
                bot_name: stored.bot.clone(),
                connected: false,
                strikes: 0,
                forfeited: stored.forfeited,
                refused: 0,
                think_us: Vec::new(),
            })
            .collect(),
        over: true,
        end: Some(stored_end(finished)),
    }
}

/// A done match's end from its stored places: first place first (then by seat), as a hosting
/// node's `MatchEnd` lists them. Done matches were played to their end (an aborted one is
/// played again, never stored as done).
fn stored_end(finished: &FinishedElsewhere) -> pb::MatchEnd {
    let mut standings: Vec<pb::Standing> = finished
        .seats
        .iter()
        .enumerate()
        .map(|(seat, stored)| pb::Standing {
            seat: u32::try_from(seat).unwrap_or(u32::MAX),
            place: u32::from(stored.place),
            forfeited: stored.forfeited,
        })
        .collect();
    standings.sort_by_key(|standing| (standing.place, standing.seat));
    let reason = if finished.seats.iter().any(|seat| seat.forfeited) {
        "a seat forfeited"
    } else {
        "the match is over"
    };
    pb::MatchEnd { standings, aborted: false, reason: reason.to_owned() }
}

/// A ladder's game, by its catalogue name, on the wire.
fn game_of(name: &str) -> pb::Game {
    name.parse::<GameKind>().map_or(pb::Game::Unspecified, wire::game_to_pb)
}

/// A ladder's options (as its file gave them) with every field, as a hosting node's
/// `MatchInfo.options_json` has them; `None` if they do not read as the game's options.
struct EveryOption<'a>(&'a str);

impl GameVisitor for EveryOption<'_> {
    type Output = Option<String>;

    fn visit<G: Game>(self) -> Option<String> {
        let options: G::Options = serde_json::from_str(self.0).ok()?;
        serde_json::to_string(&options).ok()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use cardroom_store::{FinishedSeat, LadderMatchId};

    use super::*;

    fn finished(seats: [(&str, u8, bool); 3], advertise: &str) -> FinishedElsewhere {
        FinishedElsewhere {
            id: LadderMatchId(7),
            server_match_id: "c0ffee".into(),
            game: "gin".into(),
            options_json: r#"{"target": 10}"#.into(),
            seats: seats
                .iter()
                .map(|&(bot, place, forfeited)| FinishedSeat { bot: bot.into(), place, forfeited })
                .collect(),
            started_ms: 1_000,
            finished_ms: 2_000,
            owner: "run-1".into(),
            advertise: advertise.into(),
            seen_ms: None,
        }
    }

    #[test]
    fn a_stored_match_reads_as_a_hosting_node_tells_it() {
        let stored = finished([("a", 2, false), ("b", 1, false), ("c", 2, false)], "");
        let info = stored_info(&stored);
        assert_eq!((info.match_id.as_str(), info.over), ("c0ffee", true));
        assert_eq!(info.game, pb::Game::GinRummy as i32);
        // The ladder's options with every field, as a match's status has them.
        let options: serde_json::Value = serde_json::from_str(&info.options_json).unwrap();
        let every: serde_json::Value =
            serde_json::to_value(cardroom_games::gin::Options { target: 10, ..Default::default() })
                .unwrap();
        assert_eq!(options, every);
        let names: Vec<&str> = info.seats.iter().map(|s| s.bot_name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        // First place first, ties by seat.
        let end = info.end.unwrap();
        let order: Vec<(u32, u32)> = end.standings.iter().map(|s| (s.seat, s.place)).collect();
        assert_eq!(order, [(1, 1), (0, 2), (2, 2)]);
        assert_eq!((end.aborted, end.reason.as_str()), (false, "the match is over"));

        let summary = finished_summary(&stored);
        assert_eq!((summary.created_ms, summary.ended_ms), (1_000, 2_000));
        // Named by its lease owner name when it advertises no address.
        assert_eq!(summary.host, "run-1");
        let advertised = finished([("a", 1, false), ("b", 2, true), ("c", 2, false)], "http://n:1");
        assert_eq!(finished_summary(&advertised).host, "http://n:1");
        let end = stored_info(&advertised).end.unwrap();
        assert_eq!(end.reason, "a seat forfeited");
        assert!(end.standings.iter().any(|s| s.seat == 1 && s.forfeited));
    }
}
