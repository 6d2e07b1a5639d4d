"""Python bots against a ``cardroom serve`` that speaks TLS, with a CA and certificate the test
makes (trustme): a whole match over ``https://``, and a bot that does not trust the certificate
told why at once."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
import trustme
from conftest import PATIENCE, play_all, server_binary
from helpers import Recorder

import cardroom
from cardroom import Game
from cardroom.v1 import cardroom_pb2 as pb
from cardroom.v1 import cardroom_pb2_grpc as pb_grpc


@dataclass
class TlsServer:
    """A running ``cardroom serve --tls-cert --tls-key`` and the CA file that trusts it."""

    url: str
    ca_file: Path
    stub: pb_grpc.CardroomStub


@pytest.fixture
def tls_server(tmp_path: Path) -> Iterator[TlsServer]:
    """A TLS server on a port the OS picks (read from its listening line)."""
    ca = trustme.CA()
    certificate = ca.issue_cert("127.0.0.1", "localhost")
    cert_file, key_file, ca_file = tmp_path / "cert.pem", tmp_path / "key.pem", tmp_path / "ca.pem"
    certificate.cert_chain_pems[0].write_to_path(str(cert_file))
    for pem in certificate.cert_chain_pems[1:]:
        pem.write_to_path(str(cert_file), append=True)
    certificate.private_key_pem.write_to_path(str(key_file))
    ca.cert_pem.write_to_path(str(ca_file))
    command = [
        str(server_binary()),
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--record-dir",
        str(tmp_path / "records"),
        "--tls-cert",
        str(cert_file),
        "--tls-key",
        str(key_file),
    ]
    with open(tmp_path / "server.log", "wb") as log:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log)
    assert process.stdout is not None
    line = process.stdout.readline().decode()
    assert line.startswith("cardroom listening on "), (line, (tmp_path / "server.log").read_text())
    url = "https://" + line.removeprefix("cardroom listening on ").strip()
    channel = cardroom.RunConfig(server=url, ca_file=str(ca_file)).channel()
    try:
        yield TlsServer(url, ca_file, pb_grpc.CardroomStub(channel))  # type: ignore[no-untyped-call]
    finally:
        channel.close()
        process.terminate()
        process.wait(timeout=PATIENCE)


def create(server: TlsServer, seed: int) -> pb.CreateMatchResponse:
    """A two-seat Twenty-Two match, created over TLS."""
    request = pb.CreateMatchRequest(game=Game.TWENTY_TWO.value, seats=2, seed=seed)  # type: ignore[arg-type]
    response: pb.CreateMatchResponse = server.stub.CreateMatch(
        request, timeout=PATIENCE, wait_for_ready=True
    )
    return response


def test_python_bots_play_a_whole_match_over_tls(tls_server: TlsServer) -> None:
    created = create(tls_server, seed=5)
    bots = [Recorder(), Recorder()]
    results = play_all(
        [
            lambda bot=bot, seat=seat: cardroom.run(  # type: ignore[misc]
                bot, server=tls_server.url, ca_file=str(tls_server.ca_file), token=seat.token
            )
            for bot, seat in zip(bots, created.seats)
        ]
    )
    assert {r.match.match_id for r in results} == {created.match_id}
    assert not results[0].aborted and results[0].standings == results[1].standings
    assert all(bot.turns and not bot.errors for bot in bots)


def test_a_bot_that_does_not_trust_the_certificate_is_told_why_at_once(
    tls_server: TlsServer, tmp_path: Path
) -> None:
    created = create(tls_server, seed=6)
    other_ca = tmp_path / "other-ca.pem"
    trustme.CA().cert_pem.write_to_path(str(other_ca))
    started = time.monotonic()
    with pytest.raises(cardroom.CardroomError, match="TLS certificate was refused"):
        cardroom.run(
            Recorder(),
            server=tls_server.url,
            ca_file=str(other_ca),
            token=created.seats[0].token,
            reconnect_timeout=PATIENCE,
        )
    assert time.monotonic() - started < PATIENCE, "refused before the reconnection timeout"


def test_tls_settings_need_an_https_server(tmp_path: Path) -> None:
    plain = cardroom.RunConfig(server="127.0.0.1:1", ca_file=str(tmp_path / "ca.pem"))
    with pytest.raises(cardroom.CardroomError, match="not an https:// URL"):
        plain.channel()
    missing = cardroom.RunConfig(server="https://127.0.0.1:1", ca_file=str(tmp_path / "ca.pem"))
    with pytest.raises(cardroom.CardroomError, match="ca.pem"):
        missing.channel()
    assert cardroom.RunConfig.from_env({"CARDROOM_CA_FILE": "x.pem"}).ca_file == "x.pem"


def test_a_plaintext_channel_to_the_tls_port_fails(tls_server: TlsServer) -> None:
    channel = grpc.insecure_channel(tls_server.url.removeprefix("https://"))
    stub = pb_grpc.CardroomStub(channel)  # type: ignore[no-untyped-call]
    with pytest.raises(grpc.RpcError) as refused:
        stub.ListGames(pb.ListGamesRequest(), timeout=PATIENCE)
    channel.close()
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
    # The server serves on: a TLS client still creates a match.
    assert len(create(tls_server, seed=7).seats) == 2
