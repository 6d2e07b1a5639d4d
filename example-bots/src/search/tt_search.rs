//! Twenty-Two's half of the search: its [`Searchable`] implementation.

use cardroom_games::Seat;
use cardroom_games::twenty_two::{self, Cards};
use cardroom_sdk::{AnyBot, Bot};
use rand_chacha::ChaCha8Rng;

use super::objective::{Searchable, fill_at_random, policy_choices};
use super::rollout::{BotPolicy, Policy};
use crate::catalogue::ExampleGame;
use crate::tt_heuristic::TtHeuristic;

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

impl ExampleGame for twenty_two::State {
    const HEURISTIC: &'static str = "tt-heuristic";

    fn heuristic(_seed: u64) -> Box<dyn Bot<twenty_two::State>> {
        Box::new(TtHeuristic::new())
    }

    fn into_any(bot: Box<dyn Bot<twenty_two::State>>) -> AnyBot {
        AnyBot::TwentyTwo(bot)
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
