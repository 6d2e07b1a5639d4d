//! One test per rule (GR-1 to GR-17) and per option of `docs/rules/gin-rummy.md`, on explicit setups.

#![allow(clippy::unwrap_used)]

use cardroom_games::gin::solver::Arrangement;
use cardroom_games::gin::{
    Action, CardSet, Event, FirstUpcard, GoOut, HandEnd, IllegalAction, Options, OptionsError,
    Phase, Record, RecordedAction, ReplayError, Setup, SetupError, Start, State,
};
use cardroom_games::{Card, Seat};

const S0: Seat = Seat(0);
const S1: Seat = Seat(1);

fn card(text: &str) -> Card {
    text.parse().unwrap()
}

fn cards(text: &str) -> Vec<Card> {
    cardroom_games::parse_cards(text).unwrap()
}

fn set(text: &str) -> CardSet {
    text.parse().unwrap()
}

fn melds(texts: &[&str]) -> Arrangement {
    let sets: Vec<CardSet> = texts.iter().map(|t| set(t)).collect();
    Arrangement::new(&sets).unwrap()
}

/// A hand's start: `dealer`, the hands, the upcard, the stock's top cards, then every other
/// card. With `stock_len`, the stock is cut to that many cards and the rest goes under the
/// upcard in the discard pile.
fn setup_with(
    dealer: u8,
    hands: [&str; 2],
    upcard: &str,
    stock_top: &str,
    stock_len: Option<usize>,
) -> Setup {
    let hands = [cards(hands[0]), cards(hands[1])];
    let upcard = card(upcard);
    let mut stock = cards(stock_top);
    let used: CardSet =
        hands[0].iter().chain(&hands[1]).chain(&stock).copied().chain([upcard]).collect();
    stock.extend(Card::pack().filter(|c| !used.contains(*c)));
    let mut discard_pile = Vec::new();
    if let Some(n) = stock_len {
        discard_pile = stock.split_off(n);
    }
    discard_pile.push(upcard);
    Setup {
        dealer: Seat(dealer),
        hands,
        discard_pile,
        stock,
        scores: [0, 0],
        hands_won: [0, 0],
        hand_number: 1,
        seed: 5,
    }
}

fn setup(dealer: u8, hands: [&str; 2], upcard: &str, stock_top: &str) -> Setup {
    setup_with(dealer, hands, upcard, stock_top, None)
}

fn state(options: Options, setup: Setup) -> State {
    State::from_setup(options, setup).unwrap()
}

fn rule_of(result: Result<Vec<Event>, IllegalAction>) -> &'static str {
    result.unwrap_err().rule()
}

fn showdown_of(
    events: &[Event],
) -> (cardroom_games::gin::HandResult, cardroom_games::gin::Showdown) {
    for e in events {
        if let Event::HandEnded { result } = e
            && let HandEnd::Showdown(sd) = result.end
        {
            return (*result, sd);
        }
    }
    panic!("no showdown in {events:?}")
}

// Seat 1 (the non-dealer) holds three melds and the K♦; the upcard 2♦ lets it knock with 2.
const KNOCKER: &str = "AS 2S 3S 5C 5D 5H 9C 9D 9H KD";
/// 4♠ lays off, 6♣7♣8♣ and 10♥–K♥ are runs: deadwood A♣ A♥ = 2.
const TIE: &str = "4S 6C 7C 8C TH JH QH KH AC AH";
/// 4♠ 5♠ chain onto A♠2♠3♠: deadwood A♣ = 1.
const UNDER: &str = "4S 5S 6C 7C 8C TH JH QH KH AC";
/// Deadwood 3♦ 10♠ 10♣ = 23 after laying off 4♠.
const HIGH: &str = "4S 6C 7C 8C JH QH KH TS TC 3D";

fn knock_two() -> Action {
    Action::Knock { discard: card("KD"), melds: melds(&["AS 2S 3S", "5C 5D 5H", "9C 9D 9H"]) }
}

// ---------------------------------------------------------------------------------------------

#[test]
fn gr_01_two_players_and_one_pack() {
    let mut s = state(Options::default(), setup(0, [HIGH, KNOCKER], "2D", ""));
    let err = s.apply(Seat(2), Action::TakeUpcard).unwrap_err();
    assert_eq!(err.rule(), "GR-1");
    let mut bad = setup(0, [HIGH, KNOCKER], "2D", "");
    bad.stock[0] = card("AS");
    assert_eq!(
        State::from_setup(Options::default(), bad).unwrap_err(),
        SetupError::Duplicate(card("AS"))
    );
    let mut short = setup(0, [HIGH, KNOCKER], "2D", "");
    let lost = short.stock.pop().unwrap();
    assert_eq!(
        State::from_setup(Options::default(), short).unwrap_err(),
        SetupError::Missing(CardSet::single(lost))
    );
    let mut seat = setup(0, [HIGH, KNOCKER], "2D", "");
    seat.dealer = Seat(3);
    assert!(matches!(State::from_setup(Options::default(), seat), Err(SetupError::NoSuchSeat(_))));
}

#[test]
fn gr_02_knock_melds_must_be_melds() {
    // Q-K-A is not a run: an arrangement holding it does not even parse.
    let json = r#"{"knock": {"discard": "KD", "melds": [["QS", "KS", "AS"]]}}"#;
    let err = serde_json::from_str::<Action>(json).unwrap_err().to_string();
    assert!(err.contains("GR-2"), "{err}");
    let overlapping =
        r#"{"knock": {"discard": "KD", "melds": [["5C", "5D", "5H"], ["5H", "6H", "7H"]]}}"#;
    assert!(serde_json::from_str::<Action>(overlapping).unwrap_err().to_string().contains("GR-2"));
}

#[test]
fn gr_03_knock_check_is_the_minimum_over_every_discard() {
    // The rules file's hand: seat 1 holds ten of its cards and draws the 6♥ from the stock.
    let hand = "3C AH 3S 6D 5H 4C 4D 6C 5C 5D";
    let mut s =
        state(Options::default(), setup(0, ["7S 8S 9S JH QH KH TS TC 2D 3D", hand], "KC", "6H"));
    s.apply(S1, Action::PassUpcard).unwrap();
    s.apply(S0, Action::PassUpcard).unwrap();
    s.apply(S1, Action::DrawStock).unwrap();
    let knock = Action::Knock { discard: card("6H"), melds: melds(&["3C 4C 5C 6C", "4D 5D 6D"]) };
    assert!(s.legal_actions().contains(&knock));
    let events = s.apply(S1, knock).unwrap();
    let (_, sd) = showdown_of(&events);
    assert_eq!(sd.deadwood, 9);
}

#[test]
fn gr_04_seeded_deal_ten_each_upcard_and_stock() {
    let a = State::new(Options::default(), 42).unwrap();
    let b = State::new(Options::default(), 42).unwrap();
    assert_eq!(a.public_view(), b.public_view());
    assert_eq!(a.hand(S0), b.hand(S0));
    assert_eq!(a.stock(), b.stock());
    assert_eq!(a.hand(S0).len(), 10);
    assert_eq!(a.hand(S1).len(), 10);
    assert_eq!(a.discard_pile().len(), 1);
    assert_eq!(a.stock().len(), 31);
    assert_eq!(a.hand_number(), 1);
    // The non-dealer decides first on the upcard.
    assert_eq!(a.to_act(), Some(Seat(1 - a.dealer().0)));
    // The first dealer is drawn at random: both seats deal first for some seeds.
    let dealers: std::collections::BTreeSet<Seat> =
        (0..20).map(|seed| State::new(Options::default(), seed).unwrap().dealer()).collect();
    assert_eq!(dealers.len(), 2);
}

#[test]
fn gr_04_deal_alternates_after_a_scored_hand() {
    let mut s = state(Options::default(), setup(0, [HIGH, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    let events = s.apply(S1, knock_two()).unwrap();
    assert!(
        events.iter().any(|e| matches!(e, Event::HandDealt { dealer: S1, hand_number: 2, .. }))
    );
    assert_eq!(s.dealer(), S1);
    assert_eq!(s.to_act(), Some(S0));
}

#[test]
fn gr_04_hand_numbers_stop_at_the_top_instead_of_overflowing() {
    // Found by the fuzz properties: a setup's hand number near u32::MAX overflowed when the next
    // hand was dealt. Hand u32::MAX is the last any match may have (GR-17): it ends the match.
    let options = Options { max_hands: u32::MAX, ..Options::default() };
    let mut start = setup(0, [HIGH, KNOCKER], "2D", "");
    start.hand_number = u32::MAX - 1;
    let mut s = state(options, start.clone());
    s.apply(S1, Action::TakeUpcard).unwrap();
    let events = s.apply(S1, knock_two()).unwrap();
    assert!(
        events.iter().any(|e| matches!(e, Event::HandDealt { hand_number: u32::MAX, .. })),
        "{events:?}"
    );
    start.hand_number = u32::MAX;
    let mut s = state(options, start);
    s.apply(S1, Action::TakeUpcard).unwrap();
    s.apply(S1, knock_two()).unwrap();
    assert!(s.is_over());
    assert_eq!(s.hand_number(), u32::MAX);
    assert_eq!(s.results().last().map(|r| r.hand_number), Some(u32::MAX));
    assert!(s.end_reason().unwrap().starts_with("GR-17: drawn after 4294967295 hands"));
}

#[test]
fn gr_05_first_upcard_standard_both_pass_then_non_dealer_draws_from_stock() {
    let mut s = state(Options::default(), setup(0, [HIGH, KNOCKER], "2D", ""));
    assert_eq!(s.phase(), Phase::FirstUpcard { seat: S1 });
    assert_eq!(s.legal_actions(), vec![Action::TakeUpcard, Action::PassUpcard]);
    assert_eq!(rule_of(s.apply(S1, Action::DrawStock)), "GR-5");
    s.apply(S1, Action::PassUpcard).unwrap();
    assert_eq!(s.phase(), Phase::FirstUpcard { seat: S0 });
    s.apply(S0, Action::PassUpcard).unwrap();
    assert_eq!(s.phase(), Phase::Draw { seat: S1, stock_only: true });
    assert_eq!(s.legal_actions(), vec![Action::DrawStock]);
    let err = s.apply(S1, Action::DrawDiscard).unwrap_err();
    assert_eq!(err, IllegalAction::StockOnly);
    assert_eq!(err.rule(), "GR-5");
    assert_eq!(rule_of(s.apply(S1, Action::TakeUpcard)), "GR-5");
    s.apply(S1, Action::DrawStock).unwrap();
    assert!(matches!(s.phase(), Phase::Discard { seat: S1, taken: None, .. }));
}

#[test]
fn gr_05_the_dealer_may_take_the_passed_upcard_and_then_discards() {
    let mut s = state(Options::default(), setup(0, [HIGH, KNOCKER], "2D", ""));
    s.apply(S1, Action::PassUpcard).unwrap();
    let events = s.apply(S0, Action::TakeUpcard).unwrap();
    assert_eq!(events, vec![Event::UpcardTaken { seat: S0, card: card("2D") }]);
    assert_eq!(s.phase(), Phase::Discard { seat: S0, taken: Some(card("2D")), must_go_out: false });
    assert_eq!(s.hand(S0).len(), 11);
}

#[test]
fn option_first_upcard_seed_dealer_takes_a_normal_turn_after_a_pass() {
    let options = Options { first_upcard: FirstUpcard::Seed, ..Options::default() };
    let mut s = state(options, setup(0, [HIGH, KNOCKER], "2D", ""));
    s.apply(S1, Action::PassUpcard).unwrap();
    assert_eq!(s.phase(), Phase::Draw { seat: S0, stock_only: false });
    assert_eq!(s.legal_actions(), vec![Action::DrawStock, Action::DrawDiscard]);
    s.apply(S0, Action::DrawDiscard).unwrap();
    assert_eq!(s.hand(S0).len(), 11);
}

#[test]
fn gr_06_draw_then_discard_in_turn() {
    let mut s = state(Options::default(), setup(0, [HIGH, KNOCKER], "2D", "QD"));
    s.apply(S1, Action::PassUpcard).unwrap();
    s.apply(S0, Action::PassUpcard).unwrap();
    let err = s.apply(S0, Action::DrawStock).unwrap_err();
    assert_eq!(err, IllegalAction::NotYourTurn { seat: S0, to_act: S1 });
    assert_eq!(err.rule(), "GR-6");
    assert_eq!(rule_of(s.apply(S1, Action::Discard(card("KD")))), "GR-6");
    let events = s.apply(S1, Action::DrawStock).unwrap();
    // The stock card is not shown in public events (GR-16).
    assert_eq!(events, vec![Event::DrewStock { seat: S1 }]);
    assert_eq!(s.apply(S1, Action::DrawStock).unwrap_err(), IllegalAction::AlreadyDrew);
    let err = s.apply(S1, Action::Discard(card("AC"))).unwrap_err();
    assert_eq!(err.to_string(), "GR-6: you do not hold A♣");
    let legal = s.legal_actions();
    assert_eq!(legal.iter().filter(|a| matches!(a, Action::Discard(_))).count(), 11);
    s.apply(S1, Action::Discard(card("QD"))).unwrap();
    assert_eq!(s.phase(), Phase::Draw { seat: S0, stock_only: false });
    assert_eq!(s.discard_pile().last().unwrap().card, card("QD"));
    assert_eq!(s.discard_pile().last().unwrap().by, Some(S1));
    s.apply(S0, Action::DrawDiscard).unwrap();
    let err = s.apply(S0, Action::Discard(card("QD"))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "GR-6: a card just taken from the discard pile may not be discarded this turn (Q♦)"
    );
    assert_eq!(err.rule(), "GR-6");
    assert!(!s.legal_actions().contains(&Action::Discard(card("QD"))));
}

#[test]
fn gr_06_an_illegal_action_leaves_the_state_unchanged() {
    let mut s = state(Options::default(), setup(0, [HIGH, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    let before = (s.public_view(), s.observation(S0), s.observation(S1), s.actions().len());
    for bad in [
        Action::Discard(card("2D")),
        Action::DrawStock,
        Action::Gin { discard: card("KD") },
        Action::Knock { discard: card("KD"), melds: melds(&["AS 2S 3S"]) },
        Action::BigGin,
    ] {
        assert!(s.apply(S1, bad).is_err(), "{bad:?}");
    }
    assert_eq!((s.public_view(), s.observation(S0), s.observation(S1), s.actions().len()), before);
}

#[test]
fn option_discard_taken_upcard_allows_discarding_the_card_just_taken() {
    let options = Options { discard_taken_upcard: true, ..Options::default() };
    let mut s = state(options, setup(0, [HIGH, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    assert!(s.legal_actions().contains(&Action::Discard(card("2D"))));
    s.apply(S1, Action::Discard(card("2D"))).unwrap();
}

#[test]
fn gr_07_knock_with_the_arrangement_the_knocker_chooses() {
    let mut s = state(Options::default(), setup(0, [HIGH, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    let legal = s.legal_actions();
    assert!(legal.contains(&knock_two()));
    // Every listed knock is within the limit and uses cards held after the discard.
    for a in &legal {
        if let Action::Knock { discard, melds } = a {
            let rest = s.hand(S1) - CardSet::single(*discard);
            assert!(melds.cards().is_subset(rest));
            let dw = (rest - melds.cards()).value();
            assert!((1..=10).contains(&dw));
        }
    }
    // Leaving A♠ 2♠ 3♠ out as deadwood is a legal (if odd) choice: 8 deadwood.
    let odd = Action::Knock { discard: card("KD"), melds: melds(&["5C 5D 5H", "9C 9D 9H"]) };
    assert!(legal.contains(&odd));
    let too_high = Action::Knock { discard: card("KD"), melds: melds(&["9C 9D 9H"]) };
    let err = s.apply(S1, too_high).unwrap_err();
    assert_eq!(err, IllegalAction::DeadwoodTooHigh { deadwood: 23, limit: 10 });
    assert_eq!(err.rule(), "GR-7");
    let not_held =
        Action::Knock { discard: card("KD"), melds: melds(&["AS 2S 3S 4S", "5C 5D 5H"]) };
    assert_eq!(rule_of(s.apply(S1, not_held)), "GR-7");
    let discarding_a_meld_card =
        Action::Knock { discard: card("AS"), melds: melds(&["AS 2S 3S", "5C 5D 5H"]) };
    assert_eq!(rule_of(s.apply(S1, discarding_a_meld_card)), "GR-7");
    let events = s.apply(S1, knock_two()).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::WentOut { seat: S1, kind: GoOut::Knock, deadwood: 2, .. }))
    );
}

#[test]
fn option_knock_limit_caps_the_deadwood_of_a_knock() {
    let options = Options { knock_limit: 1, ..Options::default() };
    let mut s = state(options, setup(0, [HIGH, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    assert!(!s.legal_actions().iter().any(|a| matches!(a, Action::Knock { .. })));
    assert_eq!(
        s.apply(S1, knock_two()).unwrap_err(),
        IllegalAction::DeadwoodTooHigh { deadwood: 2, limit: 1 }
    );
    let zero = Options { knock_limit: 0, ..Options::default() };
    let mut g = state(zero, setup(0, [HIGH.replace("4S", "5S").as_str(), KNOCKER], "4S", ""));
    g.apply(S1, Action::TakeUpcard).unwrap();
    let legal = g.legal_actions();
    assert!(legal.contains(&Action::Gin { discard: card("KD") }));
    assert!(!legal.iter().any(|a| matches!(a, Action::Knock { .. })));
    assert_eq!(
        Options { knock_limit: 11, ..Options::default() }.validate(),
        Err(OptionsError::KnockLimit(11))
    );
}

#[test]
fn gr_08_gin_scores_the_defenders_deadwood_plus_25_and_nothing_is_laid_off() {
    // 4♠ completes A♠–4♠; the defender's 5♠ could extend it but nothing is laid off on gin.
    let defender = "5S 6C 7C 8C TH JH QH KH AC AH";
    let mut s = state(Options::default(), setup(0, [defender, KNOCKER], "4S", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    let knock_zero = Action::Knock {
        discard: card("KD"),
        melds: melds(&["AS 2S 3S 4S", "5C 5D 5H", "9C 9D 9H"]),
    };
    assert_eq!(s.apply(S1, knock_zero).unwrap_err(), IllegalAction::KnockIsGin);
    let err = s.apply(S1, Action::Gin { discard: card("5C") }).unwrap_err();
    assert!(matches!(err, IllegalAction::NotGin { deadwood: 20, .. }), "{err:?}");
    assert_eq!(err.rule(), "GR-8");
    let events = s.apply(S1, Action::Gin { discard: card("KD") }).unwrap();
    let (result, sd) = showdown_of(&events);
    assert_eq!(sd.kind, GoOut::Gin);
    assert!(sd.layout.layoffs.is_empty());
    assert_eq!(sd.layout.deadwood, 1 + 1 + 5);
    assert_eq!(result.points, 7 + 25);
    assert_eq!(result.winner, Some(S1));
    assert_eq!(s.scores(), [0, 32]);
}

#[test]
fn option_big_gin_eleven_melded_cards_score_plus_31() {
    let hand = "AS 2S 3S 4S 5C 5D 5H 9C 9D 9H";
    let defender = "5S 6C 7C 8C TH JH QH KH AC AH";
    let off = Options::default();
    let mut s = state(off, setup(0, [defender, hand], "9S", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    assert!(!s.legal_actions().contains(&Action::BigGin));
    assert_eq!(s.apply(S1, Action::BigGin).unwrap_err(), IllegalAction::BigGinOff);
    let on = Options { big_gin: true, ..Options::default() };
    let mut s = state(on, setup(0, [defender, hand], "9S", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    assert!(s.legal_actions().contains(&Action::BigGin));
    let events = s.apply(S1, Action::BigGin).unwrap();
    let (result, sd) = showdown_of(&events);
    assert_eq!(sd.kind, GoOut::BigGin);
    assert_eq!(sd.discard, None);
    assert_eq!(sd.melds.cards().len(), 11);
    assert_eq!(result.points, 7 + 31);
    let bonus = Options { big_gin: true, big_gin_bonus: 50, ..Options::default() };
    let mut s = state(bonus, setup(0, [defender, hand], "9S", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    assert_eq!(showdown_of(&s.apply(S1, Action::BigGin).unwrap()).0.points, 57);
    // Not all melded: refused.
    let mut s = state(on, setup(0, [defender, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    assert_eq!(s.apply(S1, Action::BigGin).unwrap_err().rule(), "GR-8");
}

#[test]
fn gr_09_the_engine_lays_the_defender_out_with_layoffs() {
    let mut s = state(Options::default(), setup(0, [UNDER, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    let events = s.apply(S1, knock_two()).unwrap();
    let laid = events.iter().find_map(|e| {
        if let Event::LaidOut { seat, layout } = e { Some((*seat, *layout)) } else { None }
    });
    let (seat, layout) = laid.unwrap();
    assert_eq!(seat, S0);
    assert_eq!(layout.layoffs, set("4S 5S"));
    assert_eq!(layout.melds, melds(&["6C 7C 8C", "TH JH QH KH"]));
    assert_eq!(layout.deadwood_cards, set("AC"));
    assert_eq!(layout.deadwood, 1);
}

#[test]
fn gr_10_wall_two_cards_left_is_a_draw_and_the_same_dealer_deals() {
    let mut s = state(Options::default(), setup_with(0, [HIGH, KNOCKER], "2D", "", Some(3)));
    assert_eq!(s.stock().len(), 3);
    s.apply(S1, Action::PassUpcard).unwrap();
    s.apply(S0, Action::PassUpcard).unwrap();
    s.apply(S1, Action::DrawStock).unwrap();
    let events = s.apply(S1, Action::Discard(card("KD"))).unwrap();
    assert!(events.iter().any(|e| matches!(e, Event::HandEnded { result } if result.end == HandEnd::Wall && result.winner.is_none())));
    assert_eq!(s.hand_number(), 2);
    assert_eq!(s.dealer(), S0);
    assert_eq!(s.scores(), [0, 0]);
    assert_eq!(s.stock().len(), 31);
}

#[test]
fn option_wall_knock_the_next_player_may_take_the_upcard_only_to_knock() {
    let options = Options { wall_knock: true, ..Options::default() };
    // Dealer 1: seat 0 decides first, draws the J♣ from a stock of 3 and throws it back.
    let mut s = state(options, setup_with(1, [KNOCKER, HIGH], "QC", "JC", Some(3)));
    s.apply(S0, Action::PassUpcard).unwrap();
    s.apply(S1, Action::PassUpcard).unwrap();
    s.apply(S0, Action::DrawStock).unwrap();
    s.apply(S0, Action::Discard(card("JC"))).unwrap();
    assert_eq!(s.stock().len(), 2);
    assert_eq!(s.phase(), Phase::Wall { seat: S1 });
    // Seat 1 cannot knock with the J♣: it may only pass.
    assert_eq!(s.legal_actions(), vec![Action::PassUpcard]);
    assert_eq!(s.apply(S1, Action::DrawStock).unwrap_err(), IllegalAction::WallStockClosed);
    let err = s.apply(S1, Action::DrawDiscard).unwrap_err();
    assert_eq!(err, IllegalAction::WallCannotGoOut { upcard: card("JC") });
    assert_eq!(err.rule(), "GR-10");
    let events = s.apply(S1, Action::PassUpcard).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::HandEnded { result } if result.end == HandEnd::Wall))
    );
    assert_eq!(s.dealer(), S1);
    assert_eq!(s.hand_number(), 2);
}

#[test]
fn option_wall_knock_taking_the_upcard_at_the_wall_forces_a_knock() {
    let options = Options { wall_knock: true, ..Options::default() };
    // Seat 1 (HIGH, the non-dealer) draws the Q♣ and throws the 2♦ at the wall; seat 0 holds
    // KNOCKER and takes it to knock.
    let high_with_2d = "4S 6C 7C 8C JH QH KH TS TC 2D";
    let mut s = state(options, setup_with(0, [KNOCKER, high_with_2d], "JC", "QC", Some(3)));
    s.apply(S1, Action::PassUpcard).unwrap();
    s.apply(S0, Action::PassUpcard).unwrap();
    s.apply(S1, Action::DrawStock).unwrap();
    s.apply(S1, Action::Discard(card("2D"))).unwrap();
    assert_eq!(s.phase(), Phase::Wall { seat: S0 });
    assert_eq!(s.legal_actions(), vec![Action::PassUpcard, Action::DrawDiscard]);
    s.apply(S0, Action::DrawDiscard).unwrap();
    assert_eq!(s.phase(), Phase::Discard { seat: S0, taken: Some(card("2D")), must_go_out: true });
    assert_eq!(s.apply(S0, Action::Discard(card("KD"))).unwrap_err(), IllegalAction::WallMustGoOut);
    assert!(
        s.legal_actions().iter().all(|a| matches!(a, Action::Knock { .. } | Action::Gin { .. }))
    );
    let events = s.apply(S0, knock_two()).unwrap();
    let (result, _) = showdown_of(&events);
    assert_eq!(result.winner, Some(S0));
}

#[test]
fn gr_11_option_max_upcard_draws_ends_the_hand_as_a_draw() {
    let options = Options { max_upcard_draws: 2, ..Options::default() };
    let mut s = state(options, setup(0, [HIGH, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    s.apply(S1, Action::Discard(card("KD"))).unwrap();
    s.apply(S0, Action::DrawDiscard).unwrap();
    // The second take: the taker may still go out, but an ordinary discard ends the hand.
    let events = s.apply(S0, Action::Discard(card("TS"))).unwrap();
    assert!(
        events.iter().any(
            |e| matches!(e, Event::HandEnded { result } if result.end == HandEnd::UpcardLimit)
        )
    );
    assert_eq!(s.hand_number(), 2);
    assert_eq!(s.dealer(), S0);
    assert_eq!(
        Options { max_upcard_draws: 0, ..Options::default() }.validate(),
        Err(OptionsError::MaxUpcardDraws)
    );
    assert_eq!(Options::default().max_upcard_draws, 50);
}

#[test]
fn gr_12_knock_win_scores_the_difference() {
    let mut s = state(Options::default(), setup(0, [HIGH, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    let (result, sd) = showdown_of(&s.apply(S1, knock_two()).unwrap());
    assert_eq!((sd.deadwood, sd.layout.deadwood), (2, 23));
    assert_eq!(result.winner, Some(S1));
    assert!(!result.undercut);
    assert_eq!(result.points, 21);
    assert_eq!(s.scores(), [0, 21]);
    assert_eq!(s.hands_won(), [0, 1]);
}

#[test]
fn gr_12_undercut_scores_the_difference_plus_25_for_the_defender() {
    let mut s = state(Options::default(), setup(0, [UNDER, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    let (result, _) = showdown_of(&s.apply(S1, knock_two()).unwrap());
    assert_eq!(result.winner, Some(S0));
    assert!(result.undercut);
    assert_eq!(result.points, 1 + 25);
    let options = Options { undercut_bonus: 10, ..Options::default() };
    let mut s = state(options, setup(0, [UNDER, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    assert_eq!(showdown_of(&s.apply(S1, knock_two()).unwrap()).0.points, 11);
}

#[test]
fn option_tie_is_undercut() {
    let mut s = state(Options::default(), setup(0, [TIE, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    let (result, sd) = showdown_of(&s.apply(S1, knock_two()).unwrap());
    assert_eq!((sd.deadwood, sd.layout.deadwood), (2, 2));
    assert_eq!((result.winner, result.undercut, result.points), (Some(S0), true, 25));
    let options = Options { tie_is_undercut: false, ..Options::default() };
    let mut s = state(options, setup(0, [TIE, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    let (result, _) = showdown_of(&s.apply(S1, knock_two()).unwrap());
    assert_eq!((result.winner, result.undercut, result.points), (None, false, 0));
    assert_eq!(s.scores(), [0, 0]);
    // A tie that scores nothing is still a played hand: the deal alternates.
    assert_eq!(s.dealer(), S1);
}

#[test]
fn option_gin_bonus() {
    let defender = "5S 6C 7C 8C TH JH QH KH AC AH";
    let options = Options { gin_bonus: 20, ..Options::default() };
    let mut s = state(options, setup(0, [defender, KNOCKER], "4S", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    assert_eq!(
        showdown_of(&s.apply(S1, Action::Gin { discard: card("KD") }).unwrap()).0.points,
        27
    );
}

fn play_to_the_end(
    options: Options,
    scores: [u32; 2],
    hands_won: [u32; 2],
    defender: &str,
) -> State {
    let mut setup = setup(0, [defender, KNOCKER], "2D", "");
    setup.scores = scores;
    setup.hands_won = hands_won;
    let mut s = state(options, setup);
    s.apply(S1, Action::TakeUpcard).unwrap();
    s.apply(S1, knock_two()).unwrap();
    s
}

#[test]
fn gr_13_the_match_ends_when_a_total_reaches_the_target() {
    let s = play_to_the_end(Options::default(), [40, 80], [2, 3], HIGH);
    assert!(s.is_over());
    assert_eq!(s.to_act(), None);
    assert!(s.legal_actions().is_empty());
    let outcome = s.outcome().unwrap();
    assert_eq!(outcome.totals, [40, 101]);
    assert_eq!(outcome.winner, Some(S1));
    assert_eq!(outcome.standings[0], cardroom_games::Standing { place: 1, seat: S1 });
    assert_eq!(outcome.standings[1], cardroom_games::Standing { place: 2, seat: S0 });
    let mut over = s.clone();
    assert_eq!(over.apply(S0, Action::DrawStock).unwrap_err(), IllegalAction::MatchOver);
    assert_eq!(IllegalAction::MatchOver.rule(), "GR-13");
    // Not over below the target.
    let s = play_to_the_end(Options::default(), [40, 70], [0, 0], HIGH);
    assert!(!s.is_over());
    // A setup already at the target is refused.
    let mut done = setup(0, [HIGH, KNOCKER], "2D", "");
    done.scores = [100, 0];
    assert!(matches!(
        State::from_setup(Options::default(), done),
        Err(SetupError::ScoreAtTarget { .. })
    ));
}

#[test]
fn option_target() {
    let options = Options { target: 20, ..Options::default() };
    let s = play_to_the_end(options, [0, 0], [0, 0], HIGH);
    assert_eq!(s.outcome().unwrap().totals, [0, 21]);
    assert_eq!(Options { target: 0, ..Options::default() }.validate(), Err(OptionsError::Target));
}

/// A hand at `hand_number` whose first discard ends it as a draw (GR-11 with one upcard draw
/// allowed): seat 1 takes the upcard and discards.
fn draw_a_hand(options: Options, hand_number: u32, scores: [u32; 2]) -> (State, Vec<Event>) {
    let options = Options { max_upcard_draws: 1, ..options };
    let mut setup = setup(0, [HIGH, KNOCKER], "2D", "");
    setup.hand_number = hand_number;
    setup.scores = scores;
    let mut s = state(options, setup);
    s.apply(S1, Action::TakeUpcard).unwrap();
    let events = s.apply(S1, Action::Discard(card("KD"))).unwrap();
    (s, events)
}

fn drawn_standings() -> Vec<cardroom_games::Standing> {
    vec![
        cardroom_games::Standing { place: 1, seat: S0 },
        cardroom_games::Standing { place: 1, seat: S1 },
    ]
}

#[test]
fn gr_17_the_last_hand_ends_a_match_nobody_won_drawn() {
    let options = Options { max_hands: 3, ..Options::default() };
    // A drawn hand before the last: the next is dealt.
    let (s, _) = draw_a_hand(options, 2, [30, 60]);
    assert!(!s.is_over());
    assert_eq!((s.hand_number(), s.end_reason()), (3, None));
    // The last hand drawn: the match is over, drawn, on the hand points.
    let (mut s, events) = draw_a_hand(options, 3, [30, 60]);
    assert!(s.is_over());
    assert_eq!((s.to_act(), s.phase(), s.hand_number()), (None, Phase::MatchOver, 3));
    assert!(s.legal_actions().is_empty());
    let outcome = s.outcome().unwrap().clone();
    assert_eq!((outcome.totals, outcome.points, outcome.winner), ([30, 60], [30, 60], None));
    assert_eq!(outcome.standings, drawn_standings());
    assert_eq!(events.last(), Some(&Event::MatchOver { outcome }));
    assert!(!events.iter().any(|e| matches!(e, Event::HandDealt { .. })), "no fourth hand");
    assert_eq!(
        s.end_reason().as_deref(),
        Some("GR-17: drawn after 3 hands, neither seat reached the target of 100 points")
    );
    assert_eq!(s.apply(S0, Action::DrawStock).unwrap_err(), IllegalAction::MatchOver);
    // The last hand scored below the target: drawn too, whoever leads; no classic bonus.
    let bonuses = Options { box_bonus: true, game_bonus: true, shutout_double: true, ..options };
    let mut setup = setup(0, [HIGH, KNOCKER], "2D", "");
    (setup.hand_number, setup.scores, setup.hands_won) = (3, [0, 40], [0, 2]);
    let mut s = state(bonuses, setup.clone());
    s.apply(S1, Action::TakeUpcard).unwrap();
    s.apply(S1, knock_two()).unwrap();
    let outcome = s.outcome().unwrap();
    assert_eq!((outcome.totals, outcome.points, outcome.winner), ([0, 61], [0, 61], None));
    assert_eq!((outcome.hands_won, &outcome.standings), ([0, 3], &drawn_standings()));
    // The last hand reaching the target: GR-13 decides.
    setup.scores = [0, 80];
    let mut s = state(options, setup.clone());
    s.apply(S1, Action::TakeUpcard).unwrap();
    s.apply(S1, knock_two()).unwrap();
    assert_eq!(s.outcome().unwrap().winner, Some(S1));
    assert_eq!(s.end_reason().as_deref(), Some("GR-13: seat 1 reached the target of 100 points"));
    // One hand: "hand", not "hands".
    let (s, _) = draw_a_hand(Options { max_hands: 1, ..Options::default() }, 1, [0, 0]);
    assert_eq!(
        s.end_reason().as_deref(),
        Some("GR-17: drawn after 1 hand, neither seat reached the target of 100 points")
    );
    // A setup past the last hand is refused.
    setup.hand_number = 4;
    assert_eq!(
        State::from_setup(options, setup).unwrap_err(),
        SetupError::PastLastHand { hand_number: 4, max_hands: 3 }
    );
}

#[test]
fn option_max_hands() {
    assert_eq!(Options::default().max_hands, 300);
    assert_eq!(serde_json::from_str::<Options>("{}").unwrap().max_hands, 300);
    let options: Options = serde_json::from_str(r#"{"max_hands": 7}"#).unwrap();
    assert_eq!(options.max_hands, 7);
    let none = Options { max_hands: 0, ..Options::default() };
    assert_eq!(none.validate(), Err(OptionsError::MaxHands));
    let error = State::new(none, 1).unwrap_err();
    assert_eq!(error.to_string(), "GR-17: max_hands must be at least 1");
    assert!(State::new(Options { max_hands: u32::MAX, ..Options::default() }, 1).is_ok());
    let spec = <Options as cardroom_games::GameOptions>::describe()
        .into_iter()
        .find(|spec| spec.name == "max_hands")
        .unwrap();
    assert!(spec.description.starts_with("GR-17: "), "{}", spec.description);
    assert_eq!(spec.default_json(), "300");
    assert_eq!(spec.kind, cardroom_games::OptionKind::Integer { min: 1, max: u64::from(u32::MAX) });
}

/// Plays a match with `choose` for both seats; returns it and the decisions taken.
fn play_out(options: Options, seed: u64, choose: impl Fn(&[Action]) -> Action) -> (State, usize) {
    let mut s = State::new(options, seed).unwrap();
    let mut decisions = 0;
    while let Some(seat) = s.to_act() {
        s.apply(seat, choose(&s.legal_actions())).unwrap();
        decisions += 1;
    }
    (s, decisions)
}

/// Issue 45: two bots that always answer the first legal action never go out (every hand ends
/// at the wall, GR-10), so before GR-17 the match never ended. Now it ends drawn after the
/// default 300 hands: 60 decisions a hand (the upcard taken and a discard, then 29 turns of
/// two), 18,000 in all.
#[test]
fn gr_17_two_first_legal_action_bots_play_to_the_hand_limit() {
    let options = Options::default();
    for seed in 0..8 {
        let (s, decisions) = play_out(options, seed, |legal| legal[0]);
        assert!(s.is_over(), "seed {seed}");
        assert_eq!(s.hand_number(), options.max_hands);
        assert_eq!(s.results().len(), 300, "exactly max_hands hands were played");
        assert!(s.results().iter().all(|r| r.end == HandEnd::Wall && r.winner.is_none()));
        assert_eq!(decisions, 18_000, "seed {seed}");
        let outcome = s.outcome().unwrap();
        assert_eq!((outcome.totals, outcome.winner), ([0, 0], None));
        assert_eq!(outcome.standings, drawn_standings());
        let reason = "GR-17: drawn after 300 hands, neither seat reached the target of 100 points";
        assert_eq!(s.end_reason().as_deref(), Some(reason));
        // The record says why, and replays to the same end.
        let record = s.record();
        assert_eq!(record.termination.as_deref(), Some(reason));
        let replayed = record.replay().unwrap();
        assert_eq!(replayed.public_view(), s.public_view());
        assert_eq!(replayed.end_reason().as_deref(), Some(reason));
    }
}

/// A small limit with bots that go out whenever they can: every match ends by the third hand,
/// drawn at the third unless a seat reached the target.
#[test]
fn gr_17_a_small_hand_limit_with_normal_play() {
    let options = Options { max_hands: 3, target: 50, ..Options::default() };
    let goes_out = |legal: &[Action]| {
        let out = legal.iter().find(|a| matches!(a, Action::Gin { .. } | Action::Knock { .. }));
        out.copied().unwrap_or(legal[0])
    };
    let (mut drawn, mut won) = (0, 0);
    for seed in 0..200 {
        let (s, _) = play_out(options, seed, goes_out);
        let reason = s.end_reason().unwrap();
        let outcome = s.outcome().unwrap();
        assert!(s.hand_number() <= 3 && s.results().len() == s.hand_number() as usize);
        if s.scores().iter().any(|&score| score >= 50) {
            assert!(reason.starts_with("GR-13: "), "{reason}");
            assert!(outcome.winner.is_some());
            won += 1;
        } else {
            assert_eq!(s.hand_number(), 3, "seed {seed}");
            assert!(reason.starts_with("GR-17: drawn after 3 hands"), "{reason}");
            assert_eq!((outcome.winner, outcome.totals), (None, s.scores()));
            drawn += 1;
        }
    }
    assert!(drawn > 0 && won > 0, "drawn {drawn}, won {won}");
}

/// The record's termination (PGN's `Termination` tag): written once the match is over, read
/// when present and when not, and ignored by replay.
#[test]
fn records_say_why_the_match_ended_and_replay_ignores_it() {
    let (s, _) = draw_a_hand(Options { max_hands: 1, ..Options::default() }, 1, [0, 0]);
    let record = s.record();
    let reason = "GR-17: drawn after 1 hand, neither seat reached the target of 100 points";
    assert_eq!(record.termination.as_deref(), Some(reason));
    let json = record.to_json();
    // One line of its own, after the start and before the actions.
    let lines: Vec<&str> = json.lines().collect();
    let at = |prefix: &str| lines.iter().position(|l| l.starts_with(prefix)).unwrap();
    assert_eq!(lines[at("  \"termination\"")], format!("  \"termination\": \"{reason}\","));
    assert!(at("  \"setup\"") < at("  \"termination\""));
    assert!(at("  \"termination\"") < at("  \"actions\""));
    let back = Record::from_json(&json).unwrap();
    assert_eq!(back, record);
    // Without it (a running match, or a record from before): left out, read as none.
    let untold = Record { termination: None, ..record.clone() };
    let json = untold.to_json();
    assert!(!json.contains("termination"), "{json}");
    assert_eq!(Record::from_json(&json).unwrap(), untold);
    // Whatever it says, replay ignores it: the same match, which gives its own reason.
    let told = Record { termination: Some("aborted: the server shut down".into()), ..record };
    for record in [&untold, &told, &Record::from_json(&told.to_json()).unwrap()] {
        let replayed = record.replay().unwrap();
        assert_eq!(replayed.public_view(), s.public_view());
        assert_eq!(replayed.record().termination.as_deref(), Some(reason));
    }
    let mut running = state(Options::default(), setup(0, [HIGH, KNOCKER], "2D", ""));
    running.apply(S1, Action::TakeUpcard).unwrap();
    assert_eq!((running.end_reason(), running.record().termination), (None, None));
}

#[test]
fn option_game_bonus() {
    let options = Options { game_bonus: true, ..Options::default() };
    let s = play_to_the_end(options, [40, 80], [2, 3], HIGH);
    assert_eq!(s.outcome().unwrap().totals, [40, 201]);
}

#[test]
fn option_box_bonus() {
    let options = Options { box_bonus: true, ..Options::default() };
    let s = play_to_the_end(options, [40, 80], [2, 3], HIGH);
    let outcome = s.outcome().unwrap();
    assert_eq!(outcome.hands_won, [2, 4]);
    assert_eq!(outcome.totals, [40 + 50, 101 + 100]);
    // Box bonuses can put the player who did not reach the target ahead: the higher total wins.
    let s = play_to_the_end(options, [95, 80], [9, 1], HIGH);
    let outcome = s.outcome().unwrap();
    assert_eq!(outcome.totals, [95 + 225, 101 + 50]);
    assert_eq!(outcome.winner, Some(S0));
}

#[test]
fn option_shutout_double() {
    let options = Options { shutout_double: true, ..Options::default() };
    let s = play_to_the_end(options, [0, 80], [0, 3], HIGH);
    assert_eq!(s.outcome().unwrap().totals, [0, 202]);
    let s = play_to_the_end(options, [5, 80], [1, 3], HIGH);
    assert_eq!(s.outcome().unwrap().totals, [5, 101]);
}

#[test]
fn gr_14_option_oklahoma_upcard_sets_the_knock_limit() {
    let options = Options { oklahoma: true, ..Options::default() };
    // Upcard 2♦: limit 2, and the knock with 2 is legal.
    let mut s = state(options, setup(0, [HIGH, KNOCKER], "2D", ""));
    assert_eq!(s.knock_limit(), 2);
    s.apply(S1, Action::TakeUpcard).unwrap();
    assert!(s.legal_actions().contains(&knock_two()));
    // Upcard A♦ (the knocker's deadwood would be 1): an ace means gin only.
    let mut s = state(options, setup(0, [HIGH, KNOCKER], "AD", ""));
    assert_eq!(s.knock_limit(), 0);
    s.apply(S1, Action::TakeUpcard).unwrap();
    assert!(!s.legal_actions().iter().any(|a| matches!(a, Action::Knock { .. })));
    let ace =
        Action::Knock { discard: card("KD"), melds: melds(&["AS 2S 3S", "5C 5D 5H", "9C 9D 9H"]) };
    assert_eq!(
        s.apply(S1, ace).unwrap_err(),
        IllegalAction::DeadwoodTooHigh { deadwood: 1, limit: 0 }
    );
    // A face card: 10.
    assert_eq!(state(options, setup(0, [HIGH, KNOCKER], "QD", "")).knock_limit(), 10);
}

#[test]
fn option_oklahoma_spades_double_doubles_the_hand() {
    let options = Options { oklahoma: true, oklahoma_spades_double: true, ..Options::default() };
    let hand = "AS 2S 3S 5C 5D 5H 9C 9D 9H KD";
    // Upcard 4♠ (limit 4, doubled): seat 1 takes it and goes gin.
    let defender = "5S 6C 7C 8C TH JH QH KH AC AH";
    let mut s = state(options, setup(0, [defender, hand], "4S", ""));
    let events = s.apply(S1, Action::TakeUpcard).unwrap();
    let _ = events;
    let (result, _) = showdown_of(&s.apply(S1, Action::Gin { discard: card("KD") }).unwrap());
    assert_eq!(result.points, 2 * (7 + 25));
    assert_eq!(
        Options { oklahoma_spades_double: true, ..Options::default() }.validate(),
        Err(OptionsError::SpadesWithoutOklahoma)
    );
}

#[test]
fn gr_15_public_view_shows_the_pile_who_discarded_and_cards_taken() {
    let mut s = state(Options::default(), setup(0, [HIGH, KNOCKER], "2D", "QD"));
    s.apply(S1, Action::TakeUpcard).unwrap();
    let view = s.public_view();
    assert_eq!(view.known_cards, [CardSet::EMPTY, set("2D")]);
    assert_eq!(view.hand_sizes, [10, 11]);
    assert_eq!(view.upcard_draws, 1);
    s.apply(S1, Action::Discard(card("KD"))).unwrap();
    let view = s.public_view();
    assert_eq!(view.discard_pile.last().unwrap().by, Some(S1));
    assert_eq!(view.stock_size, 31);
    assert_eq!(view.to_act, Some(S0));
    assert_eq!(view.scores, [0, 0]);
    assert_eq!(view.dealer, S0);
    // After the showdown the hand's result is public, with both layouts.
    let mut s = state(Options::default(), setup(0, [HIGH, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    s.apply(S1, knock_two()).unwrap();
    let view = s.public_view();
    let HandEnd::Showdown(sd) = view.last_result.unwrap().end else { panic!() };
    assert_eq!(sd.discard, Some(card("KD")));
    assert_eq!(sd.melds.cards() | sd.deadwood_cards, (set(KNOCKER) - set("KD")) | set("2D"));
}

#[test]
fn gr_16_a_seat_sees_its_own_hand_and_draw_only() {
    let mut s = state(Options::default(), setup(0, [HIGH, KNOCKER], "2D", "QD"));
    s.apply(S1, Action::PassUpcard).unwrap();
    s.apply(S0, Action::PassUpcard).unwrap();
    s.apply(S1, Action::DrawStock).unwrap();
    let mine = s.observation(S1);
    let theirs = s.observation(S0);
    assert_eq!(mine.hand, set(KNOCKER) | set("QD"));
    assert_eq!(mine.drawn, Some(card("QD")));
    assert_eq!(mine.legal_actions, s.legal_actions());
    assert_eq!(theirs.hand, set(HIGH));
    assert_eq!(theirs.drawn, None);
    assert!(theirs.legal_actions.is_empty());
    assert_eq!(mine.public, theirs.public);
    // Neither the public view nor the other seat's observation holds the other hand or stock.
    let json = serde_json::to_string(&theirs).unwrap();
    assert!(!json.contains("\"QD\""), "{json}");
    assert!(!json.contains("\"KD\""));
    assert!(!json.contains("seed"));
    // The knock discard is face down until the hand is over: the WentOut event does not show it.
    let mut s = state(Options::default(), setup(0, [HIGH, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    let events = s.apply(S1, knock_two()).unwrap();
    let went_out = events.iter().find(|e| matches!(e, Event::WentOut { .. })).unwrap();
    assert!(!serde_json::to_string(went_out).unwrap().contains("KD"));
}

#[test]
fn options_serde_defaults_and_unknown_fields() {
    let default: Options = serde_json::from_str("{}").unwrap();
    assert_eq!(default, Options::default());
    assert_eq!(default.knock_limit, 10);
    assert_eq!((default.gin_bonus, default.undercut_bonus, default.big_gin_bonus), (25, 25, 31));
    assert!(
        default.tie_is_undercut && !default.wall_knock && !default.big_gin && !default.oklahoma
    );
    assert_eq!(default.target, 100);
    assert!(serde_json::from_str::<Options>(r#"{"knock_limt": 3}"#).is_err());
    let json = serde_json::to_value(Options::default()).unwrap();
    for field in [
        "first_upcard",
        "discard_taken_upcard",
        "knock_limit",
        "oklahoma",
        "oklahoma_spades_double",
        "gin_bonus",
        "undercut_bonus",
        "big_gin",
        "big_gin_bonus",
        "tie_is_undercut",
        "wall_knock",
        "max_upcard_draws",
        "target",
        "game_bonus",
        "box_bonus",
        "shutout_double",
    ] {
        assert!(json.get(field).is_some(), "{field}");
    }
    assert_eq!(json["first_upcard"], "standard");
}

#[test]
fn records_replay_exactly_and_name_the_first_illegal_action() {
    let mut s = state(Options::default(), setup(0, [HIGH, KNOCKER], "2D", ""));
    s.apply(S1, Action::TakeUpcard).unwrap();
    s.apply(S1, knock_two()).unwrap();
    let record = s.record();
    let json = serde_json::to_string_pretty(&record).unwrap();
    assert!(json.contains(r#""action": "take_upcard""#), "{json}");
    assert!(json.contains(r#""knock""#));
    let back: Record = serde_json::from_str(&json).unwrap();
    assert_eq!(back, record);
    assert_eq!(back.replay().unwrap().public_view(), s.public_view());
    let mut bad = record.clone();
    bad.actions.insert(1, RecordedAction { seat: S0, action: Action::DrawStock });
    match bad.replay() {
        Err(ReplayError::Illegal { index: 1, seat: S0, error, .. }) => {
            assert_eq!(error.rule(), "GR-6")
        }
        other => panic!("{other:?}"),
    }
    let seeded = Record {
        options: Options::default(),
        players: 2,
        start: Start::Seed(3),
        actions: vec![],
        termination: None,
        comments: vec![],
    };
    let json = serde_json::to_string(&seeded).unwrap();
    assert_eq!(
        json,
        format!(
            r#"{{"options":{},"seed":3,"actions":[]}}"#,
            serde_json::to_string(&Options::default()).unwrap()
        )
    );
    let minimal: Record = serde_json::from_str(r#"{"seed": 3}"#).unwrap();
    assert_eq!(minimal, seeded);
}

#[test]
fn option_undercut_bonus() {
    for (bonus, points) in [(25, 26), (10, 11), (0, 1)] {
        let options = Options { undercut_bonus: bonus, ..Options::default() };
        let mut s = state(options, setup(0, [UNDER, KNOCKER], "2D", ""));
        s.apply(S1, Action::TakeUpcard).unwrap();
        let (result, _) = showdown_of(&s.apply(S1, knock_two()).unwrap());
        assert_eq!((result.winner, result.undercut, result.points), (Some(S0), true, points));
    }
}

#[test]
fn actions_have_a_readable_json_form() {
    let cases = [
        (Action::TakeUpcard, r#""take_upcard""#),
        (Action::PassUpcard, r#""pass_upcard""#),
        (Action::DrawStock, r#""draw_stock""#),
        (Action::DrawDiscard, r#""draw_discard""#),
        (Action::Discard(card("7C")), r#"{"discard":"7C"}"#),
        (Action::Gin { discard: card("KD") }, r#"{"gin":{"discard":"KD"}}"#),
        (Action::BigGin, r#""big_gin""#),
        (
            knock_two(),
            // Canonical order: melds by their first card, clubs first, ace low.
            r#"{"knock":{"discard":"KD","melds":[["5C","5D","5H"],["9C","9D","9H"],["AS","2S","3S"]]}}"#,
        ),
    ];
    for (action, json) in cases {
        assert_eq!(serde_json::to_string(&action).unwrap(), json);
        assert_eq!(serde_json::from_str::<Action>(json).unwrap(), action);
    }
    // Melds are put in canonical form when read: a run written in two pieces is one run.
    let split = r#"{"knock":{"discard":"KD","melds":[["6S","7S","8S"],["3S","4S","5S"]]}}"#;
    let Action::Knock { melds: read, .. } = serde_json::from_str::<Action>(split).unwrap() else {
        panic!()
    };
    assert_eq!(read, melds(&["3S 4S 5S 6S 7S 8S"]));
}
