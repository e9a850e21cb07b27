"""Where provider keys come from, and when they take effect.

Real turns through ``Runtime.session_manager()`` and the real SDKs against the
local stub: keys from the environment as every SDK reads them (keyring first),
a key stored while the app runs used on the next request, local and custom
servers with no key at all, environment keys redacted like stored ones, and
every key read done off the loop thread.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.provider_api import ProviderError
from openworker_qt.providers.router import build_router
from openworker_qt.runtime import Runtime, open_runtime
from openworker_qt.storage import secrets
from openworker_qt.storage.config import Config
from tests.providers.stubs import Reply, StubServer, sse

ENV_KEY = "env-key-1f2e3d4c5b6a79880"
STORED_KEY = "stored-key-a0b1c2d3e4f5a6b7"


# ----------------------------------------------------------------- wire replies


def openai_text(text: str = "Hello.") -> Reply:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    return Reply(content_type="text/event-stream", body=sse(
        chunk({"role": "assistant", "content": text}), chunk({}, "stop"), "[DONE]"))


def anthropic_text(text: str = "Hello.") -> Reply:
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": {
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-haiku-4-5",
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 3, "output_tokens": 1}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
         "usage": {"output_tokens": 2}},
        {"type": "message_stop"},
    ]
    return Reply(content_type="text/event-stream", body=sse(*events, event_names=True))


def gemini_text(text: str = "Hello.") -> Reply:
    body = {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                            "finishReason": "STOP"}]}
    return Reply(content_type="text/event-stream", body=sse(body, sep="\r\n\r\n"))


def configure(home: Path, toml: str) -> None:
    path = home / "config" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(toml, encoding="utf-8")


async def turn(rt: Runtime, model: str, text: str = "hi", session: str | None = None
               ) -> tuple[str, list[ev.Event]]:
    manager = rt.managers[0] if rt.managers else rt.session_manager()
    sid = session or manager.create_session(model=model, workspace=str(rt.paths.data)).id
    events = [e async for e in manager.run(sid, text)]
    return sid, events


def ended(events: list[ev.Event]) -> str:
    return next(e.status for e in events if isinstance(e, ev.TurnEnded))


def error(events: list[ev.Event]) -> str:
    return next((e.message for e in events if isinstance(e, ev.ErrorOccurred)), "")


# ------------------------------------------------------------ the environment


ENV_CASES = {
    # model, config section, base-url suffix, stub path, env var, request header
    "openai": ("openai:gpt-4o", "openai", "/v1", "/v1/chat/completions", "OPENAI_API_KEY",
               "authorization", openai_text),
    "anthropic": ("anthropic:claude-haiku-4-5", "anthropic", "", "/v1/messages",
                  "ANTHROPIC_API_KEY", "authorization", anthropic_text),
    "gemini": ("gemini:gemini-2.5-flash", "gemini", "",
               "/v1beta/models/gemini-2.5-flash:streamGenerateContent", "GEMINI_API_KEY",
               "x-goog-api-key", gemini_text),
    "google alias": ("gemini:gemini-2.5-flash", "gemini", "",
                     "/v1beta/models/gemini-2.5-flash:streamGenerateContent", "GOOGLE_API_KEY",
                     "x-goog-api-key", gemini_text),
    "vendor": ("deepseek:deepseek-chat", "deepseek", "/v1", "/v1/chat/completions",
               "DEEPSEEK_API_KEY", "authorization", openai_text),
    "custom": ("my-lab:qwen3", "my-lab", "/v1", "/v1/chat/completions", "MY_LAB_API_KEY",
               "authorization", openai_text),
}


@pytest.mark.parametrize("case", list(ENV_CASES))
async def test_keys_come_from_the_environment_as_the_sdks_read_them(
    case: str, stub: StubServer, isolated_state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model, section, suffix, path, var, header, reply = ENV_CASES[case]
    stub.add("POST", path, reply())
    configure(isolated_state, f'[providers.{section}]\nbase_url = "{stub.url}{suffix}"\n')
    monkeypatch.setenv(var, ENV_KEY)
    rt = open_runtime()
    try:
        _sid, events = await turn(rt, model)
    finally:
        await rt.stop()
        rt.close()
    assert ended(events) == "completed", error(events)
    assert ENV_KEY in stub.requests_to(path)[0].headers[header]


async def test_the_keyring_comes_before_the_environment(
    stub: StubServer, isolated_state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stub.add("POST", "/v1/messages", anthropic_text())
    configure(isolated_state, f'[providers.anthropic]\nbase_url = "{stub.url}"\n')
    monkeypatch.setenv("ANTHROPIC_API_KEY", ENV_KEY)
    secrets.set_secret("ANTHROPIC_API_KEY", STORED_KEY)
    rt = open_runtime()
    try:
        _sid, events = await turn(rt, "anthropic:claude-haiku-4-5")
    finally:
        await rt.stop()
        rt.close()
    assert ended(events) == "completed", error(events)
    assert stub.requests_to("/v1/messages")[0].headers["authorization"] == f"Bearer {STORED_KEY}"


def test_an_environment_key_makes_its_provider_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    rt = open_runtime()
    try:
        assert "anthropic" not in [p.provider for p in rt.list_models()]
        monkeypatch.setenv("ANTHROPIC_API_KEY", ENV_KEY)
        assert "anthropic" in [p.provider for p in rt.list_models()]
    finally:
        rt.close()


async def test_environment_keys_are_redacted_like_stored_ones(
    stub: StubServer, isolated_state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-never-used-by-a-provider")
    stub.add("POST", "/v1/chat/completions", Reply(status=401, body=json.dumps({"error": {
        "message": f"Incorrect API key provided: {ENV_KEY}.", "type": "invalid_request_error",
        "code": "invalid_api_key"}})))
    configure(isolated_state, f'[providers.openai]\nbase_url = "{stub.url}/v1"\n')
    rt = open_runtime()
    try:
        sid, events = await turn(rt, "openai:gpt-4o")
        stored = json.dumps(rt.conversations.load(sid))
    finally:
        await rt.stop()
        rt.close()
    # The SDK echoed the key in its error: neither the stored notice nor the error
    # event the surfaces show carries it.
    assert ENV_KEY not in error(events) and secrets.REDACTED in error(events)
    assert ENV_KEY not in stored and secrets.REDACTED in stored
    assert secrets.redact("token xoxb-never-used-by-a-provider") == f"token {secrets.REDACTED}"


# ----------------------------------------------------------- keys that change


async def test_a_key_stored_while_the_app_runs_is_used_on_the_next_request(
    stub: StubServer, isolated_state: Path
) -> None:
    stub.add("POST", "/v1/chat/completions", openai_text("one"), openai_text("two"),
             openai_text("three"))
    configure(isolated_state, f'[providers.openai]\nbase_url = "{stub.url}/v1"\n')
    secrets.set_secret("OPENAI_API_KEY", "first-key-0123456789")
    rt = open_runtime()
    try:
        sid, events = await turn(rt, "openai:gpt-4o")
        assert ended(events) == "completed", error(events)
        # Another process (`openworker-qt keys set openai`) replaces the key: nothing
        # tells this one, and its client was built with the old key.
        secrets.set_secret("OPENAI_API_KEY", "second-key-0123456789")
        _sid, events = await turn(rt, "openai:gpt-4o", session=sid)
        assert ended(events) == "completed", error(events)
        secrets.delete_secret("OPENAI_API_KEY")  # back to no key: the server is local
        _sid, events = await turn(rt, "openai:gpt-4o", session=sid)
        assert ended(events) == "completed", error(events)
    finally:
        await rt.stop()
        rt.close()
    sent = [s.headers["authorization"] for s in stub.requests_to("/v1/chat/completions")]
    assert sent == ["Bearer first-key-0123456789", "Bearer second-key-0123456789",
                    "Bearer not-needed"]


def test_a_required_key_added_after_a_failure_is_used_without_a_restart() -> None:
    keys: dict[str, str] = {}
    router = build_router(Config({}), keys.get)
    with pytest.raises(ProviderError) as err:
        router.prepare("anthropic:claude-haiku-4-5")
    assert err.value.kind == "auth" and "ANTHROPIC_API_KEY" in err.value.message
    # The loop's resolve repeats the failure without reading the keyring again …
    with pytest.raises(ProviderError):
        router.resolve("anthropic:claude-haiku-4-5")
    keys["ANTHROPIC_API_KEY"] = "added-later-0123456789"
    # … and the next preparation (every turn has one) reads it.
    client, model = router.prepare("anthropic:claude-haiku-4-5")
    assert model == "claude-haiku-4-5"
    assert client._api_key == "added-later-0123456789"
    assert router.resolve("anthropic:claude-haiku-4-5")[0] is client


# ------------------------------------------------------------ keyless servers


KEYLESS = {
    "custom endpoint": ('[providers.lab]\nbase_url = "{url}/v1"\nmodels = ["qwen3"]\n',
                        "lab:qwen3"),
    "custom with a key name but no key": (
        '[providers.custom]\nbase_url = "{url}/v1"\nkey_name = "CUSTOM_API_KEY"\n'
        'models = ["local-model"]\n', "custom:local-model"),
    "openai at a local base URL": ('[providers.openai]\nbase_url = "{url}/v1"\n', "openai:gpt-4o"),
    "ollama": ('[providers.ollama]\nbase_url = "{url}"\n', "ollama:llama3.2"),
}


@pytest.mark.parametrize("case", list(KEYLESS))
async def test_local_and_custom_servers_work_with_no_key_at_all(
    case: str, stub: StubServer, isolated_state: Path
) -> None:
    toml, model = KEYLESS[case]
    stub.add("POST", "/v1/chat/completions", openai_text("Hello from the local model."))
    configure(isolated_state, toml.format(url=stub.url))
    rt = open_runtime()
    try:
        listed = [m.model for p in rt.list_models() for m in p.models]
        _sid, events = await turn(rt, model)
    finally:
        await rt.stop()
        rt.close()
    assert ended(events) == "completed", error(events)
    assert any(isinstance(e, ev.AssistantMessage) for e in events)
    assert stub.requests_to("/v1/chat/completions")[0].headers["authorization"] == "Bearer not-needed"
    assert model.removeprefix("openai:") in listed or model in listed


# -------------------------------------------------------------- off the loop


async def test_keys_are_read_and_clients_built_off_the_loop_thread(
    stub: StubServer, isolated_state: Path
) -> None:
    stub.add("POST", "/v1/chat/completions", openai_text(), openai_text())
    configure(isolated_state, f'[providers.openai]\nbase_url = "{stub.url}/v1"\n')
    secrets.set_secret("OPENAI_API_KEY", STORED_KEY)
    reads: list[str] = []

    def get_key(name: str) -> str | None:
        reads.append(threading.current_thread().name)
        return secrets.get_key(name)

    rt = open_runtime(get_key=get_key)
    loop_thread = threading.current_thread().name
    try:
        sid, events = await turn(rt, "openai:gpt-4o")
        provider, _ = rt.router.resolve("openai:gpt-4o")
        assert provider.chat._client is not None  # built ahead
        _sid, more = await turn(rt, "openai:gpt-4o", session=sid)
    finally:
        await rt.stop()
        rt.close()
    assert ended(events) == ended(more) == "completed", error(events)
    assert len(reads) >= 2  # every turn re-reads the key …
    assert loop_thread not in reads  # … never on the loop thread
