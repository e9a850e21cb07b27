"""The transcript's rendering work that may wait a frame, done a slice at a time.

A code block's syntax colours (Pygments: most of what a code block costs), the
rest of a large arrival of streamed text, the whole render of a reply that just
finished: each is a job, a generator that does a little work per step. A
zero-interval timer runs steps for :data:`SLICE_SECONDS` per event-loop turn,
so the loop stays free between slices (a reply that closed five code blocks in
one frame cost the window 20-50 ms at once; ``bench/ui_stall.py``). A step that
yields ``True`` asks for a frame to pass before the job goes on (a relayout and a
paint between two parts of a long arrival). After a slice that did anything the
view is repainted, at most once a frame.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Iterator

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QFont, QTextDocument

from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.ui.markdown_style import CodeRuns, colour_steps
from openworker_qt.ui.transcript_text import StreamingDocument, style_code

log = logging.getLogger(__name__)

SLICE_SECONDS = 0.004
REPAINT_MS = 16

Job = Iterator[bool | None]
DocKey = tuple[int, int, int, str]  # the delegate's: uid, revision, width, part


class SlicedWork(QObject):
    """A queue of jobs run a slice at a time (see module docstring)."""

    def __init__(self, parent: QObject, repaint: Callable[[], None]) -> None:
        super().__init__(parent)
        self._jobs: deque[Job] = deque()
        self._waiting: deque[Job] = deque()  # asked for a frame to pass
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._slice)
        self._frame = QTimer(self)  # the frame the waiting jobs wait for; the repaint
        self._frame.setSingleShot(True)
        self._frame.setInterval(REPAINT_MS)
        self._frame.timeout.connect(self._next_frame)
        self._repaint = repaint
        self.steps = 0  # steps run (tests, benches)

    def add(self, job: Job) -> None:
        self._jobs.append(job)
        if not self._timer.isActive():
            self._timer.start()

    @property
    def pending(self) -> bool:
        return bool(self._jobs or self._waiting)

    def _step(self, job: Job) -> bool:
        """One step of ``job``; False when it is over."""
        self.steps += 1
        try:
            wants_frame = next(job)
        except StopIteration:
            return False
        except Exception:  # a rendering bug must never stop the others
            log.exception("transcript rendering job failed")
            return False
        if wants_frame:
            self._waiting.append(job)
        else:
            self._jobs.appendleft(job)
        return True

    def _slice(self) -> None:
        end = time.perf_counter() + SLICE_SECONDS
        ran = False
        while self._jobs and time.perf_counter() < end:
            self._step(self._jobs.popleft())
            ran = True
        if self._jobs:
            self._timer.start()
        if ran and not self._frame.isActive():
            self._frame.start()

    def _next_frame(self) -> None:
        self._repaint()
        if self._waiting:
            self._jobs.extend(self._waiting)
            self._waiting.clear()
            if not self._timer.isActive():
                self._timer.start()

    def finish(self) -> None:
        """Run every job to its end now (tests; a document needed whole at once)."""
        while self._jobs or self._waiting:
            self._jobs.extend(self._waiting)
            self._waiting.clear()
            while self._jobs:
                self._step(self._jobs.popleft())
        self._repaint()


class RowRendering:
    """The transcript delegate's work that waits a slice: code colours, the rest of
    a large arrival of streamed text, a finished reply's whole render (see module
    docstring). ``regrown(uid)``: a row's document changed under the same revision
    (measure it again); ``install(key, doc)``: a whole render is ready."""

    def __init__(self, parent: QObject, repaint: Callable[[], None],
                 regrown: Callable[[int], None],
                 install: Callable[[DocKey, QTextDocument], None]) -> None:
        self.work = SlicedWork(parent, repaint)
        self.streams: dict[int, StreamingDocument] = {}  # item uid -> growing document
        self._catching_up: set[int] = set()  # streams rendering the rest of an arrival
        self._finals: dict[int, DocKey] = {}  # uid -> the key of its whole render to come
        self._regrown = regrown
        self._install = install
        self.last_grow = 0.0  # time.monotonic() of the last reply that grew (QuietLoop)

    def clear(self) -> None:
        self.streams.clear()
        self._finals.clear()

    def drop(self, uid: int) -> None:
        self.streams.pop(uid, None)
        self._finals.pop(uid, None)

    def keep_only(self, uids: set[int]) -> None:
        for uid in [u for u in self.streams if u not in uids]:
            self.drop(uid)

    def colour_later(self, doc: QTextDocument, runs: CodeRuns, dark: bool) -> None:
        """Colour ``runs`` of ``doc`` in the next slices."""
        if runs:
            self.work.add(self._colour(doc, runs, dark))

    @staticmethod
    def _colour(doc: QTextDocument, runs: CodeRuns, dark: bool) -> Job:
        for position, lines in runs:
            yield from colour_steps(doc, position, lines, dark)

    def grow(self, item: TranscriptItem, stream: StreamingDocument) -> None:
        """Bring a row's growing document to its text (once per revision; what a large
        arrival leaves over is rendered in the next frames)."""
        if stream.rev == item.rev:
            return
        self.last_grow = time.monotonic()
        stream.rev = item.rev
        stream.update(item.text)
        self.colour_later(stream.doc, stream.take_colours(), stream.dark)
        if stream.behind and item.uid not in self._catching_up:
            self._catching_up.add(item.uid)
            self.work.add(self._catch_up(item, stream))

    def _catch_up(self, item: TranscriptItem, stream: StreamingDocument) -> Job:
        try:
            while self.streams.get(item.uid) is stream and stream.behind:
                yield True  # a frame between two parts
                stream.update(item.text)
                stream.rev = item.rev
                self.colour_later(stream.doc, stream.take_colours(), stream.dark)
                self._regrown(item.uid)
        finally:
            self._catching_up.discard(item.uid)

    def render_later(self, item: TranscriptItem, key: DocKey, font: QFont, dark: bool) -> None:
        """A reply that just finished streaming is rendered once more as a whole (what a
        reopened session shows); its growing document stays on screen until that
        render has its colours too."""
        if self._finals.get(item.uid) != key:
            self._finals[item.uid] = key
            self.work.add(self._whole_render(item, key, font, dark))

    def _whole_render(self, item: TranscriptItem, key: DocKey, font: QFont, dark: bool) -> Job:
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setDefaultFont(font)
        doc.setMarkdown(item.text)
        runs: CodeRuns = []
        style_code(doc, 0, dark, runs)
        doc.setTextWidth(key[2])
        for position, lines in runs:
            yield None
            if self._finals.get(item.uid) != key:
                return
            yield from colour_steps(doc, position, lines, dark)
        if self._finals.get(item.uid) == key:
            del self._finals[item.uid]
            self._install(key, doc)
