//! Playing cards: ranks, suits and the one-byte [`Card`] shared by every game.
//!
//! A card prints as `A♠` or `10♥` ([`Display`](fmt::Display)) and is written as `AS` or `TH` in
//! records ([`Card::code`], serde). Parsing accepts both forms, `10` for `T`, and any case.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit. Suits never rank against each other in cardroom's games; the order here (clubs,
/// diamonds, hearts, spades) only makes sorting deterministic.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// ♣
    Clubs = 0,
    /// ♦
    Diamonds = 1,
    /// ♥
    Hearts = 2,
    /// ♠
    Spades = 3,
}

impl Suit {
    /// All four suits, in sorting order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The ASCII letter used in records: `C`, `D`, `H`, `S`.
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    /// The symbol used for display: `♣`, `♦`, `♥`, `♠`.
    pub const fn symbol(self) -> char {
        match self {
            Suit::Clubs => '♣',
            Suit::Diamonds => '♦',
            Suit::Hearts => '♥',
            Suit::Spades => '♠',
        }
    }

    /// The suit at `index` (0 to 3) in [`Suit::ALL`].
    pub const fn from_index(index: u8) -> Option<Suit> {
        match index {
            0 => Some(Suit::Clubs),
            1 => Some(Suit::Diamonds),
            2 => Some(Suit::Hearts),
            3 => Some(Suit::Spades),
            _ => None,
        }
    }

    fn from_char(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'C' | '♣' | '♧' => Some(Suit::Clubs),
            'D' | '♦' | '♢' => Some(Suit::Diamonds),
            'H' | '♥' | '♡' => Some(Suit::Hearts),
            'S' | '♠' | '♤' => Some(Suit::Spades),
            _ => None,
        }
    }
}

/// A rank, ordered with the ace high (Twenty-Two's order, TT-1). Games with the ace low (Gin
/// Rummy, GR-1) use [`Rank::ace_low_index`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
#[repr(u8)]
pub enum Rank {
    /// 2
    Two = 2,
    /// 3
    Three = 3,
    /// 4
    Four = 4,
    /// 5
    Five = 5,
    /// 6
    Six = 6,
    /// 7
    Seven = 7,
    /// 8
    Eight = 8,
    /// 9
    Nine = 9,
    /// 10
    Ten = 10,
    /// Jack
    Jack = 11,
    /// Queen
    Queen = 12,
    /// King
    King = 13,
    /// Ace
    Ace = 14,
}

impl Rank {
    /// All thirteen ranks, from the two up to the ace.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// 0 for the two up to 12 for the ace (ace high).
    pub const fn index(self) -> u8 {
        self as u8 - 2
    }

    /// 0 for the ace up to 12 for the king (ace low, as in Gin Rummy).
    pub const fn ace_low_index(self) -> u8 {
        match self {
            Rank::Ace => 0,
            other => other as u8 - 1,
        }
    }

    /// The rank at `index` (0 = two … 12 = ace).
    pub const fn from_index(index: u8) -> Option<Rank> {
        if index < 13 { Some(Rank::ALL[index as usize]) } else { None }
    }

    /// The rank's symbol: `2`…`10`, `J`, `Q`, `K`, `A`.
    pub const fn symbol(self) -> &'static str {
        match self {
            Rank::Two => "2",
            Rank::Three => "3",
            Rank::Four => "4",
            Rank::Five => "5",
            Rank::Six => "6",
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "10",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
        }
    }

    /// The one-character code used in records: `2`…`9`, `T`, `J`, `Q`, `K`, `A`.
    pub const fn code(self) -> char {
        match self {
            Rank::Ten => 'T',
            Rank::Jack => 'J',
            Rank::Queen => 'Q',
            Rank::King => 'K',
            Rank::Ace => 'A',
            other => (b'0' + other as u8) as char,
        }
    }

    fn parse(s: &str) -> Option<Rank> {
        // Byte patterns, not an upper-cased copy: cards are parsed for every observation a bot
        // reads, and this must not allocate.
        Some(match s.as_bytes() {
            [digit @ b'2'..=b'9'] => Rank::ALL[usize::from(digit - b'2')],
            [b'T' | b't'] | [b'1', b'0'] => Rank::Ten,
            [b'J' | b'j'] => Rank::Jack,
            [b'Q' | b'q'] => Rank::Queen,
            [b'K' | b'k'] => Rank::King,
            [b'A' | b'a' | b'1'] => Rank::Ace,
            _ => return None,
        })
    }
}

/// Why a string is not a rank.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a rank (2-9, T or 10, J, Q, K, A)")]
pub struct ParseRankError {
    text: String,
}

impl TryFrom<String> for Rank {
    type Error = ParseRankError;

    fn try_from(text: String) -> Result<Rank, ParseRankError> {
        Rank::parse(&text).ok_or(ParseRankError { text })
    }
}

impl From<Rank> for String {
    fn from(rank: Rank) -> String {
        rank.code().to_string()
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

/// One playing card in one byte: `rank.index() * 4 + suit`. The byte order sorts by rank (ace
/// high), then suit, which is the order Twenty-Two wants.
///
/// ```
/// use cardroom_games::{Card, Rank, Suit};
/// let card: Card = "TS".parse().unwrap();
/// assert_eq!(card, Card::new(Rank::Ten, Suit::Spades));
/// assert_eq!(card.to_string(), "10♠");
/// assert_eq!(card.code(), "TS");
/// assert_eq!("10♠".parse::<Card>().unwrap(), card);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The card of this rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(rank.index() * 4 + suit as u8)
    }

    /// The card with this byte (0 to 51), see the type's documentation.
    pub const fn from_index(index: u8) -> Option<Card> {
        if index < 52 { Some(Card(index)) } else { None }
    }

    /// This card's byte, 0 (2♣) to 51 (A♠).
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The card's rank.
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 / 4) as usize]
    }

    /// The card's suit.
    pub const fn suit(self) -> Suit {
        Suit::ALL[(self.0 % 4) as usize]
    }

    /// The 52 cards of one pack, in byte order.
    pub fn pack() -> impl Iterator<Item = Card> {
        (0..52).map(Card)
    }

    /// The two-character record code, such as `AS`, `TH`, `2C`.
    pub fn code(self) -> String {
        let mut s = String::with_capacity(2);
        s.push(self.rank().code());
        s.push(self.suit().letter());
        s
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().symbol(), self.suit().symbol())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().code(), self.suit().letter())
    }
}

/// Why a string is not a card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{text:?} is not a card: write a rank (2-9, T or 10, J, Q, K, A) then a suit (C, D, H, S or ♣ ♦ ♥ ♠), such as AS or 10♥"
)]
pub struct ParseCardError {
    text: String,
}

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError { text: s.to_owned() };
        let s = s.trim();
        let suit_char = s.chars().next_back().ok_or_else(err)?;
        let suit = Suit::from_char(suit_char).ok_or_else(err)?;
        let rank = Rank::parse(&s[..s.len() - suit_char.len_utf8()]).ok_or_else(err)?;
        Ok(Card::new(rank, suit))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let code = [self.rank().code() as u8, self.suit().letter() as u8];
        // Both bytes are ASCII, so this never fails.
        serializer.serialize_str(std::str::from_utf8(&code).unwrap_or_default())
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Card, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Parses a list of cards separated by spaces or commas, such as `"AS 10♥ 2c"`.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, ParseCardError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(str::parse)
        .collect()
}

/// Writes cards separated by spaces, such as `2♣ 2♦ 3♠`.
pub fn display_cards(cards: &[Card]) -> String {
    let mut out = String::new();
    for (i, card) in cards.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&card.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_code_display_and_serde() {
        for card in Card::pack() {
            assert_eq!(card.code().parse::<Card>(), Ok(card));
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
            let json = serde_json::to_string(&card).unwrap();
            assert_eq!(json, format!("\"{}\"", card.code()));
            assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), card);
            assert_eq!(Card::new(card.rank(), card.suit()), card);
        }
    }

    #[test]
    fn byte_order_is_rank_then_suit_with_ace_high() {
        let two_clubs: Card = "2C".parse().unwrap();
        let ace_spades: Card = "AS".parse().unwrap();
        assert_eq!(two_clubs.index(), 0);
        assert_eq!(ace_spades.index(), 51);
        assert!("3C".parse::<Card>().unwrap() > "2S".parse::<Card>().unwrap());
        assert_eq!(Rank::Ace.ace_low_index(), 0);
        assert_eq!(Rank::King.ace_low_index(), 12);
    }

    #[test]
    fn bad_cards_are_refused_with_a_helpful_message() {
        for bad in ["", "A", "1X", "11S", "ZS", "A♠♠"] {
            let err = bad.parse::<Card>().unwrap_err();
            assert!(err.to_string().contains("is not a card"), "{err}");
        }
        assert_eq!(parse_cards("as, 10h 2c").unwrap().len(), 3);
    }
}
