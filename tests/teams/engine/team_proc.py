"""A process running a scripted team, for the kill tests (tests/teams/engine/test_kill.py).

``python -m tests.teams.engine.team_proc start WORKSPACE`` starts a team and runs it
until it ends; ``… resume`` goes on with the active teams. The script of the scripted
team is the JSON file ``OPENWORKER_TEAMTEST`` names. A pending plan is approved as soon
as it appears (the user, answering at once). Prints ``team <id>`` once started.
``OPENWORKER_TEAMTEST_KILL=sent_back`` (for a targeted trial): the process kills itself
the moment the lead sends an item back (its board call's result never written);
``OPENWORKER_TEAMTEST_SLOW_LEAD=<seconds>``: each turn of a lead starts that much later
(as if reading its workspace were slow), so its workers get ahead of it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from openworker_qt.core.inbox import InboxItem
from openworker_qt.core.sessions import SessionManager
from openworker_qt.runtime import open_runtime, setup_logging
from openworker_qt.storage.conversations import SessionInfo
from openworker_qt.teams.model import BoardEvent
from tests.teams.engine.provider import register


def slow_lead(manager: SessionManager, seconds: float) -> None:
    before = manager.prepare
    if seconds <= 0:
        return

    async def prepare(info: SessionInfo) -> None:
        if info.meta.get("team_role") == "lead":
            await asyncio.sleep(seconds)  # (the delay injected, not a wait for something)
        if before is not None:
            await before(info)

    manager.prepare = prepare


async def main(command: str, workspace: str) -> int:
    rt = open_runtime(Path(workspace))
    setup_logging(rt.paths)
    register(rt.router)
    runner = rt.team_runner()

    def approve(item: InboxItem) -> None:
        if item.pending and item.kind == "plan" and item.tool == "team_plan":
            asyncio.get_running_loop().call_soon(lambda: rt.inbox.respond(item.id, "approve"))

    rt.inbox.listeners.append(approve)
    slow_lead(runner.manager, float(os.environ.get("OPENWORKER_TEAMTEST_SLOW_LEAD") or 0))
    if os.environ.get("OPENWORKER_TEAMTEST_KILL") == "sent_back" and command == "start":
        def kill(event: BoardEvent) -> None:
            if (event.kind == "item_transitioned" and event.actor == "lead"
                    and event.data.get("to") == "in_progress"):
                os.kill(os.getpid(), signal.SIGKILL)

        rt.teams.listeners.append(kill)
    if command == "start":
        team = runner.start("The weekly report", persona="cowork", workspace=workspace,
                            model="teamtest:lead")
        ids = [team.id]
        print(f"team {team.id}", flush=True)
    else:
        ids = runner.resume()
    for item in rt.inbox.pending(kind="plan"):
        approve(item)
    for team_id in ids:
        await runner.wait(team_id)
    await runner.close()
    await rt.stop(grace=0.5)
    rt.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))
