#!/usr/bin/env python3
"""MCP client overhead: our client against the bare SDK, on the same server, in the
same run; and the desktop app's first paint with 10 configured servers.

* connect: spawn + initialize + list_tools, bare SDK (``stdio_client`` +
  ``ClientSession``) vs :class:`openworker_qt.mcp.client.McpServer` (which also
  resolves the login-shell PATH once, keyring placeholders, the stderr pipe);
* per call: ``tools/call`` of a trivial tool over one connection, bare
  ``session.call_tool`` vs the engine tool's handler (time-outs, progress,
  result conversion and caps);
* start-up: process start -> window painted with 0 and with 10 servers in
  ``mcp.json`` (the servers connect after the paint; the paint must not move).

Runs alternate between the two sides so load drifts hit both. Target ratio <= 1.2.

    .venv/bin/python bench/mcp.py [--connects 10] [--calls 300] [--startups 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# This file is named like the SDK: its folder must not stand in front of it.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))
from bench._common import temp_home  # noqa: E402

SERVER = [sys.executable, str(ROOT / "tests" / "mcp" / "servers" / "behave.py")]


async def bare_connect() -> float:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    t0 = time.perf_counter()
    params = StdioServerParameters(command=SERVER[0], args=SERVER[1:])
    with open(os.devnull, "w") as devnull:  # noqa: ASYNC230 (a bench: nothing else runs)
        async with stdio_client(params, errlog=devnull) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await session.list_tools()
                took = time.perf_counter() - t0
    return took


def _ours(name: str = "behave") -> object:
    from openworker_qt.mcp.client import McpServer
    from openworker_qt.mcp.config import parse_server
    from openworker_qt.mcp.doctor import login_path

    return McpServer(parse_server(name, {"command": SERVER[0], "args": SERVER[1:]}),
                     path=login_path)


async def our_connect() -> float:
    server = _ours()
    t0 = time.perf_counter()
    await server.start()  # type: ignore[attr-defined]
    await server.ensure_ready()  # type: ignore[attr-defined]
    took = time.perf_counter() - t0
    await server.stop()  # type: ignore[attr-defined]
    return took


async def calls(n: int) -> tuple[list[float], list[float]]:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    from openworker_qt.core.tool_api import ToolContext
    from openworker_qt.mcp.tools import server_tools

    server = _ours()
    await server.start()  # type: ignore[attr-defined]
    await server.ensure_ready()  # type: ignore[attr-defined]
    tool = next(t for t in server_tools(server) if t.name.endswith("__add"))  # type: ignore[arg-type]
    ctx = ToolContext("bench", Path.cwd())
    ctx.state["mcp.described"] = {tool.name}
    bare: list[float] = []
    ours: list[float] = []
    params = StdioServerParameters(command=SERVER[0], args=SERVER[1:])
    with open(os.devnull, "w") as devnull:  # noqa: ASYNC230 (a bench: nothing else runs)
        async with stdio_client(params, errlog=devnull) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await session.list_tools()
                for _ in range(10):  # warm both
                    await session.call_tool("add", {"a": 1, "b": 2})
                    await tool.handler({"a": 1, "b": 2}, ctx)
                for _ in range(n):
                    t0 = time.perf_counter()
                    await session.call_tool("add", {"a": 1, "b": 2})
                    bare.append(time.perf_counter() - t0)
                    t0 = time.perf_counter()
                    await tool.handler({"a": 1, "b": 2}, ctx)
                    ours.append(time.perf_counter() - t0)
    await server.stop()  # type: ignore[attr-defined]
    return bare, ours


def startup(servers: int) -> float:
    home = temp_home()
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "config.toml").write_text(
        '[general]\ndefault_model = "scripted:hello"\n', encoding="utf-8")
    entries = {f"s{i}": {"command": SERVER[0], "args": SERVER[1:]} for i in range(servers)}
    (home / "config" / "mcp.json").write_text(json.dumps({"mcpServers": entries}), encoding="utf-8")
    env = dict(os.environ, OPENWORKER_BENCH_STARTUP="1")
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "openworker_qt", "app", "--new-instance"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    try:
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("the app exited before its first paint: "
                                   + (proc.stderr.read() if proc.stderr else ""))
            if line.startswith("window-exposed"):
                return time.perf_counter() - t0
    finally:
        proc.terminate()
        proc.wait(20)


def ms(values: list[float]) -> str:
    return (f"median {statistics.median(values) * 1000:.2f} ms "
            f"(min {min(values) * 1000:.2f}, max {max(values) * 1000:.2f}, n={len(values)})")


async def amain(args: argparse.Namespace) -> None:
    bare: list[float] = []
    ours: list[float] = []
    await our_connect()  # the login-shell PATH is resolved once per process: not timed
    for _ in range(args.connects):
        bare.append(await bare_connect())
        ours.append(await our_connect())
    ratio = statistics.median(ours) / statistics.median(bare)
    print(f"mcp: connect (spawn + initialize + list_tools), bare SDK: {ms(bare)}")
    print(f"mcp: connect, OpenWorker client:                        {ms(ours)}  "
          f"ratio {ratio:.2f} (target <= 1.2)")
    bare_calls, our_calls = await calls(args.calls)
    ratio = statistics.median(our_calls) / statistics.median(bare_calls)
    print(f"mcp: tools/call, bare SDK:         {ms(bare_calls)}")
    print(f"mcp: tools/call, engine tool:      {ms(our_calls)}  ratio {ratio:.2f} (target <= 1.2)")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--connects", type=int, default=10)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--startups", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(amain(args))
    if args.startups:
        none, ten = [], []
        for _ in range(args.startups):
            none.append(startup(0))
            ten.append(startup(10))
        print(f"mcp: app start -> window painted, no MCP servers:  {ms(none)}")
        print(f"mcp: app start -> window painted, 10 MCP servers:  {ms(ten)}  "
              f"(+{(statistics.median(ten) - statistics.median(none)) * 1000:.0f} ms; "
              "target: unchanged)")
    print(f"mcp: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
