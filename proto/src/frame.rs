//! The `Play` stream's `ServerMessage`s as bytes: written by the server once, read by the SDK
//! without prost's message tree.
//!
//! A `Turn` is the message of every decision. Built as prost's typed tree, it cost the server a
//! tree of small messages made, measured again at each level of nesting, written and dropped,
//! and the SDK the same tree decoded (some twenty `Vec`s) before the engine's observation was
//! built from it: about 25,000 of the 68,000 instructions a decision took both sides
//! (BENCHMARKS.md, "Session 10"). Here:
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

/// The most bytes the headers before a `Turn`'s observation take: `ServerMessage.turn`'s key
/// and length, `Turn.turn`'s key and value, `Turn.observation`'s key and length.
const MAX_TURN_HEADER: usize = 1 + 5 + 1 + 10 + 1 + 5;

/// One encoded `ServerMessage`, as the server's `Play` stream sends it. Its [`Message`]
/// implementation writes the bytes as they are; it is never decoded (a client reads
/// `pb::ServerMessage`, or [`Incoming`] through [`PlayCodec`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerFrame {
    bytes: Bytes,
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
}

impl ServerFrame {
    /// Any `ServerMessage`, encoded by prost.
    pub fn message(message: &pb::ServerMessage) -> ServerFrame {
        ServerFrame { bytes: message.encode_to_vec().into() }
    }

    /// A `ServerMessage` holding a `Turn` for `observation`, as `omit` asks, written without
    /// the typed tree: the bytes prost writes for the same `pb::Turn`. Also returns the
    /// `Turn`'s own length (what the server counts as a turn's bytes).
    pub fn turn<G: WireGame>(
        header: TurnHeader<'_>,
        observation: &G::Observation,
        omit: &pb::Omit,
    ) -> (ServerFrame, usize) {
        let mut buf = Vec::with_capacity(MAX_TURN_HEADER + 320);
        buf.resize(MAX_TURN_HEADER, 0);
        G::encode_observation(observation, omit, &mut buf);
        let observation_len = buf.len() - MAX_TURN_HEADER;
        let mut head = [0u8; MAX_TURN_HEADER];
        let mut at = &mut head[..];
        let tail = encoding::message::encoded_len_repeated(TURN_LEGAL_ACTIONS, header.legal_actions)
            + if header.move_ms != 0 { encoding::uint32::encoded_len(TURN_MOVE_MS, &header.move_ms) } else { 0 }
            + if header.bank_ms != 0 { encoding::uint32::encoded_len(TURN_BANK_MS, &header.bank_ms) } else { 0 };
        let turn_len = if header.turn != 0 {
            encoding::uint64::encoded_len(TURN_TURN, &header.turn)
        } else {
            0
        } + encoding::key_len(TURN_OBSERVATION)
            + encoding::encoded_len_varint(observation_len as u64)
            + observation_len
            + tail;
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
        (ServerFrame { bytes: Bytes::from(buf).slice(start..) }, turn_len)
    }

    /// The encoded message.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }
}

impl Message for ServerFrame {
    fn encode_raw(&self, buf: &mut impl BufMut) {
        buf.put_slice(&self.bytes);
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
        let mut raw = self.bytes.to_vec();
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
        self.bytes = raw.into();
        Ok(())
    }

    fn encoded_len(&self) -> usize {
        self.bytes.len()
    }

    fn clear(&mut self) {
        self.bytes = Bytes::new();
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
        }
    }

    /// Reads a `Turn` message's bytes; `None` for bytes this reader leaves to prost (a field
    /// of an unexpected wire type, an observation sent in parts, bytes cut short).
    fn read(mut bytes: Bytes) -> Option<TurnFrame> {
        let mut turn = TurnFrame::default();
        while bytes.has_remaining() {
            let (tag, wire_type) = encoding::decode_key(&mut bytes).ok()?;
            match (tag, wire_type) {
                (TURN_TURN, WireType::Varint) => turn.turn = encoding::decode_varint(&mut bytes).ok()?,
                (TURN_OBSERVATION, WireType::LengthDelimited) if turn.observation.is_none() => {
                    let len = usize::try_from(encoding::decode_varint(&mut bytes).ok()?).ok()?;
                    if len > bytes.remaining() {
                        return None;
                    }
                    turn.observation = Some(bytes.split_to(len));
                }
                (TURN_LEGAL_ACTIONS, WireType::LengthDelimited) => {
                    let mut legal = pb::LegalAction::default();
                    encoding::message::merge(wire_type, &mut legal, &mut bytes, DecodeContext::default()).ok()?;
                    turn.legal_actions.push(legal);
                }
                (TURN_MOVE_MS, WireType::Varint) => {
                    turn.move_ms = encoding::decode_varint(&mut bytes).ok()? as u32;
                }
                (TURN_BANK_MS, WireType::Varint) => {
                    turn.bank_ms = encoding::decode_varint(&mut bytes).ok()? as u32;
                }
                (TURN_TURN..=TURN_BANK_MS, _) => return None,
                _ => encoding::skip_field(wire_type, tag, &mut bytes, DecodeContext::default()).ok()?,
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
    /// Any other message (or one without a message set).
    Message(pb::ServerMessage),
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
            message => Ok(Incoming::Message(message)),
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
