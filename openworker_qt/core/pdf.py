"""PDF helpers for outbound adaptation: inspect, extract text, render page images.

Text comes from pypdf; page images from PDFium (pypdfium2, which ships the
library in its wheel), encoded as PNG here with zlib so no imaging library is
needed. All of it is CPU work: callers run it off the loop thread (the engine
converts new messages in a worker).
"""

from __future__ import annotations

import io
import struct
import zlib
from dataclasses import dataclass


class NotAPdf(ValueError):
    """The bytes are not a PDF document."""


@dataclass(frozen=True, slots=True)
class PdfInfo:
    pages: int
    bytes: int


def inspect(data: bytes) -> PdfInfo:
    """Page count and size; :class:`NotAPdf` for anything that is not a PDF."""
    if not data.lstrip()[:5].startswith(b"%PDF-"):
        raise NotAPdf("not a PDF document (no %PDF- header)")
    from pypdf import PdfReader

    try:
        pages = len(PdfReader(io.BytesIO(data)).pages)
    except Exception as exc:  # pypdf raises many types for damaged files
        raise NotAPdf(f"damaged PDF: {exc}") from exc
    return PdfInfo(pages=pages, bytes=len(data))


def extract_text(data: bytes, *, max_chars: int = 200_000) -> str:
    """The text of every page, or a clear note when there is none."""
    from pypdf import PdfReader

    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [page.extract_text() or "" for page in reader.pages]
    except Exception as exc:
        return f"[PDF could not be read: {exc}]"
    text = "\n\n".join(
        f"--- page {i + 1} ---\n{t.strip()}" for i, t in enumerate(pages) if t.strip()
    )
    if not text:
        return f"[PDF with {len(pages)} page(s) and no extractable text (scanned?)]"
    return text[:max_chars]


def rasterize(data: bytes, *, max_pages: int = 5, scale: float = 2.0) -> list[bytes]:
    """PNG images of the first ``max_pages`` pages at ``scale`` × 72 dpi."""
    import pypdfium2 as pdfium

    try:
        doc = pdfium.PdfDocument(data)
    except Exception as exc:
        raise NotAPdf(f"cannot render PDF: {exc}") from exc
    images: list[bytes] = []
    try:
        for index in range(min(len(doc), max(max_pages, 0))):
            page = doc[index]
            bitmap = page.render(scale=scale, rev_byteorder=True)
            try:
                images.append(_png_from_bitmap(bitmap))
            finally:
                bitmap.close()
                page.close()
    finally:
        doc.close()
    return images


def _png_from_bitmap(bitmap: object) -> bytes:
    width = int(bitmap.width)  # type: ignore[attr-defined]
    height = int(bitmap.height)  # type: ignore[attr-defined]
    stride = int(bitmap.stride)  # type: ignore[attr-defined]
    buf = bytes(bitmap.buffer)  # type: ignore[attr-defined]
    channels = stride // width if width else 3
    channels = 4 if channels >= 4 else 3
    return encode_png(width, height, buf, stride, channels)


def encode_png(width: int, height: int, pixels: bytes, stride: int, channels: int) -> bytes:
    """A minimal PNG encoder (8-bit RGB or RGBA, filter 0 per row)."""
    color_type = 6 if channels == 4 else 2
    row_bytes = width * channels
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        start = y * stride
        raw += pixels[start : start + row_bytes]

    def chunk(tag: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))

    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(raw), 6))
        + chunk(b"IEND", b"")
    )
