//! Hold'em's [`Searchable`]: a playout ends with the hand, and is worth the chips the
//! searching seat won or lost in it; the root candidates are the fold, the check or call, and a
//! few raise sizes (the smallest, half the pot, the pot, twice the pot, all in) rather than
//! every size the rules allow (HE-9).

use cardroom_games::Seat;
use cardroom_games::holdem::{self, Action, Event};
use cardroom_sdk::{AnyBot, Bot};
use rand_chacha::ChaCha8Rng;

use super::objective::Searchable;
use super::rollout::{BotPolicy, Policy};
use crate::catalogue::ExampleGame;
use crate::holdem_heuristic::HoldemHeuristic;

impl Searchable for holdem::State {
    type Memory = ();

    fn ends_playout(event: &Event) -> bool {
        matches!(event, Event::HandEnded { .. } | Event::MatchOver { .. })
    }

    /// The chips the hand won or lost (those put in before the decision count alike for
    /// every candidate).
    fn value(_: &(), before: &holdem::State, after: &holdem::State, seat: Seat) -> f64 {
        let view = after.public_view();
        view.last_hand
            .filter(|hand| hand.hand_number == before.hand_number())
            .and_then(|hand| hand.net.get(seat.index()).copied())
            .map_or(0.0, |net| net as f64)
    }

    fn default_policy() -> Box<dyn Policy<holdem::State>> {
        // A cheaper estimate in playouts: a decision of the bot itself takes 400 deals.
        let mut heuristic = HoldemHeuristic::new(0);
        heuristic.samples = 40;
        Box::new(BotPolicy(heuristic))
    }

    fn fallback(_: &holdem::Observation) -> Action {
        Action::Check
    }

    /// Fold, check or call, and the raises to the smallest, half the pot, the pot, twice the
    /// pot and all in, as far as they are legal and distinct.
    fn candidates(
        observation: &holdem::Observation,
        cap: usize,
        _policy: &mut dyn Policy<holdem::State>,
        _rng: &mut ChaCha8Rng,
    ) -> Vec<Action> {
        let legal = &observation.legal_actions;
        let mut out: Vec<Action> =
            legal.iter().copied().filter(|a| !matches!(a, Action::RaiseTo(_))).collect();
        let raises: Vec<u32> = legal
            .iter()
            .filter_map(|a| match a {
                Action::RaiseTo(to) => Some(*to),
                _ => None,
            })
            .collect();
        if let (Some(&min), Some(&max)) = (raises.first(), raises.last()) {
            let public = &observation.public;
            let pot = public.pot();
            let bet = public.betting.bet;
            for to in [min, bet + pot / 2, bet + pot, bet + 2 * pot, max] {
                let action = Action::RaiseTo(to.clamp(min, max));
                if !out.contains(&action) {
                    out.push(action);
                }
            }
        }
        out.truncate(cap.max(1));
        out
    }
}

impl ExampleGame for holdem::State {
    const HEURISTIC: &'static str = "holdem-heuristic";

    fn heuristic(seed: u64) -> Box<dyn Bot<holdem::State>> {
        Box::new(HoldemHeuristic::new(seed))
    }

    fn into_any(bot: Box<dyn Bot<holdem::State>>) -> AnyBot {
        AnyBot::Holdem(bot)
    }
}
