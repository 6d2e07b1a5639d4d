#!/usr/bin/env python3
"""OpenSpiel's C++ universal_poker (the ACPC dealer), timed for BENCHMARKS.md: the peer to the
`holdem` criterion benches.

Setup (once):
    python3 -m venv .venv && .venv/bin/pip install open_spiel==1.6
Run:
    .venv/bin/python games/benches/openspiel_holdem.py            # about a minute
    .venv/bin/python games/benches/openspiel_holdem.py --quick    # a few seconds

What it measures, on cardroom's default table (no-limit, blinds 1 and 2, 200 chips, the full
game's every raise size):

1. Random play of whole hands, heads-up and at six seats, driven from Python:
   `new_initial_state`, then random chance outcomes and random actions until the hand is
   terminal. The action policy is `holdem` bench's: fold, check or call, or a raise, each kind
   equally likely among those legal, the raise's size uniform among the legal sizes. This
   includes Python's per-action overhead, so it is an upper bound on the C++ cost; the script
   also reports the same loop on tic-tac-toe to show that overhead.
2. The showdown: `universal_poker` has no Python binding of its hand ranking. `returns()` on a
   terminal state ranks every hand shown (the ACPC dealer's `rankHand`), so its time, through
   pybind11, is the nearest peer of the evaluator.

Every timing is the best of 3 runs, per item, on one core.
"""

import argparse
import platform
import random
import time

import pyspiel
# The timing helpers of the Gin Rummy peer, beside this file (the script's own directory is on
# the path when it runs).
from openspiel_gin import best_of, python_overhead_per_action

FOLD, CALL = 0, 1


def game_for(players):
    blinds = "2 1" if players == 2 else " ".join(["1", "2"] + ["0"] * (players - 2))
    first = "2 1 1 1" if players == 2 else "3 1 1 1"
    return pyspiel.load_game(
        "universal_poker",
        {
            "betting": "nolimit",
            "numPlayers": players,
            "numRounds": 4,
            "blind": blinds,
            "firstPlayer": first,
            "numSuits": 4,
            "numRanks": 13,
            "numHoleCards": 2,
            "numBoardCards": "0 3 1 1",
            "stack": " ".join(["200"] * players),
            "bettingAbstraction": "fullgame",
        },
    )


def random_action(legal, rng):
    others = [a for a in legal if a <= CALL]
    raises = [a for a in legal if a > CALL]
    kinds = len(others) + (1 if raises else 0)
    pick = rng.randrange(kinds)
    return others[pick] if pick < len(others) else rng.choice(raises)


def random_hands(game, n, rng):
    """Plays n random hands; returns (seconds per hand, actions per hand incl. chance)."""
    actions = 0
    terminals = []
    start = time.perf_counter()
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
            else:
                action = random_action(state.legal_actions(), rng)
            state.apply_action(action)
            actions += 1
        terminals.append(state)
    elapsed = time.perf_counter() - start
    return elapsed / n, actions / n, terminals


def returns_time(terminals):
    start = time.perf_counter()
    for state in terminals:
        state.returns()
    return (time.perf_counter() - start) / len(terminals)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    rng = random.Random(2024)
    print(f"open_spiel (pyspiel) on Python {platform.python_version()}, {platform.machine()}")
    overhead = best_of(3, lambda: python_overhead_per_action(20000 // scale, rng))
    print(f"Python loop overhead: {overhead * 1e6:.2f} µs/action (tic-tac-toe)")
    for players in (2, 6):
        game = game_for(players)
        hands = 2000 // scale
        runs = [random_hands(game, hands, rng) for _ in range(3)]
        per_hand, per_action_count, terminals = min(runs, key=lambda run: run[0])
        cpp = per_hand - overhead * per_action_count
        print(f"{players} seats: random hand (Python loop) {per_hand * 1e6:9.1f} µs/hand, "
              f"{per_action_count:.1f} actions/hand (chance included); "
              f"estimated C++ share {cpp * 1e6:.1f} µs/hand")
        showdown = best_of(3, lambda: returns_time(terminals))
        print(f"  returns() on a terminal state: {showdown * 1e6:.2f} µs (includes the ranking "
              f"of every hand shown)")


if __name__ == "__main__":
    main()
