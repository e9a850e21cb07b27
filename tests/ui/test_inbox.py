"""The inbox window, and answers given in another process (the CLI)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path

from PySide6.QtCore import Qt

from openworker_qt.qt.inbox_model import ITEM_ROLE, InboxListModel
from tests.ui.conftest import REPO_ROOT, look_away, posted_marker, run, until
from tests.ui.test_approvals import WRITE
from tests.ui.test_main_window import type_and_enter


def _open_unattended(desktop) -> str:
    info = desktop.manager.create_session(unattended=True, workspace=str(desktop.workspace))
    desktop.open_session(info.id)
    return info.id


def test_inbox_window_resolves_parked_item(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop(WRITE)
    window = desktop.window
    seen: dict[str, object] = {}

    async def scenario() -> None:
        sid = _open_unattended(desktop)
        await until(window.loaded)
        type_and_enter(qtbot, window, "write it while I'm away")
        await until(lambda: desktop.inbox.pending(sid), what="parked item")
        seen["dialogs"] = dict(window.cards.dialogs)  # unattended: no dialog pops up
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
    assert "Path: out.txt" in str(seen["shown"])  # fields, not JSON
    assert seen["rows_after"] == 0 and seen["empty_visible"]
    assert (tmp_path / "ws" / "out.txt").read_text() == "hello\n"
    item = desktop.runtime.inbox.items()[0]
    assert (item.resolution, item.resolved_by) == ("once", "inbox")


def test_inbox_window_deny_and_jump_to_session(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop(WRITE)
    window = desktop.window
    window.cards.show_dialogs = False

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


def test_cli_in_another_process_unblocks_the_turn(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop(WRITE)
    window = desktop.window
    seen: dict[str, float] = {}

    look_away(qtbot)  # the user is in another window: the ask gets its dialog

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: window.cards.dialogs, what="dialog")
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
        await until(lambda: not window.cards.dialogs, timeout=2.0, what="dialog closed")
        seen["elapsed"] = time.monotonic() - t0

    run(qloop, scenario)
    assert seen["elapsed"] < 2.0
    assert (tmp_path / "ws" / "out.txt").exists()
    assert desktop.runtime.inbox.items()[0].resolved_by != "dialog"


async def _cli(*args: str, cwd: Path) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "openworker_qt", *args, cwd=str(cwd), env=dict(os.environ),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, err.decode()


def _moving_on_script(tmp_path: Path) -> str:
    """A write the CLI parks on, then the answer to whatever the user says next."""
    script = tmp_path / "moving_on.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"id": "w1", "name": "write_file",
                         "arguments": {"path": "out.txt", "content": "hello\n"}}]},
        {"text": "Something else, then."},
    ]}))
    return f"scripted:{script}"


def test_a_new_message_in_the_window_closes_a_parked_ask(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    """A turn parked by the CLI shows in the inbox and on its transcript row; the user
    writes something else in the window instead of answering: the ask leaves the
    inbox window, the counts and the transcript, and the write never runs."""
    desktop = make_desktop()
    window = desktop.window
    model = _moving_on_script(tmp_path)
    seen: dict[str, object] = {}

    async def scenario() -> None:
        code, err = await _cli("run", "--unattended", "--model", model, "write it",
                               cwd=desktop.workspace)
        assert code == 4, err
        await until(lambda: desktop.inbox.pending(), what="the parked item noticed")
        [item] = desktop.inbox.pending()
        sid = item.session_id
        inbox = desktop.show_inbox()
        await until(lambda: inbox.model.rowCount() == 1, what="inbox row")
        window.open_session(sid)
        await until(lambda: window.loaded() and window.view.card_for("w1"), what="card")
        seen["counts_before"] = desktop.inbox.counts()
        type_and_enter(qtbot, window, "forget it, something else")
        await until(lambda: window.transcript.items[-1].text == "Something else, then.",
                    what="the new turn's answer")
        await until(lambda: not desktop.manager.is_running(sid), what="turn end")
        seen["rows"] = inbox.model.rowCount()
        seen["counts"] = desktop.inbox.counts()
        seen["card"] = window.view.card_for("w1")
        row = window.transcript.tool_row("w1")
        assert row is not None
        seen["row_status"] = window.transcript.item(row).status
        seen["item"] = desktop.runtime.inbox.get(item.id)

    run(qloop, scenario)
    assert len(seen["counts_before"]) == 1
    assert seen["rows"] == 0 and seen["counts"] == {} and seen["card"] is None
    assert seen["row_status"] == "error"
    item = seen["item"]
    assert (item.resolution, item.resolved_by) == ("superseded", "engine")
    assert not (desktop.workspace / "out.txt").exists()


def test_a_late_answer_in_the_inbox_window_says_the_ask_was_closed(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    """Another process moved the conversation on before this window noticed: the
    Approve click changes nothing, and the window says why."""
    desktop = make_desktop()
    model = _moving_on_script(tmp_path)
    seen: dict[str, object] = {}

    async def scenario() -> None:
        code, err = await _cli("run", "--unattended", "--model", model, "write it",
                               cwd=desktop.workspace)
        assert code == 4, err
        await until(lambda: desktop.inbox.pending(), what="the parked item noticed")
        [item] = desktop.inbox.pending()
        inbox = desktop.show_inbox()
        await until(lambda: inbox.model.rowCount() == 1, what="inbox row")
        desktop.inbox._timer.stop()  # this window has not noticed the next change yet
        code, err = await _cli("run", "--session", item.session_id, "--model", model,
                               "forget it", cwd=desktop.workspace)
        assert code == 0, err
        assert inbox.model.rowCount() == 1
        qtbot.mouseClick(inbox.once, Qt.MouseButton.LeftButton)
        seen["late"] = inbox.late.text() if inbox.late.isVisible() else ""
        await until(lambda: inbox.model.rowCount() == 0, what="the closed item leaves")
        await until(posted_marker(), what="what the click queued")  # (a resume, if any)
        seen["running"] = desktop.manager.is_running(item.session_id)

    run(qloop, scenario)
    assert "was closed because the conversation moved on" in str(seen["late"])
    assert seen["running"] is False
    assert not (desktop.workspace / "out.txt").exists()


def test_a_late_answer_on_the_transcript_card_says_the_ask_was_closed(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop()
    window = desktop.window
    model = _moving_on_script(tmp_path)
    seen: dict[str, object] = {}

    async def scenario() -> None:
        code, err = await _cli("run", "--unattended", "--model", model, "write it",
                               cwd=desktop.workspace)
        assert code == 4, err
        await until(lambda: desktop.inbox.pending(), what="the parked item noticed")
        [item] = desktop.inbox.pending()
        window.open_session(item.session_id)
        await until(lambda: window.loaded() and window.view.card_for("w1"), what="card")
        desktop.inbox._timer.stop()  # this window has not noticed the next change yet
        code, err = await _cli("run", "--session", item.session_id, "--model", model,
                               "forget it", cwd=desktop.workspace)
        assert code == 0, err
        card = window.view.card_for("w1")
        qtbot.mouseClick(card.panel.once, Qt.MouseButton.LeftButton)
        seen["banner"] = window.banner.label.text() if window.banner.isVisibleTo(window) else ""
        await until(lambda: window.view.card_for("w1") is None, what="the card leaves")

    run(qloop, scenario)
    assert "was closed because the conversation moved on" in str(seen["banner"])
    assert not (desktop.workspace / "out.txt").exists()


def test_inbox_model_passes_modeltester(qtmodeltester, qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop(WRITE)
    window = desktop.window
    window.cards.show_dialogs = False

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write")
        await until(lambda: desktop.inbox.pending(), what="ask")

    run(qloop, scenario)
    model = InboxListModel(desktop.inbox)
    assert model.rowCount() == 1
    assert model.index(0, 0).data() == "Write out.txt?"
    qtmodeltester.check(model)


def test_inbox_window_offers_always_for_a_scheduled_tasks_shell_command(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop([{"text": "unused"}])
    sid = desktop.manager.create_session(unattended=True, workspace=str(desktop.workspace)).id
    seen: dict[str, object] = {}

    async def scenario() -> None:
        window_ask = desktop.runtime.inbox.add(
            "approval", sid, tool_call_id="c0", tool="run_shell",
            arguments={"command": "make report"}, risk="exec", target="make report")
        ask = desktop.runtime.inbox.add(
            "approval", sid, tool_call_id="c1", tool="run_shell",
            arguments={"command": "make report"}, risk="exec", target="make report",
            task_id="task-1")
        inbox = desktop.show_inbox()
        await until(lambda: inbox.model.rowCount() == 2, what="inbox rows")
        rows = {inbox.model.index(i, 0).data(ITEM_ROLE).id: i for i in range(2)}
        inbox.list.setCurrentIndex(inbox.model.index(rows[window_ask.id], 0))
        seen["plain"] = inbox.always.isVisible()  # a window session's command: no "always"
        inbox.list.setCurrentIndex(inbox.model.index(rows[ask.id], 0))
        seen["task"] = (inbox.always.isVisible(), inbox.always.text())
        inbox.list.setCurrentIndex(inbox.model.index(rows[window_ask.id], 0))
        seen["back"] = (inbox.always.isVisible(), inbox.always.text())
        inbox.list.setCurrentIndex(inbox.model.index(rows[ask.id], 0))
        qtbot.mouseClick(inbox.always, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.runtime.inbox.get(ask.id).pending, what="answered")
        seen["answer"] = desktop.runtime.inbox.get(ask.id).resolution
        desktop.runtime.inbox.resolve(window_ask.id, "deny")

    run(qloop, scenario)
    assert seen["plain"] is False
    assert seen["task"] == (True, "A&lways for this task: this exact command")
    assert seen["back"] == (False, "A&lways allow")
    assert seen["answer"] == "always_command"
