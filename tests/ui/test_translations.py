"""The UI in Simplified Chinese: the shipped .qm loads and the windows use it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from openworker_qt.app import resource
from openworker_qt.ui.theme import install_translator

TRANSLATIONS = Path(__file__).resolve().parents[2] / "resources" / "translations"


@pytest.fixture
def chinese(qapp) -> Iterator[str]:  # type: ignore[no-untyped-def]
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


def test_main_window_in_chinese(chinese: str, make_desktop) -> None:  # type: ignore[no-untyped-def]
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


def test_settings_and_onboarding_in_chinese(chinese: str, qloop, make_desktop) -> None:  # type: ignore[no-untyped-def]
    from tests.ui.conftest import act, run, until

    desktop = make_desktop()
    settings = act(qloop, desktop.show_settings)
    run(qloop, lambda: until(lambda: not settings.providers.busy()))
    assert settings.windowTitle() == "设置 — OpenWorker Qt"
    assert [settings.nav.item(i).text() for i in range(settings.nav.count())] == [
        "提供商与密钥", "默认模型", "权限", "可写文件夹", "外观"]
    assert settings.providers.tree.topLevelItem(0).text(1) == "未设置"
    # Qt's own strings (standard buttons) come from qtbase_zh_CN
    close = settings.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close)
    assert close.text().replace("&", "").startswith("关闭")
    onboarding = desktop.show_onboarding()
    assert onboarding.windowTitle() == "欢迎使用 OpenWorker"
    assert onboarding.check_button.text() == "验证并继续(&C)"


def test_unknown_language_falls_back_to_english(qapp, make_desktop) -> None:  # type: ignore[no-untyped-def]
    assert install_translator(qapp, "xx_YY") == ""
    desktop = make_desktop()
    assert desktop.window.composer.send.text() == "Send"
    assert QApplication.translate("MainWindow", "&File") == "&File"


def test_first_run_in_chinese(chinese: str, qloop, make_desktop) -> None:  # type: ignore[no-untyped-def]
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
