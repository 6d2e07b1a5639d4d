#!/usr/bin/env python3
"""A determinized Monte Carlo search bot for Gin Rummy, on the rules engines' Python bindings
(:mod:`cardroom.engine`).

For each decision with more than one legal action:

1. **Guide.** The greedy policy (:func:`greedy`: go out when it may, take the upcard only if it
   lowers its deadwood, discard to the least deadwood) names its own choice, and
   :func:`candidates` keeps the few actions worth comparing with it: taking or passing the
   upcard; the discards that leave at most :data:`DISCARD_SLACK` more deadwood than the best
   one; the knock leaving the least deadwood, and gin.
2. **Sample** ``--samples`` full states from the observation the server sent
   (``engine.sample``): its own cards and everything public kept, every card it cannot see dealt
   at random.
3. **Play out** every candidate from the same sample to the end of the hand, both seats playing
   :func:`greedy` (common random numbers: the candidates differ only in the action), and score
   the hand's points margin for its seat (GR-12). A knock or gin is scored exactly, since the
   engine lays off and scores it at once.
4. **Decide.** It plays the candidate with the best average margin only if that beats the greedy
   choice by ``--confidence`` standard errors of the paired differences; otherwise the greedy
   choice. Without that guard a few noisy playouts often make a melded card's discard look best
   by chance.

The budget is a fixed number of samples per decision, so a run reproduces whatever the machine's
load; ``--move-ms`` (and 80% of the server's move time) only caps the time of one decision (it
stops sampling early, never before the first sample), as a guard against the server's deadline.
The first version had a 500 ms budget and no guard: on a loaded machine one sample of all its
legal actions took longer than that (its median decision took 777 ms), so most decisions rested
on a single playout each, and it lost all 15 of its matches against OpenSpiel's simple bot.

Run it::

    python example-bots/python/gin_search_bot.py --queue-game gin --samples 16
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence

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

#: The discards compared besides the greedy one: those leaving at most this many points of
#: deadwood more than the best discard. A wider net costs playouts and lets more noise in.
DISCARD_SLACK = 4

#: At most this many candidates per decision (the greedy choice always among them).
MAX_CANDIDATES = 6


def greedy(
    state: engine.State, seat: int, upcard: cardroom.Card | None = None
) -> cardroom.Action:
    """The playout policy, and the guide: go out when possible (big gin, gin, else the knock with
    the least deadwood), take the upcard only if it lowers the least deadwood, discard to the
    least deadwood. ``upcard`` is the discard pile's top card when the caller knows it (a
    playout does: the card just discarded); else it is read from the public view."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    gin: cardroom.Action | None = None
    take: cardroom.Action | None = None
    decline: cardroom.Action | None = None
    knocks: list[Knock] = []
    for action in legal:
        kind = type(action)
        if kind is BigGin:
            return action
        if kind is Gin:
            gin = action
        elif isinstance(action, Knock):
            knocks.append(action)
        elif kind is TakeUpcard or kind is DrawDiscard:
            take = action
        elif kind is PassUpcard or kind is DrawStock:
            decline = action
    if gin is not None:
        return gin
    hand = state.hand(seat)
    if knocks:
        return min(knocks, key=lambda knock: _deadwood_left(hand, knock))
    if take is not None and decline is not None:
        offered = upcard if upcard is not None else _upcard(state)
        better = engine.knock_deadwood([*hand, offered]) < engine.deadwood(hand)
        return take if better else decline
    ranked = engine.discards(hand)
    for card, left in ranked:
        if left > ranked[0][1]:
            break
        if Discard(card) in legal:
            return Discard(card)
    return legal[0]


def candidates(
    state: engine.State, seat: int, legal: Sequence[cardroom.Action]
) -> list[cardroom.Action]:
    """The actions the search compares, the greedy choice first: every action of a draw (take
    or pass the upcard), else gin, the knock leaving the least deadwood, and the discards
    within :data:`DISCARD_SLACK` of the least deadwood, best first, at most
    :data:`MAX_CANDIDATES` in all."""
    guide = greedy(state, seat)
    if not any(isinstance(action, Discard | Knock | Gin | BigGin) for action in legal):
        return [guide, *(action for action in legal if action != guide)]
    hand = state.hand(seat)
    chosen = [guide]
    outs: list[cardroom.Action] = [a for a in legal if isinstance(a, Gin | BigGin)]
    knocks = [action for action in legal if isinstance(action, Knock)]
    if knocks:
        outs.append(min(knocks, key=lambda knock: _deadwood_left(hand, knock)))
    ranked = engine.discards(hand)
    least = ranked[0][1]
    near = {card for card, left in ranked if left <= least + DISCARD_SLACK}
    order = {card: i for i, (card, _) in enumerate(ranked)}
    discards = sorted(
        (a for a in legal if isinstance(a, Discard) and a.card in near),
        key=lambda a: order[a.card],
    )
    for action in [*outs, *discards]:
        if action not in chosen and len(chosen) < MAX_CANDIDATES:
            chosen.append(action)
    return chosen


def _upcard(state: engine.State) -> cardroom.Card:
    """The discard pile's top card."""
    pile = state.public_view()["discard_pile"]
    assert isinstance(pile, list) and pile, "a draw decision always has an upcard"
    top = pile[-1]
    assert isinstance(top, dict)
    return cardroom.Card.parse(str(top["card"]))


def _deadwood_left(hand: cardroom.Hand, knock: Knock) -> int:
    """The deadwood a knock leaves: the cards in no meld, less the discard (GR-7)."""
    melded = [card for meld in knock.melds for card in meld]
    return sum(card.rank.gin_value for card in hand.without([knock.discard, *melded]))


def playout_margin(state: engine.State, seat: int, before: list[int]) -> int:
    """Plays ``state`` to the end of the hand under way with :func:`greedy` for both seats and
    returns ``seat``'s points margin in that hand."""
    hand_number = state.deal_number()
    upcard: cardroom.Card | None = None
    while (to_act := state.to_act()) is not None and state.deal_number() == hand_number:
        action = greedy(state, to_act, upcard)
        state.apply(to_act, action)
        if isinstance(action, Discard):
            upcard = action.card
    after = state.scores()
    return (after[seat] - before[seat]) - (after[1 - seat] - before[1 - seat])


class GinSearchBot(cardroom.Bot):
    """Determinized Monte Carlo search over ``engine.sample``, guarded by the greedy policy."""

    name = "gin-search-py"
    #: ``engine.sample`` reads the observation's engine JSON (``Observation.json``).
    wants_json = True

    def __init__(
        self,
        samples: int = 16,
        move_ms: int = 4000,
        seed: int | None = None,
        confidence: float = 2.0,
    ) -> None:
        self.samples = samples
        self.move_ms = move_ms
        self.confidence = confidence
        self.rng = random.Random(seed)

    def choose(self, turn: Turn) -> int:
        legal = list(turn.actions)
        if len(legal) == 1:
            return 0
        # Stop sampling early rather than dip into the bank: at most 80% of the move time.
        cap_ms = min(self.move_ms, turn.move_ms * 4 // 5) if turn.move_ms > 0 else self.move_ms
        return legal.index(self.search(turn.observation, turn.seat, legal, cap_ms))

    def search(
        self,
        observation: cardroom.Observation | dict[str, object],
        seat: int,
        legal: Sequence[cardroom.Action],
        cap_ms: int | None = None,
    ) -> cardroom.Action:
        """The action to play from ``observation`` (the SDK's, or the engine's JSON form from
        ``State.observation``), ``seat`` to act with the ``legal`` actions; sampling stops
        after ``cap_ms`` (default ``move_ms``) even if fewer than ``samples`` were played."""
        deadline = time.monotonic() + (self.move_ms if cap_ms is None else cap_ms) / 1000
        root = engine.sample(observation, seed=self.rng.getrandbits(63))
        arms = candidates(root, seat, legal)
        if len(arms) == 1:
            return arms[0]
        # diffs[i]: each sample's margin of candidate i less the guide's (arms[0]).
        diffs: list[list[int]] = [[] for _ in arms]
        played = 0
        while played < self.samples and (played == 0 or time.monotonic() < deadline):
            if played > 0:
                root = engine.sample(observation, seed=self.rng.getrandbits(63))
            before = root.scores()
            margins = []
            for action in arms:
                state = root.clone()
                state.apply(seat, action)
                margins.append(playout_margin(state, seat, before))
            for i, margin in enumerate(margins):
                diffs[i].append(margin - margins[0])
            played += 1
        best, best_mean = 0, 0.0
        for i in range(1, len(arms)):
            mean = sum(diffs[i]) / played
            if mean > best_mean and mean > self.confidence * _standard_error(diffs[i]):
                best, best_mean = i, mean
        return arms[best]


def _standard_error(values: Sequence[int]) -> float:
    """The standard error of the mean of ``values`` (infinite with fewer than two)."""
    n = len(values)
    if n < 2:
        return math.inf
    mean = sum(values) / n
    variance = sum((value - mean) ** 2 for value in values) / (n - 1)
    return math.sqrt(variance / n)


def main(argv: list[str]) -> int:
    """Runs the bot with the SDK's flags plus ``--samples``, ``--move-ms`` and
    ``--confidence``."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--move-ms", type=int, default=4000)
    parser.add_argument("--confidence", type=float, default=2.0)
    known, rest = parser.parse_known_args(argv)
    bot = GinSearchBot(known.samples, known.move_ms, confidence=known.confidence)
    return cardroom.main(bot, rest, description=__doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
