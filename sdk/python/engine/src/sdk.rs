//! The Python SDK's own card, hand, action and standing types (`cardroom.cards`,
//! `cardroom.actions`, `cardroom.model`), looked up once per interpreter, and the conversions
//! between them and the engines' types: a bot's code handles the same values whether they come
//! from a live match or from the engine.
//!
//! The 52 cards and the actions without a variable part (`DrawStock()`, `Discard(card)`, …) are
//! built once and shared: they are frozen dataclasses, equal by value.

use cardroom_games::gin::{self, Arrangement, CardSet};
use cardroom_games::twenty_two::{self, Cards};
use cardroom_games::{Card, Rank, Standing, Suit};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyTuple};

use crate::errors;

/// The SDK's classes and the shared instances.
pub(crate) struct Sdk {
    card: Py<PyAny>,
    /// `Hand._from_sorted`.
    hand_from_sorted: Py<PyAny>,
    standing: Py<PyAny>,
    json_loads: Py<PyAny>,
    json_dumps: Py<PyAny>,
    /// `cards[i]` is the SDK `Card` of the engine's card byte `i`.
    cards: Vec<Py<PyAny>>,
    exchange: Py<PyAny>,
    play: Py<PyAny>,
    take_upcard: Py<PyAny>,
    pass_upcard: Py<PyAny>,
    draw_stock: Py<PyAny>,
    draw_discard: Py<PyAny>,
    discard: Py<PyAny>,
    knock: Py<PyAny>,
    gin: Py<PyAny>,
    big_gin: Py<PyAny>,
    /// One instance each of the unit actions, in the order of the fields above.
    units: [Py<PyAny>; 5],
    /// `discards[i]` is `Discard(cards[i])`.
    discards: Vec<Py<PyAny>>,
    /// `gins[i]` is `Gin(cards[i])`.
    gins: Vec<Py<PyAny>>,
}

static SDK: PyOnceLock<Sdk> = PyOnceLock::new();

/// The SDK's types, imported on first use.
pub(crate) fn sdk(py: Python<'_>) -> PyResult<&'static Sdk> {
    SDK.get_or_try_init(py, || Sdk::load(py))
}

impl Sdk {
    fn load(py: Python<'_>) -> PyResult<Sdk> {
        let cards_module = py.import("cardroom.cards")?;
        let actions = py.import("cardroom.actions")?;
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
        let class = |name: &str| actions.getattr(name).map(Bound::unbind);
        let (discard, gin) = (class("Discard")?, class("Gin")?);
        let discards = cards
            .iter()
            .map(|c| discard.bind(py).call1((c.clone_ref(py),)).map(Bound::unbind))
            .collect::<PyResult<Vec<_>>>()?;
        let gins = cards
            .iter()
            .map(|c| gin.bind(py).call1((c.clone_ref(py),)).map(Bound::unbind))
            .collect::<PyResult<Vec<_>>>()?;
        let (take_upcard, pass_upcard, draw_stock, draw_discard, big_gin) = (
            class("TakeUpcard")?,
            class("PassUpcard")?,
            class("DrawStock")?,
            class("DrawDiscard")?,
            class("BigGin")?,
        );
        let units = [
            take_upcard.bind(py).call0()?.unbind(),
            pass_upcard.bind(py).call0()?.unbind(),
            draw_stock.bind(py).call0()?.unbind(),
            draw_discard.bind(py).call0()?.unbind(),
            big_gin.bind(py).call0()?.unbind(),
        ];
        Ok(Sdk {
            card: card.unbind(),
            hand_from_sorted: cards_module.getattr("Hand")?.getattr("_from_sorted")?.unbind(),
            standing: model.getattr("Standing")?.unbind(),
            json_loads: json.getattr("loads")?.unbind(),
            json_dumps: json.getattr("dumps")?.unbind(),
            cards,
            exchange: class("Exchange")?,
            play: class("Play")?,
            take_upcard,
            pass_upcard,
            draw_stock,
            draw_discard,
            discard,
            knock: class("Knock")?,
            gin,
            big_gin,
            units,
            discards,
            gins,
        })
    }

    /// The SDK `Card` of an engine card.
    pub(crate) fn card<'py>(&self, py: Python<'py>, card: Card) -> Bound<'py, PyAny> {
        self.cards[usize::from(card.index())].bind(py).clone()
    }

    /// The engine card of an SDK `Card`; `TypeError` for anything else.
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

    /// A Gin arrangement as the SDK's melds: a tuple of `Hand`s.
    pub(crate) fn melds<'py>(
        &self,
        py: Python<'py>,
        arrangement: &Arrangement,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let melds =
            arrangement.melds().map(|meld| self.hand(py, meld)).collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, melds)
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

impl PyActions for gin::State {
    fn action_to_py<'py>(
        sdk: &Sdk,
        py: Python<'py>,
        action: &gin::Action,
    ) -> PyResult<Bound<'py, PyAny>> {
        let shared = |object: &Py<PyAny>| Ok(object.bind(py).clone());
        match action {
            gin::Action::TakeUpcard => shared(&sdk.units[0]),
            gin::Action::PassUpcard => shared(&sdk.units[1]),
            gin::Action::DrawStock => shared(&sdk.units[2]),
            gin::Action::DrawDiscard => shared(&sdk.units[3]),
            gin::Action::BigGin => shared(&sdk.units[4]),
            gin::Action::Discard(card) => shared(&sdk.discards[usize::from(card.index())]),
            gin::Action::Gin { discard } => shared(&sdk.gins[usize::from(discard.index())]),
            gin::Action::Knock { discard, melds } => {
                sdk.knock.bind(py).call1((sdk.card(py, *discard), sdk.melds(py, melds)?))
            }
        }
    }

    fn action_from_py(sdk: &Sdk, object: &Bound<'_, PyAny>) -> PyResult<gin::Action> {
        let class = object.get_type();
        if class.is(&sdk.take_upcard) {
            Ok(gin::Action::TakeUpcard)
        } else if class.is(&sdk.pass_upcard) {
            Ok(gin::Action::PassUpcard)
        } else if class.is(&sdk.draw_stock) {
            Ok(gin::Action::DrawStock)
        } else if class.is(&sdk.draw_discard) {
            Ok(gin::Action::DrawDiscard)
        } else if class.is(&sdk.big_gin) {
            Ok(gin::Action::BigGin)
        } else if class.is(&sdk.discard) {
            Ok(gin::Action::Discard(sdk.card_from(&object.getattr("card")?)?))
        } else if class.is(&sdk.gin) {
            Ok(gin::Action::Gin { discard: sdk.card_from(&object.getattr("discard")?)? })
        } else if class.is(&sdk.knock) {
            let discard = sdk.card_from(&object.getattr("discard")?)?;
            let melds = object
                .getattr("melds")?
                .try_iter()?
                .map(|meld| Ok(sdk.cards_from(&meld?)?.into_iter().collect::<CardSet>()))
                .collect::<PyResult<Vec<CardSet>>>()?;
            let melds = Arrangement::new(&melds).map_err(|e| errors::illegal_melds(&e))?;
            Ok(gin::Action::Knock { discard, melds })
        } else {
            Err(errors::action_type(format!("not a Gin Rummy action: {}", object.repr()?)))
        }
    }
}

impl PyActions for twenty_two::State {
    fn action_to_py<'py>(
        sdk: &Sdk,
        py: Python<'py>,
        action: &twenty_two::Action,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (class, cards) = match action {
            twenty_two::Action::Exchange(cards) => (&sdk.exchange, cards),
            twenty_two::Action::Play(cards) => (&sdk.play, cards),
        };
        class.bind(py).call1((sdk.hand(py, cards.as_slice().iter().copied())?,))
    }

    fn action_from_py(sdk: &Sdk, object: &Bound<'_, PyAny>) -> PyResult<twenty_two::Action> {
        let class = object.get_type();
        let exchange = class.is(&sdk.exchange);
        if !exchange && !class.is(&sdk.play) {
            return Err(errors::action_type(format!(
                "not a Twenty-Two action: {}",
                object.repr()?
            )));
        }
        let cards = sdk.cards_from(&object.getattr("cards")?)?;
        let cards = Cards::new(&cards).map_err(|e| errors::action_type(e.to_string()))?;
        Ok(if exchange {
            twenty_two::Action::Exchange(cards)
        } else {
            twenty_two::Action::Play(cards)
        })
    }
}
