//! Twenty-Two, rule by rule: one or more tests per rule id of `docs/rules/twenty-two.md`
//! (named `tt_NN_…`) and per option (`option_…`), and every worked example of TT-16.

#![allow(clippy::unwrap_used)] // A test fails loudly on an unexpected error.

use cardroom_games::twenty_two::{
    Action, Cards, DealResult, Event, IllegalAction, Options, OptionsError, Packs, PhaseView,
    Setup, SetupError, State, TieBreak, TiedDealer, TrickWinner, Variant, penalty_value,
};
use cardroom_games::{Card, Rank, Seat, Standing, parse_cards};

fn cards(text: &str) -> Cards {
    Cards::new(&parse_cards(text).unwrap()).unwrap()
}

fn setup(dealer: u8, hands: &[&str]) -> Setup {
    Setup::with_hands(Seat(dealer), hands.iter().map(|h| parse_cards(h).unwrap()).collect())
}

/// A table at the start of its exchange; the stock is the rest of the pack.
fn table(options: Options, dealer: u8, hands: &[&str]) -> State {
    State::from_setup(options, setup(dealer, hands)).unwrap()
}

/// Everybody exchanges nothing.
fn skip_exchange(state: &mut State) {
    while let Some(seat) = state.to_act() {
        if !matches!(state.public_view().phase, PhaseView::Exchange { .. }) {
            break;
        }
        state.apply(seat, Action::Exchange(Cards::EMPTY)).unwrap();
    }
}

/// A table whose exchange is over: the first trick is to be led.
fn trick_table(dealer: u8, hands: &[&str]) -> State {
    let mut state = table(Options::default(), dealer, hands);
    skip_exchange(&mut state);
    state
}

fn play(state: &mut State, seat: u8, text: &str) -> Vec<Event> {
    state
        .apply(Seat(seat), Action::Play(cards(text)))
        .unwrap_or_else(|e| panic!("seat {seat} plays {text}: {e}"))
}

fn refuse(state: &mut State, seat: u8, action: Action) -> IllegalAction {
    let before = state.public_view();
    let error = state.apply(Seat(seat), action).expect_err("the action must be refused");
    assert_eq!(state.public_view(), before, "a refused action changes nothing");
    error
}

fn legal_plays(state: &State) -> Vec<Cards> {
    state
        .legal_actions()
        .into_iter()
        .map(|a| match a {
            Action::Play(c) => c,
            Action::Exchange(_) => panic!("not the tricks yet"),
        })
        .collect()
}

fn trick_winners(events: &[Event]) -> Vec<Seat> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TrickWon { seat } => Some(*seat),
            _ => None,
        })
        .collect()
}

fn deal_result(events: &[Event]) -> DealResult {
    events
        .iter()
        .find_map(|e| match e {
            Event::DealLost(result) => Some(result.clone()),
            _ => None,
        })
        .expect("the deal ended")
}

fn phase(state: &State) -> PhaseView {
    state.public_view().phase
}

// ---- TT-16: every worked example of the rules, data-driven --------------------------------

/// One worked trick: the hands (seat 0 leads; the dealer is the last seat), the plays in order,
/// the cards each follower may legally play where the example says so, and the winner.
struct WorkedTrick {
    name: &'static str,
    hands: &'static [&'static str],
    plays: &'static [&'static str],
    /// (seat, exactly these legal plays) checked just before that seat plays.
    legal: &'static [(u8, &'static [&'static str])],
    /// Plays refused at that seat's turn, with the rule id.
    refused: &'static [(u8, &'static str, &'static str)],
    winner: u8,
}

const WORKED_TRICKS: &[WorkedTrick] = &[
    WorkedTrick {
        name: "002: lead 7, 7 ties, 10 beats, a 2 is the forced duck; the 10 wins",
        hands: &["7C 5C 5D", "7D 3C 3D", "TS 4C 4D", "2H 9H 9S"],
        plays: &["7C", "7D", "TS", "2H"],
        legal: &[(1, &["3C", "7D"]), (3, &["2H"])],
        refused: &[(3, "9H", "TT-12")],
        winner: 2,
    },
    WorkedTrick {
        name: "002: lead 6-6, 6-7 beats, 4-5 ducks, 8-9 beats and wins",
        hands: &["6C 6D KS", "6H 7C 2D", "4C 5C KD", "8D 9D 2S"],
        plays: &["6C 6D", "6H 7C", "4C 5C", "8D 9D"],
        legal: &[(2, &["4C 5C"])],
        refused: &[(2, "5C KD", "TT-12")],
        winner: 3,
    },
    WorkedTrick {
        name: "002: lead J-J-J, J-Q-Q beats, 2-2-3 ducks, Q-K-A beats and wins",
        hands: &["JC JD JH 2H", "JS QC QD 3H", "2C 2D 3C AS", "QH KC AC 4D"],
        plays: &["JC JD JH", "JS QC QD", "2C 2D 3C", "QH KC AC"],
        legal: &[(2, &["2C 2D 3C"])],
        refused: &[],
        winner: 3,
    },
    WorkedTrick {
        name: "001/003: lead 5-5-5, 10-9-7 beats, K K 6 3 3 2 2 must duck 2-2-3",
        hands: &["5C 5D 5H 4C 4D 8C 8D", "TC 9C 7C 6S AS AH AD", "KC KD 6C 3C 3D 2C 2D"],
        plays: &["5C 5D 5H", "TC 9C 7C", "2C 2D 3C"],
        legal: &[(2, &["2C 2D 3C"])],
        // 001 writes 3-3-2, which is not the lowest three.
        refused: &[(2, "3C 3D 2C", "TT-12"), (2, "KC KD 6C", "TT-12")],
        winner: 1,
    },
    WorkedTrick {
        name: "000: lead Q-Q, Q-K beats; then Q-K, Q-A, K-K, K-A or A-A beat",
        hands: &["QC QD 4C 4D 4H 5C 5D", "QH KC 6C 6D 6H 7C 7D", "QS KD KH AC AD 2C 3C"],
        plays: &["QC QD", "QH KC", "KD AC"],
        legal: &[(2, &["2C 3C", "QS KD", "QS AC", "KD KH", "KD AC", "AC AD"])],
        refused: &[(2, "2C AC", "TT-12"), (2, "QS KD KH", "TT-12")],
        winner: 2,
    },
    WorkedTrick {
        name: "strongest combination: lead 6-6, 9-K beats, 9-Q (a duck) does not beat 9-K",
        hands: &["6C 6D 2C", "9C KC 3C", "9D QD KD"],
        plays: &["6C 6D", "9C KC", "9D QD"],
        legal: &[(2, &["9D QD", "9D KD", "QD KD"])],
        refused: &[],
        winner: 1,
    },
    WorkedTrick {
        name: "strongest combination: lead 8-8 against 2, 9, A: 9-A beats, 2-9 ducks, 2-A is illegal",
        hands: &["8C 8D 3C", "2C 9C AC", "4C 4D 4H"],
        plays: &["8C 8D", "2C 9C", "4C 4D"],
        legal: &[(1, &["2C 9C", "9C AC"])],
        refused: &[(1, "2C AC", "TT-12")],
        winner: 0,
    },
];

#[test]
fn tt_16_worked_examples() {
    for example in WORKED_TRICKS {
        let dealer = example.hands.len() as u8 - 1;
        let mut state = trick_table(dealer, example.hands);
        let mut events = Vec::new();
        for (seat, text) in example.plays.iter().enumerate() {
            let seat = seat as u8;
            assert_eq!(state.to_act(), Some(Seat(seat)), "{}", example.name);
            for (at, expected) in example.legal {
                if *at == seat {
                    let expected: Vec<Cards> = expected.iter().map(|t| cards(t)).collect();
                    assert_eq!(
                        legal_plays(&state),
                        expected,
                        "{}: legal plays of seat {seat}",
                        example.name
                    );
                }
            }
            for (at, text, rule) in example.refused {
                if *at == seat {
                    let error = refuse(&mut state, seat, Action::Play(cards(text)));
                    assert_eq!(error.rule(), *rule, "{}: {text}", example.name);
                    assert!(error.to_string().starts_with(rule), "{error}");
                }
            }
            events.extend(play(&mut state, seat, text));
        }
        assert_eq!(trick_winners(&events), vec![Seat(example.winner)], "{}", example.name);
    }
}

#[test]
fn tt_16_deal_size_after_a_queen_loses_with_six_players() {
    // Pagat's example: the queen goes to a penalty pile, 51 cards remain: 8 each, 3 in stock.
    let mut state = table(Options::default(), 5, &["QH", "2C", "3C", "4C", "5C", "6C"]);
    let mut events = Vec::new();
    while let Some(seat) = state.to_act() {
        if state.public_view().deal > 1 {
            break;
        }
        events.extend(state.apply(seat, Action::Exchange(Cards::EMPTY)).unwrap());
    }
    let result = deal_result(&events);
    assert_eq!(result.losers, vec![Seat(0)]);
    assert_eq!(result.rank, Rank::Queen);
    let view = state.public_view();
    assert_eq!(view.deal, 2);
    assert_eq!(view.hand_size, 8, "a queen asks for 10 cards, 51 cards allow 8");
    assert_eq!(view.stock_len, 3);
    assert!(view.seats.iter().all(|s| s.hand_len == 8));
}

#[test]
fn tt_12_duck_error_names_the_lowest_cards() {
    let mut state = trick_table(1, &["5C 5D 5H 9S", "2C 2D 3S AH"]);
    play(&mut state, 0, "5C 5D 5H");
    let error = refuse(&mut state, 1, Action::Play(cards("2C 3S AH")));
    let text = error.to_string();
    assert!(text.contains("a duck must be your 3 lowest cards: 2♣ 2♦ 3♠"), "{text}");
}

// ---- Cards ---------------------------------------------------------------------------------

#[test]
fn tt_01_only_rank_matters_and_aces_are_high() {
    // Equal ranks of other suits are the same choice: listed once, with the lowest suit,
    // accepted in any suit held.
    let mut state = trick_table(1, &["7S 7H 2C", "AC KD 3D"]);
    assert_eq!(legal_plays(&state), vec![cards("2C"), cards("7H"), cards("7H 7S")]);
    play(&mut state, 0, "7S");
    // A beats 7; K beats 7 too; the ace is high.
    assert_eq!(legal_plays(&state), vec![cards("3D"), cards("KD"), cards("AC")]);
    let events = play(&mut state, 1, "AC");
    assert_eq!(trick_winners(&events), vec![Seat(1)]);
}

#[test]
fn tt_02_penalty_values() {
    let expected = [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11];
    for (rank, value) in Rank::ALL.into_iter().zip(expected) {
        assert_eq!(penalty_value(rank), value, "{rank}");
    }
}

#[test]
fn tt_03_option_packs_auto_and_fixed() {
    let auto = Options::default();
    for (players, packs) in [(2, 1), (6, 1), (7, 2), (9, 2), (10, 3), (12, 3)] {
        let state = State::new(auto, players, 1).unwrap();
        assert_eq!(state.packs(), packs, "{players} players");
        let total: u32 = state.card_counts().iter().sum();
        assert_eq!(total, 52 * packs as u32);
        assert!(state.card_counts().iter().all(|&n| n == packs as u32));
    }
    let three = Options { packs: Packs::Fixed(3), ..Options::default() };
    assert_eq!(State::new(three, 4, 1).unwrap().packs(), 3);
    let bad = Options { packs: Packs::Fixed(5), ..Options::default() };
    assert_eq!(State::new(bad, 4, 1).unwrap_err(), SetupError::Options(OptionsError::Packs(5)));
    // Identical cards are interchangeable: two 7♠ in one hand.
    let two = Options { packs: Packs::Fixed(2), ..Options::default() };
    let mut state = State::from_setup(two, setup(1, &["7S 7S 2C", "8S 8S 3C"])).unwrap();
    skip_exchange(&mut state);
    assert!(legal_plays(&state).contains(&cards("7S 7S")));
    play(&mut state, 0, "7S 7S");
    assert!(state.hand(Seat(0)).unwrap().as_slice() == parse_cards("2C").unwrap());
    // packs is "auto" or a number in JSON.
    let json: Options = serde_json::from_str(r#"{"packs": 2}"#).unwrap();
    assert_eq!(json.packs, Packs::Fixed(2));
    let json: Options = serde_json::from_str(r#"{"packs": "auto"}"#).unwrap();
    assert_eq!(json.packs, Packs::Auto);
    assert!(serde_json::from_str::<Options>(r#"{"packs": "many"}"#).is_err());
}

// ---- Players and seats ---------------------------------------------------------------------

#[test]
fn tt_04_two_to_twelve_players() {
    for players in 2..=12 {
        assert!(State::new(Options::default(), players, 0).is_ok(), "{players}");
    }
    for players in [0, 1, 13] {
        assert!(matches!(
            State::new(Options::default(), players, 0),
            Err(SetupError::Options(OptionsError::Players { .. }))
        ));
    }
    let four = Options { packs: Packs::Fixed(4), ..Options::default() };
    assert!(State::new(four, 16, 0).is_ok(), "more players with more packs");
}

#[test]
fn tt_05_first_dealer_is_drawn_highest_rank_deals_ties_draw_again() {
    let mut saw_tie = false;
    for seed in 0..200 {
        let state = State::new(Options::default(), 6, seed).unwrap();
        let Some(Event::DealerDrawn { rounds, dealer }) = state.opening_events().first() else {
            panic!("the opening starts with the dealer draw");
        };
        assert_eq!(rounds[0].len(), 6, "everybody draws");
        for pair in rounds.windows(2) {
            let best = pair[0].iter().map(|d| d.card.rank()).max().unwrap();
            let tied: Vec<Seat> =
                pair[0].iter().filter(|d| d.card.rank() == best).map(|d| d.seat).collect();
            let again: Vec<Seat> = pair[1].iter().map(|d| d.seat).collect();
            assert_eq!(tied, again, "exactly the tied seats draw again");
            saw_tie = true;
        }
        let last = rounds.last().unwrap();
        let best = last.iter().max_by_key(|d| d.card.rank()).unwrap();
        assert_eq!(best.seat, *dealer);
        assert_eq!(last.iter().filter(|d| d.card.rank() == best.card.rank()).count(), 1);
        assert_eq!(state.public_view().dealer, *dealer);
        // Same seed, same draw.
        assert_eq!(
            State::new(Options::default(), 6, seed).unwrap().opening_events(),
            state.opening_events()
        );
    }
    assert!(saw_tie, "200 draws of 6 cards include a tie");
}

// ---- A deal --------------------------------------------------------------------------------

#[test]
fn tt_06_first_hand_is_seven_then_the_losing_cards_value() {
    let state = State::new(Options::default(), 4, 3).unwrap();
    assert_eq!(state.public_view().hand_size, 7);
    for (loser, size) in [("AS", 11), ("4S", 4), ("KS", 10)] {
        let mut state = table(Options::default(), 1, &[loser, "2C"]);
        skip_exchange(&mut state);
        assert_eq!(state.public_view().deal, 2);
        assert_eq!(state.public_view().hand_size, size, "lost with {loser}");
    }
}

#[test]
fn option_first_hand() {
    for first_hand in [1, 4, 11] {
        let options = Options { first_hand, ..Options::default() };
        let state = State::new(options, 3, 9).unwrap();
        assert_eq!(state.public_view().hand_size, first_hand);
        assert!(state.public_view().seats.iter().all(|s| s.hand_len == first_hand as usize));
    }
    let bad = Options { first_hand: 12, ..Options::default() };
    assert_eq!(
        State::new(bad, 3, 9).unwrap_err(),
        SetupError::Options(OptionsError::FirstHand(12))
    );
}

#[test]
fn tt_06_deal_numbers_stop_at_the_top_instead_of_overflowing() {
    // Found by the fuzz properties: a setup's deal number near u32::MAX overflowed when the
    // next deal began.
    let mut s = setup(0, &["8S", "4C", "3H"]);
    s.deal = u32::MAX;
    let mut state = State::from_setup(Options::default(), s).unwrap();
    skip_exchange(&mut state);
    let view = state.public_view();
    assert_eq!(view.last_deal.map(|d| d.deal), Some(u32::MAX));
    assert_eq!(view.deal, u32::MAX);
    assert_eq!(view.hand_size, 8, "TT-6: the losing eight");
}

#[test]
fn tt_19_scores_near_u32_max_saturate_and_eliminate() {
    // Found by the fuzz properties: with a limit of u32::MAX a score just below it overflowed.
    let options = Options { limit: u32::MAX, ..Options::default() };
    let mut s = setup(0, &["4S", "8C", "3D"]);
    s.scores = vec![0, u32::MAX - 1, 0];
    let mut state = State::from_setup(options, s).unwrap();
    skip_exchange(&mut state);
    assert_eq!(state.scores(), vec![0, u32::MAX, 0]);
    assert!(state.is_eliminated(Seat(1)), "TT-19: at the limit");
}

#[test]
fn tt_07_penalty_cards_stay_out_of_the_pack() {
    let mut state = table(Options::default(), 1, &["KS", "2C"]);
    skip_exchange(&mut state);
    let view = state.public_view();
    assert_eq!(view.seats[0].penalty_pile, parse_cards("KS").unwrap());
    let counts = state.card_counts();
    let ks: Card = "KS".parse().unwrap();
    assert_eq!(counts[ks.index() as usize], 1, "only the penalty copy");
    assert!(
        state
            .hand(Seat(0))
            .unwrap()
            .as_slice()
            .iter()
            .chain(state.hand(Seat(1)).unwrap())
            .all(|&c| c != ks)
    );
    assert_eq!(view.hand_size as usize * 2 + view.stock_len, 51);
}

#[test]
fn tt_08_largest_equal_hand_the_pack_allows() {
    // 2 players, a penalty pile of 30 cards: 22 cards remain, a king asks for 10 each: 10 each,
    // 2 in stock. With 3 players and an ace (11 each), 21 cards give 7 each.
    let pile =
        "2C 2D 2H 3C 3D 3H 4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D 7H 8C 8D 8H 9C 9D 9H TC TD TH JC JD JH";
    let mut s = setup(2, &["AS", "2S", "3S"]);
    s.penalty_piles = vec![parse_cards(pile).unwrap(), Vec::new(), Vec::new()];
    let options = Options { limit: 1000, ..Options::default() };
    let mut state = State::from_setup(options, s).unwrap();
    skip_exchange(&mut state);
    let view = state.public_view();
    // 52 - 30 (pile) - 1 (the ace joins the pile) = 21 cards for 3 players.
    assert_eq!(view.hand_size, 7);
    assert_eq!(view.stock_len, 0);
    // Dealt one at a time from the dealer's left: everybody got the same number.
    assert!(view.seats.iter().all(|s| s.hand_len == 7));
}

#[test]
fn tt_08_a_pack_that_cannot_deal_everybody_a_card_ends_the_match() {
    // Only with a huge limit: 50 cards in penalty piles, two left to deal. Seat 0's ace loses
    // and joins its pile, and the one card left cannot be dealt to two players.
    let dealt = parse_cards("AS KS").unwrap();
    let pile: Vec<Card> = Card::pack().filter(|c| !dealt.contains(c)).collect();
    let mut s = setup(1, &["AS", "KS"]);
    s.penalty_piles = vec![pile, Vec::new()];
    s.scores = vec![100, 0];
    let mut state = State::from_setup(Options { limit: 1000, ..Options::default() }, s).unwrap();
    skip_exchange(&mut state);
    assert!(state.is_over());
    assert_eq!(state.scores(), vec![111, 0]);
    let order: Vec<(u8, u8)> =
        state.outcome().unwrap().iter().map(|s| (s.place, s.seat.0)).collect();
    assert_eq!(order, vec![(1, 1), (2, 0)], "TT-23: by score");
    assert_eq!(
        state.end_reason().as_deref(),
        Some(
            "TT-8: the pack could not deal a card to each of the 2 players left; standings go by score (TT-23)"
        )
    );
}

#[test]
fn tt_09_exchange_clockwise_from_the_dealers_left_limited_by_the_stock() {
    // 3 players, dealer seat 1: seat 2, seat 0, then seat 1 (the dealer) last.
    let mut s = setup(1, &["2C 3C", "4C 5C", "6C 7C"]);
    // An explicit stock, top card first.
    let used = parse_cards("2C 3C 4C 5C 6C 7C").unwrap();
    let stock: Vec<Card> = Card::pack().filter(|c| !used.contains(c)).collect();
    s.stock = Some(stock.clone());
    let mut state = State::from_setup(Options::default(), s).unwrap();
    assert_eq!(state.to_act(), Some(Seat(2)));
    assert_eq!(
        state.legal_actions(),
        vec![
            Action::Exchange(Cards::EMPTY),
            Action::Exchange(cards("6C")),
            Action::Exchange(cards("7C")),
            Action::Exchange(cards("6C 7C"))
        ]
    );
    let error = refuse(&mut state, 0, Action::Exchange(Cards::EMPTY));
    assert_eq!(error.rule(), "TT-9");
    let events = state.apply(Seat(2), Action::Exchange(cards("6C 7C"))).unwrap();
    assert_eq!(events, vec![Event::Exchanged { seat: Seat(2), count: 2 }]);
    // The top two stock cards replace them.
    let drawn = Cards::new(&stock[..2]).unwrap();
    assert_eq!(*state.hand(Seat(2)).unwrap(), drawn);
    // How many is public; which cards, only the discarder sees (TT-25).
    let public = state.public_view();
    assert_eq!(public.seats[2].exchanged, Some(2));
    assert_eq!(state.observation(Seat(2)).discards, parse_cards("6C 7C").unwrap());
    assert!(state.observation(Seat(0)).discards.is_empty());
    assert!(!serde_json::to_string(&state.observation(Seat(0))).unwrap().contains("\"6C\""));
    assert_eq!(state.to_act(), Some(Seat(0)));
    state.apply(Seat(0), Action::Exchange(Cards::EMPTY)).unwrap();
    assert_eq!(state.to_act(), Some(Seat(1)), "the dealer exchanges last");
    state.apply(Seat(1), Action::Exchange(Cards::EMPTY)).unwrap();
    assert_eq!(phase(&state), PhaseView::Play { leader: Seat(2), to_act: Seat(2) });
}

#[test]
fn tt_09_nobody_discards_more_than_the_stock_holds() {
    // 4 players with 11 cards each leave 8 in the stock: the first takes 5, the next may take 3.
    let hands = [
        "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H",
        "4S 5C 5D 5H 5S 6C 6D 6H 6S 7C 7D",
        "7H 7S 8C 8D 8H 8S 9C 9D 9H 9S TC",
        "TD TH TS JC JD JH JS QC QD QH QS",
    ];
    let mut state = table(Options::default(), 3, &hands);
    assert_eq!(state.stock_len(), 8);
    state.apply(Seat(0), Action::Exchange(cards("2C 2D 2H 2S 3C"))).unwrap();
    assert_eq!(state.stock_len(), 3);
    let error = refuse(&mut state, 1, Action::Exchange(cards("4S 5C 5D 5H")));
    assert_eq!(error, IllegalAction::ExchangeTooMany { discards: 4, stock: 3 });
    assert!(state.legal_actions().iter().all(|a| a.cards().len() <= 3));
    state.apply(Seat(1), Action::Exchange(cards("4S 5C 5D"))).unwrap();
    // The stock is empty: only "nothing" is left.
    assert_eq!(state.legal_actions(), vec![Action::Exchange(Cards::EMPTY)]);
    let error = refuse(&mut state, 2, Action::Exchange(cards("7H")));
    assert_eq!(error.rule(), "TT-9");
    // Cards not held are refused too.
    let error = refuse(&mut state, 2, Action::Exchange(cards("AS")));
    assert!(matches!(error, IllegalAction::NotInHand { exchanging: true, .. }));
    // A play during the exchange is the wrong phase.
    let error = refuse(&mut state, 2, Action::Play(cards("7H")));
    assert_eq!(error, IllegalAction::WrongPhase { exchanging: true });
}

#[test]
fn tt_10_left_of_the_dealer_leads_skipping_eliminated_seats() {
    let state = trick_table(0, &["2C 3C", "4C 5C", "6C 7C"]);
    assert_eq!(phase(&state), PhaseView::Play { leader: Seat(1), to_act: Seat(1) });

    let mut s = setup(0, &["2C 3C", "", "6C 7C"]);
    s.eliminated = vec![vec![Seat(1)]];
    s.scores = vec![0, 22, 0];
    let mut state = State::from_setup(Options::default(), s).unwrap();
    assert_eq!(state.to_act(), Some(Seat(2)), "seat 1 is out: seat 2 exchanges first");
    skip_exchange(&mut state);
    assert_eq!(phase(&state), PhaseView::Play { leader: Seat(2), to_act: Seat(2) });
}

// ---- Tricks --------------------------------------------------------------------------------

#[test]
fn tt_11_a_lead_is_one_card_or_a_set_leaving_a_card() {
    let mut state = trick_table(1, &["7C 7D 7H", "2C 3C 4C"]);
    // 7 7 7 would empty the hand.
    assert_eq!(legal_plays(&state), vec![cards("7C"), cards("7C 7D")]);
    let error = refuse(&mut state, 0, Action::Play(cards("7C 7D 7H")));
    assert_eq!(error, IllegalAction::LeadEmptiesHand { hand_len: 3 });
    let mut state = trick_table(1, &["7C 7D 9H", "2C 3C 4C"]);
    let error = refuse(&mut state, 0, Action::Play(cards("7C 9H")));
    assert_eq!(error.rule(), "TT-11");
    assert!(matches!(error, IllegalAction::LeadNotOneRank { .. }));
    assert_eq!(refuse(&mut state, 0, Action::Play(Cards::EMPTY)), IllegalAction::EmptyLead);
    let error = refuse(&mut state, 0, Action::Play(cards("AS")));
    assert!(matches!(error, IllegalAction::NotInHand { exchanging: false, .. }));
    // Setups with unequal hands are refused.
    let unequal = State::from_setup(Options::default(), setup(0, &["2C 3C", "4C"]));
    assert!(matches!(unequal, Err(SetupError::UnequalHands { .. })));
}

#[test]
fn tt_12_followers_play_as_many_cards_beat_or_duck_even_when_able_to_beat() {
    let mut state = trick_table(2, &["5C 5D 2S", "6C 6D 2C", "3C 4C KS"]);
    play(&mut state, 0, "5C 5D");
    let error = refuse(&mut state, 1, Action::Play(cards("6C")));
    assert_eq!(error, IllegalAction::WrongCount { played: 1, led: 2 });
    // Seat 1 can beat with 6-6 but may duck with 2-6.
    assert_eq!(legal_plays(&state), vec![cards("2C 6C"), cards("6C 6D")]);
    let events = play(&mut state, 1, "2C 6C");
    assert_eq!(
        events,
        vec![Event::Played { seat: Seat(1), cards: cards("2C 6C"), strongest: false }]
    );
    // Playing out of turn.
    let error = refuse(&mut state, 0, Action::Play(cards("2S")));
    assert_eq!(
        error,
        IllegalAction::NotYourTurn { seat: Seat(0), to_act: Seat(2), exchanging: false }
    );
    assert_eq!(error.rule(), "TT-12");
}

#[test]
fn tt_13_ties_and_dominating_ducks_become_the_strongest_combination() {
    // A tie takes over: lead 7, 7 from the next seat; nobody beats it, so the tie wins.
    let mut state = trick_table(2, &["7C 9C", "7D 9D", "2C 3C"]);
    play(&mut state, 0, "7C");
    let events = play(&mut state, 1, "7D");
    assert_eq!(events, vec![Event::Played { seat: Seat(1), cards: cards("7D"), strongest: true }]);
    let events = play(&mut state, 2, "2C");
    assert_eq!(trick_winners(&events), vec![Seat(1)]);
    // A duck that happens to dominate counts: 8 8 are the lowest two and beat 6 6.
    let mut state = trick_table(2, &["6C 6D 2S", "8C 8D 9S", "3C 4C 5S"]);
    play(&mut state, 0, "6C 6D");
    let events = play(&mut state, 1, "8C 8D");
    assert_eq!(
        events,
        vec![Event::Played { seat: Seat(1), cards: cards("8C 8D"), strongest: true }]
    );
    assert_eq!(legal_plays(&state), vec![cards("3C 4C")], "the strongest is now 8-8");
}

#[test]
fn tt_14_option_trick_winner_strongest_combination_or_highest_card() {
    // Lead 7-7-7, a follower ducks 8-8-2.
    let hands = ["7C 7D 7H 3S", "2C 8C 8D KS"];
    let mut state = trick_table(1, &hands);
    play(&mut state, 0, "7C 7D 7H");
    let events = play(&mut state, 1, "2C 8C 8D");
    assert_eq!(trick_winners(&events), vec![Seat(0)], "strongest_combination: the leader");

    let options = Options { trick_winner: TrickWinner::HighestCard, ..Options::default() };
    let mut state = table(options, 1, &hands);
    skip_exchange(&mut state);
    play(&mut state, 0, "7C 7D 7H");
    let events = play(&mut state, 1, "2C 8C 8D");
    assert_eq!(trick_winners(&events), vec![Seat(1)], "highest_card: the 8s");
    // The later of equal highest cards wins.
    let mut state = table(options, 2, &["9C 2S", "9D 3S", "4C 5S"]);
    skip_exchange(&mut state);
    play(&mut state, 0, "9C");
    play(&mut state, 1, "9D");
    assert_eq!(trick_winners(&play(&mut state, 2, "4C")), vec![Seat(1)]);
}

#[test]
fn tt_15_the_winner_leads_next_and_played_cards_leave_play() {
    let mut state = trick_table(2, &["5C 2C 3C", "9C 4C 6C", "2D 3D 4D"]);
    play(&mut state, 0, "5C");
    play(&mut state, 1, "9C");
    play(&mut state, 2, "2D");
    assert_eq!(phase(&state), PhaseView::Play { leader: Seat(1), to_act: Seat(1) });
    let view = state.public_view();
    assert!(view.seats.iter().all(|s| s.hand_len == 2), "all hands equal at every trick");
    assert_eq!(view.tricks.len(), 2);
    assert_eq!(view.tricks[0].winner, Some(Seat(1)));
    assert!(!state.hand(Seat(1)).unwrap().as_slice().contains(&"9C".parse().unwrap()));
}

// ---- End of a deal -------------------------------------------------------------------------

#[test]
fn tt_17_the_highest_last_card_loses_and_ties_all_lose() {
    let mut state = trick_table(2, &["2C KC", "3C KD", "4C 5C"]);
    play(&mut state, 0, "2C");
    play(&mut state, 1, "3C");
    let events = play(&mut state, 2, "4C");
    let result = deal_result(&events);
    assert_eq!(result.rank, Rank::King);
    assert_eq!(result.losers, vec![Seat(0), Seat(1)]);
    assert_eq!(result.revealed.len(), 3, "every last card is revealed");
    assert_eq!(state.public_view().last_deal, Some(result));
}

#[test]
fn tt_18_losers_take_the_card_as_a_penalty() {
    let mut state = trick_table(1, &["3C JC", "2C 5C"]);
    play(&mut state, 0, "3C");
    let events = play(&mut state, 1, "2C");
    assert!(events.contains(&Event::Penalty {
        seat: Seat(0),
        card: "JC".parse().unwrap(),
        score: 10
    }));
    let view = state.public_view();
    assert_eq!(view.seats[0].score, 10);
    assert_eq!(view.seats[0].penalty_pile, parse_cards("JC").unwrap());
    assert_eq!(view.seats[1].score, 0);
}

#[test]
fn tt_19_option_limit_eliminates_at_the_limit() {
    for (limit, out) in [(22, false), (21, true), (15, true)] {
        let mut s = setup(1, &["AC", "2C", "3C"]);
        s.scores = vec![10, 0, 0];
        let options = Options { limit, ..Options::default() };
        let mut state = State::from_setup(options, s).unwrap();
        skip_exchange(&mut state);
        let view = state.public_view();
        assert_eq!(view.seats[0].score, 21);
        assert_eq!(view.seats[0].eliminated, out, "limit {limit}");
    }
    assert_eq!(
        State::new(Options { limit: 0, ..Options::default() }, 2, 0).unwrap_err(),
        SetupError::Options(OptionsError::Limit)
    );
}

#[test]
fn tt_20_a_loser_deals_next_even_when_eliminated() {
    let mut s = setup(2, &["AC", "2C", "3C"]);
    s.scores = vec![15, 0, 0];
    let mut state = State::from_setup(Options::default(), s).unwrap();
    skip_exchange(&mut state);
    let view = state.public_view();
    assert!(view.seats[0].eliminated);
    assert_eq!(view.dealer, Seat(0), "the eliminated loser deals");
    assert_eq!(state.to_act(), Some(Seat(1)), "the next active seat exchanges first");
}

#[test]
fn tt_20_option_tied_dealer() {
    // Seats 1 and 3 both lose with a king; dealer was seat 2.
    let hands = ["2C", "KC", "3C", "KD"];
    let nearest =
        Options { tied_dealer: TiedDealer::NearestLeftOfPreviousDealer, ..Options::default() };
    let mut state = table(nearest, 2, &hands);
    skip_exchange(&mut state);
    assert_eq!(state.public_view().dealer, Seat(3), "first loser clockwise from the dealer's left");
    let mut state = table(nearest, 0, &hands);
    skip_exchange(&mut state);
    assert_eq!(state.public_view().dealer, Seat(1));

    let mut dealers = std::collections::BTreeSet::new();
    for seed in 0..64 {
        let mut s = setup(2, &hands);
        s.seed = seed;
        let mut state = State::from_setup(Options::default(), s).unwrap();
        skip_exchange(&mut state);
        dealers.insert(state.public_view().dealer);
    }
    assert_eq!(dealers, [Seat(1), Seat(3)].into(), "random: either loser, never another seat");
}

// ---- End of the game -----------------------------------------------------------------------

#[test]
fn tt_21_one_player_left_wins() {
    let mut s = setup(1, &["AC", "2C"]);
    s.scores = vec![20, 5];
    let mut state = State::from_setup(Options::default(), s).unwrap();
    let mut events = Vec::new();
    events.extend(state.apply(Seat(0), Action::Exchange(Cards::EMPTY)).unwrap());
    events.extend(state.apply(Seat(1), Action::Exchange(Cards::EMPTY)).unwrap());
    assert!(state.is_over());
    assert_eq!(state.to_act(), None);
    assert!(state.legal_actions().is_empty());
    let standings =
        vec![Standing { place: 1, seat: Seat(1) }, Standing { place: 2, seat: Seat(0) }];
    assert_eq!(state.outcome(), Some(standings.as_slice()));
    assert_eq!(events.last(), Some(&Event::MatchOver { standings }));
    assert_eq!(state.end_reason().as_deref(), Some("TT-21: seat 1 is the last player left"));
    assert_eq!(state.record().unwrap().termination, state.end_reason());
    assert_eq!(refuse(&mut state, 0, Action::Exchange(Cards::EMPTY)), IllegalAction::MatchOver);
}

#[test]
fn tt_22_all_eliminated_at_once_lowest_score_wins_equal_scores_share() {
    let mut s = setup(2, &["AC", "AD", "AH"]);
    s.scores = vec![12, 15, 12];
    let mut state = State::from_setup(Options::default(), s).unwrap();
    skip_exchange(&mut state);
    assert!(state.is_over());
    assert_eq!(
        state.outcome().unwrap(),
        &[
            Standing { place: 1, seat: Seat(0) },
            Standing { place: 1, seat: Seat(2) },
            Standing { place: 3, seat: Seat(1) },
        ]
    );
    assert_eq!(
        state.end_reason().as_deref(),
        Some("TT-22: deal 1 eliminated every player left at once; the lowest score wins")
    );
}

/// No limit on deals is needed: every match ends, whatever the players do (issue 45; the
/// argument is in `docs/rules/twenty-two.md`, "Every game ends"). A standard deal puts a card
/// worth 2 or more (TT-2) on a loser's penalty pile (TT-18) and out of the pack for good
/// (TT-7), so a player is out after at most `ceil(limit / 2)` lost deals (TT-19) and the pack
/// runs out after at most `52 × packs` (TT-8); an elimination deal eliminates one player
/// (TT-28). Players that always answer the first (or a random) legal action, at every table
/// size, in both variants and with limits up to `u32::MAX`, end within those bounds, every
/// deal within one exchange and one card a trick per player.
#[test]
fn every_match_ends_within_the_deals_the_rules_bound() {
    let mut reasons = std::collections::BTreeSet::new();
    for variant in [Variant::Standard, Variant::Elimination] {
        for limit in [1, 5, 22, 40, u32::MAX] {
            for players in [2u8, 3, 4, 6, 9, 12] {
                let options = Options { variant, limit, ..Options::default() };
                for seed in 0..24u64 {
                    let first = seed % 2 == 0;
                    let mut state = State::new(options, players, seed).unwrap();
                    let bound = match variant {
                        Variant::Standard => {
                            let per_player = u64::from(limit).div_ceil(2) * u64::from(players);
                            per_player.min(52 * u64::from(state.packs()))
                        }
                        Variant::Elimination => u64::from(players) - 1,
                    };
                    let (mut deals, mut actions, mut most_actions) = (0u64, 0u64, 0u64);
                    let mut pick = seed;
                    while let Some(seat) = state.to_act() {
                        let legal = state.legal_actions();
                        pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        let index = if first { 0 } else { (pick >> 33) as usize % legal.len() };
                        let hand_size = u64::from(state.public_view().hand_size);
                        // One exchange each, then every trick a card from each hand at least.
                        most_actions = most_actions.max(u64::from(players) * (1 + hand_size));
                        for event in state.apply(seat, legal[index]).unwrap() {
                            if matches!(event, Event::DealLost(_)) {
                                deals += 1;
                                assert!(actions <= most_actions, "{options:?} seed {seed}");
                                (actions, most_actions) = (0, 0);
                            }
                        }
                        actions += 1;
                        assert!(deals <= bound, "{options:?}, {players} players, seed {seed}");
                    }
                    if variant == Variant::Elimination {
                        assert_eq!(deals, bound, "one elimination a deal");
                    }
                    let reason = state.end_reason().unwrap();
                    reasons.insert(reason[..5].to_owned());
                    assert_eq!(state.record().unwrap().termination, Some(reason));
                }
            }
        }
    }
    // Each way the rules end a match happened.
    assert_eq!(reasons, ["TT-21", "TT-22", "TT-28", "TT-8:"].map(String::from).into());
}

#[test]
fn tt_23_standings_reverse_elimination_order_ties_by_score() {
    // Seat 3 went out first, seat 4 second; now seats 1 and 2 go out together (scores 23 and
    // 25) and seat 0 is left.
    let mut s = setup(0, &["2C", "AC", "AD", "", ""]);
    s.scores = vec![0, 12, 14, 30, 25];
    s.eliminated = vec![vec![Seat(3)], vec![Seat(4)]];
    let mut state = State::from_setup(Options::default(), s).unwrap();
    skip_exchange(&mut state);
    let order: Vec<(u8, u8)> =
        state.outcome().unwrap().iter().map(|s| (s.place, s.seat.0)).collect();
    assert_eq!(order, vec![(1, 0), (2, 1), (3, 2), (4, 4), (5, 3)]);
}

// ---- What a player sees --------------------------------------------------------------------

#[test]
fn tt_24_the_public_view_shows_what_is_public() {
    let mut state = State::new(Options::default(), 4, 11).unwrap();
    while matches!(phase(&state), PhaseView::Exchange { .. }) {
        let seat = state.to_act().unwrap();
        let action = *state.legal_actions().last().unwrap();
        state.apply(seat, action).unwrap();
    }
    let seat = state.to_act().unwrap();
    let lead = state.legal_actions()[0];
    state.apply(seat, lead).unwrap();
    let mut view = state.public_view();
    assert_eq!(view.seats.len(), 4);
    assert!(view.seats.iter().all(|s| s.exchanged.is_some()), "exchange counts are public");
    assert_eq!(view.tricks[0].plays[0].cards, *lead.cards(), "played cards and by whom");
    assert_eq!(view.tricks[0].plays[0].seat, seat);
    assert!(matches!(view.phase, PhaseView::Play { leader, .. } if leader == seat));
    assert_eq!(view.hand_size, 7);
    assert!(view.stock_len < 52);
    assert!(!view.dealer_draw.is_empty(), "the dealer draw is public");
    // The dealer draw used a pack of its own; leave it out of the leak check.
    view.dealer_draw.clear();
    // Spectators see no hand and no discard.
    let json = serde_json::to_string(&view).unwrap();
    for hidden in state.hand(Seat((seat.0 + 1) % 4)).unwrap() {
        let code = format!("\"{}\"", hidden.code());
        let seen_in_play =
            view.tricks.iter().any(|t| t.plays.iter().any(|p| p.cards.as_slice().contains(hidden)));
        assert!(seen_in_play || !json.contains(&code), "{hidden} leaked");
    }
}

#[test]
fn tt_25_a_seat_sees_its_hand_and_discards_and_nothing_hidden() {
    let state = State::new(Options::default(), 5, 2).unwrap();
    let mut view = state.observation(Seat(3));
    assert_eq!(view.hand, *state.hand(Seat(3)).unwrap());
    view.public.dealer_draw.clear();
    let json = serde_json::to_string(&view).unwrap();
    for other in [0u8, 1, 2, 4] {
        for card in state.hand(Seat(other)).unwrap() {
            if !view.hand.as_slice().contains(card) {
                assert!(
                    !json.contains(&format!("\"{}\"", card.code())),
                    "{card} of seat {other} leaked"
                );
            }
        }
    }
    // The seed is not part of any view.
    assert!(!json.contains("seed"));
}

// ---- Variant `elimination` -----------------------------------------------------------------

fn elimination() -> Options {
    Options { variant: Variant::Elimination, ..Options::default() }
}

#[test]
fn tt_26_elimination_every_deal_is_seven_and_every_card_is_played() {
    let mut state = State::new(elimination(), 4, 5).unwrap();
    let mut deals = Vec::new();
    while let Some(seat) = state.to_act() {
        let view = state.public_view();
        if deals.last() != Some(&view.deal) {
            deals.push(view.deal);
            assert_eq!(view.hand_size, 7, "deal {}", view.deal);
        }
        let action = state.legal_actions()[0];
        let events = state.apply(seat, action).unwrap();
        if let Some(Event::DealLost(result)) =
            events.iter().find(|e| matches!(e, Event::DealLost(_)))
        {
            assert!(result.revealed.is_empty(), "no last card is held back");
        }
    }
    assert_eq!(deals.len(), 3, "4 players: 3 deals, one elimination each");
    // A one-card lead is allowed with one card left: the last card is a trick of its own.
    let mut state = State::from_setup(elimination(), setup(1, &["5C", "9C"])).unwrap();
    skip_exchange(&mut state);
    assert_eq!(legal_plays(&state), vec![cards("5C")]);
    play(&mut state, 0, "5C");
    let events = play(&mut state, 1, "9C");
    assert_eq!(trick_winners(&events), vec![Seat(1)]);
    assert_eq!(deal_result(&events).losers, vec![Seat(1)]);
}

#[test]
fn tt_27_elimination_highest_won_card_loses_then_points_then_random() {
    // Seat 0 wins a trick with a king, seat 1 with an ace: seat 1 loses.
    let mut state = State::from_setup(elimination(), setup(1, &["KC 3C", "2C AC"])).unwrap();
    skip_exchange(&mut state);
    play(&mut state, 0, "KC");
    play(&mut state, 1, "2C");
    play(&mut state, 0, "3C");
    let result = deal_result(&play(&mut state, 1, "AC"));
    assert_eq!(result.losers, vec![Seat(1)]);
    assert_eq!((result.rank, result.tie_break), (Rank::Ace, TieBreak::None));

    // Both won an ace; seat 0's tricks hold more points.
    let hands = ["AC 9C 2D", "AD 2C 3D", "4C 5C KC"];
    let mut state = State::from_setup(elimination(), setup(2, &hands)).unwrap();
    skip_exchange(&mut state);
    play(&mut state, 0, "AC"); // seat 0 wins A, 2, 4 = 17 points
    play(&mut state, 1, "2C");
    play(&mut state, 2, "4C");
    play(&mut state, 0, "2D"); // seat 1 wins with the ace: 2, A, 5 = 18
    play(&mut state, 1, "AD");
    play(&mut state, 2, "5C");
    play(&mut state, 1, "3D"); // seat 2 wins 3, K, 9 = 22 points but no ace
    play(&mut state, 2, "KC");
    let events = play(&mut state, 0, "9C");
    let result = deal_result(&events);
    assert_eq!(result.tie_break, TieBreak::Points);
    assert_eq!(result.losers, vec![Seat(1)], "both won an ace: A+2+5 = 18 beats A+2+4 = 17");

    // Equal points: drawn at random, either may lose, always exactly one.
    let mut losers = std::collections::BTreeSet::new();
    for seed in 0..64 {
        let mut s = setup(1, &["AC 2C", "AD 2D"]);
        s.seed = seed;
        let mut state = State::from_setup(elimination(), s).unwrap();
        skip_exchange(&mut state);
        play(&mut state, 0, "AC");
        play(&mut state, 1, "2D");
        play(&mut state, 0, "2C");
        let result = deal_result(&play(&mut state, 1, "AD"));
        assert_eq!(result.tie_break, TieBreak::Random);
        assert_eq!(result.losers.len(), 1);
        losers.insert(result.losers[0]);
    }
    assert_eq!(losers, [Seat(0), Seat(1)].into());
}

#[test]
fn tt_28_elimination_the_loser_is_out_and_standings_reverse_elimination() {
    let mut state = State::new(elimination(), 5, 8).unwrap();
    let mut out = Vec::new();
    while let Some(seat) = state.to_act() {
        let actions = state.legal_actions();
        let action = actions[actions.len() / 2];
        for event in state.apply(seat, action).unwrap() {
            if let Event::DealLost(result) = event {
                assert_eq!(result.eliminated, result.losers);
                out.extend(result.eliminated);
            }
        }
    }
    assert_eq!(out.len(), 4);
    let standings = state.outcome().unwrap();
    let expected: Vec<Seat> = out.iter().rev().copied().collect();
    assert_eq!(standings[1..].iter().map(|s| s.seat).collect::<Vec<_>>(), expected);
    assert_eq!(standings.iter().map(|s| s.place).collect::<Vec<_>>(), vec![1, 2, 3, 4, 5]);
    assert!(!out.contains(&standings[0].seat));
    let reason = format!("TT-28: {} is the last player left", standings[0].seat);
    assert_eq!(state.end_reason(), Some(reason));
}

#[test]
fn option_variant_is_standard_by_default_and_named_in_json() {
    assert_eq!(Options::default().variant, Variant::Standard);
    let options: Options = serde_json::from_str(
        r#"{"variant": "elimination", "trick_winner": "highest_card", "tied_dealer": "nearest_left_of_previous_dealer", "limit": 30, "first_hand": 5}"#,
    )
    .unwrap();
    assert_eq!(options.variant, Variant::Elimination);
    assert_eq!(options.trick_winner, TrickWinner::HighestCard);
    assert_eq!(options.tied_dealer, TiedDealer::NearestLeftOfPreviousDealer);
    assert_eq!((options.limit, options.first_hand), (30, 5));
    assert!(serde_json::from_str::<Options>(r#"{"limit": 22, "colour": "red"}"#).is_err());
}

#[test]
fn setups_are_checked_once() {
    // Two 2♣ in a one-pack game.
    let error = State::from_setup(Options::default(), setup(0, &["2C", "2C"])).unwrap_err();
    assert!(matches!(error, SetupError::Cards(_)), "{error}");
    // An explicit stock must complete the pack.
    let mut s = setup(0, &["2C", "3C"]);
    s.stock = Some(parse_cards("4C 5C").unwrap());
    assert!(matches!(State::from_setup(Options::default(), s), Err(SetupError::Cards(_))));
    let mut s = setup(5, &["2C", "3C"]);
    s.dealer = Seat(5);
    assert!(matches!(State::from_setup(Options::default(), s), Err(SetupError::NoSuchSeat { .. })));
    let mut s = setup(0, &["2C", "3C"]);
    s.scores = vec![1, 2, 3];
    assert!(matches!(State::from_setup(Options::default(), s), Err(SetupError::SeatCount { .. })));
    let mut s = setup(0, &["2C", "3C"]);
    s.scores = vec![22, 0];
    assert!(matches!(State::from_setup(Options::default(), s), Err(SetupError::Seats(_))));
}
