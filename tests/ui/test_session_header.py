"""The frame: the session's title and "persona · model" above the transcript, and a
session list that hides and shows (a button, Ctrl+B, the Window menu), remembered
across restarts."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import act, wait_for


def test_header_names_the_session_and_its_persona_and_model(qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "Hello."}])
    window = desktop.window
    header = window.header
    assert header.title_label.full_text() == "New session"
    info = desktop.manager.create_session(title="ACME renewal brief", model="anthropic:claude-sonnet-4-6")
    act(qloop, lambda: window.show_session(info.id))
    wait_for(qloop, window.loaded, what="the session on screen")
    assert header.title_label.full_text() == "ACME renewal brief"
    subtitle = header.subtitle_label.full_text()
    assert subtitle.startswith("Cowork · ") and "claude-sonnet-4-6" in subtitle
    window.composer.show_persona("code")  # the persona picker changed: the header follows
    assert header.subtitle_label.full_text().startswith("Code · ")
    act(qloop, window.new_session)
    assert header.title_label.full_text() == "New session"


def test_header_follows_a_rename(qloop, make_desktop) -> None:
    desktop = make_desktop()
    window = desktop.window
    info = desktop.manager.create_session(title="Draft", model="anthropic:claude-sonnet-4-6")
    act(qloop, lambda: window.show_session(info.id))
    wait_for(qloop, window.loaded, what="the session on screen")
    act(qloop, lambda: window.sidebar.rename_requested.emit(info.id, "Board deck"))
    assert window.header.title_label.full_text() == "Board deck"


def test_a_long_title_ends_in_an_ellipsis_instead_of_pushing_the_window(qloop, make_desktop) -> None:
    desktop = make_desktop()
    window = desktop.window
    info = desktop.manager.create_session(title="A very long title " * 20, model="x:y")
    act(qloop, lambda: window.show_session(info.id))
    wait_for(qloop, window.loaded, what="the session on screen")
    window.resize(800, 480)
    wait_for(qloop, lambda: window.header.title_label.width() < 800, what="laid out")
    shown = window.header.title_label.text()
    assert shown.endswith("…") and len(shown) < len(info.title)
    assert window.header.minimumSizeHint().width() < 400


def test_sidebar_hides_and_shows_and_is_remembered(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop()
    window = desktop.window
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    action = window.findChild(QAction, "toggleSidebar")
    assert action is not None and action.isChecked() and window.sidebar.isVisible()
    act(qloop, window.composer.focus_message)
    act(qloop, lambda: QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_B,
                                      Qt.KeyboardModifier.ControlModifier))
    assert not window.sidebar.isVisible() and not action.isChecked()
    assert window.view.width() > 0 and window.composer.isVisible()
    act(qloop, window.header.sidebar_button.click)  # the header's button shows it again
    assert window.sidebar.isVisible()
    act(qloop, window.header.sidebar_button.click)
    assert not window.sidebar.isVisible()
    # the next start (same state dir) opens with the list hidden
    again = make_desktop()
    assert not again.window.sidebar.isVisible()
    assert not again.window.findChild(QAction, "toggleSidebar").isChecked()
    act(qloop, again.window.collapse.toggle)
    third = make_desktop()
    assert third.window.sidebar.isVisible()


def test_hiding_the_list_moves_the_focus_out_of_it(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop()
    window = desktop.window
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    act(qloop, window.sidebar.focus_search)
    assert window.sidebar.search.hasFocus()
    act(qloop, window.collapse.toggle)
    focus = QApplication.focusWidget()
    assert focus is not None and focus.window() is window
    assert not window.sidebar.isAncestorOf(focus)


def test_header_buttons_are_named_for_screen_readers(qloop, make_desktop) -> None:
    window = make_desktop().window
    assert window.header.sidebar_button.accessibleName() == "Session list"
    assert window.header.deliverables_button.accessibleName() == "Deliverables"
    act(qloop, window.header.deliverables_button.click)
    assert window.artifacts_dock.isVisible()


def test_header_buttons_say_their_shortcuts(qloop, make_desktop) -> None:
    window = make_desktop().window
    assert window.header.sidebar_button.toolTip() == "Show or hide the session list (Ctrl+B)"
    assert window.header.deliverables_button.toolTip() == "Show or hide the deliverables (Ctrl+Shift+E)"
    assert not window.header.sidebar_button.isCheckable()


def test_at_800_px_the_list_keeps_a_readable_width_and_the_chips_give_way(qloop, make_desktop) -> None:
    window = make_desktop().window
    window.show()
    window.resize(800, 480)
    wait_for(qloop, lambda: window.width() <= 800 and window.header.height() > 0, what="800 px")
    assert window.sidebar.width() >= 200, window.sidebar.width()  # (it was ~70 px)
    assert window.sidebar.new_button.text() == "New session"  # its words, not the icon alone
    composer = window.composer
    send = composer.send.mapTo(window, composer.send.rect().bottomRight())
    assert send.x() < window.width()  # Send stays on screen
    chips = [composer.persona, composer.mode, composer.model]
    for left, right in zip(chips, chips[1:], strict=False):  # side by side, never over
        assert left.geometry().right() < right.geometry().left()
    # the window still fits a 1280 × 720 screen at 2× (720 logical px wide)
    assert window.minimumSizeHint().width() <= 720
    # the list is not dragged away to nothing (Ctrl+B hides it)
    split = window.centralWidget()
    split.setSizes([0, 800])
    assert window.sidebar.width() >= 200 and window.sidebar.isVisible()


def test_a_squeezed_button_shows_its_icon_alone(qtbot) -> None:
    from PySide6.QtWidgets import QPushButton

    from openworker_qt.ui import icons
    from openworker_qt.ui.session_header import IconWhenNarrow

    button = QPushButton("New session")
    button.setIcon(icons.icon("new-session", "text", (16,)))
    button.setToolTip("Start a new session")
    qtbot.addWidget(button)
    IconWhenNarrow(button)
    button.setMinimumWidth(10)
    button.resize(40, 30)
    button.show()
    qtbot.waitUntil(lambda: button.text() == "", timeout=3000)  # not "New sessio"
    button.resize(300, 30)
    qtbot.waitUntil(lambda: button.text() == "New session", timeout=3000)


def test_header_and_message_box_sit_on_the_transcripts_page(qloop, make_desktop) -> None:
    window = make_desktop().window
    wait_for(qloop, lambda: window.header.height() > 0, what="laid out")
    page = window.view.viewport().palette().color(window.view.viewport().backgroundRole())
    for strip in (window.header, window.composer):
        corner = strip.grab().toImage().pixelColor(2, 2)
        assert corner.name() == page.name(), (strip.objectName(), corner.name(), page.name())


def test_the_main_area_is_a_quiet_grey_page_beside_a_white_session_list(qloop, make_desktop) -> None:
    from openworker_qt.ui import design

    window = make_desktop().window
    wait_for(qloop, lambda: window.header.height() > 0, what="laid out")
    scheme = design.colors(window.palette())
    viewport = window.view.viewport()
    page = viewport.grab().toImage().pixelColor(viewport.width() // 2, 4)
    assert page.name() == scheme.q("page").name() != scheme.q("surface").name()
    sidebar = window.sidebar.grab().toImage().pixelColor(window.sidebar.width() // 2,
                                                          window.sidebar.height() - 4)
    assert sidebar.name() == scheme.q("surface").name()
    # the message box stays white on it
    box = window.composer.box
    inside = box.grab().toImage().pixelColor(box.width() // 2, box.height() // 2)
    assert inside.name() == scheme.q("raised").name()
