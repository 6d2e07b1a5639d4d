#!/usr/bin/env python3
"""A determinized Monte Carlo search bot for Gin Rummy, on the rules engines' Python bindings
(:mod:`cardroom.engine`).

For each decision with more than one legal action it repeats, until its budget is spent:

1. **Sample** a full state from the observation the server sent (``engine.sample``): its own
   cards and everything public kept, every card it cannot see dealt at random.
2. **Play out** each legal action from that sample to the end of the hand, every seat playing
   a fast greedy policy on the exact solver (:func:`greedy`), with the same playout seed for
   every candidate (common random numbers, so differences come from the action).
3. **Score** the hand's points margin for its seat (GR-12).

It plays the candidate with the best average margin. Budgets are a number of samples per
decision (``--samples``) and a time cap (``--move-ms``); knocks and gin are valued exactly in
each sample, since the engine lays off and scores them at once.

Run it::

    python example-bots/python/gin_search_bot.py --queue-game gin --samples 24
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import cardroom
from cardroom import (
    BigGin,
    Discard,
    DrawDiscard,
    DrawStock,
    Gin,
    Knock,
    PassUpcard,
    TakeUpcard,
    Turn,
    engine,
)


def greedy(state: engine.State, seat: int) -> cardroom.Action:
    """The playout policy: go out when possible (big gin, gin, else the knock with the least
    deadwood), take the upcard only if it lowers the least deadwood, discard to the least
    deadwood."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    for kind in (BigGin, Gin):
        for action in legal:
            if isinstance(action, kind):
                return action
    knocks = [action for action in legal if isinstance(action, Knock)]
    hand = state.hand(seat)
    if knocks:
        return min(knocks, key=lambda knock: _deadwood_left(hand, knock))
    if TakeUpcard() in legal or DrawDiscard() in legal:
        upcard = state.public_view()["discard_pile"][-1]["card"]
        with_upcard = [*hand, cardroom.Card.parse(upcard)]
        take = engine.knock_deadwood(with_upcard) < engine.deadwood(hand)
        if take:
            return TakeUpcard() if TakeUpcard() in legal else DrawDiscard()
        return PassUpcard() if PassUpcard() in legal else DrawStock()
    best = {card for card, _ in _best_discards(hand)}
    discards = [a for a in legal if isinstance(a, Discard) and a.card in best]
    return discards[-1] if discards else legal[0]


def _deadwood_left(hand: cardroom.Hand, knock: Knock) -> int:
    """The deadwood a knock leaves: the cards in no meld, less the discard (GR-7)."""
    melded = [card for meld in knock.melds for card in meld]
    return sum(card.rank.gin_value for card in hand.without([knock.discard, *melded]))


def _best_discards(hand: cardroom.Hand) -> list[tuple[cardroom.Card, int]]:
    """The discards leaving the least deadwood (of an 11-card hand)."""
    ranked = engine.discards(hand)
    return [(card, left) for card, left in ranked if left == ranked[0][1]]


def playout_margin(state: engine.State, seat: int, before: list[int]) -> int:
    """Plays ``state`` to the end of the hand under way with :func:`greedy` for both seats and
    returns ``seat``'s points margin in that hand."""
    hand_number = state.deal_number()
    while (to_act := state.to_act()) is not None and state.deal_number() == hand_number:
        state.apply(to_act, greedy(state, to_act))
    after = state.scores()
    return (after[seat] - before[seat]) - (after[1 - seat] - before[1 - seat])


class GinSearchBot(cardroom.Bot):
    """Determinized Monte Carlo search over ``engine.sample``."""

    name = "gin-search-py"
    #: ``engine.sample`` reads the observation's engine JSON (``Observation.json``).
    wants_json = True

    def __init__(self, samples: int = 16, move_ms: int = 500, seed: int | None = None) -> None:
        self.samples = samples
        self.move_ms = move_ms
        self.rng = random.Random(seed)

    def choose(self, turn: Turn) -> int:
        legal = turn.legal_actions
        if len(legal) == 1:
            return 0
        seat = turn.seat
        deadline = time.monotonic() + self.move_ms / 1000
        totals = [0] * len(legal)
        played = 0
        while played < self.samples and (played == 0 or time.monotonic() < deadline):
            root = engine.sample(turn.observation, seed=self.rng.getrandbits(63))
            before = root.scores()
            for i, candidate in enumerate(legal):
                state = root.clone()
                state.apply(seat, candidate.action)
                totals[i] += playout_margin(state, seat, before)
            played += 1
        return max(range(len(legal)), key=lambda i: totals[i])


def main(argv: list[str]) -> int:
    """Runs the bot with the SDK's flags plus ``--samples`` and ``--move-ms``."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--move-ms", type=int, default=500)
    known, rest = parser.parse_known_args(argv)
    bot = GinSearchBot(known.samples, known.move_ms)
    return cardroom.main(bot, rest, description=__doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
