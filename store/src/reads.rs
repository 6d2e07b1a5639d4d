//! What the public read rpcs and the web pages read of a hosted ladder: plain structs the
//! [`Store`](crate::Store)'s read methods return, each computed by one indexed query (no read
//! walks a ladder's whole history but the leaderboard's aggregates, which group by bot).

use crate::{BotId, StoredRating};

/// A bot's conduct in a ladder: its failures by kind (`ladder_failures`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BotHealth {
    /// Matches its connection died in (or it never came to).
    pub crashes: u64,
    /// Matches it forfeited (out of strikes).
    pub forfeits: u64,
    /// Illegal or malformed answers.
    pub illegal: u64,
    /// Decisions that ran out of time.
    pub timeouts: u64,
}

/// One bot's line of a ladder's leaderboard, unranked (the reader ranks by rating).
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderboardLine {
    /// The bot.
    pub bot: BotId,
    /// Its registered name.
    pub name: String,
    /// Its rating after the last set rated.
    pub rating: StoredRating,
    /// Its sets rated (provisional while fewer than the ladder's `provisional_sets`).
    pub sets_rated: u32,
    /// Why it is paused, while it is.
    pub paused_reason: Option<String>,
    /// Its matches done.
    pub matches: u64,
    /// Those it finished first in (a shared first place counts).
    pub wins: u64,
    /// Its failures.
    pub health: BotHealth,
}

/// A bot against one opponent in a ladder, over the matches both played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadToHead {
    /// The opponent.
    pub opponent: BotId,
    /// Its registered name.
    pub name: String,
    /// Matches in which the bot placed ahead of it.
    pub wins: u64,
    /// In the same place.
    pub ties: u64,
    /// Behind it.
    pub losses: u64,
}

/// A version a bot played a ladder's matches with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderVersion {
    /// The version it reported.
    pub version: String,
    /// When its first match with it finished, in milliseconds since the Unix epoch.
    pub first_ms: i64,
    /// When its last match with it finished.
    pub last_ms: i64,
    /// Its matches done with it.
    pub matches: u64,
}

/// Migration 10, the same in both dialects: each bot's done matches, wins and failures by kind
/// in a ladder, kept on its `ladder_bots` row (counted from the stored matches once, then
/// added to by each match's result in its transaction), so that a leaderboard reads a row a
/// bot, not every seat the ladder ever played (it did: 262 ms at 100,000 matches, once a match
/// ended, for every page and `GetLeaderboard`).
pub(crate) const LEADERBOARD_COUNTS: &str = concat!(
    "
    ALTER TABLE ladder_bots ADD COLUMN matches_done BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE ladder_bots ADD COLUMN wins BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE ladder_bots ADD COLUMN crashes BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE ladder_bots ADD COLUMN forfeits BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE ladder_bots ADD COLUMN illegal BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE ladder_bots ADD COLUMN timeouts BIGINT NOT NULL DEFAULT 0;",
    count_stored!()
);

/// The counts of migration 10, counted from the stored matches and failures (a macro, so that
/// [`LEADERBOARD_COUNTS`] is one constant and the tests can count again).
macro_rules! count_stored {
    () => {
        "
    UPDATE ladder_bots SET
        matches_done = (SELECT COUNT(*) FROM ladder_match_seats s
            JOIN ladder_matches m ON m.id = s.match_id
            WHERE s.bot_id = ladder_bots.bot_id AND m.ladder_id = ladder_bots.ladder_id
                AND m.state = 'done'),
        wins = (SELECT COUNT(*) FROM ladder_match_seats s
            JOIN ladder_matches m ON m.id = s.match_id
            WHERE s.bot_id = ladder_bots.bot_id AND m.ladder_id = ladder_bots.ladder_id
                AND m.state = 'done' AND s.place = 1),
        crashes = (SELECT COUNT(*) FROM ladder_failures f WHERE f.ladder_id = ladder_bots.ladder_id
            AND f.bot_id = ladder_bots.bot_id AND f.kind = 'crash'),
        forfeits = (SELECT COUNT(*) FROM ladder_failures f WHERE f.ladder_id = ladder_bots.ladder_id
            AND f.bot_id = ladder_bots.bot_id AND f.kind = 'forfeit'),
        illegal = (SELECT COUNT(*) FROM ladder_failures f WHERE f.ladder_id = ladder_bots.ladder_id
            AND f.bot_id = ladder_bots.bot_id AND f.kind = 'illegal'),
        timeouts = (SELECT COUNT(*) FROM ladder_failures f WHERE f.ladder_id = ladder_bots.ladder_id
            AND f.bot_id = ladder_bots.bot_id AND f.kind = 'timeout');"
    };
}
use count_stored;

/// The counts of migration 10 counted again from the stored matches: an `UPDATE` of every
/// `ladder_bots` row, in both dialects (the tests compare them with those kept).
pub(crate) const COUNT_STORED: &str = count_stored!();

/// The column of `ladder_bots` that counts failures of `kind`.
pub(crate) fn failure_column(kind: crate::FailureKind) -> &'static str {
    match kind {
        crate::FailureKind::Crash => "crashes",
        crate::FailureKind::Forfeit => "forfeits",
        crate::FailureKind::Illegal => "illegal",
        crate::FailureKind::Timeout => "timeouts",
    }
}

impl BotHealth {
    /// Adds `count` failures of `kind`.
    pub fn add(&mut self, kind: crate::FailureKind, count: u64) {
        let slot = match kind {
            crate::FailureKind::Crash => &mut self.crashes,
            crate::FailureKind::Forfeit => &mut self.forfeits,
            crate::FailureKind::Illegal => &mut self.illegal,
            crate::FailureKind::Timeout => &mut self.timeouts,
        };
        *slot += count;
    }
}
