//! [`HoldemHeuristic`]: a Hold'em player by equity and pot odds.
//!
//! At each decision the bot estimates its *equity*: the share of the pot its two hole cards win
//! at the showdown against the seats still in, each given two random cards of those it cannot
//! see, the board dealt out at random (Monte Carlo over [`HoldemHeuristic::samples`] deals, with
//! the engine's evaluator, HE-2 and HE-3). Nothing is read into the others' betting. Then:
//!
//! - **Raise** for value when the equity is high: above [`HoldemHeuristic::raise_above`] it
//!   bets or raises about the pot (HE-9), all in when the stack is shorter than that; in limit
//!   the one size there is (HE-10).
//! - **Call** when the equity beats the pot odds, the share of the pot after the call that the
//!   call itself is.
//! - Otherwise **check** when it can and **fold** when it must (HE-8).
//!
//! Deterministic for a seed: the deals are drawn from its own ChaCha8.

use cardroom_games::Card;
use cardroom_games::holdem::{Action, Hand, Observation, State};
use cardroom_sdk::Bot;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// The Hold'em heuristic described in the [module documentation](self).
#[derive(Clone, Debug)]
pub struct HoldemHeuristic {
    /// Deals sampled for each equity estimate.
    pub samples: u32,
    /// The equity above which it bets or raises, against one opponent; against more it must be
    /// higher (see [`HoldemHeuristic::choose_for`]).
    pub raise_above: f64,
    rng: ChaCha8Rng,
}

impl HoldemHeuristic {
    /// The heuristic with its defaults: 400 deals an estimate, raising above 65% heads-up.
    pub fn new(seed: u64) -> HoldemHeuristic {
        HoldemHeuristic { samples: 400, raise_above: 0.65, rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// The share of the pot `observation`'s seat wins at the showdown, by Monte Carlo.
    pub fn equity(&mut self, observation: &Observation) -> f64 {
        equity(observation, self.samples, &mut self.rng)
    }

    /// The action for `observation`, whose seat is to act.
    pub fn choose_for(&mut self, observation: &Observation) -> Action {
        let legal = &observation.legal_actions;
        let public = &observation.public;
        let betting = &public.betting;
        let me = betting.seats[observation.seat.index()];
        let opponents = betting
            .seats
            .iter()
            .enumerate()
            .filter(|(i, s)| *i != observation.seat.index() && s.status.in_hand())
            .count()
            .max(1);
        let equity = self.equity(observation);
        // Against more seats a hand needs more to be ahead of all of them.
        let raise_above = 1.0 - (1.0 - self.raise_above) / opponents as f64;
        let raises: Vec<u32> = legal
            .iter()
            .filter_map(|a| match a {
                Action::RaiseTo(to) => Some(*to),
                _ => None,
            })
            .collect();
        if equity > raise_above
            && let (Some(&min), Some(&max)) = (raises.first(), raises.last())
        {
            // About the pot: the bet to call, then the pot after calling, on top.
            let to_call = betting.bet.saturating_sub(me.bet);
            let pot_size = betting.bet + public.pot() + to_call;
            return Action::RaiseTo(pot_size.clamp(min, max));
        }
        let to_call = betting.bet.saturating_sub(me.bet).min(me.stack);
        if to_call == 0 {
            return Action::Check;
        }
        let pot_odds = f64::from(to_call) / f64::from(public.pot() + to_call);
        if equity >= pot_odds && legal.contains(&Action::Call) {
            Action::Call
        } else {
            Action::Fold
        }
    }
}

impl Bot<State> for HoldemHeuristic {
    fn choose(&mut self, observation: &Observation) -> Action {
        let action = self.choose_for(observation);
        if observation.legal_actions.contains(&action) {
            action
        } else {
            observation.legal_actions.first().copied().unwrap_or(Action::Check)
        }
    }
}

/// The share of the pot `observation`'s seat wins at the showdown against the seats still in,
/// each dealt two random unseen cards, the board dealt out: the mean over `samples` deals of 1
/// for a win, `1/k` for a `k`-way tie, 0 for a loss. 0 for a seat without hole cards.
pub fn equity(observation: &Observation, samples: u32, rng: &mut ChaCha8Rng) -> f64 {
    let [first, second] = observation.hole_cards[..] else { return 0.0 };
    let public = &observation.public;
    let opponents = public
        .betting
        .seats
        .iter()
        .enumerate()
        .filter(|(i, s)| *i != observation.seat.index() && s.status.in_hand())
        .count();
    if opponents == 0 {
        return 1.0;
    }
    let known: Vec<Card> =
        [first, second].into_iter().chain(public.board.iter().copied()).collect();
    let mut unseen: Vec<Card> = Card::pack().filter(|c| !known.contains(c)).collect();
    let board = Hand::of(&public.board);
    let mine = Hand::of(&[first, second]);
    let to_deal = 5 - public.board.len();
    let mut total = 0.0;
    for _ in 0..samples.max(1) {
        let (dealt, _) = unseen.partial_shuffle(rng, to_deal + 2 * opponents);
        let full = board.union(Hand::of(&dealt[..to_deal]));
        let my_rank = full.union(mine).rank();
        let mut tied = 1;
        let mut lost = false;
        for pair in dealt[to_deal..].chunks_exact(2) {
            let theirs = full.union(Hand::of(pair)).rank();
            if theirs > my_rank {
                lost = true;
                break;
            }
            if theirs == my_rank {
                tied += 1;
            }
        }
        if !lost {
            total += 1.0 / f64::from(tied);
        }
    }
    total / f64::from(samples.max(1))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use cardroom_games::holdem::{Options, Setup};
    use cardroom_games::{Seat, parse_cards};

    use super::*;
    use crate::random::RandomBot;

    fn heads_up(mine: &str, board: &str) -> Observation {
        let setup = Setup {
            button: Seat(0),
            stacks: vec![200, 200],
            hole_cards: vec![parse_cards(mine).unwrap(), parse_cards("2C 7D").unwrap()],
            board: parse_cards(board).unwrap(),
            hand_number: 1,
            seed: 0,
        };
        State::from_setup(Options::default(), setup).unwrap().observation(Seat(0))
    }

    #[test]
    fn aces_raise_and_trash_folds_to_a_raise() {
        let mut bot = HoldemHeuristic::new(1);
        let aces = heads_up("AS AD", "KC 8H 9D 3S 4C");
        assert!((0.8..0.9).contains(&bot.equity(&aces)), "{}", bot.equity(&aces));
        assert!(matches!(bot.choose(&aces), Action::RaiseTo(_)));
        let trash = heads_up("3H 2D", "KC 8H 9D 3S 4C");
        assert!(bot.equity(&trash) < 0.4);
        // The small blind's call costs 1 into a pot of 4: trash still calls that.
        assert_eq!(bot.choose(&trash), Action::Call);
    }

    #[test]
    fn it_beats_the_random_bot_heads_up() {
        let mut chips = 0i64;
        for seed in 0..20 {
            let state = State::new(Options { hands: 30, ..Options::default() }, 2, seed).unwrap();
            let mut bots: Vec<Box<dyn Bot<State>>> =
                vec![Box::new(HoldemHeuristic::new(seed)), Box::new(RandomBot::new(seed))];
            let mut state = state;
            while let Some(seat) = state.to_act() {
                let action = bots[seat.index()].choose(&state.observation(seat));
                state.apply(seat, action).unwrap();
            }
            chips += state.outcome().unwrap().net[0];
        }
        assert!(chips > 0, "{chips}");
    }
}
