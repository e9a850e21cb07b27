#!/usr/bin/env python3
"""Render Settings → Memory and the main window's tokens-and-cost status.

Uses the helpers of ``scripts/screenshots.py`` (a virtual X screen, the real app
on the scripted provider, a temp state dir). The agent saves two facts with
``remember`` in a scripted conversation (a few more are saved beforehand, as if
by earlier sessions); writes ``docs/screenshots/main-window-usage.png`` (the status
bar shows the session's tokens and estimated cost; the tooltip is not captured)
and ``docs/screenshots/settings-memory.png``.

    .venv/bin/python scripts/screenshot_memory.py [--out docs/screenshots]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from screenshots import settle, single_shot, until  # noqa: E402

USAGE = {"input_tokens": 18_400, "output_tokens": 620, "cache_read_tokens": 15_900,
         "reasoning_tokens": 140}

CONVERSATION = [
    {"chunks": ["Noted — I'll remember both."],
     "tool_calls": [
         {"name": "remember", "arguments": {
             "content": "Renewal briefs go to Priya Raman (account lead) by the 5th of each "
                        "month; she wants figures in a table, not prose.",
             "summary": "Briefs → Priya by the 5th, figures in tables"}},
         {"name": "remember", "arguments": {
             "content": "Use British spelling in documents for ACME (their style guide).",
             "scope": "global"}},
     ], "usage": USAGE},
    {"chunks": ["Saved: where briefs go and the spelling to use. "
                "I'll apply both from now on."], "usage": USAGE},
]


async def scene(desktop: Any, window: Any) -> None:
    rt = desktop.runtime
    rt.config.data["prices"] = {"scripted:*": {"input": 3.0, "output": 15.0, "cache_read": 0.3}}
    earlier = rt.conversations.create_session(title="Q1 usage report", workspace=str(desktop.workspace))
    rt.memory.add("The team's fiscal year starts on 1 April.", scope="global", session_id=earlier.id)
    rt.memory.add("ACME's contract number is C-2291; the renewal date is 2026-06-30.",
                  workspace=desktop.workspace, session_id=earlier.id,
                  summary="ACME contract C-2291, renews 2026-06-30")
    window.composer.edit.setPlainText(
        "Remember: renewal briefs go to Priya by the 5th, with figures in tables — "
        "and use British spelling for ACME.")
    window.composer.submit()
    await until(lambda: window.usage.isVisible() and "$" in window.usage.text())
    await settle(0.5)
    settings = desktop.show_settings()
    titles = [settings.nav.item(i).text() for i in range(settings.nav.count())]
    settings.nav.setCurrentRow(titles.index("Memory"))
    settings.resize(980, 560)
    page = settings.memory
    await until(lambda: page.table.rowCount() == 4 and not page.busy())
    page.table.selectRow(0)
    await settle(0.6)
    out = Path(sys.argv[sys.argv.index("--out") + 1]) if "--out" in sys.argv else (
        ROOT / "docs" / "screenshots")
    settings.grab().save(str(out / "settings-memory.png"))
    print(out / "settings-memory.png")
    settings.close()


if __name__ == "__main__":
    sys.exit(single_shot("main-window-usage.png", CONVERSATION, scene, size=(1180, 780)))
