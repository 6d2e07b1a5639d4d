//! The games the bindings have, and the one place that lists them: [`AnyState`] (a match of
//! any game, with [`dispatch!`] to reach its state), [`visit`] (code written once over
//! [`Engine`] run for a game chosen at run time), [`replay`] and [`register`]. Each game's
//! conversions live in its own module; a new game adds its module, its variant and its arms
//! here, and the compiler asks for every one.

mod gin;
mod gin_solver;
mod twenty_two;

use cardroom_games::{AnyRecord, GameKind, Record};
use pyo3::prelude::*;

use crate::state::Engine;

/// A match of either game.
#[derive(Clone, Debug)]
pub(crate) enum AnyState {
    /// Twenty-Two.
    TwentyTwo(cardroom_games::twenty_two::State),
    /// Gin Rummy.
    Gin(cardroom_games::gin::State),
}

/// Runs `$body` with `$s` bound to the state of whichever game `$state` holds.
macro_rules! dispatch {
    ($state:expr, $s:ident => $body:expr) => {
        match $state {
            $crate::catalogue::AnyState::TwentyTwo($s) => $body,
            $crate::catalogue::AnyState::Gin($s) => $body,
        }
    };
}
pub(crate) use dispatch;

/// Code written once over [`Engine`], run by [`visit`] for a game chosen at run time.
pub(crate) trait EngineVisitor {
    /// What the visit gives back.
    type Output;
    /// The visit, with `G` the chosen game's engine.
    fn visit<G: Engine>(self) -> Self::Output;
}

/// Runs `visitor` with the engine of `game`.
pub(crate) fn visit<V: EngineVisitor>(game: GameKind, visitor: V) -> V::Output {
    match game {
        GameKind::TwentyTwo => visitor.visit::<cardroom_games::twenty_two::State>(),
        GameKind::Gin => visitor.visit::<cardroom_games::gin::State>(),
    }
}

/// The final state of `record`, replayed by its game's engine; the error says which action is
/// illegal and why.
pub(crate) fn replay(record: AnyRecord) -> Result<AnyState, String> {
    fn replayed<G: Engine>(record: Record<G>) -> Result<AnyState, String> {
        record.replay().map(Engine::wrap).map_err(|error| error.to_string())
    }
    match record {
        AnyRecord::TwentyTwo(record) => replayed(record),
        AnyRecord::Gin(record) => replayed(record),
    }
}

/// Adds what a game has beyond the shared `State` API (the Gin solver's functions) to the
/// module.
pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    gin_solver::register(module)
}
