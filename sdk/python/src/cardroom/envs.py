"""PettingZoo AEC environments of cardroom's games over :mod:`cardroom.engine` (``pip install
'cardroom[envs]'``)::

    from cardroom.envs import gin_env

    env = gin_env(options={"target": 50})
    env.reset(seed=7)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = int(env.action_space(agent).sample(mask))
        env.step(action)

An episode is one match. Agents are ``player_0`` … (seat numbers). Each observation is a dict
of ``observation``, the seat's ``observation_tensor`` (float32), and ``action_mask`` (int8,
1 for each legal action id); actions are the engine's action ids (``State.num_action_ids``).
Rewards are 0 until the match ends, then each seat's return (:func:`cardroom.spiel.returns_of`:
1 for a lone winner, -1 for a lone loser). ``info["legal_actions"]`` holds the SDK's action
values of the agent to act, and ``env.state`` the engine state.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from cardroom import engine
from cardroom.spiel import returns_of

#: An agent's observation: the tensor and the action mask.
Observation = dict[str, npt.NDArray[Any]]


class CardroomEnv(AECEnv[str, Observation, int | None]):  # type: ignore[misc]
    """One game of cardroom as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi"],
        "name": "cardroom_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self._game = game
        self._options = options
        probe = engine.new(game, players=players, seed=0, options=options)
        self._players = probe.players
        self.metadata = {**self.metadata, "name": f"cardroom_{probe.game}_v0"}
        #: The match under way.
        self.state = probe
        self.possible_agents = [f"player_{seat}" for seat in range(probe.players)]
        self.agents = self.possible_agents[:]
        self._action_space = spaces.Discrete(probe.num_action_ids)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=(probe.tensor_len,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(probe.num_action_ids,), dtype=np.int8),
            }
        )
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Dict`` space for every agent."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(num_action_ids)`` for every agent."""
        return self._action_space

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> Observation:
        """The agent's tensor, and its action mask (all zero unless it is to act)."""
        seat = self._seat(agent)
        mask = np.zeros(self.state.num_action_ids, dtype=np.int8)
        if self.state.to_act() == seat:
            mask[self.state.legal_action_ids()] = 1
        tensor = np.asarray(self.state.observation_tensor(seat), dtype=np.float32)
        return {"observation": tensor, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deals a new match: from ``seed``, else from the environment's generator."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        match_seed = int(self._rng.integers(0, 2**63 - 1))
        self.state = engine.new(self._game, self._players, match_seed, self._options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.state.to_act()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
            self.infos[self.agent_selection] = {"legal_actions": self.state.legal_actions()}

    def step(self, action: int | None) -> None:
        """Applies the action id for the agent to act (``None`` for a finished agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: give an action id, not None")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_id(int(action))
        self.infos[agent] = {}
        self.rewards = dict.fromkeys(self.agents, 0.0)
        standings = self.state.standings()
        if standings is not None:
            returns = returns_of(standings, self._players)
            for seat, value in enumerate(returns):
                self.rewards[self.possible_agents[seat]] = value
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The public view as JSON text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi'")
            return None
        return repr(self.state) + "\n" + str(self.state.public_view())

    def close(self) -> None:
        """Nothing to release."""


def gin_env(options: dict[str, Any] | None = None, render_mode: str | None = None) -> CardroomEnv:
    """Gin Rummy for two (``options``: the game's rule options, such as ``{"target": 50}``)."""
    return CardroomEnv("gin", 2, options, render_mode)


def twenty_two_env(
    players: int = 2, options: dict[str, Any] | None = None, render_mode: str | None = None
) -> CardroomEnv:
    """Twenty-Two for ``players`` (2 to 12)."""
    return CardroomEnv("twenty_two", players, options, render_mode)


def holdem_env(
    players: int = 2, options: dict[str, Any] | None = None, render_mode: str | None = None
) -> CardroomEnv:
    """Texas Hold'em for ``players`` (2 to 10; ``options`` such as ``{"stack": 100}``). The
    actions are seven ids: fold, check or call, and the smallest raise, half the pot, the pot,
    twice the pot and all in (each the nearest legal size)."""
    return CardroomEnv("holdem", players, options, render_mode)
