//! The values a row keeps as JSON (a scrimmage's results, a season's finalists and outcome),
//! written and read one way.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::StoreError;

/// `value` as its column keeps it.
pub(crate) fn write<T: Serialize>(value: &T) -> String {
    // Plain structs of strings and numbers always serialise.
    serde_json::to_string(value).unwrap_or_else(|_| "{}".to_owned())
}

/// The value of a column, `what` it is naming it when the JSON is not one; `None` for none.
pub(crate) fn read<T: DeserializeOwned>(
    json: Option<&str>,
    what: &str,
) -> Result<Option<T>, StoreError> {
    json.map(|json| {
        serde_json::from_str(json).map_err(|error| StoreError::Corrupt(format!("{what}: {error}")))
    })
    .transpose()
}
