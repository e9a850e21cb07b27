""""A turn is running" has one owner, the session manager driving it: a turn another
surface of the process drives (the CLI on the runtime, an automation's manager)
shows in the window at once, and stopping it clears every surface — the window's
status, the sidebar's badge, the composer's Stop and the stored status."""

from __future__ import annotations

from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.qt.session_model import RUNNING_ROLE
from tests.ui.conftest import run, until

SLOW = [{"chunks": ["word "] * 2000, "delay": 0.01, "repeat": True}]


def _running_in_list(window: Any, session_id: str) -> bool:
    row = window.sessions.row_of(session_id)
    assert row is not None
    return bool(window.sessions.index(row, 0).data(RUNNING_ROLE))


def test_a_turn_another_manager_drives_shows_running_and_stopping_clears_every_surface(
        qloop, make_desktop) -> None:
    desktop = make_desktop(SLOW)
    window = desktop.window
    # A second surface on the same runtime, as the CLI builds it (cli/turns.py).
    cli = desktop.runtime.session_manager()
    sid = cli.create_session(workspace=str(window.default_workspace)).id
    window.refresh_sessions()
    window.open_session(sid)
    seen: dict[str, Any] = {}

    async def drive() -> list[ev.Event]:
        out: list[ev.Event] = []
        async for event in cli.run(sid, "go"):  # the CLI iterates the turn itself
            out.append(event)
            if len(out) == 1:  # the first event: every surface already says "running"
                seen["first"] = type(event).__name__
                seen["list"] = _running_in_list(window, sid)
                seen["composer"] = window.composer.running
                seen["bridge"] = desktop.bridge.running_sessions
                seen["window manager"] = desktop.manager.running_sessions()
                seen["status"] = window.status_line.text()
                window.stop()  # the window's Stop reaches the manager driving the turn
        return out

    async def scenario() -> list[ev.Event]:
        events = await drive()
        await until(lambda: not desktop.manager.running_sessions(), what="the turn over")
        return events

    events = run(qloop, scenario)
    assert seen["first"] == "TurnStarted"
    assert seen["list"] is True and seen["composer"] is True
    assert seen["bridge"] == seen["window manager"] == frozenset({sid})
    assert " s" in seen["status"] and seen["status"] != "Ready"
    ended = [e for e in events if isinstance(e, ev.TurnEnded)]
    assert ended and ended[-1].status == "interrupted"
    # stopped: no surface says "running" any more
    assert not _running_in_list(window, sid)
    assert window.composer.running is False
    assert window.status_line.text() == "Ready"
    assert desktop.bridge.running_sessions == frozenset()
    assert not cli.is_running(sid) and cli.running_sessions() == frozenset()
    info = desktop.runtime.conversations.get_session(sid)
    assert info is not None and info.status != "running"


def test_the_window_hears_running_changes_of_a_peer_within_one_event(qloop, make_desktop) -> None:
    """An automation's manager (another peer) starts a turn with send(): the window's
    bridge says so in the same call, before any engine event."""
    desktop = make_desktop(SLOW)
    window = desktop.window
    other = desktop.runtime.session_manager()
    sid = other.create_session(workspace=str(window.default_workspace)).id
    window.refresh_sessions()
    heard: list[tuple[str, bool]] = []
    desktop.bridge.running_changed.connect(lambda s, r: heard.append((s, r)))

    async def scenario() -> None:
        other.send(sid, "go")
        heard_at_once = list(heard)
        listed = _running_in_list(window, sid)
        other.stop(sid)
        await until(lambda: (sid, False) in heard, what="the turn over")
        assert heard_at_once == [(sid, True)] and listed

    run(qloop, scenario)
    assert heard == [(sid, True), (sid, False)]
    assert not _running_in_list(window, sid)
