//! The games this crate has bots for: [`ExampleGame`], what the binaries need of a game beyond
//! the search ([`Searchable`]), and [`visit`], which runs code written once over it for a game
//! chosen at run time, as [`GameKind::visit`] does for the engines.
//!
//! Each game implements [`ExampleGame`] next to its [`Searchable`] implementation
//! (`search::tt_search`, [`crate::search::gin_search`]); [`visit`] reaches it through the
//! catalogue's [`cardroom_games::with_game!`], so a new game adds its implementation and
//! nothing here.

use std::sync::Arc;

use cardroom_games::GameKind;
use cardroom_sdk::{AnyBot, Bot};

use crate::random::RandomBot;
use crate::search::{SearchBot, SearchConfig, Searchable};

/// A bot of game `G` for each seed: how a ladder makes one bot per match.
pub type BotFactory<G> = Arc<dyn Fn(u64) -> Box<dyn Bot<G>> + Send + Sync>;

/// A game with example bots: its heuristic, and how the networked runner takes its bots.
pub trait ExampleGame: Searchable {
    /// The heuristic's name, as its binary and the measurement tables call it
    /// (`tt-heuristic`).
    const HEURISTIC: &'static str;

    /// The game's heuristic bot, for a seed (a heuristic that needs none ignores it).
    fn heuristic(seed: u64) -> Box<dyn Bot<Self>>;

    /// `bot` as the networked runner ([`cardroom_sdk::play_any`]) takes it.
    fn into_any(bot: Box<dyn Bot<Self>>) -> AnyBot;

    /// The names of the built-in bots, as ladder files name them: `random`, the game's
    /// heuristic and `search`.
    fn builtin_names() -> [&'static str; 3] {
        ["random", Self::HEURISTIC, "search"]
    }

    /// The built-in bot `name` ([`ExampleGame::builtin_names`]), `None` for another name. The
    /// search has its default budget (100 ms a decision).
    fn builtin(name: &str) -> Option<BotFactory<Self>> {
        Some(match name {
            "random" => Arc::new(|seed| Box::new(RandomBot::new(seed))),
            "search" => Arc::new(|seed| {
                Box::new(SearchBot::<Self>::new(SearchConfig { seed, ..SearchConfig::default() }))
            }),
            name if name == Self::HEURISTIC => Arc::new(Self::heuristic),
            _ => return None,
        })
    }
}

/// Generic code run for a game chosen at run time: [`visit`] calls [`ExampleVisitor::visit`]
/// with that game's engine.
pub trait ExampleVisitor {
    /// What the visit gives back.
    type Output;
    /// The visit, with `G` the chosen game's engine.
    fn visit<G: ExampleGame>(self) -> Self::Output;
}

/// Runs `visitor` with the engine of `game`, which the catalogue's list names
/// ([`cardroom_games::with_game!`]: a game without an [`ExampleGame`] implementation does not
/// compile).
pub fn visit<V: ExampleVisitor>(game: GameKind, visitor: V) -> V::Output {
    cardroom_games::with_game!(game, G => visitor.visit::<G>())
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

    #[test]
    fn every_builtin_name_makes_a_bot_that_plays_and_no_other_name_does() {
        struct Builtins;
        impl ExampleVisitor for Builtins {
            type Output = ();
            fn visit<G: ExampleGame>(self) {
                let options = G::Options::default();
                let players = *G::seats(&options).start();
                let state = G::new(options, players, 3).unwrap();
                let seat = state.to_act().unwrap();
                for name in G::builtin_names() {
                    let make = G::builtin(name).unwrap_or_else(|| panic!("{}: {name}", G::NAME));
                    let action = make(1).choose(&state.observation(seat));
                    assert!(state.legal_actions().contains(&action), "{}: {name}", G::NAME);
                }
                assert!(G::builtin("no-such-bot").is_none());
            }
        }
        for game in GameKind::ALL {
            visit(game, Builtins);
        }
    }
}
