"""Actions as plain Python values, and their conversion to and from the contract, for any game:
each game's action classes are in its module (:mod:`cardroom.games`), all exported by
:mod:`cardroom`.

A bot usually answers a turn with the ``index`` of one of its :class:`LegalAction`\\ s; it may
also build an action by value (``Play(Hand.parse("7S 7D"))``) and return it.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardroom.cards import Card, Hand
from cardroom.games import GAMES, Action
from cardroom.v1 import cardroom_pb2 as pb

__all__ = ["Action", "action_from_pb", "action_to_pb", "melds_of"]


def action_from_pb(action: pb.Action) -> Action:
    """Converts the contract's ``Action``; raises ``ValueError`` when it is empty."""
    for game in GAMES:
        found = game.action_from_pb(action)
        if found is not None:
            return found
    raise ValueError(f"not an action: {action}")


def action_to_pb(action: Action) -> pb.Action:
    """The contract's ``Action`` for ``action``."""
    for game in GAMES:
        found = game.action_to_pb(action)
        if found is not None:
            return found
    raise TypeError(f"not an action: {action!r}")


def melds_of(hands: Iterable[Iterable[Card]]) -> tuple[Hand, ...]:
    """Builds a knock's melds from lists of cards."""
    return tuple(Hand(cards) for cards in hands)
