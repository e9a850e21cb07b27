"""Motion where it informs (issue 27, C21): a caret after an answer's words while they
stream, a bar sweeping along a running tool card (repainting only while one shows),
and a shimmer over the status words while the model is waited for."""

from __future__ import annotations

import time

from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QTextDocument

from openworker_qt.core import events as ev
from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.ui import motion
from openworker_qt.ui.status_line import StatusLine
from tests.ui.conftest import wait_for

ACCENT = QColor("#ff0000")


def _reds(image: QImage, area: QRect | None = None) -> list[int]:
    area = area or image.rect()
    xs = []
    for y in range(area.top(), area.bottom() + 1):
        for x in range(area.left(), area.right() + 1):
            c = QColor(image.pixel(x, y))
            if c.red() > 200 and c.green() < 80 and c.blue() < 80:
                xs.append(x)
    return xs


def test_the_caret_sits_after_the_last_word(qapp) -> None:
    doc = QTextDocument()
    doc.setDefaultFont(QFont("DejaVu Sans", 12))
    doc.setTextWidth(300)
    doc.setPlainText("Hello there\n\n")  # trailing empty blocks: the caret stays on the words
    image = QImage(320, 120, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    motion.paint_caret(painter, doc, 10, 10, ACCENT)
    painter.end()
    reds = _reds(image)
    first = doc.firstBlock()
    layout = first.layout()
    words_end = 10 + layout.lineAt(0).naturalTextWidth()
    assert reds and min(reds) >= words_end and max(reds) < words_end + 20


def test_the_bar_sweeps_along_the_card() -> None:
    card = QRect(0, 0, 400, 60)
    strip = motion.progress_strip(card)
    assert strip.bottom() == card.bottom() - 1 and strip.height() == motion.STRIP + 1
    positions = []
    for t in (0.2, 0.7, 1.2):
        image = QImage(400, 60, QImage.Format.Format_RGB32)
        image.fill(QColor("white"))
        painter = QPainter(image)
        motion.paint_progress(painter, card, ACCENT, now=t)
        painter.end()
        reds = _reds(image, strip)
        assert reds, t
        positions.append(sum(reds) / len(reds))
        assert not _reds(image, QRect(0, 0, 400, strip.top() - 1))  # only in the strip
    assert positions == sorted(positions)  # it moves left to right


def test_progress_repaints_only_while_a_tool_runs_on_screen(qtbot, qloop, make_desktop) -> None:
    window = make_desktop().window
    model, progress = window.transcript, window.tool_progress
    model.reset("s", [TranscriptItem("user", text="list the folder")])
    assert not progress.timer.isActive()
    model.apply(ev.ToolProposed(session_id="s", call_id="c1", name="run_shell",
                                arguments={"command": "ls"}, risk="exec"))
    assert not progress.timer.isActive()  # proposed, not running
    model.apply(ev.ToolStarted(session_id="s", call_id="c1", name="run_shell"))
    assert progress.timer.isActive()
    [strip] = progress.running_strips()
    card = window.view.delegate.tool_card_rect(
        model.item(1), window.view.visualRect(model.index(1, 0)))
    assert card.contains(strip)
    wait_for(qloop, lambda: progress.frames >= 3, what="a few frames")
    model.apply(ev.ToolFinished(session_id="s", call_id="c1", name="run_shell", status="ok",
                                result="a.txt"))
    wait_for(qloop, lambda: not progress.timer.isActive(), what="the bar to stop")
    frames = progress.frames
    qtbot.wait(motion.FRAME_MS * 3)
    assert progress.frames == frames


def test_the_status_shimmers_while_the_model_is_waited_for(qtbot) -> None:
    running: set[str] = set()
    pending: list[object] = []
    line = StatusLine(current=lambda: "s", running=lambda: running,
                      since=lambda _s: time.monotonic() if "s" in running else None,
                      pending=lambda _s: list(pending), model_of=lambda _s: "claude-sonnet",
                      arguments_of=lambda _s, _c: {"command": "ls"})
    qtbot.addWidget(line)
    line.show()
    assert not line.shimmer.on
    running.add("s")
    line.on_running("s", True)
    assert line.shimmer.on and "Waiting" in line.text()
    line.grab()  # the shimmer paints
    line.on_text("s")
    line.refresh()
    assert not line.shimmer.on  # words arrive: the caret in the answer tells it now
    line.on_event(ev.ToolStarted(session_id="s", call_id="c1", name="run_shell"))
    line.refresh()
    assert not line.shimmer.on  # the tool card's bar tells it
    line.on_event(ev.ToolFinished(session_id="s", call_id="c1", name="run_shell", status="ok",
                                  result=""))
    line.refresh()
    assert line.shimmer.on  # waiting for the model again
    pending.append(type("Ask", (), {"kind": "approval"})())
    line.refresh()
    assert not line.shimmer.on and line.text() == "Waiting for your approval"
    pending.clear()
    running.clear()
    line.on_running("s", False)
    assert not line.shimmer.on and line.text() == "Ready"
