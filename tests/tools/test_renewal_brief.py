"""End to end: the "renewal brief". A scripted model sends the explorer through a folder
of notes and a CSV, then writes a DOCX brief, an XLSX with formulas and a PDF report;
each file is read back with its own library and the PDF is rendered with poppler."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from openworker_qt.core import events as ev
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.runtime import open_runtime
from openworker_qt.tools.explore import EXPLORER_PROMPT
from tests.tools import renewal


def ink(png: Path) -> tuple[float, int]:
    """The share of non-white pixels and the number of distinct colours (Pillow)."""
    from PIL import Image

    with Image.open(png) as im:
        rgb = im.convert("RGB")
        small = rgb.resize((rgb.width // 4, rgb.height // 4))
        raw = small.tobytes()
    pixels = [raw[i:i + 3] for i in range(0, len(raw), 3)]
    dark = sum(1 for p in pixels if min(p) < 200)
    return dark / len(pixels), len(set(pixels))


async def test_the_renewal_brief_from_notes_to_three_deliverables(
    isolated_state: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "acme"
    ws.mkdir()
    renewal.write_workspace(ws)
    script = tmp_path / "renewal.json"
    script.write_text(json.dumps(renewal.script()), encoding="utf-8")
    rt = open_runtime()
    try:
        model = f"scripted:{script}"
        m = rt.session_manager(default_model=model)
        info = m.create_session(workspace=str(ws), mode="auto")
        events = [e async for e in m.run(info.id, "Prepare the ACME renewal brief")]
        end = events[-1]
        assert isinstance(end, ev.TurnEnded) and end.status == "completed", end
        finished = {e.call_id: e for e in events if isinstance(e, ev.ToolFinished)}
        assert {k: v.status for k, v in finished.items()} == {
            "x1": "ok", "d1": "ok", "d2": "ok", "d3": "ok"}
        assert finished["x1"].result == renewal.REPORT

        # The explorer listed the folder and read the CSV and every note, in its own context.
        provider, _ = rt.router.resolve(model)
        assert isinstance(provider, ScriptedProvider)
        child = [r for r in provider.requests if r.system == EXPLORER_PROMPT]
        assert len(child) == 3
        seen = "\n".join(str(msg.get("content")) for msg in child[-1].messages
                         if msg.get("role") == "tool")
        for rel, text in renewal.NOTES.items():
            assert Path(rel).name in seen
            assert text.splitlines()[1][:40] in seen
        assert "Initech,18,19" in seen
        # The agent's model saw the report, never the notes themselves.
        parent = [r for r in provider.requests if r.system != EXPLORER_PROMPT]
        parent_seen = " ".join(str(msg.get("content")) for msg in parent[1].messages)
        assert renewal.REPORT in parent_seen and "SSO group sync). Renewal" not in parent_seen
        # The explorer's steps showed in the agent's card.
        steps = "".join(e.text for e in events
                        if isinstance(e, ev.ToolProgress) and e.call_id == "x1")
        assert "list_files notes" in steps and "read_file accounts.csv" in steps
    finally:
        await rt.stop()
        rt.close()

    out = ws / "outputs"
    # the three files, and their first versions kept beside them (outputs/.versions/)
    assert sorted(p.name for p in out.iterdir()) == sorted([*renewal.DELIVERABLES, ".versions"])
    assert sorted(p.name for p in (out / ".versions").iterdir()) == sorted(renewal.DELIVERABLES)

    # DOCX: headings, the numbered list and the table, through python-docx.
    import docx

    brief = docx.Document(str(out / "acme-brief.docx"))
    paragraphs = [(p.style.name if p.style is not None else "", p.text) for p in brief.paragraphs]
    assert ("Title", "ACME renewal") in paragraphs
    assert ("Heading 1", "ACME renewal brief") in paragraphs
    assert ("Heading 2", "Recommendation") in paragraphs
    assert ("List Number", "Close both P2 tickets before the renewal call") in paragraphs
    assert len(brief.tables) == 1
    table = [[c.text for c in row.cells] for row in brief.tables[0].rows]
    assert table[0] == ["Client", "Seats", "Price per seat", "Renews"]
    assert table[1] == ["ACME", "120", "30.5", "2027-01-31"]

    # XLSX: real formulas (not values), a styled header, widths, through openpyxl.
    from openpyxl import load_workbook

    wb = load_workbook(out / "acme-seats.xlsx")
    assert wb.sheetnames == ["Seats"]
    sheet = wb["Seats"]
    assert [c.value for c in sheet[1]] == ["Client", "Seats", "Price per seat", "Annual value"]
    assert sheet["D2"].value == "=B2*C2" and sheet["D3"].value == "=B3*C3"
    assert sheet["B5"].value == "=SUM(B2:B4)" and sheet["D5"].value == "=SUM(D2:D4)"
    assert sheet["B2"].value == 120 and sheet["C2"].value == 30.5
    assert sheet["A1"].font.bold and sheet.freeze_panes == "A2"
    assert sheet.column_dimensions["C"].width >= len("Price per seat")

    # PDF: real text on the page, through pypdf.
    from pypdf import PdfReader

    reader = PdfReader(str(out / "acme-report.pdf"))
    text = "\n".join(page.extract_text() for page in reader.pages)
    for words in ("ACME renewal brief", "Recommendation", "two-year term", "Initech",
                  "2027-04-15"):
        assert words in text, words
    images = [img for page in reader.pages for img in page.images]
    assert len(images) == 1  # the chart

    # And rendered with poppler: the page has text and a coloured chart on it.
    pdftoppm = shutil.which("pdftoppm")
    assert pdftoppm is not None, "poppler-utils (pdftoppm) is needed to render the PDF"
    subprocess.run([pdftoppm, "-png", "-r", "60", str(out / "acme-report.pdf"),
                    str(tmp_path / "page")], check=True, timeout=60)
    pages = sorted(tmp_path.glob("page-*.png"))
    assert len(pages) == len(reader.pages)
    share, colours = ink(pages[0])
    assert share > 0.02 and colours > 16
