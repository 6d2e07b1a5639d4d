#!/usr/bin/env python3
"""A heuristic Twenty-Two bot (not random), built on the cardroom Python SDK.

The deal is lost by the highest last card (TT-17), so the bot spends its high cards and keeps
its low ones:

- **Exchange** (TT-9): throw away every card higher than what a fresh card from the stock is
  worth on average (an 8), as far as the legal exchanges allow.
- **Follow** (TT-12): beat whenever it can, with its highest cards (which also dumps them); when
  it cannot, it must duck with its lowest cards anyway.
- **Lead** (TT-11): lead its highest rank, all its copies at once, so that the others must beat
  with high cards or give up their low ones.

In the ``elimination`` variant (TT-26 to TT-28) the cards of won tricks count against you, so
there it ducks when it can and leads its lowest card.

Run it::

    python example-bots/python/tt_bot.py --server 127.0.0.1:50051 --token SEAT_TOKEN
    python example-bots/python/tt_bot.py --queue-game twenty_two --queue-seats 4   # through the queue
"""

from __future__ import annotations

import sys

import cardroom
from cardroom import Exchange, Hand, Play, Turn, TwentyTwoView

#: The average rank of a card from the stock, roughly: exchanging a card above it gains.
AVERAGE_RANK = 8


class TwentyTwoBot(cardroom.Bot):
    """Spends high cards, keeps low ones for the last trick (see the module's doc)."""

    name = "tt-heuristic"

    def __init__(self) -> None:
        self.elimination = False

    def on_match_start(self, match: cardroom.MatchInfo) -> None:
        """Notes the variant: it reverses what a trick is worth."""
        self.elimination = match.options.get("variant") == "elimination"

    def choose(self, turn: Turn) -> int:
        """The index of the chosen legal action."""
        view = turn.observation.twenty_two
        if view is None:
            return 0  # Not a Twenty-Two turn: the cautious default.
        if view.phase == cardroom.TwentyTwoPhase.EXCHANGE:
            return self.exchange(turn)
        return self.play(turn, view)

    def exchange(self, turn: Turn) -> int:
        """The exchange that throws away the most rank above :data:`AVERAGE_RANK`."""

        def gain(index: int) -> int:
            action = turn.legal_actions[index].action
            assert isinstance(action, Exchange)
            return sum(card.rank - AVERAGE_RANK for card in action.cards)

        return max(range(len(turn.legal_actions)), key=lambda i: (gain(i), -i))

    def play(self, turn: Turn, view: TwentyTwoView) -> int:
        """A lead or a follow (see the module's doc)."""
        plays: list[tuple[int, Hand]] = []
        for legal in turn.legal_actions:
            if isinstance(legal.action, Play):
                plays.append((legal.index, legal.action.cards))
        if not plays:
            return 0
        trick = view.current_trick
        leading = trick is None or not trick.plays
        if leading:
            if self.elimination:
                return min(plays, key=lambda p: (p[1].cards[-1].rank, len(p[1])))[0]
            # The highest rank; among its sets, the largest.
            return max(plays, key=lambda p: (p[1].cards[-1].rank, len(p[1])))[0]
        duck = view.hand.lowest(len(plays[0][1]))
        if self.elimination:
            for index, cards in plays:
                if cards.ranks() == duck.ranks():
                    return index
        # Beat with the highest cards: the follow with the most rank in it.
        return max(plays, key=lambda p: (sum(p[1].ranks()), -p[0]))[0]


if __name__ == "__main__":
    sys.exit(cardroom.main(TwentyTwoBot(), description=__doc__))
