"""Twenty-Two in the SDK: its actions as plain values, its seat's view, and their conversions
from and to the contract (``TwentyTwoAction``, ``TwentyTwoObservation``). The rules are
``docs/rules/twenty-two.md``; the names are exported by :mod:`cardroom`."""

from __future__ import annotations

from dataclasses import dataclass, field

from cardroom._shared import GameModule, Standing, _ContractEnum
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


#: A Twenty-Two action.
TwentyTwoAction = Exchange | Play


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


def _action_from_pb(action: pb.Action) -> TwentyTwoAction | None:
    if action.WhichOneof("game") != "twenty_two":
        return None
    tt = action.twenty_two
    kind = tt.WhichOneof("action")
    if kind == "exchange":
        return Exchange(Hand.from_pb(tt.exchange.cards))
    if kind == "play":
        return Play(Hand.from_pb(tt.play.cards))
    return None


def _action_to_pb(action: object) -> pb.Action | None:
    match action:
        case Exchange(cards):
            return pb.Action(twenty_two=pb.TwentyTwoAction(exchange=cards.to_pb()))
        case Play(cards):
            return pb.Action(twenty_two=pb.TwentyTwoAction(play=cards.to_pb()))
    return None


def _view_from_pb(observation: pb.Observation) -> TwentyTwoView | None:
    if observation.WhichOneof("game") != "twenty_two":
        return None
    return TwentyTwoView.from_pb(observation.twenty_two)


#: Twenty-Two in the registry (:mod:`cardroom.games`).
GAME: GameModule[TwentyTwoAction, TwentyTwoView] = GameModule(
    name="twenty_two",
    number=pb.GAME_TWENTY_TWO,
    aliases=("22", "tt", "game_twenty_two"),
    action_from_pb=_action_from_pb,
    action_to_pb=_action_to_pb,
    view_from_pb=_view_from_pb,
)
