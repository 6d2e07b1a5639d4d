//! A hosted ladder's standings and its adaptive schedule, from the head-to-head evidence of
//! its rated sets ([`Evidence`], judged by [`Settlement`]).
//!
//! The runner keeps one [`Evidence`] per ladder: built from the stored rated sets on start
//! ([`Evidence::from_rated`], the same sets [`super::replay`] reads), grown by each set it rates.
//! After every pass that rated a set, and on start, it computes the [`Standings`] snapshot
//! ([`Evidence::standings`]) tagged with the ladder's revision (its sets rated), and plans the
//! next table where the order is least settled ([`Evidence::next_table`]). The snapshot holds
//! the pairwise matrix (`O(bots²)`: some 320 KB at 200 bots), so it is written at most once per
//! [`STANDINGS_EVERY`] ([`SnapshotThrottle`]), but always on start, when the ladder closes
//! (settled, or its SPRT decided) and after every rated set of a finals ladder; a snapshot
//! held back is written once the interval has passed, rated sets or not.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::sync::PoisonError;
use std::time::{Duration, Instant};

use cardroom_store::{BotId, LadderSet, LadderStatus, SprtStanding, Standings, StandingsRow};
use tracing::{info, warn};

use super::{HostedError, HostedFormat, now_ms, plan};
use cardroom_rank::fair::{BotNow, fair_table_apart};
use cardroom_rank::orders::OrderTest;
use cardroom_rank::pairwise::{PairTable, set_score};
use cardroom_rank::schedule::{Belief, least_certain};
use cardroom_rank::settle::{Settlement, add_set};
use cardroom_rank::sprt::{Sprt, SprtConfig, SprtDecision};

/// The confidence of the standings' rank intervals and "indistinguishable from first", for
/// the whole order at once.
pub const STANDINGS_CONFIDENCE: f64 = 0.95;

/// The error rate for the whole order, `1 - STANDINGS_CONFIDENCE`.
const ALPHA: f64 = 1.0 - STANDINGS_CONFIDENCE;

/// What a finals ladder's pause of a bot that came after its first set was planned says
/// (see [`is_late_entrant`]).
pub(crate) const LATE_ENTRANT: &str = "entered after the finals began";

/// Whether a bot's pause `reason` is a finals ladder's refusal of a late entrant: such a bot
/// is left out of the standings while it stays paused.
pub(crate) fn is_late_entrant(reason: &str) -> bool {
    reason.starts_with("finals: ") && reason.contains(LATE_ENTRANT)
}

/// The shortest interval between two standings snapshots of one ladder written by
/// [`SnapshotThrottle`]'s rule (the snapshots it must write come sooner).
pub const STANDINGS_EVERY: Duration = Duration::from_secs(1);

/// When a ladder's standings snapshot is written (see the `hosted::standings` module's docs):
/// the first one and every one that must be (`force`) at once, the others at most once per
/// [`STANDINGS_EVERY`]; one held back stays pending until it is written.
#[derive(Clone, Debug, Default)]
pub struct SnapshotThrottle {
    /// When the last snapshot was written.
    written: Option<Instant>,
    /// A snapshot newer than the last written was held back.
    pending: bool,
}

impl SnapshotThrottle {
    /// Whether to write the snapshot just computed, at `now`: yes if `force`, if none was
    /// written yet, or if [`STANDINGS_EVERY`] has passed since the last; else it is held back
    /// (pending). A yes counts as written.
    pub fn write_now(&mut self, now: Instant, force: bool) -> bool {
        let due = force || self.written.is_none_or(|at| now.duration_since(at) >= STANDINGS_EVERY);
        if due {
            self.written = Some(now);
            self.pending = false;
        } else {
            self.pending = true;
        }
        due
    }

    /// Whether a snapshot held back is due at `now` (the interval has passed since the last
    /// write): the runner then computes and writes it even if no set was rated since.
    pub fn pending_due(&self, now: Instant) -> bool {
        self.pending && self.written.is_none_or(|at| now.duration_since(at) >= STANDINGS_EVERY)
    }
}

/// The standings' line of the SPRT `test` of `a` against `b`.
pub fn sprt_standing(a: BotId, b: BotId, test: &Sprt) -> SprtStanding {
    let (lower, upper) = test.bounds();
    SprtStanding {
        a,
        b,
        samples: test.samples(),
        llr: test.llr(),
        lower,
        upper,
        decision: test.decision().name().to_owned(),
    }
}

/// One rated set as the evidence keeps it: per match, each seat's bot and place.
pub(super) type SetPlaces = Vec<Vec<(BotId, u8)>>;

/// The head-to-head evidence of a ladder's rated sets (see the `hosted::standings` module's docs).
#[derive(Clone, Debug)]
pub struct Evidence {
    /// The bots, by id: bot `i` of `pairs` is `bots[i]`.
    bots: Vec<BotId>,
    /// The sets counted, in the order they were rated.
    sets: Vec<SetPlaces>,
    /// Their pentanomial evidence over `bots`.
    pairs: PairTable,
    /// Their order test, for a field of at most [`cardroom_rank::orders::MAX_BOTS`] bots.
    orders: Option<OrderTest>,
    /// The first set index counted.
    first_set: u64,
    /// The ladder's sets rated (counted or not).
    revision: u64,
    /// Each bot's version in its first counted set (a finals ladder's frozen version).
    first_versions: HashMap<BotId, String>,
    /// Each bot's counted sets.
    counts: HashMap<BotId, u64>,
    /// The settlement of the evidence as it is, by table size: computed once between two
    /// changes (a busy ladder asks for its next table many times a set).
    settled: RefCell<Option<(usize, Settlement)>>,
}

impl Evidence {
    /// The evidence of `rated` (a ladder's rated sets, in set order) among `bots` (every bot
    /// of the ladder; a bot that sat in a set is added if missing), counting the sets from
    /// index `first_set` on.
    pub fn from_rated(
        rated: &[LadderSet],
        bots: impl IntoIterator<Item = BotId>,
        first_set: u64,
    ) -> Evidence {
        let mut evidence = Evidence {
            bots: Vec::new(),
            sets: Vec::new(),
            pairs: PairTable::new(0),
            orders: None,
            first_set,
            revision: 0,
            first_versions: HashMap::new(),
            counts: HashMap::new(),
            settled: RefCell::new(None),
        };
        let mut all: BTreeSet<BotId> = bots.into_iter().collect();
        for set in rated {
            evidence.revision += 1;
            if set.index >= first_set {
                all.extend(set.bots.iter().copied());
                evidence.note_versions(set);
                evidence.count(set);
                evidence.sets.push(places(set));
            }
        }
        evidence.bots = all.into_iter().collect();
        evidence.rebuild();
        evidence
    }

    /// The bots, by id.
    pub fn bots(&self) -> &[BotId] {
        &self.bots
    }

    /// The sets counted, in the order they were rated: per match, each seat's bot and place.
    pub(super) fn counted_sets(&self) -> &[SetPlaces] {
        &self.sets
    }

    /// The ladder's sets rated: the revision the standings are of.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Adds `bot` (without evidence yet), if it is new. The order test grows without replaying
    /// the sets (at eight bots a replay is half a millisecond a set); the pairwise table, cheap
    /// to replay, is replayed in the new indices.
    pub fn add_bot(&mut self, bot: BotId) {
        if let Err(at) = self.bots.binary_search(&bot) {
            self.settled.replace(None);
            self.bots.insert(at, bot);
            let orders = self.orders.take().and_then(|orders| orders.with_bot_at(at));
            self.pairs = self.replay(None);
            self.orders = orders;
        }
    }

    /// Counts a set just rated (the next in set order).
    pub fn add_set(&mut self, set: &LadderSet) {
        self.revision += 1;
        self.settled.replace(None);
        if set.index < self.first_set {
            return;
        }
        self.note_versions(set);
        self.count(set);
        let places = places(set);
        if places.iter().flatten().any(|(bot, _)| self.bots.binary_search(bot).is_err()) {
            // New bots have sat in no set counted before this one.
            for &bot in set.bots.iter().chain(places.iter().flatten().map(|(bot, _)| bot)) {
                self.add_bot(bot);
            }
        }
        let local = self.local(&places);
        let matches: Vec<&[(usize, u8)]> = local.iter().map(Vec::as_slice).collect();
        add_set(&mut self.pairs, self.orders.as_mut(), &matches);
        self.sets.push(places);
    }

    /// The settlement of the counted sets at tables of `table` seats, at
    /// [`STANDINGS_CONFIDENCE`]: bot `i` is [`Evidence::bots`]`[i]`.
    pub fn settlement(&self, table: usize) -> Settlement {
        let mut settled = self.settled.borrow_mut();
        match settled.as_ref() {
            Some((at, settlement)) if *at == table => settlement.clone(),
            _ => {
                let settlement =
                    Settlement::from_evidence(&self.pairs, self.orders.as_ref(), table, ALPHA);
                *settled = Some((table, settlement.clone()));
                settlement
            }
        }
    }

    /// The standings snapshot of the counted sets, computed at `now_ms`: every bot, best
    /// first, with its rank interval, whether it could be first (its interval includes 1: no
    /// bot is confidently better) and its row of the pairwise matrix in the rows' order.
    pub fn standings(&self, table: usize, now_ms: i64) -> Standings {
        let settlement = self.settlement(table);
        let order = &settlement.order;
        let rows = order
            .iter()
            .map(|&a| {
                let (lo, hi) = settlement.rank_intervals[a];
                StandingsRow {
                    bot: self.bots[a],
                    rank_lo: u32::try_from(lo).unwrap_or(u32::MAX),
                    rank_hi: u32::try_from(hi).unwrap_or(u32::MAX),
                    indistinguishable_from_first: lo == 1,
                    p_better: order.iter().map(|&b| settlement.p_better[a][b]).collect(),
                }
            })
            .collect();
        Standings {
            revision: self.revision,
            first_set: self.first_set,
            sets: self.sets.len() as u64,
            confidence: STANDINGS_CONFIDENCE,
            settled: settlement.settled,
            computed_ms: now_ms,
            rows,
            sprt: None,
        }
    }

    /// The adaptive schedule's next table ([`fair_table`]) among the bots `now` says can be
    /// seated (a bot missing from it is away), each with `in_flight` sets planned or running on
    /// top of its counted ones, at tables of `table` seats; `None` when nothing should be
    /// planned now.
    pub(super) fn fair_table(
        &self,
        now: &HashMap<BotId, BotNow>,
        in_flight: &HashMap<BotId, u64>,
        table: usize,
        apart: plan::Apart<'_>,
    ) -> Option<Vec<BotId>> {
        let states: Vec<BotNow> =
            self.bots.iter().map(|bot| now.get(bot).copied().unwrap_or(BotNow::Away)).collect();
        let sets: Vec<u64> = self
            .bots
            .iter()
            .map(|&bot| self.sets_of(bot) + in_flight.get(&bot).copied().unwrap_or(0))
            .collect();
        let settlement = self.settlement(table);
        let apart = |i: usize, j: usize| apart.pair(self.bots[i], self.bots[j]);
        let next = fair_table_apart(&self.pairs, &settlement.open, &states, &sets, table, &apart)?;
        Some(next.into_iter().map(|i| self.bots[i]).collect())
    }

    /// The head-to-head SPRT of `a` against `b` over the counted sets: one sample per set
    /// holding both, `a`'s pentanomial score against `b` over the set's matches (the batch
    /// arena's N-player SPRT).
    pub fn sprt(&self, a: BotId, b: BotId, config: SprtConfig) -> Sprt {
        let mut test = Sprt::new(config);
        let (Ok(a), Ok(b)) = (self.bots.binary_search(&a), self.bots.binary_search(&b)) else {
            return test;
        };
        for set in &self.sets {
            let local = self.local(set);
            if let Some(score) = set_score(local.iter().map(Vec::as_slice), a, b) {
                test.add(score);
            }
        }
        test
    }

    /// The samples between `a` and `b` so far (0 for a bot unknown).
    pub fn samples(&self, a: BotId, b: BotId) -> u32 {
        match (self.bots.binary_search(&a), self.bots.binary_search(&b)) {
            (Ok(a), Ok(b)) if a != b => self.pairs.tally(a, b).n,
            _ => 0,
        }
    }

    /// The version `bot` played its first counted set with, if it played one.
    pub fn first_version(&self, bot: BotId) -> Option<&str> {
        self.first_versions.get(&bot).map(String::as_str)
    }

    /// Why a finals ladder must not rate `set`: a bot played it with a version other than its
    /// first set's (or with two versions), as `(bot, reason)`; `None` if every bot played its
    /// frozen version. `name` names a bot in the reason.
    pub fn off_version<'a>(
        &self,
        set: &LadderSet,
        name: impl Fn(BotId) -> &'a str,
    ) -> Option<(BotId, String)> {
        let mut seen: HashMap<BotId, &str> = HashMap::new();
        for seat in set.matches.iter().flat_map(|m| &m.seats) {
            let version = seat.version.as_deref().unwrap_or_default();
            let frozen = self.first_version(seat.bot).or_else(|| seen.get(&seat.bot).copied());
            match frozen {
                Some(frozen) if frozen != version => {
                    let reason = format!(
                        "finals: {} is frozen at version {frozen:?}; version {version:?} is \
                         refused a seat (set {} is void)",
                        name(seat.bot),
                        set.index
                    );
                    return Some((seat.bot, reason));
                }
                _ => {
                    seen.insert(seat.bot, version);
                }
            }
        }
        None
    }

    /// Counts `set` for each of its bots.
    fn count(&mut self, set: &LadderSet) {
        for &bot in &set.bots {
            *self.counts.entry(bot).or_default() += 1;
        }
    }

    /// The counted sets `bot` sat in.
    pub fn sets_of(&self, bot: BotId) -> u64 {
        self.counts.get(&bot).copied().unwrap_or(0)
    }

    /// Notes each bot's version in `set` if it is its first counted set.
    fn note_versions(&mut self, set: &LadderSet) {
        for seat in set.matches.iter().flat_map(|m| &m.seats) {
            if let Some(version) = &seat.version {
                self.first_versions.entry(seat.bot).or_insert_with(|| version.clone());
            }
        }
    }

    /// The counted sets in `bots`' indices.
    fn local(&self, set: &SetPlaces) -> Vec<Vec<(usize, u8)>> {
        set.iter()
            .map(|m| {
                m.iter()
                    .filter_map(|(bot, place)| Some((self.bots.binary_search(bot).ok()?, *place)))
                    .collect()
            })
            .collect()
    }

    /// Recomputes the evidence from every counted set.
    fn rebuild(&mut self) {
        self.settled.replace(None);
        let mut orders = OrderTest::new(self.bots.len());
        self.pairs = self.replay(orders.as_mut());
        self.orders = orders;
    }

    /// The pairwise table of every counted set in the current indices, and the sets bet on
    /// `orders` if given.
    fn replay(&self, mut orders: Option<&mut OrderTest>) -> PairTable {
        let mut pairs = PairTable::new(self.bots.len());
        for set in &self.sets {
            let local = self.local(set);
            let matches: Vec<&[(usize, u8)]> = local.iter().map(Vec::as_slice).collect();
            add_set(&mut pairs, orders.as_deref_mut(), &matches);
        }
        pairs
    }
}

/// A set's places by match, each seat's bot with its place (a seat without one, last:
/// [`super::rate_set`]'s reading).
fn places(set: &LadderSet) -> SetPlaces {
    set.matches
        .iter()
        .map(|m| m.seats.iter().map(|s| (s.bot, s.place.unwrap_or(u8::MAX))).collect())
        .collect()
}

impl super::Runner {
    /// The next table among `candidates` (the bots that can play now, by id), by the ladder
    /// file's [`Schedule`] (`least_certain`) or its SPRT; `None` when none can be filled. (The
    /// adaptive schedule looks at every bot present: [`super::Runner::fair_table`].)
    pub(super) fn next_table(&self, candidates: &[BotId]) -> Option<Vec<BotId>> {
        let seats = usize::from(self.file.seats);
        if self.file.format == HostedFormat::Sprt {
            return self.sprt_table(candidates, seats);
        }
        // The least certain table; one holding two bots apart loses the later of them, and
        // the table is chosen again among the rest.
        let apart = self.apart();
        let mut candidates: Vec<BotId> =
            candidates.iter().copied().filter(|bot| self.bots.contains_key(bot)).collect();
        loop {
            let beliefs: Vec<Belief> = candidates
                .iter()
                .filter_map(|bot| self.bots.get(bot))
                .map(|b| Belief { mean: b.rating.mean, sigma: b.rating.sigma })
                .collect();
            let table = least_certain(&beliefs, seats)?;
            let table: Vec<BotId> = table.iter().map(|&i| candidates[i]).collect();
            let kin = table
                .iter()
                .enumerate()
                .find_map(|(i, &a)| table[i + 1..].iter().copied().find(|&b| apart.pair(a, b)));
            match kin {
                None => return Some(table),
                Some(later) => candidates.retain(|&bot| bot != later),
            }
        }
    }

    /// An SPRT ladder's next table: `a` and `b` while both can play, with the other bots
    /// that can that have sat with `a` least (then the lowest ids) in the other seats.
    fn sprt_table(&self, candidates: &[BotId], seats: usize) -> Option<Vec<BotId>> {
        let (a, b) = self.sprt_pair()?;
        if !(candidates.contains(&a) && candidates.contains(&b)) {
            return None;
        }
        let mut others: Vec<BotId> =
            candidates.iter().copied().filter(|&bot| bot != a && bot != b).collect();
        others.sort_by_key(|&bot| (self.evidence.samples(a, bot), bot));
        // The file names the tested pair; the other seats keep bots of one author apart.
        let apart = self.apart();
        let mut table = vec![a, b];
        for bot in others {
            if table.len() >= seats {
                break;
            }
            if table[2..].iter().chain([&a, &b]).all(|&seated| !apart.pair(seated, bot)) {
                table.push(bot);
            }
        }
        (table.len() == seats).then_some(table)
    }

    /// The SPRT's two bots, once both entered the ladder.
    fn sprt_pair(&self) -> Option<(BotId, BotId)> {
        let sprt = self.file.sprt.as_ref()?;
        let id = |name: &str| self.bots.iter().find(|(_, b)| b.name == name).map(|(&id, _)| id);
        Some((id(&sprt.a)?, id(&sprt.b)?))
    }

    /// The SPRT's state over the rated sets and, once decided, the verdict to close with.
    fn sprt_state(&self) -> Option<(SprtStanding, Option<String>)> {
        let sprt = self.file.sprt.as_ref()?;
        let (a, b) = self.sprt_pair()?;
        let test = self.evidence.sprt(a, b, sprt.config());
        let verdict =
            (test.decision() != SprtDecision::Continue).then(|| test.verdict(&sprt.a, &sprt.b));
        Some((sprt_standing(a, b, &test), verdict))
    }

    /// Whether the bot `name`, not in the ladder yet, may enter it: always, but in a finals
    /// ladder whose first set is planned, where only a bot its `bots` lists may.
    pub(super) fn admits_entrant(&self, name: &str) -> bool {
        !self.file.finals
            || self.next_set == 0
            || self.file.bots.is_some() && self.file.admits(name)
    }

    /// A finals ladder's late entrant `bot` (named `name`), just entered: paused with the
    /// reason, so that its author reads why it is not scheduled where a paused bot's reason
    /// shows (`GetLeaderboard`'s `paused_reason`, `cardroom leaderboard`, the pages), and left
    /// out of the standings. An operator's `ResumeBot` admits it.
    pub(super) async fn refuse_late_entrant(
        &mut self,
        bot: BotId,
        name: &str,
    ) -> Result<(), HostedError> {
        let reason = format!(
            "finals: {name} {LATE_ENTRANT} (set {} was planned before it came); the field is \
             frozen, so it is not scheduled",
            self.next_set.saturating_sub(1)
        );
        warn!(ladder = %self.ladder.spec.name, bot = %name, %reason, "late entrant paused");
        if let Some(state) = self.bots.get_mut(&bot) {
            state.paused.get_or_insert_with(|| reason.clone());
        }
        self.pause(bot, &reason).await?;
        Ok(())
    }

    /// In a finals ladder, voids the complete set `index` if a bot played it with another
    /// version than its frozen one, and pauses that bot with the reason; returns whether it
    /// did (the set is then gone from the open ones).
    pub(super) async fn void_if_unfrozen(&mut self, index: u64) -> Result<bool, HostedError> {
        if !self.file.finals {
            return Ok(false);
        }
        let Some(set) = self.open.get(&index) else { return Ok(false) };
        let name = |bot: BotId| self.bots.get(&bot).map_or("?", |b| b.name.as_str());
        let Some((bot, reason)) = self.evidence.off_version(set, name) else { return Ok(false) };
        self.store().void_set(self.id(), index, &reason, now_ms()).await?;
        self.open.remove(&index);
        warn!(ladder = %self.ladder.spec.name, set = index, %reason, "set voided, bot paused");
        if let Some(state) = self.bots.get_mut(&bot) {
            state.paused.get_or_insert_with(|| reason.clone());
        }
        self.pause(bot, &reason).await?;
        Ok(true)
    }

    /// Computes the standings of the sets rated so far, writes them by the
    /// [`SnapshotThrottle`]'s rule (always when the ladder is closed or closes now, and in a
    /// finals ladder), and closes the ladder if its SPRT decided, or if its file asks to stop
    /// once the order is settled and it is. A failed write is logged: a newer snapshot follows.
    pub(super) async fn on_rated(&mut self) {
        let mut standings = self.evidence.standings(usize::from(self.file.seats), now_ms());
        let sprt = self.sprt_state();
        standings.sprt = sprt.as_ref().map(|(state, _)| state.clone());
        let closed = self.ladder.status == LadderStatus::Closed;
        let verdict = sprt.and_then(|(_, verdict)| verdict);
        let settled = standings.settled && standings.sets > 0 && standings.rows.len() >= 2;
        // A paused ladder is not closed by its budget: its file may grow it before it runs.
        let running = *self.status.borrow() == LadderStatus::Running;
        let spent = if running { self.budget_spent() } else { None };
        let closes = !closed
            && (verdict.is_some() || spent.is_some() || self.file.stop_when_settled && settled);
        let force = closed || closes || self.file.finals;
        if self.snapshot.write_now(Instant::now(), force)
            && let Err(error) =
                super::timed!(self.shared, put_standings(self.id(), &standings)).await
        {
            warn!(ladder = %self.ladder.spec.name, cause = %error, "standings not stored");
        }
        if !closes {
            return;
        }
        if let Some(reason) = verdict.or(spent) {
            self.close(&reason).await;
            return;
        }
        let order: Vec<&str> = standings
            .rows
            .iter()
            .map(|row| self.bots.get(&row.bot).map_or("?", |b| b.name.as_str()))
            .collect();
        let reason = format!(
            "settled: the order {} holds at {:.0}% after {} sets",
            order.join(" > "),
            STANDINGS_CONFIDENCE * 100.0,
            standings.sets
        );
        self.close(&reason).await;
    }

    /// Why the ladder is over by its file's budget, if it is: its plan is played, or its
    /// `max_sets` sets are rated.
    pub(super) fn budget_spent(&self) -> Option<String> {
        let rated = self.evidence.revision();
        if self.file.schedule.is_planned()
            && self.open.is_empty()
            && self.plan_view().next(|_| false) == plan::Next::Done
        {
            let rounds = self.file.plan_rounds();
            let s = if rounds == 1 { "" } else { "s" };
            return Some(format!(
                "played: the {} of {rounds} round{s}, {rated} sets",
                self.file.schedule.name()
            ));
        }
        let max = self.file.max_sets?;
        (rated >= max).then(|| format!("played: its {max} sets are rated"))
    }

    /// Closes the ladder with `reason` and tells its task (this one) through its status.
    pub(super) async fn close(&mut self, reason: &str) {
        let closed =
            self.store().set_ladder_status(self.id(), LadderStatus::Closed, Some(reason), now_ms());
        match closed.await {
            Ok(ladder) => {
                info!(ladder = %ladder.spec.name, %reason, "ladder closed");
                self.ladder = ladder;
                let ladders = self.shared.ladders.lock().unwrap_or_else(PoisonError::into_inner);
                if let Some(status) = ladders.get(&self.ladder.spec.name) {
                    status.send_replace(LadderStatus::Closed);
                }
            }
            Err(error) => warn!(ladder = %self.ladder.spec.name, cause = %error, "not closed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use cardroom_store::{LadderId, LadderMatch, LadderMatchId, MatchSeat, MatchState, SetState};

    use super::*;

    /// A rated set of two-seat matches, each `(winner, loser)`, every seat on `version`.
    fn set(index: u64, matches: &[(i64, i64)], version: &str) -> LadderSet {
        let seat = |seat: u8, bot: i64, place: u8| MatchSeat {
            seat,
            bot: BotId(bot),
            version: Some(version.to_owned()),
            place: Some(place),
            forfeited: false,
            failure: None,
        };
        let matches: Vec<LadderMatch> = matches
            .iter()
            .enumerate()
            .map(|(rotation, &(winner, loser))| LadderMatch {
                id: LadderMatchId(index as i64 * 10 + rotation as i64),
                ladder: LadderId(1),
                set_index: index,
                rotation: rotation as u32,
                seed: index,
                state: MatchState::Done,
                seats: vec![seat(0, winner, 1), seat(1, loser, 2)],
                attempt: 1,
                lease_owner: None,
                lease_until_ms: None,
                server_match_id: None,
                planned_ms: 0,
                started_ms: None,
                finished_ms: None,
            })
            .collect();
        let bots = matches[0].seats.iter().map(|s| s.bot).collect();
        LadderSet {
            ladder: LadderId(1),
            index,
            seed: index,
            bots,
            state: SetState::Rated,
            void_reason: None,
            planned_ms: 0,
            matches,
        }
    }

    /// Rounds of [`sets`].
    const ROUNDS: u64 = 25;

    /// [`ROUNDS`] rounds of three sets: bot 1 beats 3 and 2 beats 3 in every set; 1 and 2
    /// split theirs.
    fn sets() -> Vec<LadderSet> {
        let mut sets = Vec::new();
        for round in 0..ROUNDS {
            sets.push(set(3 * round, &[(1, 3), (1, 3)], "v1"));
            sets.push(set(3 * round + 1, &[(2, 3), (2, 3)], "v1"));
            sets.push(set(3 * round + 2, &[(1, 2), (2, 1)], "v1"));
        }
        sets
    }

    #[test]
    fn standings_grown_set_by_set_equal_those_of_the_stored_sets() {
        let sets = sets();
        let all = [BotId(0), BotId(1), BotId(2), BotId(3), BotId(4)];
        let whole = Evidence::from_rated(&sets, all, 0);
        let mut grown = Evidence::from_rated(&[], [BotId(4)], 0);
        for (i, s) in sets.iter().enumerate() {
            grown.add_set(s);
            // A bot that enters without sets, first in the field's indices, mid-way.
            if i == 30 {
                grown.add_bot(BotId(0));
            }
        }
        assert_eq!(grown.bots(), whole.bots());
        // Bots joined by their sets and by `add_bot`, without a replay of the order test, hold
        // the evidence of a replay exactly.
        assert_eq!((&grown.pairs, &grown.orders), (&whole.pairs, &whole.orders));
        assert_eq!(grown.standings(2, 7), whole.standings(2, 7));
        let whole = Evidence::from_rated(&sets, [BotId(1), BotId(2), BotId(3), BotId(4)], 0);
        let standings = whole.standings(2, 7);
        assert_eq!((standings.revision, standings.sets), (3 * ROUNDS, 3 * ROUNDS));
        // 4 never played: it may be anywhere, first included; 3 is confidently below 1 and 2.
        let row = |bot: i64| standings.rows.iter().find(|r| r.bot == BotId(bot)).unwrap();
        assert!(row(4).indistinguishable_from_first && (row(4).rank_lo, row(4).rank_hi) == (1, 4));
        assert!(!row(3).indistinguishable_from_first);
        assert!(row(1).indistinguishable_from_first && row(2).indistinguishable_from_first);
        // The matrix is in the rows' order, 0 on its diagonal: no bot is better than itself.
        for (i, r) in standings.rows.iter().enumerate() {
            assert_eq!(r.p_better.len(), 4);
            assert_eq!(r.p_better[i], 0.0);
        }
    }

    #[test]
    fn the_next_table_is_the_open_pair_among_the_bots_that_can_be_seated() {
        let evidence = Evidence::from_rated(&sets(), [BotId(4)], 0);
        let free = |bots: &[i64]| -> HashMap<BotId, BotNow> {
            bots.iter().map(|&b| (BotId(b), BotNow::Free)).collect()
        };
        let none = HashMap::new();
        // 4 has no samples: far behind its fair share, it plays first.
        let first = evidence.fair_table(&free(&[1, 2, 3, 4]), &none, 2, plan::Apart::NONE).unwrap();
        assert!(first.contains(&BotId(4)), "{first:?}");
        // Without 4, the open pair is 1 against 2 (both are told apart from 3).
        let next = evidence.fair_table(&free(&[1, 2, 3]), &none, 2, plan::Apart::NONE);
        assert_eq!(next, Some(vec![BotId(1), BotId(2)]));
        // 2 busy: the table waits for it, rather than seat a settled pair.
        let mut now = free(&[1, 3]);
        now.insert(BotId(2), BotNow::Busy);
        assert_eq!(
            evidence.fair_table(&now, &none, 2, plan::Apart::NONE),
            Some(vec![BotId(1), BotId(2)])
        );
        assert_eq!(evidence.fair_table(&free(&[1]), &none, 2, plan::Apart::NONE), None);
    }

    #[test]
    fn a_finals_set_played_with_another_version_is_named() {
        let evidence = Evidence::from_rated(&sets(), [], 0);
        assert_eq!(evidence.first_version(BotId(2)), Some("v1"));
        assert_eq!(evidence.off_version(&set(3 * ROUNDS, &[(1, 2), (2, 1)], "v1"), |_| "x"), None);
        let (bot, reason) =
            evidence.off_version(&set(3 * ROUNDS, &[(1, 2), (2, 1)], "v2"), |_| "bob").unwrap();
        assert_eq!(bot, BotId(1));
        assert!(reason.contains("bob is frozen at version \"v1\""), "{reason}");
        // A newcomer's two versions in one set are refused too.
        let mut mixed = set(0, &[(5, 6), (6, 5)], "a");
        mixed.matches[1].seats[0].version = Some("b".into());
        let fresh = Evidence::from_rated(&[], [], 0);
        assert_eq!(fresh.off_version(&mixed, |_| "eve").map(|(bot, _)| bot), Some(BotId(6)));
    }

    #[test]
    fn snapshots_are_written_at_most_once_a_second_but_forced_ones_at_once() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let mut throttle = SnapshotThrottle::default();
        // The first (on start) is written, the next within the second held back.
        assert!(throttle.write_now(at(0), false));
        assert!(!throttle.pending_due(at(0)));
        assert!(!throttle.write_now(at(300), false));
        assert!(!throttle.write_now(at(600), false));
        // Held back, it is due once the second has passed, rated sets or not.
        assert!(!throttle.pending_due(at(999)));
        assert!(throttle.pending_due(at(1_000)));
        assert!(throttle.write_now(at(1_000), false));
        assert!(!throttle.pending_due(at(5_000)), "nothing is pending after a write");
        // A forced one (the ladder closes) goes at once, and restarts the interval.
        assert!(throttle.write_now(at(1_100), true));
        assert!(!throttle.write_now(at(1_500), false));
        assert!(throttle.write_now(at(2_100), false));
    }

    #[test]
    fn the_sprt_takes_one_sample_per_set_holding_both() {
        let evidence = Evidence::from_rated(&sets(), [], 0);
        let test = evidence.sprt(BotId(1), BotId(3), SprtConfig::default());
        assert_eq!(u64::from(test.samples()), ROUNDS);
        assert_eq!(test.decision(), SprtDecision::AcceptH1);
        assert_eq!(evidence.sprt(BotId(1), BotId(9), SprtConfig::default()).samples(), 0);
    }
}
