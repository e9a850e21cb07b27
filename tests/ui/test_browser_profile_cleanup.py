"""Deleting a session from the sidebar removes its browser profile (the browser
connector's cookies and logins for that session) with it."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.browser_host import profile_dir
from tests.ui.conftest import run, until
from tests.ui.test_main_window import type_and_enter


def test_deleting_a_session_removes_its_browser_profile(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "Hello."}])
    window = desktop.window

    async def scenario() -> Any:
        type_and_enter(qtbot, window, "hi")
        await until(lambda: window.session_id and not desktop.manager.is_running(
            window.session_id), what="turn end")
        sid = window.session_id
        profile = profile_dir(sid)
        (profile / "Default").mkdir(parents=True)
        (profile / "Default" / "Cookies").write_bytes(b"session cookies")
        window._on_sidebar_delete(sid)
        await until(lambda: not profile.exists(), what="profile removed")
        return sid

    sid = run(qloop, scenario)
    assert desktop.runtime.conversations.get_session(sid) is None
