"""Onboarding's AWS Bedrock entry against a loopback stub speaking Bedrock's wire
protocol (event-stream framing) through the real boto3: region and profile go to
config, a Bedrock API key only to the keyring (the in-memory test backend)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt

from openworker_qt.storage import secrets
from openworker_qt.storage.config import load_config
from tests.providers.eventstream import stream
from tests.providers.stubs import Reply, StubServer
from tests.ui.conftest import run

PROBE = "/model/us.anthropic.claude-haiku-4-5-20251001-v1:0/converse-stream"
EVENTS = stream(("messageStart", {"role": "assistant"}),
                ("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "O"}}),
                ("messageStop", {"stopReason": "max_tokens"}),
                ("metadata", {"usage": {"inputTokens": 9, "outputTokens": 1, "totalTokens": 10}}))


@pytest.fixture
def stub(qloop, monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> Iterator[StubServer]:
    server = StubServer()
    qloop.run_until_complete(server.start())
    for name in ("AWS_BEARER_TOKEN_BEDROCK", "AWS_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "aws-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "aws-credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    # botocore's own setting for a service's address: the stub instead of AWS
    monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", server.url)
    yield server
    qloop.run_until_complete(server.stop())


def test_bedrock_key_region_and_profile_are_checked_and_stored(qtbot, qloop, make_desktop, stub) -> None:
    stub.add("POST", PROBE, Reply(body=EVENTS, content_type="application/vnd.amazon.eventstream"))
    desktop = make_desktop()
    dialog = desktop.show_onboarding()
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
    dialog.select_provider("bedrock")
    assert dialog.bedrock.profile_edit.isVisibleTo(dialog) and dialog.url_label.text().replace("&", "") == "AWS region"
    dialog.key_edit.setText("ABSKtest-bedrock-key")
    dialog.url_edit.setText("eu-west-1")

    async def scenario() -> bool:
        return bool(await dialog.check())

    assert run(qloop, scenario) is True
    (seen,) = stub.requests_to("converse-stream")
    assert seen.headers["authorization"] == "Bearer ABSKtest-bedrock-key"
    assert secrets.get_secret("AWS_BEARER_TOKEN_BEDROCK") == "ABSKtest-bedrock-key"
    saved = load_config()
    assert saved.get("providers.bedrock.region") == "eu-west-1"
    assert "ABSK" not in desktop.runtime.paths.config_file.read_text(encoding="utf-8")
    models = [dialog.model_box.itemText(i) for i in range(dialog.model_box.count())]
    assert "bedrock:us.amazon.nova-pro-v1:0" in models
    provider, model_id = desktop.runtime.router.resolve("bedrock:us.amazon.nova-pro-v1:0")
    assert provider.name == "bedrock" and model_id == "us.amazon.nova-pro-v1:0"


def test_bedrock_bad_region_is_refused_and_nothing_stored(qtbot, qloop, make_desktop, stub) -> None:
    desktop = make_desktop()
    dialog = desktop.show_onboarding()
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
    dialog.select_provider("bedrock")
    dialog.key_edit.setText("ABSKkey")
    dialog.url_edit.setText("Frankfurt")

    async def scenario() -> bool:
        return bool(await dialog.check())

    assert run(qloop, scenario) is False
    assert "not an AWS region" in dialog.status.text()
    assert secrets.get_secret("AWS_BEARER_TOKEN_BEDROCK") is None
    assert stub.requests_to("converse-stream") == []
