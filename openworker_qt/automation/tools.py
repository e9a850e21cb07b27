"""The agent's automation and self-wake tools.

* ``create_automation`` / ``update_automation`` / ``delete_automation`` — EXTERNAL
  and ``always_ask``: every call asks, in every mode (auto and ``auto_allow``
  included; discuss and plan refuse it), with no "always": a task that runs later
  on its own is the user's decision. The card says what the call does in words:
  the schedule ("Every weekday at 09:00 (Europe/Paris)"), the next run, and for a
  change what changes (turned on, a new schedule, new instructions). An agent
  gives no permissions to what it creates (grants are the user's, in the app or
  the CLI). A scheduled run is refused these tools (they are also left out of its
  tool list): a run cannot schedule.
* ``list_automations`` — READ.
* ``sleep_for`` / ``sleep_until`` / ``wake_on`` / ``wake_on_event`` — the session
  suspends itself: the tool records a wake (in the database, so it survives a
  restart) and the model ends its turn; the scheduler's tick resumes the session
  with a message saying what woke it. ``wake_on`` watches one of the session's
  background shell tasks (``run_shell`` with ``background``).

The tools reach the database through the session's control object
(``ctx.state["session"]``), so they need nothing from the runtime. No Qt here.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Mapping
from typing import Any
from zoneinfo import ZoneInfo

from openworker_qt.automation.schedule import ScheduleError, describe, next_fire, zone
from openworker_qt.automation.store import (
    AutomationError,
    AutomationStore,
    make_schedule,
)
from openworker_qt.automation.wakes import WakeStore
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult
from openworker_qt.storage.db import Database

__all__ = ["SCHEDULING_TOOLS", "automation_tools", "is_run", "wake_tools"]

_STORES: dict[int, tuple[Database, AutomationStore, WakeStore]] = {}
#: Where tools/shell.py keeps a session's shell and background tasks (its STATE_KEY;
#: a sibling plug-in, so not imported).
SHELL_STATE = "shell"
MAX_SLEEP = 30 * 24 * 3600.0
RUN_REFUSAL = ("Error: this is a scheduled run; a run cannot create or change scheduled "
               "tasks. Mention it in your reply instead.")


def _stores(ctx: ToolContext) -> tuple[AutomationStore, WakeStore] | None:
    control = ctx.state.get("session")
    db = getattr(getattr(control, "store", None), "db", None)
    if not isinstance(db, Database):
        return None
    hit = _STORES.get(id(db))
    if hit is None or hit[0] is not db:
        hit = (db, AutomationStore(db), WakeStore(db))
        _STORES[id(db)] = hit
    return hit[1], hit[2]


#: Tools a scheduled run never gets: a run cannot schedule (or change) automations.
SCHEDULING_TOOLS = frozenset({"create_automation", "update_automation", "delete_automation"})


def is_run(meta: object) -> bool:
    """Whether a session's ``meta`` makes it a scheduled task's run."""
    return isinstance(meta, dict) and bool(meta.get("automation_run"))


def _in_a_run(ctx: ToolContext) -> bool:
    control = ctx.state.get("session")
    conversations = getattr(control, "store", None)
    if conversations is None:
        return False
    info = conversations.session_settings(ctx.session_id)
    return bool(info is not None and isinstance(info.meta, dict)
                and info.meta.get("automation_run"))


def _error(text: str) -> ToolResult:
    return ToolResult(f"Error: {text}", is_error=True)


def _instant(text: str, tz: str) -> float:
    """An ISO date-time (in ``tz`` when it names no offset) as epoch seconds."""
    try:
        when = dt.datetime.fromisoformat(str(text).strip())
    except ValueError:
        raise ScheduleError(
            f"cannot read the time {text!r}; use ISO 8601, e.g. 2026-12-01T08:00") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=zone(tz))
    return when.timestamp()


def _local_zone() -> str:
    key = getattr(dt.datetime.now().astimezone().tzinfo, "key", None)
    return str(key) if key else "UTC"


def _words(described: str) -> str:
    """A schedule in words, in the middle of a sentence ("every weekday at 09:00 …")."""
    return described[:1].lower() + described[1:]


def _planned(tz: str, cron: Any, at: Any, current_at: float | None = None) -> str:
    """A schedule in words with its next run ("every weekday at 09:00 (Europe/Paris);
    next run 2026-12-07 09:00 CET"), or why it cannot be used. ``at``: an ISO time
    from the model; ``current_at``: the instant of a one-off kept as it is."""
    now = time.time()
    try:
        when = _instant(at, tz) if at else current_at
        schedule = make_schedule(cron=str(cron) if cron else None, at=when, tz=tz, now=now)
    except ScheduleError as exc:
        return f"a schedule that cannot be used ({exc}), so the call will fail"
    return f"{_words(describe(schedule))}; next run {_when(next_fire(schedule, now), tz)}"


def explain_create(args: Mapping[str, Any], ctx: ToolContext) -> str:
    """The card of a ``create_automation`` call: name, schedule in words, next run, folder."""
    name = str(args.get("name") or "").strip() or "(no name)"
    tz = str(args.get("timezone") or _local_zone())
    planned = _planned(tz, args.get("cron"), args.get("at"))
    return (f"Creates the scheduled task “{name}”, which runs on its own, without you: "
            f"{planned}. Folder: {ctx.workspace}")


def explain_update(args: Mapping[str, Any], ctx: ToolContext) -> str:
    """The card of an ``update_automation`` call: the task as it is, then what changes."""
    stores = _stores(ctx)
    current = stores[0].get(str(args.get("id") or "")) if stores is not None else None
    if current is None:
        return f"Changes the scheduled task {args.get('id')!r}, which does not exist (the call will fail)"
    state = "on" if current.enabled else "off"
    out = [f"Changes the scheduled task “{current.name}” (now: {_words(current.described)}, {state})"]
    if "name" in args and args.get("name") != current.name:
        out.append(f"New name: “{args.get('name')}”")
    enabling = args.get("enabled") is True and not current.enabled
    if args.get("enabled") is False and current.enabled:
        out.append("Turns it off: it stops running")
    elif enabling:
        out.append("Turns it on: it runs on its own again, without you")
    if any(args.get(k) for k in ("cron", "at", "timezone")):
        tz = str(args.get("timezone") or current.schedule.tz)
        cron, at = args.get("cron"), args.get("at")
        kept = None
        if not cron and not at:  # a new zone for the schedule it has
            cron, kept = current.schedule.cron or None, current.schedule.at
        out.append(f"New schedule: {_planned(tz, cron, at, kept)}")
    elif enabling or current.next_run is not None:
        nxt = current.next_run if not enabling else next_fire(current.schedule, time.time())
        out.append(f"Next run: {_when(nxt, current.schedule.tz)}")
    if "prompt" in args:
        out.append("New instructions (below)")
    if "model" in args:
        out.append(f"Model: {args.get('model') or 'the app’s default'}")
    return ". ".join(out)


def explain_delete(args: Mapping[str, Any], ctx: ToolContext) -> str:
    """The card of a ``delete_automation`` call: which task stops for good."""
    stores = _stores(ctx)
    current = stores[0].get(str(args.get("id") or "")) if stores is not None else None
    if current is None:
        return f"Deletes the scheduled task {args.get('id')!r}, which does not exist (the call will fail)"
    return (f"Deletes the scheduled task “{current.name}” ({_words(current.described)}): "
            "it will not run again")


def automation_tools() -> list[Tool]:
    async def create(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        if _in_a_run(ctx):
            return ToolResult(RUN_REFUSAL, is_error=True)
        stores = _stores(ctx)
        if stores is None:
            return _error("automations are not available in this session")
        store = stores[0]
        tz = str(args.get("timezone") or _local_zone())
        try:
            at = _instant(args["at"], tz) if args.get("at") else None
            auto = store.create(
                name=str(args.get("name") or ""), prompt=str(args.get("prompt") or ""),
                cron=str(args["cron"]) if args.get("cron") else None, at=at, tz=tz,
                model=str(args.get("model") or ""), workspace=str(ctx.workspace),
                missed=str(args.get("missed") or "run_once"),  # type: ignore[arg-type]
                created_by="agent", origin_session=ctx.session_id,
            )
        except (AutomationError, ScheduleError) as exc:
            return _error(str(exc))
        return ToolResult(f"Created the automation “{auto.name}” (id {auto.id}): "
                          f"{auto.described}; next run {_when(auto.next_run, tz)}.")

    async def update(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        if _in_a_run(ctx):
            return ToolResult(RUN_REFUSAL, is_error=True)
        stores = _stores(ctx)
        if stores is None:
            return _error("automations are not available in this session")
        store = stores[0]
        changes: dict[str, Any] = {k: args[k] for k in ("name", "prompt", "cron", "model",
                                                          "enabled", "missed") if k in args}
        current = store.get(str(args.get("id") or ""))
        if current is None:
            return _error(f"no automation {args.get('id')!r} (it may have been deleted)")
        tz = str(args.get("timezone") or current.schedule.tz)
        if "timezone" in args:
            changes["tz"] = tz
        try:
            if args.get("at"):
                changes["at"] = _instant(args["at"], tz)
            auto = store.update(current.id, **changes)
        except (AutomationError, ScheduleError) as exc:
            return _error(str(exc))
        state = "enabled" if auto.enabled else "disabled"
        return ToolResult(f"Updated “{auto.name}”: {auto.described}, {state}; "
                          f"next run {_when(auto.next_run, auto.schedule.tz)}.")

    async def delete(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        if _in_a_run(ctx):
            return ToolResult(RUN_REFUSAL, is_error=True)
        stores = _stores(ctx)
        if stores is None:
            return _error("automations are not available in this session")
        if not stores[0].delete(str(args.get("id") or "")):
            return _error(f"no automation {args.get('id')!r}")
        return ToolResult(f"Deleted the automation {args.get('id')}.")

    async def list_all(_args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        stores = _stores(ctx)
        if stores is None:
            return _error("automations are not available in this session")
        rows = stores[0].all()
        if not rows:
            return ToolResult("No automations yet.")
        return ToolResult("\n".join(
            f"- {a.id} “{a.name}”: {a.described}; {'enabled' if a.enabled else 'disabled'}; "
            f"next run {_when(a.next_run, a.schedule.tz)}; last {a.last_status or 'never ran'}"
            for a in rows))

    schedule_props = {
        "cron": {"type": "string", "description":
                 "5-field cron (minute hour day-of-month month day-of-week), e.g. '0 8 * * 1-5'."},
        "at": {"type": "string", "description": "One-off: an ISO date-time, e.g. 2026-12-01T08:00."},
        "timezone": {"type": "string", "description": "IANA zone, e.g. Europe/Paris (default: "
                     "the computer's)."},
        "model": {"type": "string", "description": "Model for the runs (default: the app's)."},
        "missed": {"type": "string", "enum": ["run_once", "skip"], "description":
                   "Runs missed while the app was off: run once at start, or skip."},
    }
    return [
        Tool(
            name="create_automation",
            description="Schedule a task the app runs on its own (cron or one-off). The user "
            "is asked to approve. Each run is a new session that starts from the prompt.",
            parameters={"type": "object", "properties": {
                "name": {"type": "string"},
                "prompt": {"type": "string", "description": "The complete instructions for a run."},
                **schedule_props}, "required": ["name", "prompt"]},
            handler=create, risk=RiskClass.EXTERNAL, always_ask=True, explain=explain_create,
        ),
        Tool(
            name="update_automation",
            description="Change a scheduled task (name, prompt, schedule, model, enabled). "
            "The user is asked to approve.",
            parameters={"type": "object", "properties": {
                "id": {"type": "string"}, "name": {"type": "string"},
                "prompt": {"type": "string"}, "enabled": {"type": "boolean"},
                **schedule_props}, "required": ["id"]},
            handler=update, risk=RiskClass.EXTERNAL, always_ask=True, explain=explain_update,
        ),
        Tool(
            name="delete_automation",
            description="Delete a scheduled task. The user is asked to approve.",
            parameters={"type": "object", "properties": {"id": {"type": "string"}},
                        "required": ["id"]},
            handler=delete, risk=RiskClass.EXTERNAL, always_ask=True, explain=explain_delete,
        ),
        Tool(
            name="list_automations",
            description="List the scheduled tasks with their schedule and next run.",
            parameters={"type": "object", "properties": {}},
            handler=list_all, risk=RiskClass.READ, concurrency_safe=True,
        ),
    ]


def _when(ts: float | None, tz: str) -> str:
    if ts is None:
        return "none"
    try:
        where = ZoneInfo(tz)
    except Exception:
        where = None
    return f"{dt.datetime.fromtimestamp(ts, where):%Y-%m-%d %H:%M %Z}"


SUSPEND = " End your turn now; you will be woken with a message saying why."


def wake_tools(clock: Any = time.time) -> list[Tool]:
    async def sleep_for(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        stores = _stores(ctx)
        if stores is None:
            return _error("self-wake is not available in this session")
        try:
            seconds = float(args.get("seconds"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return _error("seconds must be a number")
        if not 1 <= seconds <= MAX_SLEEP:
            return _error("seconds must be from 1 to 2592000 (30 days)")
        wake = stores[1].add(ctx.session_id, "timer", fire_at=clock() + seconds,
                             note=str(args.get("note") or ""))
        return ToolResult(f"Sleeping for {seconds:g} s (wake #{wake.id})." + SUSPEND)

    async def sleep_until(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        stores = _stores(ctx)
        if stores is None:
            return _error("self-wake is not available in this session")
        try:
            at = _instant(str(args.get("time") or ""), str(args.get("timezone") or _local_zone()))
        except ScheduleError as exc:
            return _error(str(exc))
        if at <= clock():
            return _error("that time is in the past; pick a time still to come")
        wake = stores[1].add(ctx.session_id, "timer", fire_at=at, note=str(args.get("note") or ""))
        return ToolResult(f"Sleeping until {args.get('time')} (wake #{wake.id})." + SUSPEND)

    async def wake_on(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        stores = _stores(ctx)
        if stores is None:
            return _error("self-wake is not available in this session")
        job_id = str(args.get("task_id") or "")
        shell = ctx.state.get(SHELL_STATE)
        task = getattr(shell, "tasks", {}).get(job_id) if shell is not None else None
        if task is None:
            return _error(f"no background task {job_id!r} in this session (start one with "
                          "run_shell and background: true)")
        wakes = stores[1]
        wake = wakes.add(ctx.session_id, "job", job_id=job_id, note=str(args.get("note") or ""))
        session_id = ctx.session_id

        def finished(_fut: object) -> None:
            try:
                wakes.complete_job(session_id, job_id)
            except Exception:  # the restart check marks it due instead
                pass

        if task.reader is None or task.reader.done():
            finished(None)
        else:
            task.reader.add_done_callback(finished)
        return ToolResult(f"Waiting for {job_id} to finish (wake #{wake.id})." + SUSPEND)

    async def wake_on_event(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        stores = _stores(ctx)
        if stores is None:
            return _error("self-wake is not available in this session")
        key = str(args.get("event") or "").strip()
        if not key:
            return _error("name the event to wait for")
        wake = stores[1].add(ctx.session_id, "event", event_key=key,
                             note=str(args.get("note") or ""))
        return ToolResult(f"Waiting for the event “{key}” (wake #{wake.id})." + SUSPEND)

    note = {"note": {"type": "string", "description": "What to do when woken (for yourself)."}}
    return [
        Tool(name="sleep_for", description="Pause this session and resume it after a delay.",
             parameters={"type": "object", "properties": {
                 "seconds": {"type": "number"}, **note}, "required": ["seconds"]},
             handler=sleep_for, risk=RiskClass.READ),
        Tool(name="sleep_until", description="Pause this session until a date and time.",
             parameters={"type": "object", "properties": {
                 "time": {"type": "string", "description": "ISO date-time, e.g. 2026-12-01T08:00"},
                 "timezone": {"type": "string"}, **note}, "required": ["time"]},
             handler=sleep_until, risk=RiskClass.READ),
        Tool(name="wake_on", description="Pause this session until one of its background "
             "shell tasks finishes.",
             parameters={"type": "object", "properties": {
                 "task_id": {"type": "string", "description": "The id run_shell returned."},
                 **note}, "required": ["task_id"]},
             handler=wake_on, risk=RiskClass.READ),
        Tool(name="wake_on_event", description="Pause this session until an event is fired "
             "(by a connector, another task or `openworker-qt automations event NAME`).",
             parameters={"type": "object", "properties": {
                 "event": {"type": "string"}, **note}, "required": ["event"]},
             handler=wake_on_event, risk=RiskClass.READ),
    ]
