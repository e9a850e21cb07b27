"""Context-window management on the outbound copy, with a visible notice."""

from __future__ import annotations

from pathlib import Path

from openworker_qt.core import events as ev
from openworker_qt.core.context import Trim, budget_for, estimate_tokens, fit
from openworker_qt.core.history import MemoryHistory
from openworker_qt.core.messages import Capabilities
from tests.core.helpers import collect, make_engine


def exchange(n: int, size: int = 400) -> list[dict]:
    return [
        {"role": "user", "content": f"question {n} " + "q" * size},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{n}", "type": "function", "function": {"name": "read_file", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": f"c{n}", "name": "read_file", "content": "r" * (size * 10)},
        {"role": "assistant", "content": f"answer {n}"},
    ]


def history(n: int) -> list[dict]:
    return [m for i in range(n) for m in exchange(i)]


def assert_calls_have_results(messages: list[dict]) -> None:
    for i, msg in enumerate(messages):
        if msg["role"] == "tool":
            previous = messages[i - 1]
            assert previous["role"] in ("assistant", "tool")
            ids = {c["id"] for m in messages[:i] if m["role"] == "assistant" for c in m.get("tool_calls") or []}
            assert msg["tool_call_id"] in ids


def test_under_budget_nothing_changes() -> None:
    msgs = history(3)
    out, trim = fit(msgs, budget=1_000_000)
    assert out is msgs and not trim


def test_old_tool_results_shrink_first() -> None:
    msgs = history(10)
    total = sum(estimate_tokens(m) for m in msgs)
    out, trim = fit(msgs, budget=total - 2_000)
    assert trim.shrunk_results > 0 and trim.dropped_messages == 0
    assert len(out) == len(msgs)
    assert "characters trimmed" in out[2]["content"]
    assert out[-2]["content"] == msgs[-2]["content"]  # the latest results are intact
    assert msgs[2]["content"] == "r" * 4000  # input untouched


def test_oldest_exchanges_drop_with_a_marker() -> None:
    msgs = history(30)
    out, trim = fit(msgs, budget=3_000)
    assert trim.dropped_messages > 0
    assert out[0] == msgs[0]  # the original ask stays
    assert out[4]["role"] == "user" and "omitted" in out[4]["content"]
    assert out[-4:] == msgs[-4:]
    assert_calls_have_results(out)
    assert sum(estimate_tokens(m) for m in out) <= 3_000


def test_budget_leaves_room_for_the_reply() -> None:
    assert budget_for(128_000) < 128_000
    assert budget_for(2_000) == 1_000


async def test_engine_trims_outbound_and_says_so_once(tmp_path: Path) -> None:
    store = MemoryHistory()
    for msg in history(40):
        store.append("s1", msg)
    engine, provider = make_engine(
        [{"tool_calls": [{"name": "list_files", "arguments": {}}]}, {"text": "done"}],
        tmp_path, store=store, caps=Capabilities(context_window=16_000),
    )
    stored_before = len(engine.history)
    events = await collect(engine.run("and now?"))
    # Two model calls in this turn, both trimmed the same way: one notice.
    assert provider.calls == 2
    notices = [e for e in events if isinstance(e, ev.NoticeAdded) and e.kind == "context_trimmed"]
    assert len(notices) == 1 and "left out" in notices[0].text
    sent = provider.requests[0].messages
    assert len(sent) < stored_before
    assert sent[-1] == {"role": "user", "content": "and now?"}
    assert any("omitted" in str(m.get("content")) for m in sent)
    # Stored history keeps everything, plus the visible notice.
    assert engine.history[: stored_before] == history(40)
    kinds = [m.get("kind") for m in engine.history[stored_before:]]
    assert kinds.count("context_trimmed") == 1


def test_trim_description() -> None:
    assert "3 oldest message(s) left out" in Trim(dropped_messages=3).describe()
