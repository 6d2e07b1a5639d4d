"""A Python bot with a key: a server that keeps accounts (``--store``) seats a registered lobby
name only on its own key, sent by the runner as ``authorization: Bearer <key>``."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import pytest
from conftest import PATIENCE, Server, serve, server_binary
from helpers import Recorder

import cardroom
from cardroom import Game
from cardroom.v1 import cardroom_pb2 as pb

ADMIN = (("authorization", "Bearer admin-secret"),)


@pytest.fixture
def accounts_server(tmp_path: Path) -> Iterator[tuple[Server, str]]:
    """A server keeping accounts in a SQLite file, with ``alice`` registered by ``cardroom
    bots add``; yields the server and alice's key."""
    store = f"sqlite:{tmp_path / 'store.db'}"
    added = subprocess.run(
        [str(server_binary()), "bots", "add", "alice", "--store", store],
        capture_output=True,
        text=True,
        check=True,
        timeout=PATIENCE,
    )
    key = added.stdout.strip()
    assert key.startswith("crk_") and len(key) == 68, added
    with serve(tmp_path, "--store", store, "--admin-token", "admin-secret") as server:
        yield server, key


def test_a_python_bot_plays_on_its_key_and_reports_its_version(
    accounts_server: tuple[Server, str],
) -> None:
    server, key = accounts_server
    alice, guest = Recorder(), Recorder()
    with ThreadPoolExecutor(max_workers=2) as pool:
        playing = [
            pool.submit(
                cardroom.run, alice, server=server.address, lobby="alice", key=key, bot_version="py-1"
            ),
            pool.submit(cardroom.run, guest, server=server.address, lobby="guest"),
        ]
        request = pb.CreateMatchRequest(
            game=Game.TWENTY_TWO.value,  # type: ignore[arg-type]
            seats=2,
            seed=8,
            lobby_bots=["alice", "guest"],
        )
        deadline = time.monotonic() + PATIENCE
        while True:  # until both wait in the lobby (bounded; not a fixed sleep)
            try:
                created = server.stub.CreateMatch(request, metadata=ADMIN, timeout=PATIENCE)
                break
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.FAILED_PRECONDITION, error
                assert time.monotonic() < deadline, "the lobby bots never arrived"
                time.sleep(0.02)
        results = [future.result(timeout=PATIENCE * 3) for future in playing]
    assert [r.match.match_id for r in results] == [created.match_id] * 2
    assert not results[0].aborted and alice.errors == []
    bots = server.stub.ListBots(pb.ListBotsRequest(), metadata=ADMIN, timeout=PATIENCE).bots
    assert [(b.name, [v.version for v in b.versions]) for b in bots] == [("alice", ["py-1"])]


def test_a_registered_name_without_its_key_is_refused(accounts_server: tuple[Server, str]) -> None:
    server, key = accounts_server
    for wrong, code in [(None, "UNAUTHENTICATED"), ("crk_" + "0" * 64, "UNAUTHENTICATED")]:
        with pytest.raises(cardroom.CardroomError, match=code):
            cardroom.run(Recorder(), server=server.address, lobby="alice", key=wrong)


def test_the_key_comes_from_the_flags_or_the_environment_and_is_not_shown() -> None:
    config = cardroom.RunConfig.from_env({"CARDROOM_KEY": "crk_1", "CARDROOM_BOT_VERSION": "v2"})
    assert config.metadata == (("authorization", "Bearer crk_1"),)
    assert "crk_1" not in repr(config)
    args = cardroom.RunConfig.from_args(["--lobby", "a", "--key", "crk_2", "--bot-version", "v3"])
    assert args.metadata == (("authorization", "Bearer crk_2"),)
    join = args.join("a", None)
    assert join.lobby == "a" and join.bot_version == "v3"
    assert cardroom.RunConfig().metadata == ()
