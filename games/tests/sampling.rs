//! `sample_from_observation` (and [`Game::sample`]) for both games, over random seeded matches
//! and every seat: the sample shows the seat exactly its observation, conserves the cards, gives
//! the seat the same legal actions, deals the hidden cards differently for different RNG seeds
//! (and uniformly), plays on to the end, and refuses observations no engine could produce.
//!
//! Nothing is excluded from the comparison: the whole observation (public view, own hand, own
//! discards or drawn card, legal actions) must be equal.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

mod common;

use cardroom_games::gin::{self, CardSet, FirstUpcard};
use cardroom_games::twenty_two;
use cardroom_games::{Card, Game, Seat};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// No match comes near this many decisions; reaching it means a stuck state.
const MAX_DECISIONS: usize = 100_000;

fn gin_options(rng: &mut ChaCha8Rng) -> gin::Options {
    let oklahoma = rng.random_bool(0.3);
    gin::Options {
        first_upcard: if rng.random_bool(0.5) { FirstUpcard::Standard } else { FirstUpcard::Seed },
        discard_taken_upcard: rng.random_bool(0.5),
        big_gin: rng.random_bool(0.5),
        wall_knock: rng.random_bool(0.5),
        oklahoma,
        oklahoma_spades_double: oklahoma && rng.random_bool(0.5),
        knock_limit: rng.random_range(0..=10),
        target: *[25u32, 100].choose(rng).unwrap(),
        ..gin::Options::default()
    }
}

/// The checks every game shares, through the [`Game`] trait: the sample's observation for the
/// seat is the real one, and so are whose turn it is and the seat's legal actions.
fn check_sample<G: Game>(state: &G, seat: Seat, rng: &mut ChaCha8Rng, label: &str) -> G {
    let observation = state.observation(seat);
    let sample = G::sample(&observation, rng).unwrap_or_else(|e| panic!("{label}: {e}"));
    assert_eq!(sample.observation(seat), observation, "{label}: {seat}");
    assert_eq!(sample.public_view(), state.public_view(), "{label}: {seat}");
    assert_eq!(sample.to_act(), state.to_act(), "{label}: {seat}");
    if state.to_act() == Some(seat) {
        assert_eq!(sample.legal_actions(), state.legal_actions(), "{label}: {seat}");
    }
    assert!(sample.record().is_none(), "{label}: a sample has no record");
    sample
}

fn twenty_two_conserved(state: &twenty_two::State, label: &str) {
    let packs = u32::from(state.packs());
    let counts = state.card_counts();
    assert!(counts.iter().all(|&n| n == packs), "{label}: cards not conserved: {counts:?}");
}

/// The cards of the other seats' hands and the stock, as one comparable list.
fn twenty_two_hidden(state: &twenty_two::State, seat: Seat) -> Vec<Vec<Card>> {
    (0..state.players())
        .map(Seat)
        .filter(|&other| other != seat)
        .map(|other| state.hand(other).map_or_else(Vec::new, |h| h.as_slice().to_vec()))
        .collect()
}

/// Plays on from `state` with random legal actions; returns the decisions taken.
fn play_out<G: Game>(mut state: G, rng: &mut ChaCha8Rng, until: impl Fn(&G) -> bool) -> usize {
    let mut decisions = 0;
    while let Some(seat) = state.to_act() {
        if until(&state) {
            break;
        }
        let legal = state.legal_actions();
        let action = *legal.choose(rng).unwrap();
        state.apply(seat, action).unwrap();
        decisions += 1;
        assert!(decisions < MAX_DECISIONS, "stuck");
    }
    decisions
}

#[test]
fn twenty_two_samples_match_every_observation_of_500_random_matches() {
    let mut samples = 0usize;
    for seed in 0..500u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (options, players) = common::random_twenty_two_options(&mut rng);
        let label = format!("seed {seed}, {players} players, {options:?}");
        let mut state = twenty_two::State::new(options, players, seed).unwrap();
        let mut decisions = 0usize;
        let play_on_at = rng.random_range(0..40usize);
        loop {
            if decisions.is_multiple_of(3) || state.to_act().is_none() {
                for seat in (0..players).map(Seat) {
                    let sample = check_sample(&state, seat, &mut rng, &label);
                    if state.to_act().is_some() {
                        twenty_two_conserved(&sample, &label);
                    }
                    samples += 1;
                    if decisions == play_on_at {
                        play_out(sample, &mut rng, |_| false);
                    }
                }
            }
            let Some(seat) = state.to_act() else { break };
            let action = *state.legal_actions().choose(&mut rng).unwrap();
            state.apply(seat, action).unwrap();
            decisions += 1;
            assert!(decisions < MAX_DECISIONS, "{label}: stuck");
        }
    }
    assert!(samples > 10_000, "{samples}");
}

#[test]
fn gin_samples_match_every_observation_of_300_random_matches() {
    let mut samples = 0usize;
    let mut played_on = 0usize;
    for seed in 0..300u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let options = gin_options(&mut rng);
        let label = format!("seed {seed}, {options:?}");
        let mut state = gin::State::new(options, seed).unwrap();
        let mut decisions = 0usize;
        loop {
            for seat in [Seat(0), Seat(1)] {
                let sample = check_sample(&state, seat, &mut rng, &label);
                if !state.is_over() {
                    let mut all = CardSet::EMPTY;
                    let mut count = 0;
                    let places = [sample.hand(Seat(0)), sample.hand(Seat(1))]
                        .into_iter()
                        .flat_map(CardSet::iter)
                        .chain(sample.stock())
                        .chain(sample.discard_pile().iter().map(|p| p.card));
                    for card in places {
                        all.insert(card);
                        count += 1;
                    }
                    assert!(count == 52 && all == CardSet::FULL, "{label}: cards not conserved");
                }
                samples += 1;
                if decisions % 17 == 5 {
                    // Random play until the hand ends: the wall bounds it (GR-10).
                    let hand = state.hand_number();
                    play_out(sample, &mut rng, |s: &gin::State| s.hand_number() > hand);
                    played_on += 1;
                }
            }
            let Some(seat) = state.to_act() else { break };
            let legal = state.legal_actions();
            // Go out when possible, so that matches end; otherwise random.
            let action = legal
                .iter()
                .copied()
                .find(|a| matches!(a, gin::Action::Gin { .. } | gin::Action::BigGin))
                .or_else(|| legal.iter().copied().find(|a| matches!(a, gin::Action::Knock { .. })))
                .unwrap_or_else(|| *legal.choose(&mut rng).unwrap());
            state.apply(seat, action).unwrap();
            decisions += 1;
            // Random discards rarely go out (never with a knock limit of 0): enough of a match
            // is seen after a few hands.
            if decisions == 400 {
                break;
            }
        }
    }
    assert!(samples > 10_000 && played_on > 100, "{samples} {played_on}");
}

#[test]
fn gin_samples_play_on_to_the_end_of_the_match() {
    for seed in 0..50u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state =
            gin::State::new(gin::Options { target: 25, ..Default::default() }, seed).unwrap();
        for _ in 0..rng.random_range(0..30) {
            let Some(seat) = state.to_act() else { break };
            let action = *state.legal_actions().choose(&mut rng).unwrap();
            state.apply(seat, action).unwrap();
        }
        let seat = Seat(rng.random_range(0..2u8));
        let mut sample =
            gin::State::sample_from_observation(&state.observation(seat), &mut rng).unwrap();
        let mut decisions = 0;
        while let Some(seat) = sample.to_act() {
            let legal = sample.legal_actions();
            let out = legal.iter().copied().find(|a| {
                matches!(
                    a,
                    gin::Action::Gin { .. } | gin::Action::BigGin | gin::Action::Knock { .. }
                )
            });
            let action = out.unwrap_or_else(|| *legal.choose(&mut rng).unwrap());
            sample.apply(seat, action).unwrap();
            decisions += 1;
            assert!(decisions < MAX_DECISIONS, "seed {seed}: stuck");
        }
        assert!(sample.outcome().is_some(), "seed {seed}");
    }
}

#[test]
fn samples_differ_across_rng_seeds_in_the_hidden_cards() {
    for seed in 0..50u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (options, players) = common::random_twenty_two_options(&mut rng);
        let state = twenty_two::State::new(options, players, seed).unwrap();
        for seat in (0..players).map(Seat) {
            let observation = state.observation(seat);
            let hidden: Vec<Vec<Vec<Card>>> = (0..4u64)
                .map(|s| {
                    let mut rng = ChaCha8Rng::seed_from_u64(s);
                    let sample =
                        twenty_two::State::sample_from_observation(&observation, &mut rng).unwrap();
                    twenty_two_hidden(&sample, seat)
                })
                .collect();
            // With two or more distinct unseen cards at the first exchange, four identical
            // deals would be a broken shuffle.
            assert!(hidden.windows(2).any(|w| w[0] != w[1]), "seed {seed} {seat}");
        }

        let state = gin::State::new(gin::Options::default(), seed).unwrap();
        for seat in [Seat(0), Seat(1)] {
            let observation = state.observation(seat);
            let other = Seat(1 - seat.0);
            let hands: Vec<CardSet> = (0..4u64)
                .map(|s| {
                    let mut rng = ChaCha8Rng::seed_from_u64(s);
                    gin::State::sample_from_observation(&observation, &mut rng).unwrap().hand(other)
                })
                .collect();
            assert!(hands.windows(2).any(|w| w[0] != w[1]), "seed {seed} {seat}");
            // The observer's own hand never moves.
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let sample = gin::State::sample_from_observation(&observation, &mut rng).unwrap();
            assert_eq!(sample.hand(seat), state.hand(seat));
        }
    }
}

#[test]
fn gin_samples_are_uniform_over_the_unseen_cards() {
    // At the first upcard the opponent's 10 cards come from the 41 unseen ones: each unseen card
    // is in its hand with probability 10/41. 8,200 samples: about 2,000 per card, and a
    // binomial standard deviation of about 39, so 2,000 ± 200 is a five-sigma band.
    let state = gin::State::new(gin::Options::default(), 3).unwrap();
    let observation = state.observation(Seat(0));
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut counts = [0u32; 52];
    for _ in 0..8_200 {
        let sample = gin::State::sample_from_observation(&observation, &mut rng).unwrap();
        for card in sample.hand(Seat(1)) {
            counts[usize::from(card.index())] += 1;
        }
    }
    let seen = state.hand(Seat(0)) | CardSet::single(state.discard_pile()[0].card);
    for card in Card::pack() {
        let n = counts[usize::from(card.index())];
        if seen.contains(card) {
            assert_eq!(n, 0, "{card}");
        } else {
            assert!((1_800..=2_200).contains(&n), "{card}: {n}");
        }
    }
}

#[test]
fn observations_no_engine_could_produce_are_refused() {
    // Twenty-Two: a card the seat holds is also in the penalty piles more often than the packs
    // allow.
    let state = twenty_two::State::new(twenty_two::Options::default(), 4, 1).unwrap();
    let mut observation = state.observation(Seat(0));
    let card = observation.hand.as_slice()[0];
    observation.public.seats[1].penalty_pile.push(card);
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    assert!(matches!(
        twenty_two::State::sample_from_observation(&observation, &mut rng),
        Err(twenty_two::SetupError::Cards(_))
    ));
    // A stock larger than the unseen cards.
    let mut observation = state.observation(Seat(0));
    observation.public.stock_len += 1;
    assert!(twenty_two::State::sample_from_observation(&observation, &mut rng).is_err());
    // A seat past the table.
    let mut observation = state.observation(Seat(0));
    observation.seat = Seat(9);
    assert!(matches!(
        twenty_two::State::sample_from_observation(&observation, &mut rng),
        Err(twenty_two::SetupError::NoSuchSeat { .. })
    ));

    // Gin: the upcard also in the seat's hand.
    let state = gin::State::new(gin::Options::default(), 1).unwrap();
    let mut observation = state.observation(Seat(1));
    let upcard = observation.public.discard_pile[0].card;
    observation.hand.insert(upcard);
    assert_eq!(
        gin::State::sample_from_observation(&observation, &mut rng).unwrap_err(),
        gin::SetupError::Duplicate(upcard)
    );
    // More known cards than the opponent holds.
    let mut observation = state.observation(Seat(1));
    observation.public.hand_sizes[0] = 0;
    observation.public.known_cards[0] = state.hand(Seat(0));
    assert!(matches!(
        gin::State::sample_from_observation(&observation, &mut rng),
        Err(gin::SetupError::HandSize { .. })
    ));
    let mut observation = state.observation(Seat(1));
    observation.seat = Seat(2);
    assert!(gin::State::sample_from_observation(&observation, &mut rng).is_err());
}
