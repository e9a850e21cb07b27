#!/usr/bin/env python3
"""Longest event-loop stall of the window while it works, in fresh processes.

A 1 ms Qt timer records the gaps between its ticks from pressing send to the end
of the reply; the longest gap is the worst stall the user could have felt
(budget: no stall over one 16 ms frame). Each case runs in a process of its own:

* ``synthetic`` — 2,000 text deltas from a scripted model, as fast as the
  engine takes them, into the real window, bridge and transcript (offscreen);
* ``synthetic-code`` — the same with a fenced Python block of 40 lines after every
  short paragraph (a reply that writes code: its fences are re-read as they grow);
* ``real-*`` — a fresh app's FIRST message through the real OpenAI SDK against a
  local OpenAI-compatible server (``_openai_stub.py``, its own process) that
  streams 300 deltas: the key read, the SDK import and client build, pydantic's
  first models, the first database writes, the keyring:

  - ``real-warmed``: sent once the warm-up the window starts after its first
    paint has finished (a user who takes a second to type);
  - ``real-idle``: sent when the window has been idle a second after its first paint
    (issue 26, target 7: the first delta within 300 ms of Enter), whatever the
    warm-ups got done by then;
  - ``real-racing``: sent right after the first paint, the warm-up still running;
  - ``real-unwarmed``: no warm-up at all (the first turn prepares the provider).

    .venv/bin/python bench/ui_stall.py [--deltas 2000] [--case NAME]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
# (``--against`` runs the same cases on another checkout's code: OW_BENCH_TREE)
sys.path.insert(0, os.environ.get("OW_BENCH_TREE") or str(BENCH.parent))
from _common import LoopGaps, code_chunks, run_fresh, temp_home  # noqa: E402
from _stacks import Cause, top_causes  # noqa: E402

CASES = ("synthetic", "synthetic-code", "real-warmed", "real-idle", "real-racing", "real-unwarmed")


SAMPLE = bool(os.environ.get("OW_BENCH_SAMPLE"))


def measured(gaps: LoopGaps) -> dict[str, Any]:
    """The case's figures, and who had each gap over 16 ms (with the sampler)."""
    gaps.stop()
    out = gaps.summary()
    out["causes"] = [vars(c) for c in gaps.causes()]
    if gaps.sampler is not None:
        gaps.sampler.stop()
    return out


def synthetic(deltas: int, code: bool = False) -> dict[str, Any]:
    home = temp_home()
    import qasync
    from PySide6.QtWidgets import QApplication

    from openworker_qt.app import DesktopApp
    from openworker_qt.runtime import open_runtime

    app = QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    words = ["lorem ", "ipsum ", "dolor ", "sit ", "amet, ", "**bold** ", "`code` ", "\n\n"]
    chunks = code_chunks(deltas) if code else [words[i % len(words)] for i in range(deltas)]
    script = home / "stream.json"
    script.write_text(json.dumps([{"chunks": chunks}]))
    rt = open_runtime()
    rt.config.data["general"]["default_model"] = f"scripted:{script}"
    desktop = DesktopApp(rt, workspace=home, enable_tray=False)
    desktop.window.resize(1100, 760)
    desktop.window.show()
    gaps = LoopGaps(sample=SAMPLE)

    async def scenario() -> dict[str, Any]:
        await asyncio.sleep(0.3)  # let the window settle
        gaps.start()
        t0 = time.perf_counter()
        desktop.window.send("stream", [])
        sid = desktop.window.session_id or ""
        while desktop.manager.is_running(sid) or not desktop.bridge.flushes:  # noqa: ASYNC110
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.05)
        out = measured(gaps)
        out["elapsed"] = (time.perf_counter() - t0) * 1000
        return out

    result = loop.run_until_complete(scenario())
    text = desktop.window.transcript.items[-1].text
    result["detail"] = (f"{deltas} deltas streamed in {result['elapsed']:.0f} ms; "
                        f"{desktop.bridge.flushes} coalesced repaints; "
                        f"transcript has {len(text)} chars")
    loop.run_until_complete(desktop.shutdown())
    rt.close()
    loop.close()  # joins qasync's worker threads: a QThread alive at exit aborts Python
    return result


def real(variant: str) -> dict[str, Any]:
    """A fresh app's first message through the real OpenAI SDK (see the docstring)."""
    home = temp_home()
    ring = home / "keyring.json"
    ring.write_text("{}")
    os.environ["OW_BENCH_KEYRING"] = str(ring)
    os.environ["PYTHON_KEYRING_BACKEND"] = "_benchkeyring.FileKeyring"
    os.environ["OPENAI_API_KEY"] = "sk-bench-not-a-real-key-0123456789"
    stub = subprocess.Popen([sys.executable, str(BENCH / "_openai_stub.py")],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert stub.stdout is not None
        port = int(stub.stdout.readline().split()[1])
        (home / "config").mkdir(parents=True, exist_ok=True)
        (home / "config" / "config.toml").write_text(
            '[general]\ndefault_model = "openai:gpt-4o-mini"\n\n'
            f'[providers.openai]\nbase_url = "http://127.0.0.1:{port}/v1"\n'
        )
        return _real_window(variant, home)
    finally:
        stub.kill()
        stub.wait()


def _real_window(variant: str, home: Path) -> dict[str, Any]:
    import qasync
    from PySide6.QtWidgets import QApplication

    from openworker_qt.app import DesktopApp, after_first_paint
    from openworker_qt.core import events as ev
    from openworker_qt.runtime import open_runtime

    app = QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    rt = open_runtime()
    warm_ups: list[threading.Thread] = []
    real_warm = rt.warm_in_background

    def warm_in_background(model: str | None = None) -> threading.Thread:
        thread = (threading.Thread(target=lambda: None) if variant == "real-unwarmed"
                  else real_warm(model))
        if variant == "real-unwarmed":
            thread.start()
        warm_ups.append(thread)
        return thread

    rt.warm_in_background = warm_in_background  # type: ignore[method-assign]
    desktop = DesktopApp(rt, workspace=home, enable_tray=False)
    desktop.window.resize(1100, 760)
    painted = asyncio.Event()
    after_first_paint(desktop.window, painted.set)
    desktop.window.show()
    gaps = LoopGaps(sample=SAMPLE)
    first_delta: list[float] = []
    errors: list[str] = []

    def on_event(event: ev.Event) -> None:
        if isinstance(event, ev.AssistantDelta) and not first_delta:
            first_delta.append(time.perf_counter())
        elif isinstance(event, ev.ErrorOccurred):
            errors.append(event.message)

    desktop.manager.listeners.append(on_event)

    async def scenario() -> dict[str, Any]:
        await painted.wait()
        if variant == "real-warmed":
            await asyncio.sleep(0.05)  # the warm-up starts right after the first paint
            await asyncio.to_thread(lambda: [t.join() for t in list(warm_ups)])
        elif variant == "real-idle":
            await asyncio.sleep(1.0)  # a second idle after the first paint, then Enter
        before = set(sys.modules)
        gaps.start()
        t0 = time.perf_counter()
        desktop.window.send("Say something.", [])
        sid = desktop.window.session_id or ""
        while desktop.manager.is_running(sid):  # noqa: ASYNC110
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.05)  # the last repaint
        out = measured(gaps)
        out["elapsed"] = (time.perf_counter() - t0) * 1000
        out["first"] = (first_delta[0] - t0) * 1000 if first_delta else float("nan")
        if SAMPLE:
            fresh = sorted(set(sys.modules) - before)
            sys.stderr.write(f"--- {len(fresh)} modules imported during the turn: {fresh}\n")
        return out

    result = loop.run_until_complete(scenario())
    text = desktop.window.transcript.items[-1].text
    if errors or "lorem" not in text:
        raise SystemExit(f"{variant}: the reply did not arrive: {errors or text[:200]!r}")
    result["detail"] = (f"first delta after {result['first']:.0f} ms, reply done in "
                        f"{result['elapsed']:.0f} ms ({len(text)} chars)")
    loop.run_until_complete(desktop.shutdown())
    rt.close()
    loop.close()
    return result


def child(case: str, deltas: int) -> int:
    result = (synthetic(deltas, code=case == "synthetic-code") if case.startswith("synthetic")
              else real(case))
    sys.stdout.flush()
    print("RESULT " + json.dumps(result), flush=True)
    return 0


def run_case(case: str, deltas: int, tree: str | None) -> dict[str, Any]:
    env = dict(os.environ)
    if tree:
        env["OW_BENCH_TREE"] = tree
    cmd = [sys.executable, __file__, "--case", case, "--deltas", str(deltas)]
    result, err = run_fresh(cmd, env)
    if result is None:
        raise SystemExit(f"ui_stall: {case} failed on {tree or 'this tree'}:\n{err[-3000:]}")
    result["load"] = os.getloadavg()[0]
    return result


def report(case: str, label: str, results: list[dict[str, Any]]) -> None:
    worst = max(r["worst"] for r in results)
    p99 = max(r["p99"] for r in results)
    cpu = max(r["worst_cpu"] for r in results)
    loop = statistics.median(r["loop_cpu"] for r in results)
    over = max(r["over"] for r in results)
    loads = ", ".join(f"{r['load']:.1f}" for r in results)
    print(f"ui_stall [{case:14}]{label} longest stall {worst:5.1f} ms, {over} gaps over 16 ms, "
          f"p99 {p99:4.1f} ms (worst of {len(results)}); loop CPU: longest between two ticks "
          f"{cpu:5.1f} ms, whole case {loop:5.0f} ms (median); load {loads} "
          f"— {results[0]['detail']}")
    causes = [Cause(**c) for r in results for c in r.get("causes", [])]
    if causes:
        for what, n, total, longest in top_causes(causes):
            print(f"ui_stall [{case:14}]{label}   {n:3} gaps, {total:6.0f} ms in all, longest "
                  f"{longest:5.1f} ms: {what}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deltas", type=int, default=2000)
    parser.add_argument("--case", choices=CASES, help="run one case in this process")
    parser.add_argument("--cases", nargs="+", choices=CASES, default=list(CASES))
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per case")
    parser.add_argument("--sample", action="store_true",
                        help="a stack sampler during each case: the top three causes of gaps over 16 ms")
    parser.add_argument("--against", metavar="DIR",
                        help="also run every case on the code of the checkout DIR, interleaved")
    args = parser.parse_args()
    if args.case:
        return child(args.case, args.deltas)
    if args.sample:
        os.environ["OW_BENCH_SAMPLE"] = "1"
    trees: list[tuple[str, str | None]] = [("", None)]
    if args.against:
        trees = [(" base", args.against), (" this", None)]
    print(f"ui_stall: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
          "(other processes inflate every figure; compare runs at a similar load)"
          + (f"; base = {args.against}, run interleaved" if args.against else ""))
    for case in args.cases:
        results: dict[str, list[dict[str, Any]]] = {label: [] for label, _ in trees}
        for _ in range(args.runs):
            for label, tree in trees:
                results[label].append(run_case(case, args.deltas, tree))
        for label, _ in trees:
            report(case, label, results[label])
    return 0


if __name__ == "__main__":
    sys.exit(main())
