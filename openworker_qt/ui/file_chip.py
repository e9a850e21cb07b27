"""The file chip under a tool card that produced a file: an icon, the file's title,
its kind and size, and "Open ›".

A successful ``write_file`` or ``create_deliverable`` call's card gets one (the
result's display names the path and the bytes written). A deliverable the model revised
names the version that call wrote ("v2"; a first version has no badge), and the chip
opens that version — the file as the call left it, in the deliverable viewer — unless it
is still the current file (deliverables/versions.py keeps every version). The transcript's delegate
paints it in the card's row (:func:`paint`, at :func:`chip_rect`), so a session of
many files costs no widgets; the view turns a click on it into
:func:`open_file` — the deliverables panel's preview for what it can show, the
desktop's application otherwise — and a right click into :func:`menu` (open, show
in its folder, copy the path).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QCoreApplication, QMimeData, QPoint, QRect, QRectF, Qt, QUrl
from PySide6.QtGui import (
    QContextMenuEvent,
    QDesktopServices,
    QFont,
    QFontMetrics,
    QGuiApplication,
    QIcon,
    QPainter,
)
from PySide6.QtWidgets import QDockWidget, QListView, QMenu, QWidget

from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_model import ITEM_ROLE
from openworker_qt.ui import design

#: The tools whose successful result is a file the user may want to open.
PRODUCERS = frozenset({"write_file", "create_deliverable"})
#: What the deliverables panel previews (the rest opens in the desktop's application).
PREVIEWED = frozenset({
    ".md", ".markdown", ".txt", ".html", ".htm", ".csv", ".xlsx", ".docx", ".pptx", ".pdf",
    ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".svg", ".json", ".py", ".log",
})
PAD = design.SPACE["s"]
ICON_BOX = 28
MAX_WIDTH = 420


def _t(text: str) -> str:
    return QCoreApplication.translate("FileChip", text)


@dataclass(frozen=True, slots=True)
class ProducedFile:
    path: str
    title: str
    kind: str
    size: str
    #: the version the call wrote (0: not versioned) and the kept copy of it
    version: int = 0
    version_path: str = ""

    @property
    def name(self) -> str:
        return Path(self.path).name

    @property
    def opens(self) -> str:
        """What a click opens: the version the call wrote, when it is kept."""
        return self.version_path or self.path

    @property
    def badge(self) -> str:
        """"v2" for a revision; nothing for a first version or an unversioned file."""
        return _t("v{n}").format(n=self.version) if self.version > 1 else ""


def kind_of(path: str) -> str:
    """What the file is, in words ("Markdown document", "Spreadsheet", …)."""
    suffix = Path(path).suffix.lower()
    kinds = {
        ".md": _t("Markdown document"), ".markdown": _t("Markdown document"),
        ".pdf": _t("PDF document"), ".docx": _t("Word document"),
        ".xlsx": _t("Spreadsheet"), ".csv": _t("Table (CSV)"), ".pptx": _t("Slide deck"),
        ".html": _t("Web page"), ".htm": _t("Web page"), ".txt": _t("Text file"),
        ".json": _t("Data (JSON)"), ".py": _t("Python script"),
    }
    if suffix in kinds:
        return kinds[suffix]
    if suffix in {".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".svg"}:
        return _t("Image")
    if suffix:
        return _t("{kind} file").format(kind=suffix[1:].upper())
    return _t("File")


def size_text(size: int) -> str:
    """``size`` bytes in the unit that reads best ("812 bytes", "12 KB", "3.4 MB")."""
    if size < 1024:
        return _t("{n} bytes").format(n=size)
    if size < 1024 * 1024:
        return _t("{n} KB").format(n=max(1, round(size / 1024)))
    return _t("{n} MB").format(n=f"{size / (1024 * 1024):.1f}")


def produced_file(item: TranscriptItem) -> ProducedFile | None:
    """The file ``item``'s call produced (None: not a file-producing call that worked)."""
    if item.kind != "tool" or item.status != "ok" or item.name not in PRODUCERS:
        return None
    path = item.display.get("path")
    if not isinstance(path, str) or not path:
        return None
    size = item.display.get("bytes")
    title = item.arguments.get("title") if item.name == "create_deliverable" else None
    name = Path(path).name
    version = item.display.get("version")
    kept = item.display.get("version_path")
    return ProducedFile(path, str(title).strip() if title and str(title).strip() else name,
                        kind_of(path), size_text(size) if isinstance(size, int) else "",
                        version if isinstance(version, int) else 0,
                        kept if isinstance(kept, str) else "")


def _fonts(base: QFont) -> tuple[QFont, QFont]:
    title = QFont(base)
    title.setWeight(QFont.Weight.DemiBold)
    return title, design.font("small", base)


def height(base: QFont) -> int:
    """The chip's height with the view's font ``base``."""
    title, small = _fonts(base)
    return QFontMetrics(title).lineSpacing() + QFontMetrics(small).lineSpacing() + 2 * PAD


def extra_height(item: TranscriptItem, base: QFont) -> int:
    """What the chip adds under ``item``'s card (0 for a card without one)."""
    return height(base) + design.SPACE["s"] if produced_file(item) is not None else 0


def second_line(f: ProducedFile) -> str:
    """The chip's second line: the version badge, the file's name (when the title is
    not it), its kind and size."""
    parts = [f.badge] if f.badge else []
    parts += [f.name] if f.name != f.title else []
    parts += [p for p in (f.kind, f.size) if p]
    return " · ".join(parts)


def chip_rect(f: ProducedFile, rect: QRect, base: QFont) -> QRect:
    """Where the chip sits in a row whose content is ``rect``: at its bottom left."""
    title, small = _fonts(base)
    text = max(QFontMetrics(title).horizontalAdvance(f.title),
               QFontMetrics(small).horizontalAdvance(second_line(f)))
    open_w = QFontMetrics(small).horizontalAdvance(open_label()) + 2 * PAD
    width = min(rect.width(), MAX_WIDTH, PAD + ICON_BOX + PAD + text + open_w + PAD)
    h = height(base)
    return QRect(rect.left(), rect.bottom() + 1 - h, width, h)


def open_label() -> str:
    return _t("Open ›")


def paint(painter: QPainter, f: ProducedFile, box: QRect, base: QFont, colours: design.Colors,
          file_icon: QIcon, hover: bool) -> None:
    """Draw the chip in ``box`` (the caller saved the painter)."""
    painter.setPen(colours.q("accent") if hover else colours.q("border"))
    painter.setBrush(colours.q("surface"))
    radius = design.RADIUS["medium"]
    painter.drawRoundedRect(QRectF(box).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
    icon_box = QRect(box.left() + PAD, box.top() + (box.height() - ICON_BOX) // 2, ICON_BOX, ICON_BOX)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(colours.q("sunken"))
    painter.drawRoundedRect(icon_box, radius - 2, radius - 2)
    file_icon.paint(painter, icon_box.adjusted(6, 6, -6, -6))
    title, small = _fonts(base)
    open_w = QFontMetrics(small).horizontalAdvance(open_label()) + PAD
    x = icon_box.right() + 1 + PAD
    text_w = max(0, box.right() - PAD - open_w - x)
    line = QFontMetrics(title).lineSpacing()
    painter.setFont(title)
    painter.setPen(colours.q("text"))
    flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
    painter.drawText(QRect(x, box.top() + PAD, text_w, line), flags,
                     QFontMetrics(title).elidedText(f.title, Qt.TextElideMode.ElideMiddle, text_w))
    painter.setFont(small)
    painter.setPen(colours.q("muted"))
    second = QRect(x, box.top() + PAD + line, text_w, QFontMetrics(small).lineSpacing())
    painter.drawText(second, flags, QFontMetrics(small).elidedText(
        second_line(f), Qt.TextElideMode.ElideMiddle, text_w))
    painter.setPen(colours.q("link"))
    painter.drawText(QRect(box.right() - PAD - open_w, box.top(), open_w, box.height()),
                     Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, open_label())


class ChipPainter(Protocol):
    def chip_at(self, item: TranscriptItem, row_rect: QRect) -> tuple[ProducedFile, QRect] | None: ...


class Lister(Protocol):
    def add_path(self, path: str) -> None: ...


def open_file(path: str, panel: Lister, dock: QDockWidget) -> None:
    """Open ``path``: in the deliverables panel (which lists and selects it) when it
    previews the kind, else with the desktop's application. A kept version of a
    deliverable (``outputs/.versions/report.docx/v1.docx``) opens in the deliverable
    viewer on that version; the version the file holds now, as the file itself."""
    from openworker_qt.deliverables import versions

    shown = Path(path)
    main = versions.main_file(shown)
    if main != shown:
        current = versions.version_of(main)
        if not shown.is_file() or (current is not None and current.path == shown):
            path = str(main)  # the current one (or one no longer kept): the file itself
        else:
            from openworker_qt.ui.deliverable_viewer import open_viewer

            open_viewer(shown, dock.window())
            return
    if Path(path).suffix.lower() in PREVIEWED:
        panel.add_path(path)
        dock.show()
        dock.raise_()
        return
    QDesktopServices.openUrl(QUrl.fromLocalFile(path))


def reveal(path: str) -> None:
    """Show the folder holding ``path`` in the file manager."""
    QDesktopServices.openUrl(QUrl.fromLocalFile(str(Path(path).parent)))


def copy_path(path: str) -> None:
    clipboard = QGuiApplication.clipboard()
    if clipboard is not None:
        data = QMimeData()
        data.setText(path)
        data.setUrls([QUrl.fromLocalFile(path)])
        clipboard.setMimeData(data)


def menu(parent: QWidget, path: str, opened: Callable[[str], None], at: QPoint,
         opens: str = "") -> QMenu:
    """The chip's right-click menu, shown at ``at`` (global); Open calls
    ``opened(opens or path)`` (``opens``: the version the call wrote)."""
    m = QMenu(parent)
    m.setObjectName("fileChipMenu")
    m.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    m.addAction(_t("Open"), lambda: opened(opens or path))
    m.addAction(_t("Show in folder"), lambda: reveal(path))
    m.addAction(_t("Copy path"), lambda: copy_path(path))
    m.popup(at)
    return m


def chip_menu(view: QListView, delegate: ChipPainter, event: QContextMenuEvent,
              opened: Callable[[str], None]) -> QMenu | None:
    """The menu of the chip under the pointer (or, from the menu key, of the current
    row), shown; None when there is no chip there."""
    keyboard = event.reason() == QContextMenuEvent.Reason.Keyboard
    index = view.currentIndex() if keyboard else view.indexAt(event.pos())
    if not index.isValid():
        return None
    chip = delegate.chip_at(index.data(ITEM_ROLE), view.visualRect(index))
    if chip is None or (not keyboard and not chip[1].contains(event.pos())):
        return None
    at = chip[1].center() if keyboard else event.pos()
    return menu(view, chip[0].path, opened, view.viewport().mapToGlobal(at), chip[0].opens)
