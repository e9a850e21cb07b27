"""Switching light ↔ dark while the app runs repaints every surface readable at once
(the Settings page list and the sidebar's "New session" stayed dark-on-dark until a
restart): measured on the pixels painted, not on a palette that might not be used."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QAction, QColor, QImage
from PySide6.QtWidgets import QApplication, QWidget

from tests.ui.conftest import act, run, until


def _luminance(c: QColor) -> float:
    def channel(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue())


def _contrast(image: QImage) -> float:
    """The best contrast between the region's background (its most common colour)
    and any pixel in it: text that reads has ≥ 4.5 : 1 somewhere."""
    counts: dict[int, int] = {}
    for y in range(image.height()):
        for x in range(image.width()):
            p = image.pixel(x, y)
            counts[p] = counts.get(p, 0) + 1
    bg = _luminance(QColor(max(counts, key=lambda k: counts[k])))
    best = 1.0
    for p in counts:
        fg = _luminance(QColor(p))
        best = max(best, (max(fg, bg) + 0.05) / (min(fg, bg) + 0.05))
    return best


def _region(window: QWidget, child: QWidget, rect: QRect | None = None) -> QImage:
    QApplication.processEvents()
    area = rect if rect is not None else child.rect()
    top_left = child.mapTo(window, area.topLeft())
    return window.grab(QRect(top_left, area.size())).toImage()


@pytest.mark.parametrize(("first", "then"), [("light", "dark"), ("dark", "light")])
def test_a_live_theme_switch_leaves_every_label_readable(qtbot: Any, qloop: Any, make_desktop: Any,
                                                         first: str, then: str) -> None:
    desktop = make_desktop()
    window = desktop.window
    window.resize(1100, 720)
    act(qloop, desktop.window.findChild(QAction, "settings").trigger)
    settings = desktop.settings_window
    run(qloop, lambda: until(lambda: not settings.providers.busy(), what="keyring read"))
    settings.appearance.set_theme(first)
    for theme in (first, then):
        settings.appearance.set_theme(theme)
        qtbot.wait(50)  # let the palette change reach every widget before painting
        sidebar = window.sidebar
        assert _contrast(_region(window, sidebar.new_button)) >= 4.5, theme
        nav = settings.nav
        for row in range(nav.count()):
            item_rect = nav.visualItemRect(nav.item(row))
            assert _contrast(_region(settings, nav.viewport(), item_rect)) >= 4.5, (
                theme, nav.item(row).text())
