//! The exact Gin Rummy solver (`cardroom_games::gin::solver`) on SDK cards: deadwood, every
//! arrangement of least deadwood, the 11-card knock check (GR-3), each discard's deadwood and
//! every arrangement a knocker may lay (GR-7).

use cardroom_games::Card;
use cardroom_games::gin::CardSet;
use cardroom_games::gin::solver::{self, SolverError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use super::gin::melds_to_py;
use crate::errors;
use crate::sdk::sdk;

/// `SolverError`, naming the rule.
fn solver_error(error: &SolverError) -> PyErr {
    errors::raise("SolverError", error.to_string(), None)
}

/// `SolverError` for a card given twice (GR-1).
fn duplicate_card(card: Card) -> PyErr {
    errors::raise("SolverError", format!("GR-1: {card} appears twice; there is one pack"), None)
}

/// The hand given as any iterable of SDK cards; a card given twice is refused (GR-1).
fn hand(cards: &Bound<'_, PyAny>) -> PyResult<CardSet> {
    let mut set = CardSet::EMPTY;
    for card in sdk(cards.py())?.cards_from(cards)? {
        if !set.insert(card) {
            return Err(duplicate_card(card));
        }
    }
    Ok(set)
}

/// The least deadwood of a hand of at most 11 cards (GR-3).
#[pyfunction]
fn deadwood(cards: &Bound<'_, PyAny>) -> PyResult<u8> {
    solver::deadwood(hand(cards)?).map_err(|error| solver_error(&error))
}

/// The least deadwood of a hand of at most 11 cards and every arrangement that reaches it,
/// each a tuple of melds (SDK `Hand`s), as a knock's `melds` takes them.
#[pyfunction]
fn best_melds<'py>(cards: &Bound<'py, PyAny>) -> PyResult<(u8, Bound<'py, PyList>)> {
    let py = cards.py();
    let (deadwood, arrangements) =
        solver::min_deadwood(hand(cards)?).map_err(|error| solver_error(&error))?;
    let sdk = sdk(py)?;
    let arrangements =
        arrangements.iter().map(|a| melds_to_py(sdk, py, a)).collect::<PyResult<Vec<_>>>()?;
    Ok((deadwood, PyList::new(py, arrangements)?))
}

/// The knock check of an 11-card hand (GR-3): the least deadwood left by any discard.
#[pyfunction]
fn knock_deadwood(cards: &Bound<'_, PyAny>) -> PyResult<u8> {
    solver::knock_deadwood(hand(cards)?).map_err(|error| solver_error(&error))
}

/// Whether an 11-card hand may knock (or go gin) with this knock limit (GR-3, GR-7).
#[pyfunction]
#[pyo3(signature = (cards, limit = 10))]
fn can_knock(cards: &Bound<'_, PyAny>, limit: u8) -> PyResult<bool> {
    Ok(knock_deadwood(cards)? <= limit)
}

/// For an 11-card hand, each card with the deadwood left after discarding it, best first
/// (ties in card order).
#[pyfunction]
fn discards<'py>(cards: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let py = cards.py();
    let discards = solver::best_discards(hand(cards)?).map_err(|error| solver_error(&error))?;
    let sdk = sdk(py)?;
    let items = discards
        .all
        .iter()
        .map(|&(card, deadwood)| {
            PyTuple::new(py, [sdk.card(py, card), deadwood.into_pyobject(py)?.into_any()])
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

/// Every arrangement of a hand of at most 11 cards (the 10 kept after a knock's discard)
/// with deadwood at most `limit` (GR-7), sorted, each a tuple of melds.
#[pyfunction]
fn knock_arrangements<'py>(cards: &Bound<'py, PyAny>, limit: u8) -> PyResult<Bound<'py, PyList>> {
    let py = cards.py();
    let arrangements =
        solver::knock_arrangements(hand(cards)?, limit).map_err(|error| solver_error(&error))?;
    let sdk = sdk(py)?;
    let arrangements =
        arrangements.iter().map(|a| melds_to_py(sdk, py, a)).collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, arrangements)
}

/// Adds the solver's functions to the module.
pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(deadwood, module)?)?;
    module.add_function(wrap_pyfunction!(best_melds, module)?)?;
    module.add_function(wrap_pyfunction!(knock_deadwood, module)?)?;
    module.add_function(wrap_pyfunction!(can_knock, module)?)?;
    module.add_function(wrap_pyfunction!(discards, module)?)?;
    module.add_function(wrap_pyfunction!(knock_arrangements, module)?)?;
    Ok(())
}
