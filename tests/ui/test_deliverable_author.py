"""The author a document names: the user's name from Settings (``general.user_name``),
through the real app, its runtime and the deliverables tool; none when it is not set
(never the computer's login name)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import docx
from PySide6.QtGui import QAction

from openworker_qt.storage.config import load_config
from tests.ui.conftest import run, until


def writes(name: str) -> dict[str, Any]:
    return {"tool_calls": [{"id": name, "name": "create_deliverable", "arguments": {
        "path": f"outputs/{name}.docx", "format": "docx", "title": "Brief",
        "content": [{"type": "paragraph", "text": "Hello."}]}}]}


TURNS = [writes("before"), {"text": "Done."}, writes("after"), {"text": "Done."}]


def test_documents_name_the_author_set_in_settings(qtbot, qloop, make_desktop,
                                                   tmp_path: Path) -> None:
    desktop = make_desktop(TURNS)
    window = desktop.window
    window.composer.mode.setCurrentText("auto")
    out = tmp_path / "ws" / "outputs"
    seen: dict[str, Any] = {}

    async def turn(text: str, file: Path) -> None:
        window.submit_message(text)
        await until(lambda: file.exists() and window.session_id
                    and not desktop.manager.is_running(window.session_id), what=text, timeout=30)

    async def scenario() -> None:
        await turn("Write the brief", out / "before.docx")
        seen["before"] = docx.Document(str(out / "before.docx")).core_properties.author
        act_settings = window.findChild(QAction, "settings")
        act_settings.trigger()
        page = desktop.settings_window.appearance
        page.user_name.setText("  Ada Lovelace ")
        page.user_name.editingFinished.emit()
        seen["config"] = load_config().get("general.user_name")
        await turn("Write it again", out / "after.docx")
        seen["after"] = docx.Document(str(out / "after.docx")).core_properties.author

    run(qloop, scenario)
    assert seen["before"] == ""  # nothing set: no author, not the login name
    assert seen["config"] == "Ada Lovelace"
    assert seen["after"] == "Ada Lovelace"  # used from the next file on, no restart


def test_the_name_field_is_translated(qapp) -> None:
    from openworker_qt.storage.config import DEFAULTS

    assert DEFAULTS["general"]["user_name"] == ""
    source = (Path(__file__).resolve().parents[2] / "resources" / "translations"
              / "openworker_qt_zh_CN.ts").read_text(encoding="utf-8")
    assert "<source>Your &amp;name (author of documents)</source>" in source
    assert "您的姓名（文档作者）(&amp;N)" in source
