#!/usr/bin/env python3
"""What one frame of a streaming reply costs the window, frame after frame, as it grows.

``ui_stall.py`` streams through the whole app as fast as it goes, so how many
frames a reply is cut into depends on the machine's load, and its figures move
with it. Here the work is fixed: the real window (offscreen) receives a reply
in frames of ``--per-frame`` deltas, one frame every 16 ms, each as the bridge
delivers one frame of coalesced text (``LiveEvents.on_text`` -> the transcript
model), then paints the transcript at once (``viewport().repaint()``, what the
next frame does); then the reply ends (``TurnEnded``: its whole render). Each
frame's loop-thread CPU time (``time.thread_time``) is taken; printed: the median
and the largest frame, by quarter of the reply (a cost that grows with the
reply's length shows as a rising last quarter) and the whole reply's CPU. The
shared 1 ms tick loop (``_common.LoopGaps``) runs throughout, so the work the
window leaves for later (code colours, the rest of a large frame, the whole
render at the end) is counted too: the most loop CPU between two ticks. For

* ``prose`` — paragraphs with **bold** and `code`, as ``ui_stall``'s synthetic case;
* ``code`` — a paragraph, then a 40-line fenced Python block, over and over.

``--per-frame 400`` makes each frame close several code blocks at once (a window
that was busy, a fast model). With ``--profile`` the calls of the ``code`` reply
are printed (cProfile, by cumulative time); ``--against DIR`` runs the same on
another checkout's code, interleaved. A frame is budgeted 16 ms in all, the
engine and Qt included.

    .venv/bin/python bench/stream_frames.py [--deltas 2000] [--per-frame 20] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, os.environ.get("OW_BENCH_TREE") or str(BENCH.parent))
from _common import LoopGaps, code_chunks, run_fresh, temp_home  # noqa: E402
from _stacks import Cause, top_causes  # noqa: E402

WORDS = ["lorem ", "ipsum ", "dolor ", "sit ", "amet, ", "**bold** ", "`code` ", "\n\n"]
FRAME_S = 0.016
CPU_BUDGET = 0.006  # with --sample: the causes of gaps with more loop CPU than this


def child(kind: str, deltas: int, per_frame: int, profile: bool) -> dict[str, Any]:
    home = temp_home()
    import qasync
    from PySide6.QtWidgets import QApplication

    from openworker_qt.app import DesktopApp
    from openworker_qt.core import events as ev
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
    gaps = LoopGaps(sample=bool(os.environ.get("OW_BENCH_SAMPLE")))

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
        gaps.start()
        for frame in frames:
            t0 = time.thread_time()
            window.live.on_text(sid, "".join(frame))
            view.viewport().repaint()
            costs.append((time.thread_time() - t0) * 1000)
            await asyncio.sleep(FRAME_S)  # the loop's own work between two frames
        window.transcript.apply(ev.TurnEnded(session_id=sid, status="completed", iterations=1))
        await asyncio.sleep(0.3)  # the whole render and what was left for later
        gaps.stop()
        if prof is not None:
            prof.disable()

    loop.run_until_complete(scenario())
    text = window.transcript.items[-1].text
    assert text.endswith("".join(chunks)), "the reply did not reach the transcript"
    after = gaps.summary()
    after["causes"] = [vars(c) for c in gaps.causes(0.016, CPU_BUDGET)]
    if prof is not None:
        import pstats

        pstats.Stats(prof, stream=sys.stderr).sort_stats("cumulative").print_stats(30)
    loop.run_until_complete(desktop.shutdown())
    rt.close()
    loop.close()
    q = max(1, len(costs) // 4)
    quarters = [costs[i * q:(i + 1) * q] for i in range(4)]
    return {"frames": len(costs), "total": sum(costs), "max": max(costs),
            "worst_cpu": after["worst_cpu"], "loop_cpu": after["loop_cpu"], "causes": after["causes"],
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
    parser.add_argument("--sample", action="store_true",
                        help="a stack sampler: the top causes of gaps over 16 ms or 6 ms of loop CPU")
    parser.add_argument("--against", metavar="DIR", help="also run on the checkout DIR's code, interleaved")
    args = parser.parse_args()
    if args.sample:
        os.environ["OW_BENCH_SAMPLE"] = "1"
    if args.kind:
        result = child(args.kind, args.deltas, args.per_frame, args.profile)
        print("RESULT " + json.dumps(result), flush=True)
        return 0
    print(f"stream_frames: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"{args.deltas} deltas in frames of {args.per_frame}; loop-thread CPU per frame "
          f"(budget 16 ms a frame, all included)")
    trees: list[tuple[str, str | None]] = [("", None)]
    if args.against:
        trees = [(" base", args.against), (" this", None)]
    for kind in ("prose", "code"):
        results: dict[str, list[dict[str, Any]]] = {label: [] for label, _ in trees}
        for _ in range(args.runs):
            for label, tree in trees:
                cmd = [sys.executable, __file__, "--kind", kind, "--deltas", str(args.deltas),
                       "--per-frame", str(args.per_frame)]
                if args.profile and kind == "code":
                    cmd.append("--profile")
                env = dict(os.environ, **({"OW_BENCH_TREE": tree} if tree else {}))
                result, err = run_fresh(cmd, env)
                if result is None:
                    print(f"stream_frames: {kind} failed:\n{err[-3000:]}")
                    return 1
                if args.profile and kind == "code":
                    print(err[-6000:])
                results[label].append(result)
        for label, _ in trees:
            report(kind + label, results[label])
    return 0


def report(kind: str, results: list[dict[str, Any]]) -> None:
    quarters = "  ".join(
        f"q{i + 1} {statistics.median(r['quarters'][i][0] for r in results):4.1f}/"
        f"{max(r['quarters'][i][1] for r in results):4.1f}"
        for i in range(len(results[0]["quarters"])))
    print(f"stream_frames [{kind:10}] {results[0]['frames']} frames, {results[0]['chars']} chars: "
          f"median/largest frame by quarter {quarters} ms; largest {max(r['max'] for r in results):5.1f} ms; "
          f"whole reply {statistics.median(r['total'] for r in results):6.0f} ms; with the work left "
          f"for later and the end: most loop CPU between two 1 ms ticks "
          f"{max(r['worst_cpu'] for r in results):5.1f} ms, loop CPU "
          f"{statistics.median(r['loop_cpu'] for r in results):5.0f} ms (median of {len(results)})")
    causes = [Cause(**c) for r in results for c in r.get("causes", [])]
    for what, n, total, longest in top_causes(causes):
        print(f"stream_frames [{kind:10}]   {n:3} gaps, {total:6.0f} ms in all, longest "
              f"{longest:5.1f} ms: {what}")


if __name__ == "__main__":
    sys.exit(main())
