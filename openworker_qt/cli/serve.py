"""``openworker-qt serve``: automations, the inbox and the services, without a window.

For a server or a machine without a desktop (``installer/openworker-qt.service``
runs it as a systemd user unit, ``installer/com.openworker.qt.plist`` as a
launchd agent). It opens the runtime, adds the
:class:`~openworker_qt.automation.service.AutomationService` (the scheduler and
the runs), starts the services, resumes the turns a previous process left
parked on the inbox (so an answer given with ``openworker-qt approve`` is acted
on) and the teams a previous process left active (their team runner drives them),
and runs until SIGTERM or SIGINT, then stops cleanly and exits 0.

The window and ``serve`` may run at once on the same database: a due fire is
claimed by one of them only, and a session is driven by one process at a time
(the session lease).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from pathlib import Path

from openworker_qt.cli.automations import when
from openworker_qt.cli.turns import cli_runtime

__all__ = ["add_parser", "serve"]


def add_parser(sub: object) -> None:
    p = sub.add_parser(  # type: ignore[attr-defined]
        "serve", help="run automations, the inbox and connectors without a window (until SIGTERM)")
    p.add_argument("--no-keep-awake", action="store_true",
                   help="let the computer sleep while runs are going")
    p.add_argument("--tick", type=float, default=None, help=argparse.SUPPRESS)  # tests


async def serve(args: argparse.Namespace) -> int:
    from openworker_qt.automation.service import AutomationService

    with cli_runtime() as rt:
        keep_awake = None
        if not args.no_keep_awake:
            from openworker_qt.automation.keepawake import KeepAwake

            keep_awake = KeepAwake(why="OpenWorker is running a scheduled task")
        tick = args.tick
        service = AutomationService(rt, keep_awake=keep_awake, interval=tick,
                                    poll=min(tick, 5.0) if tick else None)
        rt.add_service(service)
        try:  # the configured MCP servers: their tools in the runs' sessions
            await asyncio.to_thread(rt.enable_mcp)
        except Exception as exc:  # a broken mcp.json must not keep the runs from going
            sys.stderr.write(f"warning: MCP servers not started: {exc}\n")
        try:  # the Slack listener when Slack is connected: mentions start sessions
            await asyncio.to_thread(rt.add_connector_services, service.manager,
                                    workspace=rt.workspace or Path.cwd())
        except Exception as exc:
            sys.stderr.write(f"warning: connectors not started: {exc}\n")
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):  # pragma: no cover - Windows
                signal.signal(sig, lambda *_a: loop.call_soon_threadsafe(stop.set))
        failures = await rt.start()
        for failure in failures:
            sys.stderr.write(f"warning: {failure.name} did not start: {failure.message}\n")
        # Teams first (their sessions are their runner's to drive), then the other
        # turns parked on the inbox.
        runner = rt.team_runner()
        teams = runner.resume()
        resumed = service.manager.recover()
        autos = service.store.all()
        nxt = service.store.next_due()
        sys.stderr.write(
            f"openworker-qt serve: {len(autos)} automation(s)"
            + (", all paused" if service.store.paused else "")
            + (f"; next run {when(nxt)}" if nxt else "")
            + (f"; resumed {len(resumed)} waiting turn(s)" if resumed else "")
            + (f"; resumed {len(teams)} team(s)" if teams else "")
            + ". Stop with Ctrl-C or SIGTERM.\n")
        sys.stderr.flush()
        service.listeners.append(_report)
        await stop.wait()
        sys.stderr.write("openworker-qt serve: stopping\n")
        await runner.close()
        await rt.stop()
        if keep_awake is not None:
            await asyncio.to_thread(keep_awake.close)
    return 0


def _report(run: object, auto: object) -> None:
    name = getattr(auto, "name", "?")
    status = getattr(run, "status_words", "")
    sys.stderr.write(f"[{name} · run {getattr(run, 'id', '?')} · {status}]\n")
    sys.stderr.flush()
