"""TranscriptModel: a flat list model of one session's display rows.

It adapts stored history (loaded in a worker, see ``transcript_items``) and the
live event stream of the :class:`~openworker_qt.qt.bridge.EngineBridge`. Only
rows that change are announced (``dataChanged`` for a growing assistant row,
``rowsInserted`` for new rows), so the view relayouts at most once per frame
while text streams.

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

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt, Signal

from openworker_qt.core import events as ev
from openworker_qt.qt.transcript_items import (
    TranscriptItem,
    describe,
    items_from_history,
    parse_arguments,
    status_label,
)

ITEM_ROLE = int(Qt.ItemDataRole.UserRole) + 1
KIND_ROLE = int(Qt.ItemDataRole.UserRole) + 2
STATUS_ROLE = int(Qt.ItemDataRole.UserRole) + 3
FETCH_CHUNK = 120  # older rows prepended per fetch (about three screens)
#: notice_kind of the transient "Waiting for Anthropic · retrying 2/4" row: never
#: stored, replaced by the next retry, removed by whatever the turn does next.
WAITING = "waiting"

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
        for i, it in enumerate(self._older):
            if it.kind == "tool":
                self._tools.setdefault(it.call_id, first + i)
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

    def append(self, item: TranscriptItem) -> int:
        self._drop_waiting()
        row = len(self._items)
        self.beginInsertRows(QModelIndex(), row, row)
        self._items.append(item)
        if item.kind == "tool":
            self._tools[item.call_id] = self._base + row
        self.endInsertRows()
        return row

    def _drop_waiting(self) -> None:
        if self._items and self._items[-1].kind == "notice" and self._items[-1].notice_kind == WAITING:
            row = len(self._items) - 1
            self.beginRemoveRows(QModelIndex(), row, row)
            del self._items[row]
            self.endRemoveRows()

    def changed(self, row: int) -> None:
        self._items[row].touch()
        idx = self.index(row, 0)
        self.dataChanged.emit(idx, idx)

    def toggle_expanded(self, row: int) -> None:
        item = self._items[row]
        if item.kind in ("tool", "assistant"):
            item.expanded = not item.expanded
            self.changed(row)

    # ---------------------------------------------------------------- live input

    def add_user(self, text: str, attachments: tuple[str, ...] = (), source: str = "user") -> None:
        self._end_streaming()
        self.append(TranscriptItem("user", text=text, attachments=attachments, source=source))

    def _streaming_row(self) -> int:
        if self._items and self._items[-1].kind == "assistant" and self._items[-1].streaming:
            return len(self._items) - 1
        return self.append(TranscriptItem("assistant", streaming=True))

    def append_text(self, text: str) -> None:
        row = self._streaming_row()
        self._items[row].text += text
        self.changed(row)

    def append_reasoning(self, text: str) -> None:
        row = self._streaming_row()
        self._items[row].reasoning += text
        self.changed(row)

    def _end_streaming(self, partial: str = "") -> None:
        if self._items and self._items[-1].kind == "assistant" and self._items[-1].streaming:
            self._items[-1].streaming = False
            self._items[-1].partial = partial
            self.changed(len(self._items) - 1)

    def apply(self, event: ev.Event) -> None:
        """Update rows for one (non-delta) event of this model's session."""
        if isinstance(event, ev.ProviderRetrying):
            last = self._items[-1] if self._items else None
            if last is not None and last.kind == "notice" and last.notice_kind == WAITING:
                last.text = event.text()
                self.changed(len(self._items) - 1)
            else:
                self.append(TranscriptItem("notice", notice_kind=WAITING, text=event.text()))
            return
        self._drop_waiting()
        if isinstance(event, ev.AssistantMessage):
            self._on_assistant_message(event.message)
        elif isinstance(event, ev.ToolProposed):
            row = self._tool(event.call_id, event.name)
            item = self._items[row]
            item.arguments = dict(event.arguments)
            item.risk = event.risk
            self.changed(row)
        elif isinstance(event, ev.PermissionRequired):
            row = self._tool(event.call_id, event.name)
            item = self._items[row]
            item.status = "awaiting"
            item.reason = event.reason
            item.target = event.target or ""
            item.risk = event.risk
            self.changed(row)
        elif isinstance(event, ev.QuestionRequested | ev.PlanRequested | ev.DirectoryRequested):
            asking = self.tool_row(event.call_id)
            if asking is not None:
                self._items[asking].status = "asking"
                self.changed(asking)
        elif isinstance(event, ev.ToolStarted):
            row = self._tool(event.call_id, event.name)
            self._items[row].status = "running"
            self.changed(row)
        elif isinstance(event, ev.ToolFinished):
            row = self._tool(event.call_id, event.name)
            item = self._items[row]
            item.status = event.status
            item.result = event.result
            item.rule = event.rule or ""
            item.display = dict(event.display or {})
            self.changed(row)
        elif isinstance(event, ev.UserMessageAdded):
            self._end_streaming()
            self.append(items_from_history([event.message])[0])
        elif isinstance(event, ev.NoticeAdded):
            self._end_streaming()
            self.append(TranscriptItem("notice", notice_kind=event.kind, text=event.text))
        elif isinstance(event, ev.ErrorOccurred):
            self._end_streaming(partial="error")
            self.append(TranscriptItem("notice", notice_kind="error", text=event.message))
        elif isinstance(event, ev.Interrupted):
            self._end_streaming(partial="interrupted")
            if not (self._items and self._items[-1].notice_kind == "interrupted"):
                self.append(
                    TranscriptItem("notice", notice_kind="interrupted", text="Stopped by user.")
                )
        elif isinstance(event, ev.TurnEnded):
            self._end_streaming()

    def _tool(self, call_id: str, name: str) -> int:
        row = self.tool_row(call_id)
        if row is not None:
            return row
        return self.append(TranscriptItem("tool", call_id=call_id, name=name, status="pending"))

    def _on_assistant_message(self, message: dict[str, Any]) -> None:
        content = message.get("content")
        text = content if isinstance(content, str) else ""
        reasoning = str(message.get("reasoning") or "")
        last = self._items[-1] if self._items else None
        if last is not None and last.kind == "assistant" and last.streaming:
            last.text = text
            last.reasoning = reasoning
            last.streaming = False
            self.changed(len(self._items) - 1)
        elif text or reasoning:
            self.append(TranscriptItem("assistant", text=text, reasoning=reasoning))
        for call in message.get("tool_calls") or []:
            fn = call.get("function") or {}
            call_id = str(call.get("id"))
            if call_id in self._tools:
                continue
            self.append(
                TranscriptItem(
                    "tool",
                    call_id=call_id,
                    name=str(fn.get("name", "")),
                    arguments=parse_arguments(fn.get("arguments")),
                    status="pending",
                )
            )
