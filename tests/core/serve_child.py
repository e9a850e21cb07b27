"""Child process of ``test_runtime.py``: a headless, ``serve``-shaped host.

It does what a ``serve`` mode would: opens a :class:`Runtime` and the shared
log, registers its lifecycle services (one that fails to start, one whose stop
hangs), starts them, runs the scripted demo turn (``examples/hello.json``)
through ``runtime.session_manager()`` with the inbox as its only approver (the
write parks there), answers the approval as another surface would and resumes,
stops, and prints one JSON object describing what happened — including whether
any Qt module was ever imported. Run as ``python -m tests.core.serve_child WORKSPACE``
with ``OPENWORKER_HOME`` set.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.core.approvers import InboxApprover, InboxQuestioner
from openworker_qt.runtime import open_runtime, setup_logging

REPO = Path(__file__).resolve().parents[2]
journal: list[str] = []


class Service:
    def __init__(self, name: str, *, fail_start: bool = False, hang_stop: bool = False) -> None:
        self.name = name
        self.fail_start = fail_start
        self.hang_stop = hang_stop

    async def start(self) -> None:
        journal.append(f"start {self.name}")
        await asyncio.sleep(0)
        if self.fail_start:
            raise ConnectionError(f"{self.name} cannot reach its server")

    async def stop(self) -> None:
        journal.append(f"stop {self.name}")
        if self.hang_stop:
            await asyncio.Event().wait()


async def serve(workspace: Path) -> dict[str, Any]:
    runtime = open_runtime(workspace)
    setup_logging(runtime.paths)
    for service in (Service("scheduler"), Service("mcp", fail_start=True),
                    Service("slack", hang_stop=True), Service("mail")):
        runtime.add_service(service)
    failures = await runtime.start()
    manager = runtime.session_manager(
        approver_for=lambda _info: InboxApprover(runtime.inbox, wait=False),
        questioner_for=lambda _info: InboxQuestioner(runtime.inbox, wait=False),
        default_model=f"scripted:{REPO / 'examples' / 'hello.json'}",
    )
    info = manager.create_session(workspace=str(workspace))
    events = [e async for e in manager.run(info.id, "show me the engine")]
    parked = [item.tool for item in runtime.inbox.pending(info.id)]
    for item in runtime.inbox.pending(info.id):
        runtime.inbox.resolve(item.id, "once", by="slack")
    events += [e async for e in manager.resume(info.id)]
    stop_failures = await runtime.stop(service_timeout=0.2)
    runtime.close()
    return {
        "journal": journal,
        "start_failures": [[f.name, f.phase, f.message] for f in failures],
        "stop_failures": [[f.name, f.phase, f.message] for f in stop_failures],
        "running_after_stop": runtime.running_services,
        "event_types": [e.type for e in events],
        "statuses": [e.status for e in events if isinstance(e, ev.TurnEnded)],
        "parked": parked,
        "tools": [[e.name, e.status] for e in events if isinstance(e, ev.ToolFinished)],
        "written": (workspace / "openworker-hello.md").read_text(encoding="utf-8")
        if (workspace / "openworker-hello.md").exists() else None,
        "qt_modules": sorted(m for m in sys.modules if m.split(".")[0] in
                             ("PySide6", "shiboken6", "qasync")),
    }


if __name__ == "__main__":
    result = asyncio.run(serve(Path(sys.argv[1])))
    print(json.dumps(result))
