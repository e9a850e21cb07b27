"""The app's icon set: SVGs drawn for OpenWorker in ``resources/icons/ui/``.

Each SVG strokes and fills with ``currentColor``; :func:`icon` renders it with
the colour of the current palette at the exact size and device-pixel ratio
asked for (crisp at 1× and 2×), so one file serves light and dark: the
colour is read at paint time, so a scheme switch recolours every icon.

Tool kinds map to an icon with :func:`tool_icon_name`.
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QByteArray, QPoint, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QIconEngine, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer

from openworker_qt.ui.resources import resource

NAMES = (
    "send", "stop", "attach", "mic", "new-session", "inbox", "settings", "approval", "error",
    "copy", "retry", "edit", "check", "chevron-down", "chevron-right", "folder", "question",
    "sparkle", "plan", "tool-read", "tool-write", "tool-shell", "tool-search", "tool-web",
    "tool-message", "tool-git", "tool-memory", "tool-todo", "tool-agent", "tool-generic",
)


@lru_cache(maxsize=64)
def svg_source(name: str) -> str:
    return resource("icons", "ui", f"{name}.svg").read_text(encoding="utf-8")


class _TintedSvg(QIconEngine):
    """Renders an SVG in a palette colour (``role``: a :class:`design.Colors` name)."""

    def __init__(self, name: str, role: str) -> None:
        super().__init__()
        self.name = name
        self.role = role
        self._renderers: dict[str, QSvgRenderer] = {}

    def _color(self, mode: QIcon.Mode) -> QColor:
        from openworker_qt.ui import design

        c = design.colors()
        if mode == QIcon.Mode.Disabled:
            return design.mix(c.q("muted"), c.q("surface"), 0.35)
        if mode == QIcon.Mode.Selected and self.role in ("text", "muted"):
            return c.q("on_accent")
        return c.q(self.role)

    def _renderer(self, color: QColor) -> QSvgRenderer:
        key = color.name()
        found = self._renderers.get(key)
        if found is None:
            svg = svg_source(self.name).replace("currentColor", key)
            found = self._renderers[key] = QSvgRenderer(QByteArray(svg.encode("utf-8")))
        return found

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        self._renderer(self._color(mode)).render(painter, QRectF(rect))

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        pm = QPixmap(size)
        pm.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pm)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.paint(painter, QRect(QPoint(0, 0), size), mode, state)
        painter.end()
        return pm

    def scaledPixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State, scale: float) -> QPixmap:  # noqa: N802
        pm = self.pixmap(QSize(round(size.width() * scale), round(size.height() * scale)), mode, state)
        pm.setDevicePixelRatio(scale)
        return pm

    def clone(self) -> QIconEngine:
        return _TintedSvg(self.name, self.role)

    def key(self) -> str:
        return "openworker-tinted-svg"


def icon(name: str, role: str = "text") -> QIcon:
    """The app icon ``name`` tinted with the palette colour ``role`` (``text``,
    ``muted``, ``accent``, ``on_accent``, ``danger``, ``warning``, ``success`` …)."""
    if name not in NAMES:
        name = "tool-generic"
    return QIcon(_TintedSvg(name, role))


def device_ratio() -> float:
    screen = QGuiApplication.primaryScreen()
    return screen.devicePixelRatio() if screen is not None else 1.0


_TOOL_ICONS = {
    "read_file": "tool-read", "list_dir": "tool-read", "list_files": "tool-read",
    "read_document": "tool-read", "load_skill": "tool-read",
    "write_file": "tool-write", "replace_in_file": "tool-write", "edit_file": "tool-write",
    "apply_patch": "tool-write", "create_file": "tool-write",
    "shell": "tool-shell", "run_shell": "tool-shell", "bash": "tool-shell",
    "shell_task_kill": "tool-shell", "shell_task_output": "tool-shell", "shell_tasks": "tool-shell",
    "create_deliverable": "tool-write",
    "grep": "tool-search", "glob": "tool-search", "search_files": "tool-search",
    "web_search": "tool-web", "web_fetch": "tool-web",
    "remember": "tool-memory", "memory_update": "tool-memory", "memory_forget": "tool-memory",
    "memory_read": "tool-memory",
    "todo_write": "tool-todo", "update_todos": "tool-todo", "todo": "tool-todo",
    "explore": "tool-agent", "explorer": "tool-agent", "spawn_explorer": "tool-agent",
    "ask_user": "question", "request_directory": "folder", "propose_plan": "plan",
}


def tool_icon_name(tool: str) -> str:
    """The icon for a tool's kind (by its name; MCP and connector tools by their verb)."""
    if tool in _TOOL_ICONS:
        return _TOOL_ICONS[tool]
    low = tool.lower()
    if low.startswith("git"):
        return "tool-git"
    if any(w in low for w in ("send", "post", "reply", "message", "comment", "email", "mail")):
        return "tool-message"
    if any(w in low for w in ("search", "find", "grep", "query")):
        return "tool-search"
    if any(w in low for w in ("write", "create", "update", "edit", "delete")):
        return "tool-write"
    if any(w in low for w in ("read", "get", "list", "fetch")):
        return "tool-read"
    return "tool-generic"
