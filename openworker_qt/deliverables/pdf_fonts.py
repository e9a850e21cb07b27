"""The fonts a PDF is written with: the main pair, a monospace face for code, and for
Chinese, Japanese or Korean text the matching face of a CJK collection (the Noto CJK
collection's first face is the Japanese style; Chinese text gets the Simplified Chinese
one) with its bold weight. Every character must be in one of them, or the PDF is refused
naming the characters: a missing-glyph box never ships."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from openworker_qt.deliverables import charts
from openworker_qt.deliverables.base import DocumentError, font_dirs

#: The face wanted in a CJK collection, by the document's language.
_REGION = {"zh-CN": "SC", "zh-TW": "TC", "zh-HK": "HK", "ja-JP": "JP", "ko-KR": "KR"}

_MONO_FILES = ("DejaVuSansMono.ttf", "LiberationMono-Regular.ttf", "NotoSansMono-Regular.ttf",
               "consola.ttf", "cour.ttf", "Menlo.ttc", "Courier New.ttf")


@dataclass(frozen=True, slots=True)
class Face:
    path: Path
    index: int = 0  # the face's number in a .ttc collection


@functools.lru_cache(maxsize=16)
def coverage(face: Face) -> frozenset[int]:
    """The code points the face has glyphs for (empty for a file that cannot be read)."""
    try:
        from fontTools.ttLib import TTFont

        with TTFont(str(face.path), fontNumber=face.index, lazy=True) as font:
            return frozenset((font.getBestCmap() or {}).keys())
    except Exception:  # an unreadable or odd font file: it covers nothing
        return frozenset()


def collection_face(path: Path, lang: str) -> Face:
    """The face of ``path`` for ``lang``: in a collection, the one whose family name ends
    in the language's region (``Noto Sans CJK SC`` for zh-CN), not a monospace one."""
    if path.suffix.lower() not in (".ttc", ".otc"):
        return Face(path)
    want = _REGION.get(lang, "SC")
    try:
        from fontTools.ttLib import TTCollection

        with TTCollection(str(path), lazy=True) as coll:
            families = [str(f["name"].getDebugName(1) or "") for f in coll.fonts]
    except Exception:  # not a readable collection: its first face
        return Face(path)
    for n, family in enumerate(families):
        if family.endswith(f" {want}") and "Mono" not in family:
            return Face(path, n)
    return Face(path)


def cjk_pair(text: str, lang: str) -> tuple[Face, Face] | None:
    """A (regular, bold) pair of CJK faces covering every character of ``text``, or None."""
    wanted = {ord(c) for c in text if not c.isspace()}
    for name in charts.CJK_FONTS:
        path = Path(name)
        if not path.is_file():
            continue
        regular = collection_face(path, lang)
        if wanted - coverage(regular):
            continue
        heavy_path = path.with_name(path.name.replace("Regular", "Bold"))
        bold = regular
        if heavy_path != path and heavy_path.is_file():
            candidate = collection_face(heavy_path, lang)
            if not wanted - coverage(candidate):
                bold = candidate
        return regular, bold
    return None


def mono_face() -> Face | None:
    """A monospace TrueType face for code, or None (code then uses the main font)."""
    dirs = font_dirs()
    for name in _MONO_FILES:
        for folder in dirs:
            if (folder / name).is_file():
                return Face(folder / name)
    return None


def refuse_missing(text: str, faces: list[Face]) -> None:
    """Raise :class:`DocumentError` naming the characters of ``text`` none of ``faces``
    has a glyph for."""
    have: set[int] = set()
    for face in faces:
        have |= coverage(face)
    missing = "".join(dict.fromkeys(c for c in text if not c.isspace() and ord(c) not in have
                                    and c.isprintable()))
    if missing:
        shown = " ".join(f"{c} (U+{ord(c):04X})" for c in missing[:12])
        more = f" and {len(missing) - 12} more" if len(missing) > 12 else ""
        raise DocumentError(
            f"This PDF cannot show some of its characters: {shown}{more}. No font on this "
            "computer has them, and a PDF would print empty boxes. Write a .docx or .html "
            "instead (they use the reader's fonts), or leave these characters out.")
