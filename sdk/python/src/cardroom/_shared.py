"""What the SDK's model and each game's module share: the contract's enums' base, a seat's
standing, and :class:`GameModule`, which each game's module fills in for the registry
(:mod:`cardroom.games`)."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from cardroom.v1 import cardroom_pb2 as pb

_E = TypeVar("_E", bound="_ContractEnum")


class _ContractEnum(enum.IntEnum):
    """A contract enum whose members keep the contract's numbers, 0 being ``UNSPECIFIED``."""

    @classmethod
    def from_pb(cls: type[_E], value: int) -> _E:
        """Reads the contract's value; an unknown one (from a newer server) is ``UNSPECIFIED``."""
        try:
            return cls(value)
        except ValueError:
            return cls(0)


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's final place: 1 for first; tied seats share a place."""

    seat: int
    place: int
    forfeited: bool


#: A game's actions (the union of its action classes).
A_co = TypeVar("A_co", covariant=True)
#: A game's view of an observation.
V_co = TypeVar("V_co", covariant=True)


@dataclass(frozen=True, slots=True)
class GameModule(Generic[A_co, V_co]):
    """One game as the SDK knows it: its names, and its actions and view read from and written
    to the contract. Each game's module has one (``GAME``); :mod:`cardroom.games` lists them."""

    #: The catalogue's name, which is also the game's field in the contract's ``game`` oneofs
    #: (``Action.game``, ``Observation.game``).
    name: str
    #: The contract's ``Game`` number.
    number: int
    #: Other spellings :meth:`cardroom.Game.parse` accepts (lower case, ``_`` for ``-``).
    aliases: tuple[str, ...]
    #: The game's action in the contract's ``Action``; ``None`` when the action is another
    #: game's, or empty.
    action_from_pb: Callable[[pb.Action], A_co | None]
    #: The contract's ``Action`` for an action of the game; ``None`` for any other value.
    action_to_pb: Callable[[object], pb.Action | None]
    #: The game's view in the contract's ``Observation``; ``None`` when it holds another's.
    view_from_pb: Callable[[pb.Observation], V_co | None]
