"""MCP content (tool results, resources, prompt messages) as text for the model."""

from __future__ import annotations

import base64
import json
from typing import Any

RESULT_CAP = 50_000


def cap(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n…(cut: {len(text) - limit} more characters)"


def result_text(result: Any, limit: int = RESULT_CAP) -> tuple[str, list[dict[str, Any]]]:
    """A CallToolResult (or prompt/resource contents) as text for the model, and
    what it held besides text (for the card)."""
    parts: list[str] = []
    extras: list[dict[str, Any]] = []
    for item in getattr(result, "content", None) or []:
        kind = getattr(item, "type", "")
        if kind == "text":
            parts.append(item.text)
        elif kind in ("image", "audio"):
            size = len(base64.b64decode(item.data or "", validate=False)) if item.data else 0
            parts.append(f"[{kind}: {item.mime_type}, {size} bytes]")
            extras.append({"type": kind, "mime_type": item.mime_type, "bytes": size})
        elif kind == "resource":
            parts.append(resource_text(item.resource))
        elif kind == "resource_link":
            parts.append(f"[resource: {item.uri}{' — ' + item.name if item.name else ''}]")
            extras.append({"type": "resource_link", "uri": str(item.uri)})
        else:
            parts.append(f"[{kind or 'content'}]")
    structured = getattr(result, "structured_content", None)
    if structured is not None and not parts:
        parts.append(json.dumps(structured, ensure_ascii=False, indent=1))
    return cap("\n".join(parts), limit), extras


def resource_text(contents: Any) -> str:
    text = getattr(contents, "text", None)
    if text is not None:
        return str(text)
    blob = getattr(contents, "blob", "") or ""
    size = len(base64.b64decode(blob, validate=False)) if blob else 0
    return f"[{getattr(contents, 'mime_type', None) or 'binary'} {contents.uri}, {size} bytes]"
