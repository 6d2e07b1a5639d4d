//! A Twenty-Two observation as the bytes of an `Observation` message, written field by field
//! with prost's low-level encoding, without its typed tree.
//!
//! Every decision the server writes a `Turn`. Through prost's tree that meant a
//! `TwentyTwoObservation` of a `Vec` a seat, a trick, a play and a dealer draw round (up to
//! twelve seats, each with its penalty pile and won cards), built, measured at each level,
//! written and dropped. Here [`encode`] writes the fields straight from the engine's
//! observation, in field-number order as prost does, byte for byte what prost writes for
//! [`WireGame::observation_to_pb`] (proto3 leaves out zeros, `false` and empty lists, and writes
//! `optional` fields and message fields whenever they are set). A `Card` is always 4 bytes; a
//! nested message of varying length (the view, a seat, a trick, a play, a dealer draw round, the
//! last deal's result, the JSON) has its length written in front of it once it is written
//! ([`write_delimited`]). The final standings, once a match, are prost's message, built by the
//! conversion [`WireGame::observation_to_pb`] uses.
//!
//! [`WireGame::observation_to_pb`]: super::WireGame::observation_to_pb

use cardroom_games::Card;
use cardroom_games::twenty_two::{
    DealResult, Observation, PublicSeat, PublicView, SeatCard, Trick,
};
use prost::encoding::{self, WireType, encode_varint, encoded_len_varint};

use super::{phase_to_pb, tie_break_to_pb};
use crate::pb;
use crate::wire::{count, seat_to_pb, standing_to_pb};

/// `Observation`'s field numbers.
const OBSERVATION_SEAT: u32 = 1;
const OBSERVATION_TWENTY_TWO: u32 = 2;
const OBSERVATION_JSON: u32 = 4;

/// `TwentyTwoObservation`'s field numbers.
const TT_HAND: u32 = 1;
const TT_DISCARDS: u32 = 2;
const TT_PUBLIC: u32 = 3;
const TT_HAND_CODES: u32 = 4;

/// `TwentyTwoPublic`'s field numbers (7 is reserved).
const PUBLIC_DEAL: u32 = 1;
const PUBLIC_DEALER: u32 = 2;
const PUBLIC_CARDS_DEALT: u32 = 3;
const PUBLIC_STOCK_SIZE: u32 = 4;
const PUBLIC_PACKS: u32 = 5;
const PUBLIC_SEATS: u32 = 6;
const PUBLIC_TO_ACT: u32 = 8;
const PUBLIC_LEADER: u32 = 9;
const PUBLIC_TRICKS: u32 = 10;
const PUBLIC_PHASE: u32 = 11;
const PUBLIC_DEALER_DRAW: u32 = 12;
const PUBLIC_LAST_DEAL: u32 = 13;
const PUBLIC_STANDINGS: u32 = 14;

/// `TwentyTwoSeat`'s field numbers.
const SEAT_SEAT: u32 = 1;
const SEAT_SCORE: u32 = 2;
const SEAT_PENALTY_PILE: u32 = 3;
const SEAT_ELIMINATED: u32 = 4;
const SEAT_HAND_SIZE: u32 = 5;
const SEAT_EXCHANGED: u32 = 6;
const SEAT_WON: u32 = 7;

/// `TwentyTwoTrick`'s field numbers.
const TRICK_PLAYS: u32 = 1;
const TRICK_STRONGEST: u32 = 2;
const TRICK_WINNER: u32 = 3;

/// `TwentyTwoPlay`'s field numbers.
const PLAY_SEAT: u32 = 1;
const PLAY_CARDS: u32 = 2;

/// `TwentyTwoDrawRound`'s field number.
const ROUND_CARDS: u32 = 1;

/// `TwentyTwoSeatCard`'s field numbers.
const SEAT_CARD_SEAT: u32 = 1;
const SEAT_CARD_CARD: u32 = 2;

/// `TwentyTwoDealResult`'s field numbers.
const RESULT_DEAL: u32 = 1;
const RESULT_REVEALED: u32 = 2;
const RESULT_RANK: u32 = 3;
const RESULT_LOSERS: u32 = 4;
const RESULT_TIE_BREAK: u32 = 5;
const RESULT_ELIMINATED: u32 = 6;

/// `Card`'s field numbers.
const CARD_RANK: u32 = 1;
const CARD_SUIT: u32 = 2;

/// A `Card` message's length: both fields are always set (no rank or suit is 0) and each value
/// fits a byte of varint (ranks 2 to 14, suits 1 to 4), so a key and a byte each.
const CARD_LEN: u8 = 4;

/// Appends the bytes of `observation`'s `Observation` message, as `omit` asks: what prost
/// writes for [`WireGame::observation_to_pb`](super::WireGame::observation_to_pb), byte for
/// byte.
pub(super) fn encode(observation: &Observation, omit: &pb::Omit, buf: &mut Vec<u8>) {
    write_uint32(OBSERVATION_SEAT, seat_to_pb(observation.seat), buf);
    if !omit.typed {
        write_message(OBSERVATION_TWENTY_TWO, 2, buf, |buf| {
            write_twenty_two(observation, omit.cards, buf);
        });
    }
    if !omit.json {
        // `serde_json::to_string` as `observation_to_pb` writes it, straight into `buf`; the
        // field is left out if it fails, as the default's empty string is.
        write_delimited(OBSERVATION_JSON, 2, buf, |buf| {
            serde_json::to_writer(&mut *buf, observation).ok()
        });
    }
}

/// Writes the fields of a seat's `TwentyTwoObservation`, as [`super::typed`] fills it: the
/// hand as card codes if `codes` (`Omit.cards`), else as `Card` messages.
fn write_twenty_two(observation: &Observation, codes: bool, buf: &mut Vec<u8>) {
    let hand = observation.hand.as_slice();
    if !codes {
        for &card in hand {
            write_card(TT_HAND, card, buf);
        }
    }
    for &card in &observation.discards {
        write_card(TT_DISCARDS, card, buf);
    }
    write_message(TT_PUBLIC, 2, buf, |buf| write_public(&observation.public, buf));
    if codes && !hand.is_empty() {
        put_key(TT_HAND_CODES, WireType::LengthDelimited, buf);
        put_varint(hand.len() as u64, buf);
        buf.extend(hand.iter().map(|card| card.index()));
    }
}

/// The public view, as [`super::typed`] fills `TwentyTwoPublic` (TT-24).
fn write_public(public: &PublicView, buf: &mut Vec<u8>) {
    let (phase, to_act, leader) = phase_to_pb(public.phase);
    write_uint32(PUBLIC_DEAL, public.deal, buf);
    write_uint32(PUBLIC_DEALER, seat_to_pb(public.dealer), buf);
    write_uint32(PUBLIC_CARDS_DEALT, u32::from(public.hand_size), buf);
    write_uint32(PUBLIC_STOCK_SIZE, count(public.stock_len), buf);
    write_uint32(PUBLIC_PACKS, u32::from(public.packs), buf);
    for seat in &public.seats {
        write_message(PUBLIC_SEATS, 1, buf, |buf| write_seat(seat, buf));
    }
    if let Some(seat) = to_act {
        write_optional_uint32(PUBLIC_TO_ACT, seat_to_pb(seat), buf);
    }
    if let Some(seat) = leader {
        write_optional_uint32(PUBLIC_LEADER, seat_to_pb(seat), buf);
    }
    for trick in &public.tricks {
        write_message(PUBLIC_TRICKS, 1, buf, |buf| write_trick(trick, buf));
    }
    write_enum(PUBLIC_PHASE, phase as i32, buf);
    for round in &public.dealer_draw {
        write_message(PUBLIC_DEALER_DRAW, 1, buf, |buf| {
            for card in round {
                write_seat_card(ROUND_CARDS, card, buf);
            }
        });
    }
    if let Some(result) = &public.last_deal {
        write_message(PUBLIC_LAST_DEAL, 1, buf, |buf| write_deal_result(result, buf));
    }
    // Once a match, at its end: prost's message.
    if let Some(standings) = &public.standings {
        let standings = pb::Standings { standings: standings.iter().map(standing_to_pb).collect() };
        encoding::message::encode(PUBLIC_STANDINGS, &standings, buf);
    }
}

/// One seat as everybody sees it, as [`super::public_seat_to_pb`] fills `TwentyTwoSeat`.
fn write_seat(seat: &PublicSeat, buf: &mut Vec<u8>) {
    write_uint32(SEAT_SEAT, seat_to_pb(seat.seat), buf);
    write_uint32(SEAT_SCORE, seat.score, buf);
    for &card in &seat.penalty_pile {
        write_card(SEAT_PENALTY_PILE, card, buf);
    }
    write_bool(SEAT_ELIMINATED, seat.eliminated, buf);
    write_uint32(SEAT_HAND_SIZE, count(seat.hand_len), buf);
    if let Some(exchanged) = seat.exchanged {
        write_optional_uint32(SEAT_EXCHANGED, u32::from(exchanged), buf);
    }
    for &card in &seat.won {
        write_card(SEAT_WON, card, buf);
    }
}

/// A trick, as [`super::trick_to_pb`] fills `TwentyTwoTrick`.
fn write_trick(trick: &Trick, buf: &mut Vec<u8>) {
    for play in &trick.plays {
        let cards = play.cards.as_slice();
        let seat = seat_to_pb(play.seat);
        // Counted rather than written in front: a seat and up to eleven cards.
        let len = uint32_len(PLAY_SEAT, seat) + cards.len() * CARD_ENTRY_LEN;
        put_key(TRICK_PLAYS, WireType::LengthDelimited, buf);
        put_varint(len as u64, buf);
        write_uint32(PLAY_SEAT, seat, buf);
        for &card in cards {
            write_card(PLAY_CARDS, card, buf);
        }
    }
    write_uint32(TRICK_STRONGEST, count(trick.strongest), buf);
    if let Some(winner) = trick.winner {
        write_optional_uint32(TRICK_WINNER, seat_to_pb(winner), buf);
    }
}

/// How the previous deal ended, as [`super::deal_result_to_pb`] fills `TwentyTwoDealResult`.
fn write_deal_result(result: &DealResult, buf: &mut Vec<u8>) {
    write_uint32(RESULT_DEAL, result.deal, buf);
    for card in &result.revealed {
        write_seat_card(RESULT_REVEALED, card, buf);
    }
    write_enum(RESULT_RANK, result.rank as i32, buf);
    write_packed(RESULT_LOSERS, result.losers.iter().copied().map(seat_to_pb), buf);
    write_enum(RESULT_TIE_BREAK, tie_break_to_pb(result.tie_break) as i32, buf);
    write_packed(RESULT_ELIMINATED, result.eliminated.iter().copied().map(seat_to_pb), buf);
}

/// A `TwentyTwoSeatCard` message field: the seat and its card (always set).
fn write_seat_card(tag: u32, card: &SeatCard, buf: &mut Vec<u8>) {
    let seat = seat_to_pb(card.seat);
    let len = uint32_len(SEAT_CARD_SEAT, seat) + CARD_ENTRY_LEN;
    put_key(tag, WireType::LengthDelimited, buf);
    put_varint(len as u64, buf);
    write_uint32(SEAT_CARD_SEAT, seat, buf);
    write_card(SEAT_CARD_CARD, card.card, buf);
}

/// The bytes of one `Card` message field numbered below 16: key, length, the `Card`.
const CARD_ENTRY_LEN: usize = 2 + CARD_LEN as usize;

/// The bytes [`write_uint32`] writes.
fn uint32_len(tag: u32, value: u32) -> usize {
    if value == 0 { 0 } else { encoding::key_len(tag) + encoded_len_varint(u64::from(value)) }
}

/// A `uint32` field: left out when 0.
fn write_uint32(tag: u32, value: u32, buf: &mut Vec<u8>) {
    if value != 0 {
        put_key(tag, WireType::Varint, buf);
        put_varint(u64::from(value), buf);
    }
}

/// An `optional uint32` field that is set: written even when 0.
fn write_optional_uint32(tag: u32, value: u32, buf: &mut Vec<u8>) {
    put_key(tag, WireType::Varint, buf);
    put_varint(u64::from(value), buf);
}

/// An enum field: its number, left out when 0 (a negative number would take ten bytes, as
/// prost writes an `int32`; no value of these enums is negative).
fn write_enum(tag: u32, value: i32, buf: &mut Vec<u8>) {
    if value != 0 {
        put_key(tag, WireType::Varint, buf);
        put_varint(i64::from(value) as u64, buf);
    }
}

/// A `bool` field: left out when false.
fn write_bool(tag: u32, value: bool, buf: &mut Vec<u8>) {
    if value {
        put_key(tag, WireType::Varint, buf);
        buf.push(1);
    }
}

/// A `repeated uint32` field, packed: left out when empty.
fn write_packed(tag: u32, values: impl Iterator<Item = u32> + Clone, buf: &mut Vec<u8>) {
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

/// A `Card` message field (one card of a `repeated Card`, or a `Card` that is set), numbered
/// below 16.
fn write_card(tag: u32, card: Card, buf: &mut Vec<u8>) {
    // A card's code is `(rank - 2) * 4 + (suit - 1)` in `pb::Rank` and `pb::Suit` numbers
    // (`super::super::cards_to_codes`): ranks 2 to 14 and suits 1 to 4, a byte of varint each.
    let code = card.index();
    buf.extend_from_slice(&[
        key_byte(tag, WireType::LengthDelimited),
        CARD_LEN,
        key_byte(CARD_RANK, WireType::Varint),
        code / 4 + 2,
        key_byte(CARD_SUIT, WireType::Varint),
        code % 4 + 1,
    ]);
}

/// A field's key.
#[inline(always)]
fn put_key(tag: u32, wire_type: WireType, buf: &mut Vec<u8>) {
    put_varint(u64::from(tag << 3 | wire_type as u32), buf);
}

/// A varint: a value below 128 (every key of a field numbered below 16, most values) pushed
/// inline, longer ones by prost's `encode_varint`.
#[inline(always)]
fn put_varint(value: u64, buf: &mut Vec<u8>) {
    match u8::try_from(value) {
        Ok(byte) if byte < 0x80 => buf.push(byte),
        _ => encode_varint(value, buf),
    }
}

/// The one-byte key of a field numbered below 16.
const fn key_byte(tag: u32, wire_type: WireType) -> u8 {
    (tag << 3) as u8 | wire_type as u8
}

/// A message field, written by `write` (see [`write_delimited`]).
fn write_message(tag: u32, room: usize, buf: &mut Vec<u8>, write: impl FnOnce(&mut Vec<u8>)) {
    write_delimited(tag, room, buf, |buf| {
        write(buf);
        Some(())
    });
}

/// A length-delimited field whose length is known only once it is written: `write` appends
/// its bytes after `room` bytes left for the length (1 for a seat, a trick, a round or a
/// deal's result, most of which are below 128 bytes; 2 for the view and the JSON, which hold
/// lengths up to 16,383), then the length goes in front, the bytes moved if it takes more or
/// fewer. If `write` gives `None`, the field is left out (whatever it wrote is dropped).
fn write_delimited(
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use cardroom_games::Seat;
    use cardroom_games::twenty_two::{Options, State, Variant};
    use prost::Message;

    use super::super::tests::random_options;
    use super::*;
    use crate::wire::{TestRng as Rng, WireGame};

    /// Every `Omit` a connection may hold, as far as the observation goes (`legal_actions` and
    /// `events` are the `Turn`'s): all but `json` with `typed`, which `check_omit` refuses.
    fn omits() -> impl Iterator<Item = pb::Omit> {
        (0..8)
            .map(|bits| pb::Omit {
                json: bits & 1 != 0,
                typed: bits & 2 != 0,
                cards: bits & 4 != 0,
                ..pb::Omit::default()
            })
            .filter(|omit| !(omit.json && omit.typed))
    }

    /// The table sizes sampled: the smallest, two between, the largest with the default packs.
    const TABLES: [u8; 4] = [2, 4, 7, 12];

    /// Every seat's observation of every `every`th state of `matches` random matches at each of
    /// [`TABLES`] (random options, the elimination variant among them), up to each match's
    /// end, with the match's options.
    fn sample_observations(matches: u64, every: usize) -> Vec<(Observation, Options)> {
        let mut observations = Vec::new();
        let mut step = 0;
        for players in TABLES {
            for seed in 0..matches {
                let mut rng = Rng::new(seed * 31 + u64::from(players));
                let (options, _) = random_options(&mut rng);
                let Ok(mut state) = State::new(options, players, seed) else { continue };
                loop {
                    step += 1;
                    let over = state.to_act().is_none();
                    if step % every == 0 || over {
                        for seat in 0..players {
                            observations.push((state.observation(Seat(seat)), options));
                        }
                    }
                    let Some(seat) = state.to_act() else { break };
                    let legal = state.legal_actions();
                    state.apply(seat, legal[rng.below(legal.len())]).unwrap();
                }
            }
        }
        observations
    }

    /// What each seat is shown (TT-24: the public view, with the tricks, the dealer draw, the
    /// last deal's result and the standings once public; TT-25: its own hand and exchange
    /// discards, no other hidden card) is written byte for byte as prost writes the typed
    /// observation, in every form a connection can ask for, at tables of 2 to 12 seats, in both
    /// variants, up to the match's end.
    #[test]
    fn the_bytes_written_are_prosts() {
        let (mut results, mut eliminations, mut standings, mut draws) = (0, 0, 0, 0);
        for (observation, _) in sample_observations(3, 20) {
            for omit in omits() {
                let expected = State::observation_to_pb(&observation, &omit).encode_to_vec();
                // Appended to what the buffer holds, as a `Turn`'s header comes first.
                let mut bytes = vec![0xA5];
                State::encode_observation(&observation, &omit, &mut bytes);
                assert_eq!(bytes[0], 0xA5);
                assert!(bytes[1..] == expected[..], "{omit:?}, {observation:?}");
            }
            let public = &observation.public;
            results += usize::from(public.last_deal.is_some());
            eliminations += usize::from(public.options.variant == Variant::Elimination);
            standings += usize::from(public.standings.is_some());
            draws += usize::from(!public.dealer_draw.is_empty());
        }
        assert!(
            results > 100 && eliminations > 100 && standings > 10 && draws > 100,
            "{results} {eliminations} {standings} {draws}"
        );
    }
}
