"""The session's deliverables, listed with a preview ("Window → Deliverables").

The list is the files written by the session's successful ``create_deliverable``
calls: read back from the stored tool results when a session is opened, and
extended live from ``ToolFinished``. Selecting one shows a preview: the first
page of a PDF (QtPdf), Markdown and HTML rendered (no remote loads), CSV and
XLSX as a table, the text of a DOCX, a deck's slides as an outline, images (SVG too). Files are read in a worker thread,
never on the loop. "View" (or a double click) opens the deliverable whole in its viewer
(ui/deliverable_viewer.py: every page, every sheet, its versions); "Open" hands the file to
the desktop; "Reveal in folder" opens the folder holding it; a row dragged out of the
window carries the file. A row names how many versions of the file are kept once the
model has revised it ("report.docx · 3 versions").
"""

from __future__ import annotations

import asyncio
import csv
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QMimeData, QSize, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QImage, QPixmap, QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

MAX_ROWS = 200  # table rows shown
MAX_TEXT = 200_000  # characters of a text preview
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".svg"}


@dataclass
class Preview:
    kind: str  # "text", "markdown", "html", "table", "image", "error"
    text: str = ""
    rows: list[list[str]] = field(default_factory=list)
    image: QImage | None = None
    #: (row, column) of ``rows`` → the formula whose value the cell shows.
    formulas: dict[tuple[int, int], str] = field(default_factory=dict)
    #: how many versions of the file are kept (deliverables/versions.py)
    versions: int = 0


def _t(text: str) -> str:
    return QCoreApplication.translate("ArtifactsPanel", text)


def _cell(value: Any) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, float):
        return f"{round(value, 10):.10g}" if abs(value) < 1e15 else f"{value:g}"
    return "" if value is None else str(value)


def _pdf_image(path: Path) -> Preview:
    try:
        from PySide6.QtPdf import QPdfDocument
    except ImportError:
        return Preview("text", _t("PDF preview is not available on this system."))
    doc = QPdfDocument()
    doc.load(str(path))
    if doc.status() != QPdfDocument.Status.Ready or doc.pageCount() < 1:
        return Preview("error", _t("This PDF could not be read."))
    size = doc.pagePointSize(0)
    scale = 900 / max(size.width(), 1.0)
    image = doc.render(0, QSize(int(size.width() * scale), int(size.height() * scale)))
    doc.close()
    if image.isNull():
        return Preview("error", _t("This PDF could not be rendered."))
    # A page with a transparent background reads as white on screen.
    page = QImage(image.size(), QImage.Format.Format_RGB32)
    page.fill(Qt.GlobalColor.white)
    from PySide6.QtGui import QPainter
    painter = QPainter(page)
    painter.drawImage(0, 0, image)
    painter.end()
    return Preview("image", image=page)


def read_preview(path_text: str) -> Preview:
    """Everything a preview shows, read from disk (worker thread)."""
    from openworker_qt.deliverables.versions import versions

    preview = _read_preview(path_text)
    preview.versions = len(versions(Path(path_text)))
    return preview


def _read_preview(path_text: str) -> Preview:
    path = Path(path_text)
    if not path.is_file():
        return Preview("error", _t("This file is no longer there."))
    suffix = path.suffix.lower()
    try:
        if suffix == ".pdf":
            return _pdf_image(path)
        if suffix in IMAGE_SUFFIXES:
            image = QImage(str(path))
            return Preview("image", image=image) if not image.isNull() else Preview(
                "error", _t("This image could not be read."))
        if suffix == ".csv":
            with path.open(newline="", encoding="utf-8-sig", errors="replace") as fh:
                rows = [list(r) for r in itertools.islice(csv.reader(fh), MAX_ROWS + 1)]
            return Preview("table", rows=rows)
        if suffix == ".xlsx":
            from openpyxl import load_workbook
            wb = load_workbook(path, read_only=True)
            try:
                ws = wb.worksheets[0]
                raw = [list(r) for r in ws.iter_rows(max_row=MAX_ROWS + 1, values_only=True)]
            finally:
                wb.close()
            # Formulas shown by their values where they are simple arithmetic (the
            # file keeps the formulas; a formula shown as written is beyond the preview).
            from openworker_qt.deliverables.formulas import formula_values
            shown = formula_values(raw)
            rows = [[_cell(v) for v in r] for r in shown]
            formulas = {(r, c): str(v) for r, row in enumerate(raw) for c, v in enumerate(row)
                        if isinstance(v, str) and v.startswith("=") and shown[r][c] != v}
            return Preview("table", rows=rows, formulas=formulas)
        if suffix == ".pptx":
            return Preview("text", _deck_outline(path)[:MAX_TEXT])
        if suffix == ".docx":
            import docx
            document = docx.Document(str(path))
            lines = [p.text for p in document.paragraphs]
            for table in document.tables:
                lines.extend(" | ".join(c.text for c in row.cells) for row in table.rows)
            return Preview("text", "\n".join(lines)[:MAX_TEXT])
        text = path.read_text(encoding="utf-8", errors="replace")[:MAX_TEXT]
        if suffix in {".md", ".markdown"}:
            return Preview("markdown", text)
        if suffix in {".html", ".htm"}:
            return Preview("html", text)
        return Preview("text", text)
    except Exception as exc:
        return Preview("error", _t("This file could not be read: {error}").format(error=exc))


def _deck_outline(path: Path) -> str:
    """A deck's slides as text: each slide's number and title, then its other text,
    tables (cells joined by " | "), charts (kind and series) and notes."""
    from pptx import Presentation

    lines: list[str] = []
    for n, slide in enumerate(Presentation(str(path)).slides, 1):
        title = slide.shapes.title
        heading = title.text_frame.text if title is not None else ""
        lines.append(_t("Slide {n}").format(n=n) + (f" — {heading}" if heading else ""))
        for shape in slide.shapes:
            if shape == title or shape.name == "Slide Number":
                continue
            if shape.has_text_frame:
                lines += ["    " * p.level + "  " + p.text for p in shape.text_frame.paragraphs
                          if p.text]
            elif shape.has_table:
                lines += ["  " + " | ".join(c.text for c in row.cells)
                          for row in shape.table.rows]
            elif shape.has_chart:
                names = ", ".join(str(s.name) for s in shape.chart.series)
                lines.append("  " + _t("[Chart: {series}]").format(series=names))
            elif shape.shape_type == 13:  # a picture
                lines.append("  " + _t("[Picture]"))
        if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
            notes = slide.notes_slide.notes_text_frame.text
            if notes:
                lines.append("  " + _t("Notes: {notes}").format(notes=notes))
        lines.append("")
    return "\n".join(lines)


class _LocalBrowser(QTextBrowser):
    """A text browser that never loads anything: no remote or local resources."""

    def loadResource(self, kind: int, name: QUrl | str) -> Any:
        return None


class _DeliverableList(QListWidget):
    """The list; a row dragged out of the window carries the file (its local URL)."""

    def mimeData(self, items: Sequence[QListWidgetItem]) -> QMimeData:
        data = QMimeData()
        data.setUrls([QUrl.fromLocalFile(str(i.data(Qt.ItemDataRole.UserRole))) for i in items])
        return data


class ArtifactsPanel(QWidget):
    """See module docstring."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("artifactsPanel")
        self.setAccessibleName(self.tr("Deliverables"))
        self._generation = 0
        self._task: asyncio.Task[None] | None = None
        self.preview_kind = ""
        self._page: QPixmap | None = None  # the full-size image, scaled to the panel's width
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        split = QSplitter(Qt.Orientation.Vertical)
        self.list = _DeliverableList()
        self.list.setDragEnabled(True)
        self.list.setDragDropMode(QListWidget.DragDropMode.DragOnly)
        self.list.setObjectName("artifactsList")
        self.list.setAccessibleName(self.tr("Deliverables of this session"))
        split.addWidget(self.list)
        self.stack = QStackedWidget()
        self.message = QLabel(self.tr("No deliverables yet."))
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.browser = _LocalBrowser()
        self.browser.setOpenLinks(False)
        self.browser.setAccessibleName(self.tr("Document preview"))
        self.table = QTableWidget()
        self.table.setAccessibleName(self.tr("Table preview"))
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.image = QLabel()
        self.image.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.image.setAccessibleName(self.tr("Page preview"))
        self.page_area = scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.image)
        for w in (self.message, self.browser, self.table, scroll):
            self.stack.addWidget(w)
        split.addWidget(self.stack)
        # The list is short (a session writes a few files); the preview gets the room.
        split.setStretchFactor(0, 0)
        split.setStretchFactor(1, 1)
        split.setSizes([110, 600])
        lay.addWidget(split, 1)
        buttons = QHBoxLayout()
        self.view_button = QPushButton(self.tr("View"))
        self.view_button.setAccessibleName(self.tr("View the deliverable and its versions"))
        buttons.addWidget(self.view_button)
        self.view_button.clicked.connect(self.view_selected)
        self.list.itemDoubleClicked.connect(lambda _item: self.view_selected())
        self.open_button = QPushButton(self.tr("Open"))
        self.reveal_button = QPushButton(self.tr("Reveal in folder"))
        self.open_button.setAccessibleName(self.tr("Open the deliverable"))
        self.reveal_button.setAccessibleName(self.tr("Show the deliverable in its folder"))
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.reveal_button)
        lay.addLayout(buttons)
        self.open_button.clicked.connect(self.open_selected)
        self.reveal_button.clicked.connect(self.reveal_selected)
        self.list.currentItemChanged.connect(self._on_current)
        self._update_buttons()

    # ---------------------------------------------------------------- state

    def paths(self) -> list[str]:
        return [str(self.list.item(n).data(Qt.ItemDataRole.UserRole)) for n in range(self.list.count())]

    def selected_path(self) -> str | None:
        item = self.list.currentItem()
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))

    def set_paths(self, paths: list[str]) -> None:
        self.list.clear()
        for path in paths:
            self._append(path)
        if not paths:
            self._show_message(self.tr("No deliverables yet."))
        self._update_buttons()

    def add_path(self, path: str) -> None:
        """A new (or rewritten) deliverable: listed last and selected."""
        for n in range(self.list.count()):
            if self.list.item(n).data(Qt.ItemDataRole.UserRole) == path:
                self.list.takeItem(n)
                break
        item = self._append(path)
        self.list.setCurrentItem(item)
        self._update_buttons()

    def loaded(self) -> bool:
        return self._task is None or self._task.done()

    def view_selected(self) -> QWidget | None:
        """The selected deliverable in its viewer window (returned)."""
        if (path := self.selected_path()) is None:
            return None
        from openworker_qt.ui.deliverable_viewer import open_viewer

        viewer = open_viewer(path, self.window())
        if not viewer.property("followedByPanel"):
            viewer.restored.connect(self._on_restored)
            viewer.setProperty("followedByPanel", True)
        return viewer

    def _on_restored(self, path: str) -> None:
        if self.selected_path() == path:
            self._on_current(self.list.currentItem())

    def open_selected(self) -> None:
        if (path := self.selected_path()) is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(path))

    def reveal_selected(self) -> None:
        if (path := self.selected_path()) is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(Path(path).parent)))

    # ------------------------------------------------------------- internals

    def _append(self, path: str) -> QListWidgetItem:
        item = QListWidgetItem(Path(path).name)
        item.setData(Qt.ItemDataRole.UserRole, path)
        item.setToolTip(path)
        self.list.addItem(item)
        return item

    def _update_buttons(self) -> None:
        has = self.list.currentItem() is not None
        self.view_button.setEnabled(has)
        self.open_button.setEnabled(has)
        self.reveal_button.setEnabled(has)

    def _show_message(self, text: str) -> None:
        self.message.setText(text)
        self.stack.setCurrentIndex(0)
        self.preview_kind = "message"

    def _on_current(self, item: QListWidgetItem | None, _previous: Any = None) -> None:
        self._update_buttons()
        self._generation += 1
        if item is None:
            self._show_message(self.tr("No deliverables yet."))
            return
        self._show_message(self.tr("Loading the preview…"))
        self.preview_kind = ""
        self._task = asyncio.ensure_future(
            self._load(str(item.data(Qt.ItemDataRole.UserRole)), self._generation))

    async def _load(self, path: str, generation: int) -> None:
        preview = await asyncio.to_thread(read_preview, path)
        if generation != self._generation:
            return
        item = self.list.currentItem()
        if item is not None and item.data(Qt.ItemDataRole.UserRole) == path:
            name = Path(path).name
            item.setText(self.tr("{name} · {n} versions").format(name=name, n=preview.versions)
                         if preview.versions > 1 else name)
        self._show(preview)

    def _fit_image(self) -> None:
        if self._page is None:
            return
        width = max(self.page_area.viewport().width() - 8, 100)
        pixmap = self._page
        if pixmap.width() > width:
            pixmap = pixmap.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)
        self.image.setPixmap(pixmap)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_image()

    def _show(self, preview: Preview) -> None:
        if preview.kind == "error":
            self._show_message(preview.text)
            self.preview_kind = "error"
            return
        if preview.kind in {"text", "markdown", "html"}:
            if preview.kind == "markdown":
                self.browser.setMarkdown(preview.text)
            elif preview.kind == "html":
                self.browser.setHtml(preview.text)
            else:
                self.browser.setPlainText(preview.text)
            self.stack.setCurrentIndex(1)
        elif preview.kind == "table":
            rows = preview.rows
            head = rows[0] if rows else []
            body = rows[1:MAX_ROWS + 1]
            width = max((len(r) for r in rows), default=0)
            self.table.clear()
            self.table.setColumnCount(width)
            self.table.setRowCount(len(body))
            self.table.setHorizontalHeaderLabels(head + [""] * (width - len(head)))
            for r, row in enumerate(body):
                for c, value in enumerate(row):
                    item = QTableWidgetItem(value)
                    if formula := preview.formulas.get((r + 1, c)):
                        item.setToolTip(formula)
                    self.table.setItem(r, c, item)
            self.stack.setCurrentIndex(2)
        elif preview.kind == "image" and preview.image is not None:
            self._page = QPixmap.fromImage(preview.image)
            self.stack.setCurrentIndex(3)
            self._fit_image()
        self.preview_kind = preview.kind
