//! JSON Schema of the engines' serialized forms (feature `schema`): what a bot author in any
//! language codes to. The server sends these forms as they are: `Observation.json` is a game's
//! [`Game::Observation`], `Event.json` one of its events,
//! `WatchMessage.public_json` its public view and `GetRecordResponse.record_json` a
//! [`Record`].
//!
//! The schemas describe the JSON as the engine *writes* it (schemars' serialize contract: every
//! field present, cards in their canonical two-letter code). Most types derive `JsonSchema`;
//! the few with hand-written serde impls get theirs next to them (cards here, a game's own types
//! in its `schema.rs`), and each game lists its forms in [`Game::schemas`].
//! `cargo run -p cardroom-games --features schema --example write_schemas` writes
//! [`all`] to `docs/schema/`.

use std::borrow::Cow;
use std::marker::PhantomData;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use crate::card::{Card, Rank};
use crate::catalogue::{GameKind, GameVisitor};
use crate::game::Game;
use crate::record::Record;

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

/// One published schema: its file name under `docs/schema/` and its JSON.
#[derive(Clone, Debug)]
pub struct SchemaFile {
    /// The game's part of the file name, as its [`Game::schemas`] names it.
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

/// Every published schema: one per form per game of the catalogue, in catalogue order.
pub fn all() -> Vec<SchemaFile> {
    struct Schemas;
    impl GameVisitor for Schemas {
        type Output = Vec<SchemaFile>;
        fn visit<G: Game>(self) -> Vec<SchemaFile> {
            G::schemas()
        }
    }
    GameKind::ALL.into_iter().flat_map(|game| game.visit(Schemas)).collect()
}

/// The four forms of game `G`, whose types describe their own JSON, titled after the game and
/// named `slug.<form>.schema.json`: what a game's [`Game::schemas`] returns unless it has more
/// to say.
pub fn forms<G: Game>(slug: &'static str) -> Vec<SchemaFile>
where
    G::Observation: JsonSchema,
    G::Event: JsonSchema,
    G::PublicView: JsonSchema,
    Record<G>: JsonSchema,
{
    let title = G::KIND.title();
    let file = |form, schema| SchemaFile { game: slug, form, schema };
    vec![
        file(Form::Observation, root::<G::Observation>(&format!("{title} observation"))),
        file(Form::Event, root::<G::Event>(&format!("{title} event"))),
        file(Form::PublicView, root::<G::PublicView>(&format!("{title} public view"))),
        file(Form::Record, root::<TaggedRecord<G>>(&format!("{title} record"))),
    ]
}

/// A [`Record`] of game `G` as the tagged form every record is written in: the game's record
/// with `"game"` its catalogue name. The record of every game is one type; its schema is
/// published per game, like the other forms, so that a bot author reads one game's files only.
struct TaggedRecord<G>(PhantomData<G>);

impl<G: Game> JsonSchema for TaggedRecord<G>
where
    Record<G>: JsonSchema,
{
    fn schema_name() -> Cow<'static, str> {
        let title: String = G::KIND.title().chars().filter(char::is_ascii_alphanumeric).collect();
        format!("{title}Record").into()
    }

    /// The game's own record schema with the `game` tag required and fixed, and a description
    /// for readers of the JSON rather than of the Rust docs.
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let tag = G::NAME;
        let mut schema = Record::<G>::json_schema(generator);
        schema.insert(
            "description".to_owned(),
            format!(
                "A finished match as data (\"game\": \"{tag}\"): the options, the seed or an \
                 explicit setup, and every action in order, with the seat that took it. It replays \
                 exactly with the rules engine (`cardroom replay FILE`)."
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
            "description": "A rank, low to high (TT-1): 2 to 9, T, J, Q, K, A.",
            "type": "string",
            "enum": codes,
        })
    }
}
