"""System prompt assembly and the per-call reminder on a long session: prints
figures, asserts nothing.

A real runtime (``open_runtime()`` on a temp state dir), a session of the Code
persona in a workspace holding an ``AGENTS.md`` (12 KB) and 40 skills, and a
history of 10,000 messages (user, assistant with a tool call, its result, one
``todo_write`` every 200 messages). Measured, per turn, on the loop's side
(what ``SessionManager`` does at every turn start and every model call):

* ``system_prompt(info)``: the prompt assembled from the prepared sources;
* the engine's reminder on the 10,000-message history: the first call scans it
  all, later calls only the messages added since;
* memory: the traced heap after 1,000 more turns (prompt + reminder each),
  which should stay flat.

Also, off the loop: ``prepare(info)`` (the worker reading AGENTS.md and the skills).
Target (issue 11): assembly ≤ 5 ms per turn, memory growth flat.

Run: ``.venv/bin/python bench/prompt.py``
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def history(n: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    i = 0
    while len(out) < n:
        out.append({"role": "user", "content": f"step {i}: please continue with the report"})
        out.append({"role": "assistant", "content": "Reading the next file.",
                    "tool_calls": [{"id": f"c{i}", "name": "read_file",
                                    "arguments": {"path": f"notes/{i}.md"}}]})
        if i % 70 == 0:
            todos = [{"id": str(k), "text": f"task {k}", "status": "pending"} for k in range(8)]
            out.append({"role": "tool", "tool_call_id": f"c{i}", "name": "todo_write",
                        "content": "ok", "status": "ok", "_display": {"todos": todos}})
        else:
            out.append({"role": "tool", "tool_call_id": f"c{i}", "name": "read_file",
                        "content": "x" * 400, "status": "ok"})
        i += 1
    return out[:n]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def main() -> int:
    home = Path(tempfile.mkdtemp(prefix="ow-bench-prompt-"))
    os.environ["OPENWORKER_HOME"] = str(home)
    os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    from openworker_qt.runtime import open_runtime

    ws = home / "project"
    ws.mkdir()
    (ws / "AGENTS.md").write_text("Run the tests before every commit.\n" * 350)
    for k in range(40):
        folder = ws / ".openworker" / "skills" / f"skill-{k:02d}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: skill-{k:02d}\ndescription: does task number {k} the careful way\n"
            "---\nSteps.\n")
    rt = open_runtime()
    try:
        manager = rt.session_manager(default_model="scripted:none")
        info = manager.create_session(workspace=str(ws), persona="code")
        t = time.perf_counter()
        rt.minds.warm(info)
        print(f"prepare (worker: personas, AGENTS.md, 40 skills), first: {ms(time.perf_counter() - t)}")
        samples = []
        for _ in range(20):
            t = time.perf_counter()
            rt.minds.warm(info)
            samples.append(time.perf_counter() - t)
        print(f"prepare at each later turn (unchanged files are only stat'ed): "
              f"median {ms(statistics.median(samples))}")
        prompt = rt.minds.system_prompt(info)
        print(f"prompt: {len(prompt):,} characters")
        samples = []
        for _ in range(200):
            t = time.perf_counter()
            again = rt.minds.system_prompt(info)
            samples.append(time.perf_counter() - t)
        assert again == prompt
        print(f"system_prompt per turn: median {ms(statistics.median(samples))}, "
              f"max {ms(max(samples))} (target ≤ 5 ms)")

        msgs = history(10_000)
        remind = rt.minds.reminder(info)
        t = time.perf_counter()
        first = remind(msgs)
        print(f"reminder, first call on 10,000 messages: {ms(time.perf_counter() - t)} "
              f"({len(first)} characters)")
        samples = []
        for _ in range(200):
            msgs.append({"role": "assistant", "content": "more"})
            t = time.perf_counter()
            remind(msgs)
            samples.append(time.perf_counter() - t)
        print(f"reminder per model call after that: median {ms(statistics.median(samples))}")

        extra = [{"role": "assistant", "content": "more"} for _ in range(3_000)]
        msgs.extend([None] * 3_000)  # type: ignore[list-item]  (room made before tracing)
        del msgs[-3_000:]
        tracemalloc.start()
        growth = []
        snapshot = None
        for rnd in range(3):
            for k in range(1_000):
                rt.minds.system_prompt(info)
                msgs.append(extra[rnd * 1_000 + k])  # made before tracing (dicts are recycled)
                remind(msgs)
            current = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(True, "*openworker_qt*")])
            if snapshot is not None:
                growth.append(sum(s.size_diff for s in current.compare_to(snapshot, "filename")))
            snapshot = current
        tracemalloc.stop()
        print("heap growth inside openworker_qt per 1,000 more turns: "
              + ", ".join(f"{g / 1024:.1f} KB" for g in growth)
              + " (the first 1,000 warm the caches)")
    finally:
        rt.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
