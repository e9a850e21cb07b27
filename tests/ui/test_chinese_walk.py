"""Simplified Chinese complete: every window is walked in zh_CN and any English
text left on screen (labels, buttons, menus, placeholders, tooltips, accessible
names, window titles, transcript rows) fails the test.

"English left" is a run of Latin letters that is not a name (OpenWorker, a
provider, a model id, a path, a shortcut) in a string with no Chinese in it, or
an English phrase of two words or more inside a Chinese one.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QPlainTextEdit,
    QTabWidget,
    QTextEdit,
    QTreeWidget,
    QWidget,
)

from openworker_qt.connectors.registry import catalogue
from openworker_qt.ui.theme import install_translator
from tests.ui.conftest import run, until

CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef]")
# Names and notations that stay as they are in Chinese.
ALLOWED = re.compile(
    r"OpenWorker|Qt|OpenAI|Anthropic|Google|Gemini|Ollama|DeepSeek|GLM|Z\.ai|Kimi|Moonshot|Qwen|MiniMax|"
    r"Mistral|AWS|Bedrock|Azure|Vertex AI|Vertex|Grok|xAI|Together|Fireworks|Inkling|Thinking Machines, via Baseten|OpenRouter|LM Studio|"
    r"llama\.cpp|vLLM|English|Slack|GitHub|MCP|API|URL|JSON|Markdown|PDF|CSV|"
    r"XLSX|DOCX|HTML|Enter|Shift|Ctrl|Alt|Esc|Tab|Meta|Cmd|Space|Wayland|X11|macOS|Windows|Linux|"
    r"whisper(?:\.cpp)?|ggml|pytest|git|Claude|Cursor|npx|uvx|node|cowork|code|chat|ops|myhelper|"
    r"discuss|plan|interactive|auto|custom|scripted|local|provider|model|AGENTS\.md|SKILL\.md|"
    r"https?://\S+|[\w.-]+:[\w./-]+|\S*/\S*|\S+\.(?:md|txt|py|json|toml|docx|xlsx|pdf|csv|html|bin)|"
    r"&[A-Za-z]|\([A-Za-z&]+\)|\b[A-Z]\b|\bOK\b|\bID\b|"
    # The label of another service's own screen, quoted as the user finds it
    # there ("在“OAuth & Permissions”页面"): only inside a Chinese sentence.
    r"(?<=[\u3400-\u9fff\uff00-\uffef，。：；、→ ])“[^“”]{1,40}”", re.I)
# The connectors' names of several words stay as the services write them ("OneDrive
# and SharePoint"; a one-word name could hide an English word such as "Close").
CONNECTOR_NAMES = frozenset(spec.name for spec in catalogue())
NAMES = re.compile("|".join(re.escape(spec.name) for spec in sorted(
    catalogue(), key=lambda spec: -len(spec.name)) if " " in spec.name))
TITLED = re.compile(r"\b[A-Z][\w.+-]*(?:\s+(?:&\s+)?[A-Z0-9][\w.+-]*)+")
CODE = re.compile(r"`[^`]+`")
WORD = re.compile(r"[A-Za-z]{3,}")
PHRASE = re.compile(r"[A-Za-z]{2,}[ ,'’-]+[A-Za-z]{2,}(?:[ ,'’-]+[A-Za-z]{2,})*")


def english_left(text: str) -> str:
    """The English in ``text`` that should have been translated ('' if none)."""
    if (text or "").strip() in CONNECTOR_NAMES:  # a connector's name on its own
        return ""
    text = NAMES.sub(" ", text or "")
    rest = ALLOWED.sub(" ", text)
    if CJK.search(text):
        # In a Chinese sentence, a name in title case (Google Cloud Console, Microsoft
        # Graph) and code in backticks stay as they are.
        rest = ALLOWED.sub(" ", TITLED.sub(" ", CODE.sub(" ", text)))
        found = PHRASE.search(rest)
        return found.group(0) if found and len(found.group(0)) > 8 else ""
    found = WORD.search(rest)
    return found.group(0) if found else ""


def texts_of(widget: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) for what a widget shows or says to a screen reader."""
    name = f"{type(widget).__name__}#{widget.objectName()}"
    if widget.isWindow():
        yield name + ".windowTitle", widget.windowTitle()
    yield name + ".accessibleName", widget.accessibleName()
    yield name + ".accessibleDescription", widget.accessibleDescription()
    yield name + ".toolTip", widget.toolTip()
    if isinstance(widget, QLabel):
        yield name + ".text", re.sub(r"<[^>]+>", " ", widget.text())
    if isinstance(widget, QAbstractButton):
        yield name + ".text", widget.text()
    if isinstance(widget, QLineEdit | QPlainTextEdit | QTextEdit):
        yield name + ".placeholder", widget.placeholderText()
    if isinstance(widget, QGroupBox):
        yield name + ".title", widget.title()
    if isinstance(widget, QTabWidget):
        for i in range(widget.count()):
            yield f"{name}.tab{i}", widget.tabText(i)
    if isinstance(widget, QListWidget):
        for i in range(widget.count()):
            yield f"{name}.item{i}", widget.item(i).text()
    if isinstance(widget, QTreeWidget):
        header = widget.headerItem()
        for c in range(widget.columnCount()):
            yield f"{name}.header{c}", header.text(c)
        for i in range(widget.topLevelItemCount()):
            item = widget.topLevelItem(i)
            for c in range(widget.columnCount()):
                yield f"{name}.row{i}.{c}", item.text(c)
                yield f"{name}.row{i}.{c}.toolTip", item.toolTip(c)
    if isinstance(widget, QComboBox) and not widget.isEditable() and widget.objectName() != "composerChip":
        for i in range(widget.count()):
            yield f"{name}.item{i}", widget.itemText(i)
    for action in widget.actions():
        yield name + ".action", action.text()
        yield name + ".action.toolTip", action.toolTip() if action.toolTip() != action.text().replace("&", "") else ""
    if isinstance(widget, QMenu):
        yield name + ".title", widget.title()


def untranslated(*roots: QWidget) -> list[str]:
    found: list[str] = []
    for root in roots:
        for widget in [root, *root.findChildren(QWidget)]:
            if not widget.isVisibleTo(root) and widget is not root and not isinstance(widget, QMenu):
                continue
            for where, text in texts_of(widget):
                left = english_left(text)
                if left:
                    found.append(f"{where}: {text!r} ({left!r})")
    return sorted(set(found))


@pytest.fixture
def chinese(qapp) -> Iterator[str]:
    used = install_translator(qapp, "zh_CN")
    yield used
    install_translator(qapp, "en")


def test_the_detector_finds_english(qapp) -> None:
    assert english_left("Send") == "Send"
    assert english_left("发送") == ""
    assert english_left("正在等待 Anthropic") == ""
    assert english_left("打开 notes-q1.md") == ""
    assert english_left("正在运行 pytest…") == ""
    assert english_left("模型 Waiting for your approval") == "Waiting for your approval"
    assert english_left("scripted:/tmp/x.json") == ""
    assert english_left("在“Basic Information”→“App-Level Tokens”中获取") == ""
    assert english_left("“Basic Information”") == "Basic"
    assert english_left("在 Google Cloud Console 中运行 `gcloud auth login`") == ""
    assert english_left("模型 Waiting For your approval") == "your approval"


# A persona as a Chinese user installs one (its words are its author's).
PERSONA = """---
name: release-helper
title: 发布助手
description: 根据 git 历史准备发布说明
family: code
tools: [files, git, shell, web]
model: openai:gpt-4o
mode: auto
connectors: [github, slack]
---
你负责准备发布说明。
"""


def test_every_window_in_chinese(chinese: str, qtbot, qloop, make_desktop, tmp_path) -> None:
    from openworker_qt.agents.personas import parse_persona
    from openworker_qt.core.approvals import ApprovalRequest
    from openworker_qt.core.risk import RiskClass
    from openworker_qt.mcp import config as mcp_config
    from openworker_qt.mcp.manager import McpManager
    from openworker_qt.ui.approval import ApprovalDialog
    from openworker_qt.ui.automations import AutomationEditor
    from openworker_qt.ui.grant_dialog import GrantDialog
    from openworker_qt.ui.persona_consent import PersonaConsentDialog
    from openworker_qt.ui.settings_mcp import AddServerDialog, McpPage
    from openworker_qt.ui.tray import Tray
    from tests.mcp.helpers import script as mcp_script
    from tests.ui.test_approvals import WRITE

    assert chinese == "zh_CN"
    desktop = make_desktop(WRITE + [{"text": "好的。"}])
    window = desktop.window
    window.cards.show_dialogs = False
    seen: dict[str, list[str]] = {}
    seen["empty window"] = untranslated(window)
    menus = [a.menu() for a in window.menuBar().actions() if a.menu() is not None]
    seen["menus"] = untranslated(*menus)

    async def scenario() -> None:
        window.composer.edit.setPlainText("写文件")
        window.composer.submit()
        await until(lambda: window.view.cards(), what="approval card")
        seen["approval card"] = untranslated(*window.view.cards())
        seen["window at work"] = untranslated(window)
        rows = [window.view.delegate._plain_body(i) for i in window.transcript.items
                if i.kind in ("tool", "notice")]
        seen["transcript rows"] = [r for r in rows if english_left(r)]
        inbox = desktop.show_inbox()
        seen["inbox full"] = untranslated(inbox)
        dialog = ApprovalDialog(ApprovalRequest(
            session_id="s", call_id="c", tool="write_file", risk=RiskClass.WRITE_LOCAL, reason="",
            arguments={"path": "ACME/brief.md", "content": "x\n"}, target="ACME/brief.md"),
            preview="--- /dev/null\n+++ b/brief.md\n@@ -0,0 +1 @@\n+x\n")
        qtbot.addWidget(dialog)
        seen["approval dialog"] = untranslated(dialog)
        window.view.cards()[0].panel.once.click()
        await until(lambda: not desktop.manager.is_running(window.session_id or ""), what="turn end")
        seen["inbox empty"] = untranslated(inbox)
        inbox.close()
        popup = desktop.show_quick_ask()
        seen["quick ask"] = untranslated(popup)
        popup.hide()
        settings = desktop.show_settings()
        await until(lambda: not settings.providers.busy(), what="providers")
        # Settings → MCP servers, with one configured server (as the app adds the page).
        server = dataclasses.replace(mcp_script("behave"), name="笔记")  # the user names it
        mcp_config.save_global(tmp_path, [server])
        mcp = McpPage(McpManager([server], connect_timeout=20), tmp_path)
        settings.add_page(desktop.tr("MCP servers"), mcp)
        mcp.servers.setCurrentRow(0)
        pages = []
        for i in range(settings.nav.count()):
            settings.nav.setCurrentRow(i)
            pages.extend(untranslated(settings))
        seen["settings"] = sorted(set(pages))
        assert mcp.status.text().endswith("\n未启动")
        assert settings.connectors is not None
        settings.show_page(settings.nav.count() - 2)  # Connectors, Slack's page
        settings.connectors.select("slack")
        assert settings.connectors.edits
        seen["settings: Slack"] = untranslated(settings.connectors)
        if hasattr(settings.connectors, "open_catalog"):  # the catalogue, once it is there
            catalog = settings.connectors.open_catalog()
            seen["connector catalogue"] = untranslated(catalog)
            catalog.close()
        seen["MCP: add a server"] = untranslated(AddServerDialog(mcp))
        settings.close()
        onboarding = desktop.show_onboarding()
        seen["onboarding"] = untranslated(onboarding)
        onboarding.close()
        # Automations: one automation, selected, and its editor.
        store = desktop.automations.store
        auto = store.create(name="每日简报", prompt="总结昨天的邮件。", tz="Asia/Shanghai",
                            cron="0 8 * * 1-5", workspace=str(tmp_path))
        done = store.start_manual(auto.id, owner="walk")
        store.set_status(done.id, "completed", deliverables=["brief.md"])
        automations = desktop.show_automations()
        automations.refresh()
        automations.list.topLevelItem(0).setSelected(True)
        seen["automations"] = untranslated(automations)
        assert automations.list.topLevelItem(0).text(1) == "每个工作日 08:00（Asia/Shanghai）"
        assert [automations.runs.topLevelItem(0).text(c) for c in (1, 2, 3)] == [
            "立即运行", "已完成", "brief.md"]
        editor = AutomationEditor(store, store.get(auto.id), workspace=str(tmp_path))
        qtbot.addWidget(editor)
        seen["automation editor"] = untranslated(editor)
        assert editor.preview.text().startswith("每个工作日 08:00（Asia/Shanghai）\n接下来的运行")
        editor.once.setChecked(True)
        seen["automation editor, once"] = untranslated(editor)
        automations.close()
        consent = PersonaConsentDialog(parse_persona(PERSONA))
        qtbot.addWidget(consent)
        seen["persona consent"] = untranslated(consent)
        grant = GrantDialog(str(tmp_path / "项目"))
        qtbot.addWidget(grant)
        seen["grant folder access"] = untranslated(grant)
        first_run = desktop.show_workspace_dialog(first_run=True)
        seen["choose a workspace"] = untranslated(first_run)
        first_run.close()
        tray = Tray(desktop.inbox, desktop.bridge, desktop.answers, desktop.settings,
                    available=False)
        tray.set_failed_automations(1)
        seen["tray menu"] = untranslated(tray.menu, *tray.menu.findChildren(QMenu))
        assert "自动任务…（1 个失败）" in [a.text() for a in tray.menu.actions()]

    run(qloop, scenario)
    left = {k: v for k, v in seen.items() if v}
    assert not left, "English left in zh_CN:\n" + "\n".join(
        f"[{k}] {line}" for k, v in left.items() for line in v)


def test_the_linux_setup_installs_a_chinese_font() -> None:
    import subprocess
    from pathlib import Path

    dev = Path(__file__).resolve().parents[2] / "scripts" / "dev"
    done = subprocess.run(["bash", "-c", f'source "{dev}"; printf "%s\\n" "${{SYSTEM_PACKAGES[@]}}"'],
                          capture_output=True, text=True, check=True, timeout=30)
    assert "fonts-noto-cjk" in done.stdout.split()


def test_chinese_words_have_no_stray_space_and_full_width_colons(qapp) -> None:
    from openworker_qt.core.inbox import InboxItem
    from openworker_qt.qt.inbox_model import item_summary
    from openworker_qt.qt.wording import activity_text, tool_title
    from openworker_qt.ui.theme import install_translator

    try:
        assert install_translator(qapp, "zh_CN") == "zh_CN"
        listed = tool_title("list_files", {"path": "."}, "ok")
        assert listed == "列出了此文件夹", listed  # not "列出了 此文件夹"
        assert tool_title("list_files", {"path": "docs"}, "ok") == "列出了 docs"  # Latin keeps its space
        assert " " not in activity_text("list_files", {"path": "."}).strip("…")
        item = InboxItem(id=1, kind="question", session_id="s", tool_call_id=None, tool="ask_user",
                         arguments={}, args_preview="", title="选哪个？", reason="", risk="read",
                         target=None, standing_target=None, can_always=False, options=(),
                         task_id=None, status="pending", resolution=None, resolved_by=None,
                         created_at=0.0)
        summary = item_summary(item)
        assert "：" in summary and ": " not in summary, summary
    finally:
        install_translator(qapp, "en_US")
