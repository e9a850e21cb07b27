"""Settings → Memory: the facts the assistant saved, which the user can read, correct
and delete, and the switch that stops new ones from being saved.

Each row shows the fact, where it applies (everywhere, or one folder), when it
was saved and in which session. Double-click (or F2) a fact to edit it; Delete
removes the selected facts. Reading and writing the database happen in a
worker (``asyncio.to_thread``), never on the GUI thread.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.memory.store import Fact, MemoryError, MemoryStore
from openworker_qt.qt.settings_store import SettingsStore
from openworker_qt.ui import design

log = logging.getLogger(__name__)

FACT, PLACE, SAVED, SOURCE = range(4)
ID_ROLE = Qt.ItemDataRole.UserRole


def _session_titles(store: MemoryStore, ids: list[str]) -> dict[str, str]:
    """The titles of the sessions facts came from (blocking; "" for unknown ones)."""
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    try:
        rows = store.db.query(f"SELECT id, title FROM sessions WHERE id IN ({marks})", ids)
    except Exception:  # no sessions table (a database of memories only)
        return {}
    return {str(r["id"]): str(r["title"] or "") for r in rows}


def _load(store: MemoryStore) -> tuple[list[Fact], dict[str, str]]:
    facts = store.facts(None)
    ids = sorted({f.source_session for f in facts if f.source_session})
    return facts, _session_titles(store, ids)


class MemoryPage(QWidget):
    """See module docstring.

    Signals:
        changed(): the list was reloaded or a fact was changed or deleted.
    """

    changed = Signal()

    def __init__(self, settings: SettingsStore, store: MemoryStore,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.store = store
        self.facts: list[Fact] = []
        self._filling = False
        self._task: asyncio.Future[Any] | None = None
        lay = QVBoxLayout(self)
        design.arrange(lay, "page", "section")
        heading = design.heading(self.tr("Memory"))
        intro = QLabel(self.tr(
            "Facts the assistant saved to remember across sessions: your preferences and "
            "corrections, context it cannot find in your files. Global facts apply "
            "everywhere, the others to one folder only. Double-click a fact to correct it."))
        intro.setWordWrap(True)
        lay.addWidget(heading)
        lay.addWidget(intro)
        self.saving = QCheckBox(self.tr("&Save new memories"))
        self.saving.setAccessibleName(self.tr("Save new memories"))
        self.saving.setAccessibleDescription(self.tr(
            "When off, the assistant still reads the facts below but saves, changes or "
            "deletes none"))
        self.saving.setChecked(bool(settings.get("memory.enabled", True)))
        self.saving.toggled.connect(self.set_saving)
        lay.addWidget(self.saving)
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(
            [self.tr("Fact"), self.tr("Applies to"), self.tr("Saved"), self.tr("From session")])
        self.table.setAccessibleName(self.tr("Saved memories"))
        self.table.setAccessibleDescription(self.tr(
            "One row per fact: the fact, where it applies, when and in which session it "
            "was saved. F2 edits the fact, Delete removes the selected facts."))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.table.setWordWrap(True)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(FACT, QHeaderView.ResizeMode.Stretch)
        for column in (PLACE, SAVED, SOURCE):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.table.itemChanged.connect(self._on_item_changed)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        lay.addWidget(self.table, 1)
        row = QHBoxLayout()
        self.status = QLabel()
        self.status.setAccessibleName(self.tr("Memory status"))
        self.delete_button = QPushButton(self.tr("&Delete"))
        self.delete_button.setAccessibleName(self.tr("Delete selected memories"))
        self.delete_button.clicked.connect(self.delete_selected)
        self.reload_button = QPushButton(self.tr("&Reload"))
        self.reload_button.setAccessibleName(self.tr("Reload memories"))
        self.reload_button.clicked.connect(self.reload)
        row.addWidget(self.status, 1)
        row.addWidget(self.reload_button)
        row.addWidget(self.delete_button)
        lay.addLayout(row)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.table, self.delete_selected,
                  context=Qt.ShortcutContext.WidgetShortcut)
        self._update_buttons()

    # ------------------------------------------------------------------ state

    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.reload()

    def reload(self) -> None:
        self._run(lambda: _load(self.store), self._fill)

    def _run(self, work: Callable[[], Any], then: Callable[[Any], None]) -> None:
        async def go() -> None:
            try:
                result = await asyncio.to_thread(work)
            except MemoryError as exc:
                self.status.setText(self.tr("Not saved: {reason}").format(reason=str(exc)))
                self.reload()
                return
            except Exception:
                log.exception("the memory page could not read or write the database")
                self.status.setText(self.tr("The memories could not be read or saved; "
                                            "see the log for details."))
                return
            then(result)

        self._task = asyncio.ensure_future(go())

    def _fill(self, loaded: tuple[list[Fact], dict[str, str]]) -> None:
        facts, titles = loaded
        self.facts = facts
        self._filling = True
        try:
            self.table.setRowCount(len(facts))
            for i, fact in enumerate(facts):
                self._set_row(i, fact, titles)
        finally:
            self._filling = False
        self.table.resizeRowsToContents()
        self.status.setText(self.tr("%n saved fact(s)", "", len(facts)) if facts
                            else self.tr("Nothing saved yet."))
        self._update_buttons()
        self.changed.emit()

    def _set_row(self, i: int, fact: Fact, titles: dict[str, str]) -> None:
        text = QTableWidgetItem(fact.content)
        text.setData(ID_ROLE, fact.id)
        text.setToolTip(fact.content)
        place = (self.tr("Everywhere") if fact.scope == "global"
                 else Path(fact.workspace).name or fact.workspace)
        where = QTableWidgetItem(place)
        where.setToolTip(fact.workspace or self.tr("Every folder"))
        day = time.strftime("%Y-%m-%d %H:%M", time.localtime(fact.created_at))
        saved = QTableWidgetItem(day)
        if fact.updated_at > fact.created_at + 1:
            saved.setToolTip(self.tr("Changed {date}").format(
                date=time.strftime("%Y-%m-%d %H:%M", time.localtime(fact.updated_at))))
        title = titles.get(fact.source_session, "")
        source = QTableWidgetItem(title or fact.source_session or self.tr("Unknown"))
        source.setToolTip(self.tr("Session {id}").format(id=fact.source_session)
                          if fact.source_session else "")
        for column, item in ((FACT, text), (PLACE, where), (SAVED, saved), (SOURCE, source)):
            if column != FACT:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.table.setItem(i, column, item)

    def _update_buttons(self) -> None:
        self.delete_button.setEnabled(bool(self.selected_ids()))

    def selected_ids(self) -> list[int]:
        rows = sorted({index.row() for index in self.table.selectedIndexes()})
        out = []
        for row in rows:
            item = self.table.item(row, FACT)
            if item is not None:
                out.append(int(item.data(ID_ROLE)))
        return out

    # ---------------------------------------------------------------- changes

    def set_saving(self, on: bool) -> None:
        self.settings.apply({"memory": {"enabled": bool(on)}})
        self.status.setText(self.tr("New memories are saved.") if on else self.tr(
            "Saving is off: the assistant reads these facts but saves no new ones."))

    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if self._filling or item.column() != FACT:
            return
        fact_id = int(item.data(ID_ROLE))
        text = item.text()
        self._run(lambda: self.store.update(fact_id, text), lambda _fact: self.reload())

    def delete_selected(self) -> None:
        ids = self.selected_ids()
        if not ids:
            return

        def work() -> int:
            return sum(1 for i in ids if self.store.delete(i))

        self._run(work, lambda _n: self.reload())
