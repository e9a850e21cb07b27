"""Settings › Providers "Test" for the cloud platforms: the guided set-up's one-call
check, run with what is stored, through the real SDKs against local stubs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.storage import secrets
from tests.providers.stubs import Reply, StubServer, sse
from tests.providers.test_bedrock_wire import PROBE_PATH, START, end, error, reply, stop, text
from tests.providers.test_cloud_platforms import PROJECT, TOKEN, _google_credentials
from tests.ui.conftest import act, run, until

CHAT = "/openai/deployments/team-gpt/chat/completions"
COUNT = (f"/v1/projects/{PROJECT}/locations/global/publishers/google/models/"
         "gemini-2.5-flash:countTokens")


@pytest.fixture
def stub(qloop) -> Iterator[StubServer]:
    server = StubServer()
    qloop.run_until_complete(server.start())
    yield server
    qloop.run_until_complete(server.stop())


@pytest.fixture(autouse=True)
def _no_aws_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("AWS_BEARER_TOKEN_BEDROCK", "AWS_PROFILE", "AWS_DEFAULT_PROFILE",
                 "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "aws-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "aws-credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")


def page_for(qloop, make_desktop, provider: str, table: dict[str, Any]) -> Any:
    desktop = make_desktop()
    settings = act(qloop, desktop.show_settings)
    page = settings.providers
    run(qloop, lambda: until(lambda: not page.busy(), what="keyring read"))
    page.settings.apply({"providers": {provider: table}})
    page.select(provider)
    return page


def test_azure_is_tested_with_its_stored_settings(qloop, make_desktop, stub) -> None:
    chunk = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
             "choices": [{"index": 0, "delta": {"content": "OK"}, "finish_reason": None}]}
    stub.add("POST", CHAT, Reply(body=sse(chunk, "[DONE]"), content_type="text/event-stream"))
    secrets.set_secret("AZURE_OPENAI_API_KEY", "azure-key-123")
    page = page_for(qloop, make_desktop, "azure",
                    {"endpoint": stub.url, "deployments": {"team-gpt": "gpt-4o"}})
    assert page.test.isVisibleTo(page)
    act(qloop, page.test.click)
    run(qloop, lambda: until(lambda: not page.busy(), what="the test"))
    assert page.status.text() == "Azure OpenAI answered: the settings work."
    (seen,) = stub.requests_to(CHAT)
    assert seen.headers["api-key"] == "azure-key-123" and seen.body["max_completion_tokens"] == 1

    stub.routes[("POST", CHAT)] = [Reply(status=401, body='{"error": {"code": "401", "message": '
                                                  '"Access denied due to invalid subscription key."}}')]
    act(qloop, page.test.click)
    run(qloop, lambda: until(lambda: not page.busy(), what="the second test"))
    assert page.status.text().startswith("Azure OpenAI did not work:")
    assert "invalid subscription key" in page.status.text()


def test_bedrock_is_tested_with_its_stored_region_and_key(qloop, make_desktop, stub) -> None:
    stub.add("POST", PROBE_PATH, reply(START, text(0, "O"), stop(0), *end("max_tokens")))
    secrets.set_secret("AWS_BEARER_TOKEN_BEDROCK", "ABSKstored")
    page = page_for(qloop, make_desktop, "bedrock", {"region": "eu-central-1",
                                                      "base_url": stub.url})
    act(qloop, page.test.click)
    run(qloop, lambda: until(lambda: not page.busy(), what="the test"))
    assert page.status.text() == "AWS Bedrock answered in eu-central-1."
    (seen,) = stub.requests_to("converse-stream")
    assert seen.headers["authorization"] == "Bearer ABSKstored"

    stub.routes[("POST", PROBE_PATH)] = [error(403, "UnrecognizedClientException",
                                               "The security token is invalid")]
    act(qloop, page.test.click)
    run(qloop, lambda: until(lambda: not page.busy(), what="the second test"))
    assert page.status.text().startswith("AWS Bedrock did not work:")


def test_vertex_counts_the_tokens_of_one_word(qloop, make_desktop, stub) -> None:
    stub.add("POST", COUNT, Reply(body='{"totalTokens": 1}'))
    page = page_for(qloop, make_desktop, "vertex", {"project": PROJECT, "location": "global",
                                                     "base_url": stub.url})
    run(qloop, lambda: page.run_test(credentials=_google_credentials(), access_token=TOKEN))
    assert page.status.text() == "Google Vertex AI answered: the settings work."
    (seen,) = stub.requests_to("countTokens")
    assert seen.headers["authorization"] == f"Bearer {TOKEN}"
    page.select("openai")
    assert not page.test.isVisibleTo(page)  # a key provider is checked when its key is saved
