//! Twenty-Two property tests over 10,000 random seeded matches of 2 to 12 players, with every
//! option drawn at random. Each failure names the match's seed and options, so it replays.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

mod common;

use common::checks::Engine;

use cardroom_games::twenty_two::{Action, Cards, Event, Options, PhaseView, State};
use cardroom_games::{AnyRecord, Card, Seat};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const MATCHES: u64 = 10_000;
/// No match of Twenty-Two comes near this many decisions; reaching it means a stuck state.
const MAX_DECISIONS: usize = 100_000;

/// A random action, legal or not: random cards from the hand and a few from outside it.
fn random_action(rng: &mut ChaCha8Rng, hand: &Cards) -> Action {
    let mut cards: Vec<Card> =
        hand.as_slice().iter().copied().filter(|_| rng.random_bool(0.4)).collect();
    if rng.random_bool(0.2) {
        cards.push(Card::from_index(rng.random_range(0..52)).unwrap_or(hand.as_slice()[0]));
    }
    cards.truncate(11);
    let cards = Cards::new(&cards).unwrap_or(Cards::EMPTY);
    if rng.random_bool(0.5) { Action::Play(cards) } else { Action::Exchange(cards) }
}

struct Checker<'a> {
    state: &'a State,
    label: &'a str,
}

impl Checker<'_> {
    /// Hands, stock, discards, tricks and penalty piles hold the packs exactly.
    fn cards_are_conserved(&self) {
        let packs = self.state.packs() as u32;
        let counts = self.state.card_counts();
        assert!(
            counts.iter().all(|&n| n == packs),
            "{}: cards not conserved: {counts:?}",
            self.label
        );
    }

    /// Every active hand holds the same number of cards when a trick begins.
    fn hands_are_equal_at_each_trick(&self) {
        if let PhaseView::Play { leader, to_act } = self.state.phase()
            && leader == to_act
        {
            let sizes: Vec<usize> = (0..self.state.players())
                .map(Seat)
                .filter(|&seat| !self.state.is_eliminated(seat))
                .map(|seat| self.state.hand(seat).map_or(0, Cards::len))
                .collect();
            assert!(sizes.windows(2).all(|w| w[0] == w[1]), "{}: hands {sizes:?}", self.label);
            assert!(sizes[0] >= 1, "{}", self.label);
        }
    }

    /// A seat's observation does not change when the cards it cannot see are dealt again.
    fn observation_ignores_hidden_cards(&self, seat: Seat, rng: &mut ChaCha8Rng) {
        let sample = self.state.determinize(seat, rng);
        assert_eq!(sample.observation(seat), self.state.observation(seat), "{}", self.label);
        assert_eq!(sample.public_view(), self.state.public_view(), "{}", self.label);
        assert_eq!(sample.packs(), self.state.packs());
        let counts = sample.card_counts();
        assert!(counts.iter().all(|&n| n == self.state.packs() as u32), "{}", self.label);
    }
}

// 10,000 matches in four tests, so that the test runner spreads them over the cores.
#[test]
fn random_matches_keep_every_invariant_seeds_0_to_2499() {
    random_matches(0..MATCHES / 4);
}

#[test]
fn random_matches_keep_every_invariant_seeds_2500_to_4999() {
    random_matches(MATCHES / 4..MATCHES / 2);
}

#[test]
fn random_matches_keep_every_invariant_seeds_5000_to_7499() {
    random_matches(MATCHES / 2..MATCHES * 3 / 4);
}

#[test]
fn random_matches_keep_every_invariant_seeds_7500_to_9999() {
    random_matches(MATCHES * 3 / 4..MATCHES);
}

/// Plays the matches of these seeds with random legal actions, checking at every decision:
/// the legal list is sorted, distinct and non-empty; random probes are refused exactly when
/// illegal and change nothing; listed actions apply; cards are conserved; hands are equal at
/// each trick; observations ignore hidden cards; every match ends with full standings; and
/// its record round-trips through JSON and replays to the same end.
fn random_matches(seeds: std::ops::Range<u64>) {
    let count = seeds.end - seeds.start;
    let mut total_decisions = 0usize;
    let mut illegal_refused = 0usize;
    for seed in seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (options, players) = common::random_twenty_two_options(&mut rng);
        let label = format!("seed {seed}, {players} players, {options:?}");
        let mut state =
            State::new(options, players, seed).unwrap_or_else(|e| panic!("{label}: {e}"));
        let mut decisions = 0;
        // One observation for the match, written over every third decision for a seat in turn
        // (the one to act or not, active or eliminated), as a server's match keeps one: it must
        // hold just what a new one holds.
        let mut kept = state.observation(Seat(players - 1));
        while let Some(seat) = state.to_act() {
            decisions += 1;
            assert!(decisions < MAX_DECISIONS, "{label}: the match does not end");
            if decisions % 3 == 0 {
                let observed = Seat((decisions / 3 % usize::from(players)) as u8);
                state.observation_into(observed, &mut kept);
                assert_eq!(kept, state.observation(observed), "{label}: {observed}");
            }
            let check = Checker { state: &state, label: &label };
            if decisions % 7 == 0 {
                check.cards_are_conserved();
            }
            check.hands_are_equal_at_each_trick();
            if decisions % 13 == 0 {
                let watcher = Seat(rng.random_range(0..players));
                check.observation_ignores_hidden_cards(watcher, &mut rng);
            }

            let legal = state.legal_actions();
            assert!(!legal.is_empty(), "{label}: nothing legal for {seat}");
            assert!(legal.windows(2).all(|w| w[0] < w[1]), "{label}: not sorted and distinct");
            if decisions % 5 == 0 {
                // What the seat sees alone lists the same actions (the compact Turn's
                // contract); another seat's observation lists none.
                let other = Seat((seat.0 + 1) % players);
                assert_eq!(state.observation(seat).compute_legal_actions(), legal, "{label}");
                assert!(state.observation(other).compute_legal_actions().is_empty(), "{label}");
            }

            // A random action is refused exactly when the oracle says so, and a refusal
            // changes nothing.
            let probe = random_action(&mut rng, state.hand(seat).unwrap());
            let other = Seat((seat.0 + 1) % players);
            for (who, action) in [(seat, probe), (other, legal[0])] {
                let expected = who == seat && state.accepts(&legal, who, &action);
                assert_eq!(state.is_legal(who, &action), expected, "{label}: {who} {action}");
                if !expected {
                    // A cheap fingerprint always, the whole views now and then.
                    let full = decisions % 97 == 0;
                    let fingerprint = |s: &State| {
                        let views = full.then(|| (s.public_view(), s.observation(who), s.record()));
                        (
                            s.phase(),
                            *s.hand(who).unwrap(),
                            s.stock_len(),
                            s.actions_applied(),
                            views,
                        )
                    };
                    let before = fingerprint(&state);
                    // Refused through `apply_into`: the caller's list is left as it was too.
                    let kept = vec![Event::Exchanged { seat: other, count: 0 }];
                    let mut events = kept.clone();
                    let refused = state.apply_into(who, action, &mut events);
                    assert!(refused.is_err(), "{label}: {who} {action}");
                    assert_eq!(events, kept, "{label}: {who} {action}");
                    assert_eq!(fingerprint(&state), before, "{label}: {who} {action}");
                    illegal_refused += 1;
                }
            }
            // Every listed action applies (checked on copies now and then, up to 16 of them),
            // and `apply_into` appends what `apply` returns.
            if decisions % 17 == 0 {
                for action in legal.sample(&mut rng, 16) {
                    let mut copy = state.clone();
                    let events = copy
                        .apply(seat, *action)
                        .unwrap_or_else(|e| panic!("{label}: {action}: {e}"));
                    let mut into = state.clone();
                    let mut appended = vec![Event::Exchanged { seat: other, count: 0 }];
                    into.apply_into(seat, *action, &mut appended).unwrap();
                    assert_eq!(appended[1..], events[..], "{label}: {action}");
                    assert_eq!(into.public_view(), copy.public_view(), "{label}: {action}");
                }
            }
            let action = *legal.choose(&mut rng).unwrap_or(&legal[0]);
            // Same ranks, other suits held: also accepted.
            let action = shuffle_suits(&state, seat, action, &mut rng);
            state.apply(seat, action).unwrap_or_else(|e| panic!("{label}: {seat} {action}: {e}"));
        }
        total_decisions += decisions;

        let standings = state.outcome().unwrap_or_else(|| panic!("{label}: no outcome"));
        assert_eq!(standings.len(), players as usize);
        assert_eq!(standings[0].place, 1, "{label}");
        let mut seats: Vec<Seat> = standings.iter().map(|s| s.seat).collect();
        seats.sort();
        assert_eq!(seats, (0..players).map(Seat).collect::<Vec<_>>(), "{label}");

        // Records round-trip through JSON and replay to the same end.
        let record = AnyRecord::TwentyTwo(state.record().unwrap());
        let json = record.to_json();
        let parsed = match AnyRecord::from_json(&json).unwrap() {
            AnyRecord::TwentyTwo(parsed) => parsed,
            #[allow(unreachable_patterns)]
            other => panic!("{label}: a Twenty-Two record read back as {other:?}"),
        };
        assert_eq!(AnyRecord::TwentyTwo(parsed.clone()), record, "{label}");
        let replayed = parsed.replay().unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(replayed.outcome(), state.outcome(), "{label}");
        assert_eq!(replayed.public_view(), state.public_view(), "{label}");
    }
    assert!(total_decisions > (count as usize) * 10, "matches are real: {total_decisions}");
    assert!(illegal_refused > (count as usize), "illegal probes ran: {illegal_refused}");
}

/// The same ranks with other suits held, where the hand has copies of a rank in other suits.
fn shuffle_suits(state: &State, seat: Seat, action: Action, rng: &mut ChaCha8Rng) -> Action {
    let hand = state.hand(seat).unwrap();
    let mut pool: Vec<Card> = hand.as_slice().to_vec();
    pool.shuffle(rng);
    let mut picked = Vec::new();
    for card in action.cards() {
        if let Some(i) = pool.iter().position(|c| c.rank() == card.rank()) {
            picked.push(pool.swap_remove(i));
        }
    }
    let cards = Cards::new(&picked).unwrap_or(*action.cards());
    match action {
        Action::Exchange(_) => Action::Exchange(cards),
        Action::Play(_) => Action::Play(cards),
    }
}

#[test]
fn the_same_seed_and_actions_give_the_same_match() {
    for seed in 0..200 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xfeed);
        let (options, players) = common::random_twenty_two_options(&mut rng);
        let play = |mut rng: ChaCha8Rng| {
            let mut state = State::new(options, players, seed).unwrap();
            let mut log = Vec::new();
            while let Some(seat) = state.to_act() {
                let legal = state.legal_actions();
                let action = legal[rng.random_range(0..legal.len())];
                log.push(state.apply(seat, action).unwrap());
            }
            (log, state.outcome().map(<[_]>::to_vec))
        };
        let a = play(rng.clone());
        let b = play(rng);
        assert_eq!(a, b, "seed {seed}");
    }
}

#[test]
fn a_bad_record_names_the_first_illegal_action() {
    let mut state = State::new(Options::default(), 3, 5).unwrap();
    for _ in 0..5 {
        let seat = state.to_act().unwrap();
        let action = state.legal_actions()[0];
        state.apply(seat, action).unwrap();
    }
    let mut record = state.record().unwrap();
    // Action 3 is the first play: make it a play of a card the seat does not hold then.
    let bad = record.actions[3];
    let mut before = record.clone();
    before.actions.truncate(3);
    let hand = *before.replay().unwrap().hand(bad.seat).unwrap();
    let foreign: Vec<Card> =
        Card::pack().filter(|c| !hand.as_slice().contains(c)).take(1).collect();
    record.actions[3].action = Action::Play(Cards::new(&foreign).unwrap());
    let error = record.replay().unwrap_err().to_string();
    assert!(error.starts_with("action 3 ("), "{error}");
    assert!(error.contains("TT-"), "{error}");
    // Out of turn: a seat that is not to act.
    let mut record = state.record().unwrap();
    record.actions[1].seat = Seat((record.actions[1].seat.0 + 1) % 3);
    let error = record.replay().unwrap_err().to_string();
    assert!(error.starts_with("action 1 (") && error.contains("turn"), "{error}");
}
