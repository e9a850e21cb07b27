"""The design system: every text role readable (WCAG ≥ 4.5:1) in both schemes,
also when the system's accent is used, and the palettes Fusion paints from."""

from __future__ import annotations

import pytest
import shiboken6
from PySide6.QtGui import QColor, QPalette

from openworker_qt.ui import design


def _system(accent: str) -> QPalette:
    p = QPalette()
    p.setColor(QPalette.ColorRole.Highlight, QColor(accent))
    return p


SCHEMES = {
    "light": design.light(),
    "dark": design.dark(),
    # system accents that are too light or too dark for text as they are
    "light+yellow accent": design.derive(_system("#ffd400"), dark=False),
    "dark+navy accent": design.derive(_system("#102a80"), dark=True),
    "light+fusion accent": design.derive(_system("#308cc6"), dark=False),
    "dark+orange accent": design.derive(_system("#e95420"), dark=True),
}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_text_role_is_readable(scheme: str) -> None:
    c = SCHEMES[scheme]
    low = [(fg, bg, round(design.contrast(c.q(fg), c.q(bg)), 2))
           for fg, bg in design.TEXT_ROLES
           if design.contrast(c.q(fg), c.q(bg)) < design.MIN_TEXT_CONTRAST]
    assert not low, f"{scheme}: text below 4.5:1: {low}"


def test_the_roles_cover_every_text_colour() -> None:
    painted_as_text = {fg for fg, _ in design.TEXT_ROLES}
    assert {"text", "muted", "link", "on_accent", "success", "warning", "danger",
            "diff_add_text", "diff_del_text"} <= painted_as_text


def test_palette_built_from_the_scheme(qapp: object) -> None:
    for c in (design.light(), design.dark()):
        p = design.qpalette(c)
        text, base = p.color(QPalette.ColorRole.Text), p.color(QPalette.ColorRole.Base)
        assert design.contrast(text, base) >= design.MIN_TEXT_CONTRAST
        assert design.is_dark(p) is c.dark
        sel = p.color(QPalette.ColorRole.HighlightedText), p.color(QPalette.ColorRole.Highlight)
        assert design.contrast(*sel) >= design.MIN_TEXT_CONTRAST
        placeholder = p.color(QPalette.ColorRole.PlaceholderText)
        assert design.contrast(placeholder, base) >= design.MIN_TEXT_CONTRAST


def test_contrast_is_wcag() -> None:
    assert round(design.contrast(QColor("#000"), QColor("#fff")), 1) == 21.0
    assert design.contrast(QColor("#777"), QColor("#777")) == 1.0
    fixed = design.readable(QColor("#aaaaaa"), QColor("#ffffff"))
    assert design.contrast(fixed, QColor("#ffffff")) >= 4.5


def test_a_scheme_switch_reapplies_each_follower_once_and_skips_deleted_ones(qtbot) -> None:
    from PySide6.QtWidgets import QLabel, QWidget

    top = QWidget()
    qtbot.addWidget(top)
    inner = QWidget(top)
    applied: list[str] = []
    design.follow_scheme(top, lambda: applied.append("top"))
    design.follow_scheme(inner, lambda: applied.append("inner"))
    gone = QLabel(top)
    design.follow_scheme(gone, lambda: applied.append("gone"))
    assert applied == ["top", "inner", "gone"]  # applied at once
    applied.clear()
    shiboken6.delete(gone)  # its follower goes with it
    design.rescheme()
    assert applied == ["top", "inner"]  # in the order they were made, once each
    assert all(shiboken6.isValid(f) for f in design._followers.values())
