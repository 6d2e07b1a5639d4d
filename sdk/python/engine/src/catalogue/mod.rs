//! The games the bindings have: [`AnyState`] (a match of any game, with [`dispatch!`] to reach
//! its state), [`visit`] (code written once over [`Engine`] run for a game chosen at run time),
//! [`replay`] and [`register`]. Each game's conversions live in its own module; the rest is
//! written from the catalogue's list of games (`cardroom_games::for_each_game!` and
//! `with_game!`), so a new game adds its module here and the compiler asks for its [`Engine`].

mod gin;
mod gin_solver;
mod holdem;
mod twenty_two;

use cardroom_games::{AnyRecord, GameKind, Record};
use pyo3::prelude::*;

use crate::state::Engine;

/// [`AnyState`], [`dispatch!`] and [`replay`], from the catalogue's list. `$d` is a `$` for the
/// macro written inside this one.
macro_rules! any_state {
    (($d:tt) $($Kind:ident => $Engine:ty,)*) => {
        /// A match of any game of the catalogue.
        #[derive(Clone, Debug)]
        pub(crate) enum AnyState {
            $(
                #[doc = concat!("A match of `GameKind::", stringify!($Kind), "`.")]
                $Kind($Engine),
            )*
        }

        /// Runs `$body` with `$s` bound to the state of whichever game `$state` holds.
        macro_rules! dispatch {
            ($d state:expr, $d s:ident => $d body:expr) => {
                match $d state {
                    $($crate::catalogue::AnyState::$Kind($d s) => $d body,)*
                }
            };
        }
        pub(crate) use dispatch;

        /// The final state of `record`, replayed by its game's engine; the error says which
        /// action is illegal and why.
        pub(crate) fn replay(record: AnyRecord) -> Result<AnyState, String> {
            fn replayed<G: Engine>(record: Record<G>) -> Result<AnyState, String> {
                record.replay().map(Engine::wrap).map_err(|error| error.to_string())
            }
            match record {
                $(AnyRecord::$Kind(record) => replayed(record),)*
            }
        }
    };
}
cardroom_games::for_each_game!(any_state!($));

/// Code written once over [`Engine`], run by [`visit`] for a game chosen at run time.
pub(crate) trait EngineVisitor {
    /// What the visit gives back.
    type Output;
    /// The visit, with `G` the chosen game's engine.
    fn visit<G: Engine>(self) -> Self::Output;
}

/// Runs `visitor` with the engine of `game`.
pub(crate) fn visit<V: EngineVisitor>(game: GameKind, visitor: V) -> V::Output {
    cardroom_games::with_game!(game, G => visitor.visit::<G>())
}

/// Adds what a game has beyond the shared `State` API (the Gin solver's functions) to the
/// module.
pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    gin_solver::register(module)
}
