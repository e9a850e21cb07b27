"""Usage from a server that reports none (issue 31.5): asked for where the server
takes ``stream_options``, read from llama.cpp's ``timings``, else estimated (one
token per four characters) and shown as an estimate: stored with
``estimated_tokens``, totalled by the database, "~… (estimated)" in the status bar,
in ``show`` and in an automation's run. The real openai SDK against a stub on
127.0.0.1; the engine and the store are the app's own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.provider_api import ModelRequest
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.domain.usage import Usage, estimate_tokens
from openworker_qt.providers.compat import custom_vendor
from openworker_qt.providers.openai_chat import OpenAIChatProvider
from openworker_qt.providers.pricing import describe
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.storage.paths import app_paths
from openworker_qt.storage.usage import ModelUsage, scan_session_usage, session_usage
from tests.cli.test_cli import owq
from tests.core.helpers import StaticResolver, collect
from tests.providers.helpers import OPEN_PROVIDERS, fast, user
from tests.providers.helpers import collect as collect_stream
from tests.providers.stubs import Reply, StubServer, sse

PATH = "/v1/chat/completions"
ANSWER = "Hello there, okapi counter!"


def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **extra}


def no_usage_stream(text: str = ANSWER) -> Reply:
    """A stream with no usage anywhere (no ``usage`` chunk, no ``timings``)."""
    return Reply(body=sse(chunk({"role": "assistant", "content": text[:5]}),
                          chunk({"content": text[5:]}), chunk({}, "stop")) + "data: [DONE]\n\n",
                 content_type="text/event-stream")


def local(stub: StubServer) -> OpenAIChatProvider:
    provider = OpenAIChatProvider(custom_vendor("llamacpp", {"base_url": stub.url + "/v1"}),
                                  base_url=stub.url + "/v1", **fast())
    OPEN_PROVIDERS.append(provider)  # closed with the stub (an engine's too, not only collect's)
    return provider


def test_the_estimate_is_four_characters_a_token_rounded_up() -> None:
    assert [estimate_tokens(t) for t in ("", "a", "abcd", "abcde")] == [0, 1, 1, 2]
    u = Usage(input_tokens=1_234, output_tokens=20, estimated_tokens=1_254)
    assert u.estimated and describe(u) == "~1.2k in · 20 out (estimated)"
    part = Usage(input_tokens=10_000, output_tokens=100, estimated_tokens=300)
    assert not part.estimated and describe(part) == "10k in · 100 out (300 estimated)"
    assert describe(Usage(input_tokens=5, output_tokens=1)) == "5 in · 1 out"


async def test_a_stream_without_usage_is_estimated_and_marked(stub: StubServer) -> None:
    stub.add("POST", PATH, no_usage_stream())
    out = await collect_stream(local(stub), ModelRequest(model="gemma", messages=[user("hi")]))
    body = stub.seen[0].body
    assert body["stream_options"] == {"include_usage": True}  # asked for, not given
    assert out.text == ANSWER
    prompt = json.dumps([body["messages"], body.get("tools")], ensure_ascii=False)
    usage = out.finish.usage
    assert usage["output_tokens"] == estimate_tokens(ANSWER) == 7
    assert usage["input_tokens"] == estimate_tokens(prompt)
    assert usage["estimated_tokens"] == usage["input_tokens"] + usage["output_tokens"]


async def test_a_non_streamed_answer_without_usage_is_estimated(stub: StubServer) -> None:
    stub.add("POST", PATH, Reply(body=json.dumps({
        "id": "x", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": ANSWER}}]})))
    out = await collect_stream(OpenAIChatProvider(
        custom_vendor("llamacpp", {"base_url": stub.url + "/v1", "stream": False}),
        base_url=stub.url + "/v1", **fast()), ModelRequest(model="gemma", messages=[user("hi")]))
    assert out.finish.usage["output_tokens"] == 7
    assert Usage.of(out.finish.usage).estimated


async def test_llama_cpp_timings_on_a_non_streamed_answer_are_counts(stub: StubServer) -> None:
    stub.add("POST", PATH, Reply(body=json.dumps({
        "id": "x", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": ANSWER}}],
        "timings": {"prompt_n": 31, "predicted_n": 9}})))
    out = await collect_stream(OpenAIChatProvider(
        custom_vendor("llamacpp", {"base_url": stub.url + "/v1", "stream": False}),
        base_url=stub.url + "/v1", **fast()), ModelRequest(model="gemma", messages=[user("hi")]))
    assert out.finish.usage == {"input_tokens": 31, "output_tokens": 9}


async def test_a_server_usage_chunk_is_a_count_not_an_estimate(stub: StubServer) -> None:
    usage = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
             "choices": [], "usage": {"prompt_tokens": 40, "completion_tokens": 7, "total_tokens": 47}}
    stub.add("POST", PATH, Reply(body=sse(chunk({"content": ANSWER}), chunk({}, "stop"), usage)
                                 + "data: [DONE]\n\n", content_type="text/event-stream"))
    out = await collect_stream(local(stub), ModelRequest(model="gemma", messages=[user("hi")]))
    assert out.finish.usage == {"input_tokens": 40, "output_tokens": 7}


@pytest.mark.asyncio
async def test_the_estimate_is_stored_and_totalled(stub: StubServer, tmp_path: Path) -> None:
    stub.add("POST", PATH, no_usage_stream(), no_usage_stream("Bye."))
    db = Database(app_paths().database)
    store = ConversationStore(db)
    model = "llamacpp:gemma"
    sid = store.create_session(model=model, workspace=str(tmp_path)).id
    engine = TurnEngine(session_id=sid, store=store, resolver=StaticResolver(local(stub)),
                        model=model, tools=ToolRegistry(), workspace=tmp_path)
    first = await collect(engine.run("hi"))
    second = await collect(engine.run("again"))
    turns = [Usage.of(first[-1].usage), Usage.of(second[-1].usage)]
    assert all(t.estimated for t in turns)
    [reply, _] = [m for m in store.load(sid) if m["role"] == "assistant"]
    assert reply["usage"]["estimated_tokens"] == turns[0].input_tokens + turns[0].output_tokens
    [row] = session_usage(db, sid)
    assert row == ModelUsage(model, turns[0] + turns[1], 2) and row.usage.estimated
    assert scan_session_usage(db, sid) == [row]
    db.close()

    out = owq("show", sid, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    total = describe(turns[0] + turns[1])
    assert total.startswith("~") and total.endswith(" (estimated)")
    assert f"· Session total: {total}" in out.stdout


def test_the_status_bar_says_the_figure_is_estimated(tmp_path: Path, qloop: Any) -> None:
    from openworker_qt.qt.usage_reader import UsageReader
    from openworker_qt.ui.usage_label import UsageLabel

    db = Database(app_paths().database)
    store = ConversationStore(db)
    sid = store.create_session(model="llamacpp:gemma", workspace=str(tmp_path)).id
    store.append(sid, {"role": "user", "content": "hi"})
    store.append(sid, {"role": "assistant", "content": "hello", "model": "llamacpp:gemma",
                       "usage": {"input_tokens": 1_180, "output_tokens": 40,
                                 "estimated_tokens": 1_220}})
    label = UsageLabel(UsageReader(db, lambda: None))
    label.show_session(sid)
    assert label._task is not None
    qloop.run_until_complete(label._task)
    assert label.text() == "~1.2k tokens (estimated)"
    assert "~1.2k in · 40 out (estimated)" in label.toolTip()

    # A session where the rest was counted says how much is estimated.
    store.append(sid, {"role": "assistant", "content": "more", "model": "llamacpp:gemma",
                       "usage": {"input_tokens": 9_000, "output_tokens": 800}})
    label.refresh()
    assert label._task is not None
    qloop.run_until_complete(label._task)
    assert label.text() == "11k tokens (1.2k estimated)"
    db.close()
