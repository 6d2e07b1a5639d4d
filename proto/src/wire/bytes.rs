//! What the games' own protobuf writers and readers share (`gin_bytes.rs`,
//! `twenty_two_bytes.rs`): field numbers every game's `Observation` has, the `Card` message's
//! layout, the scalar and length-delimited writers, the checked readers of a message's fields
//! in place, and [`Inline`], the fixed-size list a reader fills without allocating. Each reader
//! follows prost's rules for what it accepts, and gives `None` for what it leaves to prost.

use prost::encoding::{self, WireType, decode_varint, encode_varint, encoded_len_varint};

use crate::pb;

/// `Observation`'s field numbers.
pub(crate) const OBSERVATION_SEAT: u32 = 1;

pub(crate) const OBSERVATION_TWENTY_TWO: u32 = 2;

pub(crate) const OBSERVATION_JSON: u32 = 4;
/// `Observation.holdem`: the Hold'em view (read through prost's tree).
pub(crate) const OBSERVATION_HOLDEM: u32 = 5;

/// `Card`'s field numbers.
pub(crate) const CARD_RANK: u32 = 1;

pub(crate) const CARD_SUIT: u32 = 2;

/// A `Card` message's length: both fields are always set (no rank or suit is 0) and each value
/// fits a byte of varint (ranks 2 to 14, suits 1 to 4), so a key and a byte each.
pub(crate) const CARD_LEN: u8 = 4;

/// A `Card` message's bytes after its field's key: its length, then rank and suit, of the card
/// with this code ([`Card::index`](cardroom_games::Card::index)). A code is `(rank - 2) * 4 +
/// (suit - 1)` in `pb::Rank` and `pb::Suit` numbers (`super::cards_to_codes`): ranks 2 to 14
/// and suits 1 to 4, a byte of varint each. Every card is written in this form.
pub(crate) const fn card_message(code: u8) -> [u8; 1 + CARD_LEN as usize] {
    [CARD_LEN, RANK_KEY, code / 4 + 2, SUIT_KEY, code % 4 + 1]
}

/// A whole `Card` message field numbered below 16 (a one-byte key): the key, then
/// [`card_message`].
pub(crate) const fn card_field(tag: u32, code: u8) -> [u8; 2 + CARD_LEN as usize] {
    let [len, rank_key, rank, suit_key, suit] = card_message(code);
    [key_byte(tag, WireType::LengthDelimited), len, rank_key, rank, suit_key, suit]
}

/// The card a `Card` message's bytes hold when they are in the form every card is written in
/// ([`card_message`]: rank, then suit, a byte of varint each), read at once; `None` for any
/// other form, which the readers read field by field.
#[inline(always)]
pub(crate) fn written_card(bytes: &[u8]) -> Option<pb::Card> {
    match *bytes {
        [RANK_KEY, rank, SUIT_KEY, suit] if rank < 0x80 && suit < 0x80 => {
            Some(pb::Card { rank: i32::from(rank), suit: i32::from(suit) })
        }
        _ => None,
    }
}

/// The one-byte keys of a `Card`'s rank and suit.
const RANK_KEY: u8 = key_byte(CARD_RANK, WireType::Varint);
const SUIT_KEY: u8 = key_byte(CARD_SUIT, WireType::Varint);

/// A `uint32` field: left out when 0.
pub(crate) fn write_uint32(tag: u32, value: u32, buf: &mut Vec<u8>) {
    if value != 0 {
        put_key(tag, WireType::Varint, buf);
        put_varint(u64::from(value), buf);
    }
}

/// An `optional uint32` field that is set: written even when 0.
pub(crate) fn write_optional_uint32(tag: u32, value: u32, buf: &mut Vec<u8>) {
    put_key(tag, WireType::Varint, buf);
    put_varint(u64::from(value), buf);
}

/// A `bool` field: left out when false.
pub(crate) fn write_bool(tag: u32, value: bool, buf: &mut Vec<u8>) {
    if value {
        put_key(tag, WireType::Varint, buf);
        buf.push(1);
    }
}

/// The most one-byte values a packed list writes in one pass (seats, scores below 128, the
/// sizes of hands: a `Turn`'s lists all fit): their count is the length, itself one byte.
const SMALL_PACKED: usize = 0x7F;

/// A `repeated uint32` field, packed: left out when empty.
pub(crate) fn write_packed(tag: u32, values: impl Iterator<Item = u32> + Clone, buf: &mut Vec<u8>) {
    let mut count = 0;
    let all_small = values.clone().all(|value| {
        count += 1;
        value < 0x80 && count <= SMALL_PACKED
    });
    if all_small {
        if count > 0 {
            put_key(tag, WireType::LengthDelimited, buf);
            // Pushed a byte at a time: a copy from a buffer on the stack called `memcpy` for a
            // few bytes, five times a `Turn`.
            buf.reserve(1 + count);
            buf.push(count as u8);
            buf.extend(values.map(|value| value as u8));
        }
        return;
    }
    let len: usize = values.clone().map(|value| encoded_len_varint(u64::from(value))).sum();
    if len == 0 {
        return;
    }
    put_key(tag, WireType::LengthDelimited, buf);
    put_varint(len as u64, buf);
    for value in values {
        put_varint(u64::from(value), buf);
    }
}

/// A field's key.
#[inline(always)]
pub(crate) fn put_key(tag: u32, wire_type: WireType, buf: &mut Vec<u8>) {
    put_varint(u64::from(tag << 3 | wire_type as u32), buf);
}

/// A varint: a value below 128 (every key of a field numbered below 16, most values) pushed
/// inline, longer ones by prost's `encode_varint`.
#[inline(always)]
pub(crate) fn put_varint(value: u64, buf: &mut Vec<u8>) {
    match u8::try_from(value) {
        Ok(byte) if byte < 0x80 => buf.push(byte),
        _ => put_long_varint(value, buf),
    }
}

/// [`put_varint`]'s values of more than a byte, kept out of line: two bytes (the keys of fields
/// numbered 16 and above, most lengths) written here, longer ones by prost's `encode_varint`.
#[inline(never)]
fn put_long_varint(value: u64, buf: &mut Vec<u8>) {
    match u16::try_from(value) {
        Ok(value) if value < 0x4000 => {
            buf.extend_from_slice(&[(value as u8 & 0x7F) | 0x80, (value >> 7) as u8]);
        }
        _ => encode_varint(value, buf),
    }
}

/// The one-byte key of a field numbered below 16.
pub(crate) const fn key_byte(tag: u32, wire_type: WireType) -> u8 {
    (tag << 3) as u8 | wire_type as u8
}

/// A field's key off the front of `buf`, checked as prost's `decode_key` checks it (a key of 32
/// bits, a wire type that exists, a field number from 1).
pub(crate) fn read_key(buf: &mut &[u8]) -> Option<(u32, WireType)> {
    let key = u32::try_from(read_varint_value(buf)?).ok()?;
    let wire_type = WireType::try_from(u64::from(key & 7)).ok()?;
    let tag = key >> 3;
    (tag >= encoding::MIN_TAG).then_some((tag, wire_type))
}

/// [`read_varint_value`]'s varints of more than a byte, kept out of line: two bytes (the keys
/// of fields numbered 16 and above) read here, longer ones by prost's `decode_varint`. Each
/// byte gives its low seven bits, the first byte the lowest, as prost reads them.
#[inline(never)]
pub(crate) fn read_long_varint(buf: &mut &[u8]) -> Option<u64> {
    match **buf {
        [low, high, ..] if high < 0x80 => {
            *buf = &buf[2..];
            Some(u64::from(low & 0x7F) | u64::from(high) << 7)
        }
        _ => decode_varint(buf).ok(),
    }
}

/// The bytes of a length-delimited field (a message, `bytes`, a `string` or a packed list),
/// taken off the front of `buf`; `None` for another wire type or a length past the end.
pub(crate) fn read_delimited<'a>(wire_type: WireType, buf: &mut &'a [u8]) -> Option<&'a [u8]> {
    if wire_type != WireType::LengthDelimited {
        return None;
    }
    let len = usize::try_from(read_varint_value(buf)?).ok()?;
    let (field, rest) = buf.split_at_checked(len)?;
    *buf = rest;
    Some(field)
}

/// A varint field's value; `None` for another wire type.
pub(crate) fn read_varint(wire_type: WireType, buf: &mut &[u8]) -> Option<u64> {
    if wire_type != WireType::Varint {
        return None;
    }
    read_varint_value(buf)
}

/// A `uint32` field, cut to 32 bits as prost reads it.
pub(crate) fn read_uint32(wire_type: WireType, buf: &mut &[u8]) -> Option<u32> {
    read_varint(wire_type, buf).map(|value| value as u32)
}

/// An `int32` or enum field, cut to 32 bits as prost reads it.
pub(crate) fn read_int32(wire_type: WireType, buf: &mut &[u8]) -> Option<i32> {
    read_varint(wire_type, buf).map(|value| value as i32)
}

/// A `bool` field: any value but 0 is true, as prost reads it.
pub(crate) fn read_bool(wire_type: WireType, buf: &mut &[u8]) -> Option<bool> {
    read_varint(wire_type, buf).map(|value| value != 0)
}

/// A `repeated uint32` field's values, appended to `values`: packed (one length-delimited
/// field) or not (one varint), both of which prost reads.
pub(crate) fn read_packed<const N: usize>(
    wire_type: WireType,
    buf: &mut &[u8],
    values: &mut Inline<u32, N>,
) -> Option<()> {
    if wire_type == WireType::LengthDelimited {
        let mut packed = read_delimited(wire_type, buf)?;
        // Values below 128, a byte each (seats, hand sizes, most scores): the bytes are the
        // values, copied at once.
        if packed.iter().all(|&byte| byte < 0x80) {
            return values.extend_from_bytes(packed);
        }
        while !packed.is_empty() {
            values.push(read_varint_value(&mut packed)? as u32)?;
        }
        Some(())
    } else {
        values.push(read_uint32(wire_type, buf)?)
    }
}

/// An enum field: its number, left out when 0 (a negative number would take ten bytes, as
/// prost writes an `int32`; no `GinPhase` is negative).
pub(crate) fn write_enum(tag: u32, value: i32, buf: &mut Vec<u8>) {
    if value != 0 {
        put_key(tag, WireType::Varint, buf);
        put_varint(i64::from(value) as u64, buf);
    }
}

/// A varint off the front of `buf`: a byte below 128 (every key of a field numbered below 16,
/// most values) read inline, a few instructions, longer ones by prost's `decode_varint` (which
/// refuses what is too long or cut short).
#[inline(always)]
pub(crate) fn read_varint_value(buf: &mut &[u8]) -> Option<u64> {
    match buf.split_first() {
        Some((&byte, rest)) if byte < 0x80 => {
            *buf = rest;
            Some(u64::from(byte))
        }
        _ => read_long_varint(buf),
    }
}

/// A length-delimited field whose length is known only once it is written: `write` appends
/// its bytes after `room` bytes left for the length (1 for a seat, a trick, a round or a
/// deal's result, most of which are below 128 bytes; 2 for the view and the JSON, which hold
/// lengths up to 16,383), then the length goes in front, the bytes moved if it takes more or
/// fewer. If `write` gives `None`, the field is left out (whatever it wrote is dropped).
pub(crate) fn write_delimited(
    tag: u32,
    room: usize,
    buf: &mut Vec<u8>,
    write: impl FnOnce(&mut Vec<u8>) -> Option<()>,
) {
    let start = buf.len();
    put_key(tag, WireType::LengthDelimited, buf);
    let at = buf.len();
    buf.resize(at + room, 0);
    if write(buf).is_none() {
        buf.truncate(start);
        return;
    }
    let body = at + room;
    let end = buf.len();
    let len = (end - body) as u64;
    let head_len = encoded_len_varint(len);
    let mut head = [0u8; 10];
    encode_varint(len, &mut &mut head[..]);
    if head_len > room {
        buf.resize(end + head_len - room, 0);
        buf.copy_within(body..end, at + head_len);
    } else if head_len < room {
        buf.copy_within(body..end, at + head_len);
        buf.truncate(end - (room - head_len));
    }
    buf[at..at + head_len].copy_from_slice(&head[..head_len]);
}

/// A message field, written by `write` (see [`write_delimited`]).
pub(crate) fn write_message(
    tag: u32,
    room: usize,
    buf: &mut Vec<u8>,
    write: impl FnOnce(&mut Vec<u8>),
) {
    write_delimited(tag, room, buf, |buf| {
        write(buf);
        Some(())
    });
}

/// Up to `N` values of a repeated field, kept in place (no allocation); more are refused
/// (`None`), for prost to read.
#[derive(Clone, Copy)]
pub(crate) struct Inline<T, const N: usize> {
    values: [T; N],
    len: usize,
}

impl<T: Copy + Default, const N: usize> Default for Inline<T, N> {
    fn default() -> Self {
        Inline { values: [T::default(); N], len: 0 }
    }
}

impl<T, const N: usize> Inline<T, N> {
    /// Appends a value; `None` if `N` are held already.
    pub(crate) fn push(&mut self, value: T) -> Option<()> {
        *self.values.get_mut(self.len)? = value;
        self.len += 1;
        Some(())
    }

    /// Appends a value for each byte; `None` if they do not all fit (then none is appended).
    pub(crate) fn extend_from_bytes(&mut self, bytes: &[u8]) -> Option<()>
    where
        T: From<u8>,
    {
        let end = self.len.checked_add(bytes.len())?;
        let slots = self.values.get_mut(self.len..end)?;
        for (slot, &byte) in slots.iter_mut().zip(bytes) {
            *slot = T::from(byte);
        }
        self.len = end;
        Some(())
    }

    /// Appends a default value and lends it, to be filled in place (a value too big to be
    /// copied in); `None` if `N` are held already.
    pub(crate) fn push_default(&mut self) -> Option<&mut T>
    where
        T: Default,
    {
        let slot = self.values.get_mut(self.len)?;
        *slot = T::default();
        self.len += 1;
        Some(slot)
    }

    /// How many are held.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn as_slice(&self) -> &[T] {
        self.values.get(..self.len).unwrap_or_default()
    }
}

/// What the byte readers' tests share: every `Omit`, fields taken apart and put together, and
/// unknown fields and groups to add.
#[cfg(test)]
#[allow(clippy::unwrap_used)]
pub(crate) mod testing {
    use prost::encoding::{DecodeContext, WireType, decode_key, encode_key, skip_field};
    use prost::encoding::{decode_varint, encode_varint};

    use std::collections::VecDeque;

    use prost::encoding;

    use super::{CARD_RANK, CARD_SUIT};
    use crate::pb;
    use crate::wire::{TestRng as Rng, WireGame, decode_through_pb};

    /// The compact form the Rust SDK asks for: no JSON, cards as codes, Gin Rummy's known cards
    /// too (which change nothing in a Twenty-Two view).
    pub(crate) const COMPACT: pb::Omit = pb::Omit {
        json: true,
        cards: true,
        known_cards: true,
        typed: false,
        legal_actions: true,
        events: false,
    };
    /// The full form: `Card` messages and the JSON.
    pub(crate) const FULL: pb::Omit = pb::Omit {
        json: false,
        cards: false,
        known_cards: false,
        typed: false,
        legal_actions: false,
        events: false,
    };
    /// `Card` messages without the JSON.
    pub(crate) const MESSAGES: pb::Omit = pb::Omit { json: true, ..FULL };

    /// One field of a message's bytes: its number and its bytes, key included.
    pub(crate) struct Field {
        pub(crate) tag: u32,
        pub(crate) bytes: Vec<u8>,
        /// Where its value starts in `bytes`, after the key.
        pub(crate) value_at: usize,
    }

    impl Field {
        /// A length-delimited field's value, after its length.
        pub(crate) fn payload(&self) -> &[u8] {
            let mut value = &self.bytes[self.value_at..];
            let len = decode_varint(&mut value).unwrap() as usize;
            assert_eq!(len, value.len());
            value
        }

        /// A packed list's values.
        pub(crate) fn packed(&self) -> Vec<u64> {
            let mut payload = self.payload();
            let mut values = Vec::new();
            while !payload.is_empty() {
                values.push(decode_varint(&mut payload).unwrap());
            }
            values
        }
    }

    /// A well-formed message's fields, in order.
    pub(crate) fn fields(bytes: &[u8]) -> Vec<Field> {
        let mut buf = bytes;
        let mut fields = Vec::new();
        while !buf.is_empty() {
            let start = bytes.len() - buf.len();
            let (tag, wire_type) = decode_key(&mut buf).unwrap();
            let value_at = bytes.len() - buf.len() - start;
            skip_field(wire_type, tag, &mut buf, DecodeContext::default()).unwrap();
            let end = bytes.len() - buf.len();
            fields.push(Field { tag, bytes: bytes[start..end].to_vec(), value_at });
        }
        fields
    }

    pub(crate) fn varint_field(tag: u32, value: u64) -> Vec<u8> {
        let mut bytes = Vec::new();
        encode_key(tag, WireType::Varint, &mut bytes);
        encode_varint(value, &mut bytes);
        bytes
    }

    pub(crate) fn delimited(tag: u32, payload: &[u8]) -> Vec<u8> {
        let mut bytes = Vec::new();
        encode_key(tag, WireType::LengthDelimited, &mut bytes);
        encode_varint(payload.len() as u64, &mut bytes);
        bytes.extend_from_slice(payload);
        bytes
    }

    /// A field of a number the message does not have, of any wire type (a group holds one
    /// field of its own).
    pub(crate) fn unknown_field(tags: &[u32], rng: &mut Rng) -> Vec<u8> {
        let tag = tags[rng.below(tags.len())];
        let mut bytes = Vec::new();
        match rng.below(5) {
            0 => bytes = varint_field(tag, 1 << rng.below(64)),
            1 => {
                encode_key(tag, WireType::SixtyFourBit, &mut bytes);
                bytes.extend_from_slice(&[7; 8]);
            }
            2 => {
                encode_key(tag, WireType::ThirtyTwoBit, &mut bytes);
                bytes.extend_from_slice(&[9; 4]);
            }
            3 => bytes = delimited(tag, &vec![0xFF; rng.below(6)]),
            _ => {
                encode_key(tag, WireType::StartGroup, &mut bytes);
                bytes.extend(varint_field(1, 300));
                encode_key(tag, WireType::EndGroup, &mut bytes);
            }
        }
        bytes
    }

    /// What a field of a message holds, for [`rewrite`].
    #[derive(Clone, Copy)]
    pub(crate) enum Kind {
        /// A varint (`uint32`, `bool`, an enum, `optional` or not): the last one sent wins.
        Scalar,
        /// A `repeated uint32`, packed.
        Packed,
        /// `bytes` or a `string`: the last one sent wins.
        Bytes,
        /// An entry of a `repeated bytes`: kept as it is, in its place among its field's.
        BytesEntry,
        /// A message, with its fields; `once` if the field is not repeated (sent twice, the
        /// two are merged).
        Message { fields: &'static [(u32, Kind)], once: bool },
    }

    pub(crate) const CARD: &[(u32, Kind)] = &[(CARD_RANK, Kind::Scalar), (CARD_SUIT, Kind::Scalar)];

    pub(crate) const ONE_CARD: Kind = Kind::Message { fields: CARD, once: true };

    pub(crate) const CARD_ENTRY: Kind = Kind::Message { fields: CARD, once: false };

    /// An unknown group nested `depth` deep.
    pub(crate) fn nested_group(tag: u32, depth: usize) -> Vec<u8> {
        let mut bytes = Vec::new();
        for _ in 0..depth {
            encode_key(tag, WireType::StartGroup, &mut bytes);
        }
        for _ in 0..depth {
            encode_key(tag, WireType::EndGroup, &mut bytes);
        }
        bytes
    }

    /// The bytes with `extra` appended inside the message that `path` leads to: field numbers
    /// from the `Observation` down, each the first field of that number.
    pub(crate) fn append_inside(bytes: &[u8], path: &[u32], extra: &[u8]) -> Vec<u8> {
        let Some((&tag, rest)) = path.split_first() else {
            return [bytes, extra].concat();
        };
        let mut out = Vec::new();
        let mut done = false;
        for field in fields(bytes) {
            if field.tag == tag && !done {
                out.extend(delimited(tag, &append_inside(field.payload(), rest, extra)));
                done = true;
            } else {
                out.extend(field.bytes);
            }
        }
        assert!(done, "no field {tag} on the way {path:?}");
        out
    }

    /// Every `Omit` a connection may hold, as far as the observation goes (`legal_actions` and
    /// `events` are the `Turn`'s): all but `json` with `typed`, which `check_omit` refuses.
    pub(crate) fn omits() -> impl Iterator<Item = pb::Omit> {
        (0..16)
            .map(|bits| pb::Omit {
                json: bits & 1 != 0,
                typed: bits & 2 != 0,
                cards: bits & 4 != 0,
                known_cards: bits & 8 != 0,
                ..pb::Omit::default()
            })
            .filter(|omit| !(omit.json && omit.typed))
    }

    /// A game's own reader agrees with the default on `bytes`, whatever they are: the same
    /// observation, or the same error.
    pub(crate) fn assert_read_as_prost_reads<G: WireGame>(
        bytes: &[u8],
        legal_actions: &[pb::LegalAction],
        options: &G::Options,
    ) where
        G::Observation: std::fmt::Debug + PartialEq,
    {
        let read = G::decode_observation(bytes, legal_actions, options);
        let expected = decode_through_pb::<G>(bytes, legal_actions, options);
        assert_eq!(read, expected, "bytes {bytes:?}");
    }

    /// An observation's bytes as the game writes them.
    pub(crate) fn encoded<G: WireGame>(observation: &G::Observation, omit: &pb::Omit) -> Vec<u8> {
        let mut bytes = Vec::new();
        G::encode_observation(observation, omit, &mut bytes);
        bytes
    }

    /// Fields in a random order that keeps each number's own in order (the order that
    /// matters: lists append, the last of a scalar wins), with unknown fields among them if
    /// `unknown`.
    pub(crate) fn shuffle(
        fields: Vec<(u32, Vec<u8>)>,
        unknown_tags: &[u32],
        unknown: bool,
        rng: &mut Rng,
    ) -> Vec<u8> {
        let mut queues: Vec<(u32, VecDeque<Vec<u8>>)> = Vec::new();
        for (tag, bytes) in fields {
            match queues.iter_mut().find(|(queue_tag, _)| *queue_tag == tag) {
                Some((_, queue)) => queue.push_back(bytes),
                None => queues.push((tag, VecDeque::from([bytes]))),
            }
        }
        if unknown {
            for _ in 0..rng.below(3) {
                queues.push((u32::MAX, VecDeque::from([unknown_field(unknown_tags, rng)])));
            }
        }
        let mut out = Vec::new();
        while !queues.is_empty() {
            let pick = rng.below(queues.len());
            out.extend(queues[pick].1.pop_front().unwrap());
            if queues[pick].1.is_empty() {
                queues.remove(pick);
            }
        }
        out
    }

    /// A message's bytes written otherwise, as prost still reads them to the same value: its
    /// fields in any order (each number's own kept in order), unknown fields among them if
    /// `unknown`, packed lists unpacked, scalars and `bytes` sent twice (the first one
    /// overridden), and each field of a message that is not repeated sent in two parts
    /// (merged), all the way down. A field `fields` does not name (Gin Rummy's `outcome`,
    /// Twenty-Two's `standings`) is copied as it is.
    pub(crate) fn rewrite(
        bytes: &[u8],
        fields_of: &[(u32, Kind)],
        unknown: bool,
        rng: &mut Rng,
    ) -> Vec<u8> {
        let mut out = Vec::new();
        for field in fields(bytes) {
            let tag = field.tag;
            let kind = fields_of.iter().find(|(known, _)| *known == tag).map(|&(_, kind)| kind);
            match kind {
                Some(Kind::Packed) if rng.coin() => {
                    for value in field.packed() {
                        out.push((tag, varint_field(tag, value)));
                    }
                }
                Some(Kind::Scalar) if rng.coin() => {
                    out.push((tag, varint_field(tag, 12_345)));
                    out.push((tag, field.bytes));
                }
                Some(Kind::Bytes) if rng.coin() => {
                    out.push((tag, delimited(tag, b"<=>")));
                    out.push((tag, field.bytes));
                }
                Some(Kind::Message { fields: inner, once }) => {
                    let payload = rewrite(field.payload(), inner, unknown, rng);
                    // Cut between two of its fields, as a part may not end inside one.
                    let cut = rng.below(payload.len() + 1);
                    let cut = (fields(&payload).iter())
                        .scan(0, |at, field| {
                            *at += field.bytes.len();
                            Some(*at)
                        })
                        .filter(|&at| at <= cut)
                        .last()
                        .unwrap_or(0);
                    if once && cut > 0 {
                        out.push((tag, delimited(tag, &payload[..cut])));
                        out.push((tag, delimited(tag, &payload[cut..])));
                    } else {
                        out.push((tag, delimited(tag, &payload)));
                    }
                }
                _ => out.push((tag, field.bytes)),
            }
        }
        let unknown_tags: Vec<u32> = [6, 7, 15, 16, 26, 99, 2_047, 16_000, encoding::MAX_TAG]
            .into_iter()
            .filter(|tag| fields_of.iter().all(|(known, _)| known != tag))
            .collect();
        shuffle(out, &unknown_tags, unknown, rng)
    }

    /// What [`cut_and_damage`] found over the bytes it changed.
    #[derive(Debug, Default)]
    pub(crate) struct Damage {
        /// Bytes changed and read.
        pub(crate) mutations: usize,
        /// Of those, refused by both readers.
        pub(crate) refused: usize,
        /// Of those, read by the game's own reader rather than left to prost.
        pub(crate) in_place: usize,
    }

    /// Checks `G`'s reader against the default on `bytes` cut at every length (if `cuts`) and
    /// on `damages` copies with one byte changed (flipped, moved by one or replaced), aiming at
    /// the first `aim` bytes half the time when given (a full form's JSON is long and only
    /// needs to be UTF-8); adds to `tally`. `in_place` says whether the game reads bytes itself.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn cut_and_damage<G: WireGame>(
        bytes: &[u8],
        legal: &[pb::LegalAction],
        options: &G::Options,
        cuts: bool,
        damages: usize,
        aim: Option<usize>,
        in_place: impl Fn(&[u8]) -> bool,
        rng: &mut Rng,
        tally: &mut Damage,
    ) where
        G::Observation: std::fmt::Debug + PartialEq,
    {
        if cuts {
            for len in 0..bytes.len() {
                assert_read_as_prost_reads::<G>(&bytes[..len], legal, options);
            }
        }
        // Every damaged reading is also written over one kept observation, as the SDK reads a
        // match's `Turn`s: the same observation or the same error, and a refused reading
        // leaves it to be written over by the next.
        let mut kept = G::decode_observation(bytes, legal, options).ok();
        for _ in 0..damages {
            let mut damaged = bytes.to_vec();
            let at = match aim {
                Some(aim) if rng.coin() => rng.below(damaged.len().min(aim)),
                _ => rng.below(damaged.len()),
            };
            damaged[at] = match rng.below(4) {
                0 => damaged[at] ^ (1 << rng.below(8)),
                1 => damaged[at].wrapping_add(1),
                2 => damaged[at].wrapping_sub(1),
                _ => rng.below(256) as u8,
            };
            let read = G::decode_observation(&damaged, legal, options);
            assert_eq!(read, decode_through_pb::<G>(&damaged, legal, options), "{damaged:?}");
            if let Some(kept) = kept.as_mut() {
                let into = G::decode_observation_into(&damaged, legal, options, kept);
                match &read {
                    Ok(observation) => assert_eq!((into, &*kept), (Ok(()), observation)),
                    Err(error) => assert_eq!(into.as_ref(), Err(error), "{damaged:?}"),
                }
            }
            tally.refused += usize::from(read.is_err());
            tally.in_place += usize::from(in_place(&damaged));
            tally.mutations += 1;
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Every varint of one to three bytes (with a byte after it), canonical or not, and every
    /// cut or overlong one, is read as prost reads it, to the same byte.
    #[test]
    fn varints_are_read_as_prost_reads_them() {
        let mut inputs: Vec<Vec<u8>> = vec![vec![], vec![0x80], vec![0xFF; 11], vec![0x80; 10]];
        for b0 in 0..=255u8 {
            inputs.push(vec![b0, 0x2A]);
            for b1 in 0..=255u8 {
                inputs.push(vec![b0, b1, 0x2A]);
                inputs.push(vec![b0, b1]);
                for b2 in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                    inputs.push(vec![b0, b1, b2, 0x2A]);
                }
            }
        }
        for input in inputs {
            let (mut ours, mut prosts) = (&input[..], &input[..]);
            let read = read_varint_value(&mut ours);
            let expected = decode_varint(&mut prosts).ok();
            assert_eq!(read, expected, "{input:?}");
            if expected.is_some() {
                assert_eq!(ours, prosts, "what is left of {input:?}");
            }
        }
    }

    /// Packed lists are read as prost reads them, one byte a value or more, until the list's
    /// room is full: then nothing is read (`None`, for prost to read the whole message).
    #[test]
    fn packed_lists_are_read_as_prost_reads_them_while_they_fit() {
        let mut rng = crate::wire::TestRng::new(9);
        for _ in 0..5_000 {
            let len = rng.below(12);
            let values: Vec<u32> = (0..len)
                .map(|_| {
                    if rng.below(5) == 0 {
                        128 + rng.below(1_000) as u32
                    } else {
                        rng.below(128) as u32
                    }
                })
                .collect();
            let mut bytes = Vec::new();
            prost::encoding::uint32::encode_packed(3, &values, &mut bytes);
            let mut field = &bytes[..];
            let Some((3, wire_type)) = read_key(&mut field) else { continue };
            let mut read = Inline::<u32, 8>::default();
            read.push(5).unwrap();
            let fits = values.len() < 8;
            assert_eq!(read_packed(wire_type, &mut field, &mut read).is_some(), fits, "{values:?}");
            if fits {
                assert_eq!(read.as_slice()[1..], values[..], "{bytes:?}");
                assert!(field.is_empty());
            }
        }
    }

    /// Varints are written as prost writes them, around every length's boundary.
    #[test]
    fn varints_are_written_as_prost_writes_them() {
        let edges = (0..64).flat_map(|bit| {
            let at = 1u64 << bit;
            [at - 1, at, at + 1]
        });
        for value in (0..40_000).chain(edges).chain([u64::MAX]) {
            let (mut ours, mut prosts) = (vec![7], vec![7]);
            put_varint(value, &mut ours);
            encode_varint(value, &mut prosts);
            assert_eq!(ours, prosts, "{value}");
        }
    }

    /// Packed lists are written as prost writes them: short and long (past the 127 values a
    /// one-byte length counts), with values of one byte and of more, empty ones left out.
    #[test]
    fn packed_lists_are_written_as_prost_writes_them() {
        let mut rng = crate::wire::TestRng::new(7);
        for _ in 0..5_000 {
            let len = rng.below(200);
            let wide = rng.below(4) == 0;
            let values: Vec<u32> = (0..len)
                .map(|_| match (wide, rng.below(50)) {
                    (true, 0) => u32::MAX,
                    (true, 1) => 128 + rng.below(20_000) as u32,
                    _ => rng.below(128) as u32,
                })
                .collect();
            let mut ours = vec![7];
            write_packed(17, values.iter().copied(), &mut ours);
            let mut prosts = vec![7];
            prost::encoding::uint32::encode_packed(17, &values, &mut prosts);
            assert_eq!(ours, prosts, "{values:?}");
        }
    }
}
