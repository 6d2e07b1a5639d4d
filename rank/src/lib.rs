//! The ranking maths of cardroom's ladders: who plays whom, how a result moves the ratings,
//! and when an order is settled. Pure computation, as `cardroom-games` is for rules: no
//! tokio, no store, no network. The hosted ladders (`cardroom-arena`) and the pages
//! (`cardroom-web`) call it.
//!
//! Card games are noisy, so the job is a trustworthy ranking in as few matches as possible.
//! The pieces, each usable alone:
//!
//! - [`schedule`]: who plays whom (round robin, gauntlet, Swiss, the continuous ladder that
//!   pairs the bots whose order is least certain).
//! - [`duplicate`]: each table plays one deal several times with the bots rotated through the
//!   seats, so that the luck of the cards cancels.
//! - [`rating`]: Weng-Lin for Twenty-Two's multi-player standings, Glicko-2 for Gin Rummy,
//!   updated once per duplicate set from its paired result.
//! - [`sprt`]: a head-to-head test that stops itself once decided.
//! - [`pairwise`]: head-to-head evidence per pair of bots (the pentanomial model, a control
//!   variate, an anytime-valid test) and the rank intervals it gives.
//! - [`orders`]: the order test, a confidence set over the orders of a small field.
//! - [`power`]: simulated ladders that count the matches each ranking method needs.
//! - [`settle`]: whether a ladder's order is settled and which table to play next (the best
//!   method of [`power`]).
//! - [`fair`]: the next table when bots play at different speeds: a share for every bot, the
//!   open pairs first, no settled pair to fill the time.
//! - [`stats`]: win rates, average place, head-to-head, health.
//!
//! ```
//! use cardroom_rank::{PairedResult, RatingSystem, Ratings, duplicate, schedule};
//!
//! // Three bots, two seats: three tables, each played in both seatings.
//! let tables = schedule::round_robin(3, 2);
//! assert_eq!(tables.len(), 3);
//! assert_eq!(duplicate::rotations(2, None), vec![vec![0, 1], vec![1, 0]]);
//!
//! // Bot 0 won both seatings against bot 1.
//! let mut ratings = Ratings::new(RatingSystem::Glicko2, 3);
//! ratings.update(&PairedResult { places: vec![(0, 1.0), (1, 2.0)] }).unwrap();
//! assert!(ratings.all()[0].mean > ratings.all()[1].mean);
//! ```

pub mod duplicate;
pub mod fair;
pub mod orders;
pub mod pairwise;
pub mod power;
pub mod rating;
pub mod schedule;
pub mod settle;
pub mod sprt;
pub mod stats;

pub use rating::{PairedResult, Rating, RatingChange, RatingError, RatingSystem, Ratings};
pub use settle::{SetEvidence, Settlement};
pub use sprt::{Sprt, SprtConfig, SprtDecision};
pub use stats::{BotStats, HeadToHead, MatchOutcome, SeatHealth, Stats, ThinkTimes};
