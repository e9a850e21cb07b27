"""Onboarding against a loopback stub speaking the real OpenAI wire protocol.

The key check goes through the real provider layer and the real ``openai``
SDK; the keyring is the in-memory test backend.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt

from openworker_qt.storage import secrets
from openworker_qt.storage.config import load_config
from openworker_qt.ui.onboarding import OnboardingDialog, needs_onboarding
from tests.providers.stubs import Reply, StubServer, sse
from tests.ui.conftest import run, until

CHAT = "/v1/chat/completions"


def chunk(text: str) -> dict[str, Any]:
    return {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1",
            "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]}


@pytest.fixture
def stub(qloop) -> Iterator[StubServer]:
    server = StubServer()
    qloop.run_until_complete(server.start())
    yield server
    qloop.run_until_complete(server.stop())


def open_dialog(make_desktop) -> tuple[Any, OnboardingDialog]:
    desktop = make_desktop()
    dialog = desktop.show_onboarding()
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
    return desktop, dialog


def test_good_key_is_stored_and_default_model_saved(qtbot, qloop, make_desktop, stub) -> None:
    stub.add("POST", CHAT, Reply(body=sse(chunk("OK")) + "data: [DONE]\n\n", content_type="text/event-stream"))
    desktop, dialog = open_dialog(make_desktop)
    assert needs_onboarding(desktop.settings)
    dialog.select_provider("openai")
    qtbot.keyClicks(dialog.key_edit, "sk-test-good-key-123")
    dialog.url_edit.setText(stub.url + "/v1")

    async def scenario() -> None:
        qtbot.mouseClick(dialog.check_button, Qt.MouseButton.LeftButton)
        await until(lambda: dialog.page() == 1, what="model page")

    run(qloop, scenario)
    # one real request, with the pasted key, through the SDK
    (seen,) = stub.requests_to(CHAT)
    assert seen.headers["authorization"] == "Bearer sk-test-good-key-123"
    assert seen.body["max_completion_tokens"] == 1
    assert secrets.get_secret("OPENAI_API_KEY") == "sk-test-good-key-123"
    assert dialog.key_edit.text() == ""  # the field does not keep the key
    saved = load_config()
    assert saved.get("providers.openai.base_url") == stub.url + "/v1"
    assert "sk-test" not in desktop.runtime.paths.config_file.read_text(encoding="utf-8")
    models = [dialog.model_box.itemText(i) for i in range(dialog.model_box.count())]
    assert "gpt-4.1" in models and "gpt-5" in models
    dialog.model_box.setCurrentText("gpt-4.1")
    completed: list[str] = []
    dialog.completed.connect(completed.append)
    qtbot.mouseClick(dialog.finish_button, Qt.MouseButton.LeftButton)
    assert completed == ["gpt-4.1"]
    assert load_config().get("general.default_model") == "gpt-4.1"
    assert desktop.runtime.config.get("general.default_model") == "gpt-4.1"
    assert desktop.manager.default_model == "gpt-4.1"
    assert not needs_onboarding(desktop.settings)
    # the live router now builds OpenAI with the stored key and the saved base URL
    provider, model_id = desktop.runtime.router.resolve("gpt-4.1")
    assert model_id == "gpt-4.1" and provider.name == "openai"


def test_401_shows_clear_message_and_stores_nothing(qtbot, qloop, make_desktop, stub) -> None:
    stub.add("POST", CHAT, Reply(status=401, body=json.dumps(
        {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error",
                   "code": "invalid_api_key"}})))
    desktop, dialog = open_dialog(make_desktop)
    dialog.select_provider("openai")
    dialog.key_edit.setText("sk-wrong-key-0000")
    dialog.url_edit.setText(stub.url + "/v1")

    async def scenario() -> bool:
        return bool(await dialog.check())

    assert run(qloop, scenario) is False
    assert dialog.page() == 0
    text = dialog.status.text()
    assert "authentication failed" in text and "Incorrect API key" in text
    assert "sk-wrong" not in text
    assert secrets.get_secret("OPENAI_API_KEY") is None
    assert secrets.list_names() == []
    assert not desktop.runtime.paths.config_file.exists() or "openai" not in \
        desktop.runtime.paths.config_file.read_text(encoding="utf-8")
    assert len(stub.requests_to(CHAT)) == 1  # a 401 is not retried


def test_no_secure_keyring_says_so_and_stores_nothing(qtbot, qloop, make_desktop, stub) -> None:
    import keyring
    from keyring.backends import fail

    keyring.set_keyring(fail.Keyring())
    desktop, dialog = open_dialog(make_desktop)
    assert dialog.keyring_warning.isVisibleTo(dialog)
    assert "No secure keyring" in dialog.keyring_warning.text()
    dialog.select_provider("anthropic")
    dialog.key_edit.setText("sk-ant-some-key-1234")

    async def scenario() -> bool:
        return bool(await dialog.check())

    assert run(qloop, scenario) is False
    assert "not stored" in dialog.status.text()
    assert stub.seen == []  # nothing was even sent
    assert not desktop.runtime.paths.config_file.exists()


def test_ollama_url_is_normalised_and_lists_its_models(qtbot, qloop, make_desktop, stub) -> None:
    stub.add("GET", "/v1/models", Reply(body=json.dumps({"object": "list", "data": [
        {"id": "qwen3:8b", "object": "model", "created": 1, "owned_by": "library"},
        {"id": "llama3.2", "object": "model", "created": 1, "owned_by": "library"},
    ]})))
    desktop, dialog = open_dialog(make_desktop)
    dialog.select_provider("ollama")
    assert not dialog.key_edit.isVisibleTo(dialog)
    dialog.url_edit.setText(stub.url + "/api/")

    async def scenario() -> bool:
        return bool(await dialog.check())

    assert run(qloop, scenario) is True
    assert load_config().get("providers.ollama.base_url") == stub.url + "/v1"
    models = [dialog.model_box.itemText(i) for i in range(dialog.model_box.count())]
    assert models == ["ollama:llama3.2", "ollama:qwen3:8b"]
    dialog.finish()
    assert load_config().get("general.default_model") == "ollama:llama3.2"


def test_unreachable_ollama_is_reported(qtbot, qloop, make_desktop) -> None:
    _desktop, dialog = open_dialog(make_desktop)
    dialog.select_provider("ollama")
    dialog.url_edit.setText("http://127.0.0.1:9")

    async def scenario() -> bool:
        return bool(await dialog.check())

    assert run(qloop, scenario) is False
    assert "could not reach" in dialog.status.text()
    assert load_config().get("providers.ollama") is None


def test_skip_is_remembered(qtbot, make_desktop) -> None:
    desktop, dialog = open_dialog(make_desktop)
    assert needs_onboarding(desktop.settings)
    qtbot.mouseClick(dialog.skip_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    assert not needs_onboarding(desktop.settings)


# ------------------------------------------------------------ without any key


def models_reply(*ids: str) -> Reply:
    return Reply(body=json.dumps({"object": "list", "data": [
        {"id": i, "object": "model", "created": 1, "owned_by": "local"} for i in ids]}))


def chat_reply(text: str) -> Reply:
    done = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": "stop"}]}
    return Reply(body=sse(done) + "data: [DONE]\n\n", content_type="text/event-stream")


@pytest.mark.parametrize("earlier_key", [False, True], ids=["fresh", "after-a-keyed-setup"])
def test_local_server_without_a_key_works(qtbot, qloop, make_desktop, stub, earlier_key: bool) -> None:
    """LM Studio, vLLM, llama.cpp: no key at all, and every request still works."""
    from openworker_qt.storage.config import update_global

    if earlier_key:  # set up once with a key, now the server needs none
        update_global({"providers": {"custom": {"base_url": "http://old.invalid/v1",
                                                "key_name": "CUSTOM_API_KEY", "models": []}}})
    stub.add("GET", "/v1/models", models_reply("qwen2.5-7b-instruct"))
    stub.add("POST", CHAT, chat_reply("Hello from the local server"))
    desktop, dialog = open_dialog(make_desktop)
    dialog.select_provider("custom")
    assert dialog.key_edit.isVisibleTo(dialog)
    dialog.url_edit.setText(stub.url + "/v1")

    async def scenario() -> None:
        assert await dialog.check()
        dialog.finish()
        window = desktop.window
        assert window.composer.current_model() == "custom:qwen2.5-7b-instruct"
        window.composer.edit.setPlainText("hello")
        window.composer.submit()
        await until(lambda: window.session_id and not desktop.manager.is_running(window.session_id)
                    and len(window.transcript.items) >= 2, what="turn end")

    run(qloop, scenario)
    saved = load_config()
    assert not saved.get("providers.custom.key_name")  # no keyring entry to look for
    assert saved.get("providers.custom.base_url") == stub.url + "/v1"
    assert secrets.list_names() == []
    (seen,) = stub.requests_to(CHAT)
    assert seen.body["model"] == "qwen2.5-7b-instruct"
    rows = desktop.window.transcript.items
    assert rows[-1].kind == "assistant" and rows[-1].text == "Hello from the local server"


def test_ollama_running_here_is_offered(qtbot, qloop, make_desktop, stub, monkeypatch) -> None:
    from openworker_qt.qt import provider_setup as sp

    monkeypatch.setattr(sp, "OLLAMA_PROBE_URL", stub.url)  # stands in for localhost:11434
    stub.add("GET", "/api/tags", Reply(body=json.dumps({"models": [
        {"name": "llama3.2:latest", "model": "llama3.2:latest", "size": 1}]})))
    stub.add("GET", "/v1/models", models_reply("llama3.2:latest"))
    _desktop, dialog = open_dialog(make_desktop)
    assert not dialog.ollama_button.isVisibleTo(dialog)  # until the probe answers

    async def scenario() -> None:
        # The stub answers on this loop: a probe blocking the loop thread would
        # time out and find nothing.
        await until(lambda: dialog.ollama_button.isVisibleTo(dialog), what="Ollama offer")
        assert "Ollama is running on this computer" in dialog.no_key_label.text()
        qtbot.mouseClick(dialog.ollama_button, Qt.MouseButton.LeftButton)
        await until(lambda: dialog.page() == 1, what="model page")

    run(qloop, scenario)
    assert dialog.ollama_models == ["llama3.2:latest"]
    assert [dialog.model_box.itemText(i) for i in range(dialog.model_box.count())] == ["ollama:llama3.2:latest"]
    assert load_config().get("providers.ollama.base_url") == stub.url + "/v1"


def test_no_ollama_here_offers_only_the_demo(qtbot, qloop, make_desktop, monkeypatch) -> None:
    from openworker_qt.qt import provider_setup as sp

    monkeypatch.setattr(sp, "OLLAMA_PROBE_URL", "http://127.0.0.1:9")  # nothing listens
    _desktop, dialog = open_dialog(make_desktop)

    async def scenario() -> None:
        await until(lambda: dialog.probe is not None and dialog.probe.done(), what="probe")

    run(qloop, scenario)
    assert dialog.ollama_models is None
    assert not dialog.ollama_button.isVisibleTo(dialog)
    assert dialog.demo_button.isVisibleTo(dialog)


def test_offline_demo_plays_a_labelled_scripted_session(qtbot, qloop, make_desktop, monkeypatch) -> None:
    from openworker_qt.qt import provider_setup as sp

    monkeypatch.setattr(sp, "OLLAMA_PROBE_URL", "http://127.0.0.1:9")
    desktop, dialog = open_dialog(make_desktop)
    window = desktop.window

    async def scenario() -> None:
        qtbot.mouseClick(dialog.demo_button, Qt.MouseButton.LeftButton)
        await until(lambda: window.session_id and desktop.inbox.pending(window.session_id),
                    what="the demo's write asks first")
        (ask,) = desktop.inbox.pending(window.session_id)
        assert ask.tool == "write_file"
        desktop.resolve_item(ask.id, "once")
        await until(lambda: not desktop.manager.is_running(window.session_id)
                    and window.transcript.items[-1].kind == "assistant"
                    and "That is the tour" in window.transcript.items[-1].text, what="demo end")

    run(qloop, scenario)
    assert not dialog.isVisible()
    info = desktop.runtime.conversations.get_session(window.session_id)
    assert info.title.startswith("Demo") and "no AI model" in info.title
    assert info.model.startswith("scripted:") and info.model.endswith("demo-session.json")
    first = next(r for r in window.transcript.items if r.kind == "assistant")
    assert "offline demo" in first.text and "no AI model" in first.text
    assert (desktop.workspace / "openworker-demo.md").is_file()
    # the demo sets nothing up, and onboarding does not come back at every start
    assert load_config().get("general.default_model") == ""
    assert not needs_onboarding(desktop.settings)


def test_the_demo_speaks_the_language_of_the_window(qapp) -> None:
    import json

    from openworker_qt.ui.demo_script import demo_script
    from openworker_qt.ui.theme import install_translator

    try:
        assert install_translator(qapp, "zh_CN") == "zh_CN"
        chinese = demo_script()
        assert chinese.name == "demo-session.zh_CN.json"
    finally:
        install_translator(qapp, "en_US")
    english = demo_script()
    assert english.name == "demo-session.json"
    zh, en = (json.loads(p.read_text(encoding="utf-8"))["turns"] for p in (chinese, english))
    # the same tour: the same tools with the same targets, in the other language
    assert [[(c["name"], c["arguments"].get("path")) for c in t.get("tool_calls", [])] for t in zh] \
        == [[(c["name"], c["arguments"].get("path")) for c in t.get("tool_calls", [])] for t in en]
    assert "离线演示" in zh[0]["text"]
    assert all(sum("\u4e00" <= ch <= "\u9fff" for ch in t["text"]) > len(t["text"]) / 3 for t in zh)
    assert not any(ch.isascii() and ch.isalpha() for ch in zh[0]["reasoning"])


def test_each_page_takes_its_own_height(qtbot, qloop, make_desktop, stub) -> None:
    """The short model page is not as tall as the connect page (no empty gap above
    its buttons); Back gives the connect page its height again; a long message on
    the connect page makes the dialog taller rather than squeezing its fields."""
    stub.add("POST", CHAT, Reply(body=sse(chunk("OK")) + "data: [DONE]\n\n", content_type="text/event-stream"))
    desktop, dialog = open_dialog(make_desktop)
    qtbot.waitExposed(dialog)
    dialog.select_provider("openai")
    dialog.key_edit.setText("sk-test-good-key-123")
    dialog.url_edit.setText(stub.url + "/v1")
    connect_height = dialog.height()
    width = dialog.width()

    async def scenario() -> None:
        qtbot.mouseClick(dialog.check_button, Qt.MouseButton.LeftButton)
        await until(lambda: dialog.page() == 1, what="model page")

    run(qloop, scenario)
    model_height = dialog.height()
    assert dialog.width() == width
    assert model_height < connect_height * 0.6
    # what is below the model box is one step of space and the buttons, no gap
    below = dialog.finish_button.mapTo(dialog, dialog.finish_button.rect().topLeft()).y() - (
        dialog.model_box.mapTo(dialog, dialog.model_box.rect().bottomLeft()).y())
    assert below < 3 * dialog.finish_button.height()
    qtbot.mouseClick(dialog.back_button, Qt.MouseButton.LeftButton)
    assert dialog.page() == 0 and dialog.height() == connect_height
    field = dialog.key_edit.mapTo(dialog, dialog.key_edit.rect().topLeft()).y()
    dialog._say("The key was refused. " * 12, error=True)
    qtbot.waitUntil(lambda: dialog.height() > connect_height)
    assert dialog.key_edit.mapTo(dialog, dialog.key_edit.rect().topLeft()).y() == field
