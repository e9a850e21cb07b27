"""The card of a tool install says, in words, what it installs and where, that
Settings removes it, and (from the registry, looked up before the card) its size
and licence."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from openworker_qt.core.approvals import ApprovalRequest
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import ToolContext
from openworker_qt.tools.installs import explain
from openworker_qt.ui.approval import ApprovalCard


def test_the_install_card_names_the_package_its_size_licence_and_how_to_remove_it(
    qtbot, tmp_path
) -> None:
    args = {"package": "pandoc", "source": "pypi", "purpose": "convert the report to Word"}
    ctx = ToolContext(session_id="s", workspace=tmp_path, facts={
        "version": "2.4", "size": 2_500_000, "size_kind": "download", "needs": 2,
        "licence": "GPL-2.0-or-later"})
    reason = explain(args, ctx)
    card = ApprovalCard(ApprovalRequest(session_id="s", call_id="i1", tool="install_tool",
                                        arguments=args, risk=RiskClass.EXTERNAL, reason=reason))
    qtbot.addWidget(card)
    texts = [label.text() for label in card.findChildren(QLabel)]
    assert "Install pandoc?" in texts
    [risk] = [t for t in texts if t.startswith("Installs pandoc")]
    assert risk == ("Installs pandoc in OpenWorker's own tools folder: not system-wide, no "
                    "administrator rights. You can remove it any time in Settings › Installed "
                    "tools.")
    assert not [t for t in texts if "Sends data off this computer" in t]
    [why] = [t for t in texts if t.startswith("Install pandoc 2.4 from PyPI (pip)")]
    assert "A 2.4 MB download, plus 2 other packages it needs; licence GPL-2.0-or-later." in why
    assert "for: convert the report to Word." in why
