"""Warming the transcript's painting up after the window's first paint.

:class:`DelegateWarmUp` renders a few sample rows through the view's delegate,
off-screen, one per event-loop turn (fonts, the Markdown paths, the enum types
PySide builds lazily on the first ``viewport()`` call — 18 ms once, cProfile in
``bench/ui_stall.py``), so a first real answer does not pay for them; then it has
Pygments imported in a worker and, once it is in, has the delegate render again
the messages shown before it (their code coloured).

Pygments and its lexers are ~120 ms of Python (compiling their patterns): a
worker doing that holds the GIL half the time, so a reply streaming meanwhile
took twice as long a frame (a 32 ms stall of ``ui_stall``'s real-idle case,
found by its stack sampler). :class:`QuietLoop` holds the worker back, before
each lexer, until the event loop has been quiet a moment.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QPoint, QRect, QTimer
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QAbstractItemView, QStyleOptionViewItem

from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.ui.markdown_style import (
    highlighter_loaded,
    highlighter_ready,
    preload_highlighter,
)
from openworker_qt.ui.transcript_delegate import WARM_UP_MARKDOWN, TranscriptDelegate

__all__ = ["DelegateWarmUp", "QuietLoop"]

HIGHLIGHTER_DELAY_MS = 300  # after the warm-up (then it waits for quiet: QuietLoop)
HIGHLIGHTER_POLL_MS = 100  # then: is it in? (the messages shown before it are rendered again)
HIGHLIGHTER_POLLS = 600


QUIET_WINDOW_S = 0.05  # how long the loop thread is watched at a time
QUIET_SHARE = 0.1  # of that window, the most CPU it may have used to count as quiet
QUIET_AFTER_S = 1.0  # and this long since a reply last grew
QUIET_GIVE_UP_S = 20.0  # a window never quiet that long: go on anyway


class QuietLoop:
    """``wait()``, in a worker thread: returns once the event loop's thread has used
    little CPU for a moment and ``last_activity()`` (a ``time.monotonic()``) is a
    while ago; at once where a thread's CPU clock cannot be read."""

    def __init__(self, last_activity: Callable[[], float]) -> None:
        self._activity = last_activity
        self._clock: int | None = None
        try:
            ident = threading.main_thread().ident
            if ident is not None:
                self._clock = time.pthread_getcpuclockid(ident)
        except (AttributeError, OSError):  # (not on every platform)
            self._clock = None

    def wait(self) -> None:
        clock = self._clock
        if clock is None:
            return
        give_up = time.monotonic() + QUIET_GIVE_UP_S
        while time.monotonic() < give_up:
            before = time.clock_gettime(clock)
            time.sleep(QUIET_WINDOW_S)
            used = time.clock_gettime(clock) - before
            if used < QUIET_WINDOW_S * QUIET_SHARE and \
                    time.monotonic() - self._activity() > QUIET_AFTER_S:
                return


class DelegateWarmUp(QObject):
    """The warm-up of one view (see module docstring); :meth:`start` after its first paint."""

    def __init__(self, view: QAbstractItemView, delegate: TranscriptDelegate) -> None:
        super().__init__(view)
        self.view = view
        self.delegate = delegate
        self.pending = list(WARM_UP_MARKDOWN)
        self.started = False
        self._polls = 0
        self._ready_seen = False

    def start(self) -> None:
        """Begin (once; later calls do nothing)."""
        if self.pending and not self.started:
            self.started = True
            QTimer.singleShot(0, self, self._step)

    def _step(self) -> None:
        """Render one sample row through the delegate, off-screen."""
        if not self.pending:
            return
        text = self.pending.pop(0)
        delegate = self.delegate
        model = TranscriptModel()
        # Alternate the streaming (incremental) and the finished (whole) Markdown paths.
        streaming = len(self.pending) % 2 == 0
        model.reset("", [TranscriptItem("assistant", text=text, streaming=streaming),
                         TranscriptItem("user", text=text), TranscriptItem("notice", text=text)])
        image = QImage(320, 240, QImage.Format.Format_ARGB32_Premultiplied)
        painter = QPainter(image)
        option = QStyleOptionViewItem()
        option.initFrom(self.view.viewport())
        for row in range(model.rowCount()):
            index = model.index(row, 0)
            option.rect = QRect(QPoint(0, 0), delegate.sizeHint(option, index))
            delegate.paint(painter, option, index)
            delegate.forget(model.item(row))
        painter.end()
        if self.pending:
            QTimer.singleShot(0, self, self._step)
        else:  # Pygments, in a worker thread, once the window has settled
            QTimer.singleShot(HIGHLIGHTER_DELAY_MS, self, self._start_highlighter)

    def _start_highlighter(self) -> None:
        rendering = self.delegate.rendering
        preload_highlighter(QuietLoop(lambda: rendering.last_grow).wait)
        self._polls = 0
        self._await_highlighter()

    def _await_highlighter(self) -> None:
        """Code shown plain is rendered again when the first lexers are in (Python's
        is first) and once all are."""
        loaded = highlighter_loaded()
        if loaded or (highlighter_ready() and not self._ready_seen):
            self._ready_seen = True
            if self.delegate.restyle():
                self.view.viewport().update()
            if loaded:
                return
        self._polls += 1
        if self._polls < HIGHLIGHTER_POLLS:
            QTimer.singleShot(HIGHLIGHTER_POLL_MS, self, self._await_highlighter)
