"""DOCX and PPTX pages from LibreOffice (deliverables/office_pdf.py): real files from the
deliverables tool converted by the real ``soffice`` and read back with pypdf and
pdftotext; a converter that hangs or fails stands in for a broken LibreOffice (a real
program that sleeps or exits 1), killed at the time limit or when cancelled."""

from __future__ import annotations

import asyncio
import os
import shutil
import stat
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core.tool_api import ToolContext
from openworker_qt.deliverables import office_pdf
from openworker_qt.tools.deliverables import create_deliverable

NO_SOFFICE = pytest.mark.skipif(
    office_pdf.program() is None,
    reason="LibreOffice (soffice) is not installed: scripts/dev installs "
           "libreoffice-writer-nogui and libreoffice-impress-nogui")

BRIEF = [{"type": "heading", "text": "Renewal brief", "level": 1},
         {"type": "paragraph", "text": "Acme **renews** for twelve seats. " * 40},
         {"type": "table", "columns": ["Client", "Seats"], "rows": [["Acme", 12]] * 60},
         {"type": "heading", "text": "Next steps", "level": 2},
         {"type": "list", "items": ["Offer two years", "Close the tickets"]}]
DECK = [{"layout": "title", "title": "ACME renewal review", "subtitle": "Q3 2026"},
        {"layout": "bullets", "title": "Highlights", "bullets": ["Renewal signed",
                                                                "Seats grew 18%"]},
        {"layout": "quote", "quote": "Finished work.", "attribution": "Jane Doe"}]


def made(tmp: Path, name: str, fmt: str, content: list[dict[str, Any]]) -> Path:
    ctx = ToolContext(session_id="s", workspace=tmp)
    done = asyncio.run(create_deliverable({"path": f"outputs/{name}", "format": fmt,
                                           "title": "Brief", "content": content}, ctx))
    assert not done.is_error, done.content
    return tmp / "outputs" / name


def fake_soffice(tmp: Path, body: str) -> Path:
    """A program in LibreOffice's place (``body`` is its shell script)."""
    program = tmp / "soffice"
    program.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IEXEC)
    return program


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def pdftotext(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                          capture_output=True, text=True, timeout=60).stdout


@NO_SOFFICE
def test_libreoffice_turns_a_docx_and_a_deck_into_their_pages(tmp_path: Path) -> None:
    from pypdf import PdfReader

    brief, deck = made(tmp_path, "brief.docx", "docx", BRIEF), made(tmp_path, "deck.pptx",
                                                                    "pptx", DECK)
    converter = office_pdf.Converter(cache=tmp_path / "cache")
    brief_pdf, deck_pdf = converter.pdf_for(brief), converter.pdf_for(deck)
    brief_pages = [page.extract_text() for page in PdfReader(brief_pdf).pages]
    assert len(brief_pages) == 3  # the text and the table's start, the rest of it over two
    assert all(page.startswith("Brief") for page in brief_pages)  # the running header
    assert all("Client Seats" in page for page in brief_pages)  # the header row repeated
    assert brief_pages[-1].rstrip().endswith("Page 3 of 3")  # the footer's fields updated
    assert sum(page.count("Acme 12") for page in brief_pages) == 60
    text = pdftotext(brief_pdf)
    assert "Renewal brief" in text and "Next steps" in text and "Close the tickets" in text
    assert "**" not in text  # the bold is a run, not asterisks
    fonts = subprocess.run(["pdffonts", str(brief_pdf)], check=True, capture_output=True,
                           text=True, timeout=60).stdout
    assert "Serif" not in fonts  # body and headings in one sans face, as the PDF has
    slides = PdfReader(deck_pdf).pages
    assert len(slides) == 3
    words = [page.extract_text() for page in slides]
    assert "ACME renewal review" in words[0] and "Seats grew 18%" in words[1]
    assert "Jane Doe" in words[2]
    # kept in the cache by content and time: found again without LibreOffice at all
    cached = office_pdf.Converter(soffice=str(tmp_path / "missing"), cache=tmp_path / "cache")
    assert cached.pdf_for(brief) == brief_pdf
    os.utime(brief, ns=(brief.stat().st_atime_ns, brief.stat().st_mtime_ns + 10**9))
    with pytest.raises(office_pdf.ConversionError):
        cached.pdf_for(brief)  # touched: converted again (and here there is no program)
    assert not list((tmp_path / "cache").glob("convert-*"))  # no work folder left behind


def test_a_conversion_that_hangs_is_killed_at_the_time_limit(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    program = fake_soffice(tmp_path, f'echo $$ > "{pid_file}"; exec sleep 600')
    doc = made(tmp_path, "b.docx", "docx", BRIEF[:1])
    converter = office_pdf.Converter(soffice=str(program), cache=tmp_path / "cache",
                                     timeout=1)
    with pytest.raises(office_pdf.ConversionError) as caught:
        converter.pdf_for(doc)
    assert caught.value.timed_out and "did not finish within 1 seconds" in str(caught.value)
    assert gone(int(pid_file.read_text()))
    assert not list((tmp_path / "cache").glob("*.pdf"))


def test_cancel_kills_the_running_conversion(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    program = fake_soffice(tmp_path, f'echo $$ > "{pid_file}"; exec sleep 600')
    doc = made(tmp_path, "b.docx", "docx", BRIEF[:1])
    converter = office_pdf.Converter(soffice=str(program), cache=tmp_path / "cache")
    failures: list[BaseException] = []

    def convert() -> None:
        try:
            converter.pdf_for(doc)
        except office_pdf.ConversionError as exc:
            failures.append(exc)

    worker = threading.Thread(target=convert)
    worker.start()
    started = threading.Event()
    while not started.wait(0.05):  # the program has started when it wrote its pid
        if pid_file.is_file() and pid_file.read_text().strip():
            started.set()
    converter.cancel()
    worker.join(60)
    assert not worker.is_alive()
    assert [str(f) for f in failures] == ["the window was closed"]
    assert gone(int(pid_file.read_text()))
    with pytest.raises(office_pdf.ConversionError, match="closed"):
        converter.pdf_for(doc)  # a cancelled converter starts nothing more


def test_a_failed_conversion_says_why(tmp_path: Path) -> None:
    program = fake_soffice(tmp_path, 'echo "Error: source file could not be loaded" >&2; exit 1')
    doc = made(tmp_path, "b.docx", "docx", BRIEF[:1])
    converter = office_pdf.Converter(soffice=str(program), cache=tmp_path / "cache")
    with pytest.raises(office_pdf.ConversionError) as caught:
        converter.pdf_for(doc)
    assert str(caught.value) == ("LibreOffice could not convert the file: Error: source file "
                                 "could not be loaded")
    assert not caught.value.timed_out


def test_the_program_is_found_on_the_path(tmp_path: Path, monkeypatch) -> None:
    program = fake_soffice(tmp_path, "exit 0")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert office_pdf.program() == str(program)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert office_pdf.program() is None
    assert not office_pdf.Converter().available
    assert shutil.which("soffice") is None
