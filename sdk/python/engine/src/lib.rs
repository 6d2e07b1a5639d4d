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

mod catalogue;
mod errors;
mod features;
mod sdk;
mod state;

use cardroom_games::{AnyRecord, GameKind};
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::catalogue::EngineVisitor;
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

/// [`new`] for the game the visit picks.
struct NewGame<'a, 'py> {
    players: Option<u8>,
    seed: u64,
    options: Option<&'a Bound<'py, PyAny>>,
}

impl EngineVisitor for NewGame<'_, '_> {
    type Output = PyResult<PyState>;
    fn visit<G: Engine>(self) -> PyResult<PyState> {
        let options = options::<G>(self.options)?;
        let players = self.players.unwrap_or(*G::seats(&options).start());
        let state = G::new(options, players, self.seed).map_err(|error| G::create_error(&error))?;
        Ok(PyState { inner: state.wrap() })
    }
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
    catalogue::visit(kind(game)?, NewGame { players, seed, options })
}

/// [`from_setup`] for the game the visit picks.
struct SetupGame<'a, 'py> {
    setup: &'a Bound<'py, PyAny>,
    options: Option<&'a Bound<'py, PyAny>>,
}

impl EngineVisitor for SetupGame<'_, '_> {
    type Output = PyResult<PyState>;
    fn visit<G: Engine>(self) -> PyResult<PyState> {
        let options = options::<G>(self.options)?;
        let text = sdk(self.setup.py())?.json_text(self.setup)?;
        let setup: G::Setup =
            serde_json::from_str(&text).map_err(|error| errors::setup_json(G::NAME, &error))?;
        let state = G::from_setup(options, setup).map_err(|error| G::setup_error(&error))?;
        Ok(PyState { inner: state.wrap() })
    }
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
    catalogue::visit(kind(game)?, SetupGame { setup, options })
}

/// Replays `record` (what `State.record_json()` writes and `cardroom replay` reads: JSON text
/// or the same as a dict) and returns the final state. Raises `RecordError` saying which
/// action is illegal and why.
#[pyfunction]
fn from_record(record: &Bound<'_, PyAny>) -> PyResult<PyState> {
    let text = sdk(record.py())?.json_text(record)?;
    let record = AnyRecord::from_json(&text)
        .map_err(|error| errors::record(format!("not a record: {error}")))?;
    let inner = catalogue::replay(record)
        .map_err(|message| errors::record(format!("the record does not replay: {message}")))?;
    Ok(PyState { inner })
}

/// [`sample`] for the game the visit picks, from the observation's JSON text.
struct SampleGame<'a> {
    observation: &'a str,
    seed: u64,
}

impl EngineVisitor for SampleGame<'_> {
    type Output = PyResult<PyState>;
    fn visit<G: Engine>(self) -> PyResult<PyState> {
        let observation: G::Observation =
            serde_json::from_str(self.observation).map_err(|error| {
                errors::sample(&format!("this is not a {} observation: {error}", G::NAME))
            })?;
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let state = G::sample(&observation, &mut rng).map_err(|error| errors::sample(&error))?;
        Ok(PyState { inner: state.wrap() })
    }
}

/// Whether an observation's JSON text is one of the visited game's observations.
struct IsObservation<'a>(&'a str);

impl EngineVisitor for IsObservation<'_> {
    type Output = bool;
    fn visit<G: Engine>(self) -> bool {
        serde_json::from_str::<G::Observation>(self.0).is_ok()
    }
}

/// The game of an observation's JSON: the first of the catalogue whose observation it reads
/// as.
fn game_of(observation: &str) -> PyResult<GameKind> {
    GameKind::ALL
        .into_iter()
        .find(|&game| catalogue::visit(game, IsObservation(observation)))
        .ok_or_else(|| {
            errors::sample(&"this is no observation of a cardroom game (it reads as none of them)")
        })
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
    let json = match observation.getattr_opt("json")? {
        Some(json) if !json.is_truthy()? => {
            return Err(errors::sample(
                &"this observation came without its engine JSON: the SDK omits it unless the bot \
                  sets `wants_json = True` (or runs with `RunConfig(json=True)`)",
            ));
        }
        Some(json) => json,
        None => observation.clone(),
    };
    let text = sdk.json_text(&json)?;
    let kind = match game {
        Some(game) => kind(game)?,
        None => game_of(&text)?,
    };
    catalogue::visit(kind, SampleGame { observation: &text, seed })
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
    catalogue::register(module)?;
    Ok(())
}
