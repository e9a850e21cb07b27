"""A team of 4 workers on 8 items vs the same work done by one agent, one item after
another: prints figures, asserts nothing (issue 29, "Done when").

Both run on the real engine, session manager, inbox, board and SQLite file, with
scripted models answering after a fixed delay per call (``--delay``, default 0.25 s),
so the wall time is the model's time and what the app adds to it:

* wall time of each, and the team's speed-up;
* the loop thread's stalls: the longest gap between ticks of a 5 ms asyncio ticker
  (target: none over 16 ms);
* memory: the process's resident size growth per worker session.

The team's lead plans (one approval, given at once), reviews every item and
assembles: its calls are part of the team's time.
Run: ``.venv/bin/python bench/teams.py [--delay 0.25]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import rss_mib, temp_home

ITEMS = 8
WORKERS = ("w1", "w2", "w3", "w4")


class Ticker:
    """The longest gap between the ticks of a 5 ms asyncio timer."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.gaps: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            self.gaps.append(now - last - 0.005)
            last = now

    def __enter__(self) -> Ticker:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *_exc: object) -> None:
        assert self._task is not None
        self._task.cancel()

    def report(self) -> str:
        gaps = sorted(self.gaps)
        if not gaps:
            return "no ticks"
        over = sum(1 for g in gaps if g > 0.016)
        return (f"longest stall {gaps[-1] * 1000:.1f} ms, p99 {gaps[int(len(gaps) * 0.99)] * 1000:.1f}"
                f" ms, {over} over 16 ms ({len(gaps)} ticks)")


def the_plan() -> dict[str, object]:
    return {
        "outcome": "Eight parts", "max_parallel": len(WORKERS),
        "items": [{"key": f"k{n}", "title": f"Part {n}", "criteria": "complete",
                   "worker": WORKERS[n % len(WORKERS)]} for n in range(1, ITEMS + 1)],
        "workers": [{"name": w, "persona": "cowork", "mode": "interactive",
                     "model": "teamtest:worker"} for w in WORKERS],
    }


async def team(delay: float, workspace: Path) -> None:
    from openworker_qt.runtime import open_runtime
    from tests.teams.engine.provider import register

    rt = open_runtime(workspace)
    register(rt.router, {"plan": the_plan(), "send_back": [], "delay": delay})
    runner = rt.team_runner()
    rt.inbox.listeners.append(lambda item: asyncio.get_running_loop().call_soon(
        rt.inbox.respond, item.id, "approve") if item.pending and item.kind == "plan" else None)
    before = rss_mib()
    with Ticker() as ticks:
        start = time.perf_counter()
        made = runner.start("Eight parts", persona="cowork", workspace=str(workspace),
                            model="teamtest:lead")
        ended = await runner.wait(made.id)
        wall = time.perf_counter() - start
    after = rss_mib()
    items = rt.teams.items(made.id)
    print(f"team ({len(WORKERS)} workers, {ITEMS} items): {wall:.2f} s, ended {ended.state.value}; "
          f"{ticks.report()}")
    print(f"  memory: +{after - before:.1f} MiB for {len(items)} worker sessions and the lead "
          f"(≈ {(after - before) / max(1, len(items)):.2f} MiB per worker session)")
    await runner.close()
    await rt.stop(grace=0.5)
    rt.close()
    return None


async def alone(delay: float, workspace: Path) -> None:
    from openworker_qt.runtime import open_runtime

    script = workspace / "alone.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"text": f"Result for Part {n}", "delay": delay} for n in range(1, ITEMS + 1)]}))
    rt = open_runtime(workspace)
    manager = rt.session_manager()
    info = manager.create_session(model=f"scripted:{script}", persona="cowork",
                                  workspace=str(workspace))
    with Ticker() as ticks:
        start = time.perf_counter()
        for n in range(1, ITEMS + 1):
            async for _event in manager.run(info.id, f"Do part {n}."):
                pass
        wall = time.perf_counter() - start
    print(f"one agent, {ITEMS} items one after another: {wall:.2f} s; {ticks.report()}")
    await rt.stop(grace=0.5)
    rt.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.25, help="seconds per model call")
    args = parser.parse_args()
    home = temp_home()
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "config.toml").write_text('[permissions]\nmode = "interactive"\n')
    for name, run in (("alone", alone), ("team", team)):
        workspace = home / name
        workspace.mkdir()
        asyncio.run(run(args.delay, workspace))


if __name__ == "__main__":
    main()
