//! The timeout policy, `Game::default_action` (docs/protocol.md, "Clocks, strikes and the
//! default action"), and the seat counts `Game::new` accepts, named after the rules they follow.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeSet;

use cardroom_games::gin::{self, CardSet, Phase, solver};
use cardroom_games::twenty_two::{self, Cards, Packs, PhaseView};
use cardroom_games::{Card, Game, GameKind};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Most actions played in one random Gin Rummy match: with `knock_limit` 0 random play seldom
/// goes out and a match can take thousands of hands.
const MAX_ACTIONS: usize = 600;

/// Plays random matches of `G` (to the end, or `max_actions` actions) and calls `check` on
/// every state, the final one included.
fn for_random_states<G: Game>(
    matches: u64,
    max_actions: usize,
    mut start: impl FnMut(&mut ChaCha8Rng, u64) -> G,
    mut check: impl FnMut(&G),
) {
    for seed in 0..matches {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = start(&mut rng, seed);
        check(&state);
        for _ in 0..max_actions {
            let Some(seat) = state.to_act() else { break };
            let legal = state.legal_actions();
            let action = legal[rng.random_range(0..legal.len())];
            state.apply(seat, action).unwrap();
            check(&state);
        }
    }
}

fn random_gin(rng: &mut ChaCha8Rng, seed: u64) -> gin::State {
    let options = common::random_gin_options(rng);
    Game::new(options, 2, seed).unwrap()
}

fn random_twenty_two(rng: &mut ChaCha8Rng, seed: u64) -> twenty_two::State {
    let (options, players) = common::random_twenty_two_options(rng);
    Game::new(options, players, seed).unwrap()
}

#[test]
fn tt_9_tt_11_tt_12_default_action_is_the_cautious_lowest_legal_action() {
    let mut seen = BTreeSet::new();
    let mut matches_over = 0;
    for_random_states(150, usize::MAX, random_twenty_two, |state| {
        let Some(seat) = state.to_act() else {
            assert_eq!(Game::default_action(state), None);
            matches_over += 1;
            return;
        };
        let legal = state.legal_actions();
        let action = Game::default_action(state).unwrap();
        assert_eq!(action, legal[0]);
        assert!(state.is_legal(seat, &action));
        let hand = state.hand(seat).unwrap();
        match state.phase() {
            PhaseView::Exchange { .. } => {
                assert_eq!(action, twenty_two::Action::Exchange(Cards::EMPTY));
                seen.insert("exchange");
            }
            PhaseView::Play { leader, to_act } if leader == to_act => {
                assert_eq!(action, twenty_two::Action::Play(hand.lowest(1)));
                seen.insert("lead");
            }
            PhaseView::Play { .. } => {
                let view = state.public_view();
                let led = view.tricks.last().unwrap().plays[0].cards.len();
                let duck = hand.lowest(led);
                assert_eq!(action, twenty_two::Action::Play(duck));
                // The duck is the lexicographically smallest multiset of `led` cards.
                for other in &legal {
                    assert_eq!(other.cards().len(), led);
                    assert!(duck.as_slice() <= other.cards().as_slice());
                }
                seen.insert("follow");
            }
            PhaseView::Over => panic!("a seat is to act at the end"),
        }
    });
    assert_eq!(matches_over, 150);
    assert_eq!(seen.len(), 3, "{seen:?}");
}

#[test]
fn tt_21_matches_of_default_actions_end_and_forfeits_are_played_out() {
    assert!(!<twenty_two::State as Game>::forfeit_ends_match());
    for seed in 0..50 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = random_twenty_two(&mut rng, seed);
        while let Some(seat) = state.to_act() {
            let action = Game::default_action(&state).unwrap();
            state.apply(seat, action).unwrap();
        }
        assert!(state.outcome().is_some());
        assert_eq!(Game::default_action(&state), None);
    }
}

/// The deadwood left in the ten cards kept after discarding `card`.
fn left(hand: CardSet, card: Card) -> u8 {
    solver::deadwood(hand - CardSet::single(card)).unwrap()
}

/// The default action of a seat that took the upcard at the wall (GR-10): big gin, else gin,
/// else the knock with the least deadwood.
fn check_forced_go_out(state: &gin::State, action: gin::Action) {
    let seat = state.to_act().unwrap();
    let legal = state.legal_actions();
    assert!(legal.contains(&action), "{action:?} not in {legal:?}");
    let deadwood = |action: gin::Action| match action {
        gin::Action::BigGin | gin::Action::Gin { .. } => 0,
        gin::Action::Knock { discard, melds } => {
            (state.hand(seat) - CardSet::single(discard) - melds.cards()).value()
        }
        other => panic!("{other:?} does not go out"),
    };
    let least = legal.iter().map(|&a| deadwood(a)).min().unwrap();
    assert_eq!(deadwood(action), least);
    if legal.contains(&gin::Action::BigGin) {
        assert_eq!(action, gin::Action::BigGin);
    }
}

#[test]
fn gr_5_gr_6_gr_10_default_action_is_legal_and_never_goes_out_by_choice() {
    let mut seen = BTreeSet::new();
    for_random_states(400, MAX_ACTIONS, random_gin, |state| {
        let Some(seat) = state.to_act() else {
            assert_eq!(Game::default_action(state), None);
            return;
        };
        let legal = state.legal_actions();
        let action = Game::default_action(state).unwrap();
        assert!(legal.contains(&action), "{action:?} not in {legal:?}");
        let hand = state.hand(seat);
        match state.phase() {
            Phase::FirstUpcard { .. } => {
                assert_eq!(action, gin::Action::PassUpcard);
                seen.insert("first upcard");
            }
            Phase::Wall { .. } => {
                assert_eq!(action, gin::Action::PassUpcard);
                seen.insert("wall");
            }
            Phase::Draw { .. } => {
                assert_eq!(action, gin::Action::DrawStock);
                seen.insert("draw");
            }
            Phase::Discard { must_go_out: false, taken, .. } => {
                let gin::Action::Discard(card) = action else {
                    panic!("{action:?} is not a discard");
                };
                let best = legal
                    .iter()
                    .filter_map(|a| match a {
                        gin::Action::Discard(c) => Some(left(hand, *c)),
                        _ => None,
                    })
                    .min()
                    .unwrap();
                assert_eq!(left(hand, card), best);
                // Among equals, the highest card (ace low, then suit).
                for other in &legal {
                    if let gin::Action::Discard(other) = *other
                        && left(hand, other) == best
                    {
                        let key = |c: Card| (c.rank().ace_low_index(), c.suit());
                        assert!(key(other) <= key(card), "{other} beats {card}");
                    }
                }
                if taken.is_some() && !state.options().discard_taken_upcard {
                    assert_ne!(Some(card), taken);
                }
                seen.insert("discard");
            }
            Phase::Discard { must_go_out: true, .. } => {
                check_forced_go_out(state, action);
                seen.insert("must go out");
            }
            Phase::MatchOver => panic!("a seat is to act at the end"),
        }
    });
    // Taking the upcard at the wall is rare in random play; the next test seeks it.
    for kind in ["discard", "draw", "first upcard", "wall"] {
        assert!(seen.contains(kind), "{kind} not met: {seen:?}");
    }
}

#[test]
fn gr_10_default_action_goes_out_only_when_the_wall_demands_it() {
    assert!(<gin::State as Game>::forfeit_ends_match());
    // Seats play the default actions, which reach the wall every hand, but take the upcard at
    // the wall whenever they may (`wall_knock`); then they must go out.
    let mut forced = 0;
    for seed in 0..40 {
        let options = gin::Options { wall_knock: true, target: 50, ..gin::Options::default() };
        let mut state: gin::State = Game::new(options, 2, seed).unwrap();
        for _ in 0..MAX_ACTIONS {
            let Some(seat) = state.to_act() else { break };
            let legal = state.legal_actions();
            let default = Game::default_action(&state).unwrap();
            let action = match state.phase() {
                Phase::Wall { .. } if legal.contains(&gin::Action::DrawDiscard) => {
                    gin::Action::DrawDiscard
                }
                Phase::Discard { must_go_out: true, .. } => {
                    check_forced_go_out(&state, default);
                    forced += 1;
                    default
                }
                _ => {
                    assert!(
                        !matches!(
                            default,
                            gin::Action::Knock { .. }
                                | gin::Action::Gin { .. }
                                | gin::Action::BigGin
                        ),
                        "{default:?}"
                    );
                    default
                }
            };
            state.apply(seat, action).unwrap();
        }
    }
    assert!(forced >= 10, "{forced}");
}

#[test]
fn gr_1_gin_rummy_seats_two_and_refuses_any_other_table() {
    assert_eq!(<gin::State as Game>::seats(&gin::Options::default()), 2..=2);
    for players in [0, 1, 3, 4, u8::MAX] {
        let error = <gin::State as Game>::new(gin::Options::default(), players, 1).unwrap_err();
        assert_eq!(error, gin::SetupError::Players(players));
        assert_eq!(
            error.to_string(),
            format!("GR-1: Gin Rummy is played by 2 players, not {players}")
        );
    }
    assert!(<gin::State as Game>::new(gin::Options::default(), 2, 1).is_ok());
}

#[test]
fn tt_3_tt_4_the_seat_range_is_what_new_accepts() {
    let table = |packs| twenty_two::Options { packs, ..twenty_two::Options::default() };
    for (packs, max) in
        [(Packs::Auto, 12), (Packs::Fixed(1), 12), (Packs::Fixed(2), 16), (Packs::Fixed(4), 16)]
    {
        let options = table(packs);
        assert_eq!(<twenty_two::State as Game>::seats(&options), 2..=max, "{packs:?}");
        for players in 0..=20u8 {
            let made = <twenty_two::State as Game>::new(options, players, 1);
            assert_eq!(made.is_ok(), (2..=max).contains(&players), "{packs:?}, {players}");
            if let Err(error) = made {
                assert!(error.to_string().starts_with("TT-4: "), "{error}");
            }
        }
    }
    // ListGames publishes the default options' range, which the catalogue gives.
    assert_eq!(GameKind::TwentyTwo.seats(), 2..=12);
}
