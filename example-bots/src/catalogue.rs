//! The games this crate has bots for: [`ExampleGame`], what the binaries need of a game beyond
//! the search ([`Searchable`]), and [`visit`], which runs code written once over it for a game
//! chosen at run time, as [`GameKind::visit`] does for the engines.
//!
//! Each game implements [`ExampleGame`] next to its [`Searchable`] implementation
//! (`search::tt_search`, [`crate::search::gin_search`]); a new game adds its implementation
//! and one line to [`visit`].

use cardroom_games::{GameKind, gin, twenty_two};
use cardroom_sdk::{AnyBot, Bot};

use crate::search::Searchable;

/// A game with example bots: its heuristic, and how the networked runner takes its bots.
pub trait ExampleGame: Searchable {
    /// The heuristic's name, as its binary and the measurement tables call it
    /// (`tt-heuristic`).
    const HEURISTIC: &'static str;

    /// The game's heuristic bot, for a seed (a heuristic that needs none ignores it).
    fn heuristic(seed: u64) -> Box<dyn Bot<Self>>;

    /// `bot` as the networked runner ([`cardroom_sdk::play_any`]) takes it.
    fn into_any(bot: Box<dyn Bot<Self>>) -> AnyBot;
}

/// Generic code run for a game chosen at run time: [`visit`] calls [`ExampleVisitor::visit`]
/// with that game's engine.
pub trait ExampleVisitor {
    /// What the visit gives back.
    type Output;
    /// The visit, with `G` the chosen game's engine.
    fn visit<G: ExampleGame>(self) -> Self::Output;
}

/// Runs `visitor` with the engine of `game`: the one place that lists which engine each game of
/// the catalogue is (a new game adds its arm here, and the compiler asks for it).
pub fn visit<V: ExampleVisitor>(game: GameKind, visitor: V) -> V::Output {
    match game {
        GameKind::TwentyTwo => visitor.visit::<twenty_two::State>(),
        GameKind::Gin => visitor.visit::<gin::State>(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_of_the_catalogue_has_example_bots() {
        struct Kind;
        impl ExampleVisitor for Kind {
            type Output = GameKind;
            fn visit<G: ExampleGame>(self) -> GameKind {
                G::KIND
            }
        }
        for game in GameKind::ALL {
            assert_eq!(visit(game, Kind), game);
        }
    }
}
