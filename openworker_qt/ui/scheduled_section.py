"""The sidebar's "Scheduled" section (issue 27, C17): each automation by its name,
its schedule in words under it, and a dot when its last run waits for the user
or failed unseen; a click opens the session of its newest run.

A short list above the session list (whose rows are sessions by date: every run
is one of them), hidden while there is no automation. It is read again (a few
rows) when the session list changes — a run starting or ending is a session
changing — at most once a loop turn.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QListView,
    QStyle,
    QStyleOptionViewItem,
    QWidget,
)

from openworker_qt.ui import design

if TYPE_CHECKING:  # (the automations' modules load after the first paint)
    from openworker_qt.automation.store import Automation, Run

HEADER_ROLE = int(Qt.ItemDataRole.UserRole) + 1
SESSION_ROLE = int(Qt.ItemDataRole.UserRole) + 2
SCHEDULE_ROLE = int(Qt.ItemDataRole.UserRole) + 3
ATTENTION_ROLE = int(Qt.ItemDataRole.UserRole) + 4
MAX_ROWS_SHOWN = 4  # automations before the section scrolls

AnyIndex = QModelIndex | QPersistentModelIndex


class AutomationsSource(Protocol):
    def all(self) -> list[Automation]: ...

    def runs(self, automation_id: str | None = None, *, limit: int = 50) -> list[Run]: ...


class ScheduledDelegate(design.SectionedDelegate):
    """The section's label, then two lines a row: the name, the schedule muted; the
    attention dot at the right."""

    PAD = design.SPACE["s"]
    header_role = HEADER_ROLE
    header_insets = (PAD + 2, PAD, 2)

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        line = QFontMetrics(option.font).height()
        if index.data(HEADER_ROLE):
            return QSize(120, line + 2 * self.PAD)
        return QSize(120, 2 * line + 2 + 2 * self.PAD)

    def paint_row(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        c = design.colors(option.palette)
        if option.state & (QStyle.StateFlag.State_MouseOver | QStyle.StateFlag.State_Selected):
            painter.setPen(Qt.PenStyle.NoPen)
            fill = c.q("accent")
            fill.setAlpha(40)
            painter.setBrush(fill)
            painter.drawRoundedRect(QRectF(option.rect.adjusted(4, 1, -4, -1)), 6, 6)
        inner = option.rect.adjusted(self.PAD + 4, self.PAD, -self.PAD - 4, -self.PAD)
        line = QFontMetrics(option.font).height()
        right = inner.right()
        if index.data(ATTENTION_ROLE):
            d = max(6, line // 3)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(c.q("accent"))
            painter.drawEllipse(QRectF(right - d, inner.top() + (line - d) / 2, d, d))
            right -= d + 6
        self._text(painter, option, QRect(inner.left(), inner.top(), right - inner.left(), line),
                   str(index.data(Qt.ItemDataRole.DisplayRole) or ""), c.q("text"), small=False)
        self._text(painter, option, QRect(inner.left(), inner.top() + line + 2, inner.width(), line),
                   str(index.data(SCHEDULE_ROLE) or ""), c.q("muted"), small=True)

    @staticmethod
    def _text(painter: QPainter, option: QStyleOptionViewItem, rect: QRect, text: str,
              color: QColor, *, small: bool) -> None:
        font = design.font("small", option.font) if small else option.font
        painter.setFont(font)
        painter.setPen(color)
        shown = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, max(0, rect.width()))
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), shown)


class ScheduledSessions(QListView):
    """See module docstring.

    Signals:
        open_session(str): the user chose an automation that has run (its newest run).
    """

    open_session = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("scheduledSessions")
        self.source: AutomationsSource | None = None
        self.rows = QStandardItemModel(self)
        self.setModel(self.rows)
        self.setItemDelegate(ScheduledDelegate(self))
        self.setFrameShape(QFrame.Shape.NoFrame)
        # On the sidebar's own colour (no "transparent" style sheet: the delegate reads
        # the scheme from the palette, and a transparent window colour reads as dark).
        self.viewport().setAutoFillBackground(False)
        self.setMouseTracking(True)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAccessibleName(self.tr("Scheduled"))
        self.setAccessibleDescription(self.tr("Your automations; choose one to open its latest run"))
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(0)
        self._soon.timeout.connect(self._reread)
        self._reading: asyncio.Future[None] | None = None
        self.clicked.connect(self._on_chosen)
        self.activated.connect(self._on_chosen)
        self.hide()

    def attach(self, source: AutomationsSource) -> None:
        self.source = source
        self.refresh()

    def changed(self, *_args: object) -> None:
        """Something changed (a session, a run): read again once this loop turn."""
        if self.source is not None:
            self._soon.start()

    def refresh(self) -> None:
        """Read the automations and their newest runs now (blocking: a few rows)."""
        self._show(self._read())

    def _reread(self) -> None:
        """Read again in a worker when the loop runs (the loop never waits on the
        database while a session streams), else now."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.refresh()
            return
        if self._reading is None or self._reading.done():
            self._reading = loop.create_task(self._read_in_worker())
        else:
            self._soon.start()  # (once more after the read going on)

    async def _read_in_worker(self) -> None:
        read = await asyncio.to_thread(self._read)
        self._show(read)

    def _read(self) -> list[tuple[Automation, Run | None]]:
        if self.source is None:
            return []
        read = []
        for automation in self.source.all():
            runs = self.source.runs(automation.id, limit=1)
            read.append((automation, runs[0] if runs else None))
        return read

    def _show(self, read: list[tuple[Automation, Run | None]]) -> None:
        self.rows.clear()
        if read:
            header = QStandardItem(self.tr("Scheduled"))
            header.setData(True, HEADER_ROLE)
            header.setFlags(Qt.ItemFlag.NoItemFlags)
            self.rows.appendRow(header)
        for automation, newest in read:
            self.rows.appendRow(self._row(automation, newest))
        self.setVisible(bool(read))
        self._fit(len(read))

    def _row(self, automation: Automation, newest: Run | None) -> QStandardItem:
        from openworker_qt.ui.schedule_text import schedule_words

        row = QStandardItem(automation.name)
        words = schedule_words(automation.schedule)
        if not automation.enabled:
            words = self.tr("{schedule} · paused").format(schedule=words)
        row.setData(words, SCHEDULE_ROLE)
        row.setData(newest.session_id if newest is not None else None, SESSION_ROLE)
        waiting = newest is not None and (newest.status == "waiting" or
                                          (newest.status == "failed" and not newest.seen))
        row.setData(waiting, ATTENTION_ROLE)
        tip = [automation.name, words]
        if newest is None:
            tip.append(self.tr("not run yet"))
        else:
            tip.append(self.tr("last run: {status}").format(status=self._status(newest.status)))
        row.setToolTip(" · ".join(tip))
        row.setData(" · ".join(tip), Qt.ItemDataRole.AccessibleTextRole)
        row.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
        return row

    def _status(self, status: str) -> str:
        return {"running": self.tr("running"), "waiting": self.tr("waiting for you"),
                "completed": self.tr("completed"), "failed": self.tr("failed"),
                "skipped": self.tr("skipped")}.get(status, status)

    def _fit(self, count: int) -> None:
        if not count:
            return
        height = sum(self.sizeHintForRow(r) for r in range(min(self.rows.rowCount(), MAX_ROWS_SHOWN + 1)))
        self.setFixedHeight(height + 2 * self.frameWidth())

    def _on_chosen(self, index: QModelIndex) -> None:
        sid = index.data(SESSION_ROLE)
        if sid:
            self.open_session.emit(str(sid))
