//! Where the pages read their data: the read-only [`Source`] trait and the plain structs it
//! returns.
//!
//! The pages know nothing of SQLite or gRPC. [`StoreSource`](crate::StoreSource) implements
//! the trait over the server's store (the ladders) and [`ServerSource`](crate::ServerSource)
//! over a running server's public rpcs (its matches). Every method is a read: nothing a page
//! does changes a ladder or a match.
//!
//! A bot is named in a page's address by its name, unique within its ladder. It also has a
//! number (its account id in the store): the key of the addresses before they took names,
//! which [`Source::bot_name`] turns into its name.
//!
//! What a source returns must already be fit to show anyone: a running match is only its
//! public view, and hands appear only in a finished match's record.

use std::future::Future;

use futures::stream::BoxStream;

/// Why a source could not answer. A missing ladder, bot or match is not an error but `None`
/// (the page answers 404).
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// A ladder could not be read from the store.
    #[error("ladder {ladder}: {message}")]
    Ladder {
        /// The ladder's id.
        ladder: String,
        /// What failed.
        message: String,
    },
    /// The game server did not answer.
    #[error("the game server: {0}")]
    Server(String),
    /// A page's cursor is not one the source gave.
    #[error("{0}")]
    BadCursor(String),
    /// The source holds no game server to ask.
    #[error("no game server is configured for these pages")]
    NoServer,
    /// The store could not answer (the accounts: an author, a join).
    #[error("the store: {0}")]
    Store(String),
}

/// One ladder in the list of ladders.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderInfo {
    /// Its id in URLs.
    pub id: String,
    /// The game's title (`Twenty-Two`, `Gin Rummy`), or `?` before its first match.
    pub game: String,
    /// The format, in words (`round robin, 2 rounds`, `SPRT a vs b`).
    pub format: String,
    /// Seats per table.
    pub seats: u8,
    /// The rating system's name.
    pub rating: String,
    /// Bots in the ladder.
    pub bots: usize,
    /// Matches finished.
    pub matches_done: u64,
    /// Matches planned so far.
    pub matches_planned: u64,
    /// Its clock, in words (`500 ms a move and a bank of 1000 ms a seat`).
    pub clock: String,
}

/// A bot's conduct, summed over matches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Health {
    /// Choices refused as illegal.
    pub illegal: u32,
    /// Decisions that ran out of time.
    pub timeouts: u32,
    /// Matches in which it crashed.
    pub crashes: u32,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderRow {
    /// Its rank, from 1.
    pub rank: usize,
    /// The bot's number: its account id in the store (the key of its page's old address,
    /// [`Source::bot_name`]).
    pub bot: String,
    /// The bot's name, as it calls itself (escaped when shown).
    pub name: String,
    /// Rating mean.
    pub rating: f64,
    /// Rating uncertainty (one standard deviation).
    pub sigma: f64,
    /// The ranks it may hold with 95% confidence, best and worst; `None` for a bot the
    /// ladder's standings leave out (a finals ladder's late entrant, or a bot that entered
    /// after the last standings snapshot).
    pub rank_interval: Option<(usize, usize)>,
    /// Matches played.
    pub matches: u32,
    /// Share of matches won.
    pub win_rate: f64,
    /// Its conduct.
    pub health: Health,
    /// Why it is not scheduled, while it is paused in a hosted ladder (its matches kept
    /// failing, its operator said, or a finals ladder refused it as a late entrant).
    pub paused: Option<String>,
}

/// A sequential probability ratio test's state.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtState {
    /// The bot tested for being stronger.
    pub a: String,
    /// Its opponent.
    pub b: String,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The bound at which H0 is accepted.
    pub lower: f64,
    /// The bound at which H1 is accepted.
    pub upper: f64,
    /// Samples (duplicate sets) so far.
    pub samples: u32,
    /// The decision in words (`undecided`, `H0 accepted`, `H1 accepted`).
    pub decision: String,
}

/// A ladder's leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaderboard {
    /// The ladder.
    pub ladder: LadderInfo,
    /// Best first.
    pub rows: Vec<LeaderRow>,
    /// `better[i][j]`: how likely row `i`'s bot is stronger than row `j`'s (the diagonal is ½).
    pub better: Vec<Vec<f64>>,
    /// The SPRT, for a ladder of that format.
    pub sprt: Option<SprtState>,
    /// Its matches running on the game server now, each watched live.
    pub running: Vec<ListedMatch>,
}

/// A rating at one point of a bot's history.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingAt {
    /// Which rated set (in the ladder's order) it followed; 0 is the initial rating.
    pub step: u64,
    /// Rating mean.
    pub rating: f64,
    /// Its uncertainty.
    pub sigma: f64,
}

/// One match as a bot's page lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchLine {
    /// The match's id in URLs.
    pub id: String,
    /// When it finished.
    pub finished_at: String,
    /// The bot's place (1 is first).
    pub place: u8,
    /// Seats at the table.
    pub seats: usize,
    /// The other bots at the table: number and name.
    pub opponents: Vec<(String, String)>,
}

/// A bucket of a think-time histogram.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThinkBucket {
    /// Lower edge, microseconds.
    pub from_us: f64,
    /// Upper edge, microseconds.
    pub to_us: f64,
    /// Decisions in the bucket.
    pub count: u64,
}

/// One opponent in a bot's head-to-head table.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadToHeadLine {
    /// The opponent's number.
    pub bot: String,
    /// Its name.
    pub name: String,
    /// Matches in which the bot placed ahead.
    pub wins: u32,
    /// Same place.
    pub ties: u32,
    /// Behind.
    pub losses: u32,
}

/// A version of a bot, with the matches it played.
#[derive(Clone, Debug, PartialEq)]
pub struct VersionLine {
    /// The tag or hash it reported.
    pub version: String,
    /// When it was first seen.
    pub first_seen: String,
    /// Matches it played.
    pub matches: u64,
}

/// A version's think times, as a bot's page lists them.
#[derive(Clone, Debug, PartialEq)]
pub struct VersionThinkLine {
    /// The tag or hash it reported.
    pub version: String,
    /// Matches it played with it (of those the think times cover).
    pub matches: u64,
    /// Decisions timed.
    pub decisions: u64,
    /// Mean think time, microseconds.
    pub mean_us: f64,
    /// Median and 99th percentile (bucket edges: within a factor of two), microseconds.
    pub p50_us: f64,
    /// See `p50_us`.
    pub p99_us: f64,
    /// The slowest decision, microseconds.
    pub max_us: f64,
}

/// Which page of a list to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageRequest {
    /// Lines skipped.
    pub offset: u64,
    /// At most this many lines.
    pub limit: u64,
    /// The cursor of the page: the last line's [`MatchLine::id`] of the page before, from a
    /// link the page drew. A source that pages by cursor starts after it rather than skipping
    /// `offset` lines; one that does not ignores it.
    pub before: Option<String>,
}

/// A bot's page.
#[derive(Clone, Debug, PartialEq)]
pub struct BotPage {
    /// The ladder it plays in.
    pub ladder: LadderInfo,
    /// Its number.
    pub bot: String,
    /// Its name.
    pub name: String,
    /// The author who owns it, if an author does (the organizer's bots have none).
    pub owner: Option<String>,
    /// Its leaderboard line.
    pub row: LeaderRow,
    /// Its rating after each rated set, the initial rating first.
    pub history: Vec<RatingAt>,
    /// Its versions, oldest first; empty when the source records none.
    pub versions: Vec<VersionLine>,
    /// The requested page of its matches, newest first.
    pub matches: Vec<MatchLine>,
    /// Its matches in all.
    pub match_count: u64,
    /// Its think times.
    pub think: Vec<ThinkBucket>,
    /// Median and 99th-percentile think time, microseconds.
    pub think_quantiles: Option<(f64, f64)>,
    /// Its think times per version, the latest version first; empty when the source keeps
    /// none per version.
    pub think_by_version: Vec<VersionThinkLine>,
    /// How the think times were gathered, in words (`its last 200 matches`), if not over
    /// every match.
    pub think_window: Option<String>,
    /// Against each other bot.
    pub head_to_head: Vec<HeadToHeadLine>,
}

/// An author's page.
#[derive(Clone, Debug, PartialEq)]
pub struct AuthorPage {
    /// Their name.
    pub name: String,
    /// When they joined, in words.
    pub joined: String,
    /// Their bots, by name.
    pub bots: Vec<AuthorBot>,
}

/// A bot of an author's.
#[derive(Clone, Debug, PartialEq)]
pub struct AuthorBot {
    /// Its name.
    pub name: String,
    /// `active` or `retired`.
    pub status: String,
    /// When it was registered, in words.
    pub registered: String,
    /// The version it last joined with (its submission's SHA-256 for a hosted bot), if any.
    pub latest_version: Option<String>,
    /// How many versions it is known by.
    pub versions: u64,
}

/// What the join form's code and name came to.
#[derive(Clone, Debug, PartialEq)]
pub enum AuthorJoin {
    /// An author made: their token, shown this once.
    Joined {
        /// The author's name.
        author: String,
        /// Their token.
        token: String,
    },
    /// Refused, saying why; `credential` when the code was at fault (counted by the throttle).
    Refused {
        /// Why.
        why: String,
        /// Whether the code was the fault.
        credential: bool,
    },
}

/// One failure of a bot, for its author.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// The match's id.
    pub match_id: String,
    /// What went wrong (the rule broken, the timeout, the crash).
    pub error: String,
    /// The bot's answer, if it gave one.
    pub answer: Option<String>,
    /// The observation it had (JSON).
    pub observation: String,
    /// What a hosted bot wrote in that match (stdout and stderr), while kept.
    pub output: Option<String>,
}

/// What a bot's author may read of its failures.
#[derive(Clone, Debug, PartialEq)]
pub enum Failures {
    /// The key is not this bot's.
    WrongKey,
    /// The failures, newest first.
    Shown(Vec<Failure>),
}

/// A finished match with its record, from a ladder or from the server.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedMatch {
    /// Its id in URLs.
    pub id: String,
    /// The ladder it belongs to, if any.
    pub ladder: Option<String>,
    /// Per seat: the bot's number (if it has a page) and name.
    pub seats: Vec<(Option<String>, String)>,
    /// When it finished, if known.
    pub finished_at: Option<String>,
    /// The record, as `cardroom replay` reads it; `None` if the ladder kept none.
    pub record_json: Option<String>,
}

/// A seat of a match running on the server.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveSeat {
    /// The bot's name.
    pub name: String,
    /// Whether its connection is up.
    pub connected: bool,
    /// Timeouts so far.
    pub strikes: u32,
}

/// A match on the server, as `GetMatch` tells it.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveMatch {
    /// Its id.
    pub id: String,
    /// The game's title.
    pub game: String,
    /// The game, when the pages know it: its table is drawn from the public view.
    pub kind: Option<cardroom_games::GameKind>,
    /// The seats.
    pub seats: Vec<LiveSeat>,
    /// Whether it is over (then its record may be read).
    pub over: bool,
    /// The node of the server's store that hosts it, when that is not the server asked (its
    /// answer named the node in `cardroom-node` metadata): a hosted ladder match on many nodes.
    pub host: Option<String>,
}

/// One seat of a match in the server's list of matches.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedSeat {
    /// The name its bot gave when it joined (empty while nobody has).
    pub name: String,
    /// Whether a bot is connected to it.
    pub connected: bool,
    /// Its place once the match is over (1 is first).
    pub place: Option<u8>,
}

/// A match in the server's list of matches (`ListMatches`): who plays, never what they hold.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedMatch {
    /// Its id.
    pub id: String,
    /// The game's title.
    pub game: String,
    /// The seats, in order.
    pub seats: Vec<ListedSeat>,
    /// When it was created, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// How it ended, in words, once it has.
    pub end: Option<String>,
    /// The node of the server's store that hosts (or hosted) it, when that is not the server
    /// asked (`MatchSummary.host`): a hosted ladder match on many nodes.
    pub host: Option<String>,
}

/// Which of the server's matches to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchState {
    /// Running now, newest first.
    Running,
    /// Over and still remembered by the server, latest ended first.
    Finished,
}

/// A page of the server's matches.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchList {
    /// The matches, newest first.
    pub matches: Vec<ListedMatch>,
    /// The cursor of the next page, if there is one (opaque: pass it back as `before`).
    pub next: Option<String>,
}

/// One message of a running match's public stream (`Watch`).
#[derive(Clone, Debug, PartialEq)]
pub struct WatchUpdate {
    /// The public events since the last update.
    pub events: Vec<WatchEvent>,
    /// The public view now (the engine's JSON), if sent.
    pub public_json: Option<String>,
    /// How it ended, once it has: each seat's place, or why it was aborted.
    pub end: Option<String>,
}

/// A public event of a running match.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchEvent {
    /// A sentence for people, such as `seat 2 plays 7♠ 7♦`.
    pub text: String,
    /// The event in the engine's JSON form, from which its line is drawn.
    pub json: String,
}

/// The server's figures (`GetStats`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ServerStats {
    /// Time since the server started, milliseconds.
    pub uptime_ms: u64,
    /// Matches running.
    pub matches_running: u64,
    /// Matches finished since the start.
    pub matches_finished: u64,
    /// Bot connections open.
    pub connections_open: u64,
    /// Decisions made since the start.
    pub decisions: u64,
    /// Median decision round trip, microseconds.
    pub decision_p50_us: u64,
    /// 99th-percentile decision round trip, microseconds.
    pub decision_p99_us: u64,
}

impl ServerStats {
    /// Decisions per second, averaged since the start.
    pub fn decisions_per_second(&self) -> f64 {
        if self.uptime_ms == 0 {
            0.0
        } else {
            self.decisions as f64 * 1000.0 / self.uptime_ms as f64
        }
    }
}

/// The pages' data, read-only.
///
/// Methods return `Ok(None)` for a ladder, bot or match that does not exist. A bot is asked
/// for by its name, unique within its ladder; its number (its account id: what bots'
/// addresses held before they held names) gives its name through [`Source::bot_name`].
pub trait Source: Send + Sync + 'static {
    /// Every ladder.
    fn ladders(&self) -> impl Future<Output = Result<Vec<LadderInfo>, SourceError>> + Send;

    /// A ladder's leaderboard.
    fn leaderboard(
        &self,
        ladder: &str,
    ) -> impl Future<Output = Result<Option<Leaderboard>, SourceError>> + Send;

    /// A number that changes when the ladder's leaderboard may have (a match finished, a set
    /// was rated): the live page redraws when it moves.
    fn ladder_revision(
        &self,
        ladder: &str,
    ) -> impl Future<Output = Result<Option<u64>, SourceError>> + Send;

    /// The page of the bot named `name`, with the requested page of its matches.
    fn bot(
        &self,
        ladder: &str,
        name: &str,
        matches: PageRequest,
    ) -> impl Future<Output = Result<Option<BotPage>, SourceError>> + Send;

    /// The name of the bot numbered `number` in `ladder` (the key of its page's old address).
    /// By default none: a source whose bots were never addressed by number need not say.
    fn bot_name(
        &self,
        ladder: &str,
        number: u64,
    ) -> impl Future<Output = Result<Option<String>, SourceError>> + Send {
        let _ = (ladder, number);
        std::future::ready(Ok(None))
    }

    /// The seasons, oldest first. By default none: a source without a store.
    fn seasons(
        &self,
    ) -> impl Future<Output = Result<Vec<cardroom_store::Season>, SourceError>> + Send {
        std::future::ready(Ok(Vec::new()))
    }

    /// A season's newest `limit` public events, oldest first. By default none.
    fn season_events(
        &self,
        season: cardroom_store::SeasonId,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<cardroom_store::SeasonEvent>, SourceError>> + Send {
        let _ = (season, limit);
        std::future::ready(Ok(Vec::new()))
    }

    /// The author named `name` and their bots. By default none: a source without accounts.
    fn author(
        &self,
        name: &str,
    ) -> impl Future<Output = Result<Option<AuthorPage>, SourceError>> + Send {
        let _ = name;
        std::future::ready(Ok(None))
    }

    /// The author whose token is `token`, if any. By default none.
    fn author_by_token(
        &self,
        token: &str,
    ) -> impl Future<Output = Result<Option<cardroom_store::Author>, SourceError>> + Send {
        let _ = token;
        std::future::ready(Ok(None))
    }

    /// Redeems an invite `code` for a new author `name`. By default refused: a source without
    /// accounts takes no authors.
    fn join_author(
        &self,
        code: &str,
        name: &str,
    ) -> impl Future<Output = Result<AuthorJoin, SourceError>> + Send {
        let _ = (code, name);
        let why = "this server keeps no accounts: it takes no authors".to_owned();
        std::future::ready(Ok(AuthorJoin::Refused { why, credential: false }))
    }

    /// A running ladder's table as a person from the pages would sit at it: its game, options,
    /// active bots, and whether it seats people rated. By default none: a source without
    /// ladders.
    fn people_table(
        &self,
        ladder: &str,
    ) -> impl Future<Output = Result<Option<crate::PeopleTable>, SourceError>> + Send {
        let _ = ladder;
        std::future::ready(Ok(None))
    }

    /// The failures of the bot named `name`, for the holder of its key.
    fn failures(
        &self,
        ladder: &str,
        name: &str,
        key: &str,
    ) -> impl Future<Output = Result<Failures, SourceError>> + Send;

    /// A finished match of a ladder.
    fn ladder_match(
        &self,
        ladder: &str,
        id: &str,
    ) -> impl Future<Output = Result<Option<FinishedMatch>, SourceError>> + Send;

    /// The game server's figures; `Err(NoServer)` without a server.
    fn server_stats(&self) -> impl Future<Output = Result<ServerStats, SourceError>> + Send;

    /// A page of the server's matches (`ListMatches`): at most `limit`, after the cursor
    /// `before` (a [`MatchList::next`]). A cursor the server does not know is
    /// [`SourceError::BadCursor`].
    fn server_matches(
        &self,
        state: MatchState,
        before: Option<&str>,
        limit: u64,
    ) -> impl Future<Output = Result<MatchList, SourceError>> + Send;

    /// A match on the server (`GetMatch`).
    fn live_match(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<LiveMatch>, SourceError>> + Send;

    /// A finished server match with its record (`GetRecord`); `None` while it runs or if the
    /// server does not know it.
    fn server_match(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<FinishedMatch>, SourceError>> + Send;

    /// A running match's public stream (`Watch`): only what spectators may see.
    fn watch(
        &self,
        id: &str,
    ) -> impl Future<
        Output = Result<BoxStream<'static, Result<WatchUpdate, SourceError>>, SourceError>,
    > + Send;
}
