"""cardroom: write a bot for the cardroom game server in Python.

Subclass :class:`Bot`, write :meth:`Bot.choose`, and hand the bot to :func:`run` (or
:func:`main` in a script)::

    import cardroom

    class Lowest(cardroom.Bot):
        name = "lowest"

        def choose(self, turn: cardroom.Turn) -> int:
            return 0  # the first legal action: always the cautious one

    if __name__ == "__main__":
        raise SystemExit(cardroom.main(Lowest()))

The generated protobuf and gRPC modules are :mod:`cardroom.v1.cardroom_pb2` and
:mod:`cardroom.v1.cardroom_pb2_grpc`.
"""

from cardroom.actions import (
    GOING_OUT,
    Action,
    BigGin,
    Discard,
    DrawDiscard,
    DrawStock,
    Exchange,
    Gin,
    GinAction,
    Knock,
    PassUpcard,
    Play,
    TakeUpcard,
    TwentyTwoAction,
    action_from_pb,
    action_to_pb,
)
from cardroom.bot import Bot
from cardroom.cards import Card, Hand, Rank, Suit
from cardroom.model import (
    ActError,
    ErrorCode,
    Event,
    Game,
    GinPhase,
    GinView,
    LegalAction,
    MatchInfo,
    MatchResult,
    Observation,
    Standing,
    Trick,
    TrickPlay,
    Turn,
    TwentyTwoPhase,
    TwentyTwoSeat,
    TwentyTwoView,
)
from cardroom.runner import (
    CardroomError,
    Refused,
    RunConfig,
    SeatLost,
    Unreachable,
    main,
    run,
    run_many,
)

__all__ = [
    "GOING_OUT",
    "ActError",
    "Action",
    "BigGin",
    "Bot",
    "Card",
    "CardroomError",
    "Discard",
    "DrawDiscard",
    "DrawStock",
    "ErrorCode",
    "Event",
    "Exchange",
    "Game",
    "Gin",
    "GinAction",
    "GinPhase",
    "GinView",
    "Hand",
    "Knock",
    "LegalAction",
    "MatchInfo",
    "MatchResult",
    "Observation",
    "PassUpcard",
    "Play",
    "Rank",
    "Refused",
    "RunConfig",
    "SeatLost",
    "Standing",
    "Suit",
    "TakeUpcard",
    "Trick",
    "TrickPlay",
    "Turn",
    "TwentyTwoAction",
    "TwentyTwoPhase",
    "TwentyTwoSeat",
    "TwentyTwoView",
    "Unreachable",
    "action_from_pb",
    "action_to_pb",
    "main",
    "run",
    "run_many",
]
