"""SessionListModel: the sessions sidebar's model over the ConversationStore.

Rows are :class:`~openworker_qt.storage.conversations.SessionInfo` snapshots
plus two live badges the store does not know: *running* (from the bridge) and
the number of *pending approvals* (from the approver / inbox). ``refresh``
takes a fresh list (read wherever the caller likes — it is one small query) and
announces the smallest change it can: rows removed, moved and inserted one by
one (never a reset), then ``dataChanged`` — so the view keeps its selection,
current row and scroll position when sessions appear from another process.

Roles:
    Qt.DisplayRole: the title (or "New session").
    Qt.ToolTipRole / AccessibleTextRole: title, model and badges in words.
    ID_ROLE: session id. RUNNING_ROLE: bool. PENDING_ROLE: int.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from openworker_qt.storage.conversations import SessionInfo

ID_ROLE = int(Qt.ItemDataRole.UserRole) + 1
RUNNING_ROLE = int(Qt.ItemDataRole.UserRole) + 2
PENDING_ROLE = int(Qt.ItemDataRole.UserRole) + 3
MODEL_ROLE = int(Qt.ItemDataRole.UserRole) + 4

AnyIndex = QModelIndex | QPersistentModelIndex


def _tr(text: str) -> str:
    return QCoreApplication.translate("SessionListModel", text)


class SessionListModel(QAbstractListModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[SessionInfo] = []
        self._running: set[str] = set()
        self._pending: dict[str, int] = {}

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        info = self._rows[index.row()]
        title = info.title or _tr("New session")
        if role == Qt.ItemDataRole.DisplayRole:
            return title
        if role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            parts = [title]
            if info.id in self._running:
                parts.append(_tr("running"))
            n = self._pending.get(info.id, 0)
            if n:
                parts.append(_tr("{n} waiting for you").format(n=n))
            if info.unattended:
                parts.append(_tr("unattended"))
            return " · ".join(parts)
        if role == ID_ROLE:
            return info.id
        if role == RUNNING_ROLE:
            return info.id in self._running
        if role == PENDING_ROLE:
            return self._pending.get(info.id, 0)
        if role == MODEL_ROLE:
            return info.model
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    # ------------------------------------------------------------------ updates

    def refresh(self, sessions: Sequence[SessionInfo]) -> None:
        new = list(sessions)
        wanted = {s.id for s in new}
        for row in range(len(self._rows) - 1, -1, -1):  # gone (deleted, filtered out)
            if self._rows[row].id not in wanted:
                self.beginRemoveRows(QModelIndex(), row, row)
                del self._rows[row]
                self.endRemoveRows()
        for row, info in enumerate(new):  # then move or insert each into place
            if row < len(self._rows) and self._rows[row].id == info.id:
                self._rows[row] = info
                continue
            at = self.row_of(info.id)
            if at is None:
                self.beginInsertRows(QModelIndex(), row, row)
                self._rows.insert(row, info)
                self.endInsertRows()
            else:  # at > row: the rows before ``row`` already match
                self.beginMoveRows(QModelIndex(), at, at, QModelIndex(), row)
                del self._rows[at]
                self._rows.insert(row, info)
                self.endMoveRows()
        if new:
            self.dataChanged.emit(self.index(0, 0), self.index(len(new) - 1, 0))

    def row_of(self, session_id: str) -> int | None:
        for i, info in enumerate(self._rows):
            if info.id == session_id:
                return i
        return None

    def info(self, row: int) -> SessionInfo:
        return self._rows[row]

    def set_running(self, session_id: str, running: bool) -> None:
        if running:
            self._running.add(session_id)
        else:
            self._running.discard(session_id)
        self._changed(session_id)

    def set_pending(self, counts: dict[str, int]) -> None:
        touched = set(counts) | set(self._pending)
        self._pending = {k: v for k, v in counts.items() if v}
        for sid in touched:
            self._changed(sid)

    def _changed(self, session_id: str) -> None:
        row = self.row_of(session_id)
        if row is not None:
            idx = self.index(row, 0)
            self.dataChanged.emit(idx, idx)
