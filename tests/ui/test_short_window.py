"""At 800 × 480 the getting-started cards keep their room (they overlapped: the
greeting, blurb and folder line were squeezed under them); with more room those
come back."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from tests.ui.conftest import wait_for


def _rect_in(widget: QWidget, top: QWidget):
    return widget.rect().translated(widget.mapTo(top, widget.rect().topLeft()))


def test_cards_never_overlap_in_a_short_window(qloop, make_desktop) -> None:
    window = make_desktop().window
    empty = window.view.empty_state
    window.resize(800, 480)
    wait_for(qloop, lambda: empty.height() < 400 and empty.isVisible(), what="the short window")
    cards = window.view.empty_state.examples
    wait_for(qloop, lambda: all(not c.isHidden() for c in cards), what="the cards")
    rects = [_rect_in(c, empty) for c in cards]
    for i, a in enumerate(rects):
        assert empty.rect().contains(a), a  # none cut off
        for b in rects[i + 1:]:
            assert not a.intersects(b), (a, b)
    shown = [w for w in (empty.heading, empty.hello, empty.blurb, empty.folder) if not w.isHidden()]
    assert empty.heading in shown
    for label in shown:
        for card in rects:
            assert not _rect_in(label, empty).intersects(card)
    window.resize(1200, 860)
    wait_for(qloop, lambda: not empty.blurb.isHidden() and not empty.hello.isHidden(),
             what="the words back")
    assert not empty.folder.isHidden()
