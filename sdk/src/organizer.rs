//! [`Organizer`]: the other side of a match, for arenas and tournament tools: create a match
//! (with an explicit seed, for duplicate deals), wait for its end, read its seats' strikes and
//! its record. Bots never need it; they get their seat token from whoever organized the match.

use cardroom_games::{Seat, Standing};
use cardroom_proto::pb;
use cardroom_proto::pb::cardroom_client::CardroomClient;
use tonic::transport::Channel;

use crate::bot::{Clock, GameKind};
use crate::runner::RunError;
use crate::tls::{self, TlsOptions};

/// A match to create.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchSpec {
    /// The game.
    pub game: GameKind,
    /// Rule-set options as a JSON object; empty for the defaults.
    pub options_json: String,
    /// Seats at the table.
    pub seats: u32,
    /// The deal's seed (the same seed deals the same cards to the same seats); random when
    /// `None`.
    pub seed: Option<u64>,
    /// The clock; the server's defaults when `None`.
    pub clock: Option<Clock>,
    /// Per seat (or empty): the lobby name of the remote bot that takes the seat, or "" for a
    /// seat whose token the organizer hands out. Every bot named must be waiting in the
    /// server's lobby ([`crate::JoinBy::Lobby`]).
    pub lobby_bots: Vec<String>,
}

/// A created match: its id and one seat token per seat, in seat order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreatedMatch {
    /// The match's id.
    pub match_id: String,
    /// `tokens[seat]` is that seat's token.
    pub tokens: Vec<String>,
}

/// One seat's state on the server.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatStatus {
    /// Strikes counted (timeouts, disconnections at its turn).
    pub strikes: u32,
    /// Whether the seat forfeited.
    pub forfeited: bool,
    /// Its actions the server refused as illegal or malformed.
    pub refused: u32,
    /// Its bot's time for each decision, in microseconds, as the server saw it.
    pub think_us: Vec<u32>,
}

/// A match's state on the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchStatus {
    /// True once the match has ended (finished or aborted).
    pub over: bool,
    /// True when it was aborted (the server shut down).
    pub aborted: bool,
    /// The final standings once over, first place first.
    pub standings: Vec<Standing>,
    /// Per seat, in seat order.
    pub seats: Vec<SeatStatus>,
}

/// A client for organizing matches on one server. Cheap to clone (the channel is shared).
#[derive(Clone, Debug)]
pub struct Organizer {
    client: CardroomClient<Channel>,
    /// Sent as `authorization: Bearer …` with `CreateMatch`, for servers that need it.
    admin_token: Option<tonic::metadata::AsciiMetadataValue>,
}

impl Organizer {
    /// A client for `server` (`host:port` or a URL; `https://` checks the server's certificate
    /// against the system's roots); it connects on first use.
    pub fn new(server: &str) -> Result<Organizer, RunError> {
        Organizer::with_tls(server, &TlsOptions::default())
    }

    /// A client for `server` whose `https://` certificate is checked as `tls` says (a CA file,
    /// a server name); it connects on first use.
    pub fn with_tls(server: &str, tls: &TlsOptions) -> Result<Organizer, RunError> {
        let endpoint = tls::endpoint(server, tls)?;
        Ok(Organizer { client: CardroomClient::new(endpoint.connect_lazy()), admin_token: None })
    }

    /// The same organizer, sending `token` as the server's admin token with `CreateMatch`.
    pub fn with_admin_token(mut self, token: &str) -> Result<Organizer, RunError> {
        let value = format!("Bearer {token}")
            .parse()
            .map_err(|_| RunError::Protocol("an admin token must be printable ASCII".into()))?;
        self.admin_token = Some(value);
        Ok(self)
    }

    /// Creates a match (`CreateMatch`).
    pub async fn create_match(&mut self, spec: &MatchSpec) -> Result<CreatedMatch, RunError> {
        let request = pb::CreateMatchRequest {
            game: cardroom_proto::wire::game_to_pb(spec.game) as i32,
            options_json: spec.options_json.clone(),
            seats: spec.seats,
            seed: spec.seed,
            clock: spec.clock.map(|c| pb::Clock {
                move_ms: c.move_ms,
                bank_ms: c.bank_ms,
                max_bad_replies: 0,
            }),
            lobby_bots: spec.lobby_bots.clone(),
        };
        let mut request = tonic::Request::new(request);
        if let Some(token) = &self.admin_token {
            request.metadata_mut().insert("authorization", token.clone());
        }
        let response = self.client.create_match(request).await.map_err(rejected)?.into_inner();
        let mut seats = response.seats;
        seats.sort_by_key(|s| s.seat);
        if seats.iter().enumerate().any(|(i, s)| s.seat as usize != i) {
            return Err(RunError::Protocol("CreateMatch skipped a seat".into()));
        }
        Ok(CreatedMatch {
            match_id: response.match_id,
            tokens: seats.into_iter().map(|s| s.token).collect(),
        })
    }

    /// Watches the match (`Watch`) until it ends; returns when the server says it is over or
    /// the stream closes.
    pub async fn wait_end(&mut self, match_id: &str) -> Result<(), RunError> {
        let request = pb::WatchRequest { match_id: match_id.to_owned() };
        let mut stream = self.client.watch(request).await.map_err(rejected)?.into_inner();
        while let Some(message) = stream.message().await.map_err(rejected)? {
            if message.end.is_some() {
                break;
            }
        }
        Ok(())
    }

    /// The match's state (`GetMatch`).
    pub async fn status(&mut self, match_id: &str) -> Result<MatchStatus, RunError> {
        let request = pb::GetMatchRequest { match_id: match_id.to_owned() };
        let info = self.client.get_match(request).await.map_err(rejected)?.into_inner();
        let mut standings = Vec::new();
        let mut aborted = false;
        if let Some(end) = &info.end {
            aborted = end.aborted;
            for s in &end.standings {
                let seat = u8::try_from(s.seat)
                    .map_err(|_| RunError::Protocol(format!("seat {}", s.seat)))?;
                let place = u8::try_from(s.place)
                    .map_err(|_| RunError::Protocol(format!("place {}", s.place)))?;
                standings.push(Standing { place, seat: Seat(seat) });
            }
        }
        let mut seats = info.seats;
        seats.sort_by_key(|s| s.seat);
        Ok(MatchStatus {
            over: info.over,
            aborted,
            standings,
            seats: seats
                .iter()
                .map(|s| SeatStatus {
                    strikes: s.strikes,
                    forfeited: s.forfeited,
                    refused: s.refused,
                    think_us: s.think_us.clone(),
                })
                .collect(),
        })
    }

    /// The finished match's record (`GetRecord`): the JSON that `cardroom replay` reads.
    pub async fn record(&mut self, match_id: &str) -> Result<String, RunError> {
        let request = pb::GetRecordRequest { match_id: match_id.to_owned() };
        let response = self.client.get_record(request).await.map_err(rejected)?.into_inner();
        Ok(response.record_json)
    }
}

fn rejected(status: tonic::Status) -> RunError {
    match tls::refused_certificate(&status) {
        Some(cause) => RunError::Untrusted { cause },
        None => RunError::Rejected(Box::new(status)),
    }
}
