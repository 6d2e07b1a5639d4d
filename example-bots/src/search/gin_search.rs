//! Gin Rummy's half of the search: its [`Searchable`] implementation, and the inference behind
//! it: [`GinMemory`] remembers the opponent's moves this hand and samples the hidden cards by
//! how well they explain them.

use cardroom_games::gin::{
    self, Action, CardSet, FirstUpcard, Observation, Phase, PileCard, solver,
};
use cardroom_games::{Card, Seat};
use cardroom_sdk::{AnyBot, Bot};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::objective::Searchable;
use super::rollout::Policy;
use crate::catalogue::ExampleGame;
use crate::gin_heuristic::GinHeuristic;

/// The opponent model of [`GinMemory`] and the sampling effort. The defaults were measured
/// against the example heuristic: a pool of 48 samples played clearly better than 16 (and 128
/// no better than 48), and a discard temperature of 1 and 0.5 alike better than 0.25.
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
        GinInference {
            pool: 48,
            discard_temperature: 1.0,
            noise: 0.05,
            no_knock: 0.1,
            take_centre: 3.5,
            take_slope: 1.0,
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

/// What the opponent's moves this hand say about its hidden cards, for the search's samples.
///
/// The engine's sampler ([`gin::State::sample_from_observation`]) deals the cards the bot
/// cannot see uniformly. After a few turns that is far from the truth: a player who drew, kept
/// what melds and threw its highest loose cards away holds a much better hand than ten random
/// cards, and a search that plays out against random hands thinks it has all the time in the
/// world. (Against the example heuristic, at 200 samples a move and without the search's guard,
/// uniform samples lost about 2 points a hand and these samples won about 2.5.)
///
/// The memory keeps, for the current hand, the opponent's moves as the bot's seat saw them
/// between its own decisions (GR-15): every card it was offered (the first upcard, the bot's
/// discards) and whether it took it, its blind draws, and its discards. (Should an observation
/// be missed, the moves before it are forgotten.) A sample is then chosen by *sampling
/// importance resampling*: [`GinInference::pool`] uniform samples are drawn, each is weighed
/// by how likely a sensible opponent holding those cards was to make the moves it made, and one
/// is kept with probability proportional to its weight.
///
/// The weight walks the moves backwards from the sampled hand, undoing each: a discard puts the
/// card back, a card taken from the pile comes out, and a blind draw takes out one of the cards
/// the opponent did not take from the pile, chosen uniformly (every history that ends in the
/// sampled hand is then equally likely a priori, as under a fair shuffle). Each decision on the
/// way multiplies the weight by its probability under a simple model of a player who wants low
/// deadwood:
///
/// - a discard `d` from eleven cards: a softmax over the allowed discards of minus
///   [`GinInference::discard_temperature`] times the deadwood each one leaves, mixed with a
///   uniform [`GinInference::noise`];
/// - not going out when the eleven cards could knock: [`GinInference::no_knock`];
/// - taking an offered card: a logistic in the deadwood it saves (the deadwood of the ten cards
///   before, less the best ten after taking it), centred at [`GinInference::take_centre`];
///   declining it is the complement.
///
/// Nothing here looks at the heuristic's code: it is the behaviour any reasonable player shows,
/// and the noise keeps a surprising move from ruling a sample out.
#[derive(Clone, Debug, Default)]
pub struct GinMemory {
    /// The model and the sampling effort.
    pub inference: GinInference,
    /// The number of the hand the moves belong to (every deal, a redeal too, has a new one).
    hand: Option<u32>,
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
        let hand = public.hand_number;
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
        let model =
            Model::new(&self.inference, public.knock_limit, public.options.discard_taken_upcard);
        let mut chosen = None;
        let mut total = 0.0;
        for _ in 0..self.inference.pool {
            let state = gin::State::sample_from_observation(observation, rng)?;
            let (weight, _) = self.weigh(&model, state.hand(opponent), held, rng);
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
    /// from the pile), up to a constant (see [`GinMemory`]), and the hand it held
    /// before the first of them.
    fn weigh(
        &self,
        model: &Model,
        mut hand: CardSet,
        mut held: CardSet,
        rng: &mut ChaCha8Rng,
    ) -> (f64, CardSet) {
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
                    weight *= model.discard(hand, card, taken);
                }
                Move::Took(card) => {
                    hand.remove(card);
                    held.remove(card);
                    weight *= model.take(hand, card);
                }
                Move::Declined { card, drew } => {
                    if drew && !undraw(&mut hand, held, rng) {
                        break;
                    }
                    weight *= 1.0 - model.take(hand, card);
                }
                Move::DrewStock => {
                    if !undraw(&mut hand, held, rng) {
                        break;
                    }
                }
            }
        }
        (weight, hand)
    }
}

/// Takes out of `hand` one of the cards not taken from the pile, uniformly: the card a blind
/// draw brought. False if there is none.
fn undraw(hand: &mut CardSet, held: CardSet, rng: &mut ChaCha8Rng) -> bool {
    let hidden = *hand - held;
    if hidden.is_empty() {
        return false;
    }
    let nth = rng.random_range(0..hidden.len());
    hidden.iter().nth(nth).is_some_and(|card| hand.remove(card))
}

/// Deadwood differences past this are as unlikely as this one.
const MAX_DIFFERENCE: usize = 127;

/// [`GinInference`] ready for one decision: its curves tabulated over whole deadwood points,
/// and the hand's rules.
struct Model {
    /// `exp(-temperature * d)` for a discard that leaves `d` more deadwood than the best.
    discard_odds: [f64; MAX_DIFFERENCE + 1],
    /// The chance of taking a card that saves `s` points of deadwood.
    take_chance: [f64; MAX_DIFFERENCE + 1],
    noise: f64,
    no_knock: f64,
    knock_limit: u32,
    discard_taken: bool,
}

fn deadwood(cards: CardSet) -> usize {
    solver::deadwood(cards).map_or(MAX_DIFFERENCE, usize::from)
}

impl Model {
    fn new(inference: &GinInference, knock_limit: u8, discard_taken: bool) -> Model {
        let mut discard_odds = [0.0; MAX_DIFFERENCE + 1];
        let mut take_chance = [0.0; MAX_DIFFERENCE + 1];
        for (points, (odds, take)) in discard_odds.iter_mut().zip(&mut take_chance).enumerate() {
            let points = points as f64;
            *odds = (-inference.discard_temperature * points).exp();
            let logistic =
                1.0 / (1.0 + (-(points - inference.take_centre) * inference.take_slope).exp());
            *take = inference.noise / 2.0 + (1.0 - inference.noise) * logistic;
        }
        Model {
            discard_odds,
            take_chance,
            noise: inference.noise,
            no_knock: inference.no_knock,
            knock_limit: u32::from(knock_limit),
            discard_taken,
        }
    }

    /// The probability of discarding `card` from the eleven cards of `hand` without going
    /// out, `taken` being the card taken from the pile this turn.
    fn discard(&self, hand: CardSet, card: Card, taken: Option<Card>) -> f64 {
        let mut allowed = hand;
        if let (Some(taken), false) = (taken, self.discard_taken) {
            allowed.remove(taken);
        }
        let mut left = [0usize; 11];
        let Some(n) = deadwood_left(hand, allowed, &mut left) else { return self.noise };
        let Some(mine) = allowed.iter().position(|other| other == card) else {
            return self.noise;
        };
        let best = left[..n].iter().copied().min().unwrap_or(0);
        let odds = |d: usize| self.discard_odds[(d - best).min(MAX_DIFFERENCE)];
        let total: f64 = left[..n].iter().map(|&d| odds(d)).sum();
        let p = (1.0 - self.noise) * odds(left[mine]) / total + self.noise / n as f64;
        if best as u32 <= self.knock_limit { p * self.no_knock } else { p }
    }

    /// The probability of taking `card` into the ten cards of `hand`.
    fn take(&self, hand: CardSet, card: Card) -> f64 {
        let before = deadwood(hand);
        let with = hand | CardSet::single(card);
        // The best ten of the eleven: discarding `card` again gives `before` (whether or not the
        // rules allow it, GR-6, that is declining it), so the saving is never negative.
        let after = match solver::knock_deadwood(with) {
            Ok(after) => usize::from(after),
            Err(_) => before,
        };
        self.take_chance[before.saturating_sub(after).min(MAX_DIFFERENCE)]
    }
}

/// The deadwood left by discarding each card of `allowed` from `hand` (eleven cards), in the
/// order of `allowed`, into `left`; the number of cards, or `None` if `hand` is too big.
///
/// A card that is deadwood in a best arrangement of the eleven leaves exactly their deadwood
/// less its value: that arrangement without it does so, and no arrangement of the other ten
/// does better, or the eleven would. Only the cards in that arrangement's melds need the
/// solver.
fn deadwood_left(hand: CardSet, allowed: CardSet, left: &mut [usize; 11]) -> Option<usize> {
    let (eleven, arrangements) = solver::min_deadwood(hand).ok()?;
    let melded = arrangements.first().map_or(CardSet::EMPTY, |a| a.cards());
    let mut n = 0;
    for (slot, other) in left.iter_mut().zip(allowed.iter()) {
        let single = CardSet::single(other);
        *slot = if melded.contains(other) {
            deadwood(hand - single)
        } else {
            usize::from(eleven).saturating_sub(single.value() as usize)
        };
        n += 1;
    }
    Some(n)
}

/// A Gin Rummy playout policy that plays the searching seat as the bot itself plays, and the
/// opponent as a plain player: the seat the search decides for plays the tuned heuristic
/// without its costly discard lookahead (its upcard rule and its knock timing: past the middle
/// of the stock it knocks only with little deadwood, [`GinHeuristic::late_stock`]), the other
/// seat [`GinHeuristic::fast`], which knocks as soon as it may, as OpenSpiel's simple bot does.
/// Playing the searcher's seat as it will really play matters most to the knock decision: a
/// playout in which the bot knocks later with 9 points, undercut-prone, values a discard
/// wrongly.
#[derive(Clone, Debug)]
pub struct GinPlayout {
    searcher: Option<Seat>,
    own: GinHeuristic,
    other: GinHeuristic,
}

impl Default for GinPlayout {
    fn default() -> GinPlayout {
        GinPlayout {
            searcher: None,
            own: GinHeuristic { lookahead: false, ..GinHeuristic::default() },
            other: GinHeuristic::fast(),
        }
    }
}

impl Policy<gin::State> for GinPlayout {
    fn act(&mut self, state: &gin::State, seat: Seat, _rng: &mut ChaCha8Rng) -> Option<Action> {
        state.to_act()?;
        let bot = if self.searcher == Some(seat) { &mut self.own } else { &mut self.other };
        Some(bot.choose(&state.observation(seat)))
    }

    fn begin(&mut self, searcher: Seat) {
        self.searcher = Some(searcher);
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

    /// [`GinPlayout`]: the searching seat as the tuned heuristic without its discard lookahead,
    /// the opponent as [`GinHeuristic::fast`] (a playout asks them some twenty times).
    fn default_policy() -> Box<dyn Policy<gin::State>> {
        Box::new(GinPlayout::default())
    }

    /// The full heuristic, lookahead included, asked once a decision.
    fn guide(observation: &gin::Observation) -> Option<gin::Action> {
        Some(GinHeuristic::new().choose(observation))
    }

    fn fallback(_: &gin::Observation) -> gin::Action {
        gin::Action::DrawStock
    }
}

impl ExampleGame for gin::State {
    const HEURISTIC: &'static str = "gin-heuristic";

    fn heuristic(_seed: u64) -> Box<dyn Bot<gin::State>> {
        Box::new(GinHeuristic::new())
    }

    fn into_any(bot: Box<dyn Bot<gin::State>>) -> AnyBot {
        AnyBot::Gin(bot)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use cardroom_sdk::Bot;
    use rand::SeedableRng;
    use rand::seq::SliceRandom;

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

    /// Plays heuristic matches under several rule sets; seat 0 keeps a memory, and `check`
    /// sees it at each of its decisions with the state and the opponent's true moves this hand.
    fn watch(mut check: impl FnMut(&GinMemory, &gin::State, &[Move])) {
        let variants = [
            gin::Options::default(),
            gin::Options {
                discard_taken_upcard: true,
                wall_knock: true,
                big_gin: true,
                ..gin::Options::default()
            },
            gin::Options {
                first_upcard: FirstUpcard::Seed,
                oklahoma: true,
                ..gin::Options::default()
            },
        ];
        for options in variants {
            for seed in 0..12 {
                let mut state = gin::State::new(options, seed).unwrap();
                let mut bots = [GinHeuristic::new(), GinHeuristic::new()];
                let mut memory = GinMemory::default();
                let mut truth = Vec::new();
                while let Some(seat) = state.to_act() {
                    let observation = state.observation(seat);
                    let action = bots[seat.index()].choose(&observation);
                    if seat == Seat(0) {
                        memory.observe(&observation);
                        check(&memory, &state, &truth);
                        memory.chose(action);
                    } else if let Some(step) = true_move(&state, seat, action) {
                        truth.push(step);
                    }
                    let events = state.apply(seat, action).unwrap();
                    if events.iter().any(|e| matches!(e, gin::Event::HandEnded { .. })) {
                        truth.clear();
                    }
                }
            }
        }
    }

    #[test]
    fn the_memory_sees_every_move_of_the_opponent() {
        let mut decisions = 0;
        watch(|memory, state, truth| {
            assert_eq!(memory.moves, truth, "{:?}", state.public_view());
            decisions += 1;
        });
        assert!(decisions > 1000, "{decisions}");
    }

    #[test]
    fn the_true_hand_walks_back_to_a_deal_of_ten_cards() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let model = Model::new(&GinInference::default(), 10, false);
        let mut walks = 0;
        watch(|memory, state, _| {
            let held = state.public_view().known_cards[1];
            let (weight, dealt) = memory.weigh(&model, state.hand(Seat(1)), held, &mut rng);
            assert!(weight > 0.0 && weight <= 1.0, "{weight}");
            // Walked back to the deal (the bot saw the whole hand), the opponent holds ten.
            assert_eq!(dealt.len(), 10, "{dealt}");
            walks += 1;
        });
        assert!(walks > 1000, "{walks}");
    }

    #[test]
    fn the_deadwood_left_by_each_discard_is_the_solvers() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut pack: Vec<Card> = Card::pack().collect();
        for _ in 0..2_000 {
            pack.shuffle(&mut rng);
            let hand: CardSet = pack[..11].iter().copied().collect();
            let mut left = [0; 11];
            assert_eq!(deadwood_left(hand, hand, &mut left), Some(11));
            for (card, &d) in hand.iter().zip(&left) {
                let direct = solver::deadwood(hand - CardSet::single(card)).unwrap();
                assert_eq!(d, usize::from(direct), "{hand} less {card}");
            }
        }
    }
}
