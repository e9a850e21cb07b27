"""Settings ▸ Updates and the automatic check, offscreen with the real app: the address
is saved to the config file and used by the next check (a local HTTP server serving a
signed manifest), a refused address says why and loses nothing, automatic checks run
at most weekly and only show a quiet note, and a build with the development key says
it cannot check instead of reporting a forged manifest."""

from __future__ import annotations

import base64
import tempfile
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox, QWidget

from openworker_qt.storage.config import load_config
from openworker_qt.storage.updates import sign_manifest
from openworker_qt.ui.update_notice import AutoUpdateCheck
from openworker_qt.ui.updates import UpdatePrompt
from tests.packaging.test_updates import _keypair, _manifest
from tests.ui.conftest import act, run, until
from tests.voice.fileserver import serve


def _key_file(folder: Path, public: bytes) -> Path:
    """A key file as a release build ships it (a comment header, then the key)."""
    path = folder / "update-key.pub"
    path.write_text("# the release key\n" + base64.b64encode(public).decode() + "\n")
    return path


def _updates_page(desktop: Any, qloop: Any) -> Any:
    act(qloop, desktop.window.findChild(QAction, "settings").trigger)
    window = desktop.settings_window
    run(qloop, lambda: until(lambda: not window.providers.busy(), what="keyring read"))
    # As a release build's page: the key this repository ships is the development
    # placeholder, with which the page's fields are unavailable (tested below).
    if desktop.window.auto_updates.key_file is None:
        _, public = _keypair()
        desktop.window.auto_updates.key_file = _key_file(Path(tempfile.mkdtemp()), public)
    window.updates.key_file = desktop.window.auto_updates.key_file
    titles = [window.nav.item(i).text() for i in range(window.nav.count())]
    act(qloop, lambda: window.show_page(titles.index("Updates")))
    page = window.updates
    assert window.stack.currentWidget() is page
    run(qloop, lambda: until(lambda: page.key_checked, what="the key read"))
    return page


def _saved(desktop: Any, key: str) -> Any:
    """What the config file on disk says (not only the live config)."""
    return load_config(global_file=desktop.runtime.paths.config_file).get(key)


def test_the_address_is_saved_and_the_next_check_uses_it(qtbot, qloop, make_desktop,
                                                         tmp_path: Path) -> None:
    private, public = _keypair()
    desktop = make_desktop()
    desktop.window.auto_updates.key_file = _key_file(tmp_path, public)
    page = _updates_page(desktop, qloop)
    assert page.url.text() == "" and not page.automatic.isChecked()
    with serve() as server:
        server.files["/m.json"] = sign_manifest(_manifest("9.0.0"), private)
        address = server.url + "/m.json"
        page.url.setText(f"  {address} ")
        qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
        assert page.status.text() == "Update address saved."
        assert page.url.text() == address
        assert _saved(desktop, "updates.url") == address
        assert desktop.settings.get("updates.url") == address
        # Help ▸ Check for updates… reads the new address, without a restart
        act(qloop, desktop.window.findChild(QAction, "checkUpdates").trigger)
        prompt = desktop.window.update_prompt
        run(qloop, lambda: until(lambda: prompt.box is not None, what="the answer"))
        assert prompt.url == address
        assert server.ranges == [None]  # one request: the manifest, nothing downloaded
    box: Any = prompt.box
    assert box.windowTitle() == "An update is available" and "9.0.0" in box.text()
    # an empty address turns checks off
    page.url.clear()
    assert page.save_url()
    assert "will not check" in page.status.text() and _saved(desktop, "updates.url") == ""


def test_a_refused_address_says_why_and_loses_nothing(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop()
    page = _updates_page(desktop, qloop)
    page.url.setText("https://updates.example.org/manifest.json")
    assert page.save_url()
    for typed, reason in (
        ("http://updates.example.org/manifest.json", "must start with https://"),
        ("ftp://updates.example.org/manifest.json", "is not a web address"),
        ("updates.example.org", "is not a web address"),
        ("https:///manifest.json", "has no server name"),
    ):
        page.url.setText(typed)
        qtbot.keyClick(page.url, Qt.Key.Key_Return)  # Enter saves too
        assert page.status.text().startswith("Not saved:") and reason in page.status.text()
        assert page.url.text() == typed  # what the user typed stays, to be corrected
        assert _saved(desktop, "updates.url") == "https://updates.example.org/manifest.json"
        assert desktop.settings.get("updates.url") == "https://updates.example.org/manifest.json"
    page.url.setText("http://127.0.0.1:8123/manifest.json")  # this computer: for testing
    assert page.save_url() and _saved(desktop, "updates.url") == "http://127.0.0.1:8123/manifest.json"


def test_automatic_checks_are_weekly_quiet_and_off_by_default(qtbot, qloop, make_desktop,
                                                              tmp_path: Path) -> None:
    private, public = _keypair()
    desktop = make_desktop()
    window = desktop.window
    auto = window.auto_updates
    auto.key_file = _key_file(tmp_path, public)
    assert auto.timer.isActive()  # the first look is scheduled, not run at start
    page = _updates_page(desktop, qloop)
    with serve() as server:
        server.files["/m.json"] = sign_manifest(_manifest("9.0.0"), private)
        page.url.setText(server.url + "/m.json")
        assert page.save_url()
        assert qloop.run_until_complete(auto.check_if_due()) == "off"
        assert server.ranges == []  # off by default: the server is never asked
        page.automatic.setChecked(True)
        assert _saved(desktop, "updates.check_automatically") is True
        assert qloop.run_until_complete(auto.check_if_due()) == "available"
        assert len(server.ranges) == 1
        notice = window.update_notice
        assert notice.isVisible() and notice.text() == "Version 9.0.0 is available"
        # within the week: no second request
        assert qloop.run_until_complete(auto.check_if_due()) == "recent"
        assert len(server.ranges) == 1
        assert (desktop.runtime.paths.data / "updates.json").exists()
        # the note opens the full prompt (which offers the download; nothing installed)
        qtbot.mouseClick(notice, Qt.MouseButton.LeftButton)
        prompt = window.update_prompt
        run(qloop, lambda: until(lambda: prompt.box is not None, what="the prompt"))
        assert not notice.isVisible()
        assert any(b.text() == "Open download page" for b in prompt.box.buttons())
    page.automatic.setChecked(False)
    assert _saved(desktop, "updates.check_automatically") is False


def test_automatic_checks_need_an_address(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop()
    page = _updates_page(desktop, qloop)
    page.automatic.setChecked(True)
    assert "once an update address is saved" in page.status.text()
    assert qloop.run_until_complete(desktop.window.auto_updates.check_if_due()) == "unset"
    assert not desktop.window.update_notice.isVisible()


def _placeholder(folder: Path) -> Path:
    path = folder / "update-key.pub"
    path.write_text("# no release key yet\ndevelopment\n")
    return path


def test_a_development_build_says_it_cannot_check(qtbot, qloop, tmp_path: Path) -> None:
    private, _ = _keypair()
    parent = QWidget()
    qtbot.addWidget(parent)
    with serve() as server:
        server.files["/m.json"] = sign_manifest(_manifest("9.0.0"), private)
        prompt = UpdatePrompt(parent, server.url + "/m.json", current="0.1.0",
                              key_file=_placeholder(tmp_path))
        assert qloop.run_until_complete(prompt.run()) == "unavailable"
        assert server.ranges == []  # no server is asked what this build cannot verify
    box: Any = prompt.box
    assert box.icon() == QMessageBox.Icon.Information
    assert box.windowTitle() == "This build cannot check for updates"
    assert "signature" not in box.text() and "release key" in box.text()
    assert all(b.text() != "Open download page" for b in box.buttons())


def test_a_development_build_checks_nothing_by_itself(qtbot, qloop, tmp_path: Path) -> None:
    private, _ = _keypair()
    parent = QWidget()
    qtbot.addWidget(parent)
    settings = {"updates.check_automatically": True}
    found: list[str] = []
    with serve() as server:
        server.files["/m.json"] = sign_manifest(_manifest("9.0.0"), private)
        settings["updates.url"] = server.url + "/m.json"
        auto = AutoUpdateCheck(parent, settings, tmp_path / "updates.json", current="0.1.0",
                               key_file=_placeholder(tmp_path), start=False)
        auto.available.connect(found.append)
        assert qloop.run_until_complete(auto.check_if_due()) == "unavailable"
        assert server.ranges == [] and found == []


def test_the_page_says_when_this_build_cannot_check(qtbot, qloop, make_desktop,
                                                    tmp_path: Path) -> None:
    from openworker_qt.ui.settings_updates import UpdatesPage

    desktop = make_desktop()
    _, public = _keypair()
    (tmp_path / "dev").mkdir()
    (tmp_path / "release").mkdir()
    pages = {
        "dev": UpdatesPage(desktop.settings, key_file=_placeholder(tmp_path / "dev")),
        "release": UpdatesPage(desktop.settings, key_file=_key_file(tmp_path / "release", public)),
    }
    for page in pages.values():
        qtbot.addWidget(page)
        act(qloop, page.show)
        run(qloop, lambda page=page: until(lambda: page.key_checked, what="the key read"))
    assert pages["dev"].build_note.isVisible()
    assert "cannot check for updates" in pages["dev"].build_note.text()
    assert not pages["release"].build_note.isVisible()
    # A field that would change nothing in this build is unavailable, not a trap.
    dev, release = pages["dev"], pages["release"]
    assert not any(w.isEnabled() for w in (dev.url, dev.save_button, dev.automatic))
    assert all(w.isEnabled() for w in (release.url, release.save_button, release.automatic))
