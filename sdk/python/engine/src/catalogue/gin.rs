//! Gin Rummy's side of the bindings: its actions as the SDK's values, its errors as
//! exceptions, its action ids and observation tensor, and what [`Engine`] needs. The solver's
//! functions are in `gin_solver.rs`.

use cardroom_games::gin::solver::ArrangementError;
use cardroom_games::gin::{self, Arrangement, CardSet, Phase};
use cardroom_games::{Card, Seat};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyTuple;

use crate::catalogue::AnyState;
use crate::errors::{self, PyErrors};
use crate::features::{Features, mark};
use crate::sdk::{PyActions, Sdk, action_class};
use crate::state::Engine;

/// The SDK's Gin Rummy action classes, and the actions without a variable part built once
/// (frozen dataclasses, equal by value).
struct GinClasses {
    take_upcard: Py<PyAny>,
    pass_upcard: Py<PyAny>,
    draw_stock: Py<PyAny>,
    draw_discard: Py<PyAny>,
    discard: Py<PyAny>,
    knock: Py<PyAny>,
    gin: Py<PyAny>,
    big_gin: Py<PyAny>,
    /// `TakeUpcard()`, `PassUpcard()`, `DrawStock()`, `DrawDiscard()`, `BigGin()`.
    units: [Py<PyAny>; 5],
    /// `discards[i]` is `Discard(card i)`.
    discards: Vec<Py<PyAny>>,
    /// `gins[i]` is `Gin(card i)`.
    gins: Vec<Py<PyAny>>,
}

static CLASSES: PyOnceLock<GinClasses> = PyOnceLock::new();

fn classes<'a>(py: Python<'_>, sdk: &Sdk) -> PyResult<&'a GinClasses> {
    CLASSES.get_or_try_init(py, || {
        let class = |name: &str| action_class(py, name);
        let (discard, gin) = (class("Discard")?, class("Gin")?);
        let each_card = |class: &Py<PyAny>| {
            sdk.cards()
                .iter()
                .map(|card| class.bind(py).call1((card.clone_ref(py),)).map(Bound::unbind))
                .collect::<PyResult<Vec<_>>>()
        };
        let (discards, gins) = (each_card(&discard)?, each_card(&gin)?);
        let take_upcard = class("TakeUpcard")?;
        let pass_upcard = class("PassUpcard")?;
        let draw_stock = class("DrawStock")?;
        let draw_discard = class("DrawDiscard")?;
        let big_gin = class("BigGin")?;
        let unit = |class: &Py<PyAny>| class.bind(py).call0().map(Bound::unbind);
        let units = [
            unit(&take_upcard)?,
            unit(&pass_upcard)?,
            unit(&draw_stock)?,
            unit(&draw_discard)?,
            unit(&big_gin)?,
        ];
        Ok(GinClasses {
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
    })
}

/// An arrangement as the SDK's melds: a tuple of `Hand`s.
pub(crate) fn melds_to_py<'py>(
    sdk: &Sdk,
    py: Python<'py>,
    arrangement: &Arrangement,
) -> PyResult<Bound<'py, PyTuple>> {
    let melds = arrangement.melds().map(|meld| sdk.hand(py, meld)).collect::<PyResult<Vec<_>>>()?;
    PyTuple::new(py, melds)
}

/// `IllegalActionError` for a knock whose melds are no arrangement (GR-2).
fn illegal_melds(error: &ArrangementError) -> PyErr {
    errors::raise("IllegalActionError", error.to_string(), Some("GR-2"))
}

impl PyActions for gin::State {
    fn action_to_py<'py>(
        sdk: &Sdk,
        py: Python<'py>,
        action: &gin::Action,
    ) -> PyResult<Bound<'py, PyAny>> {
        let classes = classes(py, sdk)?;
        let shared = |object: &Py<PyAny>| Ok(object.bind(py).clone());
        match action {
            gin::Action::TakeUpcard => shared(&classes.units[0]),
            gin::Action::PassUpcard => shared(&classes.units[1]),
            gin::Action::DrawStock => shared(&classes.units[2]),
            gin::Action::DrawDiscard => shared(&classes.units[3]),
            gin::Action::BigGin => shared(&classes.units[4]),
            gin::Action::Discard(card) => shared(&classes.discards[usize::from(card.index())]),
            gin::Action::Gin { discard } => shared(&classes.gins[usize::from(discard.index())]),
            gin::Action::Knock { discard, melds } => {
                classes.knock.bind(py).call1((sdk.card(py, *discard), melds_to_py(sdk, py, melds)?))
            }
        }
    }

    fn action_from_py(sdk: &Sdk, object: &Bound<'_, PyAny>) -> PyResult<gin::Action> {
        let classes = classes(object.py(), sdk)?;
        let class = object.get_type();
        if class.is(&classes.take_upcard) {
            Ok(gin::Action::TakeUpcard)
        } else if class.is(&classes.pass_upcard) {
            Ok(gin::Action::PassUpcard)
        } else if class.is(&classes.draw_stock) {
            Ok(gin::Action::DrawStock)
        } else if class.is(&classes.draw_discard) {
            Ok(gin::Action::DrawDiscard)
        } else if class.is(&classes.big_gin) {
            Ok(gin::Action::BigGin)
        } else if class.is(&classes.discard) {
            Ok(gin::Action::Discard(sdk.card_from(&object.getattr("card")?)?))
        } else if class.is(&classes.gin) {
            Ok(gin::Action::Gin { discard: sdk.card_from(&object.getattr("discard")?)? })
        } else if class.is(&classes.knock) {
            let discard = sdk.card_from(&object.getattr("discard")?)?;
            let melds = object
                .getattr("melds")?
                .try_iter()?
                .map(|meld| Ok(sdk.cards_from(&meld?)?.into_iter().collect::<CardSet>()))
                .collect::<PyResult<Vec<CardSet>>>()?;
            let melds = Arrangement::new(&melds).map_err(|e| illegal_melds(&e))?;
            Ok(gin::Action::Knock { discard, melds })
        } else {
            Err(errors::action_type(format!("not a Gin Rummy action: {}", object.repr()?)))
        }
    }
}

impl PyErrors for gin::State {
    fn setup_error(error: &gin::SetupError) -> PyErr {
        let class = match error {
            gin::SetupError::Options(_) => "OptionsError",
            _ => "SetupError",
        };
        errors::raise(class, error.to_string(), None)
    }

    fn create_error(error: &gin::SetupError) -> PyErr {
        Self::setup_error(error)
    }
}

impl Engine for gin::State {
    const MATCH_OVER_RULE: &'static str = "GR-13";
    fn wrap(self) -> AnyState {
        AnyState::Gin(self)
    }
    fn hand_cards(&self, seat: Seat) -> Vec<Card> {
        self.hand(seat).to_vec()
    }
    fn scores(&self) -> Vec<u32> {
        gin::State::scores(self).to_vec()
    }
    fn deal_number(&self) -> u32 {
        self.hand_number()
    }
}

const GIN_DISCARD: usize = 4;
const GIN_KNOCK: usize = 56;
const GIN_GIN: usize = 108;
const GIN_BIG_GIN: usize = 160;

impl Features for gin::State {
    const NUM_IDS: usize = 161;
    const TENSOR_LEN: usize = 52 * 5 + 5 + 5;

    fn action_ids(&self, legal: &[gin::Action]) -> Vec<(usize, usize)> {
        let hand = self.to_act().map(|seat| self.hand(seat)).unwrap_or_default();
        let mut ids: Vec<(usize, usize)> = Vec::with_capacity(legal.len());
        // The least deadwood seen for each knock discard, to keep the best arrangement.
        let mut knock_deadwood = [u32::MAX; 52];
        for (index, action) in legal.iter().enumerate() {
            let id = match action {
                gin::Action::TakeUpcard => 0,
                gin::Action::PassUpcard => 1,
                gin::Action::DrawStock => 2,
                gin::Action::DrawDiscard => 3,
                gin::Action::Discard(card) => GIN_DISCARD + usize::from(card.index()),
                gin::Action::Gin { discard } => GIN_GIN + usize::from(discard.index()),
                gin::Action::BigGin => GIN_BIG_GIN,
                gin::Action::Knock { discard, melds } => {
                    let slot = usize::from(discard.index());
                    let deadwood = (hand - CardSet::single(*discard) - melds.cards()).value();
                    if deadwood >= knock_deadwood[slot] {
                        continue;
                    }
                    knock_deadwood[slot] = deadwood;
                    if let Some(entry) = ids.iter_mut().find(|(id, _)| *id == GIN_KNOCK + slot) {
                        entry.1 = index;
                        continue;
                    }
                    GIN_KNOCK + slot
                }
            };
            ids.push((id, index));
        }
        ids
    }

    /// Own hand, the opponent's known cards, the discard pile, the upcard, the card just
    /// drawn (52 each); the phase (first upcard, draw, discard, wall, over); whether `seat` is
    /// to act, the stock's size / 52, both scores / target (own first), the knock limit / 10.
    fn tensor(&self, seat: Seat) -> Vec<f32> {
        let mut out = vec![0.0; Self::TENSOR_LEN];
        let me = usize::from(seat.0.min(1));
        let public = self.public_view();
        mark(&mut out, 0, self.hand(seat), 1.0);
        mark(&mut out, 52, public.known_cards[1 - me], 1.0);
        mark(&mut out, 104, public.discard_pile.iter().map(|pile| pile.card), 1.0);
        mark(&mut out, 156, public.discard_pile.last().map(|pile| pile.card), 1.0);
        let drawn = self.observation(seat).drawn;
        mark(&mut out, 208, drawn, 1.0);
        let phase = match public.phase {
            Phase::FirstUpcard { .. } => 0,
            Phase::Draw { .. } => 1,
            Phase::Discard { .. } => 2,
            Phase::Wall { .. } => 3,
            Phase::MatchOver => 4,
        };
        out[260 + phase] = 1.0;
        out[265] = f32::from(u8::from(public.to_act == Some(seat)));
        out[266] = public.stock_size as f32 / 52.0;
        let target = public.options.target.max(1) as f32;
        out[267] = (public.scores[me] as f32 / target).min(1.0);
        out[268] = (public.scores[1 - me] as f32 / target).min(1.0);
        out[269] = f32::from(public.knock_limit) / 10.0;
        out
    }
}
