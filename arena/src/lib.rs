//! The arena: bot-vs-bot ladders for cardroom. The ranking maths they run on (schedules,
//! duplicate seatings, ratings, the pairwise and order tests, settlement, SPRT) is
//! `cardroom-rank`; this crate runs ladders with it:
//!
//! - [`config`]: the ladder file (TOML) that `cardroom arena run` reads, checked before
//!   anything is made.
//! - [`hosted`]: ladders the server runs by itself among the registered bots in its lobby
//!   (`cardroom serve --ladder`).
//! - [`import`]: a ladder file of the old batch arena imported once into the store, as a
//!   paused hosted ladder with its bots and finished sets ([`import_arena_file`]).
//! - [`ladder`] runs a ladder in process; [`net`] plays its matches on a cardroom server, with
//!   in-process bots over gRPC and external bot programs; [`store`] keeps it in a SQLite file;
//!   [`leaderboard`] reads its standings.

pub mod config;
pub mod hosted;
pub mod import;
pub mod ladder;
pub mod leaderboard;
pub mod net;
pub mod store;

pub use config::{BotEntry, BotSource, LadderFile, Transport};
pub use import::{ImportError, Imported, import_arena_file};
pub use ladder::{
    ArenaError, BotMaker, Format, Ladder, MatchMaker, MatchPlayer, Progress, Settings, Summary,
    run, run_with,
};
pub use leaderboard::{Leaderboard, Row};
pub use net::{AnyBotMaker, ExternalBot, NetBot, NetPlayer};
pub use store::{
    FinishedMatch, PendingMatch, PlannedMatch, RatingPoint, Store, StoreError, StoredSet,
};
