"""Settings → Memory lists the saved facts with their source, edits and deletes them,
and switches saving off."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from openworker_qt.storage.config import load_config
from tests.ui.conftest import act, run, until
from tests.ui.test_settings import open_settings


def test_memory_page_lists_edits_and_deletes_facts(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop, window = open_settings(make_desktop, qloop)
    rt = desktop.runtime
    info = rt.conversations.create_session(title="Renewal brief", workspace=str(desktop.workspace))
    memory = rt.memory
    old = memory.add("Prefers British spelling.", scope="global", session_id=info.id)
    new = memory.add("Reports go to Priya.", workspace=desktop.workspace, session_id=info.id)
    page = window.memory
    titles = [window.nav.item(i).text() for i in range(window.nav.count())]
    assert "Memory" in titles
    act(qloop, lambda: window.nav.setCurrentRow(titles.index("Memory")))
    run(qloop, lambda: until(lambda: page.table.rowCount() == 2, what="facts listed"))
    table = page.table
    rows = [[table.item(r, c).text() for c in range(4)] for r in range(2)]
    day = time.strftime("%Y-%m-%d", time.localtime(new.created_at))
    assert rows[0][0] == "Reports go to Priya." and rows[0][1] == desktop.workspace.name
    assert rows[0][2].startswith(day) and rows[0][3] == "Renewal brief"
    assert rows[1][0] == "Prefers British spelling." and rows[1][1] == "Everywhere"
    assert table.item(0, 3).toolTip() == f"Session {info.id}"
    assert page.status.text() == "2 saved fact(s)"
    # Correct a fact in place: saved to the database (off the GUI thread).
    act(qloop, lambda: table.item(1, 0).setText("Prefers American spelling."))
    run(qloop, lambda: until(lambda: memory.get(old.id).content == "Prefers American spelling."
                             and not page.busy(), what="fact saved"))
    # Only the fact itself is editable.
    assert not table.item(0, 1).flags() & Qt.ItemFlag.ItemIsEditable
    # Delete the selected fact with the Delete key (the corrected one is newest now).
    assert table.item(0, 0).text() == "Prefers American spelling."
    act(qloop, lambda: table.selectRow(1))
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_Delete)
    run(qloop, lambda: until(lambda: table.rowCount() == 1 and not page.busy(), what="deleted"))
    assert memory.get(new.id) is None and memory.get(old.id) is not None
    # Saving off: written to the settings and live at once.
    page.saving.setChecked(False)
    assert load_config().get("memory.enabled") is False
    assert rt.memory.saving(str(desktop.workspace)) is False
    assert "Saving is off" in page.status.text()
    QApplication.processEvents()
