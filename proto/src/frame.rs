//! The `Play` stream's `ServerMessage`s as bytes: written by the server once, read by the SDK
//! without prost's message tree.
//!
//! A `Turn` is the message of every decision. Built as prost's typed tree, it cost the server a
//! tree of small messages made, measured again at each level of nesting, written and dropped,
//! and the SDK the same tree decoded (some twenty `Vec`s) before the engine's observation was
//! built from it: about 25,000 of the 68,000 instructions a decision took both sides (measured
//! at `0ba7dd6`, before the frames; in BENCHMARKS.md's history, `git log -p BENCHMARKS.md`). Here:
//!
//! - [`ServerFrame`] is what the server's `Play` stream carries: a `ServerMessage` already
//!   encoded. The server's service is generated with it in the place of `ServerMessage`
//!   ([`crate::server`]); [`ServerFrame::turn`] writes a `Turn` straight from the engine's
//!   observation ([`WireGame::encode_observation`]), byte for byte what prost writes for the
//!   typed `Turn`, so every client reads what it read before.
//! - [`PlayCodec`] is the SDK's side: it reads a `Turn`'s own fields and hands the
//!   observation over as bytes ([`TurnFrame`]), for [`WireGame::decode_observation`] to read
//!   into the engine's type; any other message is prost's `ServerMessage`.

use prost::Message;
use prost::bytes::{Buf, BufMut, Bytes};
use prost::encoding::{self, DecodeContext, WireType};
use tonic::Status;
use tonic::codec::{BufferSettings, Codec, DecodeBuf, Decoder};
use tonic_prost::ProstEncoder;

use crate::pb;
use crate::wire::WireGame;

/// `ServerMessage.turn`'s field number.
const SERVER_MESSAGE_TURN: u32 = 2;
/// `Turn`'s field numbers.
const TURN_TURN: u32 = 1;
const TURN_OBSERVATION: u32 = 2;
const TURN_LEGAL_ACTIONS: u32 = 3;
const TURN_MOVE_MS: u32 = 4;
const TURN_BANK_MS: u32 = 5;
const TURN_TEXT: u32 = 6;

/// The encoded length of `Turn.text` holding `text` (proto3 leaves an empty string out).
fn text_len(text: &str) -> usize {
    if text.is_empty() {
        0
    } else {
        encoding::key_len(TURN_TEXT) + encoding::encoded_len_varint(text.len() as u64) + text.len()
    }
}

/// The most bytes the headers before a `Turn`'s observation take: `ServerMessage.turn`'s key
/// and length, `Turn.turn`'s key and value, `Turn.observation`'s key and length.
const MAX_TURN_HEADER: usize = 1 + 5 + 1 + 10 + 1 + 5;

/// Room a `Turn`'s buffer starts with for its observation: a compact Gin Rummy `Turn` is about
/// 175 bytes under the load tool; a larger observation grows the buffer once.
const OBSERVATION_ROOM: usize = 320;

/// One encoded `ServerMessage`, as the server's `Play` stream sends it. Its [`Message`]
/// implementation writes the bytes as they are; it is never decoded (a client reads
/// `pb::ServerMessage`, or [`Incoming`] through [`PlayCodec`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerFrame {
    /// The buffer written, the message starting at `start` (a `Turn`'s headers are written
    /// into room left before its observation). A plain `Vec`: turning it into `Bytes` cost an
    /// allocation more a message.
    buf: Vec<u8>,
    start: usize,
}

/// What [`ServerFrame::turn`] writes besides the observation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TurnHeader<'a> {
    /// `Turn.turn`.
    pub turn: u64,
    /// `Turn.legal_actions` (empty for a connection that omits them).
    pub legal_actions: &'a [pb::LegalAction],
    /// `Turn.move_ms`.
    pub move_ms: u32,
    /// `Turn.bank_ms`.
    pub bank_ms: u32,
    /// `Turn.text` (empty for a connection that did not ask for it).
    pub text: &'a str,
}

impl ServerFrame {
    /// Any `ServerMessage`, encoded by prost.
    pub fn message(message: &pb::ServerMessage) -> ServerFrame {
        ServerFrame { buf: message.encode_to_vec(), start: 0 }
    }

    /// A `ServerMessage` holding a `Turn` for `observation`, as `omit` asks, written without
    /// the typed tree: the bytes prost writes for the same `pb::Turn`. Also returns the
    /// `Turn`'s own length (what the server counts as a turn's bytes).
    pub fn turn<G: WireGame>(
        header: TurnHeader<'_>,
        observation: &G::Observation,
        omit: &pb::Omit,
    ) -> (ServerFrame, usize) {
        // The observation is written first, after room for the headers before it (whose
        // lengths depend on its own); the headers then go at the end of that room, and the
        // frame starts where they do.
        let mut buf = Vec::with_capacity(MAX_TURN_HEADER + OBSERVATION_ROOM);
        buf.resize(MAX_TURN_HEADER, 0);
        G::encode_observation(observation, omit, &mut buf);
        let observation_len = buf.len() - MAX_TURN_HEADER;
        // proto3 leaves a zero number out.
        let uint32_len = |tag, value: u32| {
            if value == 0 { 0 } else { encoding::uint32::encoded_len(tag, &value) }
        };
        let turn_number_len = if header.turn == 0 {
            0
        } else {
            encoding::uint64::encoded_len(TURN_TURN, &header.turn)
        };
        let turn_len = turn_number_len
            + encoding::key_len(TURN_OBSERVATION)
            + encoding::encoded_len_varint(observation_len as u64)
            + observation_len
            + encoding::message::encoded_len_repeated(TURN_LEGAL_ACTIONS, header.legal_actions)
            + uint32_len(TURN_MOVE_MS, header.move_ms)
            + uint32_len(TURN_BANK_MS, header.bank_ms)
            + text_len(header.text);
        let mut head = [0u8; MAX_TURN_HEADER];
        let mut at = &mut head[..];
        encoding::encode_key(SERVER_MESSAGE_TURN, WireType::LengthDelimited, &mut at);
        encoding::encode_varint(turn_len as u64, &mut at);
        if header.turn != 0 {
            encoding::uint64::encode(TURN_TURN, &header.turn, &mut at);
        }
        encoding::encode_key(TURN_OBSERVATION, WireType::LengthDelimited, &mut at);
        encoding::encode_varint(observation_len as u64, &mut at);
        let head_len = MAX_TURN_HEADER - at.len();
        let start = MAX_TURN_HEADER - head_len;
        buf[start..MAX_TURN_HEADER].copy_from_slice(&head[..head_len]);
        for legal in header.legal_actions {
            encoding::message::encode(TURN_LEGAL_ACTIONS, legal, &mut buf);
        }
        if header.move_ms != 0 {
            encoding::uint32::encode(TURN_MOVE_MS, &header.move_ms, &mut buf);
        }
        if header.bank_ms != 0 {
            encoding::uint32::encode(TURN_BANK_MS, &header.bank_ms, &mut buf);
        }
        if !header.text.is_empty() {
            encoding::encode_key(TURN_TEXT, WireType::LengthDelimited, &mut buf);
            encoding::encode_varint(header.text.len() as u64, &mut buf);
            buf.extend_from_slice(header.text.as_bytes());
        }
        (ServerFrame { buf, start }, turn_len)
    }

    /// The encoded message.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    /// What the message tells its seat, read from its first field's key alone (a
    /// `ServerMessage` is one field of its `message`): what a relay needs, without decoding.
    pub fn kind(&self) -> FrameKind {
        let mut bytes = self.as_bytes();
        match encoding::decode_key(&mut bytes) {
            Ok((1, WireType::LengthDelimited)) => FrameKind::Joined,
            Ok((SERVER_MESSAGE_TURN, WireType::LengthDelimited)) => FrameKind::Turn,
            Ok((3, WireType::LengthDelimited)) => FrameKind::Events,
            Ok((4, WireType::LengthDelimited)) => FrameKind::Error,
            Ok((5, WireType::LengthDelimited)) => FrameKind::End,
            _ => FrameKind::Other,
        }
    }
}

/// Which `ServerMessage` a [`ServerFrame`] holds ([`ServerFrame::kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// `Joined`: the seat is the bot's.
    Joined,
    /// `Turn`: the bot must act.
    Turn,
    /// `Events`: what happened at the table.
    Events,
    /// `ActError`: an `Act` refused; the bot acts again.
    Error,
    /// `MatchEnd`.
    End,
    /// None of these (an empty message, or one this build does not know).
    Other,
}

impl Message for ServerFrame {
    fn encode_raw(&self, buf: &mut impl BufMut) {
        buf.put_slice(self.as_bytes());
    }

    /// Reading a frame keeps each field's bytes as they came (only a server writes frames;
    /// this lets a test read its bytes back as a frame). A group, which `cardroom.v1` never
    /// has, is skipped.
    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: WireType,
        buf: &mut impl Buf,
        ctx: DecodeContext,
    ) -> Result<(), prost::DecodeError> {
        let mut raw = self.as_bytes().to_vec();
        match wire_type {
            WireType::Varint => {
                let value = encoding::decode_varint(buf)?;
                encoding::encode_key(tag, wire_type, &mut raw);
                encoding::encode_varint(value, &mut raw);
            }
            WireType::LengthDelimited => {
                let value = encoding::decode_varint(buf)?;
                let len = usize::try_from(value).unwrap_or(usize::MAX);
                if len > buf.remaining() {
                    // prost's own error for a length past the end.
                    return encoding::skip_field(wire_type, tag, buf, ctx);
                }
                encoding::encode_key(tag, wire_type, &mut raw);
                encoding::encode_varint(value, &mut raw);
                raw.put(buf.take(len));
            }
            WireType::SixtyFourBit | WireType::ThirtyTwoBit => {
                let len = if wire_type == WireType::SixtyFourBit { 8 } else { 4 };
                if len > buf.remaining() {
                    return encoding::skip_field(wire_type, tag, buf, ctx);
                }
                encoding::encode_key(tag, wire_type, &mut raw);
                raw.put(buf.take(len));
            }
            WireType::StartGroup | WireType::EndGroup => {
                return encoding::skip_field(wire_type, tag, buf, ctx);
            }
        }
        *self = ServerFrame { buf: raw, start: 0 };
        Ok(())
    }

    fn encoded_len(&self) -> usize {
        self.buf.len() - self.start
    }

    fn clear(&mut self) {
        *self = ServerFrame::default();
    }
}

/// A `Turn` as [`PlayCodec`] reads it: its fields, the observation still as bytes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TurnFrame {
    /// `Turn.turn`.
    pub turn: u64,
    /// The bytes of `Turn.observation`, if it was set: read them with
    /// [`WireGame::decode_observation`].
    pub observation: Option<Bytes>,
    /// `Turn.legal_actions` (none from a server that honours `Omit.legal_actions`).
    pub legal_actions: Vec<pb::LegalAction>,
    /// `Turn.move_ms`.
    pub move_ms: u32,
    /// `Turn.bank_ms`.
    pub bank_ms: u32,
    /// `Turn.text`.
    pub text: String,
}

impl TurnFrame {
    /// The same turn from prost's typed `Turn`.
    pub fn from_pb(turn: pb::Turn) -> TurnFrame {
        TurnFrame {
            turn: turn.turn,
            observation: turn.observation.map(|observation| observation.encode_to_vec().into()),
            legal_actions: turn.legal_actions,
            move_ms: turn.move_ms,
            bank_ms: turn.bank_ms,
            text: turn.text,
        }
    }

    /// Reads a `Turn` message's bytes; `None` for bytes this reader leaves to prost (a field
    /// of an unexpected wire type, an observation sent in parts, bytes cut short).
    fn read(mut bytes: Bytes) -> Option<TurnFrame> {
        let mut turn = TurnFrame::default();
        while bytes.has_remaining() {
            let (tag, wire_type) = encoding::decode_key(&mut bytes).ok()?;
            match (tag, wire_type) {
                (TURN_TURN, WireType::Varint) => {
                    turn.turn = encoding::decode_varint(&mut bytes).ok()?
                }
                (TURN_OBSERVATION, WireType::LengthDelimited) if turn.observation.is_none() => {
                    let len = usize::try_from(encoding::decode_varint(&mut bytes).ok()?).ok()?;
                    if len > bytes.remaining() {
                        return None;
                    }
                    turn.observation = Some(bytes.split_to(len));
                }
                (TURN_LEGAL_ACTIONS, WireType::LengthDelimited) => {
                    let mut legal = pb::LegalAction::default();
                    encoding::message::merge(
                        wire_type,
                        &mut legal,
                        &mut bytes,
                        DecodeContext::default(),
                    )
                    .ok()?;
                    turn.legal_actions.push(legal);
                }
                (TURN_MOVE_MS, WireType::Varint) => {
                    turn.move_ms = encoding::decode_varint(&mut bytes).ok()? as u32;
                }
                (TURN_BANK_MS, WireType::Varint) => {
                    turn.bank_ms = encoding::decode_varint(&mut bytes).ok()? as u32;
                }
                (TURN_TEXT, WireType::LengthDelimited) => {
                    let len = usize::try_from(encoding::decode_varint(&mut bytes).ok()?).ok()?;
                    if len > bytes.remaining() {
                        return None;
                    }
                    turn.text = String::from_utf8(bytes.split_to(len).to_vec()).ok()?;
                }
                (TURN_TURN..=TURN_TEXT, _) => return None,
                _ => encoding::skip_field(wire_type, tag, &mut bytes, DecodeContext::default())
                    .ok()?,
            }
        }
        Some(turn)
    }
}

/// A `ServerMessage` as the SDK reads it: a `Turn` with its observation as bytes, or any
/// other message as prost decodes it.
#[derive(Clone, Debug, PartialEq)]
pub enum Incoming {
    /// A `Turn`.
    Turn(TurnFrame),
    /// Any other message (or one without a message set); never a `Turn`.
    Message(Box<pb::ServerMessage>),
}

impl Incoming {
    /// Reads one encoded `ServerMessage`. A message that holds exactly one `Turn` field and
    /// nothing else this build knows is read here; anything else is prost's, whose errors
    /// are those of [`pb::ServerMessage`].
    pub fn read(bytes: Bytes) -> Result<Incoming, prost::DecodeError> {
        if let Some(turn) = Self::lone_turn(&bytes).and_then(TurnFrame::read) {
            return Ok(Incoming::Turn(turn));
        }
        match pb::ServerMessage::decode(bytes)? {
            pb::ServerMessage { message: Some(pb::server_message::Message::Turn(turn)) } => {
                Ok(Incoming::Turn(TurnFrame::from_pb(turn)))
            }
            message => Ok(Incoming::Message(Box::new(message))),
        }
    }

    /// The bytes of the `Turn` a `ServerMessage` holds, if it holds one field and that is
    /// the `Turn`.
    fn lone_turn(bytes: &Bytes) -> Option<Bytes> {
        let mut rest = bytes.clone();
        let (tag, wire_type) = encoding::decode_key(&mut rest).ok()?;
        if (tag, wire_type) != (SERVER_MESSAGE_TURN, WireType::LengthDelimited) {
            return None;
        }
        let len = usize::try_from(encoding::decode_varint(&mut rest).ok()?).ok()?;
        (len == rest.remaining()).then_some(rest)
    }
}

/// Calls `Play` as the generated client does, but with [`PlayCodec`]: a `Turn` arrives as a
/// [`TurnFrame`] whose observation the game reads from its bytes
/// ([`WireGame::decode_observation`]), with no typed tree in between. The SDK's runner and the
/// load tool's bots call it.
pub async fn play<T>(
    grpc: &mut tonic::client::Grpc<T>,
    request: impl tonic::IntoStreamingRequest<Message = pb::BotMessage>,
) -> Result<tonic::Streaming<Incoming>, Status>
where
    T: tonic::client::GrpcService<tonic::body::Body>,
    T::Error: Into<tonic::codegen::StdError>,
    T::ResponseBody: tonic::codegen::Body<Data = Bytes> + Send + 'static,
    <T::ResponseBody as tonic::codegen::Body>::Error: Into<tonic::codegen::StdError> + Send,
{
    grpc.ready()
        .await
        .map_err(|err| Status::unknown(format!("Service was not ready: {}", err.into())))?;
    let path = tonic::codegen::http::uri::PathAndQuery::from_static("/cardroom.v1.Cardroom/Play");
    let mut request = request.into_streaming_request();
    request.extensions_mut().insert(tonic::GrpcMethod::new("cardroom.v1.Cardroom", "Play"));
    Ok(grpc.streaming(request, path, PlayCodec).await?.into_inner())
}

/// The SDK's codec for `Play`: writes `BotMessage`s as prost does, reads [`Incoming`]s.
#[derive(Debug, Clone, Default)]
pub struct PlayCodec;

impl Codec for PlayCodec {
    type Encode = pb::BotMessage;
    type Decode = Incoming;
    type Encoder = ProstEncoder<pb::BotMessage>;
    type Decoder = IncomingDecoder;

    fn encoder(&mut self) -> Self::Encoder {
        ProstEncoder::default()
    }

    fn decoder(&mut self) -> Self::Decoder {
        IncomingDecoder
    }
}

/// Reads each `ServerMessage` of a `Play` stream as an [`Incoming`].
#[derive(Debug, Clone, Copy, Default)]
pub struct IncomingDecoder;

impl Decoder for IncomingDecoder {
    type Item = Incoming;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<Incoming>, Status> {
        let bytes = buf.copy_to_bytes(buf.remaining());
        // As `tonic_prost::ProstCodec` does: a message that cannot be parsed is INTERNAL.
        Incoming::read(bytes).map(Some).map_err(|err| Status::internal(err.to_string()))
    }

    fn buffer_settings(&self) -> BufferSettings {
        BufferSettings::default()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use cardroom_games::{Seat, gin, twenty_two};
    use rand::{RngExt as _, SeedableRng as _};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::wire::legal_actions_to_pb;

    #[test]
    fn a_frame_says_its_kind_as_prost_wrote_it() {
        use pb::server_message::Message as M;
        let kinds = [
            (M::Joined(pb::Joined::default()), FrameKind::Joined),
            (M::Turn(pb::Turn::default()), FrameKind::Turn),
            (M::Events(pb::Events::default()), FrameKind::Events),
            (M::Error(pb::ActError::default()), FrameKind::Error),
            (M::End(pb::MatchEnd::default()), FrameKind::End),
        ];
        for (message, kind) in kinds {
            let frame = ServerFrame::message(&pb::ServerMessage { message: Some(message) });
            assert_eq!(frame.kind(), kind);
        }
        assert_eq!(ServerFrame::message(&pb::ServerMessage::default()).kind(), FrameKind::Other);
        let observation = twenty_two::State::create("", 2, 1).unwrap().observation(Seat(0));
        let (turn, _) = ServerFrame::turn::<twenty_two::State>(
            TurnHeader { turn: 7, ..TurnHeader::default() },
            &observation,
            &pb::Omit::default(),
        );
        assert_eq!(turn.kind(), FrameKind::Turn, "a turn written without prost");
    }

    /// Every observation-form choice a connection can make (`check_omit` refuses typed and
    /// JSON left out together), with and without the legal actions.
    fn omits() -> Vec<pb::Omit> {
        let mut omits = Vec::new();
        for bits in 0..32u8 {
            let omit = pb::Omit {
                typed: bits & 1 != 0,
                json: bits & 2 != 0,
                cards: bits & 4 != 0,
                legal_actions: bits & 8 != 0,
                known_cards: bits & 16 != 0,
                events: false,
            };
            if !(omit.typed && omit.json) {
                omits.push(omit);
            }
        }
        omits
    }

    /// Plays `matches` random matches of `G` at `seats` seats and calls `each` with every
    /// state on the way and a number drawn for it.
    fn for_random_states<G: WireGame>(seats: u32, matches: u64, mut each: impl FnMut(&G, u64)) {
        for seed in 0..matches {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut state = G::create("", seats, seed).unwrap();
            each(&state, rng.random());
            while let Some(seat) = state.to_act() {
                let legal = state.legal_actions();
                let action = legal[rng.random_range(0..legal.len())];
                state.apply(seat, action).unwrap();
                each(&state, rng.random());
            }
        }
    }

    /// The typed `ServerMessage` the server sent before frames, for the same turn.
    fn typed_turn<G: WireGame>(
        header: &TurnHeader<'_>,
        observation: &G::Observation,
        omit: &pb::Omit,
    ) -> pb::ServerMessage {
        let turn = pb::Turn {
            turn: header.turn,
            observation: Some(G::observation_to_pb(observation, omit)),
            legal_actions: header.legal_actions.to_vec(),
            move_ms: header.move_ms,
            bank_ms: header.bank_ms,
            text: header.text.to_owned(),
        };
        pb::ServerMessage { message: Some(pb::server_message::Message::Turn(turn)) }
    }

    /// Every seat's turn, in every form, as a frame: prost's bytes for the typed turn, byte for
    /// byte, and read back by [`Incoming::read`] as the same turn with the observation's bytes.
    fn check_turns<G: WireGame>(state: &G, draw: u64) {
        // Turn numbers, clocks and their zero values (which proto3 leaves out).
        let numbers = [0, 1, draw % 300, draw];
        for seat in 0..state.players() {
            let observation = state.observation(Seat(seat));
            let legal = legal_actions_to_pb::<G>(G::legal_actions_of(&observation));
            // Two forms a seat and state, drawn: every form is met many times over a match.
            let omits = omits();
            let texts = [String::new(), "Your turn.\n1. pass ♠\n".to_owned(), "long ".repeat(40)];
            let picked = [draw as usize % omits.len(), (draw >> 32) as usize % omits.len()];
            for (n, omit) in picked.into_iter().map(|n| (n, omits[n])) {
                let header = TurnHeader {
                    turn: numbers[n % 4],
                    legal_actions: if omit.legal_actions { &[] } else { &legal },
                    move_ms: [0, 1, 60_000, u32::MAX][(n / 4) % 4],
                    bank_ms: (draw as u32).wrapping_mul(n as u32),
                    text: texts[n % 3].as_str(),
                };
                let (frame, turn_len) = ServerFrame::turn::<G>(header, &observation, &omit);
                let typed = typed_turn::<G>(&header, &observation, &omit);
                assert_eq!(frame.as_bytes(), typed.encode_to_vec(), "{omit:?}");
                assert_eq!(frame.encoded_len(), typed.encoded_len());
                let Some(pb::server_message::Message::Turn(typed_turn)) = typed.message else {
                    unreachable!()
                };
                assert_eq!(turn_len, typed_turn.encoded_len());
                let read = Incoming::read(Bytes::copy_from_slice(frame.as_bytes())).unwrap();
                assert_eq!(read, Incoming::Turn(TurnFrame::from_pb(typed_turn)));
            }
        }
    }

    #[test]
    fn a_gin_turn_frame_is_prosts_bytes_and_reads_back() {
        for_random_states::<gin::State>(2, 2, check_turns);
    }

    #[test]
    fn a_twenty_two_turn_frame_is_prosts_bytes_and_reads_back() {
        for seats in [2, 4, 7] {
            for_random_states::<twenty_two::State>(seats, 2, check_turns);
        }
    }

    /// A message with a few fields of each kind, for the readers' edge cases.
    fn turn_message() -> pb::ServerMessage {
        let state = gin::State::create("", 2, 7).unwrap();
        let seat = state.to_act().unwrap();
        let observation = state.observation(seat);
        let legal = legal_actions_to_pb::<gin::State>(&observation.legal_actions);
        let header =
            TurnHeader { turn: 3, legal_actions: &legal, move_ms: 5, bank_ms: 9, text: "" };
        typed_turn::<gin::State>(&header, &observation, &pb::Omit::default())
    }

    #[test]
    fn every_other_message_is_prosts() {
        let joined = pb::ServerMessage {
            message: Some(pb::server_message::Message::Joined(pb::Joined {
                match_id: "m".into(),
                seat: 1,
                ..pb::Joined::default()
            })),
        };
        let error = pb::ServerMessage {
            message: Some(pb::server_message::Message::Error(pb::ActError {
                turn: 4,
                ..pb::ActError::default()
            })),
        };
        for message in [joined, error, pb::ServerMessage::default()] {
            let frame = ServerFrame::message(&message);
            assert_eq!(frame.as_bytes(), message.encode_to_vec());
            let read = Incoming::read(Bytes::copy_from_slice(frame.as_bytes())).unwrap();
            assert_eq!(read, Incoming::Message(Box::new(message)));
        }
    }

    /// What prost reads from `bytes`, as an [`Incoming`].
    fn prosts(bytes: &[u8]) -> Result<Incoming, prost::DecodeError> {
        Ok(match pb::ServerMessage::decode(bytes)? {
            pb::ServerMessage { message: Some(pb::server_message::Message::Turn(turn)) } => {
                Incoming::Turn(TurnFrame::from_pb(turn))
            }
            message => Incoming::Message(Box::new(message)),
        })
    }

    /// An [`Incoming`] with its turn's observation read by prost: two turns are the same turn
    /// when they say the same, whichever bytes say it.
    fn read(incoming: Incoming) -> (Incoming, Option<Result<pb::Observation, prost::DecodeError>>) {
        match incoming {
            Incoming::Turn(TurnFrame {
                observation,
                turn,
                legal_actions,
                move_ms,
                bank_ms,
                text,
            }) => (
                Incoming::Turn(TurnFrame {
                    observation: None,
                    turn,
                    legal_actions,
                    move_ms,
                    bank_ms,
                    text,
                }),
                observation.map(pb::Observation::decode),
            ),
            message => (message, None),
        }
    }

    #[test]
    fn what_the_turn_reader_leaves_to_prost_reads_as_prost_reads_it() {
        let bytes = turn_message().encode_to_vec();
        let mut cases = Vec::new();
        // An unknown field after the turn, inside it, and a turn whose observation comes in
        // two parts (which protobuf merges).
        let mut unknown_after = bytes.clone();
        unknown_after.extend_from_slice(&[0x78, 0x01]); // field 15, varint 1
        cases.push(unknown_after);
        let Some(pb::server_message::Message::Turn(turn)) = turn_message().message else {
            unreachable!()
        };
        let mut inner = turn.encode_to_vec();
        inner.extend_from_slice(&[0x78, 0x01]);
        let observation = turn.observation.clone().unwrap().encode_to_vec();
        let half = observation.len() / 2;
        for extra in [&[0x78, 0x01][..], &observation[..half]] {
            let mut inner = turn.encode_to_vec();
            inner.push(0x12);
            encoding::encode_varint(extra.len() as u64, &mut inner);
            inner.extend_from_slice(extra);
            let mut outer = Vec::new();
            encoding::bytes::encode(SERVER_MESSAGE_TURN, &inner, &mut outer);
            cases.push(outer);
        }
        let mut outer = Vec::new();
        encoding::bytes::encode(SERVER_MESSAGE_TURN, &inner, &mut outer);
        cases.push(outer);
        // Every cut of the message, and every byte changed to a few values.
        for cut in 0..bytes.len() {
            cases.push(bytes[..cut].to_vec());
        }
        for at in 0..bytes.len() {
            for value in [0x00, 0x02, 0x08, 0x12, 0x7f, 0x80, 0xff] {
                let mut changed = bytes.clone();
                changed[at] = value;
                cases.push(changed);
            }
        }
        for case in cases {
            let ours = Incoming::read(Bytes::copy_from_slice(&case));
            match (ours, prosts(&case)) {
                (Ok(ours), Ok(theirs)) => assert_eq!(read(ours), read(theirs), "{case:?}"),
                (Err(_), Err(_)) => {}
                // The observation is read later, by the game: bytes that are no `Observation`
                // fail there ([`WireGame::decode_observation`]), for that turn alone.
                (Ok(Incoming::Turn(TurnFrame { observation: Some(observation), .. })), Err(_))
                    if pb::Observation::decode(observation.clone()).is_err() => {}
                (ours, theirs) => panic!("{case:?}: ours {ours:?}, prost's {theirs:?}"),
            }
        }
    }

    #[test]
    fn a_frame_read_back_writes_the_same_bytes() {
        let bytes = turn_message().encode_to_vec();
        let frame = ServerFrame::decode(bytes.as_slice()).unwrap();
        assert_eq!(frame.encode_to_vec(), bytes);
        assert!(ServerFrame::decode(&bytes[..bytes.len() - 1]).is_err(), "cut short");
    }
}
