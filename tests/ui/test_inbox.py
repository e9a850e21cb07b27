"""The inbox window, and answers given in another process (the CLI)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

from PySide6.QtCore import Qt

from openworker_qt.qt.inbox_model import InboxListModel
from tests.ui.conftest import REPO_ROOT, run, until
from tests.ui.test_approvals import WRITE
from tests.ui.test_main_window import type_and_enter


def _open_unattended(desktop) -> str:  # type: ignore[no-untyped-def]
    info = desktop.manager.create_session(unattended=True, workspace=str(desktop.workspace))
    desktop.open_session(info.id)
    return info.id


def test_inbox_window_resolves_parked_item(qtbot, qloop, make_desktop, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    desktop = make_desktop(WRITE)
    window = desktop.window
    seen: dict[str, object] = {}

    async def scenario() -> None:
        sid = _open_unattended(desktop)
        await until(window.loaded)
        type_and_enter(qtbot, window, "write it while I'm away")
        await until(lambda: desktop.inbox.pending(sid), what="parked item")
        seen["dialogs"] = dict(window.dialogs)  # unattended: no dialog pops up
        inbox = desktop.show_inbox()
        await until(lambda: inbox.model.rowCount() == 1, what="inbox row")
        assert inbox.current_item() is not None
        seen["shown"] = inbox.arguments.toPlainText()
        assert inbox.once.isVisible() and inbox.deny.isVisible()
        qtbot.mouseClick(inbox.once, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(sid), what="turn end")
        seen["rows_after"] = inbox.model.rowCount()
        seen["empty_visible"] = inbox.empty.isVisible()

    run(qloop, scenario)
    assert seen["dialogs"] == {}
    assert '"path": "out.txt"' in str(seen["shown"])
    assert seen["rows_after"] == 0 and seen["empty_visible"]
    assert (tmp_path / "ws" / "out.txt").read_text() == "hello\n"
    item = desktop.runtime.inbox.items()[0]
    assert (item.resolution, item.resolved_by) == ("once", "inbox")


def test_inbox_window_deny_and_jump_to_session(qtbot, qloop, make_desktop, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    desktop = make_desktop(WRITE)
    window = desktop.window
    window.show_dialogs = False

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write it")
        sid = window.session_id
        await until(lambda: desktop.inbox.pending(sid), what="ask")
        window.new_session()
        inbox = desktop.show_inbox()
        await until(lambda: inbox.current_item() is not None)
        qtbot.mouseClick(inbox.open_session, Qt.MouseButton.LeftButton)
        await until(lambda: window.session_id == sid and window.loaded(), what="jump")
        await until(lambda: window.view._cards, what="card on the reopened transcript")
        qtbot.mouseClick(inbox.deny, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(sid), what="turn end")

    run(qloop, scenario)
    assert not (tmp_path / "ws" / "out.txt").exists()
    assert desktop.runtime.inbox.items()[0].resolution == "deny"


def test_cli_in_another_process_unblocks_the_turn(qtbot, qloop, make_desktop, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    desktop = make_desktop(WRITE)
    window = desktop.window
    seen: dict[str, float] = {}

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: window.dialogs, what="dialog")
        item = desktop.inbox.pending()[0]
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "openworker_qt", "approve", str(item.id),
            cwd=str(REPO_ROOT), env=dict(os.environ),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        out, err = await proc.communicate()
        assert proc.returncode == 0, (out, err)
        t0 = time.monotonic()
        await until(lambda: not desktop.manager.is_running(window.session_id), timeout=2.0,
                    what="turn unblocked within 2 s")
        await until(lambda: not window.dialogs, timeout=2.0, what="dialog closed")
        seen["elapsed"] = time.monotonic() - t0

    run(qloop, scenario)
    assert seen["elapsed"] < 2.0
    assert (tmp_path / "ws" / "out.txt").exists()
    assert desktop.runtime.inbox.items()[0].resolved_by != "dialog"


def test_inbox_model_passes_modeltester(qtmodeltester, qtbot, qloop, make_desktop) -> None:  # type: ignore[no-untyped-def]
    desktop = make_desktop(WRITE)
    window = desktop.window
    window.show_dialogs = False

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write")
        await until(lambda: desktop.inbox.pending(), what="ask")

    run(qloop, scenario)
    model = InboxListModel(desktop.inbox)
    assert model.rowCount() == 1
    assert "write_file" in model.index(0, 0).data()
    qtmodeltester.check(model)
