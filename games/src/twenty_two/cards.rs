//! [`Cards`]: a small sorted multiset of cards, the payload of every Twenty-Two action.

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, display_cards};

/// The most cards a Twenty-Two hand ever holds: 11 (an ace lost the last deal, TT-6, or
/// `first_hand` 11).
pub const MAX_HAND: usize = 11;

/// Up to [`MAX_HAND`] cards, kept sorted from low to high (rank, then suit). Several packs can
/// put identical cards in one hand, so this is a multiset. It is `Copy` and 12 bytes, so
/// actions and hands never allocate.
///
/// Ordering: fewer cards first, then card by card from the lowest.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Cards {
    len: u8,
    /// Sorted; slots at `len..` always hold the 2♣ placeholder so that derived equality and
    /// hashing only see the cards.
    cards: [Card; MAX_HAND],
}

const PLACEHOLDER: Card = match Card::from_index(0) {
    Some(card) => card,
    None => panic!("card 0 exists"),
};

/// More than [`MAX_HAND`] cards were given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{count} cards given, but a Twenty-Two hand or play holds at most {MAX_HAND}")]
pub struct TooManyCards {
    /// How many were given.
    pub count: usize,
}

impl Cards {
    /// No cards.
    pub const EMPTY: Cards = Cards { len: 0, cards: [PLACEHOLDER; MAX_HAND] };

    /// These cards, sorted.
    pub fn new(cards: &[Card]) -> Result<Cards, TooManyCards> {
        if cards.len() > MAX_HAND {
            return Err(TooManyCards { count: cards.len() });
        }
        let mut out = Cards::EMPTY;
        out.cards[..cards.len()].copy_from_slice(cards);
        out.len = cards.len() as u8;
        out.cards[..cards.len()].sort_unstable();
        Ok(out)
    }

    /// The cards, low to high.
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// How many cards.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True when there are no cards.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The highest card, if any.
    pub fn highest(&self) -> Option<Card> {
        self.as_slice().last().copied()
    }

    /// The `k` lowest cards: Twenty-Two's duck (TT-12). Among equal ranks the lowest suits are
    /// taken, which is only a canonical choice: suits never matter in play.
    pub fn lowest(&self, k: usize) -> Cards {
        let mut out = Cards::EMPTY;
        let k = k.min(self.len());
        out.cards[..k].copy_from_slice(&self.cards[..k]);
        out.len = k as u8;
        out
    }

    /// True when every card of `other` is here, counting copies.
    pub fn contains_all(&self, other: &Cards) -> bool {
        // Both sorted: one merge pass.
        let mut mine = self.as_slice().iter();
        'outer: for want in other.as_slice() {
            for have in mine.by_ref() {
                match have.cmp(want) {
                    Ordering::Less => continue,
                    Ordering::Equal => continue 'outer,
                    Ordering::Greater => return false,
                }
            }
            return false;
        }
        true
    }

    /// Removes the cards of `other`, which must all be here ([`Cards::contains_all`]); returns
    /// false and changes nothing otherwise.
    pub fn remove_all(&mut self, other: &Cards) -> bool {
        if !self.contains_all(other) {
            return false;
        }
        let mut kept = Cards::EMPTY;
        let mut theirs = other.as_slice().iter().peekable();
        for &card in self.as_slice() {
            if theirs.peek() == Some(&&card) {
                theirs.next();
            } else {
                kept.push_sorted_unchecked(card);
            }
        }
        *self = kept;
        true
    }

    /// Adds one card, keeping the order. Returns false (and changes nothing) when full.
    pub fn insert(&mut self, card: Card) -> bool {
        if self.len() == MAX_HAND {
            return false;
        }
        let at = self.as_slice().partition_point(|&c| c <= card);
        let len = self.len();
        self.cards.copy_within(at..len, at + 1);
        self.cards[at] = card;
        self.len += 1;
        true
    }

    /// True when every card has the same rank (a *set*, TT-11).
    pub fn is_one_rank(&self) -> bool {
        match self.as_slice() {
            [] => false,
            [first, rest @ ..] => rest.iter().all(|c| c.rank() == first.rank()),
        }
    }

    /// True when the ranks here equal the ranks of `other`, suits aside.
    pub fn same_ranks(&self, other: &Cards) -> bool {
        self.len == other.len
            && self.as_slice().iter().zip(other.as_slice()).all(|(a, b)| a.rank() == b.rank())
    }

    /// TT-12's domination: with both sorted high to low and of equal size, every card here is
    /// at least the card at the same position of `other`.
    pub fn dominates(&self, other: &Cards) -> bool {
        self.len == other.len
            && self.as_slice().iter().zip(other.as_slice()).all(|(a, b)| a.rank() >= b.rank())
    }

    fn push_sorted_unchecked(&mut self, card: Card) {
        self.cards[self.len as usize] = card;
        self.len += 1;
    }

    /// Appends a card known to be at least the last one; used by enumerations that build
    /// cards in order.
    pub(crate) fn push_in_order(&mut self, card: Card) {
        debug_assert!(self.highest().is_none_or(|last| last <= card));
        self.push_sorted_unchecked(card);
    }

    /// Removes the last card pushed.
    pub(crate) fn pop(&mut self) {
        if self.len > 0 {
            self.len -= 1;
            self.cards[self.len as usize] = PLACEHOLDER;
        }
    }
}

impl Default for Cards {
    fn default() -> Cards {
        Cards::EMPTY
    }
}

impl Ord for Cards {
    fn cmp(&self, other: &Cards) -> Ordering {
        self.len.cmp(&other.len).then_with(|| self.as_slice().cmp(other.as_slice()))
    }
}

impl PartialOrd for Cards {
    fn partial_cmp(&self, other: &Cards) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            f.write_str("no cards")
        } else {
            f.write_str(&display_cards(self.as_slice()))
        }
    }
}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a Cards {
    type Item = &'a Card;
    type IntoIter = std::slice::Iter<'a, Card>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl Serialize for Cards {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Cards {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Cards, D::Error> {
        let cards = Vec::<Card>::deserialize(deserializer)?;
        Cards::new(&cards).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_cards;

    fn cards(text: &str) -> Cards {
        Cards::new(&parse_cards(text).unwrap()).unwrap()
    }

    #[test]
    fn cards_is_small_and_copy() {
        assert_eq!(std::mem::size_of::<Cards>(), 12);
    }

    #[test]
    fn multiset_operations_count_copies() {
        let mut hand = cards("7S 7S 2C KD");
        assert!(hand.contains_all(&cards("7S 7S")));
        assert!(!hand.contains_all(&cards("7S 7S 7S")));
        assert!(!hand.contains_all(&cards("7H")));
        assert!(hand.remove_all(&cards("7S KD")));
        assert_eq!(hand, cards("2C 7S"));
        assert!(!hand.remove_all(&cards("AS")));
        assert_eq!(hand, cards("2C 7S"));
        assert!(hand.insert("3C".parse().unwrap()));
        assert_eq!(hand, cards("2C 3C 7S"));
    }

    #[test]
    fn domination_compares_position_by_position() {
        assert!(cards("6S 7D").dominates(&cards("6C 6H")));
        assert!(!cards("9C QD").dominates(&cards("9S KH")));
        assert!(cards("KH KD").dominates(&cards("QC KS")));
        assert!(!cards("2S AH").dominates(&cards("8C 8D")));
    }

    #[test]
    fn too_many_cards_is_an_error_not_a_panic() {
        let twelve = vec![PLACEHOLDER; 12];
        assert_eq!(Cards::new(&twelve), Err(TooManyCards { count: 12 }));
        assert!(serde_json::from_str::<Cards>(&serde_json::to_string(&twelve).unwrap()).is_err());
    }
}
