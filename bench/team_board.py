#!/usr/bin/env python3
"""What the window's team board costs the GUI thread (issue 29: no loop-thread stall).

A real team store on a temp SQLite file holds one team of ``--items`` items; another
thread appends ``--events`` facts (spend of a random item, comments, stuck marks) as
the runner would. The board (``qt/team_board_model.py``: :class:`BoardFeed` and
:class:`TeamBoardModel`) takes them through the store's listeners, queued to the GUI
thread, and reads only the items they name on the next turn of the loop. Printed:

* opening the board (the one full read: the team and its items);
* one ``store.item()`` and one ``store.team()`` read (best, median);
* every flush (a batch of events shown): how many, events per flush, the reads made
  and the longest one on the GUI thread;
* the sidebar's Teams section refresh (the active teams and their items).

Figures are wall time on a shared machine (``uptime`` is printed).

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/team_board.py
    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/team_board.py --items 200 --events 5000
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--items", type=int, default=40)
    parser.add_argument("--events", type=int, default=2000)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from openworker_qt.qt.team_board_model import BoardFeed, TeamBoardModel
    from openworker_qt.storage.db import Database
    from openworker_qt.teams.model import Actor, Plan, PlanItem, WorkerSpec
    from openworker_qt.teams.store import TeamStore
    from openworker_qt.ui.team_sidebar import TeamSessions

    app = QApplication.instance() or QApplication([])
    db = Database(Path(tempfile.mkdtemp(prefix="ow-team-bench-")) / "state.sqlite3")
    store = TeamStore(db)
    workers = tuple(WorkerSpec(f"w{n}", "cowork") for n in range(4))
    plan = Plan("bench outcome", tuple(PlanItem(f"k{n}", f"Item {n}", "criteria", f"w{n % 4}")
                                       for n in range(args.items)), workers)
    team = store.create_team(plan.outcome, "lead")
    store.record(team.id, "plan_accepted", plan=plan.to_json())
    items = store.items(team.id)
    for n, item in enumerate(items):
        store.record(team.id, "item_session", item.id, session_id=f"s{n}", worker=item.assignee)

    model = TeamBoardModel()
    feed = BoardFeed(model, store)
    store.listeners.append(feed.listener)
    started = time.perf_counter()
    feed.open(team.id)
    opened = time.perf_counter() - started

    def timed(read: object, n: int = 200) -> tuple[float, float]:
        runs = []
        for _ in range(n):
            t = time.perf_counter()
            read()  # type: ignore[operator]
            runs.append(time.perf_counter() - t)
        return min(runs), statistics.median(runs)

    item_read = timed(lambda: store.item(items[len(items) // 2].id))
    team_read = timed(lambda: store.team(team.id))
    flushes: list[tuple[float, int]] = []
    before = [feed.reads]

    def on_flush() -> None:
        flushes.append((feed.last_flush_ms, feed.reads - before[0]))
        before[0] = feed.reads

    feed.flushed.append(on_flush)
    rng = random.Random(7)

    def runner() -> None:
        for n in range(args.events):
            item = rng.choice(items)
            kind = rng.random()
            if kind < 0.8:
                store.record(team.id, "spend", item.id, usd=0.001, tokens=50)
            elif kind < 0.95:
                store.act(Actor("lead"), "comment", team.id, item.id, text=f"note {n}")
            else:
                store.record(team.id, "item_stuck", item.id, stuck=rng.random() < 0.5)

    thread = threading.Thread(target=runner)
    t0 = time.perf_counter()
    thread.start()
    while thread.is_alive():
        app.processEvents()
    app.processEvents()
    feed.flush()
    wall = time.perf_counter() - t0
    tree = TeamSessions()
    tree.attach(store)
    tree_runs = []
    for _ in range(20):
        t = time.perf_counter()
        tree.refresh()
        tree_runs.append(time.perf_counter() - t)

    print(f"uptime: {os.popen('uptime').read().strip()}")
    print(f"team of {args.items} items; {args.events} events appended from another thread "
          f"in {wall:.2f} s")
    print(f"open (team + items, one reset): {ms(opened)}")
    print(f"store.item(): best {ms(item_read[0])}, median {ms(item_read[1])}")
    print(f"store.team(): best {ms(team_read[0])}, median {ms(team_read[1])}")
    longest = max((f for f, _ in flushes), default=0.0)
    reads = sum(r for _, r in flushes)
    print(f"flushes on the GUI thread: {len(flushes)} ({args.events / max(1, len(flushes)):.1f} "
          f"events each), {reads} reads, longest {longest:.3f} ms, "
          f"median {statistics.median(f for f, _ in flushes) if flushes else 0.0:.3f} ms")
    print(f"Teams section refresh (1 team, {args.items} items): best {ms(min(tree_runs))}, "
          f"median {ms(statistics.median(tree_runs))}")
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
