"""cardroom's rules engines in Python: simulate, search and learn on the same engines the server
runs, with the SDK's own card and action types.

A state is a whole match, always a valid position::

    import random
    from cardroom import engine

    state = engine.new("gin", seed=7)                  # or "twenty_two", players=4
    while not state.is_over():
        seat = state.to_act()
        state.apply(seat, random.choice(state.legal_actions()))
    print(state.standings(), state.record_json())

- ``state.legal_actions()`` lists the SDK's action values (``cardroom.DrawStock()``,
  ``cardroom.Knock(discard, melds)``, ``cardroom.Play(hand)``), sorted; ``state.apply(seat,
  action)`` takes them, and raises :class:`IllegalActionError` naming the rule (``.rule``,
  such as ``"GR-6"``) and changes nothing when the rules refuse it.
- ``state.observation(seat)`` is the engine's JSON form of what the seat sees, the same as the
  SDK's ``Observation.json`` in a live match; :func:`sample` turns either into a full state the
  seat cannot tell from the real one (determinization), so a bot can search from what it was
  sent. ``state.clone()`` copies a state.
- Records in and out: ``state.record_json()`` is the JSON ``cardroom replay`` reads;
  :func:`from_record` replays one. :func:`from_setup` starts from an explicit position.
- The Gin Rummy solver: :func:`deadwood`, :func:`best_melds`, :func:`knock_deadwood`,
  :func:`can_knock`, :func:`discards`, :func:`knock_arrangements`.
- For learning code: integer action ids (``state.legal_action_ids()``, ``state.apply_id``) and
  ``state.observation_tensor(seat)``; :mod:`cardroom.spiel` is an OpenSpiel-shaped API over
  them and :mod:`cardroom.envs` PettingZoo environments.

Every exception derives from :class:`EngineError`.
"""

from __future__ import annotations

from cardroom._engine import (
    State,
    best_melds,
    can_knock,
    deadwood,
    discards,
    from_record,
    from_setup,
    games,
    knock_arrangements,
    knock_deadwood,
    new,
    sample,
    seats,
)
from cardroom._engine_errors import (
    ActionTypeError,
    EngineError,
    IllegalActionError,
    NoSuchActionError,
    NoSuchSeatError,
    OptionsError,
    RecordError,
    SampleError,
    SetupError,
    SolverError,
    UnknownGameError,
)

__all__ = [
    "ActionTypeError",
    "EngineError",
    "IllegalActionError",
    "NoSuchActionError",
    "NoSuchSeatError",
    "OptionsError",
    "RecordError",
    "SampleError",
    "SetupError",
    "SolverError",
    "State",
    "UnknownGameError",
    "best_melds",
    "can_knock",
    "deadwood",
    "discards",
    "from_record",
    "from_setup",
    "games",
    "knock_arrangements",
    "knock_deadwood",
    "new",
    "sample",
    "seats",
]
