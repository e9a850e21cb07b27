#!/usr/bin/env python3
"""Soak: N turns across M sessions in one app process (offscreen, real window).

Each turn opens its session in the window (as a user switching between
sessions would) and runs a turn through the real engine, bridge, transcript and
sidebar against a scripted model that streams its answer. Every block of turns
prints RSS, Python objects, QObjects, open file descriptors and the longest
event-loop stall of the block (1 ms timer ticks), then the growth per 100 turns
after the first block (the warm-up: caches, fonts, first imports).

Target: RSS growth <= 1 MiB per 100 turns at 1,000 turns across 100 sessions;
no stall over 16 ms.

``--one-session`` runs every turn in ONE session left open in the window (a user
who keeps one conversation going for weeks): each block also prints the rows the
transcript view holds, the rows' cached sizes and text documents in its
delegate, and the session's stored messages. Target: rows and documents stay
bounded (the window's pages and the tail) however many turns run.

``--work`` is a working session (issue 26, target 6): one session open in the
window, each turn a model call that reads a file and writes one (two tool cards,
a file chip) and then an answer of ~1,500 characters streamed in ~120 deltas,
as a model sends them (``--delay`` between deltas); the window at each of
``--widths`` (a fresh process each). Every block prints the session's rows, the
view's rows, the longest stall and the gaps over 16 ms of its turns, the loop
thread's most CPU between two ticks and RSS; at the end the rows at which stalls
over 16 ms came, and RSS per 100 turns after the first block. With ``--sample``
the top three causes of the gaps over 16 ms (``_stacks``). Target: no stall over
16 ms at 50, 200 and 1,000 rows; RSS <= 1 MiB per 100 turns.

    .venv/bin/python bench/soak.py [--turns 1000] [--sessions 100] [--block 100]
    .venv/bin/python bench/soak.py --one-session [--turns 1000] [--block 100]
    .venv/bin/python bench/soak.py --work [--turns 250] [--block 10] [--widths 800 1440]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, os.environ.get("OW_BENCH_TREE") or str(Path(__file__).resolve().parents[1]))
from _common import LoopGaps, rss_mib, temp_home
from _work_session import work_main


def fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--block", type=int, default=100)
    parser.add_argument("--one-session", action="store_true",
                        help="every turn in one session kept open (the view's rows per block)")
    parser.add_argument("--work", action="store_true",
                        help="a working session: tool cards and streamed answers, per width")
    parser.add_argument("--widths", type=int, nargs="+", default=[800, 1440])
    parser.add_argument("--width", type=int, help=argparse.SUPPRESS)  # (one width, this process)
    parser.add_argument("--delay", type=float, default=0.002, help="seconds between deltas (--work)")
    parser.add_argument("--sample", action="store_true", help="the causes of gaps over 16 ms (--work)")
    parser.add_argument("--against", metavar="DIR", help="--work on the checkout DIR too, interleaved")
    args = parser.parse_args()
    if args.work:
        return work_main(args, __file__)
    if args.one_session:
        args.sessions = 1
    home = temp_home()
    import qasync
    from PySide6.QtCore import QObject
    from PySide6.QtWidgets import QApplication

    from openworker_qt.app import DesktopApp
    from openworker_qt.runtime import open_runtime

    script = home / "script.json"
    answer = ("Here is the **summary** you asked for:\n\n- revenue is up\n- costs are flat\n\n"
              "```text\nnext step: send the brief\n```\n")
    chunks = [answer[i:i + 12] for i in range(0, len(answer), 12)]
    script.write_text(json.dumps({"turns": [{"chunks": chunks, "repeat": True}]}))
    model = f"scripted:{script}"

    app = QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    rt = open_runtime()
    desktop = DesktopApp(rt, enable_tray=False)
    window = desktop.window
    window.resize(1100, 760)
    window.show()
    manager = desktop.manager
    sessions = [manager.create_session(title=f"Soak {i}", model=model,
                                       workspace=str(home)).id
                for i in range(args.sessions)]
    window.refresh_sessions()

    ticks = LoopGaps()

    def qobjects() -> int:
        tops = QApplication.topLevelWidgets()
        return len(tops) + sum(len(w.findChildren(QObject)) for w in tops) + len(
            app.findChildren(QObject))

    def view_figures() -> str:
        """The transcript view's rows, cached row sizes and documents, stored messages."""
        delegate = window.view.delegate
        return (f"  {window.transcript.rowCount():>5} {len(delegate._heights):>5} "
                f"{len(delegate._docs):>5} {rt.conversations.count(sessions[0]):>6}")

    most_rows = [0]  # the most rows the view held after any turn

    def sample() -> tuple[float, int, int, int]:
        gc.collect()
        return rss_mib(), len(gc.get_objects()), qobjects(), fds()

    async def scenario() -> list[tuple[int, float, int, int, int, float, float]]:
        await asyncio.sleep(0.3)
        await asyncio.to_thread(lambda: None)
        rows = []
        rss, objs, qobjs, nfd = sample()
        rows.append((0, rss, objs, qobjs, nfd, 0.0, 0.0))
        print(f"soak: {'turns':>6} {'RSS MiB':>8} {'objects':>9} {'QObjects':>9} {'fds':>5} "
              f"{'stall ms':>9} {'CPU ms':>8}  (live engines)" + (
                  f"  {'rows':>5} {'sizes':>5} {'docs':>5} {'stored':>6}" if args.one_session else ""))
        print(f"soak: {0:>6} {rss:>8.1f} {objs:>9} {qobjs:>9} {nfd:>5} {'-':>9}")
        ticks.start()
        for turn in range(1, args.turns + 1):
            sid = sessions[(turn - 1) % len(sessions)]
            window.open_session(sid)
            while not window.loaded():  # noqa: ASYNC110
                await asyncio.sleep(0.002)
            task = manager.send(sid, f"Turn {turn}: summarise where we are")
            if task is not None:
                await task
            window.refresh_sessions()
            most_rows[0] = max(most_rows[0], window.transcript.rowCount())
            # The scripted model keeps every request it got (a test aid a real provider
            # does not have): emptied, so it is not counted as the app's growth.
            for provider in getattr(rt.router, "_scripted", {}).values():
                provider.requests.clear()
            await asyncio.sleep(0)
            if turn % args.block == 0:
                stall, busy = ticks.longest(), ticks.longest_cpu()
                ticks.stop()
                rss, objs, qobjs, nfd = sample()
                rows.append((turn, rss, objs, qobjs, nfd, stall, busy))
                engines = (len(manager.live_sessions()) if hasattr(manager, "live_sessions")
                           else len(manager._engines))
                print(f"soak: {turn:>6} {rss:>8.1f} {objs:>9} {qobjs:>9} {nfd:>5} "
                      f"{stall * 1000:>9.1f} {busy * 1000:>8.1f}  ({engines})"
                      + (view_figures() if args.one_session else ""),
                      flush=True)
                ticks.reset()
                ticks.start()
        ticks.stop()
        return rows

    rows = loop.run_until_complete(scenario())
    if len(rows) >= 3:
        first, end = rows[1], rows[-1]
        turns = end[0] - first[0]
        per = 100 / turns
        print(f"soak: after the first block, per 100 turns: RSS {(end[1] - first[1]) * per:+.2f} MiB, "
              f"objects {(end[2] - first[2]) * per:+.0f}, QObjects {(end[3] - first[3]) * per:+.1f}, "
              f"fds {(end[4] - first[4]) * per:+.1f} (target RSS <= 1 MiB per 100 turns)")
    if args.one_session:
        print(f"soak: one session kept open, {args.turns} turns: at most {most_rows[0]} rows in the view "
              f"after any turn; {window.transcript.rowCount()} at the end")
    print(f"soak: longest loop stall of any block {max(r[5] for r in rows) * 1000:.1f} ms, the most "
          f"CPU the loop thread spent between two ticks {max(r[6] for r in rows) * 1000:.1f} ms "
          f"(target <= 16 ms); load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    loop.run_until_complete(desktop.shutdown())
    rt.close()
    loop.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
