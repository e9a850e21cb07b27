"""PDF documents (fpdf2) from content blocks: fonts that hold every character (CJK in its
own face, bold headings in a bold face), inline bold, italic, code and links, tables
sized to their content with numbers right-aligned, headings kept with what follows,
the title, date and page numbers on every page, paper from the locale, and the
document's information (title, author, language, dates)."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from openworker_qt.deliverables import front_matter
from openworker_qt.deliverables.base import (
    THEME,
    DocumentError,
    Options,
    Rendered,
    cells,
    column_decimals,
    column_lengths,
    font_dirs,
    fraction,
    is_number,
    language,
    number_text,
    paper_size,
    picture,
    unicode_font,
)
from openworker_qt.deliverables.inline import plain, runs
from openworker_qt.deliverables.pdf_fonts import (
    Face,
    cjk_pair,
    coverage,
    mono_face,
    refuse_missing,
)

BODY_PT = 10.5  # body text and table text alike
LINE_MM = 5.2
_HEADING_PT = {1: 16, 2: 13, 3: 11.5}
_BULLET = "•"


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[0:2], 16), int(hex_colour[2:4], 16), int(hex_colour[4:6], 16)


def _pdf_words(title: str, blocks: list[dict[str, Any]]) -> str:
    """Every piece of text the PDF prints, markers taken out (to choose its fonts)."""
    parts = [plain(title), _BULLET, "0123456789…", datetime.now().strftime("%Y-%m-%d")]
    for b in blocks:
        if b["type"] in ("heading", "paragraph"):
            parts.append(plain(str(b.get("text", ""))))
        elif b["type"] == "list":
            parts += [plain(str(item)) for item in b.get("items") or []]
        elif b["type"] == "table":
            columns, rows = cells(b)
            parts += [plain(c) for c in columns] + [
                plain(number_text(v, 2)) for r in rows for v in r]
    said = front_matter.words(language("\n".join(parts)))
    return "\n".join([*parts, said["page"], said["contents"]])


def pdf(title: str, blocks: list[dict[str, Any]], *, author: str = "",
        locale_name: str | None = None, options: Options | None = None) -> Rendered:
    from fpdf import FPDF

    date = datetime.now().strftime("%Y-%m-%d")
    asked = options or Options(author=author)

    class _Paged(FPDF):
        family = "Helvetica"
        said = front_matter.words("en")

        def header(self) -> None:
            if self.page_no() == 1:
                return
            self.set_font(self.family, "", 8)
            self.set_text_color(*_rgb(THEME["muted"]))
            # The date first: fpdf2 forgets the font after a cell drawn partly in the
            # fallback (CJK) font, so the text that may need it comes last.
            self.set_x(self.l_margin + self.epw / 2)
            self.cell(self.epw / 2, 5, date, align="R")
            self.set_x(self.l_margin)
            name = plain(title)[:90]
            self.cell(self.epw / 2, 5, name if self.family != "Helvetica" else _latin(name),
                      new_x="LMARGIN", new_y="NEXT")
            self.set_text_color(0, 0, 0)
            self.ln(3)

        def footer(self) -> None:
            if asked.cover and self.page_no() == 1:
                return
            self.set_y(-12)
            self.set_font(self.family, "", 8)
            self.set_text_color(*_rgb(THEME["muted"]))
            self.cell(0, 5, self.said["page"].format(n=self.page_no(), total="{nb}"),
                      align="C")
            self.set_text_color(0, 0, 0)

    doc = _Paged(format=paper_size(locale_name).lower())
    try:
        return _pages(doc, title, blocks, asked, date)
    finally:  # fpdf2 reads each TrueType font lazily and keeps its file open until closed
        for entry in doc.fonts.values():
            ttfont = getattr(entry, "ttfont", None)  # core (built-in) fonts have none
            if ttfont is not None:
                ttfont.close()


def _latin(text: str) -> str:
    return text.encode("latin-1", "replace").decode("latin-1")


def _fonts(doc: Any, words: str) -> tuple[str, str, str]:
    """Register the fonts; (main family, code family, language)."""
    lang = language(words)
    font = unicode_font()
    if font is None:  # no TrueType font at all: the built-in one, Latin-1 only
        return "Helvetica", "Courier", lang
    doc.add_font("DocSans", "", str(font[0]))
    doc.add_font("DocSans", "B", str(font[1]))
    italic, bold_italic = _obliques(font)
    doc.add_font("DocSans", "I", str(italic))
    doc.add_font("DocSans", "BI", str(bold_italic))
    faces = [Face(font[0])]
    mono = mono_face()
    code = "DocSans"
    if mono is not None:
        doc.add_font("DocMono", "", str(mono.path), collection_font_number=mono.index)
        code = "DocMono"
    have = coverage(faces[0])
    main_missing = "".join(dict.fromkeys(c for c in words if not c.isspace()
                                         and ord(c) not in have))
    if main_missing:
        pair = cjk_pair(main_missing, lang)
        if pair is not None:
            doc.add_font("DocCJK", "", str(pair[0].path), collection_font_number=pair[0].index)
            doc.add_font("DocCJK", "B", str(pair[1].path), collection_font_number=pair[1].index)
            doc.set_fallback_fonts(["DocCJK"], exact_match=False)
            faces.append(pair[0])
        refuse_missing(words, faces)
    return "DocSans", code, lang


_OBLIQUE = {"DejaVuSans.ttf": ("DejaVuSans-Oblique.ttf", "DejaVuSans-BoldOblique.ttf"),
            "NotoSans-Regular.ttf": ("NotoSans-Italic.ttf", "NotoSans-BoldItalic.ttf"),
            "LiberationSans-Regular.ttf": ("LiberationSans-Italic.ttf",
                                           "LiberationSans-BoldItalic.ttf"),
            "arial.ttf": ("ariali.ttf", "arialbi.ttf"), "segoeui.ttf": ("segoeuii.ttf",
                                                                       "segoeuiz.ttf")}


def _obliques(font: tuple[Path, Path]) -> tuple[Path, Path]:
    """The italic and bold italic faces of the main font, from any font folder; the
    upright faces when there are none."""
    names = _OBLIQUE.get(font[0].name)
    found: list[Path] = list(font)
    if names:
        for i, name in enumerate(names):
            for folder in [font[0].parent, *font_dirs()]:
                if (folder / name).is_file():
                    found[i] = folder / name
                    break
    return found[0], found[1]


def _pages(doc: Any, title: str, blocks: list[dict[str, Any]], asked: Options,
           date: str) -> Rendered:
    words = _pdf_words(title, blocks)
    family, code, lang = _fonts(doc, words)
    doc.family = family
    doc.said = front_matter.words(lang)
    author = asked.author
    clean = (lambda s: s) if family != "Helvetica" else _latin
    doc.set_title(plain(title) or "Document")
    doc.set_author(author)
    doc.set_creator("OpenWorker")
    doc.set_producer("OpenWorker")
    doc.set_lang(lang)
    doc.set_creation_date(datetime.now(UTC))
    doc.set_auto_page_break(auto=True, margin=18)
    doc.set_margins(20, 18, 20)
    doc.add_page()
    width = doc.epw
    if asked.cover:
        front_matter.pdf_cover(doc, title, asked, family, clean)
    if asked.contents:
        front_matter.pdf_contents(doc, blocks, doc.said, family, clean)
    sections = front_matter.Sections() if asked.contents else None
    if title and not asked.cover:
        doc.set_font(family, "B", 20)
        doc.multi_cell(width, 10, clean(plain(title)), new_x="LMARGIN", new_y="NEXT", align="L")
        doc.ln(4)
    for n, b in enumerate(blocks):
        t = b["type"]
        if t == "heading":
            size = _HEADING_PT[int(b.get("level", 1))]
            nxt = blocks[n + 1] if n + 1 < len(blocks) else None
            _keep_with_next(doc, size * 0.5 + 3, nxt)
            doc.set_font(family, "B", size)
            doc.ln(2)
            if sections is not None:
                sections.start(doc, int(b.get("level", 1)), clean(plain(str(b["text"]))))
            _write_runs(doc, str(b["text"]), family, code, size, size * 0.5, clean, bold=True)
            doc.ln(size * 0.5 + 1.5)
        elif t == "paragraph":
            _write_runs(doc, str(b["text"]), family, code, BODY_PT, LINE_MM, clean)
            doc.ln(LINE_MM + 2)
        elif t == "list":
            for i, item in enumerate(b["items"], 1):
                mark = f"{i}." if b.get("ordered") else (_BULLET if family != "Helvetica" else "-")
                doc.set_font(family, "", BODY_PT)
                doc.set_x(doc.l_margin + 2)
                doc.cell(7, LINE_MM, mark)
                left = doc.l_margin
                doc.set_left_margin(left + 9)
                try:
                    _write_runs(doc, str(item), family, code, BODY_PT, LINE_MM, clean)
                finally:
                    doc.set_left_margin(left)
                doc.ln(LINE_MM + 0.8)
            doc.ln(1.5)
        elif t == "table":
            _table(doc, b, family, clean)
            doc.ln(3)
        else:
            data, _mime = picture(b)
            try:
                doc.image(io.BytesIO(data), w=width * fraction(b.get("width")))
            except Exception as exc:  # fpdf2/Pillow raise many kinds for a bad image
                raise DocumentError(f"An image could not be placed in the PDF: {exc}.") from None
            doc.ln(3)
    data = bytes(doc.output())
    pages = doc.pages_count
    return Rendered(data, f"{pages} page{'s' * (pages != 1)}")


def _keep_with_next(doc: Any, height: float, nxt: dict[str, Any] | None) -> None:
    """Start a new page when the heading and the first lines of what follows (a table's
    header and two rows) would not fit under it: no heading stranded at a page foot."""
    follow = 3 * LINE_MM
    if nxt is not None and nxt["type"] == "table":
        follow = 3 * (LINE_MM + 2)
    elif nxt is not None and nxt["type"] in ("image", "chart"):
        follow = 40.0
    if doc.get_y() + height + follow > doc.page_break_trigger:
        doc.add_page()


def _write_runs(doc: Any, text: str, family: str, code: str, size: float, line: float,
                clean: Any, *, bold: bool = False) -> None:
    for piece in _opening_marks_forward(runs(text)):
        style = ("B" if bold or piece.bold else "") + ("I" if piece.italic else "")
        fam = code if piece.code else family
        if fam == "DocMono":
            style = ""
        if piece.link:
            doc.set_text_color(*_rgb(THEME["link"]))
            style += "U"
        doc.set_font(fam, style, size * (0.92 if piece.code else 1))
        _wrap_whole_word(doc, clean(piece.text), line)
        doc.write(line, clean(piece.text), link=piece.link)
        doc.set_text_color(0, 0, 0)
    doc.set_font(family, "", size)


def _opening_marks_forward(pieces: list[Any]) -> list[Any]:
    """An opening bracket or quote at the end of a run moved to the start of the next
    (``open (`` + ``tracker``): it then goes to the next line with its word."""
    from dataclasses import replace

    out = list(pieces)
    for n in range(len(out) - 1):
        text = out[n].text
        if text and text[-1] in "([{“‘\"'" and out[n + 1].text[:1].strip():
            out[n] = replace(out[n], text=text[:-1])
            out[n + 1] = replace(out[n + 1], text=text[-1] + out[n + 1].text)
    return [p for p in out if p.text]


def _wrap_whole_word(doc: Any, text: str, line: float) -> None:
    """Start a new line when a run's first word (a link, a bold word) does not fit what
    is left of this one: ``write`` would break the word between two letters."""
    word = text.split(" ")[0]
    if not word or any(ord(c) > 0x2E7F for c in word) or doc.get_x() <= doc.l_margin + 0.5:
        return
    if doc.get_x() + doc.get_string_width(word) + 2 * doc.c_margin + 0.5 > doc.w - doc.r_margin:
        doc.ln(line)


def _escape(text: str) -> str:
    """Plain text for an fpdf2 Markdown cell (its own markers ``** __ --`` escaped)."""
    out = text.replace("\\", "\\\\")
    for marker in ("**", "__", "--", "~~"):
        out = out.replace(marker, "\\" + marker)
    return out


def _cell_markdown(text: str) -> str:
    """A cell's inline Markdown in fpdf2's dialect (``**bold**``, ``__italic__``, links)."""
    out = []
    for piece in runs(text):
        body = _escape(piece.text)
        if piece.bold:
            body = f"**{body}**"
        if piece.italic:
            body = f"__{body}__"
        if piece.link:
            body = f"[{body}]({piece.link})"
        out.append(body)
    return "".join(out)


def _table(doc: Any, b: dict[str, Any], family: str, clean: Any) -> None:
    from fpdf.enums import TableBordersLayout, TableCellFillMode
    from fpdf.fonts import FontFace

    columns, rows = cells(b)
    numeric = [any(v not in (None, "") for v in col)
               and all(is_number(v) for v in col if v not in (None, ""))
               for col in ([r[c] for r in rows] for c in range(len(columns)))]
    decimals = [column_decimals([r[c] for r in rows]) for c in range(len(columns))]
    lengths = column_lengths(columns, rows, plain)
    # About 2.1 mm a character at body size, plus the cell's padding. Numbers and short
    # columns get their whole width (they never wrap); long text shares what is left.
    natural = [n * 2.1 + 4 for n in lengths]
    width = min(doc.epw, max(sum(natural), doc.epw * 0.4))
    fixed = [numeric[c] or lengths[c] <= 14 for c in range(len(columns))]
    rest = width - sum(w for w, f in zip(natural, fixed, strict=True) if f)
    flexible = sum(w for w, f in zip(natural, fixed, strict=True) if not f)
    if rest <= 0 or not flexible:
        shares = [w / sum(natural) for w in natural]
    else:
        shares = [(w if f else w * rest / flexible) / width
                  for w, f in zip(natural, fixed, strict=True)]
    align = tuple("RIGHT" if num else "LEFT" for num in numeric)
    doc.set_font(family, "", BODY_PT)
    head = FontFace(emphasis="BOLD", color=_rgb(THEME["on_accent"]),
                    fill_color=_rgb(THEME["accent"]))
    with doc.table(headings_style=head, line_height=LINE_MM, col_widths=tuple(shares),
                   text_align=align, markdown=family != "Helvetica",
                   borders_layout=TableBordersLayout.HORIZONTAL_LINES,
                   cell_fill_color=_rgb(THEME["zebra"]), cell_fill_mode=TableCellFillMode.ROWS,
                   padding=(1.2, 1.5), first_row_as_headings=True,
                   width=width, align="LEFT") as table:
        row = table.row()
        for header in columns:
            row.cell(clean(plain(header)) if family == "Helvetica" else _escape(plain(header)))
        for values in rows:
            row = table.row()
            for c, v in enumerate(values):
                text = number_text(v, decimals[c])
                row.cell(clean(plain(text)) if family == "Helvetica" else _cell_markdown(text))
