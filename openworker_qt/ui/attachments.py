"""Files dropped or picked become message attachments; folders become grants.

:func:`load_attachment` reads and encodes a file — blocking work, so callers
run it in a worker (``asyncio.to_thread``); it builds a ``QImage`` thumbnail,
which is safe off the GUI thread (a ``QPixmap`` is not, and is made later).

Every part records the file's ``path`` (never sent to a provider): the files
the user attached may be read by the assistant's file tools (they are read roots).

Kinds: images (PNG, JPEG, GIF, WebP) → ``image_url`` part with a data URL;
PDFs → ``file`` part (the provider layer extracts text or pages when the
model has no native PDF support); text files → a ``text`` part. Anything else,
or anything larger than the limits, is refused with a message that says why.
"""

from __future__ import annotations

import base64
import mimetypes
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QImage, QPixmap

MAX_IMAGE_BYTES = 10 * 1024 * 1024
MAX_PDF_BYTES = 25 * 1024 * 1024
MAX_TEXT_BYTES = 1 * 1024 * 1024
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
               ".gif": "image/gif", ".webp": "image/webp"}
TEXT_SUFFIXES = {".txt", ".md", ".markdown", ".csv", ".tsv", ".json", ".yaml", ".yml", ".toml",
                 ".py", ".js", ".ts", ".html", ".css", ".xml", ".ini", ".cfg", ".log", ".rst",
                 ".sh", ".sql", ".c", ".h", ".cpp", ".rs", ".go", ".java", ".kt", ".rb"}


def _tr(text: str) -> str:
    return QCoreApplication.translate("Attachments", text)


class AttachmentError(ValueError):
    """A file cannot be attached; the message is shown to the user as is."""


@dataclass
class Attachment:
    name: str
    path: str
    kind: str  # "image" | "pdf" | "text"
    part: dict[str, Any]
    image: QImage | None = None
    _pixmap: QPixmap | None = field(default=None, repr=False)

    @property
    def thumbnail(self) -> QPixmap | None:
        """A pixmap of the thumbnail (only call on the GUI thread)."""
        if self.image is None:
            return None
        if self._pixmap is None:
            self._pixmap = QPixmap.fromImage(self.image)
        return self._pixmap


def _size_text(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB" if n >= 1024 * 1024 else f"{n / 1024:.0f} KB"


def load_attachment(path: str | Path) -> Attachment:
    """Read, check and encode one file (blocking). Raises :class:`AttachmentError`."""
    p = Path(path)
    if p.is_dir():
        raise AttachmentError(_tr("{name} is a folder").format(name=p.name))
    try:
        size = p.stat().st_size
    except OSError as exc:
        raise AttachmentError(_tr("{name} cannot be read: {err}").format(name=p.name, err=exc)) from exc
    suffix = p.suffix.lower()
    if suffix in IMAGE_TYPES:
        if size > MAX_IMAGE_BYTES:
            raise AttachmentError(_tr("{name} is too large ({size}; images up to {limit})").format(
                name=p.name, size=_size_text(size), limit=_size_text(MAX_IMAGE_BYTES)))
        data = p.read_bytes()
        image = QImage()
        if not image.loadFromData(data):
            raise AttachmentError(_tr("{name} is not a readable image").format(name=p.name))
        thumb = image.scaled(64, 64, Qt.AspectRatioMode.KeepAspectRatio,
                             Qt.TransformationMode.SmoothTransformation)
        url = f"data:{IMAGE_TYPES[suffix]};base64,{base64.b64encode(data).decode()}"
        part = {"type": "image_url", "image_url": {"url": url}, "name": p.name, "path": str(p)}
        return Attachment(p.name, str(p), "image", part, thumb)
    if suffix == ".pdf":
        if size > MAX_PDF_BYTES:
            raise AttachmentError(_tr("{name} is too large ({size}; PDFs up to {limit})").format(
                name=p.name, size=_size_text(size), limit=_size_text(MAX_PDF_BYTES)))
        data = p.read_bytes()
        if not data.startswith(b"%PDF"):
            raise AttachmentError(_tr("{name} is not a PDF").format(name=p.name))
        url = f"data:application/pdf;base64,{base64.b64encode(data).decode()}"
        part = {"type": "file", "file": {"filename": p.name, "file_data": url}, "path": str(p)}
        return Attachment(p.name, str(p), "pdf", part)
    guessed = mimetypes.guess_type(p.name)[0] or ""
    if suffix in TEXT_SUFFIXES or guessed.startswith("text/") or not suffix:
        if size > MAX_TEXT_BYTES:
            raise AttachmentError(_tr("{name} is too large ({size}; text files up to {limit})").format(
                name=p.name, size=_size_text(size), limit=_size_text(MAX_TEXT_BYTES)))
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise AttachmentError(_tr("{name} is not UTF-8 text").format(name=p.name)) from exc
        part = {"type": "text", "text": f"[Attached file: {p.name}]\n{text}", "name": p.name,
                "path": str(p)}
        return Attachment(p.name, str(p), "text", part)
    raise AttachmentError(
        _tr("{name}: this kind of file cannot be attached (images, PDFs and text files can)").format(
            name=p.name)
    )


def mcp_attachment(server: str, uri: str, name: str, text: str) -> Attachment:
    """A resource read from an MCP server, attached as text. Its part carries no
    ``path``: a server's resource is not a file the assistant's tools may read."""
    label = name or uri
    part = {"type": "text", "name": label,
            "text": f"[Attached from the MCP server {server}: {label} ({uri})]\n{text}"}
    return Attachment(label, f"mcp:{server}:{uri}", "mcp", part)
