"""Trimming a long session from a kept index (core.context.TrimIndex / fit_parts and
the engine's outbound cache) sends exactly what trimming the whole list every call
sent: compared with that algorithm, kept here as the reference, on varied histories."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core.context import (
    KEEP_RECENT_TOOL_RESULTS,
    OMITTED_MARKER,
    SHRUNK_RESULT_CHARS,
    SUMMARY_SYSTEM,
    Trim,
    TrimIndex,
    _shrink,
    budget_for,
    estimate_tokens,
    fit,
    fit_parts,
    latest_compaction,
    summary_message,
)
from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.history import MemoryHistory
from openworker_qt.core.messages import (
    Capabilities,
    order_tool_results,
    outbound_message,
)
from openworker_qt.core.provider_api import ModelRequest
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.tools.files import file_tools
from tests.core.helpers import StaticResolver, collect
from tests.core.test_context import assert_calls_have_results

PIXEL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="


# ------------------------------------------------- the reference: the whole list, every call

def reference_fit(
    messages: list[dict[str, Any]], budget: int, system_tokens: int = 0,
) -> tuple[list[dict[str, Any]], Trim]:
    """Trimming as it was done before the index: estimate and scan everything."""
    sizes = [estimate_tokens(m) for m in messages]
    total = sum(sizes) + system_tokens
    if total <= budget:
        return messages, Trim()
    out = list(messages)
    shrunk = 0
    tool_positions = [i for i, m in enumerate(out) if m.get("role") == "tool"]
    for i in tool_positions[:-KEEP_RECENT_TOOL_RESULTS] if KEEP_RECENT_TOOL_RESULTS else tool_positions:
        if total <= budget:
            break
        result = out[i]
        if len(str(result.get("content") or "")) > SHRUNK_RESULT_CHARS + 100:
            smaller = _shrink(result)
            size = estimate_tokens(smaller)
            total -= sizes[i] - size
            sizes[i] = size
            out[i] = smaller
            shrunk += 1
    if total <= budget:
        return out, Trim(shrunk_results=shrunk)
    starts = [i for i, m in enumerate(out) if i == 0 or m.get("role") == "user"]
    if len(starts) < 3:
        return out, Trim(shrunk_results=shrunk)
    cut = starts[1]
    k = 1
    while k < len(starts) - 1 and total > budget:
        end = starts[k + 1]
        total -= sum(sizes[cut:end])
        cut = end
        k += 1
    dropped = cut - starts[1]
    if dropped == 0:
        return out, Trim(shrunk_results=shrunk)
    marker = {"role": "user", "content": OMITTED_MARKER.format(n=dropped)}
    return [*out[: starts[1]], marker, *out[cut:]], Trim(shrunk_results=shrunk, dropped_messages=dropped)


# ------------------------------------------------------------------ varied histories

def varied(rng: random.Random, exchanges: int, *, first: str = "user") -> list[dict[str, Any]]:
    """Exchanges of every shape the outbound copy has: plain and long questions,
    pictures, steering (two user messages in a row), steps with several calls and
    results (short, long, with pictures, content given as parts), answers."""
    out: list[dict[str, Any]] = []
    if first == "assistant":
        out.append({"role": "assistant", "content": "Hello, what shall we do?"})
    call = 0
    for n in range(exchanges):
        shape = rng.random()
        if shape < 0.15:
            content: Any = [{"type": "text", "text": f"look {n}"},
                            {"type": "image_url", "image_url": {"url": PIXEL}}]
        elif shape < 0.25:
            content = f"long question {n} " + "q" * rng.randint(2_000, 9_000)
        else:
            content = f"question {n} " + "w" * rng.randint(0, 300)
        out.append({"role": "user", "content": content})
        if rng.random() < 0.1:
            out.append({"role": "user", "content": f"and also {n}"})
        for _step in range(rng.choice([0, 1, 1, 2, 3])):
            ids = [f"c{call + k}" for k in range(rng.choice([1, 1, 2, 3]))]
            call += len(ids)
            out.append({"role": "assistant", "content": rng.choice([None, "let me see"]),
                        "tool_calls": [{"id": i, "type": "function", "function": {
                            "name": "read_file", "arguments": json.dumps({"path": f"{i}.md"})}}
                            for i in ids]})
            for i in ids:
                kind = rng.random()
                result: dict[str, Any] = {"role": "tool", "tool_call_id": i, "name": "read_file"}
                if kind < 0.35:
                    result["content"] = "r" * rng.randint(1_601, 12_000)  # long: shrinkable
                elif kind < 0.45:
                    result["content"] = "exactly at the edge " + "e" * (SHRUNK_RESULT_CHARS + 80)
                elif kind < 0.55:
                    result["content"] = "a picture of the page"
                    result["attachments"] = [{"type": "image_url", "image_url": {"url": PIXEL}}]
                elif kind < 0.6:
                    # Content given as parts: its text estimate is small though its
                    # printed form is long, so shortening it costs tokens.
                    result["content"] = [{"type": "text", "text": "p"}] * 120
                else:
                    result["content"] = "short result " * rng.randint(1, 30)
                out.append(result)
        if rng.random() < 0.8:
            out.append({"role": "assistant", "content": f"answer {n} " + "a" * rng.randint(0, 2_000)})
    return out


def budgets(messages: Sequence[dict[str, Any]], rng: random.Random) -> list[int]:
    total = max(sum(estimate_tokens(m) for m in messages), 2)
    return sorted({total + 10, total, total - 1, *(rng.randint(1, total) for _ in range(12)),
                   total // 2, total // 10, 50, 1})


@pytest.mark.parametrize("seed", range(40))
def test_fit_sends_what_trimming_everything_sent(seed: int) -> None:
    rng = random.Random(seed)
    msgs = varied(rng, rng.randint(0, 40), first=rng.choice(["user", "user", "assistant"]))
    for budget in budgets(msgs, rng):
        for system in (0, 300):
            expected = reference_fit(msgs, budget, system)
            got = fit(msgs, budget, system)
            assert got == expected, (seed, budget, system)
            if got[1].dropped_messages:
                assert_calls_have_results(got[0][1:])


@pytest.mark.parametrize("seed", range(40))
def test_fit_over_parts_of_a_kept_index(seed: int) -> None:
    """What the engine does: a note in front, a slice of the kept index, a small tail."""
    rng = random.Random(1_000 + seed)
    msgs = varied(rng, rng.randint(1, 40))
    index = TrimIndex(msgs)
    for budget in budgets(msgs, rng):
        lo = rng.randint(0, len(msgs))
        hi = rng.randint(lo, len(msgs))
        head = [summary_message("NOTES: " + "n" * rng.randint(0, 3_000))] if rng.random() < 0.5 else []
        tail = varied(rng, rng.randint(0, 2))
        whole = [*head, *msgs[lo:hi], *tail]
        got = fit_parts([(TrimIndex(head), 0, len(head)), (index, lo, hi),
                         (TrimIndex(tail), 0, len(tail))], budget, 100)
        assert got == reference_fit(whole, budget, 100), (seed, budget, lo, hi)


def test_the_index_leaves_its_messages_as_they_were() -> None:
    msgs = varied(random.Random(7), 30)
    before = json.dumps(msgs)
    index = TrimIndex(msgs)
    out, trim = fit_parts([(index, 0, len(msgs))], 2_000)
    assert trim.shrunk_results and trim.dropped_messages
    assert json.dumps(msgs) == before and index.messages == msgs
    # Asked again (as the engine does on the next call), the same answer.
    assert fit_parts([(index, 0, len(msgs))], 2_000) == (out, trim)


# --------------------------------------------------------------- the engine's requests

def reference_request(engine: TurnEngine, caps: Capabilities) -> list[dict[str, Any]]:
    """The outbound messages of the engine's history made from scratch: every
    message copied, ordered, the note in force, trimmed (and the reminder)."""
    history = engine.history
    copies = [outbound_message(m, caps, pdf_mode=engine.pdf_mode) for m in history]
    messages: list[Any] = order_tool_results([m for m in copies if m is not None])
    note = latest_compaction(history)
    if note is not None:
        covers = int(note.get("covers") or 0)
        skip = sum(1 for m in copies[:covers] if m is not None)
        messages = [summary_message(str(note.get("summary") or "")), *messages[skip:]]
    schemas = len(json.dumps(engine.tools.schemas(), ensure_ascii=False)) if caps.tools else 0
    system = (len(engine.system_prompt) + schemas) // 4
    messages, _trim = reference_fit(messages, budget_for(caps.context_window), system)
    if engine.reminder is not None and (reminder := engine.reminder(history)):
        messages = [*messages, {"role": "user", "content": reminder}]
    return messages


class Checked:
    """Every request the engine builds, with the reference made at the same moment."""

    def __init__(self, engine: TurnEngine) -> None:
        self.pairs: list[tuple[list[Any], list[Any]]] = []
        real = engine._build_request

        async def build(model_id: str, caps: Capabilities) -> ModelRequest:
            request = await real(model_id, caps)
            self.pairs.append((list(request.messages), reference_request(engine, caps)))
            return request

        engine._build_request = build

    def assert_same(self) -> None:
        assert self.pairs
        for k, (sent, expected) in enumerate(self.pairs):
            assert sent == expected, f"request {k} differs"
        self.pairs.clear()


def long_engine(
    tmp_path: Path, *, seed: int, compaction: bool = False, window: int = 24_000,
) -> tuple[TurnEngine, ScriptedProvider, MemoryHistory]:
    store = MemoryHistory()
    for msg in varied(random.Random(seed), 60):
        store.append("s1", msg)
    turns = [{"tool_calls": [{"name": "list_files", "arguments": {}},
                             {"name": "list_files", "arguments": {"path": "."}}]},
             {"text": "done " + "d" * 3_000}] * 6
    provider = ScriptedProvider(
        [*turns, {"text": "ok", "repeat": True}],
        caps=Capabilities(context_window=window, vision=True),
        by_system={SUMMARY_SYSTEM[:40]: [{"text": "NOTES: the work so far.", "repeat": True}]},
    )
    smaller = ScriptedProvider([{"text": "ok", "repeat": True}],
                               caps=Capabilities(context_window=16_000))
    engine = TurnEngine(session_id="s1", store=store,
                        resolver=StaticResolver(provider, smaller=smaller),
                        model="m", tools=ToolRegistry(file_tools()), workspace=tmp_path,
                        compaction=compaction, system_prompt="You help. " * 50,
                        reminder=lambda h: f"{len(h)} messages so far")
    return engine, provider, store


@pytest.mark.parametrize("seed", range(6))
async def test_engine_sends_what_trimming_everything_sent(tmp_path: Path, seed: int) -> None:
    engine, provider, _ = long_engine(tmp_path, seed=seed)
    checked = Checked(engine)
    for turn in range(8):
        events = await collect(engine.run(f"turn {turn}: " + "x" * 500))
        assert events[-1].status == "completed"
    assert len(checked.pairs) > 8 and any(
        "omitted" in str(m.get("content")) for sent, _ in checked.pairs for m in sent)
    checked.assert_same()


async def test_engine_with_compaction_sends_the_note_and_what_follows(tmp_path: Path) -> None:
    engine, provider, _ = long_engine(tmp_path, seed=3, compaction=True)
    checked = Checked(engine)
    for turn in range(8):
        await collect(engine.run(f"turn {turn}"))
    # Notes were written along the way, and each changed what the next call sent.
    assert sum(1 for m in engine.history if m.get("kind") == "compacted") >= 1
    assert any(str(sent[0].get("content")).startswith("[Summary") for sent, _ in checked.pairs)
    checked.assert_same()


async def test_a_history_changed_under_the_engine_is_copied_again(tmp_path: Path) -> None:
    """The cache holds each stored message's outbound copy: when the history is
    edited (its last message replaced, its end cut and written again, or the list
    replaced), the next request is made from the history as it is now."""
    engine, provider, store = long_engine(tmp_path, seed=5)
    checked = Checked(engine)
    await collect(engine.run("first"))
    checked.assert_same()

    # The last message replaced by an edited one.
    engine.history[-1] = {**engine.history[-1], "content": "an edited answer"}
    await collect(engine.run("second"))
    sent = checked.pairs[0][0]
    assert {"role": "assistant", "content": "an edited answer"} in sent
    checked.assert_same()

    # The second turn cut off and written again: as many messages, others.
    asked = [m.get("content") for m in engine.history].index("second")
    written = len(engine.history) - asked
    del engine.history[asked:]
    engine.history.append({"role": "user", "content": "asked again"})
    engine.history.extend({"role": "assistant" if k % 2 else "user", "content": f"again {k}"}
                          for k in range(1, written))
    await collect(engine.run("third"))
    sent = checked.pairs[0][0]
    assert {"role": "user", "content": "asked again"} in sent
    assert "second" not in [m.get("content") for m in sent]
    checked.assert_same()

    # The whole history replaced by a shorter one (a session loaded again).
    engine.history = engine.log.messages = [{"role": "user", "content": "a fresh start"}]
    await collect(engine.run("fourth"))
    assert checked.pairs[0][0][0] == {"role": "user", "content": "a fresh start"}
    checked.assert_same()


async def test_a_smaller_window_is_trimmed_anew(tmp_path: Path) -> None:
    """The kept copies are per capability set: another model, another index."""
    engine, provider, _ = long_engine(tmp_path, seed=2, window=200_000)
    checked = Checked(engine)
    await collect(engine.run("first"))
    assert not any("omitted" in str(m.get("content")) for m in checked.pairs[0][0])
    engine.switch_model("smaller:m")
    await collect(engine.run("second"))
    assert any("omitted" in str(m.get("content")) for m in checked.pairs[-1][0])
    checked.assert_same()
