"""DOCX documents (python-docx) from content blocks: inline bold, italic, code and
links as real runs; tables sized to their content with numbers right-aligned and the
header row repeated; headings kept with what follows; the title, date and page numbers
in the header and footer; paper from the locale; the document's own properties."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from typing import Any

from openworker_qt.deliverables import front_matter
from openworker_qt.deliverables.base import (
    THEME,
    Options,
    Rendered,
    cells,
    column_decimals,
    column_shares,
    count_blocks,
    fraction,
    is_number,
    language,
    number_text,
    paper_size,
    picture,
)
from openworker_qt.deliverables.inline import plain, runs
from openworker_qt.deliverables.theme import OFFICE_FONT

_MONO = "Consolas"
_CELL_PAD = 40  # twentieths of a point above and below a table cell's text (2 pt)


def docx(title: str, blocks: list[dict[str, Any]], *, author: str = "",
         locale_name: str | None = None, options: Options | None = None) -> Rendered:
    from docx import Document
    from docx.shared import Mm

    doc = Document()
    section = doc.sections[0]
    if paper_size(locale_name) == "Letter":
        section.page_width, section.page_height = Mm(215.9), Mm(279.4)
    else:
        section.page_width, section.page_height = Mm(210), Mm(297)
    section.left_margin = section.right_margin = Mm(25)
    text_width = section.page_width - section.left_margin - section.right_margin
    asked = options or Options(author=author)
    _properties(doc, title, asked.author, blocks)
    _typeface(doc)
    said = front_matter.words(doc.core_properties.language or "")
    _furniture(doc, title, said)
    if asked.cover:
        front_matter.docx_cover(doc, title, asked)
    if asked.contents:
        front_matter.docx_contents(doc, blocks, said)
    if title and not asked.cover:
        doc.add_heading(plain(title), level=0).paragraph_format.keep_with_next = True
    marks = 0
    for b in blocks:
        t = b["type"]
        if t == "heading":
            heading = doc.add_heading("", level=int(b.get("level", 1)))
            _add_runs(heading, str(b["text"]))
            heading.paragraph_format.keep_with_next = True
            if asked.contents:
                marks += 1
                front_matter.bookmark(heading, marks)
        elif t == "paragraph":
            _add_runs(doc.add_paragraph(), str(b["text"]))
        elif t == "list":
            style = "List Number" if b.get("ordered") else "List Bullet"
            for item in b["items"]:
                _add_runs(doc.add_paragraph(style=style), str(item))
        elif t == "table":
            _table(doc, b, text_width)
        else:
            data, _mime = picture(b)
            doc.add_picture(io.BytesIO(data), width=int(text_width * fraction(b.get("width"))))
    buf = io.BytesIO()
    doc.save(buf)
    return Rendered(buf.getvalue(), count_blocks(blocks))


def _properties(doc: Any, title: str, author: str, blocks: list[dict[str, Any]]) -> None:
    now = datetime.now(UTC).replace(microsecond=0, tzinfo=None)
    props = doc.core_properties
    props.title = plain(title)
    props.author = author
    props.last_modified_by = author
    props.comments = ""
    props.created = props.modified = now
    props.revision = 1
    words = [title] + [str(b.get("text", "")) for b in blocks] + [
        str(i) for b in blocks for i in b.get("items") or []]
    props.language = language("\n".join(words))


def _typeface(doc: Any) -> None:
    """Every style's Latin text in the theme's office typeface (theme.OFFICE_FONT, as the
    deck names it), not the template's theme fonts: its body face is a serif (Cambria)
    beside sans headings (Calibri), and on a machine without either both are
    substituted. East Asian text keeps the reader's own CJK face."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    root = doc.styles.element
    defaults = root.find(qn("w:docDefaults"))
    if defaults is None:
        defaults = OxmlElement("w:docDefaults")
        root.insert(0, defaults)
    holder = defaults.find(qn("w:rPrDefault"))
    if holder is None:
        holder = OxmlElement("w:rPrDefault")
        defaults.insert(0, holder)
    rpr = holder.find(qn("w:rPr"))
    if rpr is None:
        rpr = OxmlElement("w:rPr")
        holder.append(rpr)
    default = rpr.find(qn("w:rFonts"))
    if default is None:
        default = OxmlElement("w:rFonts")
        rpr.insert(0, default)
    themed = ("w:asciiTheme", "w:hAnsiTheme", "w:cstheme")
    for fonts in root.iter(qn("w:rFonts")):  # the defaults, every style's, table parts'
        if fonts is not default and not any(fonts.get(qn(a)) for a in themed):
            continue  # a style naming its own face (a monospace one) keeps it
        for attr in themed:
            fonts.attrib.pop(qn(attr), None)
        for attr in ("w:ascii", "w:hAnsi", "w:cs"):
            fonts.set(qn(attr), OFFICE_FONT)


def _furniture(doc: Any, title: str, said: dict[str, str]) -> None:
    """The title and today's date at the top of each page, "Page n of m" at the foot."""
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.shared import Pt, RGBColor

    section = doc.sections[0]
    head = section.header.paragraphs[0]
    today = datetime.now().strftime("%Y-%m-%d")
    run = head.add_run(f"{plain(title)}\t\t{today}" if title else f"\t\t{today}")
    run.font.size, run.font.color.rgb = Pt(8), RGBColor.from_string(THEME["muted"])
    foot = section.footer.paragraphs[0]
    foot.alignment = WD_ALIGN_PARAGRAPH.CENTER
    before, rest = said["page"].split("{n}")
    middle, after = rest.split("{total}")
    for piece in (before, "PAGE", middle, "NUMPAGES", after):
        if not piece:
            continue
        if piece.isupper():
            _field(foot, piece)
        else:
            run = foot.add_run(piece)
            run.font.size = Pt(8)


def _field(paragraph: Any, code: str) -> None:
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    fld = OxmlElement("w:fldSimple")
    fld.set(qn("w:instr"), f" {code} ")
    r = OxmlElement("w:r")
    rpr = OxmlElement("w:rPr")
    sz = OxmlElement("w:sz")
    sz.set(qn("w:val"), "16")
    rpr.append(sz)
    r.append(rpr)
    t = OxmlElement("w:t")
    t.text = "1"
    r.append(t)
    fld.append(r)
    paragraph._p.append(fld)


def _add_runs(paragraph: Any, text: str, *, bold: bool = False,
              colour: str | None = None) -> None:
    """``text``'s inline Markdown as runs of ``paragraph`` (links are real hyperlinks)."""
    from docx.shared import RGBColor

    for piece in runs(text):
        if piece.link:
            _hyperlink(paragraph, piece.text, piece.link, bold or piece.bold, piece.italic)
            continue
        run = paragraph.add_run(piece.text)
        run.bold = True if (bold or piece.bold) else None
        run.italic = True if piece.italic else None
        if piece.code:
            run.font.name = _MONO
        if colour:
            run.font.color.rgb = RGBColor.from_string(colour)


def _hyperlink(paragraph: Any, text: str, url: str, bold: bool, italic: bool) -> None:
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    rid = paragraph.part.relate_to(url, RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), rid)
    r = OxmlElement("w:r")
    rpr = OxmlElement("w:rPr")
    for tag, val in (("w:color", THEME["link"]), ("w:u", "single")):
        el = OxmlElement(tag)
        el.set(qn("w:val"), val)
        rpr.append(el)
    for flag, tag in ((bold, "w:b"), (italic, "w:i")):
        if flag:
            rpr.append(OxmlElement(tag))
    r.append(rpr)
    t = OxmlElement("w:t")
    t.text = text
    t.set(qn("xml:space"), "preserve")
    r.append(t)
    link.append(r)
    paragraph._p.append(link)


def _shade(cell: Any, fill: str) -> None:
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    shd = OxmlElement("w:shd")
    shd.set(qn("w:val"), "clear")
    shd.set(qn("w:color"), "auto")
    shd.set(qn("w:fill"), fill)
    cell._tc.get_or_add_tcPr().append(shd)


def _table(doc: Any, b: dict[str, Any], text_width: int) -> None:
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    columns, rows = cells(b)
    numeric = [bool(col) and all(is_number(v) for v in col if v not in (None, ""))
               and any(v not in (None, "") for v in col)
               for col in ([r[c] for r in rows] for c in range(len(columns)))]
    decimals = [column_decimals([r[c] for r in rows]) for c in range(len(columns))]
    widths = [int(text_width * s) for s in column_shares(columns, rows, plain)]
    table = doc.add_table(rows=1, cols=len(columns))
    table.style = "Table Grid"
    table.autofit = False
    margins = OxmlElement("w:tblCellMar")  # room above and below the text of each row
    for side in ("top", "bottom"):
        margin = OxmlElement(f"w:{side}")
        margin.set(qn("w:w"), str(_CELL_PAD))
        margin.set(qn("w:type"), "dxa")
        margins.append(margin)
    properties = table._tbl.tblPr
    look = properties.find(qn("w:tblLook"))  # the schema's order: the margins before it
    if look is not None:
        look.addprevious(margins)
    else:
        properties.append(margins)
    header = table.rows[0]
    trpr = header._tr.get_or_add_trPr()
    repeat = OxmlElement("w:tblHeader")  # repeated at the top of each page
    repeat.set(qn("w:val"), "true")
    trpr.append(repeat)
    for c, (cell, text) in enumerate(zip(header.cells, columns, strict=True)):
        _add_runs(cell.paragraphs[0], text, bold=True, colour=THEME["on_accent"])
        _shade(cell, THEME["accent"])
        if numeric[c]:
            cell.paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.RIGHT
    for n, row in enumerate(rows):
        for c, (cell, value) in enumerate(zip(table.add_row().cells, row, strict=True)):
            _add_runs(cell.paragraphs[0], number_text(value, decimals[c]))
            if numeric[c]:
                cell.paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.RIGHT
            if n % 2:
                _shade(cell, THEME["zebra"])
    for row in table.rows:
        for cell, width in zip(row.cells, widths, strict=True):
            cell.width = width
    doc.add_paragraph()
