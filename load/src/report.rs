//! What the runs print: a table for people, JSON for scripts.

use anyhow::Context;
use serde::Serialize;

use crate::hosted::{Comparison, Side, TOLERANCE};
use crate::idle::IdleRun;
use crate::load::{CardroomRun, Load, Measured, RunRound, Shape, Sizes, Window, median};

const MIB: f64 = 1024.0 * 1024.0;

/// The goals of issue #7, checked against the baseline of the same run.
const P50_GOAL: f64 = 1.5;
const P99_GOAL: f64 = 2.0;
const THROUGHPUT_GOAL: f64 = 0.7;
/// Under an open load (bots that think), the round trip's p99 less the think time, in µs.
const OPEN_P99_GOAL_US: u64 = 10_000;

#[derive(Serialize)]
struct RunJson<'a> {
    game: String,
    seats: u32,
    options: &'a str,
    matches: usize,
    /// The bots' wait before each answer, already taken out of every round trip.
    think_ms: u128,
    warmup_s: f64,
    /// Each figure's median over the rounds (`sizes`: the first round's, which the peers
    /// sent).
    cardroom: CardroomMedians,
    baseline: Option<Measured>,
    /// Each ratio's median over the rounds (each round's ratio is of its own windows).
    ratios: Option<Ratios>,
    match_shape: Option<Measured>,
    match_shape_ratios: Option<Ratios>,
    rounds: Vec<RoundJson<'a>>,
}

#[derive(Serialize)]
struct CardroomMedians {
    measured: Measured,
    sizes: Sizes,
}

#[derive(Serialize)]
struct RoundJson<'a> {
    #[serde(flatten)]
    round: &'a RunRound,
    ratios: Option<Ratios>,
    match_shape_ratios: Option<Ratios>,
}

#[derive(Clone, Copy, Serialize)]
struct Ratios {
    p50: f64,
    p99: f64,
    p999: f64,
    decisions_per_s: f64,
}

impl Ratios {
    /// Each ratio's median over the rounds that have one (none if no round has).
    fn median(rounds: &[Option<Ratios>]) -> Option<Ratios> {
        if rounds.iter().all(Option::is_none) {
            return None;
        }
        let of = |get: fn(&Ratios) -> f64| median(rounds.iter().flatten().map(get));
        Some(Ratios {
            p50: of(|r| r.p50),
            p99: of(|r| r.p99),
            p999: of(|r| r.p999),
            decisions_per_s: of(|r| r.decisions_per_s),
        })
    }
}

fn ratios(cardroom: &Measured, baseline: &Measured) -> Ratios {
    let ratio = |a: u64, b: u64| a as f64 / b.max(1) as f64;
    Ratios {
        p50: ratio(cardroom.round_trip.p50_us, baseline.round_trip.p50_us),
        p99: ratio(cardroom.round_trip.p99_us, baseline.round_trip.p99_us),
        p999: ratio(cardroom.round_trip.p999_us, baseline.round_trip.p999_us),
        decisions_per_s: cardroom.decisions_per_s / baseline.decisions_per_s.max(f64::MIN_POSITIVE),
    }
}

/// Both processes' CPU time (the server's and the bots' or clients') per decision or round
/// trip, in microseconds: where both fill the machine's cores, the throughput ratio is the
/// inverse ratio of this.
/// What else ran on the machine during a window: `[others 0.02, stolen 0.00 cores]`.
fn machine(measured: &Measured) -> String {
    format!("[others {:.2}, stolen {:.2} cores]", measured.others_cpu, measured.stolen_cpu)
}

fn cpu_per_decision_us(measured: &Measured) -> f64 {
    (measured.server_cpu + measured.client_cpu) * 1e6 / measured.decisions_per_s.max(1.0)
}

fn json(value: &impl Serialize) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}

fn thousands(value: f64) -> String {
    let digits = format!("{:.0}", value.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `run`'s report: with more than one round, each round's headline figures first; then
/// each figure's median over the rounds, and each ratio's median, on which the goals are
/// judged.
pub(crate) fn run(
    load: &Load,
    window: Window,
    rounds: &[RunRound],
    as_json: bool,
) -> anyhow::Result<()> {
    let first = rounds.first().context("no round was run")?;
    // Each round's ratios to a peer, by round (none where the round did not measure it).
    let round_ratios = |peer: fn(&RunRound) -> Option<&Measured>| -> Vec<Option<Ratios>> {
        rounds
            .iter()
            .map(|round| peer(round).map(|m| ratios(&round.cardroom.measured, m)))
            .collect()
    };
    let peer_medians = |peer: fn(&RunRound) -> Option<&Measured>| {
        let measured: Vec<&Measured> = rounds.iter().filter_map(peer).collect();
        (!measured.is_empty()).then(|| Measured::median(measured.into_iter()))
    };
    let bare_ratios = round_ratios(|r| r.bare.as_ref());
    let shaped_ratios = round_ratios(|r| r.match_shape.as_ref());
    let cardroom = Measured::median(rounds.iter().map(|r| &r.cardroom.measured));
    let baseline = peer_medians(|r| r.bare.as_ref());
    let shaped = peer_medians(|r| r.match_shape.as_ref());
    let ratios = Ratios::median(&bare_ratios);
    let shaped_ratio = Ratios::median(&shaped_ratios);
    if as_json {
        let per_round = rounds.iter().enumerate().map(|(n, round)| RoundJson {
            round,
            ratios: bare_ratios[n],
            match_shape_ratios: shaped_ratios[n],
        });
        return json(&RunJson {
            game: load.game.to_string(),
            seats: load.seats,
            options: &load.options_json,
            matches: load.matches,
            think_ms: load.think.as_millis(),
            warmup_s: window.warmup.as_secs_f64(),
            cardroom: CardroomMedians { measured: cardroom, sizes: first.cardroom.sizes },
            baseline,
            ratios,
            match_shape: shaped,
            match_shape_ratios: shaped_ratio,
            rounds: per_round.collect(),
        });
    }
    println!(
        "cardroom-load run: {} at {} seats, {} matches at once; {} round{} of {:.1} s measured after {:.1} s of warm-up, each a fresh server",
        load.game,
        load.seats,
        load.matches,
        rounds.len(),
        if rounds.len() == 1 { "" } else { "s (which goes first alternates)" },
        window.duration.as_secs_f64(),
        window.warmup.as_secs_f64()
    );
    if !load.think.is_zero() {
        println!(
            "each bot waits {} ms before it answers (an open load); the round trips below are less that wait (tokio's timer wakes up to about 1 ms late, for both servers' bots)",
            load.think.as_millis()
        );
    }
    println!(
        "mean message sizes: Turn {} B, Act {} B (the baselines send the same)\n",
        first.cardroom.sizes.turn_bytes, first.cardroom.sizes.act_bytes
    );
    if rounds.len() > 1 {
        for (n, round) in rounds.iter().enumerate() {
            let c = &round.cardroom.measured;
            let mut line = format!(
                "round {}{}: cardroom {}/s, p50 {} µs, CPU {:.1} µs a decision {}",
                n + 1,
                if round.peers_first { " (peers first)" } else { "" },
                thousands(c.decisions_per_s),
                c.round_trip.p50_us,
                cpu_per_decision_us(c),
                machine(c)
            );
            if let (Some(bare), Some(r)) = (&round.bare, bare_ratios[n]) {
                line.push_str(&format!(
                    "; bare {}/s, p50 {} µs, CPU {:.1} µs {}: {:.2} of its decisions/s, p50 {:.2}×",
                    thousands(bare.decisions_per_s),
                    bare.round_trip.p50_us,
                    cpu_per_decision_us(bare),
                    machine(bare),
                    r.decisions_per_s,
                    r.p50
                ));
            }
            if let (Some(shaped), Some(r)) = (&round.match_shape, shaped_ratios[n]) {
                line.push_str(&format!(
                    "; match shape {}/s: {:.2}",
                    thousands(shaped.decisions_per_s),
                    r.decisions_per_s
                ));
            }
            println!("{line}");
        }
        println!("\nmedians over the rounds (the ratios: each round's own, their median):");
    }
    if shaped.is_some() {
        println!(
            "match shape: bare tonic with two streams a match, one server task taking turns between them (two messages each)"
        );
    }
    let mut header = format!("{:<26}{:>14}{:>14}{:>9}", "", "cardroom", "bare tonic", "ratio");
    if shaped.is_some() {
        header.push_str(&format!("{:>14}{:>9}", "match shape", "ratio"));
    }
    println!("{header}");
    // One row: cardroom's figure, then each peer's with cardroom's ratio to it.
    let row = |name: &str, get: &dyn Fn(&Measured) -> String, ratio: Option<fn(Ratios) -> f64>| {
        let mut line = format!("{name:<26}{:>14}", get(&cardroom));
        let mut peer = |measured: Option<&Measured>, ratios: Option<Ratios>| {
            let theirs = measured.map(get).unwrap_or_default();
            let ratio =
                ratio.zip(ratios).map(|(of, r)| format!("{:.2}", of(r))).unwrap_or_default();
            line.push_str(&format!("{theirs:>14}{ratio:>9}"));
        };
        peer(baseline.as_ref(), ratios);
        if shaped.is_some() {
            peer(shaped.as_ref(), shaped_ratio);
        }
        println!("{}", line.trim_end());
    };
    row("decisions/s", &|m| thousands(m.decisions_per_s), Some(|r| r.decisions_per_s));
    row("round trip p50 (µs)", &|m| m.round_trip.p50_us.to_string(), Some(|r| r.p50));
    row("round trip p99 (µs)", &|m| m.round_trip.p99_us.to_string(), Some(|r| r.p99));
    row("round trip p99.9 (µs)", &|m| m.round_trip.p999_us.to_string(), Some(|r| r.p999));
    row("round trip max (µs)", &|m| m.round_trip.max_us.to_string(), None);
    row("server CPU (cores)", &|m| format!("{:.2}", m.server_cpu), None);
    row("client CPU (cores)", &|m| format!("{:.2}", m.client_cpu), None);
    row("CPU per decision (µs)", &|m| format!("{:.1}", cpu_per_decision_us(m)), None);
    row("other processes (cores)", &|m| format!("{:.2}", m.others_cpu), None);
    row("stolen by the VM (cores)", &|m| format!("{:.2}", m.stolen_cpu), None);
    row("server peak RSS (MiB)", &|m| format!("{:.1}", m.server_peak_rss_bytes as f64 / MIB), None);
    println!("{:<26}{:>14.1}", "matches/s", cardroom.matches_per_s);
    row("round trips timed", &|m| thousands(m.round_trip.count as f64), None);
    if let Some(r) = ratios {
        let verdict = |ok: bool| if ok { "met" } else { "MISSED" };
        println!(
            "\ngoals: p50 ≤ {P50_GOAL}× bare: {} ({:.2}×); p99 ≤ {P99_GOAL}× bare: {} ({:.2}×); decisions/s ≥ {:.0}% of bare: {} ({:.0}%)",
            verdict(r.p50 <= P50_GOAL),
            r.p50,
            verdict(r.p99 <= P99_GOAL),
            r.p99,
            THROUGHPUT_GOAL * 100.0,
            verdict(r.decisions_per_s >= THROUGHPUT_GOAL),
            r.decisions_per_s * 100.0
        );
    }
    // How quiet the machine was: the busiest window's figures, over every server's windows.
    let windows = rounds.iter().flat_map(|round| {
        [Some(&round.cardroom.measured), round.bare.as_ref(), round.match_shape.as_ref()]
            .into_iter()
            .flatten()
    });
    let busiest = |get: fn(&Measured) -> f64| windows.clone().map(get).fold(0.0, f64::max);
    println!(
        "the machine during the windows: other processes kept at most {:.2} cores busy, and the hypervisor took at most {:.2} (a quiet machine: both near 0)",
        busiest(|m| m.others_cpu),
        busiest(|m| m.stolen_cpu)
    );
    if !load.think.is_zero() {
        let p99 = cardroom.round_trip.p99_us;
        let verdict = if p99 < OPEN_P99_GOAL_US { "met" } else { "MISSED" };
        println!(
            "open load: p99 less the think time under {} ms: {verdict} ({:.1} ms)",
            OPEN_P99_GOAL_US / 1000,
            p99 as f64 / 1000.0
        );
    }
    Ok(())
}

#[derive(Serialize)]
struct HostedJson<'a> {
    game: String,
    seats: u32,
    matches: usize,
    warmup_s: f64,
    duration_s: f64,
    #[serde(flatten)]
    comparison: &'a Comparison,
}

/// `run --hosted-bots`'s report: every round's two windows, the medians, their ratios and
/// the verdict.
pub(crate) fn hosted(
    load: &Load,
    window: Window,
    comparison: &Comparison,
    as_json: bool,
) -> anyhow::Result<()> {
    if as_json {
        return json(&HostedJson {
            game: load.game.to_string(),
            seats: load.seats,
            matches: load.matches,
            warmup_s: window.warmup.as_secs_f64(),
            duration_s: window.duration.as_secs_f64(),
            comparison,
        });
    }
    let c = comparison;
    let bots = if load.think.is_zero() {
        "bots answering at once".to_owned()
    } else {
        format!(
            "bots thinking {} ms before each answer (taken out of every round trip below)",
            load.think.as_millis()
        )
    };
    println!(
        "cardroom-load run --hosted-bots {}: {} at {} seats, {} load matches at once, {bots}; {} rounds of {:.1} s after {:.1} s of warm-up, each round a fresh server of each kind (which goes first alternates)",
        c.bots,
        load.game,
        load.seats,
        load.matches,
        c.rounds.len(),
        window.duration.as_secs_f64(),
        window.warmup.as_secs_f64()
    );
    println!(
        "the ladder's server: {} registered bots in its lobby with their keys, {} streams each, thinking {} ms per decision; its hosted ladder capped at {} matches, {} per bot. Figures: the load's own matches only (GetStats `others`)\n",
        c.bots, c.streams_per_bot, c.hosted_think_ms, c.hosted_matches_cap, c.streams_per_bot
    );
    println!(
        "{:<7}{:<11}{:>13}{:>10}{:>10}{:>12}{:>14}{:>36}{:>10}",
        "round",
        "server",
        "decisions/s",
        "p50 (µs)",
        "p99 (µs)",
        "server CPU",
        "µs/decision",
        "hosted running (decisions/s)",
        "load avg"
    );
    let line = |round: String, name: &str, side: &Side| {
        let m = &side.measured;
        let h = &side.hosted_running;
        let load_average = side.load_average.map(|l| format!("{l:.1}")).unwrap_or_default();
        println!(
            "{round:<7}{name:<11}{:>13}{:>10}{:>10}{:>12.2}{:>14.1}{:>36}{load_average:>10}",
            thousands(m.decisions_per_s),
            m.round_trip.p50_us,
            m.round_trip.p99_us,
            m.server_cpu,
            side.server_us_per_decision(),
            format!("{} / {:.1} / {} ({:.0}/s)", h.min, h.mean, h.max, h.decisions_per_s),
        );
    };
    for (index, round) in c.rounds.iter().enumerate() {
        let order = if round.ladder_first {
            [("ladder", &round.ladder), ("no ladder", &round.no_ladder)]
        } else {
            [("no ladder", &round.no_ladder), ("ladder", &round.ladder)]
        };
        for (name, side) in order {
            line((index + 1).to_string(), name, side);
        }
    }
    for (name, m) in [("no ladder", &c.no_ladder), ("ladder", &c.ladder)] {
        println!(
            "{:<7}{name:<11}{:>13}{:>10.0}{:>10.0}{:>12.2}{:>14.1}",
            "median",
            thousands(m.decisions_per_s),
            m.p50_us,
            m.p99_us,
            m.server_cpu,
            m.server_us_per_decision
        );
    }
    let r = &c.ratios;
    println!(
        "{:<18}{:>13.3}{:>10.3}{:>10.3}{:>12}{:>14.3}",
        "ladder / none", r.decisions_per_s, r.p50, r.p99, "", r.server_us_per_decision
    );
    println!(
        "\nwithin {:.0}% (decisions/s ≥ {:.2}×, p50 and p99 ≤ {:.2}× the server with no ladder): {}",
        TOLERANCE * 100.0,
        1.0 - TOLERANCE,
        1.0 + TOLERANCE,
        if c.within_tolerance { "yes" } else { "NO" }
    );
    println!(
        "µs/decision: the server's CPU per decision, the load's and the hosted matches' counted together (a decision made dearer by the ladder shows here; a CPU shared with its matches does not)"
    );
    Ok(())
}

/// `soak`'s report: the samples, then what was left once the load drained.
pub(crate) fn soak(load: &Load, run: &CardroomRun, as_json: bool) -> anyhow::Result<()> {
    if as_json {
        return json(run);
    }
    println!(
        "cardroom-load soak: {} at {} seats, {} matches at once, {:.0} s",
        load.game, load.seats, load.matches, run.measured.seconds
    );
    println!(
        "{:>8}{:>14}{:>12}{:>10}{:>10}{:>10}{:>11}",
        "t (s)", "decisions/s", "finished", "running", "streams", "tasks", "RSS (MiB)"
    );
    let before = &run.idle_before;
    let rows = std::iter::once(before).chain(&run.samples).chain(&run.drained);
    for s in rows {
        println!(
            "{:>8.0}{:>14}{:>12}{:>10}{:>10}{:>10}{:>11.1}",
            s.seconds,
            thousands(s.decisions_per_s),
            s.matches_finished,
            s.matches_running,
            s.connections_open,
            s.tasks_alive,
            s.rss_bytes as f64 / MIB
        );
    }
    let m = &run.measured;
    println!(
        "\nwindow: {} decisions/s, {:.1} matches/s, round trip p50 {} µs, p99 {} µs, p99.9 {} µs, max {} µs",
        thousands(m.decisions_per_s),
        m.matches_per_s,
        m.round_trip.p50_us,
        m.round_trip.p99_us,
        m.round_trip.p999_us,
        m.round_trip.max_us
    );
    if let (Some(first), Some(last)) = (run.samples.first(), run.samples.last()) {
        println!(
            "memory: {:.1} MiB at the first sample, {:.1} MiB at the last ({:+.1} MiB)",
            first.rss_bytes as f64 / MIB,
            last.rss_bytes as f64 / MIB,
            (last.rss_bytes as f64 - first.rss_bytes as f64) / MIB
        );
    }
    if let Some(drained) = &run.drained {
        println!(
            "drained: {} matches running, {} streams open, {} tasks alive (before the load: {}); {} decisions in all",
            drained.matches_running,
            drained.connections_open,
            drained.tasks_alive,
            before.tasks_alive,
            drained.decisions - before.decisions
        );
    }
    Ok(())
}

#[derive(Serialize)]
struct PeerJson<'a> {
    match_shape: bool,
    matches: usize,
    sizes: Sizes,
    /// Whether the server was this run's child (its CPU and memory were read).
    server_measured: bool,
    measured: &'a Measured,
}

/// `peer`'s report: one window of the bare tonic peer.
pub(crate) fn peer(
    shape: Shape,
    matches: usize,
    sizes: Sizes,
    measured: &Measured,
    server_measured: bool,
    as_json: bool,
) -> anyhow::Result<()> {
    if as_json {
        let match_shape = shape == Shape::Matches;
        return json(&PeerJson { match_shape, matches, sizes, server_measured, measured });
    }
    let name = match shape {
        Shape::Streams => "bare tonic",
        Shape::Matches => "bare tonic in a match's shape",
    };
    let m = measured;
    println!(
        "cardroom-load peer: {name}, {matches} matches, {} B out and {} B back, {:.1} s",
        sizes.turn_bytes, sizes.act_bytes, m.seconds
    );
    println!(
        "round trips: {} ({}/s), p50 {} µs, p99 {} µs, p99.9 {} µs, max {} µs",
        m.round_trip.count,
        thousands(m.decisions_per_s),
        m.round_trip.p50_us,
        m.round_trip.p99_us,
        m.round_trip.p999_us,
        m.round_trip.max_us
    );
    let per_trip = |cores: f64| cores * 1e6 / m.decisions_per_s.max(1.0);
    if server_measured {
        println!(
            "CPU per round trip: server {:.1} µs, clients {:.1} µs; server peak RSS {:.1} MiB",
            per_trip(m.server_cpu),
            per_trip(m.client_cpu),
            m.server_peak_rss_bytes as f64 / MIB
        );
    } else {
        println!("CPU per round trip: clients {:.1} µs", per_trip(m.client_cpu));
    }
    Ok(())
}

/// `idle`'s report.
pub(crate) fn idle(run: &IdleRun, as_json: bool) -> anyhow::Result<()> {
    if as_json {
        return json(run);
    }
    println!(
        "cardroom-load idle: {} bots connected in {:.1} s; the server holds {} streams, {} matches, {} tasks",
        run.bots,
        run.seconds_to_connect,
        run.connections_open,
        run.matches_running,
        run.tasks_alive
    );
    println!(
        "server RSS: {:.1} MiB before, {:.1} MiB with the bots (peak {:.1} MiB): {:.1} KiB per idle bot",
        run.rss_before_bytes as f64 / MIB,
        run.rss_bytes as f64 / MIB,
        run.peak_rss_bytes as f64 / MIB,
        (run.rss_bytes.saturating_sub(run.rss_before_bytes)) as f64
            / 1024.0
            / run.bots.max(1) as f64
    );
    Ok(())
}

/// `pages`' report: each window's match rate and server CPU, the page load's figures, and the
/// two verdicts (the match rate within 10% of the quiet windows', the server's CPU a page).
pub(crate) fn pages(report: &crate::pages::PagesReport, as_json: bool) -> anyhow::Result<()> {
    if as_json {
        return json(report);
    }
    println!(
        "cardroom-load pages: {} stock bots in a hosted ladder; {} clients fetching {}",
        report.bots, report.clients, report.page
    );
    println!(
        "| window | seconds | matches finished | matches/s | server CPU s | pages | page p50 | page p99 |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (loaded, w) in &report.windows {
        let name = if *loaded { "pages" } else { "quiet" };
        println!(
            "| {name} | {:.1} | {} | {:.1} | {:.2} | {} | {:.1} ms | {:.1} ms |",
            w.seconds,
            w.matches_finished,
            w.matches_per_s,
            w.server_cpu_s,
            w.pages,
            w.page_p50_ms,
            w.page_p99_ms
        );
    }
    let verdict = |ok: bool| if ok { "met" } else { "missed" };
    println!(
        "match rate under the page load: {:.2} of the quiet windows' either side, the median \
         (goal 0.90 or more: {})",
        report.match_rate_ratio,
        verdict(report.match_rate_ratio >= 0.90)
    );
    println!(
        "server CPU a page: {:.2} ms, the median (goal under 10 ms: {})",
        report.server_cpu_ms_per_page,
        verdict(report.server_cpu_ms_per_page < 10.0)
    );
    Ok(())
}
