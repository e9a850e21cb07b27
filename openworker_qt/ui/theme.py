"""Look and language: platform style (Fusion where there is none), light/dark, translator.

The colour scheme follows the system unless the user picked one in Settings
(``ui.theme`` = ``system`` | ``light`` | ``dark``). Widgets paint from the
palette, so both schemes get adequate contrast without a style sheet; the
colours come from :mod:`~openworker_qt.ui.design` (checked for contrast by the
tests).

With ``system`` the app re-applies the palette when the platform's scheme
changes (``QStyleHints.colorSchemeChanged``, see :func:`follow_system_scheme`).

Translations: ``resources/translations/openworker_qt_<locale>.qm`` (plus Qt's
own ``qtbase_<locale>.qm`` for standard buttons) for the configured
``general.language`` or the system locale (English is built in).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QLibraryInfo, QLocale, Qt, QTranslator
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

from openworker_qt.ui import design
from openworker_qt.ui.design import qpalette

_translators: list[QTranslator] = []
_language = [""]  # the locale of the loaded translation ('' for built-in English)


def ui_language() -> str:
    """The locale the UI is shown in (``zh_CN``), '' for the built-in English."""
    return _language[0]


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
        # Light gets the design system's light colours (with the system's accent).
        system = app.style().standardPalette()
        app.setPalette(qpalette(design.derive(system, dark=dark)))
    design.rescheme()


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
    """The dark scheme's palette (:mod:`~openworker_qt.ui.design`'s dark colours)."""
    return qpalette(design.dark())


def light_palette(system: QPalette | None = None) -> QPalette:
    """The light scheme's palette, keeping the system's accent when it is readable."""
    return qpalette(design.derive(system, dark=False))


def install_translator(app: QApplication, language: str = "") -> str:
    """Load the UI translation; returns the locale used ('' for built-in English)."""
    from openworker_qt.ui.resources import resource

    for old in _translators:
        app.removeTranslator(old)
    _translators.clear()
    _language[0] = ""
    locale = QLocale(language) if language else QLocale.system()
    translator = QTranslator(app)
    if not translator.load(locale, "openworker_qt", "_", str(resource("translations"))):
        return ""
    app.installTranslator(translator)
    _translators.append(translator)
    _language[0] = locale.name()
    qt_own = QTranslator(app)
    if qt_own.load(locale, "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt_own)
        _translators.append(qt_own)
    return locale.name()
