#!/usr/bin/env python3
"""Many sessions: start-up, sidebar scroll and search per key at 10k and 100k sessions.

Fills a fresh database with N sessions (each with a question and an answer,
indexed for search as the app writes them; a tenth of them in Chinese), spread
over the last two years, then starts the real window (offscreen) and measures:

* start-up: building the window until the sidebar's first paint with rows;
* sidebar scroll: jumps through the whole list (top, 10 places, bottom), each
  followed by a repaint; the longest event-loop stall meanwhile;
* search per key: a word typed a key every 60 ms (every key starts the search
  in a worker at once; the one it replaces is stopped there): the loop's time
  in each key's handler (wall and the loop thread's CPU), the longest stall while
  typing, and the time from the last key until its results are on screen (the
  list repainted with its first page), and until all its hits are counted (the
  rest of the rows added below the first page); for a rare word (one session), a common one (a
  tenth), a Chinese word inside sentences (a tenth), and clearing the search;
* every session reachable: the number of rows the sidebar offers;
* each search alone, the CPU time of the thread running it (first page, every hit).

Targets: no stall over 16 ms; results within 50 ms of the last key.
The load average and the process's CPU time are printed beside the figures.

    .venv/bin/python bench/sessions.py                  # 10k and 100k, a process each
    .venv/bin/python bench/sessions.py --sessions 10000
    .venv/bin/python bench/sessions.py --upgrade 100000   # 1M messages in the old schema
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _common import LoopGaps, rss_mib, temp_home

SIZES = (10_000, 100_000)
WORDS = ("renewal brief quarterly report budget calendar release deploy invoice customer "
         "meeting agenda roadmap hiring review contract pricing migration incident outage "
         "analysis survey design launch partner forecast payroll audit summary draft").split()


CJK_WORDS = ("季度报告", "预算表", "会议纪要", "合同草案", "客户名单")


def fill(db, n: int) -> None:  # type: ignore[no-untyped-def]
    import json

    from openworker_qt.storage.search_text import index_text

    rng = random.Random(7)
    now = time.time()
    with db.transaction() as conn:
        next_id = int(conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM messages").fetchone()[0])
        for i in range(n):
            sid = f"s{i:08d}"
            title = " ".join(rng.choice(WORDS) for _ in range(3)).capitalize()
            ts = now - rng.random() * 2 * 365 * 86400
            conn.execute("INSERT INTO sessions(id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                         (sid, title, ts, ts))
            question = f"Please prepare the {rng.choice(WORDS)} for {rng.choice(WORDS)} {i}"
            if i % 10 == 0:
                question += " with the zebra numbers"  # a common word (a tenth)
            if i % 10 == 5:  # Chinese, the word searched for inside the sentence
                question = f"请把第{i}份{rng.choice(CJK_WORDS)}发给我，谢谢"
            if i == n // 2:
                question += " and the okapi figures"  # a rare word (one session)
            answer = f"Here is the {rng.choice(WORDS)} you asked for, with the {rng.choice(WORDS)}."
            for role, text in (("user", question), ("assistant", answer)):
                conn.execute(
                    "INSERT INTO messages(id, session_id, role, data, created_at) VALUES (?, ?, ?, ?, ?)",
                    (next_id, sid, role, json.dumps({"role": role, "content": text}), ts))
                conn.execute("INSERT INTO message_search(rowid, text, session_id) VALUES (?, ?, ?)",
                             (next_id, index_text(text), sid))
                next_id += 1
        conn.execute("UPDATE search_backfill SET below = 0")
        conn.execute("UPDATE search_respace SET below = 0, titles_below = 0")
    from openworker_qt.storage.conversations import ConversationStore

    store = ConversationStore(db)
    while store.backfill_search(chunk=5000):  # the titles' words (written by plain SQL above)
        pass


def one(n: int) -> int:
    temp_home()
    import qasync
    from PySide6.QtCore import QEvent, QObject, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from openworker_qt.runtime import open_runtime

    app = QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    rt = open_runtime()
    t = time.perf_counter()
    fill(rt.db, n)
    filled = time.perf_counter() - t
    rss0 = rss_mib()
    from openworker_qt.app import DesktopApp

    painted: list[float] = []
    painted_cpu: list[float] = []
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    desktop = DesktopApp(rt, enable_tray=False)
    window = desktop.window
    sidebar = window.sidebar
    model = window.sessions

    class PaintWatch(QObject):
        def eventFilter(self, obj, event):  # type: ignore[no-untyped-def]
            if event.type() == QEvent.Type.Paint and model.rowCount() and not painted:
                painted.append(time.perf_counter())
                painted_cpu.append(time.process_time())
            return False

    watch = PaintWatch()
    sidebar.list.viewport().installEventFilter(watch)
    window.resize(1100, 760)
    window.show()
    ticks = LoopGaps()
    stall = ticks.reset

    async def scenario() -> dict[str, float]:
        out: dict[str, float] = {}
        while not painted:  # noqa: ASYNC110
            await asyncio.sleep(0.001)
        out["startup"] = painted[0] - t0
        out["startup_cpu"] = painted_cpu[0] - cpu0
        await asyncio.sleep(0.5)
        await asyncio.to_thread(lambda: None)
        ticks.start()
        stall()
        c0 = time.process_time()
        bar = sidebar.list.verticalScrollBar()
        t1 = time.perf_counter()
        jumps = [0] + [bar.maximum() * k // 10 for k in range(1, 10)] + [bar.maximum()]
        for value in jumps:
            bar.setValue(value)
            sidebar.list.viewport().repaint()
            await asyncio.sleep(0.02)
        out["scroll_each"] = (time.perf_counter() - t1) / len(jumps) - 0.02
        out["scroll_stall"] = stall()
        last_row = model.index(model.rowCount() - 1, 0).data(Qt.ItemDataRole.DisplayRole)
        out["reachable"] = float(model.session_count() if last_row else 0)
        out["scroll_cpu"] = time.process_time() - c0
        sidebar.list.scrollToTop()
        sidebar.list.setCurrentIndex(model.index(3, 0))  # a session open (its row follows it)
        await asyncio.sleep(0.3)
        c0 = time.process_time()
        shown: list[float] = []

        class ShownWatch(QObject):  # the first repaint of the list after a search is done
            def eventFilter(self, obj, event):  # type: ignore[no-untyped-def]
                if event.type() == QEvent.Type.Paint and waiting[0]:
                    waiting[0] = False
                    shown.append(time.perf_counter())
                return False

        waiting = [False]
        shown_watch = ShownWatch()
        sidebar.list.viewport().installEventFilter(shown_watch)
        model.results_shown.connect(lambda _t: waiting.__setitem__(0, True))
        for word, key in (("okapi", "rare"), ("zebra", "common"), (("季度", "报告"), "chinese"),
                          ("", "clear")):
            if key != "clear":
                sidebar.search.clear()
                await asyncio.sleep(0.4)
            done: list[float] = []
            final = "".join(word)  # the results that count: those of the whole word
            model.results_shown.connect(
                lambda text, d=done, f=final: d.append(time.perf_counter()) if text == f else None)
            counted: list[float] = []
            model.search_done.connect(
                lambda text, d=counted, f=final: d.append(time.perf_counter()) if text == f else None)
            shown.clear()
            stalls_before = model.stale_stopped
            stall()
            handler: list[float] = []
            handler_cpu: list[float] = []
            for piece in (word if word else (None,)):
                c = time.thread_time()
                t = time.perf_counter()
                if piece is None:
                    sidebar.search.clear()
                elif len(piece) > 1 or not piece.isascii():  # an input method commits the word
                    sidebar.search.insert(piece)
                else:
                    QTest.keyClick(sidebar.search, piece)
                typed = time.perf_counter()
                handler.append(typed - t)
                handler_cpu.append(time.thread_time() - c)
                await asyncio.sleep(0.06)
            while not done or not shown or shown[-1] < done[-1] or not counted:  # noqa: ASYNC110
                await asyncio.sleep(0.001)
            out[f"{key}_after_key"] = done[-1] - typed
            out[f"{key}_counted"] = counted[-1] - typed
            out[f"{key}_shown"] = shown[-1] - typed
            out[f"{key}_hits"] = float(model.session_count())
            out[f"{key}_stall"] = stall()
            out[f"{key}_handler"] = max(handler)
            out[f"{key}_handler_cpu"] = max(handler_cpu)
            out[f"{key}_stopped"] = float(model.stale_stopped - stalls_before)
            out[f"{key}_keys"] = float(len(handler))
        out["search_cpu"] = time.process_time() - c0
        ticks.stop()
        out["rss"] = rss_mib() - rss0
        return out

    r = loop.run_until_complete(scenario())
    cpu = search_cpu(rt.conversations)
    load = os.getloadavg()
    head = f"sessions {n:>7,}:"
    print(f"{head} filled in {filled:.1f} s; start-up to the sidebar's first paint "
          f"{r['startup'] * 1000:.0f} ms (CPU {r['startup_cpu'] * 1000:.0f} ms); every session "
          f"reachable: {int(r['reachable']):,} rows")
    print(f"{head} sidebar scroll {r['scroll_each'] * 1000:.1f} ms a jump, longest stall "
          f"{r['scroll_stall'] * 1000:.1f} ms (target <= 16 ms); CPU {r['scroll_cpu'] * 1000:.0f} ms")
    names = {"rare": "rare word 'okapi'", "common": "common word 'zebra'",
             "chinese": "Chinese '季度'+'报告'", "clear": "clearing the search"}
    for key, name in names.items():
        print(f"{head} {name} ({int(r[key + '_keys'])} keys, {int(r[key + '_hits']):,} rows): results "
              f"{r[key + '_after_key'] * 1000:.0f} ms after the last key, on screen "
              f"{r[key + '_shown'] * 1000:.0f} ms after it (target <= 50 ms), all counted "
              f"{r[key + '_counted'] * 1000:.0f} ms after it; per key the loop "
              f"spent <= {r[key + '_handler'] * 1000:.1f} ms (CPU {r[key + '_handler_cpu'] * 1000:.1f}"
              f" ms); longest stall {r[key + '_stall'] * 1000:.1f} ms (target <= 16 ms); "
              f"stale searches stopped: {int(r[key + '_stopped'])}")
    for text, (hits, first, whole) in cpu.items():
        print(f"{head} search {text!r} alone ({hits:,} hits), the thread's CPU: first page "
              f"{first * 1000:.1f} ms, every hit {whole * 1000:.1f} ms (best of 5)")
    print(f"{head} memory +{r['rss']:.0f} MiB; search phase CPU {r['search_cpu'] * 1000:.0f} ms "
          f"(process); load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    loop.run_until_complete(desktop.shutdown())
    rt.close()
    loop.close()
    return 0


def search_cpu(store) -> dict[str, tuple[int, float, float]]:  # type: ignore[no-untyped-def]
    """The CPU time of a search on this thread (not the wall time: the machine may be
    shared), until its first page of hits is read and until every hit is."""
    out: dict[str, tuple[int, float, float]] = {}
    for text in ("okapi", "zebra", "季度报告"):
        first = whole = float("inf")
        hits = []
        for _ in range(5):
            at: list[float] = []
            c = time.thread_time()
            hits = store.search_sessions(text, first=50, on_first=lambda _h, a=at: a.append(time.thread_time()))
            end = time.thread_time()
            whole = min(whole, end - c)
            first = min(first, (at[0] if at else end) - c)
        out[text] = (len(hits), first, whole)
    return out


def upgrade(n: int, per_session: int = 10) -> int:
    """The first start after an update: a database of the first schema with ``n``
    sessions of ``per_session`` messages, brought up to date by the app's path
    (in a worker, its window on screen); the GUI loop's longest stall meanwhile."""
    import json

    home = temp_home()
    from PySide6.QtWidgets import QApplication

    from openworker_qt.storage.conversation_schema import MIGRATIONS
    from openworker_qt.storage.db import Database
    from openworker_qt.storage.paths import app_paths
    from openworker_qt.ui.upgrade_window import prepare_database

    app = QApplication([])
    path = app_paths().ensure().database
    db = Database(path)
    db.ensure("conversations", MIGRATIONS[:1])
    t = time.perf_counter()
    with db.transaction() as conn:
        for s in range(n):
            sid = f"s{s:08d}"
            conn.execute("INSERT INTO sessions(id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                         (sid, f"Session {s}", s, s))
            for m in range(per_session):
                role = ("user", "assistant", "tool")[m % 3]
                msg = {"role": role, "content": f"message {m} of session {s} " + "words " * 40}
                if role == "tool":
                    msg["name"] = "read_file"
                conn.execute("INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, ?)",
                             (sid, role, json.dumps(msg), s))
    db.close()
    filled = time.perf_counter() - t
    size = path.stat().st_size / 2**20
    ticks = LoopGaps()
    gaps = ticks.gaps
    ticks.start()
    t = time.perf_counter()
    c = time.process_time()
    prepare_database(path)
    took, cpu = time.perf_counter() - t, time.process_time() - c
    ticks.stop()
    load = os.getloadavg()
    print(f"upgrade {n:,} sessions, {n * per_session:,} messages ({size:.0f} MiB; filled in "
          f"{filled:.0f} s): schema steps {took:.2f} s (process CPU {cpu:.2f} s) in a worker; the "
          f"GUI loop ran {len(gaps)} turns meanwhile, longest stall {max(gaps, default=0) * 1000:.1f} ms"
          f" (target <= 16 ms); load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    del app
    import shutil

    shutil.rmtree(home, ignore_errors=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=0, help="one size (default: 10k and 100k)")
    parser.add_argument("--upgrade", type=int, default=0,
                        help="time the first start after an update over this many sessions")
    args = parser.parse_args()
    if args.upgrade:
        return upgrade(args.upgrade)
    if args.sessions:
        return one(args.sessions)
    status = 0
    for n in SIZES:
        status |= subprocess.call([sys.executable, __file__, "--sessions", str(n)])
    return status


if __name__ == "__main__":
    sys.exit(main())
