//! Bots that talk to a server over real gRPC, messages kept as the bytes on the wire:
//! [`RawCodec`], [`Bot`] (one `Play` stream) and [`watch_raw`] (one `Watch` stream).

use cardroom_proto::pb;
use prost::Message as _;
use prost::bytes::{Buf, BufMut, Bytes};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tokio::sync::mpsc;
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::codegen::http::uri::PathAndQuery;
use tonic::transport::Channel;
use tonic::{Request, Status, Streaming};

use crate::MESSAGE_PATIENCE;

/// A gRPC codec that passes messages through as bytes, both ways: what a test sends is exactly
/// the payload of one gRPC frame (valid protobuf or not), and what it receives is exactly what
/// the server wrote, undecoded.
#[derive(Copy, Clone, Debug, Default)]
pub struct RawCodec;

impl Codec for RawCodec {
    type Encode = Bytes;
    type Decode = Bytes;
    type Encoder = RawCodec;
    type Decoder = RawCodec;

    fn encoder(&mut self) -> RawCodec {
        RawCodec
    }

    fn decoder(&mut self) -> RawCodec {
        RawCodec
    }
}

impl Encoder for RawCodec {
    type Item = Bytes;
    type Error = Status;

    fn encode(&mut self, item: Bytes, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put(item);
        Ok(())
    }
}

impl Decoder for RawCodec {
    type Item = Bytes;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Bytes>, Status> {
        Ok(Some(src.copy_to_bytes(src.remaining())))
    }
}

/// Calls `method` (such as `/cardroom.v1.Cardroom/Play`) with `requests` as raw payloads and
/// returns the raw response stream.
pub async fn call_raw(
    channel: Channel,
    method: &'static str,
    requests: impl Stream<Item = Bytes> + Send + 'static,
) -> Result<Streaming<Bytes>, Status> {
    call_raw_request(channel, method, Request::new(requests)).await
}

/// [`call_raw`] with the request's metadata.
async fn call_raw_request(
    channel: Channel,
    method: &'static str,
    request: Request<impl Stream<Item = Bytes> + Send + 'static>,
) -> Result<Streaming<Bytes>, Status> {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready().await.map_err(|err| Status::unavailable(err.to_string()))?;
    let path = PathAndQuery::from_static(method);
    Ok(grpc.streaming(request, path, RawCodec).await?.into_inner())
}

/// A spectator's `Watch` stream of `match_id`, undecoded.
///
/// # Panics
///
/// When the server refuses the call.
pub async fn watch_raw(channel: Channel, match_id: &str) -> Streaming<Bytes> {
    let request = pb::WatchRequest { match_id: match_id.to_owned() }.encode_to_vec();
    let requests = tokio_stream::once(Bytes::from(request));
    call_raw(channel, "/cardroom.v1.Cardroom/Watch", requests).await.expect("Watch is accepted")
}

/// The next message of a raw stream within [`MESSAGE_PATIENCE`]: the bytes, or the stream's
/// status; `None` when it ended.
///
/// # Panics
///
/// When nothing arrives in time.
pub async fn next_raw(stream: &mut Streaming<Bytes>) -> Result<Option<Bytes>, Status> {
    tokio::time::timeout(MESSAGE_PATIENCE, stream.message())
        .await
        .expect("a message within the test's patience")
}

/// One bot's `Play` stream. Messages go out and come in as the bytes on the wire; [`Bot::next`]
/// decodes them, [`Bot::next_raw`] does not.
pub struct Bot {
    /// Towards the server: one gRPC message each.
    tx: mpsc::Sender<Bytes>,
    /// From the server.
    rx: Streaming<Bytes>,
}

impl Bot {
    /// Opens a Play stream and sends `join` first.
    pub async fn open(channel: Channel, join: pb::Join) -> Result<Bot, Status> {
        let join = pb::BotMessage { message: Some(pb::bot_message::Message::Join(join)) };
        Bot::open_raw(channel, join.encode_to_vec().into()).await
    }

    /// Opens a Play stream whose first message is `first`, whatever its bytes.
    pub async fn open_raw(channel: Channel, first: Bytes) -> Result<Bot, Status> {
        Bot::open_request(channel, first, None).await
    }

    /// Opens a Play stream with a bot account's key (`authorization: Bearer <key>`) and sends
    /// `join` first.
    ///
    /// # Panics
    ///
    /// When the key cannot be sent in a header.
    pub async fn open_with_key(channel: Channel, join: pb::Join, key: &str) -> Result<Bot, Status> {
        let join = pb::BotMessage { message: Some(pb::bot_message::Message::Join(join)) };
        Bot::open_request(channel, join.encode_to_vec().into(), Some(key)).await
    }

    async fn open_request(
        channel: Channel,
        first: Bytes,
        key: Option<&str>,
    ) -> Result<Bot, Status> {
        let (tx, rx) = mpsc::channel(64);
        tx.send(first).await.expect("the new request stream is open");
        let mut request = Request::new(ReceiverStream::new(rx));
        if let Some(key) = key {
            let header = format!("Bearer {key}").parse().expect("a key fits in a header");
            request.metadata_mut().insert("authorization", header);
        }
        let rx = call_raw_request(channel, "/cardroom.v1.Cardroom/Play", request).await?;
        Ok(Bot { tx, rx })
    }

    /// Opens a Play stream and joins with a seat token.
    pub async fn with_token(channel: Channel, token: &str) -> Result<Bot, Status> {
        Bot::open_raw(channel, join(token, "test").encode_to_vec().into()).await
    }

    /// A sender of raw messages on this stream, for a task that writes while another reads.
    pub fn sender(&self) -> mpsc::Sender<Bytes> {
        self.tx.clone()
    }

    /// The stream's two ends: the sender of raw messages and the raw messages received.
    pub fn into_parts(self) -> (mpsc::Sender<Bytes>, Streaming<Bytes>) {
        (self.tx, self.rx)
    }

    /// Sends one message.
    ///
    /// # Panics
    ///
    /// When the request stream is closed.
    pub async fn send(&self, message: &pb::BotMessage) {
        self.send_raw(message.encode_to_vec().into()).await;
    }

    /// Sends one gRPC message with these bytes as its payload.
    ///
    /// # Panics
    ///
    /// When the request stream is closed.
    pub async fn send_raw(&self, payload: Bytes) {
        self.tx.send(payload).await.expect("the request stream is open");
    }

    /// Sends an `Act` for `turn`.
    pub async fn act(&self, turn: u64, choice: pb::act::Choice) {
        self.send(&act(turn, choice)).await;
    }

    /// The next message as sent, or the stream's status; `None` when the stream ended.
    ///
    /// # Panics
    ///
    /// When nothing arrives within [`MESSAGE_PATIENCE`].
    pub async fn next_raw(&mut self) -> Result<Option<Bytes>, Status> {
        next_raw(&mut self.rx).await
    }

    /// The next message, or the stream's status; `None` when the stream ended.
    ///
    /// # Panics
    ///
    /// When nothing arrives within [`MESSAGE_PATIENCE`], or the server sends bytes that are
    /// not a `ServerMessage` with a body.
    pub async fn next(&mut self) -> Result<Option<pb::server_message::Message>, Status> {
        Ok(self.next_raw().await?.map(|bytes| decode_server_message(&bytes)))
    }

    /// Skips every message until the match's end and returns it.
    ///
    /// # Panics
    ///
    /// When the stream fails (see [`Bot::next`]) or closes before the end.
    pub async fn until_end(&mut self) -> pb::MatchEnd {
        loop {
            match self.next().await.expect("the stream does not fail") {
                Some(pb::server_message::Message::End(end)) => return end,
                Some(_) => {}
                None => panic!("the stream closed before the match's end"),
            }
        }
    }

    /// Skips events and returns the next message of another kind.
    ///
    /// # Panics
    ///
    /// When the stream fails (see [`Bot::next`]).
    pub async fn next_non_event(&mut self) -> Option<pb::server_message::Message> {
        loop {
            match self.next().await.expect("the stream does not fail") {
                Some(pb::server_message::Message::Events(_)) => continue,
                other => return other,
            }
        }
    }

    /// Plays random legal actions by index until the match ends (going out in gin when it can);
    /// returns the end.
    ///
    /// # Panics
    ///
    /// When an action is refused or the stream ends or fails before the match.
    pub async fn play_randomly(self, seed: u64) -> pb::MatchEnd {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        self.play_by(move |turn| random_choice(turn, &mut rng)).await
    }

    /// Plays to the end, answering each turn with the legal action `choose` picks (its index).
    ///
    /// # Panics
    ///
    /// When an action is refused or the stream ends or fails before the match.
    pub async fn play_by(mut self, mut choose: impl FnMut(&pb::Turn) -> u32) -> pb::MatchEnd {
        loop {
            match self.next().await.expect("the stream does not fail") {
                Some(pb::server_message::Message::Turn(turn)) => {
                    let index = choose(&turn);
                    self.act(turn.turn, pb::act::Choice::Index(index)).await;
                }
                Some(pb::server_message::Message::End(end)) => return end,
                Some(pb::server_message::Message::Error(error)) => {
                    panic!("a legal action by index was refused: {error:?}")
                }
                Some(_) => {}
                None => panic!("the stream ended before the match"),
            }
        }
    }
}

/// A `Join` message with a seat token, asking for everything.
pub fn join(token: &str, bot_name: &str) -> pb::BotMessage {
    let seat = Some(pb::join::Seat::SeatToken(token.into()));
    let join = pb::Join { seat, bot_name: bot_name.into(), omit: None, ..Default::default() };
    pb::BotMessage { message: Some(pb::bot_message::Message::Join(join)) }
}

/// An `Act` message.
pub fn act(turn: u64, choice: pb::act::Choice) -> pb::BotMessage {
    commented_act(turn, choice, "")
}

/// An `Act` message with a comment.
pub fn commented_act(turn: u64, choice: pb::act::Choice, comment: &str) -> pb::BotMessage {
    let act = pb::Act { turn, choice: Some(choice), comment: comment.to_owned() };
    pb::BotMessage { message: Some(pb::bot_message::Message::Act(act)) }
}

/// A `ServerMessage`'s body from its bytes.
///
/// # Panics
///
/// When the bytes are not a `ServerMessage` with a body.
pub fn decode_server_message(bytes: &[u8]) -> pb::server_message::Message {
    pb::ServerMessage::decode(bytes)
        .expect("the server sends valid messages")
        .message
        .expect("every server message has a body")
}

/// The index of a random legal action of `turn`; in gin, a knock or gin whenever there is one,
/// so that matches end soon.
///
/// # Panics
///
/// When the turn has no legal action.
pub fn random_choice(turn: &pb::Turn, rng: &mut ChaCha8Rng) -> u32 {
    let out = turn.legal_actions.iter().find(|legal| goes_out(legal));
    match out {
        Some(legal) => legal.index,
        None => turn.legal_actions[rng.random_range(0..turn.legal_actions.len())].index,
    }
}

/// A Gin Rummy knock, gin or big gin.
fn goes_out(legal: &pb::LegalAction) -> bool {
    use pb::gin_action::Action;
    let Some(pb::Action { game: Some(pb::action::Game::Gin(gin)) }) = &legal.action else {
        return false;
    };
    matches!(gin.action, Some(Action::Knock(_) | Action::Gin(_) | Action::BigGin(_)))
}
