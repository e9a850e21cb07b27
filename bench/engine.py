"""Engine overhead benchmark: prints figures, asserts nothing.

* events/second while a 2,000-delta reply streams through the engine
  (scripted provider with zero delay, in-memory and SQLite history);
* per-iteration engine overhead for 10 iterations × 5 concurrent no-op read
  tools (median of several runs), with in-memory and SQLite history;
* peak RSS of the process.

Run: ``.venv/bin/python bench/engine.py``
"""

from __future__ import annotations

import asyncio
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openworker_qt.core.approvals import ApprovalOutcome, Decision, ToolCallInfo  # noqa: E402
from openworker_qt.core.engine import HistoryStore, MemoryHistory, TurnEngine  # noqa: E402
from openworker_qt.core.provider_api import ModelProvider  # noqa: E402
from openworker_qt.core.risk import RiskClass  # noqa: E402
from openworker_qt.core.tool_api import Tool, ToolContext, ToolRegistry  # noqa: E402
from openworker_qt.providers.scripted import ScriptedProvider  # noqa: E402
from openworker_qt.storage.conversations import ConversationStore  # noqa: E402
from openworker_qt.storage.db import Database  # noqa: E402

RUNS = 7


class Resolver:
    def __init__(self, provider: ModelProvider) -> None:
        self.provider = provider

    def resolve(self, model: str) -> tuple[ModelProvider, str]:
        return self.provider, model


class Allow:
    def evaluate(self, call: ToolCallInfo) -> Decision:
        return Decision(allowed=True)

    def remember(self, call: ToolCallInfo, outcome: ApprovalOutcome) -> None:
        return None


async def noop(args: dict[str, Any], ctx: ToolContext) -> str:
    return "ok"


TOOLS = ToolRegistry(
    [
        Tool(name=f"noop{i}", description="no-op", parameters={"type": "object"}, handler=noop,
             risk=RiskClass.READ, concurrency_safe=True)
        for i in range(5)
    ]
)


def make_store(kind: str, tmp: Path, sid: str) -> HistoryStore:
    if kind == "memory":
        return MemoryHistory()
    store = ConversationStore(Database(tmp / f"{sid}.sqlite3"))
    store.create_session(session_id=sid)
    return store


async def stream_run(kind: str, tmp: Path, n: int) -> tuple[float, int]:
    provider = ScriptedProvider([{"chunks": ["tok "] * 2000}])
    engine = TurnEngine(session_id=f"s{n}", store=make_store(kind, tmp, f"s{n}"),
                        resolver=Resolver(provider), model="m", tools=ToolRegistry())
    count = 0
    t0 = time.perf_counter()
    async for _ in engine.run("go"):
        count += 1
    return time.perf_counter() - t0, count


async def scripted_baseline() -> float:
    """Time to drain the same 2,000-chunk script without the engine (provider cost)."""
    from openworker_qt.core.provider_api import ModelRequest

    provider = ScriptedProvider([{"chunks": ["tok "] * 2000}])
    t0 = time.perf_counter()
    async for _ in provider.stream(ModelRequest(model="m", messages=[])):
        pass
    return time.perf_counter() - t0


async def iteration_run(kind: str, tmp: Path, n: int) -> float:
    calls = [{"name": f"noop{i}", "arguments": {}} for i in range(5)]
    turns = [{"tool_calls": calls} for _ in range(10)] + [{"text": "done"}]
    provider = ScriptedProvider(turns)
    engine = TurnEngine(session_id=f"i{n}", store=make_store(kind, tmp, f"i{n}"),
                        resolver=Resolver(provider), model="m", tools=TOOLS, decider=Allow(),
                        max_iterations=20)
    t0 = time.perf_counter()
    async for _ in engine.run("go"):
        pass
    return (time.perf_counter() - t0) / 11


async def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        base = statistics.median([await scripted_baseline() for _ in range(RUNS)])
        print(f"scripted provider alone: 2,000 chunks drained in {base * 1000:.1f} ms")
        for kind in ("memory", "sqlite"):
            results = [await stream_run(kind, tmp, i) for i in range(RUNS)]
            secs = statistics.median(r[0] for r in results)
            events = results[0][1]
            print(f"[{kind:6}] streamed reply: {events} events in {secs * 1000:.1f} ms "
                  f"→ {events / secs:,.0f} events/s (median of {RUNS})")
        for kind in ("memory", "sqlite"):
            per = statistics.median([await iteration_run(kind, tmp, i) for i in range(RUNS)])
            print(f"[{kind:6}] per-iteration overhead, 5 concurrent no-op reads: "
                  f"{per * 1000:.3f} ms (median of {RUNS}, 10 tool iterations + 1 reply)")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak RSS: {rss / 1024:.1f} MiB")


if __name__ == "__main__":
    asyncio.run(main())
