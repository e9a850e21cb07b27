"""The session list's labels, attention dots and empty state (issue 27, C17), and
the one painter of group labels the session list and the team board share."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QStyleOptionViewItem

from openworker_qt.qt.session_model import ATTENTION_ROLE, HEADER_ROLE, SessionListModel
from openworker_qt.qt.team_board_model import COUNT_ROLE
from openworker_qt.qt.team_board_model import HEADER_ROLE as TEAM_HEADER_ROLE
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.ui import design
from openworker_qt.ui.sidebar import SessionDelegate, Sidebar
from openworker_qt.ui.team_board import TeamCardDelegate
from tests.ui.conftest import wait_for


def _sidebar(qtbot: Any, store: ConversationStore, running: set[str]) -> Sidebar:
    model = SessionListModel(store, running=lambda: frozenset(running))
    sidebar = Sidebar(model)
    qtbot.addWidget(sidebar)
    sidebar.resize(300, 400)
    sidebar.show()
    model.reload()
    return sidebar


def _row_image(sidebar: Sidebar, session_id: str) -> QImage:
    row = sidebar.model.row_of(session_id)
    assert row is not None
    rect = sidebar.list.visualRect(sidebar.model.index(row, 0))
    return sidebar.list.viewport().grab(rect).toImage()


def _has(image: QImage, color: QColor) -> bool:
    for y in range(image.height()):
        for x in range(image.width()):
            c = image.pixelColor(x, y)
            if (abs(c.red() - color.red()) < 30 and abs(c.green() - color.green()) < 30
                    and abs(c.blue() - color.blue()) < 30):
                return True
    return False


def test_a_turn_that_ends_off_screen_leaves_a_dot_until_the_session_is_opened(qtbot, tmp_path: Path) -> None:
    store = ConversationStore(Database(tmp_path / "s.sqlite3"))
    seen = store.create_session(title="On screen").id
    away = store.create_session(title="Working in the background").id
    running: set[str] = set()
    sidebar = _sidebar(qtbot, store, running)
    model = sidebar.model
    sidebar.select(seen)
    accent = design.colors(sidebar.palette()).q("accent")
    assert not _has(_row_image(sidebar, away), accent)
    for sid in (seen, away):
        running.add(sid)
        model.running_changed(sid)
    running.clear()
    for sid in (seen, away):
        model.running_changed(sid)

    def attention(sid: str) -> bool:
        row = model.row_of(sid)
        assert row is not None
        return bool(model.index(row, 0).data(ATTENTION_ROLE))

    assert attention(away) and not attention(seen)  # the one on screen was seen
    row = model.row_of(away)
    assert row is not None
    assert "new result" in model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert _has(_row_image(sidebar, away), accent)  # the dot is painted
    sidebar.select(away)  # opened: seen
    assert not attention(away)


def test_asks_waiting_show_the_dot_beside_their_count(qtbot, tmp_path: Path) -> None:
    store = ConversationStore(Database(tmp_path / "s.sqlite3"))
    sid = store.create_session(title="Needs an answer").id
    sidebar = _sidebar(qtbot, store, set())
    sidebar.model.set_pending({sid: 2})
    row = sidebar.model.row_of(sid)
    assert row is not None and sidebar.model.index(row, 0).data(ATTENTION_ROLE) is True
    assert _has(_row_image(sidebar, sid), design.colors(sidebar.palette()).q("accent"))
    sidebar.model.set_pending({})
    assert sidebar.model.index(row, 0).data(ATTENTION_ROLE) is False


def test_an_empty_list_says_what_will_be_in_it(qtbot, tmp_path: Path) -> None:
    store = ConversationStore(Database(tmp_path / "s.sqlite3"))
    sidebar = _sidebar(qtbot, store, set())
    qtbot.waitUntil(sidebar.no_match.isVisible, timeout=3000)
    assert sidebar.no_match.text().startswith("No sessions yet")
    assert sidebar.no_match.geometry().width() > 100
    store.create_session(title="First")
    sidebar.model.reload()
    assert not sidebar.no_match.isVisible()
    sidebar.search.setText("zebra")  # a search that finds nothing says so instead
    qtbot.waitUntil(lambda: sidebar.no_match.isVisible() and "zebra" in sidebar.no_match.text(),
                    timeout=5000)


def test_group_labels_are_painted_by_one_painter_in_capitals(qtbot) -> None:
    assert issubclass(SessionDelegate, design.SectionedDelegate)
    assert issubclass(TeamCardDelegate, design.SectionedDelegate)
    assert design.section_font(QFont()).capitalization() == QFont.Capitalization.AllUppercase

    def paint(delegate: design.SectionedDelegate, role: int, text: str, count: int | None) -> QImage:
        model = QStandardItemModel()
        item = QStandardItem(text)
        item.setData(True, role)
        if count is not None:
            item.setData(count, COUNT_ROLE)
        model.appendRow(item)
        image = QImage(240, 30, QImage.Format.Format_ARGB32)
        image.fill(QColor("white"))
        option = QStyleOptionViewItem()
        option.rect = QRect(0, 0, 240, 30)
        option.font = QFont()
        painter = QPainter(image)
        delegate.paint(painter, option, model.index(0, 0))
        painter.end()
        return image

    class Bare(design.SectionedDelegate):
        header_insets = SessionDelegate.header_insets

    class BareTeam(design.SectionedDelegate):
        header_insets = TeamCardDelegate.header_insets

    ours = paint(SessionDelegate(), HEADER_ROLE, "Today", None)
    bare = Bare()
    bare.header_role = HEADER_ROLE
    assert ours == paint(bare, HEADER_ROLE, "Today", None)
    assert ours != paint(bare, HEADER_ROLE, "Yesterday", None)
    team = BareTeam()
    team.header_role = TEAM_HEADER_ROLE
    assert paint(TeamCardDelegate(), TEAM_HEADER_ROLE, "Review", 2) == paint(
        team, TEAM_HEADER_ROLE, "Review  2", 2)


def test_a_scheduled_section_names_each_automation_its_schedule_and_opens_its_newest_run(
        qtbot, tmp_path: Path) -> None:
    from openworker_qt.automation.store import AutomationStore
    from openworker_qt.ui.scheduled_section import ATTENTION_ROLE as WAITING
    from openworker_qt.ui.scheduled_section import HEADER_ROLE as LABEL
    from openworker_qt.ui.scheduled_section import SCHEDULE_ROLE

    db = Database(tmp_path / "s.sqlite3")
    store = ConversationStore(db)
    automations = AutomationStore(db)
    sidebar = _sidebar(qtbot, store, set())
    sidebar.scheduled.attach(automations)
    assert sidebar.scheduled.isHidden()  # no automation: no section
    digest = automations.create(name="Morning digest", prompt="Sum up my inbox", tz="UTC",
                                cron="0 9 * * *")
    run = automations.start_manual(digest.id, owner="test")
    session = store.create_session(title="Morning digest · run 1").id
    automations.set_session(run.id, session)
    automations.set_status(run.id, "waiting")
    sidebar.model.reload()  # a run's session appeared: the section reads again
    qtbot.waitUntil(lambda: not sidebar.scheduled.isHidden(), timeout=3000)
    rows = sidebar.scheduled.rows
    assert rows.index(0, 0).data(LABEL) is True and rows.index(0, 0).data() == "Scheduled"
    row = rows.index(1, 0)
    assert row.data() == "Morning digest"
    assert "9" in row.data(SCHEDULE_ROLE) and row.data(WAITING) is True
    assert "waiting for you" in row.data(Qt.ItemDataRole.ToolTipRole)
    opened: list[str] = []
    sidebar.session_selected.connect(opened.append)
    rect = sidebar.scheduled.visualRect(sidebar.scheduled.model().index(1, 0))
    # the name in the text colour of the scheme (it once read the list's see-through
    # background as a dark scheme and came out nearly white)
    shot = sidebar.scheduled.viewport().grab(rect).toImage()
    assert _has(shot, design.colors(sidebar.palette()).q("text"))
    qtbot.mouseClick(sidebar.scheduled.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert opened == [session]


def test_the_desktop_fills_the_scheduled_section_from_its_automations(qloop, make_desktop) -> None:
    desktop = make_desktop()
    service = desktop.automations
    assert desktop.window.sidebar.scheduled.source is service.store
    service.store.create(name="Weekly report", prompt="Write it", tz="UTC", cron="0 9 * * 1")
    # back in the main window from the Automations one: Qt tells its widgets so
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    QApplication.sendEvent(desktop.window.sidebar, QEvent(QEvent.Type.ActivationChange))
    wait_for(qloop, lambda: not desktop.window.sidebar.scheduled.isHidden(), what="the section")
