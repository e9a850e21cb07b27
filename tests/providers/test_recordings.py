"""Replay every real exchange in ``tests/providers/recordings`` through the real
SDK and our provider, whole and re-chunked at arbitrary byte offsets.

Expected values are read from the recording by an independent, deliberately
naive parser in this file (split on blank lines, ``json.loads`` each event), so
the provider's incremental parsing is compared with the recorded content.
"""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

import pytest

from openworker_qt.core.provider_api import ModelRequest, ProviderError
from openworker_qt.providers.anthropic import AnthropicProvider
from openworker_qt.providers.compat import VENDORS, Vendor
from openworker_qt.providers.gemini import GeminiProvider
from openworker_qt.providers.openai_chat import OpenAIChatProvider
from openworker_qt.providers.openai_native import OpenAIProvider
from openworker_qt.providers.openai_responses import OpenAIResponsesProvider
from tests.providers.helpers import Collected, collect, fast
from tests.providers.stubs import RECORDINGS_DIR, StubServer, load_recording, recording_files

CHUNKINGS = [None, ("random", 1), ("random", 7), (1, 0)]
CHUNK_IDS = ["whole", "random-1", "random-7", "bytewise"]
ALL = [str(p.relative_to(RECORDINGS_DIR)) for p in recording_files()]


def test_every_recording_is_covered() -> None:
    assert len(ALL) == 24, ALL  # a new recording must get an expectation below
    assert set(ALL) == set(EXPECT)


# ------------------------------------------------------------------ naive parsers


def sse_events(body: str) -> list[dict[str, Any]]:
    events = []
    for block in body.replace("\r\n", "\n").split("\n\n"):
        for line in block.split("\n"):
            if line.startswith("data:"):
                payload = line[5:].strip()
                if payload and payload != "[DONE]":
                    events.append(json.loads(payload))
    return events


def expect_openai_chat(rec: dict[str, Any]) -> dict[str, Any]:
    body = rec["response"]["body"]
    if rec["response"]["headers"]["content-type"].startswith("application/json"):
        msg = json.loads(body)["choices"][0]["message"]
        calls = [(c["function"]["name"], json.loads(c["function"]["arguments"]), c["id"]) for c in msg.get("tool_calls") or []]
        return {"text": msg.get("content") or "", "calls": calls, "reasoning": ""}
    text, calls = "", {}
    for ev in sse_events(body):
        for ch in ev.get("choices") or []:
            d = ch.get("delta") or {}
            text += d.get("content") or ""
            for tc in d.get("tool_calls") or []:
                slot = calls.setdefault(tc["index"], {"id": "", "name": "", "args": ""})
                slot["id"] = tc.get("id") or slot["id"]
                slot["name"] = (tc.get("function") or {}).get("name") or slot["name"]
                slot["args"] += (tc.get("function") or {}).get("arguments") or ""
    return {
        "text": text,
        "reasoning": "",
        "calls": [(c["name"], json.loads(c["args"]), c["id"]) for _, c in sorted(calls.items())],
    }


def expect_responses(rec: dict[str, Any]) -> dict[str, Any]:
    text, reasoning, calls = "", "", []
    for ev in sse_events(rec["response"]["body"]):
        if ev["type"] == "response.output_text.delta":
            text += ev["delta"]
        elif ev["type"] == "response.reasoning_summary_text.delta":
            reasoning += ev["delta"]
        elif ev["type"] == "response.output_item.done" and ev["item"]["type"] == "function_call":
            calls.append((ev["item"]["name"], json.loads(ev["item"]["arguments"]), ev["item"]["call_id"]))
    return {"text": text, "reasoning": reasoning, "calls": calls}


def expect_anthropic(rec: dict[str, Any]) -> dict[str, Any]:
    body = rec["response"]["body"]
    if rec["response"]["headers"]["content-type"].startswith("application/json"):
        content = json.loads(body)["content"]
        return {
            "text": "".join(b.get("text", "") for b in content if b["type"] == "text"),
            "reasoning": "".join(b.get("thinking", "") for b in content if b["type"] == "thinking"),
            "calls": [(b["name"], b["input"], b["id"]) for b in content if b["type"] == "tool_use"],
        }
    text, reasoning, blocks, partial = "", "", {}, {}
    signature = ""
    for ev in sse_events(body):
        if ev["type"] == "content_block_start":
            blocks[ev["index"]] = ev["content_block"]
            partial[ev["index"]] = ""
        elif ev["type"] == "content_block_delta":
            d = ev["delta"]
            if d["type"] == "text_delta":
                text += d["text"]
            elif d["type"] == "thinking_delta":
                reasoning += d["thinking"]
            elif d["type"] == "signature_delta":
                signature += d["signature"]
            elif d["type"] == "input_json_delta":
                partial[ev["index"]] += d["partial_json"]
    calls = [
        (b["name"], json.loads(partial[i] or "{}"), b["id"])
        for i, b in sorted(blocks.items())
        if b["type"] == "tool_use"
    ]
    return {"text": text, "reasoning": reasoning, "calls": calls, "signature": signature}


def gemini_chunks(rec: dict[str, Any]) -> list[dict[str, Any]]:
    body = rec["response"]["body"]
    if body.lstrip().startswith("["):
        return list(json.loads(body))
    if body.lstrip().startswith("{"):
        return [json.loads(body)]
    return sse_events(body)


def expect_gemini(rec: dict[str, Any]) -> dict[str, Any]:
    text, reasoning, calls, sigs = "", "", [], []
    for chunk in gemini_chunks(rec):
        for part in chunk["candidates"][0]["content"]["parts"]:
            if "functionCall" in part:
                calls.append((part["functionCall"]["name"], part["functionCall"].get("args", {}), part["functionCall"].get("id")))
            elif part.get("thought"):
                reasoning += part["text"]
            else:
                text += part.get("text", "")
            if part.get("thoughtSignature"):
                sigs.append(part["thoughtSignature"])
    return {"text": text, "reasoning": reasoning, "calls": calls, "signatures": sigs}


# ---------------------------------------------------- recorded request → our request


def request_from_openai_chat(body: dict[str, Any]) -> ModelRequest:
    system = "".join(m["content"] for m in body["messages"] if m["role"] == "system")
    msgs = [m for m in body["messages"] if m["role"] != "system"]
    return ModelRequest(model=body["model"], messages=msgs, tools=body.get("tools", []), system=system)


def request_from_responses(body: dict[str, Any]) -> ModelRequest:
    tools = [{"name": t["name"], "description": t.get("description") or "", "parameters": t["parameters"]} for t in body.get("tools", [])]
    return ModelRequest(model=body["model"], messages=list(body["input"]), tools=tools, system=body.get("instructions") or "")


def request_from_anthropic(body: dict[str, Any]) -> ModelRequest:
    msgs = []
    for m in body["messages"][:1]:
        msgs.append({"role": "user", "content": "".join(b["text"] for b in m["content"] if b["type"] == "text")})
    tools = [
        {"name": t["name"], "description": t.get("description", ""), "parameters": t.get("input_schema", {})}
        for t in body.get("tools", [])
        if "input_schema" in t
    ]
    system = body.get("system") or ""
    return ModelRequest(model=body["model"], messages=msgs, tools=tools, system=system if isinstance(system, str) else "", max_tokens=body.get("max_tokens"))


def request_from_gemini(rec: dict[str, Any]) -> ModelRequest:
    body = rec["request"]["body"]
    model = rec["request"]["path"].rsplit("/", 1)[1].split(":")[0]
    msgs = [{"role": "user", "content": "".join(p.get("text", "") for p in c["parts"])} for c in body["contents"]]
    tools = [
        {"name": f["name"], "description": f.get("description") or "", "parameters": f.get("parameters_json_schema") or {}}
        for t in body.get("tools", [])
        for f in t["functionDeclarations"]
    ]
    system = "".join(p["text"] for p in (body.get("systemInstruction") or {}).get("parts", []))
    return ModelRequest(model=model, messages=msgs, tools=tools, system=system)


# ------------------------------------------------------------------- expectations

def _openai(url: str, rec: dict[str, Any]) -> Any:
    stream = rec["request"]["body"].get("stream", False)
    return OpenAIChatProvider(api_key="test", base_url=url + "/v1", stream=stream, **fast())


def _responses(url: str, rec: dict[str, Any]) -> Any:
    return OpenAIResponsesProvider(api_key="test", base_url=url + "/v1", **fast())


def _anthropic(url: str, rec: dict[str, Any]) -> Any:
    return AnthropicProvider(api_key="test", base_url=url, stream=bool(rec["request"]["body"].get("stream")), **fast())


def _gemini(url: str, rec: dict[str, Any]) -> Any:
    return GeminiProvider(api_key="test", base_url=url, stream="streamGenerateContent" in rec["request"]["path"], **fast())


def _openrouter(url: str, rec: dict[str, Any]) -> Any:
    vendor: Vendor = VENDORS["openrouter"]
    return OpenAIChatProvider(vendor, api_key="test", base_url=url + "/api/v1", stream=False, **fast(attempts=1))


EXPECT: dict[str, tuple[Any, Any, Any]] = {
    "openai/chat-error-400.json": (_openai, request_from_openai_chat, ("bad_request", "Web search options not supported with this model.")),
    "openai/chat-nonstream-tool-call.json": (_openai, request_from_openai_chat, expect_openai_chat),
    "openai/chat-stream-parallel-tool-calls.json": (_openai, request_from_openai_chat, expect_openai_chat),
    "openai/chat-stream-text-then-tool-call.json": (_openai, request_from_openai_chat, expect_openai_chat),
    "openai/chat-stream-tool-call-forced.json": (_openai, request_from_openai_chat, expect_openai_chat),
    "openai/chat-stream-tool-call-obfuscation.json": (_openai, request_from_openai_chat, expect_openai_chat),
    "openai/responses-stream-function-call.json": (_responses, request_from_responses, expect_responses),
    "openai/responses-stream-reasoning-text-function-call.json": (_responses, request_from_responses, expect_responses),
    "anthropic/messages-error-400.json": (_anthropic, request_from_anthropic, ("bad_request", "This model does not support effort level 'xhigh'.")),
    "anthropic/messages-nonstream-parallel-tool-use.json": (_anthropic, request_from_anthropic, expect_anthropic),
    "anthropic/messages-stream-after-tool-result-with-thinking.json": (_anthropic, request_from_anthropic, expect_anthropic),
    "anthropic/messages-stream-parallel-tool-use.json": (_anthropic, request_from_anthropic, expect_anthropic),
    "anthropic/messages-stream-text-then-tool-use.json": (_anthropic, request_from_anthropic, expect_anthropic),
    "anthropic/messages-stream-thinking.json": (_anthropic, request_from_anthropic, expect_anthropic),
    "anthropic/messages-stream-thinking-server-tool.json": (_anthropic, request_from_anthropic, expect_anthropic),
    "anthropic/messages-stream-thinking-then-tool-use.json": (_anthropic, request_from_anthropic, expect_anthropic),
    "anthropic/messages-stream-tool-use-forced.json": (_anthropic, request_from_anthropic, expect_anthropic),
    "anthropic/messages-stream-two-tool-use-empty-input.json": (_anthropic, request_from_anthropic, expect_anthropic),
    "gemini/generatecontent-parallel-function-calls.json": (_gemini, None, expect_gemini),
    "gemini/stream-json-array-function-call.json": (_gemini, None, expect_gemini),
    "gemini/stream-sse-function-call.json": (_gemini, None, expect_gemini),
    "gemini/stream-sse-function-call-thought-signature.json": (_gemini, None, expect_gemini),
    "gemini/stream-sse-thought-parts.json": (_gemini, None, expect_gemini),
    "openrouter/chat-error-429.json": (_openrouter, request_from_openai_chat, ("rate_limit", "temporarily rate-limited upstream")),
}

FINISH = {
    "tool_calls": "tool_calls",
}


async def _replay(stub: StubServer, name: str, chunking: Any) -> tuple[dict[str, Any], Any, Collected | ProviderError]:
    rec = load_recording(name)
    mode, seed = chunking if chunking else (None, 0)
    stub.replay(rec, chunking=mode, seed=seed)
    make, to_request, _ = EXPECT[name]
    provider = make(stub.url, rec)
    request = to_request(rec["request"]["body"]) if to_request else request_from_gemini(rec)
    try:
        return rec, provider, await collect(provider, request)
    except ProviderError as exc:
        return rec, provider, exc


@pytest.mark.asyncio
@pytest.mark.parametrize("chunking", CHUNKINGS, ids=CHUNK_IDS)
@pytest.mark.parametrize("name", ALL)
async def test_replay_matches_recording(stub: StubServer, name: str, chunking: Any) -> None:
    rec, provider, result = await _replay(stub, name, chunking)
    expected = EXPECT[name][2]
    if isinstance(expected, tuple):  # an error recording
        kind, words = expected
        assert isinstance(result, ProviderError), result
        assert result.kind == kind
        assert result.status == rec["response"]["status"]
        assert words in str(result)
        assert result.provider == provider.name and result.model
        assert len(stub.seen) == (2 if kind == "rate_limit" and False else 1)
        return
    assert not isinstance(result, ProviderError), result
    want = expected(rec)
    assert result.text == want["text"]
    assert result.reasoning == want["reasoning"]
    got_calls = [(c.name, json.loads(c.arguments)) for c in result.calls]
    assert got_calls == [(n, a) for n, a, _ in want["calls"]]
    for call, (_, _, wire_id) in zip(result.calls, want["calls"], strict=True):
        if wire_id:
            assert call.id == wire_id
    assert len({c.id for c in result.calls}) == len(result.calls)  # ids unique even when minted
    finish = result.finish
    assert finish.reason == ("tool_calls" if want["calls"] else "stop")
    assert finish.usage.get("input_tokens", 0) > 0 and finish.usage.get("output_tokens", 0) > 0
    if "signature" in want and want["signature"]:
        blocks = finish.provider_state["anthropic"]["content"]
        assert [b["signature"] for b in blocks if b["type"] == "thinking"] == [want["signature"]]
    if want.get("signatures"):
        parts = finish.provider_state["gemini"]["parts"]
        assert [p["thought_signature"] for p in parts if "thought_signature" in p] == want["signatures"]
    # what we sent: the recorded model and tool names
    sent = stub.seen[-1]
    body = rec["request"]["body"]
    if "model" in body:
        assert sent.body["model"] == body["model"]
    recorded_tools = sorted(_tool_names(body))
    sent_tools = sorted(_tool_names(sent.body))
    assert sent_tools == [t for t in recorded_tools if t != "code_execution"]


def _tool_names(body: dict[str, Any]) -> list[str]:
    names = []
    for t in body.get("tools") or []:
        if "functionDeclarations" in t:
            names += [f["name"] for f in t["functionDeclarations"]]
        elif "function" in t:
            names.append(t["function"]["name"])
        elif "name" in t:
            names.append(t["name"])
    return names


# ------------------------------------------------------------ follow-up requests


@pytest.mark.asyncio
@pytest.mark.parametrize("chunking", CHUNKINGS, ids=CHUNK_IDS)
async def test_anthropic_thinking_signature_goes_back_as_recorded(stub: StubServer, chunking: Any) -> None:
    """Turn 1 (thinking + tool_use) is replayed; the follow-up request we build
    from our own output must equal what llm-anthropic sent in turn 2."""
    _, provider, first = await _replay(stub, "anthropic/messages-stream-thinking-then-tool-use.json", chunking)
    assert isinstance(first, Collected)
    second = load_recording("anthropic/messages-stream-after-tool-result-with-thinking.json")
    stub.routes.clear()
    stub.replay(second, chunking="random", seed=3)
    body = second["request"]["body"]
    history = [
        {"role": "user", "content": body["messages"][0]["content"][0]["text"]},
        first.assistant_message(),
        {"role": "tool", "tool_call_id": first.calls[0].id, "name": "fixed_version", "content": "0.32a0"},
    ]
    before = copy.deepcopy(history)
    tools = [{"name": "fixed_version", "description": "Return a fixed test version string", "parameters": {"properties": {}, "type": "object"}}]
    result = await collect(provider, ModelRequest(model=body["model"], messages=history, tools=tools))
    assert history == before  # stored history is never rewritten
    sent = stub.seen[-1].body
    assert _strip_cache(sent["messages"]) == body["messages"]
    assert sent["thinking"]["type"] == "enabled"
    assert result.text == expect_anthropic(second)["text"]
    assert result.text.startswith("The version is **0.32a0**")


def _strip_cache(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_cache(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_strip_cache(v) for v in value]
    return value


@pytest.mark.asyncio
async def test_anthropic_server_tool_blocks_go_back_verbatim(stub: StubServer) -> None:
    _, provider, first = await _replay(stub, "anthropic/messages-stream-thinking-server-tool.json", ("random", 2))
    assert isinstance(first, Collected)
    assert first.calls == []  # a server tool is run by Anthropic, not by us
    stub.routes.clear()
    stub.replay(load_recording("anthropic/messages-stream-thinking.json"))
    history = [{"role": "user", "content": "what is 65465-6544 * 65464-6+1.02255"}, first.assistant_message(), {"role": "user", "content": "thanks"}]
    await collect(provider, ModelRequest(model="claude-sonnet-4-6", messages=history))
    sent = _strip_cache(stub.seen[-1].body["messages"])
    types = [b["type"] for b in sent[1]["content"]]
    assert types[0] == "thinking" and "server_tool_use" in types and "bash_code_execution_tool_result" in types
    assert "".join(b.get("text", "") for b in sent[1]["content"] if b["type"] == "text") == first.text
    assert all("caller" not in b for b in sent[1]["content"])


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "name",
    [
        "gemini/stream-sse-function-call-thought-signature.json",
        "gemini/stream-json-array-function-call.json",
        "gemini/generatecontent-parallel-function-calls.json",
    ],
)
async def test_gemini_thought_signatures_go_back(stub: StubServer, name: str) -> None:
    rec, provider, first = await _replay(stub, name, ("random", 5))
    assert isinstance(first, Collected)
    want = expect_gemini(rec)
    stub.routes.clear()
    stub.add("POST", rec["request"]["path"].replace(":generateContent", ":streamGenerateContent"))
    stub.replay(load_recording("gemini/stream-sse-function-call.json"))
    stub.routes[("POST", rec["request"]["path"].replace(":generateContent", ":streamGenerateContent"))] = stub.routes[("POST", "/v1beta/models/gemini-2.0-flash:streamGenerateContent")]
    history = [
        {"role": "user", "content": "go"},
        first.assistant_message(),
        *[
            {"role": "tool", "tool_call_id": c.id, "name": c.name, "content": "result"}
            for c in first.calls
        ],
    ]
    provider._stream = True
    await collect(provider, ModelRequest(model=request_from_gemini(rec).model, messages=history, tools=request_from_gemini(rec).tools))
    contents = stub.seen[-1].body["contents"]
    model_turn = contents[1]
    assert model_turn["role"] == "model"
    fcs = [p for p in model_turn["parts"] if "functionCall" in p]
    assert [p["functionCall"]["name"] for p in fcs] == [n for n, _, _ in want["calls"]]
    # the SDK writes bytes as URL-safe base64; the bytes must be the recorded ones
    sent_sigs = [base64.urlsafe_b64decode(p["thoughtSignature"]) for p in model_turn["parts"] if "thoughtSignature" in p]
    assert sent_sigs == [base64.b64decode(s) for s in want["signatures"]]
    # only ids Gemini issued go back, on the call and on its response
    responses = [p["functionResponse"] for p in contents[2]["parts"]]
    assert [r["name"] for r in responses] == [n for n, _, _ in want["calls"]]
    for fc, fr, (_, _, wire_id) in zip(fcs, responses, want["calls"], strict=True):
        assert fc["functionCall"].get("id") == wire_id
        assert fr.get("id") == wire_id


@pytest.mark.asyncio
async def test_responses_reasoning_item_goes_back(stub: StubServer) -> None:
    rec, provider, first = await _replay(stub, "openai/responses-stream-reasoning-text-function-call.json", ("random", 9))
    assert isinstance(first, Collected)
    recorded_items = [e["item"] for e in sse_events(rec["response"]["body"]) if e["type"] == "response.output_item.done" and e["item"]["type"] == "reasoning"]
    stub.routes.clear()
    stub.replay(load_recording("openai/responses-stream-function-call.json"))
    history = [
        {"role": "user", "content": "What is the capital of PotatoLand?"},
        first.assistant_message(),
        {"role": "tool", "tool_call_id": first.calls[0].id, "content": "Tuberville"},
    ]
    await collect(provider, ModelRequest(model="gpt-5.5", messages=history, tools=request_from_responses(rec["request"]["body"]).tools))
    sent = stub.seen[-1].body
    assert sent["store"] is False and sent["include"] == ["reasoning.encrypted_content"]
    items = sent["input"]
    reasoning = [i for i in items if i.get("type") == "reasoning"]
    assert [r["encrypted_content"] for r in reasoning] == [r["encrypted_content"] for r in recorded_items]
    assert [r["id"] for r in reasoning] == [r["id"] for r in recorded_items]
    kinds = [i.get("type") or i.get("role") for i in items]
    assert kinds == ["user", "reasoning", "assistant", "function_call", "function_call_output"]
    assert items[3]["call_id"] == "call_LabG58Uhrq9kZvR52BYKjToD" == items[4]["call_id"]


@pytest.mark.asyncio
async def test_openai_native_routes_reasoning_models_to_responses(stub: StubServer) -> None:
    stub.replay(load_recording("openai/responses-stream-function-call.json"))
    stub.replay(load_recording("openai/chat-stream-tool-call-obfuscation.json"))
    provider = OpenAIProvider(api_key="test", base_url=stub.url + "/v1", **fast())
    await collect(provider, ModelRequest(model="gpt-5", messages=[{"role": "user", "content": "hi"}]))
    await collect(provider, ModelRequest(model="gpt-4o-mini", messages=[{"role": "user", "content": "hi"}]))
    assert [s.path for s in stub.seen] == ["/v1/responses", "/v1/chat/completions"]

