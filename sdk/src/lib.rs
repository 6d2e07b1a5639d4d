//! Write cardroom bots in Rust.
//!
//! A bot implements [`Bot`] for a game: it receives its seat's observation, the rules engine's
//! own type (for Twenty-Two [`twenty_two::Observation`](cardroom_games::twenty_two::Observation),
//! for Gin Rummy [`gin::Observation`](cardroom_games::gin::Observation)), whose
//! `legal_actions` are the choices, and returns one of them. No protobuf, no JSON.
//!
//! The same bot runs two ways:
//!
//! - [`play`] (or [`play_any`] for a bot of either game) connects to a cardroom server, joins
//!   with a seat token or through the queue, answers every turn, survives refused actions and
//!   dropped connections (it reconnects with back-off), and returns the match's end;
//!   [`ConnectArgs`] gives every bot binary the same flags and environment variables.
//! - [`play_local`] plays a whole match in process with no server, for arenas, tests and
//!   measurements: thousands of matches a second.
//!
//! Arenas and tournament tools organize matches with [`Organizer`]: `CreateMatch` (with an
//! explicit seed for duplicate deals), waiting for the end, seat strikes and the record.
//!
//! # An in-process match
//!
//! ```
//! use cardroom_games::twenty_two::{Options, State};
//! use cardroom_sdk::{Bot, PlayableGame, play_local};
//! use rand::{RngExt, SeedableRng};
//! use rand_chacha::ChaCha8Rng;
//!
//! /// A uniformly random legal action, for any game.
//! struct RandomBot(ChaCha8Rng);
//!
//! impl<G: PlayableGame> Bot<G> for RandomBot {
//!     fn choose(&mut self, observation: &G::Observation) -> G::Action {
//!         let legal = G::legal_actions_of(observation);
//!         legal[self.0.random_range(0..legal.len())]
//!     }
//! }
//!
//! let state = State::new(Options::default(), 2, 42).unwrap();
//! let mut bots: Vec<Box<dyn Bot<State>>> = vec![
//!     Box::new(RandomBot(ChaCha8Rng::seed_from_u64(1))),
//!     Box::new(RandomBot(ChaCha8Rng::seed_from_u64(2))),
//! ];
//! let standings = play_local(state, &mut bots).unwrap();
//! assert_eq!(standings.len(), 2);
//! assert_eq!(standings[0].place, 1);
//! ```
//!
//! # A networked bot
//!
//! A binary that plays Twenty-Two on a server, with `--server`, `--token` or `--queue-game`
//! and the rest of [`ConnectArgs`]:
//!
//! ```no_run
//! use cardroom_games::twenty_two::{Action, Observation, State};
//! use cardroom_sdk::{Bot, ConnectArgs, MatchEnd, play};
//! use clap::Parser;
//!
//! /// Always the cautious first legal action: exchange nothing, lead low, duck.
//! struct Cautious;
//!
//! impl Bot<State> for Cautious {
//!     fn choose(&mut self, observation: &Observation) -> Action {
//!         observation.legal_actions[0]
//!     }
//!
//!     fn match_end(&mut self, end: &MatchEnd) {
//!         tracing::info!(place = ?end.place(), "over");
//!     }
//! }
//!
//! #[derive(Parser)]
//! struct Cli {
//!     #[command(flatten)]
//!     connect: ConnectArgs,
//! }
//!
//! #[tokio::main]
//! async fn main() -> anyhow::Result<()> {
//!     let config = Cli::parse().connect.config("cautious")?;
//!     let played = play(&config, &mut Cautious).await?;
//!     println!("place {:?}", played.end.place());
//!     Ok(())
//! }
//! ```

mod bot;
mod config;
mod game;
mod local;
mod organizer;
mod runner;
mod text_seat;
mod tls;

pub use bot::{ActError, ActErrorCode, Bot, Clock, GameKind, MatchEnd, MatchStart};
/// The conversions between the engines and the wire, shared with the server.
pub use cardroom_proto::wire::WireGame;
pub use config::{
    Backoff, BotKey, ConfigError, ConnectArgs, ConnectConfig, DEFAULT_SERVER, JoinBy,
};
pub use game::PlayableGame;
pub use local::{LocalError, LocalReport, MAX_LOCAL_DECISIONS, play_local, play_local_report};
pub use organizer::{CreatedMatch, MatchSpec, MatchStatus, Organizer, SeatStatus};
pub use runner::{
    AnyBot, BotBuilder, BotMapper, OMIT, Played, RunError, play, play_any, play_concurrently,
};
pub use text_seat::{TEXT_OMIT, TextMoved, TextSeat, TextTurn, TextUpdate};
pub use tls::{TlsOptions, channel};

/// The engines, re-exported so that a bot needs only this crate.
pub use cardroom_games as games;
