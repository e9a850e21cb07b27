"""The approval card of a scheduling call says what it schedules: the question names
the task, the reason gives the schedule in words and the next run. The request is
the one a real turn (scripted model, real Runtime) left in the inbox."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QLabel

from openworker_qt.core.approvals import ApprovalRequest
from openworker_qt.core.approvers import InboxApprover
from openworker_qt.core.risk import RiskClass
from openworker_qt.runtime import open_runtime


async def test_the_card_says_the_schedule_in_words(qapp, tmp_path: Path) -> None:
    from openworker_qt.ui.approval import ApprovalCard

    script = tmp_path / "script.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"name": "create_automation", "arguments": {
            "name": "Standup", "prompt": "Summarise yesterday's commits.",
            "cron": "0 9 * * 1-5", "timezone": "Europe/Paris"}}]},
        {"text": "Scheduled."}]}), encoding="utf-8")
    rt = open_runtime()
    manager = rt.session_manager(approver_for=lambda _i: InboxApprover(rt.inbox, wait=False),
                                 default_model=f"scripted:{script}")
    info = manager.create_session(workspace=str(tmp_path), mode="auto")
    async for _ in manager.run(info.id, "every weekday at 9"):
        pass
    [item] = rt.inbox.pending(info.id)
    rt.close()
    request = ApprovalRequest(
        session_id=item.session_id, call_id=item.tool_call_id or "", tool=item.tool,
        arguments=item.arguments, risk=RiskClass(item.risk), reason=item.reason,
        target=item.target, can_always=item.can_always, call_key=item.call_key)
    card = ApprovalCard(request)
    texts = [label.text() for label in card.findChildren(QLabel)]
    assert "Schedule “Standup” to run on its own?" in texts
    [reason] = [t for t in texts if "every weekday at 09:00 (Europe/Paris)" in t]
    assert "next run 20" in reason
    card.deleteLater()
