"""The sidebar's "Teams" section (issue 29, item 2): each active team under its
lead's session, its workers' sessions nested below it (collapsed by default),
with the team's state in words.

A small tree above the session list, hidden while no team is active. Its rows are
re-read (the active teams and their items: a handful of rows) at most once per
:data:`REFRESH_MS` after board events, never once per event. A row clicked
opens its session.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QFrame, QHeaderView, QTreeView, QWidget

from openworker_qt.qt.team_board_model import board_order
from openworker_qt.teams.model import Item, ItemState, Team, TeamState
from openworker_qt.ui import design

SESSION_ROLE = int(Qt.ItemDataRole.UserRole) + 1
TEAM_ROLE = int(Qt.ItemDataRole.UserRole) + 2
REFRESH_MS = 250
MAX_ROWS_SHOWN = 8  # rows before the section scrolls


class TeamsSource(Protocol):
    def teams(self, *, active_only: bool = False) -> list[Team]: ...

    def items(self, team_id: str) -> list[Item]: ...


class TeamSessions(QTreeView):
    """See module docstring.

    Signals:
        open_session(str): the user chose a team's lead or worker session.
    """

    open_session = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("teamSessions")
        self.source: TeamsSource | None = None
        self.tree = QStandardItemModel(self)
        self.setModel(self.tree)
        self.setHeaderHidden(True)
        self.setRootIsDecorated(True)
        self.setIndentation(design.SPACE["l"])
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.viewport().setAutoFillBackground(False)  # on the sidebar's own colour
        design.style_sheet(self, lambda: "QTreeView#teamSessions { background: transparent; }")
        self.setUniformRowHeights(True)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAccessibleName(self.tr("Teams"))
        self.setAccessibleDescription(self.tr("Each team under its lead, its workers below"))
        self.clicked.connect(self._on_clicked)
        self.expanded.connect(lambda _i: self._fit())
        self.collapsed.connect(lambda _i: self._fit())
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self.refresh)
        self.reads = 0
        self.refreshed: list[Callable[[], None]] = []
        self.hide()

    def attach(self, source: TeamsSource) -> None:
        self.source = source
        self.refresh()

    def changed(self) -> None:
        """Something on a board changed: read the teams again soon (once per burst)."""
        if not self._timer.isActive():
            self._timer.start()

    def state_text(self, team: Team, items: list[Item]) -> str:
        if team.state is TeamState.RUNNING:
            live = [i for i in items if i.state is not ItemState.CANCELED]
            done = sum(i.state is ItemState.DONE for i in live)
            return self.tr("{done} of {total} done").format(done=done, total=len(live))
        return {
            TeamState.PLANNING: self.tr("Planning"),
            TeamState.AWAITING_PLAN: self.tr("Plan waiting for you"),
            TeamState.ASSEMBLING: self.tr("Putting it together"),
            TeamState.DONE: self.tr("Finished"),
            TeamState.STOPPED: self.tr("Stopped"),
            TeamState.OVER_BUDGET: self.tr("Budget used up"),
            TeamState.FAILED: self.tr("Failed"),
        }.get(team.state, "")

    def refresh(self) -> None:
        """Read the active teams and show them (the expanded ones stay open)."""
        if self.source is None:
            return
        open_teams = {self.tree.item(r).data(TEAM_ROLE) for r in range(self.tree.rowCount())
                      if self.isExpanded(self.tree.index(r, 0))}
        teams = self.source.teams(active_only=True)
        self.reads += 1
        self.tree.clear()
        muted = design.colors(self.palette()).q("muted")
        for team in teams:
            items = self.source.items(team.id)
            self.reads += 1
            lead = QStandardItem(team.outcome)
            lead.setData(team.lead_session_id, SESSION_ROLE)
            lead.setData(team.id, TEAM_ROLE)
            state = QStandardItem(self.state_text(team, items))
            state.setForeground(muted)
            lead.setToolTip(f"{team.outcome} · {state.text()}")
            for session_id, words in self._workers(items):
                child = QStandardItem(words)
                child.setData(session_id, SESSION_ROLE)
                child.setToolTip(words)
                lead.appendRow([child, QStandardItem()])
            self.tree.appendRow([lead, state])
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        for r in range(self.tree.rowCount()):
            if self.tree.item(r).data(TEAM_ROLE) in open_teams:
                self.expand(self.tree.index(r, 0))
        self.setVisible(bool(teams))
        self._fit()
        for done in self.refreshed:
            done()

    @staticmethod
    def _workers(items: list[Item]) -> list[tuple[str, str]]:
        """(session, "worker · item title") for each worker's session, first item first."""
        seen: dict[str, str] = {}
        for item in sorted(items, key=board_order):
            if item.session_id and item.session_id not in seen:
                seen[item.session_id] = f"{item.assignee or '—'} · {item.title}"
        return list(seen.items())

    def _fit(self) -> None:
        """As tall as its rows (up to :data:`MAX_ROWS_SHOWN`): no empty space under it."""
        rows = 0
        for r in range(self.tree.rowCount()):
            rows += 1
            index = self.tree.index(r, 0)
            if self.isExpanded(index):
                rows += self.tree.rowCount(index)
        line = max(self.sizeHintForRow(0), self.fontMetrics().height() + design.SPACE["xs"])
        self.setFixedHeight(min(rows, MAX_ROWS_SHOWN) * line + 2 * self.frameWidth() + 2)

    def _on_clicked(self, index: QModelIndex) -> None:
        session = self.tree.index(index.row(), 0, index.parent()).data(SESSION_ROLE)
        if session:
            self.open_session.emit(str(session))
