"""The connector catalogue: every connector on one searchable page.

Opened from Settings → Connectors. Each connector is a card: its icon (drawn
here, one style for all: the category's colour and the service's initials, no
logos), its name, whether it is connected (and as whom), what it is for, and in
plain words what it reads freely and what it does only after asking. Cards are
grouped by category; the search box filters as you type (name, category and
the words of its description and tools), the category list narrows further.
"Set up" (or "Manage") hands the connector to the settings page.
"""

from __future__ import annotations

import re
import zlib

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.qt.connector_setup import (
    ConnectorSetup,
    Registry,
    Spec,
    State,
    does,
    haystack,
    reads,
)
from openworker_qt.qt.connector_words import identity_text, shown, state_error

ICON_SIZE = 40
#: Colours of the categories the catalogue knows; another category gets one of
#: :data:`PALETTE` by its name (the same every time).
CATEGORY_COLOURS = {
    "Chat": "#7b4fd6", "Messaging": "#7b4fd6", "Code": "#37474f", "Engineering": "#37474f",
    "Calendar": "#1f7ae0", "Mail": "#d8453b", "Projects": "#e07a1f", "Work": "#e07a1f",
    "Docs": "#2f8f6b", "Files": "#2f8f6b", "Sales": "#c2407a", "Support": "#0f8a9d",
    "Operations": "#5b6b7f", "Web": "#3867d6", "Analytics": "#8a5a00", "Money": "#2e7d32",
    "Design": "#b0357a", "Signing": "#6d4c41",
}
PALETTE = ("#3867d6", "#2f8f6b", "#c2407a", "#e07a1f", "#7b4fd6", "#0f8a9d", "#6d4c41",
           "#5b6b7f")
STATE_COLOURS = {"connected": "#2e7d32", "failed": "#c62828", "not connected": "#8a8f98"}


def category_colour(category: str) -> QColor:
    named = CATEGORY_COLOURS.get(category)
    if named is None:
        named = PALETTE[zlib.crc32(category.encode("utf-8")) % len(PALETTE)]
    return QColor(named)


def initials(name: str) -> str:
    """"GitHub" → "GH", "Google Calendar" → "GC", "Slack" → "S", "monday.com" → "M"."""
    base = re.split(r"[(.]", name, maxsplit=1)[0].strip() or name
    words = base.split()
    if len(words) > 1:
        return (words[0][0] + words[1][0]).upper()
    capitals = [c for c in base if c.isupper()]
    return "".join(capitals[:2]) if len(capitals) > 1 else base[:1].upper()


def connector_icon(spec: Spec, size: int = ICON_SIZE, ratio: float = 1.0) -> QPixmap:
    """The connector's icon: its initials on its category's colour, rounded."""
    pixmap = QPixmap(round(size * ratio), round(size * ratio))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    path = QPainterPath()
    path.addRoundedRect(QRectF(0, 0, size, size), size * 0.24, size * 0.24)
    painter.fillPath(path, category_colour(spec.category))
    font = QFont()
    font.setBold(True)
    text = initials(spec.name)
    font.setPixelSize(round(size * (0.42 if len(text) < 2 else 0.36)))
    painter.setFont(font)
    painter.setPen(QColor("#ffffff"))
    painter.drawText(QRectF(0, 0, size, size), Qt.AlignmentFlag.AlignCenter, text)
    painter.end()
    return pixmap


class ConnectorCard(QFrame):
    """One connector: icon, name, state, what it is for, reads and does."""

    chosen = Signal(str)

    def __init__(self, spec: Spec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.setObjectName("connectorCard")
        self.setStyleSheet("#connectorCard { border: 1px solid palette(midlight); "
                           "border-radius: 8px; background: palette(base); }")
        self.setAccessibleName(spec.name)
        grid = QGridLayout(self)
        grid.setContentsMargins(12, 10, 12, 10)
        grid.setHorizontalSpacing(12)
        grid.setVerticalSpacing(3)
        icon = QLabel()
        icon.setPixmap(connector_icon(spec, ratio=self.devicePixelRatioF() or 1.0))
        icon.setFixedSize(ICON_SIZE, ICON_SIZE)
        icon.setAccessibleName(self.tr("{name} icon").format(name=spec.name))
        grid.addWidget(icon, 0, 0, 3, 1, Qt.AlignmentFlag.AlignTop)
        top = QHBoxLayout()
        top.setSpacing(8)
        self.name = QLabel(spec.name)
        font = self.name.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.08)
        self.name.setFont(font)
        self.state = QLabel()
        self.state.setAccessibleName(self.tr("{name}: connection state").format(name=spec.name))
        self.button = QPushButton(self.tr("Set up"))
        self.button.setAutoDefault(False)  # Enter in the search box picks nothing
        self.button.clicked.connect(lambda: self.chosen.emit(spec.id))
        top.addWidget(self.name)
        top.addWidget(self.state, 1)
        top.addWidget(self.button)
        grid.addLayout(top, 0, 1)
        self.description = QLabel(shown(spec.description))
        self.description.setWordWrap(True)
        grid.addWidget(self.description, 1, 1)
        lines = []
        if reads(spec):
            lines.append(self.tr("<b>Reads</b>: {what}").format(
                what=_escape("; ".join(shown(w) for w in reads(spec)))))
        if does(spec):
            lines.append(self.tr("<b>Does, after asking you</b>: {what}").format(
                what=_escape("; ".join(shown(w) for w in does(spec)))))
        self.abilities = QLabel("<br>".join(lines))
        self.abilities.setTextFormat(Qt.TextFormat.RichText)
        self.abilities.setWordWrap(True)
        self.abilities.setObjectName("connectorAbilities")
        grid.addWidget(self.abilities, 2, 1)
        grid.setColumnStretch(1, 1)
        self.status = "not connected"

    def show_state(self, state: State) -> None:
        self.status = state.status
        text = {"connected": self.tr("Connected"), "failed": self.tr("Needs attention"),
                "not connected": self.tr("Not connected")}[state.status]
        colour = STATE_COLOURS[state.status]
        self.state.setText(f'<span style="color:{colour}">●</span> {_escape(text)}')
        tip = text
        if state.status == "connected" and state.identity:
            tip = identity_text(state.identity)
        elif state.status == "failed" and state.error:
            tip = f"{text} — {state_error(state)}"
        self.state.setToolTip(tip)
        self.button.setText(self.tr("Manage") if state.status != "not connected"
                            else self.tr("Set up"))
        self.button.setAccessibleName(
            (self.tr("Manage {name}") if state.status != "not connected"
             else self.tr("Set up {name}")).format(name=self.spec.name))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class ConnectorCatalog(QDialog):
    """See module docstring. ``chosen(id)``: the user picked a connector to set up."""

    chosen = Signal(str)

    def __init__(self, registry: Registry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.connectors = ConnectorSetup(registry)
        self.setWindowTitle(self.tr("Connector catalogue"))
        self.resize(760, 680)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(16, 14, 16, 14)
        outer.setSpacing(10)
        heading = QLabel(self.tr("Connector catalogue"))
        hfont = heading.font()
        hfont.setBold(True)
        hfont.setPointSizeF(hfont.pointSizeF() * 1.25)
        heading.setFont(hfont)
        intro = QLabel(self.tr(
            "What OpenWorker can work with. It reads from a connected service freely and "
            "asks you before it sends, posts or changes anything there."))
        intro.setWordWrap(True)
        outer.addWidget(heading)
        outer.addWidget(intro)
        bar = QHBoxLayout()
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search by name, category or what it does"))
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName(self.tr("Search connectors"))
        self.search.setAccessibleDescription(self.tr("Filter the connectors as you type"))
        for clear in self.search.findChildren(QToolButton):  # Qt's clear button has no name
            clear.setAccessibleName(self.tr("Clear search"))
        self.category = QComboBox()
        self.category.setAccessibleName(self.tr("Category"))
        bar.addWidget(self.search, 1)
        bar.addWidget(self.category)
        outer.addLayout(bar)
        self.summary = QLabel()
        self.summary.setAccessibleName(self.tr("How many connectors are shown"))
        outer.addWidget(self.summary)
        self.body = QWidget()
        self.body_layout = QVBoxLayout(self.body)
        self.body_layout.setContentsMargins(0, 0, 6, 0)
        self.body_layout.setSpacing(8)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.body)
        outer.addWidget(scroll, 1)
        self.cards: dict[str, ConnectorCard] = {}
        self.headers: dict[str, QLabel] = {}
        specs = sorted(self.connectors.specs.values(), key=lambda s: (s.category.casefold(),
                                                                s.name.casefold()))
        self.categories = sorted({s.category for s in specs}, key=str.casefold)
        self.category.addItem(self.tr("All categories"), "")
        for name in self.categories:
            count = sum(1 for s in specs if s.category == name)
            self.category.addItem(f"{shown(name)} ({count})", name)
        for spec in specs:
            if spec.category not in self.headers:
                header = QLabel(shown(spec.category))
                hfont = header.font()
                hfont.setBold(True)
                header.setFont(hfont)
                header.setObjectName("catalogueCategory")
                header.setContentsMargins(2, 8, 0, 0)
                self.headers[spec.category] = header
                self.body_layout.addWidget(header)
            card = ConnectorCard(spec)
            card.chosen.connect(self._choose)
            self.cards[spec.id] = card
            self.body_layout.addWidget(card)
        self.empty = QLabel()
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.body_layout.addWidget(self.empty)
        self.body_layout.addStretch(1)
        self.search.textChanged.connect(lambda _t: self.apply_filter())
        self.category.currentIndexChanged.connect(lambda _i: self.apply_filter())
        self.refresh()
        self.search.setFocus()

    def refresh(self) -> None:
        """Every card's connected state again (after a connect or a disconnect)."""
        for state in self.connectors.states():
            card = self.cards.get(state.spec.id)
            if card is not None:
                card.show_state(state)
        self.apply_filter()

    def apply_filter(self) -> None:
        words = self.search.text().casefold().split()
        category = str(self.category.currentData() or "")
        shown: dict[str, int] = {}
        for card in self.cards.values():
            spec = card.spec
            text = haystack(spec)
            visible = (not category or spec.category == category) and all(
                w in text for w in words)
            card.setVisible(visible)
            if visible:
                shown[spec.category] = shown.get(spec.category, 0) + 1
        for name, header in self.headers.items():
            header.setVisible(name in shown)
        total = sum(shown.values())
        connected = sum(1 for c in self.cards.values() if c.isVisibleTo(self.body)
                        and c.status == "connected")
        self.summary.setText(self.tr("{shown} of {all} connectors · {connected} connected").format(
            shown=total, all=len(self.cards), connected=connected))
        self.empty.setVisible(total == 0)
        self.empty.setText(self.tr("No connector matches “{text}”.").format(
            text=self.search.text().strip()) if total == 0 else "")

    def visible_ids(self) -> list[str]:
        return [cid for cid, card in self.cards.items() if card.isVisibleTo(self.body)]

    def _choose(self, connector: str) -> None:
        self.chosen.emit(connector)
        self.accept()
