"""Cards, ranks, suits and hands.

A :class:`Card` prints as it does in the server's messages (``A♠``, ``10♥``) and parses from
that form or from the records' form (``AS``, ``TH``, ``2c``). Cards order by rank, then suit, the
order in which Twenty-Two ranks them (TT-1: aces high); Gin Rummy counts aces low
(:attr:`Rank.gin_value`).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import cast, overload

from cardroom.v1 import cardroom_pb2 as pb


class Suit(enum.IntEnum):
    """A suit; the values are the contract's ``Suit`` numbers."""

    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3
    SPADES = 4

    @property
    def symbol(self) -> str:
        """``♣``, ``♦``, ``♥`` or ``♠``."""
        return "♣♦♥♠"[self.value - 1]

    @property
    def letter(self) -> str:
        """``C``, ``D``, ``H`` or ``S``, as in records."""
        return "CDHS"[self.value - 1]


class Rank(enum.IntEnum):
    """A rank; the values are the contract's ``Rank`` numbers, the pips with the ace as 14."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """``2`` … ``10``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_SYMBOLS[self.value]

    @property
    def penalty(self) -> int:
        """Twenty-Two's penalty value (TT-2): 2–10 their pips, J/Q/K 10, A 11."""
        if self is Rank.ACE:
            return 11
        return min(self.value, 10)

    @property
    def gin_value(self) -> int:
        """Gin Rummy's deadwood value (GR-1): A 1, 2–10 their pips, J/Q/K 10."""
        if self is Rank.ACE:
            return 1
        return min(self.value, 10)

    @property
    def gin_order(self) -> int:
        """The rank's place in Gin Rummy runs, ace low: A 1, 2 2, …, K 13."""
        return 1 if self is Rank.ACE else self.value


_RANK_SYMBOLS = {
    2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
    11: "J", 12: "Q", 13: "K", 14: "A",
}  # fmt: skip
_RANK_CODES = {symbol: rank for rank, symbol in _RANK_SYMBOLS.items()} | {"T": 10, "1": 14}
_SUIT_CODES = {"C": 1, "D": 2, "H": 3, "S": 4, "♣": 1, "♦": 2, "♥": 3, "♠": 4}


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card. Ordered by rank, then suit; printed ``A♠``; parsed by :meth:`parse`."""

    rank: Rank
    suit: Suit

    def __str__(self) -> str:
        return f"{self.rank.symbol}{self.suit.symbol}"

    def __repr__(self) -> str:
        return f"Card({self})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Reads ``AS``, ``A♠``, ``10H``, ``TH`` or ``2c``; raises ``ValueError`` otherwise."""
        text = text.strip().upper()
        rank = _RANK_CODES.get(text[:-1])
        suit = _SUIT_CODES.get(text[-1:])
        if rank is None or suit is None:
            raise ValueError(
                f"{text!r} is not a card: write a rank (2-10, T, J, Q, K, A) then a suit "
                "(C, D, H, S or ♣ ♦ ♥ ♠), such as AS or 10♥"
            )
        return cls(Rank(rank), Suit(suit))

    @classmethod
    def from_pb(cls, card: pb.Card) -> Card:
        """Converts the contract's ``Card``; raises ``ValueError`` on an unset rank or suit."""
        return cls(Rank(card.rank), Suit(card.suit))

    def to_pb(self) -> pb.Card:
        """The contract's ``Card``."""
        return pb.Card(rank=cast(pb.Rank, self.rank.value), suit=cast(pb.Suit, self.suit.value))


class Hand(Sequence[Card]):
    """An immutable collection of cards kept sorted low to high, such as a hand or a play.

    It is a sequence (``len``, indexing, iteration, ``in``) and prints as ``2♣ 7♦ A♠``.
    """

    __slots__ = ("_cards",)

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        self._cards: tuple[Card, ...] = tuple(sorted(cards))

    @classmethod
    def _from_sorted(cls, cards: tuple[Card, ...]) -> Hand:
        """A hand of cards already sorted low to high, kept as given: how the engine's
        extension (:mod:`cardroom.engine`), whose card order is this one, builds hands fast."""
        hand = cls.__new__(cls)
        hand._cards = cards
        return hand

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Reads cards separated by spaces or commas: ``"2C 7♦ AS"``."""
        return cls(Card.parse(part) for part in text.replace(",", " ").split())

    @classmethod
    def from_pb(cls, cards: Iterable[pb.Card]) -> Hand:
        """Converts repeated contract ``Card``s."""
        return cls(Card.from_pb(card) for card in cards)

    def to_pb(self) -> pb.Cards:
        """The contract's ``Cards``."""
        return pb.Cards(cards=[card.to_pb() for card in self._cards])

    @overload
    def __getitem__(self, index: int) -> Card: ...
    @overload
    def __getitem__(self, index: slice) -> Hand: ...
    def __getitem__(self, index: int | slice) -> Card | Hand:
        if isinstance(index, slice):
            return Hand(self._cards[index])
        return self._cards[index]

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def __contains__(self, card: object) -> bool:
        return card in self._cards

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Hand):
            return self._cards == other._cards
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._cards)

    def __str__(self) -> str:
        return " ".join(str(card) for card in self._cards)

    def __repr__(self) -> str:
        return f"Hand({self})"

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, low to high."""
        return self._cards

    def ranks(self) -> list[Rank]:
        """The ranks, low to high (with repeats)."""
        return [card.rank for card in self._cards]

    def rank_counts(self) -> Counter[Rank]:
        """How many cards of each rank."""
        return Counter(card.rank for card in self._cards)

    def lowest(self, count: int) -> Hand:
        """The ``count`` lowest cards (Twenty-Two's duck, TT-12)."""
        return Hand(self._cards[:count])

    def highest(self, count: int) -> Hand:
        """The ``count`` highest cards."""
        return Hand(self._cards[len(self._cards) - count :]) if count > 0 else Hand()

    def without(self, cards: Iterable[Card]) -> Hand:
        """This hand less one copy of each of ``cards`` (missing cards are ignored)."""
        rest = list(self._cards)
        for card in cards:
            if card in rest:
                rest.remove(card)
        return Hand(rest)
