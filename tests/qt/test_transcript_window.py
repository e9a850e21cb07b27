"""The transcript's paging window without Qt: moving over a long session, the LRU of
pages read, live rows cut into pages, reloading. Real SQLite; no application, no
views: what a view would be told is recorded by a plain listener, and the reads
run either at once or when the test lets them (as a worker thread would finish)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_pages import CUT_MESSAGES, PAGE_MESSAGES, session_head
from openworker_qt.qt.transcript_paging import CACHE_PAGES, WINDOW_PAGES, WindowListener
from openworker_qt.qt.transcript_window import CUT_CHECK_ROWS, TranscriptWindow
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database


class Told(WindowListener):
    """Everything a window announces, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def begin_reset(self, moving: bool) -> None:
        self.calls.append(("reset", moving))

    def begin_insert(self, row: int) -> None:
        self.calls.append(("insert", row))

    def begin_remove(self, row: int) -> None:
        self.calls.append(("remove", row))

    def data_changed(self, row: int) -> None:
        self.calls.append(("changed", row))

    def moved(self) -> None:
        self.calls.append(("moved",))

    def located(self, call_id: str) -> None:
        self.calls.append(("located", call_id))

    def full(self) -> None:
        self.calls.append(("full",))

    def names(self) -> list[str]:
        return [c[0] for c in self.calls]


class Later:
    """A runner whose work finishes when the test says (:meth:`finish`)."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Callable[[], Any], Callable[[Any], None]]] = []

    def __call__(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        self.jobs.append((work, done))

    def finish(self) -> int:
        """Every job queued (and those their results queue); returns how many ran."""
        ran = 0
        while self.jobs:
            work, done = self.jobs.pop(0)
            done(work())
            ran += 1
        return ran


@pytest.fixture
def store(tmp_path: Path) -> ConversationStore:
    return ConversationStore(Database(tmp_path / "window.sqlite3"))


def _fill(store: ConversationStore, turns: int) -> str:
    """A stored session of ``turns`` turns: a question, a tool call and its result,
    an answer (4 messages, 3 rows each)."""
    sid = str(store.create_session(title="long", model="scripted:x").id)
    with store.db.transaction() as conn:
        for i in range(turns):
            for m in (
                {"role": "user", "content": f"question {i}"},
                {"role": "assistant", "content": None, "tool_calls": [{
                    "id": f"c{i}", "type": "function",
                    "function": {"name": "read_file", "arguments": json.dumps({"path": f"f{i}"})}}]},
                {"role": "tool", "tool_call_id": f"c{i}", "status": "ok", "content": f"body {i}"},
                {"role": "assistant", "content": f"answer {i}"},
            ):
                conn.execute(
                    "INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, ?)",
                    (sid, m["role"], json.dumps(m), time.time()))
    return sid


def _open(store: ConversationStore, sid: str, runner: Any = None,
          ) -> tuple[TranscriptWindow, Told]:
    told = Told()
    window = TranscriptWindow(told, runner) if runner is not None else TranscriptWindow(told)
    window.store = store
    items, pages = session_head(store, sid, limit=100)
    window.reset(sid, items, pages=pages)
    return window, told


def _questions(window: TranscriptWindow) -> list[int]:
    return [int(r.text.split()[1]) for r in window.items if r.kind == "user"]


# ------------------------------------------------------------------ paging


def test_the_window_pages_back_and_forth_over_a_long_session(store) -> None:
    sid = _fill(store, 500)  # 2,000 messages, 1,500 rows
    window, told = _open(store, sid)
    pages = window.pages
    assert pages is not None and window.paged() and window.at_end()
    tail = window.count()
    assert window.total_units() == pytest.approx(2000)
    assert window.tool_row("c499") is not None and window.tool_row("c0") is None
    # A jump to the start: the first pages, the tail no longer exposed.
    window.request_units(0)
    assert window.window() == (0, WINDOW_PAGES - 1, False)
    assert window.item(0).text == "question 0" and window.tool_row("c0") == 1
    assert told.calls[-2:] == [("reset", True), ("moved",)]
    first = _questions(window)
    assert first == list(range(len(first)))  # every turn, in order, once
    assert window.count() <= WINDOW_PAGES * PAGE_MESSAGES
    # Forward a page: the oldest page goes, the next one comes, nothing skipped.
    assert window.request_shift(older=False)
    assert window.window() == (1, WINDOW_PAGES, False)
    after = _questions(window)
    assert after[0] > 0 and after == list(range(after[0], after[-1] + 1))
    assert after[0] <= first[-1] + 1 <= after[-1]
    # And back: the same rows as before.
    assert window.request_shift(older=True)
    assert window.window() == (0, WINDOW_PAGES - 1, False)
    assert _questions(window) == first
    assert not window.request_shift(older=True)  # nothing before page 0
    # Where a row is in the session, and back.
    units = window.units_of_row(200, 0.5)
    at = window.row_of_units(units)
    assert at is not None and at[0] == 200 and at[1] == pytest.approx(0.5)
    assert not window.covers(1990)
    # To the end: the tail again, the rows it had.
    window.request_units(window.total_units())
    assert window.at_end() and window.tool_row("c499") is not None
    assert window.item(window.count() - 1).text == "answer 499"
    assert window.count() - tail <= WINDOW_PAGES * PAGE_MESSAGES
    assert not window.request_shift(older=False)  # nothing after the tail


def test_a_move_waits_for_its_pages_and_shows_them_in_one_reset(store) -> None:
    sid = _fill(store, 500)
    later = Later()
    window, told = _open(store, sid, later)
    assert later.finish() == 1  # the page above the tail, read ahead
    told.calls.clear()
    window.request_units(800)  # the middle of the session
    assert window.reading() and window.at_end()  # still the tail while its pages are read
    assert "reset" not in told.names()
    later.finish()
    assert not window.reading() and not window.at_end()
    assert told.names().count("reset") == 1 and told.names()[-1] == "moved"
    assert window.covers(800)
    at = window.row_of_units(800)
    assert at is not None and 700 <= window.units_of_row(at[0]) <= 900


def test_pages_beyond_the_cache_are_forgotten_least_recently_shown_first(store) -> None:
    sid = _fill(store, 500)
    later = Later()
    window, _ = _open(store, sid, later)
    later.finish()
    window.request_units(0)
    later.finish()
    most = 0
    while window.request_shift(older=False):  # to the end, a page at a time
        later.finish()
        most = max(most, window.cached_pages())
        assert window.cached_pages() <= CACHE_PAGES
    assert window.at_end() and most == CACHE_PAGES
    assert window.find_tool("c0") is None  # page 0 was shown longest ago: gone
    assert window.find_tool("c400") is not None  # a page shown just now: kept
    # Back to the start: page 0 is read again (the cache no longer had it).
    window.request_units(0)
    assert window.reading()
    assert later.finish() >= 1
    assert window.window()[0] == 0 and window.item(0).text == "question 0"


def test_a_page_that_cannot_be_read_says_so_in_its_place(store) -> None:
    sid = _fill(store, 500)
    later = Later()
    window, _ = _open(store, sid, later)
    later.finish()
    window.request_units(0)
    store.db.close()  # the database went away under the reads
    later.finish()
    assert window.window()[0] == 0 and not window.reading()
    notice = window.item(0)
    assert notice.kind == "notice" and notice.notice_kind == "error"
    assert notice.text.startswith("These messages could not be read")


# -------------------------------------------------------------- reloading


def test_reloading_drops_the_old_session_and_reads_meant_for_it(store) -> None:
    sid = _fill(store, 500)
    later = Later()
    window, told = _open(store, sid, later)
    later.finish()
    window.request_units(0)  # a read under way...
    assert window.reading()
    held = window.reset("other", [TranscriptItem("user", text="hi")])  # ...and the user switches
    assert held >= 100
    later.finish()  # the read ends for a session no longer shown: dropped
    assert window.count() == 1 and window.item(0).text == "hi"
    assert not window.paged() and window.cached_pages() == 0 and not window.reading()
    assert told.calls[-1] == ("reset", False)
    # Opening the long session again starts from its end, as the first time.
    items, pages = session_head(store, sid, limit=100)
    assert window.reset(sid, items, pages=pages) == 1
    assert window.at_end() and window.item(window.count() - 1).text == "answer 499"


def test_a_waiting_call_in_a_page_not_read_is_found_and_marked(store) -> None:
    sid = _fill(store, 500)
    window, told = _open(store, sid)
    # Stored calls are finished; the inbox says c3 waits (its result was not kept).
    with store.db.transaction() as conn:
        conn.execute("DELETE FROM messages WHERE session_id = ? AND data LIKE ?",
                     (sid, '%"tool_call_id": "c3"%'))
    assert window.mark_awaiting("c3", 7, reason="asks") is None  # not held: looked up
    assert ("located", "c3") in told.calls
    row = window.mark_awaiting("c3", 7, reason="asks")
    assert row is not None and window.item(row).status == "awaiting"
    assert window.item(row).waiting_on == 7 and window.window()[0] == 0
    assert window.mark_resolved("c3", 7) == row


# ------------------------------------------------------- live rows become pages


def _live_turn(window: TranscriptWindow, store: ConversationStore, sid: str, i: int) -> None:
    question = {"role": "user", "content": f"question {i}"}
    answer = {"role": "assistant", "content": f"answer {i}"}
    store.append(sid, question)
    window.apply(ev.UserMessageAdded(session_id=sid, message=question))  # type: ignore[arg-type]
    store.append(sid, answer)
    window.apply(ev.AssistantMessage(session_id=sid, message=answer))  # type: ignore[arg-type]
    window.apply(ev.TurnEnded(session_id=sid, status="completed", iterations=1))


def test_live_rows_become_pages_without_moving_anything_on_screen(store) -> None:
    sid = str(store.create_session(title="live", model="scripted:x").id)
    told = Told()
    window = TranscriptWindow(told)
    window.store = store
    window.reset(sid, [])
    assert not window.paged()
    i = 0
    while not window.paged():  # short so far: every row in the tail
        _live_turn(window, store, sid, i)
        i += 1
        assert i * 2 <= CUT_MESSAGES + 2
    assert i * 2 >= CUT_MESSAGES and i * 2 >= CUT_CHECK_ROWS
    # The oldest page left the tail, its rows (the same objects) still exposed, in place.
    assert window.window() == (0, 0, True)
    assert _questions(window) == list(range(i))
    assert len(window.newest_rows()) < 2 * i
    assert window.newest_rows()[0].kind == "user"
    assert "reset" not in [c[0] for c in told.calls[1:]]  # no reset after the opening one
    assert window.pages is not None and window.pages.read(0)[0].text == "question 0"
    # More turns: more pages, until the window is longer than it may be...
    while ("full",) not in told.calls:
        _live_turn(window, store, sid, i)
        i += 1
    first, last, at_end = window.window()
    assert at_end and last - first + 1 == WINDOW_PAGES + 1
    # ...and fitting it drops its oldest page, the end still followed.
    window.fit_window()
    assert window.window() == (1, WINDOW_PAGES, True)
    assert _questions(window)[-1] == i - 1
    assert window.has_older() and window.total_units() == pytest.approx(2 * i)


def test_a_call_waiting_for_the_user_is_never_cut_off(store) -> None:
    sid = str(store.create_session(title="live", model="scripted:x").id)
    store.append(sid, {"role": "user", "content": "question 0"})
    store.append(sid, {"role": "assistant", "content": None, "tool_calls": [{  # type: ignore[typeddict-item]
        "id": "w1", "type": "function", "function": {"name": "send_email", "arguments": "{}"}}]})
    for i in range(1, CUT_MESSAGES):
        store.append(sid, {"role": "user", "content": f"question {i}"})
        store.append(sid, {"role": "assistant", "content": f"answer {i}"})
    window = TranscriptWindow()
    window.store = store
    items, pages = session_head(store, sid, limit=10_000)
    assert pages is None  # short enough to open whole: every row in the tail
    window.reset(sid, items)
    row = window.mark_awaiting("w1", 1, reason="sends mail")
    assert row is not None and window.item(row).status == "awaiting"
    _live_turn(window, store, sid, CUT_MESSAGES)
    assert not window.cutting and not window.paged()  # looked, and kept the tail whole
    assert window.tool_row("w1") == row
