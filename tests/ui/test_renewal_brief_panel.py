"""The "renewal brief" through the real window: the explorer reads the notes, the agent
writes three deliverables, and the deliverables panel lists and previews all three."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openworker_qt.ui.artifacts_panel import ArtifactsPanel
from tests.tools import renewal
from tests.ui.conftest import run, until
from tests.ui.test_artifacts_panel import non_white


async def select(panel: ArtifactsPanel, name: str) -> None:
    row = [Path(p).name for p in panel.paths()].index(name)
    panel.list.setCurrentRow(row)
    await until(lambda: panel.loaded() and panel.preview_kind not in {"", "message"},
                what=f"the preview of {name}")


def test_the_panel_lists_and_previews_the_renewal_deliverables(
        qtbot, qloop, make_desktop, tmp_path) -> None:
    desktop = make_desktop(renewal.script())
    renewal.write_workspace(tmp_path / "ws")
    window = desktop.window
    window.composer.mode.setCurrentText("auto")
    panel = window.artifacts
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        window.findChild(type(window.stop_action), "deliverables").trigger()
        window.submit_message("Prepare the ACME renewal brief from the notes")
        await until(lambda: window.session_id and not desktop.manager.is_running(window.session_id),
                    what="turn end", timeout=60)
        await until(lambda: len(panel.paths()) == 3, what="three deliverables")
        seen["listed"] = [Path(p).name for p in panel.paths()]
        seen["selected"] = panel.selected_path()
        await select(panel, "acme-brief.docx")
        seen["docx"] = (panel.preview_kind, panel.browser.toPlainText())
        await select(panel, "acme-seats.xlsx")
        cols = panel.table.columnCount()
        seen["xlsx"] = (
            panel.preview_kind,
            [panel.table.horizontalHeaderItem(c).text() for c in range(cols)],
            [[panel.table.item(r, c).text() if panel.table.item(r, c) else ""
              for c in range(cols)] for r in range(panel.table.rowCount())],
        )
        seen["tips"] = (panel.table.item(0, 3).toolTip(), panel.table.item(0, 0).toolTip())
        await select(panel, "acme-report.pdf")
        seen["pdf"] = (panel.preview_kind, non_white(panel.image.pixmap().toImage()))

    run(qloop, scenario)
    assert seen["listed"] == renewal.DELIVERABLES
    # The last one written is selected, as it arrives.
    assert seen["selected"] is not None and seen["selected"].endswith("acme-report.pdf")
    kind, text = seen["docx"]
    assert kind == "text"
    assert "ACME renewal brief" in text and "Close both P2 tickets" in text
    assert "ACME | 120 | 30.5 | 2027-01-31" in text
    kind, header, cells = seen["xlsx"]
    assert kind == "table"
    assert header == ["Client", "Seats", "Price per seat", "Annual value"]
    # Formulas show their values, as a spreadsheet would; the formula is the tooltip.
    assert cells[0] == ["ACME", "120", "30.5", "3660"]
    assert cells[3] == ["Total", "178", "", "5002"]
    assert seen["tips"] == ("=B2*C2", "")
    kind, dark = seen["pdf"]
    assert kind == "image" and dark > 50
