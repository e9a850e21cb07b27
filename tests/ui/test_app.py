"""The desktop app (``app.py``): the background work it starts ends when it quits."""

from __future__ import annotations

import asyncio
import threading

from tests.ui.conftest import run


def test_a_quit_ends_every_model_list_load_the_app_started(qloop, make_desktop) -> None:
    """Onboarding completed twice while the model list was still loading (a slow
    provider): the first load was no longer kept by the app, and a quit left it
    running after the runtime had stopped."""
    desktop = make_desktop()
    release = threading.Event()
    listings: list[bool] = []

    def slow_listing() -> list[object]:  # a provider that takes its time to answer
        listings.append(True)
        release.wait(30)
        return []

    desktop.models._lister = slow_listing

    async def scenario() -> None:
        dialog = desktop.show_onboarding()
        dialog.completed.emit("scripted:first")
        dialog.completed.emit("scripted:second")  # again, before the first list arrived
        loads = [t for t in asyncio.all_tasks() if "load_models" in repr(t.get_coro())]
        assert len(loads) == 2
        await desktop.shutdown()
        pending = [t for t in loads if not t.done()]
        release.set()
        for task in pending:
            task.cancel()
        assert pending == []

    try:
        run(qloop, scenario)
    finally:
        release.set()
