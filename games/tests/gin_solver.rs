//! The meld solver against the rules file's worked hands and against a brute-force reference
//! (every subset of disjoint melds, every order of layoffs) on random hands.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;

use cardroom_games::Card;
use cardroom_games::gin::CardSet;
use cardroom_games::gin::solver::{self, Arrangement, Layout};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn set(text: &str) -> CardSet {
    text.parse().unwrap()
}

fn melds(texts: &[&str]) -> Arrangement {
    let sets: Vec<CardSet> = texts.iter().map(|t| set(t)).collect();
    Arrangement::new(&sets).unwrap()
}

// ---------------------------------------------------------------------------------------------
// The brute-force reference: no bit tricks, no pruning, no atoms.

/// Every meld of the pack: each 3- and 4-card set, each run of 3 to 13 cards.
fn all_melds() -> &'static [CardSet] {
    static MELDS: std::sync::OnceLock<Vec<CardSet>> = std::sync::OnceLock::new();
    MELDS.get_or_init(make_all_melds)
}

fn make_all_melds() -> Vec<CardSet> {
    let pack: Vec<Card> = Card::pack().collect();
    let mut out = Vec::new();
    for a in 0..52 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                let three: CardSet = [pack[a], pack[b], pack[c]].into_iter().collect();
                if is_set_brute(three) {
                    out.push(three);
                }
            }
        }
    }
    for rank in cardroom_games::Rank::ALL {
        out.push(cardroom_games::Suit::ALL.iter().map(|&s| Card::new(rank, s)).collect());
    }
    for suit in cardroom_games::Suit::ALL {
        let by_rank: Vec<Card> = (0..13).map(|i| card_of(suit, i)).collect();
        for start in 0..13 {
            for end in start + 3..=13 {
                out.push(by_rank[start..end].iter().copied().collect());
            }
        }
    }
    out
}

/// The card of a suit at an ace-low rank index (0 = ace, 12 = king).
fn card_of(suit: cardroom_games::Suit, low: usize) -> Card {
    let rank = if low == 0 {
        cardroom_games::Rank::Ace
    } else {
        cardroom_games::Rank::from_index(low as u8 - 1).unwrap()
    };
    Card::new(rank, suit)
}

fn is_set_brute(cards: CardSet) -> bool {
    let v = cards.to_vec();
    (v.len() == 3 || v.len() == 4) && v.iter().all(|c| c.rank() == v[0].rank())
}

fn value_brute(cards: CardSet) -> u32 {
    cards
        .iter()
        .map(|c| match c.rank() {
            cardroom_games::Rank::Ace => 1,
            r if r.index() >= 8 => 10,
            r => u32::from(r.index()) + 2,
        })
        .sum()
}

struct Brute {
    melds: Vec<CardSet>,
}

impl Brute {
    fn new() -> Brute {
        let melds = all_melds().to_vec();
        assert_eq!(melds.len(), 13 * 5 + 4 * 66);
        Brute { melds }
    }

    /// Every subset of disjoint melds of `hand`, as lists of melds.
    fn meld_subsets(&self, hand: CardSet) -> Vec<Vec<CardSet>> {
        let inside: Vec<CardSet> =
            self.melds.iter().copied().filter(|m| m.is_subset(hand)).collect();
        let mut out = Vec::new();
        let mut chosen = Vec::new();
        fn go(
            inside: &[CardSet],
            from: usize,
            used: CardSet,
            chosen: &mut Vec<CardSet>,
            out: &mut Vec<Vec<CardSet>>,
        ) {
            out.push(chosen.clone());
            for i in from..inside.len() {
                if inside[i].is_disjoint(used) {
                    chosen.push(inside[i]);
                    go(inside, i + 1, used | inside[i], chosen, out);
                    chosen.pop();
                }
            }
        }
        go(&inside, 0, CardSet::EMPTY, &mut chosen, &mut out);
        out
    }

    /// (deadwood, arrangement) for every subset.
    fn arrangements(&self, hand: CardSet) -> Vec<(u32, Arrangement)> {
        self.meld_subsets(hand)
            .into_iter()
            .map(|ms| {
                let used = ms.iter().fold(CardSet::EMPTY, |a, &m| a | m);
                (value_brute(hand - used), Arrangement::new(&ms).unwrap())
            })
            .collect()
    }

    fn min_deadwood(&self, hand: CardSet) -> (u32, BTreeSet<Arrangement>) {
        let all = self.arrangements(hand);
        let best = all.iter().map(|&(d, _)| d).min().unwrap();
        (best, all.into_iter().filter(|&(d, _)| d == best).map(|(_, a)| a).collect())
    }

    /// For an 11-card hand, the least deadwood after each discard: every subset of disjoint
    /// melds not holding the discard.
    fn per_discard(&self, hand: CardSet) -> Vec<(Card, u32)> {
        let subsets = self.meld_subsets(hand);
        hand.iter()
            .map(|d| {
                let best = subsets
                    .iter()
                    .map(|ms| ms.iter().fold(CardSet::EMPTY, |a, &m| a | m))
                    .filter(|used| !used.contains(d))
                    .map(|used| value_brute(hand - used - CardSet::single(d)))
                    .min()
                    .unwrap();
                (d, best)
            })
            .collect()
    }

    fn within(&self, hand: CardSet, limit: u32) -> BTreeSet<Arrangement> {
        self.arrangements(hand).into_iter().filter(|&(d, _)| d <= limit).map(|(_, a)| a).collect()
    }

    /// The defender's least deadwood: every own-meld subset, then every subset of the rest as
    /// layoffs, each checked by trying every placement and laying cards while any fits.
    fn defender(&self, knocker: &Arrangement, hand: CardSet) -> u32 {
        let mut best = u32::MAX;
        for own in self.meld_subsets(hand) {
            let used = own.iter().fold(CardSet::EMPTY, |a, &m| a | m);
            let rest = hand - used;
            // Only cards of a knocker run's suit or a knocker set's rank can ever be laid off.
            let candidates: Vec<Card> = rest
                .iter()
                .filter(|c| {
                    knocker.melds().any(|m| {
                        let first = m.first().unwrap();
                        if is_set_brute(m) {
                            c.rank() == first.rank()
                        } else {
                            c.suit() == first.suit()
                        }
                    })
                })
                .collect();
            for mask in 0u32..(1 << candidates.len()) {
                let chosen: Vec<Card> = (0..candidates.len())
                    .filter(|&i| mask & (1 << i) != 0)
                    .map(|i| candidates[i])
                    .collect();
                let laid: CardSet = chosen.iter().copied().collect();
                let deadwood = value_brute(rest - laid);
                if deadwood < best && can_lay_all(knocker, &chosen) {
                    best = deadwood;
                }
            }
        }
        best
    }
}

/// Whether all of `cards` can be laid off on the knocker's melds: tries every assignment of
/// each card to a meld of its rank (a set) or suit (a run), laying cards one at a time while one
/// fits its meld's current ends.
fn can_lay_all(knocker: &Arrangement, cards: &[Card]) -> bool {
    let targets: Vec<CardSet> = knocker.melds().collect();
    let options: Vec<Vec<usize>> = cards
        .iter()
        .map(|c| {
            (0..targets.len())
                .filter(|&i| {
                    let m = targets[i];
                    let first = m.first().unwrap();
                    if is_set_brute(m) {
                        c.rank() == first.rank()
                    } else {
                        c.suit() == first.suit()
                    }
                })
                .collect()
        })
        .collect();
    if options.iter().any(Vec::is_empty) {
        return false;
    }
    let mut choice = vec![0usize; cards.len()];
    loop {
        let mut grown = targets.clone();
        let mut left: Vec<usize> = (0..cards.len()).collect();
        loop {
            let before = left.len();
            left.retain(|&i| {
                let t = options[i][choice[i]];
                let mut with = grown[t];
                with.insert(cards[i]);
                let fits =
                    if is_set_brute(targets[t]) { is_set_brute(with) } else { is_run_brute(with) };
                if fits {
                    grown[t] = with;
                }
                !fits
            });
            if left.is_empty() {
                return true;
            }
            if left.len() == before {
                break;
            }
        }
        // Next assignment.
        let mut i = 0;
        loop {
            if i == cards.len() {
                return false;
            }
            choice[i] += 1;
            if choice[i] < options[i].len() {
                break;
            }
            choice[i] = 0;
            i += 1;
        }
    }
}

fn is_run_brute(cards: CardSet) -> bool {
    let v = cards.to_vec();
    if v.len() < 3 || v.iter().any(|c| c.suit() != v[0].suit()) {
        return false;
    }
    let mut lows: Vec<u8> = v.iter().map(|c| c.rank().ace_low_index()).collect();
    lows.sort_unstable();
    lows.windows(2).all(|w| w[1] == w[0] + 1)
}

// ---------------------------------------------------------------------------------------------
// Random hands that are rich in melds.

fn random_hand(rng: &mut ChaCha8Rng, size: usize) -> CardSet {
    let mut pack: Vec<Card> = Card::pack().collect();
    match rng.random_range(0..3) {
        // Uniform.
        0 => {}
        // From a small corner of the pack: few suits and ranks, so melds overlap.
        1 => {
            let suits = rng.random_range(2..=4);
            let low = rng.random_range(0..6);
            let high = (low + rng.random_range(5..8)).min(13);
            pack.retain(|c| {
                (c.suit() as usize) < suits
                    && (low..high).contains(&(c.rank().ace_low_index() as usize))
            });
        }
        // Built from random melds, then filled.
        _ => {
            let brute_melds = all_melds();
            let mut hand = CardSet::EMPTY;
            for _ in 0..rng.random_range(1..=3) {
                let m = brute_melds[rng.random_range(0..brute_melds.len())];
                if m.len() <= 5 && (hand | m).len() <= size {
                    hand |= m;
                }
            }
            pack.shuffle(rng);
            for c in pack {
                if hand.len() == size {
                    break;
                }
                hand.insert(c);
            }
            return hand;
        }
    }
    if pack.len() < size {
        pack = Card::pack().collect();
    }
    pack.shuffle(rng);
    pack[..size].iter().copied().collect()
}

// ---------------------------------------------------------------------------------------------
// The rules file's worked hands.

#[test]
fn gr_02_worked_hand_sets_or_runs_deadwood_1_two_ways() {
    let hand = set("AS 5S 6S 7S 5C 6C 7C 5D 6D 7D");
    let (deadwood, arrangements) = solver::min_deadwood(hand).unwrap();
    assert_eq!(deadwood, 1);
    assert_eq!(arrangements, {
        let mut v = vec![
            melds(&["5S 5C 5D", "6S 6C 6D", "7S 7C 7D"]),
            melds(&["5S 6S 7S", "5C 6C 7C", "5D 6D 7D"]),
        ];
        v.sort();
        v
    });
    // Which one the knocker lays matters (GR-7, GR-9): 4S or 8S go on runs, 5H 6H 7H on sets.
    let on_runs = melds(&["5S 6S 7S", "5C 6C 7C", "5D 6D 7D"]);
    let on_sets = melds(&["5S 5C 5D", "6S 6C 6D", "7S 7C 7D"]);
    let defender = set("4S 8S 5H 6H 7H KC KD QH JH 9H");
    let runs_layout = solver::defender_layout(&on_runs, defender).unwrap();
    let sets_layout = solver::defender_layout(&on_sets, defender).unwrap();
    assert_eq!(runs_layout.layoffs, set("4S 8S"));
    // 5H 6H 7H are a run of the defender's own either way; on sets they could also be laid off.
    assert_eq!(runs_layout.melds, melds(&["5H 6H 7H"]));
    assert_eq!(sets_layout.layoffs.len() + sets_layout.melds.cards().len(), 3);
}

#[test]
fn gr_02_worked_hand_two_sets_deadwood_17() {
    let hand = set("2S 8S 9S AC 2C 7C 8C 2D 8D 2H");
    let (deadwood, arrangements) = solver::min_deadwood(hand).unwrap();
    assert_eq!(deadwood, 17);
    assert_eq!(arrangements, vec![melds(&["2S 2C 2D 2H", "8S 8C 8D"])]);
}

#[test]
fn gr_02_worked_hand_three_melds_deadwood_2() {
    let hand = set("AS JS QS KS AC TC AD TD 2H TH");
    let (deadwood, arrangements) = solver::min_deadwood(hand).unwrap();
    assert_eq!(deadwood, 2);
    assert_eq!(arrangements, vec![melds(&["AS AC AD", "TC TD TH", "JS QS KS"])]);
}

#[test]
fn gr_02_ace_is_low_and_does_not_turn_the_corner() {
    assert!(solver::is_meld(set("AS 2S 3S")));
    assert!(!solver::is_meld(set("QS KS AS")));
    assert!(!solver::is_meld(set("KS AS 2S")));
    assert!(!solver::is_meld(set("AS 2S 3H")));
    assert!(solver::is_meld(set("7S 7H 7D 7C")));
    assert!(!solver::is_meld(set("7S 7H")));
    assert_eq!(solver::deadwood(set("QS KS AS")).unwrap(), 21);
}

#[test]
fn gr_01_card_values() {
    assert_eq!(set("AS").value(), 1);
    assert_eq!(set("9D").value(), 9);
    assert_eq!(set("TD JC QH KS").value(), 40);
}

#[test]
fn gr_03_knock_check_is_the_minimum_over_every_discard() {
    // The rules file's example, where OpenSpiel's shortcut gets it wrong.
    let hand = set("3C AH 3S 6D 6H 5H 4C 4D 6C 5C 5D");
    assert_eq!(solver::knock_deadwood(hand).unwrap(), 9);
    let discards = solver::best_discards(hand).unwrap();
    assert_eq!(discards.deadwood, 9);
    assert_eq!(discards.best, vec!["6H".parse::<Card>().unwrap()]);
    let (dw, arr) = solver::min_deadwood(hand - set("6H")).unwrap();
    assert_eq!(dw, 9);
    assert!(arr.contains(&melds(&["3C 4C 5C 6C", "4D 5D 6D"])));
    assert_eq!(discards.all.len(), 11);
    assert!(solver::knock_deadwood(set("AS")).is_err());
}

#[test]
fn gr_07_knock_arrangements_include_every_arrangement_within_the_limit() {
    // A 4-card run can lay 4 cards, or 3 with the ace (deadwood 1 more) as deadwood.
    let hand = set("AS 2S 3S 4S 9C 9D 9H 2D 3H 4C");
    let within = solver::knock_arrangements(hand, 10).unwrap();
    let mut expected = vec![melds(&["AS 2S 3S 4S", "9C 9D 9H"]), melds(&["2S 3S 4S", "9C 9D 9H"])];
    expected.sort();
    assert_eq!(within, expected);
    assert_eq!(solver::knock_arrangements(hand, 9).unwrap().len(), 1);
    let none = solver::knock_arrangements(hand, 0).unwrap();
    assert!(none.is_empty());
}

#[test]
fn gr_09_layoffs_chain_along_runs_and_fill_sets() {
    let knocker = melds(&["4S 5S 6S", "9C 9D 9H"]);
    // 3S, 2S chain below; 7S above; 9S is the set's fourth; the rest is deadwood.
    let layout = solver::defender_layout(&knocker, set("2S 3S 7S 9S KC KD QH JD 8C 2H")).unwrap();
    assert_eq!(layout.layoffs, set("2S 3S 7S 9S"));
    assert_eq!(layout.deadwood, 10 + 10 + 10 + 10 + 8 + 2);
    // Canonical order: the nines (9♣ first) before the spades run.
    assert_eq!(layout.onto, [set("9S"), set("2S 3S 7S"), CardSet::EMPTY]);
    // A gap stops the chain.
    let gap = solver::defender_layout(&knocker, set("2S 8S KC KD QH JD 8C 2H 3H 4H")).unwrap();
    assert!(gap.layoffs.is_empty());
    assert_eq!(gap.melds, melds(&["2H 3H 4H"]));
    // Cards between two runs of one suit go on either.
    let two = melds(&["2H 3H 4H", "8H 9H TH"]);
    let between = solver::defender_layout(&two, set("5H 7H KC KD KS QC QD QS 2C 3D")).unwrap();
    assert_eq!(between.deadwood, 5);
    assert_eq!(between.onto, [set("5H"), set("7H"), CardSet::EMPTY]);
    assert!(solver::defender_layout(&two, set("2H")).is_err());
}

#[test]
fn gr_09_a_card_that_fits_a_set_and_a_run_goes_where_it_helps_most() {
    // 5H is the fourth 5 and extends the hearts run; only on the run can 6H follow.
    let knocker = melds(&["5S 5C 5D", "2H 3H 4H"]);
    let layout = solver::defender_layout(&knocker, set("5H 6H KC KD KS QC QD QS JC JD")).unwrap();
    assert_eq!(layout.layoffs, set("5H 6H"));
    // The set 5♣ 5♦ 5♠ comes first in canonical order, the run second.
    assert_eq!(layout.onto, [CardSet::EMPTY, set("5H 6H"), CardSet::EMPTY]);
}

#[test]
fn solver_refuses_hands_that_are_too_big() {
    let hand: CardSet = Card::pack().take(12).collect();
    assert!(solver::min_deadwood(hand).is_err());
    assert!(solver::deadwood(hand).is_err());
    assert!(solver::knock_arrangements(hand, 10).is_err());
    assert!(solver::defender_layout(&Arrangement::EMPTY, hand).is_err());
    assert!(solver::best_discards(hand).is_err());
}

// ---------------------------------------------------------------------------------------------
// Fast against brute force.

#[test]
fn gr_02_min_deadwood_matches_brute_force_on_20000_ten_card_hands() {
    let brute = Brute::new();
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    for i in 0..20_000 {
        let hand = random_hand(&mut rng, 10);
        let (expected, expected_arrangements) = brute.min_deadwood(hand);
        let (deadwood, arrangements) = solver::min_deadwood(hand).unwrap();
        assert_eq!(u32::from(deadwood), expected, "hand {i}: {hand}");
        assert_eq!(u32::from(solver::deadwood(hand).unwrap()), expected, "hand {i}: {hand}");
        let got: BTreeSet<Arrangement> = arrangements.into_iter().collect();
        assert_eq!(got, expected_arrangements, "hand {i}: {hand}");
        if i % 8 == 0 {
            let limit = rng.random_range(0..=10u8);
            let within: BTreeSet<Arrangement> =
                solver::knock_arrangements(hand, limit).unwrap().into_iter().collect();
            assert_eq!(
                within,
                brute.within(hand, u32::from(limit)),
                "hand {i}: {hand} limit {limit}"
            );
        }
    }
}

#[test]
fn gr_03_knock_check_matches_brute_force_on_20000_eleven_card_hands() {
    let brute = Brute::new();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for i in 0..20_000 {
        let hand = random_hand(&mut rng, 11);
        let per_discard = brute.per_discard(hand);
        let expected = per_discard.iter().map(|&(_, d)| d).min().unwrap();
        assert_eq!(u32::from(solver::knock_deadwood(hand).unwrap()), expected, "hand {i}: {hand}");
        let discards = solver::best_discards(hand).unwrap();
        assert_eq!(u32::from(discards.deadwood), expected);
        for (card, d) in discards.all {
            assert!(per_discard.contains(&(card, u32::from(d))), "hand {i}: {hand} {card}");
        }
        let best: Vec<Card> =
            per_discard.iter().filter(|&&(_, d)| d == expected).map(|&(c, _)| c).collect();
        assert_eq!(discards.best, best, "hand {i}: {hand}");
    }
}

#[test]
fn gr_09_defender_layout_matches_brute_force_on_2000_knocks() {
    let brute = Brute::new();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut done = 0;
    let mut laid_off_some = 0;
    while done < 2_000 {
        let hand = random_hand(&mut rng, 10);
        let choices = solver::knock_arrangements(hand, 10).unwrap();
        let Some(&knocker) = choices.get(rng.random_range(0..choices.len().max(1))) else {
            continue;
        };
        if knocker.is_empty() {
            continue;
        }
        // The defender: cards near the knocker's melds, then anything.
        let mut near: Vec<Card> = Card::pack()
            .filter(|c| !hand.contains(*c))
            .filter(|c| {
                knocker
                    .melds()
                    .any(|m| m.iter().any(|k| k.suit() == c.suit() || k.rank() == c.rank()))
            })
            .collect();
        near.shuffle(&mut rng);
        let mut defender: CardSet = near.into_iter().take(rng.random_range(3..=8)).collect();
        let mut rest: Vec<Card> =
            Card::pack().filter(|c| !hand.contains(*c) && !defender.contains(*c)).collect();
        rest.shuffle(&mut rng);
        for c in rest {
            if defender.len() == 10 {
                break;
            }
            defender.insert(c);
        }
        let layout: Layout = solver::defender_layout(&knocker, defender).unwrap();
        let expected = brute.defender(&knocker, defender);
        assert_eq!(u32::from(layout.deadwood), expected, "knocker {knocker} defender {defender}");
        // The layout is consistent: a partition of the hand, valid melds, layoffs spread onto
        // the knocker's melds that they fit.
        assert_eq!(layout.melds.cards() | layout.layoffs | layout.deadwood_cards, defender);
        assert_eq!(
            layout.melds.cards().len() + layout.layoffs.len() + layout.deadwood_cards.len(),
            10
        );
        assert_eq!(value_brute(layout.deadwood_cards), expected);
        let onto = layout.onto.iter().fold(CardSet::EMPTY, |a, &b| a | b);
        assert_eq!(onto, layout.layoffs);
        assert!(can_lay_all(&knocker, &layout.layoffs.to_vec()));
        // Gin: nothing laid off, own melds only.
        let gin = solver::defender_layout(&Arrangement::EMPTY, defender).unwrap();
        assert_eq!(u32::from(gin.deadwood), brute.min_deadwood(defender).0);
        assert!(gin.layoffs.is_empty());
        if !layout.layoffs.is_empty() {
            laid_off_some += 1;
        }
        done += 1;
    }
    assert!(laid_off_some > 500, "only {laid_off_some} situations had layoffs");
}
