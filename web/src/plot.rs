//! Plots drawn by the server as SVG: a rating over time with its uncertainty band, and a
//! histogram. Coordinates only; the page's style sheet colours them.

use maud::{Markup, html};

use crate::source::{RatingAt, ThinkBucket};

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 240.0;
const MARGIN: f64 = 40.0;

/// The most points the rating plot draws: one every two pixels of its width. A bot with more
/// rated sets is drawn through evenly spaced ones (its first and last always), so that the page
/// costs the same at 40 sets and at 4,000.
const MAX_POINTS: usize = ((WIDTH - 2.0 * MARGIN) / 2.0) as usize;

/// Points marked with a circle (and a tooltip) when the plot draws no more than this many.
const MAX_MARKED: usize = 100;

/// At most `most` of `history`'s points, evenly spaced, the first and the last among them.
fn thinned(history: &[RatingAt], most: usize) -> Vec<RatingAt> {
    if history.len() <= most {
        return history.to_vec();
    }
    let step = (history.len() - 1) as f64 / (most - 1) as f64;
    (0..most)
        .map(|i| history[((i as f64 * step).round() as usize).min(history.len() - 1)])
        .collect()
}

/// The rating after each rated set, with a band of ±2σ.
pub(crate) fn rating_history(history: &[RatingAt]) -> Markup {
    if history.is_empty() {
        return html! { p.none { "No rated sets yet." } };
    }
    let history = &thinned(history, MAX_POINTS)[..];
    let low = history.iter().map(|h| h.rating - 2.0 * h.sigma).fold(f64::INFINITY, f64::min);
    let high = history.iter().map(|h| h.rating + 2.0 * h.sigma).fold(f64::NEG_INFINITY, f64::max);
    let (low, high) = if high - low < 1e-9 { (low - 1.0, high + 1.0) } else { (low, high) };
    let last = history.last().map_or(1, |h| h.step.max(1)) as f64;
    let x = |step: u64| MARGIN + (WIDTH - 2.0 * MARGIN) * step as f64 / last;
    let y = |rating: f64| HEIGHT - MARGIN - (HEIGHT - 2.0 * MARGIN) * (rating - low) / (high - low);
    let line: Vec<String> =
        history.iter().map(|h| format!("{:.1},{:.1}", x(h.step), y(h.rating))).collect();
    let band: Vec<String> = history
        .iter()
        .map(|h| format!("{:.1},{:.1}", x(h.step), y(h.rating + 2.0 * h.sigma)))
        .chain(
            history
                .iter()
                .rev()
                .map(|h| format!("{:.1},{:.1}", x(h.step), y(h.rating - 2.0 * h.sigma))),
        )
        .collect();
    html! {
        svg.plot.rating viewBox={ "0 0 " (WIDTH) " " (HEIGHT) } role="img"
            aria-label="rating after each rated set, with a band of two standard deviations" {
            polygon.band points=(band.join(" ")) {}
            polyline.line points=(line.join(" ")) {}
            line.axis x1=(MARGIN) y1=(HEIGHT - MARGIN) x2=(WIDTH - MARGIN) y2=(HEIGHT - MARGIN) {}
            line.axis x1=(MARGIN) y1=(MARGIN) x2=(MARGIN) y2=(HEIGHT - MARGIN) {}
            text x=(MARGIN - 4.0) y=(MARGIN) text-anchor="end" { (format!("{high:.0}")) }
            text x=(MARGIN - 4.0) y=(HEIGHT - MARGIN) text-anchor="end" { (format!("{low:.0}")) }
            text x=(WIDTH - MARGIN) y=(HEIGHT - MARGIN + 16.0) text-anchor="end" {
                (format!("{last:.0} sets"))
            }
            @for h in history.iter().filter(|_| history.len() <= MAX_MARKED) {
                circle cx=(format!("{:.1}", x(h.step))) cy=(format!("{:.1}", y(h.rating))) r="2" {
                    title { "after set " (h.step) ": " (format!("{:.1} ± {:.1}", h.rating, h.sigma)) }
                }
            }
        }
    }
}

/// Bars of a histogram, one per bucket, labelled by their edges (formatted by `label`).
pub(crate) fn histogram(buckets: &[ThinkBucket], label: impl Fn(f64) -> String) -> Markup {
    let Some(most) = buckets.iter().map(|b| b.count).max().filter(|&m| m > 0) else {
        return html! { p.none { "No decisions yet." } };
    };
    let bar = (WIDTH - 2.0 * MARGIN) / buckets.len() as f64;
    html! {
        svg.plot.histogram viewBox={ "0 0 " (WIDTH) " " (HEIGHT) } role="img"
            aria-label="think-time histogram" {
            @for (i, b) in buckets.iter().enumerate() {
                @let h = (HEIGHT - 2.0 * MARGIN) * b.count as f64 / most as f64;
                rect x=(format!("{:.1}", MARGIN + bar * i as f64))
                    y=(format!("{:.1}", HEIGHT - MARGIN - h))
                    width=(format!("{:.1}", (bar - 1.0).max(1.0))) height=(format!("{h:.1}")) {
                    title { (label(b.from_us)) " – " (label(b.to_us)) ": " (b.count) }
                }
            }
            line.axis x1=(MARGIN) y1=(HEIGHT - MARGIN) x2=(WIDTH - MARGIN) y2=(HEIGHT - MARGIN) {}
            @if let (Some(first), Some(last)) = (buckets.first(), buckets.last()) {
                text x=(MARGIN) y=(HEIGHT - MARGIN + 16.0) { (label(first.from_us)) }
                text x=(WIDTH - MARGIN) y=(HEIGHT - MARGIN + 16.0) text-anchor="end" {
                    (label(last.to_us))
                }
            }
        }
    }
}

/// Merges a fine histogram into at most `bars` buckets of equal width in log scale.
pub(crate) fn coarsen(buckets: &[ThinkBucket], bars: usize) -> Vec<ThinkBucket> {
    let (Some(first), Some(last)) = (buckets.first(), buckets.last()) else { return Vec::new() };
    let (lo, hi) = ((first.from_us + 1.0).ln(), (last.to_us + 1.0).ln());
    let step = ((hi - lo) / bars.max(1) as f64).max(1e-9);
    let mut out: Vec<ThinkBucket> = (0..bars.max(1))
        .map(|i| ThinkBucket {
            from_us: (lo + step * i as f64).exp() - 1.0,
            to_us: (lo + step * (i + 1) as f64).exp() - 1.0,
            count: 0,
        })
        .collect();
    for b in buckets {
        let i = (((b.from_us + 1.0).ln() - lo) / step).floor() as usize;
        if let Some(slot) = out.get_mut(i.min(bars.max(1) - 1)) {
            slot.count += b.count;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coarsening_keeps_every_decision() {
        let fine: Vec<ThinkBucket> = (0..100)
            .map(|i| ThinkBucket {
                from_us: 1.05f64.powi(i) - 1.0,
                to_us: 1.05f64.powi(i + 1) - 1.0,
                count: u64::try_from(i).unwrap_or(0),
            })
            .collect();
        let coarse = coarsen(&fine, 12);
        assert_eq!(coarse.len(), 12);
        assert_eq!(coarse.iter().map(|b| b.count).sum::<u64>(), (0..100).sum::<u64>());
        assert!(coarsen(&[], 12).is_empty());
    }

    #[test]
    fn the_rating_plot_has_a_point_per_set() {
        let history: Vec<RatingAt> = (0..5)
            .map(|step| RatingAt { step, rating: 1500.0 + step as f64 * 10.0, sigma: 50.0 })
            .collect();
        let svg = rating_history(&history).into_string();
        assert_eq!(svg.matches("<circle").count(), 5);
        // A long history is drawn through a bounded number of points, unmarked.
        let long: Vec<RatingAt> =
            (0..5_000u64).map(|step| RatingAt { step, rating: step as f64, sigma: 1.0 }).collect();
        let svg = rating_history(&long).into_string();
        assert_eq!(svg.matches("<circle").count(), 0);
        let points = svg.split("points=\"").nth(2).unwrap().split('"').next().unwrap();
        assert_eq!(points.split(' ').count(), MAX_POINTS);
        // The last set is drawn: the line ends at the plot's right edge.
        let last_x = points.rsplit(' ').next().unwrap().split(',').next().unwrap();
        assert_eq!(last_x, format!("{:.1}", WIDTH - MARGIN));
        assert!(svg.contains("polyline"));
    }
}
