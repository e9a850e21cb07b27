"""AWS event-stream framing (``application/vnd.amazon.eventstream``) for stub replies.

One message: a prelude (total length, headers length, both big-endian uint32, then
the CRC32 of those 8 bytes), the headers (name length byte, name, type byte 7 =
string, uint16 value length, value), the payload, and the CRC32 of all before.
botocore checks both CRCs, so a wrong encoder fails loudly.
"""

from __future__ import annotations

import json
import struct
import zlib
from typing import Any


def _headers(headers: dict[str, str]) -> bytes:
    out = b""
    for name, value in headers.items():
        raw_name, raw_value = name.encode(), value.encode()
        out += struct.pack("!B", len(raw_name)) + raw_name + b"\x07"
        out += struct.pack("!H", len(raw_value)) + raw_value
    return out


def message(headers: dict[str, str], payload: bytes) -> bytes:
    head = _headers(headers)
    total = 12 + len(head) + len(payload) + 4
    prelude = struct.pack("!II", total, len(head))
    prelude += struct.pack("!I", zlib.crc32(prelude) & 0xFFFFFFFF)
    body = prelude + head + payload
    return body + struct.pack("!I", zlib.crc32(body) & 0xFFFFFFFF)


def event(kind: str, payload: dict[str, Any]) -> bytes:
    """An event of the Converse stream (``messageStart``, ``contentBlockDelta`` …)."""
    return message({":event-type": kind, ":content-type": "application/json",
                    ":message-type": "event"}, json.dumps(payload).encode())


def exception(kind: str, text: str) -> bytes:
    """An exception inside the stream (``modelStreamErrorException`` …)."""
    return message({":exception-type": kind, ":content-type": "application/json",
                    ":message-type": "exception"}, json.dumps({"message": text}).encode())


def stream(*events: tuple[str, dict[str, Any]]) -> bytes:
    return b"".join(event(kind, payload) for kind, payload in events)
