"""Start-up work waits for the window's first paint (bench/startup.py measures to it)."""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QMainWindow

from openworker_qt.app import after_first_paint
from openworker_qt.ui.transcript_view import TranscriptView
from tests.ui.conftest import run, until


def test_callback_runs_once_after_the_first_paint(qloop) -> None:  # type: ignore[no-untyped-def]
    window = QMainWindow()
    calls: list[bool] = []
    painted: list[bool] = []
    original = window.paintEvent

    def paint(event):  # type: ignore[no-untyped-def]
        painted.append(True)
        original(event)

    window.paintEvent = paint  # type: ignore[method-assign]
    after_first_paint(window, lambda: calls.append(bool(painted)))

    async def scenario() -> None:
        await asyncio.sleep(0.05)
        assert calls == []  # not shown, not painted: nothing yet
        window.show()
        await until(lambda: calls, what="callback")
        window.update()
        await asyncio.sleep(0.05)

    run(qloop, scenario)
    assert calls == [True]
    window.close()


def test_transcript_warm_up_starts_after_the_view_paints(qloop) -> None:  # type: ignore[no-untyped-def]
    from openworker_qt.qt.transcript_model import TranscriptModel

    view = TranscriptView()
    view.setModel(TranscriptModel())
    pending = len(view._warm_up)
    assert pending and not view._warming

    async def scenario() -> None:
        await asyncio.sleep(0.05)
        assert len(view._warm_up) == pending  # nothing before the view is on screen
        view.show()
        await until(lambda: not view._warm_up, what="warm-up done")

    run(qloop, scenario)
    # the samples left nothing behind in the delegate's caches
    assert not view.delegate._streams and not view.delegate._docs
    view.close()
