"""Rendering work the transcript does a slice at a time ends as a whole render would:
a large arrival of streamed text, code colours, a finished reply's whole render."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QFont, QTextDocument

from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.ui.markdown_style import colour_steps, style_markdown
from openworker_qt.ui.transcript_text import UPDATE_BUDGET, StreamingDocument, apply_colours
from openworker_qt.ui.transcript_view import TranscriptView
from openworker_qt.ui.transcript_work import SlicedWork
from tests.ui.test_streaming_code import _blocks, _colours, _loaded_highlighter, _looks

BLOCK = "Here is the `next` part:\n\n```python\n" + "".join(
    f"value_{i} = compute({i}, 'text')\n" for i in range(40)) + "```\n\n"


def _whole(text: str) -> QTextDocument:
    doc = QTextDocument()
    doc.setDefaultFont(QFont())
    doc.setMarkdown(text)
    style_markdown(doc)
    return doc


def test_a_large_arrival_is_rendered_over_several_updates_and_ends_whole(qapp) -> None:
    _loaded_highlighter()
    text = BLOCK * 8 + "The end, still being typed"
    assert len(text) > 3 * UPDATE_BUDGET
    stream = StreamingDocument(QFont(), 480)
    stream.update("Hello.\n\n")
    target = "Hello.\n\n" + text
    stream.update(target)
    steps = 1
    assert stream.behind and len(stream.text) < len(target)  # a part now, the rest later
    while stream.behind:
        before = len(stream.text)
        stream.update(target)
        assert len(stream.text) > before  # every update brings more
        steps += 1
    assert steps >= 3 and stream.text == target
    assert _looks(stream.doc) == _looks(_whole(target))
    apply_colours(stream.doc, stream.take_colours(), False)
    assert _colours(stream.doc) == _colours(_whole(target))


def test_colouring_stops_when_its_lines_were_rendered_again(qapp) -> None:
    _loaded_highlighter()
    doc = _whole("```python\nx = 1\ny = 2\n```\n")
    runs: list[tuple[int, list[str]]] = []
    fresh = QTextDocument()
    fresh.setMarkdown("```python\nx = 1\ny = 2\n```\n")
    style_markdown(fresh, 0, False, runs)
    assert runs and _colours(fresh) != _colours(doc)  # listed, not coloured
    fresh.setMarkdown("Something else entirely.\n")
    assert list(colour_steps(fresh, *runs[0], False)) == []  # its lines are gone: nothing
    fresh.setMarkdown("```python\nx = 1\ny = 2\n```\n")
    style_markdown(fresh)
    assert _colours(fresh) == _colours(doc)


def test_sliced_work_runs_every_job_and_waits_a_frame_where_asked(qtbot) -> None:
    owner = QObject()
    repaints: list[int] = []
    work = SlicedWork(owner, lambda: repaints.append(1))
    done: list[str] = []

    def job(name: str, frames: int):  # type: ignore[no-untyped-def]
        for _ in range(frames):
            yield True
        for _ in range(3):
            yield None
        done.append(name)

    work.add(job("a", 0))
    work.add(job("b", 2))
    assert work.pending and not done  # nothing runs before the loop turns
    qtbot.waitUntil(lambda: not work.pending)
    assert done == ["a", "b"] and repaints


def test_a_finished_reply_is_rendered_whole_and_coloured_after_its_stream(qtbot) -> None:
    _loaded_highlighter()
    view = TranscriptView()
    qtbot.addWidget(view)
    model = TranscriptModel()
    reply = TranscriptItem("assistant", text=BLOCK[: len(BLOCK) // 2], streaming=True)
    model.reset("s1", [TranscriptItem("user", text="Write the code"), reply])
    view.setModel(model)
    view.resize(900, 700)
    view.show()
    qtbot.waitExposed(view)
    delegate = view.delegate
    qtbot.waitUntil(lambda: reply.uid in delegate._streams)
    reply.text, reply.streaming = BLOCK * 3, False
    reply.touch()
    growing = delegate._streams[reply.uid].doc
    assert delegate.body_doc(reply) is growing  # shown until the whole render is ready
    model.changed(1)
    qtbot.waitUntil(lambda: reply.uid not in delegate._streams)
    doc = delegate.body_doc(reply)
    assert _blocks(doc) == _blocks(_whole(BLOCK * 3))
    qtbot.waitUntil(lambda: not delegate.rendering.work.pending)
    assert _colours(doc) == _colours(_whole(BLOCK * 3))
