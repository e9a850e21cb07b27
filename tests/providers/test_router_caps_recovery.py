"""Router, capability matrix, model listing, mangled tool-call recovery, error
classification and the retry/stall guard, without any server."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from openworker_qt.core.provider_api import (
    FinishChunk,
    OpenedChunk,
    ProviderError,
    StreamChunk,
    TextChunk,
)
from openworker_qt.providers.capabilities import capabilities_for
from openworker_qt.providers.compat import normalize_ollama_url
from openworker_qt.providers.errors import classify, retry_after_seconds
from openworker_qt.providers.models import list_models
from openworker_qt.providers.recovery import recover_tool_calls
from openworker_qt.providers.retry import RetryPolicy, StreamTimeouts, guarded_stream
from openworker_qt.providers.router import build_router, split_model
from openworker_qt.storage.config import Config
from tests.providers.helpers import SleepRecorder

# ------------------------------------------------------------------------ router


def test_split_model_prefixes_and_version_tags() -> None:
    known = {"anthropic", "ollama", "deepseek"}
    assert split_model("anthropic:claude-haiku-4-5", known) == ("anthropic", "claude-haiku-4-5")
    assert split_model("ollama:llama3.2:3b", known) == ("ollama", "llama3.2:3b")
    assert split_model("qwen2.5-coder:32b", known) == ("openai", "qwen2.5-coder:32b")
    assert split_model("gpt-4o", known) == ("openai", "gpt-4o")


def test_router_builds_lazily_caches_and_invalidates_after_key_change() -> None:
    keys: dict[str, str] = {}
    router = build_router(Config({"providers": {"ollama": {"base_url": "gpu:11434"}}}), keys.get)
    with pytest.raises(ProviderError) as err:
        router.resolve("deepseek:deepseek-chat")
    assert err.value.kind == "auth" and "DEEPSEEK_API_KEY" in str(err.value)
    assert str(err.value).startswith("[deepseek:deepseek-chat]")
    keys["DEEPSEEK_API_KEY"] = "k1"
    first, model = router.resolve("deepseek:deepseek-chat")
    assert model == "deepseek-chat" and router.resolve("deepseek:deepseek-reasoner")[0] is first
    keys["DEEPSEEK_API_KEY"] = "k2"
    assert router.resolve("deepseek:x")[0] is first  # cached until invalidated
    router.invalidate("deepseek")
    second = router.resolve("deepseek:x")[0]
    assert second is not first and second._api_key == "k2"
    ollama, tag = router.resolve("ollama:qwen2.5-coder:32b")
    assert tag == "qwen2.5-coder:32b" and ollama._base_url == "http://gpu:11434/v1"
    keys["ZAI_API_KEY"] = "z"
    glm, _ = router.resolve("glm:glm-4.6")
    assert glm.name == "zai" and router.resolve("zai:glm-4.6")[0] is glm  # alias shares the client
    keys["OPENAI_API_KEY"] = "sk"
    assert router.resolve("qwen2.5-coder:32b")[0].name == "openai"


def test_custom_openai_compatible_endpoint_from_config() -> None:
    config = Config({"providers": {"lab": {"base_url": "http://10.0.0.5:8000/v1/", "models": ["my-model"], "think_tags": True}}})
    router = build_router(config, {}.get)
    provider, model = router.resolve("lab:my-model")
    assert model == "my-model" and provider.name == "lab"
    assert provider._base_url == "http://10.0.0.5:8000/v1"
    assert provider.vendor.think_tags is True


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        (None, "http://localhost:11434/v1"),
        ("localhost:11434", "http://localhost:11434/v1"),
        ("http://box:11434/", "http://box:11434/v1"),
        ("http://box:11434/v1", "http://box:11434/v1"),
        ("https://box/api", "https://box/v1"),
    ],
)
def test_ollama_url_normalised(raw: str | None, want: str) -> None:
    assert normalize_ollama_url(raw) == want


# ------------------------------------------------------------------ capabilities


def test_capability_matrix() -> None:
    for p in ("anthropic", "gemini"):
        c = capabilities_for(p, "claude-sonnet-4-6" if p == "anthropic" else "gemini-2.5-pro")
        assert (c.tools, c.vision, c.pdf, c.parallel_tools, c.reasoning) == (True,) * 5
    assert capabilities_for("openai", "gpt-4o").pdf is True
    for p in ("zai", "kimi", "together", "ollama"):
        assert capabilities_for(p, "anything").pdf is False
    ollama = capabilities_for("ollama", "llama3.2")
    assert not ollama.vision and not ollama.parallel_tools
    assert capabilities_for("openai", "o4-mini").reasoning and capabilities_for("openai", "gpt-5").reasoning
    assert not capabilities_for("openai", "gpt-4o").reasoning
    unknown = capabilities_for("somewhere", "mystery")
    assert (unknown.vision, unknown.pdf, unknown.parallel_tools) == (False, False, False)
    over = {"ollama:llava*": {"vision": True}}
    assert capabilities_for("ollama", "llava:13b", over).vision
    assert not capabilities_for("ollama", "llama3.2", over).vision


def test_list_models_only_configured_providers() -> None:
    keys = {"ANTHROPIC_API_KEY": "x", "DEEPSEEK_API_KEY": "y"}
    listing = list_models(Config({"providers": {"ollama": {}}}), keys.get)
    assert [g.provider for g in listing] == ["anthropic", "deepseek", "ollama"]
    models = [e.model for e in listing[0].models]
    assert "anthropic:claude-sonnet-4-6" in models
    assert "ollama:qwen2.5-coder:32b" in [e.model for e in listing[2].models]
    assert list_models(None, {}.get) == []


# ---------------------------------------------------------------------- recovery

OFFERED = {"read_file", "search"}


@pytest.mark.parametrize(
    ("text", "calls", "rest"),
    [
        ('{"name": "read_file", "arguments": {"path": "a.md"}}', [("read_file", {"path": "a.md"})], ""),
        ('<tool_call>\n{"name": "search", "arguments": {"q": "x"}}\n</tool_call>', [("search", {"q": "x"})], ""),
        ('[{"name": "search", "arguments": {}}, {"name": "read_file", "parameters": {"path": "b"}}]', [("search", {}), ("read_file", {"path": "b"})], ""),
        ('{"name": "read_file", "arguments": "{\\"path\\": \\"c\\"}"}', [("read_file", {"path": "c"})], ""),
        ('I will read it.\n```json\n{"name": "read_file", "arguments": {"path": "d"}}\n```', [("read_file", {"path": "d"})], "I will read it."),
        ('read_file {"path": "e"}', [("read_file", {"path": "e"})], ""),
        ('search [{"q": 1}, {"q": 2}]', [("search", {"q": 1}), ("search", {"q": 2})], ""),
        ('{"type": "function", "function": {"name": "search", "arguments": {"q": "f"}}}', [("search", {"q": "f"})], ""),
    ],
)
def test_recovery_accepts(text: str, calls: list[tuple[str, dict[str, Any]]], rest: str) -> None:
    got = recover_tool_calls(text, OFFERED)
    assert got is not None
    assert [(c.name, json.loads(c.arguments)) for c in got.calls] == calls
    assert got.text == rest


@pytest.mark.parametrize(
    "text",
    [
        "Just prose about read_file and search.",
        '{"name": "Alice", "age": 30}',
        '{"name": "delete_everything", "arguments": {}}',
        '{"name": "search", "arguments": {}, "extra": 1}',
        'Example: {"name": "search", "arguments": {}} — that is how it looks.',
        '<tool_call>{"name": "rm", "arguments": {}}</tool_call>',
        '[{"name": "search", "arguments": {}}, {"name": "nope"}]',
    ],
)
def test_recovery_rejects(text: str) -> None:
    assert recover_tool_calls(text, OFFERED) is None


def test_recovery_needs_tools() -> None:
    assert recover_tool_calls('{"name": "search", "arguments": {}}', set()) is None


# ----------------------------------------------------------- errors and retries


class FakeStatusError(Exception):
    def __init__(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        super().__init__("boom")
        self.status_code = status
        self.body = body
        self.response = type("R", (), {"headers": headers or {}})()


@pytest.mark.parametrize(
    ("status", "body", "kind"),
    [
        (401, {"error": {"message": "bad key"}}, "auth"),
        (403, {"error": {"message": "no"}}, "permission"),
        (404, {"error": {"message": "no model"}}, "not_found"),
        (429, {"error": {"message": "slow"}}, "rate_limit"),
        (400, {"error": {"message": "prompt is too long: 210000 tokens > 200000 maximum"}}, "context_length"),
        (413, {"error": {"message": "too big"}}, "context_length"),
        (400, {"error": {"message": "bad"}}, "bad_request"),
        (500, {"error": {"message": "oops"}}, "server"),
        (529, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}, "overloaded"),
        (503, {"error": {"code": 503, "message": "The model is overloaded. Please try again later.", "status": "UNAVAILABLE"}}, "overloaded"),
        (503, {"error": {"message": "The engine is currently overloaded, please try again later", "type": "server_error"}}, "overloaded"),
        (503, "upstream connect error", "server"),
        (504, None, "timeout"),
    ],
)
def test_classify_by_status(status: int, body: Any, kind: str) -> None:
    err = classify(FakeStatusError(status, body), provider="p", model="m")
    assert err.kind == kind and err.status == status and str(err).startswith(f"[p:m] {kind}:")


def test_classify_transport_errors() -> None:
    assert classify(TimeoutError()).kind == "timeout"
    assert classify(ConnectionRefusedError()).kind == "network"
    assert classify(json.JSONDecodeError("x", "y", 0)).kind == "malformed"


def test_retry_after_forms() -> None:
    assert retry_after_seconds({"retry-after": "4"}) == 4.0
    assert retry_after_seconds({"retry-after-ms": "250"}) == 0.25
    assert retry_after_seconds({"retry-after": "Wed, 21 Oct 2015 07:28:10 GMT"}, now=1445412480.0) == 10.0
    assert retry_after_seconds({}, {"error": {"details": [{"retryDelay": "12s"}]}}) == 12.0


def test_backoff_is_bounded_and_jittered() -> None:
    policy = RetryPolicy(attempts=6, base_delay=1.0, max_delay=8.0)
    err = ProviderError("server", "x")
    lows = [policy.delay(n, err, lambda: 0.0) for n in range(1, 6)]
    highs = [policy.delay(n, err, lambda: 1.0) for n in range(1, 6)]
    assert lows == [0.5, 1.0, 2.0, 4.0, 4.0] and highs == [1.0, 2.0, 4.0, 8.0, 8.0]


@pytest.mark.asyncio
async def test_guard_does_not_retry_after_first_chunk_and_ignores_heartbeats() -> None:
    calls = 0

    def attempt() -> AsyncIterator[StreamChunk | None]:
        async def gen() -> AsyncIterator[StreamChunk | None]:
            nonlocal calls
            calls += 1
            for _ in range(5):
                await asyncio.sleep(0.05)
                yield None  # wire activity only: must not count as a stall
            yield TextChunk("a")
            raise ProviderError("server", "dropped")

        return gen()

    seen: list[StreamChunk] = []
    with pytest.raises(ProviderError):
        await _drain(guarded_stream(attempt, provider="p", model="m", timeouts=StreamTimeouts(0.2, 0.2), sleep=SleepRecorder()), seen)
    # (the wire activity before any words: the answer opened, said once)
    assert calls == 1 and seen == [OpenedChunk("p"), TextChunk("a")]


@pytest.mark.asyncio
async def test_guard_refuses_absurd_retry_after() -> None:
    def attempt() -> AsyncIterator[StreamChunk | None]:
        async def gen() -> AsyncIterator[StreamChunk | None]:
            raise ProviderError("rate_limit", "later", retry_after=3600)
            yield FinishChunk()

        return gen()

    sleep = SleepRecorder()
    with pytest.raises(ProviderError) as err:
        await _drain(guarded_stream(attempt, provider="p", model="m", sleep=sleep), [])
    assert err.value.retry_after == 3600 and sleep.delays == []


async def _drain(stream: AsyncIterator[StreamChunk], sink: list[StreamChunk]) -> None:
    async for c in stream:
        sink.append(c)
