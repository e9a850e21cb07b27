"""Very long sessions: the view holds a bounded window of rows read from SQLite in
a worker, a session scrollbar stands for the whole session from the first paint,
"jump to start", live rows while scrolled away, a waiting call in an old page, and
the heap given back after switching away. Real SQLite, real window, offscreen."""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from PySide6.QtCore import QPoint, Qt

from openworker_qt.qt.heap_trim import trim_heap
from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.qt.transcript_pages import PAGE_MESSAGES, session_head
from openworker_qt.qt.transcript_paging import CACHE_PAGES, WINDOW_PAGES
from openworker_qt.qt.transcript_reducer import items_from_history
from openworker_qt.ui.transcript_view import BAR_SCALE
from tests.ui.conftest import run, until

TURNS = 1_250  # 5,000 messages, 3,750 rows


def _history(turns: int, unanswered: int = -1) -> list[dict[str, Any]]:
    msgs: list[dict[str, Any]] = []
    for i in range(turns):
        msgs.append({"role": "user", "content": f"question {i}"})
        msgs.append({"role": "assistant", "content": None, "tool_calls": [{
            "id": f"c{i}", "type": "function",
            "function": {"name": "read_file", "arguments": json.dumps({"path": f"f{i}"})}}]})
        if i != unanswered:
            msgs.append({"role": "tool", "tool_call_id": f"c{i}", "status": "ok",
                         "content": f"body {i}"})
        msgs.append({"role": "assistant", "content": f"answer {i}"})
    return msgs


def _fill(runtime: Any, turns: int, unanswered: int = -1) -> str:
    info = runtime.conversations.create_session(title="long", model="scripted:x")
    with runtime.db.transaction() as conn:
        for m in _history(turns, unanswered):
            conn.execute("INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, ?)",
                         (info.id, m["role"], json.dumps(m), time.time()))
    return str(info.id)


def _top_question(view: Any) -> int:
    """The number of the first question at or below the top of the viewport."""
    model = view.transcript()
    top = view.indexAt(QPoint(1, 1)).row()
    for row in range(max(0, top), model.rowCount()):
        item = model.item(row)
        if item.kind == "user":
            return int(item.text.split()[-1])
    raise AssertionError("no question below the top")


async def _open(window: Any, sid: str) -> None:
    bar = window.view.verticalScrollBar()
    window.open_session(sid)
    await until(lambda: window.loaded() and window.transcript.rowCount(), what="load")
    await until(lambda: bar.value() == bar.maximum() > 0, what="at bottom")


async def _settled(window: Any) -> None:
    await until(lambda: not window.transcript.reading() and window.view._seek is None,
                timeout=10, what="the window moved")


def test_pages_join_up_into_the_whole_session(qtbot, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    store = desktop.runtime.conversations
    sid = _fill(desktop.runtime, 1_000)  # 4,000 messages, 3,000 rows
    tail, pages = session_head(store, sid, limit=100)
    assert pages is not None and pages.older == 4_000 - 100  # the tail starts at a question
    rows: list[TranscriptItem] = []
    for page in reversed(range(pages.count)):  # read newest first, as a user scrolls up
        rows[0:0] = pages.read(page)
    whole = items_from_history(store.load(sid))
    assert [(r.kind, r.text, r.status) for r in rows + tail] == [
        (r.kind, r.text, r.status) for r in whole]
    # Every page starts at a question, so a call is never split from its result.
    assert all(pages.read(p)[0].kind == "user" for p in (1, pages.count // 2, pages.count - 1))
    assert pages.page_of_call("c0") == 0
    assert pages.page_of_call("c500") == (500 * 4) // PAGE_MESSAGES


def test_scrollbar_covers_the_whole_session_at_open(qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    window = desktop.window
    view = window.view
    sid = _fill(desktop.runtime, TURNS)

    async def scenario() -> None:
        await _open(window, sid)
        await until(lambda: view.session_bar.maximum() > 0, what="the session bar")

    run(qloop, scenario)
    bar = view.session_bar
    assert bar.isVisible() and not view.verticalScrollBar().isVisible()
    # The range is the whole session (5,000 messages), not the rows held.
    assert window.transcript.rowCount() < 1_000
    assert 0.9 * 5_000 * BAR_SCALE < bar.maximum() + bar.pageStep() <= 5_000 * BAR_SCALE + BAR_SCALE
    assert bar.pageStep() < bar.maximum() / 50  # the thumb is a screen of 5,000 messages
    assert bar.value() == bar.maximum()  # at the end


def test_dragging_to_the_middle_shows_those_messages(qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    window = desktop.window
    view = window.view
    sid = _fill(desktop.runtime, TURNS)
    whole = items_from_history(desktop.runtime.conversations.load(sid))
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        await _open(window, sid)
        view.session_bar.setValue(view.session_bar.maximum() // 2)
        await _settled(window)
        seen["top"] = _top_question(view)
        seen["rows"] = window.transcript.items

    run(qloop, scenario)
    middle = view.session_bar.maximum() / BAR_SCALE / 2 / 4  # 4 messages a turn
    assert abs(seen["top"] - middle) <= 3
    rows = seen["rows"]
    start = next(i for i, r in enumerate(whole) if r.kind == rows[0].kind and r.text == rows[0].text
                 and r.call_id == rows[0].call_id)
    assert [(r.kind, r.text, r.status) for r in rows] == [
        (r.kind, r.text, r.status) for r in whole[start:start + len(rows)]]
    assert not window.transcript.at_end()


def test_jump_to_start_shows_the_first_message(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    window = desktop.window
    sid = _fill(desktop.runtime, TURNS)
    view = window.view
    bar = view.verticalScrollBar()

    async def scenario() -> None:
        await _open(window, sid)
        bar.setValue(bar.maximum() // 2)  # scrolled up a little: the button offers the jump
        await until(lambda: view.jump_button.isVisible(), what="the jump button")
        view.setFocus()
        qtbot.keyClick(view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
        await _settled(window)
        await until(lambda: bar.value() == 0 and view.indexAt(QPoint(1, 1)).row() == 0,
                    what="at the start")

    run(qloop, scenario)
    assert window.transcript.item(0).text == "question 0"
    assert view.session_bar.value() == 0
    assert window.transcript.rowCount() < 1_000
    assert not view.jump_button.isVisible()


def test_memory_stays_bounded_scrolling_through_everything(qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    window = desktop.window
    window.resize(1040, 760)  # twelve screens read down reach past question 40
    view = window.view
    sid = _fill(desktop.runtime, TURNS)
    most: dict[str, int] = {"rows": 0, "pages": 0, "heights": 0}

    def note() -> None:
        model = window.transcript
        most["rows"] = max(most["rows"], model.rowCount())
        most["pages"] = max(most["pages"], model.cached_pages())
        most["heights"] = max(most["heights"], len(view.delegate._heights))

    async def scenario() -> None:
        await _open(window, sid)
        top = view.session_bar.maximum()
        for step in range(21):  # the whole session, from the start to the end
            view.session_bar.setValue(top * step // 20)
            await _settled(window)
            note()
        inner = view.verticalScrollBar()
        view.session_bar.setValue(0)
        await _settled(window)
        for _ in range(12):  # then reading down from the start, screen after screen
            inner.setValue(inner.value() + view.viewport().height())
            await until(lambda: not window.transcript.reading(), what="a page")
            note()

    run(qloop, scenario)
    page_rows = PAGE_MESSAGES  # at most a row a message
    assert most["pages"] <= CACHE_PAGES
    assert most["rows"] <= (WINDOW_PAGES + 2) * page_rows
    assert most["heights"] <= (WINDOW_PAGES + 2) * page_rows
    assert _top_question(view) > 40  # it did read down, page after page


def test_a_message_that_arrives_while_scrolled_away_shows_at_the_end(qloop, make_desktop) -> None:
    from openworker_qt.core import events as ev

    desktop = make_desktop([{"text": "x"}])
    window = desktop.window
    view = window.view
    sid = _fill(desktop.runtime, TURNS)
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        await _open(window, sid)
        view.session_bar.setValue(view.session_bar.maximum() // 2)
        await _settled(window)
        before = view.session_bar.maximum()
        window.transcript.apply(ev.UserMessageAdded(
            session_id=sid, message={"role": "user", "content": "a late question"}))
        seen["shown_now"] = any(r.text == "a late question" for r in window.transcript.items)
        seen["top"] = _top_question(view)
        seen["grew"] = view.session_bar.maximum() > before
        view.session_bar.setValue(view.session_bar.maximum())
        await _settled(window)
        await until(lambda: view.verticalScrollBar().value() == view.verticalScrollBar().maximum(),
                    what="at the end")

    run(qloop, scenario)
    assert not seen["shown_now"]  # the rows being read did not move
    assert seen["grew"]
    assert abs(seen["top"] - TURNS // 2) <= 3
    model = window.transcript
    assert model.item(model.rowCount() - 1).text == "a late question"
    assert model.item(model.rowCount() - 2).text == f"answer {TURNS - 1}"


def test_an_approval_waiting_in_an_old_page_shows_its_card(qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    window = desktop.window
    window.cards.show_dialogs = False
    view = window.view
    sid = _fill(desktop.runtime, TURNS, unanswered=10)  # question 10's call never ran
    desktop.runtime.inbox.add("approval", sid, tool_call_id="c10", tool="read_file",
                              arguments={"path": "f10"}, reason="reads f10")

    async def scenario() -> None:
        window.open_session(sid)
        await until(lambda: view.card_for("c10") is not None, timeout=10, what="the card")
        await until(lambda: view.card_for("c10").isVisible(), what="the card on screen")

    run(qloop, scenario)
    model = window.transcript
    row = model.tool_row("c10")
    assert row is not None and model.item(row).status == "awaiting"
    card = view.card_for("c10")
    assert view.indexWidget(model.index(row, 0)).isAncestorOf(card)
    assert view.visualRect(model.index(row, 0)).intersects(view.viewport().rect())


def test_a_card_outlives_its_row_leaving_the_window(qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    window = desktop.window
    window.cards.show_dialogs = False
    view = window.view
    sid = _fill(desktop.runtime, TURNS, unanswered=TURNS - 1)  # the last call waits
    desktop.runtime.inbox.add("approval", sid, tool_call_id=f"c{TURNS - 1}", tool="read_file",
                              arguments={"path": "f"}, reason="reads f")
    call = f"c{TURNS - 1}"

    async def scenario() -> None:
        window.open_session(sid)
        await until(lambda: view.card_for(call) is not None and view.card_for(call).isVisible(),
                    timeout=10, what="the card")
        card = view.card_for(call)
        view.jump_to_start()
        await _settled(window)
        assert view.card_for(call) is card and not card.isVisible()
        view.session_bar.setValue(view.session_bar.maximum())
        await _settled(window)
        await until(lambda: card.isVisible(), what="the card back on its row")

    run(qloop, scenario)
    row = window.transcript.tool_row(call)
    assert row is not None
    assert view.indexWidget(window.transcript.index(row, 0)).isAncestorOf(view.card_for(call))


def test_switching_away_frees_the_window(qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    window = desktop.window
    sid = _fill(desktop.runtime, TURNS)
    small = desktop.runtime.conversations.create_session(title="small", model="scripted:x").id
    desktop.runtime.conversations.append(small, {"role": "user", "content": "hello"})

    async def scenario() -> None:
        await _open(window, sid)
        window.view.jump_to_start()
        await _settled(window)
        window.open_session(small)
        await until(lambda: window.loaded() and window.transcript.rowCount() == 1, what="small")

    run(qloop, scenario)
    model = window.transcript
    assert not model.paged() and model.cached_pages() == 0
    assert not window.view.session_bar.isVisible()
    assert len(window.view.delegate._heights) <= 2


def test_a_short_session_keeps_the_lists_own_scrollbar() -> None:
    model = TranscriptModel()
    model.reset("s", [TranscriptItem("user", text="hi")])
    assert not model.paged() and model.total_units() >= 1
    assert model.row_of_units(0) == (0, 0.0)


def test_the_heap_is_trimmed_where_the_platform_can() -> None:
    assert trim_heap() is sys.platform.startswith("linux")


def test_rows_shown_after_a_jump_paint_as_skeletons_then_fill_in(qloop, make_desktop, monkeypatch) -> None:
    from openworker_qt.ui import transcript_delegate

    # No time for text layout in a frame: one new row is rendered per frame.
    monkeypatch.setattr(transcript_delegate, "PAINT_BUDGET", 0.0)
    desktop = make_desktop([{"text": "x"}])
    window = desktop.window
    view = window.view
    delegate = view.delegate
    sid = _fill(desktop.runtime, TURNS)
    seen: dict[str, int] = {}

    def visible() -> list[TranscriptItem]:
        model = window.transcript
        top = view.indexAt(QPoint(1, 1)).row()
        rows = [model.item(r) for r in range(top, model.rowCount())
                if view.visualRect(model.index(r, 0)).top() < view.viewport().height()]
        return rows

    async def scenario() -> None:
        await _open(window, sid)
        before = delegate.skeletons
        view.session_bar.setValue(view.session_bar.maximum() // 3)
        await _settled(window)
        view.viewport().repaint()
        await until(lambda: all(delegate._rendered(it, delegate._width()) for it in visible()),
                    what="every row on screen rendered")
        seen["first"] = delegate.skeletons - before
        before = delegate.skeletons
        view.viewport().repaint()
        seen["after"] = delegate.skeletons - before

    run(qloop, scenario)
    assert seen["first"] > 0  # a faint stand-in, not a frame spent laying out text
    assert seen["after"] == 0  # filled in, a row a frame at the least


def test_edit_and_ask_again_stay_on_the_sessions_last_messages(qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    window = desktop.window
    view = window.view
    sid = _fill(desktop.runtime, TURNS)

    async def scenario() -> None:
        await _open(window, sid)
        view.jump_to_start()
        await _settled(window)
        view._note_last_messages()

    run(qloop, scenario)
    shown = {item.uid for item in window.transcript.items}
    delegate = view.delegate
    # The window's last question is not the session's: no "edit and send again" on it.
    assert delegate.last_user_uid and delegate.last_user_uid not in shown
    assert delegate.last_reply_uid and delegate.last_reply_uid not in shown
    last = window.transcript.newest_rows()
    assert delegate.last_reply_uid == last[-1].uid and last[-1].text == f"answer {TURNS - 1}"
