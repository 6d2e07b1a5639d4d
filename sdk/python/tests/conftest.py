"""Fixtures: a real ``cardroom serve`` on a free port, and helpers to play bots against it.

The server binary is ``$CARDROOM_BIN``, else ``target/debug/cardroom`` in the repository (build it
with ``cargo build --bin cardroom``; ``.ci/run`` does). A missing binary fails the tests with
that instruction: they are never skipped.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

import cardroom
from cardroom.v1 import cardroom_pb2 as pb
from cardroom.v1 import cardroom_pb2_grpc as pb_grpc

#: The repository's root.
REPO = Path(__file__).resolve().parents[3]
#: How long any one wait in a test may last before it fails (never a fixed sleep).
PATIENCE = 60.0


def server_binary() -> Path:
    """The ``cardroom`` binary to test against; fails the test when there is none."""
    configured = os.environ.get("CARDROOM_BIN")
    path = Path(configured) if configured else REPO / "target" / "debug" / "cardroom"
    if not path.is_file():
        pytest.fail(
            f"no cardroom server binary at {path}: run `cargo build --bin cardroom` "
            "or set CARDROOM_BIN to the binary"
        )
    return path


def free_port() -> int:
    """A port nobody listens on now (the OS picks it; the server binds it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """A running ``cardroom serve``."""

    address: str
    process: subprocess.Popen[bytes]
    channel: grpc.Channel
    stub: pb_grpc.CardroomStub

    def create(
        self,
        game: cardroom.Game,
        seats: int,
        seed: int,
        options: dict[str, object] | None = None,
        clock: pb.Clock | None = None,
    ) -> pb.CreateMatchResponse:
        """Creates a match (``CreateMatch``)."""
        request = pb.CreateMatchRequest(
            game=game.value,  # type: ignore[arg-type]
            seats=seats,
            seed=seed,
            options_json=json.dumps(options) if options else "",
            clock=clock,
        )
        response: pb.CreateMatchResponse = self.stub.CreateMatch(request, timeout=PATIENCE)
        return response

    def match_info(self, match_id: str) -> pb.MatchInfo:
        """``GetMatch``."""
        info: pb.MatchInfo = self.stub.GetMatch(
            pb.GetMatchRequest(match_id=match_id), timeout=PATIENCE
        )
        return info

    def record(self, match_id: str) -> dict[str, object]:
        """A finished match's record, parsed."""
        response = self.stub.GetRecord(pb.GetRecordRequest(match_id=match_id), timeout=PATIENCE)
        record: dict[str, object] = json.loads(response.record_json)
        return record


def wait_until_serving(channel: grpc.Channel, process: subprocess.Popen[bytes]) -> None:
    """Waits for the gRPC health service to answer SERVING (not a sleep: the call waits for the
    channel to connect, and returns as soon as the server answers)."""
    health = health_pb2_grpc.HealthStub(channel)
    try:
        response = health.Check(
            health_pb2.HealthCheckRequest(), timeout=PATIENCE, wait_for_ready=True
        )
    except grpc.RpcError as error:
        code = process.poll()
        pytest.fail(f"the server did not become healthy ({error}); exit code {code}")
    assert response.status == health_pb2.HealthCheckResponse.SERVING


@contextmanager
def serve(tmp_path: Path, *extra_args: str) -> Iterator[Server]:
    """A fresh ``cardroom serve`` on a free port with ``extra_args``, records under
    ``tmp_path``; stopped with SIGTERM after."""
    port = free_port()
    address = f"127.0.0.1:{port}"
    command = [str(server_binary()), "serve", "--addr", address, "--record-dir", str(tmp_path)]
    with open(tmp_path / "server.log", "wb") as log:
        process = subprocess.Popen([*command, *extra_args], stdout=log, stderr=subprocess.STDOUT)
    # Retry the connection quickly while the server starts (gRPC's default first back-off is 1 s).
    fast_retry = [
        ("grpc.initial_reconnect_backoff_ms", 20),
        ("grpc.min_reconnect_backoff_ms", 20),
        ("grpc.max_reconnect_backoff_ms", 100),
    ]
    channel = grpc.insecure_channel(address, options=fast_retry)
    try:
        wait_until_serving(channel, process)
        yield Server(address, process, channel, pb_grpc.CardroomStub(channel))  # type: ignore[no-untyped-call]
    finally:
        channel.close()
        process.terminate()
        try:
            process.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.returncode not in (0, -15):
            sys.stderr.write((tmp_path / "server.log").read_text(errors="replace"))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A fresh server on a free port, records under ``tmp_path``; stopped with SIGTERM after."""
    with serve(tmp_path) as running:
        yield running


def play_all(jobs: list[Callable[[], cardroom.MatchResult]]) -> list[cardroom.MatchResult]:
    """Runs the jobs (each one bot's ``run``) at once, in threads; their results in order."""
    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        futures = [pool.submit(job) for job in jobs]
        return [future.result(timeout=PATIENCE * 3) for future in futures]
