"""Every window, walked: accessible names, shortcuts shown in menus, tab order.

Windows: main window (with an inline approval card), approval dialog, inbox
window, quick ask, settings (every page), onboarding. For each, every
interactive control must have a non-empty accessible name; controls that share
a name within one window must carry a description that tells them apart.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QHeaderView,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from tests.ui.conftest import act, look_away, run, until
from tests.ui.test_main_window import type_and_enter

INTERACTIVE = (QAbstractButton, QLineEdit, QComboBox, QAbstractItemView, QPlainTextEdit, QTextEdit,
               QAbstractSpinBox)

WRITE = [
    {"tool_calls": [{"name": "write_file", "arguments": {"path": "out.txt", "content": "hello\n"}}]},
    {"text": "Done."},
]


def _is_qt_internal(widget: QWidget) -> bool:
    """Parts Qt builds inside a control (a combo's popup list, a header, scroll bars)."""
    if isinstance(widget, QHeaderView) or widget.objectName().startswith("qt_"):
        return True
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QComboBox) and not (isinstance(widget, QLineEdit) and parent.isEditable()):
            return True
        if isinstance(parent, QAbstractSpinBox):
            return True
        parent = parent.parentWidget()
    return type(widget).__name__ in {"QComboBoxListView", "QComboBoxPrivateContainer"}


def controls(root: QWidget) -> list[QWidget]:
    found = [root, *root.findChildren(QWidget)]
    return [w for w in found if isinstance(w, INTERACTIVE) and not _is_qt_internal(w)
            and w.window() is root.window()]  # a child dialog is walked on its own


def describe(widget: QWidget) -> str:
    text = widget.text() if hasattr(widget, "text") and callable(widget.text) else ""
    chain = []
    parent = widget.parentWidget()
    while parent is not None and len(chain) < 4:
        chain.append(type(parent).__name__)
        parent = parent.parentWidget()
    return (f"{type(widget).__name__}(objectName={widget.objectName()!r}, text={text!r}, "
            f"in {'/'.join(chain)})")


def assert_accessible(root: QWidget) -> int:
    problems: list[str] = []
    by_name: dict[str, list[QWidget]] = defaultdict(list)
    walked = controls(root)
    for w in walked:
        name = w.accessibleName().strip()
        if not name:
            problems.append(f"no accessible name: {describe(w)}")
            continue
        by_name[name].append(w)
    for name, same in by_name.items():
        if len(same) > 1:
            descriptions = [w.accessibleDescription().strip() for w in same]
            if not all(descriptions) or len(set(descriptions)) < len(descriptions):
                problems.append(f"{len(same)} controls named {name!r} without telling descriptions: "
                                + ", ".join(describe(w) for w in same))
    assert not problems, f"in {root.accessibleName() or root.windowTitle()}:\n" + "\n".join(problems)
    return len(walked)


def assert_menus(window: Any) -> dict[str, str]:
    """Every menu action is named; every shortcut is set on an action a menu shows."""
    shortcuts: dict[str, str] = {}
    menus = [a.menu() for a in window.menuBar().actions() if isinstance(a.menu(), QMenu)]
    assert len(menus) >= 3
    for menu in menus:
        assert menu.title().replace("&", "").strip(), "a menu without a title"
        for action in menu.actions():
            if action.isSeparator():
                continue
            assert action.text().replace("&", "").strip(), f"unnamed action in {menu.title()}"
            if not action.shortcut().isEmpty():
                # the menu renders the shortcut from the action's own sequence
                assert action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
                shortcuts[action.objectName()] = action.shortcut().toString()
    return shortcuts


def test_every_window_is_named_and_keyboard_complete(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop(WRITE)
    window = desktop.window
    opened: dict[str, QWidget] = {}

    look_away(qtbot)  # the user is in another window: the ask gets its dialog

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: window.cards.dialogs, what="approval dialog")
        opened["approval"] = next(iter(window.cards.dialogs.values()))
        opened["inbox"] = desktop.show_inbox()
        opened["quick ask"] = desktop.show_quick_ask()
        opened["settings"] = desktop.show_settings()
        await until(lambda: not opened["settings"].providers.busy(), what="keyring read")
        opened["onboarding"] = desktop.show_onboarding()
        opened["workspace"] = desktop.show_workspace_dialog(first_run=True)

    run(qloop, scenario)
    counts = {"main window": assert_accessible(window)}
    assert window.view.findChildren(QAbstractButton), "the inline approval card was walked"
    for name, widget in opened.items():
        counts[name] = assert_accessible(widget)
    onboarding = opened["onboarding"]
    onboarding.pages.setCurrentIndex(1)
    counts["onboarding model page"] = assert_accessible(onboarding)
    assert all(n > 0 for n in counts.values()), counts
    shortcuts = assert_menus(window)
    for needed in ("newSession", "searchSessions", "send", "stop", "inbox", "approveFocused",
                   "denyFocused", "quickAsk", "settings", "rename"):
        assert needed in shortcuts, f"no shortcut for {needed}"

    async def finish_turn() -> None:  # leave no parked ask behind for shutdown
        opened["approval"].panel.deny.click()
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, finish_turn)


def test_composer_tab_order_reaches_stop_then_send(qtbot, make_desktop) -> None:
    """What Tab visits from the message box while a turn runs (Stop shown): the
    composer's controls left to right as drawn (issue 27: it used to cycle between
    the box and Send)."""
    desktop = make_desktop()
    window = desktop.window
    composer = window.composer
    composer.set_running(True)  # Stop is shown while a turn runs
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    composer.edit.setFocus()
    visited: list[QWidget] = []
    for _ in range(7):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        focus = QApplication.focusWidget()
        parent = focus.parentWidget() if focus is not None else None
        visited.append(parent if parent is not None and parent.focusProxy() is focus else focus)
    assert visited == [composer.persona, composer.mode, composer.model, composer.attach,
                       composer.mic, composer.stop, composer.send], [describe(x) for x in visited]
    # Tab really moves focus out of the message box (it does not insert a tab)
    assert composer.edit.toPlainText() == ""
    composer.set_running(False)


def test_settings_pages_are_reachable_by_keyboard(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop()
    settings = act(qloop, desktop.show_settings)
    run(qloop, lambda: until(lambda: not settings.providers.busy()))
    settings.nav.setFocus()
    for i in range(settings.nav.count()):
        settings.nav.setCurrentRow(i)
        assert settings.stack.currentIndex() == i
        page = settings.stack.currentWidget()
        assert assert_accessible(page) > 0
    menu_action = window_action(desktop, "settings")
    assert menu_action.shortcut() == QKeySequence("Ctrl+,")


def window_action(desktop: Any, name: str) -> QAction:
    action = desktop.window.findChild(QAction, name)
    assert action is not None
    return action
