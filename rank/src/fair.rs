//! The fair adaptive schedule: which table a ladder plans next when its bots play at
//! different speeds.
//!
//! [`Settlement`](crate::Settlement) says where a ladder's order is still open: its open
//! adjacent pairs, the least certain first. A schedule that chooses only among the bots free at
//! the instant it plans lets fast bots play each other without end while a slow bot is busy: the
//! slow bot is never free when a table is chosen, and a settled pair of fast bots is always
//! there to fill the time. [`fair_table`] chooses among every bot present, free or busy, so a
//! table may wait for a busy bot (the ladder bounds that wait), and:
//!
//! 1. **Fair share.** A bot more than [`AHEAD`] times the median bot's sets (rated, planned or
//!    running) is not seated until the others catch up, and the bot with the fewest sets that
//!    can be seated must sit at the next table if it has fewer than [`FAIR_SHARE`] of the
//!    median's: no bot falls far behind, however slow, nor runs far ahead. Its partner is the one it is least certainly
//!    ordered with, or if all its pairs are settled the one it has played least, so the sets a
//!    settled bot must play spread over its pairs; while the order is open, a settled pair
//!    with [`SETTLED_PAIR_SHARE`] of the sets is not a partner.
//! 2. **Information.** Otherwise the table holds the least certain open pair of the order whose
//!    two bots can be seated.
//! 3. **No filler.** While the order has an open pair of bots present that cannot be seated now
//!    because a bot of it waits for a table already planned, nothing is planned: settled pairs
//!    get no matches to fill the time. (An open pair with a bot away, on another node say, asks
//!    nothing of the bots here.) An open pair held back only because its bots are too far
//!    ahead waits for the others, who play on among themselves, settled or not: a ladder never
//!    stalls with every bot free.
//! 4. **Balance.** Once the order is settled, the bot with the fewest sets and the bots it has
//!    played least.
//!
//! The other seats of a table larger than two go to the bots that add the most open pairs to
//! it, then to free bots before busy ones, then to those with the fewest samples against the
//! bots seated. Everything here is pure: the ladder passes each bot's state and set count.

use crate::pairwise::PairTable;

/// A bot below this share of the median bot's sets must sit at the next table.
pub const FAIR_SHARE: f64 = 0.6;

/// A bot this far above the median bot's sets (times the median, plus [`AHEAD_SLACK`]) is not
/// seated until the others catch up: the fast bots of a field wait for the slow ones rather
/// than run away from them.
pub const AHEAD: f64 = 1.3;

/// The sets a bot may be ahead of [`AHEAD`] times the median: a young ladder's counts are small
/// numbers.
pub const AHEAD_SLACK: f64 = 2.0;

/// While the order has an open pair, a settled pair that has this share of the ladder's sets
/// (plus [`AHEAD_SLACK`]) is not seated again, even for a bot behind its fair share.
pub const SETTLED_PAIR_SHARE: f64 = 0.08;

/// A bot as [`fair_table`] sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BotNow {
    /// It can start a match now.
    Free,
    /// It plays a match and will be free when that ends: a table may wait for it.
    Busy,
    /// Present, but held for a table already planned: it counts for the median, it is not
    /// seated again.
    Held,
    /// Not to be seated (away, paused, or waited for long enough): left out.
    Away,
}

/// The next table (bot indices, ascending) for the bots `now` (by index, as `pairs` numbers
/// them), each with `sets` sets played or in flight, the order's `open` adjacent pairs (each
/// `(above, below, how certain)`, as [`Settlement::open`](crate::Settlement::open)), at tables
/// of `table` seats; `None` when nothing should be planned now (see the [module docs](self)).
/// The caller starts it at once if every bot at it is free, else plans it to wait.
pub fn fair_table(
    pairs: &PairTable,
    open: &[(usize, usize, f64)],
    now: &[BotNow],
    sets: &[u64],
    table: usize,
) -> Option<Vec<usize>> {
    fair_table_apart(pairs, open, now, sets, table, &|_, _| false)
}

/// [`fair_table`], where no two bots that `apart` names ever share a table (two bots of one
/// author, say): such a pair is never the open pair played, nor a partner, nor filled in.
pub fn fair_table_apart(
    pairs: &PairTable,
    open: &[(usize, usize, f64)],
    now: &[BotNow],
    sets: &[u64],
    table: usize,
    apart: &dyn Fn(usize, usize) -> bool,
) -> Option<Vec<usize>> {
    let mut present: Vec<u64> =
        (0..now.len()).filter(|&bot| now[bot] != BotNow::Away).map(|bot| sets[bot]).collect();
    if table < 2 || present.len() < table {
        return None;
    }
    present.sort_unstable();
    let middle = present.len() / 2;
    let median = if present.len() % 2 == 1 {
        present[middle] as f64
    } else {
        (present[middle - 1] + present[middle]) as f64 / 2.0
    };
    // The open pairs that can be played here: a pair with a bot away (on another node, say)
    // asks nothing of these bots.
    let open: Vec<(usize, usize, f64)> = open
        .iter()
        .copied()
        .filter(|&(a, b, _)| now[a] != BotNow::Away && now[b] != BotNow::Away && !apart(a, b))
        .collect();
    let open = &open[..];
    let seatable: Vec<usize> = (0..now.len())
        .filter(|&bot| matches!(now[bot], BotNow::Free | BotNow::Busy))
        .filter(|&bot| sets[bot] as f64 <= AHEAD * median + AHEAD_SLACK)
        .collect();
    if seatable.len() < table {
        return None;
    }
    // The bot furthest behind, a free one before a busy one of as few sets.
    let behind =
        seatable.iter().copied().min_by_key(|&bot| (sets[bot], now[bot] != BotNow::Free, bot));
    let behind = behind?;
    let is_open =
        |a: usize, b: usize| open.iter().any(|&(x, y, _)| (x, y) == (a, b) || (x, y) == (b, a));
    let total = sets.iter().sum::<u64>() as f64 / table as f64;
    let spent = |a: usize, b: usize| {
        !open.is_empty()
            && !is_open(a, b)
            && f64::from(pairs.tally(a, b).n) >= SETTLED_PAIR_SHARE * total + AHEAD_SLACK
    };
    // The partner of `behind`: the one it is least certainly ordered with, then the one it has
    // played least; a spent pair only where `spent_too`.
    let partner_of_behind = |spent_too: bool| {
        let certainty = |other: usize| {
            open.iter()
                .find(|&&(a, b, _)| (a, b) == (behind, other) || (a, b) == (other, behind))
                .map_or(f64::INFINITY, |&(_, _, c)| c)
        };
        seatable
            .iter()
            .copied()
            .filter(|&other| other != behind && !apart(behind, other))
            .filter(|&other| spent_too || !spent(behind, other))
            .min_by(|&x, &y| {
                certainty(x)
                    .total_cmp(&certainty(y))
                    .then(pairs.tally(behind, x).n.cmp(&pairs.tally(behind, y).n))
                    .then((now[x] != BotNow::Free).cmp(&(now[y] != BotNow::Free)))
                    .then(sets[x].cmp(&sets[y]))
                    .then(x.cmp(&y))
            })
    };
    let partner = (sets[behind] as f64) < FAIR_SHARE * median || open.is_empty();
    let partner = partner.then(|| partner_of_behind(false));
    let fill = |seated: Vec<usize>| {
        let filled = fill(pairs, &is_open, apart, now, sets, &seatable, seated, table);
        (filled.len() == table).then_some(filled)
    };
    if let Some(partner) = partner.flatten() {
        return fill(vec![behind, partner]);
    }
    let least_certain = open
        .iter()
        .filter(|&&(a, b, _)| seatable.contains(&a) && seatable.contains(&b))
        .min_by(|x, y| x.2.total_cmp(&y.2));
    if let Some(&(a, b, _)) = least_certain {
        return fill(vec![a, b]);
    }
    // No open pair can be seated. One with a bot held for a table already planned is played
    // once that table ends: nothing is planned meanwhile (no filler). One whose bots are only
    // too far ahead waits for the others to catch up, so the bots behind play on, the one
    // furthest behind with the partner it has played least, settled or not: else nobody
    // would ever move again.
    if open.iter().any(|&(a, b, _)| now[a] == BotNow::Held || now[b] == BotNow::Held) {
        return None;
    }
    let partner = partner_of_behind(true)?;
    fill(vec![behind, partner])
}

/// `seated`, filled to `table` seats from `seatable` (none `apart` from a bot seated): each
/// seat to the bot that adds the most open pairs, then a free bot, then the fewest samples
/// with the bots seated, then the fewest sets, then the lowest index. Short if too few may sit.
#[allow(clippy::too_many_arguments, reason = "the schedule's state, passed whole")]
fn fill(
    pairs: &PairTable,
    is_open: &dyn Fn(usize, usize) -> bool,
    apart: &dyn Fn(usize, usize) -> bool,
    now: &[BotNow],
    sets: &[u64],
    seatable: &[usize],
    mut seated: Vec<usize>,
    table: usize,
) -> Vec<usize> {
    while seated.len() < table {
        let may_sit = |c: &usize| !seated.contains(c) && seated.iter().all(|&s| !apart(*c, s));
        let next = seatable.iter().copied().filter(may_sit).min_by_key(|&c| {
            let open = seated.iter().filter(|&&s| is_open(c, s)).count();
            let samples: u64 = seated.iter().map(|&s| u64::from(pairs.tally(c, s).n)).sum();
            (std::cmp::Reverse(open), now[c] != BotNow::Free, samples, sets[c], c)
        });
        match next {
            Some(bot) => seated.push(bot),
            None => break,
        }
    }
    seated.sort_unstable();
    seated
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pairs` with `a` beating `b` in `n` sets.
    fn beaten(pairs: &mut PairTable, a: usize, b: usize, n: u32) {
        for _ in 0..n {
            pairs.add(a, b, 1.0, 0.0);
        }
    }

    /// Seen on a ladder of two random bots, a heuristic and a searcher: the random pair stays
    /// open forever and ran ahead; the other two had settled their pair and played it their
    /// share. Excluding that pair and holding the fast ones back, the schedule planned nothing
    /// ever again, with every bot free.
    #[test]
    fn the_bots_behind_play_on_while_the_open_pair_waits_for_them() {
        let mut pairs = PairTable::new(4);
        beaten(&mut pairs, 0, 2, 6);
        beaten(&mut pairs, 1, 3, 6);
        beaten(&mut pairs, 2, 3, 5);
        let open = [(0, 1, 0.4)];
        let now = [BotNow::Free; 4];
        let sets = [16, 16, 5, 5];
        assert_eq!(fair_table(&pairs, &open, &now, &sets, 2), Some(vec![2, 3]));
        // Were a bot of the open pair held for a table already planned, that table comes first.
        let now = [BotNow::Held, BotNow::Free, BotNow::Free, BotNow::Free];
        assert_eq!(fair_table(&pairs, &open, &now, &sets, 2), None);
    }

    #[test]
    fn the_open_pair_is_played_and_waits_for_its_busy_bot() {
        // Four bots: 0 and 1 open, every other pair settled; 1 is busy.
        let mut pairs = PairTable::new(4);
        beaten(&mut pairs, 0, 2, 20);
        beaten(&mut pairs, 1, 3, 20);
        let open = [(0, 1, 0.3)];
        let now = [BotNow::Free, BotNow::Busy, BotNow::Free, BotNow::Free];
        let sets = [20, 20, 20, 20];
        assert_eq!(fair_table(&pairs, &open, &now, &sets, 2), Some(vec![0, 1]));
        // Held for a table already planned, the open pair is not played, and no settled pair
        // fills the time.
        let now = [BotNow::Held, BotNow::Busy, BotNow::Free, BotNow::Free];
        assert_eq!(fair_table(&pairs, &open, &now, &sets, 2), None);
    }

    #[test]
    fn a_bot_far_behind_sits_at_the_next_table_with_the_partner_it_played_least() {
        let mut pairs = PairTable::new(4);
        beaten(&mut pairs, 0, 3, 10);
        beaten(&mut pairs, 1, 3, 2);
        beaten(&mut pairs, 2, 3, 6);
        let open = [(0, 1, 0.3)];
        let now = [BotNow::Free, BotNow::Free, BotNow::Free, BotNow::Busy];
        // Bot 3 has 18 sets against a median of 40: it must play, with bot 1.
        let sets = [40, 40, 40, 18];
        assert_eq!(fair_table(&pairs, &open, &now, &sets, 2), Some(vec![1, 3]));
        // Within its share, the open pair goes first.
        let sets = [40, 40, 40, 30];
        assert_eq!(fair_table(&pairs, &open, &now, &sets, 2), Some(vec![0, 1]));
    }

    #[test]
    fn a_settled_order_plays_the_bot_with_fewest_sets_and_fills_free_bots_first() {
        let pairs = PairTable::new(5);
        let now = [BotNow::Busy, BotNow::Free, BotNow::Free, BotNow::Free, BotNow::Away];
        let sets = [3, 5, 4, 5, 0];
        assert_eq!(fair_table(&pairs, &[], &now, &sets, 3), Some(vec![0, 1, 2]));
        // Too few bots to seat.
        let now = [BotNow::Away, BotNow::Held, BotNow::Free, BotNow::Free, BotNow::Away];
        assert_eq!(fair_table(&pairs, &[], &now, &sets, 3), None);
    }

    /// Bots 0 and 1 are of one author, and 2 and 3 of another: over many random states of the
    /// ladder, no table seats two of one author, and a table comes whenever one can be made.
    #[test]
    fn bots_kept_apart_never_share_a_table() {
        use rand::{RngExt as _, SeedableRng as _};
        let apart = |a: usize, b: usize| a / 2 == b / 2 && a < 4 && b < 4 && a != b;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
        for _ in 0..2_000 {
            let n = rng.random_range(4..8);
            let table = rng.random_range(2..4);
            let mut pairs = PairTable::new(n);
            for _ in 0..rng.random_range(0..20) {
                let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
                if a != b {
                    pairs.add(a, b, 1.0, 0.0);
                }
            }
            let open: Vec<(usize, usize, f64)> =
                (0..n - 1).map(|a| (a, a + 1, rng.random_range(0.0..1.0))).collect();
            let now: Vec<BotNow> = (0..n)
                .map(|_| match rng.random_range(0..4) {
                    0 => BotNow::Busy,
                    1 => BotNow::Away,
                    _ => BotNow::Free,
                })
                .collect();
            let sets: Vec<u64> = (0..n).map(|_| rng.random_range(0..10)).collect();
            if let Some(seated) = fair_table_apart(&pairs, &open, &now, &sets, table, &apart) {
                assert_eq!(seated.len(), table, "{seated:?}");
                for (i, &a) in seated.iter().enumerate() {
                    assert!(seated[i + 1..].iter().all(|&b| !apart(a, b)), "{seated:?}");
                }
            }
        }
        // Four bots of two authors at tables of two: only the authors' cross pairs are played.
        let pairs = PairTable::new(4);
        let now = [BotNow::Free; 4];
        let table = fair_table_apart(&pairs, &[(0, 1, 0.1)], &now, &[0; 4], 2, &apart);
        let table = table.expect("a table of the two authors' bots");
        assert!(table.iter().any(|&b| b < 2) && table.iter().any(|&b| b >= 2), "{table:?}");
    }
}
