//! Rust errors as the Python exceptions of `cardroom._engine_errors` (an `EngineError`
//! hierarchy defined in Python, so it pickles and type-checks like any Python class). Every
//! engine error's message starts with the rule it enforces; the exception keeps that id in
//! `rule`. Nothing a caller passes makes the extension panic: every refusal is one of these.

use std::fmt::Display;

use cardroom_games::RuleError;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// The module that defines the exception classes.
const MODULE: &str = "cardroom._engine_errors";

/// An exception of class `name` with `message`, naming `rule` (else the rule the message
/// starts with, found by the class itself).
pub(crate) fn raise(name: &str, message: String, rule: Option<&str>) -> PyErr {
    Python::attach(|py| {
        let class = match py.import(MODULE).and_then(|module| module.getattr(name)) {
            Ok(class) => class,
            Err(error) => return error,
        };
        match class.call1((message, rule)) {
            Ok(exception) => PyErr::from_value(exception),
            Err(error) => error,
        }
    })
}

/// A bug of the extension, never of the caller's input.
pub(crate) fn internal(what: &str) -> PyErr {
    PyRuntimeError::new_err(format!("cardroom engine: internal error ({what})"))
}

/// `ActionTypeError`: a value that is no action of the state's game.
pub(crate) fn action_type(message: String) -> PyErr {
    raise("ActionTypeError", message, None)
}

/// `IllegalActionError` for an engine's refusal, with its rule.
pub(crate) fn illegal(error: &impl RuleError) -> PyErr {
    raise("IllegalActionError", error.to_string(), Some(error.rule()))
}

/// `NoSuchActionError`: an index or id that names no legal action now (`rule` when the match
/// is over).
pub(crate) fn no_such_action(message: String, rule: Option<&str>) -> PyErr {
    raise("NoSuchActionError", message, rule)
}

/// `NoSuchSeatError`: a seat past the table.
pub(crate) fn no_such_seat(seat: i64, players: u8) -> PyErr {
    raise("NoSuchSeatError", format!("there is no seat {seat} at a table of {players}"), None)
}

/// `UnknownGameError`.
pub(crate) fn unknown_game(error: &impl Display) -> PyErr {
    raise("UnknownGameError", error.to_string(), None)
}

/// `OptionsError`: options that are not the game's options' JSON.
pub(crate) fn options_json(game: &str, error: &serde_json::Error) -> PyErr {
    raise("OptionsError", format!("these are not {game} options: {error}"), None)
}

/// `RecordError`.
pub(crate) fn record(message: String) -> PyErr {
    raise("RecordError", message, None)
}

/// `SampleError`.
pub(crate) fn sample(error: &impl Display) -> PyErr {
    raise("SampleError", error.to_string(), None)
}

/// `SetupError` for a setup that is not the game's setup JSON.
pub(crate) fn setup_json(game: &str, error: &serde_json::Error) -> PyErr {
    raise("SetupError", format!("this is not a {game} setup: {error}"), None)
}

/// One game's errors as exceptions: `OptionsError` for options that cannot be played, else
/// `SetupError` (implemented in each game's module).
pub(crate) trait PyErrors: cardroom_games::Game {
    /// A refused setup.
    fn setup_error(error: &Self::SetupError) -> PyErr;
    /// A refused seeded start (options, table size).
    fn create_error(error: &Self::CreateError) -> PyErr;
}
