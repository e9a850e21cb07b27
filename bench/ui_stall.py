#!/usr/bin/env python3
"""Longest event-loop stall while 2,000 text deltas stream into the transcript.

The real window, bridge and transcript view (offscreen) consume a scripted
model that emits 2,000 deltas as fast as the engine can take them. A 1 ms Qt
timer records the gaps between its ticks; the longest gap is the worst stall
the user could have felt (target: no stall over one 16 ms frame).

    .venv/bin/python bench/ui_stall.py [--deltas 2000]
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
from _common import temp_home  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deltas", type=int, default=2000)
    args = parser.parse_args()
    home = temp_home()
    import qasync
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from openworker_qt.app import DesktopApp
    from openworker_qt.runtime import open_runtime

    app = QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    words = ["lorem ", "ipsum ", "dolor ", "sit ", "amet, ", "**bold** ", "`code` ", "\n\n"]
    chunks = [words[i % len(words)] for i in range(args.deltas)]
    script = home / "stream.json"
    script.write_text(json.dumps([{"chunks": chunks}]))
    rt = open_runtime()
    rt.config.data["general"]["default_model"] = f"scripted:{script}"
    desktop = DesktopApp(rt, workspace=home, enable_tray=False)
    desktop.window.resize(1100, 760)
    desktop.window.show()
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.setInterval(1)
    timer.timeout.connect(tick)

    async def scenario() -> float:
        await asyncio.sleep(0.3)  # let the window settle
        gaps.clear()
        last[0] = time.perf_counter()
        timer.start()
        t0 = time.perf_counter()
        desktop.window.send("stream", [])
        sid = desktop.window.session_id or ""
        while desktop.manager.is_running(sid) or not desktop.bridge.flushes:  # noqa: ASYNC110
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.05)
        timer.stop()
        return time.perf_counter() - t0

    elapsed = loop.run_until_complete(scenario())
    worst = max(gaps) * 1000
    gaps_ms = sorted(g * 1000 for g in gaps)
    p99 = gaps_ms[int(len(gaps_ms) * 0.99) - 1]
    text = desktop.window.transcript.items[-1].text
    print(f"ui_stall: {args.deltas} deltas streamed in {elapsed * 1000:.0f} ms; "
          f"{desktop.bridge.flushes} coalesced repaints; transcript has {len(text)} chars")
    print(f"ui_stall: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
          "(other processes inflate every figure; compare runs at a similar load)")
    print(f"ui_stall: longest event-loop stall {worst:.1f} ms, p99 tick gap {p99:.1f} ms "
          "(target: none over 16 ms)")
    loop.run_until_complete(desktop.shutdown())
    rt.close()
    loop.close()  # joins qasync's worker threads: a QThread alive at exit aborts Python
    return 0


if __name__ == "__main__":
    sys.exit(main())
