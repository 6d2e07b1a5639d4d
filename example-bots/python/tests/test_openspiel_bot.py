"""The OpenSpiel adapter (``openspiel_bot.py``): its card numbering against pyspiel's own, the
placement of the opponent's hidden cards, and whole matches on a real server against the Python
heuristic, with every decision the simple bot's (none falls back).

Needs ``open_spiel`` in the interpreter (``.ci/run`` installs it) and the server binary, like the
SDK's suite, whose fixtures these tests use.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pyspiel  # type: ignore[import-not-found,unused-ignore]
import pytest

import cardroom

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "sdk" / "python" / "tests"))
sys.path.insert(0, str(REPO / "example-bots" / "python"))

from conftest import Server, play_all, server  # noqa: E402, F401
from helpers import load_example  # noqa: E402

import openspiel_bot  # noqa: E402
from openspiel_bot import OPENSPIEL_OPTIONS, ReplayError, cardroom_card, openspiel_card  # noqa: E402


def test_cards_are_numbered_as_openspiel_names_them() -> None:
    state = pyspiel.load_game("gin_rummy").new_initial_state()
    for number in range(52):
        name = str(state.action_to_string(-1, number)).rsplit(" ", 1)[-1]  # "Chance outcome: Ts"
        card = cardroom_card(number)
        assert openspiel_card(card) == number
        assert card == cardroom.Card.parse(name), (number, name)


def test_a_hidden_discard_goes_into_the_deal_or_an_earlier_stock_draw() -> None:
    ten, jack, queen, king = 9, 10, 11, 12  # spades
    moves: list[tuple[str, int | None]] = [
        ("discard", king),  # from the deal
        ("stock", None),
        ("took", jack),
        ("discard", jack),  # the card it took: not hidden
        ("stock", None),
        ("discard", queen),
    ]
    deal, draws = openspiel_bot.place_hidden_cards(moves, 2, unseen=[20, 21, 30])
    assert deal == [king, queen] and draws == [20, 21]
    # With a deal of one card, the queen must be the first stock draw's card.
    deal, draws = openspiel_bot.place_hidden_cards(moves, 1, unseen=[20, 21, 30])
    assert deal == [king] and draws == [queen, 20]
    # Two hidden discards before any draw cannot come from a deal of one card.
    with pytest.raises(ReplayError):
        openspiel_bot.place_hidden_cards([("discard", king), ("discard", queen)], 1, [20])
    assert ten not in deal


class Watched(openspiel_bot.OpenSpielSimpleBot):
    """The adapter, counting its decisions and the server's refusals."""

    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0
        self.errors: list[cardroom.ActError] = []

    def choose(self, turn: cardroom.Turn) -> int | cardroom.Action:
        self.decisions += 1
        return super().choose(turn)

    def on_error(self, error: cardroom.ActError) -> None:
        self.errors.append(error)


@pytest.mark.parametrize("seed", [3, 4])
def test_the_adapter_plays_a_match_with_openspiels_bot_deciding_every_turn(
    server: Server,  # noqa: F811
    seed: int,
) -> None:
    gin_bot = load_example("gin_bot")
    options = {**OPENSPIEL_OPTIONS, "target": 60}
    created = server.create(cardroom.Game.GIN_RUMMY, 2, seed, options)
    adapter = Watched()
    bots: list[cardroom.Bot] = [adapter, gin_bot.GinBot()]
    results = play_all(
        [
            lambda bot=bot, token=seat.token: cardroom.run(  # type: ignore[misc]
                bot, server=server.address, token=token
            )
            for bot, seat in zip(bots, created.seats, strict=True)
        ]
    )
    assert all(not result.aborted for result in results)
    assert server.match_info(created.match_id).over
    assert adapter.decisions > 20
    assert adapter.fallbacks == 0 and adapter.decided == adapter.decisions, (
        "every decision was the simple bot's"
    )
    assert adapter.errors == [], "the server refused none of its answers"
