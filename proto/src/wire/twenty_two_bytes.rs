//! A Twenty-Two observation as the bytes of an `Observation` message, written and read field by
//! field with prost's low-level encoding, without its typed tree.
//!
//! Every decision the server writes a `Turn` and the SDK reads one. Through prost's tree that
//! meant a `TwentyTwoObservation` of a `Vec` a seat, a trick, a play and a dealer draw round (up
//! to twelve seats, each with its penalty pile and won cards) built, measured at each level,
//! written and dropped on one side, and decoded, converted and dropped on the other. Here:
//!
//! - [`encode`] writes the fields straight from the engine's observation, in field-number order
//!   as prost does, byte for byte what prost writes for [`WireGame::observation_to_pb`] (proto3
//!   leaves out zeros, `false` and empty lists, and writes `optional` fields and message fields
//!   whenever they are set). A `Card` is always 4 bytes, a play and a seat's card are counted; a
//!   nested message of less foreseeable length (the view, a seat, a trick, a dealer draw round,
//!   the last deal's result, the JSON) has its length written in front of it once it is written
//!   ([`write_delimited`]). The final standings, once a match, are prost's message.
//! - [`decode`] reads the fields in place into fixed arrays and rebuilds the engine's
//!   observation through the code that checks prost's decoded view
//!   ([`observation_from_view`]), so both accept and refuse the same views with the same words;
//!   what it does not read itself (malformed bytes, unknown fields, the final standings, a table
//!   of more than twelve seats) is read by prost, as the default does.
//!
//! [`WireGame::observation_to_pb`]: super::WireGame::observation_to_pb

use super::WireError;
use cardroom_games::Card;
use cardroom_games::twenty_two::{
    DealResult, MAX_HAND, Observation, Options, PublicSeat, PublicView, SeatCard, State, Trick,
};
use prost::encoding::{self, WireType, encoded_len_varint};

use super::{
    DealView, NO_TWENTY_TWO_VIEW, PlayView, PublicFields, SeatSource, SeatView, TrickSource,
    TypedView, observation_from_view, phase_to_pb, tie_break_to_pb,
};
use crate::pb;
use crate::wire::WireGame;
use crate::wire::bytes::*;
use crate::wire::{count, seat_to_pb, standing_to_pb};

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

/// Appends the bytes of `observation`'s `Observation` message, as `omit` asks: what prost
/// writes for [`WireGame::observation_to_pb`], byte for byte.
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

/// A `Card` message field (one card of a `repeated Card`, or a `Card` that is set), numbered
/// below 16.
fn write_card(tag: u32, card: Card, buf: &mut Vec<u8>) {
    buf.extend_from_slice(&card_field(tag, card.index()));
}

/// Reads the bytes of an `Observation` message into the engine's observation: the same result
/// as prost's decoding and [`WireGame::observation_from_pb`], or the same error.
///
/// The fields are read in place ([`ObservationFields`]: numbers, card codes as slices of the
/// bytes, `Card` messages and a seat's, a trick's and a dealer draw round's fields in fixed
/// arrays) with prost's rules for any order, packed or unpacked lists, messages and scalars
/// sent twice, then the engine's observation is rebuilt by the code that checks prost's decoded
/// view ([`observation_from_view`]), so both accept and refuse the same views with the same
/// words. Bytes it does not read itself are read by prost, as the default does: malformed
/// bytes (for prost's own error), unknown fields (prost's recursion limit is then its own to
/// apply), a Gin Rummy view, the final standings (once a match), lists longer than any
/// observation of up to 12 seats holds. Nothing in the bytes can make it panic: every read is
/// checked (prost's decoding, `split_at_checked`), every store too ([`Inline::push`]).
///
/// [`WireGame::observation_from_pb`]: super::WireGame::observation_from_pb
pub(super) fn decode(
    bytes: &[u8],
    legal_actions: &[pb::LegalAction],
    options: &Options,
) -> Result<Observation, WireError> {
    let mut fields = ObservationFields::default();
    match fields.merge(bytes) {
        Some(()) => fields.observation(legal_actions, options),
        None => decode_with_prost(bytes, legal_actions, options),
    }
}

/// The default reading ([`WireGame::decode_observation`]'s): prost's tree, then
/// [`WireGame::observation_from_pb`]. For the bytes [`decode`] leaves to prost.
///
/// [`WireGame::decode_observation`]: super::WireGame::decode_observation
/// [`WireGame::observation_from_pb`]: super::WireGame::observation_from_pb
fn decode_with_prost(
    bytes: &[u8],
    legal_actions: &[pb::LegalAction],
    options: &Options,
) -> Result<Observation, WireError> {
    let observation = <pb::Observation as prost::Message>::decode(bytes)?;
    State::observation_from_pb(&observation, legal_actions, options)
}

/// The most seats read in place (the most a table holds with up to three packs); a bigger
/// table is left to prost.
const MAX_SEATS: usize = 12;
/// The most `Card` messages of a hand or of the exchange discards read in place.
const MAX_HAND_MESSAGES: usize = 16;
/// The most cards of a seat's penalty pile read in place.
const MAX_PENALTY_PILE: usize = 24;
/// The most cards a seat won this deal read in place (elimination variant).
const MAX_WON: usize = 40;
/// The most dealer draw rounds read in place.
const MAX_DRAW_ROUNDS: usize = 8;

/// An `Observation` message's fields as read so far, borrowing from its bytes.
#[derive(Default)]
struct ObservationFields<'a> {
    seat: u32,
    /// Whether the Twenty-Two view was sent (`twenty_two` holds its fields, merged if sent
    /// twice).
    has_twenty_two: bool,
    twenty_two: TwentyTwoFields<'a>,
}

impl<'a> ObservationFields<'a> {
    /// Reads `bytes` as prost merges a message: fields in any order, the last of a scalar, every
    /// entry of a list. `None` leaves the bytes to prost: they are malformed, or hold what is
    /// not read here (see [`decode`]).
    fn merge(&mut self, mut bytes: &'a [u8]) -> Option<()> {
        let buf = &mut bytes;
        while !buf.is_empty() {
            let (tag, wire_type) = read_key(buf)?;
            match tag {
                OBSERVATION_SEAT => self.seat = read_uint32(wire_type, buf)?,
                OBSERVATION_TWENTY_TWO => {
                    self.twenty_two.merge(read_delimited(wire_type, buf)?)?;
                    self.has_twenty_two = true;
                }
                // Not read, but a `string`: prost refuses one that is not UTF-8.
                OBSERVATION_JSON => {
                    std::str::from_utf8(read_delimited(wire_type, buf)?).ok()?;
                }
                // The oneof's other view (prost's rules for switching views) and unknown fields
                // are left to prost.
                _ => return None,
            }
        }
        Some(())
    }

    /// The engine's observation, checked as [`WireGame::observation_from_pb`] checks prost's.
    ///
    /// [`WireGame::observation_from_pb`]: super::WireGame::observation_from_pb
    fn observation(
        &self,
        legal_actions: &[pb::LegalAction],
        options: &Options,
    ) -> Result<Observation, WireError> {
        if !self.has_twenty_two {
            return Err(WireError::Incomplete(NO_TWENTY_TWO_VIEW));
        }
        let public = &self.twenty_two.public;
        // Each trick with the cards its plays point into.
        let held = public.tricks.as_slice();
        let blank = TrickIn::default();
        let tricks: [TrickRef<'_>; MAX_HAND] = std::array::from_fn(|at| {
            let trick = held.get(at).unwrap_or(&blank);
            TrickRef {
                plays: trick.plays.as_slice(),
                strongest: trick.strongest,
                winner: trick.winner,
                played: public.played.as_slice(),
            }
        });
        let tricks = tricks.get(..public.tricks.len()).unwrap_or_default();
        observation_from_view(self.seat, &self.twenty_two.view(tricks), legal_actions, options)
    }
}

/// A `TwentyTwoObservation` message's fields as read so far, borrowing from its bytes.
#[derive(Default)]
struct TwentyTwoFields<'a> {
    hand: Inline<pb::Card, MAX_HAND_MESSAGES>,
    discards: Inline<pb::Card, MAX_HAND_MESSAGES>,
    /// Whether the public view was sent (`public` holds its fields, merged if sent twice):
    /// kept in place rather than in an `Option`, not to be built and then moved.
    has_public: bool,
    public: PublicIn,
    hand_codes: &'a [u8],
}

impl<'a> TwentyTwoFields<'a> {
    /// Reads a `TwentyTwoObservation`'s bytes (see [`ObservationFields::merge`]).
    fn merge(&mut self, mut bytes: &'a [u8]) -> Option<()> {
        let buf = &mut bytes;
        while !buf.is_empty() {
            let (tag, wire_type) = read_key(buf)?;
            match tag {
                TT_HAND => self.hand.push(read_card(wire_type, buf)?)?,
                TT_DISCARDS => self.discards.push(read_card(wire_type, buf)?)?,
                // A message sent twice is merged, as prost merges it.
                TT_PUBLIC => {
                    self.public.merge(read_delimited(wire_type, buf)?)?;
                    self.has_public = true;
                }
                TT_HAND_CODES => self.hand_codes = read_delimited(wire_type, buf)?,
                _ => return None,
            }
        }
        Some(())
    }

    /// The fields as the typed view both readers check.
    fn view<'b>(
        &'b self,
        tricks: &'b [TrickRef<'b>],
    ) -> TypedView<'b, SeatIn, TrickRef<'b>, DrawRoundIn> {
        TypedView {
            hand: self.hand.as_slice(),
            hand_codes: self.hand_codes,
            discards: self.discards.as_slice(),
            public: self.has_public.then(|| self.public.view(tricks)),
        }
    }
}

/// A dealer draw round's cards, read in place.
type DrawRoundIn = Inline<pb::TwentyTwoSeatCard, MAX_SEATS>;

/// A `TwentyTwoPublic` message's fields as read so far.
#[derive(Default)]
struct PublicIn {
    deal: u32,
    dealer: u32,
    cards_dealt: u32,
    stock_size: u32,
    packs: u32,
    seats: Inline<SeatIn, MAX_SEATS>,
    phase: i32,
    to_act: Option<u32>,
    leader: Option<u32>,
    /// A deal has at most as many tricks as cards dealt.
    tricks: Inline<TrickIn, MAX_HAND>,
    /// The cards of the tricks' plays, a play's together (see [`PlayIn`]).
    played: Inline<pb::Card, MAX_PLAYED>,
    dealer_draw: Inline<DrawRoundIn, MAX_DRAW_ROUNDS>,
    last_deal: Option<DealIn>,
}

impl PublicIn {
    /// Reads a `TwentyTwoPublic`'s bytes (see [`ObservationFields::merge`]).
    fn merge(&mut self, mut bytes: &[u8]) -> Option<()> {
        let buf = &mut bytes;
        while !buf.is_empty() {
            let (tag, wire_type) = read_key(buf)?;
            match tag {
                PUBLIC_DEAL => self.deal = read_uint32(wire_type, buf)?,
                PUBLIC_DEALER => self.dealer = read_uint32(wire_type, buf)?,
                PUBLIC_CARDS_DEALT => self.cards_dealt = read_uint32(wire_type, buf)?,
                PUBLIC_STOCK_SIZE => self.stock_size = read_uint32(wire_type, buf)?,
                PUBLIC_PACKS => self.packs = read_uint32(wire_type, buf)?,
                PUBLIC_SEATS => {
                    self.seats.push_default()?.merge(read_delimited(wire_type, buf)?)?
                }
                PUBLIC_TO_ACT => self.to_act = Some(read_uint32(wire_type, buf)?),
                PUBLIC_LEADER => self.leader = Some(read_uint32(wire_type, buf)?),
                PUBLIC_TRICKS => {
                    let trick = self.tricks.push_default()?;
                    trick.merge(read_delimited(wire_type, buf)?, &mut self.played)?;
                }
                PUBLIC_PHASE => self.phase = read_int32(wire_type, buf)?,
                PUBLIC_DEALER_DRAW => {
                    let round = self.dealer_draw.push_default()?;
                    let buf = &mut read_delimited(wire_type, buf)?;
                    while !buf.is_empty() {
                        let (tag, wire_type) = read_key(buf)?;
                        match tag {
                            ROUND_CARDS => round.push(read_seat_card(wire_type, buf)?)?,
                            _ => return None,
                        }
                    }
                }
                PUBLIC_LAST_DEAL => {
                    self.last_deal
                        .get_or_insert_default()
                        .merge(read_delimited(wire_type, buf)?)?;
                }
                // The final standings, once a match, and unknown fields are left to prost.
                _ => return None,
            }
        }
        Some(())
    }

    /// The fields as the typed view both readers check, with `tricks` made of
    /// [`PublicIn::tricks`] (see [`ObservationFields::observation`]).
    fn view<'b>(
        &'b self,
        tricks: &'b [TrickRef<'b>],
    ) -> PublicFields<'b, SeatIn, TrickRef<'b>, DrawRoundIn> {
        PublicFields {
            deal: self.deal,
            dealer: self.dealer,
            cards_dealt: self.cards_dealt,
            stock_size: self.stock_size,
            packs: self.packs,
            seats: self.seats.as_slice(),
            phase: self.phase,
            to_act: self.to_act,
            leader: self.leader,
            tricks,
            dealer_draw: self.dealer_draw.as_slice(),
            last_deal: self.last_deal.as_ref().map(DealIn::view),
            standings: None,
        }
    }
}

/// A `TwentyTwoSeat` message's fields as read so far.
#[derive(Clone, Copy, Default)]
struct SeatIn {
    seat: u32,
    score: u32,
    penalty_pile: Inline<pb::Card, MAX_PENALTY_PILE>,
    eliminated: bool,
    hand_size: u32,
    exchanged: Option<u32>,
    won: Inline<pb::Card, MAX_WON>,
}

impl SeatIn {
    /// Reads a `TwentyTwoSeat`'s bytes (see [`ObservationFields::merge`]).
    fn merge(&mut self, mut bytes: &[u8]) -> Option<()> {
        let buf = &mut bytes;
        while !buf.is_empty() {
            let (tag, wire_type) = read_key(buf)?;
            match tag {
                SEAT_SEAT => self.seat = read_uint32(wire_type, buf)?,
                SEAT_SCORE => self.score = read_uint32(wire_type, buf)?,
                SEAT_PENALTY_PILE => self.penalty_pile.push(read_card(wire_type, buf)?)?,
                SEAT_ELIMINATED => self.eliminated = read_bool(wire_type, buf)?,
                SEAT_HAND_SIZE => self.hand_size = read_uint32(wire_type, buf)?,
                SEAT_EXCHANGED => self.exchanged = Some(read_uint32(wire_type, buf)?),
                SEAT_WON => self.won.push(read_card(wire_type, buf)?)?,
                _ => return None,
            }
        }
        Some(())
    }
}

impl SeatSource for SeatIn {
    fn view(&self) -> SeatView<'_> {
        SeatView {
            seat: self.seat,
            score: self.score,
            penalty_pile: self.penalty_pile.as_slice(),
            eliminated: self.eliminated,
            hand_size: self.hand_size,
            exchanged: self.exchanged,
            won: self.won.as_slice(),
        }
    }
}

/// A `TwentyTwoTrick` message's fields as read so far.
#[derive(Clone, Copy, Default)]
struct TrickIn {
    plays: Inline<PlayIn, MAX_SEATS>,
    strongest: u32,
    winner: Option<u32>,
}

/// A `TwentyTwoPlay` message's fields as read so far: its cards are `len` cards of the deal's
/// played cards ([`PublicIn::played`]) from `start`, which a play's message reads one after the
/// other. They are not kept with the play, not to clear room for a hand's worth of cards for each
/// seat of each trick every time a view is read.
#[derive(Clone, Copy, Default)]
struct PlayIn {
    seat: u32,
    start: u8,
    len: u8,
}

/// The most cards of a deal's plays read in place: every card dealt to 12 seats.
const MAX_PLAYED: usize = MAX_SEATS * MAX_HAND;

impl TrickIn {
    /// Reads a `TwentyTwoTrick`'s bytes (see [`ObservationFields::merge`]), the cards of its
    /// plays appended to `played`.
    fn merge<const N: usize>(
        &mut self,
        mut bytes: &[u8],
        played: &mut Inline<pb::Card, N>,
    ) -> Option<()> {
        let buf = &mut bytes;
        while !buf.is_empty() {
            let (tag, wire_type) = read_key(buf)?;
            match tag {
                TRICK_PLAYS => {
                    let play = self.plays.push_default()?;
                    let start = played.len();
                    let buf = &mut read_delimited(wire_type, buf)?;
                    while !buf.is_empty() {
                        let (tag, wire_type) = read_key(buf)?;
                        match tag {
                            PLAY_SEAT => play.seat = read_uint32(wire_type, buf)?,
                            PLAY_CARDS => played.push(read_card(wire_type, buf)?)?,
                            _ => return None,
                        }
                    }
                    play.start = u8::try_from(start).ok()?;
                    play.len = u8::try_from(played.len() - start).ok()?;
                }
                TRICK_STRONGEST => self.strongest = read_uint32(wire_type, buf)?,
                TRICK_WINNER => self.winner = Some(read_uint32(wire_type, buf)?),
                _ => return None,
            }
        }
        Some(())
    }
}

/// A trick read in place, with the cards its plays point into ([`PublicIn::played`]).
#[derive(Clone, Copy)]
struct TrickRef<'a> {
    plays: &'a [PlayIn],
    strongest: u32,
    winner: Option<u32>,
    played: &'a [pb::Card],
}

impl TrickSource for TrickRef<'_> {
    fn plays(&self) -> impl Iterator<Item = PlayView<'_>> {
        self.plays.iter().map(|play| {
            let start = usize::from(play.start);
            let cards = self.played.get(start..start + usize::from(play.len));
            PlayView { seat: play.seat, cards: cards.unwrap_or_default() }
        })
    }

    fn strongest(&self) -> u32 {
        self.strongest
    }

    fn winner(&self) -> Option<u32> {
        self.winner
    }
}

/// A `TwentyTwoDealResult` message's fields as read so far.
#[derive(Default)]
struct DealIn {
    deal: u32,
    revealed: Inline<pb::TwentyTwoSeatCard, MAX_SEATS>,
    rank: i32,
    losers: Inline<u32, MAX_SEATS>,
    tie_break: i32,
    eliminated: Inline<u32, MAX_SEATS>,
}

impl DealIn {
    /// Reads a `TwentyTwoDealResult`'s bytes (see [`ObservationFields::merge`]).
    fn merge(&mut self, mut bytes: &[u8]) -> Option<()> {
        let buf = &mut bytes;
        while !buf.is_empty() {
            let (tag, wire_type) = read_key(buf)?;
            match tag {
                RESULT_DEAL => self.deal = read_uint32(wire_type, buf)?,
                RESULT_REVEALED => self.revealed.push(read_seat_card(wire_type, buf)?)?,
                RESULT_RANK => self.rank = read_int32(wire_type, buf)?,
                RESULT_LOSERS => read_packed(wire_type, buf, &mut self.losers)?,
                RESULT_TIE_BREAK => self.tie_break = read_int32(wire_type, buf)?,
                RESULT_ELIMINATED => read_packed(wire_type, buf, &mut self.eliminated)?,
                _ => return None,
            }
        }
        Some(())
    }

    fn view(&self) -> DealView<'_> {
        DealView {
            deal: self.deal,
            revealed: self.revealed.as_slice(),
            rank: self.rank,
            losers: self.losers.as_slice(),
            tie_break: self.tie_break,
            eliminated: self.eliminated.as_slice(),
        }
    }
}

/// A `TwentyTwoSeatCard` message field, one entry of a list (its card merged if sent twice).
fn read_seat_card(wire_type: WireType, buf: &mut &[u8]) -> Option<pb::TwentyTwoSeatCard> {
    let mut card = pb::TwentyTwoSeatCard::default();
    let buf = &mut read_delimited(wire_type, buf)?;
    while !buf.is_empty() {
        let (tag, wire_type) = read_key(buf)?;
        match tag {
            SEAT_CARD_SEAT => card.seat = read_uint32(wire_type, buf)?,
            SEAT_CARD_CARD => {
                merge_card_at(read_delimited(wire_type, buf)?, card.card.get_or_insert_default())?;
            }
            _ => return None,
        }
    }
    Some(card)
}

/// A `Card` message field, one entry of a `repeated Card`.
fn read_card(wire_type: WireType, buf: &mut &[u8]) -> Option<pb::Card> {
    let mut card = pb::Card::default();
    merge_card_at(read_delimited(wire_type, buf)?, &mut card)?;
    Some(card)
}

/// A `Card` message's bytes, merged into `card`.
fn merge_card_at(mut bytes: &[u8], card: &mut pb::Card) -> Option<()> {
    if let Some(written) = written_card(bytes) {
        *card = written;
        return Some(());
    }
    let buf = &mut bytes;
    while !buf.is_empty() {
        let (tag, wire_type) = read_key(buf)?;
        match tag {
            CARD_RANK => card.rank = read_int32(wire_type, buf)?,
            CARD_SUIT => card.suit = read_int32(wire_type, buf)?,
            _ => return None,
        }
    }
    Some(())
}

/// A dealer draw round's cards, as [`TypedView`] reads them.
impl<const N: usize> AsRef<[pb::TwentyTwoSeatCard]> for Inline<pb::TwentyTwoSeatCard, N> {
    fn as_ref(&self) -> &[pb::TwentyTwoSeatCard] {
        self.as_slice()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use cardroom_games::Seat;
    use cardroom_games::twenty_two::{Packs, Variant};
    use prost::Message;

    use super::super::tests::random_options;
    use super::*;
    use crate::wire::bytes::testing::*;
    use crate::wire::decode_through_pb;
    use crate::wire::{TestRng as Rng, legal_actions_to_pb};

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

    /// Whether the hand reader reads `bytes` itself (rather than leaving them to prost).
    fn read_in_place(bytes: &[u8]) -> bool {
        ObservationFields::default().merge(bytes).is_some()
    }

    /// A seat's observation (TT-24, TT-25) read from the bytes, in the compact form (cards as
    /// codes, no JSON) and the full one (`Card` messages and the JSON), with and without the
    /// `Turn`'s legal actions, is the default reading's, and the engine's own observation once
    /// its legal actions are listed; all but the last of a match (its standings) are read in
    /// place.
    #[test]
    fn the_bytes_read_are_the_engines_observation() {
        let (mut in_place, mut total) = (0, 0);
        for (observation, options) in sample_observations(3, 20) {
            let legal = legal_actions_to_pb::<State>(State::legal_actions_of(&observation));
            for omit in [COMPACT, FULL] {
                let bytes = encoded::<State>(&observation, &omit);
                let read_here = read_in_place(&bytes);
                assert!(read_here || observation.public.standings.is_some());
                in_place += usize::from(read_here);
                total += 1;
                assert_read_as_prost_reads::<State>(&bytes, &[], &options);
                assert_read_as_prost_reads::<State>(&bytes, &legal, &options);
                let read = State::decode_observation(&bytes, &legal, &options);
                assert_eq!(read.as_ref(), Ok(&observation));
                let mut read = State::decode_observation(&bytes, &[], &options).unwrap();
                State::fill_legal_actions(&mut read);
                assert_eq!(read, observation);
            }
        }
        assert!(in_place * 10 > total * 9, "{in_place} of {total} read in place");
    }

    /// Every prefix of an observation's bytes, and many of them with one byte changed, are read
    /// as the default reads them: the same observation or the same error, never a panic.
    #[test]
    fn cut_and_damaged_bytes_are_read_as_prost_reads_them() {
        let mut rng = Rng::new(7);
        let mut tally = Damage::default();
        let observations = sample_observations(2, 60);
        for (i, (observation, options)) in observations.iter().enumerate() {
            // The JSON is a long `string` that only needs to be UTF-8: once in a while.
            let omit = [COMPACT, MESSAGES, COMPACT, MESSAGES, FULL][i % 5];
            let bytes = encoded::<State>(observation, &omit);
            let legal = legal_actions_to_pb::<State>(State::legal_actions_of(observation));
            let legal = if rng.coin() { legal } else { Vec::new() };
            let (cuts, aim) = (omit != FULL && i % 3 == 0, (omit == FULL).then_some(400));
            cut_and_damage::<State>(
                &bytes,
                &legal,
                options,
                cuts,
                30,
                aim,
                read_in_place,
                &mut rng,
                &mut tally,
            );
        }
        let Damage { mutations, refused, in_place } = tally;
        assert!(mutations >= 1_000, "{mutations} damaged observations");
        assert!(refused > mutations / 10, "damage was refused as well as read: {refused}");
        assert!(in_place > mutations / 4, "damaged bytes were read in place: {in_place}");
    }

    const SEAT_CARD_ENTRY: Kind = Kind::Message {
        fields: &[(SEAT_CARD_SEAT, Kind::Scalar), (SEAT_CARD_CARD, ONE_CARD)],
        once: false,
    };
    const SEAT: &[(u32, Kind)] = &[
        (SEAT_SEAT, Kind::Scalar),
        (SEAT_SCORE, Kind::Scalar),
        (SEAT_PENALTY_PILE, CARD_ENTRY),
        (SEAT_ELIMINATED, Kind::Scalar),
        (SEAT_HAND_SIZE, Kind::Scalar),
        (SEAT_EXCHANGED, Kind::Scalar),
        (SEAT_WON, CARD_ENTRY),
    ];
    const PLAY: &[(u32, Kind)] = &[(PLAY_SEAT, Kind::Scalar), (PLAY_CARDS, CARD_ENTRY)];
    const TRICK: &[(u32, Kind)] = &[
        (TRICK_PLAYS, Kind::Message { fields: PLAY, once: false }),
        (TRICK_STRONGEST, Kind::Scalar),
        (TRICK_WINNER, Kind::Scalar),
    ];
    const RESULT: &[(u32, Kind)] = &[
        (RESULT_DEAL, Kind::Scalar),
        (RESULT_REVEALED, SEAT_CARD_ENTRY),
        (RESULT_RANK, Kind::Scalar),
        (RESULT_LOSERS, Kind::Packed),
        (RESULT_TIE_BREAK, Kind::Scalar),
        (RESULT_ELIMINATED, Kind::Packed),
    ];
    const PUBLIC: &[(u32, Kind)] = &[
        (PUBLIC_DEAL, Kind::Scalar),
        (PUBLIC_DEALER, Kind::Scalar),
        (PUBLIC_CARDS_DEALT, Kind::Scalar),
        (PUBLIC_STOCK_SIZE, Kind::Scalar),
        (PUBLIC_PACKS, Kind::Scalar),
        (PUBLIC_SEATS, Kind::Message { fields: SEAT, once: false }),
        (PUBLIC_TO_ACT, Kind::Scalar),
        (PUBLIC_LEADER, Kind::Scalar),
        (PUBLIC_TRICKS, Kind::Message { fields: TRICK, once: false }),
        (PUBLIC_PHASE, Kind::Scalar),
        (
            PUBLIC_DEALER_DRAW,
            Kind::Message { fields: &[(ROUND_CARDS, SEAT_CARD_ENTRY)], once: false },
        ),
        (PUBLIC_LAST_DEAL, Kind::Message { fields: RESULT, once: true }),
    ];
    const TWENTY_TWO: &[(u32, Kind)] = &[
        (TT_HAND, CARD_ENTRY),
        (TT_DISCARDS, CARD_ENTRY),
        (TT_PUBLIC, Kind::Message { fields: PUBLIC, once: true }),
        (TT_HAND_CODES, Kind::Bytes),
    ];
    const OBSERVATION: &[(u32, Kind)] = &[
        (OBSERVATION_SEAT, Kind::Scalar),
        (OBSERVATION_TWENTY_TWO, Kind::Message { fields: TWENTY_TWO, once: true }),
        (OBSERVATION_JSON, Kind::Bytes),
    ];

    /// Bytes prost reads to the same observation in another order and shape (see [`rewrite`]:
    /// fields in any order, lists unpacked, scalars sent twice, messages in parts) are read to
    /// it, in place; with unknown fields at every level too, as prost reads them.
    #[test]
    fn any_form_prost_reads_is_read() {
        let mut rng = Rng::new(11);
        for (observation, options) in sample_observations(2, 40) {
            let expected = Observation { legal_actions: Vec::new(), ..observation.clone() };
            for omit in [COMPACT, MESSAGES, FULL] {
                for unknown in [false, true] {
                    let bytes = rewrite(
                        &encoded::<State>(&observation, &omit),
                        OBSERVATION,
                        unknown,
                        &mut rng,
                    );
                    assert_eq!(
                        decode_through_pb::<State>(&bytes, &[], &options).as_ref(),
                        Ok(&expected)
                    );
                    if !unknown && observation.public.standings.is_none() {
                        assert!(read_in_place(&bytes), "{bytes:?}");
                    }
                    assert_read_as_prost_reads::<State>(&bytes, &[], &options);
                }
            }
        }
    }

    /// A Gin Rummy view sent with the Twenty-Two one: whichever comes last is the view
    /// (prost's oneof), read as the default reads it.
    #[test]
    fn a_gin_view_is_read_as_prost_reads_it() {
        let state = State::new(Options::default(), 4, 5).unwrap();
        let bytes = encoded::<State>(&state.observation(Seat(1)), &COMPACT);
        let gin = delimited(3, &[]);
        let before = [gin.clone(), bytes.clone()].concat();
        let after = [bytes.clone(), gin].concat();
        assert!(State::decode_observation(&before, &[], state.options()).is_ok());
        assert_eq!(
            State::decode_observation(&after, &[], state.options()),
            Err(WireError::Incomplete(NO_TWENTY_TWO_VIEW))
        );
        for bytes in [before, after, Vec::new(), varint_field(OBSERVATION_SEAT, 1)] {
            assert_read_as_prost_reads::<State>(&bytes, &[], state.options());
        }
    }

    /// Views no observation can have, sent as bytes, are refused with the words of the typed
    /// reader (`observation_from_pb`), the first of several faults first.
    #[test]
    fn views_that_cannot_be_observations_are_refused_with_the_same_words() {
        let state = State::new(Options::default(), 4, 3).unwrap();
        let options = *state.options();
        let observation = state.observation(Seat(0));
        type Edit<'a> = &'a dyn Fn(&mut pb::Observation, &mut pb::TwentyTwoObservation);
        let public = |t: &mut pb::TwentyTwoObservation| t.public.as_mut().unwrap().clone();
        let edits: [Edit<'_>; 14] = [
            &|o, _| o.seat = 256,
            &|o, t| {
                o.seat = 256;
                t.hand.push(pb::Card { rank: 1, suit: 1 });
            },
            &|_, t| t.public = None,
            &|_, t| t.hand.push(pb::Card { rank: 3, suit: 9 }),
            &|_, t| t.hand_codes = vec![52],
            &|_, t| t.discards.push(pb::Card { rank: 15, suit: 1 }),
            &|_, t| t.public.as_mut().unwrap().to_act = None,
            &|_, t| t.public.as_mut().unwrap().phase = 99,
            &|_, t| t.public.as_mut().unwrap().packs = 300,
            &|_, t| t.public.as_mut().unwrap().seats[1].exchanged = Some(256),
            &|_, t| t.public.as_mut().unwrap().seats[2].won.push(pb::Card { rank: 2, suit: 0 }),
            &|_, t| {
                let mut p = public(t);
                p.tricks.push(pb::TwentyTwoTrick {
                    plays: vec![pb::TwentyTwoPlay { seat: 1, cards: vec![pb::Card::default()] }],
                    strongest: 0,
                    winner: Some(300),
                });
                t.public = Some(p);
            },
            &|_, t| {
                let mut p = public(t);
                p.dealer_draw.push(pb::TwentyTwoDrawRound {
                    cards: vec![pb::TwentyTwoSeatCard { seat: 1, card: None }],
                });
                t.public = Some(p);
            },
            &|_, t| {
                let mut p = public(t);
                p.last_deal = Some(pb::TwentyTwoDealResult {
                    deal: 1,
                    revealed: Vec::new(),
                    rank: 14,
                    losers: vec![1],
                    tie_break: 0,
                    eliminated: Vec::new(),
                });
                t.public = Some(p);
            },
        ];
        for (omit, edit) in
            [COMPACT, MESSAGES].into_iter().flat_map(|omit| edits.map(|e| (omit, e)))
        {
            let mut wire = State::observation_to_pb(&observation, &omit);
            let Some(pb::observation::Game::TwentyTwo(mut typed)) = wire.game.take() else {
                panic!()
            };
            edit(&mut wire, &mut typed);
            wire.game = Some(pb::observation::Game::TwentyTwo(typed));
            let bytes = wire.encode_to_vec();
            let read = State::decode_observation(&bytes, &[], &options);
            assert!(read.is_err(), "{wire:?}");
            assert_read_as_prost_reads::<State>(&bytes, &[], &options);
        }
    }

    /// Tables of 13 to 16 seats (TT-4: four packs) are written byte for byte as prost writes
    /// them, and read by prost (more seats than the in-place reader holds), as the default
    /// reads them.
    #[test]
    fn tables_beyond_twelve_seats_are_prosts() {
        let mut observations = 0;
        for players in [13, 16] {
            let options = Options { packs: Packs::Fixed(4), ..Options::default() };
            let mut state = State::new(options, players, u64::from(players)).unwrap();
            let mut rng = Rng::new(u64::from(players));
            for step in 0.. {
                if step % 25 == 0 {
                    let observation = state.observation(Seat(step as u8 % players));
                    let legal = legal_actions_to_pb::<State>(State::legal_actions_of(&observation));
                    for omit in [COMPACT, FULL] {
                        let bytes = encoded::<State>(&observation, &omit);
                        assert!(
                            bytes == State::observation_to_pb(&observation, &omit).encode_to_vec()
                        );
                        assert!(!read_in_place(&bytes));
                        assert_read_as_prost_reads::<State>(&bytes, &legal, &options);
                        let read = State::decode_observation(&bytes, &legal, &options);
                        assert_eq!(read.as_ref(), Ok(&observation));
                        observations += 1;
                    }
                }
                let Some(seat) = state.to_act() else { break };
                let legal = state.legal_actions();
                state.apply(seat, legal[rng.below(legal.len())]).unwrap();
            }
        }
        assert!(observations > 20, "{observations}");
    }

    /// Unknown fields of every wire type, and unknown groups nested about as deep as prost's
    /// recursion limit allows, in every message the reader reads (down to a card of a play of a
    /// trick), are read or refused exactly as prost reads or refuses them.
    #[test]
    fn unknown_fields_and_deep_groups_are_read_as_prost_reads_them() {
        let mut rng = Rng::new(17);
        let (observation, options) = sample_observations(2, 3)
            .into_iter()
            .find(|(observation, _)| {
                let public = &observation.public;
                public.tricks.first().is_some_and(|trick| !trick.plays.is_empty())
                    && public.last_deal.as_ref().is_some_and(|deal| !deal.revealed.is_empty())
                    && !public.dealer_draw.is_empty()
                    && !observation.hand.as_slice().is_empty()
            })
            .unwrap();
        let bytes = encoded::<State>(&observation, &MESSAGES);
        const PUBLIC_AT: [u32; 2] = [OBSERVATION_TWENTY_TWO, TT_PUBLIC];
        let [tt, public] = PUBLIC_AT;
        let paths: [&[u32]; 11] = [
            &[],
            &[tt],
            &[tt, TT_HAND],
            &PUBLIC_AT,
            &[tt, public, PUBLIC_SEATS],
            &[tt, public, PUBLIC_TRICKS],
            &[tt, public, PUBLIC_TRICKS, TRICK_PLAYS],
            &[tt, public, PUBLIC_TRICKS, TRICK_PLAYS, PLAY_CARDS],
            &[tt, public, PUBLIC_DEALER_DRAW, ROUND_CARDS, SEAT_CARD_CARD],
            &[tt, public, PUBLIC_LAST_DEAL],
            &[tt, public, PUBLIC_LAST_DEAL, RESULT_REVEALED],
        ];
        for path in paths {
            for _ in 0..5 {
                let extra = unknown_field(&[15, 16, 99, 2_047], &mut rng);
                let bytes = append_inside(&bytes, path, &extra);
                assert_read_as_prost_reads::<State>(&bytes, &[], &options);
            }
            let (mut read, mut refused) = (false, false);
            for depth in 92..=102 {
                let deep = append_inside(&bytes, path, &nested_group(29, depth));
                assert_read_as_prost_reads::<State>(&deep, &[], &options);
                let result = State::decode_observation(&deep, &[], &options);
                read |= result.is_ok();
                refused |= result.is_err();
            }
            assert!(read && refused, "the limit falls between 92 and 102 at {path:?}");
        }
    }
}
