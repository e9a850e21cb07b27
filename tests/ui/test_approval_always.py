"""The approval card's wider "always" (issue 27, B11): "Always allow “grep” commands"
and "Always allow changes in outputs", shown where the engine offers a bound, and the
user's click on it is what lets the next such call run without asking."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from openworker_qt.qt.wording import rule_text
from openworker_qt.ui.approval import ApprovalCard
from tests.ui.conftest import run, until
from tests.ui.test_main_window import type_and_enter

SHELL = [
    {"tool_calls": [{"id": "g1", "name": "run_shell", "arguments": {"command": "grep -rn TODO notes"}}]},
    {"tool_calls": [{"id": "g2", "name": "run_shell", "arguments": {"command": "grep -c TODO notes/a.md"}}]},
    {"tool_calls": [{"id": "p1", "name": "run_shell", "arguments": {"command": "python -V"}}]},
    {"text": "Done."},
]
WRITES = [
    {"tool_calls": [{"id": "w1", "name": "write_file",
                     "arguments": {"path": "outputs/brief.md", "content": "# Brief\n"}}]},
    {"tool_calls": [{"id": "w2", "name": "write_file",
                     "arguments": {"path": "outputs/notes.md", "content": "notes\n"}}]},
    {"text": "Done."},
]


def _card(window) -> ApprovalCard | None:
    return next((c for c in window.view.cards() if isinstance(c, ApprovalCard)), None)


def test_always_for_a_command_prefix(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    (tmp_path / "ws" / "notes").mkdir(parents=True)
    (tmp_path / "ws" / "notes" / "a.md").write_text("TODO: call ACME\n")
    desktop = make_desktop(SHELL)
    window = desktop.window
    seen: dict[str, object] = {}

    async def scenario() -> None:
        type_and_enter(qtbot, window, "find the to-dos")
        await until(lambda: _card(window) is not None, what="the first card")
        card = _card(window)
        button = card.panel.always_scope
        seen["label"] = button.text().replace("&", "") if button else None
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        # the second grep runs without a card; python asks, with no wider choice
        await until(lambda: _card(window) is not None and _card(window).panel.request.call_id == "p1",
                    what="the python card")
        seen["python"] = _card(window).panel.always_scope
        qtbot.mouseClick(_card(window).panel.deny, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert seen["label"] == "Always allow “grep” commands"
    assert seen["python"] is None
    rows = {r.call_id: r for r in window.transcript.items if r.kind == "tool"}
    assert rows["g1"].rule == "user:always_prefix" and rows["g1"].status == "ok"
    assert rows["g2"].rule == "session:always_prefix:grep" and rows["g2"].status == "ok"
    assert rule_text(rows["g2"].rule) == "Allowed: you allowed “grep” commands for this session"
    assert rows["p1"].status == "denied"
    item = next(i for i in desktop.runtime.inbox.items() if i.tool_call_id == "g1")
    assert item.resolution == "always_prefix" and item.always_scope == "grep"


def test_always_for_a_folders_writes(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    (tmp_path / "ws" / "outputs").mkdir(parents=True)
    desktop = make_desktop(WRITES)
    window = desktop.window
    seen: dict[str, object] = {}

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the brief")
        await until(lambda: _card(window) is not None, what="the card")
        button = _card(window).panel.always_scope
        seen["label"] = button.text().replace("&", "") if button else None
        seen["tip"] = button.toolTip() if button else ""
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert seen["label"] == "Always allow changes in outputs"
    assert str((tmp_path / "ws" / "outputs").resolve()) in str(seen["tip"])
    assert (tmp_path / "ws" / "outputs" / "notes.md").read_text() == "notes\n"
    rows = {r.call_id: r for r in window.transcript.items if r.kind == "tool"}
    assert rows["w2"].rule.startswith("session:always_folder:")
    assert rule_text(rows["w2"].rule) == "Allowed: you allowed changes in outputs for this session"
    assert len([i for i in desktop.runtime.inbox.items()]) == 1  # one ask for both writes


def test_the_inbox_window_offers_the_same_wider_always(qtbot, qloop, make_desktop,
                                                       tmp_path: Path) -> None:
    (tmp_path / "ws" / "outputs").mkdir(parents=True)
    desktop = make_desktop(WRITES)
    window = desktop.window
    seen: dict[str, object] = {}

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the brief")
        await until(lambda: _card(window) is not None, what="the card")
        inbox = desktop.show_inbox()
        await until(lambda: inbox.model.rowCount() == 1 and inbox.current_item() is not None,
                    what="the inbox row")
        seen["label"] = inbox.always.text().replace("&", "")
        seen["visible"] = inbox.always.isVisible()
        qtbot.mouseClick(inbox.always, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert seen == {"label": "Always allow changes in outputs", "visible": True}
    item = desktop.runtime.inbox.items()[0]
    assert (item.resolution, item.resolved_by) == ("always_folder", "inbox")
    rows = {r.call_id: r for r in window.transcript.items if r.kind == "tool"}
    assert rows["w2"].rule.startswith("session:always_folder:")
