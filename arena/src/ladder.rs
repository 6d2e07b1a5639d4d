//! Running a ladder in process: plan rounds by the format, store them, play the pending
//! matches on worker threads with the SDK's [`play_local_report`], and rate each duplicate set
//! when its last match is in. Every step goes through the [`Store`], so a killed run started
//! again carries on where it stopped.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::Instant;

use cardroom_sdk::{Bot, LocalError, MAX_LOCAL_DECISIONS, PlayableGame, play_local_report};
use serde::{Deserialize, Serialize};
use tracing::{debug, info};

use crate::leaderboard::ALPHA;
use crate::store::{PendingMatch, PlannedMatch, Store, StoreError};
use cardroom_rank::duplicate::{derive_seed, rotations};
use cardroom_rank::pairwise::set_score;
use cardroom_rank::rating::{PairedResult, Rating, RatingError, RatingSystem, Ratings};
use cardroom_rank::schedule::{Belief, SwissState, gauntlet, least_certain, round_robin};
use cardroom_rank::settle::SetEvidence;
use cardroom_rank::sprt::{Sprt, SprtConfig, SprtDecision};
use cardroom_rank::stats::{MatchOutcome, SeatHealth, ThinkTimes};

/// A ladder's format.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Format {
    /// Every table of the field, `rounds` times.
    RoundRobin {
        /// How many times.
        #[serde(default = "one")]
        rounds: u32,
    },
    /// The challenger against every table of the others, `rounds` times.
    Gauntlet {
        /// The challenger's name.
        challenger: String,
        /// How many times.
        #[serde(default = "one")]
        rounds: u32,
    },
    /// Swiss pairing by points (two-player games).
    Swiss {
        /// Rounds.
        rounds: u32,
    },
    /// Plays the table holding the least certain pair of the head-to-head order until the
    /// order is settled at 95% for the whole table ([`cardroom_rank::settle`]: duplicate sets, the
    /// pentanomial sample, the betting test), or `max_sets`. The ladder file's default.
    Adaptive {
        /// Give up unsettled after this many sets.
        #[serde(default = "many")]
        max_sets: u32,
    },
    /// Keeps playing the table whose order is least certain by the ratings.
    Continuous {
        /// Duplicate sets in all.
        sets: u32,
    },
    /// Bot `a` against bot `b` until the SPRT decides (or `max_sets`).
    Sprt {
        /// The first bot's name (the one tested for being stronger).
        a: String,
        /// The second bot's name.
        b: String,
        /// The test.
        #[serde(default)]
        sprt: SprtConfig,
        /// Give up undecided after this many sets.
        #[serde(default = "many")]
        max_sets: u32,
    },
}

fn one() -> u32 {
    1
}

fn many() -> u32 {
    10_000
}

/// How a ladder is played, apart from its bots.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Seats per match.
    pub table: u8,
    /// Seeds every deal.
    pub seed: u64,
    /// Duplicate deals: every seating of a set plays the same deal. Off: each its own deal.
    pub duplicate: bool,
    /// At most this many seatings per set (`None`: every rotation).
    pub max_rotations: Option<usize>,
    /// The format.
    pub format: Format,
    /// The rating system.
    pub rating: RatingSystem,
}

impl Settings {
    /// Checks that the settings fit the bots `names`: tables they can fill, a rating system and
    /// a format for that table size, distinct names, and the format's bots among them.
    pub fn check(&self, names: &[String]) -> Result<(), ArenaError> {
        let table = usize::from(self.table);
        if table < 2 || names.len() < table {
            return Err(ArenaError::Config(format!(
                "{} bots cannot fill tables of {table}",
                names.len()
            )));
        }
        if self.rating == RatingSystem::Glicko2 && table != 2 {
            return Err(ArenaError::Config("Glicko-2 needs tables of two".into()));
        }
        if matches!(self.format, Format::Swiss { .. }) && table != 2 {
            return Err(ArenaError::Config("Swiss needs tables of two".into()));
        }
        if names.iter().enumerate().any(|(i, n)| names[..i].contains(n)) {
            return Err(ArenaError::Config("bot names must differ".into()));
        }
        let named: Vec<&String> = match &self.format {
            Format::Gauntlet { challenger, .. } => vec![challenger],
            Format::Sprt { a, b, .. } => vec![a, b],
            _ => Vec::new(),
        };
        if let Some(missing) = named.into_iter().find(|n| !names.contains(n)) {
            return Err(ArenaError::Config(format!(
                "the format names \"{missing}\", no bot of the ladder"
            )));
        }
        Ok(())
    }

    /// For the SPRT format, the test rebuilt from the rated sets in `store` of the ladder of
    /// the bots `names`; `None` for the other formats.
    pub fn sprt(&self, names: &[String], store: &Store) -> Result<Option<Sprt>, ArenaError> {
        let Format::Sprt { a, b, sprt, .. } = &self.format else { return Ok(None) };
        let (a, b) = (bot_index(names, a)?, bot_index(names, b)?);
        let mut test = Sprt::new(*sprt);
        // One sample per rated set: A's pentanomial score against B over the set's matches
        // (`pairwise::set_score`), at any table size: the N-player SPRT.
        for set in store.rated_set_outcomes()? {
            if let Some(score) = set_score(set.iter().map(|o| &o.places[..]), a, b) {
                test.add(score);
            }
        }
        Ok(Some(test))
    }

    /// The matches the format plays at most with `bots` bots: all of them for round robin,
    /// gauntlet, Swiss and the continuous ladder; the SPRT's `max_sets` (it may stop sooner).
    pub fn total_matches(&self, bots: usize) -> u64 {
        let table = usize::from(self.table);
        let per_set = rotations(table, self.max_rotations).len() as u64;
        let sets = match &self.format {
            Format::RoundRobin { rounds } => {
                u64::from(*rounds) * round_robin(bots, table).len() as u64
            }
            Format::Gauntlet { rounds, .. } => {
                // Every table holds the challenger: which one does not change the count.
                u64::from(*rounds) * gauntlet(0, bots, table).len() as u64
            }
            // Pairs a round; an odd bot out has a bye, which plays no match.
            Format::Swiss { rounds } => u64::from(*rounds) * (bots / 2) as u64,
            Format::Continuous { sets } => u64::from(*sets),
            Format::Adaptive { max_sets } | Format::Sprt { max_sets, .. } => u64::from(*max_sets),
        };
        sets * per_set
    }

    /// Checks that a ladder begun with `stored` can go on with these settings: they must be
    /// the same but for the format's budget (`rounds`, `sets`, `max_sets`), which may grow (a
    /// resumed ladder with a larger budget just plays more). Returns whether the budget grew.
    pub fn resume(&self, stored: &Settings) -> Result<bool, ArenaError> {
        let changed = |setting: &str, stored: String, given: String, grows: bool| {
            ArenaError::SettingChanged {
                setting: setting.to_owned(),
                stored,
                given,
                how: if grows {
                    "a budget can grow (the ladder plays the extra matches) but not shrink"
                } else {
                    "only the format's budget (rounds, sets, max_sets) can change on resume; \
                     to change anything else, give the ladder another `db`"
                },
            }
        };
        let same = |setting: &str, stored: String, given: String| {
            if stored == given { Ok(()) } else { Err(changed(setting, stored, given, false)) }
        };
        same("seats", stored.table.to_string(), self.table.to_string())?;
        same("seed", stored.seed.to_string(), self.seed.to_string())?;
        same("duplicate", stored.duplicate.to_string(), self.duplicate.to_string())?;
        let rotations = |r: Option<usize>| r.map_or_else(|| "unset".to_owned(), |r| r.to_string());
        same("max_rotations", rotations(stored.max_rotations), rotations(self.max_rotations))?;
        same("rating", stored.rating.name().to_owned(), self.rating.name().to_owned())?;
        let budget = |format: &Format| -> (&'static str, u32, Format) {
            // The format with its budget zeroed, to compare the rest.
            let mut rest = format.clone();
            let (name, value) = match &mut rest {
                Format::RoundRobin { rounds }
                | Format::Gauntlet { rounds, .. }
                | Format::Swiss { rounds } => ("format.rounds", std::mem::take(rounds)),
                Format::Continuous { sets } => ("format.sets", std::mem::take(sets)),
                Format::Adaptive { max_sets } | Format::Sprt { max_sets, .. } => {
                    ("format.max_sets", std::mem::take(max_sets))
                }
            };
            (name, value, rest)
        };
        let (name, old, stored_rest) = budget(&stored.format);
        let (_, new, given_rest) = budget(&self.format);
        if stored_rest != given_rest {
            let show = |f: &Format| serde_json::to_string(f).unwrap_or_default();
            return Err(changed("format", show(&stored.format), show(&self.format), false));
        }
        if new < old {
            return Err(changed(name, old.to_string(), new.to_string(), true));
        }
        Ok(new > old)
    }
}

/// Makes a bot from a seed (derived from the match's seed and the seat).
pub type BotMaker<G> = Arc<dyn Fn(u64) -> Box<dyn Bot<G>> + Send + Sync>;

/// Makes a match from a deal seed.
pub type MatchMaker<G> = Arc<dyn Fn(u64) -> Result<G, String> + Send + Sync>;

/// An in-process ladder: its settings, its bots and how to deal a match.
pub struct Ladder<G> {
    /// The settings.
    pub settings: Settings,
    /// The bots, by name.
    pub bots: Vec<(String, BotMaker<G>)>,
    /// Deals a match of `settings.table` seats from a seed.
    pub new_match: MatchMaker<G>,
    /// Worker threads.
    pub parallel: usize,
}

/// Why a ladder could not run.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A result could not be rated.
    #[error(transparent)]
    Rating(#[from] RatingError),
    /// The settings do not fit the bots.
    #[error("bad ladder: {0}")]
    Config(String),
    /// A resumed ladder's file changes a setting it was begun with.
    #[error("the ladder was begun with {setting} = {stored}, the file now says {given}: {how}")]
    SettingChanged {
        /// The setting, as the ladder file names it (`seats`, `format.rounds`, …).
        setting: String,
        /// Its value when the ladder was begun.
        stored: String,
        /// Its value now.
        given: String,
        /// What may change, and how to go on.
        how: &'static str,
    },
    /// A match could not be dealt or played.
    #[error("match with seed {seed}: {message}")]
    Match {
        /// Its seed.
        seed: u64,
        /// What went wrong.
        message: String,
    },
}

/// What the observer of [`run`] sees after each match.
#[derive(Clone, Debug)]
pub struct Progress<'a> {
    /// Matches finished.
    pub done: u64,
    /// Matches planned so far (more may come with later rounds).
    pub planned: u64,
    /// The matches the format plays at most ([`Settings::total_matches`]): a progress bar's
    /// length. The SPRT may stop before it.
    pub total: u64,
    /// Current ratings, by bot index.
    pub ratings: &'a [Rating],
    /// The SPRT's state, for the SPRT format.
    pub sprt: Option<(SprtDecision, f64)>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Matches played by this run (not counting those found finished).
    pub played: u64,
    /// Ratings at the end.
    pub ratings: Vec<Rating>,
    /// The SPRT at the end (its decision, LLR and bounds), for the SPRT format.
    pub sprt: Option<Sprt>,
}

/// Plays one planned match: in process ([`Ladder`]) or over the network (`crate::net`).
pub trait MatchPlayer: Sync {
    /// Plays `planned` to its end; returns its outcome and its record (JSON), if any.
    fn play_match(
        &self,
        planned: &PlannedMatch,
    ) -> Result<(MatchOutcome, Option<String>), ArenaError>;
}

impl<G: PlayableGame> MatchPlayer for Ladder<G> {
    fn play_match(
        &self,
        planned: &PlannedMatch,
    ) -> Result<(MatchOutcome, Option<String>), ArenaError> {
        self.play(planned)
    }
}

/// The ladder index of the bot `name` among `names`.
fn bot_index(names: &[String], name: &str) -> Result<usize, ArenaError> {
    names
        .iter()
        .position(|n| n == name)
        .ok_or_else(|| ArenaError::Config(format!("no bot named {name:?}")))
}

/// What plans a ladder's rounds: its settings and its bots' names.
struct Planner<'a> {
    settings: &'a Settings,
    names: &'a [String],
    /// The adaptive format's evidence of the sets rated so far, grown by each round's.
    evidence: Option<SetEvidence>,
}

impl Planner<'_> {
    fn names(&self) -> Vec<String> {
        self.names.to_vec()
    }

    fn index(&self, name: &str) -> Result<usize, ArenaError> {
        bot_index(self.names, name)
    }

    /// The SPRT rebuilt from the rated sets.
    fn sprt(&self, store: &Store) -> Result<Option<Sprt>, ArenaError> {
        self.settings.sprt(self.names, store)
    }

    /// The tables of round `round`, or `None` when the format is over. Byes are stored here.
    fn plan(
        &mut self,
        round: u32,
        store: &mut Store,
    ) -> Result<Option<Vec<Vec<usize>>>, ArenaError> {
        let n = self.names.len();
        let table = usize::from(self.settings.table);
        Ok(match &self.settings.format {
            Format::RoundRobin { rounds } => (round < *rounds).then(|| round_robin(n, table)),
            Format::Gauntlet { challenger, rounds } => {
                let c = self.index(challenger)?;
                (round < *rounds).then(|| gauntlet(c, n, table))
            }
            Format::Swiss { rounds } => {
                if round >= *rounds {
                    return Ok(None);
                }
                let mut state = SwissState::new(n);
                for set in store.sets()? {
                    match (&set.bots[..], set.paired) {
                        (&[bot], _) => state.record_bye(bot),
                        (&[a, b], Some(paired)) => {
                            state.record(a, b, paired.score(a, b).unwrap_or(0.5))
                        }
                        _ => {}
                    }
                }
                let pairing = state.pair();
                if let Some(bot) = pairing.bye {
                    store.add_bye(round, bot)?;
                }
                Some(pairing.pairs.iter().map(|p| p.to_vec()).collect())
            }
            Format::Continuous { sets } => {
                if store.sets()?.len() >= *sets as usize {
                    return Ok(None);
                }
                let beliefs: Vec<Belief> = store
                    .ratings()?
                    .iter()
                    .map(|r| Belief { mean: r.mean, sigma: r.sigma })
                    .collect();
                least_certain(&beliefs, table).map(|t| vec![t])
            }
            Format::Adaptive { max_sets } => {
                if store.sets()?.len() >= *max_sets as usize {
                    return Ok(None);
                }
                // Every stored set is rated by now, in plan order: a round is planned once the
                // last is in. The evidence adds the sets rated since the last round only.
                let evidence = self.evidence.get_or_insert_with(|| SetEvidence::new(n));
                for set in store.rated_set_outcomes_after(evidence.sets())? {
                    evidence.add_set(&set);
                }
                evidence.settlement(table, ALPHA).next_table.map(|t| vec![t])
            }
            Format::Sprt { a, b, max_sets, .. } => {
                let test = self.sprt(store)?;
                if test.is_some_and(|t| t.decision() != SprtDecision::Continue)
                    || store.sets()?.len() >= *max_sets as usize
                {
                    return Ok(None);
                }
                let (a, b) = (self.index(a)?, self.index(b)?);
                let mut t = vec![a, b];
                t.extend((0..n).filter(|&i| i != a && i != b).take(table - 2));
                Some(vec![t])
            }
        })
    }

    /// Stores the sets of `tables` for round `round`.
    fn store_round(
        &self,
        round: u32,
        tables: &[Vec<usize>],
        store: &mut Store,
    ) -> Result<(), ArenaError> {
        let table = usize::from(self.settings.table);
        let seatings = rotations(table, self.settings.max_rotations);
        let first = store.sets()?.len() as u64;
        for (counter, bots) in (first..).zip(tables) {
            let deal = derive_seed(self.settings.seed, counter);
            let matches: Vec<PlannedMatch> = seatings
                .iter()
                .enumerate()
                .map(|(j, seating)| PlannedMatch {
                    seed: if self.settings.duplicate {
                        deal
                    } else {
                        derive_seed(deal, j as u64 + 1)
                    },
                    seats: seating.iter().map(|&pos| bots[pos]).collect(),
                })
                .collect();
            store.add_set(round, bots, &matches)?;
        }
        Ok(())
    }
}

impl<G: PlayableGame> Ladder<G> {
    /// Plays one match in this thread.
    pub fn play(
        &self,
        planned: &PlannedMatch,
    ) -> Result<(MatchOutcome, Option<String>), ArenaError> {
        let err = |message: String| ArenaError::Match { seed: planned.seed, message };
        let state = (self.new_match)(planned.seed).map_err(err)?;
        let thinks: Vec<Arc<Mutex<ThinkTimes>>> =
            planned.seats.iter().map(|_| Arc::default()).collect();
        let mut bots: Vec<Box<dyn Bot<G>>> = Vec::with_capacity(planned.seats.len());
        for (seat, &bot) in planned.seats.iter().enumerate() {
            let (_, make) = self.bots.get(bot).ok_or_else(|| err(format!("no bot {bot}")))?;
            let inner = make(derive_seed(planned.seed, 1000 + seat as u64));
            bots.push(Box::new(Timed { inner, think: Arc::clone(&thinks[seat]) }));
        }
        let report = play_local_report(state, &mut bots, MAX_LOCAL_DECISIONS)
            .map_err(|e: LocalError| err(e.to_string()))?;
        let mut places: Vec<(usize, u8)> = planned.seats.iter().map(|&b| (b, 0)).collect();
        for standing in &report.standings {
            if let Some(p) = places.get_mut(standing.seat.index()) {
                p.1 = standing.place;
            }
        }
        let health = thinks
            .iter()
            .zip(&report.illegal)
            .map(|(think, &illegal)| SeatHealth {
                illegal,
                timeouts: 0,
                crashed: false,
                think: think.lock().unwrap_or_else(PoisonError::into_inner).clone(),
            })
            .collect();
        // Tagged with its game (`"game": "gin"`), as `cardroom replay` and the pages read it.
        let record = report
            .state
            .record()
            .map(|r| serde_json::to_string(&G::into_any_record(r)))
            .transpose();
        let record = record.map_err(|e| err(e.to_string()))?;
        Ok((MatchOutcome { places, health, decisions: report.decisions }, record))
    }
}

/// A bot whose think times are measured.
pub(crate) struct Timed<G: PlayableGame> {
    /// The bot.
    pub(crate) inner: Box<dyn Bot<G>>,
    /// Where its think times go.
    pub(crate) think: Arc<Mutex<ThinkTimes>>,
}

impl<G: PlayableGame> Bot<G> for Timed<G> {
    fn choose(&mut self, observation: &G::Observation) -> G::Action {
        let start = Instant::now();
        let action = self.inner.choose(observation);
        let micros = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.think.lock().unwrap_or_else(PoisonError::into_inner).add(micros);
        action
    }

    fn match_start(&mut self, start: &cardroom_sdk::MatchStart) {
        self.inner.match_start(start);
    }

    fn match_end(&mut self, end: &cardroom_sdk::MatchEnd) {
        self.inner.match_end(end);
    }
}

/// Rates every finished, unrated set.
fn rate_finished(store: &mut Store, ratings: &mut Ratings) -> Result<(), ArenaError> {
    for (set_id, outcomes) in store.unrated_sets()? {
        let paired = PairedResult::from_matches(outcomes.iter().map(|o| &o.places[..]));
        let changes = ratings.update(&paired)?;
        store.rate_set(set_id, &paired, &changes)?;
        debug!(set_id, "set rated");
    }
    Ok(())
}

/// Runs (or resumes) the ladder stored in `store` to its end, calling `observe` after every
/// match.
pub fn run<G: PlayableGame>(
    ladder: &Ladder<G>,
    store: &mut Store,
    observe: &mut dyn FnMut(&Progress<'_>),
) -> Result<Summary, ArenaError> {
    let names: Vec<String> = ladder.bots.iter().map(|(name, _)| name.clone()).collect();
    run_with(&ladder.settings, &names, ladder.parallel, ladder, store, observe)
}

/// Runs (or resumes) a ladder of the bots `names` whose matches `player` plays, on `parallel`
/// worker threads, calling `observe` after every match.
pub fn run_with(
    settings: &Settings,
    names: &[String],
    parallel: usize,
    player: &dyn MatchPlayer,
    store: &mut Store,
    observe: &mut dyn FnMut(&Progress<'_>),
) -> Result<Summary, ArenaError> {
    let mut ladder = Planner { settings, names, evidence: None };
    settings.check(names)?;
    let config =
        serde_json::to_string(ladder.settings).map_err(|e| ArenaError::Config(e.to_string()))?;
    if let Some(stored) = store.config()? {
        let stored: Settings = serde_json::from_str(&stored).map_err(StoreError::from)?;
        if settings.resume(&stored)? {
            info!("the ladder's budget grew");
            store.set_config(&config)?;
        }
    }
    let total = settings.total_matches(names.len());
    let fresh = store.begin(&config, &ladder.names(), Rating::initial(ladder.settings.rating))?;
    info!(fresh, "ladder opened");
    let mut ratings = Ratings::from_ratings(ladder.settings.rating, store.ratings()?);
    rate_finished(store, &mut ratings)?;
    let mut played = 0u64;
    loop {
        let mut pending: VecDeque<PendingMatch> = store.pending_matches()?.into();
        if pending.is_empty() {
            let round = store.rounds()?;
            match ladder.plan(round, store)? {
                Some(tables) if !tables.is_empty() => {
                    ladder.store_round(round, &tables, store)?;
                    pending = store.pending_matches()?.into();
                }
                _ => break,
            }
        }
        for m in &pending {
            store.start_match(m.id)?;
        }
        let queue = Mutex::new(pending);
        let workers = parallel.max(1);
        let (tx, rx) = mpsc::channel();
        std::thread::scope(|scope| -> Result<(), ArenaError> {
            for _ in 0..workers {
                let tx = tx.clone();
                let queue = &queue;
                scope.spawn(move || {
                    loop {
                        let next = queue.lock().unwrap_or_else(PoisonError::into_inner).pop_front();
                        let Some(m) = next else { break };
                        let result = player.play_match(&m.planned);
                        let failed = result.is_err();
                        if tx.send((m, result)).is_err() || failed {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            for (m, result) in rx {
                let (outcome, record) = match result {
                    Ok(done) => done,
                    Err(e) => {
                        // Stop the other workers from taking more, then report.
                        queue.lock().unwrap_or_else(PoisonError::into_inner).clear();
                        return Err(e);
                    }
                };
                let set_done = store.finish_match(m.id, &outcome, record.as_deref())?;
                played += 1;
                if set_done {
                    rate_finished(store, &mut ratings)?;
                }
                let (done, planned) = store.progress()?;
                let sprt = ladder.sprt(store)?.map(|t| (t.decision(), t.llr()));
                observe(&Progress { done, planned, total, ratings: ratings.all(), sprt });
            }
            Ok(())
        })?;
    }
    let sprt = ladder.sprt(store)?;
    Ok(Summary { played, ratings: ratings.all().to_vec(), sprt })
}
