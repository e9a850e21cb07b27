"""The "renewal brief" scenario, shared by the end-to-end tests and the screenshot script.

A workspace holds a folder of account notes and a CSV of the accounts. The agent
sends an explorer to read them; the explorer lists the folder, reads the CSV and
every note, and reports. The agent then writes three deliverables: a DOCX brief,
an XLSX seat sheet with real formulas and a PDF report with a chart.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openworker_qt.tools.explore import EXPLORE, EXPLORER_PROMPT

NOTES = {
    "notes/2026-01-call.md": "# Call with ACME (January)\nACME is happy with support. "
                             "They use 120 seats and want to grow to 150.\n",
    "notes/2026-02-qbr.md": "# Quarterly review\nTwo P2 tickets are still open "
                            "(exports time out; SSO group sync). Renewal on 31 January 2027.\n",
    "notes/2026-03-pricing.md": "# Pricing\nList price is 30.50 per seat; a two-year "
                                "term earns 8% off.\n",
}
ACCOUNTS_CSV = (
    "client,seats,price_per_seat,renewal,open_tickets\n"
    "ACME,120,30.5,2027-01-31,2\n"
    "Globex,40,25,2027-03-01,0\n"
    "Initech,18,19,2027-04-15,1\n"
)

REPORT = (
    "ACME renews on 31 January 2027: 120 seats today, wants 150; list price 30.50 per "
    "seat, 8% off for a two-year term; support is rated well but two P2 tickets are open "
    "(exports time out; SSO group sync). accounts.csv also lists Globex (40 seats, 25) and "
    "Initech (18 seats, 19)."
)

SEATS_TABLE: dict[str, Any] = {
    "type": "table", "sheet": "Seats",
    "columns": ["Client", "Seats", "Price per seat", "Annual value"],
    "rows": [["ACME", 120, 30.5, "=B2*C2"],
             ["Globex", 40, 25, "=B3*C3"],
             ["Initech", 18, 19, "=B4*C4"],
             ["Total", "=SUM(B2:B4)", None, "=SUM(D2:D4)"]],
}
BRIEF_TABLE: dict[str, Any] = {
    "type": "table", "columns": ["Client", "Seats", "Price per seat", "Renews"],
    "rows": [["ACME", 120, 30.5, "2027-01-31"], ["Globex", 40, 25, "2027-03-01"],
             ["Initech", 18, 19, "2027-04-15"]],
}
CHART: dict[str, Any] = {
    "type": "chart", "kind": "bar", "title": "Seats by client",
    "labels": ["ACME", "Globex", "Initech"], "series": [{"name": "Seats", "values": [120, 40, 18]}],
}
BRIEF: list[dict[str, Any]] = [
    {"type": "heading", "text": "ACME renewal brief", "level": 1},
    {"type": "paragraph", "text": "ACME renews 120 seats on 31 January 2027 and wants to grow "
                                  "to 150. Support is rated well; two P2 tickets are open."},
    {"type": "heading", "text": "Recommendation", "level": 2},
    {"type": "list", "items": ["Offer a two-year term at 8% off list",
                               "Close both P2 tickets before the renewal call",
                               "Quote 150 seats at 30.50"], "ordered": True},
    BRIEF_TABLE,
]
PDF_REPORT: list[dict[str, Any]] = [*BRIEF, CHART]


def write_workspace(workspace: Path) -> None:
    """The notes folder and the accounts CSV the explorer reads."""
    for rel, text in NOTES.items():
        path = workspace / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (workspace / "accounts.csv").write_text(ACCOUNTS_CSV, encoding="utf-8")


def _call(name: str, args: dict[str, Any], cid: str) -> dict[str, Any]:
    return {"id": cid, "name": name, "arguments": args}


def _deliverable(cid: str, path: str, fmt: str, content: list[dict[str, Any]]) -> dict[str, Any]:
    return _call("create_deliverable",
                 {"path": path, "format": fmt, "title": "ACME renewal", "content": content}, cid)


def script() -> dict[str, Any]:
    """The scripted model: the agent's turns, and the explorer's under its system prompt."""
    return {
        "advance": "history",
        "turns": [
            {"chunks": ["Let me have an explorer read the notes and the accounts first."],
             "tool_calls": [_call(EXPLORE, {"task": "Read notes/ and accounts.csv; report "
                                            "what matters for ACME's renewal."}, "x1")]},
            {"chunks": ["Writing the brief, the seat sheet and the report."],
             "tool_calls": [
                 _deliverable("d1", "outputs/acme-brief.docx", "docx", BRIEF),
                 _deliverable("d2", "outputs/acme-seats.xlsx", "xlsx", [SEATS_TABLE]),
                 _deliverable("d3", "outputs/acme-report.pdf", "pdf", PDF_REPORT),
             ]},
            {"text": "The brief, the seat sheet and the report are in outputs/."},
        ],
        "by_system": {EXPLORER_PROMPT[:30]: [
            {"tool_calls": [_call("list_files", {"path": "notes"}, "e1"),
                            _call("read_file", {"path": "accounts.csv"}, "e2")]},
            {"tool_calls": [_call("read_file", {"path": rel}, f"e{n}")
                            for n, rel in enumerate(NOTES, 3)]},
            {"text": REPORT},
        ]},
    }


DELIVERABLES = ["acme-brief.docx", "acme-seats.xlsx", "acme-report.pdf"]
