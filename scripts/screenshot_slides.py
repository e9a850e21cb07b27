#!/usr/bin/env python3
"""Render a sample slide deck (English and Chinese) to PNG pages, to look at them.

Builds the decks with ``deliverables/slides.py`` (every layout: title, section,
bullets, two columns, table, the three native charts, image, quote), has LibreOffice
(``soffice``, which must be installed) convert each to PDF, and draws the PDF's pages
with pypdfium2 into ``docs/screenshots/deliverables/deck-en-01.png`` … and
``deck-zh-01.png`` …; also writes the chart on its own as ``chart.png`` and
``chart.svg``.

    .venv/bin/python scripts/screenshot_slides.py [--out docs/screenshots/deliverables]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from openworker_qt.deliverables import charts, documents, slide_spec, slides  # noqa: E402

REVENUE = {"kind": "bar", "title": "Revenue by quarter (k€)", "labels": ["Q1", "Q2", "Q3", "Q4"],
           "series": [{"name": "2025", "values": [410, 455, 430, 520]},
                      {"name": "2026", "values": [468, 512, 547, 590]}]}


def english(image: Path) -> list[dict[str, Any]]:
    return [
        {"layout": "title", "title": "ACME renewal review", "subtitle": "Q3 2026 · Account team",
         "notes": "Thank them for the year; the ask is a three-year renewal."},
        {"layout": "section", "title": "Where we stand", "subtitle": "Seats, revenue, risks"},
        {"layout": "bullets", "title": "Highlights", "bullets": [
            "Renewal signed for three years, from 1 January",
            {"text": "Seats grew 18% since last year", "bullets": [
                "Sales +30 seats, Support +12 seats",
                {"text": "A new EU team", "bullets": ["Berlin office opens in March"]}]},
            "Two support tickets open, both due this week"]},
        {"layout": "two_column", "title": "Risks and mitigations",
         "left_heading": "Risks", "left": ["Budget freeze in Q4", "Our champion is leaving",
                                           "A competitor's pilot in the EU team"],
         "right_heading": "Mitigations", "right": ["Offer quarterly billing",
                                                   "Meet the new VP before December",
                                                   "Onboard Berlin ourselves"]},
        {"layout": "table", "title": "Seats by team", "columns": ["Team", "Seats", "Price (€)",
                                                                 "Annual (€)"],
         "rows": [["Sales", 120, 30.5, 43920], ["Support", 80, 25, 24000],
                  ["Engineering", 66, 19.99, 15832.08], ["Total", 266, None, 83752.08]]},
        {"layout": "chart", "title": "Revenue grows every quarter", "chart": REVENUE},
        {"layout": "chart", "title": "Where the seats are",
         "chart": {"kind": "pie", "labels": ["Sales", "Support", "Engineering"],
                   "series": [{"name": "Seats", "values": [120, 80, 66]}]}},
        {"layout": "chart", "title": "Monthly active users",
         "chart": {"kind": "line", "labels": ["Jan", "Feb", "Mar", "Apr", "May", "Jun"],
                   "series": [{"name": "Users", "values": [200, 220, 260, 250, 300, 340]}]}},
        {"layout": "image", "title": "The same chart, as the documents show it",
         "path": str(image), "caption": "Drawn by deliverables/charts.py"},
        {"layout": "quote", "quote": "The smoothest rollout we have had with any vendor.",
         "attribution": "Jane Doe, CIO at ACME"},
    ]


CHINESE: list[dict[str, Any]] = [
    {"layout": "title", "title": "ACME 续约回顾", "subtitle": "2026 年第三季度 · 客户团队"},
    {"layout": "bullets", "title": "要点", "bullets": [
        "三年续约已签署，自 1 月 1 日起生效",
        {"text": "席位比去年增长 18%", "bullets": ["销售 +30 个席位", "支持 +12 个席位"]},
        "两个支持工单未关闭，本周内到期"]},
    {"layout": "table", "title": "各团队席位", "columns": ["团队", "席位", "单价（€）"],
     "rows": [["销售", 120, 30.5], ["支持", 80, 25], ["工程", 66, 19.99]]},
]


def pages(deck: bytes, stem: str, out: Path, work: Path) -> list[Path]:
    import pypdfium2

    source = work / f"{stem}.pptx"
    source.write_bytes(deck)
    subprocess.run(["soffice", f"-env:UserInstallation=file://{work / 'profile'}", "--headless",
                    "--convert-to", "pdf", "--outdir", str(work), str(source)],
                   check=True, capture_output=True, timeout=600)
    pdf = pypdfium2.PdfDocument(str(work / f"{stem}.pdf"))
    written = []
    for n, page in enumerate(pdf, 1):
        image = page.render(scale=1280 / page.get_width()).to_pil()
        target = out / f"{stem}-{n:02d}.png"
        image.convert("RGB").save(target, optimize=True)
        written.append(target)
    pdf.close()
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots" / "deliverables")
    args = parser.parse_args()
    if shutil.which("soffice") is None:
        print("LibreOffice (soffice) is not installed: it is needed to draw the pages.")
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    font = documents.unicode_font()
    (args.out / "chart.png").write_bytes(charts.chart_png(REVENUE, font))
    (args.out / "chart.svg").write_bytes(charts.chart_svg(REVENUE, font))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        image = args.out / "chart.png"
        for stem, spec in (("deck-en", english(image)), ("deck-zh", CHINESE)):
            data, _summary = slides.render(slide_spec.validate(spec), title=spec[0]["title"])
            for path in pages(data, stem, args.out, work):
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
