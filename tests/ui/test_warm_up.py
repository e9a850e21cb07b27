"""After the window's first paint, the runtime prepares the configured default model
in a worker (key read, SDK import, client) so the first message does not do it on
the loop; the client built there then serves the window's turn."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.storage import secrets
from tests.providers.stubs import Reply, StubServer, sse
from tests.ui.conftest import run, until

CHAT = "/v1/chat/completions"


@pytest.fixture
def stub(qloop) -> Iterator[StubServer]:
    server = StubServer()
    qloop.run_until_complete(server.start())
    yield server
    qloop.run_until_complete(server.stop())


def reply(text: str) -> Reply:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    return Reply(content_type="text/event-stream", body=sse(
        chunk({"role": "assistant", "content": text}), chunk({}, "stop"), "[DONE]"))


def test_the_default_model_is_prepared_after_the_first_paint(
    qloop, make_desktop, stub: StubServer, isolated_state: Path
) -> None:
    config = isolated_state / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f'[general]\ndefault_model = "openai:gpt-4o"\n\n'
                      f'[providers.openai]\nbase_url = "{stub.url}/v1"\n', encoding="utf-8")
    secrets.set_secret("OPENAI_API_KEY", "sk-warm-0123456789")
    stub.add("POST", CHAT, reply("Warm hello."))
    desktop = make_desktop()

    def sdk_client() -> Any:
        clients = desktop.runtime.router._clients
        return clients["openai"].chat._client if "openai" in clients else None

    async def scenario() -> None:
        await until(lambda: sdk_client() is not None, what="the warm-up")
        warmed = sdk_client()
        events: list[ev.Event] = []
        desktop.manager.listeners.append(events.append)
        info = desktop.manager.create_session(workspace=str(desktop.workspace))
        desktop.manager.send(info.id, "hello")
        await until(lambda: any(isinstance(e, ev.TurnEnded) for e in events), what="the turn")
        assert [e.status for e in events if isinstance(e, ev.TurnEnded)] == ["completed"]
        assert sdk_client() is warmed  # the prepared client served the turn

    run(qloop, scenario)
    assert stub.requests_to(CHAT)[0].headers["authorization"] == "Bearer sk-warm-0123456789"
