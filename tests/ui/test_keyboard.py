"""Keyboard use of the main window and its satellites (issue 27, A3): Tab through
the composer in the order it is drawn, the message box focused when it is time to
type, Esc closing Settings and the other windows."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from tests.ui.conftest import act


def _activate(qtbot, window: QWidget) -> None:
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)


def _name(widget: QWidget | None) -> str:
    if widget is None:
        return "(none)"
    parent = widget.parentWidget()
    if parent is not None and parent.focusProxy() is widget and parent.accessibleName():
        return parent.accessibleName()  # an editable combo's line edit: the combo
    return widget.accessibleName() or widget.objectName()


def _tabs(qtbot, count: int, back: bool = False) -> list[str]:
    seen = []
    for _ in range(count):
        key = Qt.Key.Key_Backtab if back else Qt.Key.Key_Tab
        mods = Qt.KeyboardModifier.ShiftModifier if back else Qt.KeyboardModifier.NoModifier
        qtbot.keyClick(QApplication.focusWidget(), key, mods)
        seen.append(_name(QApplication.focusWidget()))
    return seen


def test_tab_goes_through_the_composer_in_the_order_it_is_drawn(qtbot, make_desktop) -> None:
    window = make_desktop([{"text": "x"}]).window
    _activate(qtbot, window)
    window.composer.edit.setFocus()
    assert _tabs(qtbot, 8) == ["Persona", "Permission mode", "Model", "Attach files",
                               "Voice input", "Send", "Session folder", "New session"]
    window.composer.send.setFocus()
    assert _tabs(qtbot, 6, back=True) == ["Voice input", "Attach files", "Model",
                                          "Permission mode", "Persona", "Message"]


def test_after_onboarding_typing_goes_into_the_message_box(qtbot, make_desktop) -> None:
    desktop = make_desktop()
    window = desktop.window
    _activate(qtbot, window)
    window.sidebar.search.setFocus()  # somewhere else before the dialog
    dialog = desktop.show_onboarding()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=3000)
    qtbot.mouseClick(dialog.skip_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    qtbot.waitUntil(window.composer.edit.hasFocus, timeout=3000)
    qtbot.keyClicks(QApplication.focusWidget(), "hello")
    assert window.composer.edit.toPlainText() == "hello"


def test_a_new_session_focuses_the_message_box(qtbot, make_desktop) -> None:
    window = make_desktop([{"text": "x"}]).window
    _activate(qtbot, window)
    window.sidebar.new_button.setFocus()
    qtbot.keyClick(window.sidebar.new_button, Qt.Key.Key_Space)  # New session, from the keyboard
    assert window.composer.edit.hasFocus()


def test_escape_closes_settings_and_automations(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    settings = act(qloop, desktop.show_settings)
    _activate(qtbot, settings)
    field = next(w for w in settings.findChildren(QWidget)
                 if w.isVisible() and type(w).__name__ == "QLineEdit")
    field.setFocus()
    qtbot.keyClick(field, Qt.Key.Key_Escape)
    assert not settings.isVisible()
    automations = act(qloop, desktop.show_automations)
    _activate(qtbot, automations)
    qtbot.keyClick(QApplication.focusWidget() or automations, Qt.Key.Key_Escape)
    assert not automations.isVisible()


def test_enter_presses_each_onboarding_pages_next_step(qtbot, make_desktop) -> None:
    desktop = make_desktop()
    dialog = desktop.show_onboarding()
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
    _activate(qtbot, dialog)
    pressed: list[str] = []
    dialog.check_button.clicked.disconnect()
    dialog.check_button.clicked.connect(lambda: pressed.append("check"))
    dialog.finish_button.clicked.disconnect()
    dialog.finish_button.clicked.connect(lambda: pressed.append("finish"))
    key = next(w for w in dialog.pages.widget(0).findChildren(QWidget)
               if w.isVisible() and w.accessibleName() == "API key")
    key.setFocus()
    qtbot.keyClick(key, Qt.Key.Key_Return)
    assert pressed == ["check"]
    dialog.show_page(1)
    dialog.model_box.setFocus()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert pressed == ["check", "finish"]
    dialog.show_page(0)
    key.setFocus()
    qtbot.keyClick(key, Qt.Key.Key_Return)
    assert pressed == ["check", "finish", "check"]
