"""Test bots, the example bots, and a TCP proxy that can drop its connections."""

from __future__ import annotations

import importlib.util
import socket
import threading
from pathlib import Path
from types import ModuleType

import cardroom
from cardroom import GOING_OUT, Hand, Play, Turn

EXAMPLES = Path(__file__).resolve().parents[3] / "example-bots" / "python"


def load_example(name: str) -> ModuleType:
    """Imports ``example-bots/python/<name>.py``."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Recorder(cardroom.Bot):
    """Plays the first legal action (going out in Gin Rummy when it can) and records what it
    is told."""

    name = "recorder"

    def __init__(self) -> None:
        self.starts: list[cardroom.MatchInfo] = []
        self.turns: list[Turn] = []
        self.errors: list[cardroom.ActError] = []
        self.events: list[cardroom.Event] = []
        self.results: list[cardroom.MatchResult] = []

    def choose(self, turn: Turn) -> int | cardroom.Action | cardroom.Reply:
        self.turns.append(turn)
        for legal in turn.legal_actions:
            if isinstance(legal.action, GOING_OUT):
                return legal.index
        return 0

    def on_match_start(self, match: cardroom.MatchInfo) -> None:
        self.starts.append(match)

    def on_events(self, events: list[cardroom.Event]) -> None:
        self.events.extend(events)

    def on_error(self, error: cardroom.ActError) -> None:
        self.errors.append(error)

    def on_match_end(self, result: cardroom.MatchResult) -> None:
        self.results.append(result)


class IllegalLeader(Recorder):
    """Once, when it leads a Twenty-Two trick, leads its whole hand (TT-11 forbids it)."""

    name = "illegal-leader"

    def __init__(self) -> None:
        super().__init__()
        self.illegal: Play | None = None

    def choose(self, turn: Turn) -> int | cardroom.Action:
        self.turns.append(turn)
        view = turn.observation.twenty_two
        if view is None or view.phase != cardroom.TwentyTwoPhase.PLAY:
            return 0
        trick = view.current_trick
        leading = trick is None or not trick.plays
        if self.illegal is None and leading and len(view.hand.rank_counts()) > 1:
            self.illegal = Play(Hand(view.hand))
            return self.illegal
        return 0


class Dropper(Recorder):
    """Drops its own connection (through ``proxy``) while answering its ``at``-th turn."""

    name = "dropper"

    def __init__(self, proxy: DroppingProxy, at: int) -> None:
        super().__init__()
        self.proxy = proxy
        self.at = at
        self.dropped = False

    def choose(self, turn: Turn) -> int | cardroom.Action | cardroom.Reply:
        answer = super().choose(turn)
        if not self.dropped and len(self.turns) == self.at:
            self.dropped = True
            self.proxy.drop()
        return answer


class DroppingProxy:
    """A TCP proxy to ``target``; :meth:`drop` cuts every connection through it, as a network
    failure would. New connections are forwarded as before."""

    def __init__(self, target: str) -> None:
        host, port = target.rsplit(":", 1)
        self.target = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.listener.getsockname()[1]}"
        self.lock = threading.Lock()
        self.sockets: list[socket.socket] = []
        self.accepted = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.accepted += 1
                self.sockets += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for sock in (source, sink):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def drop(self) -> None:
        """Cuts every open connection."""
        with self.lock:
            sockets, self.sockets = self.sockets, []
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def close(self) -> None:
        """Stops accepting and cuts every connection."""
        self.listener.close()
        self.drop()
