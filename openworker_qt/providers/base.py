"""The provider protocol, re-exported from :mod:`openworker_qt.core.provider_api`.

The engine owns the protocol, so it lives in the core; this name stays for code
written against ``openworker_qt.providers.base``. New code imports from the core.
"""

from openworker_qt.core.provider_api import (
    TRANSIENT_KINDS,
    ErrorKind,
    FinishChunk,
    ModelProvider,
    ModelRequest,
    ProviderError,
    ProviderResolver,
    ReasoningChunk,
    RetryChunk,
    StreamChunk,
    TextChunk,
    ToolCallChunk,
)

__all__ = [
    "ErrorKind",
    "FinishChunk",
    "ModelProvider",
    "ModelRequest",
    "ProviderError",
    "ProviderResolver",
    "ReasoningChunk",
    "RetryChunk",
    "StreamChunk",
    "TRANSIENT_KINDS",
    "TextChunk",
    "ToolCallChunk",
]
