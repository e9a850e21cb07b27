"""Through the engine: an image ``read_file`` opened is stored with the result and sent
to a model with vision; a model without vision is told, in words, what it cannot see."""

from __future__ import annotations

from pathlib import Path

from openworker_qt.core.context import IMAGE_TOKENS, estimate_tokens
from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.history import MemoryHistory
from openworker_qt.core.messages import TOOL_IMAGE_NOTE, Capabilities
from openworker_qt.core.pdf import encode_png
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.tools.files import file_tools
from tests.core.helpers import AllowAll, StaticResolver, call, collect

PNG = encode_png(3, 1, bytes([0, 0, 255] * 3), 9, 3)


def engine(tmp_path: Path, vision: bool) -> tuple[TurnEngine, ScriptedProvider]:
    (tmp_path / "logo.png").write_bytes(PNG)
    provider = ScriptedProvider(
        [{"tool_calls": [call("read_file", {"path": "logo.png"}, "r1")]}, {"text": "Blue."}],
        caps=Capabilities(vision=vision))
    return TurnEngine(session_id="s1", store=MemoryHistory(), resolver=StaticResolver(provider),
                      model="m", tools=ToolRegistry(file_tools()), decider=AllowAll(),
                      workspace=tmp_path), provider


async def test_a_model_with_vision_is_sent_the_image(tmp_path: Path) -> None:
    eng, provider = engine(tmp_path, vision=True)
    await collect(eng.run("What colour is the logo?"))
    stored = [m for m in eng.history if m["role"] == "tool"][0]
    assert stored.get("attachments", [{}])[0].get("name") == "logo.png"
    sent = [m for m in provider.requests[1].messages if m["role"] == "tool"][0]
    [part] = sent.get("attachments", [])
    assert part == {"type": "image_url", "image_url": stored["attachments"][0]["image_url"]}
    assert estimate_tokens(sent) >= IMAGE_TOKENS  # counted as a picture


async def test_a_model_without_vision_is_told_instead(tmp_path: Path) -> None:
    eng, provider = engine(tmp_path, vision=False)
    await collect(eng.run("What colour is the logo?"))
    sent = [m for m in provider.requests[1].messages if m["role"] == "tool"][0]
    assert "attachments" not in sent
    assert TOOL_IMAGE_NOTE.format(name="logo.png") in str(sent["content"])


def test_redaction_leaves_an_images_bytes_alone_and_still_redacts_the_text() -> None:
    from openworker_qt.core.history import scrub
    from openworker_qt.core.messages import tool_result

    seen: list[str] = []

    def redact(text: str) -> str:
        seen.append(text)
        return text.replace("sk-secret", "[REDACTED]")

    url = "data:image/png;base64," + "QUJD" * 1000
    msg = tool_result("c", "read_file", "key sk-secret", attachments=[
        {"type": "image_url", "image_url": {"url": url}, "name": "sk-secret.png"}])
    clean = scrub(msg, redact)
    assert clean["content"] == "key [REDACTED]"
    assert clean["attachments"][0]["name"] == "[REDACTED].png"
    assert clean["attachments"][0]["image_url"]["url"] == url
    assert url not in seen  # never scanned
    # A URL that is not an image's data stays subject to redaction.
    other = scrub({"url": "https://x.test/?k=sk-secret"}, redact)
    assert other == {"url": "https://x.test/?k=[REDACTED]"}
