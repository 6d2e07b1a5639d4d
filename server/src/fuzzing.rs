//! The property of the `action_decode` fuzz target (`fuzz/`), which this module's proptest
//! suite also checks in CI: a bot's message from arbitrary bytes goes through the match task's
//! own decoding (a protobuf `BotMessage`, then [`wire::act_action`]) against a real match of
//! each game, then to `apply`. Built for tests and with the `fuzzing` feature only.

use cardroom_games::{Game, RuleError, Seat, gin, twenty_two};
use cardroom_proto::pb;
use cardroom_proto::wire::{self, WireGame};
use prost::Message;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The Twenty-Two matches a message is played against: options and seats.
const TWENTY_TWO: [(&str, u32); 5] = [
    ("", 2),
    ("", 4),
    (r#"{"first_hand": 11, "packs": 2}"#, 3),
    (r#"{"variant": "elimination", "trick_winner": "highest_card"}"#, 5),
    (r#"{"limit": 5, "first_hand": 3, "tied_dealer": "nearest_left_of_previous_dealer"}"#, 6),
];

/// The Gin Rummy matches a message is played against.
const GIN: [&str; 4] = [
    "",
    r#"{"big_gin": true, "wall_knock": true}"#,
    r#"{"oklahoma": true, "oklahoma_spades_double": true, "discard_taken_upcard": true}"#,
    r#"{"first_upcard": "seed", "knock_limit": 0, "target": 10}"#,
];

/// Reads `data` as two bytes of seed, the number of actions played before the message, a byte
/// that picks the options, then a protobuf `BotMessage`, and plays an `Act` against a match of
/// each game. Panics when an invariant breaks: a decoding error says why; an action that
/// decodes round-trips through its wire form; an action by index (a listed one) is accepted;
/// a refused action names its rule and changes nothing that a seat, a spectator or the record
/// would show.
pub fn bot_message(data: &[u8]) {
    let [seed_low, seed_high, before, shape, message @ ..] = data else { return };
    let Ok(pb::BotMessage { message: Some(pb::bot_message::Message::Act(act)) }) =
        pb::BotMessage::decode(message)
    else {
        return;
    };
    let seed = u64::from(u16::from_le_bytes([*seed_low, *seed_high]));
    let (options, seats) = TWENTY_TWO[usize::from(*shape) % TWENTY_TWO.len()];
    act_on::<twenty_two::State>(&act, options, seats, seed, *before);
    act_on::<gin::State>(&act, GIN[usize::from(*shape) % GIN.len()], 2, seed, *before);
}

fn act_on<G: WireGame>(act: &pb::Act, options: &str, seats: u32, seed: u64, before: u8) {
    let mut state =
        G::create(options, seats, seed).unwrap_or_else(|err| panic!("{options}: {err}"));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..before {
        let Some(seat) = state.to_act() else { break };
        // Half the time the timeout action (Gin Rummy's keeps the deadwood low, so that knocks
        // come up), else any legal action.
        let legal = state.legal_actions();
        let action = match Game::default_action(&state) {
            Some(action) if rng.random_bool(0.5) => action,
            _ => legal[rng.random_range(0..legal.len())],
        };
        state.apply(seat, action).unwrap_or_else(|err| panic!("{action}: {err}"));
    }
    let legal = state.legal_actions();
    let action = match wire::act_action::<G>(act, &legal) {
        Ok(action) => action,
        Err(message) => return assert!(!message.is_empty(), "a decoding error says nothing"),
    };
    let back = G::action_from_pb(&G::action_to_pb(&action));
    assert_eq!(back, Ok(action), "the wire form does not round-trip");
    let seen = fingerprint(&state);
    if let Err(err) = state.apply(state.to_act().unwrap_or(Seat(0)), action) {
        let by_index = matches!(act.choice, Some(pb::act::Choice::Index(_)));
        assert!(!by_index, "the listed action {action:?} is refused: {err}");
        assert!(err.to_string().starts_with(err.rule()), "{err} names no rule");
        assert!(fingerprint(&state) == seen, "the refused {action:?} changed the match");
    }
}

/// What the server would send every seat, and the spectators' view and the record as JSON.
fn fingerprint<G: WireGame>(state: &G) -> (Vec<pb::Observation>, String, String) {
    let seats = (0..state.players())
        .map(|s| G::observation_to_pb(&state.observation(Seat(s)), &pb::Omit::default()));
    let view = serde_json::to_string(&state.public_view()).unwrap_or_default();
    (seats.collect(), view, state.record().map(|r| r.to_json()).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use pb::act::Choice;
    use pb::gin_action::{Action as Gin, Empty, Knock};
    use pb::twenty_two_action::Action as TwentyTwo;
    use proptest::collection::vec;
    use proptest::option;
    use proptest::prelude::*;
    use proptest::sample::Index;

    use super::*;

    /// Mostly real cards, sometimes ranks and suits that do not exist.
    fn card() -> impl Strategy<Value = pb::Card> {
        prop_oneof![4 => (2..=14i32, 1..=4i32), 1 => (any::<i32>(), -1..=6i32)]
            .prop_map(|(rank, suit)| pb::Card { rank, suit })
    }

    fn cards() -> impl Strategy<Value = pb::Cards> {
        vec(card(), 0..13).prop_map(|cards| pb::Cards { cards })
    }

    fn gin_action() -> impl Strategy<Value = Gin> {
        prop_oneof![
            Just(Gin::TakeUpcard(Empty {})),
            Just(Gin::PassUpcard(Empty {})),
            Just(Gin::DrawStock(Empty {})),
            Just(Gin::DrawDiscard(Empty {})),
            card().prop_map(Gin::Discard),
            card().prop_map(Gin::Gin),
            Just(Gin::BigGin(Empty {})),
            (option::of(card()), vec(cards(), 0..5))
                .prop_map(|(discard, melds)| Gin::Knock(Knock { discard, melds })),
        ]
    }

    fn action() -> impl Strategy<Value = pb::Action> {
        let twenty_two =
            prop_oneof![cards().prop_map(TwentyTwo::Exchange), cards().prop_map(TwentyTwo::Play)];
        prop_oneof![
            option::of(twenty_two)
                .prop_map(|action| pb::action::Game::TwentyTwo(pb::TwentyTwoAction { action })),
            option::of(gin_action())
                .prop_map(|action| pb::action::Game::Gin(pb::GinAction { action })),
        ]
        .prop_map(|game| pb::Action { game: Some(game) })
    }

    /// An `Act` by index (often a listed one) or by value, or nothing, as bytes; or any bytes.
    fn message() -> impl Strategy<Value = Vec<u8>> {
        let choice = prop_oneof![
            (0..40u32).prop_map(Choice::Index),
            any::<u32>().prop_map(Choice::Index),
            action().prop_map(Choice::Action),
            Just(Choice::Action(pb::Action { game: None })),
        ];
        let act = (any::<u64>(), option::weighted(0.95, choice)).prop_map(|(turn, choice)| {
            let message = pb::bot_message::Message::Act(pb::Act { turn, choice });
            pb::BotMessage { message: Some(message) }.encode_to_vec()
        });
        prop_oneof![4 => act, 1 => vec(any::<u8>(), 0..64)]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn bot_messages_apply_or_are_refused_without_changing_the_match(
            head in any::<[u8; 4]>(),
            mut message in message(),
            edits in prop_oneof![3 => Just(Vec::new()), 1 => vec((any::<Index>(), any::<u8>()), 1..3)],
        ) {
            for (at, byte) in edits {
                if !message.is_empty() {
                    let at = at.index(message.len());
                    message[at] = byte;
                }
            }
            bot_message(&[&head[..], &message].concat());
        }
    }
}
