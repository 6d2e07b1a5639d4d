//! Hold'em's side of the bindings: its actions as the SDK's values, its errors as exceptions,
//! its action ids and observation tensor, and what [`Engine`] needs.

use cardroom_games::holdem::{self, Action, MAX_SEATS, Street};
use cardroom_games::{Card, Seat};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use crate::catalogue::AnyState;
use crate::errors::{self, PyErrors};
use crate::features::{Features, mark};
use crate::sdk::{PyActions, Sdk, action_class};
use crate::state::Engine;

/// The SDK's Hold'em action classes, and the actions without a variable part built once.
struct HoldemClasses {
    fold: Py<PyAny>,
    check: Py<PyAny>,
    call: Py<PyAny>,
    raise_to: Py<PyAny>,
    /// `Fold()`, `Check()`, `Call()`.
    units: [Py<PyAny>; 3],
}

static CLASSES: PyOnceLock<HoldemClasses> = PyOnceLock::new();

fn classes(py: Python<'_>) -> PyResult<&'static HoldemClasses> {
    CLASSES.get_or_try_init(py, || {
        let (fold, check, call) =
            (action_class(py, "Fold")?, action_class(py, "Check")?, action_class(py, "Call")?);
        let unit = |class: &Py<PyAny>| class.bind(py).call0().map(Bound::unbind);
        let units = [unit(&fold)?, unit(&check)?, unit(&call)?];
        Ok(HoldemClasses { fold, check, call, raise_to: action_class(py, "RaiseTo")?, units })
    })
}

impl PyActions for holdem::State {
    fn action_to_py<'py>(
        _sdk: &Sdk,
        py: Python<'py>,
        action: &Action,
    ) -> PyResult<Bound<'py, PyAny>> {
        let classes = classes(py)?;
        match action {
            Action::Fold => Ok(classes.units[0].bind(py).clone()),
            Action::Check => Ok(classes.units[1].bind(py).clone()),
            Action::Call => Ok(classes.units[2].bind(py).clone()),
            Action::RaiseTo(to) => classes.raise_to.bind(py).call1((*to,)),
        }
    }

    fn action_from_py(_sdk: &Sdk, object: &Bound<'_, PyAny>) -> PyResult<Action> {
        let classes = classes(object.py())?;
        let class = object.get_type();
        if class.is(&classes.fold) {
            Ok(Action::Fold)
        } else if class.is(&classes.check) {
            Ok(Action::Check)
        } else if class.is(&classes.call) {
            Ok(Action::Call)
        } else if class.is(&classes.raise_to) {
            let amount: i64 = object.getattr("amount")?.extract()?;
            u32::try_from(amount).map(Action::RaiseTo).map_err(|_| {
                errors::action_type(format!(
                    "a raise to {amount} chips: chips are 0 to {}",
                    u32::MAX
                ))
            })
        } else {
            Err(errors::action_type(format!("not a Hold'em action: {}", object.repr()?)))
        }
    }
}

impl PyErrors for holdem::State {
    fn setup_error(error: &holdem::SetupError) -> PyErr {
        let class = match error {
            holdem::SetupError::Options(_) => "OptionsError",
            _ => "SetupError",
        };
        errors::raise(class, error.to_string(), None)
    }

    fn create_error(error: &holdem::SetupError) -> PyErr {
        Self::setup_error(error)
    }
}

impl Engine for holdem::State {
    const MATCH_OVER_RULE: &'static str = "HE-17";
    fn wrap(self) -> AnyState {
        AnyState::Holdem(self)
    }
    fn hand_cards(&self, seat: Seat) -> Vec<Card> {
        self.hole_cards(seat).to_vec()
    }
    /// Each seat's chips.
    fn scores(&self) -> Vec<u32> {
        self.betting().seats.iter().map(|chips| chips.stack).collect()
    }
    fn deal_number(&self) -> u32 {
        self.hand_number()
    }
}

/// The action ids: fold, check or call, then five raise sizes, as RLCard's no-limit Hold'em
/// abstracts them (with the smallest raise added).
const IDS: usize = 7;

impl Features for holdem::State {
    const NUM_IDS: usize = IDS;
    const TENSOR_LEN: usize = 52 + 52 + 4 * MAX_SEATS as usize + 2 * MAX_SEATS as usize + 4 + 1;

    /// 0 fold; 1 check or call; 2 the smallest raise; 3 half the pot; 4 the pot; 5 twice the
    /// pot; 6 all in. A size the rules do not allow takes the nearest legal one, so several
    /// ids may name one raise; the ids of raises are present only when a raise is legal.
    fn action_ids(&self, legal: &[Action]) -> Vec<(usize, usize)> {
        let mut out = Vec::with_capacity(IDS);
        for (index, action) in legal.iter().enumerate() {
            match action {
                Action::Fold => out.push((0, index)),
                Action::Check | Action::Call => out.push((1, index)),
                Action::RaiseTo(_) => {}
            }
        }
        let first_raise = legal.iter().position(|a| matches!(a, Action::RaiseTo(_)));
        let (Some(first), Some(Action::RaiseTo(max))) = (first_raise, legal.last()) else {
            return out;
        };
        let Action::RaiseTo(min) = legal[first] else { return out };
        let view = self.public_view();
        let (pot, bet) = (view.pot(), view.betting.bet);
        for (id, to) in
            [(2, min), (3, bet + pot / 2), (4, bet + pot), (5, bet + 2 * pot), (6, *max)]
        {
            let to = to.clamp(min, *max);
            // The legal raises are every size from `min` to `max`, in order.
            let index = first + (to - min) as usize;
            if legal.get(index) == Some(&Action::RaiseTo(to)) {
                out.push((id, index));
            }
        }
        out
    }

    /// Own hole cards, the board (52 each); per seat (10) chips behind, bet on this round and
    /// chips put in this hand, each over the table's chips, and whether it is in the hand;
    /// `seat` one-hot (10), the button one-hot (10); the round (preflop, flop, turn, river);
    /// whether `seat` is to act.
    fn tensor(&self, seat: Seat) -> Vec<f32> {
        let mut out = vec![0.0; Self::TENSOR_LEN];
        let observation = self.observation(seat);
        let public = &observation.public;
        mark(&mut out, 0, observation.hole_cards.iter().copied(), 1.0);
        mark(&mut out, 52, public.board.iter().copied(), 1.0);
        let seats = usize::from(MAX_SEATS);
        let chips: u32 = public.betting.seats.iter().map(|s| s.stack + s.committed).sum();
        let scale = chips.max(1) as f32;
        for (i, s) in public.betting.seats.iter().take(seats).enumerate() {
            out[104 + i] = s.stack as f32 / scale;
            out[104 + seats + i] = s.bet as f32 / scale;
            out[104 + 2 * seats + i] = s.committed as f32 / scale;
            out[104 + 3 * seats + i] = f32::from(u8::from(s.status.in_hand()));
        }
        let base = 104 + 4 * seats;
        if let Some(slot) = out.get_mut(base + seat.index()) {
            *slot = 1.0;
        }
        if let Some(slot) = out.get_mut(base + seats + public.button.index()) {
            *slot = 1.0;
        }
        let round = match public.betting.street {
            Street::Preflop => 0,
            Street::Flop => 1,
            Street::Turn => 2,
            Street::River => 3,
        };
        out[base + 2 * seats + round] = 1.0;
        out[base + 2 * seats + 4] = f32::from(u8::from(public.betting.to_act == Some(seat)));
        out
    }
}
