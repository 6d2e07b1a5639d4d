//! The Python SDK's own card, hand and standing types (`cardroom.cards`, `cardroom.model`),
//! looked up once per interpreter, and the conversions between them and the engines' types: a
//! bot's code handles the same values whether they come from a live match or from the engine.
//! Each game's actions are converted in its own module ([`PyActions`]).
//!
//! The 52 cards are built once and shared: they are frozen dataclasses, equal by value.

use cardroom_games::{Card, Rank, Standing, Suit};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyTuple};

use crate::errors;

/// The SDK's classes and the shared cards.
pub(crate) struct Sdk {
    card: Py<PyAny>,
    /// `Hand._from_sorted`.
    hand_from_sorted: Py<PyAny>,
    standing: Py<PyAny>,
    json_loads: Py<PyAny>,
    json_dumps: Py<PyAny>,
    /// `cards[i]` is the SDK `Card` of the engine's card byte `i`.
    cards: Vec<Py<PyAny>>,
}

static SDK: PyOnceLock<Sdk> = PyOnceLock::new();

/// The SDK's types, imported on first use.
pub(crate) fn sdk(py: Python<'_>) -> PyResult<&'static Sdk> {
    SDK.get_or_try_init(py, || Sdk::load(py))
}

/// An action class of the SDK by its name in `cardroom` (`cardroom.Knock`), for a game's
/// [`PyActions`].
pub(crate) fn action_class(py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
    Ok(py.import("cardroom")?.getattr(name)?.unbind())
}

impl Sdk {
    fn load(py: Python<'_>) -> PyResult<Sdk> {
        let cards_module = py.import("cardroom.cards")?;
        let model = py.import("cardroom.model")?;
        let json = py.import("json")?;
        let card = cards_module.getattr("Card")?;
        let rank = cards_module.getattr("Rank")?;
        let suit = cards_module.getattr("Suit")?;
        let mut cards = Vec::with_capacity(52);
        for index in 0..52u8 {
            let engine = Card::from_index(index).ok_or_else(|| errors::internal("card byte"))?;
            let rank = rank.call1((engine.rank() as u8,))?;
            let suit = suit.call1((engine.suit() as u8 + 1,))?;
            cards.push(card.call1((rank, suit))?.unbind());
        }
        Ok(Sdk {
            card: card.unbind(),
            hand_from_sorted: cards_module.getattr("Hand")?.getattr("_from_sorted")?.unbind(),
            standing: model.getattr("Standing")?.unbind(),
            json_loads: json.getattr("loads")?.unbind(),
            json_dumps: json.getattr("dumps")?.unbind(),
            cards,
        })
    }

    /// The SDK `Card` of an engine card.
    pub(crate) fn card<'py>(&self, py: Python<'py>, card: Card) -> Bound<'py, PyAny> {
        self.cards[usize::from(card.index())].bind(py).clone()
    }

    /// The shared SDK `Card`s, by card byte.
    pub(crate) fn cards(&self) -> &[Py<PyAny>] {
        &self.cards
    }

    /// The engine card of an SDK `Card`; `ActionTypeError` for anything else.
    pub(crate) fn card_from(&self, object: &Bound<'_, PyAny>) -> PyResult<Card> {
        if !object.get_type().is(&self.card) {
            return Err(errors::action_type(format!(
                "expected a cardroom.Card, not {}",
                object.repr()?
            )));
        }
        let rank: u8 = object.getattr("rank")?.extract()?;
        let suit: u8 = object.getattr("suit")?.extract()?;
        let rank = Rank::ALL
            .into_iter()
            .find(|r| *r as u8 == rank)
            .ok_or_else(|| errors::action_type(format!("no rank {rank}")))?;
        let suit = suit
            .checked_sub(1)
            .and_then(Suit::from_index)
            .ok_or_else(|| errors::action_type(format!("no suit {suit}")))?;
        Ok(Card::new(rank, suit))
    }

    /// The engine cards of any iterable of SDK `Card`s (a `Hand`, a list).
    pub(crate) fn cards_from(&self, object: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
        object.try_iter()?.map(|card| self.card_from(&card?)).collect()
    }

    /// An SDK `Hand` of these cards. The engine's card order (rank, then suit) is the SDK's,
    /// so the cards are sorted here and handed to `Hand._from_sorted`, which does not sort
    /// again in Python.
    pub(crate) fn hand<'py>(
        &self,
        py: Python<'py>,
        cards: impl IntoIterator<Item = Card>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut cards: Vec<Card> = cards.into_iter().collect();
        cards.sort_unstable();
        let cards = PyTuple::new(py, cards.into_iter().map(|card| self.card(py, card)))?;
        self.hand_from_sorted.bind(py).call1((cards,))
    }

    /// Standings as the SDK's `Standing`s (never forfeited: the engines know no clock).
    pub(crate) fn standings<'py>(
        &self,
        py: Python<'py>,
        standings: &[Standing],
    ) -> PyResult<Bound<'py, PyList>> {
        let items = standings
            .iter()
            .map(|s| self.standing.bind(py).call1((s.seat.0, s.place, false)))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// A value serialized by serde, as Python's `json.loads` reads it.
    pub(crate) fn to_python<'py>(
        &self,
        py: Python<'py>,
        value: &impl serde::Serialize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json::to_string(value).map_err(|e| errors::internal(&e.to_string()))?;
        self.json_loads.bind(py).call1((text,))
    }

    /// JSON text given as a `str`, or any value `json.dumps` writes (a dict from
    /// [`Sdk::to_python`], the SDK's `Observation.json`).
    pub(crate) fn json_text(&self, object: &Bound<'_, PyAny>) -> PyResult<String> {
        if let Ok(text) = object.extract::<String>() {
            return Ok(text);
        }
        self.json_dumps.bind(object.py()).call1((object,))?.extract()
    }
}

/// The conversions of one game's actions between the engine and the SDK.
pub(crate) trait PyActions: cardroom_games::Game {
    /// The SDK's value of an engine action.
    fn action_to_py<'py>(
        sdk: &Sdk,
        py: Python<'py>,
        action: &Self::Action,
    ) -> PyResult<Bound<'py, PyAny>>;

    /// The engine action of an SDK action; `ActionTypeError` for another game's action or for
    /// anything that is no action.
    fn action_from_py(sdk: &Sdk, object: &Bound<'_, PyAny>) -> PyResult<Self::Action>;
}
