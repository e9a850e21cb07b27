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
sys.path.insert(0, str(BENCH.parent))
from _common import temp_home  # noqa: E402

CASES = ("synthetic", "synthetic-code", "real-warmed", "real-idle", "real-racing", "real-unwarmed")


class Sampler:
    """With ``OW_BENCH_SAMPLE=1``: the loop thread's stack every 0.5 ms (a thread), so
    the longest gap can be explained (printed to stderr)."""

    def __init__(self) -> None:
        self.on = bool(os.environ.get("OW_BENCH_SAMPLE"))
        self.samples: list[tuple[float, str]] = []
        self.main = threading.get_ident()
        self.running = False

    def start(self) -> None:
        if not self.on:
            return
        self.running = True
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        import traceback

        while self.running:
            frame = sys._current_frames().get(self.main)
            if frame is not None:
                stack = traceback.extract_stack(frame)[-14:]
                text = " <- ".join(f"{Path(f.filename).name}:{f.lineno}:{f.name}"
                                   for f in reversed(stack))
                self.samples.append((time.perf_counter(), text))
            time.sleep(0.0005)

    def explain(self, start: float, end: float) -> None:
        self.running = False
        if not self.on:
            return
        from collections import Counter

        seen = Counter(t for when, t in self.samples if start <= when <= end)
        sys.stderr.write(f"--- loop thread during the longest gap ({(end - start) * 1000:.1f} ms)\n")
        for text, n in seen.most_common(8):
            sys.stderr.write(f"{n:4} × {text}\n")


class Gaps:
    """The 1 ms timer and the gaps between its ticks."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.sampler = Sampler()
        self.ends: list[float] = []
        self.gaps: list[float] = []
        self.cpu_gaps: list[float] = []  # the loop thread's CPU time between ticks
        self.last = time.perf_counter()
        self.last_cpu = time.thread_time()
        self.cpu0 = self.last_cpu
        self.timer = QTimer()
        self.timer.setInterval(1)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        cpu = time.thread_time()
        self.gaps.append(now - self.last)
        self.cpu_gaps.append(cpu - self.last_cpu)
        self.ends.append(now)
        self.last = now
        self.last_cpu = cpu

    def start(self) -> None:
        self.gaps.clear()
        self.cpu_gaps.clear()
        self.ends.clear()
        self.last = time.perf_counter()
        self.last_cpu = self.cpu0 = time.thread_time()
        self.timer.start()
        self.sampler.start()

    def stop(self) -> dict[str, float]:
        self.timer.stop()
        self._tick()  # the gap up to now counts too
        i = max(range(len(self.gaps)), key=self.gaps.__getitem__)
        self.sampler.explain(self.ends[i] - self.gaps[i], self.ends[i])
        ms = sorted(g * 1000 for g in self.gaps)
        t0 = self.ends[0] - self.gaps[0] if self.ends else 0.0
        top = sorted(range(len(self.cpu_gaps)), key=self.cpu_gaps.__getitem__)[-3:]
        where = [(round((self.ends[j] - t0) * 1000), round(self.cpu_gaps[j] * 1000, 1)) for j in top]
        return {"worst": ms[-1], "p99": ms[max(0, int(len(ms) * 0.99) - 1)], "ticks": len(ms),
                "cpu_top": where,  # (ms after the send, loop-thread CPU ms) of the 3 largest

                "worst_cpu": max(self.cpu_gaps) * 1000,
                "loop_cpu": (self.last_cpu - self.cpu0) * 1000}


def _code_chunks(deltas: int) -> list[str]:
    """Deltas of a reply alternating a paragraph and a 40-line fenced Python block."""
    out: list[str] = []
    n = 0
    while len(out) < deltas:
        out += ["Here ", "is ", "the ", "`next` ", "part:\n\n", "```python\n"]
        for i in range(40):
            out += [f"value_{n}_{i} ", f"= compute({i}, ", '"text")', "\n"]
        out += ["```\n\n"]
        n += 1
    return out[:deltas]


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
    chunks = _code_chunks(deltas) if code else [words[i % len(words)] for i in range(deltas)]
    script = home / "stream.json"
    script.write_text(json.dumps([{"chunks": chunks}]))
    rt = open_runtime()
    rt.config.data["general"]["default_model"] = f"scripted:{script}"
    desktop = DesktopApp(rt, workspace=home, enable_tray=False)
    desktop.window.resize(1100, 760)
    desktop.window.show()
    gaps = Gaps()

    async def scenario() -> dict[str, Any]:
        await asyncio.sleep(0.3)  # let the window settle
        gaps.start()
        t0 = time.perf_counter()
        desktop.window.send("stream", [])
        sid = desktop.window.session_id or ""
        while desktop.manager.is_running(sid) or not desktop.bridge.flushes:  # noqa: ASYNC110
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.05)
        out = gaps.stop()
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
    gaps = Gaps()
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
        out = gaps.stop()
        out["elapsed"] = (time.perf_counter() - t0) * 1000
        out["first"] = (first_delta[0] - t0) * 1000 if first_delta else float("nan")
        if os.environ.get("OW_BENCH_SAMPLE"):
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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deltas", type=int, default=2000)
    parser.add_argument("--case", choices=CASES, help="run one case in this process")
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per case")
    args = parser.parse_args()
    if args.case:
        return child(args.case, args.deltas)
    print(f"ui_stall: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
          "(other processes inflate every figure; compare runs at a similar load)")
    for case in CASES:
        results = []
        for _ in range(args.runs):
            proc = subprocess.run(
                [sys.executable, __file__, "--case", case, "--deltas", str(args.deltas)],
                capture_output=True, text=True, check=False,
            )
            line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
            if proc.returncode != 0 or line is None:
                print(f"ui_stall: {case} failed:\n{proc.stderr[-3000:]}")
                return 1
            results.append(json.loads(line[len("RESULT "):]))
        worst = max(r["worst"] for r in results)
        p99 = max(r["p99"] for r in results)
        cpu = max(r["worst_cpu"] for r in results)
        loop = statistics.median(r["loop_cpu"] for r in results)
        print(f"ui_stall [{case:13}] longest stall {worst:5.1f} ms, p99 tick gap {p99:4.1f} ms "
              f"(worst of {args.runs} fresh processes; budget 16 ms); loop-thread CPU: longest "
              f"between two ticks {cpu:5.1f} ms, whole case {loop:6.0f} ms (median) "
              f"— {results[0]['detail']}")
        heavy = max(results, key=lambda r: r["worst_cpu"])["cpu_top"]
        print(f"ui_stall [{case:13}]   the three largest loop-CPU gaps of that process "
              f"(ms after Enter, CPU ms): {heavy}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
