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

from cardroom import games
from cardroom.actions import action_from_pb, action_to_pb
from cardroom.bot import Bot
from cardroom.cards import Card, Hand, Rank, Suit
from cardroom.games import *  # every game's actions and view, Action, Game, Observation
from cardroom.model import (
    ActError,
    ErrorCode,
    Event,
    LegalAction,
    MatchInfo,
    MatchResult,
    Reply,
    Standing,
    Turn,
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
    "ActError",
    "Bot",
    "Card",
    "CardroomError",
    "ErrorCode",
    "Event",
    "Hand",
    "LegalAction",
    "MatchInfo",
    "MatchResult",
    "Rank",
    "Refused",
    "Reply",
    "RunConfig",
    "SeatLost",
    "Standing",
    "Suit",
    "Turn",
    "Unreachable",
    "action_from_pb",
    "action_to_pb",
    "main",
    "run",
    "run_many",
]
__all__ += games.__all__
