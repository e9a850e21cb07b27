"""Deleting a session from the sidebar: the rows go in a worker thread (a session of
a million messages takes seconds to delete), the window is told when it is done,
its browser profile goes with it, and a delete that fails keeps the session (and its
profile) and says so."""

from __future__ import annotations

import threading
from typing import Any

from openworker_qt.connectors.browser_host import profile_dir
from tests.ui.conftest import run, until
from tests.ui.test_main_window import type_and_enter


def _one_session(qtbot: Any, qloop: Any, desktop: Any) -> str:
    window = desktop.window

    async def scenario() -> str:
        type_and_enter(qtbot, window, "hi")
        await until(lambda: window.session_id and not desktop.manager.is_running(
            window.session_id), what="turn end")
        return str(window.session_id)

    return run(qloop, scenario)


def test_a_session_is_deleted_off_the_loop_thread(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "Hello."}])
    window = desktop.window
    sid = _one_session(qtbot, qloop, desktop)
    store = window.store
    threads: list[int] = []
    original = store.delete_session

    def spy(session_id: str) -> Any:
        threads.append(threading.get_ident())
        return original(session_id)

    store.delete_session = spy
    profile = profile_dir(sid)
    profile.mkdir(parents=True)
    (profile / "Cookies").write_bytes(b"a login")

    async def scenario() -> None:
        window._on_sidebar_delete(sid)
        assert window.session_id != sid  # the window moved off it at once
        await until(lambda: store.get_session(sid) is None, what="session deleted")
        await until(lambda: window.statusBar().currentMessage() == "Session deleted",
                    what="the window told")
        await until(lambda: window.sessions.row_of(sid) is None, what="the sidebar updated")

    run(qloop, scenario)
    assert threads and threading.get_ident() not in threads
    assert window.sessions.row_of(sid) is None  # gone from the sidebar
    assert not profile.exists()  # and its browser's cookies and logins from the disk


def test_a_failed_delete_keeps_the_session_and_says_so(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "Hello."}])
    window = desktop.window
    sid = _one_session(qtbot, qloop, desktop)
    shown: list[str] = []
    window.banner.show_message = lambda text, *a, **k: shown.append(text)

    def refuse(session_id: str) -> None:
        raise OSError("disk I/O error")

    window.store.delete_session = refuse
    profile = profile_dir(sid)
    profile.mkdir(parents=True)

    async def scenario() -> None:
        window._on_sidebar_delete(sid)
        await until(lambda: shown, what="the failure shown")

    run(qloop, scenario)
    assert shown == ["The session could not be deleted; it is still there."]
    assert profile.is_dir()  # its browser profile too
    assert window.store.get_session(sid) is not None
