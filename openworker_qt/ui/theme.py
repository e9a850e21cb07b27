"""Look and language: platform style (Fusion where there is none), light/dark, translator.

The colour scheme follows the system unless the user picked one in Settings
(``ui.theme`` = ``system`` | ``light`` | ``dark``). Widgets paint from the
palette, so both schemes get adequate contrast without a style sheet.

With ``system`` the app re-applies the palette when the platform's scheme
changes (``QStyleHints.colorSchemeChanged``, see :func:`follow_system_scheme`).

Translations: ``resources/translations/openworker_qt_<locale>.qm`` (plus Qt's
own ``qtbase_<locale>.qm`` for standard buttons) for the configured
``general.language`` or the system locale (English is built in).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QLibraryInfo, QLocale, Qt, QTranslator
from PySide6.QtGui import QColor, QPalette
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
    dark = scheme == Qt.ColorScheme.Dark or (
        scheme == Qt.ColorScheme.Unknown and hints.colorScheme() == Qt.ColorScheme.Dark)
    if app.style().name().lower() == "fusion":
        # Fusion does not switch palettes by itself on every platform (xcb without a
        # platform theme): give it an explicit dark palette with readable contrast.
        app.setPalette(dark_palette() if dark else app.style().standardPalette())


_following: list[Callable[[], str]] = []


def follow_system_scheme(app: QApplication, theme: Callable[[], str]) -> None:
    """Re-apply the palette when the system scheme flips, while ``theme()`` is ``system``."""
    _following[:] = [theme]
    hints = app.styleHints()
    if not hasattr(hints, "colorSchemeChanged"):
        return

    def on_changed(_scheme: Qt.ColorScheme) -> None:
        if _following and _following[0]() not in ("light", "dark"):
            apply_theme(app, "system")

    hints.colorSchemeChanged.connect(on_changed)


def dark_palette() -> QPalette:
    p = QPalette()
    window, base, text = QColor("#25272b"), QColor("#1d1f22"), QColor("#e6e6e6")
    roles = {
        QPalette.ColorRole.Window: window, QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base, QPalette.ColorRole.AlternateBase: QColor("#2b2e33"),
        QPalette.ColorRole.Text: text, QPalette.ColorRole.Button: QColor("#303338"),
        QPalette.ColorRole.ButtonText: text, QPalette.ColorRole.ToolTipBase: window,
        QPalette.ColorRole.ToolTipText: text, QPalette.ColorRole.Highlight: QColor("#4a86e8"),
        QPalette.ColorRole.HighlightedText: QColor("#ffffff"), QPalette.ColorRole.Link: QColor("#7fb0ff"),
        QPalette.ColorRole.PlaceholderText: QColor("#8b8f96"), QPalette.ColorRole.BrightText: QColor("#ff6b6b"),
        # Frame and separator shades: light enough to show on the dark bases.
        QPalette.ColorRole.Light: QColor("#4a4e55"), QPalette.ColorRole.Midlight: QColor("#3a3d43"),
        QPalette.ColorRole.Mid: QColor("#5c616a"), QPalette.ColorRole.Dark: QColor("#17181b"),
        QPalette.ColorRole.Shadow: QColor("#0b0c0d"),
    }
    for role, color in roles.items():
        p.setColor(role, color)
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7e85"))
    return p


def install_translator(app: QApplication, language: str = "") -> str:
    """Load the UI translation; returns the locale used ('' for built-in English)."""
    from openworker_qt.resources import resource

    for old in _translators:
        app.removeTranslator(old)
    _translators.clear()
    locale = QLocale(language) if language else QLocale.system()
    translator = QTranslator(app)
    if not translator.load(locale, "openworker_qt", "_", str(resource("translations"))):
        return ""
    app.installTranslator(translator)
    _translators.append(translator)
    qt_own = QTranslator(app)
    if qt_own.load(locale, "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt_own)
        _translators.append(qt_own)
    return locale.name()
