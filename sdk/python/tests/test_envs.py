"""The PettingZoo environments pass PettingZoo's own ``api_test``, and the OpenSpiel-shaped
API plays whole matches with returns from the standings."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test

from cardroom import Hand, Knock, TakeUpcard, engine, spiel
from cardroom.envs import CardroomEnv, gin_env, holdem_env, twenty_two_env


@pytest.mark.parametrize(
    "make",
    [
        lambda: gin_env(options={"target": 10}),
        lambda: twenty_two_env(players=3),
        lambda: holdem_env(players=4, options={"hands": 5}),
    ],
    ids=["gin", "twenty_two", "holdem"],
)
def test_the_environments_pass_pettingzoos_api_test(make: object) -> None:
    assert callable(make)
    env = make()
    assert isinstance(env, CardroomEnv)
    api_test(env, num_cycles=300)


def test_an_episode_is_a_whole_match_with_masked_actions_and_zero_sum_rewards() -> None:
    env = twenty_two_env(players=3, options={"limit": 11})
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter(max_iter=20_000):
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        mask = observation["action_mask"]
        space = env.observation_space(agent)
        assert isinstance(space, spaces.Dict)
        assert observation["observation"].shape == space["observation"].shape
        legal = np.flatnonzero(mask)
        # The mask holds one id per legal action (Twenty-Two numbers them by list position).
        assert len(legal) == len(info["legal_actions"])
        env.step(int(rng.choice(legal)))
        steps += 1
    assert env.agents == [] and steps > 0
    assert env.state.is_over()
    assert sum(totals.values()) == pytest.approx(0.0)
    assert max(totals.values()) > 0


def test_the_openspiel_shaped_api_plays_to_returns() -> None:
    game = spiel.load_game("gin", target=10)
    assert game.num_players() == 2 and game.num_distinct_actions() == 161
    state = game.new_initial_state(seed=4)
    rng = np.random.default_rng(4)
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        assert legal == sorted(legal) and state.legal_actions(1 - player) == []
        assert sum(state.legal_actions_mask()) == len(legal)
        assert len(state.observation_tensor(player)) == game.observation_tensor_size()
        # Go out when an id of a knock or gin (56 and up) is legal, so the match is short.
        out = [action for action in legal if action >= 56]
        state.apply_action(int(rng.choice(out or legal)))
    assert state.current_player() == spiel.TERMINAL
    assert sorted(state.returns()) == [-1.0, 1.0]
    again = spiel.deserialize(state.serialize())
    assert again.returns() == state.returns()
    with pytest.raises(engine.NoSuchActionError):
        state.apply_action(2)


def deadwood_left(hand: Hand, knock: Knock) -> int:
    """The deadwood a knock leaves in ``hand`` (GR-7)."""
    melded = {card for meld in knock.melds for card in meld}
    return sum(card.rank.gin_value for card in hand if card not in melded and card != knock.discard)


def test_a_gin_knock_id_lays_the_arrangement_of_least_deadwood() -> None:
    pack = [f"{rank}{suit}" for rank in "A23456789TJQK" for suit in "CDHS"]
    hand = ["AS", "2S", "3S", "4C", "4D", "4H", "7D", "8D", "9D", "2C"]
    rest = [card for card in pack if card not in hand and card != "3C"]
    setup = {"dealer": 0, "hands": [rest[:10], hand], "discard_pile": ["3C"], "stock": rest[10:]}
    state = engine.from_setup("gin", setup)
    state.apply(1, TakeUpcard())
    held = state.hand(1)
    knocks = [action for action in state.legal_actions() if isinstance(action, Knock)]
    knock_ids = [i for i in state.legal_action_ids() if 56 <= i < 108]
    assert knock_ids and len(knocks) > len(knock_ids), "several arrangements per discard"
    for action_id in knock_ids:
        knock = state.action_of_id(action_id)
        assert isinstance(knock, Knock)
        same_discard = [k for k in knocks if k.discard == knock.discard]
        assert deadwood_left(held, knock) == min(deadwood_left(held, k) for k in same_discard)
