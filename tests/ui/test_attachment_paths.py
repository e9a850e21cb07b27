"""Attached files record their path (a read root for the session), never sent to a model."""

from __future__ import annotations

import base64
from pathlib import Path

from PySide6.QtGui import QImage

from openworker_qt.core.messages import Capabilities, outbound, user_message
from openworker_qt.ui.attachments import load_attachment

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)


def test_every_attachment_kind_records_its_path(qapp: object, tmp_path: Path) -> None:
    files = {"notes.md": b"# notes", "paper.pdf": b"%PDF-1.4 tiny", "shot.png": PNG}
    parts = []
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        attachment = load_attachment(tmp_path / name)
        assert attachment.part["path"] == str(tmp_path / name)
        parts.append(attachment.part)
    assert QImage.fromData(PNG).width() == 1
    [sent] = outbound([user_message([*parts, {"type": "text", "text": "look"}])],
                      Capabilities(vision=True, pdf=True))
    assert all("path" not in part for part in sent["content"])
    assert str(tmp_path) not in str(sent)
