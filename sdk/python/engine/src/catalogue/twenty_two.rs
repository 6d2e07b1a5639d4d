//! Twenty-Two's side of the bindings: its actions as the SDK's values, its errors as
//! exceptions, its action ids and observation tensor, and what [`Engine`] needs.

use cardroom_games::twenty_two::{self, Cards, MAX_PLAYERS, PhaseView};
use cardroom_games::{Card, Seat};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use crate::catalogue::AnyState;
use crate::errors::{self, PyErrors};
use crate::features::{Features, mark};
use crate::sdk::{PyActions, Sdk, action_class};
use crate::state::Engine;

/// The SDK's Twenty-Two action classes.
struct TwentyTwoClasses {
    exchange: Py<PyAny>,
    play: Py<PyAny>,
}

static CLASSES: PyOnceLock<TwentyTwoClasses> = PyOnceLock::new();

fn classes(py: Python<'_>) -> PyResult<&'static TwentyTwoClasses> {
    CLASSES.get_or_try_init(py, || {
        Ok(TwentyTwoClasses {
            exchange: action_class(py, "Exchange")?,
            play: action_class(py, "Play")?,
        })
    })
}

impl PyActions for twenty_two::State {
    fn action_to_py<'py>(
        sdk: &Sdk,
        py: Python<'py>,
        action: &twenty_two::Action,
    ) -> PyResult<Bound<'py, PyAny>> {
        let classes = classes(py)?;
        let (class, cards) = match action {
            twenty_two::Action::Exchange(cards) => (&classes.exchange, cards),
            twenty_two::Action::Play(cards) => (&classes.play, cards),
        };
        class.bind(py).call1((sdk.hand(py, cards.as_slice().iter().copied())?,))
    }

    fn action_from_py(sdk: &Sdk, object: &Bound<'_, PyAny>) -> PyResult<twenty_two::Action> {
        let classes = classes(object.py())?;
        let class = object.get_type();
        let exchange = class.is(&classes.exchange);
        if !exchange && !class.is(&classes.play) {
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

impl PyErrors for twenty_two::State {
    fn setup_error(error: &twenty_two::SetupError) -> PyErr {
        let class = match error {
            // A table size the options do not seat is the setup's fault, not the options'.
            twenty_two::SetupError::Options(twenty_two::OptionsError::Players { .. }) => {
                "SetupError"
            }
            twenty_two::SetupError::Options(_) => "OptionsError",
            _ => "SetupError",
        };
        errors::raise(class, error.to_string(), None)
    }

    fn create_error(error: &twenty_two::SetupError) -> PyErr {
        Self::setup_error(error)
    }
}

impl Engine for twenty_two::State {
    const MATCH_OVER_RULE: &'static str = "TT-21";
    fn wrap(self) -> AnyState {
        AnyState::TwentyTwo(self)
    }
    fn hand_cards(&self, seat: Seat) -> Vec<Card> {
        self.hand(seat).map(|cards| cards.as_slice().to_vec()).unwrap_or_default()
    }
    fn scores(&self) -> Vec<u32> {
        twenty_two::State::scores(self)
    }
    fn deal_number(&self) -> u32 {
        self.public_view().deal
    }
}

/// The largest legal list of Twenty-Two (see the module's documentation).
const TT_IDS: usize = 2048;

impl Features for twenty_two::State {
    const NUM_IDS: usize = TT_IDS;
    const TENSOR_LEN: usize = 52 * 4 + 3 * MAX_PLAYERS as usize + MAX_PLAYERS as usize + 5;

    fn action_ids(&self, legal: &[twenty_two::Action]) -> Vec<(usize, usize)> {
        (0..legal.len().min(TT_IDS)).map(|index| (index, index)).collect()
    }

    /// Own hand, own exchange discards, the strongest combination of the trick under way, the
    /// cards played to this deal's tricks (52 each, a card's count / packs); per seat (16)
    /// score / limit, cards in hand / 11, eliminated; `seat` one-hot (16); the phase
    /// (exchange, play, over), whether `seat` is to act, whether it leads.
    fn tensor(&self, seat: Seat) -> Vec<f32> {
        let mut out = vec![0.0; Self::TENSOR_LEN];
        let observation = self.observation(seat);
        let public = &observation.public;
        let weight = 1.0 / f32::from(public.packs.max(1));
        mark(&mut out, 0, observation.hand.as_slice().iter().copied(), weight);
        mark(&mut out, 52, observation.discards.iter().copied(), weight);
        if let Some(trick) = public.tricks.last().filter(|trick| trick.winner.is_none())
            && let Some(strongest) = trick.plays.get(trick.strongest)
        {
            mark(&mut out, 104, strongest.cards.as_slice().iter().copied(), weight);
        }
        for trick in &public.tricks {
            for play in &trick.plays {
                let cards: &Cards = &play.cards;
                mark(&mut out, 156, cards.as_slice().iter().copied(), weight);
            }
        }
        let seats = usize::from(MAX_PLAYERS);
        let limit = public.options.limit.max(1) as f32;
        for (i, public_seat) in public.seats.iter().take(seats).enumerate() {
            out[208 + i] = (public_seat.score as f32 / limit).min(1.0);
            out[208 + seats + i] = public_seat.hand_len as f32 / 11.0;
            out[208 + 2 * seats + i] = f32::from(u8::from(public_seat.eliminated));
        }
        if let Some(slot) = out.get_mut(208 + 3 * seats + usize::from(seat.0)) {
            *slot = 1.0;
        }
        let base = 208 + 4 * seats;
        let (phase, to_act, leads) = match public.phase {
            PhaseView::Exchange { to_act } => (0, to_act == seat, false),
            PhaseView::Play { leader, to_act } => (1, to_act == seat, leader == seat),
            PhaseView::Over => (2, false, false),
        };
        out[base + phase] = 1.0;
        out[base + 3] = f32::from(u8::from(to_act));
        out[base + 4] = f32::from(u8::from(leads));
        out
    }
}
