"""Compaction: a long session's older turns become a note the model wrote; the
marker is visible, the originals stay stored, the note is reused."""

from __future__ import annotations

import asyncio
from pathlib import Path

from openworker_qt.core import events as ev
from openworker_qt.core.context import (
    COMPACTED,
    SUMMARY_HEADER,
    SUMMARY_SYSTEM,
    compaction_cut,
    estimate_tokens,
)
from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.messages import Capabilities
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.storage.usage import session_usage
from openworker_qt.tools.files import file_tools
from tests.core.helpers import StaticResolver, collect
from tests.core.test_context import assert_calls_have_results, history

CAPS = Capabilities(context_window=16_000)
NOTE = "NOTES: the user asked forty questions about the files; all were answered."


def summariser(*turns: dict) -> dict[str, list[dict]]:
    return {SUMMARY_SYSTEM[:40]: list(turns) or [{"text": NOTE, "usage": {
        "input_tokens": 9_000, "output_tokens": 40}}]}


def engine_on(store: ConversationStore, sid: str, provider: ScriptedProvider, tmp_path: Path) -> TurnEngine:
    return TurnEngine(session_id=sid, store=store, resolver=StaticResolver(provider),
                      model="anthropic:claude-sonnet-4-5", tools=ToolRegistry(file_tools()),
                      workspace=tmp_path, compaction=True)


def summary_requests(provider: ScriptedProvider) -> list:
    return [r for r in provider.requests if r.system.startswith(SUMMARY_SYSTEM)]


def main_requests(provider: ScriptedProvider) -> list:
    return [r for r in provider.requests if not r.system.startswith(SUMMARY_SYSTEM)]


async def test_a_long_session_is_summarised_once_and_the_note_reused(tmp_path: Path) -> None:
    db = Database(tmp_path / "app.db")
    store = ConversationStore(db)
    sid = store.create_session(model="anthropic:claude-sonnet-4-5").id
    old = history(40)
    for msg in old:
        store.append(sid, msg)
    provider = ScriptedProvider([{"text": "done"}, {"text": "again"}, {"text": "after restart"}],
                                caps=CAPS, by_system=summariser())
    engine = engine_on(store, sid, provider, tmp_path)
    events = await collect(engine.run("and now?"))

    # One summary call, with the older questions in it, then the turn's own call.
    [asked] = summary_requests(provider)
    assert "question 0" in str(asked.messages[0]["content"]) and not asked.tools
    [sent] = main_requests(provider)
    assert sent.messages[0]["role"] == "user"
    assert sent.messages[0]["content"].startswith(SUMMARY_HEADER) and NOTE in sent.messages[0]["content"]
    assert sent.messages[-1] == {"role": "user", "content": "and now?"}
    assert len(sent.messages) < len(old) and "question 0 " not in str(sent.messages[1:])
    assert_calls_have_results(sent.messages[1:])
    assert sum(estimate_tokens(m) for m in sent.messages) < 16_000 * 0.75
    # A visible marker, no trimming needed.
    kinds = [e.kind for e in events if isinstance(e, ev.NoticeAdded)]
    assert kinds == [COMPACTED]
    assert events[-1].status == "completed"
    assert events[-1].usage == {"input_tokens": 9_000, "output_tokens": 40}
    # The originals stay stored (in the database too), the note beside them.
    stored = store.load(sid)
    assert stored[: len(old)] == old
    note = next(m for m in stored if m.get("kind") == COMPACTED)
    assert note["role"] == "notice" and note["summary"] == NOTE
    assert 0 < note["covers"] < len(old) and "summarised" in note["text"]
    # What the summary cost counts in the session's usage.
    assert session_usage(db, sid)[0].usage.input_tokens == 9_000

    # The next turn reuses the note: no second summary.
    await collect(engine.run("one more"))
    assert len(summary_requests(provider)) == 1
    assert main_requests(provider)[-1].messages[0]["content"].endswith(NOTE)

    # So does an engine rebuilt from the store (a restart).
    again = engine_on(store, sid, provider, tmp_path)
    await collect(again.run("still there?"))
    assert len(summary_requests(provider)) == 1
    assert main_requests(provider)[-1].messages[0] == main_requests(provider)[0].messages[0]
    db.close()


async def test_a_failed_summary_falls_back_to_trimming(tmp_path: Path) -> None:
    db = Database(tmp_path / "app.db")
    store = ConversationStore(db)
    sid = store.create_session().id
    for msg in history(40):
        store.append(sid, msg)
    provider = ScriptedProvider([{"text": "done"}], caps=CAPS,
                                by_system=summariser({"error": "overloaded", "error_kind": "server"}))
    events = await collect(engine_on(store, sid, provider, tmp_path).run("and now?"))
    assert events[-1].status == "completed"
    kinds = [e.kind for e in events if isinstance(e, ev.NoticeAdded)]
    assert kinds == ["context_trimmed"]
    assert not any(m.get("kind") == COMPACTED for m in store.load(sid))
    db.close()


async def test_a_later_note_builds_on_the_previous_one(tmp_path: Path) -> None:
    db = Database(tmp_path / "app.db")
    store = ConversationStore(db)
    sid = store.create_session().id
    for msg in history(40):
        store.append(sid, msg)
    provider = ScriptedProvider([{"text": "done"}, {"text": "done too"}], caps=CAPS,
                                by_system=summariser())
    engine = engine_on(store, sid, provider, tmp_path)
    await collect(engine.run("first"))
    for msg in history(25):  # the session goes on for long
        store.append(sid, msg)
        engine.history.append(msg)
    await collect(engine.run("second"))
    first, second = summary_requests(provider)
    assert "Notes so far" not in str(first.messages) and NOTE in str(second.messages)
    notes = [m for m in store.load(sid) if m.get("kind") == COMPACTED]
    assert len(notes) == 2 and notes[1]["covers"] > notes[0]["covers"]
    db.close()


def test_the_cut_never_separates_a_call_from_its_result() -> None:
    msgs = history(20)
    sizes = [estimate_tokens(m) for m in msgs]
    for keep in (10, 500, 2_000, 10_000):
        cut = compaction_cut(msgs, sizes, 0, keep)
        assert cut is not None and msgs[cut]["role"] in ("user", "assistant")
        assert_calls_have_results(msgs[cut:])
        ids = {c["id"] for m in msgs[:cut] for c in m.get("tool_calls") or []}
        assert ids <= {m["tool_call_id"] for m in msgs[:cut] if m["role"] == "tool"}
    assert compaction_cut(msgs, sizes, len(msgs) - 1, 100) is None


async def test_stop_while_the_summary_is_written(tmp_path: Path) -> None:
    db = Database(tmp_path / "app.db")
    store = ConversationStore(db)
    sid = store.create_session().id
    for msg in history(40):
        store.append(sid, msg)
    slow = {"chunks": ["NOTES", " more"] * 50, "delay": 0.05}
    provider = ScriptedProvider([{"text": "never"}], caps=CAPS, by_system=summariser(slow))
    engine = engine_on(store, sid, provider, tmp_path)
    events = []
    async for event in engine.run("and now?"):
        events.append(event)
        if isinstance(event, ev.UserMessageAdded):
            asyncio.get_running_loop().call_later(0.2, engine.request_interrupt)
    assert isinstance(events[-2], ev.Interrupted) and events[-1].status == "interrupted"
    assert main_requests(provider) == []  # the turn's own call never went out
    stored = store.load(sid)
    assert not any(m.get("kind") == COMPACTED for m in stored)
    assert stored[-1]["kind"] == "interrupted"
    db.close()
