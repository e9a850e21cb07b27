"""The transcript reducer's rules, and the model that announces its changes.

The equivalence over real engine runs is in test_transcript_equivalence.py; here
are the cases a scripted model cannot produce (an event kind from a newer engine,
a provider that replaces streamed text with nothing, call ids reused across
turns) and the rules of the inbox overlay.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from openworker_qt.core import events as ev
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.qt.transcript_reducer import TranscriptReducer, items_from_history
from tests.qt.helpers import fields_of

SID = "s"


def _call(cid: str, name: str = "write_file") -> dict[str, Any]:
    return {"id": cid, "type": "function",
            "function": {"name": name, "arguments": json.dumps({"path": "a.txt"})}}


def _assistant(*calls: str, text: str | None = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"role": "assistant", "content": text}
    if calls:
        msg["tool_calls"] = [_call(c) for c in calls]
    return msg


@dataclass(frozen=True, slots=True, kw_only=True)
class ProviderRetrying:
    """An event kind this reducer has never heard of (as a newer engine may send)."""

    session_id: str
    attempt: int
    type: Literal["provider_retrying"] = "provider_retrying"


def test_an_unknown_event_kind_changes_no_row() -> None:
    reducer = TranscriptReducer()
    reducer.apply_event(ev.UserMessageAdded(session_id=SID, message={"role": "user", "content": "hi"}))
    reducer.apply_event(ev.AssistantDelta(session_id=SID, text="Hel"))
    before = fields_of(reducer.rows)
    reducer.apply_event(ProviderRetrying(session_id=SID, attempt=2))
    assert fields_of(reducer.rows) == before
    reducer.apply_event(ev.AssistantDelta(session_id=SID, text="lo"))  # the stream goes on
    assert reducer.rows[-1].text == "Hello" and reducer.rows[-1].streaming


def test_streamed_text_replaced_by_nothing_leaves_no_row(qtmodeltester) -> None:
    stored = [{"role": "user", "content": "hi"}, _assistant("c1")]
    model = TranscriptModel()
    model.reset(SID, [])
    model.apply(ev.UserMessageAdded(session_id=SID, message=stored[0]))
    model.append_text("draft that the provider withdrew")
    assert model.rowCount() == 2 and model.items[-1].streaming
    model.apply(ev.AssistantMessage(session_id=SID, message=stored[1]))
    assert fields_of(model.items) == fields_of(items_from_history(stored))
    assert [r.kind for r in model.items] == ["user", "tool"]
    qtmodeltester.check(model)


def test_a_reused_call_id_names_the_newest_call() -> None:
    history = [
        {"role": "user", "content": "one"}, _assistant("call_1"),
        {"role": "tool", "tool_call_id": "call_1", "status": "ok", "content": "first"},
        {"role": "user", "content": "two"}, _assistant("call_1"),
    ]
    live = TranscriptReducer()
    for msg in history[:4]:
        live.apply_message(msg)
    live.apply_event(ev.AssistantMessage(session_id=SID, message=history[4]))
    live.apply_event(ev.ToolProposed(session_id=SID, call_id="call_1", name="write_file",
                                     arguments={"path": "a.txt"}, risk="write_local"))
    live.apply_event(ev.ToolFinished(session_id=SID, call_id="call_1", name="write_file",
                                     status="denied", result="second"))
    stored = items_from_history(
        [*history, {"role": "tool", "tool_call_id": "call_1", "status": "denied", "content": "second"}])
    assert fields_of(live.rows) == fields_of(stored)
    assert [(r.status, r.result) for r in stored if r.kind == "tool"] == [
        ("ok", "first"), ("denied", "second")]


def test_only_a_call_that_has_not_started_can_wait() -> None:
    reducer = TranscriptReducer()
    reducer.apply_messages([{"role": "user", "content": "go"}, _assistant("w1", "w2")])
    assert reducer.mark_awaiting("w1", 7, reason="writes a file", target="a.txt") is not None
    w1 = reducer.rows[1]
    assert (w1.status, w1.waiting_on, w1.reason, w1.target) == ("awaiting", 7, "writes a file", "a.txt")
    assert reducer.mark_resolved("w1", 8) is None  # another item: still waiting on 7
    assert w1.status == "awaiting"
    assert reducer.mark_resolved("w1", 7) is w1
    assert (w1.status, w1.waiting_on, w1.reason, w1.target) == ("pending", 0, "", "")
    # answered in another process: the engine moved on before the window heard of the item
    reducer.apply_event(ev.ToolStarted(session_id=SID, call_id="w2", name="write_file"))
    assert reducer.mark_awaiting("w2", 9) is None
    assert reducer.rows[2].status == "running"
    reducer.apply_message({"role": "tool", "tool_call_id": "w2", "status": "ok", "content": "done"})
    assert reducer.mark_awaiting("w2", 9) is None and reducer.mark_resolved("w2", 9) is None
    assert reducer.rows[2].status == "ok"
    assert reducer.mark_awaiting("nope", 10) is None


def test_a_result_ends_the_wait() -> None:
    reducer = TranscriptReducer()
    reducer.apply_messages([{"role": "user", "content": "go"}, _assistant("w1")])
    reducer.mark_awaiting("w1", 3, reason="why", target="a.txt")
    reducer.apply_event(ev.ToolFinished(session_id=SID, call_id="w1", name="write_file",
                                        status="interrupted", result="interrupted by user"))
    assert fields_of(reducer.rows) == fields_of(items_from_history([
        {"role": "user", "content": "go"}, _assistant("w1"),
        {"role": "tool", "tool_call_id": "w1", "status": "interrupted",
         "content": "interrupted by user"}]))


def test_model_marks_an_older_row_and_shows_it(qtbot, qtmodeltester, tmp_path) -> None:
    from openworker_qt.qt.transcript_pages import session_head
    from openworker_qt.storage.conversations import ConversationStore
    from openworker_qt.storage.db import Database

    store = ConversationStore(Database(tmp_path / "state.sqlite3"))
    sid = store.create_session(title="t", model="m").id
    for i in range(200):  # calls that never ran, a turn each
        store.append(sid, {"role": "user", "content": f"q{i}"})
        store.append(sid, {"role": "assistant", "content": None, "tool_calls": [_call(f"c{i}", "t")]})
    rows, pages = session_head(store, sid, limit=20)
    model = TranscriptModel()
    model.reset(sid, rows, pages=pages)
    located: list[str] = []
    model.located.connect(located.append)
    changed: list[int] = []
    model.dataChanged.connect(lambda top, _bottom: changed.append(top.row()))
    # Not read yet: looked up in a worker, then marked again (the window does).
    assert model.mark_awaiting("c2", 5, reason="asks") is None
    qtbot.waitUntil(lambda: located == ["c2"])
    row = model.mark_awaiting("c2", 5, reason="asks")
    assert row is not None and model.item(row).call_id == "c2"  # exposed to carry a card
    assert model.item(row).status == "awaiting" and model.item(row).reason == "asks"
    # A change to a row not exposed is kept, and shows when the row does.
    model.apply(ev.ToolFinished(session_id=sid, call_id="c199", name="t", status="ok", result="r"))
    assert model.tool_row("c199") is None
    assert model.item(model.reveal_call("c199") or 0).status == "ok"
    # The wait is laid over the row again when its page is read again.
    model.request_units(0)
    qtbot.waitUntil(lambda: not model.reading())
    assert model.item(model.tool_row("c2") or 0).status == "awaiting"
    assert model.mark_resolved("c2", 5) == model.tool_row("c2")
    assert model.item(model.tool_row("c2") or 0).status == "pending"
    assert changed
    qtmodeltester.check(model)


def test_model_and_reducer_build_the_same_rows_from_live_events(qtmodeltester) -> None:
    events: list[Any] = [
        ev.TurnStarted(session_id=SID, model="m"),
        ev.UserMessageAdded(session_id=SID, message={"role": "user", "content": "hi"}),
        ev.ReasoningDelta(session_id=SID, text="hmm"),
        ev.AssistantDelta(session_id=SID, text="Let me "),
        ev.AssistantDelta(session_id=SID, text="look."),
        ev.AssistantMessage(session_id=SID, message={
            "role": "assistant", "content": "Let me look.", "reasoning": "hmm",
            "tool_calls": [_call("r1", "read_file")]}),
        ev.ToolProposed(session_id=SID, call_id="r1", name="read_file", arguments={}, risk="read"),
        ev.ToolStarted(session_id=SID, call_id="r1", name="read_file"),
        ev.ToolFinished(session_id=SID, call_id="r1", name="read_file", status="ok",
                        result="text", display={"lines": 1}, rule="mode:auto"),
        ev.IterationEnded(session_id=SID, iteration=1),
        ev.AssistantDelta(session_id=SID, text="Half"),
        ev.ErrorOccurred(session_id=SID, message="upstream 503"),
        ev.TurnEnded(session_id=SID, status="error", iterations=2),
    ]
    reducer = TranscriptReducer()
    model = TranscriptModel()
    model.reset(SID, [])
    for event in events:
        reducer.apply_event(event)
        model.apply(event)
    assert fields_of(model.items) == fields_of(reducer.rows)
    assert [(r.kind, r.partial or r.notice_kind) for r in model.items] == [
        ("user", ""), ("assistant", ""), ("tool", ""), ("assistant", "error"), ("notice", "error")]
    qtmodeltester.check(model)


def test_a_running_call_shows_its_output_until_the_result_replaces_it() -> None:
    reducer = TranscriptReducer()
    reducer.apply_event(ev.ToolStarted(session_id="s", call_id="c1", name="run_shell"))
    for i in range(3):
        reducer.apply_event(ev.ToolProgress(session_id="s", call_id="c1", name="run_shell",
                                            text=f"line {i}\n"))
    row = reducer.rows[-1]
    assert row.status == "running" and row.progress == "line 0\nline 1\nline 2\n"
    reducer.apply_event(ev.ToolProgress(session_id="s", call_id="c1", name="run_shell",
                                        text="x" * 10_000))
    assert len(row.progress) == 4_000 and row.progress.endswith("x")
    reducer.apply_event(ev.ToolFinished(session_id="s", call_id="c1", name="run_shell",
                                        status="ok", result="done"))
    assert row.progress == "" and row.result == "done"
    # A piece arriving after the result changes nothing.
    reducer.apply_event(ev.ToolProgress(session_id="s", call_id="c1", name="run_shell",
                                        text="late"))
    assert row.progress == ""


def test_a_slack_message_reads_in_plain_words_without_loading_a_connector() -> None:
    """The reducer ("no Qt here") shows the Slack header in plain words with the header's
    own module: neither the Slack connector nor any other is imported for it."""
    code = (
        "import sys\n"
        "from openworker_qt.domain.slack_header import message_header\n"
        "from openworker_qt.qt.transcript_reducer import items_from_history\n"
        "text = message_header('U7', 'slack:C1:1.5', user_name='ana', channel_name='sales')\n"
        "rows = items_from_history([{'role': 'user', 'content': text + 'hi'}])\n"
        "print(repr(rows[0].text))\n"
        "print(sorted(m for m in sys.modules if m.startswith('openworker_qt.connectors')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["'From @ana in #sales\\nhi'", "[]"]
