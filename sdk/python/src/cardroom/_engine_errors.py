"""The exceptions of :mod:`cardroom.engine`, one class per kind of refusal.

Every exception names the rule it enforces where there is one (``rule``, such as ``"GR-6"`` or
``"TT-12"``; the rules are ``docs/rules/``), and its message starts with that id, as the engines'
own errors do. They are defined in Python so that ``except`` clauses, type checkers and
``pickle`` see ordinary classes; the extension raises them.
"""

from __future__ import annotations

import re

_RULE = re.compile(r"^([A-Z]{2}-\d+)\b")


def rule_of(message: str) -> str | None:
    """The rule id a message starts with (``"GR-7: …"`` gives ``"GR-7"``), if any."""
    found = _RULE.match(message)
    return found.group(1) if found else None


class EngineError(Exception):
    """Anything :mod:`cardroom.engine` refuses."""

    #: The rule broken, such as ``"GR-6"``, when the refusal is a rule's.
    rule: str | None

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule if rule is not None else rule_of(message)

    def __reduce__(self) -> tuple[type[EngineError], tuple[str, str | None]]:
        return (type(self), (str(self), self.rule))


class UnknownGameError(EngineError, ValueError):
    """A game name that is no game of the catalogue (``gin``, ``twenty_two`` and aliases)."""


class OptionsError(EngineError, ValueError):
    """Options that are not JSON of the game's options, or that cannot be played."""


class SetupError(EngineError, ValueError):
    """A table size the game does not seat, or an explicit setup that is no valid position."""


class NoSuchSeatError(EngineError, IndexError):
    """A seat number that is not at the table."""


class NoSuchActionError(EngineError, IndexError):
    """An index or action id that names no legal action now (or the match is over)."""


class IllegalActionError(EngineError):
    """An action the rules refuse (the state is unchanged). ``rule`` is always set."""

    rule: str

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message, rule)
        if self.rule is None:
            raise ValueError(f"an IllegalActionError names its rule: {message!r}")


class ActionTypeError(EngineError, TypeError):
    """A value that is not an action of the state's game (another game's, or no action)."""


class RecordError(EngineError, ValueError):
    """A record that is not a record's JSON, or does not replay."""


class SampleError(EngineError, ValueError):
    """An observation the engine could not have produced, so nothing can be sampled from it."""


class SolverError(EngineError, ValueError):
    """A hand the Gin Rummy solver cannot answer for (too many cards, not 11 for a knock check)."""
