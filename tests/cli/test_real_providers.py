"""`openworker-qt run --model <provider>:<model>` end to end, for each native provider.

The CLI runs in-process (the test keyring is per process) with the key in the
keyring and the provider's base URL in config; the real SDK talks to a local stub
that speaks the provider's wire protocol. The model calls `write_file`, the run is
in auto mode, and the final answer is printed: the whole path — router, factory,
key lookup, SDK, stream parsing, tool call, permission engine, tool, follow-up
request with the tool result — is exercised.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt import cli
from openworker_qt.storage import secrets
from tests.providers.stubs import Reply, StubServer, sse


class ThreadedStub:
    """The aiohttp stub on its own loop in a thread (the CLI runs its own loop)."""

    def __init__(self) -> None:
        self.server = StubServer()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def __enter__(self) -> StubServer:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(10)
        return self.server

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture
def stub() -> Iterator[StubServer]:
    with ThreadedStub() as server:
        yield server


def _openai(stub: StubServer) -> None:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    stub.add("POST", "/v1/chat/completions",
             Reply(content_type="text/event-stream", chunking="random", body=sse(
                 chunk({"role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                        "function": {"name": "write_file", "arguments": '{"path": "brief.md", '}}]}),
                 chunk({"tool_calls": [{"index": 0, "function": {"arguments": '"content": "# Brief\\n"}'}}]}),
                 chunk({}, "tool_calls"), "[DONE]")),
             Reply(content_type="text/event-stream", body=sse(
                 chunk({"role": "assistant", "content": "Wrote "}), chunk({"content": "brief.md."}),
                 chunk({}, "stop"), "[DONE]")))


def _anthropic(stub: StubServer) -> None:
    def stream(blocks: list[list[dict[str, Any]]], stop: str) -> str:
        events: list[dict[str, Any]] = [{"type": "message_start", "message": {
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-6",
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1}}}]
        for i, block in enumerate(blocks):
            events += [dict(e, index=i) for e in block]
        events += [{"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": 5}}, {"type": "message_stop"}]
        return sse(*events, event_names=True)

    tool = [
        {"type": "content_block_start", "content_block": {"type": "tool_use", "id": "toolu_1",
                                                           "name": "write_file", "input": {}}},
        {"type": "content_block_delta", "delta": {"type": "input_json_delta",
                                                  "partial_json": '{"path": "brief.md", "con'}},
        {"type": "content_block_delta", "delta": {"type": "input_json_delta",
                                                  "partial_json": 'tent": "# Brief\\n"}'}},
        {"type": "content_block_stop"},
    ]
    text = [
        {"type": "content_block_start", "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "delta": {"type": "text_delta", "text": "Wrote brief.md."}},
        {"type": "content_block_stop"},
    ]
    stub.add("POST", "/v1/messages",
             Reply(content_type="text/event-stream", chunking="random", body=stream([tool], "tool_use")),
             Reply(content_type="text/event-stream", body=stream([text], "end_turn")))


def _gemini(stub: StubServer) -> None:
    call = {"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {
        "name": "write_file", "args": {"path": "brief.md", "content": "# Brief\n"}}}]},
        "finishReason": "STOP"}]}
    text = {"candidates": [{"content": {"role": "model", "parts": [{"text": "Wrote brief.md."}]},
                            "finishReason": "STOP"}]}
    path = "/v1beta/models/gemini-2.5-flash:streamGenerateContent"
    stub.add("POST", path,
             Reply(content_type="text/event-stream", chunking="random", body=sse(call, sep="\r\n\r\n")),
             Reply(content_type="text/event-stream", body=sse(text, sep="\r\n\r\n")))


CASES = {
    "openai:gpt-4.1": ("openai", "OPENAI_API_KEY", "/v1", _openai, "/v1/chat/completions"),
    "anthropic:claude-sonnet-4-6": ("anthropic", "ANTHROPIC_API_KEY", "", _anthropic, "/v1/messages"),
    "gemini:gemini-2.5-flash": ("gemini", "GEMINI_API_KEY", "", _gemini, "streamGenerateContent"),
}


@pytest.mark.parametrize("model", list(CASES))
def test_run_with_a_real_provider_sdk(model: str, stub: StubServer, tmp_path: Path,
                                      isolated_state: Path, capsys: pytest.CaptureFixture[str]) -> None:
    provider, key_name, suffix, script, path_part = CASES[model]
    script(stub)
    secrets.set_secret(key_name, "test-key-0123456789")
    cfg = isolated_state / "config" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(f'[providers.{provider}]\nbase_url = "{stub.url}{suffix}"\n')
    ws = tmp_path / "ws"
    ws.mkdir()
    code = cli.main(["run", "--mode", "auto", "--workspace", str(ws), "--model", model,
                     "Write a one-line brief to brief.md"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert (ws / "brief.md").read_text() == "# Brief\n"
    assert "Wrote brief.md." in out.out
    seen = stub.requests_to(path_part)
    assert len(seen) == 2
    # The follow-up request carries the tool result back in the provider's own shape.
    follow_up = json.dumps(seen[1].body)
    assert "Created" in follow_up and "brief.md" in follow_up


def test_missing_key_is_a_clear_error(isolated_state: Path, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["run", "--workspace", str(tmp_path), "--model", "anthropic:claude-sonnet-4-6", "hi"])
    err = capsys.readouterr().err
    assert code == 2
    assert "no API key for Anthropic" in err and "ANTHROPIC_API_KEY" in err
