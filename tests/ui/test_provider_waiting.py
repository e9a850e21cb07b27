"""While a provider is retried, the transcript shows one transient "Waiting for …
· retrying n/N" line; it is never stored and goes away once the answer (or
anything else of the turn) arrives."""

from __future__ import annotations

import asyncio
from typing import Any

# Imported here, at collection, not first inside the qtmodeltester fixture: on
# Python 3.11.7, compiling it deep in a test's stack (after the CLI tests) raised
# "SystemError: AST constructor recursion depth mismatch" in the interpreter.
import pytestqt.modeltest  # noqa: F401

from openworker_qt.core import events as ev
from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.qt.transcript_reducer import WAITING
from tests.ui.conftest import run, until


def waiting(attempt: int, kind: str = "overloaded") -> ev.ProviderRetrying:
    return ev.ProviderRetrying(session_id="s", provider="Anthropic", attempt=attempt,
                               max_attempts=4, kind=kind, reason=kind, delay=2.0)


def test_one_waiting_row_updated_in_place_then_removed(qtmodeltester) -> None:
    model = TranscriptModel()
    model.reset("s", [TranscriptItem("user", text="hi")])
    model.apply(waiting(2))
    model.apply(waiting(3))
    assert model.rowCount() == 2
    row = model.item(1)
    assert (row.kind, row.notice_kind) == ("notice", WAITING)
    assert row.text == "Waiting for Anthropic · retrying 3/4 in 2 s (overloaded)"
    model.append_text("Hello")
    assert [(i.kind, i.text) for i in model.items] == [("user", "hi"), ("assistant", "Hello")]
    qtmodeltester.check(model)


def test_an_error_or_the_turn_end_replaces_the_waiting_row() -> None:
    model = TranscriptModel()
    model.reset("s", [TranscriptItem("user", text="hi")])
    model.apply(waiting(4, "timeout"))
    model.apply(ev.ErrorOccurred(session_id="s", message="Anthropic did not start answering", kind="timeout"))
    assert [(i.kind, i.notice_kind) for i in model.items] == [("user", ""), ("notice", "error")]
    model.apply(waiting(2))
    model.apply(ev.TurnEnded(session_id="s", status="error", iterations=0))
    assert [i.notice_kind for i in model.items] == ["", "error"]


def test_the_window_shows_the_wait_while_the_provider_retries(qloop, make_desktop) -> None:
    desktop = make_desktop([{"retries": 2, "delay": 0.2, "text": "answer"}])
    window = desktop.window
    seen: list[str] = []

    async def scenario() -> None:
        window.send("go", [])
        await until(lambda: window.transcript.session_id and window.transcript.items, what="user row")
        while desktop.manager.is_running(window.session_id):
            seen.extend(i.text for i in window.transcript.items if i.notice_kind == WAITING)
            await asyncio.sleep(0.01)

    run(qloop, scenario)
    assert "Waiting for Scripted · retrying 2/3 (overloaded)" in seen
    assert "Waiting for Scripted · retrying 3/3 (overloaded)" in seen
    items: list[Any] = window.transcript.items
    assert [i.kind for i in items] == ["user", "assistant"] and items[-1].text == "answer"
    stored = desktop.runtime.conversations.load(window.session_id)
    assert not any("Waiting for" in str(m.get("text") or m.get("content")) for m in stored)


def test_the_status_line_says_what_the_turn_waits_for_then_that_it_answers(
        qloop, make_desktop) -> None:
    """The provider opened its answer: the status says so at once (not a bare
    "Waiting for …" until the first word or the silence limit); once words stream in
    it says the model is answering, not waiting."""
    desktop = make_desktop([{"opened": True, "delay": 0.3, "chunks": ["Hel", "lo ", "there"]}])
    window = desktop.window
    seen: list[str] = []

    async def scenario() -> None:
        window.send("go", [])
        await until(lambda: window.transcript.session_id and window.transcript.items, what="user row")
        while desktop.manager.is_running(window.session_id):
            window.status_line.refresh()
            text = window.status_line.text()
            if not seen or seen[-1] != text:
                seen.append(text)
            await asyncio.sleep(0.01)

    run(qloop, scenario)
    opened = [t for t in seen if "started answering · waiting for the first words" in t]
    answering = [t for t in seen if "is answering" in t]
    assert opened and answering, seen
    assert seen.index(opened[0]) < seen.index(answering[0])
    # once words arrived it never again says it is only waiting
    after = seen[seen.index(answering[0]):]
    assert not any("waiting for the first words" in t or t.startswith("Waiting for")
                   for t in after), seen
