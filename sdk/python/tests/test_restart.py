"""A Python bot started as its README says (``tt_bot.py --lobby NAME --key KEY --matches 0``)
keeps playing a hosted ladder through a SIGKILL of its server and a restart on the same store
and port: the match it was in is gone, so it goes back to the lobby (``SeatLost``) rather than
exit, and plays again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
from conftest import PATIENCE, REPO, free_port, server_binary, wait_until_serving

from cardroom.v1 import cardroom_pb2 as pb
from cardroom.v1 import cardroom_pb2_grpc as pb_grpc

LADDER = 'name = "duel"\ngame = "twenty_two"\nseats = 2\nseed = 4\nmax_concurrent = 1\n'


class BotProcess:
    """A stock example bot: its process, and the match results it has printed."""

    def __init__(self, args: list[str]) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen(
            [sys.executable, str(REPO / "example-bots" / "python" / "tt_bot.py"), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        self.lines: list[str] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self.lock:
                self.lines.append(line.rstrip("\n"))

    def matches(self) -> int:
        """Matches it has reported over (the runner prints ``match ID over: …``)."""
        with self.lock:
            return sum(1 for line in self.lines if line.startswith("match ") and " over" in line)

    def log(self) -> str:
        with self.lock:
            return "\n".join(self.lines[-40:])

    def assert_running(self) -> None:
        code = self.process.poll()
        assert code is None, f"the bot exited with {code}:\n{self.log()}"

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


def add_bot(store: str, name: str) -> str:
    added = subprocess.run(
        [str(server_binary()), "bots", "add", name, "--store", store],
        capture_output=True,
        text=True,
        check=True,
        timeout=PATIENCE,
    )
    return added.stdout.strip()


@contextmanager
def hosting(address: str, store: str, ladder: Path, records: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``cardroom serve`` on ``address`` with the store and the ladder, serving; killed after."""
    command = [
        str(server_binary()), "serve", "--addr", address, "--registered-only",
        "--store", store, "--ladder", str(ladder), "--record-dir", str(records),
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    channel = grpc.insecure_channel(address)
    try:
        wait_until_serving(channel, process)
        yield process
    finally:
        channel.close()
        process.kill()
        process.wait()


def wait_for(what: str, check: object) -> None:
    """Waits until ``check()`` is true, asking again every 50 ms, for at most PATIENCE."""
    deadline = time.monotonic() + PATIENCE * 2
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def running_matches(address: str) -> int:
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.CardroomStub(channel)  # type: ignore[no-untyped-call]
        try:
            listed = stub.ListMatches(
                pb.ListMatchesRequest(state=pb.MATCH_STATE_RUNNING), timeout=PATIENCE
            )
        except grpc.RpcError:
            return 0
        return len(listed.matches)


def test_a_stock_python_bot_plays_on_through_a_sigkill_and_restart(tmp_path: Path) -> None:
    store = f"sqlite:{tmp_path / 'store.db'}"
    ladder = tmp_path / "duel.toml"
    ladder.write_text(LADDER)
    keys = {name: add_bot(store, name) for name in ("ann", "ben")}
    address = f"127.0.0.1:{free_port()}"
    bots = [
        BotProcess(["--server", address, "--lobby", name, "--key", key, "--matches", "0"])
        for name, key in keys.items()
    ]
    try:
        with hosting(address, store, ladder, tmp_path / "records") as server:
            wait_for("a match played by each bot", lambda: all(b.matches() >= 1 for b in bots))
            wait_for("a match under way", lambda: running_matches(address) > 0)
            server.send_signal(signal.SIGKILL)
        before = [bot.matches() for bot in bots]
        with hosting(address, store, ladder, tmp_path / "records"):
            wait_for(
                "each bot playing again after the restart",
                lambda: all(b.matches() > n for b, n in zip(bots, before)) or not all(
                    b.process.poll() is None for b in bots
                ),
            )
            for bot in bots:
                bot.assert_running()
            assert all(b.matches() > n for b, n in zip(bots, before))
    finally:
        for bot in bots:
            bot.stop()
