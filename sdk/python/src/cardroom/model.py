"""What a bot is told: observations, turns, legal actions, events, errors and results.

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
from typing import Any, TypeVar

from cardroom.actions import Action, action_from_pb
from cardroom.cards import Card, Hand
from cardroom.v1 import cardroom_pb2 as pb


class Game(enum.IntEnum):
    """A game; the values are the contract's ``Game`` numbers."""

    TWENTY_TWO = 1
    GIN_RUMMY = 2

    @classmethod
    def parse(cls, text: str) -> Game:
        """Reads ``twenty_two``/``22``/``tt`` or ``gin``/``gin_rummy`` (any case, ``-`` or ``_``)."""
        key = text.strip().lower().replace("-", "_")
        if key in ("twenty_two", "22", "tt", "game_twenty_two"):
            return cls.TWENTY_TWO
        if key in ("gin", "gin_rummy", "game_gin_rummy"):
            return cls.GIN_RUMMY
        raise ValueError(f"unknown game {text!r}: use twenty_two or gin")


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


# ---- Twenty-Two ---------------------------------------------------------------------------


class TwentyTwoPhase(_ContractEnum):
    """The phase of a Twenty-Two match; the values are the contract's ``TwentyTwoPhase``."""

    #: Not set, or a phase this SDK does not know (from a newer server).
    UNSPECIFIED = 0
    #: The exchange: ``to_act`` may exchange cards (TT-9).
    EXCHANGE = 1
    #: Trick play: ``to_act`` leads (when it is the leader) or follows (TT-11, TT-12).
    PLAY = 2
    #: The match is over (TT-21).
    OVER = 3


@dataclass(frozen=True, slots=True)
class TwentyTwoSeat:
    """One Twenty-Two seat as everybody sees it (TT-24)."""

    seat: int
    #: Penalty points (TT-18).
    score: int
    #: The penalty pile, oldest first.
    penalty_pile: tuple[Card, ...]
    #: Eliminated (TT-19, TT-28).
    eliminated: bool
    #: Cards in hand.
    hand_size: int
    #: Cards exchanged this deal, once done (TT-9).
    exchanged: int | None
    #: Elimination variant: the cards of the tricks it won this deal (TT-27).
    won: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class TrickPlay:
    """The cards one seat played to a trick."""

    seat: int
    cards: Hand


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick of the current deal."""

    #: The plays in order; the first is the lead.
    plays: tuple[TrickPlay, ...]
    #: The strongest combination so far, as an index into ``plays`` (TT-13).
    strongest: int
    #: The winner, once complete.
    winner: int | None

    @property
    def lead(self) -> TrickPlay | None:
        """The first play, if any."""
        return self.plays[0] if self.plays else None

    @property
    def strongest_play(self) -> TrickPlay | None:
        """The play to beat (TT-13), if any."""
        return self.plays[self.strongest] if self.plays else None


@dataclass(frozen=True, slots=True)
class TwentyTwoView:
    """A Twenty-Two seat's view (TT-24, TT-25)."""

    #: Your hand, low to high.
    hand: Hand
    #: The cards you discarded in this deal's exchange (TT-25).
    discards: Hand
    #: The current deal, from 1.
    deal: int
    dealer: int
    #: Cards dealt to each active seat this deal.
    cards_dealt: int
    #: Cards in the stock.
    stock_size: int
    #: Packs in play.
    packs: int
    seats: tuple[TwentyTwoSeat, ...]
    phase: TwentyTwoPhase
    to_act: int | None
    #: The leader of the current trick, during play.
    leader: int | None
    #: This deal's tricks, the current one last.
    tricks: tuple[Trick, ...]
    #: The final standings once the match is over (TT-23), first place first; ``None`` before.
    standings: tuple[Standing, ...] | None = None

    @classmethod
    def from_pb(cls, view: pb.TwentyTwoObservation) -> TwentyTwoView:
        """Converts the contract's ``TwentyTwoObservation``."""
        public = view.public
        seats = tuple(
            TwentyTwoSeat(
                seat=s.seat,
                score=s.score,
                penalty_pile=tuple(Card.from_pb(c) for c in s.penalty_pile),
                eliminated=s.eliminated,
                hand_size=s.hand_size,
                exchanged=s.exchanged if s.HasField("exchanged") else None,
                won=tuple(Card.from_pb(c) for c in s.won),
            )
            for s in public.seats
        )
        tricks = tuple(
            Trick(
                plays=tuple(TrickPlay(p.seat, Hand.from_pb(p.cards)) for p in t.plays),
                strongest=t.strongest,
                winner=t.winner if t.HasField("winner") else None,
            )
            for t in public.tricks
        )
        return cls(
            hand=Hand.from_pb(view.hand),
            discards=Hand.from_pb(view.discards),
            deal=public.deal,
            dealer=public.dealer,
            cards_dealt=public.cards_dealt,
            stock_size=public.stock_size,
            packs=public.packs,
            seats=seats,
            phase=TwentyTwoPhase.from_pb(public.phase),
            to_act=public.to_act if public.HasField("to_act") else None,
            leader=public.leader if public.HasField("leader") else None,
            tricks=tricks,
            standings=tuple(Standing(s.seat, s.place, s.forfeited) for s in public.standings.standings)
            if public.HasField("standings")
            else None,
        )

    @property
    def current_trick(self) -> Trick | None:
        """The trick being played (not yet won), if any."""
        if self.tricks and self.tricks[-1].winner is None:
            return self.tricks[-1]
        return None

    @property
    def active_seats(self) -> list[int]:
        """The seats not eliminated."""
        return [s.seat for s in self.seats if not s.eliminated]


# ---- Gin Rummy ----------------------------------------------------------------------------


class GinPhase(_ContractEnum):
    """The phase of a Gin Rummy match; the values are the contract's ``GinPhase``."""

    #: Not set, or a phase this SDK does not know (from a newer server).
    UNSPECIFIED = 0
    #: ``to_act`` may take the first upcard or pass (GR-5).
    FIRST_UPCARD = 1
    #: ``to_act`` draws from the stock or the discard pile (GR-6).
    DRAW = 2
    #: ``to_act`` holds 11 cards and discards, knocks or goes gin (GR-6 to GR-8).
    DISCARD = 3
    #: The wall (GR-10): ``to_act`` may take the upcard to go out, or pass.
    WALL = 4
    #: The match is over (GR-13).
    MATCH_OVER = 5


@dataclass(frozen=True, slots=True)
class GinView:
    """A Gin Rummy seat's view (GR-15, GR-16)."""

    hand: Hand
    #: The card you just drew from the stock, if any.
    drawn: Card | None
    #: Scores so far, per seat.
    scores: tuple[int, ...]
    dealer: int
    #: The current deal (a Gin Rummy hand), from 1.
    deal: int
    phase: GinPhase
    stock_size: int
    #: The discard pile, bottom first.
    discard_pile: tuple[Card, ...]
    #: Per seat, cards it is known to hold because it took them from the discard pile.
    known_cards: tuple[Hand, ...]
    #: This hand's knock limit (GR-7, GR-14).
    knock_limit: int
    to_act: int | None
    #: Hands won so far, per seat.
    hands_won: tuple[int, ...] = ()
    #: This hand's score multiplier: 2 for an Oklahoma spade, else 1 (GR-14).
    multiplier: int = 1
    #: Cards in each hand, per seat.
    hand_sizes: tuple[int, ...] = ()
    #: Times the upcard was taken this hand (GR-11).
    upcard_draws: int = 0
    #: In the draw phase: only the stock may be drawn from (both passed the first upcard, GR-5).
    stock_only: bool = False
    #: In the discard phase: the card just taken from the discard pile, if any.
    taken: Card | None = None
    #: In the discard phase: the upcard was taken at the wall, so knock or gin (GR-10).
    must_go_out: bool = False

    @classmethod
    def from_pb(cls, view: pb.GinObservation) -> GinView:
        """Converts the contract's ``GinObservation``."""
        return cls(
            hand=Hand.from_pb(view.hand),
            drawn=Card.from_pb(view.drawn) if view.HasField("drawn") else None,
            scores=tuple(view.scores),
            dealer=view.dealer,
            deal=view.deal,
            phase=GinPhase.from_pb(view.phase),
            stock_size=view.stock_size,
            discard_pile=tuple(Card.from_pb(c) for c in view.discard_pile),
            known_cards=tuple(Hand.from_pb(k.cards) for k in view.known_cards),
            knock_limit=view.knock_limit,
            to_act=view.to_act if view.HasField("to_act") else None,
            hands_won=tuple(view.hands_won),
            multiplier=view.multiplier,
            hand_sizes=tuple(view.hand_sizes),
            upcard_draws=view.upcard_draws,
            stock_only=view.stock_only,
            taken=Card.from_pb(view.taken) if view.HasField("taken") else None,
            must_go_out=view.must_go_out,
        )

    @property
    def upcard(self) -> Card | None:
        """The top of the discard pile, if any."""
        return self.discard_pile[-1] if self.discard_pile else None


# ---- Shared -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one seat may see. Exactly one of ``twenty_two`` and ``gin`` is set."""

    seat: int
    twenty_two: TwentyTwoView | None
    gin: GinView | None
    #: The engine's JSON form of the observation, parsed; empty unless the bot asked for it
    #: (``RunConfig.json``): the typed view holds every detail too.
    json: dict[str, Any]
    raw: pb.Observation = field(repr=False, compare=False)

    @classmethod
    def from_pb(cls, observation: pb.Observation) -> Observation:
        """Converts the contract's ``Observation`` (and parses its JSON)."""
        kind = observation.WhichOneof("game")
        return cls(
            seat=observation.seat,
            twenty_two=TwentyTwoView.from_pb(observation.twenty_two)
            if kind == "twenty_two"
            else None,
            gin=GinView.from_pb(observation.gin) if kind == "gin" else None,
            json=json.loads(observation.json) if observation.json else {},
            raw=observation,
        )

    @property
    def hand(self) -> Hand:
        """Your hand, in either game."""
        if self.twenty_two is not None:
            return self.twenty_two.hand
        if self.gin is not None:
            return self.gin.hand
        return Hand()


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
class Standing:
    """One seat's final place: 1 for first; tied seats share a place."""

    seat: int
    place: int
    forfeited: bool


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
