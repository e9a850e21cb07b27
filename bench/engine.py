"""Engine overhead benchmark: prints figures, asserts nothing.

Baseline (the bare engine, warm, in this process):

* events/second while a 2,000-delta reply streams through the engine
  (scripted provider with zero delay, in-memory and SQLite history);
* per-iteration engine overhead for 10 iterations × 5 concurrent no-op read
  tools (median of several runs), with in-memory and SQLite history, an
  always-allow decider, no audit, no redaction.

The app-wired path, as the desktop app and the CLI take it: ``open_runtime()``
+ ``runtime.session_manager()`` + ``manager.run()`` — the real permission
engine (5 ``read_file`` calls inside the workspace through the read fence),
the audit trail, redaction of every known secret (two keys in the keyring, one
in the environment), SQLite in WAL mode, the session lease, the logging set-up.
Each figure is taken

* COLD: the first turn of a fresh process (one subprocess per measurement);
* WARM: later turns of the same session in the same process.

Figures: first-delta latency (``run()`` called → first ``AssistantDelta``),
per tool iteration (turn time / 11: 10 iterations of 5 concurrent no-op reads
+ 1 reply; beside it the process's CPU time for the same, which moves less with
the machine's load), streaming events/s (2,000 deltas). Targets (issue 8): first delta
≤ 2 ms, ≤ 0.25 ms per iteration cold and warm, ≥ 200k events/s.

Also: the longest loop-thread stall during a cold first turn (a 1 ms heartbeat),
and the cold figures once more after the warm-up the window starts after its
first paint (keyring and provider ready before the first message).

Run: ``.venv/bin/python bench/engine.py [--cold-runs 5] [--profile stream|tools]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openworker_qt.core.approvals import ApprovalOutcome, Decision, ToolCallInfo
from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.history import HistoryStore, MemoryHistory
from openworker_qt.core.provider_api import ModelProvider
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolRegistry
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database

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


async def baseline() -> None:
    print("— baseline: the bare engine, warm (always-allow, no audit, no redaction) —")
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


# ------------------------------------------------------------------ the wired path

BENCH_DIR = Path(__file__).resolve().parent
SECRETS = {"OPENAI_API_KEY": "sk-bench-openai-0123456789abcdef",
           "ANTHROPIC_API_KEY": "sk-ant-bench-0123456789abcdef"}
WARM_TURNS = 5


def wired_env(home: Path) -> dict[str, str]:
    """A fresh state folder with two keys in a (file) keyring and one in the environment."""
    ring = home / "keyring.json"
    entries = {f"openworker-qt\0{k}": v for k, v in SECRETS.items()}
    entries["openworker-qt\0__index__"] = json.dumps(sorted(SECRETS))
    home.mkdir(parents=True, exist_ok=True)
    ring.write_text(json.dumps(entries))
    env = dict(os.environ)
    env.update({
        "OPENWORKER_HOME": str(home),
        "OW_BENCH_KEYRING": str(ring),
        "PYTHON_KEYRING_BACKEND": "_benchkeyring.FileKeyring",
        "PYTHONPATH": os.pathsep.join([str(BENCH_DIR), str(BENCH_DIR.parent),
                                       env.get("PYTHONPATH", "")]),
        "GEMINI_API_KEY": "AIza-bench-0123456789abcdef",
    })
    return env


def _script(kind: str, turns: int, ws: Path) -> list[dict[str, Any]]:
    if kind == "stream":
        return [{"chunks": ["tok "] * 2000} for _ in range(turns)]
    calls = [{"name": "read_file", "arguments": {"path": f"notes/{i}.txt"}} for i in range(5)]
    one = [{"tool_calls": calls} for _ in range(10)] + [{"text": "done"}]
    return [t for _ in range(turns) for t in one]


async def wired_child(kind: str, turns: int, profile: int | None, variant: str
                      ) -> dict[str, Any]:
    """Runs in a fresh process: ``turns`` turns of one session through the runtime.

    ``variant``: ``plain`` (the first turn right after the runtime opened, as the
    CLI's), ``warmed`` (first the warm-up the window starts after its first paint:
    keyring and provider), ``stall`` (plain, with a 1 ms heartbeat task measuring
    the longest time the loop was held: the loop-thread cost of the turn).
    """
    from openworker_qt.runtime import open_runtime, setup_logging

    home = Path(os.environ["OPENWORKER_HOME"])
    ws = home / "workspace"
    (ws / "notes").mkdir(parents=True, exist_ok=True)
    for i in range(5):
        (ws / "notes" / f"{i}.txt").write_text("x")
    script = home / f"{kind}.json"
    script.write_text(json.dumps(_script(kind, turns, ws)))

    async def noop_read(args: dict[str, Any], ctx: ToolContext) -> str:
        return "ok"

    read = Tool(name="read_file", description="no-op read", parameters={"type": "object"},
                handler=noop_read, risk=RiskClass.READ, concurrency_safe=True,
                target_arg="path")
    rt = open_runtime(ws, tools_for=lambda _info: ToolRegistry([read]))
    setup_logging(rt.paths)
    manager = rt.session_manager(max_iterations=20)
    info = manager.create_session(model=f"scripted:{script}", workspace=str(ws),
                                  mode="interactive")
    if variant == "warmed":
        await asyncio.to_thread(rt.warm_in_background(info.model).join)
    lag = [0.0]
    beat: asyncio.Task[None] | None = None
    if variant == "stall":
        async def heartbeat() -> None:
            while True:
                t = time.perf_counter()
                await asyncio.sleep(0.001)
                lag[0] = max(lag[0], time.perf_counter() - t - 0.001)

        beat = asyncio.create_task(heartbeat())
        await asyncio.sleep(0.01)
        lag[0] = 0.0
    out: list[dict[str, Any]] = []
    profiler = None
    if profile is not None:
        import cProfile

        # (OW_BENCH_CPU_PROFILE=1: the loop thread's CPU clock, not wall time: on a
        # loaded machine wall time charges other processes' slices to whatever ran)
        profiler = (cProfile.Profile(time.thread_time) if os.environ.get("OW_BENCH_CPU_PROFILE")
                    else cProfile.Profile())
    for n in range(turns):
        if profiler is not None and n == profile:
            profiler.enable()
        events = 0
        first: float | None = None
        denied = 0
        t0 = time.perf_counter()
        c0 = time.process_time()
        async for event in manager.run(info.id, "go"):
            events += 1
            if first is None and event.type == "assistant_delta":
                first = time.perf_counter() - t0
            if event.type == "tool_finished" and event.status != "ok":  # type: ignore[attr-defined]
                denied += 1
        secs = time.perf_counter() - t0
        cpu = time.process_time() - c0
        if profiler is not None and n == profile:
            profiler.disable()
        out.append({"secs": secs, "cpu": cpu, "events": events, "first_delta": first, "not_ok": denied,
                    "stall": lag[0]})
    if beat is not None:
        beat.cancel()
    await rt.stop()
    rt.close()
    if profiler is not None:
        import pstats

        if os.environ.get("OW_BENCH_PROFILE_OUT"):  # (for pstats: callers, call counts)
            profiler.dump_stats(os.environ["OW_BENCH_PROFILE_OUT"])
        order = os.environ.get("OW_BENCH_SORT", "cumulative")
        pstats.Stats(profiler, stream=sys.stderr).sort_stats(order).print_stats(int(os.environ.get("OW_BENCH_LINES", "45")))
    return {"turns": out}


def run_child(kind: str, turns: int, profile: int | None = None, variant: str = "plain"
              ) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="ow-bench-") as d:
        env = wired_env(Path(d))
        args = [sys.executable, __file__, "--child", kind, "--turns", str(turns),
                "--variant", variant]
        if profile is not None:
            args += ["--profile-child", str(profile)]
        proc = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
        if profile is not None:
            sys.stderr.write(proc.stderr)
        if proc.returncode != 0:
            raise SystemExit(f"bench child failed:\n{proc.stderr}")
        turns_out: list[dict[str, Any]] = json.loads(proc.stdout.strip().splitlines()[-1])["turns"]
        if any(t["not_ok"] for t in turns_out):
            raise SystemExit("tool calls were not allowed: the bench is misconfigured")
        return turns_out


def _figures(stream: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str:
    first = statistics.median(t["first_delta"] for t in stream) * 1000
    rate = statistics.median(t["events"] / t["secs"] for t in stream)
    per = statistics.median(t["secs"] / 11 for t in tools) * 1000
    cpu = statistics.median(t["cpu"] / 11 for t in tools) * 1000
    return (f"first delta {first:6.2f} ms · per tool iteration {per:.3f} ms "
            f"({cpu:.3f} ms CPU) · "
            f"streaming {rate:>9,.0f} events/s")


def wired(cold_runs: int) -> None:
    print(f"— app-wired: open_runtime + session_manager + run; cold = the first turn of a "
          f"fresh process (median of {cold_runs} processes), warm = turns 2–{WARM_TURNS + 1} —")
    print("  targets: first delta ≤ 2 ms · ≤ 0.25 ms per tool iteration · ≥ 200k events/s")
    runs: dict[tuple[str, str], list[list[dict[str, Any]]]] = {}
    for variant, turns in (("plain", WARM_TURNS + 1), ("warmed", 1), ("stall", 1)):
        for kind in ("stream", "tools"):
            runs[variant, kind] = [run_child(kind, turns, variant=variant)
                                   for _ in range(cold_runs)]

    def cold(variant: str, kind: str) -> list[dict[str, Any]]:
        return [r[0] for r in runs[variant, kind]]

    print("[wired cold, run() right after open_runtime (CLI)] "
          + _figures(cold("plain", "stream"), cold("plain", "tools")))
    print("[wired cold, after the window's warm-up         ] "
          + _figures(cold("warmed", "stream"), cold("warmed", "tools")))
    warm = {k: [t for r in runs["plain", k] for t in r[1:]] for k in ("stream", "tools")}
    print("[wired warm, later turns                        ] "
          + _figures(warm["stream"], warm["tools"]))
    stalls = [t["stall"] * 1000 for k in ("stream", "tools") for t in cold("stall", k)]
    print(f"[wired cold] longest loop-thread stall during the first turn: "
          f"{max(stalls):.1f} ms (median {statistics.median(stalls):.1f} ms; "
          "a 1 ms heartbeat's lateness)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--profile", choices=["stream", "tools"],
                        help="cProfile one turn of a fresh process (see --profile-turn)")
    parser.add_argument("--profile-turn", type=int, default=0,
                        help="which turn: 0 is cold (default), 1 and later are warm")
    parser.add_argument("--baseline-only", action="store_true")
    parser.add_argument("--child", choices=["stream", "tools"], help=argparse.SUPPRESS)
    parser.add_argument("--turns", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--variant", default="plain", help=argparse.SUPPRESS)
    parser.add_argument("--profile-child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        result = asyncio.run(wired_child(args.child, args.turns, args.profile_child,
                                         args.variant))
        print(json.dumps(result))
        return
    if args.profile:
        run_child(args.profile, args.profile_turn + 1, profile=args.profile_turn)
        return
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
          "(other processes inflate every figure)")
    asyncio.run(baseline())
    if not args.baseline_only:
        wired(args.cold_runs)


if __name__ == "__main__":
    main()
