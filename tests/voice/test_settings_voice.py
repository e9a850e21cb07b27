"""Settings ▸ Voice against a local HTTP server: pick a size, download with progress,
the model in use shown; a wrong checksum refused with a message; delete; import;
the no-model and no-microphone messages."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from openworker_qt.qt.settings_store import SettingsStore
from openworker_qt.storage.config import load_config
from openworker_qt.storage.paths import app_paths
from openworker_qt.ui.settings_voice import VoicePage
from openworker_qt.voice.download import ModelSize
from openworker_qt.voice.models import GGML_MAGIC
from tests.voice.fileserver import serve

BODY = GGML_MAGIC + b"\1" * 600_000


class Owner:
    def __init__(self) -> None:
        self.paths = app_paths()
        self.config = load_config()

    def reload_config(self, *_: Any, **__: Any) -> None:
        self.config = load_config()


def _page(qtbot: Any, digest: str, *, microphone: bool = True) -> VoicePage:
    catalogue = (ModelSize("tiny.en", 1, digest, "sha256", True),
                 ModelSize("base", 2, "0" * 64, "sha256"))
    page = VoicePage(SettingsStore(Owner()), catalogue=catalogue,
                     microphone_check=lambda: microphone)
    qtbot.addWidget(page)
    return page


def _wait(qloop: Any, page: VoicePage) -> None:
    assert page.task is not None
    qloop.run_until_complete(page.task)


def test_download_shows_progress_and_the_model_in_use(qtbot, qloop) -> None:
    page = _page(qtbot, hashlib.sha256(BODY).hexdigest())
    assert "No speech model is installed" in page.in_use.text()
    with serve() as server:
        server.files["/ggml-tiny.en.bin"] = BODY
        page.settings.apply({"voice": {"download_url": server.url + "/ggml-{name}.bin"}})
        values: list[int] = []
        page.progress.valueChanged.connect(values.append)
        page.size_choice.setCurrentIndex(0)
        page.download_button.click()
        _wait(qloop, page)
    assert values and values[-1] == len(BODY) // 1024
    assert page.in_use.text() == "Model in use: ggml-tiny.en.bin"
    assert page.models.item(0).text() == "ggml-tiny.en.bin (in use)"
    assert "is ready" in page.status.text()
    page.delete_button.click()
    assert page.models.count() == 0 and "No speech model" in page.in_use.text()


def test_a_wrong_checksum_is_refused_on_screen(qtbot, qloop) -> None:
    page = _page(qtbot, hashlib.sha256(b"something else").hexdigest())
    with serve() as server:
        server.files["/ggml-tiny.en.bin"] = BODY
        page.settings.apply({"voice": {"download_url": server.url + "/ggml-{name}.bin"}})
        page.download_button.click()
        _wait(qloop, page)
    assert "did not match its checksum" in page.status.text()
    assert page.models.count() == 0
    assert not any(page.folder.iterdir())


def test_the_size_choice_and_push_to_talk_settings_are_saved(qtbot) -> None:
    page = _page(qtbot, "0" * 64)
    page.size_choice.setCurrentIndex(1)
    page.target.setCurrentIndex(page.target.findData("composer"))
    page.send.setChecked(True)
    config = load_config()
    assert config.get("voice.model_size") == "base"
    assert config.get("voice.push_to_talk_target") == "composer"
    assert config.get("voice.push_to_talk_send") is True


def test_import_and_no_microphone(qtbot, qloop, tmp_path: Path) -> None:
    page = _page(qtbot, "0" * 64, microphone=False)
    page.show()
    qtbot.waitUntil(lambda: "No microphone found" in page.microphone.text())
    source = tmp_path / "my-model.bin"
    source.write_bytes(BODY)
    qloop.run_until_complete(page.import_file(source))
    assert page.in_use.text() == "Model in use: ggml-my-model.bin"
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"nope")
    qloop.run_until_complete(page.import_file(junk))
    assert "not a whisper.cpp ggml model" in page.status.text()
