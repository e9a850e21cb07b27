"""Model servers run by the user (llama.cpp, LM Studio, vLLM, Ollama): where they
listen by default, what runs on this computer, and how large a context window the
served model has — asked from the server, since a model id says nothing about it.

Each server says it its own way:

=========  ==========================  ============================================
server     default address             context window
=========  ==========================  ============================================
llama.cpp  http://127.0.0.1:8080/v1    ``GET /props``: ``default_generation_settings
                                       .n_ctx`` (older builds: ``n_ctx``)
LM Studio  http://127.0.0.1:1234/v1    ``GET /api/v0/models``: the model's
                                       ``loaded_context_length``, else
                                       ``max_context_length``
vLLM       http://127.0.0.1:8000/v1    ``GET /v1/models``: the model's ``max_model_len``
Ollama     http://127.0.0.1:11434      ``GET /api/ps``: a loaded model's
                                       ``context_length``; else ``POST /api/show``:
                                       ``num_ctx`` in ``parameters``, else
                                       ``model_info``'s ``<arch>.context_length``
                                       capped at Ollama's default (4,096)
=========  ==========================  ============================================

Which figure a provider uses (:func:`resolve_context`), first found wins: the
config (``[providers.NAME] context_window = N``, or ``context_window`` in a
``[providers.capabilities]`` entry for the model), the server's answer, the
built-in figure of a known model, else :data:`DEFAULT_CONTEXT` (8,192: small on
purpose, so compaction starts early rather than too late).

Everything here that touches the network is blocking (stdlib ``urllib``, no proxy,
a short timeout): call it from a worker thread, never the loop thread. Answers are
cached per (server, model) until the providers' settings change; so is the lack of
one from a server that does not say or is too slow to (it is not asked on every
call). Where nothing listens yet, it is asked again next time (it may be starting).
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from openworker_qt.providers.capabilities import override_matches

#: The context window assumed for a served model nobody told us about.
DEFAULT_CONTEXT = 8_192
#: Ollama's own default for a model whose file sets no ``num_ctx`` (on a computer
#: with less than 24 GiB of video memory; more memory, more context).
OLLAMA_DEFAULT_CONTEXT = 4_096
#: Seconds per request when asking a server (it runs here or on the local network).
PROBE_TIMEOUT = 1.5

# Where a figure came from (``openworker-qt models`` shows these words).
FROM_CONFIG = "set in config"
FROM_SERVER = "from the server"
BUILT_IN = "built in"
DEFAULT = "default"


@dataclass(frozen=True, slots=True)
class Preset:
    """A kind of local server and its standard address."""

    kind: str  # "llamacpp" | "lmstudio" | "vllm" | "ollama"
    label: str
    base_url: str


PRESETS: tuple[Preset, ...] = (
    Preset("lmstudio", "LM Studio", "http://127.0.0.1:1234/v1"),
    Preset("ollama", "Ollama", "http://127.0.0.1:11434"),
    Preset("llamacpp", "llama.cpp", "http://127.0.0.1:8080/v1"),
    Preset("vllm", "vLLM", "http://127.0.0.1:8000/v1"),
)


class _Unreachable(Exception):
    """Nothing answers at that address (refused, timed out, no such host).
    ``refused``: nothing listens there (yet): worth asking again later."""

    def __init__(self, message: str, *, refused: bool = False) -> None:
        super().__init__(message)
        self.refused = refused


def server_root(base_url: str) -> str:
    """The server's address without its API path (``…/v1`` → ``…``)."""
    raw = base_url.strip().rstrip("/")
    if "://" not in raw:
        raw = "http://" + raw
    for suffix in ("/v1/chat/completions", "/chat/completions", "/v1", "/api"):
        if raw.endswith(suffix):
            return raw[: -len(suffix)].rstrip("/")
    return raw


_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _json(url: str, timeout: float, body: Mapping[str, Any] | None = None) -> Any:
    """The JSON answer at ``url``, or None (an error status, not JSON).

    Raises:
        _Unreachable: no server answered.
    """
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method="POST" if data else "GET",
                                 headers={"Content-Type": "application/json"} if data else {})
    try:
        with _OPENER.open(req, timeout=timeout) as response:
            raw = response.read(4_000_000)
    except urllib.error.HTTPError:
        return None
    except (OSError, ValueError) as exc:  # URLError, refused, timeout, bad URL
        reason = getattr(exc, "reason", exc)
        raise _Unreachable(str(exc), refused=isinstance(reason, ConnectionRefusedError)) from exc
    try:
        return json.loads(raw.decode("utf-8"))
    except ValueError:
        return None


def _positive(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    if isinstance(value, float) and value.is_integer() and value > 0:
        return int(value)
    return None


def _entries(data: Any) -> list[Mapping[str, Any]]:
    items = data.get("data") if isinstance(data, Mapping) else None
    return [m for m in items or [] if isinstance(m, Mapping)] if isinstance(items, list) else []


def _entry(data: Any, model: str) -> Mapping[str, Any] | None:
    entries = _entries(data)
    for m in entries:
        if m.get("id") == model:
            return m
    return entries[0] if len(entries) == 1 and not model else None


def _llamacpp(root: str, model: str, timeout: float) -> int | None:
    data = _json(f"{root}/props", timeout)
    if not isinstance(data, Mapping):
        return None
    settings = data.get("default_generation_settings")
    if isinstance(settings, Mapping) and _positive(settings.get("n_ctx")):
        return _positive(settings.get("n_ctx"))
    return _positive(data.get("n_ctx"))


def _lmstudio(root: str, model: str, timeout: float) -> int | None:
    entry = _entry(_json(f"{root}/api/v0/models", timeout), model)
    if entry is None:
        return None
    return _positive(entry.get("loaded_context_length")) or _positive(entry.get("max_context_length"))


def _vllm(root: str, model: str, timeout: float) -> int | None:
    entry = _entry(_json(f"{root}/v1/models", timeout), model)
    return _positive(entry.get("max_model_len")) if entry is not None else None


def _ollama(root: str, model: str, timeout: float) -> int | None:
    """Ollama runs a model with its ``num_ctx`` (the model file's), else the server's
    setting (``OLLAMA_CONTEXT_LENGTH``), else its own default — 4,096 on a computer
    with less than 24 GiB of video memory — whatever the model could take
    (``model_info``'s length). So: a loaded model's figure (``/api/ps``), else
    ``num_ctx``, else the model's length capped at :data:`OLLAMA_DEFAULT_CONTEXT`."""
    if not model:
        return None
    data = _json(f"{root}/api/show", timeout, {"model": model})
    if not isinstance(data, Mapping):
        return None
    running = _json(f"{root}/api/ps", timeout)
    for entry in (running.get("models") if isinstance(running, Mapping) else None) or []:
        if isinstance(entry, Mapping) and model in (entry.get("name"), entry.get("model")):
            if size := _positive(entry.get("context_length")):
                return size
    for line in str(data.get("parameters") or "").splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "num_ctx" and parts[1].isdigit():
            return _positive(int(parts[1]))
    info = data.get("model_info")
    if isinstance(info, Mapping):
        for key, value in info.items():
            if str(key).endswith(".context_length") and (size := _positive(value)):
                return min(size, OLLAMA_DEFAULT_CONTEXT)
    return None


_ASK = {"llamacpp": _llamacpp, "lmstudio": _lmstudio, "vllm": _vllm, "ollama": _ollama}


def ask_context(base_url: str, model: str, *, kind: str | None = None,
                timeout: float = PROBE_TIMEOUT) -> int | None:
    """The context window the server at ``base_url`` gives ``model``, or None.

    ``kind``: the server's kind when known; else each server's way is tried in turn
    (llama.cpp, LM Studio, vLLM, Ollama). Blocking.
    """
    return _ask(base_url, model, kind, timeout)[1]


def _ask(base_url: str, model: str, kind: str | None, timeout: float) -> tuple[bool, int | None]:
    """(worth remembering: the server answered, or timed out; not when nothing
    listens there yet — the server may be starting), its figure)."""
    root = server_root(base_url)
    kinds = [kind, *(k for k in _ASK if k != kind)] if kind in _ASK else list(_ASK)
    for name in kinds:
        try:
            found = _ASK[str(name)](root, model, timeout)
        except _Unreachable as exc:  # the other ways would not answer either
            return not exc.refused, None
        if found:
            return True, found
    return True, None


# ------------------------------------------------------------------ the cache

_cache: dict[tuple[str, str], int | None] = {}
_lock = threading.Lock()


def cached_context(base_url: str, model: str) -> tuple[bool, int | None]:
    """(asked already, the answer) for ``model`` at ``base_url`` — no network."""
    key = (server_root(base_url), model)
    with _lock:
        return key in _cache, _cache.get(key)


def lookup_context(base_url: str, model: str, *, kind: str | None = None,
                   timeout: float = PROBE_TIMEOUT) -> int | None:
    """:func:`ask_context`, once per (server, model) for the process (where nothing
    listens yet, asked again next time: the server may be starting). Blocking."""
    asked, value = cached_context(base_url, model)
    if asked:
        return value
    reached, value = _ask(base_url, model, kind, timeout)
    if reached:
        with _lock:
            _cache[(server_root(base_url), model)] = value
    return value


def forget_contexts() -> None:
    """Empty the cache (a server restarted with another context; tests)."""
    with _lock:
        _cache.clear()


# --------------------------------------------------------------- resolution


def configured_context(provider: str, model: str, setting: Any,
                       overrides: Mapping[str, Mapping[str, Any]] | None) -> int | None:
    """The context window the user set for ``model``: a ``[providers.capabilities]``
    entry naming it (the last matching one), else the provider's ``context_window``."""
    found: int | None = None
    for key, changes in (overrides or {}).items():
        if not isinstance(changes, Mapping) or "context_window" not in changes:
            continue
        if override_matches(key, provider, model):
            found = _positive(changes["context_window"]) or found
    return found or _positive(setting)


def check_setting(where: str, value: Any) -> int | None:
    """A ``context_window`` setting as a number of tokens (None: not set).

    Raises:
        ValueError: not a whole number above 0 (the message names the setting).
    """
    if value is None:
        return None
    number = _positive(value)
    if number is None:
        raise ValueError(f"the setting {where}.context_window in config.toml must be a whole "
                         f"number of tokens above 0, e.g. 8192 (it is {value!r})")
    return number


def resolve_context(provider: str, model: str, *, setting: Any = None,
                    overrides: Mapping[str, Mapping[str, Any]] | None = None,
                    base_url: str = "", built_in: int | None = None,
                    ask: bool = False, kind: str | None = None) -> tuple[int, str]:
    """(context window, where it came from) for ``model`` on a user-run server.

    ``built_in``: the figure of a known model (a built-in rule), if any. ``ask``:
    ask the server when it was not asked yet (blocking); else only the cache is read.
    """
    configured = configured_context(provider, model, setting, overrides)
    if configured:
        return configured, FROM_CONFIG
    if base_url:
        value = (lookup_context(base_url, model, kind=kind) if ask
                 else cached_context(base_url, model)[1])
        if value:
            return value, FROM_SERVER
    if built_in:
        return built_in, BUILT_IN
    return DEFAULT_CONTEXT, DEFAULT


# ------------------------------------------------------------------ detection


@dataclass(frozen=True, slots=True)
class Found:
    """A server that answered: its preset, its models and their context windows."""

    preset: Preset
    models: tuple[str, ...]
    contexts: Mapping[str, int] = field(default_factory=dict)

    @property
    def base_url(self) -> str:
        return self.preset.base_url


def _models(preset: Preset, timeout: float) -> tuple[str, ...] | None:
    root = server_root(preset.base_url)
    if preset.kind == "ollama":
        data = _json(f"{root}/api/tags", timeout)
        items = data.get("models") if isinstance(data, Mapping) else None
        if not isinstance(items, list):
            return None
        return tuple(sorted(str(m.get("name") or m.get("model")) for m in items
                            if isinstance(m, Mapping) and (m.get("name") or m.get("model"))))
    data = _json(f"{root}/v1/models", timeout)
    if not isinstance(data, Mapping) or not isinstance(data.get("data"), list):
        return None
    return tuple(str(m["id"]) for m in _entries(data) if m.get("id"))


def _probe(preset: Preset, timeout: float, limit: int) -> Found | None:
    try:
        models = _models(preset, timeout)
        if models is None:
            return None
        contexts: dict[str, int] = {}
    except _Unreachable:
        return None
    for model in models[:limit]:
        value = ask_context(preset.base_url, model, kind=preset.kind, timeout=timeout)
        if value:
            contexts[model] = value
            with _lock:
                _cache[(server_root(preset.base_url), model)] = value
    return Found(preset, models, contexts)


def detect(candidates: Iterable[Preset] = PRESETS, *, timeout: float = 0.5,
           limit: int = 8) -> list[Found]:
    """The servers among ``candidates`` that answer, in the candidates' order, with
    their models and (for the first ``limit`` models) context windows.

    The candidates are asked at once, each with a short ``timeout``. Blocking: call
    it from a worker thread.
    """
    presets = list(candidates)
    if not presets:
        return []
    with ThreadPoolExecutor(max_workers=len(presets), thread_name_prefix="detect-servers") as pool:
        answers = list(pool.map(lambda p: _probe(p, timeout, limit), presets))
    return [a for a in answers if a is not None]
