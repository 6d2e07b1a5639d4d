#!/usr/bin/env python3
"""OpenSpiel's C++ gin_rummy, timed for BENCHMARKS.md (the peer to the `gin` criterion benches).

Setup (once):
    python3 -m venv .venv && .venv/bin/pip install open-spiel
Run:
    .venv/bin/python games/benches/openspiel_gin.py            # about a minute
    .venv/bin/python games/benches/openspiel_gin.py --quick    # a few seconds

What it measures (OpenSpiel's defaults: knock card 10, gin bonus 25, undercut bonus 25):

1. Random play of whole hands driven from Python: `new_initial_state`, then uniformly random
   chance outcomes and legal actions until the hand is terminal. An OpenSpiel gin_rummy game is
   one hand. This includes Python's per-action overhead, so it is an upper bound on the C++ cost;
   the script also reports the same loop on a trivial game to show that overhead.
2. `pyspiel.random_sim_test` (pure C++ random playouts, but with OpenSpiel's per-step state checks).
3. The solver, through the pybind11 bindings of `GinRummyUtils`: `min_deadwood` on random 10- and
   11-card hands (for 11 cards OpenSpiel's shortcut, not the minimum over every discard; see GR-3),
   minus the cost of a trivial binding call with the same argument (`total_card_value`).

Every timing is the best of 3 runs, per item, on one core.
"""

import argparse
import platform
import random
import time

import pyspiel


def best_of(runs, fn):
    return min(fn() for _ in range(runs))


def random_hands(game, n, rng):
    """Plays n random hands; returns (seconds per hand, actions per hand)."""
    actions = 0
    start = time.perf_counter()
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
            actions += 1
    elapsed = time.perf_counter() - start
    return elapsed / n, actions / n


def python_overhead_per_action(n, rng):
    """The same loop on tic-tac-toe: Python's cost per action, with almost no game logic."""
    game = pyspiel.load_game("tic_tac_toe")
    actions = 0
    start = time.perf_counter()
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    return (time.perf_counter() - start) / actions


def solver(utils, size, n, rng):
    """Seconds per min_deadwood call on random hands, and per trivial call with the same list."""
    hands = [rng.sample(range(52), size) for _ in range(n)]

    def timed(fn):
        start = time.perf_counter()
        for hand in hands:
            fn(hand)
        return (time.perf_counter() - start) / n

    call = best_of(3, lambda: timed(utils.min_deadwood))
    baseline = best_of(3, lambda: timed(utils.total_card_value))
    return call, baseline


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    rng = random.Random(2024)
    game = pyspiel.load_game("gin_rummy")
    print(f"open_spiel (pyspiel) on Python {platform.python_version()}, {platform.machine()}")
    print(f"game parameters: {game.get_parameters()}")

    hands = 2000 // scale
    results = [random_hands(game, hands, rng) for _ in range(3)]
    per_hand, per_action_count = min(results)
    overhead = best_of(3, lambda: python_overhead_per_action(20000 // scale, rng))
    print(f"random hand (Python loop):   {per_hand * 1e6:10.1f} µs/hand, "
          f"{per_action_count:.1f} actions/hand (chance included)")
    print(f"  Python loop overhead:      {overhead * 1e6:10.2f} µs/action "
          f"(tic-tac-toe); estimated C++ share "
          f"{(per_hand - overhead * per_action_count) * 1e6:.1f} µs/hand")

    sims = 100 // scale
    start = time.perf_counter()
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)
    print(f"random_sim_test (C++, checks): {(time.perf_counter() - start) / sims * 1e6:8.1f} µs/hand")

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    for size in (10, 11):
        call, baseline = solver(utils, size, 20000 // scale, rng)
        print(f"min_deadwood, {size} cards:      {call * 1e6:8.3f} µs/call through pybind11, "
              f"{baseline * 1e6:.3f} µs for a trivial call; net {(call - baseline) * 1e6:.3f} µs")

    # GR-3's example, where OpenSpiel's 11-card shortcut is wrong (the minimum is 9).
    hand = utils.card_strings_to_card_ints(
        ["3c", "Ah", "3s", "6d", "6h", "5h", "4c", "4d", "6c", "5c", "5d"])
    print(f"GR-3 example 3C AH 3S 6D 6H 5H 4C 4D 6C 5C 5D: OpenSpiel says {utils.min_deadwood(hand)} "
          f"(exact: 9)")


if __name__ == "__main__":
    main()
