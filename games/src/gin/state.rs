//! [`State`]: a match of Gin Rummy, hand after hand until the target (GR-13) or the hand
//! limit (GR-17): the transitions. Setup checking is in `setup.rs`, move generation in
//! `legal.rs`.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::action::Action;
use super::cardset::CardSet;
use super::error::{IllegalAction, SetupError};
use super::options::{BOX_BONUS, FirstUpcard, GAME_BONUS, Options};
use super::record::{Record, RecordedAction, Start};
use super::solver::{self, Arrangement};
use super::view::{
    Event, GoOut, HandEnd, HandResult, Observation, Outcome, Phase, PileCard, PublicView, Showdown,
};
use crate::card::{Card, Rank, Suit};
use crate::seat::{Seat, Standing};

/// Cards dealt to each player (GR-4).
pub const HAND_SIZE: usize = 10;
/// The hand is a draw when a discard leaves this many cards in the stock (GR-10).
pub const WALL: usize = 2;

/// A match in play: private fields, only reached through legal actions. Cloning is cheap enough
/// for search (a few small vectors).
#[derive(Clone, Debug)]
pub struct State {
    pub(super) options: Options,
    pub(super) start: Start,
    /// True for a state sampled from an observation, whose hidden cards are invented: its
    /// record does not replay ([`crate::Game::record`] gives none).
    pub(super) sampled: bool,
    pub(super) actions: Vec<RecordedAction>,
    pub(super) rng: ChaCha8Rng,
    pub(super) scores: [u32; 2],
    pub(super) hands_won: [u32; 2],
    pub(super) hand_number: u32,
    pub(super) dealer: Seat,
    pub(super) hands: [CardSet; 2],
    /// Top card last.
    pub(super) stock: Vec<Card>,
    /// Bottom card first.
    pub(super) pile: Vec<PileCard>,
    pub(super) known: [CardSet; 2],
    pub(super) drawn: Option<Card>,
    pub(super) upcard_draws: u32,
    pub(super) knock_limit: u8,
    pub(super) multiplier: u32,
    pub(super) phase: Phase,
    pub(super) results: Vec<HandResult>,
    pub(super) outcome: Option<Outcome>,
}

const fn other(seat: Seat) -> Seat {
    Seat(1 - (seat.0 & 1))
}

impl State {
    /// A new match: the first dealer drawn at random and every hand shuffled, all from `seed`
    /// with ChaCha8 (GR-4).
    pub fn new(options: Options, seed: u64) -> Result<State, SetupError> {
        options.validate()?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let dealer = Seat(rng.random_range(0..2u8));
        let mut state = State::empty(options, Start::Seed(seed), rng, dealer);
        state.deal(&mut Vec::new());
        Ok(state)
    }

    pub(super) fn empty(options: Options, start: Start, rng: ChaCha8Rng, dealer: Seat) -> State {
        State {
            options,
            start,
            sampled: false,
            actions: Vec::new(),
            rng,
            scores: [0; 2],
            hands_won: [0; 2],
            hand_number: 0,
            dealer,
            hands: [CardSet::EMPTY; 2],
            stock: Vec::new(),
            pile: Vec::new(),
            known: [CardSet::EMPTY; 2],
            drawn: None,
            upcard_draws: 0,
            knock_limit: options.knock_limit,
            multiplier: 1,
            phase: Phase::MatchOver,
            results: Vec::new(),
            outcome: None,
        }
    }

    /// Shuffles and deals the next hand (GR-4): ten cards each, one at a time, the non-dealer
    /// first, then the upcard; the rest is the stock.
    fn deal(&mut self, events: &mut Vec<Event>) {
        let mut pack: Vec<Card> = Card::pack().collect();
        pack.shuffle(&mut self.rng);
        let mut hands = [CardSet::EMPTY; 2];
        let first = other(self.dealer);
        for (i, &card) in pack[..2 * HAND_SIZE].iter().enumerate() {
            let seat = if i % 2 == 0 { first } else { self.dealer };
            hands[seat.index()].insert(card);
        }
        let upcard = pack[2 * HAND_SIZE];
        // The stock's top card is the one after the upcard; it is kept last.
        let stock: Vec<Card> = pack[2 * HAND_SIZE + 1..].iter().rev().copied().collect();
        // A setup may number its hand anything: the count stops at the top rather than overflow.
        self.hand_number = self.hand_number.saturating_add(1);
        self.begin_hand(hands, &[upcard], stock, events);
    }

    pub(super) fn begin_hand(
        &mut self,
        hands: [CardSet; 2],
        pile: &[Card],
        stock: Vec<Card>,
        events: &mut Vec<Event>,
    ) {
        self.hands = hands;
        self.pile = pile.iter().map(|&card| PileCard { card, by: None }).collect();
        self.stock = stock;
        self.known = [CardSet::EMPTY; 2];
        self.drawn = None;
        self.upcard_draws = 0;
        // begin_hand is only called with a non-empty pile (checked by from_setup, or a deal).
        let upcard = pile.last().copied().unwrap_or(Card::new(Rank::King, Suit::Clubs));
        self.knock_limit = if self.options.oklahoma {
            match upcard.rank() {
                Rank::Ace => 0,
                rank => solver_value(rank),
            }
        } else {
            self.options.knock_limit
        };
        self.multiplier = if self.options.oklahoma
            && self.options.oklahoma_spades_double
            && upcard.suit() == Suit::Spades
        {
            2
        } else {
            1
        };
        self.phase = Phase::FirstUpcard { seat: other(self.dealer) };
        events.push(Event::HandDealt {
            hand_number: self.hand_number,
            dealer: self.dealer,
            upcard,
            knock_limit: self.knock_limit,
            multiplier: self.multiplier,
        });
    }

    /// The rule set.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The phase of the current hand.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Who is to act; `None` once the match is over.
    pub fn to_act(&self) -> Option<Seat> {
        self.phase.to_act()
    }

    /// Whether the match is over (GR-13, GR-17).
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The outcome, once the match is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Totals so far (points scored in hands; bonuses are added in the outcome).
    pub fn scores(&self) -> [u32; 2] {
        self.scores
    }

    /// A seat's hand. Private information (GR-16): for the engine's users, not for other seats.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands.get(seat.index()).copied().unwrap_or_default()
    }

    /// The stock, top card first. Private information (GR-16).
    pub fn stock(&self) -> Vec<Card> {
        self.stock.iter().rev().copied().collect()
    }

    /// The discard pile, bottom first (public, GR-15).
    pub fn discard_pile(&self) -> &[PileCard] {
        &self.pile
    }

    /// Who dealt the current hand.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The current hand's number, from 1.
    pub fn hand_number(&self) -> u32 {
        self.hand_number
    }

    /// The current hand's knock limit (GR-7, GR-14).
    pub fn knock_limit(&self) -> u8 {
        self.knock_limit
    }

    /// Times the upcard was taken in the current hand (GR-11).
    pub fn upcard_draws(&self) -> u32 {
        self.upcard_draws
    }

    /// Hands won so far by each seat.
    pub fn hands_won(&self) -> [u32; 2] {
        self.hands_won
    }

    /// Cards in the stock (public, GR-15).
    pub fn stock_len(&self) -> usize {
        self.stock.len()
    }

    /// The finished hands' results.
    pub fn results(&self) -> &[HandResult] {
        &self.results
    }

    /// Every action so far, in order.
    pub fn actions(&self) -> &[RecordedAction] {
        &self.actions
    }

    /// True for a state sampled from an observation ([`State::sample_from_observation`]).
    pub fn is_sampled(&self) -> bool {
        self.sampled
    }

    /// The record of this match so far; it replays exactly unless the state was sampled from
    /// an observation ([`State::is_sampled`]). Once the match is over its `termination` is
    /// [`State::end_reason`].
    pub fn record(&self) -> Record {
        Record {
            options: self.options,
            players: 2,
            start: self.start.clone(),
            actions: self.actions.clone(),
            termination: self.end_reason(),
            comments: Vec::new(),
        }
    }

    /// Plays `action` for `seat`. Returns the public events, or why the action is illegal (and
    /// then the state is unchanged). When a hand ends the next one is dealt in the same call.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        crate::game::collect_events(|events| self.apply_into(seat, action, events))
    }

    /// [`State::apply`], the events appended to `events` (one list kept across many actions
    /// allocates none an action). On an illegal action nothing changes, `events` included.
    pub fn apply_into(
        &mut self,
        seat: Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalAction> {
        let to_act = self.phase.to_act().ok_or(IllegalAction::MatchOver)?;
        if seat.0 > 1 {
            return Err(IllegalAction::NoSuchSeat { seat });
        }
        if seat != to_act {
            return Err(IllegalAction::NotYourTurn { seat, to_act });
        }
        let before = events.len();
        let applied = match self.phase {
            Phase::FirstUpcard { .. } => self.first_upcard(seat, action, events),
            Phase::Draw { stock_only, .. } => self.draw(seat, action, stock_only, events),
            Phase::Wall { .. } => self.wall(seat, action, events),
            Phase::Discard { taken, must_go_out, .. } => {
                self.discard(seat, action, taken, must_go_out, events)
            }
            Phase::MatchOver => Err(IllegalAction::MatchOver),
        };
        if let Err(illegal) = applied {
            // The phases refuse before they change the state; the caller's list is left as it was.
            events.truncate(before);
            return Err(illegal);
        }
        self.actions.push(RecordedAction { seat, action });
        Ok(())
    }

    fn top(&self) -> Card {
        // The pile is never empty while a seat draws: it starts with the upcard and every turn
        // that takes a card puts one back.
        self.pile.last().map_or(Card::new(Rank::King, Suit::Clubs), |top| top.card)
    }

    fn take_top(&mut self, seat: Seat, must_go_out: bool) -> Card {
        let card = self.top();
        self.pile.pop();
        self.hands[seat.index()].insert(card);
        self.known[seat.index()].insert(card);
        self.upcard_draws += 1;
        self.drawn = None;
        self.phase = Phase::Discard { seat, taken: Some(card), must_go_out };
        card
    }

    fn first_upcard(
        &mut self,
        seat: Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalAction> {
        match action {
            Action::TakeUpcard => {
                let card = self.take_top(seat, false);
                events.push(Event::UpcardTaken { seat, card });
            }
            Action::PassUpcard => {
                events.push(Event::UpcardPassed { seat });
                let non_dealer = other(self.dealer);
                self.phase = match self.options.first_upcard {
                    FirstUpcard::Standard if seat == non_dealer => {
                        Phase::FirstUpcard { seat: self.dealer }
                    }
                    FirstUpcard::Standard => Phase::Draw { seat: non_dealer, stock_only: true },
                    FirstUpcard::Seed => Phase::Draw { seat: self.dealer, stock_only: false },
                };
            }
            _ => return Err(IllegalAction::UpcardOnOffer { action }),
        }
        Ok(())
    }

    fn draw(
        &mut self,
        seat: Seat,
        action: Action,
        stock_only: bool,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalAction> {
        match action {
            Action::DrawStock => {
                // The stock holds more than WALL cards whenever a seat draws (GR-10).
                let Some(card) = self.stock.pop() else {
                    return Err(IllegalAction::WallStockClosed);
                };
                self.hands[seat.index()].insert(card);
                self.drawn = Some(card);
                self.phase = Phase::Discard { seat, taken: None, must_go_out: false };
                events.push(Event::DrewStock { seat });
            }
            Action::DrawDiscard if stock_only => return Err(IllegalAction::StockOnly),
            Action::DrawDiscard => {
                let card = self.take_top(seat, false);
                events.push(Event::DrewDiscard { seat, card });
            }
            Action::TakeUpcard | Action::PassUpcard => return Err(IllegalAction::NoUpcardOffer),
            Action::Discard(_) | Action::Knock { .. } | Action::Gin { .. } | Action::BigGin => {
                return Err(IllegalAction::MustDraw);
            }
        }
        Ok(())
    }

    fn wall(
        &mut self,
        seat: Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalAction> {
        match action {
            Action::PassUpcard => {
                events.push(Event::UpcardPassed { seat });
                self.end_in_draw(HandEnd::Wall, events);
            }
            Action::DrawDiscard => {
                let upcard = self.top();
                let hand = self.hands[seat.index()] | CardSet::single(upcard);
                if !self.can_go_out(hand, self.allowed_discards(hand, Some(upcard))) {
                    return Err(IllegalAction::WallCannotGoOut { upcard });
                }
                let card = self.take_top(seat, true);
                events.push(Event::DrewDiscard { seat, card });
            }
            Action::DrawStock => return Err(IllegalAction::WallStockClosed),
            Action::TakeUpcard => return Err(IllegalAction::NoUpcardOffer),
            Action::Discard(_) | Action::Knock { .. } | Action::Gin { .. } | Action::BigGin => {
                return Err(IllegalAction::MustDraw);
            }
        }
        Ok(())
    }

    fn check_discard(
        &self,
        hand: CardSet,
        card: Card,
        taken: Option<Card>,
    ) -> Result<(), IllegalAction> {
        if !hand.contains(card) {
            return Err(IllegalAction::NotInHand { card });
        }
        if taken == Some(card) && !self.options.discard_taken_upcard {
            return Err(IllegalAction::DiscardTakenCard { card });
        }
        Ok(())
    }

    fn discard(
        &mut self,
        seat: Seat,
        action: Action,
        taken: Option<Card>,
        must_go_out: bool,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalAction> {
        let hand = self.hands[seat.index()];
        match action {
            Action::Discard(_) if must_go_out => Err(IllegalAction::WallMustGoOut),
            Action::Discard(card) => {
                self.check_discard(hand, card, taken)?;
                self.hands[seat.index()].remove(card);
                self.known[seat.index()].remove(card);
                self.pile.push(PileCard { card, by: Some(seat) });
                self.drawn = None;
                events.push(Event::Discarded { seat, card });
                if self.stock.len() <= WALL {
                    if self.options.wall_knock {
                        self.phase = Phase::Wall { seat: other(seat) };
                    } else {
                        self.end_in_draw(HandEnd::Wall, events);
                    }
                } else if self.upcard_draws >= self.options.max_upcard_draws {
                    self.end_in_draw(HandEnd::UpcardLimit, events);
                } else {
                    self.phase = Phase::Draw { seat: other(seat), stock_only: false };
                }
                Ok(())
            }
            Action::Knock { discard, melds } => {
                self.check_discard(hand, discard, taken)?;
                let rest = hand - CardSet::single(discard);
                let missing = melds.cards() - rest;
                if !missing.is_empty() {
                    return Err(IllegalAction::MeldsNotInHand { cards: missing, discard });
                }
                let deadwood = (rest - melds.cards()).value();
                if deadwood == 0 {
                    return Err(IllegalAction::KnockIsGin);
                }
                if deadwood > u32::from(self.knock_limit) {
                    return Err(IllegalAction::DeadwoodTooHigh {
                        deadwood: deadwood as u8,
                        limit: self.knock_limit,
                    });
                }
                self.showdown(seat, GoOut::Knock, Some(discard), rest, melds, events);
                Ok(())
            }
            Action::Gin { discard } => {
                self.check_discard(hand, discard, taken)?;
                let rest = hand - CardSet::single(discard);
                let melds = gin_melds(rest)
                    .ok_or(IllegalAction::NotGin { discard, deadwood: deadwood_of(rest) })?;
                self.showdown(seat, GoOut::Gin, Some(discard), rest, melds, events);
                Ok(())
            }
            Action::BigGin => {
                if !self.options.big_gin {
                    return Err(IllegalAction::BigGinOff);
                }
                let melds = gin_melds(hand)
                    .ok_or(IllegalAction::NotBigGin { deadwood: deadwood_of(hand) })?;
                self.showdown(seat, GoOut::BigGin, None, hand, melds, events);
                Ok(())
            }
            Action::TakeUpcard | Action::PassUpcard | Action::DrawStock | Action::DrawDiscard => {
                Err(IllegalAction::AlreadyDrew)
            }
        }
    }

    /// Lays both hands open and scores them (GR-9, GR-12), then goes on to the next hand.
    fn showdown(
        &mut self,
        knocker: Seat,
        kind: GoOut,
        discard: Option<Card>,
        laid: CardSet,
        melds: Arrangement,
        events: &mut Vec<Event>,
    ) {
        let defender = other(knocker);
        let targets = if kind == GoOut::Knock { melds } else { Arrangement::EMPTY };
        let layout = solver::layout(&targets, self.hands[defender.index()]);
        let deadwood_cards = laid - melds.cards();
        let k = deadwood_cards.value();
        let d = u32::from(layout.deadwood);
        let options = &self.options;
        let (winner, undercut, base) = match kind {
            GoOut::Gin => (Some(knocker), false, d + options.gin_bonus),
            GoOut::BigGin => (Some(knocker), false, d + options.big_gin_bonus),
            GoOut::Knock if k < d => (Some(knocker), false, d - k),
            GoOut::Knock if d < k || options.tie_is_undercut => {
                (Some(defender), true, k - d + options.undercut_bonus)
            }
            GoOut::Knock => (None, false, 0),
        };
        let points = base.saturating_mul(self.multiplier);
        if let Some(winner) = winner {
            let i = winner.index();
            self.scores[i] = self.scores[i].saturating_add(points);
            self.hands_won[i] = self.hands_won[i].saturating_add(1);
        }
        self.hands[knocker.index()] = laid;
        events.push(Event::WentOut {
            seat: knocker,
            kind,
            melds,
            deadwood_cards,
            deadwood: k as u8,
        });
        events.push(Event::LaidOut { seat: defender, layout });
        let showdown = Showdown {
            knocker,
            kind,
            discard,
            melds,
            deadwood_cards,
            deadwood: k as u8,
            defender,
            layout,
        };
        self.finish_hand(HandEnd::Showdown(showdown), winner, undercut, points, events);
    }

    fn end_in_draw(&mut self, end: HandEnd, events: &mut Vec<Event>) {
        self.finish_hand(end, None, false, 0, events);
    }

    fn finish_hand(
        &mut self,
        end: HandEnd,
        winner: Option<Seat>,
        undercut: bool,
        points: u32,
        events: &mut Vec<Event>,
    ) {
        let result = HandResult {
            hand_number: self.hand_number,
            dealer: self.dealer,
            end,
            winner,
            undercut,
            points,
            scores: self.scores,
        };
        self.results.push(result);
        events.push(Event::HandEnded { result });
        // GR-13: a total at the target ends the match; GR-17: so does the last hand.
        let outcome = match self.reached_target() {
            Some(reached) => Some(self.final_outcome(reached)),
            None if self.hand_number >= self.options.max_hands => Some(self.drawn_outcome()),
            None => None,
        };
        if let Some(outcome) = outcome {
            events.push(Event::MatchOver { outcome: outcome.clone() });
            self.outcome = Some(outcome);
            self.phase = Phase::MatchOver;
            return;
        }
        // GR-4: the deal alternates; GR-10: after a draw the same dealer deals again.
        if matches!(end, HandEnd::Showdown(_)) {
            self.dealer = other(self.dealer);
        }
        self.deal(events);
    }

    /// The seat whose total reached the target (GR-13), if one did. Only one can: a hand scores
    /// for one seat, and a setup's totals are below the target.
    fn reached_target(&self) -> Option<Seat> {
        (0..2u8).map(Seat).find(|seat| self.scores[seat.index()] >= self.options.target)
    }

    /// The match drawn at the hand limit (GR-17): both seats first, the totals the hand points
    /// alone (the classic bonuses are for the seat that reaches the target, GR-13).
    fn drawn_outcome(&self) -> Outcome {
        Outcome {
            totals: self.scores,
            points: self.scores,
            hands_won: self.hands_won,
            winner: None,
            standings: vec![
                Standing { place: 1, seat: Seat(0) },
                Standing { place: 1, seat: Seat(1) },
            ],
        }
    }

    /// Why the match ended, citing the rule, once it is over: a seat reached the target
    /// (GR-13), or the last hand allowed was played (GR-17).
    pub fn end_reason(&self) -> Option<String> {
        self.outcome.as_ref()?;
        let target = self.options.target;
        Some(match self.reached_target() {
            Some(seat) => format!("GR-13: {seat} reached the target of {target} points"),
            None => {
                let hands = self.hand_number;
                let plural = if hands == 1 { "" } else { "s" };
                format!(
                    "GR-17: drawn after {hands} hand{plural}, neither seat reached the target of \
                     {target} points"
                )
            }
        })
    }

    /// Totals with the classic bonuses (GR-13): box bonuses for each seat, the game bonus and
    /// the shutout doubling for the seat that reached the target.
    fn final_outcome(&self, reached: Seat) -> Outcome {
        let mut totals = self.scores;
        if self.options.box_bonus {
            for (total, won) in totals.iter_mut().zip(self.hands_won) {
                *total = total.saturating_add(won.saturating_mul(BOX_BONUS));
            }
        }
        let r = reached.index();
        if self.options.game_bonus {
            totals[r] = totals[r].saturating_add(GAME_BONUS);
        }
        if self.options.shutout_double && self.scores[other(reached).index()] == 0 {
            totals[r] = totals[r].saturating_mul(2);
        }
        let winner = match totals[0].cmp(&totals[1]) {
            std::cmp::Ordering::Greater => Some(Seat(0)),
            std::cmp::Ordering::Less => Some(Seat(1)),
            std::cmp::Ordering::Equal => None,
        };
        let standings = match winner {
            Some(w) => {
                vec![Standing { place: 1, seat: w }, Standing { place: 2, seat: other(w) }]
            }
            None => {
                vec![Standing { place: 1, seat: Seat(0) }, Standing { place: 1, seat: Seat(1) }]
            }
        };
        Outcome { totals, points: self.scores, hands_won: self.hands_won, winner, standings }
    }

    /// What every seat and spectator may see (GR-15).
    pub fn public_view(&self) -> PublicView {
        self.public_view_with(self.pile.clone())
    }

    /// The public view around `discard_pile`, a copy of the pile.
    fn public_view_with(&self, discard_pile: Vec<PileCard>) -> PublicView {
        PublicView {
            options: self.options,
            hand_number: self.hand_number,
            dealer: self.dealer,
            phase: self.phase,
            to_act: self.to_act(),
            scores: self.scores,
            hands_won: self.hands_won,
            knock_limit: self.knock_limit,
            multiplier: self.multiplier,
            stock_size: self.stock.len(),
            discard_pile,
            hand_sizes: [self.hands[0].len(), self.hands[1].len()],
            known_cards: self.known,
            upcard_draws: self.upcard_draws,
            last_result: self.results.last().copied(),
            outcome: self.outcome.clone(),
        }
    }

    /// What `seat` may see (GR-15, GR-16): the public view, its own hand, the card it just drew
    /// from the stock, and its legal actions when it is to act. A seat past 1 sees the public
    /// view only.
    pub fn observation(&self, seat: Seat) -> Observation {
        let mut legal_actions = Vec::new();
        let (hand, drawn) = self.own_view(seat, &mut legal_actions);
        Observation { seat, hand, drawn, legal_actions, public: self.public_view() }
    }

    /// [`State::observation`] written over `observation`: its legal actions and its discard
    /// pile keep their allocations, so a caller that observes every decision (a server's
    /// match) allocates nothing for it.
    pub fn observation_into(&self, seat: Seat, observation: &mut Observation) {
        // Taken apart whole, so that a field added to it cannot be left out here.
        let Observation { seat: observed, hand, drawn, legal_actions, public } = observation;
        *observed = seat;
        (*hand, *drawn) = self.own_view(seat, legal_actions);
        let mut pile = std::mem::take(&mut public.discard_pile);
        pile.clone_from(&self.pile);
        *public = self.public_view_with(pile);
    }

    /// What `seat` sees of its own: its hand and the card it just drew from the stock; and its
    /// legal actions in place of what `legal_actions` held (none unless it is to act).
    fn own_view(&self, seat: Seat, legal_actions: &mut Vec<Action>) -> (CardSet, Option<Card>) {
        if self.to_act() == Some(seat) {
            self.legal_actions_into(legal_actions);
        } else {
            legal_actions.clear();
        }
        let drawn = match self.phase {
            Phase::Discard { seat: s, .. } if s == seat => self.drawn,
            _ => None,
        };
        (self.hand(seat), drawn)
    }
}

/// GR-1's value of a rank other than the ace (2–10 face value, J/Q/K 10).
fn solver_value(rank: Rank) -> u8 {
    match rank {
        Rank::Ace => 1,
        Rank::Ten | Rank::Jack | Rank::Queen | Rank::King => 10,
        other => other as u8,
    }
}

fn deadwood_of(hand: CardSet) -> u8 {
    solver::deadwood(hand).unwrap_or(u8::MAX)
}

/// The first arrangement with no deadwood, if the cards all fit in melds.
fn gin_melds(hand: CardSet) -> Option<Arrangement> {
    if !solver::all_melded(hand) {
        return None;
    }
    solver::arrangements_within(hand, 0).into_iter().next()
}
