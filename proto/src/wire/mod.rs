//! The boundary between the rules engines and the wire: every engine type <-> protobuf
//! conversion lives here, used by the server and by the SDK alike (the engines never see
//! protobuf).
//!
//! [`WireGame`] is what a game needs to be hosted and played over `cardroom.v1`, implemented
//! for each game in its own file (`twenty_two.rs`, `gin.rs`). The parts every game shares
//! (cards, seats, an `Act`'s choice, the observation's forms, options) are this module's.

mod bytes;
mod error;
mod gin;
mod holdem;
mod twenty_two;

pub use error::WireError;

use cardroom_games::{Card, Game, GameKind, Rank, Seat, Suit};

use crate::pb;

/// A game on the wire: an engine plus its conversions to and from `cardroom.v1`. The server
/// hosts any `WireGame`; the SDK plays any `WireGame`. The methods every game writes alike
/// (options and observations as serde's JSON, events) have their bodies here.
pub trait WireGame: Game<Observation: serde::de::DeserializeOwned> {
    /// The game's enum value on the wire.
    const PB: pb::Game;

    /// A new match from options as JSON (empty for the defaults), a seat count and a seed.
    /// The error says what is wrong (the broken rule's id first when a rule is broken), for an
    /// INVALID_ARGUMENT status.
    fn create(options_json: &str, seats: u32, seed: u64) -> Result<Self, WireError>;

    /// The match's options as JSON, every field included.
    fn options_json(&self) -> String {
        serde_json::to_string(self.options()).unwrap_or_default()
    }

    /// An action on the wire.
    fn action_to_pb(action: &Self::Action) -> pb::Action;

    /// An action from the wire; the error says why it cannot be read (wrong game, a card that
    /// does not exist, missing fields).
    fn action_from_pb(action: &pb::Action) -> Result<Self::Action, WireError>;

    /// The legal actions an observation holds, sorted as the engine sorts them (empty unless
    /// its seat is to act).
    fn legal_actions_of(observation: &Self::Observation) -> &[Self::Action];

    /// Fills an observation's legal actions in with the engine, from the observation alone:
    /// the list `Game::observation` made, in its order (empty unless its seat is to act). For a
    /// `Turn` without its legal actions (`Omit.legal_actions`), after
    /// [`WireGame::observation_from_pb`] read it with none.
    fn fill_legal_actions(observation: &mut Self::Observation);

    /// The seat an observation belongs to.
    fn observer(observation: &Self::Observation) -> Seat;

    /// A seat's observation on the wire: the typed view and, in its `json` field, the engine's
    /// JSON form, less what the connection's `omit` leaves out (neither is computed then).
    fn observation_to_pb(observation: &Self::Observation, omit: &pb::Omit) -> pb::Observation;

    /// An observation from the engine's JSON form (`Observation.json` on the wire).
    fn parse_observation(json: &str) -> Result<Self::Observation, serde_json::Error> {
        serde_json::from_str(json)
    }

    /// The match's options from `Joined.options_json` (empty for the defaults), read once per
    /// connection for [`WireGame::observation_from_pb`]: observations do not repeat them. The
    /// error names the game by its title.
    fn options_from_json(options_json: &str) -> Result<Self::Options, WireError> {
        parse_options(options_json, Self::KIND.title())
    }

    /// A seat's observation, the engine's own type, from the wire's typed view without JSON:
    /// equal to the `Game::observation` it was made from. `options` are the match's (from
    /// `Joined`); `legal_actions` are the `Turn`'s (empty for a seat not to act, and for the
    /// observation in `Joined`). The error says what the view lacks or holds that no
    /// observation can (a missing view, a card or seat that does not exist), for a peer's
    /// message is never trusted to be well formed.
    fn observation_from_pb(
        observation: &pb::Observation,
        legal_actions: &[pb::LegalAction],
        options: &Self::Options,
    ) -> Result<Self::Observation, WireError>;

    /// A seat's observation as the bytes of an `Observation` message (its fields, without a
    /// tag or length before them), appended to `buf`: the bytes prost writes for
    /// [`WireGame::observation_to_pb`], byte for byte. The server writes every `Turn` with it
    /// ([`crate::frame`]). This default goes through the typed view; a game may write the
    /// bytes from its observation directly.
    fn encode_observation(observation: &Self::Observation, omit: &pb::Omit, buf: &mut Vec<u8>) {
        prost::Message::encode_raw(&Self::observation_to_pb(observation, omit), buf);
    }

    /// An observation from the bytes of an `Observation` message, as
    /// [`WireGame::observation_from_pb`] reads it once prost has decoded them: the same
    /// observation, or an error (bytes that are no `Observation` message, or a view no
    /// observation can have). The SDK reads every `Turn` with it. This default goes through
    /// the typed view; a game may read the bytes into its observation directly.
    fn decode_observation(
        bytes: &[u8],
        legal_actions: &[pb::LegalAction],
        options: &Self::Options,
    ) -> Result<Self::Observation, WireError> {
        decode_through_pb::<Self>(bytes, legal_actions, options)
    }

    /// [`WireGame::decode_observation`] written over `observation`, for a reader that keeps
    /// one observation for a match (the SDK): a game may keep the allocations of its lists.
    /// `Ok` leaves just what `decode_observation` returns; after an error `observation` is a
    /// valid value of no meaning (this default leaves it unchanged), to be written over.
    fn decode_observation_into(
        bytes: &[u8],
        legal_actions: &[pb::LegalAction],
        options: &Self::Options,
        observation: &mut Self::Observation,
    ) -> Result<(), WireError> {
        *observation = Self::decode_observation(bytes, legal_actions, options)?;
        Ok(())
    }

    /// An event on the wire: its kind, a sentence and the engine's JSON form. The kind is the
    /// event's serde tag (`"event"`), so it can never drift from the JSON.
    fn event_to_pb(event: &Self::Event) -> pb::Event {
        let json = serde_json::to_value(event).unwrap_or_default();
        let kind = json.get("event").and_then(serde_json::Value::as_str).unwrap_or_default();
        pb::Event { kind: kind.to_owned(), text: event.to_string(), json: json.to_string() }
    }
}

/// An observation from the bytes of an `Observation` message through the typed view: prost's
/// decode, then [`WireGame::observation_from_pb`]. The default of
/// [`WireGame::decode_observation`], and what a game's own reader of the bytes hands over to
/// when they are not for it (malformed, another game's view, an unusual form).
pub(crate) fn decode_through_pb<G: WireGame>(
    bytes: &[u8],
    legal_actions: &[pb::LegalAction],
    options: &G::Options,
) -> Result<G::Observation, WireError> {
    let observation = <pb::Observation as prost::Message>::decode(bytes)?;
    G::observation_from_pb(&observation, legal_actions, options)
}

/// Generic code over a game on the wire, run for a game chosen at run time ([`visit`]): the
/// wire's [`cardroom_games::GameVisitor`], for code that needs `G: WireGame` (hosting a match,
/// playing one over `cardroom.v1`) rather than only `G: Game`.
pub trait WireVisitor {
    /// What the visit gives back.
    type Output;
    /// The visit, with `G` the chosen game's engine.
    fn visit<G: WireGame>(self) -> Self::Output;
}

/// Runs `visitor` with `game`'s engine as its type parameter (as [`GameKind::visit`] does for
/// a [`cardroom_games::GameVisitor`]), through the catalogue's [`cardroom_games::with_game!`].
pub fn visit<V: WireVisitor>(game: GameKind, visitor: V) -> V::Output {
    cardroom_games::with_game!(game, G => visitor.visit::<G>())
}

/// A game of the catalogue on the wire ([`WireGame::PB`]).
pub fn game_to_pb(game: GameKind) -> pb::Game {
    cardroom_games::with_game!(game, G => G::PB)
}

/// A game from the wire, `None` for a value this build does not know.
pub fn game_from_pb(value: i32) -> Option<GameKind> {
    let game = pb::Game::try_from(value).ok()?;
    GameKind::ALL.into_iter().find(|&kind| game_to_pb(kind) == game)
}

/// The action an `Act` names: one of the turn's `legal` actions by index, or an action by value
/// read with [`WireGame::action_from_pb`]. The error says why it names none, for an `ActError`
/// MALFORMED; whether the action is legal is for the engine to say.
pub fn act_action<G: WireGame>(act: &pb::Act, legal: &[G::Action]) -> Result<G::Action, WireError> {
    match &act.choice {
        Some(pb::act::Choice::Index(index)) => legal
            .get(*index as usize)
            .copied()
            .ok_or(WireError::NotLegal { index: *index, last: legal.len().saturating_sub(1) }),
        Some(pb::act::Choice::Action(action)) => G::action_from_pb(action),
        Some(pb::act::Choice::Reply(reply)) => Ok(cardroom_games::text::parse_reply(reply, legal)?),
        None => Err(WireError::NoChoice),
    }
}

/// Why an action on the wire is none of `G`'s, for [`WireGame::action_from_pb`]: it is another
/// game's (named by its title), or it names no game (the error names `G`'s field of
/// `Action.game`, which is its name).
fn not_an_action_of<G: WireGame>(action: &pb::Action) -> WireError {
    let game = action.game.as_ref().map(|game| match game {
        pb::action::Game::TwentyTwo(_) => GameKind::TwentyTwo,
        pb::action::Game::Gin(_) => GameKind::Gin,
        pb::action::Game::Holdem(_) => GameKind::Holdem,
    });
    match game {
        Some(game) => WireError::OtherGame { game: G::KIND.title(), other: game.title() },
        None => WireError::NoGame { field: G::NAME },
    }
}

/// The legal actions of a `Turn`, each with its index (its place in `legal`, the engine's
/// order), for `Act.index`.
pub fn legal_actions_to_pb<G: WireGame>(legal: &[G::Action]) -> Vec<pb::LegalAction> {
    legal
        .iter()
        .enumerate()
        .map(|(index, action)| pb::LegalAction {
            index: count(index),
            action: Some(G::action_to_pb(action)),
        })
        .collect()
}

/// The legal actions of a `Turn` from the wire, in its order (which is the engine's). The
/// error names the first that cannot be read.
fn legal_actions_from_pb<G: WireGame>(
    legal: &[pb::LegalAction],
) -> Result<Vec<G::Action>, WireError> {
    let mut actions = Vec::new();
    legal_actions_from_pb_into::<G>(legal, &mut actions)?;
    Ok(actions)
}

/// [`legal_actions_from_pb`] in place of what `actions` held (its allocation kept).
fn legal_actions_from_pb_into<G: WireGame>(
    legal: &[pb::LegalAction],
    actions: &mut Vec<G::Action>,
) -> Result<(), WireError> {
    actions.clear();
    // Sized once: collecting `Result`s would grow the list from nothing, once a Turn.
    actions.reserve(legal.len());
    for legal in legal {
        let action = legal.action.as_ref().ok_or(WireError::EmptyLegalAction(legal.index))?;
        let action = G::action_from_pb(action)
            .map_err(|err| err.within(format!("legal action {}", legal.index)))?;
        actions.push(action);
    }
    Ok(())
}

/// A card on the wire.
pub fn card_to_pb(card: Card) -> pb::Card {
    let suit = match card.suit() {
        Suit::Clubs => pb::Suit::Clubs,
        Suit::Diamonds => pb::Suit::Diamonds,
        Suit::Hearts => pb::Suit::Hearts,
        Suit::Spades => pb::Suit::Spades,
    };
    pb::Card { rank: card.rank() as i32, suit: suit as i32 }
}

/// A card from the wire.
#[inline]
pub fn card_from_pb(card: &pb::Card) -> Result<Card, WireError> {
    let rank = rank_from_pb(card.rank)?;
    let suit = match pb::Suit::try_from(card.suit) {
        Ok(pb::Suit::Clubs) => Suit::Clubs,
        Ok(pb::Suit::Diamonds) => Suit::Diamonds,
        Ok(pb::Suit::Hearts) => Suit::Hearts,
        Ok(pb::Suit::Spades) => Suit::Spades,
        _ => return Err(WireError::Suit(card.suit)),
    };
    Ok(Card::new(rank, suit))
}

/// A rank from the wire (`pb::Rank`'s numbers: its pips, the ace 14).
#[inline]
pub fn rank_from_pb(rank: i32) -> Result<Rank, WireError> {
    u8::try_from(rank)
        .ok()
        .and_then(|r| r.checked_sub(2))
        .and_then(Rank::from_index)
        .ok_or(WireError::Rank(rank))
}

/// Cards as card codes (`Omit.cards`): one byte a card, the engine's byte ([`Card::index`]),
/// which is `(rank - 2) * 4 + (suit - 1)` in `pb::Rank` and `pb::Suit` numbers.
pub fn cards_to_codes(cards: impl IntoIterator<Item = Card>) -> Vec<u8> {
    cards.into_iter().map(Card::index).collect()
}

/// A card from its code (`Omit.cards`).
#[inline]
pub fn card_from_code(code: u8) -> Result<Card, WireError> {
    Card::from_index(code).ok_or(WireError::CardCode(code))
}

/// A list of cards from the wire: its `Card` messages or, with `Omit.cards`, the card codes of
/// its `_codes` sibling, whichever was sent.
#[derive(Clone, Copy, Debug)]
enum CardList<'a> {
    /// `Card` messages.
    Messages(&'a [pb::Card]),
    /// Card codes.
    Codes(&'a [u8]),
}

impl<'a> CardList<'a> {
    /// The list a field holds: `cards`, or `codes` when those are sent; both is refused
    /// (`field` names the list in the error).
    fn of(cards: &'a [pb::Card], codes: &'a [u8], field: &str) -> Result<CardList<'a>, WireError> {
        match (cards.is_empty(), codes.is_empty()) {
            (false, false) => Err(WireError::BothCardForms { field: field.to_owned() }),
            (true, false) => Ok(CardList::Codes(codes)),
            (_, true) => Ok(CardList::Messages(cards)),
        }
    }

    fn len(self) -> usize {
        match self {
            CardList::Messages(cards) => cards.len(),
            CardList::Codes(codes) => codes.len(),
        }
    }

    /// The cards in order; each error names the card that is none.
    fn iter(self) -> impl Iterator<Item = Result<Card, WireError>> + 'a {
        let (messages, codes) = match self {
            CardList::Messages(cards) => (cards, &[][..]),
            CardList::Codes(codes) => (&[][..], codes),
        };
        messages.iter().map(card_from_pb).chain(codes.iter().map(|&code| card_from_code(code)))
    }
}

/// Cards on the wire.
pub fn cards_to_pb(cards: impl IntoIterator<Item = Card>) -> Vec<pb::Card> {
    cards.into_iter().map(card_to_pb).collect()
}

/// Cards from the wire.
pub fn cards_from_pb(cards: &[pb::Card]) -> Result<Vec<Card>, WireError> {
    cards.iter().map(card_from_pb).collect()
}

/// A seat number on the wire.
pub fn seat_to_pb(seat: Seat) -> u32 {
    u32::from(seat.0)
}

/// A seat number from the wire.
#[inline]
pub fn seat_from_pb(seat: u32) -> Result<Seat, WireError> {
    u8::try_from(seat).map(Seat).map_err(|_| WireError::Seat(seat))
}

/// Seat numbers from the wire.
fn seats_from_pb(seats: &[u32]) -> Result<Vec<Seat>, WireError> {
    seats.iter().map(|&seat| seat_from_pb(seat)).collect()
}

/// A per-seat pair from the wire (Gin Rummy's two seats); the error names the field.
fn pair<T: Copy>(values: &[T], field: &str) -> Result<[T; 2], WireError> {
    <[T; 2]>::try_from(values)
        .map_err(|_| WireError::NotOnePerSeat { field: field.to_owned(), len: values.len() })
}

/// A standing from the wire (the engine's: `forfeited` is the server's, in `MatchEnd` only).
fn standing_from_pb(standing: &pb::Standing) -> Result<cardroom_games::Standing, WireError> {
    let place = u8::try_from(standing.place).map_err(|_| WireError::Place(standing.place))?;
    Ok(cardroom_games::Standing { place, seat: seat_from_pb(standing.seat)? })
}

/// A standing on the wire.
fn standing_to_pb(standing: &cardroom_games::Standing) -> pb::Standing {
    pb::Standing {
        seat: seat_to_pb(standing.seat),
        place: u32::from(standing.place),
        forfeited: false,
    }
}

/// A count from the wire, as the engine keeps it (a `usize`).
fn size(n: u32) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// A small number from the wire that the engine keeps in a byte; the error names the field.
fn byte(n: u32, field: &str) -> Result<u8, WireError> {
    u8::try_from(n).map_err(|_| WireError::TooLarge { field: field.to_owned(), value: n })
}

/// A count on the wire (counts of cards and plays are far below `u32::MAX`).
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// An observation on the wire from its typed view, built only when the connection reads it,
/// and the engine's JSON form, written only when it reads that (its `Join.omit`).
fn observation_to_pb<O: serde::Serialize>(
    observation: &O,
    seat: Seat,
    omit: &pb::Omit,
    typed: impl FnOnce() -> pb::observation::Game,
) -> pb::Observation {
    pb::Observation {
        seat: seat_to_pb(seat),
        game: (!omit.typed).then(typed),
        json: if omit.json {
            String::new()
        } else {
            serde_json::to_string(observation).unwrap_or_default()
        },
    }
}

/// The observation forms a connection reads, from its `Join.omit`; the error is for an
/// INVALID_ARGUMENT status.
pub fn check_omit(omit: Option<pb::Omit>) -> Result<pb::Omit, WireError> {
    let omit = omit.unwrap_or_default();
    if omit.typed && omit.json {
        return Err(WireError::Incomplete(
            "Omit.typed and Omit.json together leave a Turn without its observation",
        ));
    }
    Ok(omit)
}

/// Options of `game` from JSON; an empty text means the defaults.
fn parse_options<O: serde::de::DeserializeOwned + Default>(
    options_json: &str,
    game: &'static str,
) -> Result<O, WireError> {
    if options_json.trim().is_empty() {
        return Ok(O::default());
    }
    serde_json::from_str(options_json)
        .map_err(|err| WireError::Options { game, message: err.to_string() })
}

/// A seeded RNG for the conversion tests: ChaCha8 with the two draws they need.
#[cfg(test)]
struct TestRng(rand_chacha::ChaCha8Rng);

#[cfg(test)]
impl TestRng {
    fn new(seed: u64) -> TestRng {
        TestRng(rand::SeedableRng::seed_from_u64(seed))
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        rand::RngExt::random_range(&mut self.0, 0..n)
    }

    /// Heads or tails.
    fn coin(&mut self) -> bool {
        rand::RngExt::random_bool(&mut self.0, 0.5)
    }
}

/// Checks that every seat's observation of `state`, sent in its typed form alone (`Omit.json`)
/// and encoded and decoded as on the wire, is read back as the engine's own observation, both
/// with the legal actions a `Turn` carries and without them (`Omit.legal_actions`), listed by
/// the engine from the view.
#[cfg(test)]
#[allow(clippy::unwrap_used)]
fn assert_every_seat_rebuilt<G: WireGame>(state: &G) {
    use prost::Message;
    let omit = pb::Omit { json: true, ..pb::Omit::default() };
    let options = G::options_from_json(&state.options_json()).unwrap();
    assert!(&options == state.options(), "the options JSON reads back as the options");
    for seat in 0..state.players() {
        let observation = state.observation(Seat(seat));
        let wire = G::observation_to_pb(&observation, &omit);
        assert!(wire.json.is_empty(), "Omit.json leaves the JSON out");
        let wire = pb::Observation::decode(wire.encode_to_vec().as_slice()).unwrap();
        let legal = pb::Turn::decode(
            pb::Turn {
                legal_actions: legal_actions_to_pb::<G>(G::legal_actions_of(&observation)),
                ..pb::Turn::default()
            }
            .encode_to_vec()
            .as_slice(),
        )
        .unwrap()
        .legal_actions;
        let rebuilt = G::observation_from_pb(&wire, &legal, &options)
            .unwrap_or_else(|err| panic!("{err}: {wire:?}"));
        assert_eq!(rebuilt, observation, "seat {seat}");
        // The compact Turn (`Omit.legal_actions` and `Omit.cards`): cards as codes and no
        // legal actions on the wire, the engine lists the same ones from the typed view, in the
        // same order (`Act.index`'s).
        let compact_omit = pb::Omit { legal_actions: true, cards: true, ..omit };
        let wire = G::observation_to_pb(&observation, &compact_omit);
        let wire = pb::Observation::decode(wire.encode_to_vec().as_slice()).unwrap();
        let mut compact = G::observation_from_pb(&wire, &[], &options)
            .unwrap_or_else(|err| panic!("{err}: {wire:?}"));
        G::fill_legal_actions(&mut compact);
        assert_eq!(compact, observation, "seat {seat}, the legal actions listed from the view");
    }
}

/// An enum value's name on the wire less its prefix, in lower case: the engine's serde tag
/// for it (`TWENTY_TWO_PHASE_EXCHANGE` is `exchange`).
#[cfg(test)]
fn enum_tag(name: &str, prefix: &str) -> String {
    name.strip_prefix(prefix).unwrap_or(name).to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_code_is_its_rank_and_suit() {
        for card in Card::pack() {
            let pb::Card { rank, suit } = card_to_pb(card);
            let code = cards_to_codes([card])[0];
            assert_eq!(i32::from(code), (rank - 2) * 4 + (suit - 1), "{card}");
            assert_eq!(card_from_code(code), Ok(card));
        }
        assert_eq!(card_from_code(52), Err(WireError::CardCode(52)));
        assert_eq!(WireError::CardCode(52).to_string(), "52 is not a card code (0 to 51)");
        let two = card_to_pb(Card::new(Rank::Two, Suit::Clubs));
        let both = CardList::of(&[two], &[0], "hand").err().map(|e| e.to_string());
        assert_eq!(both.as_deref(), Some("`hand` and `hand_codes` are both set: send one"));
    }

    #[test]
    fn every_card_round_trips() {
        for card in Card::pack() {
            assert_eq!(card_from_pb(&card_to_pb(card)), Ok(card));
        }
        assert!(card_from_pb(&pb::Card { rank: 15, suit: 1 }).is_err());
        assert!(card_from_pb(&pb::Card { rank: 1, suit: 1 }).is_err());
        assert!(card_from_pb(&pb::Card { rank: 5, suit: 0 }).is_err());
        assert!(card_from_pb(&pb::Card { rank: -3, suit: 9 }).is_err());
    }
}
