//! Playout policies: how every seat plays after the searched action.

use cardroom_games::{Game, Seat};
use cardroom_sdk::Bot;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// How a seat plays in a playout. It sees the whole sampled state, but a fair policy looks only
/// at what `seat` could see (its hand and the public state), so that the search does not
/// assume the other seats can see through the cards.
pub trait Policy<G: Game>: Send {
    /// A legal action for `seat`, which is to act in `state`; `None` only when nobody is.
    fn act(&mut self, state: &G, seat: Seat, rng: &mut ChaCha8Rng) -> Option<G::Action>;

    /// Told, before the playouts of each decision, which seat the search decides for: a policy
    /// that plays the searching seat as the bot will play it and the others as it expects them
    /// to play notes it here. By default nothing.
    fn begin(&mut self, searcher: Seat) {
        let _ = searcher;
    }
}

/// A uniformly random legal action: the fastest playout, for any game.
#[derive(Copy, Clone, Debug, Default)]
pub struct Uniform;

impl<G: Game> Policy<G> for Uniform {
    fn act(&mut self, state: &G, _seat: Seat, rng: &mut ChaCha8Rng) -> Option<G::Action> {
        state.legal_actions().choose(rng).copied()
    }
}

/// Any [`Bot`] as a playout policy: it is asked with the seat's observation, exactly as in a
/// match (for example the example heuristics).
pub struct BotPolicy<B>(pub B);

impl<G: Game, B: Bot<G>> Policy<G> for BotPolicy<B> {
    fn act(&mut self, state: &G, seat: Seat, _rng: &mut ChaCha8Rng) -> Option<G::Action> {
        state.to_act().map(|_| self.0.choose(&state.observation(seat)))
    }
}
