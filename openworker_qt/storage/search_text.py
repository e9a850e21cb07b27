"""The words of full-text search, for every script.

SQLite's ``unicode61`` tokenizer splits text at spaces and punctuation; Chinese
and Japanese are written without spaces (Korean puts them between phrases, not
words), so a whole sentence would be one token and a word in its middle could
not be found. The text given to the index therefore has a space on both sides
of every CJK character (:func:`index_text`): each ideograph, kana or Hangul
syllable is a token of its own, and a CJK word searched for becomes the phrase
of its characters (:func:`fts_query`), which matches them only side by side.
Snippets and marks are made from the stored message, never from this text, so
the user never sees the inserted spaces.
"""

from __future__ import annotations

import functools
import re

#: Hangul Jamo, CJK radicals, kana, Bopomofo, Hangul compatibility Jamo, CJK
#: Extension A, CJK Unified Ideographs, Hangul syllables and Jamo extensions,
#: compatibility ideographs, half-width katakana, and the supplementary planes'
#: ideographs.
CJK = (
    "[\u1100-\u11ff\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3040-\u30ff\u3100-\u312f"
    "\u3130-\u318f\u31a0-\u31bf\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f"
    "\uac00-\ud7af\ud7b0-\ud7ff\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f]"
)


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """A CJK character; a place next to one where there is no space yet; a search's
    words (runs of CJK characters, and runs of other word characters). Compiled on
    first use (~9 ms: start-up does not need them; deferred.py warms them)."""
    return (re.compile(CJK), re.compile(rf"(?<=\S)(?={CJK})|(?<={CJK})(?=\S)"),
            re.compile(rf"{CJK}+|(?:(?!{CJK})\w)+"))


#: The name of :func:`index_text` as an SQL function (the title index's triggers).
SQL_FUNCTION = "ow_search_text"


def has_cjk(text: str) -> bool:
    return _patterns()[0].search(text) is not None


def index_text(text: str) -> str:
    """``text`` as the search index is given it: a space on both sides of every
    CJK character (only where there is none: applying it twice changes nothing)."""
    if not text or not has_cjk(text):
        return text
    return _patterns()[1].sub(" ", text)


def search_words(text: str) -> list[str]:
    """The words of a search as typed (punctuation is not syntax); a run of CJK
    characters is one word, apart from the Latin letters or digits it touches."""
    return _patterns()[2].findall(text.lower())


def fts_query(words: list[str], *, unspaced: bool = False) -> str:
    """An FTS5 query holding every word: a Latin word as a prefix (the user may
    still be typing), a CJK word as the phrase of its characters.

    ``unspaced``: also find a CJK word at the start of text indexed before its
    characters were spaced (as a prefix of the old one-token sentence), while the
    index is being rewritten.
    """
    terms = []
    for word in words:
        if not has_cjk(word):
            terms.append(f'"{word}"*')
            continue
        phrase = f'"{index_text(word)}"'
        terms.append(f'({phrase} OR "{word}"*)' if unspaced else phrase)
    return " AND ".join(terms)
