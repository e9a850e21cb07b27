"""An answer shown before the code highlighter has loaded (the first seconds after
start, the offline demo) gets its code coloured once it has: it is not left plain."""

from __future__ import annotations

from PySide6.QtGui import QImage

from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.ui import markdown_style
from openworker_qt.ui.transcript_view import TranscriptView
from tests.ui.conftest import posted_marker

ANSWER = "To recompute it:\n\n```python\ndef growth(before: int, after: int) -> float:\n" \
         "    return (after - before) / before\n```\n"


def _coloured_pixels(view: TranscriptView) -> int:
    image = view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    count = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            c = image.pixelColor(x, y)
            if c.hsvSaturation() > 90 and c.value() > 60:
                count += 1
    return count


def test_code_shown_before_pygments_is_coloured_once_it_loads(qtbot, monkeypatch) -> None:
    monkeypatch.setattr(markdown_style, "_LEXERS", {})  # as in a fresh process
    monkeypatch.setattr(markdown_style, "_loading", [])
    view = TranscriptView()
    qtbot.addWidget(view)
    model = TranscriptModel()
    model.reset("s1", [TranscriptItem("user", text="How do I recompute the growth?"),
                       TranscriptItem("assistant", text=ANSWER)])
    view.setModel(model)
    view.resize(900, 500)
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(posted_marker())  # laid out and painted (the highlighter waits 1.5 s)
    assert not markdown_style.highlighter_ready()
    plain = _coloured_pixels(view)  # painted before the highlighter: no syntax colours
    qtbot.waitUntil(markdown_style.highlighter_ready, timeout=20_000)  # loads after a pause
    qtbot.waitUntil(lambda: _coloured_pixels(view) > plain + 40, timeout=5_000)
