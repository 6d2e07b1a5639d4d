"""Gin Rummy in the SDK: its actions as plain values, its seat's view, and their conversions
from and to the contract (``GinAction``, ``GinObservation``). The rules are
``docs/rules/gin-rummy.md``; the names are exported by :mod:`cardroom`."""

from __future__ import annotations

from dataclasses import dataclass

from cardroom._shared import GameModule, _ContractEnum
from cardroom.cards import Card, Hand
from cardroom.v1 import cardroom_pb2 as pb


@dataclass(frozen=True, slots=True)
class TakeUpcard:
    """Gin Rummy (GR-5): take the first upcard."""

    def __str__(self) -> str:
        return "take the upcard"


@dataclass(frozen=True, slots=True)
class PassUpcard:
    """Gin Rummy (GR-5, GR-10): pass the first upcard, or decline it at the wall."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Gin Rummy (GR-6): draw the top of the stock."""

    def __str__(self) -> str:
        return "draw from the stock"


@dataclass(frozen=True, slots=True)
class DrawDiscard:
    """Gin Rummy (GR-6): take the top of the discard pile."""

    def __str__(self) -> str:
        return "take the discard"


@dataclass(frozen=True, slots=True)
class Discard:
    """Gin Rummy (GR-6): discard this card face up."""

    card: Card

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Knock:
    """Gin Rummy (GR-7): knock, discarding ``discard`` face down and laying ``melds``.

    Cards of the hand in no meld are deadwood.
    """

    discard: Card
    melds: tuple[Hand, ...]

    def __str__(self) -> str:
        melds = ", ".join(str(meld) for meld in self.melds)
        return f"knock, discarding {self.discard}: {melds}"


@dataclass(frozen=True, slots=True)
class Gin:
    """Gin Rummy (GR-8): go gin, discarding this card face down."""

    discard: Card

    def __str__(self) -> str:
        return f"gin, discarding {self.discard}"


@dataclass(frozen=True, slots=True)
class BigGin:
    """Gin Rummy (GR-8, option ``big_gin``): go big gin with all eleven cards."""

    def __str__(self) -> str:
        return "big gin"


#: A Gin Rummy action.
GinAction = TakeUpcard | PassUpcard | DrawStock | DrawDiscard | Discard | Knock | Gin | BigGin

#: Gin Rummy actions that end a hand: a knock, gin or big gin.
GOING_OUT = (Knock, Gin, BigGin)


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


def _action_from_pb(action: pb.Action) -> GinAction | None:
    if action.WhichOneof("game") != "gin":
        return None
    gin = action.gin
    kind = gin.WhichOneof("action")
    if kind == "take_upcard":
        return TakeUpcard()
    if kind == "pass_upcard":
        return PassUpcard()
    if kind == "draw_stock":
        return DrawStock()
    if kind == "draw_discard":
        return DrawDiscard()
    if kind == "discard":
        return Discard(Card.from_pb(gin.discard))
    if kind == "knock":
        melds = tuple(Hand.from_pb(meld.cards) for meld in gin.knock.melds)
        return Knock(Card.from_pb(gin.knock.discard), melds)
    if kind == "gin":
        return Gin(Card.from_pb(gin.gin))
    if kind == "big_gin":
        return BigGin()
    return None


def _action_to_pb(action: object) -> pb.Action | None:
    empty = pb.GinAction.Empty()
    match action:
        case TakeUpcard():
            return pb.Action(gin=pb.GinAction(take_upcard=empty))
        case PassUpcard():
            return pb.Action(gin=pb.GinAction(pass_upcard=empty))
        case DrawStock():
            return pb.Action(gin=pb.GinAction(draw_stock=empty))
        case DrawDiscard():
            return pb.Action(gin=pb.GinAction(draw_discard=empty))
        case Discard(card):
            return pb.Action(gin=pb.GinAction(discard=card.to_pb()))
        case Knock(discard, melds):
            knock = pb.GinAction.Knock(
                discard=discard.to_pb(), melds=[meld.to_pb() for meld in melds]
            )
            return pb.Action(gin=pb.GinAction(knock=knock))
        case Gin(card):
            return pb.Action(gin=pb.GinAction(gin=card.to_pb()))
        case BigGin():
            return pb.Action(gin=pb.GinAction(big_gin=empty))
    return None


def _view_from_pb(observation: pb.Observation) -> GinView | None:
    if observation.WhichOneof("game") != "gin":
        return None
    return GinView.from_pb(observation.gin)


#: Gin Rummy in the registry (:mod:`cardroom.games`).
GAME: GameModule[GinAction, GinView] = GameModule(
    name="gin",
    number=pb.GAME_GIN_RUMMY,
    aliases=("gin_rummy", "game_gin_rummy"),
    action_from_pb=_action_from_pb,
    action_to_pb=_action_to_pb,
    view_from_pb=_view_from_pb,
)
