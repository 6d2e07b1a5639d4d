//! [`ServerSource`]: a running cardroom server as the pages see it, over its own public rpcs:
//! `GetStats`, `ListMatches`, `GetMatch`, `GetRecord` and `Watch` (the spectators' stream,
//! which carries only the public view). It holds no ladder: the ladders are the store's
//! ([`StoreSource`](crate::StoreSource)).

use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use futures::StreamExt as _;
use futures::stream::BoxStream;
use tonic::transport::Channel;
use tonic::{Code, Request, Status};

use crate::source::{
    BotPage, Failures, FinishedMatch, LadderInfo, Leaderboard, ListedMatch, ListedSeat, LiveMatch,
    LiveSeat, MatchList, MatchState, PageRequest, ServerStats, Source, SourceError, WatchEvent,
    WatchUpdate,
};

/// A client of one server: its running matches, its figures and the records it keeps.
#[derive(Clone, Debug)]
pub struct ServerSource {
    client: CardroomClient<Channel>,
    /// The admin token, sent with `GetStats` only (a server with a token keeps its figures to
    /// its operator).
    admin_token: Option<String>,
}

fn server_error(status: &Status) -> SourceError {
    SourceError::Server(format!("{:?}: {}", status.code(), status.message()))
}

impl ServerSource {
    /// The server on `channel` (a lazy channel is fine: the pages connect when first asked).
    /// `admin_token`, if the server has one, is sent with `GetStats` only.
    pub fn new(channel: Channel, admin_token: Option<String>) -> ServerSource {
        ServerSource { client: CardroomClient::new(channel), admin_token }
    }

    /// `GetMatch`; `None` for a match the server does not know.
    async fn info(&self, id: &str) -> Result<Option<pb::MatchInfo>, SourceError> {
        Ok(self.info_and_host(id).await?.map(|(info, _)| info))
    }

    /// `GetMatch`, with the node that answered when it is not the server asked (another node
    /// of its store, named in the answer's `cardroom-node` metadata); `None` for a match the
    /// server does not know.
    async fn info_and_host(
        &self,
        id: &str,
    ) -> Result<Option<(pb::MatchInfo, Option<String>)>, SourceError> {
        let request = pb::GetMatchRequest { match_id: id.to_owned() };
        match self.client.clone().get_match(request).await {
            Ok(answer) => {
                let host = answer
                    .metadata()
                    .get(cardroom_server::NODE_METADATA)
                    .and_then(|value| value.to_str().ok())
                    .filter(|host| !host.is_empty())
                    .map(str::to_owned);
                Ok(Some((answer.into_inner(), host)))
            }
            Err(status) if status.code() == Code::NotFound => Ok(None),
            Err(status) => Err(server_error(&status)),
        }
    }
}

/// A server alone has no ladder: its ladder pages are 404s. Its matches are the rpcs'.
impl Source for ServerSource {
    async fn ladders(&self) -> Result<Vec<LadderInfo>, SourceError> {
        Ok(Vec::new())
    }

    async fn leaderboard(&self, _ladder: &str) -> Result<Option<Leaderboard>, SourceError> {
        Ok(None)
    }

    async fn ladder_revision(&self, _ladder: &str) -> Result<Option<u64>, SourceError> {
        Ok(None)
    }

    async fn bot(
        &self,
        _ladder: &str,
        _name: &str,
        _matches: PageRequest,
    ) -> Result<Option<BotPage>, SourceError> {
        Ok(None)
    }

    async fn failures(
        &self,
        _ladder: &str,
        _name: &str,
        _key: &str,
    ) -> Result<Failures, SourceError> {
        // No bot here, so no key is a bot's (the page asks only after finding the bot).
        Ok(Failures::WrongKey)
    }

    async fn ladder_match(
        &self,
        _ladder: &str,
        _id: &str,
    ) -> Result<Option<FinishedMatch>, SourceError> {
        Ok(None)
    }

    async fn server_stats(&self) -> Result<ServerStats, SourceError> {
        let mut request = Request::new(pb::GetStatsRequest { reset: false });
        if let Some(token) = &self.admin_token {
            let value = format!("Bearer {token}")
                .parse()
                .map_err(|_| SourceError::Server("the admin token is not a header value".into()))?;
            request.metadata_mut().insert("authorization", value);
        }
        let stats = self
            .client
            .clone()
            .get_stats(request)
            .await
            .map_err(|s| server_error(&s))?
            .into_inner();
        let latency = stats.decision_round_trip.unwrap_or_default();
        Ok(ServerStats {
            uptime_ms: stats.uptime_ms,
            matches_running: stats.matches_running,
            matches_finished: stats.matches_finished,
            connections_open: stats.connections_open,
            decisions: stats.decisions,
            decision_p50_us: latency.p50_us,
            decision_p99_us: latency.p99_us,
        })
    }

    async fn server_matches(
        &self,
        state: MatchState,
        before: Option<&str>,
        limit: u64,
    ) -> Result<MatchList, SourceError> {
        let request = pb::ListMatchesRequest {
            state: match state {
                MatchState::Running => pb::MatchState::Running,
                MatchState::Finished => pb::MatchState::Finished,
            } as i32,
            page_size: u32::try_from(limit).unwrap_or(u32::MAX),
            page_token: before.unwrap_or_default().to_owned(),
        };
        let page = match self.client.clone().list_matches(request).await {
            Ok(page) => page.into_inner(),
            Err(status) if status.code() == Code::InvalidArgument && before.is_some() => {
                return Err(SourceError::BadCursor(status.message().to_owned()));
            }
            Err(status) => return Err(server_error(&status)),
        };
        let matches = page
            .matches
            .into_iter()
            .map(|m| {
                let places: Vec<(u32, u8)> = m
                    .end
                    .iter()
                    .flat_map(|end| end.standings.iter())
                    .map(|s| (s.seat, u8::try_from(s.place).unwrap_or(u8::MAX)))
                    .collect();
                ListedMatch {
                    game: cardroom_proto::wire::game_from_pb(m.game)
                        .map_or("?", |game| game.title())
                        .to_owned(),
                    seats: m
                        .seats
                        .into_iter()
                        .map(|s| ListedSeat {
                            place: places.iter().find(|(seat, _)| *seat == s.seat).map(|p| p.1),
                            name: s.bot_name,
                            connected: s.connected,
                        })
                        .collect(),
                    created_ms: m.created_ms,
                    end: m.end.as_ref().map(describe_end),
                    host: (!m.host.is_empty()).then_some(m.host),
                    id: m.match_id,
                }
            })
            .collect();
        Ok(MatchList {
            matches,
            next: (!page.next_page_token.is_empty()).then_some(page.next_page_token),
        })
    }

    async fn live_match(&self, id: &str) -> Result<Option<LiveMatch>, SourceError> {
        Ok(self.info_and_host(id).await?.map(|(info, host)| LiveMatch {
            id: info.match_id,
            game: cardroom_proto::wire::game_from_pb(info.game)
                .map_or("?", |game| game.title())
                .to_owned(),
            kind: cardroom_proto::wire::game_from_pb(info.game),
            seats: info
                .seats
                .into_iter()
                .map(|s| LiveSeat { name: s.bot_name, connected: s.connected, strikes: s.strikes })
                .collect(),
            over: info.over,
            host,
        }))
    }

    async fn server_match(&self, id: &str) -> Result<Option<FinishedMatch>, SourceError> {
        // A match the server has forgotten (`keep_finished`) may still have its record on disk.
        let info = self.info(id).await?;
        if info.as_ref().is_some_and(|info| !info.over) {
            return Ok(None);
        }
        let request = pb::GetRecordRequest { match_id: id.to_owned() };
        let record_json = match self.client.clone().get_record(request).await {
            Ok(record) => Some(record.into_inner().record_json),
            Err(status) if matches!(status.code(), Code::NotFound | Code::FailedPrecondition) => {
                None
            }
            Err(status) => return Err(server_error(&status)),
        };
        if info.is_none() && record_json.is_none() {
            return Ok(None);
        }
        Ok(Some(FinishedMatch {
            id: id.to_owned(),
            ladder: None,
            seats: info
                .map(|info| info.seats.into_iter().map(|s| (None, s.bot_name)).collect())
                .unwrap_or_default(),
            finished_at: None,
            record_json,
        }))
    }

    async fn watch(
        &self,
        id: &str,
    ) -> Result<BoxStream<'static, Result<WatchUpdate, SourceError>>, SourceError> {
        let request = pb::WatchRequest { match_id: id.to_owned() };
        let stream =
            self.client.clone().watch(request).await.map_err(|s| server_error(&s))?.into_inner();
        Ok(stream
            .map(|message| {
                let message = message.map_err(|s| server_error(&s))?;
                Ok(WatchUpdate {
                    events: message
                        .events
                        .into_iter()
                        .map(|e| WatchEvent { text: e.text, json: e.json })
                        .collect(),
                    public_json: (!message.public_json.is_empty()).then_some(message.public_json),
                    end: message.end.map(|end| describe_end(&end)),
                })
            })
            .boxed())
    }
}

/// A match's end in words: each seat's place, or why it was aborted.
fn describe_end(end: &pb::MatchEnd) -> String {
    if end.aborted {
        return format!("aborted: {}", end.reason);
    }
    let places: Vec<String> = end
        .standings
        .iter()
        .map(|s| {
            let forfeit = if s.forfeited { " (forfeited)" } else { "" };
            format!("seat {} place {}{forfeit}", s.seat, s.place)
        })
        .collect();
    format!("over: {}", places.join(", "))
}
