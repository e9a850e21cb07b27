"""Inline Markdown in a line of text (``**bold**``, ``*italic*``, `` `code` ``,
``[link](url)``) read into runs, so every format draws real bold, italic, monospace
and links instead of printing the asterisks and brackets."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class Run:
    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False
    link: str = ""


# Tried in order at each position; the first that matches there wins.
_PATTERNS = (
    ("code", re.compile(r"(`+)(.+?)\1", re.DOTALL)),
    ("link", re.compile(r"\[([^\[\]]+)\]\(\s*<?([^()\s<>]+)>?(?:\s+\"[^\"]*\")?\s*\)")),
    ("both", re.compile(r"\*\*\*(?!\s)(.+?)(?<!\s)\*\*\*", re.DOTALL)),
    ("bold", re.compile(r"\*\*(?!\s)(.+?)(?<!\s)\*\*", re.DOTALL)),
    ("bold", re.compile(r"(?<![\w])__(?!\s)(.+?)(?<!\s)__(?![\w])", re.DOTALL)),
    ("italic", re.compile(r"(?<![\w])\*(?![\s*])(.+?)(?<![\s*])\*(?![\w])", re.DOTALL)),
    ("italic", re.compile(r"(?<![\w])_(?![\s_])(.+?)(?<![\s_])_(?![\w])", re.DOTALL)),
)
_SPECIAL = re.compile(r"[`\[*_\\]")
_ESCAPABLE = set("\\`*_[]()#+-.!<>~|")


def runs(text: str) -> list[Run]:
    """The runs of ``text``, neighbours with the same look merged; a marker without
    its partner (a lone ``*``) stays as typed, and ``\\*`` is a literal asterisk."""
    out: list[Run] = []
    _parse(text, Run(""), out)
    merged: list[Run] = []
    for run in out:
        if merged and replace(merged[-1], text="") == replace(run, text=""):
            merged[-1] = replace(merged[-1], text=merged[-1].text + run.text)
        elif run.text:
            merged.append(run)
    return merged


def plain(text: str) -> str:
    """The text with its Markdown markers taken out (for sizing, titles, CSV)."""
    return "".join(r.text for r in runs(text))


def _parse(text: str, look: Run, out: list[Run]) -> None:
    pos = start = 0
    while pos < len(text):
        m = _SPECIAL.search(text, pos)
        if m is None:
            break
        i = m.start()
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in _ESCAPABLE:
            out.append(replace(look, text=text[start:i]))
            start, pos = i + 1, i + 2  # the escaped character is kept as text
            continue
        for kind, pattern in _PATTERNS:
            found = pattern.match(text, i)
            if found is None:
                continue
            out.append(replace(look, text=text[start:i]))
            if kind == "code":
                body = found.group(2)
                if body.startswith(" ") and body.endswith(" ") and body.strip():
                    body = body[1:-1]
                out.append(replace(look, text=body, code=True))
            elif kind == "link":
                _parse(found.group(1), replace(look, link=found.group(2)), out)
            elif kind == "both":
                _parse(found.group(1), replace(look, bold=True, italic=True), out)
            elif kind == "bold":
                _parse(found.group(1), replace(look, bold=True), out)
            else:
                _parse(found.group(1), replace(look, italic=True), out)
            start = pos = found.end()
            break
        else:
            pos = i + 1
    out.append(replace(look, text=text[start:]))
