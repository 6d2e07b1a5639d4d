//! A search bot for both games: determinized Monte Carlo with common random numbers and
//! racing, guarded by its playout policy.
//!
//! For each decision, until its [`Budget`] runs out, [`SearchBot`] repeats one *iteration*:
//!
//! 1. **Sample** a full state from its seat's observation ([`Searchable::sample_with`]): the
//!    public state and its own cards as they are, every card it cannot see dealt at random.
//!    In Twenty-Two the deal is uniform ([`Game::sample`](cardroom_games::Game::sample)). In
//!    Gin Rummy the bot remembers what the opponent did this hand (the cards it took or
//!    declined, its discards) and picks the sample out of a pool of uniform ones by how likely
//!    those moves were with the opponent's sampled hand ([`GinMemory`](gin_search::GinMemory),
//!    sampling importance resampling): a player who kept what melds and threw its loose high
//!    cards away holds a far better hand than ten random cards, and a search that plays out
//!    against random hands thinks it has all the time in the world.
//! 2. **Play out** every root candidate still in the race from that sample, each with the same
//!    playout seed (common random numbers, so that differences come from the action rather
//!    than the luck), with a fast [`Policy`] for every seat (by default the example heuristics,
//!    [`TtHeuristic`](crate::tt_heuristic::TtHeuristic) and
//!    [`GinHeuristic`](crate::gin_heuristic::GinHeuristic), asked with each seat's own
//!    observation; in Gin Rummy, [`GinPlayout`](gin_search::GinPlayout), the searching seat
//!    plays the tuned heuristic and the opponent the plain one) until the end of the deal
//!    (Twenty-Two) or the hand (Gin Rummy). A knock
//!    ends the hand at once, so in Gin Rummy a knock is valued exactly in each sample: the
//!    engine lays the defender's hand off against it (GR-9) and scores it (GR-12).
//! 3. **Score** each playout for the bot's seat with [`Searchable::value`]: in Twenty-Two minus
//!    the penalty points taken, less the limit again if they eliminate it; in Gin Rummy the
//!    hand's points margin (GR-12).
//! 4. **Race**: after a few iterations, a candidate whose paired difference with the leader is
//!    [`SearchConfig::drop_below`] standard errors below zero leaves the race, so the rest of
//!    the budget goes to the candidates that might still be best.
//!
//! The bot then plays the candidate with the best average, but only if it beats the policy's
//! own choice (or the game's [`Searchable::guide`], in Gin Rummy the full heuristic, whose
//! playout version leaves out its costly lookahead) by [`SearchConfig::confidence`] standard errors of their paired difference;
//! otherwise it plays the policy's choice. (Without that guard, Gin Rummy's noisy hand margins
//! make the bot worse than its policy at small budgets.) Candidates are every legal action, or,
//! when there are more than [`SearchConfig::max_candidates`], a subset
//! ([`Searchable::candidates`]).
//!
//! The search is written once, over [`Searchable`], which each game implements in its own
//! module (`tt_search`, [`gin_search`]; [`gin_greedy`] is a Gin Rummy playout policy): what
//! the bot remembers and how it samples, what ends a playout, what a result is worth, and which
//! candidates to try. Budgets are wall-clock time per move ([`Budget::Time`], by default
//! 100 ms) or a fixed number of samples ([`Budget::Iterations`]), which with a fixed seed makes
//! the bot deterministic for tests and measurements. An iteration costs one playout per
//! candidate still in the race, and in Gin Rummy the weighing of
//! [`GinInference::pool`](gin_search::GinInference::pool) samples.

pub mod gin_greedy;
pub mod gin_search;
pub(crate) mod holdem_search;
mod objective;
mod rollout;
pub(crate) mod tt_search;

use std::time::{Duration, Instant};

use cardroom_games::Seat;
use cardroom_sdk::Bot;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use objective::Searchable;
pub use rollout::{BotPolicy, Policy, Uniform};

/// How long the bot thinks about one decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Iterations until this much wall-clock time has passed (at least one per decision). The
    /// clock is read between iterations, so a decision may overrun by one iteration (about
    /// 30 ms at worst with 48 Twenty-Two candidates).
    Time(Duration),
    /// Exactly this many iterations: deterministic for a fixed seed.
    Iterations(u32),
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::Time(Duration::from_millis(100))
    }
}

/// The search's knobs.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Thinking per decision.
    pub budget: Budget,
    /// At most this many root candidates; larger legal lists are cut down by
    /// [`Searchable::candidates`].
    pub max_candidates: usize,
    /// How many standard errors better than the playout policy's own choice (in the same
    /// playouts) another action must look before the bot plays it instead: 0 plays the best
    /// average, higher values trust the policy more.
    pub confidence: f64,
    /// Racing: once a candidate is this many standard errors worse than the leader (in the
    /// same playouts), it leaves the race and the rest of the budget goes to the others; `None`
    /// plays every candidate out in every iteration.
    pub drop_below: Option<f64>,
    /// With [`Budget::Iterations`], a decision between only two candidates (in Gin Rummy,
    /// taking the upcard or drawing blind) runs this many times the iterations: each costs two
    /// playouts instead of a dozen, and the choice shapes the whole hand. 1 treats every
    /// decision alike.
    pub two_way_factor: u32,
    /// Seeds the bot's ChaCha8 RNG (samples, playouts, tie-breaks).
    pub seed: u64,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            budget: Budget::default(),
            max_candidates: 48,
            confidence: 2.0,
            drop_below: Some(2.0),
            two_way_factor: 1,
            seed: 0,
        }
    }
}

/// What one decision's search found, for logs and tests.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision<A> {
    /// The action chosen.
    pub action: A,
    /// Iterations run.
    pub iterations: u32,
    /// Each candidate searched and its average value (over the iterations it played, for a
    /// candidate dropped from the race), best first.
    pub values: Vec<(A, f64)>,
    /// The chosen action's average value.
    pub value: f64,
    /// Time spent.
    pub elapsed: Duration,
}

/// The values one root candidate got, one per iteration while it was in the race (so always
/// the first iterations: a candidate once dropped never comes back).
#[derive(Clone, Debug, Default)]
struct Arm {
    values: Vec<f64>,
}

impl Arm {
    fn mean(&self) -> f64 {
        if self.values.is_empty() {
            f64::NEG_INFINITY
        } else {
            self.values.iter().sum::<f64>() / self.values.len() as f64
        }
    }

    /// The mean of `self - other` over the iterations both played, less `z` standard errors
    /// (minus infinity with fewer than two).
    fn lower_bound_over(&self, other: &Arm, z: f64) -> f64 {
        let n = self.values.len().min(other.values.len());
        if n < 2 {
            return f64::NEG_INFINITY;
        }
        let gains = self.values.iter().zip(&other.values).map(|(a, b)| a - b);
        let (sum, squares) = gains.fold((0.0, 0.0), |(s, q), g| (s + g, q + g * g));
        let n = n as f64;
        let mean = sum / n;
        let variance = ((squares - n * mean * mean) / (n - 1.0)).max(0.0);
        mean - z * (variance / n).sqrt()
    }
}

/// A playout longer than this many decisions is cut off and scored where it stands (no deal or
/// hand comes near it; a rollout policy that never ends a Gin Rummy hand is stopped by the
/// wall anyway).
const MAX_PLAYOUT: usize = 10_000;

/// Iterations between two judgements of the race, and before the first.
const RACE_EVERY: u32 = 8;

/// The candidate with the best average among `racing`.
fn best_of(racing: &[usize], arms: &[Arm]) -> Option<usize> {
    racing.iter().copied().max_by(|&a, &b| arms[a].mean().total_cmp(&arms[b].mean()))
}

/// The determinized Monte Carlo search bot (see the [module docs](self)), for either game.
pub struct SearchBot<G: Searchable> {
    config: SearchConfig,
    policy: Box<dyn Policy<G>>,
    rng: ChaCha8Rng,
    memory: G::Memory,
    last: Option<Decision<G::Action>>,
}

impl<G: Searchable> SearchBot<G> {
    /// A search bot with `config` and the game's default playout policy
    /// ([`Searchable::default_policy`]).
    pub fn new(config: SearchConfig) -> SearchBot<G> {
        SearchBot::with_policy(config, G::default_policy())
    }

    /// A search bot that plays out with `policy`.
    pub fn with_policy(config: SearchConfig, policy: Box<dyn Policy<G>>) -> SearchBot<G> {
        SearchBot {
            config,
            policy,
            rng: ChaCha8Rng::seed_from_u64(config.seed),
            memory: G::Memory::default(),
            last: None,
        }
    }

    /// The search's configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// What the bot remembers of the match (for Gin Rummy, the opponent's moves this hand and
    /// the model that weighs samples by them,
    /// [`GinMemory::inference`](gin_search::GinMemory::inference)).
    pub fn memory_mut(&mut self) -> &mut G::Memory {
        &mut self.memory
    }

    /// What the last decision's search found.
    pub fn last_decision(&self) -> Option<&Decision<G::Action>> {
        self.last.as_ref()
    }

    /// Searches one decision: the observing seat must be to act.
    pub fn search(&mut self, observation: &G::Observation) -> Decision<G::Action> {
        let started = Instant::now();
        let legal = G::legal_actions_of(observation);
        let Some(&first) = legal.first() else {
            // Not our turn: nothing to choose. The runners never ask then.
            return Decision {
                action: G::fallback(observation),
                iterations: 0,
                values: Vec::new(),
                value: 0.0,
                elapsed: started.elapsed(),
            };
        };
        if legal.len() == 1 {
            return Decision {
                action: first,
                iterations: 0,
                values: vec![(first, 0.0)],
                value: 0.0,
                elapsed: started.elapsed(),
            };
        }
        let seat = G::observer(observation);
        self.policy.begin(seat);
        let mut candidates = if legal.len() > self.config.max_candidates {
            G::candidates(observation, self.config.max_candidates, &mut *self.policy, &mut self.rng)
        } else {
            legal.to_vec()
        };
        if candidates.is_empty() {
            candidates.push(first);
        }
        // The policy's own choice is the default: another candidate replaces it only when it is
        // better by a margin the playouts make significant.
        let default = match G::guide(observation) {
            Some(action) => Some(action),
            None => match G::sample_with(&self.memory, observation, &mut self.rng) {
                Ok(state) => self.policy.act(&state, seat, &mut self.rng),
                Err(error) => {
                    tracing::warn!(cause = %error, "cannot sample the observation; playing the first legal action");
                    None
                }
            },
        };
        let Some(default) = default.filter(|action| legal.contains(action)) else {
            return Decision {
                action: first,
                iterations: 0,
                values: vec![(first, 0.0)],
                value: 0.0,
                elapsed: started.elapsed(),
            };
        };
        let default_index = match candidates.iter().position(|&a| a == default) {
            Some(i) => i,
            None => {
                candidates.push(default);
                candidates.len() - 1
            }
        };
        let mut arms = vec![Arm::default(); candidates.len()];
        // The candidates still in the race; the default never leaves it.
        let mut racing: Vec<usize> = (0..candidates.len()).collect();
        let mut iterations = 0u32;
        let factor = if candidates.len() <= 2 { self.config.two_way_factor.max(1) } else { 1 };
        loop {
            let done = match self.config.budget {
                Budget::Iterations(n) => iterations >= n.saturating_mul(factor),
                Budget::Time(limit) => iterations > 0 && started.elapsed() >= limit,
            };
            if done {
                break;
            }
            let Ok(state) = G::sample_with(&self.memory, observation, &mut self.rng) else {
                break;
            };
            iterations += 1;
            // Common random numbers: every candidate is played out from the same sample with
            // the same playout seed, so their difference measures the action more than the luck.
            let playout_seed = self.rng.random::<u64>();
            for &i in &racing {
                let mut playout_rng = ChaCha8Rng::seed_from_u64(playout_seed);
                let value = self.play_out(state.clone(), seat, candidates[i], &mut playout_rng);
                arms[i].values.push(value);
            }
            // The race is judged every few iterations (each judgement reads every value so
            // far, so judging each time would cost more than the playouts in long searches).
            if let Some(z) = self.config.drop_below
                && iterations.is_multiple_of(RACE_EVERY)
                && racing.len() > 2
            {
                let leader = best_of(&racing, &arms).unwrap_or(default_index);
                racing.retain(|&i| {
                    i == leader
                        || i == default_index
                        || arms[leader].lower_bound_over(&arms[i], z) <= 0.0
                });
            }
        }
        let best = best_of(&racing, &arms).unwrap_or(default_index);
        let significant =
            arms[best].lower_bound_over(&arms[default_index], self.config.confidence) > 0.0;
        let chosen = if significant { best } else { default_index };
        let mut ranked: Vec<(G::Action, f64)> =
            candidates.iter().copied().zip(arms.iter().map(Arm::mean)).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        Decision {
            action: candidates[chosen],
            iterations,
            values: ranked,
            value: if iterations == 0 { 0.0 } else { arms[chosen].mean() },
            elapsed: started.elapsed(),
        }
    }

    /// Applies `action` for `seat` to a sampled `state`, plays on with the policy to the
    /// horizon and returns the value for `seat`.
    fn play_out(
        &mut self,
        mut state: G,
        seat: Seat,
        action: G::Action,
        rng: &mut ChaCha8Rng,
    ) -> f64 {
        let before = state.clone();
        // One list of events for the whole playout (`apply_into`), not one allocated a step.
        let mut events = Vec::new();
        if state.apply_into(seat, action, &mut events).is_err() {
            // A candidate is legal in every sample (they all show the seat the same legal
            // actions); should one not be, it scores as badly as anything seen.
            return f64::MIN / 4.0;
        }
        let mut ended = events.iter().any(G::ends_playout);
        let mut steps = 0;
        while !ended && steps < MAX_PLAYOUT {
            let Some(to_act) = state.to_act() else { break };
            let Some(choice) = self.policy.act(&state, to_act, rng) else { break };
            events.clear();
            if state.apply_into(to_act, choice, &mut events).is_err() {
                let Some(&first) = state.legal_actions().first() else { break };
                if state.apply_into(to_act, first, &mut events).is_err() {
                    break;
                }
            }
            ended = events.iter().any(G::ends_playout);
            steps += 1;
        }
        G::value(&self.memory, &before, &state, seat)
    }
}

impl<G: Searchable> Bot<G> for SearchBot<G> {
    fn choose(&mut self, observation: &G::Observation) -> G::Action {
        G::observe(&mut self.memory, observation);
        let decision = self.search(observation);
        G::chose(&mut self.memory, decision.action);
        tracing::debug!(
            action = %decision.action,
            iterations = decision.iterations,
            candidates = decision.values.len(),
            value = decision.value,
            elapsed_us = decision.elapsed.as_micros() as u64,
            "searched"
        );
        let action = decision.action;
        self.last = Some(decision);
        action
    }
}
