#!/usr/bin/env python3
"""Render issue 30's new asks into ``docs/screenshots/``: ``question-choices.png`` (a
question with choices: descriptions, a preview, "Other"), ``tool-request.png`` (the
card of ``install_tool``: what will run, from where, what for) and
``persona-bundle-consent.png`` (a persona imported from a bundle: what it may do
and what it brings). The real widgets on a virtual screen; nothing is sent.

    .venv/bin/python scripts/screenshot_reach.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from screenshots import settle, virtual_display  # noqa: E402

PERSONA = """---
name: release-helper
title: Release helper
description: Prepares release notes from the git history
family: code
tools: [files, git, shell]
connectors: [github]
---
You prepare release notes.
"""
DIFF = "@@ -12,3 +12,3 @@\n-    timeout = 30\n+    timeout = 120\n     retries = 3"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="ow-shots-"))
    os.environ["OPENWORKER_HOME"] = str(home)
    with virtual_display():
        import qasync
        from PySide6.QtWidgets import QApplication

        from openworker_qt.agents.personas import parse_persona
        from openworker_qt.core.approvals import ApprovalRequest, QuestionRequest
        from openworker_qt.core.risk import RiskClass
        from openworker_qt.tools.installs import explain
        from openworker_qt.ui.approval import ApprovalCard, QuestionCard
        from openworker_qt.ui.persona_consent import PersonaConsentDialog
        from openworker_qt.ui.theme import apply_theme

        app = QApplication.instance() or QApplication(["openworker-qt"])
        apply_theme(app, "light")  # type: ignore[arg-type]
        loop = qasync.QEventLoop(app)
        asyncio.set_event_loop(loop)

        async def save(widget: object, name: str, width: int) -> None:
            widget.resize(width, widget.sizeHint().height())  # type: ignore[attr-defined]
            widget.show()  # type: ignore[attr-defined]
            await settle(0.5)
            path = out / name
            widget.grab().save(str(path))  # type: ignore[attr-defined]
            print(path)
            widget.close()  # type: ignore[attr-defined]

        async def shoot() -> None:
            question = QuestionCard(QuestionRequest(
                session_id="s", call_id="q1", kind="question",
                prompt="The tests time out on the build server. Which fix should I make?",
                extra={"question": "", "options": [
                    {"label": "Raise the timeout", "description": "One line in ci.toml",
                     "preview": DIFF},
                    {"label": "Split the slow suite", "description": "Two jobs in parallel"},
                    {"label": "Leave it", "description": "Retry the build instead"}]}))
            question.picker.buttons[0].setChecked(True)
            await save(question, "question-choices.png", 620)
            args = {"package": "pandoc", "source": "pypi", "version": "",
                    "purpose": "convert the report to Word for the board"}
            reason = (explain(args).rstrip(".")
                      + ". This always needs your approval, in every mode.")
            card = ApprovalCard(ApprovalRequest(session_id="s", call_id="i1", tool="install_tool",
                                                arguments=args, risk=RiskClass.EXTERNAL,
                                                reason=reason))
            await save(card, "tool-request.png", 680)
            dialog = PersonaConsentDialog(parse_persona(PERSONA), brings={
                "version": "1.2", "skills": {"release-notes": {"SKILL.md": "", "template.md": ""}},
                "servers": {"tickets": {"command": "uvx", "args": ["tickets-mcp"],
                                        "env": {"TICKETS_TOKEN": "${TICKETS_TOKEN}"}}}})
            await save(dialog, "persona-bundle-consent.png", 520)

        try:
            loop.run_until_complete(shoot())
        finally:
            loop.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
