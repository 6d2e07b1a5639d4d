//! The text harness (`cardroom_games::text`, issue 46) over many seeded random matches of both
//! games, at every decision of each:
//!
//! - the legal actions (the first, the last, and every sixth of the list between) read back
//!   from their number, their words, both (as the list writes them) and their words with
//!   cards as lower-case codes (`7d`, `th`);
//! - no two legal actions share their words;
//! - the text names no card its seat may not see (TT-24, TT-25, GR-15): every card it writes
//!   is in the seat's observation or in the public events since its last turn;
//!
//! and each refusal says why: an empty reply, a number out of the list, a word no action has,
//! words that fit none, a number and words that disagree, words that fit several.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeSet;

use cardroom_games::text::{ReplyError, parse_reply, turn_text};
use cardroom_games::{Card, Game, Line, Perspective, gin, holdem, twenty_two};
use common::cards_in;
use rand::SeedableRng as _;
use rand::seq::IndexedRandom as _;
use rand_chacha::ChaCha8Rng;

/// `text` with every card written as its lower-case code (`7♦` as `7d`, `10♥` as `th`).
fn with_codes(text: &str) -> String {
    text.split(' ')
        .map(|word| match word.trim_matches(|c| "[],".contains(c)).parse::<Card>() {
            Ok(card) => word.replace(&card.to_string(), &card.code().to_lowercase()),
            Err(_) => word.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The checks at one decision of `state`, whose seat to act has seen `recent` since its last
/// turn.
fn check_turn<G: Game>(state: &G, recent: &[Line], context: &str) {
    let seat = state.to_act().unwrap();
    let legal = state.legal_actions();
    let table = state.table(Perspective::Seat(seat));
    let text = turn_text(&table, recent, &legal);
    // What the seat may see: its observation, and the public events since its last turn
    // (cards of an earlier hand or deal that its observation no longer holds).
    let mut may_see = cards_in(&state.observation(seat));
    may_see.extend(recent.iter().flat_map(Line::cards_named));
    let leaked: Vec<Card> =
        Card::pack().filter(|c| !may_see.contains(c) && text.contains(&c.to_string())).collect();
    assert!(leaked.is_empty(), "{context}: the text shows {seat} {leaked:?}:\n{text}");
    assert!(text.contains(&format!("{seat} (you)")), "{context}:\n{text}");
    let words: BTreeSet<String> = legal.iter().map(ToString::to_string).collect();
    assert_eq!(words.len(), legal.len(), "{context}: two actions share their words");
    // The first and last actions and a few between (a Twenty-Two exchange may have hundreds).
    let step = (legal.len() / 6).max(1);
    let checked = (0..legal.len()).step_by(step).chain([legal.len() - 1]);
    for (i, action) in checked.map(|i| (i, &legal[i])) {
        let number = i + 1;
        let line = format!("{number}. {action}");
        // Hold'em's raises are listed as one run (`3-199. raise to 4, 5, … 200`).
        let in_run =
            matches!(action.to_string().rsplit_once(' '), Some((_, n)) if n.parse::<u32>().is_ok());
        assert!(in_run || text.contains(&line), "{context}: {line:?} is not listed:\n{text}");
        for reply in [number.to_string(), action.to_string(), line, with_codes(&action.to_string())]
        {
            assert_eq!(parse_reply(&reply, &legal).as_ref(), Ok(action), "{context}: {reply:?}");
        }
    }
}

/// Plays `matches` random matches of `G` from `start(seed)`, checking every decision.
fn check_matches<G: Game>(matches: u64, start: impl Fn(u64) -> G) -> usize {
    let mut decisions = 0;
    for seed in 0..matches {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = start(seed);
        let players = usize::from(state.players());
        let opening: Vec<Line> = state.opening_events().iter().map(G::event_line).collect();
        let mut recent = vec![opening; players];
        while let Some(seat) = state.to_act() {
            check_turn(&state, &recent[seat.index()], &format!("{} seed {seed}", G::NAME));
            decisions += 1;
            recent[seat.index()].clear();
            let action = *state.legal_actions().choose(&mut rng).unwrap();
            let events = state.apply(seat, action).unwrap();
            for lines in &mut recent {
                lines.extend(events.iter().map(G::event_line));
            }
        }
    }
    decisions
}

#[test]
fn legal_actions_read_back_and_no_text_leaks_in_gin_rummy() {
    let options = gin::Options { target: 50, ..gin::Options::default() };
    let decisions = check_matches(6, |seed| gin::State::new(options, seed).unwrap());
    assert!(decisions > 500, "{decisions}");
}

#[test]
fn legal_actions_read_back_and_no_text_leaks_in_twenty_two() {
    let mut decisions = 0;
    for players in [2, 3, 5, 8] {
        let options = twenty_two::Options { limit: 12, ..twenty_two::Options::default() };
        decisions += check_matches(3, |seed| {
            twenty_two::State::new(options, players, seed * 31 + u64::from(players)).unwrap()
        });
    }
    assert!(decisions > 300, "{decisions}");
}

#[test]
fn legal_actions_read_back_and_no_text_leaks_in_holdem() {
    let mut decisions = 0;
    for players in [2, 6] {
        let options = holdem::Options { hands: 6, stack: 60, ..holdem::Options::default() };
        decisions += check_matches(10, |seed| holdem::State::new(options, players, seed).unwrap());
    }
    assert!(decisions > 150, "{decisions}");
}

/// Hold'em's raises: one line for every size, and a size read back as a word, not as the
/// action's number.
#[test]
fn a_run_of_raises_is_one_line_and_its_sizes_read_back() {
    let state = holdem::State::new(holdem::Options::default(), 2, 1).unwrap();
    let seat = state.to_act().unwrap();
    let legal = state.legal_actions();
    let text = turn_text(&state.table(Perspective::Seat(seat)), &[], &legal);
    assert!(text.contains("1. fold\n2. call\n3-199. raise to 4, 5, … 200 (one action"), "{text}");
    assert_eq!(parse_reply("raise to 37", &legal), Ok(holdem::Action::RaiseTo(37)));
    assert_eq!(parse_reply("37", &legal), Ok(holdem::Action::RaiseTo(38)));
    assert_eq!(parse_reply("raise 200", &legal), Ok(holdem::Action::RaiseTo(200)));
    assert_eq!(parse_reply("3. raise to 4", &legal), Ok(holdem::Action::RaiseTo(4)));
    assert!(matches!(parse_reply("raise to 201", &legal), Err(ReplyError::UnknownWord { .. })));
    assert!(matches!(parse_reply("37. raise to 4", &legal), Err(ReplyError::Disagrees { .. })));
}

/// Gin Rummy's first decision: take the upcard or pass (GR-5).
#[test]
fn replies_at_the_upcard_and_their_refusals() {
    let state = gin::State::new(gin::Options::default(), 3).unwrap();
    let legal = state.legal_actions();
    assert_eq!(legal, [gin::Action::TakeUpcard, gin::Action::PassUpcard]);
    for reply in ["pass", "PASS", " 2 ", "#2", "2.", "2. pass", "pa"] {
        assert_eq!(parse_reply(reply, &legal), Ok(gin::Action::PassUpcard), "{reply:?}");
    }
    for reply in ["take", "take upcard", "Take the upcard.", "1"] {
        assert_eq!(parse_reply(reply, &legal), Ok(gin::Action::TakeUpcard), "{reply:?}");
    }
    let refused = |reply: &str| parse_reply(reply, &legal).unwrap_err();
    assert_eq!(refused("  "), ReplyError::Empty { count: 2 });
    assert_eq!(refused("3"), ReplyError::NoSuchNumber { number: "3".into(), count: 2 });
    assert_eq!(refused("fold"), ReplyError::UnknownWord { word: "fold".into() });
    let disagrees = refused("1. pass");
    assert!(disagrees.to_string().contains("action 1 is \"take the upcard\""), "{disagrees}");
    let none = refused("take 7d");
    assert!(matches!(none, ReplyError::NoMatch { .. }), "{none:?}");
    assert!(none.to_string().contains("1. take the upcard; 2. pass"), "{none}");
    let long = "x".repeat(5_000);
    let echoed = refused(&long).to_string();
    assert!(echoed.len() < 200, "an error repeats at most 64 bytes of the reply: {echoed}");
    assert_eq!(parse_reply("pass", &Vec::<gin::Action>::new()), Err(ReplyError::NotYourTurn));
}

/// A reply that fits several actions equally names them; one that fits one exactly wins: at a
/// Gin Rummy discard where knocking is legal, `discard X` is the discard and `knock X` is
/// ambiguous when X leaves several ways to lay the melds (GR-7).
#[test]
fn a_reply_that_fits_several_actions_lists_them() {
    let mut seen = false;
    'search: for seed in 0..400 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = gin::State::new(gin::Options::default(), seed).unwrap();
        while let Some(seat) = state.to_act() {
            let legal = state.legal_actions();
            let knocks: Vec<Card> = legal
                .iter()
                .filter_map(|a| match a {
                    gin::Action::Knock { discard, .. } => Some(*discard),
                    _ => None,
                })
                .collect();
            if let Some(card) = knocks.iter().find(|c| knocks.iter().filter(|d| d == c).count() > 1)
            {
                let reply = format!("knock {}", card.code().to_lowercase());
                let refused = parse_reply(&reply, &legal).unwrap_err();
                assert!(matches!(refused, ReplyError::Ambiguous { .. }), "{refused:?}");
                assert!(refused.to_string().contains("give its number"), "{refused}");
                let discard = parse_reply(&format!("discard {card}"), &legal);
                assert_eq!(discard, Ok(gin::Action::Discard(*card)));
                seen = true;
                break 'search;
            }
            let action = *legal.choose(&mut rng).unwrap();
            state.apply(seat, action).unwrap();
        }
    }
    assert!(seen, "no knock with two layouts of its melds in 400 random matches");
}

/// Twenty-Two's words: a play by its cards in any notation and order, an exchange by a
/// prefix (TT-9, TT-12).
#[test]
fn twenty_two_replies_name_cards_in_any_notation() {
    let mut state = twenty_two::State::new(twenty_two::Options::default(), 3, 11).unwrap();
    let mut plays_checked = 0;
    while let Some(seat) = state.to_act() {
        let legal = state.legal_actions();
        for action in &legal {
            let cards = action.cards();
            let codes: Vec<String> =
                cards.as_slice().iter().rev().map(|c| c.code().to_lowercase()).collect();
            let reply = match action {
                twenty_two::Action::Exchange(_) if cards.is_empty() => "exch nothing".to_owned(),
                twenty_two::Action::Exchange(_) => format!("exch {}", codes.join(" ")),
                twenty_two::Action::Play(_) => format!("play {}", codes.join(", ")),
            };
            assert_eq!(parse_reply(&reply, &legal).as_ref(), Ok(action), "{reply:?}");
            plays_checked += 1;
        }
        let action = legal[legal.len() / 2];
        state.apply(seat, action).unwrap();
        if plays_checked > 200 {
            break;
        }
    }
    assert!(plays_checked > 200, "{plays_checked}");
}
