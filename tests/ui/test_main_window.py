"""The real main window driven with the scripted provider.

Each test runs its scenario as one coroutine on the qasync loop (see
``conftest.run``); clicks and key presses are synchronous calls inside it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from openworker_qt.qt.transcript_model import TranscriptModel
from tests.ui.conftest import run, until


def type_and_enter(qtbot, window, text: str) -> None:
    window.composer.edit.setFocus()
    qtbot.keyClicks(window.composer.edit, text)
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return)


def test_send_streams_reply_into_transcript(qtbot, qloop, make_desktop) -> None:
    chunks = [f"word{i} " for i in range(40)]
    desktop = make_desktop([{"chunks": chunks, "delay": 0.002}])
    window = desktop.window

    async def scenario() -> None:
        type_and_enter(qtbot, window, "Say forty words")
        assert window.composer.edit.toPlainText() == ""
        await until(lambda: desktop.bridge.is_running(window.session_id), what="turn start")
        assert window.composer.stop.isVisibleTo(window)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    rows = window.transcript.items
    assert [r.kind for r in rows] == ["user", "assistant"]
    assert rows[0].text == "Say forty words"
    assert rows[1].text == "".join(chunks)
    assert not rows[1].streaming
    # 40 deltas were coalesced into far fewer repaints
    assert desktop.bridge.flushes < len(chunks)
    assert not window.composer.stop.isVisibleTo(window)
    # the sidebar lists the session, titled by the first message
    assert window.sessions.session_count() == 1
    assert window.sessions.index(1, 0).data() == "Say forty words"  # (row 0: "Today")


def test_shift_enter_inserts_newline(qtbot, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    edit = desktop.window.composer.edit
    qtbot.keyClicks(edit, "line one")
    qtbot.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(edit, "line two")
    assert edit.toPlainText() == "line one\nline two"
    assert desktop.window.session_id is None  # nothing was sent


def test_stop_mid_stream_keeps_partial_text(qtbot, qloop, make_desktop) -> None:
    chunks = [f"c{i} " for i in range(400)]
    desktop = make_desktop([{"chunks": chunks, "delay": 0.01}])
    window = desktop.window

    async def scenario() -> None:
        type_and_enter(qtbot, window, "Write a lot")
        await until(lambda: len(window.transcript.items) > 1 and window.transcript.items[1].text,
                    what="first text")
        qtbot.mouseClick(window.composer.stop, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="stop")

    run(qloop, scenario)
    kinds = [(r.kind, r.notice_kind) for r in window.transcript.items]
    assert kinds[-1] == ("notice", "interrupted")
    partial = window.transcript.items[1]
    assert partial.text.startswith("c0 ") and len(partial.text) < len("".join(chunks))
    stored = desktop.runtime.conversations.load(window.session_id)
    assert any(m.get("partial") == "interrupted" for m in stored)


def test_escape_in_composer_stops(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"chunks": ["a "] * 300, "delay": 0.01}])
    window = desktop.window

    async def scenario() -> None:
        type_and_enter(qtbot, window, "go")
        await until(lambda: window.composer.running, what="running")
        qtbot.keyClick(window.composer.edit, Qt.Key.Key_Escape)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="stop")

    run(qloop, scenario)
    assert window.transcript.items[-1].notice_kind == "interrupted"


def test_message_while_running_becomes_steering(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([
        {"chunks": ["working "] * 30, "delay": 0.01},
        {"text": "Adjusted as you asked."},
    ])
    window = desktop.window

    async def scenario() -> None:
        type_and_enter(qtbot, window, "Draft the brief")
        await until(lambda: window.composer.running, what="running")
        assert window.composer.send.text() == "Steer"
        type_and_enter(qtbot, window, "Use British spelling")
        # shown at once, before the engine takes it in after the current step
        queued = window.transcript.items[-1]
        seen["queued"] = (queued.kind, queued.source, queued.text,
                          window.view.delegate._plain_body(queued).splitlines()[-1])
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    seen: dict[str, object] = {}
    run(qloop, scenario)
    assert seen["queued"] == ("user", "queued", "Use British spelling",
                              "Queued: goes in after the current step")
    rows = window.transcript.items
    assert not [r for r in rows if r.source == "queued"]  # it became the steering message, once
    steering = [r for r in rows if r.kind == "user" and r.source == "steering"]
    assert [r.text for r in steering] == ["Use British spelling"]
    assert rows[-1].kind == "assistant" and rows[-1].text == "Adjusted as you asked."
    provider, _ = desktop.runtime.router.resolve(desktop.manager.default_model)
    last_request = provider.requests[-1]
    assert any(m.get("content") == "Use British spelling" for m in last_request.messages)


def test_reopening_session_loads_history(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "first answer"}])
    window = desktop.window

    async def scenario() -> None:
        type_and_enter(qtbot, window, "hello")
        await until(lambda: window.session_id and not desktop.manager.is_running(window.session_id))
        sid = window.session_id
        window.new_session()
        assert window.transcript.rowCount() == 0
        window.sidebar.select(sid)
        await until(lambda: window.transcript.rowCount() == 2 and window.loaded(), what="reload")

    run(qloop, scenario)
    assert window.transcript.items[1].text == "first answer"


def test_error_shows_banner_and_retry_reruns(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"error": "upstream 503", "error_kind": "server"}, {"text": "recovered"}])
    window = desktop.window

    async def scenario() -> None:
        type_and_enter(qtbot, window, "try")
        await until(lambda: window.banner.isVisibleTo(window), what="banner")
        assert "upstream 503" in window.banner.label.text()
        await until(lambda: not desktop.manager.is_running(window.session_id))
        qtbot.mouseClick(window.banner.action, Qt.MouseButton.LeftButton)
        await until(lambda: window.transcript.items[-1].text == "recovered", what="retry")

    run(qloop, scenario)
    assert not window.banner.isVisibleTo(window)


def test_models_pass_modeltester(qtmodeltester, qloop, make_desktop, qtbot) -> None:
    desktop = make_desktop([{"text": "hi", "tool_calls": [{"name": "list_files", "arguments": {}}]},
                            {"text": "done"}])
    window = desktop.window

    async def scenario() -> None:
        type_and_enter(qtbot, window, "list")
        await until(lambda: window.session_id and not desktop.manager.is_running(window.session_id))

    run(qloop, scenario)
    model: TranscriptModel = window.transcript
    assert [r.kind for r in model.items] == ["user", "assistant", "tool", "assistant"]
    assert model.items[2].status == "ok"
    assert model.items[2].rule
    qtmodeltester.check(model)
    qtmodeltester.check(window.sessions)


def test_new_sessions_start_in_the_configured_mode(qtbot, qloop, make_desktop, isolated_state) -> None:
    cfg = isolated_state / "config" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text('[permissions]\nmode = "plan"\n')
    desktop = make_desktop([{"text": "ok"}])
    window = desktop.window
    assert window.composer.mode.currentText() == "plan"
    window.composer.mode.setCurrentText("auto")  # changed for one session …
    window.new_session()
    assert window.composer.mode.currentText() == "plan"  # … a new one starts from the config


def test_tool_card_expands_and_collapses_by_click_and_keyboard(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "Looking.", "tool_calls": [{"name": "list_files", "arguments": {}}]},
                            {"text": "done"}])
    window = desktop.window

    async def scenario() -> None:
        type_and_enter(qtbot, window, "list")
        await until(lambda: window.session_id and not desktop.manager.is_running(window.session_id))

    run(qloop, scenario)
    model = window.view.model()
    row = next(i for i, item in enumerate(window.transcript.items) if item.kind == "tool")
    index = model.index(row, 0)
    collapsed = window.view.sizeHintForIndex(index).height()
    window.view.scrollTo(index)
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=window.view.visualRect(index).center())
    assert window.transcript.items[row].expanded
    assert window.view.sizeHintForIndex(index).height() > collapsed  # the result is shown
    window.view.setCurrentIndex(index)
    qtbot.keyClick(window.view, Qt.Key.Key_Space)
    assert not window.transcript.items[row].expanded


def test_error_row_retry_by_keyboard(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"error": "upstream 503", "error_kind": "server"}, {"text": "recovered"}])
    window = desktop.window

    async def scenario() -> None:
        type_and_enter(qtbot, window, "try")
        await until(lambda: window.session_id and not desktop.manager.is_running(window.session_id))
        row = next(i for i, item in enumerate(window.transcript.items)
                   if item.kind == "notice" and item.notice_kind == "error")
        window.view.setCurrentIndex(window.view.model().index(row, 0))
        qtbot.keyClick(window.view, Qt.Key.Key_Return)
        await until(lambda: window.transcript.items[-1].text == "recovered", what="retry")

    run(qloop, scenario)


def test_a_message_to_a_session_driven_elsewhere_is_kept(qtbot, qloop, make_desktop, tmp_path) -> None:
    """Another owner holds the session's lease: the message, attachments included,
    goes back into the composer with a banner that offers no useless Retry; once
    the lease is free, sending it again works."""
    from openworker_qt.storage.leases import SessionLeases

    desktop = make_desktop([{"text": "First answer."}, {"text": "Got your notes."}])
    window = desktop.window
    notes = tmp_path / "notes.txt"
    notes.write_text("milk, eggs\n", encoding="utf-8")
    other = SessionLeases(desktop.manager.store.db)  # another window's manager
    seen: dict[str, object] = {}

    async def scenario() -> None:
        type_and_enter(qtbot, window, "hello")
        sid = window.session_id
        await until(lambda: window.transcript.items and window.transcript.items[-1].text
                    == "First answer.", what="answer")
        await until(lambda: not desktop.manager.is_running(sid), what="turn end")
        other.acquire(sid)
        window.add_paths([str(notes)])
        await until(lambda: window.composer.attachments, what="attachment")
        rows = len(window.transcript.items)
        type_and_enter(qtbot, window, "summarise my notes")
        await until(lambda: window.banner.isVisibleTo(window), what="banner")
        seen["text"] = window.composer.edit.toPlainText()
        seen["attached"] = [a.name for a in window.composer.attachments]
        seen["banner"] = window.banner.label.text()
        seen["action"] = window.banner.action.isVisibleTo(window)
        seen["rows_unchanged"] = len(window.transcript.items) == rows
        seen["stored"] = [m.get("role") for m in desktop.manager.store.load(sid)]
        other.release(sid)
        qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return)  # send it again
        await until(lambda: window.transcript.items[-1].text == "Got your notes.", what="resend")
        seen["sent"] = next(m for m in reversed(desktop.manager.store.load(sid))
                            if m.get("role") == "user")

    run(qloop, scenario)
    assert seen["text"] == "summarise my notes"
    assert seen["attached"] == ["notes.txt"]
    assert "not sent" in str(seen["banner"]) and "another OpenWorker" in str(seen["banner"])
    assert seen["action"] is False  # no Retry that could not work
    assert seen["rows_unchanged"] is True
    assert seen["stored"] == ["user", "assistant"]  # nothing of the refused message
    content = seen["sent"]["content"]
    assert isinstance(content, list)
    assert any(p.get("type") == "text" and p.get("text") == "summarise my notes" for p in content)
    assert any(p.get("path") == str(notes) for p in content)
    assert window.composer.edit.toPlainText() == "" and window.composer.attachments == []
