"""Help ▸ Check for updates: the menu entry, and the prompt against a local server
serving a signed manifest — it offers the download and installs nothing."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QMessageBox, QWidget

from openworker_qt.storage.updates import sign_manifest
from openworker_qt.ui.updates import UpdatePrompt
from tests.packaging.test_updates import _keypair, _manifest
from tests.voice.fileserver import serve


def test_help_menu_has_check_for_updates(qtbot, make_desktop) -> None:
    desktop = make_desktop()
    action = desktop.window.findChild(object, "checkUpdates")
    assert action is not None and "update" in action.text().lower()
    action.trigger()  # no updates.url set: a calm "not set up" message
    qtbot.waitUntil(lambda: getattr(desktop.window, "update_prompt", None) is not None
                    and desktop.window.update_prompt.box is not None)
    assert "not set up" in desktop.window.update_prompt.box.windowTitle()


def test_a_newer_version_is_offered_not_installed(qtbot, qloop) -> None:
    private, public = _keypair()
    parent = QWidget()
    qtbot.addWidget(parent)
    opened: list[str] = []
    with serve() as server:
        server.files["/m.json"] = sign_manifest(_manifest("9.0.0"), private)
        prompt = UpdatePrompt(parent, server.url + "/m.json", current="0.1.0",
                              open_url=opened.append, public_key=public)
        outcome = qloop.run_until_complete(prompt.run())
        requests = len(server.ranges)
    assert outcome == "available"
    assert requests == 1  # the manifest only: nothing downloaded
    box: Any = prompt.box
    assert "9.0.0" in box.text() and box.detailedText() == "Faster start-up"
    offer = [b for b in box.buttons() if b.text() == "Open download page"]
    assert offer and opened == []
    offer[0].click()
    assert opened == ["https://example.org/ow.AppImage"]


def test_a_tampered_manifest_is_reported_and_offers_nothing(qtbot, qloop) -> None:
    private, _ = _keypair()
    _, other = _keypair()
    parent = QWidget()
    qtbot.addWidget(parent)
    with serve() as server:
        server.files["/m.json"] = sign_manifest(_manifest("9.0.0"), private)
        prompt = UpdatePrompt(parent, server.url + "/m.json", current="0.1.0", public_key=other)
        assert qloop.run_until_complete(prompt.run()) == "failed"
    box: Any = prompt.box
    assert box.icon() == QMessageBox.Icon.Warning and "release key" in box.text()
    assert all(b.text() != "Open download page" for b in box.buttons())
