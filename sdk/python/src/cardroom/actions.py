"""Actions of both games as plain Python values, and their conversion to and from the contract.

A bot usually answers a turn with the ``index`` of one of its :class:`LegalAction`\\ s; it may
also build an action by value (``Play(Hand.parse("7S 7D"))``) and return it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from cardroom.cards import Card, Hand
from cardroom.v1 import cardroom_pb2 as pb


@dataclass(frozen=True, slots=True)
class Exchange:
    """Twenty-Two (TT-9): discard these cards face down (none is allowed) and draw as many."""

    cards: Hand = field(default_factory=Hand)

    def __str__(self) -> str:
        return f"exchange {self.cards}" if self.cards else "exchange nothing"


@dataclass(frozen=True, slots=True)
class Play:
    """Twenty-Two (TT-11, TT-12): lead or follow with these cards."""

    cards: Hand

    def __str__(self) -> str:
        return f"play {self.cards}"


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


#: A Twenty-Two action.
TwentyTwoAction = Exchange | Play
#: A Gin Rummy action.
GinAction = TakeUpcard | PassUpcard | DrawStock | DrawDiscard | Discard | Knock | Gin | BigGin
#: An action of either game.
Action = TwentyTwoAction | GinAction

#: Gin Rummy actions that end a hand: a knock, gin or big gin.
GOING_OUT = (Knock, Gin, BigGin)


def action_from_pb(action: pb.Action) -> Action:
    """Converts the contract's ``Action``; raises ``ValueError`` when it is empty."""
    game = action.WhichOneof("game")
    if game == "twenty_two":
        tt = action.twenty_two
        kind = tt.WhichOneof("action")
        if kind == "exchange":
            return Exchange(Hand.from_pb(tt.exchange.cards))
        if kind == "play":
            return Play(Hand.from_pb(tt.play.cards))
    elif game == "gin":
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
    raise ValueError(f"not an action: {action}")


def action_to_pb(action: Action) -> pb.Action:
    """The contract's ``Action`` for ``action``."""
    empty = pb.GinAction.Empty()
    match action:
        case Exchange(cards):
            return pb.Action(twenty_two=pb.TwentyTwoAction(exchange=cards.to_pb()))
        case Play(cards):
            return pb.Action(twenty_two=pb.TwentyTwoAction(play=cards.to_pb()))
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
    raise TypeError(f"not an action: {action!r}")


def melds_of(hands: Iterable[Iterable[Card]]) -> tuple[Hand, ...]:
    """Builds a knock's melds from lists of cards."""
    return tuple(Hand(cards) for cards in hands)
