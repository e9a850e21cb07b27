"""A tool card's argument line: structured payloads are summarised, not dumped as JSON."""

from __future__ import annotations

from openworker_qt.qt.transcript_items import arguments_preview


def test_a_list_of_blocks_shows_as_a_count() -> None:
    preview = arguments_preview({
        "path": "outputs/brief.docx", "format": "docx",
        "content": [{"type": "heading", "text": "Brief"}, {"type": "paragraph", "text": "x"}],
    })
    assert preview == "path: outputs/brief.docx · format: docx · content: 2 items"
    assert "{" not in preview


def test_scalars_and_lists_of_scalars_stay_as_they_are() -> None:
    assert arguments_preview({"paths": ["a.txt", "b.txt"], "limit": 5}) == (
        'paths: ["a.txt", "b.txt"] · limit: 5')
