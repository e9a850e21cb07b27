"""OpenAI-compatible vendors, as data.

Each :class:`Vendor` names its base URL, the keyring entry holding its key,
its default (curated) models and its quirks. The OpenAI Chat Completions
adapter (``openai_chat.py``) reads the quirks; adding a vendor is adding a row.

Quirks and why they exist:
  * ``reasoning_field``: DeepSeek, Kimi, Qwen and GLM stream reasoning in
    ``delta.reasoning_content``; OpenRouter and Ollama use ``delta.reasoning``.
  * ``think_tags``: MiniMax-M2 and many Ollama models inline ``<think>…</think>``
    in the content; it is split out as reasoning.
  * ``send_reasoning_back``: DeepSeek rejects ``reasoning_content`` in the request
    for its reasoner, so by default reasoning never goes back; vendors that want it
    (Kimi thinking models with tool calls) set this.
  * ``stream_usage``: whether ``stream_options.include_usage`` is asked for (a server
    that refuses it is asked again without, and remembered: openai_chat.py).
  * ``tool_id_style``: Mistral only accepts 9-character alphanumeric call ids, so
    ids produced by other providers are mapped on the outbound copy.
  * ``recover_tool_calls``: parse tool calls printed as text (local models).
  * ``stream``: False for gateways that buffer or break SSE; the call is made
    non-streaming and its result is replayed as chunks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

OLLAMA_DEFAULT_URL = "http://localhost:11434"


@dataclass(frozen=True, slots=True)
class Vendor:
    name: str
    label: str
    base_url: str
    key_name: str | None  # keyring entry; None: no key needed (Ollama)
    models: tuple[str, ...] = ()
    reasoning_field: str | None = None
    think_tags: bool = False
    send_reasoning_back: bool = False
    stream_usage: bool = True
    tool_id_style: str = "any"  # "any" | "alnum9"
    recover_tool_calls: bool = True
    stream: bool = True
    extra_headers: Mapping[str, str] = field(default_factory=dict)


VENDORS: dict[str, Vendor] = {
    v.name: v
    for v in (
        Vendor(
            "deepseek",
            "DeepSeek",
            "https://api.deepseek.com/v1",
            "DEEPSEEK_API_KEY",
            ("deepseek-chat", "deepseek-reasoner"),
            reasoning_field="reasoning_content",
        ),
        Vendor(
            "zai",
            "GLM (Z.ai)",
            "https://api.z.ai/api/paas/v4",
            "ZAI_API_KEY",
            ("glm-4.6", "glm-4.5-air"),
            reasoning_field="reasoning_content",
        ),
        Vendor(
            "kimi",
            "Kimi (Moonshot)",
            "https://api.moonshot.ai/v1",
            "MOONSHOT_API_KEY",
            ("kimi-k2-0905-preview", "kimi-k2-turbo-preview", "kimi-k2-thinking"),
            reasoning_field="reasoning_content",
            send_reasoning_back=True,
        ),
        Vendor(
            "qwen",
            "Qwen (DashScope)",
            "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
            "DASHSCOPE_API_KEY",
            ("qwen3-max", "qwen-plus", "qwen3-coder-plus"),
            reasoning_field="reasoning_content",
        ),
        Vendor(
            "minimax",
            "MiniMax",
            "https://api.minimax.io/v1",
            "MINIMAX_API_KEY",
            ("MiniMax-M2",),
            think_tags=True,
        ),
        Vendor(
            "mistral",
            "Mistral",
            "https://api.mistral.ai/v1",
            "MISTRAL_API_KEY",
            ("mistral-large-latest", "mistral-medium-latest", "codestral-latest"),
            stream_usage=False,
            tool_id_style="alnum9",
        ),
        Vendor(
            "xai",
            "Grok (xAI)",
            "https://api.x.ai/v1",
            "XAI_API_KEY",
            ("grok-4", "grok-code-fast-1"),
            reasoning_field="reasoning_content",
        ),
        Vendor(
            "together",
            "Together",
            "https://api.together.xyz/v1",
            "TOGETHER_API_KEY",
            (
                "moonshotai/Kimi-K2-Instruct-0905",
                "Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8",
                "meta-llama/Llama-3.3-70B-Instruct-Turbo",
            ),
            reasoning_field="reasoning",
        ),
        Vendor(
            "fireworks",
            "Fireworks",
            "https://api.fireworks.ai/inference/v1",
            "FIREWORKS_API_KEY",
            (
                "accounts/fireworks/models/kimi-k2-instruct-0905",
                "accounts/fireworks/models/qwen3-coder-480b-a35b-instruct",
            ),
            reasoning_field="reasoning_content",
        ),
        Vendor(
            "inkling",
            "Inkling (Thinking Machines, via Baseten)",
            "https://inference.baseten.co/v1",
            "BASETEN_API_KEY",
            ("thinkingmachines/inkling",),
            reasoning_field="reasoning_content",
        ),
        Vendor(
            "openrouter",
            "OpenRouter",
            "https://openrouter.ai/api/v1",
            "OPENROUTER_API_KEY",
            ("anthropic/claude-sonnet-4.5", "openai/gpt-5", "google/gemini-2.5-pro"),
            reasoning_field="reasoning",
        ),
        Vendor(
            "ollama",
            "Ollama (local)",
            OLLAMA_DEFAULT_URL + "/v1",
            None,
            ("llama3.2", "qwen2.5-coder:32b", "qwen3:8b", "gpt-oss:20b"),
            reasoning_field="reasoning",
            think_tags=True,
            stream_usage=True,
        ),
    )
}

#: Other spellings users type for a vendor (``glm:glm-4.6``, ``grok:grok-4`` …).
ALIASES: dict[str, str] = {
    "glm": "zai",
    "z.ai": "zai",
    "moonshot": "kimi",
    "dashscope": "qwen",
    "grok": "xai",
    "google": "gemini",
    "claude": "anthropic",
    "baseten": "inkling",
}


def normalize_ollama_url(url: str | None) -> str:
    """Ollama's OpenAI-compatible endpoint is ``<host>/v1``, however the user wrote it.

    >>> normalize_ollama_url("localhost:11434")
    'http://localhost:11434/v1'
    >>> normalize_ollama_url("http://gpu-box:11434/api/")
    'http://gpu-box:11434/v1'
    """
    raw = (url or OLLAMA_DEFAULT_URL).strip().rstrip("/")
    if "://" not in raw:
        raw = "http://" + raw
    for suffix in ("/v1", "/api", "/api/chat", "/v1/chat/completions"):
        if raw.endswith(suffix):
            raw = raw[: -len(suffix)]
            break
    return raw.rstrip("/") + "/v1"


def custom_vendor(name: str, settings: Mapping[str, Any]) -> Vendor:
    """A user-defined OpenAI-compatible endpoint from config.

    ``settings``: ``base_url`` (required), ``key_name`` (keyring entry, optional),
    ``models`` (list), and any quirk field of :class:`Vendor`.
    """
    base_url = str(settings.get("base_url") or "").strip()
    if not base_url:
        raise ValueError(f"custom provider '{name}' needs a base_url")
    vendor = Vendor(
        name=name,
        label=str(settings.get("label") or name),
        base_url=base_url.rstrip("/"),
        key_name=(str(settings["key_name"]) if settings.get("key_name") else None),
        models=tuple(str(m) for m in settings.get("models") or ()),
    )
    quirks = {
        k: settings[k]
        for k in (
            "reasoning_field",
            "think_tags",
            "send_reasoning_back",
            "stream_usage",
            "tool_id_style",
            "recover_tool_calls",
            "stream",
        )
        if k in settings
    }
    return replace(vendor, **quirks)
