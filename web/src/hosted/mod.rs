//! [`StoreSource`]: the pages' data from the server's store, where the hosted ladders live
//! (`cardroom serve --store`, `cardroom demo`), with the running server of a [`ServerSource`]
//! beside them for its matches.
//!
//! A hosted ladder's id in URLs is its name (ladder names are kept to letters, digits, `.`, `_`
//! and `-`), a bot's its account name (unique in the store), a bot's number its account id, a
//! match's id its ladder match id. A ladder id the store does not know is a 404.
//!
//! The leaderboard is computed once per revision of its ladder and kept (see
//! [`cache`]): a page asks the store for the revision (three small reads)
//! and rebuilds only when a match finished or a set was rated since.

mod cache;
mod standings;

use std::collections::HashMap;
use std::sync::Arc;

use cardroom_games::GameKind;
use cardroom_store::{
    AccountError, Accounts, AuthError, Author, BotId, BotStatus, Ladder, LadderMatch,
    LadderMatchId, LadderStatus, MatchState, Store, StoreError, THINK_BUCKETS, ThinkSummary,
    VersionThink,
};
use futures::stream::BoxStream;

use crate::server::ServerSource;
use crate::source::{
    AuthorBot, AuthorJoin, AuthorPage, BotPage, Failure, Failures, FinishedMatch, HeadToHeadLine,
    LadderInfo, Leaderboard, LiveMatch, MatchLine, MatchList, PageRequest, RatingAt, ServerStats,
    Source, SourceError, ThinkBucket, VersionLine, VersionThinkLine, WatchUpdate,
};
use crate::time::utc_time;
use cache::{BoardCache, BotCache, BotParts};

/// Failures shown to a bot's author at most (the latest).
const FAILURES_SHOWN: u32 = 50;

/// A bot's latest matches its think-time histogram covers at most: a bounded read (one
/// indexed range of `ladder_think_times`) however long the bot has played, and the bot as it
/// plays now rather than its whole history.
const THINK_MATCHES: u32 = 200;

/// The hosted ladders of a store, and the matches of a [`ServerSource`] if it has one.
#[derive(Debug)]
pub struct StoreSource {
    accounts: Accounts,
    server: Option<ServerSource>,
    boards: BoardCache,
    bots: BotCache,
}

fn store_error(ladder: &str) -> impl Fn(StoreError) -> SourceError + '_ {
    move |error| SourceError::Ladder { ladder: ladder.to_owned(), message: error.to_string() }
}

impl StoreSource {
    /// The hosted ladders of `accounts`' store (the accounts check a bot's key before its
    /// failures are shown, as the server's `ListFailures` does), with no game server: the
    /// server's pages are 404s until [`StoreSource::with_server`].
    pub fn new(accounts: Accounts) -> StoreSource {
        StoreSource {
            accounts,
            server: None,
            boards: BoardCache::default(),
            bots: BotCache::default(),
        }
    }

    /// This source with the game server `server` beside the store: its running matches (a
    /// ladder's among them), its figures and its matches' pages.
    pub fn with_server(self, server: ServerSource) -> StoreSource {
        StoreSource { server: Some(server), ..self }
    }

    fn store(&self) -> &dyn Store {
        self.accounts.store().as_ref()
    }

    fn server(&self) -> Result<&ServerSource, SourceError> {
        self.server.as_ref().ok_or(SourceError::NoServer)
    }

    /// The hosted ladder named `id`, if the store has one.
    async fn hosted(&self, id: &str) -> Result<Option<Ladder>, SourceError> {
        self.store().ladder(id).await.map_err(store_error(id))
    }

    /// The hosted ladder's leaderboard, from the cache when its revision has not moved.
    async fn board(&self, ladder: &Ladder) -> Result<Arc<cache::Board>, SourceError> {
        self.boards.get(self.store(), ladder).await.map_err(store_error(&ladder.spec.name))
    }

    /// A ladder match of `ladder`, with its ladder's bots' names.
    async fn ladder_match_of(
        &self,
        ladder: &Ladder,
        id: &str,
    ) -> Result<Option<LadderMatch>, SourceError> {
        let Ok(id) = id.parse::<i64>() else { return Ok(None) };
        let found = self
            .store()
            .ladder_match(LadderMatchId(id))
            .await
            .map_err(store_error(&ladder.spec.name))?;
        Ok(found.filter(|m| m.ladder == ladder.id))
    }

    async fn hosted_bot(
        &self,
        ladder: &Ladder,
        name: &str,
        page: PageRequest,
    ) -> Result<Option<BotPage>, SourceError> {
        let board = self.board(ladder).await?;
        let Some(id) = board.bot_named(name) else { return Ok(None) };
        let Some(row) = board.board.rows.iter().find(|r| r.name == name).cloned() else {
            return Ok(None);
        };
        let parts = self.bot_parts(ladder, id, name, board.revision_key()).await?;
        let matches = self.bot_matches(ladder, &board.names, id, page).await?;
        let mut all = ThinkSummary::default();
        for v in &parts.think {
            all.merge(&v.think);
        }
        let think_matches: u64 = parts.think.iter().map(|v| v.matches).sum();
        Ok(Some(BotPage {
            ladder: board.board.ladder.clone(),
            bot: id.0.to_string(),
            name: row.name.clone(),
            owner: parts.owner.clone(),
            match_count: u64::from(row.matches),
            row,
            history: parts.history.clone(),
            versions: parts.versions.clone(),
            matches,
            think: think_buckets(&all),
            think_quantiles: all
                .quantile_us(0.5)
                .zip(all.quantile_us(0.99))
                .map(|(p50, p99)| (p50 as f64, p99 as f64)),
            think_by_version: parts.think.iter().filter_map(version_think).collect(),
            think_window: (think_matches > 0)
                .then(|| format!("its last {think_matches} matches with timed decisions")),
            head_to_head: parts.head_to_head.clone(),
        }))
    }

    /// What a bot's page shows besides its matches (its rating history, versions, think times
    /// and head-to-head: aggregates over all its matches), read once per revision of its ladder
    /// and kept: pages asking for the same bot at the same revision share one read.
    async fn bot_parts(
        &self,
        ladder: &Ladder,
        id: BotId,
        bot: &str,
        revision: u64,
    ) -> Result<Arc<BotParts>, SourceError> {
        if let Some(kept) = self.bots.get(ladder.id, id, revision) {
            return Ok(kept);
        }
        let name = &ladder.spec.name;
        let store = self.store();
        let changes = store.bot_rating_history(ladder.id, id).await.map_err(store_error(name))?;
        let history = changes
            .first()
            .map(|first| RatingAt {
                step: 0,
                rating: first.update.before.mean,
                sigma: first.update.before.sigma,
            })
            .into_iter()
            .chain(changes.iter().map(|c| RatingAt {
                step: c.seq,
                rating: c.update.after.mean,
                sigma: c.update.after.sigma,
            }))
            .collect();
        let versions = store
            .bot_ladder_versions(ladder.id, id)
            .await
            .map_err(store_error(name))?
            .into_iter()
            .map(|v| VersionLine {
                version: v.version,
                first_seen: utc_time(v.first_ms),
                matches: v.matches,
            })
            .collect();
        let think =
            store.bot_think_times(ladder.id, id, THINK_MATCHES).await.map_err(store_error(name))?;
        let head_to_head = store
            .head_to_head(ladder.id, id)
            .await
            .map_err(store_error(name))?
            .into_iter()
            .map(|h| HeadToHeadLine {
                bot: h.opponent.0.to_string(),
                name: h.name,
                wins: saturate(h.wins),
                ties: saturate(h.ties),
                losses: saturate(h.losses),
            })
            .collect();
        let credential = store.bot_credential(bot).await.map_err(store_error(name))?;
        let owner = credential.and_then(|credential| credential.account.author);
        let parts = Arc::new(BotParts { owner, history, versions, think, head_to_head });
        self.bots.put(ladder.id, id, revision, Arc::clone(&parts));
        Ok(parts)
    }

    /// The page `page` of `bot`'s done matches, newest first. The store pages by the last id
    /// of the page before (`page.before`, which the page's links carry): one indexed range
    /// read. A page asked for by number alone (a URL typed by hand) reads the pages before it
    /// to find that id.
    async fn bot_matches(
        &self,
        ladder: &Ladder,
        names: &HashMap<BotId, String>,
        bot: BotId,
        page: PageRequest,
    ) -> Result<Vec<MatchLine>, SourceError> {
        let name = &ladder.spec.name;
        let store = self.store();
        let limit = u32::try_from(page.limit).unwrap_or(u32::MAX);
        let mut before = match &page.before {
            Some(cursor) => Some(LadderMatchId(cursor.parse::<i64>().map_err(|_| {
                SourceError::BadCursor(format!(
                    "the matches' cursor {cursor:?} is not a match id (follow the page's links)"
                ))
            })?)),
            None => None,
        };
        let mut skip = if before.is_some() { 0 } else { page.offset };
        while skip > 0 {
            let step = u32::try_from(skip).unwrap_or(u32::MAX).min(1_000);
            let skipped =
                store.bot_matches(ladder.id, bot, before, step).await.map_err(store_error(name))?;
            let Some(last) = skipped.last() else { return Ok(Vec::new()) };
            before = Some(last.id);
            skip -= skipped.len() as u64;
            if skipped.len() < step as usize {
                return Ok(Vec::new());
            }
        }
        let found =
            store.bot_matches(ladder.id, bot, before, limit).await.map_err(store_error(name))?;
        Ok(found
            .into_iter()
            .map(|m| MatchLine {
                id: m.id.0.to_string(),
                finished_at: m.finished_ms.map(utc_time).unwrap_or_default(),
                place: m.seats.iter().find(|s| s.bot == bot).and_then(|s| s.place).unwrap_or(0),
                seats: m.seats.len(),
                opponents: m
                    .seats
                    .iter()
                    .filter(|s| s.bot != bot)
                    .map(|s| (s.bot.0.to_string(), name_of(names, s.bot)))
                    .collect(),
            })
            .collect())
    }
}

impl StoreSource {
    /// The server's running matches of `ladder`'s game whose every seat is one of its bots
    /// (the server's match list names no ladder). Read anew for every page, outside the
    /// cache: a match starts without the ladder's revision moving. Empty without a server or
    /// when it does not answer (the leaderboard shows regardless).
    async fn running(
        &self,
        ladder: &LadderInfo,
        names: &HashMap<BotId, String>,
    ) -> Vec<crate::source::ListedMatch> {
        let Ok(server) = self.server() else { return Vec::new() };
        let listed = server.server_matches(crate::source::MatchState::Running, None, 100);
        match listed.await {
            Ok(list) => {
                list.matches.into_iter().filter(|m| plays_in(m, &ladder.game, names)).collect()
            }
            Err(error) => {
                tracing::warn!(ladder = %ladder.id, %error, "the running matches are not shown");
                Vec::new()
            }
        }
    }
}

/// Whether the server's match `m` is one of a ladder of `game` among the bots `names`: its
/// game, and every seat taken by one of them.
fn plays_in(m: &crate::source::ListedMatch, game: &str, names: &HashMap<BotId, String>) -> bool {
    m.game == game && m.seats.iter().all(|s| names.values().any(|n| *n == s.name))
}

/// A store's think-time summary as the histogram's buckets, from its fastest non-empty bucket
/// to its slowest (the open last bucket ends at the slowest decision).
fn think_buckets(think: &ThinkSummary) -> Vec<ThinkBucket> {
    let first = think.buckets.iter().position(|&n| n > 0);
    let last = think.buckets.iter().rposition(|&n| n > 0);
    let (Some(first), Some(last)) = (first, last) else { return Vec::new() };
    (first..=last)
        .map(|i| {
            let (from, to) = ThinkSummary::edges_us(i);
            let to = if i + 1 == THINK_BUCKETS { think.max_us.max(from) + 1 } else { to };
            ThinkBucket { from_us: from as f64, to_us: to as f64, count: think.buckets[i] }
        })
        .collect()
}

/// A version's line of the think-time table; `None` if it timed no decision.
fn version_think(v: &VersionThink) -> Option<VersionThinkLine> {
    let t = &v.think;
    Some(VersionThinkLine {
        version: v.version.clone(),
        matches: v.matches,
        decisions: t.count,
        mean_us: t.mean_us()?,
        p50_us: t.quantile_us(0.5)? as f64,
        p99_us: t.quantile_us(0.99)? as f64,
        max_us: t.max_us as f64,
    })
}

/// A count for a page's `u32` column.
fn saturate(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A bot's registered name, or its id if it left the ladder's list.
fn name_of(names: &HashMap<BotId, String>, bot: BotId) -> String {
    names.get(&bot).cloned().unwrap_or_else(|| format!("bot {}", bot.0))
}

/// The ladder's line in the list of ladders, from its bots and its counts of matches.
fn ladder_info(ladder: &Ladder, bots: usize, done: u64, planned: u64) -> LadderInfo {
    let game = ladder
        .spec
        .game
        .parse::<GameKind>()
        .map_or_else(|_| ladder.spec.game.clone(), |g| g.title().to_owned());
    LadderInfo {
        id: ladder.spec.name.clone(),
        game,
        format: format!("hosted duplicate sets, {}", ladder.status),
        seats: ladder.spec.table_seats,
        rating: ladder.spec.rating.clone(),
        bots,
        matches_done: done,
        matches_planned: planned,
        clock: clock_of(ladder),
    }
}

/// A hosted ladder's clock, from its file: what its bots' `Joined.clock` says too.
fn clock_of(ladder: &Ladder) -> String {
    let file = cardroom_arena::hosted::HostedLadderFile::parse(&ladder.spec.config);
    let (move_ms, bank_ms) = file.map_or((0, 0), |file| (file.move_ms, file.bank_ms));
    let per_move = match move_ms {
        0 => "the server's time a move".to_owned(),
        ms => format!("{ms} ms a move"),
    };
    let bank = match bank_ms {
        0 => "the server's bank".to_owned(),
        ms => format!("a bank of {ms} ms"),
    };
    format!("{per_move} and {bank} a seat")
}

impl Source for StoreSource {
    async fn people_table(&self, ladder: &str) -> Result<Option<crate::PeopleTable>, SourceError> {
        let Some(hosted) = self.hosted(ladder).await? else { return Ok(None) };
        let file = cardroom_arena::hosted::HostedLadderFile::parse(&hosted.spec.config);
        let (LadderStatus::Running, Ok(file)) = (hosted.status, file) else { return Ok(None) };
        // Its entrants that are not paused, the leaderboard's order first.
        let entrants = self.store().ladder_bots(hosted.id).await.map_err(store_error(ladder))?;
        let board = self.board(&hosted).await?;
        let rank = |name: &str| board.board.rows.iter().position(|r| r.name == name);
        let mut bots: Vec<(usize, String)> = entrants
            .into_iter()
            .filter(|e| e.paused_reason.is_none())
            .map(|e| (rank(&e.name).unwrap_or(usize::MAX), e.name))
            .collect();
        bots.sort();
        Ok(Some(crate::PeopleTable {
            game: file.game,
            options_json: file.options_json(),
            seats: file.seats,
            max_bad_replies: file.max_bad_replies,
            bots: bots.into_iter().map(|(_, name)| name).collect(),
            people: file.people,
        }))
    }

    async fn ladders(&self) -> Result<Vec<LadderInfo>, SourceError> {
        let hosted = self.store().ladders().await.map_err(store_error("(all)"))?;
        let mut out = Vec::with_capacity(hosted.len());
        for ladder in &hosted {
            out.push(self.board(ladder).await?.board.ladder.clone());
        }
        Ok(out)
    }

    async fn leaderboard(&self, ladder: &str) -> Result<Option<Leaderboard>, SourceError> {
        let Some(hosted) = self.hosted(ladder).await? else { return Ok(None) };
        let kept = self.board(&hosted).await?;
        let mut board = kept.board.clone();
        board.running = self.running(&board.ladder, &kept.names).await;
        Ok(Some(board))
    }

    async fn ladder_revision(&self, ladder: &str) -> Result<Option<u64>, SourceError> {
        let Some(hosted) = self.hosted(ladder).await? else { return Ok(None) };
        let revision = cache::revision(self.store(), &hosted).await;
        revision.map(|r| Some(r.key())).map_err(store_error(ladder))
    }

    async fn bot(
        &self,
        ladder: &str,
        name: &str,
        matches: PageRequest,
    ) -> Result<Option<BotPage>, SourceError> {
        match self.hosted(ladder).await? {
            Some(hosted) => self.hosted_bot(&hosted, name, matches).await,
            None => Ok(None),
        }
    }

    async fn bot_name(&self, ladder: &str, number: u64) -> Result<Option<String>, SourceError> {
        let Some(hosted) = self.hosted(ladder).await? else { return Ok(None) };
        let Ok(id) = i64::try_from(number) else { return Ok(None) };
        Ok(self.board(&hosted).await?.names.get(&BotId(id)).cloned())
    }

    async fn author(&self, name: &str) -> Result<Option<AuthorPage>, SourceError> {
        let store_error = |error: StoreError| SourceError::Store(error.to_string());
        let Some((author, bots)) = self.store().author(name).await.map_err(store_error)? else {
            return Ok(None);
        };
        let mut listed = Vec::with_capacity(bots.len());
        for bot in bots {
            let versions = self.store().bot_versions(&bot.name).await.map_err(store_error)?;
            let latest = versions.kept.iter().max_by_key(|v| v.last_seen_ms);
            listed.push(AuthorBot {
                latest_version: latest.map(|v| v.version.clone()),
                versions: versions.kept.len() as u64 + versions.forgotten,
                name: bot.name,
                status: match bot.status {
                    BotStatus::Active => "active",
                    BotStatus::Revoked => "retired",
                }
                .to_owned(),
                registered: utc_time(bot.created_ms),
            });
        }
        Ok(Some(AuthorPage {
            name: author.name,
            joined: utc_time(author.created_ms),
            bots: listed,
        }))
    }

    async fn seasons(&self) -> Result<Vec<cardroom_store::Season>, SourceError> {
        self.store().seasons().await.map_err(|error| SourceError::Store(error.to_string()))
    }

    async fn season_events(
        &self,
        season: cardroom_store::SeasonId,
        limit: u32,
    ) -> Result<Vec<cardroom_store::SeasonEvent>, SourceError> {
        let newest = cardroom_store::EventsFrom::Newest;
        let events = self.store().season_events(season, newest, None, limit).await;
        events.map_err(|error| SourceError::Store(error.to_string()))
    }

    async fn author_by_token(&self, token: &str) -> Result<Option<Author>, SourceError> {
        let found = self.accounts.author_by_token(token).await;
        found.map_err(|error| SourceError::Store(error.to_string()))
    }

    async fn join_author(&self, code: &str, name: &str) -> Result<AuthorJoin, SourceError> {
        match self.accounts.join(code, name).await {
            Ok(issued) => Ok(AuthorJoin::Joined {
                author: issued.author.name,
                token: issued.token.expose().to_owned(),
            }),
            Err(AccountError::Store(StoreError::Invite(refusal))) => {
                Ok(AuthorJoin::Refused { why: refusal.to_string(), credential: true })
            }
            Err(AccountError::Store(error @ StoreError::AuthorNameTaken(_)))
            | Err(AccountError::Store(error @ StoreError::Corrupt(_))) => {
                Ok(AuthorJoin::Refused { why: error.to_string(), credential: false })
            }
            Err(error @ AccountError::BadName { .. }) => {
                Ok(AuthorJoin::Refused { why: error.to_string(), credential: false })
            }
            Err(error) => Err(SourceError::Store(error.to_string())),
        }
    }

    async fn failures(&self, ladder: &str, name: &str, key: &str) -> Result<Failures, SourceError> {
        let Some(hosted) = self.hosted(ladder).await? else { return Ok(Failures::WrongKey) };
        let board = self.board(&hosted).await?;
        let Some(id) = board.bot_named(name) else {
            return Ok(Failures::WrongKey);
        };
        // The server's own check (`ListFailures`): the bot's active key, nobody else's.
        match self.accounts.authenticate(name, Some(key), true).await {
            Ok(Some(account)) if account.id == id => {}
            Ok(_) => return Ok(Failures::WrongKey),
            Err(AuthError::Store(error)) => return Err(store_error(ladder)(error)),
            Err(_) => return Ok(Failures::WrongKey),
        }
        let rows = self
            .store()
            .failures(hosted.id, id, FAILURES_SHOWN)
            .await
            .map_err(store_error(ladder))?;
        Ok(Failures::Shown(
            rows.into_iter()
                .map(|row| Failure {
                    match_id: row.match_id.0.to_string(),
                    error: format!("{}: {}", row.failure.kind, row.failure.error),
                    answer: row.failure.answer,
                    observation: row
                        .failure
                        .observation_json
                        .unwrap_or_else(|| "(none: the failure was not at a decision)".to_owned()),
                    output: row.output,
                })
                .collect(),
        ))
    }

    async fn ladder_match(
        &self,
        ladder: &str,
        id: &str,
    ) -> Result<Option<FinishedMatch>, SourceError> {
        let Some(hosted) = self.hosted(ladder).await? else { return Ok(None) };
        let Some(m) = self.ladder_match_of(&hosted, id).await? else { return Ok(None) };
        if m.state != MatchState::Done {
            return Ok(None);
        }
        let board = self.board(&hosted).await?;
        let record_json = self.store().ladder_record(m.id).await.map_err(store_error(ladder))?;
        Ok(Some(FinishedMatch {
            id: m.id.0.to_string(),
            ladder: Some(hosted.spec.name.clone()),
            seats: m
                .seats
                .iter()
                .map(|s| match board.names.get(&s.bot) {
                    Some(name) => (Some(s.bot.0.to_string()), name.clone()),
                    // Not one of the ladder's bots: no page to link.
                    None => (None, name_of(&board.names, s.bot)),
                })
                .collect(),
            finished_at: m.finished_ms.map(utc_time),
            record_json,
        }))
    }

    async fn server_stats(&self) -> Result<ServerStats, SourceError> {
        self.server()?.server_stats().await
    }

    async fn server_matches(
        &self,
        state: crate::source::MatchState,
        before: Option<&str>,
        limit: u64,
    ) -> Result<MatchList, SourceError> {
        self.server()?.server_matches(state, before, limit).await
    }

    async fn live_match(&self, id: &str) -> Result<Option<LiveMatch>, SourceError> {
        self.server()?.live_match(id).await
    }

    async fn server_match(&self, id: &str) -> Result<Option<FinishedMatch>, SourceError> {
        self.server()?.server_match(id).await
    }

    async fn watch(
        &self,
        id: &str,
    ) -> Result<BoxStream<'static, Result<WatchUpdate, SourceError>>, SourceError> {
        self.server()?.watch(id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{ListedMatch, ListedSeat};

    #[test]
    fn a_running_match_is_the_ladders_when_its_game_and_every_seat_are() {
        let names: HashMap<BotId, String> =
            [(BotId(1), "a".to_owned()), (BotId(2), "b".to_owned())].into();
        let listed = |game: &str, seats: &[&str]| ListedMatch {
            id: "m".into(),
            game: game.into(),
            seats: seats
                .iter()
                .map(|&name| ListedSeat { name: name.into(), connected: true, place: None })
                .collect(),
            created_ms: 0,
            end: None,
            host: None,
        };
        assert!(plays_in(&listed("Gin Rummy", &["b", "a"]), "Gin Rummy", &names));
        assert!(!plays_in(&listed("Twenty-Two", &["b", "a"]), "Gin Rummy", &names));
        assert!(!plays_in(&listed("Gin Rummy", &["a", "stranger"]), "Gin Rummy", &names));
        // A seat nobody has taken yet is nobody's.
        assert!(!plays_in(&listed("Gin Rummy", &["a", ""]), "Gin Rummy", &names));
    }
}
