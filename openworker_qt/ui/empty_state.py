"""What a new, empty session shows instead of a blank transcript: a greeting,
four example outcomes the user can click to put into the message box, the
deliverables made recently in this folder, and the folder the session works in.

Recent deliverables are the newest files in the folder's ``outputs/`` (where
``create_deliverable`` writes), listed by a worker thread (never the loop).

Signals:
    example_chosen(str): the user clicked an example; the text goes into the composer.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from PySide6.QtCore import QRect, QSize, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QIcon, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QStyle,
    QStyleOptionButton,
    QStylePainter,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.ui import design
from openworker_qt.ui.design import RADIUS, SPACE
from openworker_qt.ui.icons import icon

OUTPUT_DIR = "outputs"  # tools/deliverables.py writes deliverables here
RECENT = 4


def recent_files(folder: Path, limit: int = RECENT) -> list[Path]:
    """The newest files in ``folder/outputs`` (blocking: run it in a worker)."""
    out = folder / OUTPUT_DIR
    try:
        files = [p for p in out.iterdir() if p.is_file() and not p.name.startswith(".")]
    except OSError:
        return []
    files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    return files[:limit]


def greeting(hour: int) -> str:
    from PySide6.QtCore import QCoreApplication

    if 5 <= hour < 12:
        return QCoreApplication.translate("EmptyState", "Good morning")
    if 12 <= hour < 18:
        return QCoreApplication.translate("EmptyState", "Good afternoon")
    return QCoreApplication.translate("EmptyState", "Good evening")


class ExampleButton(QPushButton):
    """An example card: its icon, then its words wrapped over as many lines as
    its width needs (a plain button cuts a long example off at its edge); it grows
    taller rather than clip."""

    GAP = 10  # between the icon and the words
    MIN_HEIGHT = 56

    def _contents(self) -> QRect:
        opt = QStyleOptionButton()
        self.initStyleOption(opt)
        return self.style().subElementRect(QStyle.SubElement.SE_PushButtonContents, opt, self)

    def text_rect(self) -> QRect:
        """Where the words are drawn (right of the icon)."""
        rect = self._contents()
        skip = self.iconSize().width() + self.GAP if not self.icon().isNull() else 0
        return rect.adjusted(skip, 0, 0, 0)

    def text_height(self, width: int) -> int:
        """The height of the words wrapped into ``width`` pixels."""
        flags = int(Qt.AlignmentFlag.AlignLeft) | int(Qt.TextFlag.TextWordWrap)
        return self.fontMetrics().boundingRect(QRect(0, 0, max(1, width), 10_000),
                                               flags, self.text()).height()

    def minimumSizeHint(self) -> QSize:
        # Narrow enough for any window: the words wrap instead.
        return QSize(self.iconSize().width() + self.GAP + 120, self.MIN_HEIGHT)

    def sizeHint(self) -> QSize:
        return QSize(max(self.minimumSizeHint().width(), 260), self.minimumHeight())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        padding = self.height() - self._contents().height()
        need = max(self.MIN_HEIGHT, self.text_height(self.text_rect().width()) + padding)
        if need != self.minimumHeight():
            self.setMinimumHeight(need)
            self.updateGeometry()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QStylePainter(self)
        opt = QStyleOptionButton()
        self.initStyleOption(opt)
        opt.text = ""
        opt.icon = QIcon()
        painter.drawControl(QStyle.ControlElement.CE_PushButton, opt)
        rect = self._contents()
        if not self.icon().isNull():
            size = self.iconSize()
            top = rect.top() + (rect.height() - size.height()) // 2
            self.icon().paint(painter, QRect(rect.left(), top, size.width(), size.height()))
        painter.setPen(self.palette().color(self.foregroundRole()))
        flags = (int(Qt.AlignmentFlag.AlignLeft) | int(Qt.AlignmentFlag.AlignVCenter)
                 | int(Qt.TextFlag.TextWordWrap))
        painter.drawText(self.text_rect(), flags, self.text())


class EmptyState(QWidget):
    example_chosen = Signal(str)
    _recent_found = Signal(str, list)  # folder, paths (from the worker)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transcriptEmptyState")
        self.setAccessibleName(self.tr("Getting started"))
        outer = QHBoxLayout(self)
        outer.setContentsMargins(SPACE["xxl"], SPACE["xl"], SPACE["xxl"], SPACE["xl"])
        column = QWidget()
        column.setMaximumWidth(design.READING_WIDTH)
        outer.addStretch(1)
        outer.addWidget(column, 100)
        outer.addStretch(1)
        lay = QVBoxLayout(column)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(SPACE["s"])
        lay.addStretch(1)
        self.hello = QLabel(greeting(time.localtime().tm_hour))
        self.hello.setObjectName("emptyStateGreeting")
        self.hello.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.heading = QLabel(self.tr("What should we get done?"))
        self.heading.setFont(design.font("title", self.font()))
        self.heading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.blurb = QLabel(self.tr(
            "OpenWorker reads and changes files in your folder, runs programs and looks "
            "things up for you. It asks before it changes anything or sends anything "
            "off this computer."))
        self.blurb.setWordWrap(True)
        self.blurb.setAlignment(Qt.AlignmentFlag.AlignCenter)
        lay.addWidget(self.hello)
        lay.addWidget(self.heading)
        lay.addWidget(self.blurb)
        lay.addSpacing(SPACE["l"])
        grid = QGridLayout()
        grid.setHorizontalSpacing(SPACE["m"])
        grid.setVerticalSpacing(SPACE["m"])
        self.examples: list[ExampleButton] = []
        self._glyphs: list[str] = []
        for i, (glyph, text) in enumerate((
            ("tool-read", self.tr("Summarise the documents in this folder in one page")),
            ("folder", self.tr("Sort the files in this folder into subfolders by type")),
            ("tool-todo", self.tr("Make a to-do list from the notes in this folder")),
            ("tool-web", self.tr("Research a topic on the web and write a short report")),
        )):
            button = ExampleButton(text)
            button.setObjectName("exampleButton")
            self._glyphs.append(glyph)
            button.setIconSize(QSize(20, 20))
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            button.setMinimumHeight(ExampleButton.MIN_HEIGHT)
            button.setAccessibleName(text)
            button.setAccessibleDescription(self.tr("Put this request into the message box"))
            button.setToolTip(text)
            button.clicked.connect(lambda _=False, t=text: self.example_chosen.emit(t))
            grid.addWidget(button, i // 2, i % 2)
            self.examples.append(button)
        lay.addLayout(grid)
        lay.addSpacing(SPACE["l"])
        self.recent_title = QLabel(self.tr("Recent deliverables"))
        self.recent_title.setObjectName("emptyStateRecentTitle")
        self.recent_title.setFont(design.font("small", self.font()))
        lay.addWidget(self.recent_title)
        self.recent_row = QHBoxLayout()
        self.recent_row.setSpacing(SPACE["s"])
        self.recent_row.addStretch(1)
        lay.addLayout(self.recent_row)
        self.recent: list[QPushButton] = []
        self.recent_title.setVisible(False)
        lay.addSpacing(SPACE["s"])
        self.folder = QLabel()
        self.folder.setObjectName("emptyStateFolder")
        self.folder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.folder.setWordWrap(True)
        self.folder.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.folder)
        lay.addStretch(2)
        self._current = ""
        self._recent_found.connect(self._show_recent)
        self._squeezed: list[QWidget] = []  # hidden for want of room (a short window)
        self._style()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        """In a short window (800 × 480) the examples keep their room: the greeting,
        the folder line, the recent deliverables and then the blurb give way (they
        were squeezed under the cards, which overlapped)."""
        for widget in self._squeezed:
            widget.show()
        self._squeezed = []
        layout = self.layout()
        assert layout is not None
        optional: list[list[QWidget]] = [[self.hello], [self.folder],
                                         [self.recent_title, *self.recent], [self.blurb]]
        for group in optional:
            layout.activate()
            if layout.minimumSize().height() <= self.height():
                return
            shown = [w for w in group if not w.isHidden()]
            for widget in shown:
                widget.hide()
            self._squeezed.extend(shown)

    def _style(self) -> None:
        c = design.colors(self.palette())
        self.setStyleSheet(
            f"QPushButton#exampleButton {{ text-align: left; padding: 8px 14px;"
            f" background: {c.raised}; color: {c.text}; border: 1px solid {c.border};"
            f" border-radius: {RADIUS['medium'] + 2}px; }}"
            f" QPushButton#exampleButton:hover {{ border-color: {c.accent}; }}"
            f" QPushButton#exampleButton:focus {{ border: 2px solid {c.accent}; }}"
            f" QPushButton#recentButton {{ text-align: left; padding: 4px 10px; background: {c.sunken};"
            f" color: {c.text}; border: 1px solid {c.border}; border-radius: {RADIUS['chip']}px; }}"
            f" QPushButton#recentButton:focus {{ border: 2px solid {c.accent}; }}"
            f" QLabel#emptyStateGreeting, QLabel#emptyStateFolder, QLabel#emptyStateRecentTitle"
            f" {{ color: {c.muted}; }}")
        for button, glyph in zip(self.examples, self._glyphs, strict=True):
            button.setIcon(icon(glyph, "accent"))  # in this scheme's accent

    def changeEvent(self, event: object) -> None:
        from PySide6.QtCore import QEvent

        super().changeEvent(event)  # type: ignore[arg-type]
        if getattr(event, "type", lambda: None)() == QEvent.Type.PaletteChange and hasattr(self, "folder"):
            self._style()

    def set_folder(self, folder: Path) -> None:
        self.folder.setText(self.tr("Working in {folder}").format(folder=folder))
        self.folder.setAccessibleName(self.folder.text())
        self._current = str(folder)

        def scan() -> None:
            self._recent_found.emit(str(folder), [str(p) for p in recent_files(folder)])

        threading.Thread(target=scan, name="recent-deliverables", daemon=True).start()

    def _show_recent(self, folder: str, paths: list[str]) -> None:
        if folder != self._current:
            return  # a folder the session no longer works in
        self._squeezed = [w for w in self._squeezed if w not in self.recent]
        for button in self.recent:
            self.recent_row.removeWidget(button)
            button.deleteLater()
        self.recent = []
        for path in paths:
            name = Path(path).name
            button = QPushButton(name)
            button.setObjectName("recentButton")
            button.setIcon(icon("tool-read", "muted", sizes=(16,)))
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.setAccessibleName(self.tr("Open {name}").format(name=name))
            button.setToolTip(path)
            button.clicked.connect(lambda _=False, p=path: QDesktopServices.openUrl(QUrl.fromLocalFile(p)))
            self.recent_row.insertWidget(self.recent_row.count() - 1, button)
            self.recent.append(button)
        self.recent_title.setVisible(bool(paths))
        self._fit()
