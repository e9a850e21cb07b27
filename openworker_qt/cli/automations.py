"""``openworker-qt automations list|show|add|edit|run|pause|resume|forget|rm``."""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from openworker_qt.cli.turns import EXIT, cli_runtime, print_pending

# The automations' store and schedules load with an automations command (the parser
# is built for every command: tests/test_startup_modules.py).
if TYPE_CHECKING:
    from openworker_qt.automation.store import Automation, AutomationStore
    from openworker_qt.core.standing_rules import StandingRule

#: The tools whose task rules are exact shell commands.
SHELL_TOOLS = frozenset({"run_shell"})

__all__ = ["add_parser", "main"]


def add_parser(sub: Any) -> None:
    p = sub.add_parser("automations", help="scheduled tasks the app runs on its own")
    cmds = p.add_subparsers(dest="auto_command", metavar="ACTION", required=True)
    cmds.add_parser("list", help="list automations, their schedule and next run")
    show = cmds.add_parser("show", help="one automation: its schedule, what its runs may do "
                           "without asking, and its recent runs")
    show.add_argument("automation", help="id, id prefix or name")

    def schedule_args(cmd: argparse.ArgumentParser) -> None:
        cmd.add_argument("--cron", help="5-field cron, e.g. '0 8 * * 1-5' (weekdays at 08:00)")
        cmd.add_argument("--at", help="one-off: an ISO date-time, e.g. 2026-12-01T08:00")
        cmd.add_argument("--tz", help="IANA time zone, e.g. Europe/Paris (default: this computer's)")
        cmd.add_argument("--model", "-m", help="model for its runs (default: general.default_model)")
        cmd.add_argument("--workspace", "-w", type=Path, help="folder its runs work in")
        cmd.add_argument("--missed", choices=["run_once", "skip"],
                         help="runs missed while the app was off: run once at start, or skip")
        cmd.add_argument("--battery-floor", type=int, metavar="PERCENT",
                         help="on battery below PERCENT %%, a due run waits for power "
                         "(0: never waits)")

    add = cmds.add_parser("add", help="create an automation")
    add.add_argument("name")
    add.add_argument("--prompt", "-p", required=True, help="the instructions for each run")
    schedule_args(add)
    add.add_argument("--allow", action="append", default=[], metavar="'TOOL TARGET'",
                     help="let its runs use an external tool on this exact target without "
                     "asking (e.g. 'send_message slack:C0123'); repeatable")

    edit = cmds.add_parser("edit", help="change an automation")
    edit.add_argument("automation", help="id, id prefix or name")
    edit.add_argument("--name")
    edit.add_argument("--prompt", "-p")
    schedule_args(edit)

    run = cmds.add_parser("run", help="run an automation now")
    run.add_argument("automation", help="id, id prefix or name")
    for name, text in (("pause", "pause one automation, or all of them"),
                       ("resume", "resume one automation, or all of them")):
        cmd = cmds.add_parser(name, help=text)
        cmd.add_argument("automation", nargs="?", help="id, id prefix or name (default: all)")
    forget = cmds.add_parser("forget", help="remove something an automation's runs may do "
                             "without asking (they ask again)")
    forget.add_argument("automation", help="id, id prefix or name")
    forget.add_argument("rule", type=int, help="the rule's number, as `automations show` lists it")
    rm = cmds.add_parser("rm", help="delete an automation")
    rm.add_argument("automation", help="id, id prefix or name")
    event = cmds.add_parser("event", help="fire an event: wake the sessions waiting on it")
    event.add_argument("name")


def local_zone() -> str:
    key = getattr(dt.datetime.now().astimezone().tzinfo, "key", None)
    if key:
        return str(key)
    try:
        link = Path("/etc/localtime").resolve()
        parts = link.parts
        if "zoneinfo" in parts:
            return "/".join(parts[parts.index("zoneinfo") + 1:])
    except OSError:
        pass
    return "UTC"


def when(ts: float | None) -> str:
    """An instant in this computer's local time."""
    if ts is None:
        return "—"
    return f"{dt.datetime.fromtimestamp(ts).astimezone():%a %d %b %Y %H:%M %Z}"


def _instant(text: str, tz: str) -> float:
    from zoneinfo import ZoneInfo

    from openworker_qt.automation.schedule import ScheduleError

    try:
        value = dt.datetime.fromisoformat(text)
    except ValueError:
        raise ScheduleError(f"cannot read --at {text!r}; use e.g. 2026-12-01T08:00") from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=ZoneInfo(tz))
    return value.timestamp()


def _find(store: AutomationStore, key: str) -> Automation:
    from openworker_qt.automation.store import AutomationError

    found = store.find(key)
    if found is None:
        raise AutomationError(f"no automation matches {key!r} (see `openworker-qt automations list`)")
    return found


def main(args: argparse.Namespace) -> int:
    from openworker_qt.automation.schedule import ScheduleError
    from openworker_qt.automation.store import AutomationError, AutomationStore

    try:
        if args.auto_command == "run":
            return asyncio.run(_run(args))
        with cli_runtime() as rt:
            store = AutomationStore(rt.db, rules=rt.rules)
            return _command(args, store, prices=rt.config.get("prices"))
    except (AutomationError, ScheduleError) as exc:
        sys.stderr.write(f"openworker-qt: {exc}\n")
        return 2


def _command(args: argparse.Namespace, store: AutomationStore, *, prices: Any = None) -> int:
    cmd = args.auto_command
    if cmd == "list":
        return _list(store)
    if cmd == "show":
        return _show(store, _find(store, args.automation), prices)
    if cmd == "forget":
        auto = _find(store, args.automation)
        rule = store.forget_rule(auto.id, args.rule)
        print(f"Removed from “{auto.name}”: {rule_words(rule)}. Its runs will ask again.")
        return 0
    if cmd == "add":
        tz = args.tz or local_zone()
        auto = store.create(
            name=args.name, prompt=args.prompt, tz=tz, cron=args.cron,
            at=_instant(args.at, tz) if args.at else None, model=args.model or "",
            workspace=str((args.workspace or Path.cwd()).resolve()),
            missed=args.missed or "run_once", grants=args.allow,
            battery_floor=args.battery_floor or None,
        )
        print(f"Created {auto.id} “{auto.name}”: {auto.described}. Next run: {when(auto.next_run)}")
        return 0
    if cmd == "edit":
        auto = _find(store, args.automation)
        changes: dict[str, Any] = {}
        for key in ("name", "prompt", "cron", "model", "missed"):
            if getattr(args, key, None) is not None:
                changes[key] = getattr(args, key)
        if args.tz:
            changes["tz"] = args.tz
        if args.at:
            changes["at"] = _instant(args.at, args.tz or auto.schedule.tz)
        if args.workspace is not None:
            changes["workspace"] = str(args.workspace.resolve())
        if args.battery_floor is not None:
            changes["battery_floor"] = args.battery_floor or None
        if not changes:
            sys.stderr.write("openworker-qt: nothing to change (see --help)\n")
            return 2
        auto = store.update(auto.id, **changes)
        print(f"Updated {auto.id} “{auto.name}”: {auto.described}. Next run: {when(auto.next_run)}")
        return 0
    if cmd in ("pause", "resume"):
        on = cmd == "resume"
        if args.automation is None:
            store.set_paused(not on)
            print("All automations resumed." if on else
                  "All automations paused (Run now still works).")
            return 0
        auto = store.update(_find(store, args.automation).id, enabled=on)
        print(f"{'Resumed' if on else 'Paused'} “{auto.name}”."
              + (f" Next run: {when(auto.next_run)}" if on else ""))
        return 0
    if cmd == "event":
        from openworker_qt.automation.wakes import WakeStore

        count = WakeStore(store.db).fire_event(args.name)
        print(f"{count} waiting session(s) will wake at the next tick.")
        return 0
    if cmd == "rm":
        auto = _find(store, args.automation)
        store.delete(auto.id)
        print(f"Deleted “{auto.name}”.")
        return 0
    return 2


def _list(store: AutomationStore) -> int:
    autos = store.all()
    if store.paused:
        print("All automations are paused (`openworker-qt automations resume`).")
    if not autos:
        print("No automations yet. Add one with `openworker-qt automations add`.")
        return 0
    for a in autos:
        state = "" if a.enabled else "  [paused]"
        print(f"{a.id}  {a.name}{state}")
        print(f"    {a.described}")
        latest = store.runs(a.id, limit=1)  # (its words and note: "asleep until …")
        last = (latest[0].status_words + (f" ({latest[0].note})" if latest[0].note else "")
                if latest else "never ran")
        print(f"    next: {when(a.next_run) if a.enabled else '—'}"
              f"   last: {last}   runs: {a.run_count}"
              f"   by: {a.created_by}"
              + (f"   waits for power below {a.battery_floor}%" if a.battery_floor else ""))
        if a.last_error:
            print(f"    problem: {a.last_error}")
    return 0


def rule_words(rule: StandingRule) -> str:
    """A task's rule in words: the exact shell command, or the tool and its target."""
    if rule.tool in SHELL_TOOLS:
        return f"run the command `{rule.target}`"
    return f"{rule.tool} on {rule.target}"


def run_usage(store: AutomationStore, session_id: str | None, prices: Any = None) -> str:
    """A run's tokens and estimated cost (its session's totals, sub-agents included),
    or "" when it used none."""
    from openworker_qt.domain.usage import Usage
    from openworker_qt.providers.pricing import PriceTable, describe
    from openworker_qt.storage.usage import session_usage

    rows = session_usage(store.db, session_id) if session_id else []
    total = Usage.total(r.usage for r in rows)
    if not total:
        return ""
    table = PriceTable.from_config(prices)[0]
    costs = [table.cost(r.model, r.usage) for r in rows]
    cost = None if any(c is None for c in costs) else sum(c for c in costs if c is not None)
    return describe(total, cost)


def _show(store: AutomationStore, auto: Automation, prices: Any = None) -> int:
    state = "" if auto.enabled else "  [paused]"
    print(f"{auto.id}  {auto.name}{state}")
    print(f"    {auto.described}")
    print(f"    next: {when(auto.next_run) if auto.enabled else '—'}   runs: {auto.run_count}"
          f"   by: {auto.created_by}")
    rules = store.allowed(auto.id)
    print("Allowed without asking:" if rules else "Allowed without asking: nothing")
    for rule in rules:
        bound = []
        if rule.uses_left is not None:
            bound.append("1 use left" if rule.uses_left == 1 else f"{rule.uses_left} uses left")
        if rule.expires_at is not None:
            bound.append(f"until {when(rule.expires_at)}")
        extra = f" ({', '.join(bound)})" if bound else ""
        print(f"    #{rule.id}  {rule_words(rule)}{extra}")
    if rules:
        print(f"    (remove one with `openworker-qt automations forget {auto.id} NUMBER`)")
    runs = store.runs(auto.id, limit=10)
    print("Recent runs:" if runs else "Recent runs: none yet")
    for run in runs:
        note = f" — {run.note}" if run.note else ""
        used = run_usage(store, run.session_id, prices)
        print(f"    run {run.id}  {when(run.started_at)}  {run.trigger:<8} {run.status_words}{note}"
              + (f"\n        {used}" if used else ""))
    return 0


async def _run(args: argparse.Namespace) -> int:
    """Run now, in this process: until the run finishes, or parks on the inbox
    (then exit 4; the app or `serve` continues it once answered)."""
    from openworker_qt.automation.service import AutomationService
    from openworker_qt.automation.store import ACTIVE

    with cli_runtime() as rt:
        service = AutomationService(rt)
        auto = _find(service.store, args.automation)
        task = service.run_now(auto.id)
        run_id = max(r.id for r in service.store.runs(auto.id, limit=1))
        sys.stderr.write(f"[running “{auto.name}” · run {run_id}]\n")
        while not task.done():
            run = service.store.run(run_id)
            if run is not None and run.status == "waiting":
                task.cancel()  # its asks stay in the inbox; the turn resumes later
                break
            await asyncio.sleep(0.05)
        await asyncio.gather(task, return_exceptions=True)
        await rt.stop()
        run = service.store.run(run_id)
        assert run is not None
        sys.stderr.write(f"[run {run.id} · {run.status_words} · session {run.session_id}]\n")
        if run.note:
            sys.stderr.write(f"  {run.note}\n")
        if run.status in ACTIVE:
            print_pending(rt.inbox.pending(run.session_id), sys.stderr)
            return EXIT["suspended"]
        return 0 if run.status == "completed" else 1
