"""Onboarding's local-server presets (issue 27 item 14): LM Studio, Ollama, llama.cpp
and vLLM at their standard addresses, and Detect, which asks those addresses off the
loop thread and lists what runs there, its models and their context windows.

The presets' addresses are the dialog's ``detect_candidates``: here stub servers on
127.0.0.1 speaking each server's API (one answers on the Qt loop itself, so a
detection blocking the loop would find nothing), and closed ports.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt

from openworker_qt.providers import local_servers as ls
from openworker_qt.storage.config import load_config
from openworker_qt.ui.onboarding import OnboardingDialog
from tests.providers.stubs import Reply, StubServer, ThreadStub
from tests.providers.test_local_context import LMSTUDIO_MODELS, OLLAMA_SHOW
from tests.ui.conftest import run, until


@pytest.fixture
def stub(qloop) -> Iterator[StubServer]:
    server = StubServer()
    qloop.run_until_complete(server.start())
    yield server
    qloop.run_until_complete(server.stop())


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    ls.forget_contexts()
    yield
    ls.forget_contexts()


def closed_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    sock.close()
    return port


def open_dialog(make_desktop: Any) -> tuple[Any, OnboardingDialog]:
    desktop = make_desktop()
    dialog = desktop.show_onboarding()
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
    return desktop, dialog


def lmstudio(server: ThreadStub) -> None:
    openai_list = {"object": "list", "data": [{"id": m["id"], "object": "model", "owned_by": "organization_owner"}
                                              for m in LMSTUDIO_MODELS["data"]]}
    server.routes[("GET", "/v1/models")] = (200, openai_list)
    server.routes[("GET", "/api/v0/models")] = (200, LMSTUDIO_MODELS)


def test_detect_lists_what_runs_here_and_picking_one_sets_it_up(qtbot, qloop, make_desktop, stub) -> None:
    stub.add("GET", "/api/tags", Reply(body=json.dumps({"models": [
        {"name": "qwen3:8b", "model": "qwen3:8b", "size": 1}]})))
    stub.add("POST", "/api/show", Reply(body=json.dumps(OLLAMA_SHOW)))
    with ThreadStub() as server:
        lmstudio(server)
        desktop, dialog = open_dialog(make_desktop)
        dialog.detect_candidates = (
            ls.Preset("lmstudio", "LM Studio", server.url + "/v1"),
            ls.Preset("ollama", "Ollama", stub.url),
            ls.Preset("llamacpp", "llama.cpp", f"http://127.0.0.1:{closed_port()}/v1"),
            ls.Preset("vllm", "vLLM", f"http://127.0.0.1:{closed_port()}/v1"),
        )
        assert not dialog.found_list.isVisibleTo(dialog)

        async def scenario() -> None:
            qtbot.mouseClick(dialog.detect_button, Qt.MouseButton.LeftButton)
            await until(lambda: dialog.found_list.isVisibleTo(dialog), what="servers found")
            texts = [dialog.found_list.item(i).text() for i in range(dialog.found_list.count())]
            assert len(texts) == 2  # the closed ports are not listed
            assert texts[0].startswith(f"LM Studio at {server.url}/v1:\n")
            assert "qwen2.5-7b-instruct (4,096 tokens of context)" in texts[0]
            assert "llama-3.2-1b-instruct (131,072 tokens of context)" in texts[0]
            assert texts[1] == f"Ollama at {stub.url}:\nqwen3:8b (16,384 tokens of context)"
            assert "Found 2 model server(s)" in dialog.local_label.text()
            rect = dialog.found_list.visualItemRect(dialog.found_list.item(0))
            qtbot.mouseClick(dialog.found_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
            assert dialog.provider_box.currentData() == "lmstudio"
            assert dialog.url_edit.text() == server.url + "/v1"
            assert await dialog.check()
            models = [dialog.model_box.itemText(i) for i in range(dialog.model_box.count())]
            assert models == ["lmstudio:llama-3.2-1b-instruct", "lmstudio:qwen2.5-7b-instruct"]
            dialog.model_box.setCurrentText("lmstudio:qwen2.5-7b-instruct")
            dialog.finish()
            # the settings saved, the router asks the server before the first turn
            provider, model = await desktop.runtime.router.resolve_async("lmstudio:qwen2.5-7b-instruct")
            assert provider.context_window(model) == (4096, "from the server")

        run(qloop, scenario)
    saved = load_config()
    assert saved.get("providers.lmstudio.base_url") == server.url + "/v1"
    assert "qwen2.5-7b-instruct" in saved.get("providers.lmstudio.models")
    assert saved.get("general.default_model") == "lmstudio:qwen2.5-7b-instruct"
    assert not saved.get("providers.lmstudio.key_name")  # no key asked for


def test_picking_ollama_from_detect_sets_up_ollama(qtbot, qloop, make_desktop, stub) -> None:
    stub.add("GET", "/api/tags", Reply(body=json.dumps({"models": []})))
    _desktop, dialog = open_dialog(make_desktop)
    dialog.detect_candidates = (ls.Preset("ollama", "Ollama", stub.url),)

    async def scenario() -> None:
        found = await dialog.detect()
        assert [f.models for f in found] == [()]
        assert dialog.found_list.item(0).text() == f"Ollama at {stub.url}:\nno models yet"
        dialog.use_found(dialog.found_list.item(0))

    run(qloop, scenario)
    assert dialog.provider_box.currentData() == "ollama"
    assert dialog.url_edit.text() == stub.url


def test_nothing_running_says_so(qtbot, qloop, make_desktop) -> None:
    _desktop, dialog = open_dialog(make_desktop)
    dialog.detect_candidates = tuple(
        ls.Preset(p.kind, p.label, f"http://127.0.0.1:{closed_port()}/v1") for p in ls.PRESETS)

    async def scenario() -> None:
        assert await dialog.detect() == []

    run(qloop, scenario)
    assert not dialog.found_list.isVisibleTo(dialog)
    text = dialog.local_label.text()
    assert "No model server answered" in text and "LM Studio, Ollama, llama.cpp, vLLM" in text
    assert dialog.detect_button.isEnabled()


def test_each_preset_fills_its_standard_address(qtbot, make_desktop) -> None:
    _desktop, dialog = open_dialog(make_desktop)
    labels = [dialog.provider_box.itemText(i) for i in range(dialog.provider_box.count())]
    for name in ("LM Studio", "llama.cpp", "vLLM"):
        assert name in labels
    assert labels.index("vLLM") < labels.index("Custom server (OpenAI-compatible)")
    dialog.select_provider("llamacpp")
    assert dialog.url_edit.text() == "http://127.0.0.1:8080/v1"
    assert dialog.key_edit.isVisibleTo(dialog)  # optional: a server may be set up with one
    dialog.select_provider("vllm")
    assert dialog.url_edit.text() == "http://127.0.0.1:8000/v1"
    dialog.select_provider("lmstudio")
    assert dialog.url_edit.text() == "http://127.0.0.1:1234/v1"
    dialog.url_edit.setText("http://gpu-box:1234/v1")  # an address the user typed stays
    dialog.select_provider("vllm")
    assert dialog.url_edit.text() == "http://gpu-box:1234/v1"
