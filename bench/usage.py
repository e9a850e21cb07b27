#!/usr/bin/env python3
"""The cost of reading a long session's token usage (the status bar's label, each
time the session is opened), before and after the running totals of schema step 5.

Writes a database at schema step 4 holding one session of N messages (user
questions, assistant tool calls and answers carrying usage from two models,
tool results, notices) once under ``--cache``; each run copies it, then prints:

* before: the sum over the session's messages the label ran (CPU time of the
  calling thread and wall time, best and median of several reads, page cache warm);
* the one-off back-fill of the totals by the upgrade (``storage/upgrade.py``,
  run in a worker by the app before its stores open);
* after: reading the kept totals (``storage/usage.py: session_usage``);
* what the triggers add to storing a message (inserts of assistant replies
  carrying usage) and to deleting the session, on the upgraded database and on
  a step-4 copy.

Figures are CPU time first: the machine may be shared (``uptime`` is printed).

    .venv/bin/python bench/usage.py                      # 1,000,000 messages
    .venv/bin/python bench/usage.py --messages 100000
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openworker_qt.domain.usage import KEYS
from openworker_qt.storage.conversation_schema import MIGRATIONS
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.storage.upgrade import upgrade
from openworker_qt.storage.usage import session_usage

CACHE = Path(os.environ.get("TMPDIR", "/tmp")) / "ow-bench-usage"
SID = "bench-session"
#: The label's sum before the running totals (storage/usage.py before step 5).
OLD_SCAN = (
    "SELECT COALESCE(json_extract(data, '$.model'), '') AS model, COUNT(*) AS calls, "
    + ", ".join(f"SUM(COALESCE(json_extract(data, '$.usage.{k}'), 0))" for k in KEYS)
    + " FROM messages WHERE session_id = ? AND id > ? AND role IN ('assistant', 'notice')"
    " AND json_extract(data, '$.usage') IS NOT NULL GROUP BY model ORDER BY calls DESC"
)


def rows(n: int) -> Iterator[tuple[str, str, str, float]]:
    body = "\n".join(f"{k:4} line {k} of the file" for k in range(1, 30))
    made = i = 0
    now = time.time()
    while True:
        model = "anthropic:claude-sonnet-4-5" if i % 3 else "openai:gpt-5"
        usage = {"input_tokens": 1_000 + i % 500, "output_tokens": 40 + i % 7,
                 "cache_read_tokens": 800, "reasoning_tokens": i % 11}
        turn = [
            {"role": "user", "content": f"Question {i}: what changed in module {i % 37}?"},
            {"role": "assistant", "content": None, "model": model, "usage": usage, "tool_calls": [{
                "id": f"c{i}", "type": "function",
                "function": {"name": "read_file", "arguments": json.dumps({"path": f"src/m{i % 37}.py"})}}]},
            {"role": "tool", "tool_call_id": f"c{i}", "name": "read_file", "status": "ok", "content": body},
            {"role": "assistant", "model": model, "usage": usage, "content": (
                f"Module {i % 37} changed in **three** places:\n\n- the parser now accepts "
                "`--json`\n- errors carry a *kind*\n- the retry loop backs off")},
        ]
        if i % 10 == 0:
            turn.append({"role": "notice", "kind": "model_switch", "text": "Switched model."})
        for m in turn:
            if made == n:
                return
            yield (SID, str(m["role"]), json.dumps(m), now)
            made += 1
        i += 1


def cached_old(cache: Path, n: int) -> Path:
    path = cache / f"{n}-step4.sqlite3"
    if path.exists():
        return path
    cache.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(".part")
    part.unlink(missing_ok=True)
    print(f"writing {n:,} messages to {path} (once) …", flush=True)
    db = Database(part)
    db.ensure("conversations", MIGRATIONS[:4])
    with db.transaction() as conn:
        conn.execute("INSERT INTO sessions(id, title, created_at, updated_at) VALUES (?, ?, 0, 0)",
                     (SID, f"{n:,} messages"))
        conn.executemany(
            "INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, ?)", rows(n))
        conn.execute("UPDATE sessions SET message_count = ? WHERE id = ?", (n, SID))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    part.rename(path)
    return path


def timed(action: Callable[[], object], rounds: int) -> tuple[list[float], list[float]]:
    cpu, wall = [], []
    for _ in range(rounds):
        c0, w0 = time.thread_time(), time.perf_counter()
        action()
        cpu.append(time.thread_time() - c0)
        wall.append(time.perf_counter() - w0)
    return cpu, wall


def ms(values: list[float]) -> str:
    return f"best {min(values) * 1e3:8.3f} ms, median {statistics.median(values) * 1e3:8.3f} ms"


def appends(db: Database, count: int) -> float:
    """CPU seconds per stored assistant reply carrying usage (the statement append
    runs, on its own commit): the triggers' share of storing a message."""
    reply = json.dumps({"role": "assistant", "content": "ok", "model": "openai:gpt-5",
                        "usage": {"input_tokens": 10, "output_tokens": 3, "cache_read_tokens": 4}})
    c0 = time.thread_time()
    for _ in range(count):
        db.execute("INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, ?)",
                   (SID, "assistant", reply, time.time()))
    return (time.thread_time() - c0) / count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    old = cached_old(args.cache, args.messages)
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    with tempfile.TemporaryDirectory(prefix="ow-bench-usage-", dir=args.cache) as tmp:
        path = Path(tmp) / "state.sqlite3"
        shutil.copyfile(old, path)
        db = Database(path)
        db.query(OLD_SCAN, (SID, 0))  # page cache warm, as for a session just painted
        scan = lambda: db.query(OLD_SCAN, (SID, 0))  # noqa: E731
        before = db.query(OLD_SCAN, (SID, 0))
        cpu, wall = timed(scan, args.rounds)
        print(f"{args.messages:,} messages, usage on {sum(r['calls'] for r in before):,} of them")
        print(f"before (sum over the messages):  CPU {ms(cpu)}; wall {ms(wall)}")
        db.close()

        c0, w0 = time.thread_time(), time.perf_counter()
        upgrade(path)
        print(f"upgrade, back-fill of the totals (once, in a worker): CPU "
              f"{(time.thread_time() - c0):.2f} s, wall {(time.perf_counter() - w0):.2f} s")

        db = Database(path)
        ConversationStore(db)
        after = session_usage(db, SID)
        same = ({(str(r["model"]), *map(int, tuple(r)[1:])) for r in before}
                == {(r.model, r.calls, *(getattr(r.usage, k) for k in KEYS)) for r in after})
        cpu, wall = timed(lambda: session_usage(db, SID), args.rounds * 20)
        print(f"after  (the kept totals):        CPU {ms(cpu)}; wall {ms(wall)}"
              f"   (same figures as the sum: {same})")
        per_new = appends(db, 2_000)
        db.close()

        step4 = Path(tmp) / "step4.sqlite3"
        shutil.copyfile(old, step4)
        db = Database(step4)
        per_old = appends(db, 2_000)
        db.close()
        for label, at in (("step 4", step4), ("with the totals' triggers", path)):
            gone = Database(at)
            cpu, wall = timed(lambda: gone.execute("DELETE FROM sessions WHERE id = ?", (SID,)), 1)  # noqa: B023
            gone.close()
            print(f"deleting the session ({label}): CPU {cpu[0]:.2f} s, wall {wall[0]:.2f} s")
        print(f"storing a reply carrying usage: CPU {per_old * 1e6:.0f} µs at step 4, "
              f"{per_new * 1e6:.0f} µs with the totals' triggers")
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
