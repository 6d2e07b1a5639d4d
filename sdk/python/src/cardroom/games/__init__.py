"""The games the SDK knows, and the one place that lists them: each game's module (its actions,
its view, their conversions and its :class:`~cardroom._shared.GameModule`) is in this package,
named after the game, and this module gathers them: :data:`GAMES`, the unions :data:`Action`
and :data:`View`, :class:`Game`, and :class:`Observation`'s field per game. Code elsewhere reaches
a game through :data:`GAMES` (:mod:`cardroom.actions`, :meth:`Game.parse`), so a new game adds its
module and its lines here.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Any

from cardroom._shared import GameModule
from cardroom.cards import Hand
from cardroom.games import gin, holdem, twenty_two
from cardroom.games.gin import (
    GOING_OUT,
    BigGin,
    Discard,
    DrawDiscard,
    DrawStock,
    Gin,
    GinAction,
    GinPhase,
    GinView,
    Knock,
    PassUpcard,
    TakeUpcard,
)
from cardroom.games.holdem import (
    Call,
    Check,
    Fold,
    HoldemAction,
    HoldemSeat,
    HoldemSeatStatus,
    HoldemStreet,
    HoldemView,
    RaiseTo,
)
from cardroom.games.twenty_two import (
    Exchange,
    Play,
    Trick,
    TrickPlay,
    TwentyTwoAction,
    TwentyTwoPhase,
    TwentyTwoSeat,
    TwentyTwoView,
)
from cardroom.v1 import cardroom_pb2 as pb

# Every game's public names, then this module's own: what `cardroom` exports of the games.
__all__ = [
    "GOING_OUT",
    "BigGin",
    "Discard",
    "DrawDiscard",
    "DrawStock",
    "Gin",
    "GinAction",
    "GinPhase",
    "GinView",
    "Knock",
    "PassUpcard",
    "TakeUpcard",
    "Call",
    "Check",
    "Fold",
    "HoldemAction",
    "HoldemSeat",
    "HoldemSeatStatus",
    "HoldemStreet",
    "HoldemView",
    "RaiseTo",
    "Exchange",
    "Play",
    "Trick",
    "TrickPlay",
    "TwentyTwoAction",
    "TwentyTwoPhase",
    "TwentyTwoSeat",
    "TwentyTwoView",
    "Action",
    "Game",
    "Observation",
]

#: An action of any game.
Action = TwentyTwoAction | GinAction | HoldemAction
#: A seat's view in any game.
View = TwentyTwoView | GinView | HoldemView

#: Every game, in the catalogue's order (the contract's numbers).
GAMES: tuple[GameModule[Action, View], ...] = (twenty_two.GAME, gin.GAME, holdem.GAME)


class Game(enum.IntEnum):
    """A game; the values are the contract's ``Game`` numbers."""

    TWENTY_TWO = twenty_two.GAME.number
    GIN_RUMMY = gin.GAME.number
    HOLDEM = holdem.GAME.number

    @classmethod
    def parse(cls, text: str) -> Game:
        """Reads a game's name or alias (``twenty_two``/``22``/``tt``, ``gin``/``gin_rummy`` or
        ``holdem``/``texas_holdem``/``nlhe``, in any case, with ``-`` or ``_``)."""
        key = text.strip().lower().replace("-", "_")
        for game in GAMES:
            if key == game.name or key in game.aliases:
                return cls(game.number)
        names = " or ".join(game.name for game in GAMES)
        raise ValueError(f"unknown game {text!r}: use {names}")


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one seat may see. Exactly one of the games' views (``twenty_two``, ``gin``,
    ``holdem``) is set: :attr:`view` is that one."""

    seat: int
    twenty_two: TwentyTwoView | None
    gin: GinView | None
    holdem: HoldemView | None
    #: The engine's JSON form of the observation, parsed; empty unless the bot asked for it
    #: (``RunConfig.json``): the typed view holds every detail too.
    json: dict[str, Any]
    raw: pb.Observation = field(repr=False, compare=False)

    @classmethod
    def from_pb(cls, observation: pb.Observation) -> Observation:
        """Converts the contract's ``Observation`` (and parses its JSON)."""
        return cls(
            seat=observation.seat,
            twenty_two=twenty_two.GAME.view_from_pb(observation),
            gin=gin.GAME.view_from_pb(observation),
            holdem=holdem.GAME.view_from_pb(observation),
            json=json.loads(observation.json) if observation.json else {},
            raw=observation,
        )

    @property
    def view(self) -> View | None:
        """The game's view, whichever game it is (``None`` in an observation without one)."""
        for view in (self.twenty_two, self.gin, self.holdem):
            if view is not None:
                return view
        return None

    @property
    def hand(self) -> Hand:
        """Your hand, in any game."""
        view = self.view
        return view.hand if view is not None else Hand()
