"""Start-up work waits for the window's first paint (bench/startup.py measures to it)."""

from __future__ import annotations

from PySide6.QtWidgets import QMainWindow

from openworker_qt.ui.first_paint import after_first_paint
from openworker_qt.ui.transcript_view import TranscriptView
from tests.ui.conftest import posted_marker, run, until


def test_callback_runs_once_after_the_first_paint(qloop) -> None:
    window = QMainWindow()
    calls: list[bool] = []
    painted: list[bool] = []
    original = window.paintEvent

    def paint(event):
        painted.append(True)
        original(event)

    window.paintEvent = paint
    after_first_paint(window, lambda: calls.append(bool(painted)))

    async def scenario() -> None:
        await until(posted_marker(), what="queued events and zero timers handled")
        assert calls == []  # not shown, not painted: nothing yet
        window.show()
        await until(lambda: calls, what="callback")
        repaints = len(painted)
        window.update()
        await until(lambda: len(painted) > repaints, what="the repaint")
        await until(posted_marker(), what="what the repaint queued")

    run(qloop, scenario)
    assert calls == [True]
    window.close()


def test_transcript_warm_up_starts_after_the_view_paints(qloop) -> None:
    from openworker_qt.qt.transcript_model import TranscriptModel

    view = TranscriptView()
    view.setModel(TranscriptModel())
    pending = len(view.warm_up.pending)
    assert pending and not view.warm_up.started

    async def scenario() -> None:
        await until(posted_marker(), what="queued events and zero timers handled")
        assert len(view.warm_up.pending) == pending  # nothing before the view is on screen
        view.show()
        await until(lambda: not view.warm_up.pending, what="warm-up done")

    run(qloop, scenario)
    # the samples left nothing behind in the delegate's caches
    assert not view.delegate._streams and not view.delegate._docs
    view.close()


class _QuietNotifier:
    """Stands in for the desktop's notification daemon (not what this test is about)."""

    on_activated = None

    def notify(self, *args: object, **kwargs: object) -> None:
        return None

    def withdraw(self, key: str) -> None:
        return None

    async def close(self) -> None:
        return None


def test_turns_cut_off_by_the_last_run_are_closed_after_the_first_paint(
    qloop, make_desktop
) -> None:
    from openworker_qt.automation.keepawake import FirstAvailable, KeepAwake

    desktop = make_desktop([], keep_awake=KeepAwake(FirstAvailable([]), enabled=False),
                           notifier=_QuietNotifier())
    store = desktop.manager.store
    # The previous run died mid-answer: "running" in the database, nothing to resume.
    cut = desktop.manager.create_session()
    store.append(cut.id, {"role": "user", "content": "hello"})
    store.update_session(cut.id, status="running")
    desktop.start()
    assert store.get_session(cut.id).status == "running"  # nothing before the first paint

    async def scenario() -> None:
        await until(lambda: store.get_session(cut.id).status == "idle", what="recovery")

    run(qloop, scenario)
    last = store.load(cut.id)[-1]
    assert last["role"] == "notice" and last["kind"] == "error"  # Retry is offered


def test_a_quit_before_the_first_paint_starts_no_service_after_it(
    qloop, make_desktop
) -> None:
    from openworker_qt.automation.keepawake import FirstAvailable, KeepAwake

    desktop = make_desktop([], keep_awake=KeepAwake(FirstAvailable([]), enabled=False),
                           notifier=_QuietNotifier())
    desktop.window.hide()  # not painted yet
    desktop.start()  # shows it: the services would start after its first paint
    qloop.run_until_complete(desktop.shutdown())

    async def scenario() -> None:
        desktop.window.show()
        desktop.window.repaint()
        await until(posted_marker(), what="the paint and what it queued")

    run(qloop, scenario)
    assert desktop.runtime.running_services == []
    assert desktop._automations is None  # the scheduler was never made, nor started
    assert not desktop._tasks
