//! The server's counters and the decision round trip, as `GetStats` reports them and
//! `/metrics` encodes them ([`crate::ServerMetrics`]): one count of each figure, read two ways.
//!
//! The round trip is measured where the server can see it: from the moment a match task hands
//! a `Turn` to the bot's stream to the moment the bot's `Act` reaches that task. It includes
//! the server's encoding and sending, the network both ways, the bot's own thinking and the
//! server's decoding, which is what a bot author and a load test care about.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use cardroom_games::GameKind;
use cardroom_proto::pb;
use cardroom_store::FailureKind;
use hdrhistogram::Histogram;
use thread_local::ThreadLocal;

/// The slowest round trip the histogram tells apart; slower ones are counted as this.
const SLOWEST_US: u64 = 3_600_000_000;

const GAMES: usize = GameKind::ALL.len();
const ORIGINS: usize = MatchOrigin::ALL.len();
const ENDS: usize = MatchEnd::ALL.len();
const FAILURES: usize = 4;

/// Server-wide counters, shared by every match task through the registry.
pub(crate) struct Stats {
    started: Instant,
    /// Matches started and ended, by game and origin: a match's task counts itself once at
    /// each end of its life (rarely, so shared atomics). What runs is the difference.
    matches: [[Matches; ORIGINS]; GAMES],
    /// What went wrong for a seat, by origin and kind (`FailureKind::ALL`'s order).
    failures: [[AtomicU64; FAILURES]; ORIGINS],
    /// What every decision counts, one share a thread (see [`Shard`]).
    shards: ThreadLocal<Shard>,
    /// Where `GetStats`' window of round trips starts, by origin: the round trips counted up
    /// to its last reset. The shares' histograms are never reset (`/metrics` reads them whole);
    /// the window is what they hold beyond this.
    window_start: Mutex<[Histogram<u64>; ORIGINS]>,
}

/// One game's matches of one origin.
#[derive(Default)]
struct Matches {
    started: AtomicU64,
    /// Ended, by how ([`MatchEnd::ALL`]'s order).
    ended: [AtomicU64; ENDS],
}

/// One thread's share of what every decision counts. A decision updates six counters and a
/// histogram; shared by all threads, their cache lines would cross between cores whenever two
/// workers' matches take turns (most decisions, under load). Each worker writes only its own
/// share, and a snapshot adds the shares up. A thread's share outlives it: the next thread
/// takes it over (`thread_local` reuses the ids of ended threads), so nothing counted is lost.
struct Shard {
    decisions: AtomicU64,
    /// Decisions in hosted matches (of `decisions`).
    hosted_decisions: AtomicU64,
    turns: AtomicU64,
    turn_bytes: AtomicU64,
    acts: AtomicU64,
    act_bytes: AtomicU64,
    /// The round trips of every match but the hosted ones, in microseconds; a std `Mutex`
    /// because recording is a few nanoseconds and never awaits (and only a snapshot ever
    /// waits for another thread's). Made at the thread's first round trip of the kind (188 KB:
    /// a server holds at most one of each kind a worker thread).
    round_trip: Mutex<Option<Histogram<u64>>>,
    /// The round trips of hosted matches: kept apart, so that a hosted ladder's bots, which
    /// think, do not hide what the other matches see (and the other way round).
    hosted_round_trip: Mutex<Option<Histogram<u64>>>,
}

impl Shard {
    fn new() -> Shard {
        Shard {
            decisions: AtomicU64::new(0),
            hosted_decisions: AtomicU64::new(0),
            turns: AtomicU64::new(0),
            turn_bytes: AtomicU64::new(0),
            acts: AtomicU64::new(0),
            act_bytes: AtomicU64::new(0),
            round_trip: Mutex::new(None),
            hosted_round_trip: Mutex::new(None),
        }
    }

    fn histogram(&self, origin: MatchOrigin) -> MutexGuard<'_, Option<Histogram<u64>>> {
        let histogram = match origin {
            MatchOrigin::Hosted => &self.hosted_round_trip,
            MatchOrigin::Other => &self.round_trip,
        };
        // Recording cannot leave the histogram half-updated in a way that matters.
        histogram.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Whose a match is, for the figures: a hosted ladder's (started through [`crate::Host`]) or
/// any other (an organizer's, the queue's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MatchOrigin {
    Other,
    Hosted,
}

impl MatchOrigin {
    /// Both, in the order of the figures' arrays.
    pub(crate) const ALL: [MatchOrigin; 2] = [MatchOrigin::Other, MatchOrigin::Hosted];

    /// Its name in the figures' labels.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            MatchOrigin::Other => "other",
            MatchOrigin::Hosted => "hosted",
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

/// How a match ended, for the figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MatchEnd {
    /// By the game's rules.
    Rules,
    /// By a forfeit, before the rules ended it.
    Forfeit,
    /// The server shut down first (or its task was dropped without an end).
    Aborted,
}

impl MatchEnd {
    /// Every end, in the order of the figures' arrays.
    pub(crate) const ALL: [MatchEnd; 3] = [MatchEnd::Rules, MatchEnd::Forfeit, MatchEnd::Aborted];

    /// Its name in the figures' labels.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            MatchEnd::Rules => "rules",
            MatchEnd::Forfeit => "forfeit",
            MatchEnd::Aborted => "aborted",
        }
    }
}

/// A game's place in the figures' arrays.
fn game_index(game: GameKind) -> usize {
    GameKind::ALL.iter().position(|&g| g == game).unwrap_or(0)
}

/// A failure's place in the figures' arrays.
fn failure_index(kind: FailureKind) -> usize {
    FailureKind::ALL.iter().position(|&k| k == kind).unwrap_or(0).min(FAILURES - 1)
}

/// One game's matches of one origin, as the figures read them.
pub(crate) struct MatchCounts {
    pub(crate) running: u64,
    /// Ended, by how ([`MatchEnd::ALL`]'s order).
    pub(crate) ended: [u64; ENDS],
}

impl Stats {
    pub(crate) fn new() -> Stats {
        Stats {
            started: Instant::now(),
            matches: Default::default(),
            failures: Default::default(),
            shards: ThreadLocal::new(),
            window_start: Mutex::new([empty_histogram(), empty_histogram()]),
        }
    }

    /// This thread's share.
    fn shard(&self) -> &Shard {
        self.shards.get_or(Shard::new)
    }

    /// An action was applied in a match of `origin`; `round_trip` is set when a bot chose it
    /// in answer to a turn.
    pub(crate) fn decision(&self, origin: MatchOrigin, round_trip: Option<Duration>) {
        let shard = self.shard();
        shard.decisions.fetch_add(1, Ordering::Relaxed);
        if origin == MatchOrigin::Hosted {
            shard.hosted_decisions.fetch_add(1, Ordering::Relaxed);
        }
        if let Some(round_trip) = round_trip {
            let micros = u64::try_from(round_trip.as_micros()).unwrap_or(u64::MAX);
            let mut histogram = shard.histogram(origin);
            histogram.get_or_insert_with(empty_histogram).saturating_record(micros.max(1));
        }
    }

    /// A match of `game` and `origin` started: its task was made.
    pub(crate) fn match_started(&self, game: GameKind, origin: MatchOrigin) {
        self.matches[game_index(game)][origin.index()].started.fetch_add(1, Ordering::Relaxed);
    }

    /// A match that [`Stats::match_started`] ended, as `end` says.
    pub(crate) fn match_ended(&self, game: GameKind, origin: MatchOrigin, end: MatchEnd) {
        let matches = &self.matches[game_index(game)][origin.index()];
        matches.ended[end as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// Something went wrong for a seat in a match of `origin`.
    pub(crate) fn failure(&self, origin: MatchOrigin, kind: FailureKind) {
        self.failures[origin.index()][failure_index(kind)].fetch_add(1, Ordering::Relaxed);
    }

    /// A `Turn` of `bytes` was handed to a bot's stream.
    pub(crate) fn turn_sent(&self, bytes: usize) {
        let shard = self.shard();
        shard.turns.fetch_add(1, Ordering::Relaxed);
        shard.turn_bytes.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// An `Act` of `bytes` reached a match.
    pub(crate) fn act_received(&self, bytes: usize) {
        let shard = self.shard();
        shard.acts.fetch_add(1, Ordering::Relaxed);
        shard.act_bytes.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// A counter of every share, added up.
    fn sum(&self, counter: fn(&Shard) -> &AtomicU64) -> u64 {
        self.shards.iter().map(|shard| counter(shard).load(Ordering::Relaxed)).sum()
    }

    /// `game`'s matches of `origin`: running now, and ended so far.
    pub(crate) fn matches(&self, game: GameKind, origin: MatchOrigin) -> MatchCounts {
        let matches = &self.matches[game_index(game)][origin.index()];
        // The ends first: a match counted ended is counted started, so running is never less
        // than nothing.
        let ended = matches.ended.each_ref().map(|n| n.load(Ordering::Relaxed));
        let started = matches.started.load(Ordering::Relaxed);
        MatchCounts { running: started.saturating_sub(ended.iter().sum()), ended }
    }

    /// Every game's matches of `origin`, added up: running, and ended.
    fn all_matches(&self, origin: MatchOrigin) -> (u64, u64) {
        GameKind::ALL.iter().fold((0, 0), |(running, ended), &game| {
            let counts = self.matches(game, origin);
            (running + counts.running, ended + counts.ended.iter().sum::<u64>())
        })
    }

    /// Failures of `kind` in matches of `origin` so far.
    pub(crate) fn failures(&self, origin: MatchOrigin, kind: FailureKind) -> u64 {
        self.failures[origin.index()][failure_index(kind)].load(Ordering::Relaxed)
    }

    /// Decisions in matches of `origin` so far.
    pub(crate) fn decisions(&self, origin: MatchOrigin) -> u64 {
        let hosted = self.sum(|shard| &shard.hosted_decisions);
        match origin {
            MatchOrigin::Hosted => hosted,
            MatchOrigin::Other => self.sum(|shard| &shard.decisions).saturating_sub(hosted),
        }
    }

    /// `Turn`s sent and their bytes, `Act`s received and theirs, so far.
    pub(crate) fn messages(&self) -> [u64; 4] {
        [
            self.sum(|shard| &shard.turns),
            self.sum(|shard| &shard.turn_bytes),
            self.sum(|shard| &shard.acts),
            self.sum(|shard| &shard.act_bytes),
        ]
    }

    /// Every round trip so far, by origin ([`MatchOrigin::ALL`]'s order): every share's
    /// histograms added up, each read under its own lock.
    pub(crate) fn round_trips(&self) -> [Histogram<u64>; ORIGINS] {
        let mut totals = [empty_histogram(), empty_histogram()];
        for shard in self.shards.iter() {
            for (origin, total) in MatchOrigin::ALL.into_iter().zip(&mut totals) {
                if let Some(histogram) = shard.histogram(origin).as_ref() {
                    // Histograms of the same bounds: adding cannot fail.
                    let _ = total.add(histogram);
                }
            }
        }
        totals
    }

    /// How long the server has run.
    pub(crate) fn uptime(&self) -> Duration {
        self.started.elapsed()
    }

    /// The counters now; `reset` starts a new round-trip window after reading this one.
    pub(crate) fn snapshot(&self, connections_open: u64, reset: bool) -> pb::ServerStats {
        // Held while the totals are read, so that windows never overlap: what a reset leaves
        // out of one window is in the next.
        let mut window_start = self.window_start.lock().unwrap_or_else(|p| p.into_inner());
        let totals = self.round_trips();
        let [others, hosted] = [0, 1].map(|origin| {
            let mut window = totals[origin].clone();
            // The totals only grow: the window's start is within them.
            let _ = window.subtract(&window_start[origin]);
            window
        });
        if reset {
            *window_start = totals;
        }
        drop(window_start);
        let mut all = others.clone();
        let _ = all.add(&hosted);
        let (others_running, others_ended) = self.all_matches(MatchOrigin::Other);
        let (hosted_running, hosted_ended) = self.all_matches(MatchOrigin::Hosted);
        let (hosted_decisions, others_decisions) =
            (self.decisions(MatchOrigin::Hosted), self.decisions(MatchOrigin::Other));
        let [turns_sent, turn_bytes, acts_received, act_bytes] = self.messages();
        let process = process();
        pb::ServerStats {
            uptime_ms: u64::try_from(self.uptime().as_millis()).unwrap_or(u64::MAX),
            matches_running: others_running + hosted_running,
            matches_finished: others_ended + hosted_ended,
            connections_open,
            decisions: others_decisions + hosted_decisions,
            decision_round_trip: Some(latency(&all)),
            tasks_alive: tokio::runtime::Handle::try_current()
                .map_or(0, |runtime| runtime.metrics().num_alive_tasks() as u64),
            rss_bytes: process.rss_bytes,
            peak_rss_bytes: process.peak_rss_bytes,
            cpu_seconds: process.cpu_seconds,
            turns_sent,
            turn_bytes,
            acts_received,
            act_bytes,
            hosted: Some(pb::MatchKindStats {
                matches_running: hosted_running,
                decisions: hosted_decisions,
                decision_round_trip: Some(latency(&hosted)),
            }),
            others: Some(pb::MatchKindStats {
                matches_running: others_running,
                decisions: others_decisions,
                decision_round_trip: Some(latency(&others)),
            }),
        }
    }
}

fn empty_histogram() -> Histogram<u64> {
    // Three significant digits from 1 µs to an hour: fixed bounds, so this cannot fail.
    Histogram::new_with_bounds(1, SLOWEST_US, 3).expect("valid histogram bounds")
}

fn latency(histogram: &Histogram<u64>) -> pb::Latency {
    pb::Latency {
        count: histogram.len(),
        p50_us: histogram.value_at_quantile(0.5),
        p90_us: histogram.value_at_quantile(0.9),
        p99_us: histogram.value_at_quantile(0.99),
        p999_us: histogram.value_at_quantile(0.999),
        max_us: histogram.max(),
        mean_us: histogram.mean(),
    }
}

/// The process's memory and CPU time, where the platform says.
#[derive(Default)]
pub(crate) struct Process {
    pub(crate) rss_bytes: u64,
    pub(crate) peak_rss_bytes: u64,
    pub(crate) cpu_seconds: f64,
}

pub(crate) fn process() -> Process {
    let (rss_bytes, peak_rss_bytes) = memory();
    Process { rss_bytes, peak_rss_bytes, cpu_seconds: cpu_seconds() }
}

/// Resident and peak resident memory in bytes, from `/proc/self/status`.
#[cfg(target_os = "linux")]
fn memory() -> (u64, u64) {
    let kib = |value: Option<u64>| value.unwrap_or(0) * 1024;
    procfs::process::Process::myself()
        .and_then(|me| me.status())
        .map(|status| (kib(status.vmrss), kib(status.vmhwm)))
        .unwrap_or_default()
}

#[cfg(not(target_os = "linux"))]
fn memory() -> (u64, u64) {
    (0, 0)
}

/// The CPU time this process has used, user and system, from `getrusage` (microseconds, where
/// `/proc/self/stat` counts clock ticks). Not procfs's tick rate: that reads the auxiliary
/// vector through rustix, which fails (and panics) under valgrind, so `GetStats` would end a
/// profiled server.
#[cfg(unix)]
fn cpu_seconds() -> f64 {
    use nix::sys::resource::{UsageWho, getrusage};
    use nix::sys::time::TimeValLike as _;
    getrusage(UsageWho::RUSAGE_SELF).map_or(0.0, |usage| {
        (usage.user_time().num_microseconds() + usage.system_time().num_microseconds()) as f64 / 1e6
    })
}

#[cfg(not(unix))]
fn cpu_seconds() -> f64 {
    0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_are_summarised_and_a_reset_starts_a_new_window() {
        let stats = Stats::new();
        for micros in 1..=1000 {
            stats.decision(MatchOrigin::Other, Some(Duration::from_micros(micros)));
        }
        stats.decision(MatchOrigin::Other, None); // a default action: counted, not timed
        let first = stats.snapshot(4, true);
        assert_eq!(first.decisions, 1001);
        assert_eq!(first.connections_open, 4);
        let round_trip = first.decision_round_trip.unwrap();
        assert_eq!(round_trip.count, 1000);
        assert!((499..=501).contains(&round_trip.p50_us), "{round_trip:?}");
        assert!((989..=991).contains(&round_trip.p99_us), "{round_trip:?}");
        assert_eq!(round_trip.max_us, 1000);
        let second = stats.snapshot(0, false);
        assert_eq!(second.decision_round_trip.unwrap().count, 0);
        assert_eq!(second.decisions, 1001, "counters outlive a reset");
        // The next window holds what came after the reset, its own maximum among them.
        stats.decision(MatchOrigin::Other, Some(Duration::from_micros(70)));
        let third = stats.snapshot(0, false).decision_round_trip.unwrap();
        assert_eq!((third.count, third.max_us, third.p50_us), (1, 70, 70));
        // While `/metrics` reads every round trip since the start.
        let [others, hosted] = stats.round_trips();
        assert_eq!((others.len(), others.max(), hosted.len()), (1001, 1000, 0));
    }

    /// A match counts as running from its start to its end, each end by how it came; the
    /// server's figures add up the games.
    #[test]
    fn matches_run_until_they_end_and_each_end_is_counted_by_how() {
        let stats = Stats::new();
        let (gin, tt) = (GameKind::Gin, GameKind::TwentyTwo);
        for _ in 0..3 {
            stats.match_started(gin, MatchOrigin::Hosted);
        }
        stats.match_started(tt, MatchOrigin::Other);
        stats.match_ended(gin, MatchOrigin::Hosted, MatchEnd::Rules);
        stats.match_ended(gin, MatchOrigin::Hosted, MatchEnd::Forfeit);
        let counts = stats.matches(gin, MatchOrigin::Hosted);
        assert_eq!((counts.running, counts.ended), (1, [1, 1, 0]));
        assert_eq!(stats.matches(tt, MatchOrigin::Other).running, 1);
        assert_eq!(stats.matches(gin, MatchOrigin::Other).running, 0);
        let snapshot = stats.snapshot(0, false);
        assert_eq!((snapshot.matches_running, snapshot.matches_finished), (2, 2));
        assert_eq!(snapshot.hosted.unwrap().matches_running, 1);
        assert_eq!(snapshot.others.unwrap().matches_running, 1);
        stats.failure(MatchOrigin::Hosted, FailureKind::Timeout);
        stats.failure(MatchOrigin::Hosted, FailureKind::Timeout);
        stats.failure(MatchOrigin::Other, FailureKind::Crash);
        assert_eq!(stats.failures(MatchOrigin::Hosted, FailureKind::Timeout), 2);
        assert_eq!(stats.failures(MatchOrigin::Hosted, FailureKind::Crash), 0);
        assert_eq!(stats.failures(MatchOrigin::Other, FailureKind::Crash), 1);
    }

    #[test]
    fn hosted_matches_have_their_own_figures_and_every_match_the_sum() {
        let stats = Stats::new();
        for (origin, started) in [(MatchOrigin::Hosted, 2), (MatchOrigin::Other, 4)] {
            for _ in 0..started {
                stats.match_started(GameKind::TwentyTwo, origin);
            }
        }
        stats.match_ended(GameKind::TwentyTwo, MatchOrigin::Hosted, MatchEnd::Aborted);
        for _ in 0..10 {
            stats.decision(MatchOrigin::Other, Some(Duration::from_micros(100)));
        }
        for _ in 0..30 {
            stats.decision(MatchOrigin::Hosted, Some(Duration::from_millis(50)));
        }
        let snapshot = stats.snapshot(0, true);
        let (hosted, others) = (snapshot.hosted.unwrap(), snapshot.others.unwrap());
        assert_eq!((hosted.matches_running, others.matches_running), (1, 4));
        assert_eq!((hosted.decisions, others.decisions, snapshot.decisions), (30, 10, 40));
        let (hosted, others) =
            (hosted.decision_round_trip.unwrap(), others.decision_round_trip.unwrap());
        assert_eq!((others.count, others.p99_us), (10, 100), "the hosted ones left out");
        assert_eq!(hosted.count, 30);
        assert!((49_950..=50_050).contains(&hosted.p50_us), "{hosted:?}");
        let all = snapshot.decision_round_trip.unwrap();
        assert_eq!(all.count, 40);
        assert!((49_950..=50_050).contains(&all.p50_us), "{all:?}");
        let after = stats.snapshot(0, false);
        assert_eq!(after.hosted.unwrap().decision_round_trip.unwrap().count, 0, "both reset");
        assert_eq!(after.others.unwrap().decision_round_trip.unwrap().count, 0);
    }

    /// Every thread counts into its own share; a snapshot adds them all up, and a reset
    /// starts a new window over every share's round trips.
    #[test]
    fn the_figures_of_every_thread_are_added_up() {
        let stats = Stats::new();
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let stats = &stats;
                scope.spawn(move || {
                    for micros in 1..=250 {
                        let round_trip = Duration::from_micros(thread * 250 + micros);
                        stats.decision(MatchOrigin::Other, Some(round_trip));
                        stats.turn_sent(100);
                        stats.act_received(4);
                    }
                    stats.decision(MatchOrigin::Hosted, None);
                });
            }
        });
        // A thread that ended left its share to the next (`thread_local` reuses the ids of
        // ended threads): nothing counted is lost, and there are no more shares than threads.
        assert!((1..=4).contains(&stats.shards.iter().count()));
        // Each thread's hosted decision was a default (no round trip): no hosted histogram
        // was made.
        assert!(stats.shards.iter().all(|shard| shard.histogram(MatchOrigin::Hosted).is_none()));
        let snapshot = stats.snapshot(0, true);
        assert_eq!(snapshot.decisions, 1004);
        assert_eq!(snapshot.hosted.unwrap().decisions, 4);
        assert_eq!((snapshot.turns_sent, snapshot.turn_bytes), (1000, 100_000));
        assert_eq!((snapshot.acts_received, snapshot.act_bytes), (1000, 4000));
        let round_trip = snapshot.decision_round_trip.unwrap();
        assert_eq!((round_trip.count, round_trip.max_us), (1000, 1000));
        assert!((499..=501).contains(&round_trip.p50_us), "{round_trip:?}");
        let after = stats.snapshot(0, false);
        assert_eq!(after.decision_round_trip.unwrap().count, 0);
        assert_eq!(after.decisions, 1004, "counters outlive a reset");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_process_reports_its_memory_and_cpu() {
        let process = process();
        assert!(process.rss_bytes > 0);
        assert!(process.peak_rss_bytes >= process.rss_bytes);
    }

    #[cfg(unix)]
    #[test]
    fn cpu_time_counts_the_work_done_in_seconds() {
        // Work until 10 ms of CPU time are counted (a loaded machine gives this thread a
        // fraction of a core, so the wall-clock bound is generous).
        let started = std::time::Instant::now();
        let before = cpu_seconds();
        let mut x = 0u64;
        while cpu_seconds() - before < 0.01 {
            assert!(started.elapsed() < Duration::from_secs(30), "CPU time stays at {before} s");
            for _ in 0..10_000 {
                x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
            }
        }
        // Seconds, not ticks or microseconds: no more than every core busy all the while.
        let used = cpu_seconds() - before;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
        let bound = started.elapsed().as_secs_f64() * cores + 0.01;
        assert!(used <= bound, "{used} s of CPU in at most {bound} core-seconds");
    }
}
