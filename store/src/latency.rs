//! How long the store's calls on the hot path take, by operation: a Prometheus histogram
//! (`cardroom_store_call_seconds`) that the callers time their own calls into. The Play path's
//! [`Accounts`](crate::Accounts) and the hosted ladders' runner do; the trait itself stays
//! untimed, so no backend method forwards to another.

use std::future::Future;
use std::time::Instant;

use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// The histogram's buckets, in seconds: from a SQLite read out of the page cache (100 µs) to
/// a pool waiting for a connection to a database that does not answer (10 s).
const BUCKETS: [f64; 16] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0,
];

/// One series' labels: the operation (the `Store` method's name).
type Operation = [(&'static str, &'static str); 1];

/// The time of the store's calls by operation. A cheap handle: clones record into the same
/// histograms, which a [`Registry`] encodes once [`StoreLatency::register`]ed.
#[derive(Clone, Debug)]
pub struct StoreLatency {
    calls: Family<Operation, Histogram, fn() -> Histogram>,
}

impl Default for StoreLatency {
    fn default() -> StoreLatency {
        StoreLatency { calls: Family::new_with_constructor(|| Histogram::new(BUCKETS)) }
    }
}

impl StoreLatency {
    /// Awaits `call`, counting how long it took under `operation` (the method's name). A call
    /// dropped before it ends is not counted.
    pub async fn time<T>(&self, operation: &'static str, call: impl Future<Output = T>) -> T {
        let started = Instant::now();
        let answer = call.await;
        let seconds = started.elapsed().as_secs_f64();
        self.calls.get_or_create(&[("operation", operation)]).observe(seconds);
        answer
    }

    /// Adds the histograms to `registry` as `cardroom_store_call_seconds`.
    pub fn register(&self, registry: &mut Registry) {
        registry.register(
            "cardroom_store_call_seconds",
            "How long the store's calls on the hot path took (the Play path's account checks, \
             the hosted ladders' claims, results, leases and heartbeats), by operation",
            self.calls.clone(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn calls_are_counted_by_operation() {
        let latency = StoreLatency::default();
        let mut registry = Registry::default();
        latency.register(&mut registry);
        assert_eq!(latency.time("claim_ready", async { 7 }).await, 7);
        latency.time("claim_ready", async {}).await;
        latency.time("finish_match", async {}).await;
        let mut text = String::new();
        prometheus_client::encoding::prometheus_text::encode(&mut text, &registry)
            .unwrap_or_else(|error| panic!("{error}"));
        assert!(text.contains("# TYPE cardroom_store_call_seconds histogram"), "{text}");
        assert!(
            text.contains("cardroom_store_call_seconds_count{operation=\"claim_ready\"} 2"),
            "{text}"
        );
        assert!(
            text.contains("cardroom_store_call_seconds_count{operation=\"finish_match\"} 1"),
            "{text}"
        );
    }
}
