//! What learning code needs besides typed actions: a fixed numbering of each game's actions
//! (OpenSpiel's integer actions, PettingZoo's `Discrete` space with an action mask) and a
//! fixed-size observation tensor per seat, implemented in each game's module and documented
//! in `cardroom/_engine.pyi`.

use cardroom_games::{Card, Game, Seat};

/// One game's action numbering and observation tensor.
pub(crate) trait Features: Game {
    /// How many action ids there are.
    const NUM_IDS: usize;
    /// The length of [`Features::tensor`].
    const TENSOR_LEN: usize;

    /// The id of each legal action, in the legal list's order, with its index in that list;
    /// one entry per id (several legal actions may share an id in Gin Rummy: the best is kept).
    fn action_ids(&self, legal: &[Self::Action]) -> Vec<(usize, usize)>;

    /// What `seat` may see, as numbers in 0..=1.
    fn tensor(&self, seat: Seat) -> Vec<f32>;
}

/// Adds `weight` to `out[offset + card]` for each card (by card byte).
pub(crate) fn mark(
    out: &mut [f32],
    offset: usize,
    cards: impl IntoIterator<Item = Card>,
    weight: f32,
) {
    for card in cards {
        out[offset + usize::from(card.index())] += weight;
    }
}
