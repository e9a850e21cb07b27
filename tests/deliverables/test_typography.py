"""Documents a professional would send, read back with independent readers (python-docx,
pypdf, pdftotext): inline Markdown as real runs, every glyph in the embedded fonts (CJK in
its Simplified Chinese face, bold headings bold), tables sized and aligned, headings kept
with what follows, page furniture, paper size and metadata."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from openworker_qt.deliverables import base, documents, docx_file, pdf_file
from openworker_qt.deliverables.inline import Run, plain, runs

INLINE = "**Bold** then *italic*, `code()` and a [site](https://example.com/x); 2*3*4 stays."


def test_inline_markdown_is_read_into_runs() -> None:
    assert runs(INLINE) == [
        Run("Bold", bold=True), Run(" then "), Run("italic", italic=True), Run(", "),
        Run("code()", code=True), Run(" and a "), Run("site", link="https://example.com/x"),
        Run("; 2*3*4 stays."),
    ]
    assert runs("***both*** and \\*literal\\*") == [Run("both", bold=True, italic=True),
                                                    Run(" and *literal*")]
    assert runs("snake_case_name, a lone * star") == [Run("snake_case_name, a lone * star")]
    assert plain("[**x**](http://a)") == "x"


def _docx(blocks: list[dict], title: str = "Brief", **kw: object) -> object:
    from docx import Document

    rendered = docx_file.docx(title, documents.validate("docx", blocks), **kw)  # type: ignore[arg-type]
    return Document(io.BytesIO(rendered.data))


def test_docx_inline_markdown_becomes_bold_italic_code_and_hyperlink_runs() -> None:
    doc: object = _docx([{"type": "paragraph", "text": INLINE},
                         {"type": "list", "items": ["**Key** point"]},
                         {"type": "table", "columns": ["**Item**"], "rows": [["*soft*"]]}])
    paragraph = doc.paragraphs[1]  # type: ignore[attr-defined]  # [0] is the title
    looks = [(r.text, r.bold, r.italic, r.font.name) for r in paragraph.runs]
    assert ("Bold", True, None, None) in looks
    assert ("italic", None, True, None) in looks
    assert ("code()", None, None, "Consolas") in looks
    (link,) = paragraph.hyperlinks
    assert link.url == "https://example.com/x" and link.text == "site"
    assert paragraph.text.count("*") == 2  # only the literal 2*3*4
    item = doc.paragraphs[2]  # type: ignore[attr-defined]
    assert [(r.text, r.bold) for r in item.runs] == [("Key", True), (" point", None)]
    cell = doc.tables[0].rows[1].cells[0].paragraphs[0]  # type: ignore[attr-defined]
    assert [(r.text, r.italic) for r in cell.runs] == [("soft", True)]


def _pdf(blocks: list[dict], title: str = "Brief", **kw: object) -> bytes:
    return pdf_file.pdf(title, documents.validate("pdf", blocks), **kw).data  # type: ignore[arg-type]


def _page_texts(data: bytes, tmp_path: Path) -> list[str]:
    """Each page's text, by pdftotext (poppler), an independent reader."""
    assert shutil.which("pdftotext"), "poppler-utils is needed (scripts/dev installs it)"
    path = tmp_path / "doc.pdf"
    path.write_bytes(data)
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                         text=True, check=True).stdout
    return out.split("\f")[:-1]


def _fonts_and_coverage(data: bytes) -> tuple[set[str], set[str]]:
    """The embedded fonts' names, and every character their ToUnicode maps give a real
    glyph for (code 0, the missing-glyph box, left out)."""
    from pypdf import PdfReader

    names: set[str] = set()
    chars: set[str] = set()
    for page in PdfReader(io.BytesIO(data)).pages:
        fonts = page["/Resources"]["/Font"]
        for key in fonts:
            font = fonts[key].get_object()
            names.add(str(font["/BaseFont"]))
            descendant = font.get("/DescendantFonts")
            if descendant is not None:
                desc = descendant[0].get_object()["/FontDescriptor"].get_object()
                assert any(k in desc for k in ("/FontFile2", "/FontFile3")), "not embedded"
            cmap = font.get("/ToUnicode")
            if cmap is None:
                continue
            text = cmap.get_object().get_data().decode("latin-1")
            for code, uni in re.findall(r"<([0-9A-Fa-f]{4})>\s*<([0-9A-Fa-f]+)>", text):
                if int(code, 16) != 0:
                    chars.add(bytes.fromhex(uni).decode("utf-16-be"))
    return names, chars


def test_pdf_inline_markdown_is_drawn_with_faces_and_a_real_link(tmp_path: Path) -> None:
    from pypdf import PdfReader

    data = _pdf([{"type": "paragraph", "text": INLINE},
                 {"type": "table", "columns": ["Item"], "rows": [["**strong** cell"]]}])
    (text,) = _page_texts(data, tmp_path)
    assert "Bold then italic, code() and a site; 2*3*4 stays." in " ".join(text.split())
    assert "**" not in text and "](" not in text and "`" not in text
    names, _chars = _fonts_and_coverage(data)
    assert any("Bold" in n for n in names) and any("Oblique" in n for n in names)
    assert any("Mono" in n for n in names)
    annots = [a.get_object() for a in PdfReader(io.BytesIO(data)).pages[0]["/Annots"]]
    assert [a["/A"]["/URI"] for a in annots] == ["https://example.com/x"]


CHINESE = [{"type": "heading", "text": "第三季度 **销售**", "level": 1},
           {"type": "list", "items": ["北京第一", "Shanghai 上海"]},
           {"type": "paragraph", "text": "销售额逐月上升。"},
           {"type": "table", "columns": ["城市", "收入"], "rows": [["广州", 1200]]}]


def test_pdf_chinese_uses_the_simplified_face_bold_headings_and_no_missing_glyph(
        tmp_path: Path) -> None:
    if not Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc").is_file():
        pytest.skip("fonts-noto-cjk is not installed")
    data = _pdf(CHINESE, title="报告")
    names, chars = _fonts_and_coverage(data)
    assert any(n.endswith("+NotoSansCJKSC") for n in names), names  # not the JP face
    assert any(n.endswith("+NotoSansCJKSCBold") for n in names), names  # bold heading
    words = "报告第三季度销售北京第一Shanghai上海销售额逐月上升。城市收入广州1,200•"
    assert set(words) <= chars, set(words) - chars
    (text,) = _page_texts(data, tmp_path)
    flat = "".join(text.split())
    for piece in ("第三季度销售", "北京第一", "Shanghai上海", "销售额逐月上升。", "广州"):
        assert piece in flat


def test_pdf_text_no_font_covers_is_refused_naming_the_characters() -> None:
    with pytest.raises(documents.DocumentError, match=r"U\+10000"):
        _pdf([{"type": "paragraph", "text": "Linear B: \U00010000 here"}])


def test_docx_tables_fit_their_content_and_align_numbers() -> None:
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.oxml.ns import qn

    doc: object = _docx([
        {"type": "heading", "text": "Revenue", "level": 2},
        {"type": "table", "columns": ["Client", "Revenue", "Share"],
         "rows": [["Acme Corporation International", 1234567.5, "12.5%"],
                  ["Globex", 98000, "$1,200"]]}])
    heading = doc.paragraphs[1]  # type: ignore[attr-defined]
    assert heading.paragraph_format.keep_with_next
    table = doc.tables[0]  # type: ignore[attr-defined]
    rows = [[c.text for c in r.cells] for r in table.rows]
    assert rows[1:] == [["Acme Corporation International", "1,234,567.5", "12.5%"],
                        ["Globex", "98,000.0", "$1,200"]]
    right = [c.paragraphs[0].alignment == WD_ALIGN_PARAGRAPH.RIGHT for c in table.rows[1].cells]
    assert right == [False, True, True]
    widths = [c.width for c in table.rows[1].cells]
    assert widths[0] > widths[1] > widths[2] * 0.9 and widths[0] > 2 * widths[2]
    assert table.rows[0]._tr.trPr.find(qn("w:tblHeader")) is not None  # repeated header
    assert {r.font.size for p in doc.paragraphs for r in p.runs} <= {None}  # type: ignore[attr-defined]


def test_pdf_heading_is_moved_to_the_next_page_with_its_table(tmp_path: Path) -> None:
    filler = [{"type": "paragraph", "text": f"Paragraph {i}. " + "Words to fill. " * 30}
              for i in range(7)]
    for extra in range(8):  # some amount of filler leaves the heading at the page foot
        blocks = filler + [{"type": "paragraph", "text": "More. " * (18 * extra + 1)},
                           {"type": "heading", "text": "Quarterly numbers", "level": 2},
                           {"type": "table", "columns": ["Quarter", "Total"],
                            "rows": [[f"Q{q}", q * 1000] for q in range(1, 5)]}]
        pages = _page_texts(_pdf(blocks), tmp_path)
        (where,) = [n for n, p in enumerate(pages) if "Quarterly numbers" in p]
        assert "Q1" in pages[where] and "Quarter" in pages[where], extra


def test_paper_size_follows_the_locale() -> None:
    assert base.paper_size("en_US.UTF-8") == "Letter"
    assert base.paper_size("en_CA") == "Letter"
    assert base.paper_size("English_United States.1252") == "Letter"
    assert base.paper_size("de_DE.UTF-8") == "A4"
    assert base.paper_size("zh_CN.UTF-8") == "A4"
    assert base.paper_size("en_GB") == "A4"


def test_page_furniture_paper_and_metadata_in_docx_and_pdf(tmp_path: Path) -> None:
    from pypdf import PdfReader

    blocks = [{"type": "paragraph", "text": "Words. " * 400} for _ in range(3)]
    doc: object = _docx(blocks, title="ACME **renewal**", locale_name="en_US.UTF-8")
    section = doc.sections[0]  # type: ignore[attr-defined]
    assert round(section.page_width.mm) == 216 and round(section.page_height.mm) == 279
    assert "ACME renewal" in section.header.paragraphs[0].text
    assert "<w:fldSimple" in section.footer._element.xml and "PAGE" in section.footer._element.xml
    props = doc.core_properties  # type: ignore[attr-defined]
    assert props.title == "ACME renewal" and props.author == "" and props.comments == ""
    assert props.language == "en-US" and props.last_modified_by == ""
    assert abs((props.created.replace(tzinfo=UTC) - datetime.now(UTC)).total_seconds()) < 3600
    a4 = _docx(blocks, locale_name="de_DE.UTF-8").sections[0]  # type: ignore[attr-defined]
    assert round(a4.page_width.mm) == 210

    data = _pdf(blocks, title="ACME **renewal**", locale_name="en_US.UTF-8")
    reader = PdfReader(io.BytesIO(data))
    assert [round(float(x)) for x in reader.pages[0].mediabox[2:]] == [612, 792]
    info = reader.metadata
    assert info is not None and info.title == "ACME renewal"
    assert "python" not in str(info.get("/Producer", "")).lower()
    assert reader.trailer["/Root"]["/Lang"] == "en-US"
    pages = _page_texts(data, tmp_path)
    assert len(pages) >= 2
    today = datetime.now().strftime("%Y-%m-%d")
    assert f"Page 1 of {len(pages)}" in pages[0]
    assert "ACME renewal" in pages[1] and today in pages[1] and f"Page 2 of {len(pages)}" in pages[1]
    a4_pdf = PdfReader(io.BytesIO(_pdf(blocks, locale_name="de_DE")))
    assert [round(float(x)) for x in a4_pdf.pages[0].mediabox[2:]] == [595, 842]


def test_pdf_table_numbers_never_wrap_and_sit_right(tmp_path: Path) -> None:
    from pypdf import PdfReader

    data = _pdf([{"type": "table", "columns": ["城市", "Revenue", "Share"],
                  "rows": [["Long text cell that goes on and on for a while to see wrapping",
                            1234567.5, "12.5%"], ["广州", 98000, "$1,200"]]}])
    (text,) = _page_texts(data, tmp_path)
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    assert any(line.endswith("Revenue Share") for line in lines), lines
    assert any(line.endswith("1,234,567.5 12.5%") for line in lines), lines
    assert any(line.endswith("广州 98,000.0 $1,200") for line in lines), lines
    # Right-aligned: the two numbers of a column end at the same x.
    ends: dict[str, float] = {}

    def visit(text: str, _cm: object, tm: list[float], _font: object, size: float) -> None:
        if text.strip() in ("1,234,567.5", "98,000.0"):
            ends[text.strip()] = tm[4]  # where the number starts

    PdfReader(io.BytesIO(data)).pages[0].extract_text(visitor_text=visit)
    assert set(ends) == {"1,234,567.5", "98,000.0"}
    assert ends["98,000.0"] > ends["1,234,567.5"]  # the shorter number starts further right


def test_html_inline_markdown_is_real_markup_and_only_web_links() -> None:
    page = documents.render("html", "T", documents.validate("html", [
        {"type": "paragraph", "text": INLINE + " [x](javascript:void) <b>raw</b>"},
        {"type": "table", "columns": ["**H**"], "rows": [["`c`"]]}])).data.decode()
    assert "<strong>Bold</strong>" in page and "<em>italic</em>" in page
    assert "<code>code()</code>" in page and '<a href="https://example.com/x">site</a>' in page
    assert 'href="javascript' not in page and "&lt;b&gt;raw&lt;/b&gt;" in page
    assert "<th><strong>H</strong></th>" in page and "<td><code>c</code></td>" in page


def test_a_docx_sets_its_text_and_headings_in_one_office_typeface() -> None:
    """Not the template's theme fonts (a Cambria body under Calibri headings, both
    substituted where they are missing): the typeface the deck names, everywhere."""
    import zipfile

    from lxml import etree

    from openworker_qt.deliverables import theme

    data = documents.render("docx", "Brief", documents.validate("docx", [
        {"type": "heading", "text": "Revenue", "level": 1},
        {"type": "paragraph", "text": "Body text."},
        {"type": "table", "columns": ["Client", "Seats"], "rows": [["Acme", 12]]}])).data
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        styles = etree.fromstring(z.read("word/styles.xml"))
        body = etree.fromstring(z.read("word/document.xml"))
    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    default = styles.find(f"{w}docDefaults/{w}rPrDefault/{w}rPr/{w}rFonts")
    assert default is not None and default.get(f"{w}ascii") == theme.OFFICE_FONT
    for fonts in styles.iter(f"{w}rFonts"):
        assert fonts.get(f"{w}asciiTheme") is None and fonts.get(f"{w}hAnsiTheme") is None
        assert fonts.get(f"{w}ascii") in (theme.OFFICE_FONT, "Consolas", "Courier", None)
    table = body.find(f".//{w}tbl/{w}tblPr")
    tags = [child.tag.removeprefix(w) for child in table]
    assert tags.index("tblCellMar") < tags.index("tblLook")  # the schema's order
    pad = table.find(f"{w}tblCellMar/{w}top")
    assert pad.get(f"{w}w") == "40" and pad.get(f"{w}type") == "dxa"
