"""``openworker-qt connectors …`` against a local GitHub stub (run in its own thread:
the command runs its own event loop)."""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import Iterator

import pytest

from openworker_qt.cli import main
from openworker_qt.connectors.registry import secret_name
from openworker_qt.storage import secrets
from tests.connectors.helpers import json_reply
from tests.providers.stubs import StubServer


@pytest.fixture
def github() -> Iterator[StubServer]:
    stub = StubServer()
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(stub.start())
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    ready.wait(10)
    yield stub
    asyncio.run_coroutine_threadsafe(stub.stop(), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)
    loop.close()


def test_list_connect_test_disconnect(
    github: StubServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["connectors", "list"]) == 0
    listed = capsys.readouterr().out
    for name in ("slack", "github", "gitlab", "google_calendar", "gmail", "outlook", "jira",
                 "confluence", "linear", "notion", "mail"):
        assert name in listed
    assert "Not connected" in listed

    # A secret given as an argument is refused: it would stay in the shell history.
    assert main(["connectors", "connect", "github", "--set", "token=ghp_x"]) == 2
    assert "secret" in capsys.readouterr().err

    github.add("GET", "/user", json_reply({"login": "ana"}))
    monkeypatch.setattr("sys.stdin", io.StringIO("token=ghp_cli_token_123456\n"))
    assert main(["connectors", "connect", "github", "--set", f"api_url={github.url}"]) == 0
    assert "GitHub: Connected as @ana in GitHub." in capsys.readouterr().out
    assert secrets.get_secret(secret_name("github", "token")) == "ghp_cli_token_123456"
    assert github.seen[-1].headers["authorization"] == "Bearer ghp_cli_token_123456"

    assert main(["connectors", "list"]) == 0
    assert "Connected as @ana in GitHub" in capsys.readouterr().out

    github.routes.clear()
    github.add("GET", "/user", json_reply({"message": "Bad credentials"}, 401))
    assert main(["connectors", "test", "github"]) == 1
    assert "Needs attention" in capsys.readouterr().out

    assert main(["connectors", "disconnect", "github"]) == 0
    assert secrets.get_secret(secret_name("github", "token")) is None
    assert main(["connectors", "test", "github"]) == 2
    assert "not connected" in capsys.readouterr().err


def test_missing_fields_and_unknown_connectors_are_explained(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["connectors", "connect", "jira", "--set", "email=ana@acme.com"]) == 2
    err = capsys.readouterr().err
    assert "Jira needs: Site address, API token." in err and "id.atlassian.com" in err
    assert main(["connectors", "test", "nope"]) == 2
    assert "No connector named 'nope'" in capsys.readouterr().err
