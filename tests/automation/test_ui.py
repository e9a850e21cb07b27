"""The Automations window and editor (real widgets, offscreen), and the desktop
app's wiring: tray "Pause automations", a notification when a run finishes,
a run's session opened from its history."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from PySide6.QtCore import QDateTime
from PySide6.QtWidgets import QDialogButtonBox

from openworker_qt.automation.store import AutomationStore
from openworker_qt.storage.db import Database
from openworker_qt.ui.automations import AutomationEditor, AutomationsWindow
from tests.ui.conftest import until

PARIS = ZoneInfo("Europe/Paris")


def now() -> float:
    return dt.datetime(2026, 12, 1, 7, 0, tzinfo=PARIS).timestamp()


def test_editor_previews_the_schedule_and_refuses_a_bad_one(qtbot: Any, tmp_path: Path) -> None:
    store = AutomationStore(Database(tmp_path / "a.db"), clock=now)
    editor = AutomationEditor(store, workspace=str(tmp_path), clock=now)
    qtbot.addWidget(editor)
    save = editor.buttons.button(QDialogButtonBox.StandardButton.Save)
    editor.name.setText("Morning brief")
    editor.prompt.setPlainText("Write the Monday report.")
    editor.tz.setCurrentText("Europe/Paris")
    editor.cron.setText("0 25 * * 1-5")
    assert "the hour field '25'" in editor.preview.text() and not save.isEnabled()
    editor.cron.setText("0 8 * * 1-5")
    assert save.isEnabled()
    lines = editor.preview.text().splitlines()
    assert lines[0] == "Every weekday at 08:00 (Europe/Paris)"
    assert lines[1].startswith("Next runs (your time): ") and lines[1].count(",") == 2
    editor.once.setChecked(True)  # a one-off in the past is refused
    editor.at.setDateTime(QDateTime.fromSecsSinceEpoch(int(now() - 60)))
    assert "in the past" in editor.preview.text() and not save.isEnabled()
    editor.at.setDateTime(QDateTime.fromSecsSinceEpoch(int(now() + 3600)))
    assert editor.preview.text().startswith("Once, on Tue 01 Dec 2026 at 08:00 (Europe/Paris)")
    editor.repeat.setChecked(True)
    save.click()
    [auto] = store.all()
    assert (auto.name, auto.described, auto.workspace) == (
        "Morning brief", "Every weekday at 08:00 (Europe/Paris)", str(tmp_path))


def test_editor_takes_a_schedule_in_words_and_offers_presets(qtbot: Any, tmp_path: Path) -> None:
    store = AutomationStore(Database(tmp_path / "a.db"), clock=now)
    editor = AutomationEditor(store, workspace=str(tmp_path), clock=now)
    qtbot.addWidget(editor)
    save = editor.buttons.button(QDialogButtonBox.StandardButton.Save)
    editor.name.setText("Stand-up notes")
    editor.prompt.setPlainText("Summarise yesterday.")
    editor.tz.setCurrentText("Europe/Paris")
    editor.cron.clear()
    qtbot.keyClicks(editor.cron, "every weekday at 9am")
    assert save.isEnabled()
    assert editor.preview.text().splitlines()[0] == "Every weekday at 09:00 (Europe/Paris)"
    assert editor.preset.currentData() == "0 9 * * 1-5"  # the preset it is, shown
    qtbot.keyClicks(editor.cron, "x")  # "…9amx" is not a schedule: said how to write one
    assert "every weekday at 9am" in editor.preview.text() and not save.isEnabled()
    assert editor.preset.currentData() == ""
    friday = editor.preset.findData("0 17 * * 5")
    editor.preset.setCurrentIndex(friday)
    editor.preset.activated.emit(friday)
    assert editor.cron.text() == "0 17 * * 5" and save.isEnabled()
    save.click()
    [auto] = store.all()
    assert (auto.schedule.cron, auto.described) == (
        "0 17 * * 5", "Every Friday at 17:00 (Europe/Paris)")


def test_a_long_schedule_never_squeezes_the_name(qtbot: Any, tmp_path: Path) -> None:
    store = AutomationStore(Database(tmp_path / "a.db"), clock=now)
    store.create(name="Weekly competitor digest", prompt="p", tz="America/Argentina/Buenos_Aires",
                 cron="0 8 * * 1,2,3,4,5,6")
    window = AutomationsWindow(store, run_now=lambda _id: None, clock=now)
    qtbot.addWidget(window)
    window.resize(720, 480)
    window.show()
    qtbot.waitExposed(window)
    window.refresh()
    name = window.list.topLevelItem(0).text(0)
    needed = window.list.fontMetrics().horizontalAdvance(name)
    assert window.list.header().sectionSize(0) >= needed
    assert window.list.header().sectionSize(1) > 0


def test_window_lists_runs_and_opens_a_run_session(qtbot: Any, tmp_path: Path) -> None:
    store = AutomationStore(Database(tmp_path / "a.db"), clock=now)
    auto = store.create(name="Brief", prompt="p", tz="Europe/Paris", cron="0 8 * * *")
    run = store.start_manual(auto.id, owner="me")
    store.set_session(run.id, "__run__1")
    store.set_status(run.id, "failed", note="the provider fell over")
    ran: list[str] = []
    window = AutomationsWindow(store, ran.append, clock=now)
    qtbot.addWidget(window)
    window.show()
    row = window.list.topLevelItem(0)
    assert row.text(0) == "Brief" and row.text(1) == "Every day at 08:00 (Europe/Paris)"
    assert row.text(3) == "failed — not seen yet"
    assert store.unseen_failures() == 1
    row.setSelected(True)  # looking at its runs marks the failure seen
    assert store.unseen_failures() == 0
    history = window.runs.topLevelItem(0)
    assert history.text(1) == "run now" and history.text(2) == "failed (the provider fell over)"
    with qtbot.waitSignal(window.open_session_requested) as opened:
        window.runs.itemActivated.emit(history, 0)
    assert opened.args == ["__run__1"]
    window.run_button.click()
    assert ran == [auto.id]
    window.pause_button.click()
    assert not store.get(auto.id).enabled
    assert window.list.topLevelItem(0).text(2) == "paused"
    assert window.pause_button.text() == "&Resume"


def test_desktop_wiring_pause_all_notifications_and_menu(
    qtbot, qloop, make_desktop, tmp_path: Path
) -> None:
    desktop = make_desktop([{"text": "Report done."}])
    sent: list[tuple[str, str]] = []

    class Recorder:
        on_activated = None

        def notify(self, key: str, title: str, body: str, actions: Any = ()) -> None:
            sent.append((key, title))

        def withdraw(self, key: str) -> None:
            pass

        async def close(self) -> None:
            pass

    desktop.notices.set_notifier(Recorder())
    tray = desktop.create_tray(available=False)
    tray.pause_action.trigger()
    assert desktop.automations.store.paused
    tray.pause_action.trigger()
    assert not desktop.automations.store.paused
    tray.automations_action.trigger()
    assert desktop.automations_window is not None and desktop.automations_window.isVisible()
    store = desktop.automations.store
    auto = store.create(name="Report", prompt="write it", tz="UTC", cron="0 8 * * *",
                        workspace=str(tmp_path))

    async def scenario() -> None:
        await desktop.runtime.start()
        await desktop.automations.run_now(auto.id)
        await until(lambda: sent, what="a notification")

    qloop.run_until_complete(scenario())
    [run] = store.runs(auto.id)
    assert run.status == "completed"
    assert sent == [(f"session:{run.session_id}", "Finished: Report")]
    assert tray.automations_action.text() == "Automations…"
    store.set_status(run.id, "failed", note="the provider fell over")  # as if it had failed
    desktop._on_automation_run(store.run(run.id), auto)
    assert sent[-1] == (f"session:{run.session_id}", "Failed: Report")
    assert tray.automations_action.text() == "Automations… (1 failed)"  # the badge

    async def open_run() -> None:
        window = desktop.automations_window
        window.refresh()
        window.list.topLevelItem(0).setSelected(True)  # looking at it clears the badge
        assert tray.automations_action.text() == "Automations…"
        window.runs.itemActivated.emit(window.runs.topLevelItem(0), 0)
        await until(lambda: desktop.window.loaded(), what="the run's session")

    qloop.run_until_complete(open_run())
    assert desktop.window.session_id == run.session_id


def test_morning_brief_in_the_window_waits_in_the_inbox_and_sends_once(
    qtbot, qloop, make_desktop, tmp_path: Path, slack: str
) -> None:
    import json

    from openworker_qt.storage.paths import app_paths
    from tests.automation.conftest import Hits

    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "sales.txt").write_text("sales: up 4%\n", encoding="utf-8")
    (ws / "tickets.txt").write_text("tickets: 3 open\n", encoding="utf-8")
    app_paths().ensure().config_file.write_text(
        '[permissions]\nmode = "custom"\nauto_allow = ["write_file"]\n'
        f'[web]\nallow_private_hosts = ["{slack}"]\n', encoding="utf-8")
    script = tmp_path / "brief.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"name": "read_file", "arguments": {"path": "sales.txt"}},
                        {"name": "read_file", "arguments": {"path": "tickets.txt"}}]},
        {"tool_calls": [{"name": "write_file", "arguments": {
            "path": "report.md", "content": "# Monday\n"}}]},
        {"tool_calls": [{"name": "web_fetch", "arguments": {
            "url": f"http://{slack}/send?text=report-ready"}}]},
        {"text": "Posted."},
    ]}), encoding="utf-8")
    desktop = make_desktop()
    store = desktop.automations.store
    auto = store.create(name="Morning brief", prompt="Write and post the report.", tz="UTC",
                        cron="0 8 * * 1-5", model=f"scripted:{script}", workspace=str(ws))

    async def scenario() -> None:
        await desktop.runtime.start()
        store.db.execute("UPDATE automations SET next_run = ? WHERE id = ?",
                         (desktop.automations.clock() - 1, auto.id))  # it is 08:00
        await desktop.automations.scheduler.tick()
        await until(lambda: desktop.inbox.pending(), what="the approval", timeout=10)
        [item] = desktop.inbox.pending()
        assert item.tool == "web_fetch" and Hits.sent == []
        [run] = store.runs(auto.id)
        assert run.status == "waiting"
        assert desktop.resolve_item(item.id, "once", by="window")  # the inbox's Approve
        await until(lambda: store.run(run.id).status == "completed",
                    what="the run's end", timeout=10)

    qloop.run_until_complete(scenario())
    [run] = store.runs(auto.id)
    assert Hits.sent == ["/send?text=report-ready"]
    assert run.deliverables == ["report.md"] and (ws / "report.md").exists()
    assert "Posted." in json.dumps([m.get("content") for m in
                                    desktop.runtime.conversations.load(run.session_id)])


def test_window_lists_what_a_task_may_do_and_answers_its_shell_ask(
        qtbot: Any, tmp_path: Path) -> None:
    from openworker_qt.core.inbox import Inbox

    db = Database(tmp_path / "a.db")
    store = AutomationStore(db, clock=now)
    inbox = Inbox(db)
    auto = store.create(name="Report", prompt="p", tz="Europe/Paris", cron="*/5 * * * *",
                        grants=["send_message slack:C1"])
    run = store.start_manual(auto.id, owner="me")
    store.set_session(run.id, "__run__1")
    store.set_status(run.id, "waiting")
    command = "make report"
    ask = inbox.add("approval", "__run__1", tool_call_id="c1", tool="run_shell",
                    arguments={"command": command}, risk="exec", target=command,
                    task_id=auto.id)
    window = AutomationsWindow(store, lambda _id: None, clock=now, inbox=inbox)
    qtbot.addWidget(window)
    window.show()
    window.list.topLevelItem(0).setSelected(True)
    assert window.waiting_label.isVisible() and window.always_button.isVisible()
    assert window.waiting_label.text() == f"Waiting for your answer on #{ask.id}: run `make report`"
    assert [window.allowed.topLevelItem(i).text(0)
            for i in range(window.allowed.topLevelItemCount())] == ["send_message on slack:C1"]
    window.always_button.click()
    answered = inbox.get(ask.id)
    assert answered is not None and (answered.resolution, answered.resolved_by) == (
        "always_command", "automations")
    assert not window.always_button.isVisible()
    # The run makes the rule (core/permissions.py); it is listed, and removable here.
    store.rules.add("run_shell", command, scope="task", scope_id=auto.id)
    window.refresh()
    rows = [window.allowed.topLevelItem(i) for i in range(window.allowed.topLevelItemCount())]
    assert [(r.text(0), r.text(1)) for r in rows] == [
        ("send_message on slack:C1", "always"), ("Run the command `make report`", "always")]
    assert not window.forget_button.isEnabled()
    rows[1].setSelected(True)
    assert window.forget_button.isEnabled()
    window.forget_button.click()
    assert [r.tool for r in store.allowed(auto.id)] == ["send_message"]
    assert window.allowed.topLevelItemCount() == 1
