//! The table ([`Table`]) over many seeded random matches of both games: no perspective shows a
//! card its viewer may not see (TT-24, TT-25, GR-15, GR-16), every hand is there with its size,
//! a seat sees its own hand, and the piles are the match's own.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeSet;

use cardroom_games::{Card, Game, Perspective, Seat, Table, gin, twenty_two};
use common::cards_in;
use rand::SeedableRng as _;
use rand::seq::IndexedRandom as _;
use rand_chacha::ChaCha8Rng;

/// A seat's hand as its observation holds it.
fn hand_of<G: Game>(state: &G, seat: Seat) -> Vec<Card> {
    let observation = serde_json::to_value(state.observation(seat)).unwrap();
    let mut hand: Vec<Card> = observation["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().parse().unwrap())
        .collect();
    hand.sort();
    hand
}

fn sorted(cards: &[Card]) -> Vec<Card> {
    let mut cards = cards.to_vec();
    cards.sort();
    cards
}

/// The checks every game's tables pass, at one moment of a match: what each perspective shows
/// face up is within what its viewer receives (the public view, or the seat's observation),
/// every hand has its size, one's own hand is face up, and the turn is the match's.
fn check_tables<G: Game>(state: &G, context: &str) {
    let public = cards_in(&state.public_view());
    let hands: Vec<Vec<Card>> = (0..state.players()).map(|s| hand_of(state, Seat(s))).collect();
    let spectator = state.table(Perspective::Spectator);
    let everyone = state.table(Perspective::Everyone);
    for table in [&spectator, &everyone] {
        assert_eq!(table.seats.len(), usize::from(state.players()), "{context}");
        assert_eq!(table.to_act(), state.to_act(), "{context}");
    }
    assert_eq!(spectator.perspective, Perspective::Spectator);
    let shown: BTreeSet<Card> = spectator.face_up().into_iter().collect();
    let leaked: Vec<_> = shown.difference(&public).collect();
    assert!(leaked.is_empty(), "{context}: the spectator sees {leaked:?}");
    for (i, row) in spectator.seats.iter().enumerate() {
        assert_eq!(row.hand.len(), hands[i].len(), "{context}: seat {i}'s hand size");
        assert_eq!(row.to_act, state.to_act() == Some(row.seat), "{context}");
    }
    for seat in (0..state.players()).map(Seat) {
        let table = state.table(Perspective::Seat(seat));
        assert_eq!(table.perspective, Perspective::Seat(seat));
        let may_see = cards_in(&state.observation(seat));
        let shown: BTreeSet<Card> = table.face_up().into_iter().collect();
        let leaked: Vec<_> = shown.difference(&may_see).collect();
        assert!(leaked.is_empty(), "{context}: {seat} sees {leaked:?}");
        let own = &table.seats[seat.index()].hand;
        assert_eq!((sorted(&own.shown), own.hidden), (hands[seat.index()].clone(), 0), "{context}");
        // The others' hands: their size, no more than the spectator sees of them.
        for (i, row) in table.seats.iter().enumerate().filter(|(i, _)| *i != seat.index()) {
            assert_eq!(row.hand, spectator.seats[i].hand, "{context}: {seat} sees seat {i}");
        }
        // The middle is the same for everybody.
        assert_eq!((&table.piles, &table.centre), (&spectator.piles, &spectator.centre));
    }
    // A seat the match has not sees what a spectator sees.
    assert_eq!(state.table(Perspective::Seat(Seat(state.players()))), spectator, "{context}");
    // A finished match's replay shows every hand face up.
    for (i, row) in everyone.seats.iter().enumerate() {
        assert_eq!((sorted(&row.hand.shown), row.hand.hidden), (hands[i].clone(), 0), "{context}");
    }
}

/// Each event's line names only the cards the event itself names (it is public).
fn check_lines<G: Game>(events: &[G::Event], context: &str) {
    for event in events {
        let line = G::event_line(event);
        let named: BTreeSet<Card> = line.cards_named().collect();
        assert!(named.is_subset(&cards_in(event)), "{context}: {line} names more than {event:?}");
    }
}

/// Plays `state` out with random legal actions, checking its tables at every step; `check`
/// adds the game's own checks.
fn play_out<G: Game>(mut state: G, seed: u64, check: impl Fn(&G, &Table, &str)) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut steps = 0;
    check_lines::<G>(&state.opening_events(), &format!("seed {seed}, the deal"));
    loop {
        let context = format!("seed {seed}, step {steps}");
        check_tables(&state, &context);
        check(&state, &state.table(Perspective::Spectator), &context);
        let Some(seat) = state.to_act() else { break };
        let action = *state.legal_actions().choose(&mut rng).unwrap();
        let events = state.apply(seat, action).unwrap();
        check_lines::<G>(&events, &context);
        steps += 1;
    }
    assert!(state.table(Perspective::Spectator).over, "seed {seed}: over at the end");
    steps
}

#[test]
fn gin_tables_show_no_hidden_card_and_the_discard_piles_top_gr_15_gr_16() {
    let mut steps = 0;
    let known_shown = std::cell::Cell::new(0usize);
    for seed in 0..20 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let options = gin::Options { target: 25, ..common::random_gin_options(&mut rng) };
        let state = gin::State::new(options, seed).unwrap();
        steps += play_out(state, seed, |state, table, context| {
            let top = state.discard_pile().last().map(|p| p.card);
            let pile = table.pile("discard pile").unwrap();
            assert_eq!(pile.top.last().copied(), top, "{context}: the discard pile's top");
            assert_eq!(pile.count, state.discard_pile().len(), "{context}");
            let view = Game::public_view(state);
            assert_eq!(table.pile("stock").unwrap().count, view.stock_size, "{context}");
            // GR-15's other half: the cards a seat took from the discard pile, and holds, are
            // face up in its hand for everybody, and no others.
            for (i, row) in table.seats.iter().enumerate() {
                let known = view.known_cards[i].to_vec();
                assert_eq!(sorted(&row.hand.shown), sorted(&known), "{context}");
                known_shown.set(known_shown.get() + known.len());
            }
        });
    }
    assert!(steps > 1_000, "{steps} steps checked");
    assert!(
        known_shown.get() > 100,
        "{} cards taken from the discard pile seen face up",
        known_shown.get()
    );
}

#[test]
fn twenty_two_tables_show_no_hidden_card_and_the_trick_under_way_tt_24_tt_25() {
    let mut steps = 0;
    for seed in 0..20 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (options, players) = common::random_twenty_two_options(&mut rng);
        let state = twenty_two::State::new(options, players, seed).unwrap();
        steps += play_out(state, seed, |state, table, context| {
            let view = Game::public_view(state);
            assert_eq!(table.pile("stock").unwrap().count, view.stock_len, "{context}");
            // The trick under way, once it has a play, is the middle's, play for play (TT-13).
            if let Some(trick) = view.tricks.last().filter(|t| !t.plays.is_empty()) {
                let area = &table.centre[0];
                let plays: Vec<(Option<Seat>, Vec<Card>)> =
                    area.groups.iter().map(|g| (g.seat, g.cards.clone())).collect();
                let expected: Vec<(Option<Seat>, Vec<Card>)> = trick
                    .plays
                    .iter()
                    .map(|p| (Some(p.seat), p.cards.as_slice().to_vec()))
                    .collect();
                assert_eq!(plays, expected, "{context}");
            }
        });
    }
    assert!(steps > 1_000, "{steps} steps checked");
}
