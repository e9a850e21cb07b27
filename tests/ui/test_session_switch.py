"""The window's ``session_id`` is the one word on which session is current: what
arrives for the session the user just left — while the next one's rows are still
being read, and after — is never painted in the next one (no row, no banner)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from openworker_qt.ui import session_loader
from tests.ui.conftest import run, until
from tests.ui.test_main_window import type_and_enter

FAILING = [{"chunks": [f"left{i} " for i in range(12)], "delay": 0.05,
            "error": "the provider broke", "error_kind": "auth"}]


def test_events_of_the_session_left_never_paint_in_the_next(
        qtbot, qloop, make_desktop, monkeypatch: pytest.MonkeyPatch) -> None:
    desktop = make_desktop(FAILING)
    window = desktop.window
    store = desktop.runtime.conversations
    other = desktop.manager.create_session(workspace=str(window.default_workspace)).id
    store.append(other, {"role": "user", "content": "the other session"})
    store.append(other, {"role": "assistant", "content": "its answer"})
    window.refresh_sessions()
    # The next session's rows are read only once the left one's turn has failed.
    gate = threading.Event()
    head = session_loader.session_head

    def gated_head(*args: Any, **kwargs: Any) -> Any:
        gate.wait(30)
        return head(*args, **kwargs)

    monkeypatch.setattr(session_loader, "session_head", gated_head)
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        try:
            type_and_enter(qtbot, window, "go")
            left = window.session_id
            await until(lambda: any("left0" in i.text for i in window.transcript.items),
                        what="the first words")
            window.open_session(other)
            shown: list[str] = []
            show = window.banner.show_message
            window.banner.show_message = lambda text, *a, **k: (shown.append(text),
                                                                show(text, *a, **k))
            await until(lambda: not desktop.manager.running_sessions(), what="the turn failed")
            seen["banner while reading"] = list(shown)
        finally:
            gate.set()
        await until(window.loaded, what="the next session painted")
        seen["left"] = left
        seen["rows"] = [i.text for i in window.transcript.items]
        seen["banner"] = (window.banner.isVisibleTo(window), window.banner.label.text())

    run(qloop, scenario)
    assert window.session_id == other != seen["left"]
    assert seen["rows"] == ["the other session", "its answer"]
    assert seen["banner while reading"] == []  # the left session's failure is not said here
    assert seen["banner"][0] is False, seen["banner"]
    # the left session kept its own rows, words and error
    texts = [str(m.get("content") or m.get("text") or "") for m in store.load(seen["left"])]
    assert any("left0" in t for t in texts) and any("the provider broke" in t for t in texts)
