#!/usr/bin/env python3
"""Open a 10,000-message session: time to first paint of the transcript, and memory.

Writes a session of N messages (user questions, Markdown answers, tool calls
with results, notices) into a fresh database, starts the real window
(offscreen) and measures from "open this session" to the first paint of the
transcript viewport with rows in it; then scrolls to the top and back to check
the view stays responsive. The session opens newest-first; the bench also reports
when the older rows are ready (built in a worker) and the longest event-loop
stall while they load and while scrolling up prepends them. Target: painted
under 300 ms.

    .venv/bin/python bench/transcript.py [--messages 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _common import rss_mib, temp_home  # noqa: E402


def fill(rt, n: int) -> str:  # type: ignore[no-untyped-def]
    info = rt.conversations.create_session(title="Ten thousand messages", model="scripted:x")
    msgs: list[dict] = []  # type: ignore[type-arg]
    i = 0
    while len(msgs) < n:
        msgs.append({"role": "user", "content": f"Question {i}: what changed in module {i % 37}?"})
        msgs.append({"role": "assistant", "content": None, "tool_calls": [{
            "id": f"c{i}", "type": "function",
            "function": {"name": "read_file", "arguments": json.dumps({"path": f"src/m{i % 37}.py"})}}]})
        msgs.append({"role": "tool", "tool_call_id": f"c{i}", "name": "read_file", "status": "ok",
                     "content": "\n".join(f"{k:4} line {k} of the file" for k in range(1, 30))})
        msgs.append({"role": "assistant", "content": (
            f"Module {i % 37} changed in **three** places:\n\n- the parser now accepts `--json`\n"
            "- errors carry a *kind*\n- the retry loop backs off\n\n```python\nretry(max=3)\n```")})
        if i % 10 == 0:
            msgs.append({"role": "notice", "kind": "model_switch", "text": "Switched model."})
        i += 1
    with rt.db.transaction() as conn:
        for m in msgs[:n]:
            conn.execute("INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, ?)",
                         (info.id, m["role"], json.dumps(m), time.time()))
    return str(info.id)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=10_000)
    args = parser.parse_args()
    temp_home()
    import qasync
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication

    from openworker_qt.app import DesktopApp
    from openworker_qt.runtime import open_runtime

    app = QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    rt = open_runtime()
    sid = fill(rt, args.messages)
    desktop = DesktopApp(rt, enable_tray=False)
    window = desktop.window
    window.resize(1100, 760)
    window.show()
    painted: list[float] = []

    class PaintWatch(QObject):
        def eventFilter(self, obj, event):  # type: ignore[no-untyped-def]  # noqa: N802
            if event.type() == QEvent.Type.Paint and window.transcript.rowCount() and not painted:
                painted.append(time.perf_counter())
            return False

    watch = PaintWatch()
    window.view.viewport().installEventFilter(watch)

    async def scenario() -> tuple[float, float, float]:
        await asyncio.sleep(0.3)
        # The running app has used its worker pool by now (start() lists models in a
        # worker); qasync creates the pool on first use, which took ~30 ms here.
        await asyncio.to_thread(lambda: None)
        rss0 = rss_mib()
        t0 = time.perf_counter()
        window.open_session(sid)
        while not painted:  # noqa: ASYNC110 (a paint is observed, not awaited)
            await asyncio.sleep(0.001)
        first = painted[0] - t0
        shown = window.transcript.rowCount()
        # The older rows are built in a worker after the first paint: how long until
        # they are all available, and the longest loop stall meanwhile (1 ms ticks).
        gaps: list[float] = []
        last = [time.perf_counter()]

        def tick() -> None:
            now = time.perf_counter()
            gaps.append(now - last[0])
            last[0] = now

        timer = QTimer()
        timer.setInterval(1)
        timer.timeout.connect(tick)
        timer.start()
        while not window.loaded():  # noqa: ASYNC110
            await asyncio.sleep(0.001)
        older_ready = time.perf_counter() - t0
        load_stall = max(gaps, default=0.0)
        bar = window.view.verticalScrollBar()
        t1 = time.perf_counter()
        for value in (0, bar.maximum() // 2, bar.maximum()):
            bar.setValue(value)
            window.view.viewport().repaint()
        scroll = (time.perf_counter() - t1) / 3
        # Scrolling up through history: each time the top is reached a chunk is prepended.
        gaps.clear()
        last[0] = time.perf_counter()
        for _ in range(20):
            bar.setValue(0)
            await asyncio.sleep(0.1)
        timer.stop()
        fetch_stall = max(gaps, default=0.0)
        return first, shown, older_ready, load_stall, scroll, fetch_stall, rss_mib() - rss0

    first, shown, older_ready, load_stall, scroll, fetch_stall, grown = loop.run_until_complete(
        scenario())
    rows = window.transcript.rowCount()
    print(f"transcript: {args.messages} messages opened newest-first ({shown} rows), first paint "
          f"after {first * 1000:.0f} ms (target < 300 ms)")
    print(f"transcript: older rows ready after {older_ready * 1000:.0f} ms (longest loop stall "
          f"meanwhile {load_stall * 1000:.1f} ms); 20 scrolls to the top exposed {rows} rows, "
          f"longest stall {fetch_stall * 1000:.1f} ms")
    print(f"transcript: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
          "(other processes inflate every figure; compare runs at a similar load)")
    print(f"transcript: jump-scroll + repaint {scroll * 1000:.1f} ms per jump; "
          f"memory +{grown:.0f} MiB (RSS {rss_mib():.0f} MiB)")
    loop.run_until_complete(desktop.shutdown())
    rt.close()
    loop.close()  # joins qasync's worker threads: a QThread alive at exit aborts Python
    return 0


if __name__ == "__main__":
    sys.exit(main())
