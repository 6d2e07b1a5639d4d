//! The contract's JSON Schema (issue 12.8): `docs/schema/` holds one schema per JSON form per
//! game, generated from the engine's types. These tests check that
//!
//! - the committed files are exactly what the generator writes, and are valid schemas;
//! - every observation of every seat, every event, every public view and the final record of
//!   random seeded matches of both games (several table sizes and option sets) validates;
//! - what a real server sends a bot (`Joined`/`Turn` observations, `Events`) and a spectator
//!   (`public_json`, events), and its `GetRecord`, validate, and each `Event.kind` is the tag of
//!   its JSON;
//! - the event kinds of the schemas are exactly those docs/protocol.md lists.
//!
//! The schemas are read from the committed files, not regenerated: what a bot author
//! downloads is what is tested.

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use cardroom_games::GameKind;
use cardroom_games::schema::{Form, all};
use cardroom_games::{AnyRecord, Game, Seat, gin, twenty_two};
use cardroom_proto::pb;
use cardroom_server::Config;
use cardroom_tests::{
    PATIENCE, Table, TestServer, create, decode_server_message, next_raw, workspace_root,
};
use jsonschema::Validator;
use pb::server_message::Message;
use prost::Message as _;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use serde_json::Value;

fn schema_dir() -> PathBuf {
    workspace_root().join("docs/schema")
}

/// The committed schema of one form of one game (`twenty-two` or `gin`).
fn committed(game: &str, form: Form) -> Value {
    let path = schema_dir().join(format!("{game}.{}.schema.json", form.slug()));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("{}: {err}; run the write_schemas example", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// The validators of one game's four forms, from the committed files.
struct Schemas {
    game: &'static str,
    validators: BTreeMap<&'static str, Validator>,
    /// How many JSON documents each form validated.
    checked: BTreeMap<&'static str, usize>,
}

impl Schemas {
    fn new(game: &'static str) -> Schemas {
        let validators = Form::ALL
            .iter()
            .map(|&form| {
                let validator = jsonschema::validator_for(&committed(game, form))
                    .unwrap_or_else(|err| panic!("{game} {}: {err}", form.slug()));
                (form.slug(), validator)
            })
            .collect();
        Schemas { game, validators, checked: BTreeMap::new() }
    }

    /// Panics, naming every violation, unless `json` is valid for `form`.
    fn check(&mut self, form: Form, json: &Value, context: &dyn std::fmt::Display) {
        let validator = &self.validators[form.slug()];
        let errors: Vec<String> = validator
            .iter_errors(json)
            .map(|err| format!("{err} at {}", err.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{} {} ({context}) breaks its schema:\n{}\n{json}",
            self.game,
            form.slug(),
            errors.join("\n")
        );
        *self.checked.entry(form.slug()).or_default() += 1;
    }

    fn check_serialized(
        &mut self,
        form: Form,
        value: &impl Serialize,
        context: &dyn std::fmt::Display,
    ) {
        self.check(form, &serde_json::to_value(value).unwrap(), context);
    }

    fn check_text(&mut self, form: Form, json: &str, context: &dyn std::fmt::Display) {
        let value: Value = serde_json::from_str(json).unwrap_or_else(|err| {
            panic!("{} {} ({context}): not JSON: {err}", self.game, form.slug())
        });
        self.check(form, &value, context);
    }

    fn count(&self, form: Form) -> usize {
        self.checked.get(form.slug()).copied().unwrap_or_default()
    }
}

#[test]
fn committed_schemas_are_what_the_generator_writes() {
    let generated = all();
    for file in &generated {
        let path = schema_dir().join(file.file_name());
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == file.to_pretty_json(),
            "{} is stale: run `cargo run -p cardroom-games --features schema --example write_schemas`",
            path.display()
        );
        let schema = serde_json::to_value(&file.schema).unwrap();
        jsonschema::meta::validate(&schema)
            .unwrap_or_else(|err| panic!("{} is not a valid schema: {err}", file.file_name()));
    }
    let expected: BTreeSet<String> = generated.iter().map(|file| file.file_name()).collect();
    let on_disk: BTreeSet<String> = std::fs::read_dir(schema_dir())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".schema.json"))
        .collect();
    assert_eq!(on_disk, expected, "docs/schema/ holds exactly the generated schemas");
    assert_eq!(expected.len(), GameKind::ALL.len() * Form::ALL.len());
}

/// The schemas refuse what the engine never writes, so that the other tests' passing means
/// something: a card out of the pattern, a missing field, an unknown event kind, a record of
/// the other game.
#[test]
fn the_schemas_refuse_malformed_documents() {
    let mut state = twenty_two::State::new(twenty_two::Options::default(), 3, 1).unwrap();
    let schemas = Schemas::new("twenty-two");
    let refused = |form: Form, json: &Value| !schemas.validators[form.slug()].is_valid(json);

    let observation = serde_json::to_value(state.observation(Seat(0))).unwrap();
    assert!(schemas.validators["observation"].is_valid(&observation));
    let mut bad_card = observation.clone();
    bad_card["hand"][0] = "1X".into();
    assert!(refused(Form::Observation, &bad_card));
    let mut missing = observation.clone();
    missing["public"].as_object_mut().unwrap().remove("stock_len");
    assert!(refused(Form::Observation, &missing));

    let seat = state.to_act().unwrap();
    let action = state.legal_actions()[0];
    let event = serde_json::to_value(&state.apply(seat, action).unwrap()[0]).unwrap();
    assert!(schemas.validators["event"].is_valid(&event));
    let mut unknown = event.clone();
    unknown["event"] = "teleported".into();
    assert!(refused(Form::Event, &unknown));

    let gin_record =
        serde_json::to_value(gin::State::new(gin::Options::default(), 1).unwrap().record())
            .unwrap();
    let mut tagged = gin_record.clone();
    tagged["game"] = "gin".into();
    assert!(refused(Form::Record, &tagged), "a Gin Rummy record is no Twenty-Two record");
    assert!(Schemas::new("gin").validators["record"].is_valid(&tagged));
    assert!(!Schemas::new("gin").validators["record"].is_valid(&gin_record), "the tag is required");
}

/// Plays `G` from `state` to the end, validating every seat's observation and the public view
/// after every action, every event, and the record. Each seat takes an action that `prefer`s
/// says to take when it may (in Gin Rummy, going out: random bots that never go out play
/// hundreds of hands), else a random one.
fn play_and_check<G: Game>(
    schemas: &mut Schemas,
    mut state: G,
    prefer: fn(&G::Action) -> bool,
    rng: &mut ChaCha8Rng,
    case: &str,
) -> BTreeSet<String> {
    let mut kinds = BTreeSet::new();
    let mut check_events = |schemas: &mut Schemas, events: &[G::Event], step: usize| {
        for event in events {
            let json = serde_json::to_value(event).unwrap();
            kinds.insert(json["event"].as_str().unwrap_or_default().to_owned());
            schemas.check(Form::Event, &json, &format_args!("{case}, action {step}"));
        }
    };
    check_events(schemas, &state.opening_events(), 0);
    for step in 0.. {
        let context = format_args!("{case}, after {step} actions");
        for seat in 0..state.players() {
            schemas.check_serialized(Form::Observation, &state.observation(Seat(seat)), &context);
        }
        schemas.check_serialized(Form::PublicView, &state.public_view(), &context);
        let Some(seat) = state.to_act() else { break };
        let legal = state.legal_actions();
        let action = legal.iter().find(|a| prefer(a)).copied();
        let action = action.unwrap_or_else(|| *legal.choose(rng).unwrap());
        let events = state.apply(seat, action).unwrap();
        check_events(schemas, &events, step + 1);
    }
    // A record file is tagged with its game (`AnyRecord`), as `GetRecord` and `record_dir` give it.
    let record = AnyRecord::from(state.record().expect("a played match has a record"));
    schemas.check_serialized(Form::Record, &record, &format_args!("{case}, record"));
    kinds
}

/// Twenty-Two's tables and option sets, Gin Rummy's option sets: `(seats, options)`.
const TWENTY_TWO_CASES: &[(u8, &str)] = &[
    (2, "{}"),
    (3, r#"{"trick_winner": "highest_card", "limit": 12}"#),
    (4, r#"{"first_hand": 11, "limit": 12}"#),
    (5, r#"{"variant": "elimination"}"#),
    (7, r#"{"limit": 8, "tied_dealer": "nearest_left_of_previous_dealer"}"#),
    (9, r#"{"packs": 3, "limit": 4, "first_hand": 2}"#),
    (12, r#"{"limit": 3, "variant": "elimination", "first_hand": 2}"#),
];

const GIN_CASES: &[&str] = &[
    "{}",
    r#"{"oklahoma": true, "oklahoma_spades_double": true}"#,
    r#"{"big_gin": true, "discard_taken_upcard": true, "first_upcard": "seed"}"#,
    r#"{"wall_knock": true, "knock_limit": 0, "target": 50}"#,
    r#"{"max_upcard_draws": 3, "box_bonus": true, "shutout_double": true, "game_bonus": true}"#,
];

/// Gin Rummy: a knock, gin or big gin.
fn goes_out(action: &gin::Action) -> bool {
    matches!(action, gin::Action::Knock { .. } | gin::Action::Gin { .. } | gin::Action::BigGin)
}

/// Seeds per case.
const SEEDS: u64 = 2;

/// Every event kind the random matches of one game produced.
fn random_matches(game: &'static str) -> (Schemas, BTreeSet<String>) {
    let mut schemas = Schemas::new(game);
    let mut kinds = BTreeSet::new();
    for seed in 0..SEEDS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        if game == "gin" {
            for options in GIN_CASES {
                let state = gin::State::new(serde_json::from_str(options).unwrap(), seed).unwrap();
                let case = format!("gin {options} seed {seed}");
                kinds.extend(play_and_check(&mut schemas, state, goes_out, &mut rng, &case));
            }
        } else {
            for &(seats, options) in TWENTY_TWO_CASES {
                let options = serde_json::from_str(options).unwrap();
                let state = twenty_two::State::new(options, seats, seed).unwrap();
                let case = format!("twenty-two {seats} seats {options:?} seed {seed}");
                kinds.extend(play_and_check(&mut schemas, state, |_| false, &mut rng, &case));
            }
        }
    }
    (schemas, kinds)
}

#[test]
fn every_message_of_random_twenty_two_matches_validates() {
    let (schemas, kinds) = random_matches("twenty-two");
    assert_eq!(schemas.count(Form::Record), TWENTY_TWO_CASES.len() * SEEDS as usize);
    assert!(schemas.count(Form::Observation) > 5_000, "{:?}", schemas.checked);
    // Every kind the schema allows happened, so none of them is left untested.
    assert_eq!(kinds, schema_event_kinds("twenty-two"));
}

#[test]
fn every_message_of_random_gin_matches_validates() {
    let (schemas, kinds) = random_matches("gin");
    assert_eq!(schemas.count(Form::Record), GIN_CASES.len() * SEEDS as usize);
    assert!(schemas.count(Form::Observation) > 5_000, "{:?}", schemas.checked);
    assert_eq!(kinds, schema_event_kinds("gin"));
}

/// The `event` tags the event schema of a game allows.
fn schema_event_kinds(game: &str) -> BTreeSet<String> {
    let schema = committed(game, Form::Event);
    schema["oneOf"]
        .as_array()
        .expect("an event is one of its kinds")
        .iter()
        .map(|kind| kind["properties"]["event"]["const"].as_str().unwrap().to_owned())
        .collect()
}

/// The kinds docs/protocol.md lists for a game: the rows of its "Event kinds" table whose first
/// cell is the game's name.
fn documented_event_kinds(game_title: &str) -> BTreeSet<String> {
    let text = std::fs::read_to_string(workspace_root().join("docs/protocol.md")).unwrap();
    let section = text.split("\n## Event kinds").nth(1).expect("protocol.md has `## Event kinds`");
    let section = section.split("\n## ").next().unwrap_or_default();
    section
        .lines()
        .filter_map(|line| {
            let mut cells = line.split('|').map(str::trim).skip(1);
            (cells.next()? == game_title).then_some(())?;
            Some(cells.next()?.trim_matches('`').to_owned())
        })
        .collect()
}

#[test]
fn protocol_md_lists_every_event_kind_of_the_schemas() {
    for (game, title) in [("twenty-two", "Twenty-Two"), ("gin", "Gin Rummy")] {
        assert_eq!(documented_event_kinds(title), schema_event_kinds(game), "{title}");
    }
}

/// One match over a real server: a spectator watching from its creation and every seat
/// playing at random. Validates every JSON form each receives and the record.
async fn check_server_match(server: &TestServer, game: pb::Game, seats: u32, options: &str) {
    let name = if game == pb::Game::GinRummy { "gin" } else { "twenty-two" };
    let mut client = server.client().await;
    let (match_id, tokens) = create(&mut client, game, seats, options, 5, None).await;
    let mut watch = cardroom_tests::watch_raw(server.channel().await, &match_id).await;
    let spectator = tokio::spawn(async move {
        let mut messages = Vec::new();
        while let Some(bytes) = next_raw(&mut watch).await.expect("the watch stream") {
            messages.push(pb::WatchMessage::decode(bytes).unwrap());
        }
        messages
    });
    let (mut table, _) = Table::join(server, &match_id, tokens, 5).await;
    table.play_to_end().await;
    let spectator = tokio::time::timeout(PATIENCE, spectator).await.unwrap().unwrap();
    let request = pb::GetRecordRequest { match_id };
    let record = client.get_record(request).await.unwrap().into_inner().record_json;

    let mut schemas = Schemas::new(name);
    let check_event = |schemas: &mut Schemas, event: &pb::Event, who: &str| {
        let json: Value = serde_json::from_str(&event.json).unwrap();
        assert_eq!(json["event"].as_str(), Some(event.kind.as_str()), "{who}: kind is the tag");
        schemas.check(Form::Event, &json, &who);
    };
    for (seat, messages) in table.received.iter().enumerate() {
        let who = format!("seat {seat}");
        for bytes in messages {
            match decode_server_message(bytes) {
                Message::Joined(joined) => {
                    let observation = joined.observation.expect("Joined has an observation");
                    schemas.check_text(Form::Observation, &observation.json, &who);
                }
                Message::Turn(turn) => {
                    let observation = turn.observation.expect("a turn has an observation");
                    schemas.check_text(Form::Observation, &observation.json, &who);
                }
                Message::Events(events) => {
                    for event in &events.events {
                        check_event(&mut schemas, event, &who);
                    }
                }
                Message::Error(error) => panic!("{who}: {error:?}"),
                Message::End(_) => {}
            }
        }
    }
    for message in &spectator {
        for event in &message.events {
            check_event(&mut schemas, event, "the spectator");
        }
        schemas.check_text(Form::PublicView, &message.public_json, &"the spectator");
    }
    schemas.check_text(Form::Record, &record, &"GetRecord");
    let turns = table.received.iter().flatten().count();
    assert!(schemas.count(Form::Observation) > seats as usize, "{name}: {turns} messages");
    assert!(schemas.count(Form::Event) > schemas.count(Form::PublicView), "{:?}", schemas.checked);
    assert_eq!(schemas.count(Form::PublicView), spectator.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_real_server_sends_validates() {
    let server = TestServer::start(Config::default()).await;
    check_server_match(&server, pb::Game::TwentyTwo, 4, r#"{"limit": 10}"#).await;
    check_server_match(&server, pb::Game::TwentyTwo, 3, r#"{"variant": "elimination"}"#).await;
    check_server_match(&server, pb::Game::GinRummy, 2, r#"{"target": 50}"#).await;
    server.stop().await.unwrap();
}
