//! Hosted ladders: ladders the server runs by itself among the registered bots waiting in its
//! lobby, on the ranking maths of `cardroom-rank` ([`Settlement`](cardroom_rank::Settlement)'s
//! adaptive next table or [`least_certain`](cardroom_rank::schedule::least_certain), [`rotations`],
//! [`derive_seed`], [`Ratings`]); after each rated set its standings go to the store
//! ([`Evidence`], in `standings.rs`).
//!
//! [`HostedLadders`] owns every ladder of one server process. Each ladder is one task that
//! keeps its open sets in memory and writes every step to the store ([`cardroom_store`]'s
//! ladder methods, one transaction each): a set is planned whole, a match is claimed under this
//! process's lease before it starts, its result is committed under that claim once the match
//! task has reported its end (the task never waits on the store), and sets are rated in set
//! order. The ratings are always those of [`replay`] over the rated sets.
//!
//! Many nodes may run the same ladders on one shared store (PostgreSQL). Each step of a
//! ladder's task, on every node: the node tries to lead the ladder ([`Store::try_lead`]; one
//! node at a time wins, the others retry at every step and one takes over when the leader's
//! session dies), reads the ladder's open sets and bots from the store (the other nodes write
//! them too), and then
//!
//! - the leader alone rates the complete sets in set order, returns the matches of dead nodes
//!   to planned, voids the sets that cannot be played, and plans new sets among the bots that
//!   wait on any live node (one pool: the nodes' heartbeats carry their lobbies, the `nodes`
//!   module);
//! - every node claims ([`Store::claim_ready`]) the planned matches it hosts (the node where
//!   most of a match's bots wait: `pool.rs`), borrows the bots that wait on other nodes
//!   (`cardroom_server`'s `Lend`), hosts them under its lease, renews the lease, and commits
//!   each result under its claim.
//!
//! A bot's stream never moves between nodes: its node passes its messages on. On a store of
//! one node's own (SQLite) the node always leads, and on start every running match of an
//! earlier process returns to planned; on a shared store, a starting node takes back nothing:
//! the leader returns a match to planned once its node has stopped its heartbeat (or its
//! lease has expired), never a live node's.

mod config;
mod metrics;
mod nodes;
mod plan;
mod pool;
mod scrims;
pub mod season;
mod standings;
mod unstored;

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use cardroom_server::{
    Host, HostError, HostedEnd, HostedMatch, HostedSeatFrom, LadderCommand, LadderControl,
    LadderControlError, LadderSummary, Lender, ResumedBot, ScrimmageRequest,
};
use cardroom_store::{
    BotId, BotStatus, Claim, ClaimLimit, EventScope, FailureKind, Ladder, LadderBot, LadderId,
    LadderMatchId, LadderSet, LadderStatus, Lease, MatchResult, MatchState, NewMatch, NewSet,
    RatingUpdate, Requeue, ScrimmageId, ScrimmageState, SeatResult, Store, StoreError,
    StoreLatency, StoredRating,
};
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::{info, warn};

pub use config::{
    Health, HostedFormat, HostedLadderFile, HostedSprt, LadderFileError, MAX_LADDER_NAME_BYTES,
    Schedule,
};
pub use standings::{
    Evidence, STANDINGS_CONFIDENCE, STANDINGS_EVERY, SnapshotThrottle, sprt_standing,
};

use cardroom_rank::duplicate::{derive_seed, rotations};
use cardroom_rank::fair::BotNow;
use cardroom_rank::rating::{PairedResult, Rating, RatingError, RatingSystem, Ratings};
use pool::{NodeLobby, Pool};

/// A call of the shared store, timed under the method's name in the runner's store latency:
/// `timed!(shared, claim_ready(args…))` is `shared.store.claim_ready(args…)`, timed.
macro_rules! timed {
    ($shared:expr, $method:ident($($arg:expr),* $(,)?)) => {
        $shared.metrics.store.time(stringify!($method), $shared.store.$method($($arg),*))
    };
}
use timed;

/// How long a claim's lease lasts unrenewed; it is renewed every third of that.
const LEASE: Duration = Duration::from_secs(30);

/// How often a ladder looks at its lobby when nothing else wakes it (a bot that left is
/// noticed no later than this after its `absent_ms`; on a shared store, also how often a
/// standby tries to lead and the leader reads the other nodes' lobbies).
const IDLE_LOOK: Duration = Duration::from_millis(250);

/// How lately a bot seen waiting counts among a ladder's bots on `/metrics`.
const SEEN_LATELY: Duration = Duration::from_secs(10);

/// Why a hosted ladder failed.
#[derive(Debug, thiserror::Error)]
pub enum HostedError {
    /// The ladder file is refused.
    #[error(transparent)]
    File(#[from] LadderFileError),
    /// The store failed or refused.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A set could not be rated.
    #[error("set {set} cannot be rated: {error}")]
    Rating {
        /// The set's index.
        set: u64,
        /// Why.
        error: RatingError,
    },
    /// The season file is refused, or its ladders are not the server's.
    #[error(transparent)]
    Season(#[from] season::SeasonFileError),
    /// The stored rating system is not one this build knows.
    #[error("the ladder's rating system {0:?} is unknown")]
    UnknownRating(String),
}

impl From<HostedError> for LadderControlError {
    fn from(error: HostedError) -> LadderControlError {
        match error {
            HostedError::File(error) => LadderControlError::Invalid(error.to_string()),
            HostedError::Season(error) => LadderControlError::Invalid(error.to_string()),
            HostedError::Store(error @ StoreError::Conflict(_)) => {
                LadderControlError::FailedPrecondition(error.to_string())
            }
            HostedError::Store(error @ StoreError::LadderExists(_)) => {
                LadderControlError::AlreadyExists(error.to_string())
            }
            HostedError::Store(error @ StoreError::NoSuchLadder(_)) => {
                LadderControlError::NotFound(error.to_string())
            }
            HostedError::Store(error @ StoreError::LadderClosed(_)) => {
                LadderControlError::FailedPrecondition(error.to_string())
            }
            other => LadderControlError::Unavailable(other.to_string()),
        }
    }
}

/// A rating as stored.
fn stored(rating: Rating) -> StoredRating {
    StoredRating { mean: rating.mean, sigma: rating.sigma, volatility: rating.volatility }
}

/// A stored rating.
fn rating(stored: StoredRating) -> Rating {
    Rating { mean: stored.mean, sigma: stored.sigma, volatility: stored.volatility }
}

/// The rating system named as stored.
fn system_named(name: &str) -> Result<RatingSystem, HostedError> {
    [RatingSystem::WengLin, RatingSystem::Glicko2, RatingSystem::TrueSkill]
        .into_iter()
        .find(|system| system.name() == name)
        .ok_or_else(|| HostedError::UnknownRating(name.to_owned()))
}

/// The rating update of a complete set, from its bots' ratings before it (`before`): the set's
/// paired result (each bot's mean place over the set's matches) through [`Ratings::update`].
/// The one rating step of hosted ladders: the runner and [`replay`] both take it.
pub fn rate_set(
    system: RatingSystem,
    set: &LadderSet,
    before: impl Fn(BotId) -> Rating,
) -> Result<Vec<RatingUpdate>, HostedError> {
    let local = |bot: BotId| set.bots.iter().position(|&b| b == bot);
    let places: Vec<Vec<(usize, u8)>> = set
        .matches
        .iter()
        .map(|m| {
            m.seats
                .iter()
                .filter_map(|seat| Some((local(seat.bot)?, seat.place.unwrap_or(u8::MAX))))
                .collect()
        })
        .collect();
    let paired = PairedResult::from_matches(places.iter().map(Vec::as_slice));
    let mut ratings = Ratings::from_ratings(system, set.bots.iter().map(|&b| before(b)).collect());
    let changes =
        ratings.update(&paired).map_err(|error| HostedError::Rating { set: set.index, error })?;
    Ok(changes
        .into_iter()
        .map(|change| RatingUpdate {
            bot: set.bots[change.bot],
            before: stored(change.before),
            after: stored(change.after),
        })
        .collect())
}

/// The ratings a serial replay of `rated` (a ladder's rated sets, in set order) gives: every
/// bot starts at the system's initial rating and each set is rated by [`rate_set`]. A ladder's
/// stored ratings equal this, however its matches interleaved and however often it restarted.
pub fn replay(
    system: RatingSystem,
    rated: &[LadderSet],
) -> Result<BTreeMap<BotId, Rating>, HostedError> {
    let mut ratings: BTreeMap<BotId, Rating> = BTreeMap::new();
    for set in rated {
        let updates = rate_set(system, set, |bot| {
            ratings.get(&bot).copied().unwrap_or_else(|| Rating::initial(system))
        })?;
        for update in updates {
            ratings.insert(update.bot, rating(update.after));
        }
    }
    Ok(ratings)
}

/// Milliseconds since the Unix epoch.
fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_millis() as i64)
}

/// A new run id: this process's name as a lease owner.
fn new_run_id() -> String {
    let mut bytes = [0u8; 8];
    // Without the OS generator, the time and the process id still tell runs apart.
    if getrandom::fill(&mut bytes).is_err() {
        bytes = (now_ms() ^ i64::from(std::process::id())).to_le_bytes();
    }
    format!("run-{}", hex::encode(bytes))
}

/// Every hosted ladder of one server process, and what the admin ladder rpcs call.
#[derive(Clone)]
pub struct HostedLadders {
    shared: Arc<Shared>,
}

struct Shared {
    store: Arc<dyn Store>,
    host: Host,
    /// This process's lease owner name.
    run_id: String,
    /// The address this node advertises to the others ("" if none).
    advertise: String,
    /// Each running ladder's status channel, by name.
    ladders: Mutex<HashMap<String, watch::Sender<LadderStatus>>>,
    /// Each ladder's file as this node last read it from the store (`nodes::follow_ladders`):
    /// another node's change (a season's divisions) wakes the ladder's task to read it.
    files: Mutex<HashMap<String, String>>,
    /// What this node counts for `/metrics`.
    metrics: metrics::RunnerMetrics,
    /// Cancelled when hosting stops: no match starts any more, and each ladder's task returns
    /// once its running matches have ended and their ends are stored.
    stopping: CancellationToken,
    /// Every ladder's task, so that a stop can wait for them.
    tasks: TaskTracker,
}

impl std::fmt::Debug for HostedLadders {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostedLadders").field("run_id", &self.shared.run_id).finish()
    }
}

impl HostedLadders {
    /// Starts hosting: every match an earlier run left running returns to planned, leases are
    /// renewed from now on, and every ladder in the store that is not closed resumes.
    pub async fn start(store: Arc<dyn Store>, host: Host) -> Result<HostedLadders, HostedError> {
        HostedLadders::start_node(store, host, String::new(), StoreLatency::default()).await
    }

    /// Starts hosting as one node of many when the store is shared ([`Store::is_shared`]),
    /// advertising `advertise` (the address bots and spectators reach this node at) in its
    /// heartbeat: it takes back no running match (the ladders' leaders return dead nodes'
    /// matches to planned), and joins every ladder in the store that is not closed. On a store
    /// of its own, as [`HostedLadders::start`]. The store calls of its hot path (claims,
    /// results, leases, heartbeats, each step's reads) are timed into `store_latency`.
    pub async fn start_node(
        store: Arc<dyn Store>,
        host: Host,
        advertise: String,
        store_latency: StoreLatency,
    ) -> Result<HostedLadders, HostedError> {
        let run_id = new_run_id();
        let metrics = metrics::RunnerMetrics::new(store_latency);
        if !store.is_shared() {
            let restart = Requeue::NotOwnedBy(run_id.clone());
            let requeued = store.requeue_matches(&restart, now_ms()).await?;
            metrics.requeued(&restart, requeued);
            if requeued > 0 {
                info!(requeued, "matches left running by an earlier run will be played again");
            }
        }
        let shared = Arc::new(Shared {
            store,
            host,
            run_id,
            advertise,
            ladders: Mutex::default(),
            files: Mutex::default(),
            metrics,
            stopping: CancellationToken::new(),
            tasks: TaskTracker::new(),
        });
        tokio::spawn(renew_leases(Arc::downgrade(&shared)));
        if shared.store.is_shared() {
            // Seen at once, so no leader takes this node for dead before its first interval.
            nodes::beat_once(&shared).await;
            tokio::spawn(nodes::heartbeat(Arc::downgrade(&shared)));
            info!(node = %shared.run_id, "this node joins the others on the store");
        }
        let hosted = HostedLadders { shared };
        for ladder in hosted.shared.store.ladders().await? {
            if ladder.status != LadderStatus::Closed {
                hosted.run(ladder).await?;
            }
        }
        tokio::spawn(season::run(Arc::downgrade(&hosted.shared)));
        Ok(hosted)
    }

    /// This process's lease owner name.
    pub fn run_id(&self) -> &str {
        &self.shared.run_id
    }

    /// Adds what this node's ladders count to `registry`: its claims, results and matches
    /// given back, and the failures recorded, by ladder; its requeues and lease renewals. The
    /// store latency given to [`HostedLadders::start_node`] is its owner's to register.
    pub fn register_metrics(&self, registry: &mut prometheus_client::registry::Registry) {
        self.shared.metrics.register(registry);
    }

    /// Stops hosting: no ladder starts a match any more (nor plans a set). The matches
    /// running go on: [`HostedLadders::stopped`] waits for their ends to be stored.
    pub fn stop_scheduling(&self) {
        self.shared.stopping.cancel();
    }

    /// Waits, once [`HostedLadders::stop_scheduling`] was called, until every ladder's task
    /// has stored the ends of its running matches (played out, or given back to planned when
    /// the server ended them at shutdown) and returned: then nothing of the ladders is in
    /// flight, and the runtime may go without losing a result or warning about one.
    pub async fn stopped(&self) {
        self.shared.tasks.close();
        self.shared.tasks.wait().await;
    }

    /// Opens the ladder of `file` (its text `text`): created if new, else resumed with the
    /// file's cap, clock, health and bots (its game, options, table, seed, seatings and rating
    /// system must be those it was created with). A closed ladder whose budget the file grows
    /// (`rounds`, `max_sets`) runs again.
    ///
    /// Nodes of one shared store that start together with the same file open one ladder: the
    /// first creates it, the others resume it.
    pub async fn open(&self, file: &HostedLadderFile, text: &str) -> Result<Ladder, HostedError> {
        let store = &self.shared.store;
        let found = match store.ladder(&file.name).await? {
            Some(ladder) => Some(ladder),
            None => match store.create_ladder(&file.new_ladder(text), now_ms()).await {
                Ok(created) => {
                    self.run(created.clone()).await?;
                    return Ok(created);
                }
                // Created by another node meanwhile: resumed as if it had been there.
                Err(StoreError::LadderExists(_)) => store.ladder(&file.name).await?,
                Err(error) => return Err(error.into()),
            },
        };
        let ladder =
            found.ok_or_else(|| StoreError::NoSuchLadder(format!("named {:?}", file.name)))?;
        let stored = HostedLadderFile::parse(&ladder.spec.config)?;
        file.same_ladder(&stored)?;
        let grows = ladder.status == LadderStatus::Closed && file.grows(&stored);
        let mut ladder = store.update_ladder_config(ladder.id, file.provisional_sets, text).await?;
        if grows {
            // Closed by its budget, which the file grows: it plays on.
            info!(ladder = %file.name, "the ladder's budget grew: it runs again");
            ladder = store.reopen_ladder(ladder.id, now_ms()).await?;
        }
        self.run(ladder.clone()).await?;
        Ok(ladder)
    }

    /// Starts `ladder`'s task unless it runs already (then it reads its new file).
    async fn run(&self, ladder: Ladder) -> Result<(), HostedError> {
        let name = ladder.spec.name.clone();
        if self.shared.stopping.is_cancelled() {
            // The node is stopping: nothing starts.
            return Ok(());
        }
        let (status_tx, status) = watch::channel(ladder.status);
        {
            // Checked and taken at once: two callers (an open and the heartbeat's look at the
            // store) never start two tasks for one ladder.
            let mut ladders = self.ladders();
            if let Some(running) = ladders.get(&name) {
                // Running already: it picks up its new file through its status channel.
                running.send_modify(|_| {});
                return Ok(());
            }
            ladders.insert(name.clone(), status_tx.clone());
        }
        let (store, id) = (Arc::clone(&self.shared.store), ladder.id);
        let runner = match Runner::load(Arc::clone(&self.shared), ladder, status).await {
            Ok(runner) => runner,
            Err(error) => {
                self.forget(&name, &status_tx);
                return Err(error);
            }
        };
        self.shared.metrics.ladder_started(&name);
        let hosted = self.clone();
        self.shared.tasks.spawn(async move {
            runner.run().await;
            // A ladder reopened later gets a task of its own.
            hosted.forget(&name, &status_tx);
            // A standby may lead the ladder again once it is reopened.
            if let Err(error) = store.resign(id).await {
                warn!(ladder = %name, cause = %error, "the ladder's leadership was not given up");
            }
            info!(ladder = %name, "ladder task ended");
        });
        Ok(())
    }

    /// Forgets the task of `name` whose status sender is `sender`, if it is still the one.
    fn forget(&self, name: &str, sender: &watch::Sender<LadderStatus>) {
        let mut ladders = self.ladders();
        if ladders.get(name).is_some_and(|running| running.same_channel(sender)) {
            ladders.remove(name);
        }
    }

    fn ladders(&self) -> std::sync::MutexGuard<'_, HashMap<String, watch::Sender<LadderStatus>>> {
        self.shared.ladders.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sets a ladder's status and tells its task.
    async fn set_status(
        &self,
        name: &str,
        status: LadderStatus,
        reason: &str,
    ) -> Result<Ladder, HostedError> {
        let store = &self.shared.store;
        let ladder = store
            .ladder(name)
            .await?
            .ok_or_else(|| StoreError::NoSuchLadder(format!("named {name:?}")))?;
        let reason = (!reason.is_empty()).then_some(reason);
        let ladder = store.set_ladder_status(ladder.id, status, reason, now_ms()).await?;
        if let Some(tx) = self.ladders().get(name) {
            let _ = tx.send(status);
        }
        Ok(ladder)
    }
}

fn summary(ladder: &Ladder) -> LadderSummary {
    LadderSummary {
        name: ladder.spec.name.clone(),
        status: ladder.status.as_str().to_owned(),
        reason: ladder.status_reason.clone().unwrap_or_default(),
        game: ladder.spec.game.clone(),
        table_seats: u32::from(ladder.spec.table_seats),
    }
}

#[async_trait::async_trait]
impl LadderControl for HostedLadders {
    async fn command(&self, command: LadderCommand) -> Result<LadderSummary, LadderControlError> {
        let ladder = match command {
            LadderCommand::Create { config_toml } => {
                let file = HostedLadderFile::parse(&config_toml).map_err(HostedError::from)?;
                let new = file.new_ladder(&config_toml);
                let ladder = self.shared.store.create_ladder(&new, now_ms()).await;
                let ladder = ladder.map_err(HostedError::from)?;
                self.run(ladder.clone()).await?;
                ladder
            }
            LadderCommand::Pause { name, reason } => {
                self.set_status(&name, LadderStatus::Paused, &reason).await?
            }
            LadderCommand::Resume { name } => {
                let ladder = self.set_status(&name, LadderStatus::Running, "").await?;
                self.run(ladder.clone()).await?;
                ladder
            }
            LadderCommand::Close { name, reason } => {
                self.set_status(&name, LadderStatus::Closed, &reason).await?
            }
        };
        Ok(summary(&ladder))
    }

    async fn request_scrimmages(
        &self,
        request: ScrimmageRequest,
    ) -> Result<Vec<ScrimmageId>, LadderControlError> {
        let found = self.shared.store.ladder(&request.ladder).await.map_err(HostedError::from)?;
        let ladder = found.ok_or_else(|| {
            LadderControlError::NotFound(format!("no ladder named {:?}", request.ladder))
        })?;
        scrims::request(&self.shared, &ladder, request).await
    }

    async fn resume_bot(&self, ladder: &str, bot: &str) -> Result<ResumedBot, LadderControlError> {
        let store = &self.shared.store;
        let found = store.ladder(ladder).await.map_err(HostedError::from)?;
        let found = found
            .ok_or_else(|| LadderControlError::NotFound(format!("no ladder named {ladder:?}")))?;
        let rows = store.ladder_bots(found.id).await.map_err(HostedError::from)?;
        let row = rows.into_iter().find(|row| row.name == bot).ok_or_else(|| {
            LadderControlError::NotFound(format!("no bot named {bot:?} in ladder {ladder:?}"))
        })?;
        let paused_reason = row.paused_reason.ok_or_else(|| {
            LadderControlError::FailedPrecondition(format!(
                "{bot} is not paused in ladder {ladder:?}"
            ))
        })?;
        store.resume_bot(found.id, row.bot).await.map_err(HostedError::from)?;
        // Its task reads the pauses again when woken through its status channel.
        if let Some(status) = self.ladders().get(ladder) {
            status.send_modify(|_| {});
        }
        Ok(ResumedBot { ladder: ladder.to_owned(), bot: bot.to_owned(), paused_reason })
    }

    async fn put_season(
        &self,
        config_toml: &str,
    ) -> Result<cardroom_store::Season, LadderControlError> {
        Ok(season::put(self.shared.store.as_ref(), config_toml).await?)
    }

    fn node_name(&self) -> Option<&str> {
        Some(&self.shared.run_id)
    }
}

/// Renews this run's leases every third of [`LEASE`] while the ladders exist.
async fn renew_leases(shared: std::sync::Weak<Shared>) {
    let mut every = tokio::time::interval(LEASE / 3);
    loop {
        every.tick().await;
        let Some(shared) = shared.upgrade() else { return };
        let until = now_ms() + LEASE.as_millis() as i64;
        let renewal = timed!(shared, renew_leases(&shared.run_id, until)).await;
        shared.metrics.renewal(&renewal);
        if let Err(error) = renewal {
            warn!(cause = %error, "leases not renewed");
        }
    }
}

/// The bots whose standings a ladder keeps: all but the late entrants a finals ladder
/// refused ([`standings::LATE_ENTRANT`]), paused until an operator resumes them.
fn field(bots: &BTreeMap<BotId, BotState>) -> impl Iterator<Item = BotId> + '_ {
    bots.iter()
        .filter(|(_, b)| !b.paused.as_deref().is_some_and(standings::is_late_entrant))
        .map(|(&id, _)| id)
}

/// One bot as its ladder's task sees it.
struct BotState {
    name: String,
    rating: Rating,
    paused: Option<String>,
    /// Its matches running in this ladder.
    running: u32,
    /// When it was last seen waiting in a lobby (or last finished a match).
    last_seen: Instant,
    /// The node (lease owner name) whose lobby it was last seen waiting in, if seen.
    node: Option<String>,
    /// Its last matches' first failures, latest last (at most `health.window`).
    recent: VecDeque<Option<FailureKind>>,
    /// A table waited `wait_ms` for it while it was busy: it is not waited for again until it
    /// is free.
    passed_over: bool,
}

/// A scrimmage played (or given up), for the ladder's task.
struct ScrimEnded {
    id: ScrimmageId,
    bots: Vec<BotId>,
    results: cardroom_store::ScrimmageResults,
}

/// A match's end as its waiter hands it to the ladder's task.
struct Ended {
    claim: Claim,
    set: u64,
    end: Result<HostedEnd, HostError>,
}

/// One ladder's task.
struct Runner {
    shared: Arc<Shared>,
    ladder: Ladder,
    file: HostedLadderFile,
    system: RatingSystem,
    status: watch::Receiver<LadderStatus>,
    bots: BTreeMap<BotId, BotState>,
    /// Registered, active bots by name, as last read.
    registered: HashMap<String, BotId>,
    /// The registered bots' authors, read with them.
    authors: HashMap<BotId, String>,
    registered_read: Option<Instant>,
    /// Open sets by index, with their matches: this task is their only writer.
    open: BTreeMap<u64, LadderSet>,
    next_set: u64,
    running: u32,
    /// Whether this node schedules the ladder (its last [`Store::try_lead`] won).
    leading: bool,
    /// When this node, leading, last returned dead nodes' matches to planned.
    requeued: Option<Instant>,
    ended_tx: mpsc::UnboundedSender<Ended>,
    ended: mpsc::UnboundedReceiver<Ended>,
    /// When this node, leading, last read the pending scrimmages.
    scrims_read: Option<Instant>,
    /// The bots of the pending scrimmages, as last read: held from the ladder's own matches.
    held_for_scrims: HashSet<BotId>,
    scrim_ended_tx: mpsc::UnboundedSender<ScrimEnded>,
    scrim_ended: mpsc::UnboundedReceiver<ScrimEnded>,
    /// Results not stored yet, tried again at every step (`unstored.rs`).
    unstored: VecDeque<unstored::Unstored>,
    /// The rated sets' head-to-head evidence: the standings and the adaptive schedule.
    evidence: Evidence,
    /// When the standings snapshot is written.
    snapshot: SnapshotThrottle,
    /// When this node planned each open set it planned (a set waiting for a busy bot waits
    /// `wait_ms` at most).
    planned_at: HashMap<u64, Instant>,
    /// When a match this node tried to start could not be (a bot borrowed from another node
    /// was no longer there): it is not tried again before that node's next heartbeat.
    not_started: HashMap<LadderMatchId, Instant>,
}

impl Runner {
    async fn load(
        shared: Arc<Shared>,
        ladder: Ladder,
        status: watch::Receiver<LadderStatus>,
    ) -> Result<Runner, HostedError> {
        let store = &shared.store;
        let file = HostedLadderFile::parse(&ladder.spec.config)?;
        let system = system_named(&ladder.spec.rating)?;
        let mut bots = BTreeMap::new();
        for row in store.ladder_bots(ladder.id).await? {
            let recent = store.recent_outcomes(ladder.id, row.bot, file.health.window).await?;
            bots.insert(row.bot, bot_state(row, recent.into_iter().rev().map(|o| o.failure)));
        }
        let open = store.open_sets(ladder.id).await?.into_iter().map(|s| (s.index, s)).collect();
        let next_set = store.set_count(ladder.id).await?;
        let rated = store.rated_sets(ladder.id).await?;
        let evidence = Evidence::from_rated(&rated, field(&bots), 0);
        let (ended_tx, ended) = mpsc::unbounded_channel();
        let (scrim_ended_tx, scrim_ended) = mpsc::unbounded_channel();
        Ok(Runner {
            shared,
            ladder,
            file,
            system,
            status,
            bots,
            registered: HashMap::new(),
            authors: HashMap::new(),
            registered_read: None,
            open,
            next_set,
            running: 0,
            leading: false,
            requeued: None,
            ended_tx,
            ended,
            scrims_read: None,
            held_for_scrims: HashSet::new(),
            scrim_ended_tx,
            scrim_ended,
            unstored: VecDeque::new(),
            evidence,
            snapshot: SnapshotThrottle::default(),
            planned_at: HashMap::new(),
            not_started: HashMap::new(),
        })
    }

    fn id(&self) -> LadderId {
        self.ladder.id
    }

    fn store(&self) -> &dyn Store {
        self.shared.store.as_ref()
    }

    /// Rates, schedules and collects ends until the ladder is closed and its last match is in.
    async fn run(mut self) {
        self.run_steps().await;
        self.shared.metrics.ladder_gone(&self.ladder.spec.name);
    }

    /// What [`Runner::run`] does, its gauges read out at every step.
    async fn run_steps(&mut self) {
        let mut arrivals = self.shared.host.lobby_arrivals();
        // The standings of what the store holds, before anything more is rated.
        self.on_rated().await;
        let stopping = self.shared.stopping.clone();
        loop {
            // A status set since the last look comes with the file it was set with (a resume
            // may carry a grown file): read it before stepping on it.
            if self.status.has_changed().unwrap_or(false) {
                self.reload_file().await;
                self.reload_pauses().await;
            }
            let status = *self.status.borrow_and_update();
            let stopped = stopping.is_cancelled();
            if (status == LadderStatus::Closed || stopped) && self.running == 0 {
                return;
            }
            // Stopping, it rates what completes and starts nothing.
            let status = if stopped { LadderStatus::Paused } else { status };
            self.retry_unstored().await;
            if let Err(error) = self.step(status).await {
                warn!(ladder = %self.ladder.spec.name, cause = %error, "ladder step failed");
                // Lead again from what the store holds (a set planned by a node that led
                // meanwhile moves the next set's index).
                self.leading = false;
            }
            self.gauges();
            tokio::select! {
                Some(ended) = self.ended.recv() => self.on_end(ended).await,
                Some(ended) = self.scrim_ended.recv() => self.on_scrim_end(ended).await,
                changed = self.status.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    self.reload_file().await;
                    self.reload_pauses().await;
                }
                _ = arrivals.changed() => {}
                () = stopping.cancelled(), if !stopping.is_cancelled() => {}
                () = tokio::time::sleep(IDLE_LOOK) => {}
            }
            // Take every end already in before scheduling again.
            while let Ok(ended) = self.ended.try_recv() {
                self.on_end(ended).await;
            }
        }
    }

    /// Reads out what `/metrics` shows of the ladder now: its matches running here, and its
    /// bots playing here or seen waiting in a lobby lately.
    fn gauges(&self) {
        let seen = self
            .bots
            .values()
            .filter(|b| b.running > 0 || (b.node.is_some() && b.last_seen.elapsed() < SEEN_LATELY))
            .count();
        self.shared.metrics.ladder_now(&self.ladder.spec.name, self.running, seen);
    }

    /// Reads the ladder's file again (a restart or a resume may have changed its cap).
    async fn reload_file(&mut self) {
        match self.store().ladder(&self.ladder.spec.name).await {
            Ok(Some(ladder)) => match HostedLadderFile::parse(&ladder.spec.config) {
                Ok(file) => {
                    self.file = file;
                    self.ladder = ladder;
                }
                Err(error) => warn!(cause = %error, "the ladder's new file is refused"),
            },
            Ok(None) => {}
            Err(error) => warn!(cause = %error, "the ladder could not be read"),
        }
    }

    /// Reads the bots' pauses again from the store, where `ResumeBot` lifts them. A bot whose
    /// pause is lifted is scheduled again, its health window started empty (the failures that
    /// paused it are not held against it twice).
    async fn reload_pauses(&mut self) {
        let rows = match self.store().ladder_bots(self.id()).await {
            Ok(rows) => rows,
            Err(error) => {
                warn!(cause = %error, "the ladder's bots could not be read");
                return;
            }
        };
        for row in rows {
            let Some(state) = self.bots.get_mut(&row.bot) else { continue };
            if state.paused.is_some() && row.paused_reason.is_none() {
                info!(ladder = %self.ladder.spec.name, bot = %state.name, "bot resumed");
                state.paused = None;
                state.recent.clear();
                // A late entrant of a finals ladder resumed by its operator joins the field.
                self.evidence.add_bot(row.bot);
            }
        }
    }

    async fn step(&mut self, status: LadderStatus) -> Result<(), HostedError> {
        self.lead().await?;
        if self.shared.store.is_shared() {
            self.refresh().await?;
        }
        if self.leading {
            let revision = self.evidence.revision();
            let rated = self.rate_complete().await;
            if self.evidence.revision() != revision || self.snapshot.pending_due(Instant::now()) {
                self.on_rated().await;
            }
            rated?;
        }
        if status == LadderStatus::Running {
            // Resumed with its budget spent (its sets were rated while it was paused, or
            // before a restart): it closes now, its standings written.
            if self.leading && self.budget_spent().is_some() {
                self.on_rated().await;
                return Ok(());
            }
            self.schedule().await?;
        }
        Ok(())
    }

    /// Tries to lead the ladder (or checks that this node still does).
    async fn lead(&mut self) -> Result<(), HostedError> {
        let leading = match timed!(self.shared, try_lead(self.id())).await {
            Ok(leading) => leading,
            Err(error) => {
                // Unsure whether the lock still holds: plan and rate nothing until it is known.
                self.leading = false;
                return Err(error.into());
            }
        };
        if leading && !self.leading {
            // Taking over (or the first step): the sets planned so far are the store's.
            self.next_set = self.store().set_count(self.id()).await?;
            if self.shared.store.is_shared() {
                // The sets another node rated while it led: the standings and the schedule
                // start from all of them.
                let rated = self.store().rated_sets(self.id()).await?;
                self.evidence = Evidence::from_rated(&rated, field(&self.bots), 0);
            }
            info!(ladder = %self.ladder.spec.name, node = %self.shared.run_id, next_set = self.next_set, "this node schedules the ladder");
            // The scrimmages a leader that went away was playing are played again.
            self.store().requeue_scrimmages(self.id(), &self.shared.run_id).await?;
        } else if !leading && self.leading {
            info!(ladder = %self.ladder.spec.name, "another node schedules the ladder now");
        }
        self.leading = leading;
        Ok(())
    }

    /// Reads the ladder's open sets and its bots' ratings and pauses again from the store,
    /// where the other nodes write them too (a shared store only: on its own store this task is
    /// their only writer and its memory is current).
    async fn refresh(&mut self) -> Result<(), HostedError> {
        let open = timed!(self.shared, open_sets(self.ladder.id)).await?;
        self.open = open.into_iter().map(|s| (s.index, s)).collect();
        if let Some(&last) = self.open.keys().next_back() {
            self.next_set = self.next_set.max(last + 1);
        }
        for row in timed!(self.shared, ladder_bots(self.ladder.id)).await? {
            match self.bots.get_mut(&row.bot) {
                Some(bot) => {
                    bot.rating = rating(row.rating);
                    bot.paused = row.paused_reason;
                }
                None => {
                    // Entered by another node, which admitted it (or refused it, a finals
                    // ladder's late entrant, left out of the standings).
                    if !row.paused_reason.as_deref().is_some_and(standings::is_late_entrant) {
                        self.evidence.add_bot(row.bot);
                    }
                    self.bots.insert(row.bot, bot_state(row, std::iter::empty()));
                }
            }
        }
        Ok(())
    }

    /// Rates every complete set at the front of the open ones, in set order.
    async fn rate_complete(&mut self) -> Result<(), HostedError> {
        while let Some(set) = self.open.values().next() {
            if !set.is_complete() {
                return Ok(());
            }
            let index = set.index;
            if self.void_if_unfrozen(index).await? {
                continue;
            }
            let Some(set) = self.open.get(&index) else { continue };
            let system = self.system;
            let updates = rate_set(system, set, |bot| {
                self.bots.get(&bot).map_or_else(|| Rating::initial(system), |b| b.rating)
            })?;
            timed!(self.shared, rate_set(self.id(), index, &updates, now_ms())).await?;
            for update in &updates {
                if let Some(bot) = self.bots.get_mut(&update.bot) {
                    bot.rating = rating(update.after);
                }
            }
            if let Some(set) = self.open.remove(&index) {
                self.evidence.add_set(&set);
            }
        }
        Ok(())
    }

    /// The registered, active bots by name (read again when the lobby shows a name not known,
    /// at most once a second).
    async fn registered(&mut self, lobby: &HashMap<String, usize>) -> Result<(), HostedError> {
        let unknown = lobby.keys().any(|name| !self.registered.contains_key(name));
        let stale = self.registered_read.is_none_or(|read| read.elapsed() > Duration::from_secs(1));
        if unknown && stale {
            let bots = timed!(self.shared, bots()).await?;
            let active = bots.into_iter().filter(|bot| bot.status == BotStatus::Active);
            self.registered.clear();
            for bot in active {
                if let Some(author) = bot.author {
                    self.authors.insert(bot.id, author);
                }
                self.registered.insert(bot.name, bot.id);
            }
            self.registered_read = Some(Instant::now());
        }
        Ok(())
    }

    /// Starts what can start and, leading, voids what cannot be played and plans new sets for
    /// idle bots, among the bots waiting on every live node of the store (one pool).
    async fn schedule(&mut self) -> Result<(), HostedError> {
        let own = self.shared.run_id.clone();
        let here = self.waiting(&own, &self.shared.host.lobby(), true).await?;
        let lends = !self.shared.advertise.is_empty();
        let own_lobby = NodeLobby { owner: own.clone(), lender: None, lends, free: here };
        let mut pool = Pool { lobbies: vec![own_lobby] };
        if self.shared.store.is_shared() {
            // The other live nodes' lobbies, from their heartbeats.
            for node in timed!(self.shared, nodes(nodes::alive_since_ms())).await? {
                let beat = node.beat;
                if beat.owner == own {
                    continue;
                }
                let lobby = beat.lobby.into_iter().map(|(name, n)| (name, n as usize)).collect();
                let leading = self.leading;
                let free = self.waiting(&beat.owner, &lobby, leading).await?;
                // A node that advertises no address cannot lend its bots.
                let lends = !beat.advertise.is_empty();
                let lender =
                    lends.then_some(Lender { address: beat.advertise, secret: beat.secret });
                pool.lobbies.push(NodeLobby { owner: beat.owner, lender, lends, free });
            }
            if self.leading {
                self.requeue_gone().await;
            }
        }
        if self.leading {
            let anywhere = pool.anywhere();
            self.void_unplayable(&anywhere).await?;
            self.void_waited_out(&anywhere).await?;
            // Scrimmages first: they are few (a quota an hour), and would wait for ever behind
            // a ladder that always has the next set planned for their bots.
            self.start_scrimmages(&mut pool).await;
        }
        self.start_planned(&mut pool).await?;
        if self.leading {
            while self.plan_one(&pool.anywhere()).await? {
                self.start_planned(&mut pool).await?;
            }
        }
        Ok(())
    }

    /// The ladder's bots waiting in `node`'s lobby (`lobby`), by id, with their free streams;
    /// a registered bot the ladder admits is entered in it when first seen, if `enter` (this
    /// node's own lobby, or any when it leads).
    async fn waiting(
        &mut self,
        node: &str,
        lobby: &HashMap<String, usize>,
        enter: bool,
    ) -> Result<HashMap<BotId, usize>, HostedError> {
        self.registered(lobby).await?;
        let now = Instant::now();
        let mut free: HashMap<BotId, usize> = HashMap::new();
        for (name, &waiting) in lobby {
            let Some(&id) = self.registered.get(name) else { continue };
            if !self.file.admits(name) || !(enter || self.bots.contains_key(&id)) {
                continue;
            }
            if !self.bots.contains_key(&id) {
                let initial = stored(Rating::initial(self.system));
                let row = self.store().enter_ladder(self.id(), id, initial, now_ms()).await?;
                info!(ladder = %self.ladder.spec.name, bot = %name, "bot entered the ladder");
                self.bots.insert(id, bot_state(row, std::iter::empty()));
                if self.admits_entrant(name) {
                    self.evidence.add_bot(id);
                } else {
                    self.refuse_late_entrant(id, name).await?;
                }
            }
            if let Some(bot) = self.bots.get_mut(&id) {
                bot.last_seen = now;
                if bot.node.as_deref() != Some(node) {
                    bot.node = Some(node.to_owned());
                }
                if waiting > 0 && bot.running < self.file.max_concurrent {
                    // Free again: a table may wait for it once more.
                    bot.passed_over = false;
                }
            }
            free.insert(id, waiting);
        }
        Ok(free)
    }

    /// Leading on a shared store, at most once per second: returns to planned the matches
    /// whose node has stopped its heartbeat, or whose lease has expired.
    async fn requeue_gone(&mut self) {
        if self.requeued.is_some_and(|at| at.elapsed() < Duration::from_secs(1)) {
            return;
        }
        self.requeued = Some(Instant::now());
        let gone = Requeue::OwnerGone { seen_since_ms: nodes::alive_since_ms() };
        for which in [gone, Requeue::Expired] {
            match timed!(self.shared, requeue_matches(&which, now_ms())).await {
                Ok(0) => {}
                Ok(requeued) => {
                    self.shared.metrics.requeued(&which, requeued);
                    info!(requeued, ?which, "matches of a node that is gone will be played again");
                }
                Err(error) => warn!(cause = %error, "matches of dead nodes not requeued"),
            }
        }
    }

    /// The ladder's matches running now: this node's, or on a shared store every node's, as
    /// the open sets were last read from the store (each step reads them again). What the
    /// ladder's `max_matches` bounds; the claim itself counts the store's again.
    fn running_anywhere(&self) -> u32 {
        let listed = self
            .open
            .values()
            .flat_map(|s| &s.matches)
            .filter(|m| m.state == MatchState::Running)
            .count();
        self.running.max(u32::try_from(listed).unwrap_or(u32::MAX))
    }

    /// Whether `bot` may start another match now: [`Runner::may_start`], and a stream of it
    /// waits in `free`.
    fn can_play(&self, bot: BotId, free: &HashMap<BotId, usize>) -> bool {
        self.may_start_rated(bot) && free.get(&bot).is_some_and(|&n| n > 0)
    }

    /// Whether `bot` may start another match, wherever it waits: known, not paused, under its
    /// cap.
    fn may_start(&self, bot: BotId) -> bool {
        self.bots
            .get(&bot)
            .is_some_and(|b| b.paused.is_none() && b.running < self.file.max_concurrent)
    }

    /// Whether `bot` may start a scrimmage: known and under its cap. A bot the ladder paused
    /// may (its author tries the fix before it counts again).
    fn under_cap(&self, bot: BotId) -> bool {
        self.bots.get(&bot).is_some_and(|b| b.running < self.file.max_concurrent)
    }

    /// Whether `bot` may start another match of the ladder's own: as [`Runner::may_start`],
    /// unless a pending scrimmage holds it (else a busy ladder would seat it as soon as it is
    /// free, and the scrimmage would wait for all its bots to be free at once).
    fn may_start_rated(&self, bot: BotId) -> bool {
        self.may_start(bot) && !self.held_for_scrims.contains(&bot)
    }

    /// Whether `bot` has left: paused, or out of every lobby (`free`) for `absent_ms` playing
    /// nothing (here, nor in the open sets, which hold the other nodes' running matches).
    fn has_left(&self, bot: BotId, free: &HashMap<BotId, usize>, playing: &HashSet<BotId>) -> bool {
        let absent = Duration::from_millis(self.file.absent_ms);
        self.bots.get(&bot).is_none_or(|b| {
            b.paused.is_some()
                || (b.running == 0
                    && !playing.contains(&bot)
                    && !free.contains_key(&bot)
                    && b.last_seen.elapsed() > absent)
        })
    }

    /// Voids every open set that has a planned match with a bot that left, and nothing
    /// running.
    async fn void_unplayable(&mut self, free: &HashMap<BotId, usize>) -> Result<(), HostedError> {
        let playing: HashSet<BotId> = self
            .open
            .values()
            .flat_map(|s| &s.matches)
            .filter(|m| m.state == MatchState::Running)
            .flat_map(|m| m.seats.iter().map(|s| s.bot))
            .collect();
        let mut void = Vec::new();
        for set in self.open.values() {
            if set.matches.iter().any(|m| m.state == MatchState::Running) {
                continue;
            }
            let gone = set
                .matches
                .iter()
                .filter(|m| m.state == MatchState::Planned)
                .flat_map(|m| &m.seats)
                .find(|seat| self.has_left(seat.bot, free, &playing));
            if let Some(seat) = gone {
                let name = self.bots.get(&seat.bot).map_or("?", |b| b.name.as_str());
                let why = match self.bots.get(&seat.bot).and_then(|b| b.paused.as_deref()) {
                    Some(reason) => format!("{name} is paused: {reason}"),
                    None => format!("{name} left the lobby"),
                };
                void.push((set.index, why));
            }
        }
        for (index, why) in void {
            self.store().void_set(self.id(), index, &why, now_ms()).await?;
            info!(ladder = %self.ladder.spec.name, set = index, %why, "set voided");
            self.open.remove(&index);
        }
        Ok(())
    }

    /// Voids every set planned to wait for a busy bot that has waited the ladder's `wait_ms`
    /// with none of its matches started; each bot it waited for is passed over until it is
    /// free (the adaptive schedule's bound on a wait, [`cardroom_rank::fair`]).
    async fn void_waited_out(&mut self, free: &HashMap<BotId, usize>) -> Result<(), HostedError> {
        self.planned_at.retain(|index, _| self.open.contains_key(index));
        let wait = Duration::from_millis(self.file.wait_ms);
        let mut void = Vec::new();
        for set in self.open.values() {
            let waited = self.planned_at.get(&set.index).is_some_and(|at| at.elapsed() >= wait);
            if !waited || set.matches.iter().any(|m| m.state != MatchState::Planned) {
                continue;
            }
            let busy: Vec<BotId> =
                set.bots.iter().copied().filter(|&bot| !self.can_play(bot, free)).collect();
            if !busy.is_empty() {
                void.push((set.index, busy));
            }
        }
        for (index, busy) in void {
            let names: Vec<&str> =
                busy.iter().filter_map(|bot| Some(self.bots.get(bot)?.name.as_str())).collect();
            let why = format!("waited {} ms for {}, busy", wait.as_millis(), names.join(", "));
            self.store().void_set(self.id(), index, &why, now_ms()).await?;
            info!(ladder = %self.ladder.spec.name, set = index, %why, "set voided");
            self.open.remove(&index);
            self.planned_at.remove(&index);
            for bot in busy {
                if let Some(state) = self.bots.get_mut(&bot) {
                    state.passed_over = true;
                }
            }
        }
        Ok(())
    }

    /// How the adaptive schedule sees each bot ([`BotNow`]), with the sets each has planned or
    /// running, and its table ([`Evidence::fair_table`]).
    fn fair_table(&self, free: &HashMap<BotId, usize>) -> Option<Vec<BotId>> {
        let mut held = HashSet::new();
        let mut playing = HashSet::new();
        let mut in_flight: HashMap<BotId, u64> = HashMap::new();
        for set in self.open.values() {
            for &bot in &set.bots {
                *in_flight.entry(bot).or_default() += 1;
            }
            for m in &set.matches {
                let bots = m.seats.iter().map(|s| s.bot);
                match m.state {
                    MatchState::Planned => held.extend(bots),
                    MatchState::Running => playing.extend(bots),
                    _ => {}
                }
            }
        }
        let now = self
            .bots
            .iter()
            .filter(|(_, b)| b.paused.is_none())
            .filter_map(|(&id, b)| {
                let state = if held.contains(&id) {
                    BotNow::Held
                } else if self.can_play(id, free) {
                    BotNow::Free
                } else if (b.running > 0 || playing.contains(&id)) && !b.passed_over {
                    BotNow::Busy
                } else {
                    return None;
                };
                Some((id, state))
            })
            .collect();
        self.evidence.fair_table(&now, &in_flight, usize::from(self.file.seats), self.apart())
    }

    /// Claims and starts every planned match whose bots can all play now, somewhere in the
    /// pool, and which this node hosts ([`Pool::seat`]).
    async fn start_planned(&mut self, pool: &mut Pool) -> Result<(), HostedError> {
        let running = self.running_anywhere();
        self.not_started.retain(|_, at| at.elapsed() < nodes::BEAT);
        let mut startable = Vec::new();
        for set in self.open.values() {
            let planned = set.matches.iter().filter(|m| m.state == MatchState::Planned);
            for m in planned.filter(|m| !self.not_started.contains_key(&m.id)) {
                if running + startable.len() as u32 >= self.file.max_matches {
                    break;
                }
                let bots: Vec<BotId> = m.seats.iter().map(|s| s.bot).collect();
                if !bots.iter().all(|&bot| self.may_start_rated(bot)) {
                    continue;
                }
                let Some(seating) = pool.seat(&bots, m.id) else { continue };
                for bot in &bots {
                    if let Some(state) = self.bots.get_mut(bot) {
                        // Counted now, so the cap holds within this pass.
                        state.running += 1;
                    }
                }
                startable.push(seating);
            }
        }
        for seating in startable {
            if !self.start(&seating).await {
                for (bot, _) in &seating {
                    if let Some(state) = self.bots.get_mut(bot) {
                        state.running -= 1;
                    }
                }
            }
        }
        Ok(())
    }

    /// Claims the earliest planned match among the bots of `seating` (the one looked at, or one
    /// before it that another node gave back meanwhile) and starts it, each bot taken from
    /// where `seating` says; returns whether it runs.
    async fn start(&mut self, seating: &[(BotId, Option<Lender>)]) -> bool {
        let bots: Vec<BotId> = seating.iter().map(|(bot, _)| *bot).collect();
        let lease = Lease {
            owner: self.shared.run_id.clone(),
            until_ms: now_ms() + LEASE.as_millis() as i64,
        };
        // The store counts every node's running matches: the cap holds across nodes.
        let limit = ClaimLimit { claims: 1, running: self.file.max_matches };
        let claimed = timed!(self.shared, claim_ready(self.id(), &bots, &lease, now_ms(), limit));
        let claim = match claimed.await {
            Ok(claims) => match claims.into_iter().next() {
                Some(claim) => {
                    self.shared.metrics.claimed(&self.ladder.spec.name);
                    claim
                }
                // Claimed by another node since this one read the open sets, or other nodes'
                // matches fill the ladder's cap.
                None => return false,
            },
            Err(error) => {
                warn!(cause = %error, "match not claimed");
                return false;
            }
        };
        let id = claim.id;
        let found = self.open.values().find_map(|s| {
            let m = s.matches.iter().find(|m| m.id == id)?;
            Some((s.index, m.seed, m.seats.iter().map(|seat| seat.bot).collect::<Vec<_>>()))
        });
        let Some((set, seed, seated)) = found else {
            // Planned after this node read the open sets: it waits for the next step.
            if let Err(error) = timed!(self.shared, release_match(&claim)).await {
                warn!(match_id = id.0, cause = %error, "match not released");
            }
            return false;
        };
        let seats = seated
            .iter()
            .map(|bot| HostedSeatFrom {
                bot: self.bots.get(bot).map_or_else(String::new, |b| b.name.clone()),
                lender: seating.iter().find(|(b, _)| b == bot).and_then(|(_, l)| l.clone()),
            })
            .collect();
        let request = HostedMatch {
            game: self.file.game,
            options_json: self.file.options_json(),
            seed,
            seats,
            move_ms: self.file.move_ms,
            bank_ms: self.file.bank_ms,
            max_bad_replies: self.file.max_bad_replies,
        };
        match self.shared.host.start(request).await {
            Ok(started) => {
                if self.shared.store.is_shared() {
                    // So that a spectator asking another node is told this one's address.
                    let noted = timed!(self.shared, note_hosting(&claim, &started.match_id));
                    let noted = noted.await;
                    if let Err(error) = noted {
                        warn!(match_id = id.0, cause = %error, "the hosting node not noted");
                    }
                }
                self.set_match_state(set, id, MatchState::Running);
                self.running += 1;
                let tx = self.ended_tx.clone();
                tokio::spawn(async move {
                    let end = started.end().await;
                    let _ = tx.send(Ended { claim, set, end });
                });
                true
            }
            Err(error) => {
                // A bot left its lobby since it was looked at: the match waits, planned.
                info!(match_id = id.0, cause = %error, "match not started");
                self.not_started.insert(id, Instant::now());
                if let Err(error) = timed!(self.shared, release_match(&claim)).await {
                    warn!(match_id = id.0, cause = %error, "match not released");
                }
                false
            }
        }
    }

    fn set_match_state(&mut self, set: u64, id: LadderMatchId, state: MatchState) {
        if let Some(m) =
            self.open.get_mut(&set).and_then(|s| s.matches.iter_mut().find(|m| m.id == id))
        {
            m.state = state;
        }
    }

    /// Plans one new set for the bots of the pool (`free`, every node's): by the adaptive
    /// schedule among every bot, free or busy (a set for a busy bot waits for it), else among
    /// the bots that wait, may play and have no planned match yet; returns whether it did.
    async fn plan_one(&mut self, free: &HashMap<BotId, usize>) -> Result<bool, HostedError> {
        let planned_unstarted: usize = self
            .open
            .values()
            .flat_map(|s| &s.matches)
            .filter(|m| m.state == MatchState::Planned)
            .count();
        if self.running_anywhere() as usize + planned_unstarted >= self.file.max_matches as usize {
            return Ok(false);
        }
        let queued: Vec<BotId> = self
            .open
            .values()
            .flat_map(|s| &s.matches)
            .filter(|m| m.state == MatchState::Planned)
            .flat_map(|m| m.seats.iter().map(|s| s.bot))
            .collect();
        if self
            .file
            .max_sets
            .is_some_and(|max| self.evidence.revision() + self.open.len() as u64 >= max)
        {
            return Ok(false);
        }
        let adaptive =
            self.file.format == HostedFormat::Ladder && self.file.schedule == Schedule::Adaptive;
        let table = if self.file.schedule.is_planned() {
            let view = self.plan_view();
            match view.next(|bot| self.can_play(bot, free) && !queued.contains(&bot)) {
                plan::Next::Table(table) => Some(table),
                plan::Next::Wait | plan::Next::Done => None,
            }
        } else if adaptive {
            self.fair_table(free)
        } else {
            let candidates: Vec<BotId> = self
                .bots
                .keys()
                .copied()
                .filter(|&bot| self.can_play(bot, free) && !queued.contains(&bot))
                .collect();
            self.next_table(&candidates)
        };
        let Some(bots) = table else {
            return Ok(false);
        };
        let index = self.next_set;
        let seed = derive_seed(self.file.seed, index);
        let matches = rotations(bots.len(), self.file.max_rotations)
            .into_iter()
            .enumerate()
            .map(|(j, seating)| NewMatch {
                rotation: j as u32,
                // Without duplicate deals each seating gets a deal of its own.
                seed: if self.file.duplicate { seed } else { derive_seed(seed, j as u64 + 1) },
                seats: seating.iter().map(|&pos| bots[pos]).collect(),
            })
            .collect();
        let set = NewSet { index, seed, bots, matches };
        let planned = timed!(self.shared, plan_set(self.id(), &set, now_ms())).await?;
        self.next_set += 1;
        self.open.insert(index, planned);
        self.planned_at.insert(index, Instant::now());
        Ok(true)
    }

    /// A planned schedule's view of the ladder: the file's field by id, the rated sets and the
    /// open sets' tables.
    fn plan_view(&self) -> plan::PlanView<'_> {
        // A planned file names its bots (checked): their ids once entered.
        let names = self.file.bots.as_deref().unwrap_or_default();
        let field = names
            .iter()
            .map(|name| self.bots.iter().find(|(_, b)| &b.name == name).map(|(&id, _)| id))
            .collect::<Vec<_>>();
        plan::PlanView {
            file: &self.file,
            field,
            rated: self.evidence.counted_sets(),
            open: self.open.values().map(|set| set.bots.clone()).collect(),
            apart: self.apart(),
        }
    }

    /// The bots that never share a table here: two of one author, unless the file allows it.
    fn apart(&self) -> plan::Apart<'_> {
        if self.file.allow_same_author {
            plan::Apart::NONE
        } else {
            plan::Apart::by_author(&self.authors)
        }
    }

    /// Starts the pending scrimmages whose bots are free and seatable here (read at most once
    /// a second). Their bots count as playing until the scrimmage ends.
    async fn start_scrimmages(&mut self, pool: &mut Pool) {
        if self.scrims_read.is_some_and(|read| read.elapsed() < Duration::from_secs(1)) {
            return;
        }
        self.scrims_read = Some(Instant::now());
        let pending = self.store().ladder_scrimmages(self.id(), ScrimmageState::Pending).await;
        let pending = match pending {
            Ok(pending) => pending,
            Err(error) => {
                warn!(cause = %error, "the pending scrimmages could not be read");
                return;
            }
        };
        // A scrimmage whose bots never came together is given up, saying so.
        let (pending, stale): (Vec<_>, Vec<_>) = pending.into_iter().partition(|scrim| {
            now_ms() - scrim.requested_ms < scrims::PENDING_AT_MOST.as_millis() as i64
        });
        for scrim in stale {
            let failure = format!(
                "its bots were not free together within {} minutes",
                scrims::PENDING_AT_MOST.as_secs() / 60
            );
            let results =
                cardroom_store::ScrimmageResults { failure: Some(failure), ..Default::default() };
            let ended = ScrimmageState::Failed;
            if let Err(error) =
                self.store().end_scrimmage(scrim.id, ended, &results.to_json(), now_ms()).await
            {
                warn!(scrimmage = scrim.id.0, cause = %error, "a stale scrimmage not given up");
            }
        }
        // Held from the ladder's matches: the bots of the scrimmages whose bots are all here
        // (waiting somewhere, or playing).
        let anywhere = pool.anywhere();
        let present = |bot: &BotId| {
            self.bots
                .get(bot)
                .is_some_and(|b| b.running > 0 || anywhere.get(bot).is_some_and(|&n| n > 0))
        };
        self.held_for_scrims = pending
            .iter()
            .filter(|scrim| scrim.bots.iter().all(present))
            .flat_map(|scrim| scrim.bots.iter().copied())
            .collect();
        for scrim in pending {
            if !scrim.bots.iter().all(|&bot| self.under_cap(bot)) {
                continue;
            }
            let Some(seating) = pool.seat_here(&scrim.bots) else { continue };
            match self.store().start_scrimmage(scrim.id, &self.shared.run_id).await {
                Ok(true) => {}
                Ok(false) => continue,
                Err(error) => {
                    warn!(cause = %error, "a scrimmage not started");
                    continue;
                }
            }
            for bot in &scrim.bots {
                if let Some(state) = self.bots.get_mut(bot) {
                    state.running += 1;
                }
                self.held_for_scrims.remove(bot);
            }
            let seats = seating
                .into_iter()
                .map(|(bot, lender)| {
                    (self.bots.get(&bot).map_or_else(String::new, |b| b.name.clone()), lender)
                })
                .collect();
            let table = scrims::Table { seed: scrim.seed, seats };
            let (host, file, tx) =
                (self.shared.host.clone(), self.file.clone(), self.scrim_ended_tx.clone());
            info!(ladder = %self.ladder.spec.name, scrimmage = scrim.id.0, "scrimmage started");
            tokio::spawn(async move {
                let results = scrims::play(host, file, table).await;
                let _ = tx.send(ScrimEnded { id: scrim.id, bots: scrim.bots, results });
            });
        }
    }

    /// Keeps a scrimmage's results, and frees its bots.
    async fn on_scrim_end(&mut self, ended: ScrimEnded) {
        let ScrimEnded { id, bots, results } = ended;
        for bot in &bots {
            if let Some(state) = self.bots.get_mut(bot) {
                state.running = state.running.saturating_sub(1);
            }
        }
        let state =
            if results.failure.is_some() { ScrimmageState::Failed } else { ScrimmageState::Done };
        info!(ladder = %self.ladder.spec.name, scrimmage = id.0, state = state.as_str(), "scrimmage ended");
        let kept = self.store().end_scrimmage(id, state, &results.to_json(), now_ms()).await;
        if let Err(error) = kept {
            warn!(scrimmage = id.0, cause = %error, "a scrimmage's results not kept");
        }
    }

    /// Commits a match's end (or gives the match back if it was aborted), and checks its bots'
    /// health.
    async fn on_end(&mut self, ended: Ended) {
        let Ended { claim, set, end } = ended;
        self.running = self.running.saturating_sub(1);
        let bots: Vec<BotId> = self
            .open
            .get(&set)
            .and_then(|s| s.matches.iter().find(|m| m.id == claim.id))
            .map(|m| m.seats.iter().map(|s| s.bot).collect())
            .unwrap_or_default();
        for bot in &bots {
            if let Some(state) = self.bots.get_mut(bot) {
                state.running = state.running.saturating_sub(1);
                state.last_seen = Instant::now();
            }
        }
        let end = match end {
            Ok(end) if !end.aborted => end,
            other => {
                let (why, counted) = match other {
                    Ok(end) => (end.reason, metrics::Released::Aborted),
                    Err(error) => (error.to_string(), metrics::Released::Lost),
                };
                self.shared.metrics.released(&self.ladder.spec.name, counted);
                info!(match_id = claim.id.0, %why, "match not over: it will be played again");
                if let Err(error) = timed!(self.shared, release_match(&claim)).await {
                    warn!(match_id = claim.id.0, cause = %error, "match not released");
                }
                self.set_match_state(set, claim.id, MatchState::Planned);
                return;
            }
        };
        // A hosted bot's output, for its author: kept beside the result, never in its way.
        for (seat, bot) in end.seats.iter().zip(&bots) {
            let Some(output) = seat.output.as_deref().filter(|o| !o.is_empty()) else { continue };
            let kept = timed!(self.shared, keep_output(self.ladder.id, claim.id, *bot, output));
            if let Err(error) = kept.await {
                warn!(match_id = claim.id.0, cause = %error, "a hosted bot's output not kept");
            }
        }
        let result = MatchResult {
            claim: claim.clone(),
            server_match_id: end.match_id.clone(),
            seats: end
                .seats
                .iter()
                .enumerate()
                .map(|(seat, s)| SeatResult {
                    seat: seat as u8,
                    version: s.version.clone(),
                    place: s.place,
                    forfeited: s.forfeited,
                    think: s.think,
                })
                .collect(),
            record_json: end.record_json.clone(),
            failures: end.seats.iter().flat_map(|s| s.failures.iter().cloned()).collect(),
        };
        let pending = unstored::Unstored { set, bots, end, result, since: Instant::now() };
        self.store_result(pending, false).await;
    }

    /// Counts `bot`'s latest match and pauses it if too many of its recent ones failed.
    async fn check_health(&mut self, bot: BotId, failure: Option<&cardroom_store::NewFailure>) {
        let health = self.file.health;
        let Some(state) = self.bots.get_mut(&bot) else { return };
        state.recent.push_back(failure.map(|f| f.kind));
        while state.recent.len() > health.window as usize {
            state.recent.pop_front();
        }
        let failed: Vec<FailureKind> = state.recent.iter().flatten().copied().collect();
        if health.max_failures == 0
            || failed.len() < health.max_failures as usize
            || state.paused.is_some()
        {
            return;
        }
        let kinds: Vec<&str> = failed.iter().map(|k| k.as_str()).collect();
        let mut reason = format!(
            "{} of its last {} matches failed ({})",
            failed.len(),
            state.recent.len(),
            kinds.join(", ")
        );
        if let Some(failure) = failure {
            reason.push_str(&format!("; the last: {}", failure.error));
        }
        warn!(ladder = %self.ladder.spec.name, bot = %state.name, %reason, "bot paused");
        state.paused = Some(reason.clone());
        if let Err(error) = self.pause(bot, &reason).await {
            warn!(cause = %error, "the pause was not stored");
        }
    }

    /// Pauses `bot` in the store with `reason`, and tells the ladder's seasons.
    async fn pause(&mut self, bot: BotId, reason: &str) -> Result<(), StoreError> {
        let store = Arc::clone(&self.shared.store);
        let (id, ladder) = (self.id(), self.ladder.spec.name.clone());
        let name = self.bots.get(&bot).map_or_else(String::new, |b| b.name.clone());
        store.pause_bot(id, bot, reason, now_ms()).await?;
        let text = format!("{name} is paused in {ladder:?}: {reason}");
        let event = cardroom_store::NewSeasonEvent {
            kind: cardroom_store::SeasonEventKind::Paused,
            author: None,
            bot: Some(name),
            text,
        };
        season::note(store.as_ref(), EventScope::Ladder(ladder), event).await;
        Ok(())
    }
}

fn bot_state(row: LadderBot, recent: impl Iterator<Item = Option<FailureKind>>) -> BotState {
    BotState {
        name: row.name,
        rating: rating(row.rating),
        paused: row.paused_reason,
        running: 0,
        last_seen: Instant::now(),
        node: None,
        recent: recent.collect(),
        passed_over: false,
    }
}
