#!/usr/bin/env python3
"""What one frame of a streaming reply costs the window, frame after frame, as it grows.

``ui_stall.py`` streams through the whole app as fast as it goes, so how many
frames a reply is cut into depends on the machine's load, and its figures move
with it. Here the work is fixed: the real window (offscreen) receives a reply
in frames of ``--per-frame`` deltas, each as the bridge delivers one frame of
coalesced text (``LiveEvents.on_text`` -> the transcript model), then paints the
transcript at once (``viewport().repaint()``, what the next frame does). Each
frame's loop-thread CPU time (``time.thread_time``) is taken; printed: the median
and the largest frame, by quarter of the reply (a cost that grows with the
reply's length shows as a rising last quarter) and the whole reply's CPU, for

* ``prose`` — paragraphs with **bold** and `code`, as ``ui_stall``'s synthetic case;
* ``code`` — a paragraph, then a 40-line fenced Python block, over and over.

With ``--profile`` the calls of the ``code`` reply are printed (cProfile, by
cumulative time). A frame is budgeted 16 ms in all, the engine and Qt included.

    .venv/bin/python bench/stream_frames.py [--deltas 2000] [--per-frame 20] [--runs 3]
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
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))
from _common import temp_home  # noqa: E402

WORDS = ["lorem ", "ipsum ", "dolor ", "sit ", "amet, ", "**bold** ", "`code` ", "\n\n"]


def code_chunks(deltas: int) -> list[str]:
    out: list[str] = []
    n = 0
    while len(out) < deltas:
        out += ["Here ", "is ", "the ", "`next` ", "part:\n\n", "```python\n"]
        for i in range(40):
            out += [f"value_{n}_{i} ", f"= compute({i}, ", '"text")', "\n"]
        out += ["```\n\n"]
        n += 1
    return out[:deltas]


def child(kind: str, deltas: int, per_frame: int, profile: bool) -> dict[str, Any]:
    home = temp_home()
    import qasync
    from PySide6.QtWidgets import QApplication

    from openworker_qt.app import DesktopApp
    from openworker_qt.runtime import open_runtime

    app = QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    script = home / "hello.json"
    script.write_text('[{"text": "Hello."}]', encoding="utf-8")
    rt = open_runtime()
    rt.config.data["general"]["default_model"] = f"scripted:{script}"
    desktop = DesktopApp(rt, workspace=home, enable_tray=False)
    window = desktop.window
    window.resize(1100, 760)
    window.show()
    chunks = code_chunks(deltas) if kind == "code" else [WORDS[i % len(WORDS)] for i in range(deltas)]
    frames = [chunks[i:i + per_frame] for i in range(0, len(chunks), per_frame)]
    costs: list[float] = []
    prof = None

    async def scenario() -> None:
        nonlocal prof
        await asyncio.sleep(0.3)  # the window settles, the warm-ups start
        window.send("stream", [])
        sid = window.session_id or ""
        while desktop.manager.is_running(sid):  # noqa: ASYNC110  (the scripted "hello" turn)
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        view = window.view
        if profile:
            import cProfile

            prof = cProfile.Profile()
            prof.enable()
        for frame in frames:
            t0 = time.thread_time()
            window.live.on_text(sid, "".join(frame))
            view.viewport().repaint()
            costs.append((time.thread_time() - t0) * 1000)
            await asyncio.sleep(0)  # the loop's own work between two frames
        if prof is not None:
            prof.disable()

    loop.run_until_complete(scenario())
    text = window.transcript.items[-1].text
    assert text.endswith("".join(chunks)), "the reply did not reach the transcript"
    if prof is not None:
        import pstats

        pstats.Stats(prof, stream=sys.stderr).sort_stats("cumulative").print_stats(30)
    loop.run_until_complete(desktop.shutdown())
    rt.close()
    loop.close()
    q = max(1, len(costs) // 4)
    quarters = [costs[i * q:(i + 1) * q] for i in range(4)]
    return {"frames": len(costs), "total": sum(costs), "max": max(costs),
            "top": sorted(range(len(costs)), key=costs.__getitem__)[-3:],
            "quarters": [(statistics.median(x), max(x)) for x in quarters if x],
            "chars": len(text)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deltas", type=int, default=2000)
    parser.add_argument("--per-frame", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kind", choices=("prose", "code"), help="one reply, in this process")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.kind:
        result = child(args.kind, args.deltas, args.per_frame, args.profile)
        print("RESULT " + json.dumps(result), flush=True)
        return 0
    print(f"stream_frames: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"{args.deltas} deltas in frames of {args.per_frame}; loop-thread CPU per frame "
          f"(budget 16 ms a frame, all included)")
    for kind in ("prose", "code"):
        results = []
        for _ in range(args.runs):
            cmd = [sys.executable, __file__, "--kind", kind, "--deltas", str(args.deltas),
                   "--per-frame", str(args.per_frame)]
            if args.profile and kind == "code":
                cmd.append("--profile")
            proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
            line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
            if proc.returncode != 0 or line is None:
                print(f"stream_frames: {kind} failed:\n{proc.stderr[-3000:]}")
                return 1
            if args.profile and kind == "code":
                print(proc.stderr[-6000:])
            results.append(json.loads(line[len("RESULT "):]))
        quarters = "  ".join(
            f"q{i + 1} {statistics.median(r['quarters'][i][0] for r in results):4.1f}/"
            f"{max(r['quarters'][i][1] for r in results):4.1f}"
            for i in range(len(results[0]["quarters"])))
        print(f"stream_frames [{kind:5}] {results[0]['frames']} frames, {results[0]['chars']} chars: "
              f"median/largest frame by quarter {quarters} ms; largest {max(r['max'] for r in results):5.1f} ms; "
              f"whole reply {statistics.median(r['total'] for r in results):6.0f} ms "
              f"(median of {args.runs} fresh processes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
