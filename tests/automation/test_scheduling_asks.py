"""Creating, changing or deleting a scheduled task asks in every mode that may act
(interactive, custom — even with the tool in ``auto_allow`` —, auto, and with a
risk override that calls it a read), is refused in the read-only modes, and never
runs on its own. The approval card says the schedule in words and the next run.

Through real turns: scripted model, real Runtime and SQLite, the inbox as approver."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.automation.store import AutomationStore
from openworker_qt.core.approvers import InboxApprover
from openworker_qt.runtime import Runtime, open_runtime

CREATE = {"name": "create_automation", "arguments": {
    "name": "Standup", "prompt": "Summarise yesterday's commits.",
    "cron": "0 9 * * 1-5", "timezone": "Europe/Paris"}}


def script(tmp_path: Path, calls: list[dict[str, Any]]) -> str:
    # (one file per script: the router keeps a provider per model string)
    path = tmp_path / f"script{len(list(tmp_path.glob('script*.json')))}.json"
    path.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": calls}, {"text": "Done."}]}), encoding="utf-8")
    return f"scripted:{path}"


def configure(home: Path, text: str) -> None:
    config = home / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text, encoding="utf-8")


async def turn(rt: Runtime, tmp_path: Path, mode: str,
               calls: list[dict[str, Any]]) -> tuple[str, list[Any]]:
    manager = rt.session_manager(approver_for=lambda _i: InboxApprover(rt.inbox, wait=False),
                                 default_model=script(tmp_path, calls))
    info = manager.create_session(workspace=str(tmp_path), mode=mode)
    return info.id, [e async for e in manager.run(info.id, "every weekday at 9")]


@pytest.mark.parametrize(("mode", "config"), [
    ("interactive", ""),
    ("auto", ""),
    ("custom", '[permissions]\nauto_allow = ["create_automation", "update_automation", '
               '"delete_automation"]\n'),
    ("auto", '[permissions.risk_overrides]\ncreate_automation = "read"\n'),
])
async def test_creating_asks_in_every_mode_that_may_act(
    tmp_path: Path, isolated_state: Path, mode: str, config: str,
) -> None:
    configure(isolated_state, config)
    rt = open_runtime()
    sid, events = await turn(rt, tmp_path, mode, [CREATE])
    assert events[-1].status == "suspended"  # waiting for the user
    assert not [e for e in events if e.type == "tool_started"]  # nothing ran
    assert AutomationStore(rt.db).all() == []
    [item] = rt.inbox.pending(sid)
    assert item.tool == "create_automation" and not item.can_always
    # The card: the schedule in words, the next run, where it runs.
    assert "every weekday at 09:00 (Europe/Paris)" in item.reason
    assert "next run 20" in item.reason and ("CET" in item.reason or "CEST" in item.reason)
    assert "“Standup”" in item.reason and str(tmp_path) in item.reason
    assert "always needs your approval" in item.reason
    asked = [e for e in events if e.type == "permission_required"]
    assert asked and asked[0].reason == item.reason
    rt.inbox.resolve(item.id, "once", by="cli")  # the user says yes: then it is created
    manager = rt.session_manager(approver_for=lambda _i: InboxApprover(rt.inbox, wait=False))
    async for _ in manager.resume(sid):
        pass
    [auto] = AutomationStore(rt.db).all()
    assert auto.described == "Every weekday at 09:00 (Europe/Paris)"
    rt.close()


@pytest.mark.parametrize("mode", ["discuss", "plan"])
async def test_read_only_modes_refuse_it(tmp_path: Path, mode: str) -> None:
    rt = open_runtime()
    sid, events = await turn(rt, tmp_path, mode, [CREATE])
    assert events[-1].status == "completed"
    [done] = [e for e in events if e.type == "tool_finished"]
    assert done.status == "denied" and f"{mode} mode is read-only" in done.result
    assert rt.inbox.pending(sid) == []
    assert AutomationStore(rt.db).all() == []
    rt.close()


async def test_changing_turning_on_and_deleting_ask_in_auto_mode(tmp_path: Path) -> None:
    rt = open_runtime()
    store = AutomationStore(rt.db)
    auto = store.create(name="Brief", prompt="p", tz="UTC", cron="0 8 * * *",
                        model="scripted:x", workspace=str(tmp_path), enabled=False)
    sid, events = await turn(rt, tmp_path, "auto", [
        {"name": "update_automation", "arguments": {"id": auto.id, "enabled": True}},
    ])
    assert events[-1].status == "suspended"
    [item] = rt.inbox.pending(sid)
    assert "“Brief” (now: every day at 08:00 (UTC), off)" in item.reason
    assert "Turns it on" in item.reason and "Next run: 20" in item.reason
    assert store.get(auto.id).enabled is False

    sid, events = await turn(rt, tmp_path, "auto", [
        {"name": "update_automation", "arguments": {"id": auto.id, "cron": "30 7 * * 1",
                                                    "timezone": "Asia/Tokyo"}},
    ])
    [item] = rt.inbox.pending(sid)
    assert "New schedule: every Monday at 07:30 (Asia/Tokyo); next run 20" in item.reason
    assert store.get(auto.id).schedule.cron == "0 8 * * *"

    sid, events = await turn(rt, tmp_path, "auto", [
        {"name": "delete_automation", "arguments": {"id": auto.id}},
    ])
    [item] = rt.inbox.pending(sid)
    assert "Deletes the scheduled task “Brief” (every day at 08:00 (UTC))" in item.reason
    assert store.get(auto.id) is not None
    rt.close()


async def test_a_schedule_that_cannot_be_used_says_so_on_the_card(tmp_path: Path) -> None:
    rt = open_runtime()
    sid, _ = await turn(rt, tmp_path, "auto", [{"name": "create_automation", "arguments": {
        "name": "Broken", "prompt": "x", "cron": "0 99 * * *", "timezone": "UTC"}}])
    [item] = rt.inbox.pending(sid)
    assert "cannot be used" in item.reason and "the hour field '99'" in item.reason
    rt.close()
