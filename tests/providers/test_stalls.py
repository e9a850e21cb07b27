"""Stalled, overloaded and disconnecting providers, through the real SDKs over loopback.

Timeouts are configured short (tenths of a second) so each case runs quickly; the
only timing assertions are generous upper bounds proving a stall is no longer a
90-second wait per attempt.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core.provider_api import ModelRequest, ProviderError, RetryChunk, TextChunk
from openworker_qt.providers.anthropic import AnthropicProvider
from openworker_qt.providers.factories import LOCAL_FIRST_EVENT, internal_config, network_options
from openworker_qt.providers.gemini import GeminiProvider
from openworker_qt.providers.openai_chat import OpenAIChatProvider
from openworker_qt.providers.retry import RetryPolicy, StreamTimeouts
from openworker_qt.providers.router import build_router
from tests.providers.helpers import OPEN_PROVIDERS, SleepRecorder, drain_into, user
from tests.providers.stubs import Reply, StubServer, sse

# ----------------------------------------------------------------- wire formats

START = {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-haiku-4-5", "content": [], "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 5, "output_tokens": 1}}}


def anthropic_events(text: str) -> list[dict[str, Any]]:
    return [
        START,
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}, "usage": {"output_tokens": 3}},
        {"type": "message_stop"},
    ]


def anthropic_body(text: str) -> str:
    return sse(*anthropic_events(text), event_names=True)


def openai_body(text: str) -> str:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    return sse(chunk({"role": "assistant", "content": text}), chunk({}, "stop")) + "data: [DONE]\n\n"


def gemini_candidate(text: str) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5}}


def gemini_body(text: str) -> str:
    return sse(gemini_candidate(text), sep="\r\n\r\n")


Maker = Callable[..., Any]
SDKS: dict[str, tuple[Maker, str, str, Callable[[str], str]]] = {
    "anthropic": (
        lambda stub, **kw: AnthropicProvider(api_key="k", base_url=stub.url, **kw),
        "/v1/messages", "claude-haiku-4-5", anthropic_body,
    ),
    "openai": (
        lambda stub, **kw: OpenAIChatProvider(api_key="k", base_url=stub.url + "/v1", **kw),
        "/v1/chat/completions", "gpt-4o", openai_body,
    ),
    "gemini": (
        lambda stub, **kw: GeminiProvider(api_key="k", base_url=stub.url, **kw),
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent", "gemini-2.5-flash", gemini_body,
    ),
}
LABELS = {"anthropic": "Anthropic", "openai": "OpenAI", "gemini": "Google Gemini"}


def streaming(body: str, **kw: Any) -> Reply:
    return Reply(body=body, content_type="text/event-stream", **kw)


def make(sdk: str, stub: StubServer, *, first_event: float = 5.0, stall: float = 5.0,
         attempts: int = 3, sleep: SleepRecorder | None = None, **kw: Any) -> Any:
    provider = SDKS[sdk][0](
        stub,
        retry=RetryPolicy(attempts=attempts, base_delay=0.001, max_delay=0.01),
        timeouts=StreamTimeouts(first_event=first_event, stall=stall),
        sleep=sleep or SleepRecorder(),
        **kw,
    )
    OPEN_PROVIDERS.append(provider)
    return provider


async def run(provider: Any, model: str) -> tuple[list[Any], ProviderError | None]:
    """Every chunk the stream yielded, and the error it ended with (if any)."""
    chunks: list[Any] = []
    try:
        await drain_into(provider.stream(ModelRequest(model, [user("hi")])), chunks)
    except ProviderError as exc:
        return chunks, exc
    return chunks, None


def text_of(chunks: list[Any]) -> str:
    return "".join(c.text for c in chunks if isinstance(c, TextChunk))


def retries(chunks: list[Any]) -> list[RetryChunk]:
    return [c for c in chunks if isinstance(c, RetryChunk)]


# ------------------------------------------------------------------ stalls


@pytest.mark.parametrize("sdk", list(SDKS))
async def test_silence_before_any_output_is_a_typed_timeout_retried_with_waiting_chunks(
    stub: StubServer, sdk: str
) -> None:
    _, path, model, body = SDKS[sdk]
    stub.add("POST", path, streaming(body("never"), stall_after=0))  # headers, then nothing
    began = time.monotonic()
    chunks, err = await run(make(sdk, stub, first_event=0.3, stall=30.0), model)
    elapsed = time.monotonic() - began
    assert err is not None and err.kind == "timeout"
    assert f"{LABELS[sdk]} did not start answering within 0.3 s (tried 3 times)" in str(err)
    assert len(stub.seen) == 3 and text_of(chunks) == ""
    assert [(r.provider, r.attempt, r.max_attempts, r.kind, r.reason) for r in retries(chunks)] == [
        (LABELS[sdk], 2, 3, "timeout", "no answer for 0.3 s"),
        (LABELS[sdk], 3, 3, "timeout", "no answer for 0.3 s"),
    ]
    assert elapsed < 60  # generous: three attempts, not three 90-second waits


@pytest.mark.parametrize("sdk", list(SDKS))
async def test_the_wait_for_the_first_byte_is_first_event_not_the_idle_limit(
    stub: StubServer, sdk: str
) -> None:
    _, path, model, body = SDKS[sdk]
    stub.add("POST", path, streaming(body("worth the wait"), delay=0.8))
    chunks, err = await run(make(sdk, stub, first_event=10.0, stall=0.2), model)
    assert err is None and text_of(chunks) == "worth the wait"
    assert len(stub.seen) == 1 and retries(chunks) == []


async def test_gemini_bytes_of_a_slow_first_event_count_as_an_answer(stub: StubServer) -> None:
    # A gateway answering with a JSON array (no alt=sse) sends one element slowly:
    # no event is complete for a second, but bytes keep coming.
    _, path, model, _ = SDKS["gemini"]
    body = json.dumps([gemini_candidate("slow but alive " * 4)], indent=2)
    stub.add("POST", path, Reply(body=body, content_type="application/json", chunking=24, pace=0.05))
    assert len(body) // 24 * 0.05 > 0.6  # the element takes longer than first_event to arrive
    chunks, err = await run(make("gemini", stub, first_event=0.3, stall=3.0), model)
    assert err is None and text_of(chunks) == "slow but alive " * 4
    assert len(stub.seen) == 1 and retries(chunks) == []


async def test_gemini_silence_after_some_bytes_is_the_idle_limit(stub: StubServer) -> None:
    # Once the answer's content started (a first text part), silence is the idle limit.
    _, path, model, _ = SDKS["gemini"]
    first = 'data: {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hel"}]}}]}\r\n\r\n'
    partial = first + 'data: {"candidates": [{"content": {"role": "model", "parts": [{"text": "lo'
    stub.add("POST", path, streaming(partial + '"}]}}]}\r\n\r\n', stall_after=len(partial)))
    began = time.monotonic()
    chunks, err = await run(make("gemini", stub, first_event=30.0, stall=0.3, attempts=2), model)
    assert err is not None and err.kind == "timeout"
    assert "Google Gemini stopped sending mid-answer: nothing arrived for 0.3 s" in str(err)
    assert text_of(chunks) == "Hel" and len(stub.seen) == 1  # shown: not replayed
    assert time.monotonic() - began < 25  # the 30-second first-event limit never applied


async def test_gemini_silence_after_bytes_but_before_content_is_the_first_event_limit(
    stub: StubServer,
) -> None:
    # Bytes of an event that never completes are not the answer: the first-byte limit
    # still bounds the silence (a long idle limit does not apply yet).
    _, path, model, _ = SDKS["gemini"]
    partial = 'data: {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hel'
    stub.add("POST", path, streaming(partial + 'lo"}]}}]}\r\n\r\n', stall_after=len(partial)))
    chunks, err = await run(make("gemini", stub, first_event=0.3, stall=30.0, attempts=2), model)
    assert err is not None and err.kind == "timeout"
    assert "Google Gemini opened the answer but sent nothing of it within 0.3 s" in str(err)
    assert [r.reason for r in retries(chunks)] == ["answer opened, no words for 0.3 s"] and len(stub.seen) == 2


async def test_keepalive_comments_keep_an_openai_compatible_stream_alive(stub: StubServer) -> None:
    # OpenRouter and DeepSeek send SSE comments while a request waits; the SDK drops them.
    _, path, model, body = SDKS["openai"]
    stub.add("POST", path, streaming(": PROCESSING\n\n" * 20 + body("done"), chunking=14, pace=0.05))
    chunks, err = await run(make("openai", stub, first_event=0.3, stall=3.0), model)
    assert err is None and text_of(chunks) == "done" and len(stub.seen) == 1


# ------------------------------------------------------------- overloaded


def overloaded_529(**headers: str) -> Reply:
    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    return Reply(status=529, body=json.dumps(body), headers=headers)


async def test_anthropic_529_is_overloaded_and_honours_retry_after(stub: StubServer) -> None:
    stub.add("POST", "/v1/messages", overloaded_529(**{"retry-after": "2"}),
             overloaded_529(**{"retry-after-ms": "250"}), streaming(anthropic_body("back")))
    sleep = SleepRecorder()
    chunks, err = await run(make("anthropic", stub, sleep=sleep), "claude-haiku-4-5")
    assert err is None and text_of(chunks) == "back"
    assert sleep.delays == [2.0, 0.25] and len(stub.seen) == 3
    assert [(r.attempt, r.kind, r.reason, r.delay) for r in retries(chunks)] == [
        (2, "overloaded", "overloaded", 2.0), (3, "overloaded", "overloaded", 0.25)]


async def test_in_stream_overloaded_error_before_any_text_is_retried(stub: StubServer) -> None:
    failing = sse(START, {"type": "ping"},
                  {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
                  event_names=True)
    stub.add("POST", "/v1/messages", streaming(failing), streaming(anthropic_body("second try")))
    chunks, err = await run(make("anthropic", stub), "claude-haiku-4-5")
    assert err is None and text_of(chunks) == "second try"
    assert [r.kind for r in retries(chunks)] == ["overloaded"] and len(stub.seen) == 2


async def test_overloaded_to_the_end_says_so(stub: StubServer) -> None:
    stub.add("POST", "/v1/messages", overloaded_529(**{"retry-after": "0"}))
    chunks, err = await run(make("anthropic", stub, attempts=2), "claude-haiku-4-5")
    assert err is not None and err.kind == "overloaded" and err.status == 529
    assert "overloaded" in str(err) and "(tried 2 times)" in str(err) and len(stub.seen) == 2


async def test_retry_after_beyond_the_cap_fails_at_once_saying_when(stub: StubServer) -> None:
    stub.add("POST", "/v1/messages", overloaded_529(**{"retry-after": "125"}))
    sleep = SleepRecorder()
    chunks, err = await run(make("anthropic", stub, sleep=sleep), "claude-haiku-4-5")
    assert err is not None and err.kind == "overloaded" and err.retry_after == 125
    assert "Anthropic asked to wait 2 min 5 s before trying again; try again after " in str(err)
    assert len(stub.seen) == 1 and sleep.delays == [] and retries(chunks) == []


async def test_gemini_503_unavailable_and_openai_503_overloaded(stub: StubServer) -> None:
    gem = {"error": {"code": 503, "message": "The model is overloaded. Please try again later.", "status": "UNAVAILABLE"}}
    stub.add("POST", SDKS["gemini"][1], Reply(status=503, body=json.dumps(gem)), streaming(gemini_body("ok")))
    oai = {"error": {"message": "The engine is currently overloaded, please try again later", "type": "server_error"}}
    stub.add("POST", SDKS["openai"][1], Reply(status=503, body=json.dumps(oai), headers={"retry-after": "1"}),
             streaming(openai_body("ok")))
    for sdk in ("gemini", "openai"):
        sleep = SleepRecorder()
        chunks, err = await run(make(sdk, stub, sleep=sleep), SDKS[sdk][2])
        assert err is None and text_of(chunks) == "ok"
        assert [r.kind for r in retries(chunks)] == ["overloaded"]
    assert sleep.delays == [1.0]


# ----------------------------------------------------------- disconnects


@pytest.mark.parametrize("sdk", ["anthropic", "openai"])
async def test_disconnect_after_text_was_shown_is_worded_as_such_and_not_retried(
    stub: StubServer, sdk: str
) -> None:
    _, path, model, body = SDKS[sdk]
    full = body("partial answer")
    cut = full.index("\n\n", full.index("partial answer")) + 5  # a few bytes into the next event
    stub.add("POST", path, streaming(full, cut_after=cut), streaming(body("never asked")))
    chunks, err = await run(make(sdk, stub), model)
    assert err is not None and err.kind == "network"
    assert f"the connection to {LABELS[sdk]} dropped mid-answer (the part already shown is kept)" in str(err)
    assert "could not reach" not in str(err)
    assert text_of(chunks) == "partial answer" and len(stub.seen) == 1 and retries(chunks) == []


async def test_disconnect_before_anything_was_shown_is_retried(stub: StubServer) -> None:
    full = anthropic_body("hello")
    stub.add("POST", "/v1/messages", streaming(full, cut_after=full.index("content_block_start")),
             streaming(anthropic_body("hello")))
    chunks, err = await run(make("anthropic", stub), "claude-haiku-4-5")
    assert err is None and text_of(chunks) == "hello"
    assert [(r.kind, r.reason) for r in retries(chunks)] == [("network", "connection problem")]


async def test_unreachable_server_still_says_could_not_reach() -> None:
    provider = AnthropicProvider(api_key="k", base_url="http://127.0.0.1:9", retry=RetryPolicy(attempts=1))
    OPEN_PROVIDERS.append(provider)
    _, err = await run(provider, "claude-haiku-4-5")
    assert err is not None and err.kind == "network" and "could not reach" in str(err)
    assert "dropped" not in str(err)


# --------------------------------------------------------------- config


def test_default_timeouts_and_local_servers() -> None:
    options = network_options({"providers": {}, "custom": {}}, "anthropic")
    assert options["timeouts"] == StreamTimeouts(first_event=30.0, stall=60.0, connect=10.0)
    assert options["retry"].attempts == 4 and options["retry"].max_retry_after == 60.0
    assert network_options({}, "ollama")["timeouts"].first_event == LOCAL_FIRST_EVENT
    local = {"custom": {"lab": {"base_url": "http://localhost:8080/v1"}}}
    assert network_options(local, "lab")["timeouts"].first_event == LOCAL_FIRST_EVENT


def test_bad_timeout_settings_are_named() -> None:
    with pytest.raises(ProviderError, match=r"providers\.timeouts\.idle .* above 0 \(it is 'soon'\)"):
        network_options({"timeouts": {"idle": "soon"}}, "anthropic")
    with pytest.raises(ProviderError, match=r"unknown setting providers\.gemini\.timeouts\.first_byte"):
        network_options({"providers": {"gemini": {"timeouts": {"first_byte": 5}}}}, "gemini")
    with pytest.raises(ProviderError, match=r"providers\.timeouts\.attempts .* whole number"):
        network_options({"timeouts": {"attempts": 2.5}}, "anthropic")
    # Not a table at all: refused too, not silently ignored.
    with pytest.raises(ProviderError, match="providers.timeouts .*must be a table"):
        network_options(internal_config({"providers": {"timeouts": 5}}), "anthropic")
    with pytest.raises(ProviderError, match="providers.gemini.timeouts .*must be a table"):
        network_options({"providers": {"gemini": {"timeouts": 30}}}, "gemini")


async def test_timeouts_come_from_config(stub: StubServer, tmp_path: Path) -> None:
    from openworker_qt.storage.config import Config

    config = Config({"providers": {
        "timeouts": {"first_event": 30, "attempts": 2},
        "anthropic": {"base_url": stub.url, "timeouts": {"first_event": 0.3}},
    }})
    router = build_router(config, lambda name: "k", sleep=SleepRecorder())
    provider, model = router.resolve("anthropic:claude-haiku-4-5")
    OPEN_PROVIDERS.append(provider)
    stub.add("POST", "/v1/messages", streaming(anthropic_body("x"), stall_after=0))
    chunks, err = await run(provider, model)
    assert err is not None and "did not start answering within 0.3 s (tried 2 times)" in str(err)
    assert len(stub.seen) == 2 and len(retries(chunks)) == 1


# ------------------------------------------------ through the engine and the CLI


async def test_engine_shows_the_wait_keeps_the_partial_answer_and_retries(
    stub: StubServer, tmp_path: Path
) -> None:
    from openworker_qt.cli.terminal import TerminalRenderer
    from openworker_qt.core import events as ev
    from openworker_qt.core.engine import TurnEngine
    from openworker_qt.core.history import MemoryHistory
    from tests.core.helpers import StaticResolver

    full = anthropic_body("partial answer")
    stub.add("POST", "/v1/messages",
             overloaded_529(**{"retry-after": "0"}),
             streaming(full, cut_after=full.index("\n\n", full.index("partial answer")) + 5),
             streaming(anthropic_body("the whole answer")))
    engine = TurnEngine(session_id="s1", store=MemoryHistory(), workspace=tmp_path,
                        resolver=StaticResolver(make("anthropic", stub)), model="claude-haiku-4-5")
    events = [e async for e in engine.run("hi")]

    kinds = [e.type for e in events]
    assert kinds.index("provider_retrying") < kinds.index("assistant_delta")
    waiting = next(e for e in events if isinstance(e, ev.ProviderRetrying))
    assert (waiting.provider, waiting.attempt, waiting.max_attempts, waiting.kind) == ("Anthropic", 2, 3, "overloaded")
    assert waiting.text() == "Waiting for Anthropic · retrying 2/3 (overloaded)"
    error = next(e for e in events if isinstance(e, ev.ErrorOccurred))
    assert error.kind == "network" and error.retryable
    assert "the connection to Anthropic dropped mid-answer" in error.message
    assert events[-1].status == "error"
    partial = [m for m in engine.history if m["role"] == "assistant"]
    assert partial[-1]["content"] == "partial answer" and partial[-1]["partial"] == "error"
    assert len(stub.seen) == 2  # text was shown: the guard did not replay it

    out = io.StringIO()
    renderer = TerminalRenderer(out, color=False)
    for event in events:
        renderer.render(event)
    lines = out.getvalue().splitlines()
    assert "· Waiting for Anthropic · retrying 2/3 (overloaded)" in lines
    assert any(line.startswith("Error: ") and "dropped mid-answer" in line for line in lines)

    again = [e async for e in engine.retry()]  # the user's Retry
    assert again[-1].status == "completed"
    assert engine.history[-1]["content"] == "the whole answer"


async def test_stop_while_waiting_to_retry_ends_the_turn_at_once(stub: StubServer, tmp_path: Path) -> None:
    from openworker_qt.core import events as ev
    from openworker_qt.core.engine import TurnEngine
    from openworker_qt.core.history import MemoryHistory
    from tests.core.helpers import StaticResolver

    stub.add("POST", "/v1/messages", overloaded_529(**{"retry-after": "50"}))
    provider = AnthropicProvider(api_key="k", base_url=stub.url)  # real sleep, default policy
    OPEN_PROVIDERS.append(provider)
    engine = TurnEngine(session_id="s1", store=MemoryHistory(), workspace=tmp_path,
                        resolver=StaticResolver(provider), model="claude-haiku-4-5")
    began = time.monotonic()
    events = []
    async for event in engine.run("hi"):
        events.append(event)
        if isinstance(event, ev.ProviderRetrying):
            assert event.delay == 50.0 and event.text().startswith("Waiting for Anthropic · retrying 2/4 in 50 s")
            engine.request_interrupt()
    assert [e.type for e in events][-2:] == ["interrupted", "turn_end"]
    assert events[-1].status == "interrupted"
    assert len(stub.seen) == 1 and time.monotonic() - began < 30  # not the 50-second wait


# ------------------------------------------------------ errors inside a stream


async def test_openai_compatible_in_stream_error_is_classified(stub: StubServer) -> None:
    # OpenRouter reports an upstream failure as a chunk with "error" in a 200 stream.
    err = sse({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [],
               "error": {"code": 502, "message": "Upstream provider is overloaded"}})
    stub.add("POST", SDKS["openai"][1], streaming(err), streaming(openai_body("ok")))
    chunks, error = await run(make("openai", stub), "gpt-4o")
    assert error is None and text_of(chunks) == "ok"
    assert [r.kind for r in retries(chunks)] == ["overloaded"]


def test_responses_failure_events_are_classified() -> None:
    from types import SimpleNamespace

    from openworker_qt.providers.errors import stream_error

    limited = stream_error(SimpleNamespace(type="error", code="rate_limit_exceeded", message="slow down"))
    assert limited.kind == "rate_limit" and "slow down" in limited.message
    failed = stream_error(SimpleNamespace(code="server_error", message="The server had an error"))
    assert failed.kind == "server" and failed.transient
    assert stream_error({"code": 503, "message": "Service Unavailable"}).kind == "server"
    assert stream_error({"type": "overloaded_error", "message": "Overloaded"}).kind == "overloaded"
    assert not stream_error({"code": "invalid_prompt", "message": "bad"}).transient


# ------------------------------------------------- the answer opened, no words yet


def openai_role_first(text: str) -> str:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    return sse(chunk({"role": "assistant", "content": ""}), chunk({"content": text}),
               chunk({}, "stop")) + "data: [DONE]\n\n"


OPENED_FIRST = {
    "anthropic": ("/v1/messages", "claude-haiku-4-5", anthropic_body,
                  lambda body: body.index("content_block_start")),
    "openai": ("/v1/chat/completions", "gpt-4o", openai_role_first,
               lambda body: body.index("\n\n") + 2),
}


def opened(chunks: list[Any]) -> list[Any]:
    from openworker_qt.core.provider_api import OpenedChunk

    return [c for c in chunks if isinstance(c, OpenedChunk)]


@pytest.mark.parametrize("sdk", list(OPENED_FIRST))
async def test_an_answer_opened_before_its_words_is_said_at_once_and_once(
        stub: StubServer, sdk: str) -> None:
    path, model, body, _ = OPENED_FIRST[sdk]
    stub.add("POST", path, streaming(body("Hello there")))
    chunks, error = await run(make(sdk, stub), model)
    assert error is None and text_of(chunks) == "Hello there"
    first_text = next(i for i, c in enumerate(chunks) if isinstance(c, TextChunk))
    marks = opened(chunks)
    assert [type(c).__name__ for c in chunks[:first_text]] == ["OpenedChunk"]
    assert len(marks) == 1 and marks[0].provider == LABELS[sdk]


async def test_an_answer_whose_first_chunk_has_words_says_nothing_of_opening(
        stub: StubServer) -> None:
    stub.add("POST", "/v1/chat/completions", streaming(openai_body("Hi")))
    chunks, error = await run(make("openai", stub), "gpt-4o")
    assert error is None and text_of(chunks) == "Hi" and opened(chunks) == []


@pytest.mark.parametrize("sdk", list(OPENED_FIRST))
async def test_opened_then_silent_says_what_it_waits_for_before_the_limit_ends_it(
        stub: StubServer, sdk: str) -> None:
    from openworker_qt.core import events as ev
    from openworker_qt.core.engine import TurnEngine
    from openworker_qt.core.history import MemoryHistory
    from tests.core.helpers import StaticResolver

    path, model, body, opened_at = OPENED_FIRST[sdk]
    full = body("never sent")
    stub.add("POST", path, streaming(full, stall_after=opened_at(full)))
    provider = make(sdk, stub, first_event=0.3, stall=5.0, attempts=1)
    engine = TurnEngine(session_id="s1", store=MemoryHistory(), workspace=Path("."),
                        resolver=StaticResolver(provider), model=model)
    events = [e async for e in engine.run("hi")]
    kinds = [e.type for e in events]
    assert "answer_opened" in kinds and kinds.index("answer_opened") < kinds.index("error")
    said = next(e for e in events if isinstance(e, ev.AnswerOpened))
    assert said.provider == LABELS[sdk]
    assert said.text() == f"{LABELS[sdk]} started its answer; waiting for the first words"
    error = next(e for e in events if isinstance(e, ev.ErrorOccurred))
    assert "opened the answer but sent nothing of it within 0.3 s" in error.message
    assert events[-1].status == "error"
