//! How many matches each ranking method needs: simulated ladders of bots whose order is known,
//! what `cardroom arena power` runs and prints.
//!
//! Every match a simulated ladder may play is played once beforehand, into an [`OutcomePool`]:
//! for each of `deals` deals, every table of the field (every `seats`-subset of the bots) in
//! every rotation of the seats, and once with a frozen reference bot in every seat (the
//! control of the luck-adjusted scores). A simulated ladder then draws deals from the pool
//! (uniformly, with replacement) and looks the outcomes up, so that every method is measured on
//! the same matches and a trial costs microseconds.
//!
//! The *true order* is the pool's own: the bots sorted by their mean head-to-head score over
//! every match of the pool, which is exactly what a simulated ladder's estimates converge to
//! ([`OutcomePool::truth`]); it is refused unless each bot's head-to-head score against every
//! bot below it is above ½ (a true order, no cycle). The field is built so that this order is known in advance as well (the
//! same bot diluted by more and more random moves), and `arena power` prints both.
//!
//! Each [`Method`] plays sets until its own test says the order is right at 95% (a trial that
//! reaches `max_matches` stops there, undecided), and the trial records the matches played and
//! whether the order it settled on is the true one.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Serialize;

use crate::duplicate::{derive_seed, rotations};
use crate::orders::{Betting, OrderTest};
use crate::pairwise::{PairTable, normal_cdf};
use crate::rating::{PairedResult, RatingSystem, Ratings};
use crate::schedule::{Belief, least_certain, round_robin};
use crate::settle::table_for;

/// Who sits in a seat of a pooled match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// The field's bot with this index.
    Bot(usize),
    /// The frozen reference bot (the control).
    Reference,
}

/// Why a pool cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PowerError {
    /// Fewer bots than seats, fewer than two seats, or no deals.
    #[error(
        "a pool needs at least two seats, as many bots as seats and one deal ({bots} bots, {seats} seats, {deals} deals)"
    )]
    Shape {
        /// Bots in the field.
        bots: usize,
        /// Seats per table.
        seats: usize,
        /// Deals.
        deals: usize,
    },
    /// A match reported places for another number of seats.
    #[error("a match of {seats} seats reported {got} places")]
    Places {
        /// Seats.
        seats: usize,
        /// Places reported.
        got: usize,
    },
    /// The pool's head-to-head scores do not order the bots: no true order to find.
    #[error(
        "the pool does not order the bots: {better} scores {score:.4} against {worse}, below it in its order (play more deals or space the bots further apart)"
    )]
    NoOrder {
        /// The bot ranked higher.
        better: usize,
        /// A bot ranked below it.
        worse: usize,
        /// The first's mean score against the second.
        score: f64,
    },
    /// Playing a pooled match failed.
    #[error("deal {deal}: {message}")]
    Match {
        /// The deal's index in the pool.
        deal: usize,
        /// What went wrong.
        message: String,
    },
}

/// Plays one pooled match: the deal's seed and who sits in each seat, to each seat's place.
pub type PlayMatch<'a> = dyn Fn(u64, &[Player]) -> Result<Vec<u8>, String> + Sync + 'a;

/// One deal's places: every table's seatings, then the reference's.
type DealPlaces = (Vec<u8>, Vec<u8>);

/// Every match a simulated ladder may play (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct OutcomePool {
    bots: usize,
    seats: usize,
    tables: Vec<Vec<usize>>,
    seatings: Vec<Vec<usize>>,
    deals: usize,
    /// Places by `[deal][table][seating][seat]`.
    places: Vec<u8>,
    /// The reference bot's places by `[deal][seat]`.
    reference: Vec<u8>,
    /// The reference's mean score of seat `s` against seat `t`, `[s][t]`, over the pool.
    reference_mean: Vec<f64>,
}

/// `a`'s score against `b` in one match: 1 ahead, ½ level, 0 behind.
fn match_score(place_a: u8, place_b: u8) -> f64 {
    match place_a.cmp(&place_b) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Greater => 0.0,
    }
}

impl OutcomePool {
    /// Plays the pool: `play(deal_seed, seats)` plays one match of the deal `deal_seed` with
    /// `seats[s]` in seat `s` and returns each seat's place (1 first). Deal `d`'s seed is
    /// `derive_seed(seed, d)`; the deals are shared among `parallel` threads.
    pub fn build(
        bots: usize,
        seats: usize,
        deals: usize,
        seed: u64,
        parallel: usize,
        play: &PlayMatch<'_>,
    ) -> Result<OutcomePool, PowerError> {
        if seats < 2 || bots < seats || deals == 0 {
            return Err(PowerError::Shape { bots, seats, deals });
        }
        let tables = round_robin(bots, seats);
        let seatings = rotations(seats, None);
        let per_deal = tables.len() * seatings.len() * seats;
        let results: Mutex<Vec<Option<DealPlaces>>> = Mutex::new(vec![None; deals]);
        let next = AtomicUsize::new(0);
        let failure: Mutex<Option<PowerError>> = Mutex::new(None);
        let checked = |deal: usize, places: Vec<u8>| {
            if places.len() == seats {
                Ok(places)
            } else {
                Err(PowerError::Places { seats, got: places.len() })
            }
            .map_err(|e| (deal, e))
        };
        let play_deal = |deal: usize| -> Result<DealPlaces, (usize, PowerError)> {
            let deal_seed = derive_seed(seed, deal as u64);
            let mut out = Vec::with_capacity(per_deal);
            for table in &tables {
                for seating in &seatings {
                    let players: Vec<Player> =
                        seating.iter().map(|&pos| Player::Bot(table[pos])).collect();
                    let places = play(deal_seed, &players)
                        .map_err(|message| (deal, PowerError::Match { deal, message }))?;
                    out.extend(checked(deal, places)?);
                }
            }
            let reference = play(deal_seed, &vec![Player::Reference; seats])
                .map_err(|message| (deal, PowerError::Match { deal, message }))?;
            Ok((out, checked(deal, reference)?))
        };
        std::thread::scope(|scope| {
            for _ in 0..parallel.max(1) {
                scope.spawn(|| {
                    loop {
                        let deal = next.fetch_add(1, Ordering::Relaxed);
                        if deal >= deals {
                            break;
                        }
                        match play_deal(deal) {
                            Ok(done) => {
                                if let Ok(mut r) = results.lock() {
                                    r[deal] = Some(done);
                                }
                            }
                            Err((_, e)) => {
                                if let Ok(mut f) = failure.lock() {
                                    f.get_or_insert(e);
                                }
                                next.store(deals, Ordering::Relaxed);
                            }
                        }
                    }
                });
            }
        });
        if let Some(e) = failure.into_inner().ok().flatten() {
            return Err(e);
        }
        let results = results.into_inner().unwrap_or_default();
        let mut places = Vec::with_capacity(deals * per_deal);
        let mut reference = Vec::with_capacity(deals * seats);
        for (deal, r) in results.into_iter().enumerate() {
            let (p, r) = r.ok_or(PowerError::Match { deal, message: "not played".into() })?;
            places.extend(p);
            reference.extend(r);
        }
        Ok(OutcomePool::from_places(bots, seats, places, reference))
    }

    /// A pool from its places, `[deal][table][seating][seat]` over the tables of
    /// `round_robin(bots, seats)` and the seatings of `rotations(seats, None)`, and the
    /// reference's `[deal][seat]`.
    ///
    /// # Panics
    ///
    /// If the lengths do not fit those shapes (a caller's bug, not a peer's input).
    pub fn from_places(
        bots: usize,
        seats: usize,
        places: Vec<u8>,
        reference: Vec<u8>,
    ) -> OutcomePool {
        let tables = round_robin(bots, seats);
        let seatings = rotations(seats, None);
        let deals = reference.len() / seats;
        assert_eq!(places.len(), deals * tables.len() * seatings.len() * seats, "pool shape");
        let mut reference_mean = vec![0.0; seats * seats];
        for deal in 0..deals {
            let r = &reference[deal * seats..(deal + 1) * seats];
            for s in 0..seats {
                for t in 0..seats {
                    reference_mean[s * seats + t] += match_score(r[s], r[t]) / deals as f64;
                }
            }
        }
        OutcomePool { bots, seats, tables, seatings, deals, places, reference, reference_mean }
    }

    /// Bots in the field.
    pub fn bots(&self) -> usize {
        self.bots
    }

    /// The places [`OutcomePool::from_places`] takes, to keep a pool and read it back.
    pub fn places_played(&self) -> (&[u8], &[u8]) {
        (&self.places, &self.reference)
    }

    /// Seats per table.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// Deals in the pool.
    pub fn deals(&self) -> usize {
        self.deals
    }

    /// Matches in the pool, the reference's included.
    pub fn matches(&self) -> usize {
        self.deals * (self.tables.len() * self.seatings.len() + 1)
    }

    fn places(&self, deal: usize, table: usize, seating: usize) -> &[u8] {
        let start =
            ((deal * self.tables.len() + table) * self.seatings.len() + seating) * self.seats;
        &self.places[start..start + self.seats]
    }

    /// The control of a pair seated at `s` and `t` on `deal`: the reference's score of seat
    /// `s` against seat `t` there, less its mean over the pool.
    fn control(&self, deal: usize, s: usize, t: usize) -> f64 {
        let r = &self.reference[deal * self.seats..(deal + 1) * self.seats];
        match_score(r[s], r[t]) - self.reference_mean[s * self.seats + t]
    }

    /// Every bot's mean head-to-head score against every other over the whole pool
    /// (`[a][b]`, ½ on the diagonal).
    pub fn head_to_head(&self) -> Vec<Vec<f64>> {
        let mut table = PairTable::new(self.bots);
        for deal in 0..self.deals {
            for (t, bots) in self.tables.iter().enumerate() {
                for (j, seating) in self.seatings.iter().enumerate() {
                    let places = self.places(deal, t, j);
                    for s in 0..self.seats {
                        for u in s + 1..self.seats {
                            let (a, b) = (bots[seating[s]], bots[seating[u]]);
                            table.add(a, b, match_score(places[s], places[u]), 0.0);
                        }
                    }
                }
            }
        }
        (0..self.bots)
            .map(|a| {
                (0..self.bots)
                    .map(|b| if a == b { 0.5 } else { table.tally(a, b).mean(0.0) })
                    .collect()
            })
            .collect()
    }

    /// The true order, best first (see the [module docs](self)).
    pub fn truth(&self) -> Result<Vec<usize>, PowerError> {
        let h2h = self.head_to_head();
        let mean = |a: usize| h2h[a].iter().sum::<f64>() / self.bots as f64;
        let mut order: Vec<usize> = (0..self.bots).collect();
        order.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)).then(a.cmp(&b)));
        // Every bot above every bot below it (the order test's truth), the next first.
        for gap in 1..order.len() {
            for w in order.windows(gap + 1) {
                let score = h2h[w[0]][w[gap]];
                if score <= 0.5 {
                    return Err(PowerError::NoOrder { better: w[0], worse: w[gap], score });
                }
            }
        }
        Ok(order)
    }
}

/// How a duplicate set's matches make one sample for a pair.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SetScore {
    /// The arena's paired result until now: 1, ½ or 0 by the two bots' mean places over the
    /// set ([`PairedResult::score`]).
    WinDrawLoss,
    /// The mean over the set's matches of each match's 1, ½ or 0 (the pentanomial model, for
    /// any table size).
    Pentanomial,
    /// The two bots' mean places over the set, as a score: `½ + (place_b - place_a) / (2 (N -
    /// 1))` at tables of `N`, which counts, besides the two bots' own comparison, how each
    /// did against the others at the table (the same as [`SetScore::Pentanomial`] at two
    /// seats).
    Places,
}

/// The head-to-head judge's test of one pair.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Test {
    /// The betting test ([`crate::pairwise::confident_better`]): adapts to the variance of
    /// the method's own samples, valid for any scores in `0..=1`.
    Betting,
    /// The normal-mixture confidence sequence the arena used before
    /// ([`crate::pairwise::normal_mixture_better`]): its mixing constant is fixed in absolute
    /// units of summed variance, which penalises low-variance samples (duplicate sets).
    NormalMixture,
    /// The order test ([`crate::orders`]): a confidence set over the orders of the field,
    /// each order tested at `alpha` itself, so no union bound over the pairs; its gamblers
    /// stake by [`Betting::KellyFractions`].
    Orders,
    /// The order test staking by [`Betting::FixedGrid`], as until this session.
    OrdersGrid,
}

/// One way of running a ladder, a row of the power table.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Method {
    /// Its name in the table.
    pub name: &'static str,
    /// Duplicate sets (every rotation of one deal) or one match per deal.
    pub duplicate: bool,
    /// How a set becomes a sample (duplicate sets only).
    pub score: SetScore,
    /// Scores less the reference's on the same deal and seats (a control variate).
    pub luck_adjusted: bool,
    /// Play where the order is least certain (else every table in turn).
    pub adaptive: bool,
    /// Judge by a rating system's means and deviations instead of the head-to-head test.
    pub ratings: Option<RatingSystem>,
    /// The head-to-head judge's test (unused by the rating judges).
    pub test: Test,
}

impl Method {
    /// The baseline: independent deals, every table in turn, the order by mean score (plain
    /// Elo), the head-to-head test on single matches.
    pub const BASELINE: Method = Method {
        name: "independent deals, Elo",
        duplicate: false,
        score: SetScore::WinDrawLoss,
        luck_adjusted: false,
        adaptive: false,
        ratings: None,
        test: Test::Betting,
    };

    /// The best method of the measurement ([`crate::settle`] runs it for a ladder): duplicate
    /// sets, the pentanomial sample, adaptive scheduling, the order test.
    pub const BEST: Method = Method {
        name: "pentanomial, adaptive, order test",
        duplicate: true,
        score: SetScore::Pentanomial,
        adaptive: true,
        test: Test::Orders,
        ..Method::BASELINE
    };

    /// The best method until the order test: [`Method::BEST`] with the pairwise betting test
    /// and its union bound.
    pub const PAIRWISE_ADAPTIVE: Method =
        Method { name: "pentanomial, adaptive", test: Test::Betting, ..Method::BEST };

    /// Every method of the table, the baseline first.
    pub const ALL: [Method; 18] = [
        Method::BASELINE,
        Method { name: "independent, order test", test: Test::Orders, ..Method::BASELINE },
        Method {
            name: "independent, normal-mixture test",
            test: Test::NormalMixture,
            ..Method::BASELINE
        },
        Method { name: "independent, luck-adjusted", luck_adjusted: true, ..Method::BASELINE },
        Method { name: "duplicate sets (win/draw/loss)", duplicate: true, ..Method::BASELINE },
        Method {
            name: "duplicate, pentanomial",
            duplicate: true,
            score: SetScore::Pentanomial,
            ..Method::BASELINE
        },
        Method {
            name: "pentanomial, luck-adjusted",
            duplicate: true,
            score: SetScore::Pentanomial,
            luck_adjusted: true,
            ..Method::BASELINE
        },
        Method {
            name: "pentanomial, normal-mixture test",
            duplicate: true,
            score: SetScore::Pentanomial,
            test: Test::NormalMixture,
            ..Method::BASELINE
        },
        Method {
            name: "pentanomial, order test",
            duplicate: true,
            score: SetScore::Pentanomial,
            test: Test::Orders,
            ..Method::BASELINE
        },
        Method::PAIRWISE_ADAPTIVE,
        Method::BEST,
        Method {
            name: "pent., adaptive, order test (grid)",
            test: Test::OrdersGrid,
            ..Method::BEST
        },
        Method { name: "places, adaptive", score: SetScore::Places, ..Method::PAIRWISE_ADAPTIVE },
        Method { name: "places, adaptive, order test", score: SetScore::Places, ..Method::BEST },
        Method {
            name: "pentanomial, adaptive, normal-mix.",
            test: Test::NormalMixture,
            ..Method::BEST
        },
        Method {
            name: "pentanomial, luck-adj., adaptive",
            duplicate: true,
            score: SetScore::Pentanomial,
            luck_adjusted: true,
            adaptive: true,
            ..Method::BASELINE
        },
        Method {
            name: "duplicate, Weng-Lin, adaptive",
            duplicate: true,
            adaptive: true,
            ratings: Some(RatingSystem::WengLin),
            ..Method::BASELINE
        },
        Method {
            name: "duplicate, TrueSkill, adaptive",
            duplicate: true,
            adaptive: true,
            ratings: Some(RatingSystem::TrueSkill),
            ..Method::BASELINE
        },
    ];
}

/// One simulated ladder's end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Trial {
    /// Matches played.
    pub matches: u64,
    /// Whether the method's test said the order was settled (else it hit the cap).
    pub settled: bool,
    /// Whether its order then was the true one.
    pub right: bool,
}

/// A counter-based uniform draw: `below(n)` in `0..n`.
struct Draws {
    seed: u64,
    counter: u64,
}

impl Draws {
    fn below(&mut self, n: usize) -> usize {
        self.counter += 1;
        let x = derive_seed(self.seed, self.counter);
        ((u128::from(x) * n as u128) >> 64) as usize
    }
}

/// The evidence a simulated ladder has gathered so far, and its judge.
struct Evidence {
    pairs: PairTable,
    ratings: Option<Ratings>,
    tie_break: Vec<u64>,
    test: Test,
    /// The order test's evidence, for [`Test::Orders`].
    orders: Option<OrderTest>,
}

impl Evidence {
    fn order(&self, beta: f64) -> Vec<usize> {
        match &self.ratings {
            Some(r) => {
                let all = r.all();
                let mut order: Vec<usize> = (0..all.len()).collect();
                order.sort_by(|&a, &b| {
                    all[b]
                        .mean
                        .total_cmp(&all[a].mean)
                        .then(self.tie_break[a].cmp(&self.tie_break[b]))
                });
                order
            }
            None => self.pairs.order(beta, &self.tie_break),
        }
    }

    /// How sure the judge is that `a` is better than `b`, as a z-like margin (larger is
    /// surer), and whether that pair is settled at `each`.
    fn certainty(&self, a: usize, b: usize, beta: f64, each: f64) -> (f64, bool) {
        match &self.ratings {
            Some(r) => {
                let (x, y) = (r.all()[a], r.all()[b]);
                let z = (x.mean - y.mean) / (x.sigma * x.sigma + y.sigma * y.sigma).sqrt();
                (z, 1.0 - normal_cdf(z) <= each)
            }
            None => {
                let t = self.pairs.tally(a, b);
                let settled = match self.test {
                    // The order test judges the whole order at once (in `trial`).
                    Test::Betting | Test::Orders | Test::OrdersGrid => {
                        crate::pairwise::confident_better(&t, beta, each)
                    }
                    Test::NormalMixture => crate::pairwise::normal_mixture_better(&t, beta, each),
                };
                let z = if t.n < 2 {
                    f64::NEG_INFINITY
                } else {
                    (t.mean(beta) - 0.5) / t.standard_error(beta)
                };
                (z, settled)
            }
        }
    }
}

/// Runs one simulated ladder of `method` on `pool` (see the [module docs](self)): the order
/// is settled when every bot is better than the next at `alpha` for the whole order.
/// `truth` is [`OutcomePool::truth`].
pub fn trial(
    pool: &OutcomePool,
    truth: &[usize],
    method: &Method,
    seed: u64,
    alpha: f64,
    max_matches: u64,
) -> Trial {
    let k = pool.bots;
    let mut draws = Draws { seed, counter: 0 };
    let tie_break = (0..k as u64).map(|i| derive_seed(seed ^ 0x7137, i)).collect();
    let mut evidence = Evidence {
        pairs: PairTable::new(k),
        ratings: method.ratings.map(|system| Ratings::new(system, k)),
        tie_break,
        test: method.test,
        orders: match method.test {
            Test::Orders => OrderTest::new(k),
            Test::OrdersGrid => OrderTest::with_betting(k, Betting::FixedGrid),
            Test::Betting | Test::NormalMixture => None,
        },
    };
    let each = evidence.pairs.pair_alpha(alpha);
    let mut matches = 0u64;
    let mut next_table = draws.below(pool.tables.len());
    let mut settled = false;
    while matches < max_matches {
        let beta = if method.luck_adjusted { evidence.pairs.beta() } else { 0.0 };
        let order = evidence.order(beta);
        let mut judged: Vec<(f64, bool)> =
            order.windows(2).map(|w| evidence.certainty(w[0], w[1], beta, each)).collect();
        if let Some(orders) = &evidence.orders {
            for (pair, open) in judged.iter_mut().zip(orders.open_pairs(&order, alpha)) {
                pair.1 = !open;
            }
        }
        if judged.iter().all(|&(_, ok)| ok) {
            settled = true;
            break;
        }
        let table = if method.adaptive {
            choose_table(pool, &evidence, &order, &judged, &mut draws)
        } else {
            next_table = (next_table + 1) % pool.tables.len();
            next_table
        };
        matches += play_set(pool, method, table, &mut evidence, &mut draws);
    }
    let beta = if method.luck_adjusted { evidence.pairs.beta() } else { 0.0 };
    let right = truth == evidence.order(beta);
    Trial { matches, settled, right }
}

/// The adaptive schedule's next table: for the rating judges, [`least_certain`] on the
/// ratings; for the head-to-head judge, a table holding the least certain unsettled adjacent
/// pair and, of those, the one holding the most unsettled adjacent pairs
/// ([`crate::settle`]'s rule, which a ladder follows).
fn choose_table(
    pool: &OutcomePool,
    evidence: &Evidence,
    order: &[usize],
    judged: &[(f64, bool)],
    draws: &mut Draws,
) -> usize {
    if let Some(r) = &evidence.ratings {
        let beliefs: Vec<Belief> =
            r.all().iter().map(|x| Belief { mean: x.mean, sigma: x.sigma }).collect();
        if let Some(bots) = least_certain(&beliefs, pool.seats)
            && let Some(t) = pool.tables.iter().position(|t| *t == bots)
        {
            return t;
        }
        return draws.below(pool.tables.len());
    }
    let unsettled: Vec<(usize, usize, f64)> = order
        .windows(2)
        .zip(judged)
        .filter(|(_, (_, ok))| !ok)
        .map(|(w, &(z, _))| (w[0], w[1], z))
        .collect();
    table_for(&evidence.pairs, &unsettled, pool.seats)
        .and_then(|bots| pool.tables.iter().position(|t| *t == bots))
        .unwrap_or_else(|| draws.below(pool.tables.len()))
}

/// Plays one set of `table` (a duplicate set, or one match of its own deal) into `evidence`;
/// returns the matches played.
fn play_set(
    pool: &OutcomePool,
    method: &Method,
    table: usize,
    evidence: &mut Evidence,
    draws: &mut Draws,
) -> u64 {
    let bots = &pool.tables[table];
    let seatings: Vec<(usize, usize)> = if method.duplicate {
        let deal = draws.below(pool.deals);
        (0..pool.seatings.len()).map(|j| (deal, j)).collect()
    } else {
        vec![(draws.below(pool.deals), draws.below(pool.seatings.len()))]
    };
    // Per seat pair of the table's list: summed scores and controls over the set.
    let n = bots.len();
    let mut score = vec![0.0; n * n];
    let mut control = vec![0.0; n * n];
    let mut mean_place = vec![0.0; n];
    let mut matches: Vec<Vec<(usize, u8)>> = Vec::with_capacity(seatings.len());
    for &(deal, j) in &seatings {
        let seating = &pool.seatings[j];
        let places = pool.places(deal, table, j);
        // seat s holds the table's bot seating[s].
        let mut seat_of = vec![0; n];
        for (s, &pos) in seating.iter().enumerate() {
            seat_of[pos] = s;
            mean_place[pos] += f64::from(places[s]) / seatings.len() as f64;
        }
        for p in 0..n {
            for q in p + 1..n {
                let (s, t) = (seat_of[p], seat_of[q]);
                score[p * n + q] += match_score(places[s], places[t]);
                control[p * n + q] += pool.control(deal, s, t);
            }
        }
        matches.push(seating.iter().enumerate().map(|(s, &pos)| (bots[pos], places[s])).collect());
    }
    let sets = seatings.len() as f64;
    if let Some(ratings) = &mut evidence.ratings {
        let paired = PairedResult::from_matches(matches.iter().map(|m| &m[..]));
        // The table's bots are the field's, by construction: no update can fail.
        let _ = ratings.update(&paired);
    }
    let mut samples = Vec::with_capacity(n * (n - 1) / 2);
    for p in 0..n {
        for q in p + 1..n {
            let x = match method.score {
                SetScore::Pentanomial => score[p * n + q] / sets,
                SetScore::WinDrawLoss => match_score_of_means(mean_place[p], mean_place[q]),
                SetScore::Places => {
                    0.5 + (mean_place[q] - mean_place[p]) / (2.0 * (n as f64 - 1.0))
                }
            };
            let c = if method.luck_adjusted { control[p * n + q] / sets } else { 0.0 };
            samples.push((bots[p], bots[q], x, c));
        }
    }
    if let Some(orders) = &mut evidence.orders {
        let raw: Vec<(usize, usize, f64)> = samples.iter().map(|&(a, b, x, _)| (a, b, x)).collect();
        orders.add_set(&evidence.pairs, &raw);
    }
    for (a, b, x, c) in samples {
        evidence.pairs.add(a, b, x, c);
    }
    seatings.len() as u64
}

/// 1, ½ or 0 by two mean places (lower is better).
fn match_score_of_means(a: f64, b: f64) -> f64 {
    if (a - b).abs() < 1e-9 {
        0.5
    } else if a < b {
        1.0
    } else {
        0.0
    }
}

/// One method's trials, summarised.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MethodReport {
    /// The method.
    pub method: Method,
    /// Each trial.
    pub trials: Vec<Trial>,
}

impl MethodReport {
    /// The `q`-quantile of the matches played (linear between order statistics).
    pub fn quantile(&self, q: f64) -> f64 {
        let mut m: Vec<f64> = self.trials.iter().map(|t| t.matches as f64).collect();
        m.sort_by(f64::total_cmp);
        if m.is_empty() {
            return 0.0;
        }
        let pos = q.clamp(0.0, 1.0) * (m.len() - 1) as f64;
        let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
        m[lo] + (m[hi] - m[lo]) * (pos - lo as f64)
    }

    /// The median of the matches played.
    pub fn median(&self) -> f64 {
        self.quantile(0.5)
    }

    /// The share of trials that settled on the true order.
    pub fn right(&self) -> f64 {
        let n = self.trials.len().max(1) as f64;
        self.trials.iter().filter(|t| t.right && t.settled).count() as f64 / n
    }

    /// The share of trials that settled before the cap.
    pub fn settled(&self) -> f64 {
        let n = self.trials.len().max(1) as f64;
        self.trials.iter().filter(|t| t.settled).count() as f64 / n
    }
}

/// The least share of trials a method must get right to count as the best: below it, a
/// method is quick because it claims confidence it has not earned.
pub const MIN_RIGHT: f64 = 0.9;

/// Runs `trials` simulated ladders of every method of `methods` on `pool`, on `parallel`
/// threads; trial `i` of every method uses the seed `derive_seed(seed, i)`.
pub fn measure(
    pool: &OutcomePool,
    methods: &[Method],
    trials: usize,
    seed: u64,
    alpha: f64,
    max_matches: u64,
    parallel: usize,
) -> Result<Vec<MethodReport>, PowerError> {
    let truth = pool.truth()?;
    let jobs: Vec<(usize, usize)> =
        (0..methods.len()).flat_map(|m| (0..trials).map(move |i| (m, i))).collect();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Trial>>> = Mutex::new(vec![None; jobs.len()]);
    std::thread::scope(|scope| {
        for _ in 0..parallel.max(1) {
            scope.spawn(|| {
                loop {
                    let j = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(m, i)) = jobs.get(j) else { break };
                    let seed = derive_seed(seed, i as u64);
                    let t = trial(pool, &truth, &methods[m], seed, alpha, max_matches);
                    if let Ok(mut r) = results.lock() {
                        r[j] = Some(t);
                    }
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_default();
    Ok(methods
        .iter()
        .enumerate()
        .map(|(m, &method)| MethodReport {
            method,
            trials: (0..trials).filter_map(|i| results[m * trials + i]).collect(),
        })
        .collect())
}

/// The best method (the fewest median matches among those right in at least [`MIN_RIGHT`] of
/// their trials) and the baseline's median over its median; `None` if no method qualifies.
pub fn best(reports: &[MethodReport]) -> Option<(&MethodReport, f64)> {
    let baseline = reports.iter().find(|r| r.method == Method::BASELINE)?;
    let best = reports
        .iter()
        .filter(|r| r.right() >= MIN_RIGHT)
        .min_by(|a, b| a.median().total_cmp(&b.median()))?;
    Some((best, baseline.median() / best.median().max(1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic pool: bot `b` at seat `s` draws `strength(b) + noise`, the deal's luck for
    /// its seat shared by every bot in that seat (and by the reference); places by the draws.
    fn synthetic(bots: usize, seats: usize, deals: usize, gap: f64) -> OutcomePool {
        let uniform = |i: u64, j: u64| (derive_seed(i, j) >> 11) as f64 / (1u64 << 53) as f64;
        let play = |deal: u64, players: &[Player]| -> Result<Vec<u8>, String> {
            let values: Vec<f64> = players
                .iter()
                .enumerate()
                .map(|(s, p)| {
                    let (skill, key) = match *p {
                        Player::Bot(b) => (gap * (bots - b) as f64, b as u64 + 1),
                        Player::Reference => (gap, 0),
                    };
                    let luck = 2.0 * uniform(deal, s as u64);
                    skill + luck + 0.3 * uniform(deal ^ key.wrapping_mul(0x9E37), s as u64)
                })
                .collect();
            Ok(values
                .iter()
                .map(|v| 1 + values.iter().filter(|&&w| w > *v).count() as u8)
                .collect())
        };
        OutcomePool::build(bots, seats, deals, 5, 2, &play).unwrap()
    }

    #[test]
    fn the_pool_knows_its_order() {
        let pool = synthetic(4, 2, 300, 0.3);
        assert_eq!(pool.truth().unwrap(), vec![0, 1, 2, 3]);
        assert_eq!(pool.matches(), 300 * (6 * 2 + 1));
        let h2h = pool.head_to_head();
        assert!((h2h[0][1] + h2h[1][0] - 1.0).abs() < 1e-12);
        // Every match a tie: no order to find.
        let flat = OutcomePool::from_places(3, 2, vec![1; 10 * 3 * 2 * 2], vec![1; 10 * 2]);
        assert!(matches!(flat.truth(), Err(PowerError::NoOrder { .. })));
    }

    #[test]
    fn every_method_finds_the_order_and_duplicates_beat_independent_deals() {
        let pool = synthetic(4, 2, 150, 0.3);
        let reports = measure(&pool, &Method::ALL, 8, 1, 0.05, 20_000, 2).unwrap();
        // The head-to-head judges settle; the rating judges may not (TrueSkill's dynamics
        // keep its deviations from shrinking below what a 95% claim about close bots needs).
        for r in reports.iter().filter(|r| r.method.ratings.is_none()) {
            assert!(r.settled() >= 0.9, "{}: settled {}", r.method.name, r.settled());
        }
        let find = |name: &str| reports.iter().find(|r| r.method.name == name).unwrap();
        let baseline = find(Method::BASELINE.name);
        assert!(baseline.right() >= 0.9);
        let pentanomial = find("duplicate, pentanomial");
        assert!(pentanomial.median() < baseline.median(), "{pentanomial:?}");
        let (best, ratio) = best(&reports).unwrap();
        assert!(ratio > 1.0 && best.right() >= MIN_RIGHT);
    }

    #[test]
    fn luck_adjustment_helps_independent_deals_with_seat_luck() {
        // Four seats: a seat's luck is shared with the reference at that seat.
        let pool = synthetic(5, 4, 100, 0.3);
        let methods = [Method::ALL[0], Method::ALL[3]];
        let reports = measure(&pool, &methods, 8, 3, 0.05, 50_000, 2).unwrap();
        assert!(reports[1].median() < reports[0].median(), "{reports:?}");
        assert!(reports[1].right() >= 0.8);
    }
}
