"""Issue 24 §A, per vendor × failure: what the user is shown (see failure_matrix.py).

No failure is a completed turn: each ends in an error line that says what happened,
keeps what had appeared, and offers Retry.
"""

from __future__ import annotations

import re

import pytest

from tests.providers.failure_matrix import (
    ATTEMPTS,
    FAILURES,
    FIRST_EVENT,
    VENDOR_CASES,
    applies,
    run_case,
)
from tests.providers.stubs import Reply, StubServer

LABELS = {"openai-chat": "OpenAI", "openai-responses": "OpenAI", "anthropic": "Anthropic",
          "gemini": "Google Gemini", "azure": "Azure OpenAI", "vertex-gemini": "Google Vertex AI",
          "vertex-claude": "Google Vertex AI", "deepseek": "DeepSeek", "bedrock": "AWS Bedrock",
          "ollama": "Ollama (local)"}
CASES = [(v, f) for v in VENDOR_CASES for f in FAILURES if applies(v, f)]


@pytest.mark.parametrize(("vendor", "failure"), CASES, ids=[f"{v}-{f}" for v, f in CASES])
async def test_what_the_user_is_shown(vendor: str, failure: str) -> None:
    out = await run_case(vendor, failure)
    label = LABELS[vendor]
    assert out.status == "error" and out.retryable, out
    if failure == "cut":
        assert out.shown == "Hel" and out.kept == "Hel" and out.requests == 1
        assert (f"the connection closed before the answer finished: {label} stopped "
                "mid-answer (the part already shown is kept)") in out.error
    elif failure == "empty":
        assert out.shown == "" and out.kept is None and out.requests == ATTEMPTS
        assert (f"the connection closed before the answer finished: {label} accepted the "
                f"request but sent no answer (tried {ATTEMPTS} times)") in out.error
    elif failure.startswith("html"):
        assert out.shown == "" and out.requests == 1  # the same page every time: no retry
        assert re.search(r"the reply from 127\.0\.0\.1:\d+ was not the API's: it sent a web "
                         r'page titled "Sign in to Hotel WiFi"', out.error), out.error
        assert "Check the provider's base URL" in out.error
        assert "choices" not in out.error
    elif failure == "silent":
        assert out.shown == "" and out.requests == ATTEMPTS
        assert (f"{label} opened the answer but sent nothing of it within {FIRST_EVENT:g} s "
                "(waiting for the model's first words)") in out.error
        assert out.waiting == (f"Waiting for {label} · retrying 2/{ATTEMPTS} "
                               f"(answer opened, no words for {FIRST_EVENT:g} s)",)
    if failure == "empty":
        assert out.waiting == (f"Waiting for {label} · retrying 2/{ATTEMPTS} (the answer came back empty)",)
    if failure in ("cut", "html-stream", "html-plain"):
        assert out.waiting == ()


async def test_a_plain_text_200_to_a_non_streaming_call_names_the_server(stub: StubServer) -> None:
    from openworker_qt.core.provider_api import ModelRequest, ProviderError
    from openworker_qt.providers.openai_chat import OpenAIChatProvider
    from tests.providers.helpers import collect, fast, user

    stub.add("POST", "/v1/chat/completions",
             Reply(body="Service moved to /api/v2", content_type="text/plain"))
    provider = OpenAIChatProvider(api_key="k", base_url=stub.url + "/v1", stream=False, **fast())
    with pytest.raises(ProviderError) as info:
        await collect(provider, ModelRequest("gpt-4o", [user("hi")]))
    assert info.value.kind == "malformed"
    assert "was not the API's: it sent \"Service moved to /api/v2\"" in info.value.message
    assert "'str' object" not in str(info.value)


async def test_a_proxy_error_page_reads_as_its_title_not_its_markup(stub: StubServer) -> None:
    from openworker_qt.core.provider_api import ModelRequest, ProviderError
    from openworker_qt.providers.anthropic import AnthropicProvider
    from tests.providers.helpers import collect, fast, user

    page = ("<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center>"
            "<h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>")
    stub.add("POST", "/v1/messages", Reply(status=502, body=page, content_type="text/html"))
    provider = AnthropicProvider(api_key="k", base_url=stub.url, **fast(attempts=2))
    with pytest.raises(ProviderError) as info:
        await collect(provider, ModelRequest("claude-haiku-4-5", [user("hi")]))
    assert info.value.kind == "server" and len(stub.seen) == 2  # a 502 is worth a retry
    assert 'HTTP 502: the server answered with a web page titled "502 Bad Gateway"' in info.value.message
    assert "<" not in info.value.message
