"""The SDK's channel to the Unix socket of ``cardroom serve --unix PATH`` (``--server
unix:PATH``). gRPC's C core would send the socket's path as ``:authority``, which the server's
HTTP/2 refuses with RST_STREAM; the SDK's channel names ``localhost`` instead and is served."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import serve, wait_until_serving

import cardroom


def test_a_server_is_reached_through_its_unix_socket(tmp_path: Path) -> None:
    socket = tmp_path / "cardroom.sock"
    with serve(tmp_path, "--unix", str(socket)) as server:
        for url in (f"unix:{socket}", f"unix://{socket}"):
            with cardroom.RunConfig(server=url).channel() as channel:
                wait_until_serving(channel, server.process)
    assert not socket.exists(), "the socket file outlived the server"


def test_tls_settings_with_a_unix_server_are_refused() -> None:
    config = cardroom.RunConfig(server="unix:/run/cardroom.sock", ca_file="ca.pem")
    with pytest.raises(cardroom.CardroomError, match="not an https:// URL"):
        config.channel()
