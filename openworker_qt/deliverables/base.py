"""What every deliverable format shares: the error, the result, the size caps, a table's
cells, pictures (images and charts) and the fonts found for PDFs and charts."""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openworker_qt.deliverables import charts

MAX_BLOCKS = 1_000
MAX_CELLS = 200_000
MAX_TEXT_CHARS = 2_000_000
MAX_IMAGE_BYTES = 20 * 1024 * 1024
MAX_CHART_POINTS = 10_000
EXCEL_ERRORS = ("#DIV/0!", "#NAME?", "#REF!", "#VALUE!", "#N/A", "#NUM!", "#NULL!")


class DocumentError(ValueError):
    """The content cannot make the document (the message says why, for the model)."""


@dataclass(frozen=True, slots=True)
class Options:
    """What a document is asked for besides its blocks."""

    #: the name written as the file's author (the user's, from settings; "" for none)
    author: str = ""
    #: a cover page (title, subtitle, author, date) before the text (DOCX, PDF)
    cover: bool = False
    #: a table of contents from the headings, after the cover (DOCX, PDF)
    contents: bool = False
    subtitle: str = ""


@dataclass(frozen=True, slots=True)
class Rendered:
    data: bytes
    #: A short account for the result: "3 pages", "2 sheets (Sales, Costs)".
    summary: str



def chart_png(block: Mapping[str, Any]) -> bytes:
    """The chart as PNG bytes (Pillow, in :mod:`openworker_qt.deliverables.charts`; called in
    the worker), drawn with the PDF's font."""
    try:
        return charts.chart_png(block, unicode_font())
    except ImportError:
        raise DocumentError(
            "Charts cannot be drawn here (the imaging library, Pillow, is not "
            "installed). Leave the chart out or give its numbers as a table.") from None
    except charts.ChartError as exc:
        raise DocumentError(f"The chart {str(block.get('title') or '')!r} cannot be drawn: "
                            f"{exc}") from None


def image_bytes(block: Mapping[str, Any]) -> tuple[bytes, str]:
    """The image's bytes and MIME type (the path is already resolved and checked)."""
    path = Path(block["path"])
    try:
        size = path.stat().st_size
        if size > MAX_IMAGE_BYTES:
            raise DocumentError(f"The image {path} is larger than 20 MB.")
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentError(f"The image {path} cannot be read: {exc.strerror or exc}.") from None
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        mime = "image/png"
    elif data.startswith(b"\xff\xd8\xff"):
        mime = "image/jpeg"
    else:
        raise DocumentError(f"The image {path} is not a PNG or JPEG file.")
    _decodes(path, data)
    return data, mime


#: Pixels an embedded picture may have (a 20 MB file can claim billions).
MAX_IMAGE_PIXELS = 50_000_000


def _decodes(path: Path, data: bytes) -> None:
    """Raise :class:`DocumentError` unless ``data`` is a whole picture of a sane size
    (a file that only starts like a PNG would break the document's reader, or its
    writer). Without Pillow, the header check above is all there is."""
    try:
        from PIL import Image, UnidentifiedImageError
    except ImportError:
        return
    try:
        with Image.open(io.BytesIO(data)) as probe:
            width, height = probe.size
            if width * height > MAX_IMAGE_PIXELS:
                raise DocumentError(f"The image {path} is {width:,} × {height:,} pixels, "
                                    f"more than a document can hold "
                                    f"({MAX_IMAGE_PIXELS:,} pixels). Make it smaller.")
            probe.load()  # a cut-off or damaged file fails here, not in the reader
    except DocumentError:
        raise
    except Image.DecompressionBombError:
        raise DocumentError(f"The image {path} claims more pixels than a document can hold "
                            f"({MAX_IMAGE_PIXELS:,}). Make it smaller.") from None
    except UnidentifiedImageError:
        raise DocumentError(f"The image {path} is damaged and cannot be shown.") from None
    except Exception as exc:  # Pillow raises many kinds for a broken picture
        raise DocumentError(f"The image {path} is damaged and cannot be shown "
                            f"({exc}).") from None


def picture(block: Mapping[str, Any]) -> tuple[bytes, str]:
    return (chart_png(block), "image/png") if block["type"] == "chart" else image_bytes(block)


def cells(block: Mapping[str, Any]) -> tuple[list[str], list[list[Any]]]:
    columns = [str(c) for c in block["columns"]]
    rows = [list(r) + [None] * (len(columns) - len(r)) for r in block.get("rows", [])]
    return columns, rows


def count_blocks(blocks: list[dict[str, Any]]) -> str:
    return f"{len(blocks)} block{'s' * (len(blocks) != 1)}"


def show(cell: Any) -> str:
    return "" if cell is None else str(cell)



def fraction(value: Any) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool) and 0.1 <= value <= 1:
        return float(value)
    return 1.0



# ------------------------------------------------------------------ fonts


#: TrueType fonts with wide Unicode coverage, (regular, bold), in order of preference.
FONT_FILES = (
    ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf"),
    ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf"),
    ("segoeui.ttf", "segoeuib.ttf"),  # Windows
    ("arial.ttf", "arialbd.ttf"),  # Windows
    ("Arial Unicode.ttf", "Arial Unicode.ttf"),  # macOS
    ("Arial.ttf", "Arial Bold.ttf"),  # macOS
)


#: DejaVu Sans, shipped with the package (and in the frozen app): the same PDFs and
#: charts everywhere, whatever fonts the system has.
PACKAGE_FONTS = Path(__file__).resolve().parent / "fonts"


def font_dirs() -> list[Path]:
    """The folders searched for a PDF font: the package's own (DejaVu Sans), then the
    system's on Windows, macOS or Linux."""
    dirs: list[Path] = [PACKAGE_FONTS]
    home = Path.home()
    if sys.platform == "win32":
        dirs.append(Path(os.environ.get("WINDIR", r"C:\Windows")) / "Fonts")
        if os.environ.get("LOCALAPPDATA"):
            dirs.append(Path(os.environ["LOCALAPPDATA"]) / "Microsoft" / "Windows" / "Fonts")
    elif sys.platform == "darwin":
        dirs += [Path("/System/Library/Fonts/Supplemental"), Path("/Library/Fonts"),
                 Path("/System/Library/Fonts"), home / "Library" / "Fonts"]
    else:
        share = Path("/usr/share/fonts")
        dirs += [share / "truetype" / "dejavu", share / "dejavu", share / "TTF",
                 share / "truetype" / "noto", share / "noto", share / "truetype" / "liberation",
                 share / "liberation", home / ".local" / "share" / "fonts"]
    return dirs


def unicode_font(dirs: list[Path] | None = None) -> tuple[Path, Path] | None:
    """A (regular, bold) TrueType pair found in ``dirs`` (default :func:`font_dirs`),
    or None: the PDF then uses a built-in font, which holds Latin-1 characters only."""
    folders = font_dirs() if dirs is None else dirs
    for regular, bold in FONT_FILES:
        for folder in folders:
            path = folder / regular
            if path.is_file():
                heavy = folder / bold
                return path, heavy if heavy.is_file() else path
    return None


# ------------------------------------------------------------------ look and locale


#: The colours every format shares (hex RGB): the header fill and its text, the rule
#: lines between rows and the zebra stripe.
THEME = {"accent": "305496", "on_accent": "FFFFFF", "rule": "B7C3D6", "zebra": "F2F5FA",
         "link": "1F5FBF", "muted": "666666"}

_LETTER_COUNTRIES = ("US", "CA")


def paper_size(locale_name: str | None = None) -> str:
    """``"Letter"`` for a United States or Canadian locale, else ``"A4"``: from
    ``locale_name``, else LC_ALL / LC_PAPER / LANG, else the process locale."""
    import locale

    names = [locale_name] if locale_name else [
        os.environ.get(k, "") for k in ("LC_ALL", "LC_PAPER", "LANG")]
    if not any(names):
        try:
            names = [locale.getlocale()[0] or ""]
        except ValueError:
            names = [""]
    name = next((n for n in names if n and n not in ("C", "POSIX")), "")
    region = name.split(".")[0].replace("-", "_").split("_")[1:2]
    if region and region[0].upper() in _LETTER_COUNTRIES:
        return "Letter"
    if "United States" in name or "Canada" in name:  # Windows names: English_United States
        return "Letter"
    return "A4"


def language(text: str) -> str:
    """The document's language tag, guessed from its characters: zh-CN when it holds
    Chinese characters, ja-JP for kana, ko-KR for Hangul, else en-US."""
    if any("\u3040" <= c <= "\u30ff" for c in text):
        return "ja-JP"
    if any("\uac00" <= c <= "\ud7af" for c in text):
        return "ko-KR"
    if any("\u4e00" <= c <= "\u9fff" or "\u3400" <= c <= "\u4dbf" for c in text):
        return "zh-CN"
    return "en-US"


_NUMERIC = re.compile(
    r"^[(\-−+]?\s*(?:[$€£¥₹]|USD|EUR|GBP|CNY|RMB)?\s*[(\-−+]?\d[\d,\s]*(?:\.\d+)?\s*"
    r"(?:%|[kKmMbB]n?|[$€£¥₹]|USD|EUR|GBP|CNY|RMB|元|万|亿)?\)?$")


def is_number(cell: Any) -> bool:
    """Whether a cell reads as a number: an int or float, or text such as ``$1,200``,
    ``12.5%``, ``(300)`` or ``€ 30`` (right-aligned in tables)."""
    if isinstance(cell, bool):
        return False
    if isinstance(cell, int | float):
        return True
    return isinstance(cell, str) and bool(_NUMERIC.match(cell.strip()))


def column_decimals(values: list[Any]) -> int:
    """The decimals a column of numbers is shown with: the most any of its float cells
    has (up to 4), so the column's numbers line up."""
    most = 0
    for v in values:
        if isinstance(v, float) and not v.is_integer():
            most = max(most, min(4, len(repr(v).split(".")[1].rstrip("0")) if "." in repr(v)
                                 and "e" not in repr(v) else 2))
    return most


def number_text(value: Any, decimals: int) -> str:
    """A cell as shown in a document table: numbers with thousands separators and the
    column's decimals; text (``$1,200``, ``12%``) as typed."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return show(value)
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return show(value)
    return f"{value:,.{decimals}f}"


def column_shares(columns: list[str], rows: list[list[Any]], plain: Any) -> list[float]:
    """Each column's share of the table's width, from the length of its content
    (header and the first 200 rows; long text capped so one column cannot take all)."""
    lengths = column_lengths(columns, rows, plain)
    total = float(sum(lengths))
    return [n / total for n in lengths]


def _wide(text: str) -> int:
    """The text's width in Latin characters (a Chinese character counts two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def column_lengths(columns: list[str], rows: list[list[Any]], plain: Any) -> list[int]:
    """Each column's widest content in characters (4 to 40)."""
    lengths = []
    for c, header in enumerate(columns):
        cells_ = [_wide(plain(header)) + 1] + [
            _wide(plain(number_text(r[c], 2))) for r in rows[:200]]
        lengths.append(min(max(max(cells_), 4), 40))
    return lengths
