"""A streamed answer is drawn as its whole render will be, at every step: a code
block is a code block from its first line (its first line sat above the grey box,
unhighlighted, until the answer ended and the layout jumped)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFont, QTextDocument

from openworker_qt.ui.markdown_style import is_code
from openworker_qt.ui.transcript_text import StreamingDocument

SAMPLES = [
    "Here is code:\n\n```python\nprint('a')\nx = 2\n```\n\nThen more:\n\n```\nls -l\n```\n\nDone.",
    "Steps:\n\n1. Install:\n\n```sh\npip install x\n```\n\n2. Run it\n\n~~~\none line\n~~~\n\nEnd.",
    "```js\nconst a = 1;\n```\n\nStarts with code.",
]


def _blocks(doc: QTextDocument) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    block = doc.begin()
    while block.isValid():
        if block.text() or is_code(block):
            out.append(("code" if is_code(block) else "text", block.text()))
        block = block.next()
    return out


@pytest.mark.parametrize("text", SAMPLES)
def test_every_streamed_line_is_drawn_as_the_whole_render_draws_it(qapp, text: str) -> None:
    stream = StreamingDocument(QFont(), 480)
    for n in range(1, len(text) + 1):
        stream.update(text[:n])  # a character at a time, as the slowest stream sends it
        if text[n - 1] != "\n" and n != len(text):
            continue  # a line still being typed may read differently for a moment
        whole = QTextDocument()
        whole.setMarkdown(text[:n])
        assert _blocks(stream.doc) == _blocks(whole), repr(text[:n])
    assert any(kind == "code" for kind, _ in _blocks(stream.doc))


def test_the_first_line_of_a_code_block_is_code_while_it_streams(qapp) -> None:
    stream = StreamingDocument(QFont(), 480)
    for part in ("Intro.\n\n", "```python\n", "print('a')"):
        stream.update(stream.text + part)
    assert _blocks(stream.doc) == [("text", "Intro."), ("code", "print('a')")]
