#!/usr/bin/env python3
"""Render one deliverable of each kind in the viewer, to look at them side by side.

Writes a sample of every format the deliverables tool makes (Markdown, HTML, CSV, XLSX,
DOCX, PDF, PPTX, PNG and SVG charts), in English and in Chinese, with the real tool
into a temporary workspace; opens each in the deliverable viewer (the app's own window,
offscreen) in the light and the dark scheme, with the window's words in the document's
language; and saves the window as
``docs/screenshots/deliverables/viewer-<kind>-<en|zh>-<light|dark>.png``. The report
is also written as a PDF with a cover page and contents, its pages drawn on their own
(``report-<en|zh>-<n>.png``, by PDFium), to look at the typography at full size; with
LibreOffice installed, the DOCX's pages too (``docx-<en|zh>-<n>.png``), and the viewer
shows DOCX and PPTX as LibreOffice's pages. The Chinese window words come from the .ts source
(compiled to a temporary .qm with ``pyside6-lrelease``, else the shipped .qm).

    .venv/bin/python scripts/screenshot_gallery.py [--out docs/screenshots/deliverables]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

KINDS = ("md", "html", "csv", "xlsx", "docx", "pdf", "pptx", "png", "svg")


def english() -> dict[str, Any]:
    table = {"type": "table", "columns": ["Client", "Seats", "Price (€)", "Annual (€)"],
             "rows": [["ACME", 120, 30.5, "=B2*C2*12"], ["Globex", 40, 25, "=B3*C3*12"],
                      ["Initech", 18, 19.99, "=B4*C4*12"]]}
    plain = {**table, "rows": [["ACME", 120, 30.5, 43920], ["Globex", 40, 25, 12000],
                               ["Initech", 18, 19.99, 4317.84]]}
    chart = {"type": "chart", "kind": "bar", "title": "Seats by client",
             "labels": ["ACME", "Globex", "Initech"],
             "series": [{"name": "2025", "values": [102, 38, 12]},
                        {"name": "2026", "values": [120, 40, 18]}]}
    doc = [{"type": "heading", "text": "Where the account stands", "level": 1},
           {"type": "paragraph", "text": "ACME renews **120 seats** on 31 January. Support "
                                         "is rated well; two *P2* tickets are open "
                                         "([tracker](https://example.com/acme))."},
           {"type": "list", "items": ["Offer a two-year term", "Close both P2 tickets first",
                                      "Meet the new VP before December"]},
           {"type": "heading", "text": "Seats and revenue", "level": 2}, plain, chart,
           {"type": "heading", "text": "Next steps", "level": 2},
           {"type": "paragraph", "text": "Send the proposal by 15 December; the account "
                                         "team reviews it on the 10th."}]
    deck = [{"layout": "title", "title": "ACME renewal review", "subtitle": "Q3 2026"},
            {"layout": "bullets", "title": "Highlights", "bullets": [
                "Renewal signed for three years", {"text": "Seats grew 18%", "bullets": [
                    "Sales +30 seats", "Support +12 seats"]}]},
            {"layout": "chart", "title": "Seats by client", "chart": chart}]
    return {"title": "ACME renewal brief", "subtitle": "Q3 2026 · Account team", "doc": doc, "table": table, "plain": plain,
            "chart": chart, "deck": deck}


def chinese() -> dict[str, Any]:
    table = {"type": "table", "columns": ["客户", "席位", "单价（€）", "年费（€）"],
             "rows": [["ACME", 120, 30.5, "=B2*C2*12"], ["环球", 40, 25, "=B3*C3*12"],
                      ["英泰", 18, 19.99, "=B4*C4*12"]]}
    plain = {**table, "rows": [["ACME", 120, 30.5, 43920], ["环球", 40, 25, 12000],
                               ["英泰", 18, 19.99, 4317.84]]}
    chart = {"type": "chart", "kind": "bar", "title": "各客户席位",
             "labels": ["ACME", "环球", "英泰"],
             "series": [{"name": "2025", "values": [102, 38, 12]},
                        {"name": "2026", "values": [120, 40, 18]}]}
    doc = [{"type": "heading", "text": "客户现状", "level": 1},
           {"type": "paragraph", "text": "ACME 将于 1 月 31 日续约 **120 个席位**。支持服务评价良好；"
                                         "目前有两个 *P2* 工单未关闭。"},
           {"type": "list", "items": ["提供两年期合同", "先关闭两个 P2 工单", "十二月前拜访新任副总裁"]},
           {"type": "heading", "text": "席位与收入", "level": 2}, plain, chart,
           {"type": "heading", "text": "下一步", "level": 2},
           {"type": "paragraph", "text": "12 月 15 日前发送方案；客户团队于 10 日审阅。"}]
    deck = [{"layout": "title", "title": "ACME 续约回顾", "subtitle": "2026 年第三季度"},
            {"layout": "bullets", "title": "要点", "bullets": [
                "三年续约已签署", {"text": "席位增长 18%", "bullets": ["销售 +30 个席位",
                                                              "支持 +12 个席位"]}]},
            {"layout": "chart", "title": "各客户席位", "chart": chart}]
    return {"title": "ACME 续约简报", "subtitle": "2026 年第三季度 · 客户团队", "doc": doc, "table": table, "plain": plain,
            "chart": chart, "deck": deck}


def content(kind: str, sample: dict[str, Any]) -> list[dict[str, Any]]:
    if kind in {"md", "html", "docx", "pdf"}:
        return sample["doc"]
    if kind == "csv":
        return [sample["plain"]]
    if kind == "xlsx":
        return [sample["table"], sample["chart"]]  # a sheet and a chart sheet
    if kind == "pptx":
        return sample["deck"]
    return [sample["chart"]]


async def write_samples(workspace: Path) -> dict[tuple[str, str], Path]:
    from openworker_qt.core.tool_api import ToolContext
    from openworker_qt.tools.deliverables import AUTHOR_STATE, create_deliverable

    ctx = ToolContext(session_id="gallery", workspace=workspace,
                      state={AUTHOR_STATE: "Account team"})
    made: dict[tuple[str, str], Path] = {}
    for lang, sample in (("en", english()), ("zh", chinese())):
        for kind in KINDS:
            path = f"outputs/{lang}/sample.{kind}"
            done = await create_deliverable({"path": path, "format": kind,
                                             "title": sample["title"],
                                             "content": content(kind, sample)}, ctx)
            if done.is_error:
                raise SystemExit(f"{kind} ({lang}): {done.content}")
            made[(kind, lang)] = workspace / path
        # the report with its front matter, for its pages on their own
        done = await create_deliverable({"path": f"outputs/{lang}/report.pdf", "format": "pdf",
                                         "title": sample["title"], "cover": True,
                                         "contents": True, "subtitle": sample["subtitle"],
                                         "content": sample["doc"]}, ctx)
        if done.is_error:
            raise SystemExit(f"report ({lang}): {done.content}")
    return made


def chinese_translator(work: Path) -> Any:
    from PySide6.QtCore import QTranslator

    source = ROOT / "resources" / "translations" / "openworker_qt_zh_CN.ts"
    compiled = work / "zh_CN.qm"
    lrelease = Path(sys.executable).parent / "pyside6-lrelease"
    try:
        subprocess.run([str(lrelease), str(source), "-qm", str(compiled)], check=True,
                       capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        compiled = source.with_suffix(".qm")
    translator = QTranslator()
    translator.load(str(compiled))
    return translator


async def shoot(app: Any, made: dict[tuple[str, str], Path], out: Path, work: Path) -> None:
    from openworker_qt.ui.deliverable_viewer import open_viewer
    from openworker_qt.ui.theme import apply_theme

    zh = chinese_translator(work)
    for scheme in ("light", "dark"):
        apply_theme(app, scheme)
        for (kind, lang), path in made.items():
            if lang == "zh":
                app.installTranslator(zh)
            viewer = open_viewer(path)
            viewer.resize(960, 720)
            while not viewer.loaded():  # noqa: ASYNC110 (the viewer's own state, polled)
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.1)  # layouts and the pages' fit to the width
            viewer.grab().save(str(out / f"viewer-{kind}-{lang}-{scheme}.png"))
            viewer.close()
            app.removeTranslator(zh)
            await asyncio.sleep(0)


def pdf_pages(made: dict[tuple[str, str], Path], out: Path, work: Path) -> None:
    from openworker_qt.deliverables import office_pdf, pages

    office = office_pdf.Converter(cache=work / "office-pages")
    for lang in ("en", "zh"):
        report = made[("pdf", lang)].with_name("report.pdf")
        for n, page in enumerate(pages.pdf_pages(report, width=1240), 1):
            page.save(out / f"report-{lang}-{n}.png")
        if not office.available:
            continue
        # the DOCX's pages as LibreOffice prints them (what the viewer shows)
        for n, page in enumerate(pages.pdf_pages(office.pdf_for(made[("docx", lang)]),
                                                 width=1240), 1):
            page.save(out / f"docx-{lang}-{n}.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs/screenshots/deliverables")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    from PySide6.QtWidgets import QApplication

    from openworker_qt.qt.event_loop import new_event_loop

    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    loop = new_event_loop(app)
    asyncio.set_event_loop(loop)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        made = loop.run_until_complete(write_samples(work))
        loop.run_until_complete(shoot(app, made, args.out, work))
        pdf_pages(made, args.out, work)
        loop.run_until_complete(loop.shutdown_default_executor())
    print(f"wrote {len(made) * 2} viewer shots and the PDF pages to {args.out}")


if __name__ == "__main__":
    main()
