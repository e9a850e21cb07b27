"""The offline demo's script: scripted answers the ``scripted`` provider replays
(``resources/demo/``), in the UI's language when there is a translation of it."""

from __future__ import annotations

from pathlib import Path

from openworker_qt.ui.resources import resource

__all__ = ["DEMO_SCRIPT", "demo_script"]

DEMO_SCRIPT = ("demo", "demo-session.json")  # under resources/


def demo_script() -> Path:
    """The offline demo's script in the UI's language (English when there is none)."""
    from openworker_qt.ui.theme import ui_language

    folder, name = DEMO_SCRIPT
    stem, dot, ext = name.rpartition(".")
    language = ui_language()
    for candidate in (language, language.split("_")[0]):
        if candidate:
            found = resource(folder, f"{stem}.{candidate}{dot}{ext}")
            if found.is_file():
                return found
    return resource(*DEMO_SCRIPT)
