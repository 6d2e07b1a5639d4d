//! A Gin Rummy observation as the bytes of an `Observation` message, written and read field by
//! field with prost's low-level encoding, without its typed tree.
//!
//! Every decision the server writes a `Turn` and the SDK reads one. Through prost's tree that
//! meant a `GinObservation` of some twenty `Vec`s (and a dozen more for the last hand's
//! showdown) built, measured at each level, written and dropped on one side, and decoded,
//! converted and dropped on the other ([`crate::frame`] says how much). Here:
//!
//! - [`encode`] writes the fields straight from the engine's observation, in field-number order
//!   as prost does, byte for byte what prost writes for [`WireGame::observation_to_pb`] (proto3
//!   leaves out zeros, `false` and empty lists, and writes `optional` fields and message fields
//!   whenever they are set). A nested message's length is counted (a `Card` is always 4 bytes, a
//!   `Cards` 6 a card) or, for the view, a hand's result, its showdown and layout, and the JSON,
//!   written in front of it once it is written ([`write_delimited`]). The outcome, once a match,
//!   is prost's message, built by the conversion [`WireGame::observation_to_pb`] uses.
//! - [`decode`] reads the fields in place ([`ObservationFields`]: numbers, card codes as slices
//!   of the bytes, `Card` messages in fixed arrays) with prost's rules for any order, packed or
//!   unpacked lists, messages and scalars sent twice, unknown fields and its recursion limit,
//!   then rebuilds the engine's observation through the code that checks prost's decoded view
//!   ([`observation_from_view`]), so both accept and refuse the same views with the same words.
//!   Bytes it does not read itself are read by prost, as the default does: malformed bytes (for
//!   prost's own error), a Twenty-Two view, lists longer than any observation holds. The outcome
//!   is read by prost in place. Nothing in the bytes can make it panic: every read is checked
//!   (prost's decoding, `split_at_checked`), every store too ([`Inline::push`]).
//!
//! [`WireGame::observation_to_pb`]: super::WireGame::observation_to_pb

use super::WireError;
use cardroom_games::gin::solver::MAX_MELDS;
use cardroom_games::gin::{
    CardSet, HandEnd, HandResult, Layout, Observation, Options, Phase, Showdown,
};
use prost::bytes::{Buf, BufMut};
use prost::encoding::{self, DecodeContext, WireType, skip_field};
use prost::{DecodeError, Message};

use super::{
    HandResultView, LayoutView, Lists, NO_GIN_VIEW, ShowdownView, TypedView, go_out_to_pb,
    hand_end_to_pb, observation_from_view, onto_len, outcome_to_pb, phase_to_pb,
};
use crate::pb;
use crate::wire::bytes::*;
use crate::wire::{count, decode_through_pb, seat_to_pb};

const OBSERVATION_GIN: u32 = 3;
/// `GinObservation`'s field numbers (6 is reserved).
const GIN_HAND: u32 = 1;
const GIN_DRAWN: u32 = 2;
const GIN_SCORES: u32 = 3;
const GIN_DEALER: u32 = 4;
const GIN_DEAL: u32 = 5;
const GIN_STOCK_SIZE: u32 = 7;
const GIN_DISCARD_PILE: u32 = 8;
const GIN_KNOWN_CARDS: u32 = 9;
const GIN_KNOCK_LIMIT: u32 = 10;
const GIN_TO_ACT: u32 = 11;
const GIN_PHASE: u32 = 12;
const GIN_HANDS_WON: u32 = 13;
const GIN_MULTIPLIER: u32 = 14;
const GIN_HAND_SIZES: u32 = 15;
const GIN_UPCARD_DRAWS: u32 = 16;
const GIN_DEALT_UPCARDS: u32 = 17;
const GIN_DISCARDED_BY: u32 = 18;
const GIN_STOCK_ONLY: u32 = 19;
const GIN_TAKEN: u32 = 20;
const GIN_MUST_GO_OUT: u32 = 21;
const GIN_LAST_RESULT: u32 = 22;
const GIN_OUTCOME: u32 = 23;
const GIN_HAND_CODES: u32 = 24;
const GIN_DISCARD_PILE_CODES: u32 = 25;
const GIN_KNOWN_CARDS_CODES: u32 = 26;

/// `GinHandResult`'s field numbers.
const RESULT_DEAL: u32 = 1;
const RESULT_DEALER: u32 = 2;
const RESULT_END: u32 = 3;
const RESULT_SHOWDOWN: u32 = 4;
const RESULT_WINNER: u32 = 5;
const RESULT_UNDERCUT: u32 = 6;
const RESULT_POINTS: u32 = 7;
const RESULT_SCORES: u32 = 8;

/// `GinShowdown`'s field numbers.
const SHOWDOWN_KNOCKER: u32 = 1;
const SHOWDOWN_KIND: u32 = 2;
const SHOWDOWN_DISCARD: u32 = 3;
const SHOWDOWN_MELDS: u32 = 4;
const SHOWDOWN_DEADWOOD_CARDS: u32 = 5;
const SHOWDOWN_DEADWOOD: u32 = 6;
const SHOWDOWN_DEFENDER: u32 = 7;
const SHOWDOWN_LAYOUT: u32 = 8;

/// `GinLayout`'s field numbers.
const LAYOUT_MELDS: u32 = 1;
const LAYOUT_LAYOFFS: u32 = 2;
const LAYOUT_ONTO: u32 = 3;
const LAYOUT_DEADWOOD_CARDS: u32 = 4;
const LAYOUT_DEADWOOD: u32 = 5;

/// `Cards`' field number.
const CARDS_CARDS: u32 = 1;

/// The bytes of one card in a `Cards` message: key, length, the `Card`.
const CARDS_ENTRY_LEN: usize = encoding::key_len(CARDS_CARDS) + 1 + CARD_LEN as usize;

/// How deep below the `Observation` a message's fields are (its own are at 0), for
/// [`context`]: `GinObservation`'s, `GinHandResult`'s, `GinShowdown`'s, `GinLayout`'s. A message
/// nested in one of them is one deeper.
const GIN_DEPTH: u32 = 1;
const RESULT_DEPTH: u32 = GIN_DEPTH + 1;
const SHOWDOWN_DEPTH: u32 = RESULT_DEPTH + 1;
const LAYOUT_DEPTH: u32 = SHOWDOWN_DEPTH + 1;

/// Appends the bytes of `observation`'s `Observation` message, as `omit` asks: what prost
/// writes for [`WireGame::observation_to_pb`], byte for byte.
///
/// [`WireGame::observation_to_pb`]: super::WireGame::observation_to_pb
pub(super) fn encode(observation: &Observation, omit: &pb::Omit, buf: &mut Vec<u8>) {
    write_uint32(OBSERVATION_SEAT, seat_to_pb(observation.seat), buf);
    if !omit.typed {
        write_message(OBSERVATION_GIN, 2, buf, |buf| write_gin(observation, omit, buf));
    }
    if !omit.json {
        // `serde_json::to_string` as `observation_to_pb` writes it, straight into `buf`; the
        // field is left out if it fails, as the default's empty string is.
        write_delimited(OBSERVATION_JSON, 2, buf, |buf| {
            serde_json::to_writer(&mut *buf, observation).ok()
        });
    }
}

/// Writes the fields of a seat's `GinObservation`, as [`super::typed`] fills it: the hand and
/// the discard pile as card codes if `Omit.cards`, else as `Card` messages; the known cards as
/// codes if `Omit.known_cards`.
fn write_gin(observation: &Observation, omit: &pb::Omit, buf: &mut Vec<u8>) {
    let (codes, known_codes) = (omit.cards, omit.known_cards);
    let public = &observation.public;
    let pile = &public.discard_pile;
    let dealt_upcards = pile.iter().take_while(|pile| pile.by.is_none()).count();
    let (stock_only, taken, must_go_out) = match public.phase {
        Phase::Draw { stock_only, .. } => (stock_only, None, false),
        Phase::Discard { taken, must_go_out, .. } => (false, taken, must_go_out),
        Phase::FirstUpcard { .. } | Phase::Wall { .. } | Phase::MatchOver => (false, None, false),
    };
    if !codes {
        for code in SetCodes::of(observation.hand) {
            write_card(GIN_HAND, code, buf);
        }
    }
    if let Some(drawn) = observation.drawn {
        write_card(GIN_DRAWN, drawn.index(), buf);
    }
    write_packed(GIN_SCORES, public.scores.iter().copied(), buf);
    write_uint32(GIN_DEALER, seat_to_pb(public.dealer), buf);
    write_uint32(GIN_DEAL, public.hand_number, buf);
    write_uint32(GIN_STOCK_SIZE, count(public.stock_size), buf);
    if !codes {
        for pile in pile {
            write_card(GIN_DISCARD_PILE, pile.card.index(), buf);
        }
    }
    if !known_codes {
        for known in public.known_cards {
            write_cards(GIN_KNOWN_CARDS, known, buf);
        }
    }
    write_uint32(GIN_KNOCK_LIMIT, u32::from(public.knock_limit), buf);
    if let Some(seat) = public.to_act {
        write_optional_uint32(GIN_TO_ACT, seat_to_pb(seat), buf);
    }
    write_enum(GIN_PHASE, phase_to_pb(public.phase) as i32, buf);
    write_packed(GIN_HANDS_WON, public.hands_won.iter().copied(), buf);
    write_uint32(GIN_MULTIPLIER, public.multiplier, buf);
    write_packed(GIN_HAND_SIZES, public.hand_sizes.iter().map(|&n| count(n)), buf);
    write_uint32(GIN_UPCARD_DRAWS, public.upcard_draws, buf);
    write_uint32(GIN_DEALT_UPCARDS, count(dealt_upcards), buf);
    let discarded_by = pile.iter().skip(dealt_upcards);
    write_packed(
        GIN_DISCARDED_BY,
        discarded_by.map(|pile| pile.by.map_or(u32::MAX, seat_to_pb)),
        buf,
    );
    write_bool(GIN_STOCK_ONLY, stock_only, buf);
    if let Some(taken) = taken {
        write_card(GIN_TAKEN, taken.index(), buf);
    }
    write_bool(GIN_MUST_GO_OUT, must_go_out, buf);
    if let Some(result) = &public.last_result {
        write_message(GIN_LAST_RESULT, 2, buf, |buf| write_hand_result(result, buf));
    }
    // Once a match, at its end: prost's message.
    if let Some(outcome) = &public.outcome {
        encoding::message::encode(GIN_OUTCOME, &outcome_to_pb(outcome), buf);
    }
    if codes {
        write_codes(GIN_HAND_CODES, SetCodes::of(observation.hand), buf);
        write_codes(GIN_DISCARD_PILE_CODES, pile.iter().map(|pile| pile.card.index()), buf);
    }
    if known_codes {
        // An entry of a `repeated bytes` is written when empty too (a seat known to hold
        // nothing).
        for known in public.known_cards {
            write_bytes(GIN_KNOWN_CARDS_CODES, SetCodes::of(known), buf);
        }
    }
}

/// A hand's result, as [`super::hand_result_to_pb`] fills `GinHandResult`.
fn write_hand_result(result: &HandResult, buf: &mut Vec<u8>) {
    write_uint32(RESULT_DEAL, result.hand_number, buf);
    write_uint32(RESULT_DEALER, seat_to_pb(result.dealer), buf);
    write_enum(RESULT_END, hand_end_to_pb(&result.end) as i32, buf);
    if let HandEnd::Showdown(showdown) = &result.end {
        write_message(RESULT_SHOWDOWN, 2, buf, |buf| write_showdown(showdown, buf));
    }
    if let Some(winner) = result.winner {
        write_optional_uint32(RESULT_WINNER, seat_to_pb(winner), buf);
    }
    write_bool(RESULT_UNDERCUT, result.undercut, buf);
    write_uint32(RESULT_POINTS, result.points, buf);
    write_packed(RESULT_SCORES, result.scores.iter().copied(), buf);
}

/// A showdown, as [`super::showdown_to_pb`] fills `GinShowdown` (the layout always set).
fn write_showdown(showdown: &Showdown, buf: &mut Vec<u8>) {
    write_uint32(SHOWDOWN_KNOCKER, seat_to_pb(showdown.knocker), buf);
    write_enum(SHOWDOWN_KIND, go_out_to_pb(showdown.kind) as i32, buf);
    if let Some(discard) = showdown.discard {
        write_card(SHOWDOWN_DISCARD, discard.index(), buf);
    }
    for meld in showdown.melds.melds() {
        write_cards(SHOWDOWN_MELDS, meld, buf);
    }
    for code in SetCodes::of(showdown.deadwood_cards) {
        write_card(SHOWDOWN_DEADWOOD_CARDS, code, buf);
    }
    write_uint32(SHOWDOWN_DEADWOOD, u32::from(showdown.deadwood), buf);
    write_uint32(SHOWDOWN_DEFENDER, seat_to_pb(showdown.defender), buf);
    write_message(SHOWDOWN_LAYOUT, 2, buf, |buf| write_layout(&showdown.layout, buf));
}

/// A defender's layout, as [`super::showdown_to_pb`] fills `GinLayout`.
fn write_layout(layout: &Layout, buf: &mut Vec<u8>) {
    for meld in layout.melds.melds() {
        write_cards(LAYOUT_MELDS, meld, buf);
    }
    for code in SetCodes::of(layout.layoffs) {
        write_card(LAYOUT_LAYOFFS, code, buf);
    }
    for &cards in layout.onto.iter().take(onto_len(layout)) {
        write_cards(LAYOUT_ONTO, cards, buf);
    }
    for code in SetCodes::of(layout.deadwood_cards) {
        write_card(LAYOUT_DEADWOOD_CARDS, code, buf);
    }
    write_uint32(LAYOUT_DEADWOOD, u32::from(layout.deadwood), buf);
}

/// A `bytes` field of card codes (`Omit.cards`): left out when empty.
fn write_codes(tag: u32, codes: impl ExactSizeIterator<Item = u8>, buf: &mut Vec<u8>) {
    if codes.len() > 0 {
        write_bytes(tag, codes, buf);
    }
}

/// A `bytes` field, or an entry of a `repeated bytes` field: written even when empty.
fn write_bytes(tag: u32, bytes: impl ExactSizeIterator<Item = u8>, buf: &mut Vec<u8>) {
    put_key(tag, WireType::LengthDelimited, buf);
    put_varint(bytes.len() as u64, buf);
    buf.extend(bytes);
}

/// A `Card` message field (one card of a `repeated Card`, or an `optional Card`), of the card
/// with this code ([`Card::index`](cardroom_games::Card::index)).
fn write_card(tag: u32, code: u8, buf: &mut Vec<u8>) {
    put_key(tag, WireType::LengthDelimited, buf);
    buf.extend_from_slice(&card_message(code));
}

/// A `Cards` message field: the set's cards in set order, as [`super::set_to_pb`] lists them;
/// written even when empty (an entry of a `repeated Cards`).
fn write_cards(tag: u32, cards: CardSet, buf: &mut Vec<u8>) {
    put_key(tag, WireType::LengthDelimited, buf);
    let len = cards.len() * CARDS_ENTRY_LEN;
    put_varint(len as u64, buf);
    buf.reserve(len);
    for code in SetCodes::of(cards) {
        buf.extend_from_slice(&card_field(CARDS_CARDS, code));
    }
}

/// The codes of a set's cards ([`Card::index`](cardroom_games::Card::index)) in set order: the set's bits from the lowest,
/// as `CardSet`'s own iterator goes, without its calls across crates a card.
struct SetCodes(u64);

impl SetCodes {
    fn of(cards: CardSet) -> SetCodes {
        SetCodes(cards.bits())
    }
}

impl Iterator for SetCodes {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        // Below 64: the table's length.
        let bit = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(BIT_CODES[bit])
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.0.count_ones() as usize;
        (len, Some(len))
    }
}

impl ExactSizeIterator for SetCodes {}

/// The code of the card at each bit of a [`CardSet`] (`CardSet::card_at`, computed once; the
/// bits past the pack's 52 are never set).
const BIT_CODES: [u8; 64] = {
    let mut codes = [0; 64];
    let mut bit = 0;
    while bit < 52 {
        if let Some(card) = CardSet::card_at(bit) {
            codes[bit as usize] = card.index();
        }
        bit += 1;
    }
    codes
};

/// Reads the bytes of an `Observation` message into the engine's observation: the same result
/// as prost's decoding and [`WireGame::observation_from_pb`] (see the module's documentation).
/// Its lists are written into `lists` (a kept observation's, or new ones); bytes left to prost
/// are read into new ones.
///
/// [`WireGame::observation_from_pb`]: super::WireGame::observation_from_pb
pub(super) fn decode(
    bytes: &[u8],
    legal_actions: &[pb::LegalAction],
    options: &Options,
    lists: Lists,
) -> Result<Observation, WireError> {
    let mut fields = ObservationFields::default();
    match fields.merge(bytes) {
        Some(()) => fields.observation(legal_actions, options, lists),
        None => decode_through_pb::<cardroom_games::gin::State>(bytes, legal_actions, options),
    }
}

/// An `Observation` message's fields as read so far, borrowing from its bytes.
#[derive(Default)]
struct ObservationFields<'a> {
    seat: u32,
    /// Whether the Gin Rummy view was sent (`gin` holds its fields, merged if sent twice).
    has_gin: bool,
    gin: GinFields<'a>,
}

impl<'a> ObservationFields<'a> {
    /// Reads `bytes` as prost merges a message: fields in any order, the last of a scalar, every
    /// entry of a list. `None` leaves the bytes to prost: they are malformed, or hold what is
    /// not read here (a Twenty-Two view, or longer lists than any observation has).
    fn merge(&mut self, mut bytes: &'a [u8]) -> Option<()> {
        let buf = &mut bytes;
        while !buf.is_empty() {
            let (tag, wire_type) = read_key(buf)?;
            match tag {
                OBSERVATION_SEAT => self.seat = read_uint32(wire_type, buf)?,
                // The oneof's other views: prost's rules for switching views are left to it.
                OBSERVATION_TWENTY_TWO | OBSERVATION_HOLDEM => return None,
                OBSERVATION_GIN => {
                    self.gin.merge(read_delimited(wire_type, buf)?)?;
                    self.has_gin = true;
                }
                // Not read, but a `string`: prost refuses one that is not UTF-8.
                OBSERVATION_JSON => {
                    std::str::from_utf8(read_delimited(wire_type, buf)?).ok()?;
                }
                _ => skip_field(wire_type, tag, buf, DecodeContext::default()).ok()?,
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
        lists: Lists,
    ) -> Result<Observation, WireError> {
        if !self.has_gin {
            return Err(WireError::Incomplete(NO_GIN_VIEW));
        }
        observation_from_view(self.seat, &self.gin.view(), legal_actions, options, lists)
    }
}

/// The most `Card` messages read in place for a hand, or for one entry of `known_cards` (a
/// hand holds at most 11 cards); more are left to prost.
const MAX_HAND_MESSAGES: usize = 16;
/// The most cards of the discard pile (as `Card` messages) and entries of `discarded_by` read
/// in place: the pack.
const MAX_PILE: usize = 52;

/// The `Card` messages of a hand or of a `known_cards` entry.
type HandMessages = Inline<pb::Card, MAX_HAND_MESSAGES>;

/// A `GinObservation` message's fields as read so far, borrowing from its bytes.
#[derive(Default)]
struct GinFields<'a> {
    hand: HandMessages,
    hand_codes: &'a [u8],
    drawn: Option<pb::Card>,
    scores: Inline<u32, 2>,
    dealer: u32,
    deal: u32,
    phase: i32,
    stock_size: u32,
    discard_pile: Inline<pb::Card, MAX_PILE>,
    discard_pile_codes: &'a [u8],
    known_cards: Inline<HandMessages, 2>,
    known_cards_codes: Inline<&'a [u8], 2>,
    knock_limit: u32,
    to_act: Option<u32>,
    hands_won: Inline<u32, 2>,
    multiplier: u32,
    hand_sizes: Inline<u32, 2>,
    upcard_draws: u32,
    dealt_upcards: u32,
    discarded_by: Inline<u32, MAX_PILE>,
    stock_only: bool,
    taken: Option<pb::Card>,
    must_go_out: bool,
    last_result: Option<HandResultFields>,
    /// Once a match, at its end: prost's message.
    outcome: Option<pb::GinOutcome>,
}

impl<'a> GinFields<'a> {
    /// Reads a `GinObservation`'s bytes (see [`ObservationFields::merge`]).
    fn merge(&mut self, mut bytes: &'a [u8]) -> Option<()> {
        const CHILD: u32 = GIN_DEPTH + 1;
        let buf = &mut bytes;
        while !buf.is_empty() {
            let (tag, wire_type) = read_key(buf)?;
            match tag {
                GIN_HAND => self.hand.push(read_card(wire_type, buf, CHILD)?)?,
                GIN_DRAWN => {
                    merge_card(wire_type, buf, self.drawn.get_or_insert_default(), CHILD)?;
                }
                GIN_SCORES => read_packed(wire_type, buf, &mut self.scores)?,
                GIN_DEALER => self.dealer = read_uint32(wire_type, buf)?,
                GIN_DEAL => self.deal = read_uint32(wire_type, buf)?,
                GIN_STOCK_SIZE => self.stock_size = read_uint32(wire_type, buf)?,
                GIN_DISCARD_PILE => {
                    self.discard_pile.push(read_card(wire_type, buf, CHILD)?)?;
                }
                GIN_KNOWN_CARDS => {
                    let cards = self.known_cards.push_default()?;
                    merge_cards(wire_type, buf, cards, CHILD)?;
                }
                GIN_KNOCK_LIMIT => self.knock_limit = read_uint32(wire_type, buf)?,
                GIN_TO_ACT => self.to_act = Some(read_uint32(wire_type, buf)?),
                GIN_PHASE => self.phase = read_int32(wire_type, buf)?,
                GIN_HANDS_WON => read_packed(wire_type, buf, &mut self.hands_won)?,
                GIN_MULTIPLIER => self.multiplier = read_uint32(wire_type, buf)?,
                GIN_HAND_SIZES => read_packed(wire_type, buf, &mut self.hand_sizes)?,
                GIN_UPCARD_DRAWS => self.upcard_draws = read_uint32(wire_type, buf)?,
                GIN_DEALT_UPCARDS => self.dealt_upcards = read_uint32(wire_type, buf)?,
                GIN_DISCARDED_BY => read_packed(wire_type, buf, &mut self.discarded_by)?,
                GIN_STOCK_ONLY => self.stock_only = read_bool(wire_type, buf)?,
                GIN_TAKEN => {
                    merge_card(wire_type, buf, self.taken.get_or_insert_default(), CHILD)?;
                }
                GIN_MUST_GO_OUT => self.must_go_out = read_bool(wire_type, buf)?,
                // Messages sent twice are merged, as prost merges them.
                GIN_LAST_RESULT => {
                    self.last_result
                        .get_or_insert_default()
                        .merge(read_delimited(wire_type, buf)?)?;
                }
                GIN_OUTCOME => {
                    let outcome = self.outcome.get_or_insert_default();
                    encoding::message::merge(wire_type, outcome, buf, context(GIN_DEPTH)?).ok()?;
                }
                GIN_HAND_CODES => self.hand_codes = read_delimited(wire_type, buf)?,
                GIN_DISCARD_PILE_CODES => self.discard_pile_codes = read_delimited(wire_type, buf)?,
                GIN_KNOWN_CARDS_CODES => {
                    self.known_cards_codes.push(read_delimited(wire_type, buf)?)?;
                }
                _ => skip_field(wire_type, tag, buf, context(GIN_DEPTH)?).ok()?,
            }
        }
        Some(())
    }

    /// The fields as the typed view both readers check.
    fn view(&self) -> TypedView<'_, HandMessages, &'a [u8]> {
        TypedView {
            hand: self.hand.as_slice(),
            hand_codes: self.hand_codes,
            drawn: self.drawn,
            scores: self.scores.as_slice(),
            dealer: self.dealer,
            deal: self.deal,
            phase: self.phase,
            stock_size: self.stock_size,
            discard_pile: self.discard_pile.as_slice(),
            discard_pile_codes: self.discard_pile_codes,
            known_cards: self.known_cards.as_slice(),
            known_cards_codes: self.known_cards_codes.as_slice(),
            knock_limit: self.knock_limit,
            to_act: self.to_act,
            hands_won: self.hands_won.as_slice(),
            multiplier: self.multiplier,
            hand_sizes: self.hand_sizes.as_slice(),
            upcard_draws: self.upcard_draws,
            dealt_upcards: self.dealt_upcards,
            discarded_by: self.discarded_by.as_slice(),
            stock_only: self.stock_only,
            taken: self.taken,
            must_go_out: self.must_go_out,
            last_result: self.last_result.as_ref().map(HandResultFields::view),
            outcome: self.outcome.as_ref(),
        }
    }
}

/// The `Card` messages of a list of a hand's result, read in place: a knocker's or defender's
/// deadwood, the layoffs (a hand of at most 11 cards), or a meld.
type ResultCards = HandMessages;
/// The melds of a showdown or a layout, or the entries of `onto`, read in place: a hand holds
/// at most [`MAX_MELDS`]; more are left to prost (and refused).
type MeldMessages = Inline<ResultCards, MAX_MELDS>;

/// A `GinHandResult` message's fields as read so far.
#[derive(Default)]
struct HandResultFields {
    deal: u32,
    dealer: u32,
    end: i32,
    showdown: Option<ShowdownFields>,
    winner: Option<u32>,
    undercut: bool,
    points: u32,
    scores: Inline<u32, 2>,
}

impl HandResultFields {
    /// Reads a `GinHandResult`'s bytes (see [`ObservationFields::merge`]).
    fn merge(&mut self, mut bytes: &[u8]) -> Option<()> {
        let buf = &mut bytes;
        while !buf.is_empty() {
            let (tag, wire_type) = read_key(buf)?;
            match tag {
                RESULT_DEAL => self.deal = read_uint32(wire_type, buf)?,
                RESULT_DEALER => self.dealer = read_uint32(wire_type, buf)?,
                RESULT_END => self.end = read_int32(wire_type, buf)?,
                RESULT_SHOWDOWN => {
                    self.showdown.get_or_insert_default().merge(read_delimited(wire_type, buf)?)?;
                }
                RESULT_WINNER => self.winner = Some(read_uint32(wire_type, buf)?),
                RESULT_UNDERCUT => self.undercut = read_bool(wire_type, buf)?,
                RESULT_POINTS => self.points = read_uint32(wire_type, buf)?,
                RESULT_SCORES => read_packed(wire_type, buf, &mut self.scores)?,
                _ => skip_field(wire_type, tag, buf, context(RESULT_DEPTH)?).ok()?,
            }
        }
        Some(())
    }

    fn view(&self) -> HandResultView<'_, ResultCards> {
        HandResultView {
            deal: self.deal,
            dealer: self.dealer,
            end: self.end,
            showdown: self.showdown.as_ref().map(ShowdownFields::view),
            winner: self.winner,
            undercut: self.undercut,
            points: self.points,
            scores: self.scores.as_slice(),
        }
    }
}

/// A `GinShowdown` message's fields as read so far.
#[derive(Default)]
struct ShowdownFields {
    knocker: u32,
    kind: i32,
    discard: Option<pb::Card>,
    melds: MeldMessages,
    deadwood_cards: ResultCards,
    deadwood: u32,
    defender: u32,
    layout: Option<LayoutFields>,
}

impl ShowdownFields {
    /// Reads a `GinShowdown`'s bytes (see [`ObservationFields::merge`]).
    fn merge(&mut self, mut bytes: &[u8]) -> Option<()> {
        const CHILD: u32 = SHOWDOWN_DEPTH + 1;
        let buf = &mut bytes;
        while !buf.is_empty() {
            let (tag, wire_type) = read_key(buf)?;
            match tag {
                SHOWDOWN_KNOCKER => self.knocker = read_uint32(wire_type, buf)?,
                SHOWDOWN_KIND => self.kind = read_int32(wire_type, buf)?,
                SHOWDOWN_DISCARD => {
                    merge_card(wire_type, buf, self.discard.get_or_insert_default(), CHILD)?;
                }
                SHOWDOWN_MELDS => merge_cards(wire_type, buf, self.melds.push_default()?, CHILD)?,
                SHOWDOWN_DEADWOOD_CARDS => {
                    self.deadwood_cards.push(read_card(wire_type, buf, CHILD)?)?;
                }
                SHOWDOWN_DEADWOOD => self.deadwood = read_uint32(wire_type, buf)?,
                SHOWDOWN_DEFENDER => self.defender = read_uint32(wire_type, buf)?,
                SHOWDOWN_LAYOUT => {
                    self.layout.get_or_insert_default().merge(read_delimited(wire_type, buf)?)?;
                }
                _ => skip_field(wire_type, tag, buf, context(SHOWDOWN_DEPTH)?).ok()?,
            }
        }
        Some(())
    }

    fn view(&self) -> ShowdownView<'_, ResultCards> {
        ShowdownView {
            knocker: self.knocker,
            kind: self.kind,
            discard: self.discard,
            melds: self.melds.as_slice(),
            deadwood_cards: self.deadwood_cards.as_slice(),
            deadwood: self.deadwood,
            defender: self.defender,
            layout: self.layout.as_ref().map(LayoutFields::view),
        }
    }
}

/// A `GinLayout` message's fields as read so far.
#[derive(Default)]
struct LayoutFields {
    melds: MeldMessages,
    layoffs: ResultCards,
    onto: MeldMessages,
    deadwood_cards: ResultCards,
    deadwood: u32,
}

impl LayoutFields {
    /// Reads a `GinLayout`'s bytes (see [`ObservationFields::merge`]).
    fn merge(&mut self, mut bytes: &[u8]) -> Option<()> {
        const CHILD: u32 = LAYOUT_DEPTH + 1;
        let buf = &mut bytes;
        while !buf.is_empty() {
            let (tag, wire_type) = read_key(buf)?;
            match tag {
                LAYOUT_MELDS => merge_cards(wire_type, buf, self.melds.push_default()?, CHILD)?,
                LAYOUT_LAYOFFS => self.layoffs.push(read_card(wire_type, buf, CHILD)?)?,
                LAYOUT_ONTO => merge_cards(wire_type, buf, self.onto.push_default()?, CHILD)?,
                LAYOUT_DEADWOOD_CARDS => {
                    self.deadwood_cards.push(read_card(wire_type, buf, CHILD)?)?;
                }
                LAYOUT_DEADWOOD => self.deadwood = read_uint32(wire_type, buf)?,
                _ => skip_field(wire_type, tag, buf, context(LAYOUT_DEPTH)?).ok()?,
            }
        }
        Some(())
    }

    fn view(&self) -> LayoutView<'_, ResultCards> {
        LayoutView {
            melds: self.melds.as_slice(),
            layoffs: self.layoffs.as_slice(),
            onto: self.onto.as_slice(),
            deadwood_cards: self.deadwood_cards.as_slice(),
            deadwood: self.deadwood,
        }
    }
}

/// A `Card` message field, one entry of a `repeated Card`; the card's fields are `depth` below
/// the `Observation` (see [`context`]).
fn read_card(wire_type: WireType, buf: &mut &[u8], depth: u32) -> Option<pb::Card> {
    let mut card = pb::Card::default();
    merge_card_at(read_delimited(wire_type, buf)?, &mut card, depth)?;
    Some(card)
}

/// An `optional Card` field, merged into `card` as prost merges a message field sent twice; the
/// card's fields are `depth` below the `Observation`.
fn merge_card(wire_type: WireType, buf: &mut &[u8], card: &mut pb::Card, depth: u32) -> Option<()> {
    merge_card_at(read_delimited(wire_type, buf)?, card, depth)
}

/// A `Card` message's bytes, merged into `card`.
fn merge_card_at(mut bytes: &[u8], card: &mut pb::Card, depth: u32) -> Option<()> {
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
            _ => skip_field(wire_type, tag, buf, context(depth)?).ok()?,
        }
    }
    Some(())
}

/// A `Cards` message field (an entry of `known_cards`, a meld, layoffs onto a meld), its cards
/// appended to `cards`; its fields are `depth` below the `Observation`.
fn merge_cards(
    wire_type: WireType,
    buf: &mut &[u8],
    cards: &mut HandMessages,
    depth: u32,
) -> Option<()> {
    // The cards in the form `write_cards` writes them (`card_field`: key, length 4, rank, suit),
    // six bytes a card, read without a call a field; the first entry in another form, and
    // everything after it, is read field by field below.
    const ENTRY_KEY: u8 = key_byte(CARDS_CARDS, WireType::LengthDelimited);
    let mut body = read_delimited(wire_type, buf)?;
    while let &[ENTRY_KEY, CARD_LEN, ref rest @ ..] = body
        && let Some((message, rest)) = rest.split_at_checked(usize::from(CARD_LEN))
        && let Some(card) = written_card(message)
    {
        cards.push(card)?;
        body = rest;
    }
    let buf = &mut body;
    while !buf.is_empty() {
        let (tag, wire_type) = read_key(buf)?;
        match tag {
            CARDS_CARDS => cards.push(read_card(wire_type, buf, depth + 1)?)?,
            _ => skip_field(wire_type, tag, buf, context(depth)?).ok()?,
        }
    }
    Some(())
}

/// prost's decoding context for the fields of a message `depth` levels below the
/// `Observation` (whose own fields are at 0): what prost would skip an unknown field, or merge
/// a nested message, with there, so that a group nested too deep is refused where prost
/// refuses it (its recursion limit). prost makes a context one level deeper only inside
/// `message::merge`: [`Probe`] is merged to keep the one it is given. Called for unknown fields
/// and the outcome only.
fn context(depth: u32) -> Option<DecodeContext> {
    let mut ctx = DecodeContext::default();
    for _ in 0..depth {
        let mut probe = Probe(None);
        // A message of 2 bytes: field 1, the varint 0.
        let message: &[u8] = &[2, key_byte(1, WireType::Varint), 0];
        encoding::message::merge(WireType::LengthDelimited, &mut probe, &mut &*message, ctx)
            .ok()?;
        ctx = probe.0?;
    }
    Some(ctx)
}

/// A message that keeps the decoding context prost merges its fields with (see [`context`]).
struct Probe(Option<DecodeContext>);

impl Message for Probe {
    fn encode_raw(&self, _: &mut impl BufMut) {}

    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: WireType,
        buf: &mut impl Buf,
        ctx: DecodeContext,
    ) -> Result<(), DecodeError> {
        self.0 = Some(ctx.clone());
        skip_field(wire_type, tag, buf, ctx)
    }

    fn encoded_len(&self) -> usize {
        0
    }

    fn clear(&mut self) {
        self.0 = None;
    }
}

/// The `Card` messages of a `known_cards` entry, as [`TypedView`] reads them.
impl<const N: usize> AsRef<[pb::Card]> for Inline<pb::Card, N> {
    fn as_ref(&self) -> &[pb::Card] {
        self.as_slice()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use cardroom_games::gin::{GoOut, HandEnd, HandResult, Showdown, State};
    use cardroom_games::{Card, Seat};

    use super::super::tests::for_random_states;
    use super::*;
    use crate::wire::bytes::testing::*;
    use crate::wire::{TestRng as Rng, WireGame, card_to_pb, legal_actions_to_pb};

    /// Cards as codes but the known cards as `Card` messages: what a client asks for that knew
    /// `Omit.cards` before `Omit.known_cards`.
    const CODES: pb::Omit = pb::Omit { known_cards: false, ..COMPACT };

    /// Whether the hand reader reads `bytes` itself (rather than leaving them to prost).
    fn read_in_place(bytes: &[u8]) -> bool {
        ObservationFields::default().merge(bytes).is_some()
    }

    /// Both seats' observations of the states of `matches` random matches, every `every`th
    /// state, with the match's options.
    fn sample_observations(matches: u64, every: usize) -> Vec<(Observation, Options)> {
        sample_observations_where(matches, every, |_| true)
    }

    /// Whether the last hand ended in a showdown (a knock or gin, GR-9).
    fn after_showdown(state: &State) -> bool {
        let result = state.public_view().last_result.map(|result| result.end);
        matches!(result, Some(HandEnd::Showdown(_)))
    }

    /// [`sample_observations`] of the states that `pick` picks.
    fn sample_observations_where(
        matches: u64,
        every: usize,
        pick: impl Fn(&State) -> bool,
    ) -> Vec<(Observation, Options)> {
        let mut observations = Vec::new();
        let mut step = 0;
        for_random_states(matches, |state, _| {
            if !pick(state) {
                return;
            }
            step += 1;
            if step % every == 0 {
                for seat in [Seat(0), Seat(1)] {
                    observations.push((state.observation(seat), *state.options()));
                }
            }
        });
        observations
    }

    /// The observation, and when its last hand ended in a knock, the same observation with
    /// that hand ended in gin and in big gin instead (GR-8): random play seldom goes gin (two
    /// hands in 400 matches), and a hand's result is written and read the same whichever way
    /// it went out.
    fn with_every_way_out(observation: Observation) -> Vec<Observation> {
        let mut observations = vec![observation.clone()];
        if let Some(HandResult { end: HandEnd::Showdown(showdown), .. }) =
            observation.public.last_result
            && showdown.kind == GoOut::Knock
        {
            for (kind, discard) in [(GoOut::Gin, showdown.discard), (GoOut::BigGin, None)] {
                let mut gone_out = observation.clone();
                if let Some(result) = &mut gone_out.public.last_result {
                    result.end = HandEnd::Showdown(Showdown { kind, discard, ..showdown });
                }
                observations.push(gone_out);
            }
        }
        observations
    }

    /// What each seat is shown (GR-15: the public view, with hand results and the outcome once
    /// public; GR-16: its own hand and drawn card, no other hidden card) is written byte for
    /// byte as prost writes the typed observation, in every form a connection can ask for,
    /// at every step of random matches whose hands end in knocks, gin (see
    /// [`with_every_way_out`]), at the wall and at the upcard limit (GR-7, GR-8, GR-10, GR-11),
    /// up to the match's end (GR-13).
    #[test]
    fn the_bytes_written_are_prosts() {
        let (mut knocks, mut gins, mut walls, mut limits, mut outcomes) = (0, 0, 0, 0, 0);
        for_random_states(60, |state, _| {
            for seat in [Seat(0), Seat(1)] {
                for observation in with_every_way_out(state.observation(seat)) {
                    if let Some(HandResult { end: HandEnd::Showdown(showdown), .. }) =
                        observation.public.last_result
                    {
                        gins += usize::from(showdown.kind != GoOut::Knock);
                    }
                    for omit in omits() {
                        let expected =
                            State::observation_to_pb(&observation, &omit).encode_to_vec();
                        // Appended to what the buffer holds, as a `Turn`'s header comes first.
                        let mut bytes = vec![0xA5];
                        State::encode_observation(&observation, &omit, &mut bytes);
                        assert_eq!(bytes[0], 0xA5);
                        assert!(bytes[1..] == expected[..], "{omit:?}, {observation:?}");
                    }
                }
            }
            let public = state.public_view();
            match public.last_result.map(|result| result.end) {
                Some(HandEnd::Showdown(_)) => knocks += 1,
                Some(HandEnd::Wall) => walls += 1,
                Some(HandEnd::UpcardLimit) => limits += 1,
                None => {}
            }
            outcomes += usize::from(public.outcome.is_some());
        });
        assert!(
            knocks > 0 && gins > 0 && walls > 0 && limits > 0,
            "every end of a hand was met: {knocks} {gins} {walls} {limits}"
        );
        assert!(outcomes > 0, "finished matches were met");
    }

    /// A seat's observation (GR-15, GR-16) read from the bytes, in the compact form (cards as
    /// codes, no JSON) and the full one (`Card` messages and the JSON), with and without the
    /// `Turn`'s legal actions, is the default reading's, and the engine's own observation once
    /// its legal actions are listed; read over one kept observation too (the SDK's way), for
    /// either seat in turn.
    #[test]
    fn the_bytes_read_are_the_engines_observation() {
        let mut kept = State::new(Options::default(), 1).unwrap().observation(Seat(0));
        for_random_states(60, |state, _| {
            let options = *state.options();
            for observation in [Seat(0), Seat(1)]
                .into_iter()
                .flat_map(|seat| with_every_way_out(state.observation(seat)))
            {
                let legal = legal_actions_to_pb::<State>(State::legal_actions_of(&observation));
                for omit in [COMPACT, CODES, FULL] {
                    let bytes = encoded::<State>(&observation, &omit);
                    assert!(read_in_place(&bytes));
                    assert_read_as_prost_reads::<State>(&bytes, &[], &options);
                    assert_read_as_prost_reads::<State>(&bytes, &legal, &options);
                    let read = State::decode_observation(&bytes, &legal, &options);
                    assert_eq!(read.as_ref(), Ok(&observation));
                    let mut read = State::decode_observation(&bytes, &[], &options).unwrap();
                    State::fill_legal_actions(&mut read);
                    assert_eq!(read, observation);
                    State::decode_observation_into(&bytes, &legal, &options, &mut kept).unwrap();
                    assert_eq!(kept, observation);
                    State::decode_observation_into(&bytes, &[], &options, &mut kept).unwrap();
                    State::fill_legal_actions(&mut kept);
                    assert_eq!(kept, observation);
                }
            }
        });
    }

    /// Every prefix of an observation's bytes, and thousands of them with one byte changed, are
    /// read as the default reads them: the same observation or the same error, never a panic.
    #[test]
    fn cut_and_damaged_bytes_are_read_as_prost_reads_them() {
        let mut rng = Rng::new(7);
        let mut tally = Damage::default();
        let observations = sample_observations(12, 9);
        let after_showdowns = sample_observations_where(30, 15, after_showdown);
        for (i, (observation, options)) in observations.iter().chain(&after_showdowns).enumerate() {
            // The JSON is a long `string` that only needs to be UTF-8: once in a while.
            let omit = [COMPACT, MESSAGES, CODES, MESSAGES, FULL][i % 5];
            let bytes = encoded::<State>(observation, &omit);
            let legal = legal_actions_to_pb::<State>(State::legal_actions_of(observation));
            let legal = if rng.coin() { legal } else { Vec::new() };
            let (cuts, aim) = (omit != FULL, (omit == FULL).then_some(200));
            cut_and_damage::<State>(
                &bytes,
                &legal,
                options,
                cuts,
                40,
                aim,
                read_in_place,
                &mut rng,
                &mut tally,
            );
        }
        let Damage { mutations, refused, in_place } = tally;
        assert!(mutations >= 3_000, "{mutations} damaged observations");
        assert!(refused > mutations / 10, "damage was refused as well as read: {refused}");
        assert!(in_place > mutations / 4, "damaged bytes were read in place: {in_place}");
    }

    /// A field of one of `GinObservation`'s numbers (or 6, reserved, or the next one; a hand's
    /// result's messages have fewer), of any wire type, holding values of every kind a view
    /// has: numbers, card codes, `Card` messages, `Cards` messages.
    fn random_gin_field(rng: &mut Rng) -> Vec<u8> {
        let tag = 1 + rng.below(27) as u32;
        let card = |rng: &mut Rng| {
            let mut card =
                vec![0x08, [2, 9, 14, 1, 15][rng.below(5)], 0x10, [1, 4, 0, 5][rng.below(4)]];
            card.truncate(4 - 2 * rng.below(2));
            card
        };
        match rng.below(6) {
            0 | 1 => varint_field(
                tag,
                [0, 1, 2, 5, 14, 300, u64::from(u32::MAX), u64::MAX][rng.below(8)],
            ),
            2 => delimited(tag, &card(rng)),
            3 => {
                delimited(tag, &(0..rng.below(6)).map(|_| rng.below(60) as u8).collect::<Vec<_>>())
            }
            4 => delimited(tag, &delimited(CARDS_CARDS, &card(rng))),
            _ => unknown_field(&[tag], rng),
        }
    }

    /// Real views with random fields added (see [`random_gin_field`]), to the view or to its
    /// last hand's result, showdown or layout: views no server writes, many of them refused for
    /// what they hold, are read as the default reads them.
    #[test]
    fn random_fields_are_read_as_prost_reads_them() {
        let mut rng = Rng::new(23);
        let (mut read, mut refused) = (0, 0);
        let after_showdowns = sample_observations_where(20, 10, after_showdown);
        for (observation, options) in sample_observations(4, 5).into_iter().chain(after_showdowns) {
            let omit = [COMPACT, CODES, MESSAGES][rng.below(3)];
            let bytes = encoded::<State>(&observation, &omit);
            // Into the view, or a hand's result's messages when there is a showdown.
            let showdown = matches!(
                observation.public.last_result.map(|result| result.end),
                Some(HandEnd::Showdown(_))
            );
            let paths: &[&[u32]] = if showdown {
                &[
                    &[OBSERVATION_GIN],
                    &[OBSERVATION_GIN, GIN_LAST_RESULT],
                    &[OBSERVATION_GIN, GIN_LAST_RESULT, RESULT_SHOWDOWN],
                    &[OBSERVATION_GIN, GIN_LAST_RESULT, RESULT_SHOWDOWN, SHOWDOWN_LAYOUT],
                ]
            } else {
                &[&[OBSERVATION_GIN]]
            };
            for _ in 0..10 {
                let extra: Vec<u8> =
                    (0..1 + rng.below(3)).flat_map(|_| random_gin_field(&mut rng)).collect();
                let path = paths[rng.below(paths.len())];
                let bytes = append_inside(&bytes, path, &extra);
                assert_read_as_prost_reads::<State>(&bytes, &[], &options);
                let result = State::decode_observation(&bytes, &[], &options);
                read += usize::from(result.is_ok());
                refused += usize::from(result.is_err());
            }
        }
        assert!(read > 100 && refused > 1_000, "{read} read, {refused} refused");
    }

    const CARDS_ENTRY: Kind = Kind::Message { fields: &[(CARDS_CARDS, CARD_ENTRY)], once: false };
    const LAYOUT: &[(u32, Kind)] = &[
        (LAYOUT_MELDS, CARDS_ENTRY),
        (LAYOUT_LAYOFFS, CARD_ENTRY),
        (LAYOUT_ONTO, CARDS_ENTRY),
        (LAYOUT_DEADWOOD_CARDS, CARD_ENTRY),
        (LAYOUT_DEADWOOD, Kind::Scalar),
    ];
    const SHOWDOWN: &[(u32, Kind)] = &[
        (SHOWDOWN_KNOCKER, Kind::Scalar),
        (SHOWDOWN_KIND, Kind::Scalar),
        (SHOWDOWN_DISCARD, ONE_CARD),
        (SHOWDOWN_MELDS, CARDS_ENTRY),
        (SHOWDOWN_DEADWOOD_CARDS, CARD_ENTRY),
        (SHOWDOWN_DEADWOOD, Kind::Scalar),
        (SHOWDOWN_DEFENDER, Kind::Scalar),
        (SHOWDOWN_LAYOUT, Kind::Message { fields: LAYOUT, once: true }),
    ];
    const RESULT: &[(u32, Kind)] = &[
        (RESULT_DEAL, Kind::Scalar),
        (RESULT_DEALER, Kind::Scalar),
        (RESULT_END, Kind::Scalar),
        (RESULT_SHOWDOWN, Kind::Message { fields: SHOWDOWN, once: true }),
        (RESULT_WINNER, Kind::Scalar),
        (RESULT_UNDERCUT, Kind::Scalar),
        (RESULT_POINTS, Kind::Scalar),
        (RESULT_SCORES, Kind::Packed),
    ];
    const GIN: &[(u32, Kind)] = &[
        (GIN_HAND, CARD_ENTRY),
        (GIN_DRAWN, ONE_CARD),
        (GIN_SCORES, Kind::Packed),
        (GIN_DEALER, Kind::Scalar),
        (GIN_DEAL, Kind::Scalar),
        (GIN_STOCK_SIZE, Kind::Scalar),
        (GIN_DISCARD_PILE, CARD_ENTRY),
        (GIN_KNOWN_CARDS, CARDS_ENTRY),
        (GIN_KNOCK_LIMIT, Kind::Scalar),
        (GIN_TO_ACT, Kind::Scalar),
        (GIN_PHASE, Kind::Scalar),
        (GIN_HANDS_WON, Kind::Packed),
        (GIN_MULTIPLIER, Kind::Scalar),
        (GIN_HAND_SIZES, Kind::Packed),
        (GIN_UPCARD_DRAWS, Kind::Scalar),
        (GIN_DEALT_UPCARDS, Kind::Scalar),
        (GIN_DISCARDED_BY, Kind::Packed),
        (GIN_STOCK_ONLY, Kind::Scalar),
        (GIN_TAKEN, ONE_CARD),
        (GIN_MUST_GO_OUT, Kind::Scalar),
        (GIN_LAST_RESULT, Kind::Message { fields: RESULT, once: true }),
        (GIN_HAND_CODES, Kind::Bytes),
        (GIN_DISCARD_PILE_CODES, Kind::Bytes),
        (GIN_KNOWN_CARDS_CODES, Kind::BytesEntry),
    ];
    const OBSERVATION: &[(u32, Kind)] = &[
        (OBSERVATION_SEAT, Kind::Scalar),
        (OBSERVATION_GIN, Kind::Message { fields: GIN, once: true }),
        (OBSERVATION_JSON, Kind::Bytes),
    ];

    /// Bytes prost reads to the same observation in another order and shape (see [`rewrite`]:
    /// fields in any order, unknown fields at every level, lists unpacked, scalars sent twice,
    /// messages in parts) are read to it too, hand results of every kind included.
    #[test]
    fn any_form_prost_reads_is_read() {
        let mut rng = Rng::new(11);
        let mut showdowns = 0;
        let after_showdowns = sample_observations_where(30, 5, after_showdown);
        for (observation, options) in sample_observations(12, 7).into_iter().chain(after_showdowns)
        {
            let expected = Observation { legal_actions: Vec::new(), ..observation.clone() };
            for omit in [COMPACT, CODES, MESSAGES, FULL] {
                let bytes =
                    rewrite(&encoded::<State>(&observation, &omit), OBSERVATION, true, &mut rng);
                assert_eq!(
                    decode_through_pb::<State>(&bytes, &[], &options).as_ref(),
                    Ok(&expected)
                );
                assert!(read_in_place(&bytes), "{bytes:?}");
                assert_read_as_prost_reads::<State>(&bytes, &[], &options);
            }
            showdowns += usize::from(matches!(
                observation.public.last_result.map(|result| result.end),
                Some(HandEnd::Showdown(_))
            ));
        }
        assert!(showdowns > 50, "{showdowns} observations after a showdown");
    }

    /// A Twenty-Two view sent with the Gin Rummy one: whichever comes last is the view (prost's
    /// oneof), read as the default reads it.
    #[test]
    fn a_twenty_two_view_is_read_as_prost_reads_it() {
        let state = State::new(Options::default(), 5).unwrap();
        let bytes = encoded::<State>(&state.observation(Seat(1)), &COMPACT);
        let twenty_two = delimited(OBSERVATION_TWENTY_TWO, &[]);
        let before = [twenty_two.clone(), bytes.clone()].concat();
        let after = [bytes.clone(), twenty_two].concat();
        assert!(State::decode_observation(&before, &[], state.options()).is_ok());
        assert_eq!(
            State::decode_observation(&after, &[], state.options()),
            Err(WireError::Incomplete(NO_GIN_VIEW))
        );
        for bytes in [before, after, Vec::new(), varint_field(OBSERVATION_SEAT, 1)] {
            assert_read_as_prost_reads::<State>(&bytes, &[], state.options());
        }
    }

    /// A `Cards` message's entries, written whole by `card_field`, hold what `write_card` writes,
    /// for every card, and prost reads each entry as that card.
    #[test]
    fn card_fields_are_write_cards_bytes() {
        for card in Card::pack() {
            let mut written = Vec::new();
            write_card(CARDS_CARDS, card.index(), &mut written);
            assert_eq!(card_field(CARDS_CARDS, card.index())[..], written[..], "{card}");
            let read = pb::Cards::decode(&written[..]).unwrap();
            assert_eq!(read.cards, [card_to_pb(card)], "{card}");
        }
    }

    /// A `known_cards` entry's cards are read six bytes at once in the form the server writes
    /// them, and field by field from the first card in another form on: cards after it in
    /// either form, ranks and suits in two bytes, in the other order, sent twice or left out,
    /// an unknown field, a card cut short, cards the entry holds already, are read as prost
    /// reads them.
    #[test]
    fn known_cards_in_any_form_are_read_as_prost_reads_them() {
        let (observation, options) = sample_observations_where(10, 1, |state| {
            state.public_view().known_cards.iter().all(|known| known.len() >= 2)
        })
        .into_iter()
        .next()
        .unwrap();
        // Cards as codes, the known cards as `Card` messages.
        let bytes = encoded::<State>(&observation, &CODES);
        let written = |code: u8| {
            let mut entry = Vec::new();
            write_card(CARDS_CARDS, code, &mut entry);
            entry
        };
        let held: Vec<u8> =
            observation.public.known_cards[0].iter().map(|card| card.index()).collect();
        let fresh = Card::pack()
            .map(|card| card.index())
            .filter(|code| !held.contains(code))
            .take(2)
            .collect::<Vec<_>>();
        let other_forms: [&[u8]; 8] = [
            &[0x10, 2, 0x08, 9],
            &[0x88, 0x00, 0x08, 9, 0x10, 2],
            &[0x08, 0x89, 0x00, 0x10, 0x82, 0x00],
            &[0x08, 9, 0x10, 2, 0x10, 3],
            &[0x08, 9],
            &[0x08, 9, 0x18, 1, 0x10, 2],
            &[0x08, 9, 0x10, 2, 0x08],
            &[],
        ];
        let mut read = 0;
        for form in other_forms {
            for (before, after) in [(0, 0), (1, 0), (2, 1), (0, 2), (2, 2)] {
                let mut entry = Vec::new();
                for &code in fresh.iter().take(before) {
                    entry.extend(written(code));
                }
                entry.extend(delimited(CARDS_CARDS, form));
                for &code in fresh.iter().chain(&held).take(after) {
                    entry.extend(written(code));
                }
                // The entry's cards after the seat's own, and as an entry of its own.
                let places = [
                    (&[OBSERVATION_GIN, GIN_KNOWN_CARDS][..], entry.clone()),
                    (&[OBSERVATION_GIN][..], delimited(GIN_KNOWN_CARDS, &entry)),
                ];
                for (path, extra) in places {
                    let changed = append_inside(&bytes, path, &extra);
                    assert_read_as_prost_reads::<State>(&changed, &[], &options);
                    read += usize::from(State::decode_observation(&changed, &[], &options).is_ok());
                }
            }
        }
        assert!(read > 0, "some of the changed entries are observations");
        // The written form alone, read in place.
        let entry: Vec<u8> = fresh.iter().flat_map(|&code| written(code)).collect();
        let changed = append_inside(&bytes, &[OBSERVATION_GIN, GIN_KNOWN_CARDS], &entry);
        assert!(read_in_place(&changed));
        assert_read_as_prost_reads::<State>(&changed, &[], &options);
    }

    /// Unknown groups nested about as deep as prost's recursion limit allows, in every message
    /// the hand reader reads (down to a card of a meld of the last hand's showdown), are refused
    /// exactly where prost refuses them.
    #[test]
    fn deep_groups_are_refused_where_prost_refuses_them() {
        let (observation, options) = sample_observations_where(20, 1, after_showdown)
            .into_iter()
            .find(|(observation, _)| {
                let public = &observation.public;
                let Some(HandEnd::Showdown(showdown)) = public.last_result.map(|result| result.end)
                else {
                    return false;
                };
                showdown.melds.melds().next().is_some()
                    && !showdown.layout.deadwood_cards.is_empty()
                    && !public.discard_pile.is_empty()
            })
            .unwrap();
        let mut bytes = encoded::<State>(&observation, &MESSAGES);
        // A known card more, so that `known_cards` holds a `Card` message to reach into.
        let known = observation.public.known_cards[0];
        let card = Card::pack().find(|&card| !known.contains(card)).unwrap();
        let mut entry = Vec::new();
        write_card(CARDS_CARDS, card.index(), &mut entry);
        bytes = append_inside(&bytes, &[OBSERVATION_GIN, GIN_KNOWN_CARDS], &entry);
        const SHOWDOWN: [u32; 3] = [OBSERVATION_GIN, GIN_LAST_RESULT, RESULT_SHOWDOWN];
        const LAYOUT: [u32; 4] =
            [OBSERVATION_GIN, GIN_LAST_RESULT, RESULT_SHOWDOWN, SHOWDOWN_LAYOUT];
        let paths: [&[u32]; 12] = [
            &[],
            &[OBSERVATION_GIN],
            &[OBSERVATION_GIN, GIN_HAND],
            &[OBSERVATION_GIN, GIN_DISCARD_PILE],
            &[OBSERVATION_GIN, GIN_KNOWN_CARDS],
            &[OBSERVATION_GIN, GIN_KNOWN_CARDS, CARDS_CARDS],
            &[OBSERVATION_GIN, GIN_LAST_RESULT],
            &SHOWDOWN,
            &[SHOWDOWN[0], SHOWDOWN[1], SHOWDOWN[2], SHOWDOWN_MELDS],
            &[SHOWDOWN[0], SHOWDOWN[1], SHOWDOWN[2], SHOWDOWN_MELDS, CARDS_CARDS],
            &LAYOUT,
            &[LAYOUT[0], LAYOUT[1], LAYOUT[2], LAYOUT[3], LAYOUT_DEADWOOD_CARDS],
        ];
        for path in paths {
            let (mut read, mut refused) = (false, false);
            for depth in 94..=102 {
                let deep = append_inside(&bytes, path, &nested_group(29, depth));
                assert_read_as_prost_reads::<State>(&deep, &[], &options);
                let result = State::decode_observation(&deep, &[], &options);
                read |= result.is_ok();
                refused |= result.is_err();
            }
            assert!(read && refused, "the limit falls between 94 and 102 at {path:?}");
        }
    }

    /// Views no observation can have, sent as bytes, are refused with the words of the typed
    /// reader (`observation_from_pb`), the first of several faults first.
    #[test]
    fn views_that_cannot_be_observations_are_refused_with_the_same_words() {
        let state = State::new(Options::default(), 3).unwrap();
        let options = *state.options();
        let observation = state.observation(Seat(0));
        type Edit<'a> = &'a dyn Fn(&mut pb::Observation, &mut pb::GinObservation);
        let edits: [Edit<'_>; 15] = [
            &|o, _| o.seat = 256,
            &|o, t| {
                o.seat = 256;
                t.hand.push(pb::Card { rank: 1, suit: 1 });
            },
            &|_, t| t.hand.push(card_to_pb(observation.hand.first().unwrap())),
            &|_, t| t.hand_codes = vec![52],
            &|_, t| t.drawn = Some(pb::Card { rank: 3, suit: 9 }),
            &|_, t| t.to_act = None,
            &|_, t| t.phase = 99,
            &|_, t| t.dealt_upcards = u32::MAX,
            &|_, t| t.discarded_by = vec![1; 3],
            &|_, t| t.scores.push(0),
            &|_, t| t.known_cards.push(pb::Cards::default()),
            &|_, t| t.known_cards_codes.push(Vec::new()),
            &|_, t| t.known_cards_codes = vec![vec![52], Vec::new()],
            &|_, t| t.known_cards_codes = vec![Vec::new(), vec![7, 7]],
            &|_, t| {
                t.knock_limit = 300;
                t.hand_sizes.clear();
            },
        ];
        for (omit, edit) in
            [COMPACT, CODES, MESSAGES].into_iter().flat_map(|omit| edits.map(|e| (omit, e)))
        {
            let mut wire = State::observation_to_pb(&observation, &omit);
            let Some(pb::observation::Game::Gin(mut typed)) = wire.game.take() else { panic!() };
            edit(&mut wire, &mut typed);
            wire.game = Some(pb::observation::Game::Gin(typed));
            let bytes = wire.encode_to_vec();
            let read = State::decode_observation(&bytes, &[], &options);
            assert!(read.is_err(), "{wire:?}");
            assert_read_as_prost_reads::<State>(&bytes, &[], &options);
        }
    }
}
