"""Azure OpenAI and Vertex AI (Gemini, Claude) through the real SDKs against a stub
speaking their REST paths: every recorded exchange of the direct providers
(``test_recordings.py``) replayed at the platform's address, whole and re-chunked,
then the platforms' own error bodies, stalls and bad settings.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from openworker_qt.core.provider_api import ModelRequest, ProviderError
from openworker_qt.providers.azure import AzureProvider
from openworker_qt.providers.vertex import VertexProvider
from tests.providers.helpers import collect, drain_into, fast, user
from tests.providers.stubs import Reply, StubServer, load_recording, sse
from tests.providers.test_recordings import (
    ALL,
    CHUNK_IDS,
    CHUNKINGS,
    EXPECT,
    request_from_gemini,
)

PROJECT, REGION = "my-proj", "us-east5"
TOKEN = "fake-vertex-token"


def _google_credentials() -> Any:
    """Credentials holding a static token (no refresh, no network)."""
    from google.oauth2.credentials import Credentials

    return Credentials(token=TOKEN)


def azure(url: str, **kw: Any) -> AzureProvider:
    return AzureProvider(endpoint=url, api_key="azure-key", api_version="2024-10-21",
                         **{**fast(), **kw})


def vertex(url: str, location: str = REGION, **kw: Any) -> VertexProvider:
    return VertexProvider(project=PROJECT, location=location, base_url=url,
                          credentials=_google_credentials(), access_token=TOKEN,
                          **{**fast(), **kw})


def _platform_path(name: str, rec: dict[str, Any], location: str) -> str:
    body = rec["request"]["body"]
    if name.startswith("openai/chat"):
        return f"/openai/deployments/{body['model']}/chat/completions"
    if name.startswith("openai/responses"):
        return "/openai/responses"
    if name.startswith("anthropic/"):
        verb = "streamRawPredict" if body.get("stream") else "rawPredict"
        return (f"/v1/projects/{PROJECT}/locations/{location}/publishers/anthropic/models/"
                f"{body['model']}:{verb}")
    model_verb = rec["request"]["path"].rsplit("/", 1)[1]
    return f"/v1/projects/{PROJECT}/locations/{location}/publishers/google/models/{model_verb}"


PLATFORM = [n for n in ALL if n.split("/")[0] in ("openai", "anthropic", "gemini")]


@pytest.mark.asyncio
@pytest.mark.parametrize("chunking", CHUNKINGS, ids=CHUNK_IDS)
@pytest.mark.parametrize("name", PLATFORM)
async def test_recordings_replay_through_the_platform(stub: StubServer, name: str, chunking: Any) -> None:
    rec = load_recording(name)
    location = "global" if name.startswith("gemini/") else REGION
    mode, seed = chunking if chunking else (None, 0)
    resp = rec["response"]
    path = _platform_path(name, rec, location)
    stub.add("POST", path, Reply(status=resp["status"], body=resp["body"],
                                 content_type=resp["headers"]["content-type"], chunking=mode, seed=seed))
    _, to_request, expected = EXPECT[name]
    body = rec["request"]["body"]
    if name.startswith("openai/"):
        api = "responses" if "responses" in name else "chat"
        provider: Any = azure(stub.url, api=api, stream=bool(body.get("stream", False)))
    else:
        provider = vertex(stub.url, location, stream=bool(body.get("stream", True))
                          and "streamGenerateContent" in rec["request"]["path"]
                          if name.startswith("gemini/") else bool(body.get("stream")))
    request = to_request(body) if to_request else request_from_gemini(rec)
    try:
        result: Any = await collect(provider, request)
    except ProviderError as exc:
        result = exc
    seen = stub.seen[-1]
    assert seen.path == path, (seen.path, path)
    if name.startswith("openai/"):
        assert seen.query == {"api-version": "2024-10-21"}
        assert seen.headers["api-key"] == "azure-key"
    else:
        assert seen.headers["authorization"] == f"Bearer {TOKEN}"
    if isinstance(expected, tuple):
        kind, words = expected
        assert isinstance(result, ProviderError), result
        assert result.kind == kind and words in str(result)
        assert result.provider in ("azure", "vertex")
        return
    assert not isinstance(result, ProviderError), result
    want = expected(rec)
    assert result.text == want["text"]
    assert result.reasoning == want["reasoning"]
    assert [(c.name, json.loads(c.arguments)) for c in result.calls] == [(n, a) for n, a, _ in want["calls"]]
    assert result.finish.reason == ("tool_calls" if want["calls"] else "stop")
    assert result.finish.usage.get("input_tokens", 0) > 0
    assert result.finish.usage.get("output_tokens", 0) > 0
    if name.startswith("anthropic/"):  # Vertex: the model is in the path, the version in the body
        assert "model" not in seen.body and seen.body["anthropic_version"].startswith(("vertex-", "20"))


# ------------------------------------------------------------------ error bodies

CHAT = "/openai/deployments/my-gpt/chat/completions"


def _json(status: int, body: dict[str, Any], **headers: str) -> Reply:
    return Reply(status=status, body=json.dumps(body), headers=headers)


AZURE_ERRORS = {
    "content-filter": (_json(400, {"error": {
        "message": "The response was filtered due to the prompt triggering Azure OpenAI's content "
                   "management policy. Please modify your prompt and retry.",
        "type": None, "param": "prompt", "code": "content_filter", "status": 400,
        "innererror": {"code": "ResponsibleAIPolicyViolation",
                       "content_filter_result": {"hate": {"filtered": True, "severity": "high"}}}}}),
        "bad_request", "Azure's content filter blocked this request"),
    "throttled": (_json(429, {"error": {"code": "429", "message": "Requests to the ChatCompletions_Create "
                                        "Operation under Azure OpenAI API version 2024-10-21 have exceeded "
                                        "token rate limit of your current OpenAI S0 pricing tier."}},
                        **{"retry-after-ms": "1500", "retry-after": "2"}),
                  "rate_limit", "retry after 1.5 s"),
    "bad-key": (_json(401, {"error": {"code": "401", "message": "Access denied due to invalid subscription "
                                      "key or wrong API endpoint."}}),
                "auth", "Azure refused the credentials"),
    "no-role": (_json(403, {"error": {"code": "PermissionDenied", "message": "Principal does not have "
                                      "access to API/Operation."}}),
                "permission", "Cognitive Services OpenAI User"),
    "no-deployment": (_json(404, {"error": {"code": "DeploymentNotFound", "message": "The API deployment "
                                            "for this resource does not exist."}}),
                      "not_found", "no deployment named 'my-gpt'"),
}


@pytest.mark.parametrize("case", list(AZURE_ERRORS))
async def test_azure_errors_are_explained(stub: StubServer, case: str) -> None:
    reply, kind, words = AZURE_ERRORS[case]
    stub.add("POST", CHAT, reply)
    with pytest.raises(ProviderError) as info:
        await collect(azure(stub.url), ModelRequest("my-gpt", [user("hi")]))
    error = info.value
    assert error.kind == kind and words in error.message, error.message
    assert error.provider == "azure" and error.status == reply.status
    retried = kind == "rate_limit"
    assert len(stub.seen) == (3 if retried else 1)  # only throttling is tried again
    if retried:
        assert error.retry_after == 1.5


GEMINI_PATH = f"/v1/projects/{PROJECT}/locations/global/publishers/google/models/gemini-2.5-flash"
CLAUDE_PATH = f"/v1/projects/{PROJECT}/locations/{REGION}/publishers/anthropic/models/claude-sonnet-4-5"

VERTEX_ERRORS = {
    "quota": (429, "RESOURCE_EXHAUSTED", "Resource exhausted. Please try again later.",
              "rate_limit", "Vertex AI quota for gemini-2.5-flash"),
    "denied": (403, "PERMISSION_DENIED", "Permission 'aiplatform.endpoints.predict' denied on resource.",
               "permission", "enable the Vertex AI API"),
    "unknown-model": (404, "NOT_FOUND", "Publisher Model `gemini-2.5-flash` was not found or your project "
                      "does not have access to it.", "not_found", "try another location"),
    "signed-out": (401, "UNAUTHENTICATED", "Request had invalid authentication credentials.",
                   "auth", "gcloud auth application-default login"),
}


@pytest.mark.parametrize("case", list(VERTEX_ERRORS))
async def test_vertex_gemini_errors_are_explained(stub: StubServer, case: str) -> None:
    status, code, text, kind, words = VERTEX_ERRORS[case]
    stub.add("POST", GEMINI_PATH + ":streamGenerateContent",
             _json(status, {"error": {"code": status, "message": text, "status": code}}))
    with pytest.raises(ProviderError) as info:
        await collect(vertex(stub.url, "global"), ModelRequest("gemini-2.5-flash", [user("hi")]))
    assert info.value.kind == kind and words in info.value.message, info.value.message
    assert info.value.provider == "vertex" and text[:20] in info.value.message


async def test_vertex_claude_overloaded_and_denied(stub: StubServer) -> None:
    stub.add("POST", CLAUDE_PATH + ":streamRawPredict",
             _json(403, {"type": "error", "error": {"type": "permission_error",
                                                    "message": "Model not enabled for this project"}}))
    with pytest.raises(ProviderError) as info:
        await collect(vertex(stub.url), ModelRequest("claude-sonnet-4-5", [user("hi")]))
    assert info.value.kind == "permission" and "Model Garden" in info.value.message
    assert "Model not enabled" in info.value.message and len(stub.seen) == 1


async def test_vertex_claude_429_is_retried_then_reported(stub: StubServer) -> None:
    stub.add("POST", CLAUDE_PATH + ":streamRawPredict",
             _json(429, {"type": "error", "error": {"type": "rate_limit_error", "message": "Quota exceeded"}},
                   **{"retry-after": "3"}))
    with pytest.raises(ProviderError) as info:
        await collect(vertex(stub.url), ModelRequest("claude-sonnet-4-5", [user("hi")]))
    assert info.value.kind == "rate_limit" and info.value.retry_after == 3
    assert len(stub.seen) == 3


# ------------------------------------------------------------------ stalls

STALLS = {
    "azure": (CHAT, "data: " + json.dumps({"id": "c", "object": "chat.completion.chunk", "created": 1,
              "model": "m", "choices": [{"index": 0, "delta": {"content": "Hel"}, "finish_reason": None}]}) + "\n\n",
              "my-gpt"),
    "vertex-gemini": (GEMINI_PATH + ":streamGenerateContent",
                      "data: " + json.dumps({"candidates": [{"content": {"role": "model", "parts": [
                          {"text": "Hel"}]}}]}) + "\r\n\r\n", "gemini-2.5-flash"),
    "vertex-claude": (CLAUDE_PATH + ":streamRawPredict", sse({
        "type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant",
                                             "model": "claude-sonnet-4-5", "content": [], "stop_reason": None,
                                             "stop_sequence": None, "usage": {"input_tokens": 3, "output_tokens": 1}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hel"}},
        event_names=True), "claude-sonnet-4-5"),
}


@pytest.mark.parametrize("case", list(STALLS))
async def test_a_stalled_answer_is_bounded_and_keeps_what_came(stub: StubServer, case: str) -> None:
    """The server sends a few words then goes silent: the idle limit ends the call."""
    path, body, model = STALLS[case]
    stub.add("POST", path, Reply(body=body + "data: ", content_type="text/event-stream",
                                 stall_after=len(body)))
    make = azure if case == "azure" else vertex
    location = {"location": "global"} if case == "vertex-gemini" else {}
    provider = make(stub.url, **location, **fast(stall=0.5))  # type: ignore[arg-type]
    shown: list[Any] = []
    with pytest.raises(ProviderError) as info:
        await drain_into(provider.stream(ModelRequest(model, [user("hi")])), shown)
    assert info.value.kind == "timeout", info.value
    assert "".join(getattr(c, "text", "") for c in shown) == "Hel"
    assert len(stub.seen) == 1  # words were shown: not tried again


# ------------------------------------------------------------------ images and PDFs

PNG = "data:image/png;base64,iVBORw0KGgo="
PDF = "data:application/pdf;base64,JVBERi0xLjQ="
ATTACHED = [{"role": "user", "content": [
    {"type": "text", "text": "look"}, {"type": "image_url", "image_url": {"url": PNG}},
    {"type": "file", "file": {"filename": "a.pdf", "file_data": PDF}}]}]


def _azure_ok() -> Reply:
    def chunk(delta: dict[str, Any], finish: str | None = None, usage: Any = None) -> dict[str, Any]:
        return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}] if delta or finish else [],
                **({"usage": usage} if usage else {})}
    usage = {"prompt_tokens": 120, "completion_tokens": 2, "total_tokens": 122,
             "prompt_tokens_details": {"cached_tokens": 100}}
    return Reply(body=sse(chunk({"role": "assistant", "content": "seen"}), chunk({}, "stop"),
                          chunk({}, usage=usage), "[DONE]"), content_type="text/event-stream")


def _gemini_ok() -> Reply:
    return Reply(body=sse({"candidates": [{"content": {"role": "model", "parts": [{"text": "seen"}]},
                                           "finishReason": "STOP"}],
                           "usageMetadata": {"promptTokenCount": 120, "candidatesTokenCount": 2,
                                             "cachedContentTokenCount": 100, "totalTokenCount": 122}},
                          sep="\r\n\r\n"), content_type="text/event-stream")


def _claude_ok() -> Reply:
    usage = {"input_tokens": 20, "output_tokens": 1, "cache_read_input_tokens": 100,
             "cache_creation_input_tokens": 0}
    return Reply(body=sse(
        {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant",
                                              "model": "claude-sonnet-4-5", "content": [], "stop_reason": None,
                                              "stop_sequence": None, "usage": usage}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "seen"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
         "usage": {"output_tokens": 2}},
        {"type": "message_stop"}, event_names=True), content_type="text/event-stream")


async def test_images_pdfs_and_cached_tokens_on_each_platform(stub: StubServer) -> None:
    from openworker_qt.core.messages import outbound

    stub.add("POST", CHAT, _azure_ok())
    stub.add("POST", GEMINI_PATH + ":streamGenerateContent", _gemini_ok())
    stub.add("POST", CLAUDE_PATH + ":streamRawPredict", _claude_ok())
    az = azure(stub.url, deployments={"my-gpt": "gpt-4o"})
    got = await collect(az, ModelRequest("my-gpt", outbound(ATTACHED, az.capabilities("my-gpt"))))
    assert got.text == "seen" and got.finish.usage["cache_read_tokens"] == 100
    parts = stub.requests_to("/chat/completions")[0].body["messages"][0]["content"]
    assert [p["type"] for p in parts] == ["text", "image_url", "file"]

    gv = vertex(stub.url, "global")
    got = await collect(gv, ModelRequest("gemini-2.5-flash", outbound(ATTACHED, gv.capabilities("gemini-2.5-flash"))))
    assert got.text == "seen" and got.finish.usage["cache_read_tokens"] == 100
    sent = stub.requests_to(":streamGenerateContent")[0].body["contents"][0]["parts"]
    assert [next(iter(p)) for p in sent] == ["text", "inlineData", "inlineData"]
    assert {p["inlineData"].get("mimeType") or p["inlineData"].get("mime_type") for p in sent[1:]} == {
        "image/png", "application/pdf"}

    cv = vertex(stub.url)
    got = await collect(cv, ModelRequest("claude-sonnet-4-5", outbound(ATTACHED, cv.capabilities("claude-sonnet-4-5"))))
    assert got.text == "seen" and got.finish.usage["cache_read_tokens"] == 100
    blocks = stub.requests_to(":streamRawPredict")[0].body["messages"][0]["content"]
    assert [b["type"] for b in blocks] == ["text", "image", "document"]


# ------------------------------------------------------------------ settings and credentials


def test_missing_settings_are_named() -> None:
    from openworker_qt.providers import azure as az
    from openworker_qt.providers import vertex as vx

    with pytest.raises(ProviderError, match="providers.azure.endpoint"):
        az.build({}, "k", {}, None)
    with pytest.raises(ProviderError, match="providers.vertex.project"):
        vx.build({"location": "global"}, {}, None)


def test_a_bad_service_account_file_is_named(tmp_path: Any) -> None:
    from openworker_qt.providers import vertex as vx

    missing = tmp_path / "nope.json"
    with pytest.raises(ProviderError, match="does not exist") as info:
        vx.build({"project": "p", "credentials_file": str(missing)}, {}, None)
    assert "providers.vertex.credentials_file" in info.value.message
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    with pytest.raises(ProviderError, match="is not a JSON service-account key"):
        vx.build({"project": "p", "credentials_file": str(text)}, {}, None)
    other = tmp_path / "other.json"
    other.write_text('{"hello": 1}')
    with pytest.raises(ProviderError, match="not a Google credentials file"):
        vx.build({"project": "p", "credentials_file": str(other)}, {}, None)


async def test_entra_token_from_a_command_is_sent_and_kept(stub: StubServer, tmp_path: Any) -> None:
    """No key: the configured command's token goes as a bearer token, run once."""
    from openworker_qt.providers.azure import EntraToken

    runs = tmp_path / "runs"
    script = tmp_path / "token.sh"
    script.write_text(f"#!/bin/sh\necho run >> {runs}\necho entra-token-1\n")
    script.chmod(0o755)
    stub.add("POST", CHAT, _azure_ok())
    provider = AzureProvider(endpoint=stub.url, token_provider=EntraToken(str(script), environ={}),
                             **fast())
    for _ in range(2):
        await collect(provider, ModelRequest("my-gpt", [user("hi")]))
    assert [s.headers["authorization"] for s in stub.seen] == ["Bearer entra-token-1"] * 2
    assert "api-key" not in stub.seen[0].headers
    assert runs.read_text().count("run") == 1


async def test_entra_token_from_the_environment_and_a_failing_command(stub: StubServer) -> None:
    from openworker_qt.providers.azure import EntraToken

    stub.add("POST", CHAT, _azure_ok())
    provider = AzureProvider(endpoint=stub.url, token_provider=EntraToken(
        "false", environ={"AZURE_OPENAI_AD_TOKEN": "env-token"}), **fast())
    await collect(provider, ModelRequest("my-gpt", [user("hi")]))
    assert stub.seen[0].headers["authorization"] == "Bearer env-token"
    failing = AzureProvider(endpoint=stub.url, token_provider=EntraToken(
        "sh -c 'echo not signed in >&2; exit 1'", environ={}), **fast(attempts=1))
    with pytest.raises(ProviderError) as info:
        await collect(failing, ModelRequest("my-gpt", [user("hi")]))
    assert info.value.kind == "auth" and "not signed in" in info.value.message
    assert len(stub.seen) == 1  # nothing was sent without credentials


async def test_the_app_router_builds_both_from_config(stub: StubServer) -> None:
    """``azure:<deployment>`` and ``vertex:<model>`` from the app's [providers] table."""
    from openworker_qt.providers.router import build_router
    from openworker_qt.providers.vertex import VertexAnthropicProvider, VertexGeminiProvider

    config = {"providers": {
        "azure": {"endpoint": stub.url, "api_version": "2025-01-01-preview",
                  "deployments": {"my-gpt": "gpt-4o"}},
        "vertex": {"project": PROJECT, "location": REGION, "base_url": stub.url}}}
    router = build_router(config, lambda name: "the-key" if name == "AZURE_OPENAI_API_KEY" else None,
                          **fast())
    stub.add("POST", CHAT, _azure_ok())
    client, model = router.resolve("azure:my-gpt")
    assert model == "my-gpt" and client.capabilities("my-gpt").vision
    await collect(client, ModelRequest(model, [user("hi")]))
    assert stub.seen[0].headers["api-key"] == "the-key"
    assert stub.seen[0].query == {"api-version": "2025-01-01-preview"}
    vx, model = router.resolve("vertex:claude-sonnet-4-5@20250929")
    assert isinstance(vx._for(model), VertexAnthropicProvider)
    assert isinstance(vx._for("gemini-2.5-pro"), VertexGeminiProvider)
    assert vx.capabilities(model).pdf and vx.capabilities("gemini-2.5-pro").vision


def test_prices_follow_the_served_model() -> None:
    from openworker_qt.providers.pricing import PriceTable

    table = PriceTable()
    assert table.price("vertex:gemini-2.5-pro") == table.price("gemini:gemini-2.5-pro") is not None
    assert table.price("vertex:claude-sonnet-4-5@20250929") == table.price("anthropic:claude-sonnet-4-5")
    assert table.price("azure:gpt-4o") == table.price("gpt-4o") is not None
    assert table.price("azure:my-team-deployment") is None  # no price known, not a guess
    own, _ = PriceTable.from_config({"azure:my-team-deployment": {"input": 1.0, "output": 2.0}})
    assert own.price("azure:my-team-deployment") is not None


# ------------------------------------------------------------------ the "Test" button


async def test_the_vertex_test_counts_tokens(stub: StubServer) -> None:
    from openworker_qt.qt.cloud_setup import validate_cloud

    path = f"/v1/projects/{PROJECT}/locations/global/publishers/google/models/gemini-2.5-flash:countTokens"
    stub.add("POST", path, _json(200, {"totalTokens": 1}))
    await validate_cloud("vertex", {"project": PROJECT, "location": "global"}, base_url=stub.url,
                         credentials=_google_credentials())
    assert [s.path for s in stub.seen] == [path]
    assert stub.seen[0].headers["authorization"] == f"Bearer {TOKEN}"
    stub.routes.clear()
    stub.add("POST", path, _json(403, {"error": {"code": 403, "status": "PERMISSION_DENIED",
                                                 "message": "Vertex AI API has not been used in project"}}))
    with pytest.raises(ProviderError) as info:
        await validate_cloud("vertex", {"project": PROJECT, "location": "global"}, base_url=stub.url,
                             credentials=_google_credentials())
    assert info.value.kind == "permission" and "enable the Vertex AI API" in info.value.message
    assert len(stub.seen) == 2  # not retried


async def test_the_azure_test_asks_for_one_token(stub: StubServer) -> None:
    from openworker_qt.qt.cloud_setup import cloud_settings, validate_cloud

    values = {"endpoint": "https://x.openai.azure.com/", "deployment": "my-gpt", "model": "gpt-4o"}
    assert cloud_settings("azure", values) == {"endpoint": "https://x.openai.azure.com",
                                               "deployments": {"my-gpt": "gpt-4o"}}
    stub.add("POST", CHAT, _azure_ok())
    await validate_cloud("azure", values, "the-key", base_url=stub.url)
    assert stub.seen[0].body["max_completion_tokens"] == 1
    assert stub.seen[0].headers["api-key"] == "the-key"
    stub.routes.clear()
    stub.add("POST", CHAT, AZURE_ERRORS["no-deployment"][0])
    with pytest.raises(ProviderError, match="no deployment named 'my-gpt'"):
        await validate_cloud("azure", values, "the-key", base_url=stub.url)


async def test_the_test_names_a_missing_setting() -> None:
    from openworker_qt.qt.cloud_setup import validate_cloud

    with pytest.raises(ProviderError, match=r"project id \(providers.vertex.project\)"):
        await validate_cloud("vertex", {"location": "global"})
    with pytest.raises(ProviderError, match=r"deployment \(providers.azure.deployment\)"):
        await validate_cloud("azure", {"endpoint": "https://x.openai.azure.com"}, "k")


async def test_azure_filtering_an_answer_midway_ends_it_as_filtered(stub: StubServer) -> None:
    """Azure's output filter stops a stream with ``finish_reason: content_filter``: the
    words so far stay, and the turn ends as filtered (like Gemini's SAFETY)."""
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish,
                             "content_filter_results": {"violence": {"filtered": finish is not None,
                                                                     "severity": "medium"}}}]}
    stub.add("POST", CHAT, Reply(body=sse(chunk({"role": "assistant", "content": "Once upon"}),
                                          chunk({}, "content_filter"), "[DONE]"),
                                 content_type="text/event-stream"))
    got = await collect(azure(stub.url), ModelRequest("my-gpt", [user("a story")]))
    assert got.text == "Once upon" and got.finish.reason == "content_filter"


async def test_azure_responses_sends_the_reasoning_effort(stub: StubServer) -> None:
    rec = load_recording("openai/responses-stream-reasoning-text-function-call.json")
    stub.add("POST", "/openai/responses", Reply(body=rec["response"]["body"],
                                                content_type="text/event-stream"))
    provider = azure(stub.url, api="responses", reasoning_effort="high",
                     deployments={"my-o4": "o4-mini"})
    got = await collect(provider, ModelRequest("my-o4", [user("think")]))
    assert got.text and stub.seen[0].body["reasoning"]["effort"] == "high"
    assert stub.seen[0].body["model"] == "my-o4"
