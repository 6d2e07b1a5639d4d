//! [`TextSeat`]: a seat played in the text form (docs/protocol.md, "The text form") by
//! someone who is not a program of this SDK: a language model behind `cardroom mcp`, a person
//! behind a page. It holds the seat's `Play` stream, hands out each turn's text and JSON, and
//! sends each reply as `Act.reply` for the server to read: the server answers a reply it
//! cannot read with the reason, and forfeits the seat after the ladder's number of them in one
//! turn (`Clock.max_bad_replies`). A lost connection is reopened with the seat's token, as the
//! runner does.

use tonic::client::Grpc;
use tonic::transport::Channel;
use tracing::{info, warn};

use cardroom_proto::frame::Incoming;
use cardroom_proto::pb;
use cardroom_proto::wire::game_from_pb;
use prost::Message;

use crate::bot::{ActError, ActErrorCode, MatchEnd, MatchStart};
use crate::config::ConnectConfig;
use crate::runner::{Link, Opened, RunError, commented_act, join_as, match_end, match_start};
use crate::runner::{open_with_backoff, rejoin, retryable, send};

/// What a text seat leaves out of its `Turn`s: the typed view and the listed legal actions (the
/// text numbers them, the JSON lists them) and the events (the text tells what happened).
pub const TEXT_OMIT: pb::Omit = pb::Omit {
    typed: true,
    json: false,
    events: true,
    legal_actions: true,
    cards: false,
    known_cards: false,
};

/// What [`TextSeat::join_live`] leaves out: as [`TEXT_OMIT`], but the events come, each with
/// the seat's observation after it.
const LIVE_OMIT: pb::Omit = pb::Omit { events: false, ..TEXT_OMIT };

/// A turn of a text seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextTurn {
    /// `Turn.turn`: the turn a reply answers.
    pub turn: u64,
    /// The turn in the text form: the table as the seat sees it, what happened since its last
    /// turn, and the legal actions numbered from 1 in their own words.
    pub text: String,
    /// The seat's observation in the engine's JSON form (with its legal actions).
    pub json: String,
    /// Time for this decision before the bank is used, in milliseconds.
    pub move_ms: u32,
    /// The seat's bank, in milliseconds.
    pub bank_ms: u32,
}

/// A move at the table, for a seat joined with [`TextSeat::join_live`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextMoved {
    /// The public events, each in the engine's JSON form (`Event.json`); none when the seat
    /// was taken back after a lost connection.
    pub events_json: Vec<String>,
    /// The same events as sentences.
    pub events_text: Vec<String>,
    /// The seat's observation after them, in the engine's JSON form.
    pub json: String,
}

/// What happened at a text seat since it last looked.
#[derive(Clone, Debug, PartialEq)]
pub enum TextUpdate {
    /// The seat is to act.
    Turn(TextTurn),
    /// The server refused a reply (unreadable, illegal, too late) or reported a timeout or the
    /// forfeit: the turn stays open unless the match moved on.
    Refused(ActError),
    /// The match is over.
    Ended(MatchEnd),
    /// Someone moved (only for a seat joined with [`TextSeat::join_live`]), or the seat was
    /// taken back after a lost connection and this is its observation now.
    Moved(TextMoved),
}

/// One match's seat, played in the text form: it hands out each turn's text and JSON and sends
/// each reply as `Act.reply`, which the server reads (and refuses with the reason, forfeiting
/// the seat after the ladder's `max_bad_replies` in one turn).
pub struct TextSeat {
    config: ConnectConfig,
    client: Grpc<Channel>,
    link: Link,
    rejoin: pb::Join,
    start: MatchStart,
    joined: Box<pb::Joined>,
    omit: pb::Omit,
    reconnects: u32,
}

impl TextSeat {
    /// Takes the seat `config` names (a seat token, the queue, or the lobby, where it waits
    /// until an organizer or a ladder seats it), asking for the text form.
    pub async fn join(config: &ConnectConfig) -> Result<TextSeat, RunError> {
        TextSeat::open(config, TEXT_OMIT).await
    }

    /// As [`TextSeat::join`], and every move at the table comes as [`TextUpdate::Moved`] with
    /// the seat's observation after it: for a page that redraws the seat's table as the
    /// others play.
    pub async fn join_live(config: &ConnectConfig) -> Result<TextSeat, RunError> {
        TextSeat::open(config, LIVE_OMIT).await
    }

    async fn open(config: &ConnectConfig, omit: pb::Omit) -> Result<TextSeat, RunError> {
        let (client, link, joined) = join_as(config, omit, true).await?;
        let game = game_from_pb(joined.game).ok_or_else(|| {
            RunError::Protocol(format!("Joined.game {} is no game this SDK knows", joined.game))
        })?;
        let start = match_start(&joined, game)?;
        let rejoin = rejoin(&joined, config, omit, true);
        let config = config.clone();
        Ok(TextSeat { config, client, link, rejoin, start, joined, omit, reconnects: 0 })
    }

    /// The match: its id, game, seat, table size, options and clock.
    pub fn start(&self) -> &MatchStart {
        &self.start
    }

    /// The server's `Joined`, as it came.
    pub fn joined(&self) -> &pb::Joined {
        &self.joined
    }

    /// How often the connection was lost and the seat taken back.
    pub fn reconnects(&self) -> u32 {
        self.reconnects
    }

    /// Waits for the next thing the seat must know: its turn, a refusal, the end, and for a
    /// live seat each move. Reconnects with the seat's token when the connection is lost.
    pub async fn next(&mut self) -> Result<TextUpdate, RunError> {
        loop {
            let lost = match self.link.rx.message().await {
                Ok(Some(Incoming::Turn(turn))) => {
                    let json = turn
                        .observation
                        .and_then(|bytes| pb::Observation::decode(bytes).ok())
                        .map(|observation| observation.json)
                        .unwrap_or_default();
                    return Ok(TextUpdate::Turn(TextTurn {
                        turn: turn.turn,
                        text: turn.text,
                        json,
                        move_ms: turn.move_ms,
                        bank_ms: turn.bank_ms,
                    }));
                }
                Ok(Some(Incoming::Message(message))) => match message.message {
                    Some(pb::server_message::Message::Events(events)) if !self.omit.events => {
                        let json = events.observation.map(|o| o.json).unwrap_or_default();
                        let (events_json, events_text) =
                            events.events.into_iter().map(|e| (e.json, e.text)).unzip();
                        return Ok(TextUpdate::Moved(TextMoved { events_json, events_text, json }));
                    }
                    Some(pb::server_message::Message::Error(error)) => {
                        let error = ActError {
                            turn: error.turn,
                            code: ActErrorCode::from_pb(error.code),
                            rule: error.rule,
                            message: error.message,
                        };
                        warn!(turn = error.turn, code = %error.code, message = %error.message, "reply refused");
                        return Ok(TextUpdate::Refused(error));
                    }
                    Some(pb::server_message::Message::End(end)) => {
                        return Ok(TextUpdate::Ended(match_end(&end, self.start.seat)?));
                    }
                    _ => continue,
                },
                Ok(None) => tonic::Status::unavailable("the stream ended before the match did"),
                Err(status) => status,
            };
            if let Some(end) = self.reconnect(lost).await? {
                return Ok(TextUpdate::Ended(end));
            }
            if !self.omit.events {
                let json = self.joined.observation.as_ref().map(|o| o.json.clone());
                return Ok(TextUpdate::Moved(TextMoved {
                    json: json.unwrap_or_default(),
                    ..TextMoved::default()
                }));
            }
        }
    }

    /// Takes the seat back after the connection was lost with `lost`; the match's end if it
    /// ended meanwhile.
    async fn reconnect(&mut self, lost: tonic::Status) -> Result<Option<MatchEnd>, RunError> {
        let match_id = self.start.match_id.clone();
        let seat_lost =
            |status: tonic::Status| RunError::SeatLost { match_id, status: Box::new(status) };
        if !retryable(&lost) {
            return Err(seat_lost(lost));
        }
        warn!(cause = %lost, match_id = %self.start.match_id, "connection lost; reconnecting");
        self.reconnects += 1;
        match open_with_backoff(&mut self.client, &self.rejoin, &self.config).await {
            Err(RunError::Rejected(status)) => Err(seat_lost(*status)),
            Err(error) => Err(error),
            Ok((link, Opened::Joined(joined))) => {
                info!(match_id = %self.start.match_id, reconnects = self.reconnects, "reconnected");
                self.link = link;
                self.joined = joined;
                Ok(None)
            }
            Ok((_, Opened::Ended(end))) => Ok(Some(match_end(&end, self.start.seat)?)),
        }
    }

    /// Sends `reply` (the text form's words or number) for `turn`, with `comment` beside it
    /// (kept in the record, shown once the match is over; empty for none). The server's
    /// verdict comes through [`TextSeat::next`]: a refusal, or the match going on.
    pub async fn reply(&mut self, turn: u64, reply: &str, comment: &str) -> Result<(), RunError> {
        let act = commented_act(turn, pb::act::Choice::Reply(reply.to_owned()), comment.to_owned());
        if let Err(status) = send(&self.link, act).await {
            // The stream is gone: the next `next` takes the seat back, and the server sends
            // the turn again if the reply never reached it.
            warn!(cause = %status, "reply not sent");
        }
        Ok(())
    }
}
