"""AWS Bedrock Converse stream through the real boto3 against a stub speaking its
wire protocol (``POST /model/{id}/converse-stream``, event-stream framing, AWS
error bodies with ``x-amzn-ErrorType``)."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from openworker_qt.core.provider_api import ModelRequest, ProviderError
from openworker_qt.providers.bedrock import BedrockProvider
from tests.providers.eventstream import exception, stream
from tests.providers.helpers import TOOL, TOOL2, SleepRecorder, collect, drain_into, fast, user
from tests.providers.stubs import Reply, StubServer

pytestmark = pytest.mark.asyncio
MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0"
PATH = f"/model/{MODEL}/converse-stream"
KEYS = {"aws_access_key_id": "AKIDEXAMPLE", "aws_secret_access_key": "secret"}
EVENTSTREAM = "application/vnd.amazon.eventstream"


@pytest.fixture(autouse=True)
def _no_aws_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    for name in ("AWS_BEARER_TOKEN_BEDROCK", "AWS_PROFILE", "AWS_DEFAULT_PROFILE",
                 "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "aws-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "aws-credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")


def provider(stub: StubServer, *, sleep: SleepRecorder | None = None, stall: float = 5.0,
             attempts: int = 3, **kw: Any) -> BedrockProvider:
    kw.setdefault("credentials", KEYS)
    return BedrockProvider(base_url=stub.url, region="eu-west-1",
                           **fast(sleep, stall=stall, attempts=attempts), **kw)


def reply(*events: tuple[str, dict[str, Any]], **kw: Any) -> Reply:
    return Reply(body=stream(*events), content_type=EVENTSTREAM, **kw)


def error(status: int, code: str, text: str) -> Reply:
    return Reply(status=status, body=json.dumps({"message": text}),
                 headers={"x-amzn-ErrorType": f"{code}:http://internal.amazon.com/coral/com.amazon.bedrock/"})


START = ("messageStart", {"role": "assistant"})
CACHE_POINT = {"cachePoint": {"type": "default"}}


def text(i: int, piece: str) -> tuple[str, dict[str, Any]]:
    return ("contentBlockDelta", {"contentBlockIndex": i, "delta": {"text": piece}})


def stop(i: int) -> tuple[str, dict[str, Any]]:
    return ("contentBlockStop", {"contentBlockIndex": i})


def end(reason: str = "end_turn", **usage: int) -> list[tuple[str, dict[str, Any]]]:
    counts = {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15, **usage}
    return [("messageStop", {"stopReason": reason}),
            ("metadata", {"usage": counts, "metrics": {"latencyMs": 12}})]


def tool(i: int, call_id: str, name: str, *pieces: str) -> list[tuple[str, dict[str, Any]]]:
    return [("contentBlockStart", {"contentBlockIndex": i, "start": {"toolUse": {"toolUseId": call_id, "name": name}}}),
            *[("contentBlockDelta", {"contentBlockIndex": i, "delta": {"toolUse": {"input": p}}}) for p in pieces],
            stop(i)]


async def test_text_streams_with_system_prompt_and_signed_request(stub: StubServer) -> None:
    stub.add("POST", PATH, reply(START, text(0, "Hello "), text(0, "there."), stop(0), *end(), chunking="random"))
    got = await collect(provider(stub), ModelRequest(model=MODEL, messages=[user("hi")], system="Be brief."))
    assert got.text == "Hello there."
    assert got.finish.reason == "stop"
    assert got.finish.usage == {"input_tokens": 10, "output_tokens": 5}
    seen = stub.requests_to("converse-stream")[0]
    # prompt caching: a cache point after the system prompt and the conversation so far
    assert seen.body["system"] == [{"text": "Be brief."}, CACHE_POINT]
    assert seen.body["messages"] == [{"role": "user", "content": [{"text": "hi"}, CACHE_POINT]}]
    assert seen.headers["authorization"].startswith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
    assert "/eu-west-1/bedrock/aws4_request" in seen.headers["authorization"]


async def test_reasoning_and_parallel_tool_calls_round_trip(stub: StubServer) -> None:
    reasoning = [
        ("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"reasoningContent": {"text": "Two "}}}),
        ("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"reasoningContent": {"text": "cities."}}}),
        ("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"reasoningContent": {"signature": "c2ln"}}}),
        stop(0),
    ]
    first = reply(START, *reasoning, text(1, "Checking both."), stop(1),
                  *tool(2, "tooluse_a", "get_weather", '{"ci', 'ty": "Lima"}'),
                  *tool(3, "tooluse_b", "get_time", '{"city": "Quito"}'),
                  *end("tool_use"), chunking=7)
    second = reply(START, text(0, "Sunny, noon."), stop(0), *end())
    stub.add("POST", PATH, first, second)
    bedrock = provider(stub)
    request = ModelRequest(model=MODEL, messages=[user("weather and time?")], tools=[TOOL, TOOL2])
    got = await collect(bedrock, request)
    assert got.reasoning == "Two cities."
    assert got.text == "Checking both."
    assert got.parsed_calls == [("get_weather", {"city": "Lima"}), ("get_time", {"city": "Quito"})]
    assert got.finish.reason == "tool_calls"
    sent = stub.requests_to("converse-stream")[0].body
    assert [t["toolSpec"]["name"] for t in sent["toolConfig"]["tools"][:2]] == ["get_weather", "get_time"]
    assert sent["toolConfig"]["tools"][2] == CACHE_POINT
    assert sent["toolConfig"]["tools"][0]["toolSpec"]["inputSchema"]["json"]["required"] == ["city"]
    assert sent["additionalModelRequestFields"] == {"thinking": {"type": "enabled", "budget_tokens": 4096}}

    history = [user("weather and time?"), got.assistant_message(),
               {"role": "tool", "tool_call_id": "tooluse_a", "content": "sunny"},
               {"role": "tool", "tool_call_id": "tooluse_b", "content": "noon"}]
    again = await collect(bedrock, ModelRequest(model=MODEL, messages=history, tools=[TOOL, TOOL2]))
    assert again.text == "Sunny, noon."
    back = stub.requests_to("converse-stream")[1].body["messages"]
    assert back[1]["role"] == "assistant"
    assert back[1]["content"][0] == {"reasoningContent": {"reasoningText": {"text": "Two cities.", "signature": "c2ln"}}}
    assert back[1]["content"][1:] == [
        {"text": "Checking both."},
        {"toolUse": {"toolUseId": "tooluse_a", "name": "get_weather", "input": {"city": "Lima"}}},
        {"toolUse": {"toolUseId": "tooluse_b", "name": "get_time", "input": {"city": "Quito"}}},
    ]
    assert back[2] == {"role": "user", "content": [
        {"toolResult": {"toolUseId": "tooluse_a", "content": [{"text": "sunny"}]}},
        {"toolResult": {"toolUseId": "tooluse_b", "content": [{"text": "noon"}]}},
        CACHE_POINT,
    ]}
    assert CACHE_POINT not in back[0]["content"]  # one moving point, not one per turn


async def test_image_and_pdf_go_as_bytes_and_usage_counts_cache(stub: StubServer) -> None:
    png = b"\x89PNG\r\n\x1a\nfake"
    pdf = b"%PDF-1.4 fake"
    stub.add("POST", "/model/us.amazon.nova-pro-v1:0/converse-stream",
             reply(START, text(0, "A chart."), stop(0),
                   *end(inputTokens=30, outputTokens=4, cacheReadInputTokens=100, cacheWriteInputTokens=20)))
    content = [
        {"type": "text", "text": "what is this?"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(png).decode()}},
        {"type": "file", "file": {"filename": "q3 report.pdf",
                                  "file_data": "data:application/pdf;base64," + base64.b64encode(pdf).decode()}},
    ]
    got = await collect(provider(stub), ModelRequest(model="us.amazon.nova-pro-v1:0",
                                                     messages=[{"role": "user", "content": content}]))
    assert got.text == "A chart."
    assert got.finish.usage == {"input_tokens": 150, "output_tokens": 4,
                                "cache_read_tokens": 100, "cache_write_tokens": 20}
    blocks = stub.requests_to("converse-stream")[0].body["messages"][0]["content"]
    assert blocks[1] == {"image": {"format": "png", "source": {"bytes": base64.b64encode(png).decode()}}}
    assert blocks[2] == {"document": {"format": "pdf", "name": "q3 report",
                                      "source": {"bytes": base64.b64encode(pdf).decode()}}}
    assert blocks[3] == CACHE_POINT  # Nova caches too (not its tools)
    assert "additionalModelRequestFields" not in stub.requests_to("converse-stream")[0].body


async def test_models_without_prompt_caching_get_no_cache_points(stub: StubServer) -> None:
    llama = "meta.llama3-3-70b-instruct-v1:0"
    stub.add("POST", f"/model/{llama}/converse-stream", reply(START, text(0, "ok"), stop(0), *end()))
    got = await collect(provider(stub), ModelRequest(model=llama, messages=[user("hi")], system="S",
                                                     tools=[TOOL], temperature=0.2))
    assert got.text == "ok"
    sent = stub.requests_to("converse-stream")[0].body
    assert "cachePoint" not in json.dumps(sent)
    assert sent["inferenceConfig"] == {"maxTokens": 8192, "temperature": 0.2}


@pytest.mark.parametrize(("status", "code", "kind", "words"), [
    (429, "ThrottlingException", "rate_limit", "throttling"),
    (503, "ServiceUnavailableException", "overloaded", "not ready or unavailable"),
    (429, "ModelNotReadyException", "overloaded", "not ready or unavailable"),
    (500, "InternalServerException", "server", "had an error"),
])
async def test_transient_errors_are_retried_then_answered(stub: StubServer, status: int, code: str,
                                                          kind: str, words: str) -> None:
    sleep = SleepRecorder()
    stub.add("POST", PATH, error(status, code, "slow down"), reply(START, text(0, "ok"), stop(0), *end()))
    got = await collect(provider(stub, sleep=sleep), ModelRequest(model=MODEL, messages=[user("hi")]))
    assert got.text == "ok"
    assert len(stub.requests_to("converse-stream")) == 2
    assert len(sleep.delays) == 1
    retry = [c for c in got.chunks if type(c).__name__ == "RetryChunk"]
    assert retry and retry[0].kind == kind  # type: ignore[attr-defined]

    stub.routes.clear()
    stub.add("POST", PATH, error(status, code, "slow down"))
    with pytest.raises(ProviderError) as info:
        await collect(provider(stub, attempts=2), ModelRequest(model=MODEL, messages=[user("hi")]))
    assert info.value.kind == kind and words in info.value.message and "slow down" in info.value.message


@pytest.mark.parametrize(("status", "code", "kind", "words"), [
    (403, "AccessDeniedException", "permission",
     f"no access to model {MODEL} in region eu-west-1: enable it in the Bedrock console"),
    (404, "ResourceNotFoundException", "not_found", f"does not know the model id {MODEL} in region eu-west-1"),
    (400, "ServiceQuotaExceededException", "rate_limit", "service quota"),
    (403, "UnrecognizedClientException", "auth", "rejected the credentials"),
])
async def test_error_bodies_are_classified_with_clear_words(stub: StubServer, status: int, code: str,
                                                            kind: str, words: str) -> None:
    stub.add("POST", PATH, error(status, code, "the words AWS sent"))
    with pytest.raises(ProviderError) as info:
        await collect(provider(stub, attempts=1), ModelRequest(model=MODEL, messages=[user("hi")]))
    assert info.value.kind == kind
    assert words in info.value.message and "the words AWS sent" in info.value.message


async def test_validation_error_is_not_retried_and_keeps_the_whole_message(stub: StubServer) -> None:
    long = "The model returned the following errors: " + "messages.1.content: field required; " * 40
    stub.add("POST", PATH, error(400, "ValidationException", long))
    sleep = SleepRecorder()
    with pytest.raises(ProviderError) as info:
        await collect(provider(stub, sleep=sleep), ModelRequest(model=MODEL, messages=[user("hi")]))
    assert info.value.kind == "bad_request" and long in info.value.message
    assert len(stub.requests_to("converse-stream")) == 1 and sleep.delays == []


async def test_exception_event_mid_stream_is_an_error_not_an_answer(stub: StubServer) -> None:
    body = stream(START, text(0, "Half an ans")) + exception("modelStreamErrorException", "model broke")
    stub.add("POST", PATH, Reply(body=body, content_type=EVENTSTREAM))
    sink: list[Any] = []
    with pytest.raises(ProviderError) as info:
        await drain_into(provider(stub).stream(ModelRequest(model=MODEL, messages=[user("hi")])), sink)
    assert info.value.kind == "server" and "model broke" in info.value.message
    assert "".join(c.text for c in sink if hasattr(c, "text")) == "Half an ans"
    assert len(stub.requests_to("converse-stream")) == 1  # shown text: never retried


async def test_exception_event_before_any_text_is_retried(stub: StubServer) -> None:
    bad = Reply(body=stream(START) + exception("throttlingException", "too fast"), content_type=EVENTSTREAM)
    stub.add("POST", PATH, bad, reply(START, text(0, "fine"), stop(0), *end()))
    got = await collect(provider(stub), ModelRequest(model=MODEL, messages=[user("hi")]))
    assert got.text == "fine" and len(stub.requests_to("converse-stream")) == 2


async def test_cut_stream_is_an_error_never_a_completed_answer(stub: StubServer) -> None:
    body = stream(START, text(0, "Part one "), text(0, "part two"), stop(0), *end())
    stub.add("POST", PATH, Reply(body=body, content_type=EVENTSTREAM, cut_after=len(stream(START, text(0, "Part one ")))))
    sink: list[Any] = []
    with pytest.raises(ProviderError) as info:
        await drain_into(provider(stub).stream(ModelRequest(model=MODEL, messages=[user("hi")])), sink)
    assert info.value.kind == "network"
    assert not any(type(c).__name__ == "FinishChunk" for c in sink)


async def test_stream_ending_without_message_stop_is_incomplete(stub: StubServer) -> None:
    stub.add("POST", PATH, reply(START, text(0, "no end"), stop(0)))
    with pytest.raises(ProviderError) as info:
        await collect(provider(stub, attempts=1), ModelRequest(model=MODEL, messages=[user("hi")]))
    assert "before the answer finished" in info.value.message


async def test_stall_mid_answer_is_bounded_by_the_stall_timeout(stub: StubServer) -> None:
    body = stream(START, text(0, "Thinking about it"), text(0, " more"), stop(0), *end())
    stall_at = len(stream(START, text(0, "Thinking about it")))
    stub.add("POST", PATH, Reply(body=body, content_type=EVENTSTREAM, stall_after=stall_at))
    sink: list[Any] = []
    with pytest.raises(ProviderError) as info:
        await drain_into(provider(stub, stall=0.5).stream(ModelRequest(model=MODEL, messages=[user("hi")])), sink)
    assert info.value.kind == "timeout" and "stopped sending mid-answer" in info.value.message


async def test_guardrail_with_nothing_said_is_a_clear_error(stub: StubServer) -> None:
    stub.add("POST", PATH, reply(START, *end("guardrail_intervened")))
    with pytest.raises(ProviderError) as info:
        await collect(provider(stub), ModelRequest(model=MODEL, messages=[user("hi")]))
    assert "guardrail" in info.value.message and info.value.kind == "bad_request"


async def test_bedrock_api_key_is_sent_as_bearer_not_signed(stub: StubServer) -> None:
    stub.add("POST", PATH, reply(START, text(0, "ok"), stop(0), *end()))
    bedrock = provider(stub, api_key="ABSKbedrock-key", credentials={})
    got = await collect(bedrock, ModelRequest(model=MODEL, messages=[user("hi")]))
    assert got.text == "ok"
    assert stub.requests_to("converse-stream")[0].headers["authorization"] == "Bearer ABSKbedrock-key"


async def test_no_credentials_is_a_clear_auth_error(stub: StubServer) -> None:
    with pytest.raises(ProviderError) as info:
        await collect(provider(stub, credentials={}), ModelRequest(model=MODEL, messages=[user("hi")]))
    assert info.value.kind == "auth" and "no usable AWS credentials" in info.value.message
    assert stub.requests_to("converse-stream") == []


async def test_stopping_the_turn_closes_the_stream_and_ends_the_worker(stub: StubServer) -> None:
    import threading

    body = stream(START, text(0, "First words"), text(0, " never sent"), stop(0), *end())
    stub.add("POST", PATH, Reply(body=body, content_type=EVENTSTREAM,
                                 stall_after=len(stream(START, text(0, "First words")))))
    # botocore's own read timeout is far away: only our close can end the read
    turn = provider(stub, stall=3600).stream(ModelRequest(model=MODEL, messages=[user("hi")]))
    first = None
    async for chunk in turn:
        if hasattr(chunk, "text"):
            first = chunk
            break
    assert first is not None and first.text == "First words"  # type: ignore[attr-defined]
    await turn.aclose()  # type: ignore[attr-defined]
    for worker in [t for t in threading.enumerate() if t.name == "bedrock-stream"]:
        worker.join()  # returns once the read was cut (before the fix: never, in time)
    assert not any(t.name == "bedrock-stream" for t in threading.enumerate())


# --- the "Test" of onboarding and Settings (qt/provider_setup.py) -------------

PROBE_PATH = "/model/us.anthropic.claude-haiku-4-5-20251001-v1:0/converse-stream"


async def test_setup_check_with_a_bedrock_api_key(stub: StubServer) -> None:
    from openworker_qt.qt import provider_setup as sp

    stub.add("POST", PROBE_PATH, reply(START, text(0, "O"), stop(0), *end("max_tokens")))
    notice, region = await sp.check_bedrock(region="eu-central-1", key="ABSKkey", base_url=stub.url)
    assert region == "eu-central-1" and "answered in eu-central-1" in notice
    (seen,) = stub.requests_to("converse-stream")
    assert seen.headers["authorization"] == "Bearer ABSKkey"
    assert seen.body["inferenceConfig"] == {"maxTokens": 1}
    assert sp.bedrock_settings(region="eu-central-1", profile="") == {"region": "eu-central-1"}


async def test_setup_check_uses_the_profile_and_its_region(stub: StubServer, tmp_path: Any) -> None:
    from openworker_qt.qt import provider_setup as sp

    (tmp_path / "aws-config").write_text("[profile work]\nregion = ap-southeast-2\n")
    (tmp_path / "aws-credentials").write_text(
        "[work]\naws_access_key_id = AKIDWORK\naws_secret_access_key = worksecret\n")
    stub.add("POST", PROBE_PATH, reply(START, text(0, "O"), stop(0), *end("max_tokens")))
    notice, region = await sp.check_bedrock(profile="work", base_url=stub.url)
    assert region == "ap-southeast-2"
    auth = stub.requests_to("converse-stream")[0].headers["authorization"]
    assert "Credential=AKIDWORK/" in auth and "/ap-southeast-2/bedrock/" in auth
    table = sp.bedrock_settings(region=region, profile="work")
    assert table == {"region": "ap-southeast-2", "profile": "work"}  # no credentials in config


async def test_setup_check_signed_in_but_model_not_enabled_is_a_notice(stub: StubServer) -> None:
    from openworker_qt.qt import provider_setup as sp

    stub.add("POST", PROBE_PATH, error(403, "AccessDeniedException", "You don't have access to the model"))
    notice, region = await sp.check_bedrock(region="us-west-2", key="ABSKkey", base_url=stub.url)
    assert "Signed in to AWS Bedrock in us-west-2" in notice and "not available" in notice


async def test_setup_check_bad_key_and_bad_region_are_errors(stub: StubServer) -> None:
    from openworker_qt.qt import provider_setup as sp

    stub.add("POST", PROBE_PATH, error(403, "UnrecognizedClientException", "The security token is invalid"))
    with pytest.raises(ProviderError) as info:
        await sp.check_bedrock(region="us-east-1", key="bad", base_url=stub.url)
    assert info.value.kind == "auth"
    with pytest.raises(ValueError, match="not an AWS region"):
        await sp.check_bedrock(region="Frankfurt", key="k", base_url=stub.url)


async def test_bedrock_is_a_provider_choice_and_registered() -> None:
    from openworker_qt.providers.factories import internal_config, make_factory
    from openworker_qt.providers.pricing import PriceTable
    from openworker_qt.qt import provider_setup as sp

    assert sp.choice("bedrock").kind == "bedrock"
    config = internal_config({"providers": {"bedrock": {"region": "eu-west-3", "profile": "p"}}})
    built = make_factory("bedrock", config, lambda _name: None)()
    assert isinstance(built, BedrockProvider) and built.region == "eu-west-3"
    prices = PriceTable()
    assert prices.price(f"bedrock:us.{MODEL}") is not None
    assert prices.price("bedrock:cohere.command-r-plus-v1:0") is None  # no price known, not a wrong one


async def test_bedrock_claude_prices_follow_the_generation() -> None:
    """Opus 4.5 and newer cost a third of Opus 4 and 4.1 (Anthropic's pricing page,
    which Bedrock's global endpoints match); the newer ids must not fall through to
    the old Opus price."""
    from openworker_qt.providers.pricing import PriceTable

    prices = PriceTable()
    for new in ("global.anthropic.claude-opus-4-6-v1", "us.anthropic.claude-opus-4-7-v1:0",
                "anthropic.claude-opus-4-5-20251101-v1:0"):
        price = prices.price(f"bedrock:{new}")
        assert price is not None and (price.input, price.output) == (5.0, 25.0), new
    old = prices.price("bedrock:us.anthropic.claude-opus-4-1-20250805-v1:0")
    assert old is not None and (old.input, old.output) == (15.0, 75.0)
    direct = prices.price("anthropic:claude-opus-4-7")
    assert direct is not None and direct.input == 5.0
