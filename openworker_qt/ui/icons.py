"""The app's icon set: SVGs drawn for OpenWorker in ``resources/icons/ui/``.

Each SVG strokes and fills with ``currentColor``; :func:`icon` renders it in a
colour of the current scheme (design system) at each size for 1× and 2×, so
one file serves light and dark and stays crisp on high-DPI screens. Widgets
ask again when the palette changes (the transcript keys its icons by scheme).

Tool kinds map to an icon with :func:`tool_icon_name`.
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QGuiApplication, QIcon, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer

from openworker_qt.ui.resources import resource

NAMES = (
    "send", "stop", "attach", "mic", "new-session", "inbox", "settings", "approval", "error",
    "copy", "retry", "edit", "check", "chevron-down", "chevron-right", "folder", "question",
    "sparkle", "plan", "tool-read", "tool-write", "tool-shell", "tool-search", "tool-web",
    "tool-message", "tool-git", "tool-memory", "tool-todo", "tool-agent", "tool-generic",
    "sidebar", "file",
)


@lru_cache(maxsize=64)
def svg_source(name: str) -> str:
    return resource("icons", "ui", f"{name}.svg").read_text(encoding="utf-8")


_pixmaps: dict[tuple[str, str, int, float], QPixmap] = {}


def _render(name: str, color: str, size: int, ratio: float) -> QPixmap:
    key = (name, color, size, ratio)
    pm = _pixmaps.get(key)
    if pm is None:
        svg = svg_source(name).replace("currentColor", color)
        renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
        side = round(size * ratio)
        pm = QPixmap(side, side)
        pm.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pm)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter, QRectF(0, 0, side, side))
        painter.end()
        pm.setDevicePixelRatio(ratio)
        _pixmaps[key] = pm
    return pm


def icon(name: str, role: str = "text", sizes: tuple[int, ...] = (20,)) -> QIcon:
    """The app icon ``name`` tinted with the current palette's colour ``role``
    (``text``, ``muted``, ``accent``, ``on_accent``, ``danger``, ``warning`` …),
    rendered from the SVG at each size it is shown at, for 1× and 2× (and the
    screen's own ratio); the style dims it when disabled. Pixmaps are cached, so
    asking again costs nothing. Icons are made for one scheme: a widget
    re-asks for them when the palette changes."""
    from openworker_qt.ui import design

    if name not in NAMES:
        name = "tool-generic"
    color = design.colors().q(role).name()
    ratios = sorted({1.0, 2.0, device_ratio()})
    result = QIcon()
    for size in sizes:
        for ratio in ratios:
            result.addPixmap(_render(name, color, size, ratio), QIcon.Mode.Normal)
    return result


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
