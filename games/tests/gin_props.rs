//! Random-play property tests: 5,000 matches for every combination of the options that change
//! play (first_upcard, discard_taken_upcard, big_gin, wall_knock, oklahoma), with the other
//! options (knock limit, upcard limit, bonuses, tie rule, target, hand limit) drawn per match. Every step
//! checks that the cards are conserved and the state is never stuck; every hand's score is
//! recomputed from the revealed hands (GR-12); every match's record replays to the same state.

#![allow(clippy::unwrap_used)]

use cardroom_games::gin::solver;
use cardroom_games::gin::{
    Action, CardSet, Event, FirstUpcard, GoOut, HandEnd, Options, Outcome, Phase, Record, State,
};
use cardroom_games::{Card, Rank, Seat, Suit};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const MATCHES_PER_COMBINATION: u64 = 5_000;

/// How a seat plays: each action is uniformly random with probability `noise` (always in the
/// first two hands when `noise` is 1), otherwise greedy: go out whenever possible, draw and
/// discard to lower the deadwood. Pure random play rarely knocks, so after two hands a pure
/// random match turns mostly greedy to end.
#[derive(Copy, Clone, Debug)]
struct Policy {
    noise: f64,
}

fn is_go_out(action: &Action) -> bool {
    matches!(action, Action::Knock { .. } | Action::Gin { .. } | Action::BigGin)
}

fn choose(
    state: &State,
    seat: Seat,
    legal: &[Action],
    policy: Policy,
    rng: &mut ChaCha8Rng,
) -> Action {
    let uniform = legal[rng.random_range(0..legal.len())];
    let noise = if policy.noise >= 1.0 && state.hand_number() > 2 { 0.1 } else { policy.noise };
    if rng.random_bool(noise) {
        return uniform;
    }
    let out: Vec<Action> = legal.iter().copied().filter(is_go_out).collect();
    if !out.is_empty() {
        if out.contains(&Action::BigGin) {
            return Action::BigGin;
        }
        if let Some(gin) = out.iter().find(|a| matches!(a, Action::Gin { .. })) {
            return *gin;
        }
        return out[rng.random_range(0..out.len())];
    }
    let hand = state.hand(seat);
    let deadwood = |cards: CardSet| solver::deadwood(cards).unwrap_or(u8::MAX);
    if legal.contains(&Action::DrawDiscard) {
        let top = state.discard_pile().last().unwrap().card;
        let with = hand | CardSet::single(top);
        // The best discard after taking it; discarding the top itself would leave the hand.
        let best = solver::knock_deadwood(with).unwrap();
        return if best < deadwood(hand) { Action::DrawDiscard } else { legal[0] };
    }
    if legal.contains(&Action::TakeUpcard) {
        return if rng.random_range(0..2) == 0 { Action::TakeUpcard } else { Action::PassUpcard };
    }
    let discards: Vec<Card> = legal
        .iter()
        .filter_map(|a| if let Action::Discard(c) = a { Some(*c) } else { None })
        .collect();
    if discards.is_empty() {
        return uniform;
    }
    let best =
        discards.iter().copied().min_by_key(|&c| deadwood(hand - CardSet::single(c))).unwrap();
    Action::Discard(best)
}

/// What the checks need from before an action.
#[derive(Clone, Debug)]
struct Before {
    hands: [CardSet; 2],
    scores: [u32; 2],
    hands_won: [u32; 2],
    dealer: Seat,
    hand_number: u32,
    stock: usize,
    upcard_draws: u32,
    knock_limit: u8,
}

impl Before {
    fn of(state: &State) -> Before {
        Before {
            hands: [state.hand(Seat(0)), state.hand(Seat(1))],
            scores: state.scores(),
            hands_won: state.hands_won(),
            dealer: state.dealer(),
            hand_number: state.hand_number(),
            stock: state.stock_len(),
            upcard_draws: state.upcard_draws(),
            knock_limit: state.knock_limit(),
        }
    }
}

fn card_value(card: Card) -> u32 {
    CardSet::single(card).value()
}

fn check_conservation(state: &State, full: bool) {
    let mut all = CardSet::EMPTY;
    let mut count = 0;
    for seat in [Seat(0), Seat(1)] {
        all |= state.hand(seat);
        count += state.hand(seat).len();
    }
    for pile in state.discard_pile() {
        all.insert(pile.card);
        count += 1;
    }
    assert_eq!(all.len(), count, "a card is in two places");
    assert_eq!(count + state.stock_len(), 52, "cards are not conserved");
    if full {
        let stock: CardSet = state.stock().into_iter().collect();
        assert_eq!(stock.len(), state.stock_len());
        assert_eq!(all | stock, CardSet::FULL, "cards are not conserved");
    }
    let eleven = match state.phase() {
        Phase::Discard { seat, .. } => Some(seat),
        _ => None,
    };
    for seat in [Seat(0), Seat(1)] {
        let expected = if Some(seat) == eleven { 11 } else { 10 };
        assert_eq!(state.hand(seat).len(), expected, "{seat} in {:?}", state.phase());
    }
}

/// The oklahoma limit and multiplier from the upcard (GR-14).
fn hand_terms(options: &Options, upcard: Card) -> (u8, u32) {
    let limit = if options.oklahoma {
        if upcard.rank() == Rank::Ace { 0 } else { card_value(upcard) as u8 }
    } else {
        options.knock_limit
    };
    let double =
        options.oklahoma && options.oklahoma_spades_double && upcard.suit() == Suit::Spades;
    (limit, if double { 2 } else { 1 })
}

fn check_events(
    options: &Options,
    before: &Before,
    state: &State,
    seat: Seat,
    events: &[Event],
    multiplier: &mut u32,
) {
    assert!(!events.is_empty());
    let mut ended_with_showdown = None;
    for event in events {
        match event {
            Event::HandEnded { result } => {
                assert_eq!(result.hand_number, before.hand_number);
                assert_eq!(result.dealer, before.dealer);
                match result.end {
                    HandEnd::Wall => {
                        assert!(before.stock <= 2, "wall with {} in the stock", before.stock);
                        assert_eq!(result.winner, None);
                        assert_eq!(result.points, 0);
                        assert_eq!(result.scores, before.scores);
                        ended_with_showdown = Some(false);
                    }
                    HandEnd::UpcardLimit => {
                        assert!(before.upcard_draws >= options.max_upcard_draws);
                        assert_eq!(result.winner, None);
                        assert_eq!(result.scores, before.scores);
                        ended_with_showdown = Some(false);
                    }
                    HandEnd::Showdown(sd) => {
                        ended_with_showdown = Some(true);
                        assert_eq!(sd.knocker, seat);
                        let defender = Seat(1 - seat.0);
                        assert_eq!(sd.defender, defender);
                        // The knocker's revealed hand.
                        let laid = sd.melds.cards() | sd.deadwood_cards;
                        assert!(sd.melds.cards().is_disjoint(sd.deadwood_cards));
                        for meld in sd.melds.melds() {
                            assert!(solver::is_meld(meld), "{meld}");
                        }
                        match (sd.kind, sd.discard) {
                            (GoOut::BigGin, None) => {
                                assert!(options.big_gin);
                                assert_eq!(laid, before.hands[seat.index()]);
                            }
                            (GoOut::Knock | GoOut::Gin, Some(discard)) => {
                                assert!(!laid.contains(discard));
                                assert_eq!(
                                    laid | CardSet::single(discard),
                                    before.hands[seat.index()]
                                );
                            }
                            other => panic!("bad showdown {other:?}"),
                        }
                        let k = sd.deadwood_cards.value();
                        assert_eq!(u32::from(sd.deadwood), k);
                        match sd.kind {
                            GoOut::Knock => assert!(k >= 1 && k <= u32::from(before.knock_limit)),
                            GoOut::Gin | GoOut::BigGin => assert_eq!(k, 0),
                        }
                        // The defender's revealed hand: a partition into melds, layoffs, deadwood.
                        let l = &sd.layout;
                        let dhand = before.hands[defender.index()];
                        assert_eq!(l.melds.cards() | l.layoffs | l.deadwood_cards, dhand);
                        assert_eq!(
                            l.melds.cards().len() + l.layoffs.len() + l.deadwood_cards.len(),
                            10
                        );
                        for meld in l.melds.melds() {
                            assert!(solver::is_meld(meld));
                        }
                        let d = l.deadwood_cards.value();
                        assert_eq!(u32::from(l.deadwood), d);
                        let own_only = u32::from(solver::deadwood(dhand).unwrap());
                        assert!(d <= own_only);
                        if sd.kind == GoOut::Knock {
                            for card in l.layoffs {
                                assert!(sd.melds.melds().any(|m| {
                                    let first = m.first().unwrap();
                                    card.suit() == first.suit() || card.rank() == first.rank()
                                }));
                            }
                        } else {
                            assert!(l.layoffs.is_empty());
                            assert_eq!(d, own_only);
                        }
                        // GR-12.
                        let (winner, undercut, base) = match sd.kind {
                            GoOut::Gin => (Some(seat), false, d + options.gin_bonus),
                            GoOut::BigGin => (Some(seat), false, d + options.big_gin_bonus),
                            GoOut::Knock if k < d => (Some(seat), false, d - k),
                            GoOut::Knock if d < k || options.tie_is_undercut => {
                                (Some(defender), true, k - d + options.undercut_bonus)
                            }
                            GoOut::Knock => (None, false, 0),
                        };
                        let points = base * *multiplier;
                        assert_eq!(result.winner, winner);
                        assert_eq!(result.undercut, undercut);
                        assert_eq!(result.points, points);
                        let mut scores = before.scores;
                        let mut won = before.hands_won;
                        if let Some(w) = winner {
                            scores[w.index()] += points;
                            won[w.index()] += 1;
                        }
                        assert_eq!(result.scores, scores);
                        assert_eq!(state.hands_won(), won);
                    }
                }
            }
            Event::HandDealt { hand_number, dealer, upcard, knock_limit, multiplier: m } => {
                assert_eq!(*hand_number, before.hand_number + 1);
                assert!(*hand_number <= options.max_hands, "GR-17");
                let alternated = ended_with_showdown.expect("a deal follows the end of a hand");
                let expected = if alternated { Seat(1 - before.dealer.0) } else { before.dealer };
                assert_eq!(*dealer, expected, "GR-4 / GR-10 dealer");
                assert_eq!(state.discard_pile().first().map(|p| p.card), Some(*upcard));
                assert_eq!((*knock_limit, *m), hand_terms(options, *upcard));
                *multiplier = *m;
            }
            Event::MatchOver { outcome } => {
                assert!(state.is_over());
                check_outcome(options, state, outcome);
            }
            _ => {}
        }
    }
}

fn check_outcome(options: &Options, state: &State, outcome: &Outcome) {
    let scores = state.scores();
    let reached: Vec<usize> = (0..2).filter(|&i| scores[i] >= options.target).collect();
    assert!(state.hand_number() <= options.max_hands, "GR-17");
    assert_eq!(state.outcome(), Some(outcome));
    assert!(state.legal_actions().is_empty());
    assert_eq!(state.to_act(), None);
    let reason = state.end_reason().unwrap();
    if reached.is_empty() {
        // GR-17: the last hand was played and nobody reached the target: drawn, on hand points.
        assert_eq!(state.hand_number(), options.max_hands);
        assert_eq!((outcome.totals, outcome.points, outcome.winner), (scores, scores, None));
        assert_eq!(outcome.hands_won, state.hands_won());
        assert!(outcome.standings.iter().all(|s| s.place == 1), "{outcome:?}");
        assert!(reason.starts_with("GR-17: drawn after "), "{reason}");
        return;
    }
    assert!(reason.starts_with("GR-13: "), "{reason}");
    assert_eq!(reached.len(), 1);
    let r = reached[0];
    let mut totals = scores;
    if options.box_bonus {
        for (total, won) in totals.iter_mut().zip(state.hands_won()) {
            *total += 25 * won;
        }
    }
    if options.game_bonus {
        totals[r] += 100;
    }
    if options.shutout_double && scores[1 - r] == 0 {
        totals[r] *= 2;
    }
    assert_eq!(outcome.totals, totals);
    assert_eq!(outcome.points, scores);
    let winner = match totals[0].cmp(&totals[1]) {
        std::cmp::Ordering::Greater => Some(Seat(0)),
        std::cmp::Ordering::Less => Some(Seat(1)),
        std::cmp::Ordering::Equal => None,
    };
    assert_eq!(outcome.winner, winner);
    assert_eq!(outcome.standings.len(), 2);
    assert_eq!(outcome.standings[0].place, 1);
    assert_eq!(outcome.standings[1].place, if winner.is_some() { 2 } else { 1 });
}

/// Tries an action from the whole action space that is not listed: it must be refused with a
/// message naming its rule, and leave the state unchanged. Acting out of turn is refused too.
fn probe(state: &mut State, legal: &[Action], seat: Seat, rng: &mut ChaCha8Rng) {
    let card = Card::from_index(rng.random_range(0..52)).unwrap();
    let candidates = [
        Action::TakeUpcard,
        Action::PassUpcard,
        Action::DrawStock,
        Action::DrawDiscard,
        Action::Discard(card),
        Action::Gin { discard: card },
        Action::BigGin,
        Action::Knock {
            discard: card,
            melds: solver::min_deadwood(state.hand(seat) - CardSet::single(card))
                .ok()
                .and_then(|(_, a)| a.first().copied())
                .unwrap_or_default(),
        },
    ];
    let view = (
        state.phase(),
        state.scores(),
        state.discard_pile().to_vec(),
        state.stock(),
        state.results().len(),
    );
    let hand = state.hand(seat);
    let recorded = state.actions().len();
    // Refused through `apply_into` (which `apply` is written from): the caller's list of events
    // is left as it was too.
    let kept = vec![Event::UpcardPassed { seat }];
    for action in candidates {
        if legal.contains(&action) {
            continue;
        }
        let mut events = kept.clone();
        match state.apply_into(seat, action, &mut events) {
            Ok(()) => panic!("unlisted {action:?} accepted in {:?}", state.phase()),
            Err(err) => assert!(err.to_string().starts_with(err.rule()), "{err}"),
        }
        assert_eq!(events, kept);
    }
    let other = Seat(1 - seat.0);
    let err = state.apply(other, legal[0]).unwrap_err();
    assert_eq!(err.rule(), "GR-6");
    let after = (
        state.phase(),
        state.scores(),
        state.discard_pile().to_vec(),
        state.stock(),
        state.results().len(),
    );
    assert_eq!(after, view);
    assert_eq!(state.hand(seat), hand);
    assert_eq!(state.actions().len(), recorded);
}

/// Plays a match; returns it and how often a seat took the upcard at the wall (GR-10).
fn play(options: Options, seed: u64, policy: Policy) -> (State, u32) {
    let mut wall_takes = 0;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9);
    let mut state = State::new(options, seed).unwrap();
    let mut multiplier = {
        let upcard = state.discard_pile()[0].card;
        hand_terms(&options, upcard).1
    };
    let mut steps = 0u32;
    // One observation for the match, written over every third step for either seat in turn,
    // as a server's match keeps one: it must hold just what a new one holds.
    let mut kept = state.observation(Seat(1));
    // One list of legal actions, computed from the acting seat's observation over the last.
    let mut kept_legal = Vec::new();
    while let Some(seat) = state.to_act() {
        steps += 1;
        assert!(steps < 200_000, "match does not end");
        check_conservation(&state, steps.is_multiple_of(16));
        if steps.is_multiple_of(3) {
            let observed = Seat((steps / 3 % 2) as u8);
            state.observation_into(observed, &mut kept);
            assert_eq!(kept, state.observation(observed), "{:?}", state.phase());
        }
        let legal = state.legal_actions();
        assert!(!legal.is_empty(), "stuck in {:?}", state.phase());
        assert!(legal.windows(2).all(|w| w[0] < w[1]), "not sorted: {legal:?}");
        let goes_out = |action: &Action| {
            matches!(action, Action::Knock { .. } | Action::Gin { .. } | Action::BigGin)
        };
        if steps.is_multiple_of(32) || legal.iter().any(goes_out) {
            // The observation lists the same actions from what the seat sees alone (the
            // compact Turn's contract), and the other seat's lists none.
            let observation = state.observation(seat);
            assert_eq!(observation.legal_actions, legal);
            assert_eq!(observation.compute_legal_actions(), legal, "{:?}", state.phase());
            assert!(state.observation(Seat(1 - seat.0)).compute_legal_actions().is_empty());
            // Written over a kept list (the SDK's reader): the other seat's none clears it.
            observation.compute_legal_actions_into(&mut kept_legal);
            assert_eq!(kept_legal, legal, "{:?}", state.phase());
            state.observation(Seat(1 - seat.0)).compute_legal_actions_into(&mut kept_legal);
            assert!(kept_legal.is_empty());
            observation.compute_legal_actions_into(&mut kept_legal);
            assert_eq!(kept_legal, legal);
        }
        if steps.is_multiple_of(32) {
            probe(&mut state, &legal, seat, &mut rng);
        }
        let action = choose(&state, seat, &legal, policy, &mut rng);
        if matches!(state.phase(), Phase::Wall { .. }) && action == Action::DrawDiscard {
            wall_takes += 1;
        }
        let before = Before::of(&state);
        let events = if steps.is_multiple_of(2) {
            state.apply(seat, action).unwrap_or_else(|e| panic!("{action:?}: {e}"))
        } else {
            // `apply_into` appends to what the list held.
            let mut events = vec![Event::UpcardPassed { seat: Seat(1 - seat.0) }];
            state
                .apply_into(seat, action, &mut events)
                .unwrap_or_else(|e| panic!("{action:?}: {e}"));
            assert_eq!(events[0], Event::UpcardPassed { seat: Seat(1 - seat.0) });
            events.split_off(1)
        };
        check_events(&options, &before, &state, seat, &events, &mut multiplier);
    }
    assert!(state.is_over());
    (state, wall_takes)
}

fn options_for(combination: u32, rng: &mut ChaCha8Rng) -> Options {
    let oklahoma = combination & 16 != 0;
    Options {
        first_upcard: if combination & 1 != 0 { FirstUpcard::Seed } else { FirstUpcard::Standard },
        discard_taken_upcard: combination & 2 != 0,
        big_gin: combination & 4 != 0,
        wall_knock: combination & 8 != 0,
        oklahoma,
        oklahoma_spades_double: oklahoma && rng.random_range(0..2) == 0,
        knock_limit: *[10u8, 10, 7, 3, 0].choose(rng).unwrap(),
        max_upcard_draws: *[50u32, 50, 50, 5].choose(rng).unwrap(),
        gin_bonus: *[25u32, 20, 0].choose(rng).unwrap(),
        undercut_bonus: *[25u32, 10, 0].choose(rng).unwrap(),
        big_gin_bonus: *[31u32, 50].choose(rng).unwrap(),
        tie_is_undercut: rng.random_range(0..2) == 0,
        target: *[100u32, 30, 10, 1].choose(rng).unwrap(),
        game_bonus: rng.random_range(0..2) == 0,
        box_bonus: rng.random_range(0..2) == 0,
        shutout_double: rng.random_range(0..2) == 0,
        max_hands: *[100u32, 100, 100, 3].choose(rng).unwrap(),
    }
}

fn check_replay(state: &State, json: bool) {
    let record = state.record();
    let record = if json {
        let text = serde_json::to_string(&record).unwrap();
        let back: Record = serde_json::from_str(&text).unwrap();
        assert_eq!(back, record);
        back
    } else {
        record
    };
    let replayed = record.replay().unwrap();
    assert_eq!(replayed.public_view(), state.public_view());
    for seat in [Seat(0), Seat(1)] {
        assert_eq!(replayed.hand(seat), state.hand(seat));
    }
    assert_eq!(replayed.stock(), state.stock());
    assert_eq!(replayed.actions(), state.actions());
}

/// Prints the failing match's options, seed and policy if a check panics.
struct OnPanic {
    options: Options,
    seed: u64,
    policy: Policy,
}

impl Drop for OnPanic {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!(
                "failing match: State::new({:?}, {}) played with {:?}",
                self.options, self.seed, self.policy
            );
        }
    }
}

fn run_combination(combination: u32) {
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(combination));
    let mut showdowns = 0;
    // [knock, gin, big gin, undercut, wall, upcard limit, wall take]
    let mut seen = [0u32; 7];
    // Matches drawn at the hand limit (GR-17).
    let mut drawn_at_limit = 0;
    for m in 0..MATCHES_PER_COMBINATION {
        let options = options_for(combination, &mut rng);
        let policy = Policy { noise: [0.1, 0.5, 1.0][(m % 3) as usize] };
        let seed = u64::from(combination) << 32 | m;
        let _context = OnPanic { options, seed, policy };
        let (state, wall_takes) = play(options, seed, policy);
        seen[6] += wall_takes;
        drawn_at_limit += u32::from(state.end_reason().unwrap().starts_with("GR-17"));
        for r in state.results() {
            match r.end {
                HandEnd::Showdown(sd) => {
                    showdowns += 1;
                    seen[sd.kind as usize] += 1;
                    seen[3] += u32::from(r.undercut);
                }
                HandEnd::Wall => seen[4] += 1,
                HandEnd::UpcardLimit => seen[5] += 1,
            }
        }

        check_replay(&state, m % 64 == 0);
    }
    assert!(showdowns as u64 > MATCHES_PER_COMBINATION, "only {showdowns} showdowns");
    let [knocks, gins, big_gins, undercuts, walls, upcard_limits, wall_takes] = seen;
    // Every way a hand can end happens, in every combination.
    assert!(knocks > 0 && gins > 0 && undercuts > 0 && walls > 0 && upcard_limits > 0, "{seen:?}");
    assert_eq!(big_gins > 0, combination & 4 != 0, "big gin: {seen:?}");
    assert_eq!(wall_takes > 0, combination & 8 != 0, "upcard taken at the wall: {seen:?}");
    assert!(drawn_at_limit > 0, "no match drawn at the hand limit (GR-17)");
}

macro_rules! combinations {
    ($($name:ident = $bits:expr;)*) => {
        $(
            #[test]
            fn $name() {
                run_combination($bits);
            }
        )*
    };
}

combinations! {
    random_play_standard_defaults = 0;
    random_play_first_upcard_seed = 1;
    random_play_discard_taken_upcard = 2;
    random_play_seed_discard_taken = 3;
    random_play_big_gin = 4;
    random_play_big_gin_seed = 5;
    random_play_big_gin_discard_taken = 6;
    random_play_big_gin_seed_discard_taken = 7;
    random_play_wall_knock = 8;
    random_play_wall_knock_seed = 9;
    random_play_wall_knock_discard_taken = 10;
    random_play_wall_knock_seed_discard_taken = 11;
    random_play_wall_knock_big_gin = 12;
    random_play_wall_knock_big_gin_seed = 13;
    random_play_wall_knock_big_gin_discard_taken = 14;
    random_play_wall_knock_big_gin_seed_discard_taken = 15;
    random_play_oklahoma = 16;
    random_play_oklahoma_seed = 17;
    random_play_oklahoma_discard_taken = 18;
    random_play_oklahoma_seed_discard_taken = 19;
    random_play_oklahoma_big_gin = 20;
    random_play_oklahoma_big_gin_seed = 21;
    random_play_oklahoma_big_gin_discard_taken = 22;
    random_play_oklahoma_big_gin_seed_discard_taken = 23;
    random_play_oklahoma_wall_knock = 24;
    random_play_oklahoma_wall_knock_seed = 25;
    random_play_oklahoma_wall_knock_discard_taken = 26;
    random_play_oklahoma_wall_knock_seed_discard_taken = 27;
    random_play_oklahoma_wall_knock_big_gin = 28;
    random_play_oklahoma_wall_knock_big_gin_seed = 29;
    random_play_oklahoma_wall_knock_big_gin_discard_taken = 30;
    random_play_all_play_options = 31;
}
