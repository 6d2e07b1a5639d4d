//! `cardroom._engine`: cardroom's rules engines (the `cardroom-games` crate) for Python, on the
//! Python SDK's own card and action types. The Python face is `cardroom.engine`, which
//! re-exports this module; `cardroom/_engine.pyi` types it.
//!
//! ```python
//! from cardroom import engine
//! state = engine.new("gin", seed=7)
//! while not state.is_over():
//!     state.apply(state.to_act(), state.legal_actions()[0])
//! ```
//!
//! Nothing a caller passes makes the extension panic: every refusal is an exception of the
//! `EngineError` hierarchy (`cardroom._engine_errors`), naming the rule where there is one.

mod errors;
mod features;
mod gin;
mod gin_solver;
mod sdk;
mod state;
mod twenty_two;

use cardroom_games::gin::State as Gin;
use cardroom_games::twenty_two::State as TwentyTwo;
use cardroom_games::{AnyRecord, GameKind};
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::sdk::sdk;
use crate::state::{Engine, PyState};

/// The catalogue's game of `name` (a name or an alias: `gin`, `gin_rummy`, `22`, …).
fn kind(name: &str) -> PyResult<GameKind> {
    name.parse::<GameKind>().map_err(|error| errors::unknown_game(&error))
}

/// The options of `G` from JSON text or JSON values; every field may be left out.
fn options<G: Engine>(options: Option<&Bound<'_, PyAny>>) -> PyResult<G::Options> {
    let Some(options) = options else {
        return Ok(G::Options::default());
    };
    let text = sdk(options.py())?.json_text(options)?;
    serde_json::from_str(&text).map_err(|error| errors::options_json(G::NAME, &error))
}

fn new_game<G: Engine>(
    players: Option<u8>,
    seed: u64,
    given: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyState> {
    let options = options::<G>(given)?;
    let players = players.unwrap_or(*G::seats(&options).start());
    let state = G::new(options, players, seed).map_err(|error| G::create_error(&error))?;
    Ok(PyState { inner: state.wrap() })
}

/// A new match of `game` (`"gin"`, `"twenty_two"` or an alias) for `players` seats (the
/// fewest the game seats when left out), dealt from `seed`, with `options` (a dict or JSON
/// text; left-out fields take the rules' defaults). Raises `UnknownGameError`, `OptionsError`
/// or `SetupError` (a table size the game does not seat), each naming the rule.
#[pyfunction]
#[pyo3(signature = (game, players = None, seed = 0, options = None))]
fn new(
    game: &str,
    players: Option<u8>,
    seed: u64,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyState> {
    match kind(game)? {
        GameKind::TwentyTwo => new_game::<TwentyTwo>(players, seed, options),
        GameKind::Gin => new_game::<Gin>(players, seed, options),
    }
}

fn setup_game<G: Engine>(
    setup: &Bound<'_, PyAny>,
    given: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyState> {
    let options = options::<G>(given)?;
    let text = sdk(setup.py())?.json_text(setup)?;
    let setup: G::Setup =
        serde_json::from_str(&text).map_err(|error| errors::setup_json(G::NAME, &error))?;
    let state = G::from_setup(options, setup).map_err(|error| G::setup_error(&error))?;
    Ok(PyState { inner: state.wrap() })
}

/// A match of `game` from an explicit position: `setup` is the game's setup in the records'
/// JSON form (a dict or JSON text; docs/schema/), checked once. Raises `SetupError` naming the
/// rule the position breaks, `OptionsError` for options that cannot be played.
#[pyfunction]
#[pyo3(signature = (game, setup, options = None))]
fn from_setup(
    game: &str,
    setup: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyState> {
    match kind(game)? {
        GameKind::TwentyTwo => setup_game::<TwentyTwo>(setup, options),
        GameKind::Gin => setup_game::<Gin>(setup, options),
    }
}

/// Replays `record` (what `State.record_json()` writes and `cardroom replay` reads: JSON text
/// or the same as a dict) and returns the final state. Raises `RecordError` saying which
/// action is illegal and why.
#[pyfunction]
fn from_record(record: &Bound<'_, PyAny>) -> PyResult<PyState> {
    let text = sdk(record.py())?.json_text(record)?;
    let record = AnyRecord::from_json(&text)
        .map_err(|error| errors::record(format!("not a record: {error}")))?;
    let replayed =
        |message: String| errors::record(format!("the record does not replay: {message}"));
    let inner = match record {
        AnyRecord::TwentyTwo(record) => {
            record.replay().map_err(|error| replayed(error.to_string()))?.wrap()
        }
        AnyRecord::Gin(record) => {
            record.replay().map_err(|error| replayed(error.to_string()))?.wrap()
        }
    };
    Ok(PyState { inner })
}

fn sample_game<G: Engine>(observation: &str, seed: u64) -> PyResult<PyState> {
    let observation: G::Observation = serde_json::from_str(observation).map_err(|error| {
        errors::sample(&format!("this is not a {} observation: {error}", G::NAME))
    })?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let state = G::sample(&observation, &mut rng).map_err(|error| errors::sample(&error))?;
    Ok(PyState { inner: state.wrap() })
}

/// The game of an observation's JSON, told by its public part's fields.
fn game_of(observation: &str) -> PyResult<GameKind> {
    let value: serde_json::Value = serde_json::from_str(observation)
        .map_err(|error| errors::sample(&format!("an observation is JSON: {error}")))?;
    let public = value.get("public");
    if public.and_then(|public| public.get("knock_limit")).is_some() {
        Ok(GameKind::Gin)
    } else if public.and_then(|public| public.get("packs")).is_some() {
        Ok(GameKind::TwentyTwo)
    } else {
        Err(errors::sample(&"this is no observation of a cardroom game (no public part)"))
    }
}

/// A full state that the observing seat cannot tell from the one it observed: its own cards
/// and everything public are kept, every card it cannot see is dealt uniformly at random from
/// `seed` (the Rust search bot's `Game::sample`). `observation` is what the seat received: the
/// SDK's `Observation` of a live match (its engine JSON is used), that JSON as a dict, or as
/// text; `game` forces the game rather than telling it from the observation. Raises
/// `SampleError` for an observation the engine could not have produced.
#[pyfunction]
#[pyo3(signature = (observation, seed, game = None))]
fn sample(observation: &Bound<'_, PyAny>, seed: u64, game: Option<&str>) -> PyResult<PyState> {
    let sdk = sdk(observation.py())?;
    // The SDK's `Observation` carries the engine's JSON in `.json`; a dict or a str has none.
    let json = observation.getattr_opt("json")?.unwrap_or_else(|| observation.clone());
    let text = sdk.json_text(&json)?;
    let kind = match game {
        Some(game) => kind(game)?,
        None => game_of(&text)?,
    };
    match kind {
        GameKind::TwentyTwo => sample_game::<TwentyTwo>(&text, seed),
        GameKind::Gin => sample_game::<Gin>(&text, seed),
    }
}

/// The catalogue's games, by name: `["twenty_two", "gin"]`.
#[pyfunction]
fn games() -> Vec<&'static str> {
    GameKind::ALL.iter().map(|kind| kind.name()).collect()
}

/// The seats a table of `game` may have with the default options, as `(fewest, most)`.
#[pyfunction]
fn seats(game: &str) -> PyResult<(u8, u8)> {
    let seats = kind(game)?.seats();
    Ok((*seats.start(), *seats.end()))
}

#[pymodule]
fn _engine(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PyState>()?;
    module.add_function(wrap_pyfunction!(new, module)?)?;
    module.add_function(wrap_pyfunction!(from_setup, module)?)?;
    module.add_function(wrap_pyfunction!(from_record, module)?)?;
    module.add_function(wrap_pyfunction!(sample, module)?)?;
    module.add_function(wrap_pyfunction!(games, module)?)?;
    module.add_function(wrap_pyfunction!(seats, module)?)?;
    gin_solver::register(module)?;
    Ok(())
}
