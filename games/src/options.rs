//! [`GameOptions`]: a game's typed rule-set options, and the table that describes them
//! ([`OptionSpec`]): each option's name, its description citing its rule, its default and the
//! values it takes. `ListGames` publishes that table; nothing above the engines re-describes an
//! option.

use std::fmt::Debug;
use std::hash::Hash;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A game's options: typed, read from and written to JSON (every field may be left out and
/// takes its default), with `Default` the rules' defaults.
pub trait GameOptions:
    Copy
    + Debug
    + Default
    + PartialEq
    + Eq
    + Hash
    + Serialize
    + DeserializeOwned
    + Send
    + Sync
    + 'static
{
    /// Every option, in the order of the rules' table, each default taken from
    /// `Self::default()`.
    fn describe() -> Vec<OptionSpec>;
}

/// One option of a game: what `ListGames` says about it.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionSpec {
    /// The option's JSON field name, such as `knock_limit`.
    pub name: &'static str,
    /// What it does, starting with the rule id it varies (`"GR-7: …"`).
    pub description: &'static str,
    /// Its default, as JSON.
    pub default: serde_json::Value,
    /// The values it takes.
    pub kind: OptionKind,
}

/// The values an option takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `false` or `true`.
    Bool,
    /// A whole number from `min` to `max`.
    Integer {
        /// The smallest value allowed.
        min: u64,
        /// The largest value allowed.
        max: u64,
    },
    /// One of these values, each written as JSON (`"\"auto\""`, `"2"`).
    Choice(&'static [&'static str]),
}

impl OptionSpec {
    /// An option whose default is `default` (serialized to JSON).
    pub fn new(
        name: &'static str,
        description: &'static str,
        default: &impl Serialize,
        kind: OptionKind,
    ) -> OptionSpec {
        // Options are plain numbers, booleans and unit enums: serialization cannot fail.
        let default = serde_json::to_value(default).unwrap_or(serde_json::Value::Null);
        OptionSpec { name, description, default, kind }
    }

    /// The default as JSON text, as `OptionInfo.default_json` carries it.
    pub fn default_json(&self) -> String {
        self.default.to_string()
    }

    /// The values the option takes as JSON texts, as `OptionInfo.choices_json` carries them:
    /// empty for a number.
    pub fn choices_json(&self) -> Vec<String> {
        match self.kind {
            OptionKind::Bool => vec!["false".to_owned(), "true".to_owned()],
            OptionKind::Integer { .. } => Vec::new(),
            OptionKind::Choice(choices) => choices.iter().map(|&c| c.to_owned()).collect(),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::{gin, holdem, twenty_two};

    /// The table names every field of the options' JSON, in order, with the field's default,
    /// and the default is one of the values the option takes.
    fn check_table<O: GameOptions>() {
        let defaults = serde_json::to_value(O::default()).unwrap();
        let fields: Vec<&str> = defaults.as_object().unwrap().keys().map(String::as_str).collect();
        let table = O::describe();
        let names: Vec<&str> = table.iter().map(|spec| spec.name).collect();
        let (mut sorted_fields, mut sorted_names) = (fields.clone(), names.clone());
        sorted_fields.sort_unstable();
        sorted_names.sort_unstable();
        assert_eq!(sorted_names, sorted_fields);
        for spec in &table {
            assert_eq!(spec.default, defaults[spec.name], "{}", spec.name);
            assert!(spec.description.contains(": "), "{}: {}", spec.name, spec.description);
            match spec.kind {
                OptionKind::Bool => assert!(spec.default.is_boolean(), "{}", spec.name),
                OptionKind::Integer { min, max } => {
                    let value = spec.default.as_u64().unwrap();
                    assert!((min..=max).contains(&value), "{}", spec.name);
                }
                OptionKind::Choice(choices) => {
                    assert!(choices.contains(&spec.default_json().as_str()), "{}", spec.name);
                    for choice in choices {
                        let value: serde_json::Value = serde_json::from_str(choice).unwrap();
                        let mut options = defaults.clone();
                        options[spec.name] = value;
                        assert!(serde_json::from_value::<O>(options).is_ok(), "{choice}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_option_tables_describe_every_field_with_its_default() {
        check_table::<twenty_two::Options>();
        check_table::<gin::Options>();
        check_table::<holdem::Options>();
    }

    #[test]
    fn choices_as_list_games_publishes_them() {
        let table = twenty_two::Options::describe();
        let packs = table.iter().find(|spec| spec.name == "packs").unwrap();
        assert_eq!(packs.default_json(), "\"auto\"");
        assert_eq!(packs.choices_json(), ["\"auto\"", "1", "2", "3", "4"]);
        let table = gin::Options::describe();
        let big_gin = table.iter().find(|spec| spec.name == "big_gin").unwrap();
        assert_eq!(big_gin.choices_json(), ["false", "true"]);
        let target = table.iter().find(|spec| spec.name == "target").unwrap();
        assert_eq!((target.default_json(), target.choices_json()), ("100".to_owned(), vec![]));
    }
}
