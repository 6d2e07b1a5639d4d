//! The arena: bot-vs-bot ladders for cardroom, all hosted ladders on the one store. The ranking
//! maths they run on (schedules, duplicate seatings, ratings, the pairwise and order tests,
//! settlement, SPRT) is `cardroom-rank`; this crate runs ladders with it:
//!
//! - [`hosted`]: the ladders a server runs by itself among the registered bots in its lobby
//!   (`cardroom serve --ladder`, and `cardroom arena run` on a server in process).
//! - [`config`]: the ladder file (TOML) that `cardroom arena run` reads, checked before
//!   anything is made, and the hosted ladder it makes.
//! - [`import`]: a ladder file of the old batch arena (its own SQLite schema) imported once
//!   into the store, as a paused hosted ladder with its bots and finished sets
//!   ([`import_arena_file`]).

pub mod config;
pub mod hosted;
pub mod import;
pub mod runner;

pub use config::{BotEntry, BotSource, ConfigError, Format, LadderFile};
pub use import::{ImportError, Imported, import_arena_file};
