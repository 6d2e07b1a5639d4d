"""An OpenSpiel-shaped API over :mod:`cardroom.engine`, for code written against ``pyspiel``.

Integer actions are the engine's action ids (``State.num_action_ids`` documents them), players
are seats, and a terminal state's :meth:`SpielState.returns` come from the standings::

    from cardroom import spiel

    game = spiel.load_game("gin")                # or "twenty_two", players=4, options={...}
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())

There are no chance nodes: the engine deals from the seed (``is_chance_node()`` is always
false). The typed API stays reachable as :attr:`SpielState.engine`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardroom import engine
from cardroom.model import Standing

#: ``current_player()`` of a terminal state (OpenSpiel's ``pyspiel.PlayerId.TERMINAL``).
TERMINAL = -4


def returns_of(standings: Sequence[Standing], players: int) -> list[float]:
    """Each seat's return from final standings: the seats placed below it less those placed
    above it, over ``players - 1``; so 1 for a lone winner, -1 for a lone loser, 0 for a tie of
    two, and the returns sum to 0."""
    places = {standing.seat: standing.place for standing in standings}
    scale = max(players - 1, 1)
    return [
        sum((places[seat] < places[other]) - (places[seat] > places[other]) for other in places)
        / scale
        for seat in range(players)
    ]


class Game:
    """A parameterised game, a factory of :class:`SpielState` (``pyspiel.Game``'s shape)."""

    def __init__(
        self, name: str, players: int | None = None, options: dict[str, Any] | None = None
    ) -> None:
        probe = engine.new(name, players=players, seed=0, options=options)
        #: The catalogue's name: ``gin`` or ``twenty_two``.
        self.name = probe.game
        self.options = probe.options()
        self._players = probe.players
        self._actions = probe.num_action_ids
        self._tensor = probe.tensor_len

    def new_initial_state(self, seed: int | None = None) -> SpielState:
        """A new match, dealt from ``seed`` (a random one when left out)."""
        if seed is None:
            seed = random.getrandbits(63)
        return SpielState(engine.new(self.name, self._players, seed, self.options))

    def num_players(self) -> int:
        """Seats at the table."""
        return self._players

    def num_distinct_actions(self) -> int:
        """How many action ids there are."""
        return self._actions

    def observation_tensor_size(self) -> int:
        """The length of :meth:`SpielState.observation_tensor`."""
        return self._tensor

    def min_utility(self) -> float:
        """The lowest return."""
        return -1.0

    def max_utility(self) -> float:
        """The highest return."""
        return 1.0

    def __repr__(self) -> str:
        return f"spiel.Game({self.name!r}, players={self._players})"


def load_game(name: str, players: int | None = None, **options: Any) -> Game:
    """``pyspiel.load_game``'s counterpart: the game ``name`` with these rule options."""
    return Game(name, players, options or None)


class SpielState:
    """One match, with OpenSpiel's ``State`` methods over integer action ids."""

    def __init__(self, state: engine.State) -> None:
        #: The engine state, for the typed API.
        self.engine = state

    def current_player(self) -> int:
        """The seat to act, :data:`TERMINAL` once the match is over."""
        seat = self.engine.to_act()
        return TERMINAL if seat is None else seat

    def is_terminal(self) -> bool:
        """Whether the match is over."""
        return self.engine.is_over()

    def is_chance_node(self) -> bool:
        """Always false: the engine deals from the seed."""
        return False

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids, ascending; empty for a player not to act, or at the end."""
        if player is not None and player != self.engine.to_act():
            return []
        return self.engine.legal_action_ids()

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """1 for each legal action id, 0 elsewhere."""
        mask = [0] * self.engine.num_action_ids
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def apply_action(self, action: int) -> None:
        """Applies the legal action with this id (``NoSuchActionError`` if none has it)."""
        self.engine.apply_id(action)

    def action_to_string(self, player: int, action: int) -> str:
        """The action in words (``"discard 7♦"``)."""
        del player
        return str(self.engine.action_of_id(action))

    def returns(self) -> list[float]:
        """Each seat's return: 0 until the end, then from the standings (:func:`returns_of`)."""
        standings = self.engine.standings()
        if standings is None:
            return [0.0] * self.engine.players
        return returns_of(standings, self.engine.players)

    def observation_tensor(self, player: int) -> list[float]:
        """What ``player`` may see, as numbers (``engine.State.observation_tensor``)."""
        return self.engine.observation_tensor(player)

    def observation_string(self, player: int) -> str:
        """What ``player`` may see, as the engine's JSON."""
        return self.engine.observation_json(player)

    def clone(self) -> SpielState:
        """An independent copy."""
        return SpielState(self.engine.clone())

    def serialize(self) -> str:
        """The match's record (the JSON ``cardroom replay`` reads); see :func:`deserialize`."""
        return self.engine.record_json() or ""

    def __str__(self) -> str:
        return repr(self.engine)


def deserialize(record: str) -> SpielState:
    """The state a :meth:`SpielState.serialize` record replays to."""
    return SpielState(engine.from_record(record))
