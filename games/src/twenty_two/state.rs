//! The Twenty-Two state machine: deals, the exchange, tricks and the end of a deal. Setup
//! checking is in `setup.rs`, move generation and the legality check in `legal.rs`.

use rand::seq::SliceRandom;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::card::{Card, Rank};
use crate::seat::{Seat, Standing};

use super::Action;
use super::cards::Cards;
use super::error::{IllegalAction, SetupError};
use super::options::{Options, TiedDealer, TrickWinner, Variant};
use super::record::{Record, RecordedAction, Start};
use super::view::{
    DealResult, Event, Observation, PhaseView, Play, PublicSeat, PublicView, SeatCard, TieBreak,
    Trick,
};

/// TT-2: the penalty value of a card of this rank: 2–10 face value, J/Q/K 10, A 11.
pub const fn penalty_value(rank: Rank) -> u32 {
    match rank {
        Rank::Ace => 11,
        Rank::Jack | Rank::Queen | Rank::King => 10,
        other => other as u32,
    }
}

#[derive(Clone, Debug)]
pub(super) struct SeatState {
    pub(super) hand: Cards,
    pub(super) score: u32,
    pub(super) penalty: Vec<Card>,
    /// The deal that eliminated this seat.
    pub(super) eliminated_in: Option<u32>,
    /// Cards exchanged this deal, once done.
    pub(super) exchanged: Option<u8>,
    /// This deal's exchange discards (private to the seat, TT-25).
    pub(super) discards: Vec<Card>,
    /// Elimination variant: cards of the tricks won this deal.
    pub(super) won: Vec<Card>,
}

impl SeatState {
    pub(super) fn new() -> SeatState {
        SeatState {
            hand: Cards::EMPTY,
            score: 0,
            penalty: Vec::new(),
            eliminated_in: None,
            exchanged: None,
            discards: Vec::new(),
            won: Vec::new(),
        }
    }

    pub(super) fn active(&self) -> bool {
        self.eliminated_in.is_none()
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    Exchange { seat: Seat },
    Play { leader: Seat, seat: Seat },
    Over,
}

/// A Twenty-Two match in progress: a valid position, reachable only through
/// [`State::new`] (a seeded match), [`State::from_setup`] or [`Record::replay`].
#[derive(Clone, Debug)]
pub struct State {
    pub(super) options: Options,
    pub(super) packs: u8,
    pub(super) seats: Vec<SeatState>,
    pub(super) dealer: Seat,
    pub(super) deal: u32,
    pub(super) hand_size: u8,
    /// Top card last.
    pub(super) stock: Vec<Card>,
    pub(super) phase: Phase,
    /// This deal's tricks; the last one is under way while the phase is `Play`.
    pub(super) tricks: Vec<Trick>,
    pub(super) last_deal: Option<DealResult>,
    pub(super) dealer_draw: Vec<Vec<SeatCard>>,
    pub(super) standings: Option<Vec<Standing>>,
    pub(super) rng: ChaCha8Rng,
    /// How the match began, and every action since: the record. `None` for a sampled state
    /// ([`State::determinize`]), whose hidden cards are invented.
    pub(super) start: Option<Start>,
    pub(super) actions: Vec<RecordedAction>,
    /// The events of the match's start (the dealer draw and first deal).
    pub(super) opening: Vec<Event>,
}

impl State {
    /// A new match of `players` seats with seeded deals: the first dealer is drawn (TT-5), the
    /// first deal dealt (TT-6 to TT-8) and the exchange begins.
    pub fn new(options: Options, players: u8, seed: u64) -> Result<State, SetupError> {
        options.validate(players)?;
        let mut state = State::empty(options, players, seed);
        state.start = Some(Start::Seed(seed));
        let mut events = Vec::new();
        let all: Vec<Seat> = (0..players).map(Seat).collect();
        state.dealer = state.draw_dealer(&all, &mut events);
        state.start_deal(options.first_hand, &mut events);
        state.opening = events;
        Ok(state)
    }

    pub(super) fn empty(options: Options, players: u8, seed: u64) -> State {
        State {
            options,
            packs: options.pack_count(players),
            seats: (0..players).map(|_| SeatState::new()).collect(),
            dealer: Seat(0),
            deal: 0,
            hand_size: 0,
            stock: Vec::new(),
            phase: Phase::Over,
            tricks: Vec::new(),
            last_deal: None,
            dealer_draw: Vec::new(),
            standings: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
            start: None,
            actions: Vec::new(),
            opening: Vec::new(),
        }
    }

    /// The rule set.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Seats at the table.
    pub fn players(&self) -> u8 {
        self.seats.len() as u8
    }

    /// The seat to act, or `None` once the match is over.
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Exchange { seat } | Phase::Play { seat, .. } => Some(seat),
            Phase::Over => None,
        }
    }

    /// Who acts and how, as in the public view, without building the rest of it.
    pub fn phase(&self) -> PhaseView {
        match self.phase {
            Phase::Exchange { seat } => PhaseView::Exchange { to_act: seat },
            Phase::Play { leader, seat } => PhaseView::Play { leader, to_act: seat },
            Phase::Over => PhaseView::Over,
        }
    }

    /// True when `seat` has been eliminated (TT-19, TT-28).
    pub fn is_eliminated(&self, seat: Seat) -> bool {
        self.seats.get(seat.index()).is_some_and(|s| !s.active())
    }

    /// How many actions have been applied since the start.
    pub fn actions_applied(&self) -> usize {
        self.actions.len()
    }

    /// True once the match is over.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The final standings (TT-23, TT-28), once the match is over.
    pub fn outcome(&self) -> Option<&[Standing]> {
        self.standings.as_deref()
    }

    /// Why the match ended, citing the rule, once it is over: one player left (TT-21, or TT-28
    /// in the elimination variant), the last deal eliminating every player left (TT-22), or a
    /// pack too depleted by penalty piles to deal every player left a card (TT-8).
    pub fn end_reason(&self) -> Option<String> {
        if !self.is_over() {
            return None;
        }
        let active: Vec<Seat> = self.active_seats().collect();
        Some(match (active.as_slice(), self.options.variant) {
            ([last], Variant::Standard) => format!("TT-21: {last} is the last player left"),
            ([last], Variant::Elimination) => format!("TT-28: {last} is the last player left"),
            ([], _) => format!(
                "TT-22: deal {} eliminated every player left at once; the lowest score wins",
                self.deal
            ),
            (left, _) => format!(
                "TT-8: the pack could not deal a card to each of the {} players left; \
                 standings go by score (TT-23)",
                left.len()
            ),
        })
    }

    /// The events of the match's start: the dealer draw (seeded matches) and the first deal.
    pub fn opening_events(&self) -> &[Event] {
        &self.opening
    }

    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> Option<&Cards> {
        self.seats.get(seat.index()).map(|s| &s.hand)
    }

    /// Scores per seat.
    pub fn scores(&self) -> Vec<u32> {
        self.seats.iter().map(|s| s.score).collect()
    }

    /// Applies `seat`'s action and returns the public events it caused. An illegal action is
    /// refused with the rule it breaks, and the state is left unchanged.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        crate::game::collect_events(|events| self.apply_into(seat, action, events))
    }

    /// [`State::apply`], the events appended to `events` (one list kept across many actions
    /// allocates none an action). An illegal action is refused before anything changes,
    /// `events` included.
    pub fn apply_into(
        &mut self,
        seat: Seat,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalAction> {
        let strongest = self.check(seat, &action)?;
        self.actions.push(RecordedAction { seat, action });
        match action {
            Action::Exchange(discards) => self.exchange(seat, discards, events),
            Action::Play(cards) => self.play(seat, cards, strongest, events),
        }
        Ok(())
    }

    fn exchange(&mut self, seat: Seat, discards: Cards, events: &mut Vec<Event>) {
        let state = &mut self.seats[seat.index()];
        state.hand.remove_all(&discards);
        for _ in 0..discards.len() {
            if let Some(card) = self.stock.pop() {
                state.hand.insert(card);
            }
        }
        state.discards.extend_from_slice(discards.as_slice());
        state.exchanged = Some(discards.len() as u8);
        events.push(Event::Exchanged { seat, count: discards.len() as u8 });

        let next = self.next_active(seat);
        let leader = self.next_active(self.dealer);
        if next != leader {
            self.phase = Phase::Exchange { seat: next };
        } else if self.options.variant == Variant::Standard && self.hand_size == 1 {
            // TT-17: everybody already holds one card.
            self.end_standard_deal(events);
        } else {
            self.begin_trick(leader);
        }
    }

    fn begin_trick(&mut self, leader: Seat) {
        self.tricks.push(Trick { plays: Vec::new(), strongest: 0, winner: None });
        self.phase = Phase::Play { leader, seat: leader };
    }

    pub(super) fn current_trick(&self) -> &Trick {
        // The phase is `Play` only after `begin_trick` pushed the trick.
        &self.tricks[self.tricks.len() - 1]
    }

    fn play(&mut self, seat: Seat, cards: Cards, strongest: bool, events: &mut Vec<Event>) {
        let Phase::Play { leader, .. } = self.phase else { return };
        self.seats[seat.index()].hand.remove_all(&cards);
        let trick_index = self.tricks.len() - 1;
        let trick = &mut self.tricks[trick_index];
        trick.plays.push(Play { seat, cards });
        if strongest {
            trick.strongest = trick.plays.len() - 1;
        }
        events.push(Event::Played { seat, cards, strongest });

        let next = self.next_active(seat);
        if next != leader {
            self.phase = Phase::Play { leader, seat: next };
            return;
        }
        let winner = self.trick_winner(&self.tricks[trick_index]);
        let trick = &mut self.tricks[trick_index];
        trick.winner = Some(winner);
        if self.options.variant == Variant::Elimination {
            let won = &mut self.seats[winner.index()].won;
            for play in &trick.plays {
                won.extend_from_slice(play.cards.as_slice());
            }
        }
        events.push(Event::TrickWon { seat: winner });
        match (self.options.variant, self.seats[winner.index()].hand.len()) {
            (Variant::Standard, 1) => self.end_standard_deal(events),
            (Variant::Elimination, 0) => self.end_elimination_deal(events),
            _ => self.begin_trick(winner),
        }
    }

    /// TT-14.
    fn trick_winner(&self, trick: &Trick) -> Seat {
        match self.options.trick_winner {
            TrickWinner::StrongestCombination => trick.plays[trick.strongest].seat,
            TrickWinner::HighestCard => {
                let mut best = trick.plays[0].seat;
                let mut best_rank = Rank::Two;
                for play in &trick.plays {
                    if let Some(high) = play.cards.highest()
                        && high.rank() >= best_rank
                    {
                        best_rank = high.rank();
                        best = play.seat;
                    }
                }
                best
            }
        }
    }

    /// TT-17 to TT-20.
    fn end_standard_deal(&mut self, events: &mut Vec<Event>) {
        let revealed: Vec<SeatCard> = self
            .active_seats()
            .filter_map(|seat| {
                self.seats[seat.index()].hand.highest().map(|card| SeatCard { seat, card })
            })
            .collect();
        let Some(rank) = revealed.iter().map(|r| r.card.rank()).max() else {
            return self.finish(events);
        };
        let losers: Vec<Seat> =
            revealed.iter().filter(|r| r.card.rank() == rank).map(|r| r.seat).collect();
        let mut eliminated = Vec::new();
        for r in &revealed {
            let state = &mut self.seats[r.seat.index()];
            state.hand = Cards::EMPTY;
            if r.card.rank() == rank {
                state.penalty.push(r.card);
                // A setup's scores may sit just below a limit near u32::MAX.
                state.score = state.score.saturating_add(penalty_value(rank));
                events.push(Event::Penalty { seat: r.seat, card: r.card, score: state.score });
                if state.score >= self.options.limit {
                    state.eliminated_in = Some(self.deal);
                    eliminated.push(r.seat);
                }
            }
        }
        let next_dealer = match (losers.as_slice(), self.options.tied_dealer) {
            ([only], _) => *only,
            (_, TiedDealer::Random) => losers[self.rng.random_range(0..losers.len())],
            (_, TiedDealer::NearestLeftOfPreviousDealer) => {
                let n = self.seats.len();
                (1..=n)
                    .map(|step| Seat(((self.dealer.index() + step) % n) as u8))
                    .find(|seat| losers.contains(seat))
                    .unwrap_or(losers[0])
            }
        };
        let result = DealResult {
            deal: self.deal,
            revealed,
            rank,
            losers,
            tie_break: TieBreak::None,
            eliminated,
        };
        events.push(Event::DealLost(result.clone()));
        self.last_deal = Some(result);
        self.dealer = next_dealer;
        if self.active_seats().count() <= 1 {
            self.finish(events);
        } else {
            // TT-6: the next hand is the losing card's value.
            self.start_deal(penalty_value(rank) as u8, events);
        }
    }

    /// TT-27, TT-28.
    fn end_elimination_deal(&mut self, events: &mut Vec<Event>) {
        let highest = |seat: Seat| self.seats[seat.index()].won.iter().map(|c| c.rank()).max();
        let Some(rank) = self.active_seats().filter_map(highest).max() else {
            return self.finish(events);
        };
        let mut losers: Vec<Seat> =
            self.active_seats().filter(|&seat| highest(seat) == Some(rank)).collect();
        let mut tie_break = TieBreak::None;
        if losers.len() > 1 {
            tie_break = TieBreak::Points;
            let points = |seat: &Seat| -> u32 {
                self.seats[seat.index()].won.iter().map(|c| penalty_value(c.rank())).sum()
            };
            let most = losers.iter().map(points).max().unwrap_or(0);
            losers.retain(|seat| points(seat) == most);
            if losers.len() > 1 {
                tie_break = TieBreak::Random;
                let pick = losers[self.rng.random_range(0..losers.len())];
                losers = vec![pick];
            }
        }
        let loser = losers[0];
        self.seats[loser.index()].eliminated_in = Some(self.deal);
        let result = DealResult {
            deal: self.deal,
            revealed: Vec::new(),
            rank,
            losers: vec![loser],
            tie_break,
            eliminated: vec![loser],
        };
        events.push(Event::DealLost(result.clone()));
        self.last_deal = Some(result);
        if self.active_seats().count() <= 1 {
            self.finish(events);
        } else {
            let active: Vec<Seat> = self.active_seats().collect();
            self.dealer = self.draw_dealer(&active, events);
            self.start_deal(self.options.first_hand, events);
        }
    }

    /// TT-6 to TT-9: builds the pack, deals and opens the exchange.
    fn start_deal(&mut self, wanted: u8, events: &mut Vec<Event>) {
        // A setup may number its deal anything: the count stops at the top rather than overflow.
        self.deal = self.deal.saturating_add(1);
        let mut counts = self.pack_counts();
        for seat in &self.seats {
            for card in &seat.penalty {
                counts[card.index() as usize] -= 1;
            }
        }
        let mut pack = cards_of(&counts);
        pack.shuffle(&mut self.rng);
        let active: Vec<Seat> = {
            let first = self.next_active(self.dealer);
            let n = self.seats.len();
            (0..n)
                .map(|step| Seat(((first.index() + step) % n) as u8))
                .filter(|seat| self.seats[seat.index()].active())
                .collect()
        };
        // TT-8: the largest equal number the pack allows.
        let hand_size = (wanted as usize).min(pack.len() / active.len()) as u8;
        for seat in &mut self.seats {
            seat.hand = Cards::EMPTY;
            seat.exchanged = None;
            seat.discards.clear();
            seat.won.clear();
        }
        self.tricks.clear();
        self.hand_size = hand_size;
        if hand_size == 0 {
            // Only with a huge `limit`: penalty piles hold so much of the pack that nobody can
            // be dealt a card. The match ends; standings go by score (TT-22, TT-23).
            self.stock = pack;
            return self.finish(events);
        }
        for _ in 0..hand_size {
            for seat in &active {
                if let Some(card) = pack.pop() {
                    self.seats[seat.index()].hand.insert(card);
                }
            }
        }
        self.stock = pack;
        events.push(Event::DealStarted {
            deal: self.deal,
            dealer: self.dealer,
            hand_size,
            stock_len: self.stock.len(),
        });
        self.phase = Phase::Exchange { seat: active[0] };
    }

    /// TT-5: each contender draws a card, the highest rank deals, ties draw again.
    fn draw_dealer(&mut self, contenders: &[Seat], events: &mut Vec<Event>) -> Seat {
        let mut pack = cards_of(&self.pack_counts());
        pack.shuffle(&mut self.rng);
        let mut contenders = contenders.to_vec();
        let mut rounds = Vec::new();
        loop {
            let mut round = Vec::with_capacity(contenders.len());
            for &seat in &contenders {
                if pack.is_empty() {
                    pack = cards_of(&self.pack_counts());
                    pack.shuffle(&mut self.rng);
                }
                if let Some(card) = pack.pop() {
                    round.push(SeatCard { seat, card });
                }
            }
            let best = round.iter().map(|d| d.card.rank()).max();
            contenders =
                round.iter().filter(|d| Some(d.card.rank()) == best).map(|d| d.seat).collect();
            rounds.push(round);
            if contenders.len() == 1 {
                break;
            }
        }
        let dealer = contenders[0];
        events.push(Event::DealerDrawn { rounds: rounds.clone(), dealer });
        self.dealer_draw = rounds;
        dealer
    }

    fn finish(&mut self, events: &mut Vec<Event>) {
        self.phase = Phase::Over;
        self.tricks.clear();
        let standings = self.rank_seats();
        events.push(Event::MatchOver { standings: standings.clone() });
        self.standings = Some(standings);
    }

    /// TT-22, TT-23, TT-28: active seats first, then by elimination, latest first; within a
    /// group lower scores first, equal scores tied.
    fn rank_seats(&self) -> Vec<Standing> {
        let key = |seat: Seat| {
            let state = &self.seats[seat.index()];
            (std::cmp::Reverse(state.eliminated_in.unwrap_or(u32::MAX)), state.score)
        };
        let mut seats: Vec<Seat> = (0..self.players()).map(Seat).collect();
        seats.sort_by_key(|&seat| (key(seat), seat));
        let mut standings: Vec<Standing> = Vec::with_capacity(seats.len());
        for (i, &seat) in seats.iter().enumerate() {
            let place = match standings.last() {
                Some(prev) if key(prev.seat) == key(seat) => prev.place,
                _ => i as u8 + 1,
            };
            standings.push(Standing { place, seat });
        }
        standings
    }

    pub(super) fn active_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats.iter().enumerate().filter(|(_, s)| s.active()).map(|(i, _)| Seat(i as u8))
    }

    /// The next active seat clockwise after `seat` (TT-10).
    pub(super) fn next_active(&self, seat: Seat) -> Seat {
        let n = self.seats.len();
        (1..=n)
            .map(|step| Seat(((seat.index() + step) % n) as u8))
            .find(|s| self.seats[s.index()].active())
            .unwrap_or(seat)
    }

    /// Copies of each card in the packs.
    pub(super) fn pack_counts(&self) -> [u8; 52] {
        [self.packs; 52]
    }

    /// Everything public (TT-24): what a spectator sees.
    pub fn public_view(&self) -> PublicView {
        let mut view = PublicView {
            options: self.options,
            packs: 0,
            deal: 0,
            dealer: Seat(0),
            hand_size: 0,
            stock_len: 0,
            seats: Vec::new(),
            phase: PhaseView::Over,
            tricks: Vec::new(),
            last_deal: None,
            dealer_draw: Vec::new(),
            standings: None,
        };
        self.public_view_into(&mut view);
        view
    }

    /// [`State::public_view`] written over `view`, whose lists (and their lists) keep their
    /// allocations. Every struct is taken apart whole, so that a field added to one of them
    /// cannot be left out here.
    fn public_view_into(&self, view: &mut PublicView) {
        let PublicView {
            options,
            packs,
            deal,
            dealer,
            hand_size,
            stock_len,
            seats,
            phase,
            tricks,
            last_deal,
            dealer_draw,
            standings,
        } = view;
        *options = self.options;
        *packs = self.packs;
        *deal = self.deal;
        *dealer = self.dealer;
        *hand_size = self.hand_size;
        *stock_len = self.stock.len();
        let blank_seat = || PublicSeat {
            seat: Seat(0),
            score: 0,
            penalty_pile: Vec::new(),
            eliminated: false,
            hand_len: 0,
            exchanged: None,
            won: Vec::new(),
        };
        seats.resize_with(self.seats.len(), blank_seat);
        for (i, (public, own)) in seats.iter_mut().zip(&self.seats).enumerate() {
            let PublicSeat { seat, score, penalty_pile, eliminated, hand_len, exchanged, won } =
                public;
            *seat = Seat(i as u8);
            *score = own.score;
            penalty_pile.clone_from(&own.penalty);
            *eliminated = !own.active();
            *hand_len = own.hand.len();
            *exchanged = own.exchanged;
            won.clone_from(&own.won);
        }
        *phase = self.phase();
        let blank_trick = || Trick { plays: Vec::new(), strongest: 0, winner: None };
        tricks.resize_with(self.tricks.len(), blank_trick);
        for (public, trick) in tricks.iter_mut().zip(&self.tricks) {
            let Trick { plays, strongest, winner } = public;
            plays.clone_from(&trick.plays);
            *strongest = trick.strongest;
            *winner = trick.winner;
        }
        match (last_deal, &self.last_deal) {
            (Some(public), Some(last)) => {
                let DealResult { deal, revealed, rank, losers, tie_break, eliminated } = public;
                *deal = last.deal;
                revealed.clone_from(&last.revealed);
                *rank = last.rank;
                losers.clone_from(&last.losers);
                *tie_break = last.tie_break;
                eliminated.clone_from(&last.eliminated);
            }
            (public, last) => public.clone_from(last),
        }
        // A list of lists: `Vec::clone_from` reuses each inner list too.
        dealer_draw.clone_from(&self.dealer_draw);
        standings.clone_from(&self.standings);
    }

    /// What `seat` may see (TT-24, TT-25). Valid at every point, the end included.
    pub fn observation(&self, seat: Seat) -> Observation {
        let mut observation = Observation {
            seat,
            hand: Cards::EMPTY,
            discards: Vec::new(),
            legal_actions: Vec::new(),
            public: self.public_view(),
        };
        self.own_view_into(seat, &mut observation);
        observation
    }

    /// [`State::observation`] written over `observation`: its lists (the public view's among
    /// them) keep their allocations, so a caller that observes every decision (a server's
    /// match) allocates for it only as they grow.
    pub fn observation_into(&self, seat: Seat, observation: &mut Observation) {
        self.public_view_into(&mut observation.public);
        self.own_view_into(seat, observation);
    }

    /// What `seat` sees of its own, written over `observation`'s: its hand, its exchange
    /// discards and its legal actions (none unless it is to act).
    fn own_view_into(&self, seat: Seat, observation: &mut Observation) {
        // `public` is the caller's to write.
        let Observation { seat: observed, hand, discards, legal_actions, public: _ } = observation;
        let own = self.seats.get(seat.index());
        *observed = seat;
        *hand = own.map_or(Cards::EMPTY, |s| s.hand);
        match own {
            Some(own) => discards.clone_from(&own.discards),
            None => discards.clear(),
        }
        if self.to_act() == Some(seat) {
            self.legal_actions_into(legal_actions);
        } else {
            legal_actions.clear();
        }
    }

    /// The record of this match so far: options, start and every action; it replays exactly
    /// ([`Record::replay`]). Once the match is over its `termination` is
    /// [`State::end_reason`]. `None` for a sampled state ([`State::determinize`]).
    pub fn record(&self) -> Option<Record> {
        Some(Record {
            options: self.options,
            players: self.players(),
            start: self.start.clone()?,
            actions: self.actions.clone(),
            termination: self.end_reason(),
            comments: Vec::new(),
        })
    }

    /// A state that `seat` cannot tell from this one: the cards it cannot see (other active
    /// hands, the stock, the other seats' exchange discards) dealt again at random in the same
    /// numbers, and a fresh RNG for later deals. Search bots sample these (determinization).
    /// The sample is uniform over those cards; it does not infer anything from the other seats'
    /// plays. A sampled state has no record.
    pub fn determinize<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> State {
        let mut sample = self.clone();
        let mut pool: Vec<Card> = sample.stock.clone();
        for (i, other) in sample.seats.iter().enumerate() {
            if i != seat.index() {
                pool.extend_from_slice(other.hand.as_slice());
                pool.extend_from_slice(&other.discards);
            }
        }
        pool.shuffle(rng);
        for (i, other) in sample.seats.iter_mut().enumerate() {
            if i != seat.index() {
                let n = other.hand.len();
                let mut hand = Cards::EMPTY;
                for card in pool.drain(pool.len() - n..) {
                    hand.insert(card);
                }
                other.hand = hand;
                let d = other.discards.len();
                other.discards = pool.drain(pool.len() - d..).collect();
            }
        }
        sample.stock = pool;
        sample.rng = ChaCha8Rng::from_rng(rng);
        sample.start = None;
        sample.actions.clear();
        sample
    }

    /// Cards in the stock.
    pub fn stock_len(&self) -> usize {
        self.stock.len()
    }

    /// Every card now in some place (hands, stock, exchange discards, tricks of this deal,
    /// penalty piles, elimination-variant won cards, last cards of a finished deal are out of
    /// play), for conservation checks: returns the count per card byte.
    pub fn card_counts(&self) -> [u32; 52] {
        let mut counts = [0u32; 52];
        let mut add = |card: &Card| counts[card.index() as usize] += 1;
        self.stock.iter().for_each(&mut add);
        for seat in &self.seats {
            seat.hand.as_slice().iter().for_each(&mut add);
            seat.discards.iter().for_each(&mut add);
            seat.penalty.iter().for_each(&mut add);
        }
        for trick in &self.tricks {
            for play in &trick.plays {
                play.cards.as_slice().iter().for_each(&mut add);
            }
        }
        counts
    }

    /// Packs in play.
    pub fn packs(&self) -> u8 {
        self.packs
    }
}

/// The cards of a per-byte count, in byte order.
pub(super) fn cards_of(counts: &[u8; 52]) -> Vec<Card> {
    let mut cards = Vec::with_capacity(counts.iter().map(|&n| n as usize).sum());
    for card in Card::pack() {
        for _ in 0..counts[card.index() as usize] {
            cards.push(card);
        }
    }
    cards
}
