//! [`Diluted`]: a bot that plays a uniformly random legal action a fixed share of the time and
//! another bot's choice otherwise. Diluting one bot by several shares gives a field of bots
//! whose order is known by construction (more random moves, weaker play), as close to each
//! other as the shares: what `cardroom arena power` ranks.

use cardroom_sdk::{Bot, MatchEnd, MatchStart, PlayableGame};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::random::RandomBot;

/// `inner`'s choice, or with probability `share` a random legal action. The inner bot sees
/// every observation, its own choices made or not, so a bot that remembers the hand keeps its
/// memory whole.
pub struct Diluted<G: PlayableGame> {
    inner: Box<dyn Bot<G>>,
    random: RandomBot,
    coin: ChaCha8Rng,
    share: f64,
}

impl<G: PlayableGame> Diluted<G> {
    /// `inner` diluted by `share` (clamped to `[0, 1]`) random moves, seeded with `seed`.
    pub fn new(inner: Box<dyn Bot<G>>, share: f64, seed: u64) -> Diluted<G> {
        Diluted {
            inner,
            random: RandomBot::new(seed),
            coin: ChaCha8Rng::seed_from_u64(seed ^ 0x5EED_D11A_7E00_0001),
            share: share.clamp(0.0, 1.0),
        }
    }

    /// The share of random moves.
    pub fn share(&self) -> f64 {
        self.share
    }
}

impl<G: PlayableGame> Bot<G> for Diluted<G> {
    fn choose(&mut self, observation: &G::Observation) -> G::Action {
        let own = self.inner.choose(observation);
        if self.coin.random_bool(self.share) {
            Bot::<G>::choose(&mut self.random, observation)
        } else {
            own
        }
    }

    fn comment(&mut self) -> Option<String> {
        self.inner.comment()
    }

    fn match_start(&mut self, start: &MatchStart) {
        self.inner.match_start(start);
    }

    fn match_end(&mut self, end: &MatchEnd) {
        self.inner.match_end(end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt_heuristic::TtHeuristic;
    use cardroom_sdk::games::twenty_two::State;
    use cardroom_sdk::play_local;

    /// A match between the heuristic and copies diluted by `share`, from `seed`.
    fn places(share: f64, seed: u64) -> Vec<u8> {
        let state = State::new(Default::default(), 2, seed).unwrap();
        let mut bots: Vec<Box<dyn Bot<State>>> = vec![
            Box::new(TtHeuristic::new()),
            Box::new(Diluted::new(Box::new(TtHeuristic::new()), share, seed)),
        ];
        let standings = play_local(state, &mut bots).unwrap();
        let mut by_seat = vec![0; 2];
        for s in standings {
            by_seat[s.seat.index()] = s.place;
        }
        by_seat
    }

    #[test]
    fn share_zero_is_the_inner_bot_and_share_one_the_random_bot() {
        for seed in 0..20 {
            // Two copies of the deterministic heuristic: the same as an undiluted one.
            let state = State::new(Default::default(), 2, seed).unwrap();
            let mut plain: Vec<Box<dyn Bot<State>>> =
                vec![Box::new(TtHeuristic::new()), Box::new(TtHeuristic::new())];
            let expected: Vec<u8> = {
                let mut by_seat = vec![0; 2];
                for s in play_local(state, &mut plain).unwrap() {
                    by_seat[s.seat.index()] = s.place;
                }
                by_seat
            };
            assert_eq!(places(0.0, seed), expected, "seed {seed}");
        }
        let heuristic_wins = (0..40).filter(|&seed| places(1.0, seed)[0] == 1).count();
        assert!(heuristic_wins >= 30, "the heuristic beat pure random {heuristic_wins} of 40");
        assert_eq!(Diluted::<State>::new(Box::new(TtHeuristic::new()), 3.0, 1).share(), 1.0);
    }
}
