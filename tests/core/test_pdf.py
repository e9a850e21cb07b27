"""PDF inspection, text extraction, page rendering and the outbound fallbacks."""

from __future__ import annotations

import base64
import struct
import zlib

import pytest

from openworker_qt.core.messages import Capabilities, outbound, user_message
from openworker_qt.core.pdf import NotAPdf, encode_png, inspect, rasterize
from tests.core.test_messages import _pdf


def _multi_page(n: int) -> bytes:
    import io

    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(n):
        writer.add_blank_page(width=200, height=100)
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def _png_size(png: bytes) -> tuple[int, int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    length, tag = struct.unpack(">I4s", png[8:16])
    assert tag == b"IHDR" and length == 13
    width, height, depth, color = struct.unpack(">IIBB", png[16:26])
    assert depth == 8
    # The image data decompresses to exactly one filter byte + a row per line.
    idat = b""
    pos = 8
    while pos < len(png):
        size, kind = struct.unpack(">I4s", png[pos : pos + 8])
        body = png[pos + 8 : pos + 8 + size]
        (crc,) = struct.unpack(">I", png[pos + 8 + size : pos + 12 + size])
        assert crc == zlib.crc32(kind + body)
        if kind == b"IDAT":
            idat += body
        pos += 12 + size
    channels = 4 if color == 6 else 3
    assert len(zlib.decompress(idat)) == height * (1 + width * channels)
    return width, height, channels


def test_inspect_counts_pages_and_rejects_other_files() -> None:
    data = _multi_page(3)
    info = inspect(data)
    assert (info.pages, info.bytes) == (3, len(data))
    with pytest.raises(NotAPdf):
        inspect(b"\x89PNG\r\n\x1a\nnot a pdf")
    with pytest.raises(NotAPdf):
        inspect(b"%PDF-1.4 but garbage after")


def test_rasterize_respects_max_pages_at_twice_the_size() -> None:
    pngs = rasterize(_multi_page(4), max_pages=2)
    assert len(pngs) == 2
    width, height, _ = _png_size(pngs[0])
    assert (width, height) == (400, 200)  # 200×100 pt at 2×


def test_encode_png_roundtrip_dimensions() -> None:
    pixels = bytes(range(2 * 3 * 3)) + b"\x00" * 0
    png = encode_png(3, 2, pixels, stride=9, channels=3)
    assert _png_size(png) == (3, 2, 3)


def _with_pdf(data: bytes) -> list[dict]:
    url = "data:application/pdf;base64," + base64.b64encode(data).decode()
    return [user_message([{"type": "file", "file": {"filename": "deck.pdf", "file_data": url}}])]


def test_images_mode_renders_pages_for_vision_models() -> None:
    out = outbound(_with_pdf(_multi_page(2)), Capabilities(vision=True, pdf=False), pdf_mode="images")
    parts = out[0]["content"]
    assert parts[0]["type"] == "text" and "deck.pdf" in parts[0]["text"]
    assert [p["type"] for p in parts[1:]] == ["image_url", "image_url"]
    png = base64.b64decode(parts[1]["image_url"]["url"].split(",", 1)[1])
    assert _png_size(png)[:2] == (400, 200)


def test_images_mode_needs_vision_and_unknown_modes_mean_text() -> None:
    history = _with_pdf(_pdf("Signed contract"))
    no_vision = outbound(history, Capabilities(vision=False, pdf=False), pdf_mode="images")
    assert no_vision[0]["content"][0]["type"] == "text"
    assert "Signed contract" in no_vision[0]["content"][0]["text"]
    odd = outbound(history, Capabilities(vision=True, pdf=False), pdf_mode="hologram")
    assert [p["type"] for p in odd[0]["content"]] == ["text"]


def test_other_parts_are_untouched() -> None:
    msg = user_message([{"type": "text", "text": "hello"}])
    assert outbound([msg], Capabilities(pdf=False))[0]["content"] == [{"type": "text", "text": "hello"}]
