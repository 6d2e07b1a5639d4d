//! [`State`]: a match of Hold'em, hand after hand until one seat holds every chip or the last
//! hand is played (HE-17): the transitions. Move generation is in `legal.rs`, setup checking
//! in `setup.rs`.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::action::Action;
use super::error::{IllegalAction, SetupError};
use super::eval::{Hand, HandRank};
use super::options::{Betting as BettingKind, Options, Score};
use super::setup::Setup;
use super::view::{
    AllIn, Award, Blind, Event, HandResult, KnockedOut, Observation, Outcome, PublicView, Round,
    SeatChips, SeatStatus, Street,
};
use crate::card::{Card, Rank, Suit};
use crate::record::{RecordedAction, Start};
use crate::seat::{Seat, Standing};

/// The most seats at a table (HE-1).
pub const MAX_SEATS: u8 = 10;
/// Hole cards a seat holds (HE-6).
pub const HOLE_CARDS: usize = 2;
/// Board cards a hand deals (HE-6).
pub const BOARD_CARDS: usize = 5;
/// The run-outs HE-21 samples when the whole board is to come (every run-out is counted with
/// one or two cards to come): its equity is then within about 1% of the pot.
pub const SAMPLED_RUNOUTS: u32 = 2_000;
/// What fills a card slot no rule reads: a seat out of the match's hole cards.
pub(super) const NO_CARD: Card = Card::new(Rank::Two, Suit::Clubs);

/// A match in play: private fields, only reached through legal actions. Cloning is cheap
/// enough for search (a few vectors of at most ten entries).
#[derive(Clone, Debug)]
pub struct State {
    pub(super) options: Options,
    pub(super) start: Start<Setup>,
    /// True for a state sampled from an observation, whose hidden cards are invented.
    pub(super) sampled: bool,
    pub(super) actions: Vec<RecordedAction<Action>>,
    pub(super) rng: ChaCha8Rng,
    pub(super) hand_number: u32,
    pub(super) button: Seat,
    /// Each seat's hole cards this hand (meaningless for a seat out of the match).
    pub(super) holes: Vec<[Card; HOLE_CARDS]>,
    /// This hand's five board cards, of which `board_len` are turned.
    pub(super) board: [Card; BOARD_CARDS],
    pub(super) board_len: usize,
    pub(super) betting: Round,
    pub(super) knocked_out: Vec<Option<KnockedOut>>,
    /// Each seat's chips when this hand began, before the forced bets.
    pub(super) hand_stacks: Vec<u32>,
    pub(super) last_hand: Option<HandResult>,
    /// This hand's equity at its all-in, once the betting ended before the river (HE-21);
    /// boxed, for a state is copied by every search playout and is mostly without one.
    pub(super) all_in: Option<Box<AllIn>>,
    /// Each seat's luck summed over the match's all-ins (HE-21) with `Score::AllInAdjusted`;
    /// empty when the table ranks by chips, so that nothing is allocated or added for it.
    pub(super) luck: Vec<f64>,
    pub(super) outcome: Option<Outcome>,
    /// The events of the match's first deal (HE-4, HE-5), for [`crate::Game::opening_events`].
    pub(super) opening: Vec<Event>,
}

impl State {
    /// A new match of `players` seats: the first button drawn at random and every hand
    /// shuffled, all from `seed` with ChaCha8 (HE-4, HE-6).
    pub fn new(options: Options, players: u8, seed: u64) -> Result<State, SetupError> {
        options.validate()?;
        if !(2..=MAX_SEATS).contains(&players) {
            return Err(SetupError::Players(players.into()));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let button = Seat(rng.random_range(0..players));
        let stacks = vec![options.stack; players.into()];
        let mut state = State::empty(options, Start::Seed(seed), rng, button, stacks);
        let mut opening = Vec::new();
        state.deal(&mut opening);
        state.opening = opening;
        Ok(state)
    }

    /// A match between hands: no cards, every seat with its stack, nobody to act.
    pub(super) fn empty(
        options: Options,
        start: Start<Setup>,
        rng: ChaCha8Rng,
        button: Seat,
        stacks: Vec<u32>,
    ) -> State {
        let players = stacks.len();
        State {
            options,
            start,
            sampled: false,
            actions: Vec::new(),
            rng,
            hand_number: 0,
            button,
            holes: vec![[NO_CARD; HOLE_CARDS]; players],
            board: [NO_CARD; BOARD_CARDS],
            board_len: 0,
            betting: Round {
                street: Street::Preflop,
                seats: stacks
                    .iter()
                    .map(|&stack| SeatChips {
                        stack,
                        bet: 0,
                        committed: 0,
                        status: if stack > 0 { SeatStatus::Active } else { SeatStatus::Out },
                        acted_at: None,
                    })
                    .collect(),
                bet: 0,
                raise_by: options.big_blind,
                raises: 0,
                to_act: None,
            },
            knocked_out: vec![None; players],
            hand_stacks: stacks,
            last_hand: None,
            all_in: None,
            luck: match options.score {
                Score::AllInAdjusted => vec![0.0; players],
                Score::Chips => Vec::new(),
            },
            outcome: None,
            opening: Vec::new(),
        }
    }

    /// Seats at the table.
    pub fn players(&self) -> u8 {
        self.betting.seats.len() as u8
    }

    /// The rule set.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The seats from the one left of `seat` round to `seat` itself, clockwise.
    fn round_from(&self, seat: Seat) -> impl Iterator<Item = Seat> + use<> {
        let players = self.betting.seats.len();
        (1..=players).map(move |step| Seat(((seat.index() + step) % players) as u8))
    }

    /// Shuffles and deals the next hand (HE-6): two hole cards to each seat with chips, one at
    /// a time from the seat left of the button; the next five cards are the board to come.
    fn deal(&mut self, events: &mut Vec<Event>) {
        let mut pack: Vec<Card> = Card::pack().collect();
        pack.shuffle(&mut self.rng);
        let live: Vec<Seat> = self.round_from(self.button).filter(|s| self.stack(*s) > 0).collect();
        let mut holes = self.holes.clone();
        let mut cards = pack.iter().copied();
        for round in 0..HOLE_CARDS {
            for seat in &live {
                if let Some(slot) = holes[seat.index()].get_mut(round) {
                    *slot = cards.next().unwrap_or(NO_CARD);
                }
            }
        }
        let mut board = self.board;
        for slot in &mut board {
            *slot = cards.next().unwrap_or(NO_CARD);
        }
        // A setup may number its hand anything: the count stops at the top rather than overflow.
        self.hand_number = self.hand_number.saturating_add(1);
        self.begin_hand(holes, board, events);
    }

    fn stack(&self, seat: Seat) -> u32 {
        self.betting.seats[seat.index()].stack
    }

    /// Starts a hand with these cards: the forced bets (HE-5), then the first seat to act
    /// (HE-7).
    pub(super) fn begin_hand(
        &mut self,
        holes: Vec<[Card; HOLE_CARDS]>,
        board: [Card; BOARD_CARDS],
        events: &mut Vec<Event>,
    ) {
        self.holes = holes;
        self.board = board;
        self.board_len = 0;
        self.all_in = None;
        self.hand_stacks = self.betting.seats.iter().map(|s| s.stack).collect();
        for chips in &mut self.betting.seats {
            *chips = SeatChips {
                stack: chips.stack,
                bet: 0,
                committed: 0,
                status: if chips.stack > 0 { SeatStatus::Active } else { SeatStatus::Out },
                acted_at: None,
            };
        }
        events.push(Event::HandStarted {
            hand_number: self.hand_number,
            button: self.button,
            stacks: self.hand_stacks.clone(),
        });
        let live: Vec<Seat> = self.round_from(self.button).filter(|s| self.stack(*s) > 0).collect();
        if self.options.ante > 0 {
            for &seat in &live {
                self.post(seat, Blind::Ante, self.options.ante, events);
            }
        }
        // Heads-up the button posts the small blind (HE-5): `live` starts left of the button
        // and ends with it.
        let (small, big) = match live.as_slice() {
            [other, button] => (*button, *other),
            [small, big, ..] => (*small, *big),
            // Fewer than two seats with chips never begin a hand.
            _ => (self.button, self.button),
        };
        self.post(small, Blind::Small, self.options.small_blind, events);
        self.post(big, Blind::Big, self.options.big_blind, events);
        self.betting.street = Street::Preflop;
        self.betting.bet = self.options.big_blind;
        self.betting.raise_by = self.options.big_blind;
        self.betting.raises = 1;
        self.betting.to_act = None;
        self.advance(big, events);
    }

    /// A forced bet of `amount`, or all the seat has (HE-5).
    fn post(&mut self, seat: Seat, blind: Blind, amount: u32, events: &mut Vec<Event>) {
        let chips = &mut self.betting.seats[seat.index()];
        let amount = amount.min(chips.stack);
        if amount == 0 {
            return;
        }
        chips.stack -= amount;
        chips.committed += amount;
        if blind != Blind::Ante {
            chips.bet += amount;
        }
        let all_in = chips.stack == 0;
        if all_in {
            chips.status = SeatStatus::AllIn;
        }
        events.push(Event::Posted { seat, blind, amount, all_in });
    }

    /// The seat to act, `None` once the match is over.
    pub fn to_act(&self) -> Option<Seat> {
        self.betting.to_act
    }

    /// The legal actions of the seat to act, sorted; empty once the match is over.
    pub fn legal_actions(&self) -> Vec<Action> {
        self.betting
            .to_act
            .map_or_else(Vec::new, |seat| self.betting.legal_actions(&self.options, seat))
    }

    /// Applies `seat`'s action and returns the events it caused; on error nothing changes.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        crate::game::collect_events(|events| self.apply_into(seat, action, events))
    }

    /// [`State::apply`], the events appended to `events`.
    pub fn apply_into(
        &mut self,
        seat: Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalAction> {
        if self.outcome.is_some() {
            return Err(IllegalAction::MatchOver);
        }
        if seat.0 >= self.players() {
            return Err(IllegalAction::NoSuchSeat { seat, players: self.players() });
        }
        match self.betting.to_act {
            Some(to_act) if to_act != seat => {
                return Err(IllegalAction::NotYourTurn { seat, to_act });
            }
            Some(_) => {}
            None => return Err(IllegalAction::MatchOver),
        }
        self.betting.check(&self.options, seat, action)?;
        self.actions.push(RecordedAction { seat, action });
        let betting = &mut self.betting;
        let bet = betting.bet;
        let chips = &mut betting.seats[seat.index()];
        let amount = match action {
            Action::Fold => {
                chips.status = SeatStatus::Folded;
                0
            }
            Action::Check => 0,
            Action::Call => (bet - chips.bet).min(chips.stack),
            Action::RaiseTo(to) => to - chips.bet,
        };
        chips.stack -= amount;
        chips.bet += amount;
        chips.committed += amount;
        if let Action::RaiseTo(to) = action {
            let increment = to - bet;
            if self.options.betting == BettingKind::NoLimit && increment >= betting.raise_by {
                betting.raise_by = increment;
            }
            betting.bet = to;
            betting.raises = betting.raises.saturating_add(1);
        }
        let chips = &mut betting.seats[seat.index()];
        chips.acted_at = Some(betting.bet);
        let all_in = chips.stack == 0 && chips.status == SeatStatus::Active;
        if all_in {
            chips.status = SeatStatus::AllIn;
        }
        events.push(Event::Acted { seat, action, amount, all_in });
        self.advance(seat, events);
        Ok(())
    }

    /// The next seat clockwise from `from` that must act on this round: one still in with
    /// chips that has not acted, or has less in than the bet (HE-13).
    fn next_to_act(&self, from: Seat) -> Option<Seat> {
        self.round_from(from).find(|seat| {
            let chips = &self.betting.seats[seat.index()];
            chips.status == SeatStatus::Active
                && (chips.acted_at.is_none() || chips.bet < self.betting.bet)
        })
    }

    /// After an action (or the forced bets) by `from`: the next seat to act, or the end of the
    /// round, the next round's cards, and the end of the hand (HE-13).
    fn advance(&mut self, mut from: Seat, events: &mut Vec<Event>) {
        loop {
            // The one seat still in, if only one is (no list: this runs after every action).
            let mut in_hand =
                self.betting.seats.iter().enumerate().filter(|(_, s)| s.status.in_hand());
            if let (Some((winner, _)), None) = (in_hand.next(), in_hand.next()) {
                self.betting.to_act = None;
                self.uncontested(Seat(winner as u8), events);
                return;
            }
            if let Some(next) = self.next_to_act(from) {
                self.betting.to_act = Some(next);
                return;
            }
            self.betting.to_act = None;
            let can_bet = self
                .betting
                .seats
                .iter()
                .filter(|chips| chips.status == SeatStatus::Active)
                .count();
            match self.betting.street.next() {
                Some(street) if can_bet >= 2 => {
                    self.open(street, events);
                    from = self.button;
                }
                _ => {
                    let in_hand = self.betting.seats.iter().filter(|s| s.status.in_hand());
                    if self.options.score == Score::AllInAdjusted
                        && self.board_len < BOARD_CARDS
                        && in_hand.count() >= 2
                    {
                        self.all_in = Some(Box::new(self.all_in_equity()));
                    }
                    while let Some(street) = self.betting.street.next() {
                        self.open(street, events);
                    }
                    self.showdown(events);
                    return;
                }
            }
        }
    }

    /// Turns the cards of `street` and opens its betting (HE-6, HE-9).
    fn open(&mut self, street: Street, events: &mut Vec<Event>) {
        let cards = self.board[self.board_len..street.board_cards()].to_vec();
        self.board_len = street.board_cards();
        events.push(Event::BoardDealt { street, cards });
        let betting = &mut self.betting;
        betting.street = street;
        betting.bet = 0;
        betting.raise_by = self.options.big_blind;
        betting.raises = 0;
        for chips in &mut betting.seats {
            chips.bet = 0;
            chips.acted_at = None;
        }
    }

    /// Every other seat folded: `winner` takes every chip put in, and shows nothing (HE-13).
    fn uncontested(&mut self, winner: Seat, events: &mut Vec<Event>) {
        let amount = self.betting.seats.iter().map(|chips| chips.committed).sum();
        let award =
            Award { pot: 0, amount, winners: vec![winner], shares: vec![amount], hand: None };
        events.push(Event::PotWon { award: award.clone() });
        self.finish_hand(vec![Vec::new(); self.betting.seats.len()], vec![award], events);
    }

    /// The showdown (HE-14 to HE-16): every hand still in is shown, and each pot goes to the
    /// best hand among those that put chips into it.
    fn showdown(&mut self, events: &mut Vec<Event>) {
        let board = Hand::of(&self.board);
        let mut shown = vec![Vec::new(); self.betting.seats.len()];
        let mut ranks: Vec<Option<HandRank>> = vec![None; self.betting.seats.len()];
        for seat in self.round_from(self.button) {
            if self.betting.seats[seat.index()].status.in_hand() {
                let cards = self.holes[seat.index()];
                let hand = board.union(Hand::of(&cards)).rank();
                ranks[seat.index()] = Some(hand);
                shown[seat.index()] = cards.to_vec();
                events.push(Event::Showed { seat, cards: cards.to_vec(), hand });
            }
        }
        let order: Vec<Seat> = self.round_from(self.button).collect();
        let awards: Vec<Award> = pots(&self.betting.seats)
            .into_iter()
            .enumerate()
            .map(|(index, (amount, eligible))| {
                let (mut winners, mut shares) = (Vec::new(), Vec::new());
                split_pot(amount, &eligible, &ranks, &order, |seat, share| {
                    winners.push(seat);
                    shares.push(share);
                });
                let contested = eligible.len() > 1;
                let best = eligible.iter().filter_map(|s| ranks[s.index()]).max();
                Award {
                    pot: u8::try_from(index).unwrap_or(u8::MAX),
                    amount,
                    winners,
                    shares,
                    hand: if contested { best } else { None },
                }
            })
            .collect();
        for award in &awards {
            events.push(Event::PotWon { award: award.clone() });
        }
        self.finish_hand(shown, awards, events);
    }

    /// Pays the awards, ends the hand, knocks out the seats left without chips, and deals the
    /// next hand or ends the match (HE-17).
    fn finish_hand(&mut self, shown: Vec<Vec<Card>>, awards: Vec<Award>, events: &mut Vec<Event>) {
        let mut won = vec![0u32; self.betting.seats.len()];
        for award in &awards {
            for (seat, share) in award.winners.iter().zip(&award.shares) {
                won[seat.index()] += share;
            }
        }
        for (chips, won) in self.betting.seats.iter_mut().zip(&won) {
            chips.stack += won;
        }
        let net = self
            .betting
            .seats
            .iter()
            .zip(&won)
            .map(|(chips, &won)| i64::from(won) - i64::from(chips.committed))
            .collect();
        let result = HandResult {
            hand_number: self.hand_number,
            button: self.button,
            board: self.board[..self.board_len].to_vec(),
            shown,
            awards,
            net,
            stacks: self.betting.seats.iter().map(|chips| chips.stack).collect(),
            all_in: self.all_in.take().map(|all_in| *all_in),
        };
        if result.all_in.is_some() {
            for (luck, hand) in self.luck.iter_mut().zip(result.luck()) {
                *luck += hand;
            }
        }
        events.push(Event::HandEnded { result: result.clone() });
        self.last_hand = Some(result);
        for index in 0..self.betting.seats.len() {
            let chips = &self.betting.seats[index];
            if chips.stack == 0 && chips.status != SeatStatus::Out {
                self.knocked_out[index] = Some(KnockedOut {
                    hand_number: self.hand_number,
                    stack: self.hand_stacks[index],
                });
                events.push(Event::KnockedOut { seat: Seat(index as u8) });
            }
        }
        let with_chips = self.betting.seats.iter().filter(|chips| chips.stack > 0).count();
        if with_chips <= 1 || self.hand_number >= self.options.hands {
            self.end_match(events);
            return;
        }
        if let Some(button) = self.round_from(self.button).find(|s| self.stack(*s) > 0) {
            self.button = button;
        }
        self.deal(events);
    }

    fn end_match(&mut self, events: &mut Vec<Event>) {
        let stacks: Vec<u32> = self.betting.seats.iter().map(|chips| chips.stack).collect();
        let net: Vec<i64> =
            stacks.iter().map(|&s| i64::from(s) - i64::from(self.options.stack)).collect();
        let adjusted = self.adjusted(&net);
        // HE-18: by chips, a seat knocked out earlier below, of two in one hand the one that
        // began it with more above; HE-21: by the adjusted chips alone.
        let key = |seat: usize| match self.options.score {
            Score::Chips => {
                let out = self.knocked_out[seat];
                (
                    i64::from(stacks[seat]),
                    out.map_or(u32::MAX, |out| out.hand_number),
                    out.map_or(0, |out| out.stack),
                )
            }
            Score::AllInAdjusted => (adjusted[seat], 0, 0),
        };
        let mut standings: Vec<Standing> = (0..stacks.len())
            .map(|seat| {
                let better = (0..stacks.len()).filter(|&other| key(other) > key(seat)).count();
                Standing { place: (better + 1) as u8, seat: Seat(seat as u8) }
            })
            .collect();
        // Best first, as every game's standings are (`Game::standings`).
        standings.sort_unstable();
        let outcome = Outcome { stacks, net, hands_played: self.hand_number, standings, adjusted };
        events.push(Event::MatchOver { outcome: outcome.clone() });
        self.betting.to_act = None;
        self.outcome = Some(outcome);
    }

    /// Each seat's chips won over the finished hands: its chips when this hand began less the
    /// starting stack.
    pub(super) fn net_before_hand(&self) -> Vec<i64> {
        let start = i64::from(self.options.stack);
        self.hand_stacks.iter().map(|&chips| i64::from(chips) - start).collect()
    }

    /// Each seat's `net` less its luck, to the nearest chip (HE-21); empty when the table
    /// ranks by chips.
    fn adjusted(&self, net: &[i64]) -> Vec<i64> {
        if self.options.score == Score::Chips {
            return Vec::new();
        }
        net.iter().zip(&self.luck).map(|(&net, luck)| (net as f64 - luck).round() as i64).collect()
    }

    /// HE-21: what each seat wins, summed over the run-outs of the board from the cards no
    /// seat was dealt this hand, with the pots as they stand. Every run-out with one or two
    /// cards to come; [`SAMPLED_RUNOUTS`] drawn from the match's ChaCha8 on a stream of the
    /// hand's own, which leaves the deals of later hands as they were, with five.
    fn all_in_equity(&self) -> AllIn {
        let seats = &self.betting.seats;
        let pots = pots(seats);
        let order: Vec<Seat> = self.round_from(self.button).collect();
        let turned = Hand::of(&self.board[..self.board_len]);
        let mut dealt = turned;
        let mut holes = vec![None; seats.len()];
        for (index, chips) in seats.iter().enumerate() {
            if chips.status != SeatStatus::Out {
                let hole = Hand::of(&self.holes[index]);
                dealt = dealt.union(hole);
                holes[index] = chips.status.in_hand().then_some(hole);
            }
        }
        let unseen: Vec<Card> = Card::pack().filter(|&card| dealt.with(card) != dealt).collect();
        let mut won = vec![0u64; seats.len()];
        let mut ranks: Vec<Option<HandRank>> = vec![None; seats.len()];
        let mut runouts = 0u32;
        let mut score = |board: Hand| {
            for (rank, hole) in ranks.iter_mut().zip(&holes) {
                *rank = hole.map(|hole| board.union(hole).rank());
            }
            for (amount, eligible) in &pots {
                split_pot(*amount, eligible, &ranks, &order, |seat, share| {
                    won[seat.index()] += u64::from(share);
                });
            }
            runouts += 1;
        };
        match BOARD_CARDS - self.board_len {
            1 => unseen.iter().for_each(|&card| score(turned.with(card))),
            2 => {
                for (i, &first) in unseen.iter().enumerate() {
                    for &second in &unseen[i + 1..] {
                        score(turned.with(first).with(second));
                    }
                }
            }
            to_come => {
                let mut rng = self.rng.clone();
                rng.set_stream(u64::from(self.hand_number));
                let mut unseen = unseen;
                for _ in 0..SAMPLED_RUNOUTS {
                    let (cards, _) = unseen.partial_shuffle(&mut rng, to_come);
                    score(cards.iter().fold(turned, |board, &card| board.with(card)));
                }
            }
        }
        AllIn { street: self.betting.street, runouts, won }
    }

    /// The outcome, once the match is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Why the match ended, citing HE-17; `None` while it runs.
    pub fn end_reason(&self) -> Option<String> {
        let outcome = self.outcome.as_ref()?;
        let holders: Vec<usize> =
            (0..outcome.stacks.len()).filter(|&seat| outcome.stacks[seat] > 0).collect();
        Some(match holders.as_slice() {
            [seat] => format!("HE-17: seat {seat} holds every chip"),
            _ => format!("HE-17: the last of {} hands was played", outcome.hands_played),
        })
    }

    /// The action played for the seat to act when its time runs out (HE-19): check when it
    /// can, fold otherwise.
    pub fn default_action(&self) -> Option<Action> {
        let seat = self.betting.to_act?;
        Some(if self.betting.to_call(seat) == 0 { Action::Check } else { Action::Fold })
    }

    /// The current hand's number, from 1.
    pub fn hand_number(&self) -> u32 {
        self.hand_number
    }

    /// The board cards turned so far.
    pub fn board(&self) -> &[Card] {
        &self.board[..self.board_len]
    }

    /// `seat`'s hole cards this hand; none for a seat out of the match.
    pub fn hole_cards(&self, seat: Seat) -> &[Card] {
        match self.betting.seats.get(seat.index()) {
            Some(chips) if chips.status != SeatStatus::Out => &self.holes[seat.index()],
            _ => &[],
        }
    }

    /// The betting: each seat's chips, the bet, who is to act.
    pub fn betting(&self) -> &Round {
        &self.betting
    }

    /// Whether this state was sampled from an observation, so its hidden cards are invented
    /// and it has no record.
    pub fn is_sampled(&self) -> bool {
        self.sampled
    }

    /// What spectators see now.
    pub fn public_view(&self) -> PublicView {
        PublicView {
            options: self.options,
            hand_number: self.hand_number,
            button: self.button,
            board: self.board().to_vec(),
            betting: self.betting.clone(),
            knocked_out: self.knocked_out.clone(),
            last_hand: self.last_hand.clone(),
            adjusted: match &self.outcome {
                Some(outcome) => outcome.adjusted.clone(),
                // Every view (every `Turn`) asks: nothing is computed at a table of chips.
                None if self.luck.is_empty() => Vec::new(),
                None => self.adjusted(&self.net_before_hand()),
            },
            outcome: self.outcome.clone(),
        }
    }

    /// What `seat` may see now: the public view, its hole cards and, on its turn, its legal
    /// actions.
    pub fn observation(&self, seat: Seat) -> Observation {
        Observation {
            seat,
            hole_cards: self.hole_cards(seat).to_vec(),
            legal_actions: self.betting.legal_actions(&self.options, seat),
            public: self.public_view(),
        }
    }

    /// Every action so far.
    pub fn actions(&self) -> &[RecordedAction<Action>] {
        &self.actions
    }

    /// How the match began.
    pub fn start(&self) -> &Start<Setup> {
        &self.start
    }

    /// The events of the match's start: the first hand's button and forced bets.
    pub fn opening_events(&self) -> Vec<Event> {
        self.opening.clone()
    }

    /// The match so far as a record, which replays it exactly.
    pub fn record(&self) -> super::Record {
        crate::Record {
            options: self.options,
            players: self.players(),
            start: self.start.clone(),
            actions: self.actions.clone(),
            termination: self.end_reason(),
            comments: Vec::new(),
        }
    }
}

/// HE-15: pays a pot of `amount` to the best hand among `eligible` (`ranks` by seat), split
/// evenly, the odd chips one each to the winners clockwise from the button (`order`): calls
/// `pay` for each winner in that order.
fn split_pot(
    amount: u32,
    eligible: &[Seat],
    ranks: &[Option<HandRank>],
    order: &[Seat],
    mut pay: impl FnMut(Seat, u32),
) {
    let best = eligible.iter().filter_map(|s| ranks[s.index()]).max();
    let wins = |seat: &&Seat| eligible.contains(seat) && ranks[seat.index()] == best;
    let count = order.iter().filter(wins).count().max(1) as u32;
    let odd = amount % count;
    for (i, &seat) in order.iter().filter(wins).enumerate() {
        pay(seat, amount / count + u32::from((i as u32) < odd));
    }
}

/// The pots of a hand (HE-14), main pot first: each with its chips and the seats still in that
/// may win it. A layer only one seat reached is a pot of its own that only it can win (a bet
/// nobody called).
pub(super) fn pots(seats: &[SeatChips]) -> Vec<(u32, Vec<Seat>)> {
    let mut left: Vec<u32> = seats.iter().map(|chips| chips.committed).collect();
    let mut pots: Vec<(u32, Vec<Seat>)> = Vec::new();
    loop {
        let level = (0..seats.len())
            .filter(|&i| seats[i].status.in_hand() && left[i] > 0)
            .map(|i| left[i])
            .min();
        let Some(level) = level else { break };
        let eligible = (0..seats.len()).filter(|&i| seats[i].status.in_hand() && left[i] >= level);
        let eligible: Vec<Seat> = eligible.map(|i| Seat(i as u8)).collect();
        let amount = left.iter_mut().map(|chips| {
            let take = (*chips).min(level);
            *chips -= take;
            take
        });
        let amount = amount.sum();
        pots.push((amount, eligible));
    }
    // A folded seat never put in more than every seat still in (it folded facing a larger
    // bet), so nothing is left; were anything left, it would go with the last pot.
    let rest: u32 = left.iter().sum();
    if let Some(last) = pots.last_mut() {
        last.0 += rest;
    }
    pots
}
