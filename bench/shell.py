"""run_shell costs: prints figures, asserts nothing.

* ``run_shell("echo hi")`` round trip through the tool handler in the session's
  persistent bash (median, p95), against the raw cost of a persistent bash running
  ``echo hi`` and a marker echo read back over plain pipes in a blocking loop — the
  difference is our overhead (target ≤ 5 ms);
* a command printing 50 MB: the process's resident memory before and after (we
  keep a capped tail) and the longest event-loop stall while it streams (a 1 ms
  ticker measures the gaps; target ≤ 16 ms).

Run: ``.venv/bin/python bench/shell.py``
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import rss_mib
from openworker_qt.core.tool_api import ToolContext
from openworker_qt.tools.shell import close_shell_state, shell_tools

RUNS = 1000


def figures(label: str, samples: list[float]) -> float:
    samples.sort()
    median = statistics.median(samples)
    p95 = samples[int(len(samples) * 0.95)]
    print(f"{label:<44} median {median * 1e3:7.3f} ms   p95 {p95 * 1e3:7.3f} ms")
    return median


def raw_bash() -> list[float]:
    bash = shutil.which("bash") or "bash"
    proc = subprocess.Popen([bash, "--noprofile", "--norc"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, bufsize=0)
    assert proc.stdin is not None and proc.stdout is not None
    fd = proc.stdout.fileno()
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        proc.stdin.write(b"echo hi\necho __END__\n")
        got = b""
        while not got.endswith(b"__END__\n"):
            got += os.read(fd, 4096)
        samples.append(time.perf_counter() - start)
    proc.stdin.close()
    proc.wait()
    return samples


async def ours(ctx: ToolContext) -> list[float]:
    run = next(t for t in shell_tools() if t.name == "run_shell").handler
    await run({"command": "true"}, ctx)  # the shell starts once per session
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        await run({"command": "echo hi"}, ctx)
        samples.append(time.perf_counter() - start)
    return samples


async def flood(ctx: ToolContext) -> None:
    run = next(t for t in shell_tools() if t.name == "run_shell").handler
    longest = 0.0
    done = False

    async def ticker() -> None:
        nonlocal longest
        last = time.perf_counter()
        while not done:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            longest = max(longest, now - last - 0.001)
            last = now

    before = rss_mib()
    tick = asyncio.ensure_future(ticker())
    start = time.perf_counter()
    result = await run({"command": "yes 0123456789abcdefghijklmnopqrstuvwxyz | head -c 50000000"},
                       ctx)
    took = time.perf_counter() - start
    done = True
    await tick
    after = rss_mib()
    assert not isinstance(result, str)
    print(f"50 MB of output: {took:.2f} s, result {len(result.content):,} characters, "
          f"RSS {before:.1f} → {after:.1f} MiB, longest loop stall {longest * 1e3:.1f} ms")


async def main() -> None:
    raw = figures("raw bash: echo hi + marker over pipes", raw_bash())
    ctx = ToolContext("bench", Path(tempfile.mkdtemp(prefix="ow-bench-shell-")))
    try:
        mine = figures('run_shell("echo hi") through the handler', await ours(ctx))
        print(f"our overhead (median): {(mine - raw) * 1e3:.3f} ms (target ≤ 5 ms)")
        await flood(ctx)
    finally:
        await close_shell_state(ctx.state)


if __name__ == "__main__":
    asyncio.run(main())
