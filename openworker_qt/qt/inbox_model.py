"""InboxListModel: pending inbox items across sessions, for the inbox window and tray.

An adapter over :class:`~openworker_qt.qt.inbox_bridge.InboxBridge`: rows are
inserted and removed one by one as items arrive and leave, so a selection in
the inbox window survives other items being answered elsewhere. An optional
session filter narrows the rows.

Roles:
    Qt.DisplayRole: the approval's question in words, or "<kind>: <title>".
    Qt.ToolTipRole / AccessibleTextRole: a full sentence for screen readers.
    ITEM_ROLE: the :class:`InboxItem`.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from openworker_qt.core.inbox import InboxItem
from openworker_qt.qt.inbox_bridge import InboxBridge
from openworker_qt.qt.wording import approval_question

ITEM_ROLE = int(Qt.ItemDataRole.UserRole) + 1
AnyIndex = QModelIndex | QPersistentModelIndex


def _tr(text: str) -> str:
    return QCoreApplication.translate("InboxListModel", text)


def item_summary(item: InboxItem) -> str:
    if item.kind == "approval":  # the question in words: "Write out.txt?"
        return approval_question(item.tool, dict(item.arguments or {}), item.target)
    label = {"question": _tr("Question"), "plan": _tr("Plan"), "directory": _tr("Folder access"),
             "notice": _tr("Notice")}.get(item.kind, item.kind)
    return _tr("{label}: {title}").format(label=label, title=item.title)


class InboxListModel(QAbstractListModel):
    def __init__(self, bridge: InboxBridge, parent: Any = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.session_filter: str | None = None
        self.titles: dict[str, str] = {}
        self._rows: list[InboxItem] = bridge.pending()
        bridge.item_added.connect(self._on_bridge_item_added)
        bridge.item_resolved.connect(self._on_bridge_item_resolved)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        item = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return item_summary(item)
        if role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            session = self.titles.get(item.session_id) or item.session_id
            return _tr("{summary}. Session: {session}. {reason}").format(
                summary=item_summary(item), session=session, reason=item.reason)
        if role == ITEM_ROLE:
            return item
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def item(self, row: int) -> InboxItem:
        return self._rows[row]

    def set_session_filter(self, session_id: str | None) -> None:
        self.beginResetModel()
        self.session_filter = session_id
        self._rows = self.bridge.pending(session_id)
        self.endResetModel()

    def _on_bridge_item_added(self, item: InboxItem) -> None:
        if self.session_filter is not None and item.session_id != self.session_filter:
            return
        if any(r.id == item.id for r in self._rows):
            return
        row = len(self._rows)
        self.beginInsertRows(QModelIndex(), row, row)
        self._rows.append(item)
        self.endInsertRows()

    def _on_bridge_item_resolved(self, item: InboxItem) -> None:
        for row, existing in enumerate(self._rows):
            if existing.id == item.id:
                self.beginRemoveRows(QModelIndex(), row, row)
                del self._rows[row]
                self.endRemoveRows()
                return
