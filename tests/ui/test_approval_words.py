"""Approval cards and tool cards in words a person reads: a new file is "Create", not
"what the file holds now is replaced"; arguments as fields with their real line
breaks, never JSON with ``\\n`` escapes; no raw backticks in titles; a failed call is
not titled as if it had worked; the target said once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openworker_qt.core.approvals import ApprovalRequest
from openworker_qt.core.risk import RiskClass
from openworker_qt.qt.wording import arguments_text, tool_title
from openworker_qt.ui.approval import ApprovalPanel, approval_preview


def _panel(qtbot: Any, tool: str, arguments: dict[str, Any], risk: RiskClass, *,
           target: str | None = None, reason: str = "", preview: str | None = None) -> ApprovalPanel:
    request = ApprovalRequest(session_id="s1", call_id="c1", tool=tool, risk=risk,
                              reason=reason, arguments=arguments, target=target)
    panel = ApprovalPanel(request, preview=preview)
    qtbot.addWidget(panel)
    return panel


def _risk(panel: ApprovalPanel) -> str:
    from PySide6.QtWidgets import QLabel

    label = panel.findChild(QLabel, "approvalRisk")
    assert label is not None
    return label.text()


def test_a_new_file_is_created_and_an_existing_one_replaced(qtbot: Any, tmp_path: Path) -> None:
    args = {"path": "reports/report.md", "content": "# Q3\n\nUp 4%.\n"}
    new = _panel(qtbot, "write_file", args, RiskClass.WRITE_LOCAL,
                 preview=approval_preview("write_file", args, tmp_path))
    assert new.title.text() == "Create report.md in reports/?"
    assert _risk(new) == "Changes files on this computer: a new file is created."
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "report.md").write_text("old\n", encoding="utf-8")
    old = _panel(qtbot, "write_file", args, RiskClass.WRITE_LOCAL,
                 preview=approval_preview("write_file", args, tmp_path))
    assert old.title.text() == "Write report.md in reports/?"
    assert "replaced" in _risk(old)


def test_a_command_is_quoted_not_in_backticks(qtbot: Any) -> None:
    panel = _panel(qtbot, "run_shell", {"command": "ls -la"}, RiskClass.EXEC, target="ls -la")
    assert panel.title.text() == "Run “ls -la”?"
    assert "`" not in panel.title.text()
    assert tool_title("run_shell", {"command": "pytest -q"}, "running") == "Running “pytest -q”…"


def test_arguments_are_fields_with_real_line_breaks(qtbot: Any) -> None:
    args = {"channel": "#sales", "text": "Hi all,\nthe deck is ready.", "dry_run": False,
            "to": ["ana@example.com", "li@example.com"]}
    text = arguments_text(args)
    assert text.splitlines()[:4] == ["Channel: #sales", "Text:", "    Hi all,",
                                     "    the deck is ready."]
    assert "Dry run: no" in text and "\\n" not in text and '{"channel"' not in text
    panel = _panel(qtbot, "mcp__slack__post_message", args, RiskClass.EXTERNAL, target="#sales")
    assert panel.details.toPlainText() == text


def test_a_failed_call_is_not_titled_as_done() -> None:
    fetch = {"url": "https://example.com/page"}
    assert tool_title("web_fetch", fetch, "ok") == "Opened example.com"
    assert tool_title("web_fetch", fetch, "error") == "Couldn't open example.com"
    assert tool_title("read_file", {"path": "a/notes.md"}, "error") == "Couldn't read notes.md"
    assert tool_title("write_file", {"path": "x.md", "content": "a"}, "error") == "Couldn't write x.md"


def test_the_target_is_said_once(qtbot: Any) -> None:
    from PySide6.QtWidgets import QLabel

    panel = _panel(qtbot, "write_file", {"path": "/tmp/out/a.md", "content": "x"},
                   RiskClass.WRITE_LOCAL, target="/tmp/out/a.md",
                   reason="write_file writes /tmp/out/a.md")
    where = panel.findChild(QLabel, "approvalTarget")
    assert where is not None and where.isHidden()  # "It writes /tmp/out/a.md" says it
