"""Very long sessions: older rows read from SQLite a page at a time in a worker
(never all built at once), "jump to start", and the heap given back after
switching away."""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from PySide6.QtCore import Qt

from openworker_qt.qt.transcript_model import FETCH_CHUNK, TranscriptModel, older_page, trim_heap
from openworker_qt.qt.transcript_reducer import items_from_history, newest_page
from tests.ui.conftest import run, until


def _history(turns: int) -> list[dict[str, Any]]:
    msgs: list[dict[str, Any]] = []
    for i in range(turns):
        msgs.append({"role": "user", "content": f"question {i}"})
        msgs.append({"role": "assistant", "content": None, "tool_calls": [{
            "id": f"c{i}", "type": "function",
            "function": {"name": "read_file", "arguments": json.dumps({"path": f"f{i}"})}}]})
        msgs.append({"role": "tool", "tool_call_id": f"c{i}", "status": "ok", "content": f"body {i}"})
        msgs.append({"role": "assistant", "content": f"answer {i}"})
    return msgs


def _fill(runtime: Any, turns: int) -> str:
    info = runtime.conversations.create_session(title="long", model="scripted:x")
    with runtime.db.transaction() as conn:
        for m in _history(turns):
            conn.execute("INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, ?)",
                         (info.id, m["role"], json.dumps(m), time.time()))
    return str(info.id)


def test_older_rows_are_read_a_page_at_a_time_and_join_up(qtbot, make_desktop) -> None:  # type: ignore[no-untyped-def]
    desktop = make_desktop([{"text": "x"}])
    store = desktop.runtime.conversations
    sid = _fill(desktop.runtime, 1_000)  # 4,000 messages, 3,000 rows
    pages: list[int] = []

    def pager(session_id: str, before: int) -> Any:  # the real page read, counted
        rows, following = older_page(store, session_id, before, limit=200)
        pages.append(len(rows))
        return rows, following

    model = TranscriptModel()
    page, before = newest_page(store, sid, limit=100)
    model.reset(sid, page, older_loading=True)
    model.page_older(sid, before, pager)
    qtbot.waitUntil(lambda: not model.loading_older())
    # Read ahead of the view by about two chunks, not the whole session.
    assert 0 < model.buffered_older() < 2 * FETCH_CHUNK + 200 and len(pages) <= 2
    assert model.has_older()
    while model.has_older():
        if not model.fetch_older():
            qtbot.waitUntil(lambda: bool(model.buffered_older()) or not model.has_older())
    whole = items_from_history(store.load(sid))
    assert [(r.kind, r.text, r.status) for r in model.items] == [
        (r.kind, r.text, r.status) for r in whole]
    assert model.items[0].text == "question 0" and len(pages) >= 15


def test_jump_to_start_shows_the_first_message(qtbot, qloop, make_desktop) -> None:  # type: ignore[no-untyped-def]
    desktop = make_desktop([{"text": "x"}])
    window = desktop.window
    sid = _fill(desktop.runtime, 600)
    view = window.view
    bar = view.verticalScrollBar()

    async def scenario() -> None:
        window.open_session(sid)
        await until(lambda: window.loaded() and window.transcript.rowCount(), what="load")
        await until(lambda: bar.value() == bar.maximum() > 0, what="at bottom")
        assert window.transcript.has_older()
        bar.setValue(bar.maximum() // 2)  # scrolled up a little: the button offers the jump
        await until(lambda: view.jump_button.isVisible(), what="the jump button")
        view.setFocus()
        qtbot.keyClick(view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
        await until(lambda: not window.transcript.has_older(), timeout=20, what="every row")
        await until(lambda: bar.value() == 0 and view.indexAt(view.rect().topLeft()).row() == 0,
                    what="at the start")

    run(qloop, scenario)
    assert window.transcript.items[0].text == "question 0"
    assert window.transcript.rowCount() == 1800
    assert not view.jump_button.isVisible()


def test_the_heap_is_trimmed_where_the_platform_can() -> None:
    assert trim_heap() is sys.platform.startswith("linux")
