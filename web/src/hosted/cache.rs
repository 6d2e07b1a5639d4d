//! A hosted ladder's leaderboard, computed once per revision of the ladder and shared by
//! every page until the revision moves.
//!
//! The revision is what a few small reads tell of the ladder's progress: its status, its bots
//! (and their pauses), the sets planned and, of the open ones, which matches are done. A match
//! finishing or a set being rated moves it. The leaderboard's aggregates are read again on
//! every move; the standings (rank intervals, pairwise matrix) only when a set was rated or
//! voided since, since only rated sets are their evidence.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash as _, Hasher as _};
use std::sync::{Arc, Mutex};

use cardroom_store::{
    BotId, Ladder, LadderId, LeaderboardLine, MatchState, Store, StoreError, leaderboard_order,
};

use super::name_of;
use super::standings::{Standings, standings};
use crate::source::{Health, LeaderRow, Leaderboard, SprtState};

/// Where a ladder is: equal revisions have equal leaderboards.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Revision {
    status: &'static str,
    /// Per bot of the ladder: its id, sets rated, whether paused.
    bots: Vec<(BotId, u32, bool)>,
    /// Sets planned.
    sets: u64,
    /// Per open set: its index, its matches, those done, those void.
    open: Vec<(u64, usize, usize, usize)>,
}

/// The most bots whose page parts [`BotCache`] keeps; past it, it starts over.
const BOTS_KEPT: usize = 1_024;

/// What a bot's page shows besides its matches: aggregates over all its matches in a ladder.
#[derive(Debug)]
pub(crate) struct BotParts {
    /// The author who owns the bot, if any.
    pub(crate) owner: Option<String>,
    pub(crate) history: Vec<crate::source::RatingAt>,
    pub(crate) versions: Vec<crate::source::VersionLine>,
    pub(crate) think: Vec<cardroom_store::VersionThink>,
    pub(crate) head_to_head: Vec<crate::source::HeadToHeadLine>,
}

/// How long a bot's page parts serve after its ladder moved on: a busy ladder moves with every
/// match that ends, and a bot's aggregates need not be read again for each.
pub(crate) const BOT_PARTS_FRESH: std::time::Duration = std::time::Duration::from_secs(1);

/// A bot's page parts, the revision they were read at and when.
type KeptParts = (u64, std::time::Instant, Arc<BotParts>);

/// Each bot's page parts, as last read (at most [`BOTS_KEPT`] bots): served while its ladder's
/// revision has not moved, or for [`BOT_PARTS_FRESH`] after they were read, so that a bot's
/// page costs one read of its aggregates a second at most however many ask.
#[derive(Debug, Default)]
pub(crate) struct BotCache {
    // A std mutex: held only to look up or replace an entry, never across an await.
    bots: Mutex<HashMap<(LadderId, BotId), KeptParts>>,
}

impl BotCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(LadderId, BotId), KeptParts>> {
        self.bots.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `bot`'s parts in `ladder`, if kept at `revision` or fresh still.
    pub(crate) fn get(&self, ladder: LadderId, bot: BotId, revision: u64) -> Option<Arc<BotParts>> {
        let bots = self.lock();
        let (kept_at, read_at, parts) = bots.get(&(ladder, bot))?;
        (*kept_at == revision || read_at.elapsed() < BOT_PARTS_FRESH).then(|| Arc::clone(parts))
    }

    /// Keeps `bot`'s parts in `ladder`, read at `revision` just now.
    pub(crate) fn put(&self, ladder: LadderId, bot: BotId, revision: u64, parts: Arc<BotParts>) {
        let mut bots = self.lock();
        if bots.len() >= BOTS_KEPT {
            bots.clear();
        }
        bots.insert((ladder, bot), (revision, std::time::Instant::now(), parts));
    }
}

impl Revision {
    /// The revision as the number the live pages compare.
    pub(crate) fn key(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.hash(&mut hasher);
        hasher.finish()
    }

    /// Sets no longer open (rated or void): the standings' evidence moves only with it.
    fn closed_sets(&self) -> u64 {
        self.sets.saturating_sub(self.open.len() as u64)
    }

    /// Matches of open sets neither done nor void: planned or running.
    fn pending(&self) -> u64 {
        self.open.iter().map(|&(_, all, done, void)| (all - done - void) as u64).sum()
    }
}

/// `ladder`'s revision now.
pub(crate) async fn revision(store: &dyn Store, ladder: &Ladder) -> Result<Revision, StoreError> {
    let bots = store.ladder_bots(ladder.id).await?;
    let sets = store.set_count(ladder.id).await?;
    let open = store.open_sets(ladder.id).await?;
    Ok(Revision {
        status: ladder.status.as_str(),
        bots: bots.iter().map(|b| (b.bot, b.sets_rated, b.paused_reason.is_some())).collect(),
        sets,
        open: open
            .iter()
            .map(|s| {
                let count = |state| s.matches.iter().filter(|m| m.state == state).count();
                (s.index, s.matches.len(), count(MatchState::Done), count(MatchState::Void))
            })
            .collect(),
    })
}

impl Board {
    /// The revision it is of, as a number.
    pub(crate) fn revision_key(&self) -> u64 {
        self.revision.key()
    }

    /// The ladder's bot named `name` (account names are unique in a store).
    pub(crate) fn bot_named(&self, name: &str) -> Option<BotId> {
        self.names.iter().find_map(|(&id, n)| (n == name).then_some(id))
    }
}

/// A ladder's leaderboard at one revision.
#[derive(Debug)]
pub(crate) struct Board {
    revision: Revision,
    /// The leaderboard, best first.
    pub(crate) board: Leaderboard,
    /// The ladder's bots' names.
    pub(crate) names: HashMap<BotId, String>,
    /// The standings it was drawn with, and the closed sets they cover.
    standings: Arc<(u64, Standings)>,
}

/// The latest board of each hosted ladder.
#[derive(Debug, Default)]
pub(crate) struct BoardCache {
    // A std mutex: it is held only to look up or replace an entry, never across an await.
    boards: Mutex<HashMap<LadderId, Arc<Board>>>,
}

impl BoardCache {
    /// `ladder`'s board at its current revision: the one kept if the revision has not moved,
    /// else read anew (two pages asking at once may both read it; the last one is kept).
    pub(crate) async fn get(
        &self,
        store: &dyn Store,
        ladder: &Ladder,
    ) -> Result<Arc<Board>, StoreError> {
        let now = revision(store, ladder).await?;
        let kept = self.lock().get(&ladder.id).cloned();
        if let Some(kept) = &kept
            && kept.revision == now
        {
            return Ok(Arc::clone(kept));
        }
        let lines = store.leaderboard(ladder.id).await?;
        let bots: Vec<BotId> = lines.iter().map(|l| l.bot).collect();
        let standings = match kept {
            Some(kept)
                if kept.standings.0 == now.closed_sets() && kept.names.len() == bots.len() =>
            {
                Arc::clone(&kept.standings)
            }
            _ => {
                let table = usize::from(ladder.spec.table_seats);
                Arc::new((now.closed_sets(), standings(store, ladder.id, &bots, table).await?))
            }
        };
        let board = Arc::new(build(ladder, now, lines, standings));
        self.lock().insert(ladder.id, Arc::clone(&board));
        Ok(board)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<LadderId, Arc<Board>>> {
        // A panic elsewhere while the map was held leaves it whole: take it as it is.
        self.boards.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The board of `lines` (by bot id, as the store reads them), in the ladder's one order
/// ([`leaderboard_order`]: the standings').
fn build(
    ladder: &Ladder,
    revision: Revision,
    lines: Vec<LeaderboardLine>,
    standings: Arc<(u64, Standings)>,
) -> Board {
    let seats = u64::from(ladder.spec.table_seats.max(1));
    let done = lines.iter().map(|l| l.matches).sum::<u64>() / seats;
    let names = lines.iter().map(|l| (l.bot, l.name.clone())).collect();
    let s = &standings.1;
    let order = leaderboard_order(&lines, |bot| {
        let line = lines.iter().position(|l| l.bot == bot)?;
        s.position.get(line).copied().flatten()
    });
    let rows = order
        .iter()
        .enumerate()
        .map(|(rank, &i)| {
            let l = &lines[i];
            LeaderRow {
                rank: rank + 1,
                bot: l.bot.0.to_string(),
                name: l.name.clone(),
                rating: l.rating.mean,
                sigma: l.rating.sigma,
                rank_interval: s.rank_intervals.get(i).copied().flatten(),
                matches: u32::try_from(l.matches).unwrap_or(u32::MAX),
                win_rate: if l.matches == 0 { 0.0 } else { l.wins as f64 / l.matches as f64 },
                health: Health {
                    illegal: u32::try_from(l.health.illegal).unwrap_or(u32::MAX),
                    timeouts: u32::try_from(l.health.timeouts).unwrap_or(u32::MAX),
                    crashes: u32::try_from(l.health.crashes).unwrap_or(u32::MAX),
                },
                paused: l.paused_reason.clone(),
            }
        })
        .collect();
    let better = order
        .iter()
        .map(|&a| {
            order
                .iter()
                .map(|&b| s.p_better.get(a).and_then(|row| row.get(b)).copied().unwrap_or(0.0))
                .collect()
        })
        .collect();
    let info = super::ladder_info(ladder, lines.len(), done, done + revision.pending());
    let sprt = s.sprt.as_ref().map(|t| SprtState {
        a: name_of(&names, t.a),
        b: name_of(&names, t.b),
        llr: t.llr,
        lower: t.lower,
        upper: t.upper,
        samples: t.samples,
        decision: t.decision.clone(),
    });
    Board {
        revision,
        board: Leaderboard { ladder: info, rows, better, sprt, running: Vec::new() },
        names,
        standings,
    }
}
