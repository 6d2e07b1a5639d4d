//! What leaves the server on the wire (issue #7.4): over many random matches of every game,
//! no message sent to a seat or a spectator holds a card hidden from it.
//!
//! Every message each seat's `Play` stream and a spectator's `Watch` stream receive is kept as
//! the bytes the server wrote. After the match, its record (full information) is replayed with
//! the engine step by step, and each message is checked against the match as it stood when the
//! message was sent:
//!
//! - **Hidden** is derived from the engine's own view for the receiver: a card is hidden from
//!   a seat when no card of that rank and suit appears anywhere in the engine's observation for
//!   the seat (its hand, its exchange discards, everything public, the history the public view
//!   keeps), and from a spectator when it appears nowhere in the public view. (The test counts
//!   a seat's view as the public view's cards and its own, and checks at every turn that this
//!   is exactly every card its observation names.) With several packs a card shown once counts
//!   as seen in every copy, and a card shown in the history of an earlier deal counts as seen:
//!   the check never cries wolf, at the cost of missing a leak of such a card alone.
//! - **Contained** is every card the message carries in any encoding the server uses: each
//!   `cardroom.v1.Card` field anywhere in the message (found by walking the raw bytes with the
//!   contract's own descriptor, so no card field can be missed), and each card written in any
//!   string field, as a record code (`AS`, `TH`: the JSON of `Observation.json`, `Event.json`,
//!   `public_json`) or as people read it (`A♠`, `10♥`: `Event.text`, error messages).
//! - Events are public news of one action, so they are checked against the receiver's view
//!   before and after it, plus the cards the action itself laid face up (a Twenty-Two play,
//!   TT-24; a Gin Rummy discard, GR-15), which a deal that ends with that action never shows
//!   in a view. The test checks that rule against the engine: those cards are always in the
//!   engine's own events for the action.
//!
//! Each message is also checked to be exactly what the engine says the receiver should get:
//! observations, legal actions, events and public views equal the replay's.

#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::fmt::Display;
use std::sync::Arc;

use cardroom_games::{Card, Rank, Seat, Suit, gin, holdem, twenty_two};
use cardroom_proto::pb;
use cardroom_server::Config;
use cardroom_tests::{PATIENCE, Replay, ReplayGame, Table, TestServer, act, create, next_raw};
use pb::server_message::Message;
use prost::Message as _;
use prost::bytes::Bytes;
use prost_types::field_descriptor_proto::Type;
use prost_types::{DescriptorProto, FileDescriptorSet};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// Cards as a set: bit `Card::index()`.
type CardMask = u64;

fn bit(card: Card) -> CardMask {
    1 << card.index()
}

/// The cards of a set, as people read them: `2♣ 10♥ A♠`.
fn show(mask: CardMask) -> String {
    let cards: Vec<String> =
        Card::pack().filter(|&card| mask & bit(card) != 0).map(|card| card.to_string()).collect();
    cards.join(" ")
}

/// One match of the test: a table and its options.
struct Case {
    game: pb::Game,
    seats: u32,
    options: &'static str,
    seed: u64,
}

const fn case(game: pb::Game, seats: u32, options: &'static str, seed: u64) -> Case {
    Case { game, seats, options, seed }
}

/// Twenty-Two at every kind of table (one to three packs) and with every option, Gin Rummy
/// with its variants, and Hold'em heads-up, at six and at ten, no-limit and limit: short
/// matches, so that the whole file runs in seconds.
const CASES: &[Case] = &[
    case(pb::Game::TwentyTwo, 2, "", 1),
    case(pb::Game::TwentyTwo, 2, r#"{"first_hand": 11, "limit": 12}"#, 2),
    case(pb::Game::TwentyTwo, 3, r#"{"trick_winner": "highest_card", "limit": 12}"#, 3),
    case(pb::Game::TwentyTwo, 3, r#"{"first_hand": 1, "limit": 12}"#, 4),
    case(pb::Game::TwentyTwo, 4, r#"{"first_hand": 3, "limit": 12}"#, 5),
    case(pb::Game::TwentyTwo, 5, r#"{"variant": "elimination", "limit": 12}"#, 6),
    case(pb::Game::TwentyTwo, 7, r#"{"limit": 5}"#, 7),
    case(
        pb::Game::TwentyTwo,
        8,
        r#"{"packs": 3, "limit": 5, "tied_dealer": "nearest_left_of_previous_dealer"}"#,
        8,
    ),
    case(pb::Game::TwentyTwo, 11, r#"{"limit": 5, "first_hand": 2}"#, 9),
    case(pb::Game::GinRummy, 2, r#"{"target": 40}"#, 10),
    case(
        pb::Game::GinRummy,
        2,
        r#"{"oklahoma": true, "oklahoma_spades_double": true, "target": 40}"#,
        11,
    ),
    case(
        pb::Game::GinRummy,
        2,
        r#"{"big_gin": true, "discard_taken_upcard": true, "first_upcard": "seed", "target": 40}"#,
        12,
    ),
    case(pb::Game::GinRummy, 2, r#"{"wall_knock": true, "target": 25}"#, 13),
    case(
        pb::Game::GinRummy,
        2,
        r#"{"max_upcard_draws": 3, "box_bonus": true, "shutout_double": true, "target": 30}"#,
        14,
    ),
    case(pb::Game::Holdem, 2, r#"{"hands": 8, "stack": 40}"#, 15),
    case(pb::Game::Holdem, 6, r#"{"hands": 4, "stack": 30, "ante": 1}"#, 16),
    case(pb::Game::Holdem, 10, r#"{"hands": 3, "betting": "limit", "stack": 60}"#, 17),
];

/// How often a seat first sends an illegal action (from its own cards), so that refusals'
/// messages are checked too.
const MISTAKES: f64 = 0.1;

/// What one match sent: every seat's messages and the spectator's, as written.
struct Captured {
    /// Which case.
    case: &'static Case,
    /// Each seat's messages.
    seats: Vec<Vec<Bytes>>,
    /// The spectator's messages.
    spectator: Vec<Bytes>,
    /// The finished match's record.
    record: String,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_message_holds_a_card_hidden_from_its_receiver() {
    let server = Arc::new(TestServer::start(Config::default()).await);
    let matches: Vec<_> =
        CASES.iter().map(|case| tokio::spawn(capture(Arc::clone(&server), case))).collect();
    let schema = Arc::new(Schema::new());
    let mut checks = Vec::new();
    for task in matches {
        let captured = tokio::time::timeout(PATIENCE, task).await.expect("in time").unwrap();
        // Off the runtime's threads, so that the matches still being played keep reading.
        let schema = Arc::clone(&schema);
        checks.push(tokio::task::spawn_blocking(move || match captured.case.game {
            pb::Game::TwentyTwo => check::<twenty_two::State>(&schema, &captured),
            pb::Game::Holdem => check::<holdem::State>(&schema, &captured),
            _ => check::<gin::State>(&schema, &captured),
        }));
    }
    let mut messages = 0;
    for check in checks {
        messages += check.await.unwrap();
    }
    assert!(messages > 15_000, "{messages} messages checked");
}

/// Plays one match: a spectator watching from its creation, every seat a random bot that now
/// and then first tries an illegal action. Returns everything the server sent.
async fn capture(server: Arc<TestServer>, case: &'static Case) -> Captured {
    let clock = pb::Clock { move_ms: 20_000, bank_ms: 60_000, ..pb::Clock::default() };
    let mut client = server.client().await;
    let (match_id, tokens) =
        create(&mut client, case.game, case.seats, case.options, case.seed, Some(clock)).await;
    let mut watch = cardroom_tests::watch_raw(server.channel().await, &match_id).await;
    let spectator = tokio::spawn(async move {
        let mut messages = Vec::new();
        while let Some(bytes) = next_raw(&mut watch).await.expect("the watch stream") {
            messages.push(bytes);
        }
        messages
    });
    let (mut table, _) = Table::join(&server, &match_id, tokens, case.seed).await;
    let mut rng = ChaCha8Rng::seed_from_u64(case.seed);
    let (mut mistakes, mut refused) = (0, 0);
    while let Some((seat, message)) = table.next().await {
        match message {
            Ok(Message::Turn(turn)) => {
                if rng.random_bool(MISTAKES) {
                    let wrong = pb::act::Choice::Action(illegal_action(&turn));
                    table.send(seat, &act(turn.turn, wrong)).await;
                    mistakes += 1;
                }
                table.answer(seat).await;
            }
            Ok(Message::Error(error)) => {
                assert_eq!(error.code, pb::ActErrorCode::IllegalAction as i32, "{error:?}");
                refused += 1;
            }
            Err(status) => panic!("seat {seat}: {status}"),
            Ok(_) => {}
        }
    }
    assert_eq!(refused, mistakes, "every mistake refused");
    let spectator = spectator.await.unwrap();
    let request = pb::GetRecordRequest { match_id };
    let record = client.get_record(request).await.unwrap().into_inner().record_json;
    Captured { case, seats: table.received, spectator, record }
}

/// An action from the seat's own cards that the rules refuse now, whatever the turn: in
/// Twenty-Two a play during the exchange or an exchange during play, in Gin Rummy a discard
/// before drawing or a draw from the stock when that is not among the choices.
fn illegal_action(turn: &pb::Turn) -> pb::Action {
    let observation = turn.observation.as_ref().and_then(|o| o.game.as_ref());
    let game = match observation.expect("a turn has an observation") {
        pb::observation::Game::TwentyTwo(view) => {
            let legal = turn.legal_actions[0].action.as_ref().and_then(|a| a.game.as_ref());
            let exchanging = matches!(
                legal,
                Some(pb::action::Game::TwentyTwo(pb::TwentyTwoAction {
                    action: Some(pb::twenty_two_action::Action::Exchange(_))
                }))
            );
            let action = if exchanging {
                pb::twenty_two_action::Action::Play(pb::Cards { cards: view.hand[..1].to_vec() })
            } else {
                pb::twenty_two_action::Action::Exchange(pb::Cards::default())
            };
            pb::action::Game::TwentyTwo(pb::TwentyTwoAction { action: Some(action) })
        }
        pb::observation::Game::Gin(view) => {
            let draw = pb::gin_action::Action::DrawStock(pb::gin_action::Empty {});
            let may_draw = turn.legal_actions.iter().any(|legal| {
                let gin = legal.action.as_ref().and_then(|a| a.game.as_ref());
                matches!(gin, Some(pb::action::Game::Gin(g)) if g.action == Some(draw.clone()))
            });
            let action =
                if may_draw { pb::gin_action::Action::Discard(view.hand[0]) } else { draw };
            pb::action::Game::Gin(pb::GinAction { action: Some(action) })
        }
        // A fold with nothing to call, or a check facing a bet (HE-8).
        pb::observation::Game::Holdem(_) => {
            let empty = pb::holdem_action::Empty {};
            let fold = pb::holdem_action::Action::Fold(empty);
            let may_fold = turn.legal_actions.iter().any(|legal| {
                let holdem = legal.action.as_ref().and_then(|a| a.game.as_ref());
                matches!(holdem, Some(pb::action::Game::Holdem(h)) if h.action == Some(fold))
            });
            let action = if may_fold { pb::holdem_action::Action::Check(empty) } else { fold };
            pb::action::Game::Holdem(pb::HoldemAction { action: Some(action) })
        }
    };
    pb::Action { game: Some(game) }
}

/// What the leak check needs of a game beyond replaying it.
trait LeakGame: ReplayGame {
    /// The cards of a seat's observation that are not in the public view: its hand and, in
    /// Twenty-Two, its exchange discards (TT-25), in Gin Rummy the card it just drew (GR-16).
    fn private_cards(observation: &Self::Observation) -> CardMask;

    /// The cards an action lays face up for everyone: a Twenty-Two play (TT-24), a Gin Rummy
    /// face-up discard (GR-15).
    fn revealed(action: &Self::Action) -> CardMask;
}

/// The cards as a set.
fn mask(cards: impl IntoIterator<Item = Card>) -> CardMask {
    cards.into_iter().fold(0, |mask, card| mask | bit(card))
}

impl LeakGame for twenty_two::State {
    fn private_cards(observation: &twenty_two::Observation) -> CardMask {
        mask(observation.hand.as_slice().iter().chain(&observation.discards).copied())
    }

    fn revealed(action: &twenty_two::Action) -> CardMask {
        match action {
            twenty_two::Action::Play(cards) => mask(cards.as_slice().iter().copied()),
            twenty_two::Action::Exchange(_) => 0,
        }
    }
}

impl LeakGame for holdem::State {
    /// The seat's hole cards (HE-6).
    fn private_cards(observation: &holdem::Observation) -> CardMask {
        mask(observation.hole_cards.iter().copied())
    }

    /// No action lays a card face up: the board and the cards shown at a showdown are in the
    /// view after it (the last hand's result).
    fn revealed(_: &holdem::Action) -> CardMask {
        0
    }
}

impl LeakGame for gin::State {
    fn private_cards(observation: &gin::Observation) -> CardMask {
        mask(observation.hand.iter().chain(observation.drawn))
    }

    fn revealed(action: &gin::Action) -> CardMask {
        match action {
            gin::Action::Discard(card) => bit(*card),
            _ => 0,
        }
    }
}

/// A replayed match as its receivers saw it after each number of actions `k`.
struct Timeline<G: LeakGame> {
    /// The replay.
    replay: Replay<G>,
    /// The public view's JSON after `k` actions, as the server writes it.
    public_json: Vec<String>,
    /// The cards in it: what a spectator may see.
    public: Vec<CardMask>,
    /// The cards action `k` lays face up.
    revealed: Vec<CardMask>,
    /// The events of action `k`, as the server should send them.
    events: Vec<Vec<pb::Event>>,
}

impl<G: LeakGame> Timeline<G> {
    fn new(record: &str) -> Timeline<G> {
        let replay = Replay::<G>::from_json(record);
        let public_json: Vec<String> = replay
            .states
            .iter()
            .map(|state| serde_json::to_string(&state.public_view()).unwrap())
            .collect();
        let public = public_json.iter().map(|json| text_cards(json)).collect();
        let revealed: Vec<CardMask> = replay.actions.iter().map(|(_, a)| G::revealed(a)).collect();
        let events: Vec<Vec<pb::Event>> =
            replay.events.iter().map(|events| events.iter().map(event_to_pb).collect()).collect();
        for (k, events) in events.iter().enumerate() {
            // The rule for what an action lays face up is the engine's: its own public events
            // announce those cards.
            let announced = events.iter().fold(0, |m, e| m | text_cards(&e.json));
            assert_eq!(revealed[k] & !announced, 0, "action {k} lays face up what is not news");
        }
        Timeline { replay, public_json, public, revealed, events }
    }

    /// The cards `seat` may see after `k` actions: everything in its observation.
    fn seen(&self, k: usize, seat: usize) -> CardMask {
        self.public[k] | G::private_cards(&self.replay.states[k].observation(Seat(seat as u8)))
    }

    /// Checks that an observation on the wire is the engine's for `seat` after `k` actions,
    /// to the byte, and that what [`Timeline::seen`] counts is every card in it.
    fn check_observation(&self, k: usize, seat: usize, observation: Option<&pb::Observation>) {
        let observation = observation.expect("an observation");
        assert_eq!(observation.seat as usize, seat);
        let engine = self.replay.states[k].observation(Seat(seat as u8));
        assert_eq!(observation.json, serde_json::to_string(&engine).unwrap(), "seat {seat}, {k}");
        assert_eq!(text_cards(&observation.json), self.seen(k, seat), "seat {seat}, {k}");
    }
}

/// An engine event as the server sends it: its serde tag, its sentence and its JSON.
fn event_to_pb<E: Serialize + Display>(event: &E) -> pb::Event {
    let json = serde_json::to_value(event).unwrap();
    let kind = json["event"].as_str().expect("every event is tagged").to_owned();
    pb::Event { kind, text: event.to_string(), json: json.to_string() }
}

/// Checks one captured match; returns how many messages it checked.
fn check<G: LeakGame>(schema: &Schema, captured: &Captured) -> usize {
    let timeline = Timeline::<G>::new(&captured.record);
    let replay = &timeline.replay;
    let case = captured.case;
    let at = |who: String, what: &str, k: usize| {
        format!(
            "{who}, {what} after {k} actions (game {:?}, {} seats, options {}, seed {})",
            case.game, case.seats, case.options, case.seed
        )
    };
    let mut checked = 0;
    for (seat, messages) in captured.seats.iter().enumerate() {
        let mut k = 0;
        let mut seen = timeline.seen(0, seat);
        for bytes in messages {
            let found = schema.scan(bytes, ".cardroom.v1.ServerMessage");
            let mut allowed = seen;
            let what = match pb::ServerMessage::decode(bytes.as_ref()).unwrap().message.unwrap() {
                Message::Joined(joined) => {
                    assert_eq!(joined.seat as usize, seat);
                    timeline.check_observation(k, seat, joined.observation.as_ref());
                    "joined"
                }
                Message::Turn(turn) => {
                    assert_eq!(turn.turn, k as u64, "{}", at(format!("seat {seat}"), "turn", k));
                    timeline.check_observation(k, seat, turn.observation.as_ref());
                    let legal = replay.states[k].legal_actions();
                    let wanted: Vec<pb::LegalAction> = (0..)
                        .zip(&legal)
                        .map(|(index, a)| pb::LegalAction {
                            index,
                            action: Some(G::action_to_pb(a)),
                        })
                        .collect();
                    assert_eq!(
                        turn.legal_actions,
                        wanted,
                        "{}",
                        at(format!("seat {seat}"), "turn", k)
                    );
                    "turn"
                }
                Message::Events(events) => {
                    let here = || at(format!("seat {seat}"), "events", k);
                    assert_eq!(events.events, timeline.events[k], "{}", here());
                    seen = timeline.seen(k + 1, seat);
                    allowed |= seen | timeline.revealed[k];
                    k += 1;
                    "events"
                }
                Message::Error(_) => "error",
                Message::End(end) => {
                    assert_eq!(k, replay.actions.len(), "the end comes after every action");
                    let places: Vec<_> = end.standings.iter().map(|s| (s.seat, s.place)).collect();
                    assert_eq!(Some(places), replay.places());
                    "end"
                }
            };
            assert_no_leak(&found, allowed, || at(format!("seat {seat}"), what, k));
            checked += 1;
        }
        assert_eq!(k, replay.actions.len(), "{}", at(format!("seat {seat}"), "every action", k));
    }
    // The spectator: the public view at once, then each action's events with the view after.
    let mut k = 0;
    for (i, bytes) in captured.spectator.iter().enumerate() {
        let found = schema.scan(bytes, ".cardroom.v1.WatchMessage");
        let message = pb::WatchMessage::decode(bytes.as_ref()).unwrap();
        let mut allowed = timeline.public[k];
        if !message.events.is_empty() {
            assert_eq!(
                message.events,
                timeline.events[k],
                "{}",
                at("spectator".into(), "events", k)
            );
            allowed |= timeline.public[k + 1] | timeline.revealed[k];
            k += 1;
        }
        let here = || at("the spectator".into(), "public view", k);
        assert_eq!(message.public_json, timeline.public_json[k], "{}", here());
        assert_eq!(message.end.is_some(), i + 1 == captured.spectator.len(), "the end comes last");
        assert_no_leak(&found, allowed, || at("the spectator".into(), "a message", k));
        checked += 1;
    }
    assert_eq!(k, replay.actions.len(), "{}", at("the spectator".into(), "every action", k));
    checked
}

/// Fails if `found` holds a card outside `allowed`, saying where.
fn assert_no_leak(found: &Found, allowed: CardMask, at: impl Fn() -> String) {
    assert!(found.unknown.is_empty(), "{}: fields outside the contract: {:?}", at(), found.unknown);
    for (encoding, cards) in [("a Card field", found.fields), ("text", found.text)] {
        let leaked = cards & !allowed;
        assert!(leaked == 0, "{}: {} hidden from the receiver, in {encoding}", at(), show(leaked));
    }
}

/// The cards written in a text: as record codes (`AS`, `TH`, the form of JSON and of `Debug`)
/// or as people read them (`A♠`, `10♥`).
fn text_cards(text: &str) -> CardMask {
    const RANKS: &[u8] = b"23456789TJQKA";
    let card = |rank: u8, suit: Option<Suit>| {
        let rank = Rank::from_index(RANKS.iter().position(|&r| r == rank)? as u8)?;
        Some(bit(Card::new(rank, suit?)))
    };
    let bytes = text.as_bytes();
    let mut mask = 0;
    // A code is a word of its own: no letter or digit just before or after it.
    let apart =
        |i: Option<usize>| i.and_then(|i| bytes.get(i)).is_none_or(|b| !b.is_ascii_alphanumeric());
    for i in 0..bytes.len().saturating_sub(1) {
        let suit = b"CDHS".iter().position(|&s| s == bytes[i + 1]);
        if suit.is_some() && apart(i.checked_sub(1)) && apart(Some(i + 2)) {
            mask |= card(bytes[i], suit.and_then(|s| Suit::from_index(s as u8))).unwrap_or(0);
        }
    }
    // A suit symbol is three bytes in UTF-8: E2 99, then A3 ♣, A6 ♦, A5 ♥, A0 ♠.
    for i in 1..bytes.len().saturating_sub(2) {
        if bytes[i..i + 2] != [0xE2, 0x99] {
            continue;
        }
        let suit = match bytes[i + 2] {
            0xA3 => Suit::Clubs,
            0xA6 => Suit::Diamonds,
            0xA5 => Suit::Hearts,
            0xA0 => Suit::Spades,
            _ => continue,
        };
        let rank = match bytes[i - 1] {
            b'0' if i >= 2 && bytes[i - 2] == b'1' => b'T',
            rank => rank,
        };
        mask |= card(rank, Some(suit)).unwrap_or(0);
    }
    mask
}

/// The cards one message carries, found in its raw bytes.
#[derive(Default)]
struct Found {
    /// In `cardroom.v1.Card` fields.
    fields: CardMask,
    /// Written in string fields.
    text: CardMask,
    /// Fields the contract does not have: `(message, field number)`.
    unknown: Vec<(String, i32)>,
}

/// The contract's messages, from the descriptor set the server also serves by reflection.
struct Schema {
    /// Each message by its full name, `.cardroom.v1.Card`.
    messages: HashMap<String, DescriptorProto>,
}

impl Schema {
    fn new() -> Schema {
        let set = FileDescriptorSet::decode(pb::FILE_DESCRIPTOR_SET).unwrap();
        let mut messages = HashMap::new();
        for file in set.file {
            let prefix = format!(".{}", file.package());
            for message in file.message_type {
                Schema::add(&mut messages, &prefix, message);
            }
        }
        Schema { messages }
    }

    fn add(into: &mut HashMap<String, DescriptorProto>, prefix: &str, message: DescriptorProto) {
        let name = format!("{prefix}.{}", message.name());
        for nested in &message.nested_type {
            Schema::add(into, &name, nested.clone());
        }
        into.insert(name, message);
    }

    /// Walks `bytes`, a message of type `name`, and every message inside it.
    fn scan(&self, bytes: &[u8], name: &str) -> Found {
        let mut found = Found::default();
        self.walk(bytes, name, &mut found);
        found
    }

    fn walk(&self, mut bytes: &[u8], name: &str, found: &mut Found) {
        let descriptor = &self.messages[name];
        while !bytes.is_empty() {
            let key = varint(&mut bytes);
            let (number, wire_type) = ((key >> 3) as i32, key & 7);
            let field = descriptor.field.iter().find(|f| f.number() == number);
            let payload = match wire_type {
                0 => {
                    varint(&mut bytes);
                    None
                }
                1 => Some(take(&mut bytes, 8)),
                2 => {
                    let len = varint(&mut bytes) as usize;
                    Some(take(&mut bytes, len))
                }
                5 => Some(take(&mut bytes, 4)),
                other => panic!("{name}: wire type {other}"),
            };
            let Some(field) = field else {
                found.unknown.push((name.to_owned(), number));
                continue;
            };
            match (field.r#type(), payload, wire_type) {
                (Type::Message, Some(inner), 2) if field.type_name() == ".cardroom.v1.Card" => {
                    let card = pb::Card::decode(inner).unwrap();
                    let rank = u8::try_from(card.rank - 2).ok().and_then(Rank::from_index);
                    let suit = u8::try_from(card.suit - 1).ok().and_then(Suit::from_index);
                    let (Some(rank), Some(suit)) = (rank, suit) else {
                        panic!("{name}.{number}: {card:?} is not a card")
                    };
                    found.fields |= bit(Card::new(rank, suit));
                }
                (Type::Message, Some(inner), 2) => self.walk(inner, field.type_name(), found),
                (Type::String, Some(inner), 2) => {
                    found.text |= text_cards(std::str::from_utf8(inner).unwrap());
                }
                _ => {}
            }
        }
    }
}

/// Reads a varint.
fn varint(bytes: &mut &[u8]) -> u64 {
    let mut value = 0;
    for shift in (0..64).step_by(7) {
        let byte = take(bytes, 1)[0];
        value |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return value;
        }
    }
    panic!("a varint longer than ten bytes")
}

/// Takes `n` bytes.
fn take<'a>(bytes: &mut &'a [u8], n: usize) -> &'a [u8] {
    let (head, rest) = bytes.split_at(n);
    *bytes = rest;
    head
}

#[test]
fn cards_are_found_in_every_text_form_and_nowhere_else() {
    let cards = |text: &str| show(text_cards(text));
    assert_eq!(cards(r#"{"hand":["AS","TH"],"drawn":"2C"}"#), "2♣ 10♥ A♠");
    assert_eq!(
        cards("seat 2 plays 10♥ 7♠; a duck must be your 2 lowest cards: 2♣ 2♦"),
        "2♣ 2♦ 7♠ 10♥"
    );
    assert_eq!(cards("[AS, 9D]"), "9♦ A♠");
    assert_eq!(cards("♠ starts; TT-12, GR-6, token 2c3d4h5sASK, TTH, 1♠, 11♥"), "");
}
