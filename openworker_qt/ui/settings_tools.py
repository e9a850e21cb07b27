"""The "Installed tools" page of the settings window: the programs and packages a
coworker installed on request (``tools/installs.py``), each with its version,
where it came from and what it was for, and a Remove button.

They live in the app's own tools folder (never system-wide); removing one runs
its package manager's uninstall there. Reading the list and removing run in a
worker thread or as a subprocess: the window never waits on the disk.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.tools.installs import (
    SOURCE_NAMES,
    Installed,
    InstallError,
    ManagedTools,
    size_text,
)
from openworker_qt.ui import design


class ToolsPage(QWidget):
    """See module docstring."""

    def __init__(self, managed: ManagedTools | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.managed = managed or ManagedTools()
        self.task: asyncio.Future[Any] | None = None
        self.items: list[Installed] = []
        lay = QVBoxLayout(self)
        design.arrange(lay, "page", "section")
        lay.addWidget(design.heading(self.tr("Installed tools")))
        intro = QLabel(self.tr(
            "Programs and packages a coworker installed after you agreed, in OpenWorker's "
            "own folder (never system-wide). Commands that use them still ask as usual."))
        intro.setWordWrap(True)
        lay.addWidget(intro)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(6)
        self.tree.setHeaderLabels([self.tr("Package"), self.tr("Version"), self.tr("From"),
                                   self.tr("What it is for"), self.tr("Size"),
                                   self.tr("Licence")])
        self.tree.setRootIsDecorated(False)
        self.tree.setAccessibleName(self.tr("Installed tools"))
        lay.addWidget(self.tree, 1)
        self.empty = QLabel(self.tr("Nothing installed yet."))
        lay.addWidget(self.empty)
        row = QHBoxLayout()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setAccessibleName(self.tr("Result"))
        self.remove = QPushButton(self.tr("&Remove"))
        self.remove.setAccessibleName(self.tr("Remove the selected tool"))
        row.addWidget(self.status, 1)
        row.addWidget(self.remove)
        lay.addLayout(row)
        self.remove.clicked.connect(self._on_remove)
        self.tree.currentItemChanged.connect(lambda *_: self._update_buttons())
        self._start(self.refresh())

    def _start(self, coro: Any) -> None:
        self.task = asyncio.ensure_future(coro)

    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    async def refresh(self) -> None:
        self.show_items(await asyncio.to_thread(self.managed.installed))

    def show_items(self, items: list[Installed]) -> None:
        self.items = list(items)
        self.tree.clear()
        for item in self.items:
            row = QTreeWidgetItem([item.package, item.version,
                                   SOURCE_NAMES.get(item.source, item.source), item.purpose,
                                   size_text(item.size), item.licence])
            row.setToolTip(0, "\n".join(f"{name}  sha256 {digest}"
                                        for name, digest in item.hashes.items()))
            self.tree.addTopLevelItem(row)
        if first := self.tree.topLevelItem(0):
            self.tree.setCurrentItem(first)
        self.empty.setVisible(not self.items)
        self.tree.setVisible(bool(self.items))
        self._update_buttons()

    def selected(self) -> Installed | None:
        current = self.tree.currentItem()
        index = self.tree.indexOfTopLevelItem(current) if current is not None else -1
        return self.items[index] if 0 <= index < len(self.items) else None

    def _update_buttons(self) -> None:
        self.remove.setEnabled(self.selected() is not None)

    def _on_remove(self) -> None:
        item = self.selected()
        if item is not None and not self.busy():
            self._start(self.remove_item(item))

    async def remove_item(self, item: Installed) -> None:
        self.remove.setEnabled(False)
        self.status.setText(self.tr("Removing {package}…").format(package=item.package))
        try:
            await self.managed.remove(item.source, item.package)
        except InstallError as exc:
            self.status.setText(self.tr("{package} was not removed: {why}").format(
                package=item.package, why=exc))
        else:
            self.status.setText(self.tr("{package} was removed.").format(package=item.package))
        await self.refresh()

    def keyPressEvent(self, event: Any) -> None:
        if event.key() == Qt.Key.Key_Delete and self.tree.hasFocus():
            self._on_remove()
            return
        super().keyPressEvent(event)
