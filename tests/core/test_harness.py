"""The harness itself: isolation and the network guard must hold."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest


def test_state_dir_is_per_test(isolated_state: Path) -> None:
    assert os.environ["OPENWORKER_HOME"] == str(isolated_state)
    assert str(isolated_state).startswith(os.path.realpath(os.sep))


def test_network_is_blocked_but_loopback_works() -> None:
    from netguard import NetworkBlocked

    with pytest.raises(NetworkBlocked):
        socket.create_connection(("93.184.216.34", 80), timeout=1)
    with pytest.raises(NetworkBlocked):
        socket.getaddrinfo("example.com", 443)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    client = socket.create_connection(server.getsockname(), timeout=1)
    client.close()
    server.close()


def test_keyring_is_in_memory() -> None:
    import keyring

    from openworker_qt.storage.secrets import get_secret, set_secret

    assert type(keyring.get_keyring()).__name__ == "MemoryKeyring"
    assert get_secret("x") is None
    set_secret("x", "value")
    assert get_secret("x") == "value"
