#!/usr/bin/env python3
"""Screenshots of teams (issue 29) under docs/screenshots/teams/, one scheme and
language per run:

    .venv/bin/python scripts/team_screens.py --variant light
    .venv/bin/python scripts/team_screens.py --variant dark
    .venv/bin/python scripts/team_screens.py --variant zh_CN     (light, Simplified Chinese)

Shots (``<name>-<variant>.png``): the plan card on the lead's ``team_plan`` call
(the board beside it saying the plan waits) and in the inbox, the lead's session with
the team board beside it and the team in the sidebar, and a worker's session. The real app on a scripted model in a temp state dir on a virtual X
screen, with a real team store filled through the store's own verbs
(``tests/ui/team_board_fill.py``). For zh_CN the translation is compiled from the
``.ts`` into the temp dir (the shipped ``.qm`` is built at release).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from screenshots import settle, until, virtual_display  # noqa: E402

ZH = {
    "Compare five competitors' pricing and write a one-page brief for Thursday":
        "比较五家竞争对手的定价，周四前写好一页简报",
    "Collect the five pricing pages": "收集五家的定价页面",
    "Each plan with its link and date": "每个方案附链接和日期",
    "Build the comparison table": "制作对比表",
    "Tiers, seats and prices side by side": "档位、席位和价格并排列出",
    "Write the one-page brief": "撰写一页简报",
    "Plain words, three recommendations": "用词平实，给出三条建议",
    "Check every figure against its source": "逐一核对数字与来源",
    "No figure without a link": "每个数字都有链接",
    "Five pages saved": "五个页面已保存",
    "All five sources are there": "五个来源都在",
    "Two vendors hide enterprise prices; marked as 'on request'": "两家未公开企业版价格；标为“需询价”",
    "Table in outputs/comparison.md": "表格见 outputs/comparison.md",
    "The plan is approved: three workers are on it. I review each piece as it comes in.":
        "计划已批准：三名成员已开工。每项完成后我会逐一审核。",
}

LEAD_TURN = {
    "en": {"chunks": ["I split the outcome into four pieces of work for three workers: ",
                      "a researcher collects the pricing pages, an analyst builds and checks ",
                      "the table, a writer drafts the brief. Here is the plan for your ",
                      "approval; change what you like before you accept it."]},
    "zh": {"chunks": ["我把目标拆成四项工作，交给三名成员：", "研究员收集定价页面，分析师制作并核对对比表，",
                      "撰稿人起草简报。以下计划请你审批；", "接受前可以随意修改。"]},
}

WORKER_TURN = {
    "en": [{"reasoning": "The brief needs the table first; draft the structure meanwhile.",
            "chunks": ["I'm drafting the brief while the table is reviewed. ",
                       "Here is the outline so far:\n\n",
                       "1. **Where we stand** — our price per seat against the five.\n",
                       "2. **What they charge for** — seats, usage, support tiers.\n",
                       "3. **Three recommendations** — one per pricing tier.\n\n",
                       "I'll fill in the figures once the analyst's table is accepted."]}],
    "zh": [{"reasoning": "简报需要先有对比表；同时先起草结构。",
            "chunks": ["对比表在审核中，我先起草简报。", "目前的提纲：\n\n",
                       "1. **我们的位置** —— 我们的每席位价格与五家对比。\n",
                       "2. **他们按什么收费** —— 席位、用量、支持档位。\n",
                       "3. **三条建议** —— 每个价格档位一条。\n\n",
                       "分析师的表格通过后，我再补上数字。"]}],
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", choices=("light", "dark", "zh_CN"), default="light")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots" / "teams")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="ow-teams-"))
    os.environ["OPENWORKER_HOME"] = str(home)
    os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    os.environ["QT_API"] = "pyside6"
    with virtual_display():
        return shoot(args.variant, args.out, home)


def fresh_translation(app: Any, home: Path) -> None:
    """The zh_CN strings of this checkout (compiled from the .ts into ``home``)."""
    from PySide6.QtCore import QTranslator

    qm = home / "openworker_qt_zh_CN.qm"
    lrelease = Path(sys.executable).with_name("pyside6-lrelease")
    subprocess.run([str(lrelease), "-silent",
                    str(ROOT / "resources" / "translations" / "openworker_qt_zh_CN.ts"),
                    "-qm", str(qm)], check=True)
    translator = QTranslator(app)
    if translator.load(str(qm)):
        app.installTranslator(translator)


def shoot(variant: str, out: Path, home: Path) -> int:
    import qasync
    from PySide6.QtWidgets import QApplication

    from openworker_qt.app import DesktopApp
    from openworker_qt.runtime import open_runtime
    from openworker_qt.teams.store import TeamStore
    from openworker_qt.ui.theme import apply_theme, install_translator
    from tests.ui.team_board_fill import fill, pricing_plan, propose

    zh = variant == "zh_CN"
    app = QApplication.instance() or QApplication(["openworker-qt"])
    assert isinstance(app, QApplication)
    apply_theme(app, "dark" if variant == "dark" else "light")
    if zh:
        install_translator(app, "zh_CN")
        fresh_translation(app, home)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    workspace = home / "pricing"
    (workspace / "outputs").mkdir(parents=True)
    script = home / "worker.json"
    lang = "zh" if zh else "en"
    script.write_text(json.dumps([LEAD_TURN[lang], *WORKER_TURN[lang]]))
    rt = open_runtime()
    rt.config.data["general"]["default_model"] = f"scripted:{script}"
    desktop = DesktopApp(rt, workspace=workspace, enable_tray=False)
    window = desktop.window
    window.resize(1320, 820)
    window.show()
    words = (lambda text: ZH.get(text, text)) if zh else str
    shots: list[Path] = []

    def save(widget: Any, name: str) -> None:
        path = out / f"{name}-{variant}.png"
        widget.grab().save(str(path))
        shots.append(path)

    async def scene() -> None:
        manager = desktop.manager
        await desktop.load_personas()  # (the plan's pickers offer the workers' personas)
        for title in (("整理本周日程", "发布进展如何？") if zh
                      else ("Untangle my calendar this week", "Where does the release stand?")):
            rt.conversations.create_session(title=title, model="anthropic:claude-sonnet-4-6")
        outcome = words(pricing_plan().outcome)
        lead = manager.create_session(title=outcome, workspace=str(workspace))
        names = {"researcher": "研究员" if zh else "Researcher", "analyst": "分析师" if zh else "Analyst",
                 "writer": "撰稿人" if zh else "Writer"}
        sessions = {w: manager.create_session(
            title=f"{label} · {words('Write the one-page brief') if w == 'writer' else outcome}",
            persona=w, workspace=str(workspace)).id for w, label in names.items()}
        # the lead and the writer have a turn each (plain ones: before teams are on)
        window.open_session(lead.id)
        await until(window.loaded)
        window.submit_message(outcome)
        await until(lambda: not manager.is_running(lead.id), timeout=20)
        window.open_session(sessions["writer"])
        await until(window.loaded)
        window.submit_message("写简报的提纲" if zh else "Draft the outline of the brief")
        await until(lambda: not manager.is_running(sessions["writer"]), timeout=20)
        store = TeamStore(rt.db)
        window.teams.attach(store)
        team = propose(store, lead.id, words)
        plan = pricing_plan(words).to_json()
        # 1. the plan card: on the lead's team_plan call in its transcript, and in the inbox
        rt.conversations.append(lead.id, {
            "role": "assistant", "content": "",
            "tool_calls": [{"id": "plan-1", "type": "function", "function": {
                "name": "team_plan", "arguments": json.dumps({"plan": plan})}}]})
        rt.inbox.add("plan", lead.id, tool_call_id="plan-1", tool="team_plan", title=outcome,
                     arguments={"team_id": team.id, "plan": plan})
        await until(lambda: desktop.inbox.pending(lead.id))
        window.refresh_sessions()
        window.open_session(lead.id)
        window.sidebar.select(lead.id)
        await until(lambda: window.view.card_for("plan-1") is not None)
        window.view.scrollToBottom()
        await settle(0.8)
        save(window, "plan-card")
        inbox = desktop.show_inbox()
        inbox.resize(1040, 820)
        await until(lambda: inbox.plan_slot.card is not None)
        await settle(0.8)
        save(inbox, "plan-card-inbox")
        card = inbox.plan_slot.card
        assert card is not None
        card.accept_button.click()  # answered: the team runs (its board below)
        inbox.close()
        rt.conversations.append(lead.id, {"role": "tool", "tool_call_id": "plan-1",
                                          "name": "team_plan", "content": "approved",
                                          "status": "ok"})
        rt.conversations.append(lead.id, {"role": "assistant", "content": words(
            "The plan is approved: three workers are on it. I review each piece as it comes in.")})
        fill(store, lead.id, sessions, words, team)
        window.refresh_sessions()
        # 2. the lead's session: the board beside it, the team open in the sidebar
        window.new_session()  # (read again: the plan call answered)
        window.open_session(lead.id)
        window.sidebar.select(lead.id)
        await until(lambda: window.teams.dock.isVisible())
        window.teams.tree.expand(window.teams.tree.tree.index(0, 0))
        window.activateWindow()
        await settle(0.8)
        save(window, "board")
        # 3. a worker's session, opened from its card
        window.open_session(sessions["writer"])
        window.sidebar.select(sessions["writer"])
        await until(lambda: window.loaded() and window.teams.role == "worker:writer")
        await settle(0.8)
        save(window, "worker-session")
        await desktop.shutdown()

    try:
        loop.run_until_complete(scene())
    finally:
        rt.close()
        loop.close()
    for path in shots:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
