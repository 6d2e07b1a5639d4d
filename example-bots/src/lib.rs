//! Example cardroom bots in Rust, built on `cardroom-sdk`. Each bot is a library type (so that
//! arenas and tests can run it in process with [`cardroom_sdk::play_local`]) and a binary that
//! plays on a server:
//!
//! - [`random::RandomBot`] (`--bin random`): any game, a uniformly random legal action.
//! - [`tt_heuristic::TtHeuristic`] (`--bin tt-heuristic`): Twenty-Two, keeps a low card for the
//!   end and sheds high cards while it can.
//! - [`gin_heuristic::GinHeuristic`] (`--bin gin-heuristic`): Gin Rummy on the exact meld
//!   solver: draws what melds, discards to cut deadwood and away from the opponent's known
//!   cards, knocks early.
//! - [`holdem_heuristic::HoldemHeuristic`] (`--bin holdem-heuristic`): Hold'em by equity
//!   against random hands and pot odds: raises for value, calls when the odds allow.
//! - [`gin_simple::SimpleGin`] (no binary): a stand-in for OpenSpiel's simple Gin Rummy bot, to
//!   tune the others in process (the real one plays through `python/openspiel_bot.py`).
//!
//! [`measure`] plays them against each other and computes win rates with Wilson intervals
//! (`--bin measure`); [`cli`] is what the binaries share, and [`catalogue`] runs code written
//! once for a game chosen at run time.
//!
//! ```
//! use cardroom_example_bots::{random::RandomBot, tt_heuristic::TtHeuristic};
//! use cardroom_sdk::{Bot, games::twenty_two::{Options, State}, play_local};
//!
//! let state = State::new(Options::default(), 3, 7).unwrap();
//! let mut bots: Vec<Box<dyn Bot<State>>> =
//!     vec![Box::new(TtHeuristic::new()), Box::new(RandomBot::new(1)), Box::new(RandomBot::new(2))];
//! let standings = play_local(state, &mut bots).unwrap();
//! assert_eq!(standings.len(), 3);
//! ```

pub mod catalogue;
pub mod cli;
pub mod diluted;
pub mod gin_heuristic;
pub mod gin_simple;
pub mod holdem_heuristic;
pub mod measure;
pub mod random;
pub mod search;
pub mod tt_heuristic;
