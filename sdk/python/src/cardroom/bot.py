"""The :class:`Bot` base class: subclass it and write :meth:`Bot.choose`."""

from __future__ import annotations

import abc

from cardroom.actions import Action
from cardroom.model import ActError, Event, MatchInfo, MatchResult, Reply, Turn


class Bot(abc.ABC):
    """A bot: the runner (:func:`cardroom.run`) calls :meth:`choose` for every turn.

    Only :meth:`choose` is required; the ``on_…`` hooks do nothing unless overridden. Every
    method is called from the runner's threads one at a time, never concurrently, except that
    a :meth:`choose` that overruns its time is abandoned (its answer is discarded) while the
    match goes on.
    """

    #: The name sent when joining, shown in standings and logs (``--name`` overrides it).
    name: str = "python-bot"

    #: Whether the bot reads the engine's JSON forms (:attr:`Observation.json`,
    #: :attr:`Event.json`): a bot that does (to hand an observation to ``cardroom.engine``, say)
    #: sets it, and the runner asks for them as ``RunConfig.json`` would.
    wants_json: bool = False

    #: Whether the bot reads each turn in the text form (:attr:`Turn.text`, for a language model
    #: or a person): the runner asks the server for it (``Join.text``).
    wants_text: bool = False

    @abc.abstractmethod
    def choose(self, turn: Turn) -> int | Action | Reply:
        """Chooses an action for ``turn``.

        Return the index of one of ``turn.legal_actions`` (simplest), an action by value
        (such as ``Play(Hand.parse("7S 7D"))``), or a :class:`~cardroom.Reply` in the words of
        :attr:`Turn.text`. If the server refuses it as illegal, the
        runner plays the first legal action instead. Answer within ``turn.move_ms``: after
        ``move_ms + bank_ms`` (less a safety margin) the runner answers with the first legal
        action itself.
        """

    def comment(self) -> str | None:
        """What the bot says beside the action :meth:`choose` just returned (a language
        model's reasoning, a search's estimate), sent as ``Act.comment``: at most 2048 bytes of
        UTF-8, kept in the match's record and shown beside the step in replays, never live.
        ``None`` (the default) says nothing."""
        return None

    def on_match_start(self, match: MatchInfo) -> None:
        """Called once the seat is joined, before the first turn (not again on reconnection)."""

    def on_events(self, events: list[Event]) -> None:
        """Called with public events as they happen (plays, tricks won, discards…)."""

    def on_error(self, error: ActError) -> None:
        """Called when the server refuses an answer (or reports a timeout or a forfeit)."""

    def on_match_end(self, result: MatchResult) -> None:
        """Called once with the result, just before :func:`cardroom.run` returns it."""
