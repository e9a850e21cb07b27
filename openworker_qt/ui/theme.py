"""Look and language: platform style (Fusion where there is none), light/dark, translator.

The colour scheme follows the system unless the user picked one in Settings
(``ui.theme`` = ``system`` | ``light`` | ``dark``). Widgets paint from the
palette, so both schemes get adequate contrast without a style sheet.

Translations: ``resources/i18n/openworker_<locale>.qm`` for the configured
``general.language`` or the system locale (English is built in).
"""

from __future__ import annotations

from PySide6.QtCore import QLocale, Qt, QTranslator
from PySide6.QtWidgets import QApplication, QStyleFactory

_translators: list[QTranslator] = []


def apply_theme(app: QApplication, theme: str = "system") -> None:
    native = {"windows", "windowsvista", "windows11", "macos", "macintosh"}
    if app.style().name().lower() not in native and "Fusion" in QStyleFactory.keys():
        app.setStyle("Fusion")
    hints = app.styleHints()
    scheme = {
        "dark": Qt.ColorScheme.Dark,
        "light": Qt.ColorScheme.Light,
    }.get(theme, Qt.ColorScheme.Unknown)
    if hasattr(hints, "setColorScheme"):
        hints.setColorScheme(scheme)


def install_translator(app: QApplication, language: str = "") -> str:
    """Load the UI translation; returns the locale used ('' for built-in English)."""
    from openworker_qt.app import resource

    for old in _translators:
        app.removeTranslator(old)
    _translators.clear()
    locale = QLocale(language) if language else QLocale.system()
    translator = QTranslator(app)
    if translator.load(locale, "openworker", "_", str(resource("i18n"))):
        app.installTranslator(translator)
        _translators.append(translator)
        return locale.name()
    return ""
