"""The sessions sidebar over thousands of sessions: every one reachable, grouped
by date, searched in a worker at every key, the newest search winning (titles
and messages, old sessions included, words inside Chinese text), and its menu (pin, export, delete with Cancel the default)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from openworker_qt.qt.session_model import (
    HEADER_ROLE,
    ID_ROLE,
    MATCH_ROLE,
    PENDING_ROLE,
    RUNNING_ROLE,
    SNIPPET_ROLE,
    SessionListModel,
)
from openworker_qt.storage.conversations import ConversationStore, day_bounds
from openworker_qt.storage.db import Database
from openworker_qt.ui.sidebar import Sidebar


def _store(tmp_path: Path) -> ConversationStore:
    return ConversationStore(Database(tmp_path / "s.sqlite3"))


def _many(store: ConversationStore, n: int, title: str = "session {i}") -> list[str]:
    today, yesterday, week = day_bounds()
    stamps = [today + 30, yesterday + 30, week + 30, week - 86400 * 90]
    ids = []
    with store.batch():
        for i in range(n):
            sid = store.create_session(title=title.format(i=i)).id
            store.db.execute("UPDATE sessions SET updated_at = ? WHERE id = ?",
                             (stamps[i % 4] + i * 0.001, sid))
            ids.append(sid)
    return ids


def _sidebar(qtbot: Any, store: ConversationStore, running: frozenset[str] = frozenset()) -> Sidebar:
    model = SessionListModel(store, running=lambda: running)
    sidebar = Sidebar(model)
    sidebar.pin_requested.connect(store.set_pinned)  # (the window does it through its manager)
    qtbot.addWidget(sidebar)
    sidebar.resize(300, 600)
    sidebar.show()
    model.reload()
    return sidebar


def _rows(model: SessionListModel) -> list[Any]:
    return [model.index(r, 0).data(ID_ROLE) or model.index(r, 0).data()
            for r in range(model.rowCount())]


def test_every_one_of_thousands_of_sessions_is_reachable_grouped_by_date(qtbot, tmp_path) -> None:
    store = _store(tmp_path)
    ids = _many(store, 2_345)
    sidebar = _sidebar(qtbot, store)
    model = sidebar.model
    rows = _rows(model)
    headers = [r for r in range(model.rowCount()) if model.index(r, 0).data(HEADER_ROLE)]
    assert [rows[r] for r in headers] == ["Today", "Yesterday", "Previous 7 days", "Older"]
    assert model.rowCount() == 2_345 + 4 and model.session_count() == 2_345
    assert sorted(r for r in rows if r not in ("Today", "Yesterday", "Previous 7 days", "Older")) == sorted(ids)
    # Headers are not sessions: never selected, skipped by the keyboard.
    assert model.flags(model.index(0, 0)) == Qt.ItemFlag.NoItemFlags
    # The view reaches the oldest one at the bottom (the list is not cut at 500).
    sidebar.list.scrollToBottom()
    last = model.index(model.rowCount() - 1, 0)
    assert last.data(ID_ROLE) == ids[3]  # the oldest: "Older", least recent
    bar = sidebar.list.verticalScrollBar()
    assert bar.value() == bar.maximum() > 0


def test_every_key_searches_at_once_in_a_worker_the_newest_wins_and_finds_old_messages(qtbot, tmp_path) -> None:
    store = _store(tmp_path)
    ids = _many(store, 300)
    old = ids[3]  # last active months ago
    store.append(old, {"role": "user", "content": "Where did the okapi budget go?"})
    store.db.execute("UPDATE sessions SET updated_at = ? WHERE id = ?", (time.time() - 86400 * 200, old))
    sidebar = _sidebar(qtbot, store)
    model = sidebar.model
    ran: list[tuple[str, str]] = []
    started = threading.Event()
    stopped: list[str] = []
    search = store.search_sessions

    def spy(text: str, **kwargs: Any) -> Any:  # the real search, noting where it ran
        ran.append((text, threading.current_thread().name))
        if text == "o":  # a query that ends only when a newer search stops it
            started.set()
            try:
                store.db.query("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
                               " SELECT COUNT(*) FROM c")
            except Exception as exc:
                stopped.append(str(exc))
                raise
        return search(text, **kwargs)

    store.search_sessions = spy
    shown: list[str] = []
    model.search_done.connect(shown.append)
    layouts: list[int] = []
    model.layoutChanged.connect(lambda: layouts.append(model.rowCount()))
    try:
        qtbot.keyClick(sidebar.search, "o")
        qtbot.waitUntil(started.is_set, timeout=5000)  # started on the key, no pause
        with qtbot.waitSignal(model.search_done, timeout=5000):
            qtbot.keyClicks(sidebar.search, "kap")
    finally:
        model.close()  # (the query never left running, whatever failed)
    assert stopped and "interrupt" in stopped[0]  # the stale query was stopped
    assert model.stale_stopped >= 1
    assert ran[0][0] == "o" and ran[-1][0] == "okap"
    assert all(name.startswith("session-search") for _text, name in ran)  # never the loop
    assert shown == ["okap"] and layouts == [1]  # stale results never reached the list
    assert _rows(model) == [old]
    hit = model.index(0, 0)
    assert hit.data(MATCH_ROLE) == ["okap"]
    assert "okapi budget" in hit.data(SNIPPET_ROLE)
    assert "found in" in hit.data(Qt.ItemDataRole.ToolTipRole)
    sidebar.grab()  # the hit paints, marked
    with qtbot.waitSignal(model.search_done, timeout=5000):
        sidebar.search.clear()
    assert model.session_count() == 300 and not model.searching


def test_a_chinese_word_in_the_middle_of_a_message_is_found_and_marked_as_written(qtbot, tmp_path) -> None:
    store = _store(tmp_path)
    ids = _many(store, 20)
    store.append(ids[5], {"role": "user", "content": "你好，请把季度报告发给我，谢谢"})
    sidebar = _sidebar(qtbot, store)
    with qtbot.waitSignal(sidebar.model.search_done, timeout=5000):
        sidebar.search.insert("报告")  # (as an input method commits it)
    model = sidebar.model
    assert _rows(model) == [ids[5]]
    hit = model.index(0, 0)
    assert hit.data(MATCH_ROLE) == ["报告"]
    assert hit.data(SNIPPET_ROLE) == "你好，请把季度报告发给我，谢谢"  # the text as written
    from openworker_qt.ui.sidebar import _marked

    assert _marked(hit.data(SNIPPET_ROLE), hit.data(MATCH_ROLE)) == [
        ("你好，请把季度", False), ("报告", True), ("发给我，谢谢", False)]
    sidebar.grab()


def test_a_search_matching_more_than_500_shows_them_all(qtbot, tmp_path) -> None:
    store = _store(tmp_path)
    ids = _many(store, 720, title="weekly report {i}")
    _many(store, 50, title="other {i}")
    sidebar = _sidebar(qtbot, store)
    with qtbot.waitSignal(sidebar.model.search_done, timeout=5000):
        qtbot.keyClicks(sidebar.search, "weekly")
    model = sidebar.model
    assert model.rowCount() == 720
    assert set(_rows(model)) == set(ids)
    sidebar.list.scrollToBottom()
    assert model.index(719, 0).data(ID_ROLE) in ids


def test_the_first_page_of_many_hits_is_shown_before_the_worker_has_read_them_all(qtbot, tmp_path) -> None:
    """A search with thousands of hits shows its first page (in the sidebar's
    order) while the worker is still reading the rest; the rest are then added
    below it, the rows on screen unmoved, every hit reachable."""
    from openworker_qt.qt.session_model import PAGE

    store = _store(tmp_path)
    ids = _many(store, 720, title="weekly report {i}")
    _many(store, 50, title="other {i}")
    store.set_pinned(ids[700], True)
    sidebar = _sidebar(qtbot, store)
    model = sidebar.model
    expected = [h.session_id for h in store.search_sessions("weekly")]
    sidebar.select(expected[600])  # the open session: a hit far below the first page
    chosen: list[str] = []
    sidebar.session_selected.connect(chosen.append)
    reading = threading.Event()
    release = threading.Event()
    search = store.search_sessions

    def spy(text: str, **kwargs: Any) -> Any:  # the real search, held after its first page
        shown = kwargs.get("on_first")

        def first(head: Any) -> None:
            if shown is not None:
                shown(head)
            if text == "weekly":
                reading.set()
                release.wait(10)  # the worker has not read the rest of the hits yet

        if shown is not None:
            kwargs["on_first"] = first
        return search(text, **kwargs)

    store.search_sessions = spy
    done: list[str] = []
    model.search_done.connect(done.append)
    try:
        sidebar.search.insert("weekly")
        qtbot.waitUntil(lambda: model.searching and model.rowCount() > 0, timeout=5000)
        assert reading.is_set() and not release.is_set() and done == []
        assert model.searching and model.rowCount() == PAGE
        first_page = _rows(model)
        assert first_page == expected[:PAGE] and first_page[0] == ids[700]  # the sidebar's order
        sidebar.grab()  # the first page paints
    finally:
        release.set()
    qtbot.waitUntil(lambda: done == ["weekly"], timeout=5000)
    assert model.rowCount() == 720 and _rows(model) == expected
    assert _rows(model)[:PAGE] == first_page  # the rows shown did not move
    assert sidebar.current_id() == expected[600] and chosen == []  # still the open one
    sidebar.list.scrollToBottom()
    assert model.index(719, 0).data(ID_ROLE) == expected[-1]


def test_the_selection_follows_its_session_when_others_appear(qtbot, tmp_path) -> None:
    store = _store(tmp_path)
    ids = _many(store, 500)
    sidebar = _sidebar(qtbot, store)
    sidebar.select(ids[250])
    chosen: list[str] = []
    sidebar.session_selected.connect(chosen.append)
    for _ in range(3):
        store.create_session(title="new")
    sidebar.model.reload()
    assert sidebar.current_id() == ids[250] and chosen == []


def test_pin_export_and_delete_from_the_menu(qtbot, tmp_path) -> None:
    store = _store(tmp_path)
    ids = _many(store, 40)
    store.append(ids[5], {"role": "user", "content": "Draft the renewal brief"})
    store.append(ids[5], {"role": "assistant", "content": "Here it is: **done**."})
    sidebar = _sidebar(qtbot, store)
    model = sidebar.model
    sidebar.select(ids[5])
    sidebar.toggle_pin()
    assert model.index(0, 0).data() == "Pinned" and model.index(1, 0).data(ID_ROLE) == ids[5]
    assert sidebar.current_id() == ids[5]
    # Export as Markdown: written in the worker, then announced.
    target = tmp_path / "brief.md"
    with qtbot.waitSignal(sidebar.exported, timeout=5000) as done:
        sidebar.export_to(ids[5], target)
    assert done.args == [str(target)]
    text = target.read_text(encoding="utf-8")
    assert "## You\n\nDraft the renewal brief" in text and "Here it is: **done**." in text
    with qtbot.waitSignal(sidebar.export_failed, timeout=5000):
        sidebar.export_to(ids[5], tmp_path / "missing" / "x.md")
    # Delete asks first; Cancel is the default (Enter keeps the session).
    deleted: list[str] = []
    sidebar.delete_requested.connect(deleted.append)
    box = sidebar.delete_current()
    assert box is not None and box.isVisible()
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    qtbot.keyClick(box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not box.isVisible())
    assert deleted == []
    box = sidebar.delete_current()
    assert box is not None
    box.findChild(type(box.defaultButton()), "deleteButton").click()
    qtbot.waitUntil(lambda: not box.isVisible())
    assert deleted == [ids[5]]


def test_badges_and_hover_paint(qtbot, tmp_path) -> None:
    store = _store(tmp_path)
    ids = _many(store, 10)
    sidebar = _sidebar(qtbot, store, running=frozenset({ids[9]}))
    model = sidebar.model
    model.set_pending({ids[8]: 3})
    row9 = model.row_of(ids[9])
    assert row9 is not None and model.index(row9, 0).data(RUNNING_ROLE) is True
    row = model.row_of(ids[8])
    assert row is not None and model.index(row, 0).data(PENDING_ROLE) == 3
    assert "3 waiting for you" in model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert not sidebar.grab().isNull()


def test_the_menu_acts_on_the_row_right_clicked(qtbot, tmp_path) -> None:
    store = _store(tmp_path)
    ids = _many(store, 5)
    sidebar = _sidebar(qtbot, store)
    model = sidebar.model
    row = model.row_of(ids[2])
    assert row is not None
    rect = sidebar.list.visualRect(model.index(row, 0))
    for _ in range(3):  # the same menu each time
        sidebar._on_list_menu(rect.center())
        menu = sidebar.context_menu
        assert menu is not None
        qtbot.waitUntil(menu.isVisible)
        assert [a.text() for a in menu.actions() if a.text()] == [
            "Re&name…", "&Pin", "&Export as Markdown…", "Delete…"]
        menu.hide()
    assert len(sidebar.findChildren(type(menu))) == 1
    sidebar._on_list_menu(rect.center())
    sidebar.pin_action.trigger()  # acts on the row clicked, not the current one
    assert store.get_session(ids[2]).pinned
    assert sidebar.current_id() == ids[2]


def test_a_found_messages_snippet_is_plain_words_without_markdown_marks(qtbot, tmp_path) -> None:
    store = _store(tmp_path)
    ids = _many(store, 5)
    store.append(ids[2], {"role": "assistant", "content":
                          "## Result\n\nHere is **the helper**:\n\n```python\ndef step_1(x):\n"
                          "    return x.__len__()\n```\n\n> Use `step_1` twice."})
    sidebar = _sidebar(qtbot, store)
    with qtbot.waitSignal(sidebar.model.search_done, timeout=5000):
        qtbot.keyClicks(sidebar.search, "helper")
    model = sidebar.model
    assert _rows(model) == [ids[2]]
    assert model.index(0, 0).data(SNIPPET_ROLE) == (
        "Result Here is the helper: def step_1(x): return x.__len__() Use step_1 twice.")
