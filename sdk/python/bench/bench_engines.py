#!/usr/bin/env python3
"""Side-by-side speed of Gin Rummy from Python: cardroom's bindings (cardroom.engine), OpenSpiel's
gin_rummy (pyspiel) and RLCard's gin-rummy, all playing uniformly random legal actions; then
Twenty-Two decisions per second and the cost of one determinized sample (BENCHMARKS.md,
"The engines from Python").

    python sdk/python/bench/bench_engines.py --seconds 5

pyspiel (``pip install open_spiel==1.6``) and RLCard (``pip install rlcard``) are optional:
a library that is not installed is reported as such and skipped. A hand is one Gin Rummy deal
played to its end (a knock, gin, or the wall): OpenSpiel's and RLCard's games are one hand,
cardroom's a match of hands, of which every hand ended is counted.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from cardroom import engine


def rate(run: Callable[[], int], seconds: float) -> tuple[float, int]:
    """Calls ``run`` (which returns how many units it did) until ``seconds`` pass; returns
    units per second and the units done."""
    done = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += run()
    return done / elapsed, done


def cardroom_gin_hands(typed: bool) -> Callable[[], int]:
    """One random Gin Rummy hand with cardroom: the SDK's typed actions
    (``legal_actions`` + ``apply``), or the index fast path (``apply_index``)."""
    rng = random.Random(1)
    seeds = iter(range(1 << 62))
    state = engine.new("gin", seed=next(seeds))

    def hand() -> int:
        nonlocal state
        if state.is_over():
            state = engine.new("gin", seed=next(seeds))
        number = state.deal_number()
        while (seat := state.to_act()) is not None and state.deal_number() == number:
            if typed:
                state.apply(seat, rng.choice(state.legal_actions()))
            else:
                state.apply_index(rng.randrange(state.num_legal_actions()))
        return 1

    return hand


def pyspiel_gin_hands() -> Callable[[], int]:
    """One random hand of OpenSpiel's gin_rummy (chance nodes sampled by their odds)."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(1)

    def hand() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, odds = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, odds)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return 1

    return hand


def rlcard_gin_hands() -> Callable[[], int]:
    """One random hand of RLCard's gin-rummy with its RandomAgents."""
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("gin-rummy", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def hand() -> int:
        env.run(is_training=False)
        return 1

    return hand


def twenty_two_decisions(players: int, typed: bool) -> Callable[[], int]:
    """One random Twenty-Two match of ``players``; returns its decisions (typed actions, or the
    index fast path)."""
    rng = random.Random(2)
    seeds = iter(range(1 << 62))

    def match() -> int:
        state = engine.new("twenty_two", players=players, seed=next(seeds))
        decisions = 0
        while (seat := state.to_act()) is not None:
            if typed:
                state.apply(seat, rng.choice(state.legal_actions()))
            else:
                state.apply_index(rng.randrange(state.num_legal_actions()))
            decisions += 1
        return decisions

    return match


def mid_game(game: str, players: int, actions: int) -> engine.State:
    """A state ``actions`` random actions into a match."""
    rng = random.Random(3)
    state = engine.new(game, players=players, seed=3)
    for _ in range(actions):
        seat = state.to_act()
        if seat is None:
            break
        state.apply(seat, rng.choice(state.legal_actions()))
    return state


def sampling(game: str, players: int, from_json: bool) -> Callable[[], int]:
    """Determinized samples of a mid-hand observation: from the observation's JSON values (what
    a live bot holds: ``engine.sample(turn.observation, seed)``) or in process
    (``State.sample``)."""
    state = mid_game(game, players, 15)
    seat = state.to_act()
    assert seat is not None
    observation = state.observation(seat)
    seeds = iter(range(1 << 62))

    def one() -> int:
        if from_json:
            engine.sample(observation, next(seeds))
        else:
            state.sample(seat, next(seeds))
        return 1

    return one


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    seconds = parser.parse_args().seconds
    rows: list[tuple[str, str]] = []

    def measure(label: str, make: Callable[[], Callable[[], int]], unit: str) -> None:
        try:
            run = make()
        except ImportError as error:
            rows.append((label, f"not installed ({error.name})"))
            return
        per_second, done = rate(run, seconds)
        if unit == "µs":
            rows.append((label, f"{1e6 / per_second:.1f} µs ({done} samples)"))
        else:
            rows.append((label, f"{per_second:,.0f} {unit}/s ({done} {unit})"))
        print(f"{label}: {rows[-1][1]}", flush=True)

    measure("Gin, cardroom.engine, typed actions", lambda: cardroom_gin_hands(True), "hands")
    measure("Gin, cardroom.engine, apply_index", lambda: cardroom_gin_hands(False), "hands")
    measure("Gin, pyspiel gin_rummy (open_spiel 1.6)", pyspiel_gin_hands, "hands")
    measure("Gin, RLCard gin-rummy", rlcard_gin_hands, "hands")
    measure(
        "Twenty-Two, 4 players, typed actions", lambda: twenty_two_decisions(4, True), "decisions"
    )
    measure(
        "Twenty-Two, 4 players, apply_index", lambda: twenty_two_decisions(4, False), "decisions"
    )
    measure("Gin sample, from the observation's JSON", lambda: sampling("gin", 2, True), "µs")
    measure("Gin sample, State.sample", lambda: sampling("gin", 2, False), "µs")
    measure("Twenty-Two sample, 4 players, from JSON", lambda: sampling("twenty_two", 4, True), "µs")
    measure("Twenty-Two sample, 4 players, State.sample", lambda: sampling("twenty_two", 4, False), "µs")
    print()
    print("| measurement | result |")
    print("| --- | --- |")
    for label, result in rows:
        print(f"| {label} | {result} |")


if __name__ == "__main__":
    main()
