"""A session kept open for weeks stays bounded: rows that arrive live become pages
of the session once enough of them are stored, and the window drops its oldest
page while the user follows the end. Real engine turns (scripted model), real
SQLite, real window, offscreen."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from PySide6.QtCore import QPoint

from openworker_qt.qt import transcript_paging
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.qt.transcript_pages import CUT_MESSAGES, PAGE_MESSAGES
from openworker_qt.qt.transcript_paging import WINDOW_PAGES
from openworker_qt.qt.transcript_reducer import items_from_history
from openworker_qt.ui.transcript_view import BAR_SCALE
from tests.ui.conftest import posted_marker, run, until

TURNS = 450  # 900 messages, 900 rows: more than the window holds
BOUND = (WINDOW_PAGES + 2) * PAGE_MESSAGES  # the window's pages and a tail of two


def _script() -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = [{"text": f"answer {i}"} for i in range(TURNS)]
    turns.append({"tool_calls": [{"id": "w1", "name": "write_file",
                                  "arguments": {"path": "out.txt", "content": "hello\n"}}]})
    turns.append({"text": "Done."})
    return turns


async def _settled(window: Any) -> None:
    await until(lambda: not window.transcript.reading() and window.view._seek is None,
                timeout=10, what="the window moved")


def test_live_rows_become_pages_and_the_window_stays_bounded(qloop, make_desktop) -> None:
    desktop = make_desktop(_script())
    window = desktop.window
    window.cards.show_dialogs = False
    view = window.view
    manager = desktop.manager
    store = desktop.runtime.conversations
    most = {"rows": 0, "heights": 0}
    seen: dict[str, Any] = {}

    def note() -> None:
        most["rows"] = max(most["rows"], window.transcript.rowCount())
        most["heights"] = max(most["heights"], len(view.delegate._heights))

    async def scenario() -> None:
        sid = window.ensure_session()
        seen["sid"] = sid
        for i in range(TURNS):
            task = manager.send(sid, f"question {i}")
            assert task is not None
            await task
            note()
        await until(lambda: not getattr(window.transcript, "_cutting", False), what="the last look for a page")
        # A live turn that waits for the user: its card stays on its row.
        assert manager.send(sid, "write the file") is not None
        await until(lambda: view.card_for("w1") is not None and view.card_for("w1").isVisible(),
                    timeout=10, what="the approval card")
        note()
        bar = view.session_bar
        seen["units"] = window.transcript.total_units()
        seen["bar"] = (bar.maximum() + bar.pageStep(), bar.value() == bar.maximum())
        seen["count"] = store.count(sid)
        # Scrolling up reads the early live messages back from SQLite.
        view.jump_to_start()
        await _settled(window)
        seen["start"] = window.transcript.items
        note()
        view.session_bar.setValue(view.session_bar.maximum() // 2)
        await _settled(window)
        seen["middle"] = window.transcript.items
        note()
        # Back at the end: the waiting call's card is on its row again.
        view.session_bar.setValue(view.session_bar.maximum())
        await _settled(window)
        await until(lambda: view.card_for("w1") is not None and view.card_for("w1").isVisible(),
                    what="the card back on its row")
        note()

    run(qloop, scenario)
    model = window.transcript
    assert most["rows"] <= BOUND
    assert model.paged()
    assert most["heights"] <= BOUND + PAGE_MESSAGES
    # The scrollbar counts every stored message (2 a turn, and the waiting turn's 2).
    count = seen["count"]
    assert count == 2 * TURNS + 2
    assert abs(seen["units"] - count) <= 2
    assert abs(seen["bar"][0] - count * BAR_SCALE) <= 3 * BAR_SCALE and seen["bar"][1]
    whole = items_from_history(store.load(seen["sid"]))
    # The pages cut from live rows read back from SQLite as the whole session.
    layout = model._pages
    read = [row for page in range(layout.count) for row in layout.read(page)]
    assert [(r.kind, r.text) for r in read + model.newest_rows()] == [
        (r.kind, r.text) for r in whole]
    assert layout.count >= 4 and layout.page_of_call("w1") is None
    start = seen["start"]
    assert start[0].text == "question 0" and start[1].text == "answer 0"
    assert [(r.kind, r.text) for r in start] == [(r.kind, r.text) for r in whole[:len(start)]]
    middle = seen["middle"]
    first = next(i for i, r in enumerate(whole) if r.kind == middle[0].kind and r.text == middle[0].text)
    assert [(r.kind, r.text) for r in middle] == [
        (r.kind, r.text) for r in whole[first:first + len(middle)]]
    assert 0 < first < len(whole) - len(middle)
    row = model.tool_row("w1")
    assert row is not None and model.item(row).status == "awaiting"
    assert view.indexWidget(model.index(row, 0)).isAncestorOf(view.card_for("w1"))
    assert model.item(model.rowCount() - 3).text == f"answer {TURNS - 1}"
    assert model.rowCount() <= BOUND


# ------------------------------------------------------------- the model alone


def _live_turns(qtbot: Any, model: Any, store: Any, sid: str, turns: range,
                shown: dict[int, str] | None = None) -> None:
    """Store a chat turn and send its events, as the engine does; ``shown``: answers
    that showed other text live than was stored."""
    from openworker_qt.core import events as ev

    for i in turns:
        question = {"role": "user", "content": f"question {i}"}
        answer = {"role": "assistant", "content": f"answer {i}"}
        store.append(sid, question)
        model.apply(ev.UserMessageAdded(session_id=sid, message=question))
        store.append(sid, answer)
        live = dict(answer, content=(shown or {}).get(i, f"answer {i}"))
        model.apply(ev.AssistantMessage(session_id=sid, message=live))
        model.apply(ev.TurnEnded(session_id=sid, status="completed", iterations=1))
        qtbot.waitUntil(lambda: not model._cutting, timeout=5000)


def _model(make_desktop: Any) -> tuple[TranscriptModel, Any, str]:
    desktop = make_desktop([{"text": "x"}])
    store = desktop.runtime.conversations
    sid = str(store.create_session(title="live", model="scripted:x").id)
    model = TranscriptModel()
    model.store = store
    model.reset(sid, [])
    return model, store, sid


def test_the_store_is_the_truth_for_a_page_cut_from_live_rows(qtbot, make_desktop) -> None:
    model, store, sid = _model(make_desktop)
    _live_turns(qtbot, model, store, sid, range(CUT_MESSAGES // 2),
                shown={3: "answer 3, as it showed live"})
    assert model.paged() and model.window()[:2] == (0, 0)  # the first page, still exposed
    texts = [r.text for r in model.items]
    assert texts[7] == "answer 3"  # the stored text replaced what showed
    assert texts == [t for i in range(CUT_MESSAGES // 2) for t in (f"question {i}", f"answer {i}")]
    assert model.total_units() == CUT_MESSAGES


def test_the_window_keeps_the_row_being_read(qtbot, make_desktop) -> None:
    model, store, sid = _model(make_desktop)
    # Enough for the window's pages and one more (nobody answers window_full here).
    turns = (CUT_MESSAGES + WINDOW_PAGES * PAGE_MESSAGES) // 2
    _live_turns(qtbot, model, store, sid, range(turns))
    first, last, at_end = model.window()
    assert at_end and last - first + 1 == WINDOW_PAGES + 1
    rows = model.rowCount()
    # Reading a row of the second page: only the first page goes.
    reading = model.items[PAGE_MESSAGES + 5]
    model.fit_window(PAGE_MESSAGES + 5)
    assert model.window() == (first + 1, last, True)
    assert model.rowCount() == rows - PAGE_MESSAGES
    assert model.item(5) is reading
    # Following the end: the window's oldest pages go, the end stays.
    _live_turns(qtbot, model, store, sid, range(turns, turns + PAGE_MESSAGES // 2))
    assert model.window()[1] - model.window()[0] + 1 == WINDOW_PAGES + 1
    model.fit_window(None)
    assert model.window()[2] and model.window()[1] - model.window()[0] + 1 == WINDOW_PAGES
    # Reading the first row of the window: the window leaves the end instead.
    _live_turns(qtbot, model, store, sid, range(turns + PAGE_MESSAGES // 2, turns + PAGE_MESSAGES))
    reading = model.item(3)
    model.fit_window(3)
    first, last, at_end = model.window()
    assert not at_end and last - first + 1 == WINDOW_PAGES
    assert model.item(3) is reading
    assert model.newest_rows()[-1].text == f"answer {turns + PAGE_MESSAGES - 1}"


def test_live_rows_that_do_not_line_up_with_the_store_stay_in_the_tail(qtbot, make_desktop) -> None:
    model, store, sid = _model(make_desktop)
    # A message another process stored: no live row shows it (until reopened).
    store.append(sid, {"role": "user", "content": "from the command line"})
    _live_turns(qtbot, model, store, sid, range(CUT_MESSAGES // 2 + 10))
    # No page is cut where the rows would not match the store: nothing is lost.
    assert not model.paged()
    assert [r.text for r in model.items] == [
        t for i in range(CUT_MESSAGES // 2 + 10) for t in (f"question {i}", f"answer {i}")]


@pytest.mark.parametrize("reading", ["near the end", "in the page cut first"])
def test_rows_being_read_stay_still_when_live_rows_become_pages(qloop, make_desktop, monkeypatch,
                                                               reading) -> None:
    monkeypatch.setattr(transcript_paging, "WINDOW_PAGES", 1)  # full after two cuts
    desktop = make_desktop([{"text": "live answer", "repeat": True}])
    window = desktop.window
    view = window.view
    runtime = desktop.runtime
    info = runtime.conversations.create_session(
        title="long", model=runtime.config.data["general"]["default_model"])
    sid = str(info.id)
    with runtime.db.transaction() as conn:
        for i in range(500):  # 1,000 messages: paged, the window holds the newest page
            for m in ({"role": "user", "content": f"question {i}"},
                      {"role": "assistant", "content": f"answer {i}"}):
                conn.execute("INSERT INTO messages(session_id, role, data, created_at)"
                             " VALUES (?, ?, ?, ?)", (sid, m["role"], json.dumps(m), time.time()))
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        inner = view.verticalScrollBar()
        window.open_session(sid)
        await until(lambda: window.loaded() and window.transcript.rowCount(), what="load")
        await until(lambda: inner.value() == inner.maximum() > 0, what="at bottom")
        if reading == "near the end":
            inner.setValue(inner.maximum() - view.viewport().height() // 2)
        else:  # the newest page's row 100: its messages go into the first page cut
            rect = view.visualRect(window.transcript.index(100, 0))
            inner.setValue(inner.value() + rect.top())
        await until(lambda: not view._stick_to_bottom, what="scrolled up")
        top = view.indexAt(QPoint(1, 1))
        seen["item"] = window.transcript.item(top.row())
        seen["y"] = view.visualRect(top).top()
        moved = []
        window.transcript.window_moved.connect(lambda: moved.append(1))
        for i in range(140):  # 280 messages: two pages cut from the tail
            task = desktop.manager.send(sid, f"live question {i}")
            assert task is not None
            await task
        await until(lambda: not window.transcript._cutting and moved, what="the window fitted")
        await until(posted_marker(), what="the layout and scroll the cut queued")
        now = view.indexAt(QPoint(1, 1))
        seen["now"] = window.transcript.item(now.row())
        seen["now y"] = view.visualRect(now).top()
        seen["window"] = window.transcript.window()

    run(qloop, scenario)
    assert seen["now"] is seen["item"] and abs(seen["now y"] - seen["y"]) <= 2
    first, last, at_end = seen["window"]
    assert last - first + 1 == 1
    # Near the end: the page above the row being read went. In that page: the window
    # left the end instead (the live rows are there when the user scrolls down).
    assert at_end is (reading == "near the end")
    assert window.transcript.newest_rows()[-1].text == "live answer"
