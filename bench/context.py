"""Prompt-side bookkeeping on a long session: prints figures, asserts nothing.

A 10,000-message session (user question, tool call, tool result, answer, over
and over) in a real SQLite database, 2,000 saved memories, a model window far
smaller than the session. Then N turns through the real engine (scripted
provider), timing per turn what is done for the prompt:

* ``memory``: :func:`openworker_qt.memory.render` of the saved facts (what the
  prompt assembler calls each time it builds a session's prompt);
* ``request``: the engine's outbound bookkeeping for each model call
  (``TurnEngine._build_request``: the cached outbound copies, the compaction note
  standing in for the covered messages, trimming when still needed).

The first turn is reported apart: it builds the outbound cache of all 10,000
messages and, with compaction on, makes the one summary call. Memory growth:
``tracemalloc`` current size and RSS after the warm-up turn and after the last.
Target (issue 11): ≤ 5 ms per turn, flat over the turns.

Run: ``.venv/bin/python bench/context.py [--turns 200] [--messages 10000] [--no-compaction]
[--trace] [--profile]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import rss_mib, temp_home


def history(n: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    i = 0
    while len(out) < n:
        out += [
            {"role": "user", "content": f"question {i}: " + "what about this? " * 8},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": f"c{i}", "type": "function",
                 "function": {"name": "read_file", "arguments": '{"path": "notes.md"}'}}]},
            {"role": "tool", "tool_call_id": f"c{i}", "name": "read_file",
             "content": "line of the file\n" * 40},
            {"role": "assistant", "content": f"answer {i}: " + "it is like that. " * 10},
        ]
        i += 1
    return out[:n]


async def main(args: argparse.Namespace) -> None:
    home = temp_home()
    from openworker_qt.core.context import SUMMARY_SYSTEM
    from openworker_qt.core.engine import TurnEngine
    from openworker_qt.core.messages import Capabilities
    from openworker_qt.core.tool_api import ToolRegistry
    from openworker_qt.memory import MemoryStore, render
    from openworker_qt.providers.scripted import ScriptedProvider
    from openworker_qt.storage.conversations import ConversationStore
    from openworker_qt.storage.db import Database
    from openworker_qt.tools.files import file_tools

    workspace = home / "ws"
    workspace.mkdir()
    db = Database(home / "bench.db")
    store = ConversationStore(db)
    sid = store.create_session(workspace=str(workspace)).id
    with db.batch():
        for msg in history(args.messages):
            store.append(sid, msg)  # type: ignore[arg-type]
    memory = MemoryStore(db)
    with db.batch():
        for i in range(args.facts):
            memory.add(f"fact {i}: the user prefers option {i % 7} " + "because of reasons " * 4,
                       scope="global" if i % 3 == 0 else "workspace", workspace=workspace,
                       session_id=sid, summary=f"prefers option {i % 7}")

    class Resolver:
        def __init__(self, provider: Any) -> None:
            self.provider = provider

        def resolve(self, model: str) -> tuple[Any, str]:
            return self.provider, model

    provider = ScriptedProvider(
        [{"text": "ok", "repeat": True}],
        caps=Capabilities(context_window=args.window),
        by_system={SUMMARY_SYSTEM[:40]: [{"text": "NOTES: " + "a point. " * 60}]},
    )
    engine = TurnEngine(session_id=sid, store=store, resolver=Resolver(provider),
                        model="bench", tools=ToolRegistry(file_tools()), workspace=workspace,
                        compaction=not args.no_compaction)
    timings: list[float] = []
    cpu_timings: list[float] = []
    real = engine._build_request
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()

    async def timed(model_id: str, caps: Capabilities) -> Any:
        c0 = time.process_time()
        t0 = time.perf_counter()
        try:
            if profiler is not None and started:
                profiler.enable()
            return await real(model_id, caps)
        finally:
            if profiler is not None:
                profiler.disable()
            timings.append(time.perf_counter() - t0)
            cpu_timings.append(time.process_time() - c0)

    started = False

    engine._build_request = timed  # type: ignore[method-assign]

    def one_turn_memory() -> float:
        t0 = time.perf_counter()
        block = render(memory, workspace)
        elapsed = time.perf_counter() - t0
        assert block
        return elapsed

    if args.trace:  # (tracing slows Python down: the timings are taken without it)
        tracemalloc.start()
    t0 = time.perf_counter()
    mem_first = one_turn_memory()
    async for _ in engine.run("first turn"):
        pass
    first = time.perf_counter() - t0
    first_requests = list(timings)
    timings.clear()
    cpu_timings.clear()
    started = True
    base_traced = tracemalloc.get_traced_memory()[0]
    base_rss = rss_mib()
    per_turn_memory: list[float] = []
    per_turn_request: list[float] = []
    per_turn_request_cpu: list[float] = []
    checkpoints: list[tuple[int, float, float]] = []
    for turn in range(1, args.turns + 1):
        timings.clear()
        cpu_timings.clear()
        per_turn_memory.append(one_turn_memory())
        async for _ in engine.run(f"turn {turn}"):
            pass
        per_turn_request.append(sum(timings))
        per_turn_request_cpu.append(sum(cpu_timings))
        if turn % max(args.turns // 5, 1) == 0:
            checkpoints.append((turn, tracemalloc.get_traced_memory()[0] / 2**20, rss_mib()))
    if args.trace:
        tracemalloc.stop()
    summaries = sum(1 for r in provider.requests if r.system.startswith(SUMMARY_SYSTEM))

    def ms(values: list[float]) -> str:
        s = sorted(values)
        return (f"median {statistics.median(s) * 1e3:.3f} ms · p95 "
                f"{s[int(len(s) * 0.95) - 1] * 1e3:.3f} ms · max {s[-1] * 1e3:.3f} ms")

    total = [a + b for a, b in zip(per_turn_memory, per_turn_request, strict=True)]
    print(f"session: {args.messages:,} stored messages, {args.facts:,} saved memories, "
          f"window {args.window:,} tokens, compaction {'off' if args.no_compaction else 'on'}")
    print(f"first turn: {first * 1e3:.1f} ms in all (memory render {mem_first * 1e3:.2f} ms, "
          f"request bookkeeping {sum(first_requests) * 1e3:.1f} ms over {len(first_requests)} "
          f"build(s); summary calls so far: {summaries})")
    print(f"per turn over {args.turns} turns:")
    print(f"  memory render        {ms(per_turn_memory)}")
    print(f"  request bookkeeping  {ms(per_turn_request)}")
    print(f"    (its CPU time      {ms(per_turn_request_cpu)}; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)")
    print(f"  together             {ms(total)}  (target ≤ 5 ms)")
    first_tenth = statistics.median(total[: max(len(total) // 10, 1)]) * 1e3
    last_tenth = statistics.median(total[-max(len(total) // 10, 1):]) * 1e3
    print(f"  first tenth of the turns {first_tenth:.3f} ms, last tenth {last_tenth:.3f} ms")
    if args.trace:
        print(f"memory after the first turn: traced {base_traced / 2**20:.2f} MiB, "
              f"RSS {base_rss:.1f} MiB")
        for turn, traced, rss in checkpoints:
            print(f"  after turn {turn:>4}: traced {traced:.2f} MiB "
                  f"(+{traced - base_traced / 2**20:.2f}), RSS {rss:.1f} MiB")
    else:
        print(f"memory after the first turn: RSS {base_rss:.1f} MiB "
              "(--trace adds Python's own count, slower)")
        for turn, _traced, rss in checkpoints:
            print(f"  after turn {turn:>4}: RSS {rss:.1f} MiB (+{rss - base_rss:.1f})")
    print(f"(each turn stores 2 messages: {len(engine.history):,} in memory at the end; "
          f"summary calls in all: {summaries})")
    db.close()
    if profiler is not None:
        import pstats

        print("\nwhere the request bookkeeping's time goes (cProfile, turns after the first):")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(14)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--facts", type=int, default=2_000)
    parser.add_argument("--window", type=int, default=128_000)
    parser.add_argument("--no-compaction", action="store_true")
    parser.add_argument("--trace", action="store_true", help="count memory with tracemalloc")
    parser.add_argument("--profile", action="store_true",
                        help="cProfile the request bookkeeping of the timed turns")
    asyncio.run(main(parser.parse_args()))
