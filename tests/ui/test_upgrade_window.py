"""The first start after an update: a database in the old schema, with many rows,
is brought up to date in a worker thread while the GUI thread's event loop runs
(a small window on screen); the sessions then appear, every row intact, and the
old messages become searchable in the background (Chinese words included)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from openworker_qt.storage.conversation_schema import MIGRATIONS
from openworker_qt.storage.db import Database
from openworker_qt.storage.paths import app_paths
from openworker_qt.storage.upgrade import pending_upgrade
from openworker_qt.ui.upgrade_window import prepare_database

SESSIONS = 120
PER_SESSION = 9


def _old_database(path: Path) -> None:
    """The schema of the first version (no search, no counts), with rows."""
    db = Database(path)
    db.ensure("conversations", MIGRATIONS[:1])
    with db.transaction() as conn:
        for s in range(SESSIONS):
            sid = f"old{s:04d}"
            conn.execute("INSERT INTO sessions(id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                         (sid, f"Session {s}", 1000.0 + s, 1000.0 + s))
            for m in range(PER_SESSION):
                role = ("user", "assistant", "tool")[m % 3]
                text = f"message {m} of {sid}"
                if s == 7 and m == 0:
                    text = "请把季度报告发给我"
                if s == 9 and m == 1:
                    text = "the okapi figures are attached"
                msg: dict[str, Any] = {"role": role, "content": text}
                if role == "tool":
                    msg["name"] = "todo_write"
                conn.execute("INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, ?)",
                             (sid, role, json.dumps(msg, ensure_ascii=False), 1000.0 + s))
    db.close()


def test_the_migration_runs_off_the_gui_thread_and_the_sessions_appear_intact(
        qtbot, make_desktop, isolated_state, monkeypatch: pytest.MonkeyPatch) -> None:
    path = app_paths().ensure().database
    _old_database(path)
    assert pending_upgrade(path)
    # While the schema steps run, the GUI thread's loop must run: the migration
    # waits until a timer on the GUI thread fired (on the GUI thread it never would).
    loop_ran = threading.Event()
    shown: list[list[str]] = []

    def tick() -> None:
        shown.append([w.objectName() for w in QApplication.topLevelWidgets() if w.isVisible()])
        loop_ran.set()

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(5)
    migrated: list[tuple[str, bool]] = []
    ensure = Database.ensure

    def spy(self: Database, component: str, steps: Any) -> None:  # the real steps, watched
        if component == "conversations" and self.version(component) < len(steps):
            migrated.append((threading.current_thread().name, loop_ran.wait(10)))
        ensure(self, component, steps)

    monkeypatch.setattr(Database, "ensure", spy)
    prepare_database(path)
    timer.stop()
    assert migrated == [("database-upgrade", True)]  # once, in the worker, the loop alive
    assert any("databaseUpgrade" in names for names in shown)  # its window was on screen
    assert not pending_upgrade(path)

    desktop = make_desktop()  # the stores open: nothing left to migrate
    assert len(migrated) == 1
    model = desktop.window.sessions
    model.reload()
    assert model.session_count() == SESSIONS
    store = desktop.runtime.conversations
    for s in (0, 7, SESSIONS - 1):
        sid = f"old{s:04d}"
        info = store.get_session(sid)
        assert info is not None and info.title == f"Session {s}" and info.message_count == PER_SESSION
        history = store.load(sid)
        assert len(history) == PER_SESSION and history[3]["content"] == f"message 3 of {sid}"
    assert store.load("old0007")[0]["content"] == "请把季度报告发给我"
    assert [m["name"] for m in store.last_tool_results("old0003", "todo_write")] == ["todo_write"] * 3
    while store.backfill_search():  # (the sidebar runs it in the background too)
        pass
    assert [h.session_id for h in store.search_sessions("报告")] == ["old0007"]
    assert [h.session_id for h in store.search_sessions("okapi")] == ["old0009"]


def test_the_upgrade_window_speaks_chinese(qapp, qtbot) -> None:
    from openworker_qt.ui.theme import install_translator
    from openworker_qt.ui.upgrade_window import UpgradeWindow

    assert install_translator(qapp, "zh_CN")
    try:
        window = UpgradeWindow()
        qtbot.addWidget(window)
        assert window.label.text() == "正在为此版本更新你的会话…"
        assert window.detail.text().startswith("更新后只需进行一次")
        assert window.bar.accessibleName() == "正在更新你的会话"
    finally:
        install_translator(qapp, "en")
