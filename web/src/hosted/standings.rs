//! What a hosted ladder's rated sets say about its order: each bot's rank interval and the
//! pairwise matrix, from the [`Settlement`] of the head-to-head evidence, and an SPRT ladder's
//! test.
//!
//! This is the one place the pages get them: the store's standings snapshot (the hosted
//! runner writes one per rated set, `Store::standings`) when it has one, else computed here
//! from the rated sets (a store the runner has not yet written one in; no SPRT then).

use cardroom_arena::hosted::STANDINGS_CONFIDENCE;
use cardroom_rank::{MatchOutcome, Settlement};
use cardroom_store::{BotId, LadderId, LadderSet, SprtStanding, Store, StoreError};

/// The error rate of the rank intervals for the whole order: the hosted runner's.
const ALPHA: f64 = 1.0 - STANDINGS_CONFIDENCE;

/// Rank intervals and the pairwise matrix, by bot in the order of the `bots` they were
/// computed for.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Standings {
    /// By bot: its best and worst rank at [`ALPHA`] for the whole order; `None` for a bot the
    /// snapshot does not rank.
    pub(crate) rank_intervals: Vec<Option<(usize, usize)>>,
    /// `[a][b]`: how sure the evidence is that bot `a` is better than bot `b` (the arena's
    /// `confidence_better`).
    pub(crate) p_better: Vec<Vec<f64>>,
    /// By bot: its place in the standings' order (0 is first), `None` for a bot they do not
    /// hold: the leaderboard's rows follow it.
    pub(crate) position: Vec<Option<usize>>,
    /// An SPRT ladder's test, as the snapshot holds it.
    pub(crate) sprt: Option<SprtStanding>,
}

/// The standings of `bots` (by index) in `ladder` at tables of `table` seats, from its rated
/// sets.
pub(crate) async fn standings(
    store: &dyn Store,
    ladder: LadderId,
    bots: &[BotId],
    table: usize,
) -> Result<Standings, StoreError> {
    if let Some(snapshot) = store.standings(ladder).await? {
        return Ok(from_snapshot(bots, &snapshot));
    }
    let sets = store.rated_sets(ladder).await?;
    Ok(from_sets(bots, table, &sets))
}

/// The snapshot's figures by `bots`' order: a bot it does not rank gets no rank interval, no
/// place and 0 against each other.
fn from_snapshot(bots: &[BotId], snapshot: &cardroom_store::Standings) -> Standings {
    let row = |bot: BotId| snapshot.rows.iter().position(|r| r.bot == bot);
    let at: Vec<Option<usize>> = bots.iter().map(|&b| row(b)).collect();
    let to_usize = |rank: u32| usize::try_from(rank).unwrap_or(usize::MAX);
    Standings {
        rank_intervals: at
            .iter()
            .map(|i| match i {
                Some(i) => {
                    let r = &snapshot.rows[*i];
                    Some((to_usize(r.rank_lo), to_usize(r.rank_hi)))
                }
                None => None,
            })
            .collect(),
        p_better: at
            .iter()
            .map(|a| {
                at.iter()
                    .map(|b| match (a, b) {
                        (Some(a), Some(b)) if a != b => {
                            snapshot.rows[*a].p_better.get(*b).copied().unwrap_or(0.0)
                        }
                        _ => 0.0,
                    })
                    .collect()
            })
            .collect(),
        position: at,
        sprt: snapshot.sprt.clone(),
    }
}

/// The standings of `bots` from `sets`, rated in their order (the test is sequential).
fn from_sets(bots: &[BotId], table: usize, sets: &[LadderSet]) -> Standings {
    let index = |bot: BotId| bots.iter().position(|&b| b == bot);
    let outcomes: Vec<Vec<MatchOutcome>> = sets
        .iter()
        .map(|set| {
            set.matches
                .iter()
                .filter_map(|m| {
                    // A seat of a bot the ladder no longer lists, or without a place, leaves
                    // its match out of the evidence.
                    let places = m
                        .seats
                        .iter()
                        .map(|s| Some((index(s.bot)?, s.place?)))
                        .collect::<Option<Vec<_>>>()?;
                    let health = vec![Default::default(); places.len()];
                    Some(MatchOutcome { places, health, decisions: 0 })
                })
                .collect()
        })
        .collect();
    let settlement = Settlement::from_sets(bots.len(), table, &outcomes, ALPHA);
    let rank_intervals = settlement.rank_intervals.into_iter().map(Some).collect();
    let position =
        (0..bots.len()).map(|bot| settlement.order.iter().position(|&b| b == bot)).collect();
    Standings { rank_intervals, p_better: settlement.p_better, position, sprt: None }
}
