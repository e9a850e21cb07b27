"""The guided set-up's cloud platforms: Azure OpenAI checked with one real call to a
stub through the SDK, then stored (key in the keyring, settings in config); Vertex's
bad settings said plainly, nothing stored."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt

from openworker_qt.storage import secrets
from openworker_qt.storage.config import load_config
from tests.providers.stubs import Reply, StubServer, sse
from tests.ui.conftest import run

CHAT = "/openai/deployments/team-gpt/chat/completions"


@pytest.fixture
def stub(qloop) -> Iterator[StubServer]:
    server = StubServer()
    qloop.run_until_complete(server.start())
    yield server
    qloop.run_until_complete(server.stop())


def _dialog(make_desktop) -> tuple[Any, Any]:
    desktop = make_desktop()
    dialog = desktop.show_onboarding()
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
    return desktop, dialog


def test_azure_is_checked_then_stored(qtbot, qloop, make_desktop, stub) -> None:
    chunk = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
             "choices": [{"index": 0, "delta": {"content": "OK"}, "finish_reason": None}]}
    stub.add("POST", CHAT, Reply(body=sse(chunk, "[DONE]"), content_type="text/event-stream"))
    desktop, dialog = _dialog(make_desktop)
    dialog.select_provider("azure")
    assert dialog.cloud_fields.isVisibleTo(dialog) and not dialog.url_edit.isVisibleTo(dialog)
    edits = dialog.cloud_fields.edits
    edits[("azure", "endpoint")].setText(stub.url)
    edits[("azure", "deployment")].setText("team-gpt")
    edits[("azure", "model")].setText("gpt-4o")
    dialog.key_edit.setText("azure-key-123")

    async def scenario() -> bool:
        return bool(await dialog.check())

    assert run(qloop, scenario) is True, dialog.status.text()
    (seen,) = stub.requests_to(CHAT)
    assert seen.headers["api-key"] == "azure-key-123" and seen.body["max_completion_tokens"] == 1
    assert secrets.get_secret("AZURE_OPENAI_API_KEY") == "azure-key-123"
    saved = load_config()
    assert saved.get("providers.azure.endpoint") == stub.url
    assert saved.get("providers.azure.deployments") == {"team-gpt": "gpt-4o"}
    assert "azure-key" not in desktop.runtime.paths.config_file.read_text(encoding="utf-8")
    models = [dialog.model_box.itemText(i) for i in range(dialog.model_box.count())]
    assert models == ["azure:team-gpt"]
    provider, model_id = desktop.runtime.router.resolve("azure:team-gpt")
    assert provider.name == "azure" and model_id == "team-gpt"


def test_vertex_bad_settings_are_named_and_nothing_is_stored(qtbot, qloop, make_desktop, tmp_path) -> None:
    desktop, dialog = _dialog(make_desktop)
    dialog.select_provider("vertex")
    assert not dialog.key_edit.isVisibleTo(dialog)  # Vertex takes no key

    async def scenario() -> bool:
        return bool(await dialog.check())

    assert run(qloop, scenario) is False
    assert "project id (providers.vertex.project)" in dialog.status.text()
    dialog.cloud_fields.edits[("vertex", "project")].setText("my-proj")
    dialog.cloud_fields.edits[("vertex", "credentials_file")].setText(str(tmp_path / "gone.json"))
    assert run(qloop, scenario) is False
    assert "does not exist" in dialog.status.text() and dialog.page() == 0
    assert load_config().get("providers.vertex") is None


def test_settings_lists_where_each_platform_gets_its_credentials(qtbot, make_desktop) -> None:
    from openworker_qt.qt import provider_setup as sp

    assert {c.name: c.kind for c in sp.cloud_choices()} == {"azure": "cloud", "vertex": "cloud"}
    config = {"providers": {"vertex": {"project": "p"}, "azure": {"endpoint": "https://x"}}}
    assert sp.key_sources(config)["azure"] == sp.KeySource("config", "azure")  # Entra ID
    secrets.set_secret("AZURE_OPENAI_API_KEY", "k")
    sources = sp.key_sources(config)
    assert sources["azure"] == sp.KeySource("keyring", "AZURE_OPENAI_API_KEY")
    assert sources["vertex"] == sp.KeySource("config", "vertex")
