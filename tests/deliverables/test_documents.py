"""PDF deliverables and their fonts: rendering leaves no font file open (fpdf2 reads
TrueType fonts lazily), whether the PDF is written or refused half-way; the font is found
on every platform, and words no font has are refused, not dropped."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest

from openworker_qt.deliverables import base, documents
from openworker_qt.deliverables.documents import DocumentError, render, unicode_font


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


def _pdf_fonts(data: bytes) -> set[str]:
    from pypdf import PdfReader

    page = PdfReader(io.BytesIO(data)).pages[0]
    fonts = page["/Resources"]["/Font"]
    return {str(fonts[name].get_object()["/BaseFont"]) for name in fonts}


PDF_WORDS = [{"type": "heading", "text": "Zażółć gęślą jaźń", "level": 1},
             {"type": "paragraph", "text": "Price: 30 € per seat"}]


def test_pdf_without_any_font_found_falls_back_to_a_builtin_font(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pypdf import PdfReader

    empty = tmp_path / "fonts"
    empty.mkdir()
    monkeypatch.setattr(base, "font_dirs", lambda: [empty])
    assert base.unicode_font() is None
    rendered = documents.render("pdf", "Brief", documents.validate("pdf", PDF_WORDS))
    assert any("Helvetica" in f for f in _pdf_fonts(rendered.data))
    text = PdfReader(io.BytesIO(rendered.data)).pages[0].extract_text()
    # Latin-1 survives; what the built-in font cannot hold is replaced, nothing fails.
    assert "Brief" in text and "Price: 30" in text and "per seat" in text


def test_pdf_finds_a_system_font_by_its_platform_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Windows font folder holding only arial.ttf/arialbd.ttf is used (here two
    copies of DejaVu Sans under those names)."""
    source = base.unicode_font()
    assert source is not None, "a TrueType font is needed for this test"
    fonts = tmp_path / "Windows" / "Fonts"
    fonts.mkdir(parents=True)
    shutil.copy(source[0], fonts / "arial.ttf")
    shutil.copy(source[1], fonts / "arialbd.ttf")
    monkeypatch.setattr(base, "font_dirs", lambda: [tmp_path / "empty", fonts])
    assert base.unicode_font() == (fonts / "arial.ttf", fonts / "arialbd.ttf")
    rendered = documents.render("pdf", "Brief", documents.validate("pdf", PDF_WORDS))
    assert not any("Helvetica" in f for f in _pdf_fonts(rendered.data))
    from pypdf import PdfReader

    text = PdfReader(io.BytesIO(rendered.data)).pages[0].extract_text()
    assert "Zażółć gęślą jaźń" in text and "30 €" in text


def test_font_folders_per_platform(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(base.sys, "platform", "win32")
    monkeypatch.setenv("WINDIR", str(tmp_path / "Win"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    dirs = base.font_dirs()
    assert tmp_path / "Win" / "Fonts" in dirs
    assert tmp_path / "Local" / "Microsoft" / "Windows" / "Fonts" in dirs
    monkeypatch.setattr(base.sys, "platform", "darwin")
    assert Path("/System/Library/Fonts/Supplemental") in base.font_dirs()
    # The package's own DejaVu Sans comes first everywhere (the frozen app ships it).
    assert base.font_dirs()[0] == base.PACKAGE_FONTS
    assert base.unicode_font() == (base.PACKAGE_FONTS / "DejaVuSans.ttf",
                                        base.PACKAGE_FONTS / "DejaVuSans-Bold.ttf")


CHINESE_WORDS = [{"type": "heading", "text": "第三季度 sales", "level": 1},
                 {"type": "paragraph", "text": "Sales rose in every month. 销售额逐月上升。"},
                 {"type": "list", "items": ["北京", "Shanghai 上海"]},
                 {"type": "table", "columns": ["城市", "Total"], "rows": [["广州", 3]]}]


def test_pdf_keeps_chinese_words_with_a_system_font_that_has_them() -> None:
    from pypdf import PdfReader

    # scripts/dev installs fonts-noto-cjk (the UI's Chinese needs it too).
    rendered = documents.render("pdf", "报告 Q3", documents.validate("pdf", CHINESE_WORDS))
    text = PdfReader(io.BytesIO(rendered.data)).pages[0].extract_text()
    text = "".join(text.replace("\x00", "").split())  # (pypdf puts NULs in a CID font's text)
    for words in ("报告Q3", "第三季度sales", "销售额逐月上升。", "北京", "Shanghai上海", "城市", "广州"):
        assert words in text


def test_pdf_with_characters_no_font_has_is_refused_not_written_without_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from openworker_qt.deliverables import charts

    monkeypatch.setattr(charts, "CJK_FONTS", (str(tmp_path / "none.ttc"),))
    with pytest.raises(documents.DocumentError, match="销 \\(U\\+9500\\) 售"):
        documents.render("pdf", "Q3", documents.validate("pdf", CHINESE_WORDS[1:2]))
    # Words the shipped font has are written as before.
    assert documents.render("pdf", "Brief", documents.validate("pdf", PDF_WORDS)).data
