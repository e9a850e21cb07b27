"""TranscriptModel: a flat list model of one session's display rows.

It shows stored history (reduced in a worker, see ``transcript_reducer``) and
the live event stream of the :class:`~openworker_qt.qt.bridge.EngineBridge`,
both through the one :class:`~openworker_qt.qt.transcript_reducer.TranscriptReducer`:
the model holds the rows and announces each change the reducer makes
(``dataChanged`` for a growing assistant row, ``rowsInserted`` for new rows), so
the view relayouts at most once per frame while text streams.

A row's state changes only through this model's methods: :meth:`apply` and the
streaming ones for engine events, :meth:`mark_awaiting` / :meth:`mark_resolved`
for inbox items (the window calls them for the items of the shown session),
:meth:`toggle_expanded` for the view.

Long sessions are exposed newest-first: :meth:`reset` takes the newest page of
rows (painted at once), :meth:`set_older` hands over the older rows once a
worker has built them, and :meth:`fetch_older` prepends them a chunk at a time
as the user scrolls up. A view only ever lays out the rows it was given, so a
10,000-message session paints as fast as a short one.

Roles:
    Qt.DisplayRole / Qt.AccessibleTextRole: a plain-text rendering of the row.
    ITEM_ROLE: the :class:`TranscriptItem` itself (for the delegate).
    KIND_ROLE: ``"user" | "assistant" | "tool" | "notice"``.
"""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt, Signal

from openworker_qt.core import events as ev
from openworker_qt.qt.transcript_items import TranscriptItem, describe, status_label
from openworker_qt.qt.transcript_reducer import TranscriptReducer

ITEM_ROLE = int(Qt.ItemDataRole.UserRole) + 1
KIND_ROLE = int(Qt.ItemDataRole.UserRole) + 2
STATUS_ROLE = int(Qt.ItemDataRole.UserRole) + 3
FETCH_CHUNK = 120  # older rows prepended per fetch (about three screens)

AnyIndex = QModelIndex | QPersistentModelIndex


class TranscriptModel(QAbstractListModel):
    """Rows of the session shown in the window (see module docstring).

    Signals:
        older_changed(): older rows became available (or finished loading).
    """

    older_changed = Signal()

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.session_id = ""
        self._items: list[TranscriptItem] = []
        # Rows not exposed yet, oldest first; ``_older_loading`` while a worker builds them.
        self._older: list[TranscriptItem] = []
        self._older_loading = False
        # call id -> absolute position; row = position - _base (older rows are negative),
        # so prepending never renumbers the index.
        self._tools: dict[str, int] = {}
        self._base = 0
        # The rules that build and change rows; this model only holds and announces them.
        self._reducer = TranscriptReducer(self)

    # ------------------------------------------------------------- Qt interface

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._items)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        item = self._items[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return describe(item)
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:
            if item.kind == "tool":
                return f"Tool card, {status_label(item.status)}"
            return {"user": "Your message", "assistant": "Assistant message"}.get(
                item.kind, "Notice"
            )
        if role == ITEM_ROLE:
            return item
        if role == KIND_ROLE:
            return item.kind
        if role == STATUS_ROLE:
            return item.status
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    # ------------------------------------------------------------------ access

    @property
    def items(self) -> list[TranscriptItem]:
        return self._items

    def item(self, row: int) -> TranscriptItem:
        return self._items[row]

    def tool_row(self, call_id: str) -> int | None:
        """The row of a tool call; an older row not exposed yet is fetched first."""
        pos = self._tools.get(call_id)
        if pos is None:
            return None
        if pos < self._base:
            self.fetch_older(self._base - pos)
        return pos - self._base

    def reset(self, session_id: str, items: list[TranscriptItem], *,
              older_loading: bool = False) -> None:
        """Show ``items``; with ``older_loading``, :meth:`set_older` follows."""
        self.beginResetModel()
        self.session_id = session_id
        self._items = list(items)
        self._older = []
        self._older_loading = older_loading
        self._base = 0
        self._tools = {it.call_id: i for i, it in enumerate(self._items) if it.kind == "tool"}
        self.endResetModel()

    # ------------------------------------------------------------- older rows

    def has_older(self) -> bool:
        """True while rows older than the first exposed one exist or are loading."""
        return bool(self._older) or self._older_loading

    def set_older(self, session_id: str, items: list[TranscriptItem]) -> None:
        """Rows older than the exposed ones (built in a worker); none are shown yet."""
        if session_id != self.session_id or not self._older_loading:
            return
        self._older_loading = False
        self._older = list(items)
        first = self._base - len(self._older)
        older = {it.call_id: first + i for i, it in enumerate(self._older) if it.kind == "tool"}
        self._tools = {**older, **self._tools}  # a call id names its newest row
        self.older_changed.emit()

    def fetch_older(self, count: int = FETCH_CHUNK) -> int:
        """Prepend up to ``count`` older rows; returns how many were added."""
        count = min(count, len(self._older))
        if count <= 0:
            return 0
        chunk = self._older[-count:]
        self.beginInsertRows(QModelIndex(), 0, count - 1)
        del self._older[-count:]
        self._items[0:0] = chunk
        self._base -= count
        self.endInsertRows()
        if not self._older:
            self.older_changed.emit()
        return count

    # ------------------------------------------------------- the reducer's rows

    def last_row(self) -> TranscriptItem | None:
        return self._items[-1] if self._items else None

    def find_tool(self, call_id: str) -> TranscriptItem | None:
        """The newest row of a call, exposed or not (older rows stay where they are)."""
        pos = self._tools.get(call_id)
        if pos is None:
            return None
        if pos >= self._base:
            return self._items[pos - self._base]
        return self._older[pos - self._base + len(self._older)]

    def append(self, item: TranscriptItem) -> int:
        row = len(self._items)
        self.beginInsertRows(QModelIndex(), row, row)
        self._items.append(item)
        if item.kind == "tool":
            self._tools[item.call_id] = self._base + row
        self.endInsertRows()
        return row

    def add_queued(self, text: str) -> TranscriptItem:
        """A steering message shown at once, before the engine takes it in."""
        item = TranscriptItem("user", text=text, source="queued", ts=time.time())
        self.append(item)
        return item

    def settle_queued(self, text: str) -> bool:
        """The engine took in a steering message: its queued row becomes the message."""
        for row, item in enumerate(self._items):
            if item.kind == "user" and item.source == "queued" and item.text == text:
                item.source = "steering"
                self.changed(row)
                return True
        return False

    def row_changed(self, item: TranscriptItem) -> None:
        row = self._row_of(item)
        if row is None:
            item.touch()  # an older row not exposed yet: nothing shows it
        else:
            self.changed(row)

    def drop_last(self) -> None:
        row = len(self._items) - 1
        self.beginRemoveRows(QModelIndex(), row, row)
        item = self._items.pop()
        if item.kind == "tool" and self._tools.get(item.call_id) == self._base + row:
            del self._tools[item.call_id]
        self.endRemoveRows()

    def _row_of(self, item: TranscriptItem) -> int | None:
        if self._items and self._items[-1] is item:
            return len(self._items) - 1
        if item.kind == "tool":
            pos = self._tools.get(item.call_id)
            if pos is not None and pos < self._base:
                return None  # not exposed yet
            if pos is not None and self._items[pos - self._base] is item:
                return pos - self._base
        for row in range(len(self._items) - 1, -1, -1):
            if self._items[row] is item:
                return row
        return None

    def changed(self, row: int) -> None:
        """Row ``row`` renders differently (its state, or a card placed on it)."""
        self._items[row].touch()
        idx = self.index(row, 0)
        self.dataChanged.emit(idx, idx)

    def toggle_expanded(self, row: int) -> None:
        item = self._items[row]
        if item.kind in ("tool", "assistant", "user"):
            item.expanded = not item.expanded
            self.changed(row)

    # ---------------------------------------------------------------- live input

    def apply(self, event: ev.Event) -> None:
        """Update rows for one event of this model's session (see TranscriptReducer)."""
        self._reducer.apply_event(event)

    def append_text(self, text: str) -> None:
        """Streamed assistant text (coalesced deltas from the bridge)."""
        self._reducer.append_text(text)

    def append_reasoning(self, text: str) -> None:
        self._reducer.append_reasoning(text)

    # ------------------------------------------------------------ inbox overlay

    def mark_awaiting(self, call_id: str, item_id: int, *, reason: str = "",
                      target: str = "") -> int | None:
        """The call waits for inbox item ``item_id``; returns its row (exposed first
        if it was an older one), or ``None`` if the call cannot wait (no such row,
        or it already started or finished)."""
        if self._reducer.mark_awaiting(call_id, item_id, reason=reason, target=target) is None:
            return None
        return self.tool_row(call_id)

    def mark_resolved(self, call_id: str, item_id: int) -> int | None:
        """Inbox item ``item_id`` was answered: returns the row that stopped waiting."""
        if self._reducer.mark_resolved(call_id, item_id) is None:
            return None
        return self.tool_row(call_id)
