//! [`Searchable`]: what the search needs of a game, and its two implementations.

use cardroom_games::twenty_two::{self, Cards};
use cardroom_games::{Seat, gin};
use cardroom_sdk::PlayableGame;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::gin::GinMemory;
use super::rollout::{BotPolicy, Policy};
use crate::gin_heuristic::GinHeuristic;
use crate::tt_heuristic::TtHeuristic;

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
fn policy_choices<G: Searchable>(
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
fn fill_at_random<G: Searchable>(
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

/// Twenty-Two: a playout ends with the deal (TT-17, TT-27); its value is minus the penalty
/// points the seat took (TT-18), less the limit again if they eliminated it (TT-19, TT-28).
impl Searchable for twenty_two::State {
    type Memory = ();

    fn ends_playout(event: &twenty_two::Event) -> bool {
        matches!(event, twenty_two::Event::DealLost(_) | twenty_two::Event::MatchOver { .. })
    }

    fn value(_: &(), before: &twenty_two::State, after: &twenty_two::State, seat: Seat) -> f64 {
        let score = |state: &twenty_two::State| {
            state.scores().get(seat.index()).copied().map_or(0.0, f64::from)
        };
        let eliminated = after.is_eliminated(seat) && !before.is_eliminated(seat);
        let limit = f64::from(after.options().limit);
        -(score(after) - score(before)) - if eliminated { limit } else { 0.0 }
    }

    fn default_policy() -> Box<dyn Policy<twenty_two::State>> {
        Box::new(BotPolicy(TtHeuristic::new()))
    }

    fn fallback(_: &twenty_two::Observation) -> twenty_two::Action {
        twenty_two::Action::Exchange(Cards::EMPTY)
    }

    /// Only exchanges outgrow the cap (a hand of 11 different ranks has 2,048): the candidates
    /// are then the `k` highest and the `k` lowest cards for every `k`, the policy's choices,
    /// and random ones.
    fn candidates(
        observation: &twenty_two::Observation,
        cap: usize,
        policy: &mut dyn Policy<twenty_two::State>,
        rng: &mut ChaCha8Rng,
    ) -> Vec<twenty_two::Action> {
        let mut out = Vec::with_capacity(cap);
        let hand = observation.hand.as_slice();
        let exchanges: Vec<twenty_two::Action> = observation
            .legal_actions
            .iter()
            .copied()
            .filter(|a| matches!(a, twenty_two::Action::Exchange(_)))
            .collect();
        for k in 0..=hand.len() {
            let low = Cards::new(&hand[..k]);
            let high = Cards::new(&hand[hand.len() - k..]);
            for cards in [low, high].into_iter().flatten() {
                // The legal list holds each choice of ranks once, with its own suits.
                let found = exchanges.iter().find(|a| a.cards().same_ranks(&cards));
                if let Some(&action) = found
                    && !out.contains(&action)
                    && out.len() < cap
                {
                    out.push(action);
                }
            }
        }
        policy_choices(observation, cap / 4, policy, rng, &mut out);
        out.truncate(cap);
        fill_at_random::<twenty_two::State>(observation, cap, rng, &mut out);
        out
    }
}

/// Gin Rummy: a playout ends with the hand (GR-10 to GR-12); its value is the seat's points
/// in it less the opponent's (GR-12).
impl Searchable for gin::State {
    type Memory = GinMemory;

    fn observe(memory: &mut GinMemory, observation: &gin::Observation) {
        memory.observe(observation);
    }

    fn chose(memory: &mut GinMemory, action: gin::Action) {
        memory.chose(action);
    }

    fn sample_with(
        memory: &GinMemory,
        observation: &gin::Observation,
        rng: &mut ChaCha8Rng,
    ) -> Result<gin::State, gin::SetupError> {
        memory.sample(observation, rng)
    }

    fn ends_playout(event: &gin::Event) -> bool {
        matches!(event, gin::Event::HandEnded { .. } | gin::Event::MatchOver { .. })
    }

    fn value(_: &GinMemory, before: &gin::State, after: &gin::State, seat: Seat) -> f64 {
        let gain = |i: usize| f64::from(after.scores()[i]) - f64::from(before.scores()[i]);
        let me = seat.index() & 1;
        gain(me) - gain(1 - me)
    }

    fn default_policy() -> Box<dyn Policy<gin::State>> {
        Box::new(BotPolicy(GinHeuristic::new()))
    }

    fn fallback(_: &gin::Observation) -> gin::Action {
        gin::Action::DrawStock
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn big_exchange_lists_are_cut_to_the_cap_with_the_extremes_first() {
        let options = twenty_two::Options { first_hand: 11, ..Default::default() };
        let state = twenty_two::State::new(options, 3, 4).unwrap();
        let seat = state.to_act().unwrap();
        let observation = state.observation(seat);
        assert!(observation.legal_actions.len() > 48);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let out =
            twenty_two::State::candidates(&observation, 48, &mut crate::search::Uniform, &mut rng);
        assert_eq!(out.len(), 48);
        assert!(out.iter().all(|a| observation.legal_actions.contains(a)));
        assert!(out.contains(&twenty_two::Action::Exchange(Cards::EMPTY)));
    }
}
