#!/usr/bin/env python3
"""A heuristic Gin Rummy bot (not random), built on the cardroom Python SDK.

It counts deadwood with a small exact meld search (:func:`deadwood`) and:

- goes out whenever it can: big gin, else gin, else the knock that leaves the least deadwood;
- takes the upcard (first upcard, or the discard pile's top) only when it lowers its deadwood;
  declines the upcard at the wall;
- discards the card that leaves the least deadwood, the highest card among equals.

Run it::

    python example-bots/python/gin_bot.py --server 127.0.0.1:50051 --token SEAT_TOKEN
    python example-bots/python/gin_bot.py --queue-game gin          # through the queue
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, pairwise

import cardroom
from cardroom import (
    BigGin,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    Gin,
    Knock,
    PassUpcard,
    TakeUpcard,
    Turn,
)


def melds_in(cards: Sequence[Card]) -> list[frozenset[Card]]:
    """Every meld in ``cards``: sets of 3 or 4 of a rank, runs of 3 or more in a suit (ace low)."""
    melds: list[frozenset[Card]] = []
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
        by_suit.setdefault(card.suit, []).append(card)
    for same in by_rank.values():
        for size in (3, 4):
            melds.extend(frozenset(c) for c in combinations(same, size))
    for suited in by_suit.values():
        run = sorted(suited, key=lambda c: c.rank.gin_order)
        for start in range(len(run)):
            for end in range(start + 2, len(run)):
                part = run[start : end + 1]
                if all(b.rank.gin_order - a.rank.gin_order == 1 for a, b in pairwise(part)):
                    melds.append(frozenset(part))
    return melds


def deadwood(cards: Sequence[Card]) -> int:
    """The least deadwood (GR-1 values) of ``cards`` under any set of disjoint melds."""
    return _deadwood(frozenset(cards))


@lru_cache(maxsize=1 << 16)
def _deadwood(cards: frozenset[Card]) -> int:
    best = sum(card.rank.gin_value for card in cards)
    for meld in melds_in(sorted(cards)):
        best = min(best, _deadwood(cards - meld))
    return best


def best_discard_deadwood(cards: Sequence[Card]) -> int:
    """With eleven cards: the least deadwood left after the best discard."""
    return min(deadwood([c for c in cards if c != out]) for out in cards)


class GinBot(cardroom.Bot):
    """Lowers its deadwood greedily and goes out as soon as it can (see the module's doc)."""

    name = "gin-heuristic"

    def choose(self, turn: Turn) -> int:
        """The index of the chosen legal action."""
        view = turn.observation.gin
        if view is None:
            return 0
        hand = list(view.hand)
        by_kind: dict[type, list[int]] = {}
        for legal in turn.legal_actions:
            by_kind.setdefault(type(legal.action), []).append(legal.index)

        for out in (BigGin, Gin):
            if out in by_kind:
                return by_kind[out][0]
        if Knock in by_kind:
            return min(by_kind[Knock], key=lambda i: self.knock_deadwood(turn, i))

        take = by_kind.get(TakeUpcard) or by_kind.get(DrawDiscard)
        if take and view.upcard is not None and view.phase != cardroom.GinPhase.WALL:
            with_upcard = best_discard_deadwood([*hand, view.upcard])
            if with_upcard < deadwood(hand):
                return take[0]
        for decline in (PassUpcard, DrawStock):
            if decline in by_kind:
                return by_kind[decline][0]

        if Discard in by_kind:

            def after(index: int) -> tuple[int, int]:
                action = turn.legal_actions[index].action
                assert isinstance(action, Discard)
                rest = [c for c in hand if c != action.card]
                return (deadwood(rest), -action.card.rank.gin_value)

            return min(by_kind[Discard], key=after)
        return 0

    @staticmethod
    def knock_deadwood(turn: Turn, index: int) -> int:
        """The deadwood a knock leaves: the cards in no meld, less the discard."""
        action = turn.legal_actions[index].action
        assert isinstance(action, Knock)
        melded = {card for meld in action.melds for card in meld}
        rest = [c for c in turn.hand if c not in melded and c != action.discard]
        return sum(card.rank.gin_value for card in rest)


if __name__ == "__main__":
    sys.exit(cardroom.main(GinBot(), description=__doc__))
