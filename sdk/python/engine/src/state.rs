//! [`PyState`], the Python `State`: one match of either game, with the engine's whole API
//! (`to_act`, `legal_actions`, `apply`, `observation`, `sample`, records) on the SDK's types.
//! The per-game code is written once, generic over [`Engine`], and reached through one
//! exhaustive `match` on [`AnyState`] (`crate::catalogue`).

use cardroom_games::{AnyRecord, Card, Game, Seat};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::catalogue::{AnyState, dispatch};
use crate::errors::{self, PyErrors};
use crate::features::Features;
use crate::sdk::{PyActions, sdk};

/// Everything the bindings need of a game, beyond [`Game`].
pub(crate) trait Engine:
    Game<Observation: serde::de::DeserializeOwned> + PyActions + PyErrors + Features
{
    /// The rule an action breaks once the match is over.
    const MATCH_OVER_RULE: &'static str;
    /// The state as either game's.
    fn wrap(self) -> AnyState;
    /// The cards `seat` holds (a seat the table has).
    fn hand_cards(&self, seat: Seat) -> Vec<Card>;
    /// Each seat's score: Gin Rummy's totals of hand points, Twenty-Two's penalty points.
    fn scores(&self) -> Vec<u32>;
    /// The number of the hand (Gin Rummy) or deal (Twenty-Two) under way, from 1.
    fn deal_number(&self) -> u32;
}

/// One match of Gin Rummy or Twenty-Two, always a valid position. Made by `cardroom.engine`'s
/// `new`, `from_setup`, `from_record` and `sample`; `clone()` copies it (the copy is
/// independent). Actions are the SDK's (`cardroom.DrawStock()`, `cardroom.Play(hand)`).
#[pyclass(name = "State", module = "cardroom._engine", from_py_object)]
#[derive(Clone, Debug)]
pub(crate) struct PyState {
    pub(crate) inner: AnyState,
}

impl PyState {
    /// Refuses a seat the table does not have.
    fn seat(&self, seat: i64) -> PyResult<Seat> {
        let players = dispatch!(&self.inner, s => s.players());
        match u8::try_from(seat) {
            Ok(number) if number < players => Ok(Seat(number)),
            _ => Err(errors::no_such_seat(seat, players)),
        }
    }

    /// A seat number for `apply`, which the engine checks itself (naming the rule); one past
    /// any table's numbers is refused here.
    fn acting_seat(&self, seat: i64) -> PyResult<Seat> {
        let players = dispatch!(&self.inner, s => s.players());
        u8::try_from(seat).map(Seat).map_err(|_| errors::no_such_seat(seat, players))
    }
}

/// The legal actions as SDK values.
fn legal<'py, G: Engine>(py: Python<'py>, state: &G) -> PyResult<Bound<'py, PyList>> {
    let sdk = sdk(py)?;
    let actions = state
        .legal_actions()
        .iter()
        .map(|action| G::action_to_py(sdk, py, action))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, actions)
}

/// Applies an SDK action for `seat`, returning the engine's events.
fn apply<G: Engine>(
    py: Python<'_>,
    state: &mut G,
    seat: Seat,
    action: &Bound<'_, PyAny>,
) -> PyResult<Vec<G::Event>> {
    let action = G::action_from_py(sdk(py)?, action)?;
    state.apply(seat, action).map_err(|error| errors::illegal(&error))
}

/// An engine action as an SDK value.
fn to_py<'py, G: Engine>(
    py: Python<'py>,
    _state: &G,
    action: &G::Action,
) -> PyResult<Bound<'py, PyAny>> {
    G::action_to_py(sdk(py)?, py, action)
}

/// Applies `action` for the seat to act.
fn apply_for_to_act<G: Engine>(state: &mut G, action: G::Action) -> PyResult<()> {
    let seat = state.to_act().ok_or_else(over::<G>)?;
    state.apply(seat, action).map(drop).map_err(|error| errors::illegal(&error))
}

/// Refuses an action once the match is over, naming the rule.
fn over<G: Engine>() -> PyErr {
    errors::no_such_action("the match is over".to_owned(), Some(G::MATCH_OVER_RULE))
}

/// Applies the legal action at `index` for the seat to act.
fn apply_index<G: Engine>(state: &mut G, index: usize) -> PyResult<()> {
    if state.to_act().is_none() {
        return Err(over::<G>());
    }
    let legal = state.legal_actions();
    let action = *legal.get(index).ok_or_else(|| {
        errors::no_such_action(format!("{index} is past the {} legal actions", legal.len()), None)
    })?;
    apply_for_to_act(state, action)
}

/// The legal action with action id `id` ([`Features`]).
fn action_of_id<G: Engine>(state: &G, id: usize) -> PyResult<G::Action> {
    if state.to_act().is_none() {
        return Err(over::<G>());
    }
    let legal = state.legal_actions();
    state
        .action_ids(&legal)
        .into_iter()
        .find(|&(legal_id, _)| legal_id == id)
        .map(|(_, index)| legal[index])
        .ok_or_else(|| errors::no_such_action(format!("action id {id} is not legal now"), None))
}

/// A full state that `seat` cannot tell from this one (`Game::sample` of its observation).
fn sample_own<G: Engine>(state: &G, seat: Seat, seed: u64) -> PyResult<AnyState> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    G::sample(&state.observation(seat), &mut rng)
        .map(Engine::wrap)
        .map_err(|error| errors::sample(&error))
}

#[pymethods]
impl PyState {
    /// The game's name: `"gin"` or `"twenty_two"`.
    #[getter]
    fn game(&self) -> &'static str {
        dispatch!(&self.inner, s => s.kind().name())
    }

    /// Seats at the table.
    #[getter]
    fn players(&self) -> u8 {
        dispatch!(&self.inner, s => s.players())
    }

    /// How many action ids the game has ([`Features`]).
    #[getter]
    fn num_action_ids(&self) -> usize {
        fn num_ids<G: Features>(_: &G) -> usize {
            G::NUM_IDS
        }
        dispatch!(&self.inner, s => num_ids(s))
    }

    /// The length of `observation_tensor`.
    #[getter]
    fn tensor_len(&self) -> usize {
        fn tensor_len<G: Features>(_: &G) -> usize {
            G::TENSOR_LEN
        }
        dispatch!(&self.inner, s => tensor_len(s))
    }

    /// The match's options, as JSON values.
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        dispatch!(&self.inner, s => sdk(py)?.to_python(py, s.options()))
    }

    /// Whether the match is over.
    fn is_over(&self) -> bool {
        dispatch!(&self.inner, s => s.to_act().is_none())
    }

    /// The seat to act, `None` once the match is over.
    fn to_act(&self) -> Option<u8> {
        dispatch!(&self.inner, s => s.to_act().map(|seat| seat.0))
    }

    /// The legal actions of the seat to act, sorted and distinct, as the SDK's action values;
    /// empty only when the match is over.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        dispatch!(&self.inner, s => legal(py, s))
    }

    /// How many legal actions there are (`len(legal_actions())`, without building them).
    fn num_legal_actions(&self) -> usize {
        dispatch!(&self.inner, s => s.legal_actions().len())
    }

    /// Applies `action` (an SDK action value) for `seat`. Raises `IllegalActionError`
    /// naming the rule, and then nothing changed; `ActionTypeError` for a value that is no
    /// action of this game.
    fn apply(&mut self, py: Python<'_>, seat: i64, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let seat = self.acting_seat(seat)?;
        dispatch!(&mut self.inner, s => apply(py, s, seat, action).map(drop))
    }

    /// As `apply`, returning the public events the action caused, as JSON values.
    fn apply_with_events<'py>(
        &mut self,
        py: Python<'py>,
        seat: i64,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.acting_seat(seat)?;
        dispatch!(&mut self.inner, s => {
            let events = apply(py, s, seat, action)?;
            sdk(py)?.to_python(py, &events)
        })
    }

    /// Applies `legal_actions()[index]` for the seat to act, without building the list in
    /// Python: the fast path of playouts.
    fn apply_index(&mut self, index: usize) -> PyResult<()> {
        dispatch!(&mut self.inner, s => apply_index(s, index))
    }

    /// The action ids ([`Features`]) of the legal actions, ascending.
    fn legal_action_ids(&self) -> Vec<usize> {
        dispatch!(&self.inner, s => {
            let legal = s.legal_actions();
            let mut ids: Vec<usize> = s.action_ids(&legal).into_iter().map(|(id, _)| id).collect();
            ids.sort_unstable();
            ids
        })
    }

    /// The legal action with this id, as an SDK value; `NoSuchActionError` when none is.
    fn action_of_id<'py>(&self, py: Python<'py>, id: usize) -> PyResult<Bound<'py, PyAny>> {
        dispatch!(&self.inner, s => {
            let action = action_of_id(s, id)?;
            to_py(py, s, &action)
        })
    }

    /// Applies the legal action with this id for the seat to act.
    fn apply_id(&mut self, id: usize) -> PyResult<()> {
        dispatch!(&mut self.inner, s => {
            let action = action_of_id(s, id)?;
            apply_for_to_act(s, action)
        })
    }

    /// What `seat` may see, as numbers in 0..=1 (the layout is in the stubs).
    fn observation_tensor(&self, seat: i64) -> PyResult<Vec<f32>> {
        let seat = self.seat(seat)?;
        Ok(dispatch!(&self.inner, s => s.tensor(seat)))
    }

    /// An independent copy.
    fn clone(&self) -> PyState {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyState {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyDict>) -> PyState {
        Clone::clone(self)
    }

    /// What `seat` may see now: the engine's JSON form, the same as the SDK's
    /// `Observation.json` in a live match.
    fn observation<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.seat(seat)?;
        dispatch!(&self.inner, s => sdk(py)?.to_python(py, &s.observation(seat)))
    }

    /// `observation(seat)` as JSON text.
    fn observation_json(&self, seat: i64) -> PyResult<String> {
        let seat = self.seat(seat)?;
        dispatch!(&self.inner, s => serde_json::to_string(&s.observation(seat))
            .map_err(|error| errors::internal(&error.to_string())))
    }

    /// What spectators see now, as JSON values.
    fn public_view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        dispatch!(&self.inner, s => sdk(py)?.to_python(py, &s.public_view()))
    }

    /// The final standings (the SDK's `Standing`s, first place first), `None` until the end.
    fn standings<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        dispatch!(&self.inner, s => match s.standings() {
            Some(standings) => Ok(Some(sdk(py)?.standings(py, &standings)?)),
            None => Ok(None),
        })
    }

    /// Why the match ended, citing the rule (`"GR-13: seat 0 reached the target of 100
    /// points"`), `None` until the end: what the record's `termination` says.
    fn end_reason(&self) -> Option<String> {
        dispatch!(&self.inner, s => s.end_reason())
    }

    /// Each seat's score: Gin Rummy's hand points so far, Twenty-Two's penalty points.
    fn scores(&self) -> Vec<u32> {
        dispatch!(&self.inner, s => Engine::scores(s))
    }

    /// The number of the Gin Rummy hand or Twenty-Two deal under way, from 1.
    fn deal_number(&self) -> u32 {
        dispatch!(&self.inner, s => s.deal_number())
    }

    /// The cards `seat` holds, as an SDK `Hand`.
    fn hand<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.seat(seat)?;
        let cards = dispatch!(&self.inner, s => s.hand_cards(seat));
        sdk(py)?.hand(py, cards)
    }

    /// The action the server plays when the seat to act runs out of time; `None` at the end.
    fn default_action<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        dispatch!(&self.inner, s => match s.default_action() {
            Some(action) => Ok(Some(to_py(py, s, &action)?)),
            None => Ok(None),
        })
    }

    /// The match's record as the JSON `cardroom replay` reads; `None` for a sampled state.
    fn record_json(&self) -> Option<String> {
        dispatch!(&self.inner, s => Game::record(s).map(|record| AnyRecord::from(record).to_json()))
    }

    /// The record as JSON values; `None` for a sampled state.
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        dispatch!(&self.inner, s => match Game::record(s) {
            Some(record) => Ok(Some(sdk(py)?.to_python(py, &AnyRecord::from(record))?)),
            None => Ok(None),
        })
    }

    /// A full state that `seat` cannot tell from this one: its observation, with every card it
    /// cannot see dealt at random from `seed` (what `cardroom.engine.sample` does with an
    /// observation received in a live match, without the JSON).
    fn sample(&self, seat: i64, seed: u64) -> PyResult<PyState> {
        let seat = self.seat(seat)?;
        let inner = dispatch!(&self.inner, s => sample_own(s, seat, seed))?;
        Ok(PyState { inner })
    }

    fn __repr__(&self) -> String {
        let (game, players, to_act) =
            dispatch!(&self.inner, s => (s.kind().name(), s.players(), s.to_act()));
        match to_act {
            Some(seat) => format!("State({game}, {players} players, seat {} to act)", seat.0),
            None => format!("State({game}, {players} players, over)"),
        }
    }
}

/// The game of a state, for [`PyState::game`].
trait Kind {
    fn kind(&self) -> cardroom_games::GameKind;
}

impl<G: Game> Kind for G {
    fn kind(&self) -> cardroom_games::GameKind {
        G::KIND
    }
}
