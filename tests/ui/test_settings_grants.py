"""Settings › Permissions lists the wider "always" answers in force, in words, with
Revoke (issue 27): revoked, the next such call asks again."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from openworker_qt.core.wider_grants import WiderGrants
from openworker_qt.ui.approval import ApprovalCard
from openworker_qt.ui.settings_grants import GrantsBox
from tests.ui.conftest import run, until
from tests.ui.test_main_window import type_and_enter

SHELL = [
    {"tool_calls": [{"id": "g1", "name": "run_shell", "arguments": {"command": "grep -rn TODO notes"}}]},
    {"tool_calls": [{"id": "g2", "name": "run_shell", "arguments": {"command": "grep -c TODO notes/a.md"}}]},
    {"text": "Found one."},
    {"tool_calls": [{"id": "g3", "name": "run_shell", "arguments": {"command": "grep -c ACME notes/a.md"}}]},
    {"text": "Done."},
]


def _card(window, call_id: str) -> ApprovalCard | None:
    return next((c for c in window.view.cards()
                 if isinstance(c, ApprovalCard) and c.panel.request.call_id == call_id), None)


def test_a_command_prefix_is_listed_and_revoking_it_asks_again(qtbot, qloop, make_desktop,
                                                               tmp_path: Path) -> None:
    (tmp_path / "ws" / "notes").mkdir(parents=True)
    (tmp_path / "ws" / "notes" / "a.md").write_text("TODO: call ACME\n")
    desktop = make_desktop(SHELL)
    window = desktop.window
    seen: dict[str, object] = {}

    async def scenario() -> None:
        settings = desktop.show_settings()
        box = settings.grants
        seen["before"] = (not box.empty.isHidden(), len(box.buttons))
        type_and_enter(qtbot, window, "find the to-dos")
        await until(lambda: _card(window, "g1") is not None, what="the first card")
        qtbot.mouseClick(_card(window, "g1").panel.always_scope, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")
        # listed at once, in words, with the session it is for
        await until(lambda: len(box.buttons) == 1, what="the grant listed")
        row = box.buttons[0].parentWidget()
        seen["words"] = row.findChild(type(box.empty)).text()
        seen["empty"] = not box.empty.isHidden()
        qtbot.mouseClick(box.buttons[0], Qt.MouseButton.LeftButton)
        await until(lambda: not box.buttons, what="the grant revoked")
        seen["after"] = not box.empty.isHidden()
        type_and_enter(qtbot, window, "and ACME?")
        await until(lambda: _card(window, "g3") is not None, what="grep asks again")
        qtbot.mouseClick(_card(window, "g3").panel.deny, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert seen["before"] == (True, 0)
    assert seen["words"] == ("Run commands starting with “grep” without asking (the rest of each "
                             "command is still checked) — in “find the to-dos”"), seen["words"]
    assert seen["empty"] is False and seen["after"] is True
    rows = {r.call_id: r for r in window.transcript.items if r.kind == "tool"}
    assert rows["g2"].status == "ok" and rows["g2"].rule == "session:always_prefix:grep"
    assert rows["g3"].status == "denied"  # asked again, and the user said no
    assert desktop.runtime.rules.wider.all() == []


def test_a_folder_grant_in_words_and_deleted_sessions_are_not_listed(qtbot, tmp_path: Path) -> None:
    class Sessions:
        titles = {"s1": "Renewal brief"}

        def get_session(self, sid: str) -> object | None:
            title = self.titles.get(sid)
            return None if title is None else type("Info", (), {"title": title})()

    grants = WiderGrants()
    grants.add("s1", "folder", str(tmp_path / "acme" / "outputs"))
    grants.add("gone", "prefix", "ls")
    box = GrantsBox(grants, Sessions())
    qtbot.addWidget(box)
    assert [g.session_id for g in box.shown()] == ["s1"]
    assert box.words(box.shown()[0]) == "Change files in outputs without asking — in “Renewal brief”"
    assert box.buttons[0].accessibleDescription() == box.words(box.shown()[0])
