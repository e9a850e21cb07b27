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


def _loaded_highlighter() -> None:
    """Pygments in (it is a dependency): code is coloured from now on."""
    from openworker_qt.ui import markdown_style

    markdown_style.preload_highlighter()
    markdown_style._loading[0].join()
    assert markdown_style.highlighter_ready()


def _colours(doc: QTextDocument) -> list[list[tuple[str, str]]]:
    """Each code line of ``doc`` as (text, colour) fragments."""
    out = []
    block = doc.begin()
    while block.isValid():
        if is_code(block):
            it, line = block.begin(), []
            while not it.atEnd():
                frag = it.fragment()
                line.append((frag.text(), frag.charFormat().foreground().color().name()))
                it += 1
            out.append(line)
        block = block.next()
    return out


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


def _looks(doc: QTextDocument) -> list[tuple[object, ...]]:
    """Each block's kind, text and its characters' fonts (colours aside); a code
    block's margins (its box)."""
    out: list[tuple[object, ...]] = []
    block = doc.begin()
    while block.isValid():
        if block.text() or is_code(block):
            fmt = block.blockFormat()
            fonts = []
            it = block.begin()
            while not it.atEnd():
                chars = it.fragment().charFormat()
                fonts.append((tuple(chars.fontFamilies() or ()), chars.fontFixedPitch()))
                it += 1
            margins = (fmt.topMargin(), fmt.bottomMargin(), fmt.leftMargin()) if is_code(block) else ()
            out.append(("code" if is_code(block) else "text", block.text(), margins,
                        sorted(set(fonts))))
        block = block.next()
    return out


LONG_CODE = ("Intro `x`:\n\n```python\n" + "".join(f"value_{i} = compute({i}, 'text')\n" for i in range(30))
             + "\n    indented_after_blank = 1\n``not a fence\n```\n\nBetween.\n\n~~~\nplain one\n\ntwo\n~~~\n\n"
             "```\n" + "x = 1\n" * 5 + "```\n\nEnd.")


@pytest.mark.parametrize("step", [1, 3, 11, 40])
def test_a_growing_code_block_looks_as_its_whole_render_at_every_line(qapp, step: int) -> None:
    from openworker_qt.ui.markdown_style import style_markdown

    stream = StreamingDocument(QFont(), 480)
    for n in [*range(step, len(LONG_CODE), step), len(LONG_CODE)]:
        stream.update(LONG_CODE[:n])
        if LONG_CODE[n - 1] != "\n" and n != len(LONG_CODE):
            continue
        whole = QTextDocument()
        whole.setDefaultFont(QFont())
        whole.setMarkdown(LONG_CODE[:n])
        style_markdown(whole)
        assert _looks(stream.doc) == _looks(whole), repr(LONG_CODE[:n][-60:])


def test_a_growing_code_block_is_appended_to_not_rendered_again(qapp) -> None:
    stream = StreamingDocument(QFont(), 480)
    stream.update("Intro.\n\n```python\nfirst = 1\n")
    first = stream.doc.lastBlock()
    for i in range(50):
        stream.update(stream.text + f"line_{i} = {i}\n")
    block = stream.doc.lastBlock()
    for _ in range(50):
        block = block.previous()
    assert block == first  # the block of the first line is still the same one
    assert block.text() == "first = 1" and is_code(stream.doc.lastBlock())


@pytest.mark.parametrize("when", ["after each update", "at the end"])
def test_each_finished_line_of_a_growing_code_block_has_its_colours(qapp, when: str) -> None:
    """The lines a stream hands over for colouring (the delegate colours them a slice
    later, when the document may have grown on) get the whole render's colours."""
    from openworker_qt.ui.markdown_style import style_markdown
    from openworker_qt.ui.transcript_text import apply_colours

    _loaded_highlighter()
    colours = _colours

    text = "Code:\n\n```python\n" + "".join(f"def f_{i}(x):  # note\n    return len('s') + {i}\n"
                                              for i in range(6))
    stream = StreamingDocument(QFont(), 480)
    runs = []
    for n in [*range(len("Code:\n\n```python\nd"), len(text) + 1, 5), len(text)]:
        stream.update(text[:n])
        runs += stream.take_colours()
        if when == "after each update":
            apply_colours(stream.doc, runs, False)
            runs = []
    assert colours(stream.doc) != colours(_whole(text)) or when == "after each update"
    apply_colours(stream.doc, runs, False)
    whole = QTextDocument()
    whole.setMarkdown(text)
    style_markdown(whole)
    assert colours(stream.doc) == colours(whole)
    assert len({c for line in colours(whole) for _t, c in line}) > 2  # (colours there are)


def _whole(text: str) -> QTextDocument:
    from openworker_qt.ui.markdown_style import style_markdown

    whole = QTextDocument()
    whole.setMarkdown(text)
    style_markdown(whole)
    return whole
