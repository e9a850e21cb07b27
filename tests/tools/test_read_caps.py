"""read_file: missing files, binary files and huge files get a clear error, fast."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from openworker_qt.core.tool_api import ToolContext
from openworker_qt.tools.files import MAX_LINE_CHARS, MAX_READ_BYTES, read_file


def tiny_pdf(text: str) -> bytes:
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return bytes(out)


def ctx(ws: Path) -> ToolContext:
    return ToolContext(session_id="s1", workspace=ws)


async def test_missing_file(tmp_path: Path) -> None:
    result = await read_file({"path": "nope.txt"}, ctx(tmp_path))
    assert result.is_error and "does not exist" in result.content


async def test_binary_file_is_named_with_its_size(tmp_path: Path) -> None:
    (tmp_path / "blob.bin").write_bytes(b"abc\x00def" * 100)
    result = await read_file({"path": "blob.bin"}, ctx(tmp_path))
    assert result.is_error and "binary file" in result.content and "700 bytes" in result.content


@pytest.mark.parametrize(("name", "head", "mime"), [
    ("pic.png", b"\x89PNG\r\n\x1a\n", "image/png"),
    ("pic.jpg", b"\xff\xd8\xff\xe0", "image/jpeg"),
    ("pic.gif", b"GIF89a", "image/gif"),
    ("pic.webp", b"RIFF\x10\x00\x00\x00WEBPVP8 ", "image/webp"),
])
async def test_an_image_is_attached_for_the_model_to_see(
    tmp_path: Path, name: str, head: bytes, mime: str
) -> None:
    data = head + b"\x00pixels" * 10
    (tmp_path / name).write_bytes(data)
    result = await read_file({"path": name}, ctx(tmp_path))
    assert not result.is_error, result.content
    assert "attached below for you to see" in result.content
    assert result.attachments == ({
        "type": "image_url", "name": name,
        "image_url": {"url": f"data:{mime};base64,{base64.b64encode(data).decode()}"},
    },)
    assert result.display is not None and result.display["image"] == mime


async def test_an_image_over_the_cap_is_refused_with_its_size(tmp_path: Path) -> None:
    big = tmp_path / "big.png"
    with big.open("wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.truncate(6 * 1024 * 1024)
    result = await read_file({"path": "big.png"}, ctx(tmp_path))
    assert result.is_error and "6.0 MB" in result.content and "5.0 MB" in result.content
    assert result.attachments == ()


async def test_a_pdf_is_read_as_its_text(tmp_path: Path) -> None:
    (tmp_path / "doc.pdf").write_bytes(tiny_pdf("Renewal due in March"))
    result = await read_file({"path": "doc.pdf"}, ctx(tmp_path))
    assert not result.is_error, result.content
    assert "Renewal due in March" in result.content and "extracted text" in result.content
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.7\n" + b"y" * 50)
    broken = await read_file({"path": "broken.pdf"}, ctx(tmp_path))
    assert "could not be read" in broken.content or "no extractable text" in broken.content


async def test_a_sparse_2gb_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    big = tmp_path / "huge.log"
    with big.open("wb") as f:
        f.write(b"a line of text\n" * 2000)  # text where binary detection looks
        f.truncate(2 * 1024**3)  # sparse: no 2 GB written
    result = await read_file({"path": "huge.log"}, ctx(tmp_path))
    assert result.is_error and "2.0 GB" in result.content and "grep" in result.content
    assert f"{MAX_READ_BYTES // 1024 // 1024}.0 MB" in result.content
    assert big.stat().st_size == 2 * 1024**3  # untouched


async def test_a_sparse_file_of_zeros_is_binary(tmp_path: Path) -> None:
    big = tmp_path / "disk.img"
    with big.open("wb") as f:
        f.truncate(2 * 1024**3)
    result = await read_file({"path": "disk.img"}, ctx(tmp_path))
    assert result.is_error and "binary file (2.0 GB)" in result.content


async def test_very_long_lines_are_clipped(tmp_path: Path) -> None:
    (tmp_path / "min.js").write_text("a" * (MAX_LINE_CHARS + 500) + "\nend\n")
    result = await read_file({"path": "min.js"}, ctx(tmp_path))
    assert not result.is_error
    assert "[500 more characters]" in result.content and "end" in result.content
