"""Whether translucent windows are composited: only an X11 desktop may say no."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication

from openworker_qt.qt.compositing import composited


def test_a_platform_other_than_x11_composites(qapp) -> None:
    assert QGuiApplication.platformName() != "xcb"  # the tests run offscreen
    assert composited() is True
