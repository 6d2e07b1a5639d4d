//! [`RandomBot`]: a uniformly random legal action, for any game. The baseline every other bot
//! is measured against.

use cardroom_sdk::{Bot, BotBuilder, PlayableGame};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Builds a [`RandomBot`] with this seed for whichever game a match turns out to be
/// (`AnyBot::build(game, AnyRandom(seed))`).
#[derive(Copy, Clone, Debug)]
pub struct AnyRandom(pub u64);

impl BotBuilder for AnyRandom {
    fn build<G: PlayableGame>(self) -> Box<dyn Bot<G>> {
        Box::new(RandomBot::new(self.0))
    }
}

/// Chooses uniformly among the legal actions, with a seeded ChaCha8 generator: the same seed
/// and the same observations give the same choices.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot seeded with `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl<G: PlayableGame> Bot<G> for RandomBot {
    fn choose(&mut self, observation: &G::Observation) -> G::Action {
        let legal = G::legal_actions_of(observation);
        // The runners only ask when the seat is to act, so the list is never empty; index 0
        // keeps this total anyway.
        let index = if legal.len() > 1 { self.rng.random_range(0..legal.len()) } else { 0 };
        legal[index]
    }
}
