"""Long sessions open newest-first; streamed Markdown renders incrementally.

The model is checked without a widget first (paging, tool lookup, qtmodeltester),
then the real window: a big session shows its newest rows and scrolling to the top
moves its window to older ones; a streamed reply is Markdown once it ends.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.qt.transcript_pages import session_head
from openworker_qt.qt.transcript_reducer import newest_page, older_items
from openworker_qt.ui.transcript_text import StreamingDocument, stable_prefix
from tests.ui.conftest import posted_marker, run, until


def _history(turns: int) -> list[dict[str, Any]]:
    msgs: list[dict[str, Any]] = []
    for i in range(turns):
        msgs.append({"role": "user", "content": f"question {i}"})
        msgs.append({"role": "assistant", "content": None, "tool_calls": [{
            "id": f"c{i}", "type": "function",
            "function": {"name": "read_file", "arguments": json.dumps({"path": f"f{i}"})}}]})
        msgs.append({"role": "tool", "tool_call_id": f"c{i}", "status": "ok", "content": f"body {i}"})
        msgs.append({"role": "assistant", "content": f"answer **{i}**"})
    return msgs


def _fill(runtime: Any, turns: int) -> str:
    info = runtime.conversations.create_session(title="long", model="scripted:x")
    with runtime.db.transaction() as conn:
        for m in _history(turns):
            conn.execute("INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, ?)",
                         (info.id, m["role"], json.dumps(m), time.time()))
    return str(info.id)


# ------------------------------------------------------------------ no widget


def test_pages_split_at_a_user_message_and_join_up(make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    sid = _fill(desktop.runtime, 100)  # 400 messages, 300 rows
    store = desktop.runtime.conversations
    page, before = newest_page(store, sid, limit=50)
    assert before is not None
    assert page[0].kind == "user"  # widened back to a user message
    assert all(r.status == "ok" for r in page if r.kind == "tool")  # calls keep their results
    older = older_items(store, sid, before, chunk=37)
    every = older + page
    assert len(every) == 300
    assert [r.text for r in every if r.kind == "user"] == [f"question {i}" for i in range(100)]
    small, none = newest_page(store, sid, limit=10_000)
    assert none is None and len(small) == 300


def test_model_moves_its_window_and_finds_tools(qtbot, qtmodeltester, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    sid = _fill(desktop.runtime, 500)  # 2,000 messages, 1,500 rows
    items, pages = session_head(desktop.runtime.conversations, sid, limit=100)
    model = TranscriptModel()
    model.reset(sid, items, pages=pages)
    assert model.paged() and model.at_end() and model.rowCount() == len(items)
    qtmodeltester.check(model)
    assert model.tool_row("c499") is not None
    assert model.tool_row("c0") is None  # not read
    model.request_units(0)
    qtbot.waitUntil(lambda: not model.reading())
    assert model.item(0).text == "question 0" and model.tool_row("c0") == 1
    assert not model.at_end() and model.tool_row("c499") is None
    qtmodeltester.check(model)
    # A row that arrives while the window is elsewhere joins the tail, unseen...
    assert model.append(TranscriptItem("tool", call_id="new", name="t")) == -1
    assert model.tool_row("new") is None and model.find_tool("new") is not None
    # ...and revealing it moves the window to the end at once.
    row = model.reveal_call("new")
    assert row == model.rowCount() - 1 and model.at_end()
    qtmodeltester.check(model)


def test_a_page_read_for_a_session_no_longer_shown_is_dropped(qtbot, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    sid = _fill(desktop.runtime, 500)
    items, pages = session_head(desktop.runtime.conversations, sid, limit=100)
    model = TranscriptModel()
    model.reset(sid, items, pages=pages)
    model.request_units(0)
    model.reset("b", [TranscriptItem("user", text="hi")])
    model.wait_pages()  # read: its result is queued to the model …
    qtbot.waitUntil(posted_marker())  # … and delivered
    assert model.rowCount() == 1 and model.item(0).text == "hi"
    assert model.cached_pages() == 0 and not model.paged()


def test_stable_prefix_ignores_blank_lines_inside_fences() -> None:
    assert stable_prefix("para\n\nnext") == len("para\n\n")
    assert stable_prefix("a\n\n```\ncode\n\nmore") == len("a\n\n")
    done = "a\n\n```\ncode\n\nmore\n```\n\n"
    assert stable_prefix(done + "tail") == len(done)
    assert stable_prefix("no boundary yet") == 0


def test_streaming_document_matches_a_whole_render(qapp) -> None:
    from PySide6.QtGui import QFont, QTextDocument

    text = "# Title\n\nSome *emphasis*\n\n- a\n- b\n\n```python\nx = 1\n\ny = 2\n```\n\n" + (
        "lorem **bold** `code`\n\n" * 40)
    stream = StreamingDocument(QFont(), 600)
    for end in range(7, len(text) + 7, 7):
        stream.update(text[:end])
    whole = QTextDocument()
    whole.setMarkdown(text)
    assert stream.doc.toPlainText() == whole.toPlainText()
    assert stream.doc.blockCount() == whole.blockCount()

    def lists(doc: QTextDocument) -> list[bool]:
        block, out = doc.begin(), []
        while block.isValid():
            out.append(block.textList() is not None)
            block = block.next()
        return out

    assert lists(stream.doc) == lists(whole)
    stream.update("something else")  # not an append: rebuilt
    assert stream.doc.toPlainText() == "something else"


# --------------------------------------------------------------- real window


def test_long_session_shows_newest_rows_and_reads_older_on_scroll(qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    window = desktop.window
    sid = _fill(desktop.runtime, 500)  # 2,000 messages, 1,500 rows
    bar = window.view.verticalScrollBar()
    most = 0

    async def scenario() -> None:
        nonlocal most
        window.open_session(sid)
        await until(lambda: window.loaded() and window.transcript.rowCount(), what="load")
        first = window.transcript.rowCount()
        assert 0 < first < 1500
        assert window.transcript.items[-1].text == "answer **499**"
        await until(lambda: bar.value() == bar.maximum() and bar.maximum() > 0, what="at bottom")
        while window.transcript.has_older():
            top = window.transcript.item(0)
            bar.setValue(0)
            await until(lambda t=top: window.transcript.item(0) is not t, what="older rows")
            # the row that was on top is still where the user was reading
            await until(lambda: window.view._anchor is None, what="layout settled")
            rect = window.view.visualRect(window.transcript.index(window.transcript.items.index(top), 0))
            assert abs(rect.top()) <= 8
            most = max(most, window.transcript.rowCount())
        await until(lambda: bar.value() == 0 or window.transcript.item(0).text == "question 0",
                    what="the start")

    run(qloop, scenario)
    assert window.transcript.items[0].text == "question 0"
    assert most < 1000  # a window of the session, never all of it


def test_streamed_reply_is_markdown_when_it_ends(qtbot, qloop, make_desktop) -> None:
    chunks = ["Intro with **bo", "ld** text\n\n", "- one\n", "- two\n\n", "```\ncode\n", "```\n\nend"]
    desktop = make_desktop([{"chunks": chunks, "delay": 0.01}])
    window = desktop.window
    delegate = window.view.delegate
    seen_streaming: list[str] = []

    async def scenario() -> None:
        window.send("go", [])
        await until(lambda: len(window.transcript.items) > 1, what="reply row")
        row = window.transcript.items[1]
        while desktop.manager.is_running(window.session_id):
            if row.streaming and row.text:
                seen_streaming.append(delegate._doc(row, "body", 500).toPlainText())
            await asyncio.sleep(0.005)
        await until(lambda: not row.streaming, what="stream end")
        # the whole render is made a slice at a time and takes the growing one's place
        await until(lambda: row.uid not in delegate._streams, what="the whole render")

    run(qloop, scenario)
    row = window.transcript.items[1]
    assert row.text == "".join(chunks)
    assert seen_streaming and all("**" not in t for t in seen_streaming[1:])
    doc = delegate._doc(row, "body", 500)
    plain = doc.toPlainText()
    assert "**" not in plain and "```" not in plain and "Intro with bold text" in plain
    bold = doc.find("bold")
    assert bold.charFormat().fontWeight() > 500
    assert row.uid not in delegate._streams  # the finished reply is one whole render
