//! The JSON Schema of Twenty-Two's types whose serde forms are written by hand (feature
//! `schema`; `crate::schema` publishes them).

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use super::{Cards, MAX_HAND, Packs};
use crate::card::Card;

impl JsonSchema for Cards {
    fn schema_name() -> Cow<'static, str> {
        "Cards".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Up to 11 cards, low to high (a hand or the cards of an action).",
            "type": "array",
            "items": generator.subschema_for::<Card>(),
            "maxItems": MAX_HAND,
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
