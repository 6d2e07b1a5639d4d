//! Gin Rummy inference: what the opponent's moves this hand say about its hidden cards.
//!
//! The engine's sampler ([`gin::State::sample_from_observation`]) deals the cards the bot cannot
//! see uniformly. After a few turns that is far from the truth: a player who drew, kept what
//! melds and threw its highest loose cards away holds a much better hand than ten random cards,
//! and a search that plays out against random hands thinks it has all the time in the world.
//!
//! [`GinMemory`] keeps, for the current hand, the opponent's moves as the bot's seat saw them
//! between its own decisions (GR-15): every card it was offered (the first upcard, the bot's
//! discards) and whether it took it, its blind draws, and its discards. A sample is then chosen
//! by *sampling importance resampling*: [`GinInference::pool`] uniform samples are drawn, each is
//! weighed by how likely a sensible opponent holding those cards was to make the moves it made,
//! and one is kept with probability proportional to its weight.
//!
//! The weight walks the moves backwards from the sampled hand, undoing each: a discard puts the
//! card back, a card taken from the pile comes out, and a blind draw takes out one of the cards
//! the opponent did not take from the pile, chosen uniformly (every history that ends in the
//! sampled hand is then equally likely a priori, as under a fair shuffle). Each decision on the
//! way multiplies the weight by its probability under a simple model of a player who wants low
//! deadwood:
//!
//! - a discard `d` from eleven cards: a softmax over the allowed discards of minus
//!   [`GinInference::discard_temperature`] times the deadwood each one leaves, mixed with a
//!   uniform [`GinInference::noise`];
//! - not going out when the eleven cards could knock: [`GinInference::no_knock`];
//! - taking an offered card: a logistic in the deadwood it saves (the deadwood of the ten cards
//!   before, less the best ten after taking it), centred at [`GinInference::take_centre`];
//!   declining it is the complement.
//!
//! Nothing here looks at the heuristic's code: it is the behaviour any reasonable player shows,
//! and the noise keeps a surprising move from ruling a sample out.

use cardroom_games::gin::{self, Action, CardSet, FirstUpcard, Observation, Phase, PileCard, solver};
use cardroom_games::{Card, Seat};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// The opponent model and the sampling effort (see the [module docs](self)).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GinInference {
    /// Uniform samples weighed for each sample used; 1 samples uniformly.
    pub pool: usize,
    /// How sharply a discard follows the deadwood it leaves, per point.
    pub discard_temperature: f64,
    /// The chance of any move at random instead of the model's (a floor on every probability).
    pub noise: f64,
    /// The chance that a player who could knock discards instead.
    pub no_knock: f64,
    /// The deadwood saving at which taking an offered card is as likely as not.
    pub take_centre: f64,
    /// How sharply taking follows the saving, per point.
    pub take_slope: f64,
}

impl Default for GinInference {
    fn default() -> GinInference {
        let env = |name: &str, default: f64| {
            std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
        };
        GinInference {
            pool: env("GIN_POOL", 16.0) as usize,
            discard_temperature: env("GIN_BETA", 0.5),
            noise: env("GIN_NOISE", 0.05),
            no_knock: env("GIN_NOKNOCK", 0.1),
            take_centre: env("GIN_TAKE_CENTRE", 3.5),
            take_slope: env("GIN_TAKE_SLOPE", 1.0),
        }
    }
}

/// One move of the opponent's, as the bot saw it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Move {
    /// It was offered `card` (the first upcard, or the top of the pile) and took it.
    Took(Card),
    /// It was offered `card` and declined it: passed the first upcard (`drew` false), or drew
    /// from the stock instead (`drew` true).
    Declined { card: Card, drew: bool },
    /// It drew from the stock with no choice (both passed the first upcard, GR-5).
    DrewStock,
    /// It discarded `card` face up instead of going out; `taken` is the card it took from the
    /// pile this turn (which it may not discard, GR-6), `known` whether `card` was one it had
    /// taken from the pile (so not a hidden one).
    Discarded { card: Card, taken: Option<Card>, known: bool },
}

/// What the bot saw at one of its decisions, and what it did.
#[derive(Clone, Debug)]
struct Snapshot {
    phase: Phase,
    pile: Vec<PileCard>,
    upcard_draws: u32,
    /// The cards the opponent took from the pile and holds (GR-15).
    opponent_known: CardSet,
    action: Option<Action>,
}

/// The opponent's moves this hand, as far back as the bot saw them all (see the
/// [module docs](self)), and the inference model.
#[derive(Clone, Debug, Default)]
pub struct GinMemory {
    /// The model and the sampling effort.
    pub inference: GinInference,
    /// The hand the moves belong to: its number and how many hands had ended before it.
    hand: Option<(u32, usize)>,
    last: Option<Snapshot>,
    moves: Vec<Move>,
}

fn opponent_of(seat: Seat) -> Seat {
    Seat(1 - seat.0.min(1))
}

impl GinMemory {
    /// Takes in the observation of a decision: the opponent's moves since the bot's last one.
    pub fn observe(&mut self, observation: &Observation) {
        let public = &observation.public;
        let me = observation.seat;
        let opponent = opponent_of(me);
        let hand = (public.hand_number, public.results.len());
        let snapshot = Snapshot {
            phase: public.phase,
            pile: public.discard_pile.clone(),
            upcard_draws: public.upcard_draws,
            opponent_known: public.known_cards[opponent.index()],
            action: None,
        };
        if self.hand != Some(hand) {
            self.hand = Some(hand);
            self.moves.clear();
            self.opening(observation);
        } else if let Some(last) = self.last.take() {
            match last.action {
                None if last.phase == snapshot.phase
                    && last.pile == snapshot.pile
                    && last.upcard_draws == snapshot.upcard_draws =>
                {
                    // The same decision again (searched twice): nothing new.
                    self.last = Some(last);
                    return;
                }
                None => self.moves.clear(),
                Some(action) => {
                    if !self.since(&last, action, &snapshot, observation) {
                        // Something the bot cannot account for: forget what came before.
                        self.moves.clear();
                    }
                }
            }
        }
        self.last = Some(snapshot);
    }

    /// Records the bot's action at the last observed decision.
    pub fn chose(&mut self, action: Action) {
        if let Some(last) = &mut self.last {
            last.action = Some(action);
        }
    }

    /// The opponent's moves before the bot's first decision of a hand.
    fn opening(&mut self, observation: &Observation) {
        let public = &observation.public;
        let me = observation.seat;
        let opponent = opponent_of(me);
        if public.dealer != me {
            // The non-dealer decides first (GR-5): nothing happened yet.
            return;
        }
        let pile = &public.discard_pile;
        match (public.upcard_draws, pile.as_slice()) {
            (0, [upcard]) if upcard.by.is_none() => {
                // It passed the first upcard.
                self.moves.push(Move::Declined { card: upcard.card, drew: false });
            }
            (1, [discard]) if discard.by == Some(opponent) => {
                let known = public.known_cards[opponent.index()];
                if let (Some(upcard), 1) = (known.first(), known.len()) {
                    self.moves.push(Move::Took(upcard));
                    self.moves.push(Move::Discarded {
                        card: discard.card,
                        taken: Some(upcard),
                        known: false,
                    });
                }
            }
            _ => {}
        }
    }

    /// The opponent's moves between the bot's decision `last` (where it played `action`) and
    /// `now`, in the same hand; false if they cannot be made out.
    fn since(
        &mut self,
        last: &Snapshot,
        action: Action,
        now: &Snapshot,
        observation: &Observation,
    ) -> bool {
        let me = observation.seat;
        let opponent = Some(opponent_of(me));
        let dealer = observation.public.dealer;
        // What the opponent was offered: the bot's discard, or the upcard it passed.
        let (offered, before) = match action {
            Action::DrawStock | Action::DrawDiscard | Action::TakeUpcard => {
                // The bot's own turn goes on: nothing from the opponent.
                return matches!(now.phase, Phase::Discard { seat, .. } if seat == me);
            }
            Action::Discard(card) => {
                let mut pile = last.pile.clone();
                pile.push(PileCard { card, by: Some(me) });
                (card, pile)
            }
            Action::PassUpcard => match last.pile.last() {
                Some(top) => (top.card, last.pile.clone()),
                None => return false,
            },
            Action::Knock { .. } | Action::Gin { .. } | Action::BigGin => return false,
        };
        let took = now.upcard_draws == last.upcard_draws + 1;
        if !took && now.upcard_draws != last.upcard_draws {
            return false;
        }
        let Some((top, under)) = now.pile.split_last() else { return false };
        if took && under == &before[..before.len().saturating_sub(1)] && top.by == opponent {
            self.moves.push(Move::Took(offered));
            self.moves.push(Move::Discarded {
                card: top.card,
                taken: Some(offered),
                known: top.card == offered || last.opponent_known.contains(top.card),
            });
            return true;
        }
        if took {
            return false;
        }
        if action == Action::PassUpcard && now.pile == before {
            // It passed the first upcard too.
            self.moves.push(Move::Declined { card: offered, drew: false });
            return true;
        }
        if under == before.as_slice() && top.by == opponent {
            // After both passed the first upcard the non-dealer draws blind (GR-5).
            let forced = action == Action::PassUpcard
                && dealer == me
                && observation.public.options.first_upcard == FirstUpcard::Standard;
            self.moves.push(if forced {
                Move::DrewStock
            } else {
                Move::Declined { card: offered, drew: true }
            });
            self.moves.push(Move::Discarded {
                card: top.card,
                taken: None,
                known: last.opponent_known.contains(top.card),
            });
            return true;
        }
        false
    }

    /// A full state for one iteration: uniform when nothing is known, else the pick of
    /// [`GinInference::pool`] uniform samples by their weights.
    pub fn sample(
        &self,
        observation: &Observation,
        rng: &mut ChaCha8Rng,
    ) -> Result<gin::State, gin::SetupError> {
        if self.moves.is_empty() || self.inference.pool <= 1 {
            return gin::State::sample_from_observation(observation, rng);
        }
        let opponent = opponent_of(observation.seat);
        let public = &observation.public;
        let held = public.known_cards[opponent.index()];
        let rules = Rules {
            knock_limit: public.knock_limit,
            discard_taken: public.options.discard_taken_upcard,
        };
        let mut chosen = None;
        let mut total = 0.0;
        for _ in 0..self.inference.pool {
            let state = gin::State::sample_from_observation(observation, rng)?;
            let weight = self.weight(state.hand(opponent), held, rules, rng);
            total += weight;
            // Weighted reservoir of one: each sample is kept with probability weight / total.
            if chosen.is_none() || rng.random::<f64>() * total < weight {
                chosen = Some(state);
            }
        }
        match chosen {
            Some(state) => Ok(state),
            None => gin::State::sample_from_observation(observation, rng),
        }
    }

    /// How likely the opponent's moves are if it holds `hand` now (with `held` the cards it took
    /// from the pile), up to a constant (see the [module docs](self)).
    fn weight(&self, mut hand: CardSet, mut held: CardSet, rules: Rules, rng: &mut ChaCha8Rng) -> f64 {
        let model = &self.inference;
        let mut weight = 1.0;
        for step in self.moves.iter().rev() {
            match *step {
                Move::Discarded { card, taken, known } => {
                    if !hand.insert(card) {
                        break;
                    }
                    if known {
                        held.insert(card);
                    }
                    weight *= model.discard(hand, card, taken, rules);
                }
                Move::Took(card) => {
                    hand.remove(card);
                    held.remove(card);
                    weight *= model.take(hand, card, rules);
                }
                Move::Declined { card, drew } => {
                    if drew && !undraw(&mut hand, held, rng) {
                        break;
                    }
                    weight *= 1.0 - model.take(hand, card, rules);
                }
                Move::DrewStock => {
                    if !undraw(&mut hand, held, rng) {
                        break;
                    }
                }
            }
        }
        weight
    }
}

/// Takes out of `hand` one of the cards not taken from the pile, uniformly: the card a blind
/// draw brought. False if there is none.
fn undraw(hand: &mut CardSet, held: CardSet, rng: &mut ChaCha8Rng) -> bool {
    let hidden = (*hand - held).to_vec();
    if hidden.is_empty() {
        return false;
    }
    hand.remove(hidden[rng.random_range(0..hidden.len())]);
    true
}

/// The hand's rules that the model needs.
#[derive(Copy, Clone, Debug)]
struct Rules {
    knock_limit: u8,
    discard_taken: bool,
}

fn deadwood(cards: CardSet) -> f64 {
    solver::deadwood(cards).map_or(f64::from(u8::MAX), f64::from)
}

impl GinInference {
    /// The probability of discarding `card` from eleven cards without going out.
    fn discard(&self, hand: CardSet, card: Card, taken: Option<Card>, rules: Rules) -> f64 {
        let mut allowed = hand;
        if let (Some(taken), false) = (taken, rules.discard_taken) {
            allowed.remove(taken);
        }
        let mut left = [0.0; 11];
        let mut n = 0;
        let mut mine = None;
        for other in allowed.iter().take(left.len()) {
            left[n] = deadwood(hand - CardSet::single(other));
            if other == card {
                mine = Some(n);
            }
            n += 1;
        }
        let Some(mine) = mine else { return self.noise };
        let best = left[..n].iter().copied().fold(f64::INFINITY, f64::min);
        let total: f64 =
            left[..n].iter().map(|&d| (-(d - best) * self.discard_temperature).exp()).sum();
        let p = (-(left[mine] - best) * self.discard_temperature).exp() / total;
        let p = (1.0 - self.noise) * p + self.noise / n as f64;
        if best <= f64::from(rules.knock_limit) { p * self.no_knock } else { p }
    }

    /// The probability of taking `card` into ten cards.
    fn take(&self, hand: CardSet, card: Card, rules: Rules) -> f64 {
        let before = deadwood(hand);
        let with = hand | CardSet::single(card);
        let mut after = before;
        for other in with.iter() {
            if other == card && !rules.discard_taken {
                continue;
            }
            after = after.min(deadwood(with - CardSet::single(other)));
        }
        let saving = before - after;
        let p = 1.0 / (1.0 + (-(saving - self.take_centre) * self.take_slope).exp());
        self.noise / 2.0 + (1.0 - self.noise) * p
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use cardroom_sdk::Bot;
    use rand::SeedableRng;

    use super::*;
    use crate::gin_heuristic::GinHeuristic;

    /// The opponent's move as the engine saw it, before `state` applies `action`.
    fn true_move(state: &gin::State, seat: Seat, action: Action) -> Option<Move> {
        let top = state.discard_pile().last().map(|pile| pile.card);
        let public = state.public_view();
        Some(match (state.phase(), action) {
            (_, Action::TakeUpcard | Action::DrawDiscard) => Move::Took(top?),
            (Phase::FirstUpcard { .. }, Action::PassUpcard) => {
                Move::Declined { card: top?, drew: false }
            }
            (Phase::Draw { stock_only: true, .. }, Action::DrawStock) => Move::DrewStock,
            (_, Action::DrawStock) => Move::Declined { card: top?, drew: true },
            (Phase::Discard { taken, .. }, Action::Discard(card)) => Move::Discarded {
                card,
                taken,
                known: public.known_cards[seat.index()].contains(card),
            },
            _ => return None,
        })
    }

    #[test]
    fn the_memory_sees_every_move_of_the_opponent() {
        let mut decisions = 0;
        for seed in 0..40 {
            let mut state = gin::State::new(gin::Options::default(), seed).unwrap();
            let mut bots = [GinHeuristic::new(), GinHeuristic::new()];
            let mut memory = GinMemory::default();
            let mut truth = Vec::new();
            while let Some(seat) = state.to_act() {
                let observation = state.observation(seat);
                let action = bots[seat.index()].choose(&observation);
                if seat == Seat(0) {
                    memory.observe(&observation);
                    assert_eq!(memory.moves, truth, "seed {seed}, {}", observation.public.hand_number);
                    memory.chose(action);
                    decisions += 1;
                } else if let Some(step) = true_move(&state, seat, action) {
                    truth.push(step);
                }
                let events = state.apply(seat, action).unwrap();
                if events.iter().any(|e| matches!(e, gin::Event::HandEnded { .. })) {
                    truth.clear();
                }
            }
        }
        assert!(decisions > 1000, "{decisions}");
    }

    #[test]
    fn the_true_hand_walks_back_to_ten_cards() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut walks = 0;
        for seed in 0..20 {
            let mut state = gin::State::new(gin::Options::default(), seed).unwrap();
            let mut bots = [GinHeuristic::new(), GinHeuristic::new()];
            let mut memory = GinMemory::default();
            while let Some(seat) = state.to_act() {
                let observation = state.observation(seat);
                let action = bots[seat.index()].choose(&observation);
                if seat == Seat(0) {
                    memory.observe(&observation);
                    memory.chose(action);
                    let held = observation.public.known_cards[1];
                    let rules = Rules { knock_limit: 10, discard_taken: false };
                    let weight = memory.weight(state.hand(Seat(1)), held, rules, &mut rng);
                    assert!(weight > 0.0 && weight <= 1.0, "{weight}");
                    walks += 1;
                }
                state.apply(seat, action).unwrap();
            }
        }
        assert!(walks > 500);
    }
}
