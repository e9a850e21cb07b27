"""TeamBoardModel: one team's board as a list — a header per state, then its items.

Rows, top to bottom: Open, In progress, Review, Done, Blocked, Canceled, each a
header row followed by its items (oldest first). Every header is always a row (the
view hides the empty ones), so an item that changes state is one row removed and
one inserted, and anything else about it is one ``dataChanged``: the board is
never rebuilt for an event.

Updates come from the team store's listeners, which may call from any thread:
:class:`BoardFeed` carries each event to the GUI thread (a queued signal), collects
the items it names and reads just those (and the team, for spend) on the next
turn of the event loop — a burst of events is one read per item.

Roles:
    Qt.DisplayRole: an item's title, or a header's state in words.
    Qt.AccessibleTextRole / ToolTipRole: the card in one sentence.
    ITEM_ROLE: the :class:`Item` (None for a header). STATE_ROLE: the row's state.
    HEADER_ROLE: True for a header. COUNT_ROLE: a header's number of items.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)

from openworker_qt.teams.model import BoardEvent, Item, ItemState, Team

ITEM_ROLE = int(Qt.ItemDataRole.UserRole) + 1
STATE_ROLE = int(Qt.ItemDataRole.UserRole) + 2
HEADER_ROLE = int(Qt.ItemDataRole.UserRole) + 3
COUNT_ROLE = int(Qt.ItemDataRole.UserRole) + 4
AnyIndex = QModelIndex | QPersistentModelIndex

#: The board's columns, in the order a piece of work goes through them.
STATES: tuple[ItemState, ...] = (
    ItemState.OPEN, ItemState.IN_PROGRESS, ItemState.REVIEW, ItemState.DONE,
    ItemState.BLOCKED, ItemState.CANCELED)


def _tr(text: str) -> str:
    return QCoreApplication.translate("TeamBoardModel", text)


def state_name(state: ItemState) -> str:
    return {
        ItemState.OPEN: _tr("Open"), ItemState.IN_PROGRESS: _tr("In progress"),
        ItemState.REVIEW: _tr("Review"), ItemState.DONE: _tr("Done"),
        ItemState.BLOCKED: _tr("Blocked"), ItemState.CANCELED: _tr("Canceled"),
    }[state]


def money(usd: float) -> str:
    return f"${usd:,.2f}"


def item_sentence(item: Item) -> str:
    """The card in words (screen readers, tooltips)."""
    parts = [item.title, state_name(item.state)]
    parts.append(_tr("with {worker}").format(worker=item.assignee) if item.assignee
                 else _tr("not assigned"))
    parts.append(_tr("{cost} so far").format(cost=money(item.cost_usd)))
    if item.stuck:
        parts.append(_tr("no progress for a while"))
    if item.last_comment:
        parts.append(_tr("last comment: {text}").format(text=item.last_comment))
    return " · ".join(parts)


def item_tooltip(item: Item) -> str:
    """The card in words, then what "done" means for it and what its worker handed in."""
    lines = [item_sentence(item)]
    if item.criteria:
        lines.append(_tr("Done when: {criteria}").format(criteria=item.criteria))
    if item.result_files:
        lines.append(_tr("Handed in: {files}").format(files=", ".join(item.result_files)))
    return "\n".join(lines)


def board_order(item: Item) -> tuple[float, int, str]:
    """An item's place in its group: oldest first; items made together (a plan's) in
    the order of their ids (``<team>-2`` before ``<team>-10``)."""
    return item.created_at, len(item.id), item.id


class BoardSource(Protocol):
    """What the board reads (the team store)."""

    def team(self, team_id: str) -> Team | None: ...

    def items(self, team_id: str) -> list[Item]: ...

    def item(self, item_id: str) -> Item | None: ...


class TeamBoardModel(QAbstractListModel):
    """See module docstring.

    Signals:
        team_changed(Team): the team's spend, budget or state changed.
    """

    team_changed = Signal(object)  # the Team, after its spend, budget or state changed

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.team: Team | None = None
        self._groups: dict[ItemState, list[Item]] = {s: [] for s in STATES}

    # --------------------------------------------------------------- reading

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(STATES) + sum(map(len, self._groups.values()))

    def _at(self, row: int) -> tuple[ItemState, Item | None]:
        for state in STATES:
            if row == 0:
                return state, None
            group = self._groups[state]
            if row <= len(group):
                return state, group[row - 1]
            row -= 1 + len(group)
        raise IndexError(row)

    def header_row(self, state: ItemState) -> int:
        row = 0
        for s in STATES:
            if s is state:
                return row
            row += 1 + len(self._groups[s])
        raise KeyError(state)

    def row_of(self, item_id: str) -> int | None:
        for state in STATES:
            for n, item in enumerate(self._groups[state]):
                if item.id == item_id:
                    return self.header_row(state) + 1 + n
        return None

    def items(self, state: ItemState | None = None) -> list[Item]:
        if state is not None:
            return list(self._groups[state])
        return [i for s in STATES for i in self._groups[s]]

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < self.rowCount():
            return None
        state, item = self._at(index.row())
        if role == STATE_ROLE:
            return state
        if role == HEADER_ROLE:
            return item is None
        if role == ITEM_ROLE:
            return item
        if item is None:
            count = len(self._groups[state])
            if role == COUNT_ROLE:
                return count
            if role == Qt.ItemDataRole.DisplayRole:
                return state_name(state)
            if role in (Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole):
                return _tr("{state}: {n} items").format(state=state_name(state), n=count)
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return item.title
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return item_sentence(item)
        if role == Qt.ItemDataRole.ToolTipRole:
            return item_tooltip(item)
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if index.isValid() and self.data(index, HEADER_ROLE):
            return Qt.ItemFlag.ItemIsEnabled
        return super().flags(index)

    # --------------------------------------------------------------- writing

    def reset(self, team: Team | None, items: list[Item]) -> None:
        """Show ``team`` and its ``items`` (a team opened; the one full read)."""
        self.beginResetModel()
        self.team = team
        self._groups = {s: [] for s in STATES}
        for item in sorted(items, key=board_order):
            self._groups[item.state].append(item)
        self.endResetModel()
        self.team_changed.emit(team)

    def set_team(self, team: Team | None) -> None:
        self.team = team
        self.team_changed.emit(team)

    def put(self, item: Item) -> None:
        """Show ``item``'s new projection: one row changed, or moved to its state's group."""
        if self.team is None or item.team_id != self.team.id:
            return
        old = self.row_of(item.id)
        if old is not None:
            state, current = self._at(old)
            assert current is not None
            group = self._groups[state]
            if state is item.state:
                group[group.index(current)] = item
                index = self.index(old, 0)
                self.dataChanged.emit(index, index)
                return
            self.beginRemoveRows(QModelIndex(), old, old)
            group.remove(current)
            self.endRemoveRows()
            self._header_changed(state)
        group = self._groups[item.state]
        at = len(group)
        for n, other in enumerate(group):
            if board_order(item) < board_order(other):
                at = n
                break
        row = self.header_row(item.state) + 1 + at
        self.beginInsertRows(QModelIndex(), row, row)
        group.insert(at, item)
        self.endInsertRows()
        self._header_changed(item.state)

    def _header_changed(self, state: ItemState) -> None:
        index = self.index(self.header_row(state), 0)
        self.dataChanged.emit(index, index)


class BoardFeed(QObject):
    """Carries the store's events (from any thread) to ``model`` on the GUI thread,
    reading only what they name. ``reads`` counts the store reads (tests, benchmarks);
    ``last_flush_ms`` is how long the last batch of reads took on the GUI thread.

    Signals:
        arrived(BoardEvent): an event reached the GUI thread (after the model took it).
    """

    arrived = Signal(object)

    def __init__(self, model: TeamBoardModel, source: BoardSource,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.source = source
        self.reads = 0
        self.last_flush_ms = 0.0
        self.flushed: list[Callable[[], None]] = []
        self._items: set[str] = set()
        self._team = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.flush)
        self.arrived.connect(self._on_arrived, Qt.ConnectionType.QueuedConnection)

    def listener(self, event: BoardEvent) -> None:
        """For ``store.listeners``: safe to call from any thread."""
        self.arrived.emit(event)

    def open(self, team_id: str) -> None:
        """Show the team ``team_id`` (one read of the team and its items)."""
        self._items.clear()
        self._team = False
        team = self.source.team(team_id)
        items = self.source.items(team_id) if team is not None else []
        self.reads += 1
        self.model.reset(team, items)

    def _on_arrived(self, event: object) -> None:
        team = self.model.team
        if not isinstance(event, BoardEvent) or team is None or event.team_id != team.id:
            return
        if event.item_id:
            self._items.add(event.item_id)
        if not event.item_id or event.kind == "spend":
            self._team = True
        self._timer.start()

    def flush(self) -> None:
        """Read what the events since the last flush named, and show it."""
        team = self.model.team
        if team is None:
            return
        started = time.perf_counter()
        items, self._items = self._items, set()
        for item_id in sorted(items):
            item = self.source.item(item_id)
            self.reads += 1
            if item is not None:
                self.model.put(item)
        if self._team:
            self._team = False
            self.reads += 1
            self.model.set_team(self.source.team(team.id))
        self.last_flush_ms = (time.perf_counter() - started) * 1000
        for done in self.flushed:
            done()
