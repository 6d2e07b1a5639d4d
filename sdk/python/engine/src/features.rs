//! What learning code needs besides typed actions: a fixed numbering of each game's actions
//! (OpenSpiel's integer actions, PettingZoo's `Discrete` space with an action mask) and a
//! fixed-size observation tensor per seat. Both are documented in `cardroom/engine.pyi`.
//!
//! - Gin Rummy, 161 ids: 0 take the upcard, 1 pass, 2 draw from the stock, 3 draw the discard,
//!   4 + c discard card c, 56 + c knock discarding c, 108 + c gin discarding c, 160 big gin
//!   (c is the card byte, 0 = 2♣ … 51 = A♠, the SDK's order). A knock id lays the legal
//!   arrangement with the least deadwood for that discard (the first of the engine's sorted
//!   list among equals); the typed API offers every arrangement.
//! - Twenty-Two, 2048 ids: the position in the sorted legal list. An 11-card hand has at most
//!   2^11 distinct choices of ranks (TT-9's exchanges), so no list is longer.

use cardroom_games::gin::{self, CardSet, Phase};
use cardroom_games::twenty_two::{self, Cards, MAX_PLAYERS, PhaseView};
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

/// Sets `out[offset + card]` for each card.
fn mark(out: &mut [f32], offset: usize, cards: impl IntoIterator<Item = Card>, weight: f32) {
    for card in cards {
        out[offset + usize::from(card.index())] += weight;
    }
}

const GIN_DISCARD: usize = 4;
const GIN_KNOCK: usize = 56;
const GIN_GIN: usize = 108;
const GIN_BIG_GIN: usize = 160;

impl Features for gin::State {
    const NUM_IDS: usize = 161;
    const TENSOR_LEN: usize = 52 * 5 + 5 + 5;

    fn action_ids(&self, legal: &[gin::Action]) -> Vec<(usize, usize)> {
        let hand = self.to_act().map(|seat| self.hand(seat)).unwrap_or_default();
        let mut ids: Vec<(usize, usize)> = Vec::with_capacity(legal.len());
        // The least deadwood seen for each knock discard, to keep the best arrangement.
        let mut knock_deadwood = [u32::MAX; 52];
        for (index, action) in legal.iter().enumerate() {
            let id = match action {
                gin::Action::TakeUpcard => 0,
                gin::Action::PassUpcard => 1,
                gin::Action::DrawStock => 2,
                gin::Action::DrawDiscard => 3,
                gin::Action::Discard(card) => GIN_DISCARD + usize::from(card.index()),
                gin::Action::Gin { discard } => GIN_GIN + usize::from(discard.index()),
                gin::Action::BigGin => GIN_BIG_GIN,
                gin::Action::Knock { discard, melds } => {
                    let slot = usize::from(discard.index());
                    let deadwood = (hand - CardSet::single(*discard) - melds.cards()).value();
                    if deadwood >= knock_deadwood[slot] {
                        continue;
                    }
                    knock_deadwood[slot] = deadwood;
                    if let Some(entry) = ids.iter_mut().find(|(id, _)| *id == GIN_KNOCK + slot) {
                        entry.1 = index;
                        continue;
                    }
                    GIN_KNOCK + slot
                }
            };
            ids.push((id, index));
        }
        ids
    }

    /// Own hand, the opponent's known cards, the discard pile, the upcard, the card just
    /// drawn (52 each); the phase (first upcard, draw, discard, wall, over); whether `seat` is
    /// to act, the stock's size / 52, both scores / target (own first), the knock limit / 10.
    fn tensor(&self, seat: Seat) -> Vec<f32> {
        let mut out = vec![0.0; Self::TENSOR_LEN];
        let me = usize::from(seat.0.min(1));
        let public = self.public_view();
        mark(&mut out, 0, self.hand(seat), 1.0);
        mark(&mut out, 52, public.known_cards[1 - me], 1.0);
        mark(&mut out, 104, public.discard_pile.iter().map(|pile| pile.card), 1.0);
        mark(&mut out, 156, public.discard_pile.last().map(|pile| pile.card), 1.0);
        let drawn = self.observation(seat).drawn;
        mark(&mut out, 208, drawn, 1.0);
        let phase = match public.phase {
            Phase::FirstUpcard { .. } => 0,
            Phase::Draw { .. } => 1,
            Phase::Discard { .. } => 2,
            Phase::Wall { .. } => 3,
            Phase::MatchOver => 4,
        };
        out[260 + phase] = 1.0;
        out[265] = f32::from(u8::from(public.to_act == Some(seat)));
        out[266] = public.stock_size as f32 / 52.0;
        let target = public.options.target.max(1) as f32;
        out[267] = (public.scores[me] as f32 / target).min(1.0);
        out[268] = (public.scores[1 - me] as f32 / target).min(1.0);
        out[269] = f32::from(public.knock_limit) / 10.0;
        out
    }
}

/// The largest legal list of Twenty-Two (see the module's documentation).
const TT_IDS: usize = 2048;

impl Features for twenty_two::State {
    const NUM_IDS: usize = TT_IDS;
    const TENSOR_LEN: usize = 52 * 4 + 3 * MAX_PLAYERS as usize + MAX_PLAYERS as usize + 5;

    fn action_ids(&self, legal: &[twenty_two::Action]) -> Vec<(usize, usize)> {
        (0..legal.len().min(TT_IDS)).map(|index| (index, index)).collect()
    }

    /// Own hand, own exchange discards, the strongest combination of the trick under way, the
    /// cards played to this deal's tricks (52 each, a card's count / packs); per seat (16)
    /// score / limit, cards in hand / 11, eliminated; `seat` one-hot (16); the phase
    /// (exchange, play, over), whether `seat` is to act, whether it leads.
    fn tensor(&self, seat: Seat) -> Vec<f32> {
        let mut out = vec![0.0; Self::TENSOR_LEN];
        let observation = self.observation(seat);
        let public = &observation.public;
        let weight = 1.0 / f32::from(public.packs.max(1));
        mark(&mut out, 0, observation.hand.as_slice().iter().copied(), weight);
        mark(&mut out, 52, observation.discards.iter().copied(), weight);
        if let Some(trick) = public.tricks.last().filter(|trick| trick.winner.is_none())
            && let Some(strongest) = trick.plays.get(trick.strongest)
        {
            mark(&mut out, 104, strongest.cards.as_slice().iter().copied(), weight);
        }
        for trick in &public.tricks {
            for play in &trick.plays {
                let cards: &Cards = &play.cards;
                mark(&mut out, 156, cards.as_slice().iter().copied(), weight);
            }
        }
        let seats = usize::from(MAX_PLAYERS);
        let limit = public.options.limit.max(1) as f32;
        for (i, public_seat) in public.seats.iter().take(seats).enumerate() {
            out[208 + i] = (public_seat.score as f32 / limit).min(1.0);
            out[208 + seats + i] = public_seat.hand_len as f32 / 11.0;
            out[208 + 2 * seats + i] = f32::from(u8::from(public_seat.eliminated));
        }
        if let Some(slot) = out.get_mut(208 + 3 * seats + usize::from(seat.0)) {
            *slot = 1.0;
        }
        let base = 208 + 4 * seats;
        let (phase, to_act, leads) = match public.phase {
            PhaseView::Exchange { to_act } => (0, to_act == seat, false),
            PhaseView::Play { leader, to_act } => (1, to_act == seat, leader == seat),
            PhaseView::Over => (2, false, false),
        };
        out[base + phase] = 1.0;
        out[base + 3] = f32::from(u8::from(to_act));
        out[base + 4] = f32::from(u8::from(leads));
        out
    }
}
