"""What a user's message shows: what the user wrote, with attachment chips; what the
model is told about attachments is sent, never shown as typed (issue 27, A2)."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage

from openworker_qt.qt.transcript_items import content_text
from tests.ui.conftest import run, until
from tests.ui.test_main_window import type_and_enter
from tests.ui.test_tray_notify_dnd import _drop


def test_folder_grant_is_a_chip_not_typed_text_live_and_reloaded(
        qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    folder = (tmp_path / "project").resolve()
    folder.mkdir()
    desktop = make_desktop([{"text": "Looked."}, {"text": "x"}])
    window = desktop.window
    window.cards.show_dialogs = False
    seen: dict[str, object] = {}

    async def scenario() -> None:
        _drop(window, [folder])
        qtbot.mouseClick(desktop.grant_dialog.write_button, Qt.MouseButton.LeftButton)
        type_and_enter(qtbot, window, "look in there")
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")
        live = window.transcript.items[0]
        seen["live"] = (live.text, live.attachments, window.view.delegate._plain_body(live))
        sid = window.session_id
        window.new_session()
        window.open_session(sid)
        await until(window.loaded, what="reload")
        again = window.transcript.items[0]
        seen["reloaded"] = (again.text, again.attachments, window.view.delegate._plain_body(again))
        seen["chips"] = _chips(window.view.delegate._doc(again, "body", 500))
        window.grab().save(str(tmp_path / "bubble.png"))

    run(qloop, scenario)
    for text, chips, body in (seen["live"], seen["reloaded"]):
        assert text == "look in there"
        assert chips == ("project/ (read and write)",)  # the access in words
        assert "Folder granted" not in body and "you may" not in body
        assert "project/ (read and write)" in body
    assert seen["chips"] == ["project/ (read and write)"]  # drawn as a chip
    # the model is still told, in the text it receives
    provider, _ = desktop.runtime.router.resolve(desktop.manager.default_model)
    sent = json.dumps(provider.requests[0].messages)
    assert "Folder granted for this session (read and write)" in sent
    assert '"access"' not in sent and '"folder":' not in sent  # display keys stay home


def _chips(doc) -> list[str]:
    """The text of the runs drawn on a tinted background (the chips)."""
    out = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().background().style() != Qt.BrushStyle.NoBrush:
                out.append(fragment.text().replace("\xa0", " ").strip())
            it += 1
        block = block.next()
    return out


def test_a_grant_note_stored_before_it_was_named_shows_as_a_chip() -> None:
    text, chips = content_text([
        {"type": "text", "text": "[Folder granted for this session (read only): /home/a/notes — "
                                 "you may list and read files there; do not write there.]"},
        {"type": "text", "text": "summarise"},
    ])
    assert (text, chips) == ("summarise", ("notes/ (read only)",))


def test_attaching_an_image_for_a_model_that_cannot_see_says_so(
        qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    script = tmp_path / "blind.json"
    script.write_text(json.dumps({"vision": False, "turns": [{"text": "ok"}]}), encoding="utf-8")
    image = tmp_path / "chart.png"
    picture = QImage(8, 8, QImage.Format.Format_RGB32)
    picture.fill(QColor("red"))
    assert picture.save(str(image))
    desktop = make_desktop([{"text": "ok"}])
    window = desktop.window
    window.composer.show_model(f"scripted:{script}")
    assert window.composer.current_model() == f"scripted:{script}"

    async def scenario() -> None:
        window.add_paths([str(image)])
        await until(lambda: window.composer.attachments, what="attached")
        await until(lambda: window.banner.isVisible(), what="the warning")

    run(qloop, scenario)
    assert "cannot see images" in window.banner.label.text()
    assert window.session_id is None  # said before sending: nothing was sent


def test_no_warning_when_the_model_sees_images(
        qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    image = tmp_path / "chart.png"
    picture = QImage(8, 8, QImage.Format.Format_RGB32)
    picture.fill(QColor("red"))
    assert picture.save(str(image))
    desktop = make_desktop([{"text": "ok"}])
    window = desktop.window

    async def scenario() -> None:
        await window.intake.attach([str(image)])

    run(qloop, scenario)
    assert window.composer.attachments
    assert not window.banner.isVisible()
