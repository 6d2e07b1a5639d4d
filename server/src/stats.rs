//! The server's counters and the decision round trip, as `GetStats` reports them.
//!
//! The round trip is measured where the server can see it: from the moment a match task hands
//! a `Turn` to the bot's stream to the moment the bot's `Act` reaches that task. It includes
//! the server's encoding and sending, the network both ways, the bot's own thinking and the
//! server's decoding, which is what a bot author and a load test care about.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use cardroom_proto::pb;
use hdrhistogram::Histogram;
use thread_local::ThreadLocal;

/// The slowest round trip the histogram tells apart; slower ones are counted as this.
const SLOWEST_US: u64 = 3_600_000_000;

/// Server-wide counters, shared by every match task through the registry.
pub(crate) struct Stats {
    started: Instant,
    finished: AtomicU64,
    /// Hosted matches whose task is alive.
    hosted_running: AtomicU64,
    /// What every decision counts, one share a thread (see [`Shard`]).
    shards: ThreadLocal<Shard>,
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
    Hosted,
    Other,
}

impl Stats {
    pub(crate) fn new() -> Stats {
        Stats {
            started: Instant::now(),
            finished: AtomicU64::new(0),
            hosted_running: AtomicU64::new(0),
            shards: ThreadLocal::new(),
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

    /// A hosted match's task started (`true`) or ended (`false`).
    pub(crate) fn hosted_running(&self, started: bool) {
        if started {
            self.hosted_running.fetch_add(1, Ordering::Relaxed);
        } else {
            self.hosted_running.fetch_sub(1, Ordering::Relaxed);
        }
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

    /// A match ended.
    pub(crate) fn match_finished(&self) {
        self.finished.fetch_add(1, Ordering::Relaxed);
    }

    /// A counter of every share, added up.
    fn sum(&self, counter: fn(&Shard) -> &AtomicU64) -> u64 {
        self.shards.iter().map(|shard| counter(shard).load(Ordering::Relaxed)).sum()
    }

    /// The counters now; `reset` starts a new round-trip window after reading this one.
    pub(crate) fn snapshot(
        &self,
        matches_running: u64,
        connections_open: u64,
        reset: bool,
    ) -> pb::ServerStats {
        // Each share's histograms read (and reset) under their own lock; every match's figures
        // are the two kinds added up.
        let (mut others, mut hosted) = (empty_histogram(), empty_histogram());
        for shard in self.shards.iter() {
            for (origin, total) in
                [(MatchOrigin::Other, &mut others), (MatchOrigin::Hosted, &mut hosted)]
            {
                if let Some(histogram) = shard.histogram(origin).as_mut() {
                    // Histograms of the same bounds: adding cannot fail.
                    let _ = total.add(&*histogram);
                    if reset {
                        histogram.reset();
                    }
                }
            }
        }
        let mut all = others.clone();
        let _ = all.add(&hosted);
        let decisions = self.sum(|shard| &shard.decisions);
        let hosted_decisions = self.sum(|shard| &shard.hosted_decisions);
        let hosted_running = self.hosted_running.load(Ordering::Relaxed);
        let process = process();
        pb::ServerStats {
            uptime_ms: u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX),
            matches_running,
            matches_finished: self.finished.load(Ordering::Relaxed),
            connections_open,
            decisions,
            decision_round_trip: Some(latency(&all)),
            tasks_alive: tokio::runtime::Handle::try_current()
                .map_or(0, |runtime| runtime.metrics().num_alive_tasks() as u64),
            rss_bytes: process.rss_bytes,
            peak_rss_bytes: process.peak_rss_bytes,
            cpu_seconds: process.cpu_seconds,
            turns_sent: self.sum(|shard| &shard.turns),
            turn_bytes: self.sum(|shard| &shard.turn_bytes),
            acts_received: self.sum(|shard| &shard.acts),
            act_bytes: self.sum(|shard| &shard.act_bytes),
            hosted: Some(pb::MatchKindStats {
                matches_running: hosted_running,
                decisions: hosted_decisions,
                decision_round_trip: Some(latency(&hosted)),
            }),
            others: Some(pb::MatchKindStats {
                matches_running: matches_running.saturating_sub(hosted_running),
                decisions: decisions.saturating_sub(hosted_decisions),
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
struct Process {
    rss_bytes: u64,
    peak_rss_bytes: u64,
    cpu_seconds: f64,
}

fn process() -> Process {
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
        let first = stats.snapshot(3, 4, true);
        assert_eq!(first.decisions, 1001);
        assert_eq!((first.matches_running, first.connections_open), (3, 4));
        let round_trip = first.decision_round_trip.unwrap();
        assert_eq!(round_trip.count, 1000);
        assert!((499..=501).contains(&round_trip.p50_us), "{round_trip:?}");
        assert!((989..=991).contains(&round_trip.p99_us), "{round_trip:?}");
        assert_eq!(round_trip.max_us, 1000);
        let second = stats.snapshot(0, 0, false);
        assert_eq!(second.decision_round_trip.unwrap().count, 0);
        assert_eq!(second.decisions, 1001, "counters outlive a reset");
    }

    #[test]
    fn hosted_matches_have_their_own_figures_and_every_match_the_sum() {
        let stats = Stats::new();
        stats.hosted_running(true);
        stats.hosted_running(true);
        stats.hosted_running(false);
        for _ in 0..10 {
            stats.decision(MatchOrigin::Other, Some(Duration::from_micros(100)));
        }
        for _ in 0..30 {
            stats.decision(MatchOrigin::Hosted, Some(Duration::from_millis(50)));
        }
        let snapshot = stats.snapshot(5, 0, true);
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
        let after = stats.snapshot(5, 0, false);
        assert_eq!(after.hosted.unwrap().decision_round_trip.unwrap().count, 0, "both reset");
        assert_eq!(after.others.unwrap().decision_round_trip.unwrap().count, 0);
    }

    /// Every thread counts into its own share; a snapshot adds them all up, and a reset
    /// empties every share's round trips.
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
        let snapshot = stats.snapshot(0, 0, true);
        assert_eq!(snapshot.decisions, 1004);
        assert_eq!(snapshot.hosted.unwrap().decisions, 4);
        assert_eq!((snapshot.turns_sent, snapshot.turn_bytes), (1000, 100_000));
        assert_eq!((snapshot.acts_received, snapshot.act_bytes), (1000, 4000));
        let round_trip = snapshot.decision_round_trip.unwrap();
        assert_eq!((round_trip.count, round_trip.max_us), (1000, 1000));
        assert!((499..=501).contains(&round_trip.p50_us), "{round_trip:?}");
        let after = stats.snapshot(0, 0, false);
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
