"""The main window's Tab order as one ring: the widgets Tab visits, in order,
and from the last back to the first (Qt's own chain is not kept in this order
once widgets are reparented into docks and the composer)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QWidget


def ring(fixed: Sequence[QWidget], docks: Sequence[QDockWidget]) -> list[QWidget]:
    """``fixed`` in order, then what takes Tab in each open dock; only what is
    shown, enabled and takes the focus by Tab."""
    widgets = list(fixed)
    for dock in docks:
        if dock.isVisible():
            widgets += [w for w in dock.findChildren(QWidget)
                        if w.focusPolicy() & Qt.FocusPolicy.TabFocus and w.focusProxy() is None]
    return [w for w in widgets if w.isVisible() and w.isEnabled()
            and (w.focusPolicy() & Qt.FocusPolicy.TabFocus or w.focusProxy() is not None)]


def step(widgets: Sequence[QWidget], forward: bool, *, own_order: QWidget) -> bool:
    """Move the focus to the next (or previous) widget of the ring; False when the
    focus is not on the ring or on ``own_order`` (a view whose cards keep Qt's order),
    so Qt moves it."""
    focus = QApplication.focusWidget()
    current = None
    for i, widget in enumerate(widgets):
        # (an editable combo's focus is in its line edit)
        if widget is focus or (focus is not None and widget is focus.parentWidget()
                               and widget.focusProxy() is focus):
            current = i
            break
    if current is None or widgets[current] is own_order:
        return False
    target = widgets[(current + (1 if forward else -1)) % len(widgets)]
    target.setFocus(Qt.FocusReason.TabFocusReason if forward else Qt.FocusReason.BacktabFocusReason)
    return True
