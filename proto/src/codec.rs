//! The gRPC codec of `cardroom.v1`'s generated client and server: protobuf through prost, the
//! same bytes on the wire and the same statuses as `tonic_prost::ProstCodec`, but cheaper to
//! read.
//!
//! A `Turn` is a few hundred bytes of small nested messages (cards, legal actions). prost reads
//! a message from tonic's [`DecodeBuf`] one field at a time, and every step advances the
//! `BytesMut` beneath it (with its bookkeeping of shared and vector-backed storage): profiled
//! under callgrind, decoding was 60% of the SDK bots' instructions, 16% in
//! `BytesMut::advance` alone. This codec reads each message from the contiguous slice tonic
//! has already buffered for it. Writing is prost's own (`tonic_prost::ProstEncoder`): writing
//! into a plain `Vec` first was tried and saved nothing, the cost being prost's varints
//! themselves.
//!
//! Each call's buffers start at [`BUFFER_SIZE`] rather than tonic's 8 KiB, and grow for a
//! bigger message: a bot's stream holds one of each as long as it is connected, and a bot
//! waiting for its match held 16 KiB in them for messages of a few hundred bytes.

use std::marker::PhantomData;

use prost::Message;
use prost::bytes::Buf;
use tonic::Status;
use tonic::codec::{BufferSettings, Codec, DecodeBuf, Decoder};
use tonic_prost::{ProstCodec, ProstEncoder};

/// The bytes each call's encoder and decoder buffer starts with. A `Turn` is a few hundred
/// bytes, an `Act` a few dozen; a bigger message grows the buffer for itself.
pub const BUFFER_SIZE: usize = 1024;

/// tonic's own: an encoder hands on what it has written once it holds this much.
const YIELD_THRESHOLD: usize = 32 * 1024;

/// The buffers of every call through [`SliceCodec`].
fn buffer_settings() -> BufferSettings {
    BufferSettings::new(BUFFER_SIZE, YIELD_THRESHOLD)
}

/// The codec the generated code names (`codec_path` in `build.rs`): encodes `T` as prost
/// does, decodes `U` from one slice.
#[derive(Debug, Clone)]
pub struct SliceCodec<T, U> {
    _messages: PhantomData<(T, U)>,
}

impl<T, U> Default for SliceCodec<T, U> {
    fn default() -> Self {
        SliceCodec { _messages: PhantomData }
    }
}

impl<T, U> Codec for SliceCodec<T, U>
where
    T: Message + Send + 'static,
    U: Message + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = ProstEncoder<T>;
    type Decoder = SliceDecoder<U>;

    fn encoder(&mut self) -> ProstEncoder<T> {
        ProstCodec::<T, U>::raw_encoder(buffer_settings())
    }

    fn decoder(&mut self) -> SliceDecoder<U> {
        SliceDecoder { _message: PhantomData }
    }
}

/// Reads each message from the contiguous bytes tonic has buffered for it.
#[derive(Debug)]
pub struct SliceDecoder<U> {
    _message: PhantomData<U>,
}

impl<U: Message + Default> Decoder for SliceDecoder<U> {
    type Item = U;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        let length = buf.remaining();
        let decoded = if buf.chunk().len() >= length {
            // tonic buffers a whole message before decoding it: this is the path taken.
            let decoded = U::decode(&buf.chunk()[..length]);
            buf.advance(length);
            decoded
        } else {
            U::decode(buf.copy_to_bytes(length))
        };
        // As `tonic_prost::ProstCodec` does: a message that cannot be parsed is INTERNAL.
        decoded.map(Some).map_err(|err| Status::internal(err.to_string()))
    }

    fn buffer_settings(&self) -> BufferSettings {
        buffer_settings()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use prost::bytes::{BufMut as _, Bytes, BytesMut};
    use tokio_stream::StreamExt as _;
    use tonic::codec::{CompressionEncoding, EncodeBody, Encoder, Streaming};

    use super::*;
    use crate::pb;

    /// A `Turn` with nested messages of every kind a decision carries.
    fn turn() -> pb::ServerMessage {
        let card = |rank, suit| pb::Card { rank, suit };
        let gin = pb::GinObservation {
            hand: (2..12).map(|rank| card(rank, 1 + rank % 4)).collect(),
            discard_pile: vec![card(5, 2), card(9, 3)],
            known_cards: vec![pb::Cards { cards: vec![card(5, 2)] }, pb::Cards::default()],
            scores: vec![12, 40],
            hand_sizes: vec![10, 11],
            phase: pb::GinPhase::Discard as i32,
            to_act: Some(1),
            ..pb::GinObservation::default()
        };
        let discard = |rank, suit| pb::Action {
            game: Some(pb::action::Game::Gin(pb::GinAction {
                action: Some(pb::gin_action::Action::Discard(card(rank, suit))),
            })),
        };
        let turn = pb::Turn {
            turn: 300,
            observation: Some(pb::Observation {
                seat: 1,
                game: Some(pb::observation::Game::Gin(gin)),
                json: String::new(),
            }),
            legal_actions: (0..11)
                .map(|index| pb::LegalAction { index, action: Some(discard(2 + index as i32, 1)) })
                .collect(),
            move_ms: 60_000,
            bank_ms: 600_000,
            text: String::new(),
        };
        pb::ServerMessage { message: Some(pb::server_message::Message::Turn(turn)) }
    }

    /// The gRPC body `encoder` makes of `messages`, whole.
    async fn body<E>(encoder: E, messages: Vec<pb::ServerMessage>) -> Bytes
    where
        E: Encoder<Item = pb::ServerMessage, Error = Status> + Send + 'static,
    {
        use http_body_util::BodyExt as _;
        let source = tokio_stream::iter(messages.into_iter().map(Ok));
        let body = EncodeBody::new_client(encoder, source, None::<CompressionEncoding>, None);
        body.collect().await.unwrap().to_bytes()
    }

    /// What `decoder` reads from the gRPC body `bytes`.
    async fn read<D>(decoder: D, bytes: Bytes) -> Vec<Result<pb::ServerMessage, Status>>
    where
        D: Decoder<Item = pb::ServerMessage, Error = Status> + Send + 'static,
    {
        let body = http_body_util::Full::new(bytes);
        let stream = Streaming::new_request(decoder, body, None, None);
        stream.collect().await
    }

    #[tokio::test]
    async fn every_message_of_a_stream_reads_back_whole() {
        let messages = vec![turn(), pb::ServerMessage::default(), turn()];
        let bytes = body(SliceCodec::<_, pb::ServerMessage>::default().encoder(), messages.clone());
        let decoder = SliceCodec::<pb::ServerMessage, pb::ServerMessage>::default().decoder();
        let read: Vec<pb::ServerMessage> =
            read(decoder, bytes.await).await.into_iter().map(Result::unwrap).collect();
        assert_eq!(read, messages);
    }

    #[tokio::test]
    async fn messages_many_times_the_buffer_read_back_whole() {
        // A turn whose view carries 40 KiB of JSON: the buffers start at 1 KiB and grow for it.
        let mut big = turn();
        if let Some(pb::server_message::Message::Turn(turn)) = &mut big.message {
            turn.observation.as_mut().unwrap().json = "x".repeat(40 * BUFFER_SIZE);
        }
        let messages = vec![turn(), big.clone(), turn(), big];
        let bytes = body(SliceCodec::<_, pb::ServerMessage>::default().encoder(), messages.clone());
        let decoder = SliceCodec::<pb::ServerMessage, pb::ServerMessage>::default().decoder();
        let read: Vec<pb::ServerMessage> =
            read(decoder, bytes.await).await.into_iter().map(Result::unwrap).collect();
        assert_eq!(read, messages);
    }

    #[tokio::test]
    async fn an_unreadable_message_is_internal_as_with_prost() {
        // One framed message whose body is a field header with its value cut off.
        let mut framed = BytesMut::new();
        framed.put_u8(0);
        framed.put_u32(2);
        framed.put_slice(&[0x0a, 0x05]);
        let decoder = SliceCodec::<pb::ServerMessage, pb::ServerMessage>::default().decoder();
        let ours = read(decoder, framed.clone().freeze()).await;
        let prosts = tonic_prost::ProstCodec::<pb::ServerMessage, pb::ServerMessage>::default();
        let theirs = read(prosts.clone().decoder(), framed.freeze()).await;
        let (Err(ours), Err(theirs)) = (&ours[0], &theirs[0]) else {
            panic!("both refuse the message: {ours:?} {theirs:?}")
        };
        assert_eq!(ours.code(), tonic::Code::Internal);
        assert_eq!((ours.code(), ours.message()), (theirs.code(), theirs.message()));
    }
}
