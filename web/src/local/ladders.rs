//! The arena's ladder files as the pages see them: one SQLite file per ladder, opened
//! read-only for each request (the arena may be writing it at the same time).
//!
//! A bot is named by its name (names are distinct within a ladder), its number is its index
//! in the ladder; a match's id is its row id.

use std::path::Path;

use cardroom_arena::{Format, Settings, Store, StoreError};
use cardroom_rank::Stats;

use crate::source::{
    BotPage, FinishedMatch, HeadToHeadLine, LadderInfo, LeaderRow, Leaderboard, MatchLine,
    PageRequest, RatingAt, SprtState, ThinkBucket,
};

/// What reading a ladder file can fail with.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReadError {
    /// SQLite or its JSON.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The stored settings or SPRT.
    #[error("{0}")]
    Arena(#[from] cardroom_arena::ArenaError),
}

/// One open ladder file.
pub(crate) struct LadderFile {
    id: String,
    store: Store,
    settings: Settings,
    names: Vec<String>,
}

impl LadderFile {
    /// Opens `path` read-only; `None` if it holds no begun ladder yet.
    pub(crate) fn open(id: &str, path: &Path) -> Result<Option<LadderFile>, ReadError> {
        let store = Store::open_read_only(path)?;
        let Some(config) = store.config()? else { return Ok(None) };
        let settings: Settings = serde_json::from_str(&config).map_err(StoreError::from)?;
        let names = store.bot_names()?;
        Ok(Some(LadderFile { id: id.to_owned(), store, settings, names }))
    }

    /// The ladder's line in the list of ladders.
    pub(crate) fn info(&self) -> Result<LadderInfo, ReadError> {
        let (done, planned) = self.store.progress()?;
        let game = match self.store.finished_matches(None, 0, 1)?.first() {
            Some(m) => self
                .store
                .record(m.id)?
                .and_then(|json| crate::replay::read_record(&json).ok())
                .map_or("?", |record| record.kind().title()),
            None => "?",
        };
        Ok(LadderInfo {
            id: self.id.clone(),
            game: game.to_owned(),
            format: describe_format(&self.settings.format),
            seats: self.settings.table,
            rating: self.settings.rating.name().to_owned(),
            bots: self.names.len(),
            matches_done: done,
            matches_planned: planned,
        })
    }

    /// The revision the live leaderboard polls.
    pub(crate) fn revision(&self) -> Result<u64, ReadError> {
        Ok(self.store.revision()?)
    }

    /// The leaderboard, best first.
    pub(crate) fn leaderboard(&self) -> Result<Leaderboard, ReadError> {
        let board = cardroom_arena::Leaderboard::from_store(&self.store)?;
        // The arena's own figures (`cardroom arena leaderboard` prints the same): rank
        // intervals and the pairwise matrix from the head-to-head evidence (`arena::pairwise`).
        let better = board.p_better.clone();
        let rows = board
            .rows
            .iter()
            .map(|r| LeaderRow {
                rank: r.rank,
                bot: self.bot_id(&r.name),
                name: r.name.clone(),
                rating: r.rating,
                sigma: r.sigma,
                rank_interval: Some((r.rank_low, r.rank_high)),
                matches: r.matches,
                win_rate: r.win_rate,
                health: crate::source::Health {
                    illegal: r.illegal,
                    timeouts: r.timeouts,
                    crashes: r.crashes,
                },
                paused: None,
            })
            .collect();
        let sprt = match (&self.settings.format, self.settings.sprt(&self.names, &self.store)?) {
            (Format::Sprt { a, b, .. }, Some(test)) => {
                let (lower, upper) = test.bounds();
                Some(SprtState {
                    a: a.clone(),
                    b: b.clone(),
                    llr: test.llr(),
                    lower,
                    upper,
                    samples: test.samples(),
                    decision: test.decision().name().to_owned(),
                })
            }
            _ => None,
        };
        Ok(Leaderboard { ladder: self.info()?, rows, better, sprt, running: Vec::new() })
    }

    /// The page of the bot named `name`, `None` if there is no such bot.
    pub(crate) fn bot(&self, name: &str, page: PageRequest) -> Result<Option<BotPage>, ReadError> {
        let Some(index) = self.names.iter().position(|n| n == name) else { return Ok(None) };
        let board = self.leaderboard()?;
        let Some(row) = board.rows.iter().find(|r| r.name == name).cloned() else {
            return Ok(None);
        };
        let mut stats = Stats::new(self.names.len());
        for outcome in self.store.outcomes()? {
            stats.add(&outcome);
        }
        let mine = &stats.bots[index];
        let changes = self.store.rating_history(index)?;
        let history = changes
            .first()
            .map(|first| RatingAt { step: 0, rating: first.before.mean, sigma: first.before.sigma })
            .into_iter()
            .chain(changes.iter().zip(1..).map(|(c, step)| RatingAt {
                step,
                rating: c.after.mean,
                sigma: c.after.sigma,
            }))
            .collect();
        let matches = self
            .store
            .finished_matches(Some(index), page.offset, page.limit)?
            .into_iter()
            .map(|m| MatchLine {
                id: m.id.to_string(),
                finished_at: m.finished_at,
                place: m
                    .outcome
                    .places
                    .iter()
                    .find(|&&(b, _)| b == index)
                    .map_or(0, |&(_, place)| place),
                seats: m.seats.len(),
                opponents: m
                    .seats
                    .iter()
                    .filter(|&&b| b != index)
                    .map(|&b| (b.to_string(), self.name(b)))
                    .collect(),
            })
            .collect();
        let head_to_head = stats.head_to_head[index]
            .iter()
            .enumerate()
            .filter(|&(other, h)| other != index && h.wins + h.ties + h.losses > 0)
            .map(|(other, h)| HeadToHeadLine {
                bot: other.to_string(),
                name: self.name(other),
                wins: h.wins,
                ties: h.ties,
                losses: h.losses,
            })
            .collect();
        Ok(Some(BotPage {
            ladder: board.ladder,
            bot: index.to_string(),
            name: self.name(index),
            row,
            history,
            versions: Vec::new(),
            matches,
            match_count: self.store.finished_count(Some(index))?,
            think: mine
                .think
                .buckets()
                .map(|(from_us, to_us, count)| ThinkBucket { from_us, to_us, count })
                .collect(),
            think_quantiles: mine.think.quantile(0.5).zip(mine.think.quantile(0.99)),
            think_by_version: Vec::new(),
            think_window: None,
            head_to_head,
        }))
    }

    /// A finished match (`id` is its row id), `None` if unknown or unfinished.
    pub(crate) fn finished_match(&self, id: &str) -> Result<Option<FinishedMatch>, ReadError> {
        let Ok(row) = id.parse::<i64>() else { return Ok(None) };
        let Some((m, record)) = self.store.finished_match(row)? else { return Ok(None) };
        Ok(Some(FinishedMatch {
            id: id.to_owned(),
            ladder: Some(self.id.clone()),
            seats: m.seats.iter().map(|&b| (Some(b.to_string()), self.name(b))).collect(),
            finished_at: Some(m.finished_at),
            record_json: record,
        }))
    }

    /// The name of the bot whose index is `number`.
    pub(crate) fn bot_name(&self, number: u64) -> Option<String> {
        self.names.get(usize::try_from(number).ok()?).cloned()
    }

    fn name(&self, index: usize) -> String {
        self.names.get(index).cloned().unwrap_or_else(|| format!("bot {index}"))
    }

    /// A bot's id from its name (names are distinct within a ladder).
    fn bot_id(&self, name: &str) -> String {
        self.names.iter().position(|n| n == name).map_or_else(String::new, |i| i.to_string())
    }
}

/// A format in words.
fn describe_format(format: &Format) -> String {
    let times = |n: u32| if n == 1 { "once".to_owned() } else { format!("{n} rounds") };
    match format {
        Format::RoundRobin { rounds } => format!("round robin, {}", times(*rounds)),
        Format::Gauntlet { challenger, rounds } => {
            format!("gauntlet of {challenger}, {}", times(*rounds))
        }
        Format::Swiss { rounds } => format!("Swiss, {rounds} rounds"),
        Format::Continuous { sets } => format!("continuous, {sets} sets"),
        Format::Adaptive { max_sets } => format!("adaptive, until settled or {max_sets} sets"),
        Format::Sprt { a, b, max_sets, .. } => format!("SPRT {a} vs {b}, at most {max_sets} sets"),
    }
}
