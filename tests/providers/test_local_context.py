"""The context window of a model on a server the user runs (issue 31.4).

Each server says it its own way (llama.cpp ``/props``, LM Studio ``/api/v0/models``,
vLLM ``/v1/models``, Ollama ``/api/show``); the app asks once per (server, model),
off the loop thread, falls back to 8,192 (not 32k) and lets the config decide.
Stub servers on 127.0.0.1 speak each format; chat goes through the real openai SDK.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt import cli
from openworker_qt.core.provider_api import ModelRequest, ProviderError
from openworker_qt.providers import local_servers as ls
from openworker_qt.providers.compat import custom_vendor
from openworker_qt.providers.openai_chat import OpenAIChatProvider
from openworker_qt.providers.router import build_router
from openworker_qt.runtime import open_runtime
from openworker_qt.storage.config import Config
from tests.providers.helpers import collect, fast, user
from tests.providers.stubs import Reply, StubServer, ThreadStub, sse
from tests.providers.test_keys import configure, ended, error, openai_text, turn


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    ls.forget_contexts()
    yield
    ls.forget_contexts()


# What each server answers (shapes as the servers send them, trimmed).
LLAMACPP_PROPS = {"default_generation_settings": {"id": 0, "n_ctx": 8192, "params": {"n_predict": -1}},
                  "total_slots": 1, "model_path": "/models/gemma-3-270m-it-Q4_K_M.gguf",
                  "chat_template": "…", "build_info": "b5000"}
LMSTUDIO_MODELS = {"object": "list", "data": [
    {"id": "qwen2.5-7b-instruct", "object": "model", "type": "llm", "publisher": "lmstudio-community",
     "arch": "qwen2", "compatibility_type": "gguf", "quantization": "Q4_K_M", "state": "loaded",
     "max_context_length": 32768, "loaded_context_length": 4096},
    {"id": "llama-3.2-1b-instruct", "object": "model", "type": "llm", "state": "not-loaded",
     "max_context_length": 131072}]}
VLLM_MODELS = {"object": "list", "data": [
    {"id": "Qwen/Qwen2.5-0.5B-Instruct", "object": "model", "created": 1, "owned_by": "vllm",
     "root": "Qwen/Qwen2.5-0.5B-Instruct", "parent": None, "max_model_len": 32768, "permission": []},
    {"id": "my-lora", "object": "model", "created": 1, "owned_by": "vllm",
     "root": "Qwen/Qwen2.5-0.5B-Instruct", "parent": "Qwen/Qwen2.5-0.5B-Instruct",
     "max_model_len": 16384, "permission": []}]}
OLLAMA_SHOW = {"modelfile": "FROM …", "template": "{{ .Prompt }}",
               "parameters": 'num_ctx                        16384\nstop                           "<|im_end|>"',
               "details": {"family": "qwen3", "parameter_size": "8.2B"},
               "model_info": {"general.architecture": "qwen3", "qwen3.context_length": 40960,
                              "qwen3.embedding_length": 4096}}
OLLAMA_SHOW_PLAIN = {**OLLAMA_SHOW, "parameters": 'stop "<|im_end|>"'}

SERVERS: dict[str, tuple[dict[tuple[str, str], Any], str, int]] = {
    "llama.cpp": ({("GET", "/props"): LLAMACPP_PROPS}, "gemma", 8192),
    "llama.cpp (older /props)": ({("GET", "/props"): {"n_ctx": 2048, "total_slots": 1}}, "gemma", 2048),
    "LM Studio (loaded)": ({("GET", "/api/v0/models"): LMSTUDIO_MODELS}, "qwen2.5-7b-instruct", 4096),
    "LM Studio (not loaded)": ({("GET", "/api/v0/models"): LMSTUDIO_MODELS},
                               "llama-3.2-1b-instruct", 131072),
    "vLLM (the model's entry)": ({("GET", "/v1/models"): VLLM_MODELS}, "my-lora", 16384),
    "Ollama (num_ctx)": ({("POST", "/api/show"): OLLAMA_SHOW}, "qwen3:8b", 16384),
    # no num_ctx: Ollama runs its default (4,096 under 24 GiB of video memory), not the
    # model's 40,960 ...
    "Ollama (model_info, capped)": ({("POST", "/api/show"): OLLAMA_SHOW_PLAIN}, "qwen3:8b", 4096),
    "Ollama (model_info, small)": ({("POST", "/api/show"): {
        **OLLAMA_SHOW_PLAIN, "model_info": {"general.architecture": "llama", "llama.context_length": 2048}}},
        "tinyllama", 2048),
    # ... unless the model is loaded: then the server says what it runs with
    "Ollama (loaded: /api/ps)": ({("POST", "/api/show"): OLLAMA_SHOW_PLAIN, ("GET", "/api/ps"): {
        "models": [{"name": "llama3.2:latest", "model": "llama3.2:latest", "context_length": 4096},
                   {"name": "qwen3:8b", "model": "qwen3:8b", "size": 6_000_000_000,
                    "expires_at": "2026-12-01T23:59:00Z", "size_vram": 6_000_000_000,
                    "context_length": 32768}]}}, "qwen3:8b", 32768),
}


@pytest.mark.parametrize("case", list(SERVERS))
def test_each_server_says_the_context_window_its_own_way(case: str) -> None:
    routes, model, expected = SERVERS[case]
    with ThreadStub() as server:
        server.routes.update({k: (200, v) for k, v in routes.items()})
        assert ls.ask_context(server.url + "/v1", model) == expected
    if "Ollama" in case:
        assert ("POST", "/api/show", {"model": model}) in server.seen


def test_a_server_that_does_not_say_and_one_that_is_not_there_give_none() -> None:
    with ThreadStub() as server:
        server.routes[("GET", "/v1/models")] = (200, {"object": "list", "data": [{"id": "m"}]})
        assert ls.ask_context(server.url + "/v1", "m") is None
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    assert ls.ask_context(f"http://127.0.0.1:{port}/v1", "m") is None


# --------------------------------------------------------- through the provider


def lab(url: str, **settings: Any) -> Config:
    return Config({"providers": {"my-lab": {"base_url": url + "/v1", "models": ["gemma"], **settings}}})


def reply(text: str = "Hi.") -> Reply:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "gemma",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    return Reply(content_type="text/event-stream",
                 body=sse(chunk({"role": "assistant", "content": text}), chunk({}, "stop"), "[DONE]"))


async def test_the_server_is_asked_once_before_the_turn_and_its_figure_replaces_the_default(
        stub: StubServer) -> None:
    router = build_router(lab(stub.url), {}.get)
    provider, model = router.resolve("my-lab:gemma")
    assert provider.capabilities(model).context_window == 8192  # not asked yet: the default
    assert provider.context_window(model) == (8192, "default")
    stub.add("GET", "/props", Reply(body=json.dumps({**LLAMACPP_PROPS, "default_generation_settings": {"n_ctx": 2048}})))
    stub.add("POST", "/v1/chat/completions", reply(), reply())
    await router.resolve_async("my-lab:gemma")  # what a session does before each turn
    assert provider.capabilities(model).context_window == 2048
    assert provider.context_window(model) == (2048, "from the server")
    for _ in range(2):
        await router.resolve_async("my-lab:gemma")
        out = await collect(provider, ModelRequest(model, [user("hi")]))
        assert out.text == "Hi."
    assert len(stub.requests_to("/props")) == 1  # cached per server and model


async def test_a_provider_called_without_preparing_asks_before_its_first_call(stub: StubServer) -> None:
    stub.add("GET", "/v1/models", Reply(body=json.dumps(VLLM_MODELS)))
    stub.add("POST", "/v1/chat/completions", reply())
    provider = OpenAIChatProvider(custom_vendor("vllm-box", {"base_url": stub.url + "/v1"}),
                                  ask_server=True, **fast())
    out = await collect(provider, ModelRequest("my-lora", [user("hi")]))
    assert out.text == "Hi."
    paths = [s.path for s in stub.seen]
    assert paths.index("/v1/models") < paths.index("/v1/chat/completions")
    assert provider.context_window("my-lora") == (16384, "from the server")


async def test_ollama_is_asked_by_its_own_api_and_a_known_model_keeps_its_figure(stub: StubServer) -> None:
    config = Config({"providers": {"ollama": {"base_url": stub.url}}})
    router = build_router(config, {}.get)
    stub.add("POST", "/api/show", Reply(body=json.dumps(OLLAMA_SHOW)))
    provider, model = await router.resolve_async("ollama:qwen3:8b")
    assert provider.context_window(model) == (16384, "from the server")
    assert stub.requests_to("/api/show")[0].body == {"model": "qwen3:8b"}
    stub.routes.clear()  # a server that says nothing: a model the app knows keeps its figure
    provider, model = await router.resolve_async("ollama:gpt-oss:20b")
    assert provider.context_window(model) == (128_000, "built in")


async def test_the_config_decides_and_then_the_server_is_not_asked(stub: StubServer) -> None:
    config = Config({"providers": {
        "my-lab": {"base_url": stub.url + "/v1", "models": ["gemma"], "context_window": 4096},
        "capabilities": {"my-lab:big*": {"context_window": 65536}}}})
    router = build_router(config, {}.get)
    provider, model = await router.resolve_async("my-lab:gemma")
    assert provider.capabilities(model).context_window == 4096
    assert provider.context_window(model) == (4096, "set in config")
    assert provider.context_window("big-model") == (65536, "set in config")
    stub.add("POST", "/v1/chat/completions", reply())
    await collect(provider, ModelRequest(model, [user("hi")]))
    assert [s.path for s in stub.seen] == ["/v1/chat/completions"]


@pytest.mark.parametrize("value", ["lots", 0, -5, 1.5, True])
def test_a_bad_setting_is_a_clear_error(value: Any) -> None:
    router = build_router(lab("http://127.0.0.1:9", context_window=value), {}.get)
    with pytest.raises(ProviderError) as caught:
        router.prepare("my-lab:gemma")
    assert "providers.my-lab.context_window" in caught.value.message
    assert "whole number" in caught.value.message


def test_hosted_apis_are_not_asked() -> None:
    router = build_router(Config({}), {"OPENAI_API_KEY": "k"}.get)
    provider, model = router.resolve("gpt-4o")
    assert provider.capabilities(model).context_window == 128_000
    assert not provider.chat.ask_server


# ----------------------------------------------------------- a real session


async def test_a_session_turn_uses_the_servers_figure(stub: StubServer, isolated_state: Path) -> None:
    stub.add("GET", "/props", Reply(body=json.dumps(LLAMACPP_PROPS)))
    stub.add("POST", "/v1/chat/completions", openai_text("Hello from the local model."))
    configure(isolated_state, f'[providers.my-lab]\nbase_url = "{stub.url}/v1"\nmodels = ["gemma"]\n')
    rt = open_runtime()
    try:
        _sid, events = await turn(rt, "my-lab:gemma")
        provider, model = rt.router.resolve("my-lab:gemma")
        caps = provider.capabilities(model)  # what the engine's budget and compaction read
    finally:
        await rt.stop()
        rt.close()
    assert ended(events) == "completed", error(events)
    paths = [s.path for s in stub.seen]
    assert paths.index("/props") < paths.index("/v1/chat/completions")  # asked before the turn
    assert caps.context_window == 8192


# --------------------------------------------------------- openworker-qt models


def test_models_shows_the_figure_and_where_it_came_from(
        isolated_state: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    dead = sock.getsockname()[1]
    sock.close()
    with ThreadStub() as server:
        server.routes[("GET", "/props")] = (200, {**LLAMACPP_PROPS, "default_generation_settings": {"n_ctx": 2048}})
        configure(isolated_state, f"""
[providers.llama]
base_url = "{server.url}/v1"
models = ["gemma"]

[providers.gone]
base_url = "http://127.0.0.1:{dead}/v1"
models = ["tiny"]

[providers.set]
base_url = "http://127.0.0.1:{dead}/v1"
models = ["qwen"]
context_window = 4096
""")
        assert cli.main(["models"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
    assert "2,048 tokens (from the server)" in lines["llama:gemma"]
    assert "8,192 tokens (default)" in lines["gone:tiny"]
    assert "4,096 tokens (set in config)" in lines["set:qwen"]


async def test_a_server_not_running_yet_is_asked_again_and_a_settings_change_asks_again(
        stub: StubServer) -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    router = build_router(lab(f"http://127.0.0.1:{port}"), {}.get)
    provider, model = await router.resolve_async("my-lab:gemma")
    assert provider.context_window(model) == (8192, "default")
    assert ls.cached_context(f"http://127.0.0.1:{port}/v1", model) == (False, None)  # ask next time
    # A server that answers (but does not say) is not asked on every turn...
    router.configure(lab(stub.url), {}.get)
    provider, model = await router.resolve_async("my-lab:gemma")
    await router.resolve_async("my-lab:gemma")
    assert len(stub.requests_to("/props")) == 1
    # ...until the providers' settings change (it may have been restarted with another size)
    stub.add("GET", "/props", Reply(body=json.dumps(LLAMACPP_PROPS)))
    router.configure(lab(stub.url), {}.get)
    provider, model = await router.resolve_async("my-lab:gemma")
    assert provider.context_window(model) == (8192, "from the server")
    assert len(stub.requests_to("/props")) == 2


def test_a_server_too_slow_to_say_is_not_asked_on_every_call() -> None:
    silent = socket.socket()  # takes the connection, never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    url = f"http://127.0.0.1:{silent.getsockname()[1]}/v1"
    try:
        assert ls.lookup_context(url, "m", timeout=0.2) is None
        assert ls.cached_context(url, "m") == (True, None)  # remembered: no wait next time
    finally:
        silent.close()


@pytest.mark.parametrize(("n_ctx", "compacts"), [(4096, True), (131072, False)], ids=["small", "large"])
async def test_compaction_follows_the_servers_figure(
        stub: StubServer, isolated_state: Path, n_ctx: int, compacts: bool) -> None:
    from openworker_qt.core.context import SUMMARY_SYSTEM

    stub.add("GET", "/props", Reply(body=json.dumps({"default_generation_settings": {"n_ctx": n_ctx}})))
    stub.add("POST", "/v1/chat/completions", *(openai_text(f"answer {i}") for i in range(6)))
    configure(isolated_state, f'[providers.my-lab]\nbase_url = "{stub.url}/v1"\nmodels = ["gemma"]\n')
    rt = open_runtime()
    long_text = "Notes on the quarterly figures. " * 250  # ~2,000 tokens a message
    try:
        sid, events = await turn(rt, "my-lab:gemma", long_text)
        for _ in range(2):
            _sid, events = await turn(rt, "my-lab:gemma", long_text, session=sid)
            assert ended(events) == "completed", error(events)
    finally:
        await rt.stop()
        rt.close()
    systems = [str(s.body["messages"][0].get("content")) for s in stub.requests_to("/v1/chat/completions")]
    summaries = [s for s in systems if s == SUMMARY_SYSTEM]
    assert bool(summaries) is compacts
