//! The hand evaluator (HE-2, HE-3): the best five-card poker hand among up to seven cards, as
//! one integer that orders hands as the rules do.
//!
//! Cards go into a [`Hand`], 13 rank bits for each suit in one `u64`. [`Hand::rank`] then works
//! on the four suits' bit masks alone, with no table and no branch per card: a flush is a suit
//! with five bits, a straight five bits in a row (the ace also below the two), and pairs, trips
//! and quads come from the masks' pairwise intersections. A seven-card hand takes a few
//! nanoseconds (BENCHMARKS.md), and `tests/holdem_eval.rs` checks the counts of every category
//! over all 133,784,560 seven-card hands against the published ones.
//!
//! ```
//! use cardroom_games::holdem::{Category, Hand};
//! let hand: Hand = "AS KS QS JS TS 2C 2D".parse().unwrap();
//! assert_eq!(hand.rank().category(), Category::StraightFlush);
//! let wheel: Hand = "AH 2C 3D 4S 5H KD KC".parse().unwrap();
//! let pair: Hand = "AH AC 3D 4S 9H KD QC".parse().unwrap();
//! assert_eq!(wheel.rank().category(), Category::Straight);
//! assert!(wheel.rank() > pair.rank());
//! assert_eq!(wheel.rank().to_string(), "a straight, five high");
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::card::{Card, ParseCardError, Rank, parse_cards};

/// The nine categories of poker hands, weakest first (HE-2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Five unmatched cards.
    HighCard,
    /// Two cards of one rank.
    OnePair,
    /// Two pairs.
    TwoPair,
    /// Three cards of one rank.
    ThreeOfAKind,
    /// Five ranks in sequence, the ace high or low.
    Straight,
    /// Five cards of one suit.
    Flush,
    /// Three of one rank and two of another.
    FullHouse,
    /// Four cards of one rank.
    FourOfAKind,
    /// A straight in one suit; the ace-high one is a royal flush.
    StraightFlush,
}

impl Category {
    /// Every category, weakest first.
    pub const ALL: [Category; 9] = [
        Category::HighCard,
        Category::OnePair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
    ];

    /// The category's name for people: `two pair`, `a flush`.
    pub const fn name(self) -> &'static str {
        match self {
            Category::HighCard => "high card",
            Category::OnePair => "a pair",
            Category::TwoPair => "two pair",
            Category::ThreeOfAKind => "three of a kind",
            Category::Straight => "a straight",
            Category::Flush => "a flush",
            Category::FullHouse => "a full house",
            Category::FourOfAKind => "four of a kind",
            Category::StraightFlush => "a straight flush",
        }
    }
}

/// How good a hand is: a larger `HandRank` beats a smaller one, and equal ranks split the pot
/// (HE-2). It is the category, then up to five ranks that break ties within it, most important
/// first, four bits each.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct HandRank(u32);

/// Bits of one rank in a [`HandRank`]'s tie-breaks.
const NIBBLE: u32 = 4;
/// Where the category starts in a [`HandRank`].
const CATEGORY_SHIFT: u32 = 5 * NIBBLE;

impl HandRank {
    /// The hand's category.
    pub fn category(self) -> Category {
        Category::ALL[(self.0 >> CATEGORY_SHIFT) as usize]
    }

    /// The ranks that break ties within the category, most important first: a full house's
    /// trips then its pair, a two pair's pairs then its kicker, a straight's top card.
    pub fn ranks(self) -> Vec<Rank> {
        let count = match self.category() {
            Category::Straight | Category::StraightFlush => 1,
            Category::FullHouse | Category::FourOfAKind => 2,
            Category::TwoPair | Category::ThreeOfAKind => 3,
            Category::OnePair => 4,
            Category::HighCard | Category::Flush => 5,
        };
        (0..count)
            .filter_map(|i| {
                let nibble = (self.0 >> (CATEGORY_SHIFT - NIBBLE * (i + 1))) & 0xf;
                Rank::from_index(nibble as u8)
            })
            .collect()
    }

    /// The number that orders hands: what [`HandRank`]'s `Ord` compares.
    pub fn value(self) -> u32 {
        self.0
    }

    /// The rank with this [`HandRank::value`], `None` for a number no hand has (a category
    /// past the straight flush, a tie-break rank past the ace).
    pub fn from_value(value: u32) -> Option<HandRank> {
        let category = value >> CATEGORY_SHIFT;
        let ranks_ok = (0..5).all(|i| (value >> (NIBBLE * i)) & 0xf < 13);
        (category < Category::ALL.len() as u32 && ranks_ok).then_some(HandRank(value))
    }

    /// A rank of `category` with these tie-breaking rank indexes (0 = two … 12 = ace), most
    /// important first.
    fn new(category: Category, ranks: impl IntoIterator<Item = u32>) -> HandRank {
        let mut value = (category as u32) << CATEGORY_SHIFT;
        for (i, rank) in ranks.into_iter().take(5).enumerate() {
            value |= rank << (CATEGORY_SHIFT - NIBBLE * (i as u32 + 1));
        }
        HandRank(value)
    }
}

impl fmt::Display for HandRank {
    /// `two pair, kings and sevens`, `a flush, ace high`, `a straight, five high`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ranks = self.ranks();
        let name = |i: usize| ranks.get(i).map_or("", |rank| rank_name(*rank));
        let plural = |i: usize| ranks.get(i).map_or("", |rank| rank_plural(*rank));
        let category = self.category();
        match category {
            Category::HighCard => write!(f, "{} high", name(0)),
            Category::OnePair => write!(f, "a pair of {}", plural(0)),
            Category::TwoPair => write!(f, "two pair, {} and {}", plural(0), plural(1)),
            Category::ThreeOfAKind => write!(f, "three {}", plural(0)),
            Category::FullHouse => write!(f, "a full house, {} over {}", plural(0), plural(1)),
            Category::FourOfAKind => write!(f, "four {}", plural(0)),
            Category::StraightFlush if ranks.first() == Some(&Rank::Ace) => {
                f.write_str("a royal flush")
            }
            Category::Straight | Category::Flush | Category::StraightFlush => {
                write!(f, "{}, {} high", category.name(), name(0))
            }
        }
    }
}

fn rank_name(rank: Rank) -> &'static str {
    match rank {
        Rank::Two => "two",
        Rank::Three => "three",
        Rank::Four => "four",
        Rank::Five => "five",
        Rank::Six => "six",
        Rank::Seven => "seven",
        Rank::Eight => "eight",
        Rank::Nine => "nine",
        Rank::Ten => "ten",
        Rank::Jack => "jack",
        Rank::Queen => "queen",
        Rank::King => "king",
        Rank::Ace => "ace",
    }
}

fn rank_plural(rank: Rank) -> &'static str {
    const PLURALS: [&str; 13] = [
        "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks",
        "queens", "kings", "aces",
    ];
    PLURALS[rank.index() as usize]
}

/// Up to seven cards as four suits of 13 rank bits, 16 bits a suit: the evaluator's input.
/// Adding a card is one `or`, so a search adds the board once and each hand's two cards.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand(u64);

impl Hand {
    /// No card.
    pub const EMPTY: Hand = Hand(0);

    /// The hand of these cards.
    pub fn of(cards: &[Card]) -> Hand {
        cards.iter().fold(Hand::EMPTY, |hand, &card| hand.with(card))
    }

    /// This hand and `card`.
    #[must_use]
    pub const fn with(self, card: Card) -> Hand {
        let suit = (card.index() % 4) as u64;
        let rank = (card.index() / 4) as u64;
        Hand(self.0 | 1 << (suit * 16 + rank))
    }

    /// Both hands' cards.
    #[must_use]
    pub const fn union(self, other: Hand) -> Hand {
        Hand(self.0 | other.0)
    }

    /// How many cards it holds.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether it holds no card.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The best five-card hand among these cards (HE-3); with fewer than five, the best of
    /// what there is (a pair among two hole cards, say).
    pub fn rank(self) -> HandRank {
        let suits = [
            (self.0 & 0x1fff) as u32,
            (self.0 >> 16 & 0x1fff) as u32,
            (self.0 >> 32 & 0x1fff) as u32,
            (self.0 >> 48 & 0x1fff) as u32,
        ];
        for suit in suits {
            if suit.count_ones() >= 5 {
                return match straight_top(suit) {
                    Some(top) => HandRank::new(Category::StraightFlush, [top]),
                    None => HandRank::new(Category::Flush, top_ranks(suit, 5)),
                };
            }
        }
        let [a, b, c, d] = suits;
        let any = a | b | c | d;
        let two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d);
        let three = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d);
        let four = a & b & c & d;
        if four != 0 {
            let quads = top_rank(four);
            return HandRank::new(Category::FourOfAKind, [quads, top_rank(any & !(1 << quads))]);
        }
        let trips = three & !four;
        let pairs = two & !three;
        if trips != 0 {
            let top = top_rank(trips);
            // A second set of trips fills the house as well as a pair does.
            let rest = (trips & !(1 << top)) | pairs;
            if rest != 0 {
                return HandRank::new(Category::FullHouse, [top, top_rank(rest)]);
            }
        }
        if let Some(top) = straight_top(any) {
            return HandRank::new(Category::Straight, [top]);
        }
        if trips != 0 {
            let top = top_rank(trips);
            let kickers = top_ranks(any & !(1 << top), 2);
            return HandRank::new(Category::ThreeOfAKind, std::iter::once(top).chain(kickers));
        }
        match pairs.count_ones() {
            0 => HandRank::new(Category::HighCard, top_ranks(any, 5)),
            1 => {
                let pair = top_rank(pairs);
                let kickers = top_ranks(any & !pairs, 3);
                HandRank::new(Category::OnePair, std::iter::once(pair).chain(kickers))
            }
            _ => {
                let high = top_rank(pairs);
                let low = top_rank(pairs & !(1 << high));
                let kicker = top_ranks(any & !(1 << high) & !(1 << low), 1);
                HandRank::new(Category::TwoPair, [high, low].into_iter().chain(kicker))
            }
        }
    }
}

/// The highest rank index set in a non-empty mask.
fn top_rank(mask: u32) -> u32 {
    31 - mask.leading_zeros()
}

/// The `count` highest rank indexes of `mask`, highest first.
fn top_ranks(mut mask: u32, count: usize) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let top = top_rank(mask);
            mask &= !(1 << top);
            top
        })
    })
    .take(count)
}

/// The top card's rank index of the highest straight in `ranks`, the ace also counting below
/// the two (a five-high straight's top is the five, index 3).
fn straight_top(ranks: u32) -> Option<u32> {
    // Shift up one, with the ace copied to bit 0: bit i + 1 is rank i, bit 0 the low ace.
    let bits = (ranks << 1) | (ranks >> 12 & 1);
    let runs = bits & bits << 1 & bits << 2 & bits << 3 & bits << 4;
    // A run of five ending at bit k (its top) has its top rank at index k - 1.
    (runs != 0).then(|| top_rank(runs) - 1)
}

impl FromStr for Hand {
    type Err = ParseCardError;

    /// Cards separated by spaces or commas: `AS KS 7D`.
    fn from_str(text: &str) -> Result<Hand, ParseCardError> {
        Ok(Hand::of(&parse_cards(text)?))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn rank(text: &str) -> HandRank {
        text.parse::<Hand>().unwrap().rank()
    }

    #[test]
    fn he_2_categories_and_their_order() {
        let hands = [
            ("AS KD 9C 7H 4S 3D 2C", Category::HighCard),
            ("AS AD 9C 7H 4S 3D 2C", Category::OnePair),
            ("AS AD 9C 9H 4S 3D 2C", Category::TwoPair),
            ("AS AD AC 9H 4S 3D 2C", Category::ThreeOfAKind),
            ("AS 2D 3C 4H 5S KD KC", Category::Straight),
            ("AS 9S 7S 4S 2S KD KC", Category::Flush),
            ("AS AD AC 9H 9S 3D 2C", Category::FullHouse),
            ("AS AD AC AH 9S 3D 2C", Category::FourOfAKind),
            ("5S 2S 3S 4S AS KD KC", Category::StraightFlush),
        ];
        let ranks: Vec<HandRank> = hands.iter().map(|(text, _)| rank(text)).collect();
        for ((text, category), rank) in hands.iter().zip(&ranks) {
            assert_eq!(rank.category(), *category, "{text}");
        }
        assert!(ranks.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn he_2_ties_are_broken_by_the_ranks_that_count_and_nothing_else() {
        // Kickers: the fifth card decides, the sixth and seventh never do.
        assert!(rank("AS AD KC QH 9S 3D 2C") > rank("AS AD KC QH 8S 7D 6C"));
        assert_eq!(rank("AS AD KC QH JS 3D 2C"), rank("AH AC KD QS JD 4H 2S"));
        // Two pair: the top pair, then the second, then one kicker; a third pair is a kicker.
        assert!(rank("KS KD 7C 7H 2S 2D AC") > rank("KS KD 7C 7H QS JD 9C"));
        assert_eq!(rank("KS KD 7C 7H 2S 2D 3C").ranks(), [Rank::King, Rank::Seven, Rank::Three]);
        // Two sets of trips make a full house of the higher over the lower.
        assert_eq!(rank("9S 9D 9C 4H 4S 4D AC").ranks(), [Rank::Nine, Rank::Four]);
        // Suits never rank: the same ranks in other suits tie.
        assert_eq!(rank("AS KS QS JS 9S"), rank("AH KH QH JH 9H"));
        // The wheel is the lowest straight; six-high beats it; the ace never wraps around.
        assert!(rank("6C 5D 4H 3S 2C") > rank("5C 4D 3H 2S AC"));
        assert_eq!(rank("QC KD AH 2S 3C").category(), Category::HighCard);
        // A flush's five highest of its suit, not the hand's.
        assert_eq!(rank("AS 9S 7S 4S 2S 3S KD").ranks()[4], Rank::Three);
        // A straight flush beats a higher plain straight in the same seven cards.
        assert_eq!(rank("9H 8H 7H 6H 5H TC JD").category(), Category::StraightFlush);
    }

    #[test]
    fn hands_are_said_in_words() {
        assert_eq!(rank("KS KD 7C 7H 2S").to_string(), "two pair, kings and sevens");
        assert_eq!(rank("6S 6D 6C 7H 7S").to_string(), "a full house, sixes over sevens");
        assert_eq!(rank("AS KS QS JS TS").to_string(), "a royal flush");
        assert_eq!(rank("AS 2C").to_string(), "ace high");
        assert_eq!(rank("QD QC").to_string(), "a pair of queens");
    }
}
