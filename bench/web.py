"""``web_fetch``: import cost, conversion time and memory on a huge page. Prints figures.

* the cost of importing trafilatura (in a fresh interpreter; the tool imports it
  lazily, in a worker, on the first HTML page) and aiohttp;
* HTML → Markdown of a ~1 MB article (median of a few runs);
* a 100 MB page streamed from a local server: bytes read (cut at the cap), the
  peak of Python allocations during the fetch, wall time.

Run: ``.venv/bin/python bench/web.py``
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiohttp import web

from openworker_qt.tools.web.fetch import fetch
from openworker_qt.tools.web.guard import WebSettings
from openworker_qt.tools.web.readable import html_to_markdown

BIG = 100 * 1024 * 1024


def import_ms(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 check=True).stdout) * 1000 for _ in range(3)]
    return statistics.median(runs)


def article(paragraphs: int) -> str:
    para = ("<p>The renewal of the contract is due in March; the customer asked for a "
            "three-year term with a yearly price review and better support hours.</p>\n")
    return ("<html><head><title>Bench</title></head><body><nav>menu</nav><article>"
            + "<h2>Section</h2>\n".join(para * 5 for _ in range(paragraphs // 5))
            + "</article></body></html>")


async def big_page() -> tuple[int, float, float]:
    async def big(request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse(headers={"Content-Type": "text/plain"})
        await resp.prepare(request)
        chunk, sent = b"x" * 65536, 0
        try:
            while sent < BIG:
                await resp.write(chunk)
                sent += len(chunk)
        except (ConnectionError, RuntimeError):
            pass
        return resp

    app = web.Application()
    app.router.add_get("/big", big)
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        tracemalloc.start()
        t = time.perf_counter()
        page = await fetch(f"http://127.0.0.1:{port}/big",
                           WebSettings(allow_private_hosts=(f"127.0.0.1:{port}",)))
        wall = time.perf_counter() - t
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    finally:
        await runner.cleanup()
    return len(page.body), peak / 2**20, wall * 1000


def main() -> None:
    print(f"import trafilatura: {import_ms('trafilatura'):.0f} ms (lazy, in a worker)")
    print(f"import aiohttp:     {import_ms('aiohttp'):.0f} ms (lazy, in a worker)")
    html = article(4000)
    html_to_markdown(html)  # warm (the import)
    runs = []
    for _ in range(3):
        t = time.perf_counter()
        md = html_to_markdown(html)
        runs.append((time.perf_counter() - t) * 1000)
    print(f"HTML -> Markdown, {len(html) / 2**20:.1f} MB page: median {statistics.median(runs):.0f} ms"
          f" ({len(md) / 1024:.0f} KB of Markdown)")
    size, peak, wall = asyncio.run(big_page())
    print(f"100 MB page: read {size / 2**20:.1f} MB (the cap), peak allocations {peak:.1f} MiB, "
          f"{wall:.0f} ms")


if __name__ == "__main__":
    main()
