//! [`Searchable`]: what the search needs of a game. Each game implements it in its own
//! module ([`super::tt_search`], [`super::gin_search`]).

use cardroom_games::Seat;
use cardroom_sdk::PlayableGame;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::rollout::Policy;

/// A game the [`SearchBot`](super::SearchBot) can play: where a playout stops, what its result
/// is worth to a seat, and which root candidates to try when there are too many.
pub trait Searchable: PlayableGame {
    /// What the bot remembers between its decisions in order to sample hidden cards better than
    /// uniformly: `()` for a game that infers nothing.
    type Memory: Default + Send;

    /// Updates the memory with the observation of a decision, before it is searched.
    fn observe(memory: &mut Self::Memory, observation: &Self::Observation) {
        let _ = (memory, observation);
    }

    /// Records the action the bot chose for the observation last given to [`Self::observe`].
    fn chose(memory: &mut Self::Memory, action: Self::Action) {
        let _ = (memory, action);
    }

    /// A full state for one iteration of the search. By default uniform over the hidden cards
    /// ([`Game::sample`](cardroom_games::Game::sample)), ignoring the memory.
    fn sample_with(
        memory: &Self::Memory,
        observation: &Self::Observation,
        rng: &mut ChaCha8Rng,
    ) -> Result<Self, Self::SampleError> {
        let _ = memory;
        Self::sample(observation, rng)
    }

    /// True for the event that ends a playout: the end of a deal or hand, or of the match.
    fn ends_playout(event: &Self::Event) -> bool;

    /// What the playout from `before` (the sample, before the bot's action) to `after` (where
    /// it stopped) is worth to `seat`; higher is better, on any scale.
    fn value(memory: &Self::Memory, before: &Self, after: &Self, seat: Seat) -> f64;

    /// The playout policy a [`SearchBot::new`](super::SearchBot::new) uses.
    fn default_policy() -> Box<dyn Policy<Self>>;

    /// The action the search plays unless another beats it significantly (its guard): by
    /// default `None`, the playout policy's choice in a sample. A game whose playout policy is
    /// a cheap version of a stronger bot returns that bot's choice here.
    fn guide(_observation: &Self::Observation) -> Option<Self::Action> {
        None
    }

    /// An action for an observation with no legal actions (never asked by the runners).
    fn fallback(observation: &Self::Observation) -> Self::Action;

    /// At most `cap` root candidates out of more legal actions. By default: the policy's
    /// choices in a few samples, then legal actions at random.
    fn candidates(
        observation: &Self::Observation,
        cap: usize,
        policy: &mut dyn Policy<Self>,
        rng: &mut ChaCha8Rng,
    ) -> Vec<Self::Action> {
        let mut out = Vec::with_capacity(cap);
        policy_choices(observation, cap / 4, policy, rng, &mut out);
        fill_at_random::<Self>(observation, cap, rng, &mut out);
        out
    }
}

/// The policy's choices for the observing seat in up to `samples` samples, each once.
pub(super) fn policy_choices<G: Searchable>(
    observation: &G::Observation,
    samples: usize,
    policy: &mut dyn Policy<G>,
    rng: &mut ChaCha8Rng,
    out: &mut Vec<G::Action>,
) {
    let seat = G::observer(observation);
    for _ in 0..samples {
        let Ok(state) = G::sample(observation, rng) else { return };
        let Some(action) = policy.act(&state, seat, rng) else { return };
        if !out.contains(&action) && G::legal_actions_of(observation).contains(&action) {
            out.push(action);
        }
    }
}

/// Legal actions not yet in `out`, at random, until it holds `cap`.
pub(super) fn fill_at_random<G: Searchable>(
    observation: &G::Observation,
    cap: usize,
    rng: &mut ChaCha8Rng,
    out: &mut Vec<G::Action>,
) {
    let mut rest: Vec<G::Action> =
        G::legal_actions_of(observation).iter().copied().filter(|a| !out.contains(a)).collect();
    rest.shuffle(rng);
    let room = cap.saturating_sub(out.len());
    out.extend(rest.into_iter().take(room));
}
