"""Run something right after a window first paints (it is on screen)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget


def after_first_paint(window: QWidget, callback: Callable[[], Any]) -> None:
    """Call ``callback`` once, right after ``window`` first paints (it is on screen).

    bench/startup.py measures to this moment; a zero timer queued after start()
    used to stand in for it, but such timers run *before* the first paint.
    """
    paint = QEvent.Type.Paint

    class FirstPaint(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if event.type() == paint:
                window.removeEventFilter(self)
                self.deleteLater()
                QTimer.singleShot(0, callback)
            return False

    # On the window alone: an application-wide filter wrapped every object of the
    # first loop turn for Python, which built their classes' enums (~25 ms).
    window.installEventFilter(FirstPaint(window))
