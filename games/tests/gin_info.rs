//! The information test (GR-15, GR-16): a seat's observation is the same whatever the other
//! hand, the stock and the seed hold, as long as the cards it has seen are where they were.
//!
//! Each trial deals a hand, plays random legal actions, and notes every card the observer has
//! seen (its own hand, the discard pile). It then deals the hand again with the unseen cards of
//! the other hand and the stock shuffled among their places, and a new seed, replays the same
//! actions, and asserts that the observer's observation and the public view are equal at every
//! step. The trace stops before the hand ends (the showdown reveals both hands) and at the
//! wall with `wall_knock` (where the other seat's legal actions depend on its hidden cards).

#![allow(clippy::unwrap_used)]

use cardroom_games::gin::{Action, CardSet, Event, FirstUpcard, Options, Phase, Setup, State};
use cardroom_games::{Card, Seat};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_setup(rng: &mut ChaCha8Rng) -> Setup {
    let mut pack: Vec<Card> = Card::pack().collect();
    pack.shuffle(rng);
    Setup {
        dealer: Seat(rng.random_range(0..2)),
        hands: [pack[..10].to_vec(), pack[10..20].to_vec()],
        discard_pile: vec![pack[20]],
        stock: pack[21..].to_vec(),
        scores: [rng.random_range(0..50), rng.random_range(0..50)],
        hands_won: [1, 2],
        hand_number: 3,
        seed: rng.random(),
    }
}

/// The same hand with the cards of `hidden` permuted among their places in the other hand and
/// the stock, and another seed.
fn permuted(setup: &Setup, observer: Seat, hidden: CardSet, rng: &mut ChaCha8Rng) -> Setup {
    let other = 1 - observer.index();
    let mut places: Vec<Card> = setup.hands[other].iter().chain(&setup.stock).copied().collect();
    let mut moving: Vec<Card> = places.iter().copied().filter(|c| hidden.contains(*c)).collect();
    moving.shuffle(rng);
    let mut next = moving.into_iter();
    for place in &mut places {
        if hidden.contains(*place) {
            *place = next.next().unwrap();
        }
    }
    let mut out = setup.clone();
    out.stock = places.split_off(10);
    out.hands[other] = places;
    out.seed = rng.random();
    out
}

fn trial(options: Options, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let setup = random_setup(&mut rng);
    let observer = Seat(rng.random_range(0..2));
    let other = Seat(1 - observer.0);
    let mut a = State::from_setup(options, setup.clone()).unwrap();
    let mut seen = CardSet::EMPTY;
    let note = |state: &State, seen: &mut CardSet| {
        *seen |= state.hand(observer);
        for pile in state.discard_pile() {
            seen.insert(pile.card);
        }
    };
    note(&a, &mut seen);
    let mut actions = Vec::new();
    let mut observations = vec![(a.observation(observer), a.public_view())];
    for _ in 0..rng.random_range(1..80) {
        let Some(seat) = a.to_act() else { break };
        if seat == other && matches!(a.phase(), Phase::Wall { .. }) {
            break;
        }
        let legal = a.legal_actions();
        // Mostly ordinary moves; going out ends the trace anyway.
        let action = legal[rng.random_range(0..legal.len())];
        let mut next = a.clone();
        let events = next.apply(seat, action).unwrap();
        if events.iter().any(|e| matches!(e, Event::HandEnded { .. })) {
            break;
        }
        a = next;
        note(&a, &mut seen);
        actions.push((seat, action));
        observations.push((a.observation(observer), a.public_view()));
    }
    let hidden = CardSet::FULL - seen;
    let b_setup = permuted(&setup, observer, hidden, &mut rng);
    let mut b = State::from_setup(options, b_setup).unwrap();
    assert_eq!((b.observation(observer), b.public_view()), observations[0]);
    for (i, &(seat, action)) in actions.iter().enumerate() {
        b.apply(seat, action)
            .unwrap_or_else(|e| panic!("step {i}: {action:?} refused in the twin: {e}"));
        let (obs, view) = &observations[i + 1];
        assert_eq!(&b.observation(observer), obs, "step {i}: {seat} {action:?}");
        assert_eq!(&b.public_view(), view, "step {i}");
    }
    // The twin really differs somewhere the observer cannot see (most of the time).
    usize::from(b.hand(other) != a.hand(other) || b.stock() != a.stock())
}

#[test]
fn gr_16_observation_does_not_depend_on_the_other_hand_the_stock_or_the_seed() {
    let mut differed = 0;
    let mut n = 0;
    for first_upcard in [FirstUpcard::Standard, FirstUpcard::Seed] {
        for wall_knock in [false, true] {
            for discard_taken_upcard in [false, true] {
                let options = Options {
                    first_upcard,
                    wall_knock,
                    discard_taken_upcard,
                    ..Options::default()
                };
                for seed in 0..500 {
                    differed += trial(options, seed);
                    n += 1;
                }
            }
        }
    }
    assert!(differed * 10 > n * 9, "only {differed} of {n} twins differed");
}

#[test]
fn gr_15_the_public_view_is_the_same_for_both_seats_and_spectators() {
    let mut state = State::new(Options::default(), 99).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    for _ in 0..500 {
        let Some(seat) = state.to_act() else { break };
        let view = state.public_view();
        assert_eq!(state.observation(Seat(0)).public, view);
        assert_eq!(state.observation(Seat(1)).public, view);
        let legal = state.legal_actions();
        let go_out = legal.iter().find(|a| matches!(a, Action::Knock { .. } | Action::Gin { .. }));
        let action = go_out.copied().unwrap_or(legal[rng.random_range(0..legal.len())]);
        state.apply(seat, action).unwrap();
    }
}
