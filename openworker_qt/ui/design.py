"""The design system: one place for spacing, type, radii, colours and icons' tint.

Every widget the window is built from takes its measures from here, so a change
of rhythm or colour is one edit, and light and dark stay consistent.

* **Spacing** — a 4 px grid: :data:`SPACE` (``xs`` 4 … ``xxl`` 32).
* **Radii** — :data:`RADIUS` (``small`` for inline code and chips' corners,
  ``medium`` for cards and bubbles, ``large`` for the composer and popups).
* **Type** — the system UI font (``QFontDatabase.systemFont``) at four sizes:
  ``body`` (the system size), ``small``, ``heading``, ``title``, plus ``mono``
  (the system's fixed-width font). :func:`font` returns one.
* **Colours** — :class:`Colors`, a light and a dark set *derived from the
  system's palette*: the platform's accent (``Highlight``) is kept when it is
  readable, nudged darker or lighter until it is (WCAG contrast ≥ 4.5:1 for
  text). :func:`colors` picks the set for a palette, :func:`qpalette` turns a set
  into a ``QPalette`` (used with Fusion, which has no dark palette of its own).
* :data:`TEXT_ROLES` lists every (text, background) pair the UI paints; the
  tests check each against :func:`contrast` in both schemes.
* **Reading column** — :data:`READING_WIDTH` caps the transcript's text column.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable
from dataclasses import dataclass, fields, replace

import shiboken6
from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QFontMetrics,
    QGuiApplication,
    QPainter,
    QPalette,
)
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QLayout,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

SPACE = {"xxs": 2, "xs": 4, "s": 8, "m": 12, "l": 16, "xl": 24, "xxl": 32, "xxxl": 48}
RADIUS = {"small": 4, "medium": 8, "chip": 11, "large": 14, "pill": 999}
TYPE_SCALE = {"small": 0.88, "body": 1.0, "heading": 1.25, "title": 1.7}
READING_WIDTH = 760  # px: the transcript's column (≈ 80–90 characters of body text)
ICON_SIZE = {"small": 16, "medium": 20, "large": 24}
MIN_TEXT_CONTRAST = 4.5  # WCAG AA for body text
READING_PX = 15  # the transcript's body text, at least (the best chat apps: 15–16 px)
LINE_HEIGHT = 140  # % of the line spacing (≈ 1.6 × the font size), for paragraphs


# ---------------------------------------------------------------------------- type

def font(role: str = "body", base: QFont | None = None) -> QFont:
    """The system UI font at ``role``'s size (``mono``: the system fixed-width font)."""
    if role == "mono":
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        ref = base or QGuiApplication.font()
        if ref.pointSizeF() > 0:
            mono.setPointSizeF(ref.pointSizeF() * 0.95)
        return mono
    f = QFont(base or QGuiApplication.font())
    size = f.pointSizeF()
    if size > 0:
        f.setPointSizeF(size * TYPE_SCALE.get(role, 1.0))
    if role in ("heading", "title"):
        f.setWeight(QFont.Weight.DemiBold)
    return f


def reading_font(base: QFont | None = None) -> QFont:
    """The transcript's body font: the UI font, at least :data:`READING_PX` tall (a
    larger system font is kept)."""
    f = QFont(base or QGuiApplication.font())
    dpi = QGuiApplication.primaryScreen().logicalDotsPerInchY() \
        if QGuiApplication.primaryScreen() is not None else 96.0
    px = f.pixelSize() if f.pixelSize() > 0 else f.pointSizeF() * dpi / 72.0
    if px < READING_PX:
        f.setPixelSize(READING_PX)
    return f


# --------------------------------------------------------------------------- colour

def luminance(c: QColor) -> float:
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two opaque colours (1 … 21)."""
    la, lb = luminance(a), luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def mix(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )


def readable(fg: QColor, bg: QColor, ratio: float = MIN_TEXT_CONTRAST) -> QColor:
    """``fg``, darkened or lightened just enough to reach ``ratio`` on ``bg``."""
    if contrast(fg, bg) >= ratio:
        return QColor(fg)
    target = QColor("#000000") if luminance(bg) > 0.18 else QColor("#ffffff")
    for step in range(1, 21):
        c = mix(fg, target, step / 20)
        if contrast(c, bg) >= ratio:
            return c
    return target


@dataclass(frozen=True)
class Colors:
    """One scheme's colours (hex strings; :meth:`q` gives a ``QColor``)."""

    dark: bool
    window: str          # the window and sidebar
    surface: str         # the transcript, inputs
    raised: str          # cards, the composer box, popups
    sunken: str          # code blocks, inline code
    border: str
    text: str
    muted: str           # secondary text: timestamps, captions, placeholders
    accent: str          # buttons, focus, links' family
    on_accent: str       # text on an accent fill
    link: str
    user_bubble: str
    steer_bubble: str
    success: str
    warning: str
    danger: str
    diff_add: str        # background of an added line
    diff_del: str        # background of a removed line
    diff_add_text: str
    diff_del_text: str
    #: The main area behind the conversation: a quiet grey page under white cards
    #: and the white message box (the session list stays on the surface colour).
    page: str = ""
    badge: str = "#d9a400"     # the pill of approvals waiting ("waiting for you")
    on_badge: str = "#1b1b1b"  # its number

    def q(self, name: str) -> QColor:
        if name == "page" and not self.page:
            name = "surface"
        return QColor(getattr(self, name))


# Each (text, background) pair the UI paints: the contrast test walks these.
TEXT_ROLES: tuple[tuple[str, str], ...] = (
    ("text", "window"), ("text", "surface"), ("text", "raised"), ("text", "sunken"),
    ("muted", "window"), ("muted", "surface"), ("muted", "raised"),
    ("link", "surface"), ("link", "raised"),
    ("on_accent", "accent"),
    ("text", "user_bubble"), ("text", "steer_bubble"),
    ("success", "surface"), ("success", "raised"),
    ("warning", "surface"), ("warning", "raised"),
    ("danger", "surface"), ("danger", "raised"),
    ("diff_add_text", "diff_add"), ("diff_del_text", "diff_del"),
    ("text", "diff_add"), ("text", "diff_del"),
    ("on_badge", "badge"),
    ("text", "page"), ("muted", "page"), ("link", "page"), ("success", "page"),
    ("warning", "page"), ("danger", "page"),
)

_LIGHT = Colors(
    dark=False, window="#f3f3f1", surface="#ffffff", raised="#ffffff", sunken="#f1f1ef",
    border="#dcdcd8", text="#1d1d1f", muted="#62625f", accent="#2b63d9", on_accent="#ffffff",
    link="#1f56c6", user_bubble="#eef1f7", steer_bubble="#fbf1d6", success="#1f7a3a",
    warning="#8a5a00", danger="#b42318", diff_add="#e6f4ea", diff_del="#fce8e6",
    diff_add_text="#155f2c", diff_del_text="#a1160e", page="#f5f6f7",
)
_DARK = Colors(
    dark=True, window="#1f2023", surface="#26272b", raised="#2e3034", sunken="#1b1c1f",
    border="#3d3f45", text="#ececec", muted="#a3a5ab", accent="#5b8def", on_accent="#0c1220",
    link="#8ab4ff", user_bubble="#33363d", steer_bubble="#403721", success="#6cd48a",
    warning="#f0c060", danger="#ff8a80", diff_add="#1d3525", diff_del="#42211f",
    diff_add_text="#8fe0a6", diff_del_text="#ffaaa3", page="#26272b",
)


def derive(system: QPalette | None, dark: bool) -> Colors:
    """The scheme's colours with the system's accent, made readable if needed."""
    base = _DARK if dark else _LIGHT
    if system is None:
        return base
    accent = system.color(QPalette.ColorRole.Highlight)
    if not accent.isValid() or accent.hsvSaturation() < 40:
        return base  # a grey "accent" (some desktops): keep ours
    bg = QColor(base.surface)
    # the accent is used as a fill behind on_accent text and as link text
    on_accent = QColor(base.on_accent)
    fill = accent
    if contrast(on_accent, fill) < MIN_TEXT_CONTRAST:
        fill = readable(fill, on_accent)
    link = readable(accent if not dark else mix(accent, QColor("#ffffff"), 0.35), bg)
    link = readable(link, QColor(base.raised))
    link = readable(link, base.q("page"))
    bubble = mix(bg, accent, 0.16 if dark else 0.08)
    return replace(base, accent=fill.name(), link=link.name(), user_bubble=bubble.name())


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


_cache: dict[tuple[int, bool], Colors] = {}


def colors(palette: QPalette | None = None) -> Colors:
    """The colours for ``palette`` (default: the application's)."""
    pal = palette if palette is not None else QGuiApplication.palette()
    dark = is_dark(pal)
    key = (pal.color(QPalette.ColorRole.Highlight).rgba(), dark)
    found = _cache.get(key)
    if found is None:
        found = _cache[key] = derive(pal, dark)
    return found


def qpalette(c: Colors) -> QPalette:
    """A complete ``QPalette`` for the scheme (Fusion paints from it)."""
    p = QPalette()
    q = QColor
    roles = {
        QPalette.ColorRole.Window: q(c.window), QPalette.ColorRole.WindowText: q(c.text),
        QPalette.ColorRole.Base: q(c.surface), QPalette.ColorRole.AlternateBase: q(c.sunken),
        QPalette.ColorRole.Text: q(c.text), QPalette.ColorRole.Button: q(c.raised),
        QPalette.ColorRole.ButtonText: q(c.text), QPalette.ColorRole.ToolTipBase: q(c.raised),
        QPalette.ColorRole.ToolTipText: q(c.text), QPalette.ColorRole.Highlight: q(c.accent),
        QPalette.ColorRole.HighlightedText: q(c.on_accent), QPalette.ColorRole.Link: q(c.link),
        QPalette.ColorRole.LinkVisited: q(c.link),
        QPalette.ColorRole.PlaceholderText: q(c.muted), QPalette.ColorRole.BrightText: q(c.danger),
        QPalette.ColorRole.Light: mix(q(c.border), q("#ffffff"), 0.3 if not c.dark else 0.1),
        QPalette.ColorRole.Midlight: q(c.border), QPalette.ColorRole.Mid: mix(q(c.border), q(c.text), 0.25),
        QPalette.ColorRole.Dark: mix(q(c.border), q(c.text), 0.45) if not c.dark else q("#151619"),
        QPalette.ColorRole.Shadow: q("#000000") if c.dark else q("#8a8a86"),
    }
    if hasattr(QPalette.ColorRole, "Accent"):
        roles[QPalette.ColorRole.Accent] = q(c.accent)
    for role, color in roles.items():
        p.setColor(role, color)
    disabled = mix(q(c.muted), q(c.surface), 0.25)
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return p


def role_names() -> list[str]:
    return [f.name for f in fields(Colors) if f.name != "dark"]


def light() -> Colors:
    return _LIGHT


def dark() -> Colors:
    return _DARK


# ------------------------------------------------------------------- layout

# Margins (left, top, right, bottom) and spacing for each kind of container, so
# every dialog and settings page sits on the same grid.
MARGINS: dict[str, tuple[int, int, int, int]] = {
    "dialog": (SPACE["xl"], SPACE["xl"], SPACE["xl"], SPACE["l"]),
    "page": (SPACE["xl"], SPACE["l"], SPACE["xl"], SPACE["l"]),
    "box": (SPACE["m"], SPACE["m"], SPACE["m"], SPACE["m"]),
    "sidebar": (SPACE["s"], SPACE["s"], 0, SPACE["s"]),
    "indent": (SPACE["m"], 0, 0, 0),
    "flush": (0, 0, 0, 0),
}
GAP = {"tight": SPACE["xs"], "row": SPACE["s"], "section": SPACE["m"], "group": SPACE["l"]}


def arrange(layout: QLayout, margins: str = "page", gap: str = "section") -> QLayout:
    """Give ``layout`` the margins of a ``margins`` container and ``gap`` between items."""
    layout.setContentsMargins(*MARGINS[margins])
    layout.setSpacing(GAP[gap])
    return layout


def heading(text: str, role: str = "heading", parent: QWidget | None = None) -> QLabel:
    """A heading label in the type scale (``heading`` or ``title``)."""
    label = QLabel(text, parent)
    label.setObjectName("heading")
    label.setFont(font(role, label.font()))
    # one line: a wrapping label asks for height by width, and dialogs sized from
    # their hint left a gap under the heading
    label.setAccessibleName(text)
    return label


class _FollowScheme(QObject):
    """Holds what re-applies ``widget``'s scheme-dependent look (a tinted palette,
    a style sheet): :func:`rescheme` runs it after a light ↔ dark switch. (Qt sends
    a widget with a style sheet no palette event then, and a sheet's colours —
    ``palette(...)`` ones too — are fixed when it is applied.)"""

    def __init__(self, widget: QWidget, apply: Callable[[], None]) -> None:
        super().__init__(widget)
        self.apply = apply
        _followers[next(_numbers)] = self


#: Every live follower, in the order they were made (a parent's before its children's):
#: a switch touches these, not every widget. Gone with their widget (Qt deletes the
#: follower, Python then drops it; one not yet dropped is skipped as invalid).
_followers: weakref.WeakValueDictionary[int, _FollowScheme] = weakref.WeakValueDictionary()
_numbers = itertools.count()


def rescheme() -> None:
    """Re-apply every scheme-dependent look (call after the application's palette changed)."""
    if not isinstance(QGuiApplication.instance(), QApplication):
        return
    for follower in list(_followers.values()):
        if shiboken6.isValid(follower):
            follower.apply()


def follow_scheme(widget: QWidget, apply: Callable[[], None]) -> None:
    """Call ``apply`` now and again after every change of the colour scheme."""
    apply()
    _FollowScheme(widget, apply)


def style_sheet(widget: QWidget, build: Callable[[], str]) -> None:
    """Give ``widget`` the style sheet ``build()`` makes, rebuilt (and re-polished)
    when the scheme changes: a sheet's colours, ``palette(...)`` ones included, are
    fixed when it is applied."""

    def apply() -> None:
        widget.setStyleSheet("")
        widget.setStyleSheet(build())

    follow_scheme(widget, apply)


def on_page(widget: QWidget) -> QWidget:
    """Paint ``widget`` (and what it holds, unless it paints its own) on the main
    area's page colour (:attr:`Colors.page`), again after every change of the scheme."""

    def apply() -> None:
        pal = widget.palette()
        pal.setColor(QPalette.ColorRole.Base, colors(pal).q("page"))
        widget.setPalette(pal)

    follow_scheme(widget, apply)
    return widget


def tint(widget: QWidget, role: str = "muted") -> QWidget:
    """Paint ``widget``'s text in the scheme's ``role`` colour (through its palette),
    again after every change of the scheme."""
    first = widget.property("tintRole") is None
    widget.setProperty("tintRole", role)

    def apply() -> None:
        pal = widget.palette()
        c = colors(pal).q(str(widget.property("tintRole")))
        for r in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text):
            pal.setColor(r, c)
        widget.setPalette(pal)

    if first:
        follow_scheme(widget, apply)
    else:
        apply()
    return widget


# ---------------------------------------------------------------- painted lists


def section_font(base: QFont) -> QFont:
    """A group's label in a list ("TODAY", "IN PROGRESS"): small, semibold, in
    capitals with a little room between the letters (scripts without case are
    left as they are)."""
    label = font("small", base)
    label.setWeight(QFont.Weight.DemiBold)
    label.setCapitalization(QFont.Capitalization.AllUppercase)
    label.setLetterSpacing(QFont.SpacingType.PercentageSpacing, 106)
    return label


class SectionedDelegate(QStyledItemDelegate):
    """A painted list of rows under group labels (the session list, the team
    board): a row whose ``header_role`` is true is a label, drawn at the bottom
    left of its rect in :func:`section_font` and the muted colour; every other row
    is :meth:`paint_row`'s. Subclasses set ``header_role`` and the label's insets
    and may change :meth:`header_text`."""

    header_role: int = int(Qt.ItemDataRole.UserRole)
    #: (left, right, bottom) room around a label, in px.
    header_insets: tuple[int, int, int] = (SPACE["s"], SPACE["s"], SPACE["xxs"])

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        painter.save()
        try:
            if index.data(self.header_role):
                self.paint_header(painter, option, index)
            else:
                self.paint_row(painter, option, index)
        finally:
            painter.restore()

    def header_text(self, index: QModelIndex | QPersistentModelIndex) -> str:
        return str(index.data(Qt.ItemDataRole.DisplayRole) or "")

    def paint_header(self, painter: QPainter, option: QStyleOptionViewItem,
                     index: QModelIndex | QPersistentModelIndex) -> None:
        left, right, bottom = self.header_insets
        rect: QRect = option.rect.adjusted(left, 0, -right, -bottom)
        label = section_font(option.font)
        painter.setFont(label)
        painter.setPen(colors(option.palette).q("muted"))
        text = QFontMetrics(label).elidedText(self.header_text(index), Qt.TextElideMode.ElideRight,
                                              max(0, rect.width()))
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom), text)

    def paint_row(self, painter: QPainter, option: QStyleOptionViewItem,
                  index: QModelIndex | QPersistentModelIndex) -> None:
        raise NotImplementedError
