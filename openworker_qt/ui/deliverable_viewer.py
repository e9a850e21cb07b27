"""A deliverable shown whole, in its own window: :func:`open_viewer` is the one way in.

Every kind the deliverables tool writes is shown inside the app: Markdown and HTML
rendered (the model's HTML sandboxed: a text browser runs no scripts and loads nothing,
from the network or from disk; "Open in browser" hands the page to the system), PDF
pages, a DOCX's pages and a deck's slides as LibreOffice prints them when it is
installed (deliverables/office_pdf.py: converted headless in the worker, killed when the
window closes, kept in the cache), else a DOCX as an outline of its text, tables and
pictures and a deck's slides drawn from their shapes, the status line saying which and
why; workbooks and CSV as grids (a formula shown as its value, the formula on
hover), images. Copy the contents, copy the path, reveal the file in its folder, open it
with the default app. The file is read and drawn in a worker (viewer_content.py); until
then the window shows a placeholder, so a long PDF never stalls the loop.

Versions (deliverables/versions.py): when the model revised the file, the window lists
every kept version, shows an older one, compares the text of a version with the one
before it, and restores one (it becomes the current file, kept as a new version).

Anything that links to a deliverable (the artifacts panel, the transcript's file chip)
calls ``open_viewer(path, parent)``; ``path`` may also be a kept version's file
(``outputs/.versions/report.docx/v1.docx``): the window opens on that version.
"""

from __future__ import annotations

import asyncio
import html
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QMimeData, Qt, QUrl, Signal
from PySide6.QtGui import (
    QCloseEvent,
    QColor,
    QDesktopServices,
    QGuiApplication,
    QImage,
    QPalette,
    QPixmap,
    QResizeEvent,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.deliverables import office_pdf
from openworker_qt.deliverables import versions as kept
from openworker_qt.ui.viewer_content import Content, Sheet, load

_open: dict[str, DeliverableViewer] = {}
#: Spacing for reading (the model's HTML brings its own style, which wins).
_READING = ("h1{margin-top:6px;margin-bottom:10px} h2{margin-top:18px;margin-bottom:8px}"
            "h3{margin-top:14px;margin-bottom:6px} p{margin-bottom:10px} li{margin-bottom:4px}"
            "td,th{padding:4px 8px} table{margin-top:6px;margin-bottom:12px}")
_TEXT_KINDS = {".md", ".markdown", ".html", ".htm", ".csv", ".svg", ".docx", ".xlsx",
               ".pptx", ".pdf", ".txt"}


def open_viewer(path: str | Path, parent: QWidget | None = None) -> DeliverableViewer:
    """Show the deliverable at ``path`` in its viewer window (the one already open for
    that file is raised and switched to ``path``'s version) and return the window."""
    shown = Path(path)
    key = str(kept.main_file(shown))
    viewer = _open.get(key)
    if viewer is None:
        viewer = DeliverableViewer(shown, parent)
        _open[key] = viewer
        mine = id(viewer)
        viewer.destroyed.connect(lambda *_: _forget(key, mine))
    else:
        viewer.show_version(str(shown))
    viewer.show()
    viewer.raise_()
    viewer.activateWindow()
    return viewer


def _forget(key: str, viewer_id: int) -> None:
    if id(_open.get(key)) == viewer_id:
        del _open[key]


def open_viewers() -> list[DeliverableViewer]:
    return list(_open.values())


class _SandboxedBrowser(QTextBrowser):
    """Renders the model's Markdown and HTML and loads nothing: no images from the web or
    the disk, no style sheets (pictures of a DOCX are handed in as resources first)."""

    def __init__(self) -> None:
        super().__init__()
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._follow)

    def loadResource(self, kind: int, name: QUrl | str) -> Any:
        return None

    def _follow(self, url: QUrl) -> None:
        if url.scheme() in {"http", "https", "mailto"}:
            QDesktopServices.openUrl(url)


class DeliverableViewer(QWidget):
    """See module docstring.

    Signals:
        restored(str): a version was made the current file again (its path).
    """

    restored = Signal(str)

    def __init__(self, path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setObjectName("deliverableViewer")
        self.main = kept.main_file(path)
        self.shown = str(path)
        self.content: Content | None = None
        self.state = "loading"  # "loading" | "shown" | "compare"
        self._generation = 0
        self._task: asyncio.Future[None] | None = None
        self._pixmaps: list[QPixmap] = []
        #: LibreOffice's conversions for this window (killed when it closes)
        self.office = office_pdf.Converter()
        self.setWindowTitle(self.main.name)
        self.resize(980, 760)
        self._build()
        self._fill_versions()
        self._start(self.shown)

    # ------------------------------------------------------------ building

    def _build(self) -> None:
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.name = QLabel(self.main.name)
        font = self.name.font()
        font.setBold(True)
        self.name.setFont(font)
        top.addWidget(self.name)
        self.version_box = QComboBox()
        self.version_box.setAccessibleName(self.tr("Version"))
        self.version_box.activated.connect(self._on_version)
        top.addWidget(self.version_box)
        self.restore_button = self._button(top, self.tr("Restore this version"),
                                           self._restore)
        self.compare_button = self._button(top, self.tr("Compare with previous"),
                                           self._toggle_compare)
        self.compare_button.setCheckable(True)
        top.addStretch(1)
        lay.addLayout(top)
        self.stack = QStackedWidget()
        self.placeholder = QLabel(self.tr("Preparing the preview…"))
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.browser = _SandboxedBrowser()
        self.browser.setAccessibleName(self.tr("Document"))
        self.browser.document().setDocumentMargin(28)
        self.browser.document().setDefaultStyleSheet(_READING)
        self.sheets = QTabWidget()
        self.sheets.setAccessibleName(self.tr("Sheets"))
        self.page_area = QScrollArea()
        self.page_area.setWidgetResizable(True)
        self.page_area.setAccessibleName(self.tr("Pages"))
        self.page_column = QWidget()
        # pages lie on a darker ground, as paper on a desk (white on white has no edge)
        self.page_column.setBackgroundRole(QPalette.ColorRole.Mid)
        self.page_column.setAutoFillBackground(True)
        self.page_layout = QVBoxLayout(self.page_column)
        self.page_layout.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.page_layout.setSpacing(12)
        self.page_area.setWidget(self.page_column)
        for w in (self.placeholder, self.browser, self.sheets, self.page_area):
            self.stack.addWidget(w)
        lay.addWidget(self.stack, 1)
        bottom = QHBoxLayout()
        self.status = QLabel("")
        bottom.addWidget(self.status, 1)
        self.copy_button = self._button(bottom, self.tr("Copy contents"), self.copy_contents)
        self._button(bottom, self.tr("Copy path"), self.copy_path)
        self._button(bottom, self.tr("Reveal in folder"), self.reveal)
        self._button(bottom, self.tr("Open with default app"), self.open_default)
        self.browser_button = self._button(bottom, self.tr("Open in browser"), self.open_default)
        self.browser_button.setVisible(self.main.suffix.lower() in {".html", ".htm"})
        lay.addLayout(bottom)

    def _button(self, row: QHBoxLayout, text: str, slot: Any) -> QPushButton:
        button = QPushButton(text)
        button.clicked.connect(slot)
        row.addWidget(button)
        return button

    # ------------------------------------------------------------ versions

    def _fill_versions(self) -> None:
        """The version list: newest first, the current file's version marked."""
        self.version_box.clear()
        current = kept.version_of(self.main)
        listed = list(reversed(kept.versions(self.main)))
        for version in listed:
            when = datetime.fromtimestamp(version.modified).strftime("%Y-%m-%d %H:%M")
            is_current = current is not None and version.number == current.number
            label = (self.tr("Version {n} (current) · {when}") if is_current
                     else self.tr("Version {n} · {when}")).format(n=version.number, when=when)
            self.version_box.addItem(label, str(self.main if is_current else version.path))
        if current is None and listed:
            self.version_box.insertItem(0, self.tr("Current file"), str(self.main))
        self.version_box.setVisible(self.version_box.count() > 1)
        self._select_shown()

    def _select_shown(self) -> None:
        index = self.version_box.findData(self.shown)
        if index < 0:
            index = self.version_box.findData(str(self.main))
        self.version_box.setCurrentIndex(max(index, 0))
        is_current = self.shown == str(self.main)
        self.restore_button.setVisible(self.version_box.count() > 1)
        self.restore_button.setEnabled(not is_current)
        self.compare_button.setVisible(self.version_box.count() > 1
                                       and self.main.suffix.lower() in _TEXT_KINDS)
        self.compare_button.setEnabled(self._previous() is not None)

    def version_paths(self) -> list[str]:
        """The versions listed, newest first (the current one is the file's own path)."""
        return [str(self.version_box.itemData(n)) for n in range(self.version_box.count())]

    def show_version(self, path: str) -> None:
        """Show one of the listed versions (a path from :meth:`version_paths`)."""
        if self.version_box.findData(path) < 0:
            self._fill_versions()
        self.shown = path
        self.compare_button.setChecked(False)
        self._select_shown()
        self._start(path)

    def _on_version(self, index: int) -> None:
        self.show_version(str(self.version_box.itemData(index)))

    def _previous(self) -> str | None:
        index = self.version_box.findData(self.shown)
        if index < 0 or index + 1 >= self.version_box.count():
            return None
        return str(self.version_box.itemData(index + 1))

    def _restore(self) -> None:
        number = next((v.number for v in kept.versions(self.main)
                       if str(v.path) == self.shown), None)
        if number is not None:
            self._task = asyncio.ensure_future(self._restore_async(number))

    async def _restore_async(self, number: int) -> None:
        try:
            await asyncio.to_thread(kept.restore, self.main, number)
        except (OSError, LookupError) as exc:
            self.status.setText(self.tr("The version could not be restored: {error}")
                                .format(error=exc))
            return
        self.shown = str(self.main)
        self._fill_versions()
        self._start(self.shown)
        self.status.setText(self.tr("Version {n} is the current file again.").format(n=number))
        self.restored.emit(str(self.main))

    def _toggle_compare(self, checked: bool) -> None:
        previous = self._previous()
        if not checked or previous is None:
            self._start(self.shown)
            return
        self._generation += 1
        self.state = "loading"
        self.stack.setCurrentWidget(self.placeholder)
        self._task = asyncio.ensure_future(self._compare(previous, self.shown,
                                                         self._generation))

    async def _compare(self, older: str, newer: str, generation: int) -> None:
        from openworker_qt.deliverables.plain_text import text_of

        def both() -> tuple[str, str]:
            return text_of(Path(older)) or "", text_of(Path(newer)) or ""

        try:
            old_text, new_text = await asyncio.to_thread(both)
        except Exception as exc:
            old_text, new_text = "", str(exc)
        if generation != self._generation:
            return
        lines = kept.diff(old_text, new_text, self.version_box.itemText(
            self.version_box.findData(older)), self.version_box.currentText())
        self.browser.setHtml(diff_html(lines, self.tr("The two versions hold the same text.")))
        self.stack.setCurrentWidget(self.browser)
        self.state = "compare"
        self.status.setText(self.tr("Changes from the previous version"))

    # ------------------------------------------------------------ loading

    def _start(self, path: str) -> None:
        self._generation += 1
        self.state = "loading"
        self.content = None
        self.stack.setCurrentWidget(self.placeholder)
        self.placeholder.setText(self.tr("Preparing the preview…"))
        self.status.setText("")
        self._task = asyncio.ensure_future(self._load(path, self._generation))

    def loaded(self) -> bool:
        return self.state != "loading" and (self._task is None or self._task.done())

    async def _load(self, path: str, generation: int) -> None:
        content = await asyncio.to_thread(_load_with_text, path, self.office)
        if generation != self._generation:
            return
        self.content = content
        self._show(content)
        self.state = "shown"

    def _show(self, content: Content) -> None:
        self._paper(content.kind in {"html", "document"})
        if content.kind == "error":
            self.placeholder.setText(content.text)
        elif content.kind == "markdown":
            self.browser.setMarkdown(content.text)
            space_blocks(self.browser.document())
            self.stack.setCurrentWidget(self.browser)
        elif content.kind in {"html", "document"}:
            document = self.browser.document()
            for name, image in content.images.items():
                document.addResource(document.ResourceType.ImageResource.value, QUrl(name),
                                     image)
            self.browser.setHtml(content.text)
            self.stack.setCurrentWidget(self.browser)
        elif content.kind == "text":
            self.browser.setPlainText(content.text)
            self.stack.setCurrentWidget(self.browser)
        elif content.kind == "sheets":
            self._show_sheets(content.sheets)
        elif content.kind == "pages":
            self._show_pages(content)
        self.copy_button.setEnabled(content.kind != "error")
        if content.note:
            self.status.setText(" · ".join(t for t in (self.status.text(), content.note) if t))
        if content.kind in {"markdown", "html", "document"}:
            fit_images(self.browser)

    def _paper(self, on: bool) -> None:
        """A web page or a DOCX on white, as a browser or a word processor shows it (they
        set dark text, fills and no background: on the dark scheme's base they could
        not be read). Markdown follows the scheme."""
        palette = self.palette()
        if on:
            palette.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
            palette.setColor(QPalette.ColorRole.Text, QColor("#222222"))
        self.browser.setPalette(palette)

    def _show_sheets(self, sheets: list[Sheet]) -> None:
        self.sheets.clear()
        for sheet in sheets:
            self.sheets.addTab(_grid(sheet) if sheet.picture is None else
                               _chart_page(sheet.picture), sheet.name)
        self.sheets.tabBar().setVisible(len(sheets) > 1)
        self.stack.setCurrentWidget(self.sheets)
        rows = sum(max(len(s.rows) - 1, 0) for s in sheets)
        self.status.setText(self.tr("{n} rows").format(n=rows))

    def _show_pages(self, content: Content) -> None:
        while (item := self.page_layout.takeAt(0)) is not None:
            if (widget := item.widget()) is not None:
                widget.deleteLater()
        self._pixmaps = [QPixmap.fromImage(image) for image in content.pages]
        for n, _pixmap in enumerate(self._pixmaps, 1):
            label = QLabel()
            label.setAccessibleName(self.tr("Page {n}").format(n=n))
            self.page_layout.addWidget(label)
        self.stack.setCurrentWidget(self.page_area)
        self._fit_pages()
        slides = self.main.suffix.lower() == ".pptx"
        if content.total > len(content.pages):
            text = (self.tr("Showing the first {shown} of {total} slides") if slides
                    else self.tr("Showing the first {shown} of {total} pages"))
            self.status.setText(text.format(shown=len(content.pages), total=content.total))
        elif content.total > 1:
            text = self.tr("{n} slides") if slides else self.tr("{n} pages")
            self.status.setText(text.format(n=content.total))

    def page_labels(self) -> list[QLabel]:
        found: list[QLabel] = []
        for n in range(self.page_layout.count()):
            item = self.page_layout.itemAt(n)
            widget = item.widget() if item is not None else None
            if isinstance(widget, QLabel):
                found.append(widget)
        return found

    def _fit_pages(self) -> None:
        width = max(self.page_area.viewport().width() - 32, 200)
        for label, pixmap in zip(self.page_labels(), self._pixmaps, strict=False):
            shown = pixmap if pixmap.width() <= width else pixmap.scaledToWidth(
                width, Qt.TransformationMode.SmoothTransformation)
            label.setPixmap(shown)

    def closeEvent(self, event: QCloseEvent) -> None:
        if _open.get(str(self.main)) is self:
            del _open[str(self.main)]
        self._generation += 1  # a load still running is dropped
        self.office.cancel()  # and a conversion running is killed
        super().closeEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_pages()
        if self.content is not None and self.content.kind in {"markdown", "html", "document"}:
            fit_images(self.browser)

    # ------------------------------------------------------------ actions

    def copy_contents(self) -> None:
        """The shown file's contents to the clipboard: its text (a sheet as tab-separated
        rows, a page picture for an image)."""
        content = self.content
        if content is None or content.kind == "error":
            return
        data = QMimeData()
        if content.kind == "sheets":
            grid = self.sheets.currentWidget()
            if isinstance(grid, QTableWidget):
                data.setText(_tsv(grid))
        elif content.kind == "pages" and not content.text and content.pages:
            data.setImageData(content.pages[0])
        elif content.kind in {"html", "document"}:
            data.setHtml(self.browser.toHtml())
            data.setText(content.text if content.kind == "html" else self.browser.toPlainText())
        else:
            data.setText(content.text)
        QGuiApplication.clipboard().setMimeData(data)
        self.status.setText(self.tr("Copied."))

    def copy_path(self) -> None:
        QGuiApplication.clipboard().setText(self.shown)
        self.status.setText(self.tr("Path copied."))

    def reveal(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(Path(self.shown).parent)))

    def open_default(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(self.shown))


def space_blocks(document: QTextDocument) -> None:
    """Room around headings and between paragraphs of a Markdown document (Qt's
    Markdown reader sets its own tight margins, which a style sheet does not reach)."""
    cursor = QTextCursor(document)
    block = document.begin()
    while block.isValid():
        fmt = block.blockFormat()
        level = fmt.headingLevel()
        if level:
            fmt.setTopMargin(6 if block == document.begin() else 20 - 2 * level)
            fmt.setBottomMargin(8)
        elif block.textList() is None:
            fmt.setBottomMargin(10)
        cursor.setPosition(block.position())
        cursor.setBlockFormat(fmt)
        block = block.next()


def fit_images(browser: QTextBrowser) -> None:
    """Pictures wider than the browser shown at its width (a chart drawn at 1,600 pixels
    in a Markdown file, say), keeping their proportions."""
    document = browser.document()
    page = browser.viewport().width() - 2 * document.documentMargin() - 8
    block = document.begin()
    while block.isValid():
        margins = block.blockFormat().leftMargin() + block.blockFormat().rightMargin()
        room = max(page - margins, 240)
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt = fragment.charFormat()
            if fmt.isImageFormat():
                image_fmt = fmt.toImageFormat()
                picture = document.resource(document.ResourceType.ImageResource.value,
                                            QUrl(image_fmt.name()))
                natural = picture.width() if isinstance(picture, QImage | QPixmap) else 0
                width = image_fmt.width() or natural
                if width > room and natural:
                    image_fmt.setWidth(room)
                    image_fmt.setHeight(room * picture.height() / natural)
                    cursor = QTextCursor(document)
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(fragment.position() + fragment.length(),
                                       QTextCursor.MoveMode.KeepAnchor)
                    cursor.setCharFormat(image_fmt)
            it += 1
        block = block.next()


def _load_with_text(path: str, office: office_pdf.Converter | None = None) -> Content:
    """:func:`load`, and for pages of a PDF, deck or document their text too (for
    copying)."""
    content = load(path, office)
    if content.kind == "pages" and Path(path).suffix.lower() in {".pdf", ".pptx", ".docx"}:
        from openworker_qt.deliverables.plain_text import text_of

        try:
            content.text = text_of(Path(path)) or ""
        except Exception:
            content.text = ""
    return content


def _chart_page(picture: QImage) -> QScrollArea:
    """A chart sheet: its chart, drawn, at most the window's width."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    label = QLabel()
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setPixmap(QPixmap.fromImage(picture).scaledToWidth(
        min(picture.width(), 900), Qt.TransformationMode.SmoothTransformation))
    area.setWidget(label)
    return area


def _grid(sheet: Sheet) -> QTableWidget:
    rows = sheet.rows
    head = rows[0] if rows else []
    body = rows[1:]
    width = max((len(r) for r in rows), default=0)
    grid = QTableWidget(len(body), width)
    grid.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    grid.setHorizontalHeaderLabels(head + [""] * (width - len(head)))
    for r, row in enumerate(body):
        for c, value in enumerate(row):
            item = QTableWidgetItem(value)
            if formula := sheet.formulas.get((r + 1, c)):
                item.setToolTip(formula)
            if _numeric(value):
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            grid.setItem(r, c, item)
    grid.resizeColumnsToContents()
    return grid


def _numeric(text: str) -> bool:
    try:
        float(text.replace(",", ""))
    except ValueError:
        return False
    return True


def _tsv(grid: QTableWidget) -> str:
    def text(item: QTableWidgetItem | None) -> str:
        return item.text() if item is not None else ""

    columns = range(grid.columnCount())
    lines = ["\t".join(text(grid.horizontalHeaderItem(c)) for c in columns)]
    for r in range(grid.rowCount()):
        lines.append("\t".join(text(grid.item(r, c)) for c in columns))
    return "\n".join(lines)


def diff_html(lines: list[str], same: str) -> str:
    """A unified diff as HTML: added lines green, removed red, the rest muted."""
    if not lines:
        return f"<p>{html.escape(same)}</p>"
    out = []
    for line in lines:
        text = html.escape(line) or "&nbsp;"
        if line.startswith(("+++", "---", "@@")):
            out.append(f'<div style="color:#6b7280">{text}</div>')
        elif line.startswith("+"):
            out.append(f'<div style="background:#dcfce7;color:#14532d">{text}</div>')
        elif line.startswith("-"):
            out.append(f'<div style="background:#fee2e2;color:#7f1d1d">{text}</div>')
        else:
            out.append(f"<div>{text}</div>")
    return '<div style="font-family:monospace;white-space:pre-wrap">' + "".join(out) + "</div>"
