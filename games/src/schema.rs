//! JSON Schema of the engines' serialized forms (feature `schema`): what a bot author in any
//! language codes to. The server sends these forms as they are: `Observation.json` is a game's
//! [`Game::Observation`](crate::Game::Observation), `Event.json` one of its events,
//! `WatchMessage.public_json` its public view and `GetRecordResponse.record_json` a
//! [`Record`](crate::Record).
//!
//! The schemas describe the JSON as the engine *writes* it (schemars' serialize contract: every
//! field present, cards in their canonical two-letter code). Most types derive `JsonSchema`;
//! the few with hand-written serde impls (cards, card lists, packs, melds) get theirs here.
//! `cargo run -p cardroom-games --features schema --example write_schemas` writes
//! [`all`] to `docs/schema/`.

use std::borrow::Cow;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use crate::card::{Card, Rank};
use crate::gin::{Arrangement, CardSet};
use crate::twenty_two::{Cards, Packs};
use crate::{gin, twenty_two};

/// The regular expression every card matches as the engine writes it: rank `2`–`9`, `T`, `J`,
/// `Q`, `K`, `A`, then suit `C`, `D`, `H`, `S` (`"AS"`, `"TH"`, `"2C"`).
pub const CARD_PATTERN: &str = "^[2-9TJQKA][CDHS]$";

/// The JSON forms a schema is published for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// What one seat sees: `Observation.json`.
    Observation,
    /// One public event: `Event.json`.
    Event,
    /// What a spectator sees: `WatchMessage.public_json`.
    PublicView,
    /// A match record: `GetRecordResponse.record_json` and the files in `record_dir`.
    Record,
}

impl Form {
    /// Every form, in the order the files are listed.
    pub const ALL: [Form; 4] = [Form::Observation, Form::Event, Form::PublicView, Form::Record];

    /// The form's part of a schema file name: `observation`, `event`, `public-view`, `record`.
    pub const fn slug(self) -> &'static str {
        match self {
            Form::Observation => "observation",
            Form::Event => "event",
            Form::PublicView => "public-view",
            Form::Record => "record",
        }
    }
}

/// A game's part of a schema file name: `twenty-two` or `gin`.
pub const GAMES: [&str; 2] = ["twenty-two", "gin"];

/// One published schema: its file name under `docs/schema/` and its JSON.
#[derive(Clone, Debug)]
pub struct SchemaFile {
    /// `twenty-two` or `gin`.
    pub game: &'static str,
    /// Which form it describes.
    pub form: Form,
    /// The schema.
    pub schema: Schema,
}

impl SchemaFile {
    /// `<game>.<form>.schema.json`, such as `twenty-two.observation.schema.json`.
    pub fn file_name(&self) -> String {
        format!("{}.{}.schema.json", self.game, self.form.slug())
    }

    /// The schema as the committed file holds it: pretty JSON and a final newline.
    pub fn to_pretty_json(&self) -> String {
        // A schema is a JSON value already: writing it cannot fail.
        let mut text = serde_json::to_string_pretty(&self.schema).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// The schema of `T` as the engine serializes it (JSON Schema 2020-12), titled `title`.
fn root<T: JsonSchema>(title: &str) -> Schema {
    let mut schema =
        SchemaSettings::draft2020_12().for_serialize().into_generator().into_root_schema_for::<T>();
    schema.insert("title".to_owned(), title.into());
    schema
}

/// Every published schema: one per form per game, eight in all.
pub fn all() -> Vec<SchemaFile> {
    let file = |game, form, schema| SchemaFile { game, form, schema };
    vec![
        file(
            "twenty-two",
            Form::Observation,
            root::<twenty_two::Observation>("Twenty-Two observation"),
        ),
        file("twenty-two", Form::Event, root::<twenty_two::Event>("Twenty-Two event")),
        file(
            "twenty-two",
            Form::PublicView,
            root::<twenty_two::PublicView>("Twenty-Two public view"),
        ),
        file("twenty-two", Form::Record, root::<TwentyTwoRecord>("Twenty-Two record")),
        file("gin", Form::Observation, root::<gin::Observation>("Gin Rummy observation")),
        file("gin", Form::Event, root::<gin::Event>("Gin Rummy event")),
        file("gin", Form::PublicView, root::<gin::PublicView>("Gin Rummy public view")),
        file("gin", Form::Record, root::<GinRecord>("Gin Rummy record")),
    ]
}

/// A [`crate::Record`] of Twenty-Two: the game's record with `"game": "twenty_two"`. The
/// record of every game is one tagged type; its schema is published per game, like the other
/// forms, so that a bot author reads one game's files only.
struct TwentyTwoRecord;

/// A [`crate::Record`] of Gin Rummy: the game's record with `"game": "gin"`.
struct GinRecord;

/// The schema of one game's record inside the tagged [`crate::Record`]: the game's own record
/// schema with the `game` tag required and fixed, and a description for readers of the JSON
/// rather than of the Rust docs.
fn tagged_record<R: JsonSchema>(generator: &mut SchemaGenerator, tag: &str) -> Schema {
    let mut schema = R::json_schema(generator);
    schema.insert(
        "description".to_owned(),
        format!(
            "A finished match as data (\"game\": \"{tag}\"): the options, the seed or an explicit \
             setup, and every action in order, with the seat that took it. It replays exactly with \
             the rules engine (`cardroom replay FILE`)."
        )
        .into(),
    );
    if let Some(object) = schema.as_object_mut() {
        if let Some(properties) = object.get_mut("properties").and_then(|p| p.as_object_mut()) {
            properties.insert("game".to_owned(), serde_json::json!({ "const": tag }));
        }
        match object.get_mut("required").and_then(|r| r.as_array_mut()) {
            Some(required) => required.insert(0, "game".into()),
            None => {
                object.insert("required".to_owned(), serde_json::json!(["game"]));
            }
        }
    }
    schema
}

impl JsonSchema for TwentyTwoRecord {
    fn schema_name() -> Cow<'static, str> {
        "TwentyTwoRecord".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        tagged_record::<twenty_two::Record>(generator, "twenty_two")
    }
}

impl JsonSchema for GinRecord {
    fn schema_name() -> Cow<'static, str> {
        "GinRecord".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        tagged_record::<gin::Record>(generator, "gin")
    }
}

impl JsonSchema for Card {
    fn schema_name() -> Cow<'static, str> {
        "Card".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A card: its rank (2-9, T, J, Q, K, A) then its suit (C, D, H, S), such as \"TH\".",
            "type": "string",
            "pattern": CARD_PATTERN,
        })
    }
}

impl JsonSchema for Rank {
    fn schema_name() -> Cow<'static, str> {
        "Rank".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let codes: Vec<String> = Rank::ALL.iter().map(|rank| rank.code().to_string()).collect();
        json_schema!({
            "description": "A rank, low to high in Twenty-Two's order (TT-1).",
            "type": "string",
            "enum": codes,
        })
    }
}

impl JsonSchema for Cards {
    fn schema_name() -> Cow<'static, str> {
        "Cards".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Up to 11 cards, low to high (a hand or the cards of an action).",
            "type": "array",
            "items": generator.subschema_for::<Card>(),
            "maxItems": twenty_two::MAX_HAND,
        })
    }
}

impl JsonSchema for Packs {
    fn schema_name() -> Cow<'static, str> {
        "Packs".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "How many packs (TT-3): \"auto\" (by the number of players) or 1 to 4.",
            "oneOf": [
                { "const": "auto" },
                { "type": "integer", "minimum": 1, "maximum": 4 },
            ],
        })
    }
}

impl JsonSchema for CardSet {
    fn schema_name() -> Cow<'static, str> {
        "CardSet".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A set of distinct cards, clubs to spades, ace low to king within a suit.",
            "type": "array",
            "items": generator.subschema_for::<Card>(),
            "uniqueItems": true,
            "maxItems": 52,
        })
    }
}

impl JsonSchema for Arrangement {
    fn schema_name() -> Cow<'static, str> {
        "Arrangement".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Melds (GR-2): up to three sets or runs of 3 or more cards each, in canonical form.",
            "type": "array",
            "items": generator.subschema_for::<CardSet>(),
            "maxItems": gin::solver::MAX_MELDS,
        })
    }
}
