"""What a bot is told: observations, turns, legal actions, events, errors and results (each
game's view of an observation is in the game's module, :mod:`cardroom.games`).

Every type keeps the message it came from in ``raw`` for anything not converted here (an
observation's typed view carries every detail of the engine's observation: the last deal's or
hand's result, the dealer draw, the outcome are in ``raw``). The engine's JSON, parsed, is in
:attr:`Observation.json` when the bot asks for it (``RunConfig.json``).
"""

from __future__ import annotations

import enum
import json
import time
from dataclasses import dataclass, field
from typing import Any

from cardroom._shared import Standing as Standing
from cardroom.actions import Action, action_from_pb
from cardroom.cards import Hand
from cardroom.games import Game as Game
from cardroom.games import Observation as Observation
from cardroom.v1 import cardroom_pb2 as pb


@dataclass(frozen=True, slots=True)
class Reply:
    """An answer in the text form's words (``Act.reply``): an action's number as
    :attr:`Turn.text` lists it (from 1), its words, or both, such as ``Reply("discard 7d")``.
    The server reads it against the turn's legal actions; one it cannot read is refused with
    the reason (:attr:`ErrorCode.UNREADABLE_REPLY`), and too many in one turn forfeit the seat."""

    text: str


@dataclass(frozen=True, slots=True)
class LegalAction:
    """A legal action and its index (answer with the index, or the action itself)."""

    index: int
    action: Action

    def __str__(self) -> str:
        return f"{self.index}: {self.action}"


@dataclass(frozen=True, slots=True)
class Turn:
    """Your seat must act: answer :meth:`Bot.choose <cardroom.Bot.choose>` with an index of
    :attr:`legal_actions` or an :data:`~cardroom.Action`."""

    #: The turn number (the runner echoes it).
    number: int
    #: The match being played.
    match: MatchInfo
    observation: Observation
    #: The legal actions, sorted as the engine sorts them; ``legal_actions[i].index == i``.
    legal_actions: tuple[LegalAction, ...]
    #: Time for this decision before the bank is used, in milliseconds.
    move_ms: int
    #: Your bank, in milliseconds.
    bank_ms: int
    #: When the turn arrived (``time.monotonic()``).
    received_at: float
    raw: pb.Turn = field(repr=False, compare=False)
    #: The turn in the text form (your table, what happened since your last turn, the legal
    #: actions numbered from 1 in their own words), for a bot that asks (:attr:`Bot.wants_text`);
    #: else empty. Answer it with a :class:`Reply`.
    text: str = ""

    @classmethod
    def from_pb(cls, turn: pb.Turn, match: MatchInfo) -> Turn:
        """Converts the contract's ``Turn``."""
        return cls(
            number=turn.turn,
            match=match,
            observation=Observation.from_pb(turn.observation),
            legal_actions=tuple(
                LegalAction(legal.index, action_from_pb(legal.action))
                for legal in turn.legal_actions
            ),
            move_ms=turn.move_ms,
            bank_ms=turn.bank_ms,
            received_at=time.monotonic(),
            raw=turn,
            text=turn.text,
        )

    @property
    def seat(self) -> int:
        """Your seat."""
        return self.observation.seat

    @property
    def hand(self) -> Hand:
        """Your hand."""
        return self.observation.hand

    @property
    def actions(self) -> list[Action]:
        """The legal actions alone, in index order."""
        return [legal.action for legal in self.legal_actions]

    def index_of(self, action: Action) -> int | None:
        """The index of ``action`` among the legal actions, if it is one."""
        for legal in self.legal_actions:
            if legal.action == action:
                return legal.index
        return None

    def seconds_left(self) -> float:
        """Seconds left before the move time (not the bank) runs out."""
        return self.received_at + self.move_ms / 1000 - time.monotonic()


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """The match a bot has joined (from ``Joined``)."""

    match_id: str
    seat: int
    #: Keep it to reconnect; the runner does.
    seat_token: str
    game: Game
    #: The options, with every field.
    options: dict[str, Any]
    seats: int
    move_ms: int
    bank_ms: int

    @classmethod
    def from_pb(cls, joined: pb.Joined) -> MatchInfo:
        """Converts the contract's ``Joined``."""
        return cls(
            match_id=joined.match_id,
            seat=joined.seat,
            seat_token=joined.seat_token,
            game=Game(joined.game),
            options=json.loads(joined.options_json) if joined.options_json else {},
            seats=joined.seats,
            move_ms=joined.clock.move_ms,
            bank_ms=joined.clock.bank_ms,
        )


@dataclass(frozen=True, slots=True)
class Event:
    """One public event."""

    #: Such as ``played``, ``trick_won``, ``discarded``.
    kind: str
    #: A sentence for people, such as ``seat 2 plays 7♠ 7♦``.
    text: str
    #: The engine's JSON form, parsed.
    json: dict[str, Any]

    @classmethod
    def from_pb(cls, event: pb.Event) -> Event:
        """Converts the contract's ``Event``."""
        return cls(event.kind, event.text, json.loads(event.json) if event.json else {})


class ErrorCode(enum.IntEnum):
    """Why an ``Act`` was refused; the values are the contract's ``ActErrorCode`` numbers."""

    UNSPECIFIED = 0
    ILLEGAL_ACTION = 1
    NOT_YOUR_TURN = 2
    STALE_TURN = 3
    MALFORMED = 4
    TIMED_OUT = 5
    FORFEITED = 6
    UNREADABLE_REPLY = 7


@dataclass(frozen=True, slots=True)
class ActError:
    """An ``Act`` was refused; nothing changed and the match goes on."""

    turn: int
    code: ErrorCode
    #: For ``ILLEGAL_ACTION``, the broken rule's id, such as ``TT-12``.
    rule: str
    message: str

    @classmethod
    def from_pb(cls, error: pb.ActError) -> ActError:
        """Converts the contract's ``ActError``."""
        try:
            code = ErrorCode(error.code)
        except ValueError:
            code = ErrorCode.UNSPECIFIED
        return cls(error.turn, code, error.rule, error.message)

    def __str__(self) -> str:
        return f"turn {self.turn}: {self.code.name}: {self.message}"


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended, as :func:`cardroom.run` returns it."""

    match: MatchInfo
    #: First place first.
    standings: tuple[Standing, ...]
    #: True when the server shut down rather than the match finishing.
    aborted: bool
    reason: str

    @classmethod
    def from_pb(cls, end: pb.MatchEnd, match: MatchInfo) -> MatchResult:
        """Converts the contract's ``MatchEnd``."""
        standings = tuple(Standing(s.seat, s.place, s.forfeited) for s in end.standings)
        return cls(match, standings, end.aborted, end.reason)

    @property
    def place(self) -> int | None:
        """Your place, if the match finished with standings."""
        for standing in self.standings:
            if standing.seat == self.match.seat:
                return standing.place
        return None

    @property
    def won(self) -> bool:
        """True when you finished first (alone or tied)."""
        return self.place == 1
