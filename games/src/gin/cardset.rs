//! [`CardSet`]: a set of cards as 52 bits of a `u64`, laid out for Gin Rummy's runs.

use std::fmt;
use std::ops::{BitAnd, BitOr, BitOrAssign, Not, Sub};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, Rank, Suit};

/// The 52 bits that hold cards.
pub(crate) const FULL: u64 = (1 << 52) - 1;
/// Bits of the 13 ranks of one suit.
pub(crate) const SUIT_BITS: u64 = 0x1FFF;
/// The four aces (rank index 0 of each suit).
pub(crate) const ACES: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;
/// The four kings (rank index 12 of each suit).
pub(crate) const KINGS: u64 = ACES << 12;

/// The deadwood value (GR-1) of a card by its ace-low rank index: A 1, 2–10 face value, J/Q/K 10.
pub(crate) const fn rank_value(rank_index: u32) -> u32 {
    if rank_index >= 9 { 10 } else { rank_index + 1 }
}

/// The deadwood value of every 13-bit pattern of one suit.
static SUIT_VALUE: [u8; 8192] = {
    let mut table = [0u8; 8192];
    let mut pattern = 0;
    while pattern < 8192 {
        let mut sum = 0;
        let mut rank = 0;
        while rank < 13 {
            if pattern & (1 << rank) != 0 {
                sum += rank_value(rank);
            }
            rank += 1;
        }
        table[pattern] = sum as u8;
        pattern += 1;
    }
    table
};

/// A set of cards as 52 bits: bit `suit * 13 + rank.ace_low_index()`, so clubs A–K are bits 0–12,
/// then diamonds, hearts and spades. Runs are consecutive bits, which makes meld finding a
/// matter of shifts. Iteration, `Display` and serde go in that order (by suit, then rank, ace
/// low); serde writes a list of card codes such as `["AS", "2S", "3S"]`.
///
/// ```
/// use cardroom_games::gin::CardSet;
/// let run: CardSet = "3S 4S 5S".parse().unwrap();
/// assert_eq!(run.len(), 3);
/// assert_eq!(run.value(), 12);
/// assert_eq!(run.to_string(), "3♠ 4♠ 5♠");
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CardSet(u64);

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);
    /// The whole pack.
    pub const FULL: CardSet = CardSet(FULL);

    /// The set with these bits, or `None` if a bit past the 52nd is set.
    pub const fn from_bits(bits: u64) -> Option<CardSet> {
        if bits & !FULL == 0 { Some(CardSet(bits)) } else { None }
    }

    /// The set's bits (see the type's documentation for the layout).
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The bit index (0 to 51) of a card.
    pub const fn bit(card: Card) -> u32 {
        card.suit() as u32 * 13 + card.rank().ace_low_index() as u32
    }

    /// The card at a bit index (0 to 51), or `None` past 51.
    pub const fn card_at(bit: u32) -> Option<Card> {
        if bit >= 52 {
            return None;
        }
        let suit = match Suit::from_index((bit / 13) as u8) {
            Some(suit) => suit,
            None => return None,
        };
        let rank = match bit % 13 {
            0 => Rank::Ace,
            // Ace-low index 1 (the two) is ace-high index 0.
            low => match Rank::from_index((low - 1) as u8) {
                Some(rank) => rank,
                None => return None,
            },
        };
        Some(Card::new(rank, suit))
    }

    /// The set holding one card.
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << CardSet::bit(card))
    }

    /// Whether the set holds the card.
    pub const fn contains(self, card: Card) -> bool {
        self.0 & CardSet::single(card).0 != 0
    }

    /// Adds a card; returns whether it was new.
    pub fn insert(&mut self, card: Card) -> bool {
        let new = !self.contains(card);
        self.0 |= CardSet::single(card).0;
        new
    }

    /// Removes a card; returns whether it was there.
    pub fn remove(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 &= !CardSet::single(card).0;
        had
    }

    /// How many cards.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every card of `self` is in `other`.
    pub const fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// Whether the two sets share no card.
    pub const fn is_disjoint(self, other: CardSet) -> bool {
        self.0 & other.0 == 0
    }

    /// The total deadwood value of the cards (GR-1: A 1, 2–10 face value, J/Q/K 10).
    pub fn value(self) -> u32 {
        bits_value(self.0)
    }

    /// The first card in the set's order (lowest suit, then lowest rank), if any.
    pub fn first(self) -> Option<Card> {
        CardSet::card_at(self.0.trailing_zeros())
    }

    /// The cards in the set's order.
    pub fn iter(self) -> Iter {
        Iter(self.0)
    }

    /// The cards, sorted in the set's order.
    pub fn to_vec(self) -> Vec<Card> {
        self.iter().collect()
    }

    /// The cards in [`Card`]'s own order (rank, ace high, then suit), as actions sort.
    pub fn iter_card_order(self) -> impl Iterator<Item = Card> {
        let mut by_index = 0u64;
        for card in self {
            by_index |= 1 << card.index();
        }
        std::iter::from_fn(move || {
            if by_index == 0 {
                return None;
            }
            let index = by_index.trailing_zeros();
            by_index &= by_index - 1;
            Card::from_index(index as u8)
        })
    }
}

/// The deadwood value of a bit pattern, four table look-ups.
#[inline]
pub(crate) fn bits_value(bits: u64) -> u32 {
    u32::from(SUIT_VALUE[(bits & SUIT_BITS) as usize])
        + u32::from(SUIT_VALUE[((bits >> 13) & SUIT_BITS) as usize])
        + u32::from(SUIT_VALUE[((bits >> 26) & SUIT_BITS) as usize])
        + u32::from(SUIT_VALUE[((bits >> 39) & SUIT_BITS) as usize])
}

/// The value of the highest-valued card of a bit pattern (0 if empty).
#[inline]
pub(crate) fn bits_max_value(bits: u64) -> u32 {
    let ranks = (bits | bits >> 13 | bits >> 26 | bits >> 39) & SUIT_BITS;
    if ranks == 0 { 0 } else { rank_value(31 - (ranks as u32).leading_zeros()) }
}

/// Iterator over a [`CardSet`], in its order.
#[derive(Clone, Debug)]
pub struct Iter(u64);

impl Iterator for Iter {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        CardSet::card_at(bit)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Iter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = Iter;

    fn into_iter(self) -> Iter {
        self.iter()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl From<Card> for CardSet {
    fn from(card: Card) -> CardSet {
        CardSet::single(card)
    }
}

impl BitOr for CardSet {
    type Output = CardSet;
    fn bitor(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 | rhs.0)
    }
}

impl BitOrAssign for CardSet {
    fn bitor_assign(&mut self, rhs: CardSet) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for CardSet {
    type Output = CardSet;
    fn bitand(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & rhs.0)
    }
}

impl Sub for CardSet {
    type Output = CardSet;
    fn sub(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & !rhs.0)
    }
}

impl Not for CardSet {
    type Output = CardSet;
    fn not(self) -> CardSet {
        CardSet(!self.0 & FULL)
    }
}

impl fmt::Display for CardSet {
    /// Cards separated by spaces, such as `A♠ 2♠ 3♠`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, card) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{card}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Why a text is not a set of cards.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseCardSetError {
    /// A word that is not a card.
    #[error(transparent)]
    Card(#[from] crate::card::ParseCardError),
    /// A card named twice (GR-1: one pack).
    #[error("GR-1: {0} is named twice; there is one pack")]
    Duplicate(Card),
}

impl std::str::FromStr for CardSet {
    type Err = ParseCardSetError;

    /// Cards separated by spaces or commas, each at most once, such as `"AS 2S 3S"`.
    fn from_str(s: &str) -> Result<CardSet, ParseCardSetError> {
        let mut set = CardSet::EMPTY;
        for card in crate::card::parse_cards(s)? {
            if !set.insert(card) {
                return Err(ParseCardSetError::Duplicate(card));
            }
        }
        Ok(set)
    }
}

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<CardSet, D::Error> {
        let cards = Vec::<Card>::deserialize(deserializer)?;
        let mut set = CardSet::EMPTY;
        for card in cards {
            if !set.insert(card) {
                return Err(serde::de::Error::custom(ParseCardSetError::Duplicate(card)));
            }
        }
        Ok(set)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn every_card_has_its_own_bit_and_round_trips() {
        let mut all = CardSet::EMPTY;
        for card in Card::pack() {
            let bit = CardSet::bit(card);
            assert!(bit < 52);
            assert_eq!(CardSet::card_at(bit), Some(card));
            assert!(all.insert(card));
        }
        assert_eq!(all, CardSet::FULL);
        assert_eq!(all.len(), 52);
        assert_eq!(all.value(), 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 10 + 10 + 10));
        assert_eq!(CardSet::card_at(52), None);
        assert_eq!(CardSet::from_bits(1 << 52), None);
    }

    #[test]
    fn values_and_max_follow_gr_1() {
        let set: CardSet = "AS KD 7C".parse().unwrap();
        assert_eq!(set.value(), 18);
        assert_eq!(bits_max_value(set.bits()), 10);
        assert_eq!(bits_max_value("AS 2C".parse::<CardSet>().unwrap().bits()), 2);
        assert_eq!(bits_max_value(0), 0);
    }

    #[test]
    fn serde_is_a_list_of_codes() {
        let set: CardSet = "TS 2C AH".parse().unwrap();
        let json = serde_json::to_string(&set).unwrap();
        assert_eq!(json, r#"["2C","AH","TS"]"#);
        assert_eq!(serde_json::from_str::<CardSet>(&json).unwrap(), set);
        assert!(serde_json::from_str::<CardSet>(r#"["2C","2C"]"#).is_err());
        assert!("2C 2c".parse::<CardSet>().is_err());
    }
}
