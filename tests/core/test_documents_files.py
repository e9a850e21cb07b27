"""Rendering a PDF leaves no font file open (fpdf2 reads TrueType fonts lazily), whether
the PDF is written or refused half-way."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from openworker_qt.core.documents import DocumentError, render, unicode_font


def open_fonts() -> list[str]:
    """The font files this process holds open (Linux: /proc/self/fd)."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:  # the listing's own descriptor, gone already
            continue
        if target.endswith((".ttf", ".ttc", ".otf")):
            found.append(target)
    return found


def test_a_written_pdf_leaves_no_font_file_open() -> None:
    assert unicode_font() is not None  # DejaVu Sans ships with the package
    before = open_fonts()
    rendered = render("pdf", "Brief", [{"type": "heading", "text": "Renewal"},
                                       {"type": "paragraph", "text": "**Bold** and plain."}])
    assert rendered.data.startswith(b"%PDF")
    assert open_fonts() == before


def test_a_refused_pdf_leaves_no_font_file_open(tmp_path: Path) -> None:
    before = open_fonts()
    (tmp_path / "bad.png").write_bytes(b"not an image")
    with pytest.raises(DocumentError):
        render("pdf", "Brief", [{"type": "paragraph", "text": "Text first."},
                                {"type": "image", "path": str(tmp_path / "bad.png")}])
    assert open_fonts() == before
