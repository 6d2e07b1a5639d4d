"""Texas Hold'em in the SDK: its actions as plain values, its seat's view, and their conversions
from and to the contract (``HoldemAction``, ``HoldemObservation``). The rules are
``docs/rules/holdem.md``; the names are exported by :mod:`cardroom`."""

from __future__ import annotations

from dataclasses import dataclass

from cardroom._shared import GameModule, Standing, _ContractEnum
from cardroom.cards import Card, Hand
from cardroom.v1 import cardroom_pb2 as pb


@dataclass(frozen=True, slots=True)
class Fold:
    """Hold'em (HE-8): give up the hand; only when facing a bet."""

    def __str__(self) -> str:
        return "fold"


@dataclass(frozen=True, slots=True)
class Check:
    """Hold'em (HE-8): pass with nothing to call."""

    def __str__(self) -> str:
        return "check"


@dataclass(frozen=True, slots=True)
class Call:
    """Hold'em (HE-8): match the bet, or put in every chip when short."""

    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True, slots=True)
class RaiseTo:
    """Hold'em (HE-8 to HE-10): make the round's bet ``amount`` chips in all, counting what the
    seat put in on this round already; a round's first bet too."""

    amount: int

    def __str__(self) -> str:
        return f"raise to {self.amount}"


#: A Hold'em action.
HoldemAction = Fold | Check | Call | RaiseTo


class HoldemStreet(_ContractEnum):
    """A betting round; the values are the contract's ``HoldemStreet``."""

    #: Not set, or a round this SDK does not know.
    UNSPECIFIED = 0
    PREFLOP = 1
    FLOP = 2
    TURN = 3
    RIVER = 4


class HoldemSeatStatus(_ContractEnum):
    """Where a seat is in the hand; the values are the contract's ``HoldemSeatStatus``."""

    UNSPECIFIED = 0
    #: In the hand, with chips to bet.
    ACTIVE = 1
    #: In the hand, every chip put in.
    ALL_IN = 2
    #: Folded this hand.
    FOLDED = 3
    #: Out of the match (HE-17).
    OUT = 4


@dataclass(frozen=True, slots=True)
class HoldemSeat:
    """One seat's chips in the current hand, as everybody sees them."""

    seat: int
    #: Chips behind, not yet put in.
    stack: int
    #: Chips put in on this round.
    bet: int
    #: Chips put in this hand (HE-14).
    committed: int
    status: HoldemSeatStatus

    @property
    def in_hand(self) -> bool:
        """Whether it may still win chips in this hand."""
        return self.status in (HoldemSeatStatus.ACTIVE, HoldemSeatStatus.ALL_IN)


@dataclass(frozen=True, slots=True)
class HoldemView:
    """A Hold'em seat's view (HE-6: only the hole cards are private)."""

    #: Your two hole cards (none once you are out).
    hole_cards: Hand
    #: The board cards turned so far, flop first.
    board: tuple[Card, ...]
    #: The current hand, from 1.
    hand_number: int
    button: int
    street: HoldemStreet
    seats: tuple[HoldemSeat, ...]
    #: The round's bet: the most any seat has put in on this round.
    bet: int
    #: The smallest full raise's increment (HE-9).
    raise_by: int
    to_act: int | None
    #: Every chip put in this hand.
    pot: int
    #: The final standings once the match is over, first place first; ``None`` before.
    standings: tuple[Standing, ...] | None = None
    #: With the option ``score`` "all_in_adjusted": each seat's chips won so far less its luck
    #: in its all-ins, to the nearest chip, which the standings rank (HE-21); empty otherwise.
    adjusted: tuple[int, ...] = ()

    @property
    def hand(self) -> Hand:
        """Your hole cards (every game's view has a ``hand``)."""
        return self.hole_cards

    def to_call(self, seat: int) -> int:
        """The chips ``seat`` needs to put in to match the bet (before any all-in cap)."""
        return max(0, self.bet - self.seats[seat].bet)

    @classmethod
    def from_pb(cls, view: pb.HoldemObservation) -> HoldemView:
        """Converts the contract's ``HoldemObservation``."""
        public = view.public
        seats = tuple(
            HoldemSeat(
                seat=i,
                stack=s.stack,
                bet=s.bet,
                committed=s.committed,
                status=HoldemSeatStatus.from_pb(s.status),
            )
            for i, s in enumerate(public.seats)
        )
        return cls(
            hole_cards=Hand.from_pb(view.hole_cards),
            board=tuple(Card.from_pb(c) for c in public.board),
            hand_number=public.hand_number,
            button=public.button,
            street=HoldemStreet.from_pb(public.street),
            seats=seats,
            bet=public.bet,
            raise_by=public.raise_by,
            to_act=public.to_act if public.HasField("to_act") else None,
            pot=public.pot,
            standings=tuple(
                Standing(s.seat, s.place, s.forfeited) for s in public.outcome.standings
            )
            if public.HasField("outcome")
            else None,
            adjusted=tuple(public.adjusted),
        )


def _action_from_pb(action: pb.Action) -> HoldemAction | None:
    if action.WhichOneof("game") != "holdem":
        return None
    kind = action.holdem.WhichOneof("action")
    if kind == "fold":
        return Fold()
    if kind == "check":
        return Check()
    if kind == "call":
        return Call()
    if kind == "raise_to":
        return RaiseTo(action.holdem.raise_to)
    return None


def _action_to_pb(action: object) -> pb.Action | None:
    empty = pb.HoldemAction.Empty()
    match action:
        case Fold():
            return pb.Action(holdem=pb.HoldemAction(fold=empty))
        case Check():
            return pb.Action(holdem=pb.HoldemAction(check=empty))
        case Call():
            return pb.Action(holdem=pb.HoldemAction(call=empty))
        case RaiseTo(amount):
            return pb.Action(holdem=pb.HoldemAction(raise_to=amount))
    return None


def _view_from_pb(observation: pb.Observation) -> HoldemView | None:
    if observation.WhichOneof("game") != "holdem":
        return None
    return HoldemView.from_pb(observation.holdem)


#: Hold'em in the registry (:mod:`cardroom.games`).
GAME: GameModule[HoldemAction, HoldemView] = GameModule(
    name="holdem",
    number=pb.GAME_HOLDEM,
    aliases=("texas_holdem", "nlhe", "game_holdem"),
    action_from_pb=_action_from_pb,
    action_to_pb=_action_to_pb,
    view_from_pb=_view_from_pb,
)
