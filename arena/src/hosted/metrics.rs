//! What the hosted ladders count for the operator's `/metrics`: this node's claims, stored
//! results and matches given back, by ladder; the failures its results recorded, by ladder and
//! kind; the matches it returned to planned; its lease renewals; and the time of the store
//! calls it makes on its hot path ([`StoreLatency`], shared with the Play path's accounts).
//! Two gauges say what each ladder's task sees now: its matches running on this node, and its
//! bots seen lately; a ladder's series go when its task ends.
//!
//! A ladder is labelled by its name: as many series as the store has ladders.

use cardroom_store::{FailureKind, NewFailure, Requeue, StoreLatency};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

type Labels<const N: usize> = [(&'static str, String); N];

/// The runner's counters; clones count into the same ones.
#[derive(Clone, Debug, Default)]
pub(super) struct RunnerMetrics {
    /// The time of the store calls.
    pub(super) store: StoreLatency,
    claims: Family<Labels<1>, Counter>,
    results: Family<Labels<1>, Counter>,
    released: Family<Labels<2>, Counter>,
    failures: Family<Labels<2>, Counter>,
    requeued: Family<Labels<1>, Counter>,
    renewals: Family<Labels<1>, Counter>,
    renewed: Counter,
    running: Family<Labels<1>, Gauge>,
    bots_seen: Family<Labels<1>, Gauge>,
}

fn ladder(name: &str) -> (&'static str, String) {
    ("ladder", name.to_owned())
}

/// Why a claimed match goes back to planned, to be played again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Released {
    /// The server shut down before it ended.
    Aborted,
    /// Its task ended without a report.
    Lost,
    /// Its result could not be stored.
    NotStored,
    /// Its result came after its claim had lapsed (this node was cut off from the store): the
    /// store refused it, and the match is played again elsewhere.
    Refused,
}

impl Released {
    const ALL: [Released; 4] =
        [Released::Aborted, Released::Lost, Released::NotStored, Released::Refused];

    /// Its name in the `why` label.
    const fn name(self) -> &'static str {
        match self {
            Released::Aborted => "aborted",
            Released::Lost => "lost",
            Released::NotStored => "not_stored",
            Released::Refused => "refused",
        }
    }
}

/// Why running matches return to planned ([`RunnerMetrics::requeued`]).
const REQUEUED: [&str; 3] = ["restart", "owner_gone", "expired"];

impl RunnerMetrics {
    /// The runner's counters, the store's calls timed into `store`. Each series is there from
    /// the start, at 0, so that a rate over it sees its first rise.
    pub(super) fn new(store: StoreLatency) -> RunnerMetrics {
        let metrics = RunnerMetrics { store, ..RunnerMetrics::default() };
        for why in REQUEUED {
            metrics.requeued.get_or_create(&[("why", why.to_owned())]).inc_by(0);
        }
        for outcome in ["ok", "failed"] {
            metrics.renewals.get_or_create(&[("outcome", outcome.to_owned())]).inc_by(0);
        }
        metrics
    }

    /// `name`'s task starts: its series are there from now on, at 0.
    pub(super) fn ladder_started(&self, name: &str) {
        self.claims.get_or_create(&[ladder(name)]).inc_by(0);
        self.results.get_or_create(&[ladder(name)]).inc_by(0);
        for why in Released::ALL {
            self.released.get_or_create(&[ladder(name), ("why", why.name().to_owned())]).inc_by(0);
        }
        for kind in FailureKind::ALL {
            self.failures
                .get_or_create(&[ladder(name), ("kind", kind.as_str().to_owned())])
                .inc_by(0);
        }
        self.ladder_now(name, 0, 0);
    }

    /// This node claimed a match of `name` to play it.
    pub(super) fn claimed(&self, name: &str) {
        self.claims.get_or_create(&[ladder(name)]).inc();
    }

    /// This node stored a result of `name`, with its `failures`.
    pub(super) fn stored(&self, name: &str, failures: &[NewFailure]) {
        self.results.get_or_create(&[ladder(name)]).inc();
        for failure in failures {
            let kind = ("kind", failure.kind.as_str().to_owned());
            self.failures.get_or_create(&[ladder(name), kind]).inc();
        }
    }

    /// A match of `name` this node claimed goes back to planned, to be played again.
    pub(super) fn released(&self, name: &str, why: Released) {
        self.released.get_or_create(&[ladder(name), ("why", why.name().to_owned())]).inc();
    }

    /// This node returned `count` running matches to planned (`which`).
    pub(super) fn requeued(&self, which: &Requeue, count: u64) {
        let why = match which {
            Requeue::NotOwnedBy(_) => "restart",
            Requeue::OwnerGone { .. } => "owner_gone",
            Requeue::Expired => "expired",
        };
        self.requeued.get_or_create(&[("why", why.to_owned())]).inc_by(count);
    }

    /// This node renewed its leases (`Ok` with how many matches they held) or failed to.
    pub(super) fn renewal<E>(&self, renewal: &Result<u64, E>) {
        let outcome = if renewal.is_ok() { "ok" } else { "failed" };
        self.renewals.get_or_create(&[("outcome", outcome.to_owned())]).inc();
        if let Ok(renewed) = renewal {
            self.renewed.inc_by(*renewed);
        }
    }

    /// What `name`'s task sees now: `running` matches of it on this node, and `bots_seen` of
    /// its bots seen lately.
    pub(super) fn ladder_now(&self, name: &str, running: u32, bots_seen: usize) {
        self.running.get_or_create(&[ladder(name)]).set(i64::from(running));
        let seen = i64::try_from(bots_seen).unwrap_or(i64::MAX);
        self.bots_seen.get_or_create(&[ladder(name)]).set(seen);
    }

    /// `name`'s task ended (the ladder closed, or hosting stopped): its gauges go.
    pub(super) fn ladder_gone(&self, name: &str) {
        self.running.remove(&[ladder(name)]);
        self.bots_seen.remove(&[ladder(name)]);
    }

    /// Adds the counters to `registry` (not the store's calls: their owner registers them).
    pub(super) fn register(&self, registry: &mut Registry) {
        let families = [
            (
                "cardroom_ladder_claims",
                "Matches this node claimed to play, by ladder",
                &self.claims,
            ),
            (
                "cardroom_ladder_results",
                "Results this node stored under its claim, by ladder",
                &self.results,
            ),
            (
                "cardroom_requeued_matches",
                "Running matches this node returned to planned, by why (restart: an earlier run's, \
                 at start; owner_gone: a node's whose heartbeat stopped; expired: a lease ran out)",
                &self.requeued,
            ),
            (
                "cardroom_lease_renewals",
                "This node's renewals of its leases, by outcome (ok, failed)",
                &self.renewals,
            ),
        ];
        for (name, help, family) in families {
            registry.register(name, help, family.clone());
        }
        registry.register(
            "cardroom_ladder_matches_released",
            "Claimed matches this node gave back to be played again, by ladder and why (aborted: \
             the server shut down; lost: the match ended without a report; not_stored: its \
             result could not be stored; refused: its result came after its claim had lapsed, \
             and the store refused it)",
            self.released.clone(),
        );
        registry.register(
            "cardroom_ladder_failures",
            "Failures recorded with the results this node stored (at most 16 a seat), by ladder \
             and kind (crash, forfeit, illegal, timeout)",
            self.failures.clone(),
        );
        registry.register(
            "cardroom_leases_renewed",
            "Claimed matches whose lease this node's renewals extended",
            self.renewed.clone(),
        );
        registry.register(
            "cardroom_ladder_matches_running",
            "Matches of the ladder running on this node",
            self.running.clone(),
        );
        registry.register(
            "cardroom_ladder_bots_seen",
            "The ladder's bots playing one of its matches on this node, or seen waiting in a \
             lobby in the last 10 s (this node's; the leader's reads every node's)",
            self.bots_seen.clone(),
        );
    }
}

#[cfg(test)]
mod tests {
    use cardroom_store::FailureKind;

    use super::*;

    #[test]
    fn the_runner_counts_by_ladder_and_kind() {
        let metrics = RunnerMetrics::new(StoreLatency::default());
        let mut registry = Registry::default();
        metrics.register(&mut registry);
        metrics.ladder_started("duel");
        metrics.claimed("duel");
        let failure = |kind| NewFailure {
            seat: 0,
            kind,
            observation_json: None,
            answer: None,
            error: String::new(),
        };
        metrics.stored("duel", &[failure(FailureKind::Timeout), failure(FailureKind::Timeout)]);
        metrics.released("duel", Released::Aborted);
        metrics.requeued(&Requeue::Expired, 3);
        metrics.renewal::<()>(&Ok(2));
        metrics.renewal(&Err(()));
        metrics.ladder_now("duel", 2, 5);
        metrics.ladder_now("gone", 1, 1);
        metrics.ladder_gone("gone");
        let mut text = String::new();
        prometheus_client::encoding::prometheus_text::encode(&mut text, &registry)
            .unwrap_or_else(|error| panic!("{error}"));
        for line in [
            "cardroom_ladder_claims_total{ladder=\"duel\"} 1",
            "cardroom_ladder_results_total{ladder=\"duel\"} 1",
            "cardroom_ladder_failures_total{ladder=\"duel\",kind=\"timeout\"} 2",
            "cardroom_ladder_matches_released_total{ladder=\"duel\",why=\"aborted\"} 1",
            "cardroom_requeued_matches_total{why=\"expired\"} 3",
            "cardroom_lease_renewals_total{outcome=\"ok\"} 1",
            "cardroom_lease_renewals_total{outcome=\"failed\"} 1",
            "cardroom_leases_renewed_total 2",
            "cardroom_ladder_matches_running{ladder=\"duel\"} 2",
            "cardroom_ladder_bots_seen{ladder=\"duel\"} 5",
            // There from the start, at 0.
            "cardroom_ladder_failures_total{ladder=\"duel\",kind=\"crash\"} 0",
            "cardroom_ladder_matches_released_total{ladder=\"duel\",why=\"not_stored\"} 0",
            "cardroom_ladder_matches_released_total{ladder=\"duel\",why=\"refused\"} 0",
            "cardroom_requeued_matches_total{why=\"restart\"} 0",
        ] {
            assert!(text.lines().any(|l| l == line), "no line {line:?} in:\n{text}");
        }
        assert!(!text.contains("ladder=\"gone\""), "{text}");
    }
}
