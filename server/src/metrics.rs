//! The server's figures for Prometheus: [`ServerMetrics`], a collector that reads at each
//! scrape the counters `GetStats` reads (`stats.rs`), so each figure is counted once. It only
//! encodes them; serving them over HTTP is the pages' job (`cardroom-web`), and the server
//! stays free of HTTP.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use cardroom_games::GameKind;
use cardroom_store::FailureKind;
use hdrhistogram::Histogram;
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{
    DescriptorEncoder, EncodeLabelSet, EncodeMetric, MetricEncoder, NoLabelSet,
};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;

use crate::registry::Registry;
use crate::stats::{MatchEnd, MatchOrigin, process};

/// The round trip's buckets, in seconds: from a bot on the loopback (100 µs) to one that
/// thinks a minute (the longest move time a match may ask for by default).
const ROUND_TRIP_BUCKETS: [f64; 18] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0, 30.0, 60.0,
];

/// The server's figures as a Prometheus [`Collector`], from [`crate::Server::metrics`]. Put it
/// in a registry with `Registry::register_collector`: each scrape then reads the server's
/// counters anew. A cheap handle: clone it freely.
#[derive(Clone)]
pub struct ServerMetrics {
    pub(crate) registry: Registry,
}

impl fmt::Debug for ServerMetrics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerMetrics").finish_non_exhaustive()
    }
}

/// Whose matches a series counts.
fn origin(origin: MatchOrigin) -> (&'static str, &'static str) {
    ("origin", origin.name())
}

impl Collector for ServerMetrics {
    fn encode(&self, mut encoder: DescriptorEncoder<'_>) -> fmt::Result {
        let stats = self.registry.stats();
        let games = || {
            GameKind::ALL.into_iter().flat_map(|game| {
                MatchOrigin::ALL.into_iter().map(move |o| (game, o, stats.matches(game, o)))
            })
        };
        family(
            &mut encoder,
            "cardroom_matches_running",
            "Matches running on this node, by game and origin (hosted: a hosted ladder's; \
             other: an organizer's or the queue's).",
            MetricType::Gauge,
            games().map(|(game, o, counts)| {
                ([("game", game.name()), origin(o)], ConstGauge::new(counts.running))
            }),
        )?;
        family(
            &mut encoder,
            "cardroom_matches_finished",
            "Matches this node ran to their end, by game, origin and end (rules: the game's \
             rules ended it; forfeit: a forfeit did; aborted: the server shut down first).",
            MetricType::Counter,
            games().flat_map(|(game, o, counts)| {
                MatchEnd::ALL.into_iter().zip(counts.ended).map(move |(end, n)| {
                    ([("game", game.name()), origin(o), ("end", end.name())], ConstCounter::new(n))
                })
            }),
        )?;
        family(
            &mut encoder,
            "cardroom_decisions",
            "Actions applied (a bot's or the default of a seat that timed out), by origin.",
            MetricType::Counter,
            MatchOrigin::ALL.map(|o| ([origin(o)], ConstCounter::new(stats.decisions(o)))),
        )?;
        let round_trips = stats.round_trips();
        family(
            &mut encoder,
            "cardroom_decision_round_trip_seconds",
            "From a Turn handed to a bot's stream to its Act reaching the match, by origin: the \
             network both ways and the bot's thinking (GetStats' decision_round_trip).",
            MetricType::Histogram,
            MatchOrigin::ALL.into_iter().zip(&round_trips).map(|(o, histogram)| {
                ([origin(o)], Buckets::of(histogram, &ROUND_TRIP_BUCKETS, 1e-6))
            }),
        )?;
        let [turns, turn_bytes, acts, act_bytes] = stats.messages();
        let messages = [
            ("cardroom_turns_sent", "Turns handed to bots' streams.", turns),
            ("cardroom_turns_sent_bytes", "The bytes of the Turns sent.", turn_bytes),
            ("cardroom_acts_received", "Acts that reached a match.", acts),
            ("cardroom_acts_received_bytes", "The bytes of the Acts received.", act_bytes),
        ];
        for (name, help, n) in messages {
            single(&mut encoder, name, help, ConstCounter::new(n))?;
        }
        family(
            &mut encoder,
            "cardroom_failures",
            "What went wrong for a bot's seat, by origin and kind (crash: its connection died \
             or never came; forfeit: out of strikes; illegal: an illegal or malformed action; \
             timeout: a decision's time ran out).",
            MetricType::Counter,
            MatchOrigin::ALL.into_iter().flat_map(|o| {
                FailureKind::ALL.iter().map(move |&kind| {
                    let n = stats.failures(o, kind);
                    ([origin(o), ("kind", kind.as_str())], ConstCounter::new(n))
                })
            }),
        )?;
        let (bots, streams) = self.registry.lobby_size();
        let gauges = [
            ("cardroom_lobby_bots", "Bot names waiting in the lobby.", bots as u64),
            (
                "cardroom_lobby_streams",
                "Play streams waiting in the lobby (a bot playing several matches at once \
                 waits on several).",
                streams as u64,
            ),
            (
                "cardroom_connections_open",
                "Play streams open: joined, or still to send their Join.",
                self.registry.connections_open(),
            ),
        ];
        for (name, help, n) in gauges {
            single(&mut encoder, name, help, ConstGauge::new(n))?;
        }
        let process = process();
        let started = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0.0, |now| now.saturating_sub(stats.uptime()).as_secs_f64());
        let process_gauges = [
            ("process_resident_memory_bytes", "Resident memory.", process.rss_bytes as f64),
            (
                "process_start_time_seconds",
                "When the server started, since the Unix epoch.",
                started,
            ),
        ];
        for (name, help, value) in process_gauges {
            single(&mut encoder, name, help, ConstGauge::new(value))?;
        }
        let cpu = ConstCounter::new(process.cpu_seconds);
        single(&mut encoder, "process_cpu_seconds", "CPU time used, user and system.", cpu)
    }
}

/// A family of series: its descriptor, then each series' labels and value.
fn family<S: EncodeLabelSet, M: EncodeMetric>(
    encoder: &mut DescriptorEncoder<'_>,
    name: &str,
    help: &str,
    metric_type: MetricType,
    series: impl IntoIterator<Item = (S, M)>,
) -> fmt::Result {
    let mut family = encoder.encode_descriptor(name, help, None, metric_type)?;
    for (labels, metric) in series {
        metric.encode(family.encode_family(&labels)?)?;
    }
    Ok(())
}

/// One series without labels, with its descriptor.
fn single(
    encoder: &mut DescriptorEncoder<'_>,
    name: &str,
    help: &str,
    metric: impl EncodeMetric,
) -> fmt::Result {
    metric.encode(encoder.encode_descriptor(name, help, None, metric.metric_type())?)
}

/// A histogram of the server's (an HdrHistogram) in Prometheus' buckets.
struct Buckets {
    sum: f64,
    count: u64,
    /// Each bucket's upper bound and the values in it alone (the encoder adds them up).
    buckets: Vec<(f64, u64)>,
}

impl Buckets {
    /// `histogram`'s values, each `unit` seconds, in buckets of `bounds` (in seconds). Each
    /// bound is read at the histogram's precision (three significant digits), and the sum is
    /// its mean times its count, as exact.
    fn of(histogram: &Histogram<u64>, bounds: &[f64], unit: f64) -> Buckets {
        let mut below = 0;
        let buckets = bounds
            .iter()
            .map(|&bound| {
                let upto = histogram.count_between(0, (bound / unit) as u64);
                let bucket = upto.saturating_sub(below);
                below = below.max(upto);
                (bound, bucket)
            })
            .collect();
        let count = histogram.len();
        Buckets { sum: histogram.mean() * count as f64 * unit, count, buckets }
    }
}

impl EncodeMetric for Buckets {
    fn encode(&self, mut encoder: MetricEncoder<'_>) -> fmt::Result {
        encoder.encode_histogram::<NoLabelSet>(self.sum, self.count, &self.buckets, None)
    }

    fn metric_type(&self) -> MetricType {
        MetricType::Histogram
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use prometheus_client::encoding::prometheus_text;

    use super::*;

    #[test]
    fn a_histogram_is_put_in_buckets_at_its_precision() {
        let mut histogram = Histogram::<u64>::new_with_bounds(1, 3_600_000_000, 3).unwrap();
        for micros in [50, 100, 101, 999, 250_000, 90_000_000] {
            histogram.record(micros).unwrap();
        }
        let buckets = Buckets::of(&histogram, &[0.0001, 0.001, 0.25, 60.0], 1e-6);
        assert_eq!(buckets.count, 6);
        assert_eq!(buckets.buckets, [(0.0001, 2), (0.001, 2), (0.25, 1), (60.0, 0)]);
        assert!((buckets.sum - 90.25125).abs() < 0.1, "{}", buckets.sum);
    }

    /// The text a scrape reads: a HELP and a TYPE line for each figure, and the series of
    /// each game and origin, the round trips in buckets.
    #[tokio::test]
    async fn every_figure_is_encoded_with_its_help_and_type() {
        let server = crate::Server::new(crate::Config::default());
        let stats = server.registry.stats();
        stats.match_started(GameKind::Gin, MatchOrigin::Hosted);
        stats.match_started(GameKind::Gin, MatchOrigin::Hosted);
        stats.match_ended(GameKind::Gin, MatchOrigin::Hosted, MatchEnd::Forfeit);
        stats.decision(MatchOrigin::Hosted, Some(Duration::from_micros(300)));
        stats.failure(MatchOrigin::Other, FailureKind::Illegal);
        let mut registry = prometheus_client::registry::Registry::default();
        registry.register_collector(Box::new(server.metrics()));
        let mut text = String::new();
        prometheus_text::encode(&mut text, &registry).unwrap_or_else(|e| panic!("{e}"));
        for line in [
            "# TYPE cardroom_matches_running gauge",
            "cardroom_matches_running{game=\"gin\",origin=\"hosted\"} 1",
            "cardroom_matches_running{game=\"twenty_two\",origin=\"other\"} 0",
            "# TYPE cardroom_matches_finished_total counter",
            "cardroom_matches_finished_total{game=\"gin\",origin=\"hosted\",end=\"forfeit\"} 1",
            "cardroom_decisions_total{origin=\"hosted\"} 1",
            "# TYPE cardroom_decision_round_trip_seconds histogram",
            "cardroom_decision_round_trip_seconds_bucket{origin=\"hosted\",le=\"0.00025\"} 0",
            "cardroom_decision_round_trip_seconds_bucket{origin=\"hosted\",le=\"0.0005\"} 1",
            "cardroom_decision_round_trip_seconds_count{origin=\"hosted\"} 1",
            "cardroom_failures_total{origin=\"other\",kind=\"illegal\"} 1",
            "cardroom_lobby_bots 0",
            "cardroom_connections_open 0",
            "# TYPE process_cpu_seconds_total counter",
        ] {
            assert!(text.lines().any(|l| l == line), "no line {line:?} in:\n{text}");
        }
        let types = text.lines().filter(|l| l.starts_with("# TYPE ")).count();
        let helps = text.lines().filter(|l| l.starts_with("# HELP ")).count();
        assert_eq!((types, helps), (15, 15), "{text}");
    }
}
