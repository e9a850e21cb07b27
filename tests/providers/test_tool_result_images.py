"""An image ``read_file`` opened reaches a model with vision in each vendor's own format
(local stubs speaking the real wire protocol); a model without vision gets a note."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core.messages import TOOL_IMAGE_NOTE, Capabilities, outbound, tool_result
from openworker_qt.core.pdf import encode_png
from openworker_qt.core.provider_api import ModelRequest
from openworker_qt.core.tool_api import ToolContext
from openworker_qt.providers.anthropic import AnthropicProvider
from openworker_qt.providers.compat import VENDORS
from openworker_qt.providers.gemini import GeminiProvider
from openworker_qt.providers.openai_chat import OpenAIChatProvider
from openworker_qt.providers.openai_responses import OpenAIResponsesProvider
from openworker_qt.tools.files import read_file
from tests.providers import test_anthropic_wire as anth
from tests.providers import test_gemini_wire as gem
from tests.providers import test_openai_wire as chat
from tests.providers.helpers import TOOL, collect, fast, user
from tests.providers.stubs import StubServer, load_recording

pytestmark = pytest.mark.asyncio

PNG = encode_png(2, 2, bytes([255, 0, 0] * 4), 6, 3)
B64 = base64.b64encode(PNG).decode()


async def history_with_a_picture(tmp_path: Path) -> list[Any]:
    """A turn where the model read ``chart.png`` (through the real tool) and a later
    call to another tool that returned text."""
    (tmp_path / "chart.png").write_bytes(PNG)
    result = await read_file({"path": "chart.png"}, ToolContext(session_id="s", workspace=tmp_path))
    assert not result.is_error and result.attachments
    return [
        user("What does the chart show?"),
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "read_file", "arguments": '{"path": "chart.png"}'}},
            {"id": "call_2", "type": "function",
             "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}},
        ]},
        tool_result("call_1", "read_file", result.content, display=result.display,
                    attachments=result.attachments),
        tool_result("call_2", "get_weather", "sun"),
    ]


async def test_anthropic_gets_the_image_inside_the_tool_result(
        stub: StubServer, tmp_path: Path) -> None:
    stub.add("POST", anth.PATH, anth.reply(
        anth.START, anth.block_start(0, {"type": "text", "text": ""}),
        anth.delta(0, {"type": "text_delta", "text": "red"}), anth.stop(0), *anth.end("end_turn")))
    p = AnthropicProvider(api_key="sk-ant", base_url=stub.url, **fast())
    model = "claude-sonnet-4-6"
    assert p.capabilities(model).vision
    history = await history_with_a_picture(tmp_path)
    await collect(p, ModelRequest(model, outbound(history, p.capabilities(model)), tools=[TOOL]))
    last = stub.seen[0].body["messages"][-1]
    assert last["role"] == "user"
    first, second = last["content"][:2]
    assert first["type"] == "tool_result" and first["tool_use_id"] == "call_1"
    assert first["content"][0]["type"] == "text"
    assert "attached below for you to see" in first["content"][0]["text"]
    assert first["content"][1] == {
        "type": "image", "source": {"type": "base64", "media_type": "image/png", "data": B64}}
    assert second["content"] == "sun"  # a plain result stays a string


async def test_openai_chat_follows_the_results_with_the_image(
        stub: StubServer, tmp_path: Path) -> None:
    stub.add("POST", chat.PATH, chat.stream_reply(chat.chunk({"content": "red"}),
                                                  chat.chunk({}, "stop")))
    p = OpenAIChatProvider(api_key="k", base_url=stub.url + "/v1", **fast())
    history = await history_with_a_picture(tmp_path)
    await collect(p, ModelRequest("gpt-4o", outbound(history, p.capabilities("gpt-4o")),
                                  tools=[TOOL]))
    msgs = stub.seen[0].body["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant", "tool", "tool", "user"]
    # Tool messages carry text only; every result stays right after the call.
    assert isinstance(msgs[2]["content"], str) and msgs[2]["tool_call_id"] == "call_1"
    assert msgs[3]["content"] == "sun"
    pictures = msgs[4]["content"]
    assert pictures[0]["type"] == "text" and "read_file" in pictures[0]["text"]
    assert pictures[1] == {"type": "image_url",
                           "image_url": {"url": f"data:image/png;base64,{B64}"}}


async def test_openai_responses_puts_the_image_in_the_function_output(
        stub: StubServer, tmp_path: Path) -> None:
    rec = load_recording("openai/responses-stream-function-call.json")
    stub.replay(rec)
    p = OpenAIResponsesProvider(api_key="k", base_url=stub.url + "/v1", **fast())
    history = await history_with_a_picture(tmp_path)
    await collect(p, ModelRequest("gpt-4o", outbound(history, p.capabilities("gpt-4o")),
                                  tools=[TOOL]))
    items = stub.seen[0].body["input"]
    outputs = [i for i in items if i.get("type") == "function_call_output"]
    assert [o["call_id"] for o in outputs] == ["call_1", "call_2"]
    parts = outputs[0]["output"]
    assert parts[0]["type"] == "input_text" and "attached below" in parts[0]["text"]
    assert parts[1] == {"type": "input_image", "image_url": f"data:image/png;base64,{B64}",
                        "detail": "auto"}
    assert outputs[1]["output"] == "sun"


async def test_gemini_gets_the_image_as_a_part_of_the_function_response(
        stub: StubServer, tmp_path: Path) -> None:
    stub.add("POST", gem.PATH, gem.reply(gem.cand([{"text": "red"}], "STOP")))
    p = GeminiProvider(api_key="g-key", base_url=stub.url, **fast())
    history = await history_with_a_picture(tmp_path)
    await collect(p, ModelRequest("gemini-2.5-flash",
                                  outbound(history, p.capabilities("gemini-2.5-flash")),
                                  tools=[TOOL]))
    contents = stub.seen[0].body["contents"]
    responses = [part["functionResponse"] for part in contents[-1]["parts"]]
    assert [r["name"] for r in responses] == ["read_file", "get_weather"]
    assert "attached below" in responses[0]["response"]["output"]
    inline = responses[0]["parts"][0].get("inlineData") or responses[0]["parts"][0]["inline_data"]
    assert (inline.get("mimeType") or inline.get("mime_type")) == "image/png"
    assert base64.urlsafe_b64decode(inline["data"]) == PNG
    assert "parts" not in responses[1]


async def test_a_model_without_vision_gets_a_note_not_the_image(
        stub: StubServer, tmp_path: Path) -> None:
    stub.add("POST", chat.PATH, chat.stream_reply(chat.chunk({"content": "ok"}),
                                                  chat.chunk({}, "stop")))
    p = OpenAIChatProvider(VENDORS["ollama"], api_key="k", base_url=stub.url + "/v1", **fast())
    caps = p.capabilities("llama3.2")
    assert not caps.vision
    history = await history_with_a_picture(tmp_path)
    await collect(p, ModelRequest("llama3.2", outbound(history, caps), tools=[TOOL]))
    body = stub.seen[0].body
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "tool", "tool"]
    text = body["messages"][2]["content"]
    assert TOOL_IMAGE_NOTE.format(name="chart.png") in text
    assert B64 not in str(body)
    # The stored history still holds the picture, for a model that can see it later.
    assert history[2]["attachments"][0]["image_url"]["url"].endswith(B64)


async def test_outbound_keeps_only_well_formed_image_parts_without_display_keys() -> None:
    msg = tool_result("c", "read_file", "x", attachments=[
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA=="}, "name": "a.png"},
        {"type": "image_url", "image_url": {}},
        {"type": "file", "file": {"file_data": "data:application/pdf;base64,AA=="}},
    ])
    [seen] = outbound([msg], Capabilities(vision=True))
    assert seen.get("attachments") == [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA=="}}]
    [blind] = outbound([msg], Capabilities(vision=False))
    assert "attachments" not in blind and "a.png" in str(blind["content"])


async def test_a_pdf_stays_text(tmp_path: Path) -> None:
    from tests.tools.test_read_caps import tiny_pdf

    (tmp_path / "doc.pdf").write_bytes(tiny_pdf("Renewal due in March"))
    result = await read_file({"path": "doc.pdf"}, ToolContext(session_id="s", workspace=tmp_path))
    assert "Renewal due in March" in result.content and result.attachments == ()
