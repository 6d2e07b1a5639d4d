//! The JSON Schema of Gin Rummy's types whose serde forms are written by hand (feature
//! `schema`; `crate::schema` publishes them).

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use super::{Arrangement, CardSet, solver};
use crate::card::Card;

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
            "maxItems": solver::MAX_MELDS,
        })
    }
}
