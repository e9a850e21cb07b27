"""``soak.py --work``: a long working session in the window (see soak.py's docstring)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import subprocess
import sys
from typing import Any

from _common import LoopGaps, rss_mib, temp_home

ANSWER = ("Here is what I found in **{name}** and wrote to `{out}`:\n\n"
          "- the revenue line grew by {n}% against last quarter\n"
          "- costs stayed flat; the hiring plan is on track\n"
          "- two risks remain: the vendor contract and the migration date\n\n"
          "The brief now has a summary, a table of the figures and the next steps. "
          "I kept the wording of the original notes where it was precise, and marked "
          "the places where a number still needs checking against the ledger. "
          "If you want, I can also prepare the slides for Thursday's review from it.\n\n"
          "```python\ntotal = sum(row.amount for row in rows)  # {n}\nprint(total)\n```\n\n")


def answer_chunks(turn: int) -> list[str]:
    """~1,500 characters in deltas of ~12, as a model streams them."""
    text = "".join(ANSWER.format(name=f"notes/{turn % 5}.txt", out=f"out/brief_{turn}.md", n=turn % 17 + i)
                   for i in range(2))
    return [text[i:i + 12] for i in range(0, len(text), 12)]


def script(turns: int, delay: float) -> dict[str, Any]:
    """Each turn: a call that reads and writes, then the answer; the working notes the
    engine asks for when the session outgrows the model's window come from their own
    turns (a long session compacts, as a real one does)."""
    out: list[dict[str, Any]] = []
    for t in range(turns):
        out.append({"tool_calls": [
            {"name": "read_file", "arguments": {"path": f"notes/{t % 5}.txt"}},
            {"name": "write_file", "arguments": {"path": f"out/brief_{t}.md",
                                                 "content": f"# Brief {t}\n\nFigures and next steps.\n"}},
        ]})
        out.append({"chunks": answer_chunks(t), "delay": delay})
    notes = [{"text": "Notes: the user works on a brief from notes/*.txt; written to out/.",
              "repeat": True}]
    return {"turns": out, "by_system": {"You write the working notes": notes}}


def work_child(args: argparse.Namespace) -> int:
    home = temp_home()
    import qasync
    from PySide6.QtWidgets import QApplication

    from openworker_qt.app import DesktopApp
    from openworker_qt.runtime import open_runtime

    ws = home / "work"
    (ws / "notes").mkdir(parents=True)
    for i in range(5):
        (ws / "notes" / f"{i}.txt").write_text(f"Notes {i}: revenue, costs, hiring, risks.\n" * 20)
    path = home / "work.json"
    path.write_text(json.dumps(script(args.turns, args.delay)))
    app = QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    rt = open_runtime()
    desktop = DesktopApp(rt, workspace=ws, enable_tray=False)
    window = desktop.window
    window.resize(args.width, 800)
    window.show()
    manager = desktop.manager
    sid = manager.create_session(title="Working session", model=f"scripted:{path}",
                                 workspace=str(ws), mode="auto").id
    window.refresh_sessions()
    gaps = LoopGaps(sample=args.sample)
    blocks: list[dict[str, Any]] = []
    causes: list[Any] = []

    async def scenario() -> None:
        await asyncio.sleep(0.5)  # the window settles; the warm-ups run
        window.open_session(sid)
        while not window.loaded():  # noqa: ASYNC110
            await asyncio.sleep(0.005)
        await asyncio.sleep(1.5)  # (the highlighter's import, after the warm-up)
        print(f"soak[{args.width}]: {'turns':>5} {'stored':>6} {'rows':>5} {'stall ms':>8} "
              f"{'>16 ms':>6} {'CPU ms':>6} {'RSS MiB':>8}", flush=True)
        gaps.start()
        for turn in range(1, args.turns + 1):
            window.send(f"Turn {turn}: read the notes and update the brief", [])
            while not manager.is_running(sid):  # noqa: ASYNC110
                await asyncio.sleep(0.002)
            while manager.is_running(sid):  # noqa: ASYNC110
                await asyncio.sleep(0.005)
            await asyncio.sleep(0.05)  # the last repaint
            if turn % args.block == 0:
                gaps.stop()
                causes.extend(gaps.causes())
                row = {"turn": turn, "stored": rt.conversations.count(sid),
                       "rows": window.transcript.rowCount(), "stall": gaps.longest() * 1000,
                       "over": gaps.over(), "cpu": gaps.longest_cpu() * 1000}
                gc.collect()
                row["rss"] = rss_mib()
                blocks.append(row)
                print(f"soak[{args.width}]: {turn:>5} {row['stored']:>6} {row['rows']:>5} "
                      f"{row['stall']:>8.1f} {row['over']:>6} {row['cpu']:>6.1f} {row['rss']:>8.1f}",
                      flush=True)
                gaps.reset()
                gaps.start()
        gaps.stop()

    loop.run_until_complete(scenario())
    if gaps.sampler is not None:
        gaps.sampler.stop()
    loop.run_until_complete(desktop.shutdown())
    rt.close()
    loop.close()
    print("RESULT " + json.dumps({"blocks": blocks, "causes": [vars(c) for c in causes]}), flush=True)
    return 0


def summary(label: str, result: dict[str, Any]) -> None:
    from _stacks import Cause, top_causes

    blocks = result["blocks"]
    for rows in (50, 200, 1000):
        near = [b for b in blocks if b["stored"] >= rows]
        if near:
            b = near[0]
            print(f"soak{label}: at {b['stored']:>4} stored messages ({b['rows']} rows in the view): "
                  f"longest stall {b['stall']:5.1f} ms, {b['over']} gaps over 16 ms, loop CPU "
                  f"at most {b['cpu']:4.1f} ms between two ticks")
    if len(blocks) >= 3:
        first, end = blocks[0], blocks[-1]
        per = 100 / (end["turn"] - first["turn"])
        print(f"soak{label}: RSS {first['rss']:.1f} -> {end['rss']:.1f} MiB, "
              f"{(end['rss'] - first['rss']) * per:+.2f} MiB per 100 turns after the first block "
              f"(target <= 1); longest stall of any block {max(b['stall'] for b in blocks):.1f} ms, "
              f"blocks with a gap over 16 ms: {sum(1 for b in blocks if b['over'])} of {len(blocks)}")
    for what, n, total, longest in top_causes([Cause(**c) for c in result["causes"]]):
        print(f"soak{label}:   {n:3} gaps, {total:6.0f} ms in all, longest {longest:5.1f} ms: {what}")


def work_main(args: argparse.Namespace, script_path: str) -> int:
    if args.width:
        return work_child(args)
    trees: list[tuple[str, str | None]] = [("", None)]
    if args.against:
        trees = [(" base", args.against), (" this", None)]
    print(f"soak --work: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"{args.turns} turns, blocks of {args.block}, {args.delay * 1000:.0f} ms between deltas")
    for width in args.widths:
        for label, tree in trees:
            cmd = [sys.executable, script_path, "--work", "--width", str(width), "--turns",
                   str(args.turns), "--block", str(args.block), "--delay", str(args.delay)]
            if args.sample:
                cmd.append("--sample")
            env = dict(os.environ, **({"OW_BENCH_TREE": tree} if tree else {}))
            proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
            lines = proc.stdout.splitlines()
            result = next((json.loads(x[7:]) for x in lines if x.startswith("RESULT ")), None)
            for line in lines:
                if not line.startswith("RESULT "):
                    print(f"{label.strip() + ' ' if label else ''}{line}")
            if proc.returncode != 0 or result is None:
                print(f"soak --work{label} at {width} px failed:\n{proc.stderr[-3000:]}")
                return 1
            summary(f"[{width}]{label}", result)
            print(f"soak[{width}]{label}: load average now {os.getloadavg()[0]:.2f}")
    return 0

