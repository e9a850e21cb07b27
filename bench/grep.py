"""``grep`` over a 50,000-file tree: prints figures, asserts nothing.

Generates the tree in a temporary folder (200 folders × 250 small files, a few
hundred bytes each; one file in 50 holds the word), then times, in the same run:

* ``rg`` called directly with the options the tool passes (the floor);
* the ``grep`` tool through its handler (ripgrep, then sorting, fencing, capping);
* the tool's Python fallback (no ripgrep).

Each is run a few times after one warm-up (the page cache is warm for all of
them), the three interleaved; the median and the ratio to ripgrep are printed.
Run: ``.venv/bin/python bench/grep.py [files]``
"""

from __future__ import annotations

import asyncio
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openworker_qt.core.tool_api import ToolContext
from openworker_qt.tools import search

RUNS = 5
WORD = "zanzibar"


def make_tree(root: Path, files: int) -> None:
    per_dir = 250
    filler = "lorem ipsum dolor sit amet, consectetur adipiscing elit\n" * 4
    for i in range(files):
        d = root / f"d{i // per_dir:03}"
        if i % per_dir == 0:
            d.mkdir()
        body = filler + (f"line with {WORD} in it\n" if i % 50 == 0 else "")
        (d / f"f{i:05}.txt").write_text(body)


def timed(label: str, action: Callable[[], object]) -> float:
    action()  # warm-up
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    median = statistics.median(samples)
    print(f"{label}: median {median * 1000:.1f} ms (min {min(samples) * 1000:.1f}, "
          f"max {max(samples) * 1000:.1f}; {RUNS} runs)")
    return median


def main() -> None:
    files = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    rg = shutil.which("rg")
    with tempfile.TemporaryDirectory(prefix="ow-grep-") as tmp:
        root = Path(tmp)
        start = time.perf_counter()
        make_tree(root, files)
        print(f"tree: {files} files in {time.perf_counter() - start:.1f} s")
        ctx = ToolContext(session_id="bench", workspace=root)

        def tool() -> object:
            result = asyncio.run(search.grep({"pattern": WORD}, ctx))
            assert not result.is_error, result.content
            return result

        def fallback() -> object:
            return search._grep(root, WORD, False, False, root, use_rg=False)

        if rg is None:
            print("ripgrep (rg) is not installed: only the fallback is measured")
            timed("grep tool, Python fallback", fallback)
            return
        cmd = [*search._rg_command(rg, WORD, False, False), "--", "."]

        def direct() -> object:
            return subprocess.run(cmd, cwd=root, capture_output=True, check=False)

        # Interleaved, so a busy moment on a shared machine hits all three alike.
        samples: dict[str, list[float]] = {"rg directly": [], "grep tool (ripgrep)": [],
                                           "grep tool, Python fallback": []}
        actions = dict(zip(samples, (direct, tool, fallback), strict=True))
        for action in actions.values():
            action()  # warm-up
        for _ in range(RUNS):
            for label, action in actions.items():
                start = time.perf_counter()
                action()
                samples[label].append(time.perf_counter() - start)
        for label, times in samples.items():
            print(f"{label}: median {statistics.median(times) * 1000:.1f} ms "
                  f"(min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f}; {RUNS} runs)")
        floor, ours, slow = (statistics.median(t) for t in samples.values())
        print(f"ratio tool / rg: {ours / floor:.2f} (target ≤ 1.3)")
        print(f"ratio fallback / rg: {slow / floor:.2f}")


if __name__ == "__main__":
    main()
