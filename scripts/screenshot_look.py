#!/usr/bin/env python3
"""The look-and-feel screenshot set under docs/screenshots/look/, in one scheme
and language per run (a translation applies to the widgets built after it):

    .venv/bin/python scripts/screenshot_look.py --variant light
    .venv/bin/python scripts/screenshot_look.py --variant dark
    .venv/bin/python scripts/screenshot_look.py --variant zh_CN     (light, Simplified Chinese)
    .venv/bin/python scripts/screenshot_look.py --variant narrow    (light, 800 × 480)
    .venv/bin/python scripts/screenshot_look.py --variant wide      (light, 1440 × 900, the reference's size)
    .venv/bin/python scripts/screenshot_look.py --variant hidpi     (light, QT_SCALE_FACTOR=2, 1280 × 720)

Shots (``<name>-<variant>.png``): the empty session, a conversation with
Markdown (code, a table, a quote) and tool cards, an approval with its
coloured diff (inline card and dialog), the file chip of the written brief, the
inbox full and empty, quick ask and settings; ``narrow`` and ``hidpi`` take the
main window's states and settings only, at their sizes. The real app on a scripted model, in a temp state dir, on a
virtual X screen (``screenshots.virtual_display``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from screenshots import settle, until, virtual_display  # noqa: E402

ANSWER = """Here is where ACME stands before the renewal.

> "Support has been great — we just need the two open tickets closed before we sign."
> — ACME's IT lead, in the Q2 notes

| Quarter | Seats | Open tickets |
|---------|------:|-------------:|
| Q1      |   120 |            0 |
| Q2      |   150 |            2 |

The seat growth comes from the notes; to recompute it:

```python
def growth(before: int, after: int) -> float:
    return (after - before) / before  # 0.25 for 120 → 150
```

Next I will draft `brief.md` with the ask: a **2-year term at list price**.
"""

ANSWER_ZH = """这是续约前 ACME 的情况。

> “支持一直很好——我们只需要在签约前关掉那两个未解决的工单。”
> — ACME 的 IT 负责人，见第二季度笔记

| 季度 | 席位 | 未解决工单 |
|------|-----:|-----------:|
| Q1   |  120 |          0 |
| Q2   |  150 |          2 |

席位增长来自笔记；重新计算：

```python
def growth(before: int, after: int) -> float:
    return (after - before) / before  # 120 → 150 为 0.25
```

接下来我会起草 `brief.md`，提出的条件是：**按标价签两年**。
"""


def conversation(zh: bool) -> list[dict[str, Any]]:
    answer = ANSWER_ZH if zh else ANSWER
    return [
        {
            "reasoning": "用户想要一份续约简报。先看看文件夹里的笔记。" if zh
            else "The user wants a renewal brief. First look at the notes in the folder.",
            "chunks": ["我先读一下", "客户笔记。"] if zh else ["Let me read ", "the account notes first."],
            "tool_calls": [
                {"name": "read_file", "arguments": {"path": "notes-q1.md"}},
                {"name": "read_file", "arguments": {"path": "notes-q2.md"}},
            ],
        },
        {"tool_calls": [{"name": "run_shell", "arguments": {"command": "ls -1"}}]},
        {"chunks": [answer[i:i + 40] for i in range(0, len(answer), 40)]},
        {
            "chunks": ["现在写简报——这需要你的批准。" if zh else "Writing the brief now — this needs your approval."],
            "tool_calls": [{
                "name": "write_file",
                "arguments": {
                    "path": "brief.md",
                    "content": "# ACME renewal brief\n\n- Seats: 120 → 150 (+25 %)\n"
                               "- Risk: two open P2 tickets\n- Ask: 2-year term at list price\n",
                },
            }],
        },
        {"text": "完成：`brief.md` 已就绪。" if zh else "Done: `brief.md` is ready."},
    ]


#: Size variants: the window at this logical size, these shots only.
SIZES = {"narrow": (800, 480), "wide": (1440, 900), "hidpi": (1280, 720)}
SIZE_SHOTS = {"empty-session", "conversation", "approval", "deliverable", "settings"}

QUICK = [{"chunks": ["Your next meeting is **ACME renewal** at 14:00 ", "in Room 3 (45 min)."]}]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", choices=("light", "dark", "zh_CN", *SIZES), default="light")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots" / "look")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="ow-look-"))
    os.environ["OPENWORKER_HOME"] = str(home)
    os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    os.environ["QT_API"] = "pyside6"
    if args.variant == "hidpi":
        os.environ["QT_SCALE_FACTOR"] = "2"  # before the application exists
        os.environ.setdefault("OPENWORKER_SHOT_SCREEN", "2880x1800x24")
    with virtual_display():
        return shoot(args.variant, args.out, home)


def shoot(variant: str, out: Path, home: Path) -> int:
    import qasync
    from PySide6.QtWidgets import QApplication

    from openworker_qt.app import DesktopApp
    from openworker_qt.runtime import open_runtime
    from openworker_qt.ui.theme import apply_theme, install_translator

    app = QApplication.instance() or QApplication(["openworker-qt"])
    assert isinstance(app, QApplication)
    apply_theme(app, "dark" if variant == "dark" else "light")
    if variant == "zh_CN":
        install_translator(app, "zh_CN")
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    workspace = home / "acme"
    (workspace / "outputs").mkdir(parents=True)
    (workspace / "notes-q1.md").write_text("ACME: 120 seats, happy with support.\n")
    (workspace / "notes-q2.md").write_text("ACME: 150 seats; two P2 tickets open.\n")
    for name in ("q2-account-review.pdf", "seat-forecast.xlsx"):
        (workspace / "outputs" / name).write_bytes(b"demo")
    script = home / "conversation.json"
    script.write_text(json.dumps(conversation(variant == "zh_CN")))
    quick = home / "quick.json"
    quick.write_text(json.dumps(QUICK))
    rt = open_runtime()
    rt.config.data["general"]["default_model"] = f"scripted:{script}"
    rt.config.data["permissions"]["shell_allowlist"] = ["ls"]
    desktop = DesktopApp(rt, workspace=workspace, enable_tray=False)
    window = desktop.window
    window.resize(*SIZES.get(variant, (1280, 860)))
    window.show()
    suffix = f"-{variant}"
    shots: list[Path] = []

    def save(widget: Any, name: str) -> None:
        if variant in SIZES and name not in SIZE_SHOTS:
            return
        path = out / f"{name}{suffix}.png"
        widget.grab().save(str(path))
        shots.append(path)

    async def scene() -> None:
        for title in ("Untangle my calendar this week", "Where does the release stand?"):
            rt.conversations.create_session(title=title, model="anthropic:claude-sonnet-4-6")
        digest = desktop.automations.store.create(  # the sidebar's Scheduled section
            name="晨间摘要" if variant == "zh_CN" else "Morning digest",
            prompt="Sum up what came in overnight", tz="UTC", cron="0 9 * * 1-5")
        window.refresh_sessions()
        window.new_session()
        await settle(0.8)
        save(window, "empty-session")
        window.composer.edit.setPlainText(
            "准备 ACME 的续约简报，依据我的笔记" if variant == "zh_CN"
            else "Prepare the renewal brief for ACME from my notes")
        window.composer.submit()
        await until(lambda: not desktop.manager.is_running(window.session_id or ""), timeout=20)
        await settle(0.8)
        save(window, "conversation")  # the Markdown answer, the tool cards above it
        rows = window.transcript.items
        first_tool = next(i for i, r in enumerate(rows) if r.kind == "tool")
        shell = next(i for i, r in enumerate(rows) if r.kind == "tool" and r.name == "run_shell")
        window.transcript.toggle_expanded(shell)  # a card opened to its arguments and output
        window.view.scrollTo(window.transcript.index(first_tool - 1, 0),
                             window.view.ScrollHint.PositionAtTop)
        await settle(0.5)
        save(window, "tool-cards")
        window.composer.edit.setPlainText("写成 brief.md" if variant == "zh_CN" else "Write it to brief.md")
        window.composer.submit()
        await until(lambda: window.view.cards(), timeout=20)
        window.view.scrollToBottom()
        await settle(0.8)
        save(window, "approval")  # the window in front: the card alone, Approve focused
        # The dialog the same ask gets when the window is not in front.
        window.cards.open_dialog(desktop.inbox.pending(kind="approval")[0])
        dialog = next(iter(window.cards.dialogs.values()))
        dialog.move(window.x() + 600, window.y() + 260)
        await settle(0.8)
        save(dialog, "approval-dialog")
        inbox = desktop.show_inbox()
        inbox.resize(920, 560)
        await settle()
        save(inbox, "inbox-full")
        dialog.panel.once.click()
        await until(lambda: not desktop.manager.is_running(window.session_id or ""), timeout=20)
        await settle()
        save(inbox, "inbox-empty")
        inbox.hide()
        window.view.scrollToBottom()
        await settle(0.5)
        save(window, "deliverable")  # the written brief's file chip under its card
        rt.config.data["general"]["default_model"] = f"scripted:{quick}"
        desktop.manager.default_model = f"scripted:{quick}"
        popup = desktop.show_quick_ask()
        popup.edit.setText("我的下一个会议是什么时候？" if variant == "zh_CN" else "When is my next meeting?")
        popup.submit()
        await until(lambda: not desktop.manager.is_running(popup.session_id or ""), timeout=20)
        await settle()
        save(popup, "quick-ask")
        popup.hide()
        # a wider "always" in force: listed under Settings › Permissions with Revoke
        rt.rules.wider.add(window.session_id or "", "prefix", "grep")
        settings = desktop.show_settings()
        await until(lambda: not settings.providers.busy())
        await settle()
        save(settings, "settings")
        for row in range(settings.nav.count()):  # every page, by its kind
            settings.show_page(row)
            await settle(0.3)
            page = settings.stack.widget(row)
            kind = type(page).__name__.removesuffix("Page").lower() or str(row)
            save(settings, f"settings-{kind}")
        settings.close()
        desktop.automations.store.delete(digest.id)  # (the Automations window shown empty)
        automations = desktop.show_automations()
        automations.resize(900, 560)
        await settle()
        save(automations, "automations")
        automations.close()
        workspace_dialog = desktop.show_workspace_dialog(first_run=True)
        await settle()
        save(workspace_dialog, "workspace-dialog")
        workspace_dialog.reject()
        onboarding = desktop.show_onboarding()
        await settle(0.8)
        save(onboarding, "onboarding")
        from openworker_qt.qt import provider_setup as settings_providers

        openai = next(c for c in settings_providers.provider_choices() if c.name == "openai")
        onboarding._show_models(openai, ["gpt-4.1", "gpt-4.1-mini", "gpt-5"])  # as after a good key
        await settle(0.5)
        save(onboarding, "onboarding-model")
        onboarding.reject()
        grant = desktop.grant_folder(str(workspace / "outputs"))
        await settle()
        save(grant, "grant-dialog")
        grant.reject()
        await settle(0.2)
        save(window.sidebar, "sidebar")
        await desktop.shutdown()

    try:
        loop.run_until_complete(scene())
    finally:
        rt.close()
        loop.close()
    for path in shots:
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
