"""The UI in Simplified Chinese: the shipped .qm loads and the windows use it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from openworker_qt.ui.resources import resource
from openworker_qt.ui.theme import install_translator

TRANSLATIONS = Path(__file__).resolve().parents[2] / "resources" / "translations"


@pytest.fixture
def chinese(qapp) -> Iterator[str]:
    used = install_translator(qapp, "zh_CN")
    yield used
    install_translator(qapp, "en")  # back to the built-in English


def test_source_and_compiled_translations_ship() -> None:
    ts = TRANSLATIONS / "openworker_qt_zh_CN.ts"
    qm = TRANSLATIONS / "openworker_qt_zh_CN.qm"
    assert ts.is_file() and qm.is_file()
    assert resource("translations", "openworker_qt_zh_CN.qm") == qm
    text = ts.read_text(encoding="utf-8")
    assert text.count("<translation>") > 300  # translated, not just extracted


def test_main_window_in_chinese(chinese: str, make_desktop) -> None:
    assert chinese == "zh_CN"
    desktop = make_desktop()
    window = desktop.window
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles[:3] == ["文件(&F)", "会话(&S)", "窗口(&W)"]
    assert window.composer.send.text() == "发送"
    assert window.composer.send.accessibleName() == "发送"
    assert window.sidebar.new_button.text() == "新建会话"
    window.composer.set_running(True)
    assert window.composer.send.text() == "引导" and window.composer.stop.text() == "停止"


def test_settings_and_onboarding_in_chinese(chinese: str, qloop, make_desktop) -> None:
    from tests.ui.conftest import act, run, until

    desktop = make_desktop()
    settings = act(qloop, desktop.show_settings)
    run(qloop, lambda: until(lambda: not settings.providers.busy()))
    assert settings.windowTitle() == "设置 — OpenWorker Qt"
    assert [settings.nav.item(i).text() for i in range(settings.nav.count())] == [
        "提供商与密钥", "默认模型", "权限", "可写文件夹", "外观", "记忆", "人设", "已安装的工具", "连接器",
        "语音", "更新"]
    assert settings.personas.install_git.text() == "从 git 安装(&G)…"
    assert settings.providers.tree.topLevelItem(0).text(1) == "未设置"
    # Qt's own strings (standard buttons) come from qtbase_zh_CN
    close = settings.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close)
    assert close.text().replace("&", "").startswith("关闭")
    onboarding = desktop.show_onboarding()
    assert onboarding.windowTitle() == "欢迎使用 OpenWorker"
    assert onboarding.check_button.text() == "验证并继续(&C)"


def test_unknown_language_falls_back_to_english(qapp, make_desktop) -> None:
    assert install_translator(qapp, "xx_YY") == ""
    desktop = make_desktop()
    assert desktop.window.composer.send.text() == "Send"
    assert QApplication.translate("MainWindow", "&File") == "&File"


def test_first_run_in_chinese(chinese: str, qloop, make_desktop) -> None:
    from openworker_qt.ui.workspace import prepare_folder
    from tests.ui.conftest import act

    desktop = make_desktop()
    dialog = act(qloop, lambda: desktop.show_workspace_dialog(first_run=True))
    assert dialog.windowTitle() == "选择工作区文件夹"
    assert dialog.use_button.text() == "使用此文件夹(&U)"
    onboarding = desktop.show_onboarding()
    assert onboarding.demo_button.text() == "试用离线演示(&D)"
    assert desktop.window.folder_button.text().startswith("文件夹：")
    with pytest.raises(ValueError, match="^请输入完整路径"):
        prepare_folder("relative")


def test_lease_and_late_answer_messages_in_chinese(chinese: str, qloop, make_desktop, tmp_path: Path) -> None:
    from PySide6.QtCore import QCoreApplication

    from openworker_qt.core.inbox import SUPERSEDED, SUPERSEDED_BY, WITHDRAWN, Inbox
    from openworker_qt.storage.db import Database
    from openworker_qt.ui.late_answers import closed_text

    db = Database(tmp_path / "other.sqlite3")
    inbox = Inbox(db)
    moved = inbox.add("approval", "s1", tool_call_id="c1", tool="write_file", arguments={},
                      title="t", reason="r", risk="write_local", target="a.txt")
    stopped = inbox.add("approval", "s1", tool_call_id="c2", tool="write_file", arguments={},
                        title="t", reason="r", risk="write_local", target="b.txt")
    inbox.resolve(moved.id, SUPERSEDED, by=SUPERSEDED_BY)
    inbox.resolve(stopped.id, WITHDRAWN, by="stop")
    late_moved, late_stopped = inbox.get(moved.id), inbox.get(stopped.id)
    db.close()
    assert closed_text(late_moved).startswith(f"#{moved.id} 已关闭，因为对话已经继续")
    assert closed_text(late_stopped) == f"#{stopped.id} 已撤回，因为本轮任务已停止；没有执行任何操作。"
    desktop = make_desktop()
    for context, source in (
        ("Outbox", "Your message was not sent: another OpenWorker window or process is working "
         "on this session. It is back in the message box; send it again when that turn has "
         "ended, or stop it there."),
        ("LiveEvents", "Not started: another OpenWorker window or process is working on this "
         "session. Try again when that turn has ended, or stop it there."),
    ):
        assert "另一个 OpenWorker 窗口或进程正在处理此会话" in QCoreApplication.translate(context, source)
    assert QCoreApplication.translate("InboxWindow", "Answer not taken") == "回答未被采用"
    folder = tmp_path / "docs"
    folder.mkdir()
    desktop.window.apply_folder_grant(str(folder), writable=False)
    assert [a.name for a in desktop.window.composer.attachments] == ["docs/（只读）"]


def test_key_from_the_environment_in_chinese(chinese: str, qloop, make_desktop, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.ui.conftest import act, run, until

    monkeypatch.setenv("OPENAI_API_KEY", "sk-env-0123456789abcdef")
    desktop = make_desktop()
    settings = act(qloop, desktop.show_settings)
    run(qloop, lambda: until(lambda: not settings.providers.busy()))
    tree = settings.providers.tree
    texts = {tree.topLevelItem(i).data(0, 256): tree.topLevelItem(i).text(1) for i in range(tree.topLevelItemCount())}
    assert texts["openai"] == "来自环境变量（OPENAI_API_KEY）"
    assert texts["anthropic"] == "未设置"


def test_todo_panel_in_chinese(chinese: str, make_desktop) -> None:
    from openworker_qt.tools.todo import TodoItem

    panel = make_desktop().window.todo
    panel.set_items([TodoItem("1", "读笔记", "done"), TodoItem("2", "写简报", "in_progress")])
    assert panel.toggle.text() == "待办清单 · 已完成 1/2"
    assert panel.current.text() == "当前：写简报"
    assert panel.accessibleName() == "待办清单"
    assert panel.toggle.accessibleName() == "收起待办清单"
