"""Issue 31's five defects, replayed from a real llama-cpp-python server.

``tests/providers/recordings/llamacpp/`` holds exchanges ``scripts/local-model
record`` captured from llama-cpp-python's own OpenAI-compatible server (Gemma 3
270M, chat format ``chatml-function-calling``): the request bodies sent and the
exact response bytes with their status (provenance in each file). A stub on
127.0.0.1 serves those bytes to the app's provider through the real ``openai``
SDK, and each test asserts the fixed behaviour (each failed before its fix):

1. tools go with ``tool_choice: "auto"`` (without it the server hides them);
2. its streamed answer with tools (HTTP 200, then nothing) is not an answer: the
   call is made again without streaming;
3. the assistant's tool-call message is sent back with content ``""`` (``null`` got
   the recorded HTTP 500), and that 500 is not retried and reads whole;
4. the context window is asked from the server (this server has no ``/props``: the
   conservative default, not 32k);
5. a streamed turn's usage: the server's, else estimated and marked as such.

Expected values come from the recordings, read by a deliberately naive parser.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from openworker_qt.core.provider_api import ModelRequest, ProviderError
from openworker_qt.domain.usage import Usage
from openworker_qt.providers import local_servers as ls
from openworker_qt.providers.compat import custom_vendor
from openworker_qt.providers.openai_chat import OpenAIChatProvider
from tests.providers.helpers import collect, fast
from tests.providers.stubs import RECORDINGS_DIR, Reply, StubServer, ThreadStub

FOLDER = RECORDINGS_DIR / "llamacpp"
PATH = "/v1/chat/completions"
NAMES = ("props", "models", "chat-stream-usage", "chat-stream-no-usage-option",
         "chat-stream-tools-auto", "chat-tools-no-choice", "chat-nonstream-tool-call",
         "chat-tool-result-content-null", "chat-tool-result-content-empty",
         "chat-auto-empty-message", "chat-choice-none-message", "chat-tool-result-dropped",
         "chat-stream-auto-empty-message")


def rec(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FOLDER / f"{name}.json").read_text(encoding="utf-8"))
    return data


def reply(name: str) -> Reply:
    resp = rec(name)["response"]
    body = resp["body"]
    return Reply(status=resp["status"], body=body, content_type=resp["headers"]["content-type"],
                 cut_after=len(body.encode()) if resp.get("cut") else None)


def events(body: str) -> list[dict[str, Any]]:
    out = []
    for line in body.replace("\r\n", "\n").split("\n"):
        if line.startswith("data:") and line[5:].strip() not in ("", "[DONE]"):
            out.append(json.loads(line[5:].strip()))
    return out


def recorded_tool() -> dict[str, Any]:
    tool: dict[str, Any] = rec("chat-nonstream-tool-call")["request"]["body"]["tools"][0]
    return tool


def recorded_ask() -> tuple[str, list[dict[str, Any]]]:
    messages = rec("chat-nonstream-tool-call")["request"]["body"]["messages"]
    return messages[0]["content"], messages[1:]


def provider(stub: StubServer, **settings: Any) -> OpenAIChatProvider:
    vendor = custom_vendor("llamacpp", {"base_url": stub.url + "/v1", **settings})
    return OpenAIChatProvider(vendor, base_url=stub.url + "/v1", **fast(attempts=4))


def test_every_recording_is_here_with_its_provenance() -> None:
    assert sorted(p.stem for p in FOLDER.glob("*.json")) == sorted(NAMES)
    for name in NAMES:
        prov = rec(name)["provenance"]
        assert prov["server"].startswith("llama-cpp-python ") and "gemma-3-270m" in prov["model"]
        assert re.match(r"\d{4}-\d\d-\d\dT", prov["date"]) and "llama_cpp.server" in prov["command"]


# ------------------------------------------------------------ 1. tool_choice


async def test_1_tools_are_offered_with_tool_choice_auto(stub: StubServer) -> None:
    # Without tool_choice the recorded server answered as if no tools were offered.
    hidden = json.loads(rec("chat-tools-no-choice")["response"]["body"])["choices"][0]["message"]
    assert not hidden.get("tool_calls")
    stub.add("POST", PATH, reply("chat-nonstream-tool-call"))
    system, messages = recorded_ask()
    out = await collect(provider(stub, stream=False),
                        ModelRequest("gemma-3-270m", messages, system=system, tools=[recorded_tool()]))
    sent = stub.seen[0].body
    assert sent["tool_choice"] == "auto" and [t["function"]["name"] for t in sent["tools"]] == ["list_files"]
    msg = json.loads(rec("chat-nonstream-tool-call")["response"]["body"])["choices"][0]["message"]
    expected = [(c["function"]["name"], c["function"]["arguments"]) for c in msg.get("tool_calls") or []]
    # (the arguments as the model wrote them, not valid JSON here: the engine tells it so)
    assert [(c.name, c.arguments) for c in out.calls] == expected
    assert expected and expected[0][0] == "list_files"  # the server did call it


# ------------------------------------------------------------ 2. empty stream


async def test_2_the_empty_stream_with_tools_is_not_an_answer(stub: StubServer) -> None:
    empty = rec("chat-stream-tools-auto")["response"]
    assert empty["status"] == 200 and events(empty["body"]) == []  # what the server sent
    stub.add("POST", PATH, reply("chat-stream-tools-auto"), reply("chat-nonstream-tool-call"))
    system, messages = recorded_ask()
    out = await collect(provider(stub), ModelRequest("gemma-3-270m", messages, system=system,
                                                     tools=[recorded_tool()]))
    assert [s.body.get("stream") for s in stub.seen] == [True, None]  # asked again, not streamed
    assert [c.name for c in out.calls] == ["list_files"]


async def test_2_alone_the_empty_stream_is_an_error_that_says_why(stub: StubServer) -> None:
    stub.add("POST", PATH, reply("chat-stream-tools-auto"))
    system, messages = recorded_ask()
    vendor = custom_vendor("llamacpp", {"base_url": stub.url + "/v1"})
    with pytest.raises(ProviderError) as info:
        await collect(OpenAIChatProvider(vendor, base_url=stub.url + "/v1", **fast(attempts=1)),
                      ModelRequest("gemma-3-270m", messages, system=system, tools=[recorded_tool()]))
    assert "without streaming" in info.value.message


# ------------------------------------------------------------ 3. content null


def follow_up() -> tuple[str, list[dict[str, Any]]]:
    """The recorded follow-up as the app's history: the assistant's call, content None."""
    body = rec("chat-tool-result-content-empty")["request"]["body"]
    messages = [dict(m) for m in body["messages"][1:]]
    messages[1]["content"] = None  # (the engine stores a reply that only calls as None)
    messages[2]["name"] = "list_files"
    return body["messages"][0]["content"], messages


async def test_3_the_tool_call_goes_back_with_an_empty_string(stub: StubServer) -> None:
    assert rec("chat-tool-result-content-null")["response"]["status"] == 500
    ok = rec("chat-tool-result-content-empty")["response"]
    assert ok["status"] == 200
    stub.add("POST", PATH, reply("chat-tool-result-content-empty"))
    system, messages = follow_up()
    out = await collect(provider(stub, stream=False),
                        ModelRequest("gemma-3-270m", messages, system=system, tools=[recorded_tool()]))
    sent = stub.seen[0].body["messages"]
    assert sent[2]["role"] == "assistant" and sent[2]["content"] == "" and sent[2]["tool_calls"]
    assert out.text == (json.loads(ok["body"])["choices"][0]["message"]["content"] or "")


async def test_3_the_recorded_validation_500_is_not_retried_and_reads_whole(stub: StubServer) -> None:
    stub.add("POST", PATH, reply("chat-tool-result-content-null"))
    system, messages = follow_up()
    with pytest.raises(ProviderError) as info:
        await collect(provider(stub, stream=False),
                      ModelRequest("gemma-3-270m", messages, system=system, tools=[recorded_tool()]))
    err = info.value
    assert len(stub.seen) == 1 and err.kind == "bad_request"  # tried once, not 4 times
    assert "tried" not in err.message
    server_said = json.loads(rec("chat-tool-result-content-null")["response"]["body"])
    text = server_said["error"]["message"] if "error" in server_said else json.dumps(server_said)
    problems = re.findall(r"'msg': ['\"]([^'\"]+)", text)
    assert problems  # the recorded body lists the validation problems
    lines = err.message.splitlines()
    assert lines[0].startswith("the server rejected the request as invalid (HTTP 500")
    assert all(any(p in line for line in lines[1:]) for p in problems)  # each one, whole


# ------------------------------------------------------------ 4. context window


def test_4_the_context_window_is_asked_from_the_server() -> None:
    props, models = rec("props")["response"], rec("models")["response"]
    model = json.loads(models["body"])["data"][0]["id"]
    ls.forget_contexts()
    with ThreadStub() as server:
        server.routes[("GET", "/props")] = (props["status"], props["body"].encode())
        server.routes[("GET", "/v1/models")] = (models["status"], models["body"].encode())
        p = OpenAIChatProvider(custom_vendor("llamacpp", {"base_url": server.url + "/v1"}),
                               base_url=server.url + "/v1", ask_server=True)
        size, source = p.context_window(model, ask=True)
        assert ("GET", "/props", None) in server.seen  # asked
    ls.forget_contexts()
    if props["status"] == 200:  # a llama.cpp build that says it
        data = json.loads(props["body"])
        n_ctx = (data.get("default_generation_settings") or {}).get("n_ctx") or data.get("n_ctx")
        assert (size, source) == (n_ctx, ls.FROM_SERVER)
    else:  # llama-cpp-python says nothing: the conservative default, not 32k
        assert (size, source) == (ls.DEFAULT_CONTEXT, ls.DEFAULT) == (8_192, "default")


# ------------------------------------------------------------ 5. usage


@pytest.mark.parametrize("name", ["chat-stream-usage", "chat-stream-no-usage-option"])
async def test_5_a_streamed_turn_records_usage_or_an_estimate(stub: StubServer, name: str) -> None:
    recording = rec(name)
    stub.add("POST", PATH, reply(name))
    body = recording["request"]["body"]
    out = await collect(provider(stub), ModelRequest(
        "gemma-3-270m", body["messages"], max_tokens=body.get("max_tokens"),
        temperature=body.get("temperature")))
    assert stub.seen[0].body["stream_options"] == {"include_usage": True}  # asked for
    evs = events(recording["response"]["body"])
    text = "".join((c.get("delta") or {}).get("content") or "" for e in evs for c in e.get("choices") or [])
    assert out.text == text and text
    counted = [e["usage"] for e in evs if e.get("usage")] or [
        {"prompt_tokens": e["timings"]["prompt_n"], "completion_tokens": e["timings"]["predicted_n"]}
        for e in evs if e.get("timings")]
    used = Usage.of(out.finish.usage)
    if counted:  # the server's own figures
        assert (used.input_tokens, used.output_tokens, used.estimated_tokens) == (
            counted[-1]["prompt_tokens"], counted[-1]["completion_tokens"], 0)
    else:  # none: estimated from the text, and marked as an estimate
        assert used.estimated and used.output_tokens == -(-len(text) // 4)


# ------------------------------------------------ the automatic choice's empty message


def app_ask() -> ModelRequest:
    """The recorded first call of the app's turn (its system prompt, tools, question)."""
    body = rec("chat-auto-empty-message")["request"]["body"]
    return ModelRequest("gemma-3-270m", body["messages"][1:], system=body["messages"][0]["content"],
                        tools=body["tools"])


async def test_an_empty_automatic_answer_is_asked_again_with_tool_choice_none(stub: StubServer) -> None:
    empty = json.loads(rec("chat-auto-empty-message")["response"]["body"])["choices"][0]["message"]
    assert empty["content"] == "" and not empty.get("tool_calls")  # what the server said
    said = json.loads(rec("chat-choice-none-message")["response"]["body"])
    stub.add("POST", PATH, reply("chat-auto-empty-message"), reply("chat-choice-none-message"))
    out = await collect(provider(stub, stream=False), app_ask())
    assert [s.body.get("tool_choice") for s in stub.seen] == ["auto", "none"]
    assert all(s.body["tools"] for s in stub.seen)  # (still listed: the server hides them)
    assert out.text == said["choices"][0]["message"]["content"] and out.text
    assert Usage.of(out.finish.usage).output_tokens == said["usage"]["completion_tokens"]


async def test_a_streamed_empty_automatic_answer_is_asked_again_unstreamed(stub: StubServer) -> None:
    # The same request streamed: the recorded server sent a role, "" and stop.
    streamed = rec("chat-stream-auto-empty-message")
    assert [e["choices"][0]["delta"].get("content") for e in events(streamed["response"]["body"])] == [
        None, "", None]
    stub.add("POST", PATH, reply("chat-stream-auto-empty-message"), reply("chat-choice-none-message"))
    out = await collect(provider(stub), app_ask())
    assert [(s.body.get("stream"), s.body.get("tool_choice")) for s in stub.seen] == [
        (True, "auto"), (None, "none")]
    assert out.text == json.loads(rec("chat-choice-none-message")["response"]["body"])[
        "choices"][0]["message"]["content"]


async def test_the_recorded_follow_up_sends_the_result_and_records_usage(stub: StubServer) -> None:
    # The app's own follow-up after a read_file result (recorded through the proxy): the
    # call goes back with content "", the result as a tool message; the server (whose
    # template drops tool messages) answered with another call, with usage.
    recorded = rec("chat-tool-result-dropped")
    body = recorded["request"]["body"]
    history = [dict(m) for m in body["messages"][1:]]
    history[1]["content"] = None  # (as the engine stores a reply that only calls)
    history[2]["name"] = "read_file"
    stub.add("POST", PATH, reply("chat-tool-result-dropped"))
    out = await collect(provider(stub, stream=False),
                        ModelRequest("gemma-3-270m", history, system=body["messages"][0]["content"],
                                     tools=body["tools"]))
    sent = stub.seen[0].body["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool"]
    assert sent[2]["content"] == "" and sent[2]["tool_calls"][0]["function"]["name"] == "read_file"
    assert sent[3]["content"] == body["messages"][3]["content"] and "okapi census: 14" in sent[3]["content"]
    answer = json.loads(recorded["response"]["body"])
    assert [c.name for c in out.calls] == ["read_file"]
    assert Usage.of(out.finish.usage).input_tokens == answer["usage"]["prompt_tokens"]
