//! The property of the `action_decode` fuzz target (`fuzz/`), which this module's proptest
//! suite also checks in CI: a bot's message from arbitrary bytes goes through the match task's
//! own decoding (a protobuf `BotMessage`, then [`wire::act_action`]) against a real match of
//! each game of the catalogue, with options drawn from its option table, then to `apply`.
//! Built for tests and with the `fuzzing` feature only.

use cardroom_games::{Game, GameKind, OptionKind, RuleError, Seat};
use cardroom_proto::pb;
use cardroom_proto::wire::{self, WireGame, WireVisitor};
use prost::Message;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Reads `data` as two bytes of seed, the number of actions played before the message, a byte
/// that picks the options, then a protobuf `BotMessage`, and plays an `Act` against a match of
/// each game of the catalogue. Panics when an invariant breaks: a decoding error says why; an
/// action that decodes round-trips through its wire form; an action by index (a listed one) is
/// accepted; a refused action names its rule and changes nothing that a seat, a spectator or
/// the record would show.
pub fn bot_message(data: &[u8]) {
    let [seed_low, seed_high, before, shape, message @ ..] = data else { return };
    let Ok(pb::BotMessage { message: Some(pb::bot_message::Message::Act(act)) }) =
        pb::BotMessage::decode(message)
    else {
        return;
    };
    let seed = u64::from(u16::from_le_bytes([*seed_low, *seed_high]));
    for kind in GameKind::ALL {
        wire::visit(kind, ActOn { act: &act, shape: *shape, seed, before: *before });
    }
}

/// [`act_on`] for one game.
struct ActOn<'a> {
    act: &'a pb::Act,
    shape: u8,
    seed: u64,
    before: u8,
}

impl WireVisitor for ActOn<'_> {
    type Output = ();
    fn visit<G: WireGame>(self) {
        let (options, seats) = shaped::<G>(self.shape);
        act_on::<G>(self.act, &options, seats, self.seed, self.before);
    }
}

/// Options and a seat count picked by `shape` from the game's option table: each option takes
/// one of its values (a choice, `false` or `true`, or an integer's least, default or greatest
/// value), and the table one of the seat counts those options allow. Options the rules refuse
/// together (too few cards for the hands) fall back to the defaults.
fn shaped<G: WireGame>(shape: u8) -> (String, u32) {
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(shape));
    let mut options = serde_json::Map::new();
    for spec in G::describe_options() {
        let value = match spec.kind {
            OptionKind::Bool => serde_json::Value::Bool(rng.random_bool(0.5)),
            OptionKind::Choice(choices) => {
                serde_json::from_str(choices[rng.random_range(0..choices.len())])
                    .unwrap_or_else(|_| spec.default.clone())
            }
            OptionKind::Integer { min, max } => match rng.random_range(0..4) {
                0 => min.into(),
                1 => max.into(),
                _ => spec.default.clone(),
            },
        };
        options.insert(spec.name.to_owned(), value);
    }
    let json = serde_json::Value::Object(options).to_string();
    let parsed: Option<G::Options> = serde_json::from_str(&json).ok();
    if let Some(parsed) = parsed {
        let seats = G::seats(&parsed);
        let seats = u32::from(rng.random_range(*seats.start()..=*seats.end()));
        if G::create(&json, seats, 0).is_ok() {
            return (json, seats);
        }
    }
    let seats = G::seats(&G::Options::default());
    (String::new(), u32::from(rng.random_range(*seats.start()..=*seats.end())))
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
        Err(error) => {
            return assert!(!error.to_string().is_empty(), "a decoding error says nothing");
        }
    };
    let back = G::action_from_pb(&G::action_to_pb(&action));
    assert_eq!(back, Ok(action), "the wire form does not round-trip");
    let seen = fingerprint(&state);
    if let Err(err) = state.apply(state.to_act().unwrap_or(Seat(0)), action) {
        // An index and a text reply name only listed actions, which the rules accept.
        let listed =
            matches!(act.choice, Some(pb::act::Choice::Index(_) | pb::act::Choice::Reply(_)));
        assert!(!listed, "the listed action {action:?} is refused: {err}");
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

    /// An `Act` by index (often a listed one), by value or by a text reply, or nothing, as
    /// bytes; or any bytes.
    fn message() -> impl Strategy<Value = Vec<u8>> {
        let choice = prop_oneof![
            (0..40u32).prop_map(Choice::Index),
            any::<u32>().prop_map(Choice::Index),
            action().prop_map(Choice::Action),
            Just(Choice::Action(pb::Action { game: None })),
            // Text replies: numbers, words and cards, and any text.
            "[0-9]{1,3}|(draw|discard|knock|play|exch|pass|gin) ?([2-9TJQKA][cdhs] ?){0,3}"
                .prop_map(Choice::Reply),
            any::<String>().prop_map(Choice::Reply),
        ];
        let act = (any::<u64>(), option::weighted(0.95, choice)).prop_map(|(turn, choice)| {
            let message =
                pb::bot_message::Message::Act(pb::Act { turn, choice, comment: String::new() });
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
