"""Settings ▸ Voice: the speech model (download, import, delete, the one in use), the
push-to-talk key and where its words go.

Downloads run in a worker (voice/download.py) and report progress through a
queued signal; a stopped or dropped download keeps its partial file and resumes
next time. Every change is written through the :class:`SettingsStore` at once.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QKeySequenceEdit,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.qt.settings_store import SettingsStore
from openworker_qt.ui.voice import DEFAULT_VOICE_HOTKEY
from openworker_qt.voice.download import (
    CATALOGUE,
    DownloadCancelled,
    DownloadError,
    ModelSize,
    delete_model,
    download_model,
    model_url,
)
from openworker_qt.voice.models import (
    ModelImportError,
    NoModelError,
    find_model,
    import_model,
    installed_models,
    models_dir,
)


class VoicePage(QWidget):
    """See module docstring. ``changed()`` fires when the model in use may differ."""

    changed = Signal()
    hotkey_changed = Signal()
    _progress = Signal(int, int)  # from the download worker, queued to the GUI thread

    def __init__(self, settings: SettingsStore, parent: QWidget | None = None, *,
                 catalogue: tuple[ModelSize, ...] = CATALOGUE,
                 microphone_check: Any = None) -> None:
        super().__init__(parent)
        self.setObjectName("voicePage")
        self.settings = settings
        self.catalogue = catalogue
        self.folder = models_dir(settings.paths)
        self._microphone_check = microphone_check
        self._cancel: threading.Event | None = None
        self.task: asyncio.Task[None] | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(16, 12, 16, 12)
        heading = QLabel(self.tr("Voice"))
        font = heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        heading.setFont(font)
        lay.addWidget(heading)
        intro = QLabel(self.tr("Speech is turned into text on this computer by a speech model. "
                               "Download one here or import a model file you already have."))
        intro.setWordWrap(True)
        lay.addWidget(intro)

        self.in_use = QLabel()
        self.in_use.setObjectName("modelInUse")
        self.in_use.setWordWrap(True)
        self.in_use.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.in_use)
        self.microphone = QLabel()
        self.microphone.setObjectName("microphoneState")
        self.microphone.setWordWrap(True)
        lay.addWidget(self.microphone)

        self.models = QListWidget()
        self.models.setAccessibleName(self.tr("Installed speech models"))
        self.models.setMaximumHeight(110)
        lay.addWidget(self.models)
        row = QHBoxLayout()
        self.delete_button = QPushButton(self.tr("Delete"))
        self.delete_button.setAccessibleName(self.tr("Delete model"))
        self.delete_button.setAccessibleDescription(self.tr("Delete the selected speech model"))
        self.delete_button.clicked.connect(self.delete_selected)
        self.import_button = QPushButton(self.tr("Import model…"))
        self.import_button.setAccessibleName(self.tr("Import model"))
        self.import_button.setAccessibleDescription(self.tr("Copy a whisper.cpp model file you have"))
        self.import_button.clicked.connect(self.choose_file)
        row.addWidget(self.delete_button)
        row.addWidget(self.import_button)
        row.addStretch(1)
        lay.addLayout(row)

        form = QFormLayout()
        self.size_choice = QComboBox()
        self.size_choice.setAccessibleName(self.tr("Model size to download"))
        for spec in catalogue:
            language = self.tr("English only") if spec.english_only else self.tr("many languages")
            self.size_choice.addItem(self.tr("{name} — {mib} MB, {language}").format(
                name=spec.name, mib=spec.mib, language=language), spec.name)
        wanted = str(settings.get("voice.model_size") or "")
        if (index := self.size_choice.findData(wanted)) >= 0:
            self.size_choice.setCurrentIndex(index)
        self.size_choice.currentIndexChanged.connect(
            lambda _i: self.settings.apply({"voice": {"model_size": self.size_choice.currentData()}}))
        download_row = QHBoxLayout()
        self.download_button = QPushButton(self.tr("Download"))
        self.download_button.setAccessibleName(self.tr("Download model"))
        self.download_button.clicked.connect(self.start_download)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setAccessibleName(self.tr("Stop download"))
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop_download)
        download_row.addWidget(self.size_choice, 1)
        download_row.addWidget(self.download_button)
        download_row.addWidget(self.stop_button)
        form.addRow(self.tr("Download a model:"), download_row)
        self.progress = QProgressBar()
        self.progress.setAccessibleName(self.tr("Download progress"))
        self.progress.setVisible(False)
        form.addRow("", self.progress)
        self.status = QLabel()
        self.status.setObjectName("voiceStatus")
        self.status.setWordWrap(True)
        form.addRow("", self.status)

        self.hotkey = QKeySequenceEdit(QKeySequence(
            str(settings.get("ui.voice_hotkey") or DEFAULT_VOICE_HOTKEY)))
        self.hotkey.setAccessibleName(self.tr("Push-to-talk key"))
        self.hotkey.editingFinished.connect(self._save_hotkey)
        form.addRow(self.tr("Push-to-talk key (hold):"), self.hotkey)
        self.target = QComboBox()
        self.target.setAccessibleName(self.tr("Where spoken words go"))
        self.target.addItem(self.tr("Quick ask"), "quick_ask")
        self.target.addItem(self.tr("The open session's message box"), "composer")
        if (index := self.target.findData(settings.get("voice.push_to_talk_target"))) >= 0:
            self.target.setCurrentIndex(index)
        self.target.currentIndexChanged.connect(
            lambda _i: self.settings.apply({"voice": {"push_to_talk_target":
                                                      self.target.currentData()}}))
        form.addRow(self.tr("Spoken words go to:"), self.target)
        self.send = QCheckBox(self.tr("Send at once (otherwise left for you to review)"))
        self.send.setAccessibleName(self.tr("Send spoken words at once"))
        self.send.setChecked(bool(settings.get("voice.push_to_talk_send")))
        self.send.toggled.connect(
            lambda on: self.settings.apply({"voice": {"push_to_talk_send": bool(on)}}))
        form.addRow("", self.send)
        lay.addLayout(form)
        lay.addStretch(1)
        self._progress.connect(self._on_progress, Qt.ConnectionType.QueuedConnection)
        self.refresh()

    # ------------------------------------------------------------------ state

    def refresh(self) -> None:
        self.models.clear()
        current: Path | None = None
        try:
            current = find_model(str(self.settings.get("voice.model") or ""), self.folder)
        except NoModelError as exc:
            configured = str(self.settings.get("voice.model") or "")
            self.in_use.setText(str(exc) if configured else self.tr(
                "No speech model is installed, so voice input cannot transcribe. Download one "
                "here, or import a whisper.cpp model file (such as ggml-base.en.bin) with "
                "“Import model…”, or copy it into {folder}.").format(folder=self.folder))
        else:
            self.in_use.setText(self.tr("Model in use: {name}").format(name=current.name))
        for path in installed_models(self.folder):
            label = path.name + (self.tr(" (in use)") if path == current else "")
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, str(path))
            self.models.addItem(item)
        self.delete_button.setEnabled(self.models.count() > 0)

    def showEvent(self, event: Any) -> None:
        self.refresh()
        # QtMultimedia loads FFmpeg and probes the sound server (~100 ms): after the paint.
        QTimer.singleShot(0, self._check_microphone)
        super().showEvent(event)

    def _check_microphone(self) -> None:
        check = self._microphone_check
        if check is None:
            from openworker_qt.qt.audio_capture import has_audio_input as check
        if check():
            self.microphone.setText("")
        else:
            self.microphone.setText(self.tr(
                "No microphone found. Connect one (or allow this app to use it in the "
                "system's privacy settings) to use voice input."))

    def _say(self, text: str) -> None:
        self.status.setText(text)

    # --------------------------------------------------------------- download

    def selected_size(self) -> ModelSize:
        name = self.size_choice.currentData()
        return next(s for s in self.catalogue if s.name == name)

    def start_download(self) -> None:
        if self.task is not None and not self.task.done():
            return
        self.task = asyncio.ensure_future(self.download(self.selected_size()))

    def stop_download(self) -> None:
        if self._cancel is not None:
            self._cancel.set()

    async def download(self, spec: ModelSize) -> None:
        url = model_url(str(self.settings.get("voice.download_url") or ""), spec.name)
        self._cancel = threading.Event()
        self.download_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.progress.setVisible(True)
        self.progress.setRange(0, 0)
        self._say(self.tr("Downloading {name}…").format(name=spec.name))
        try:
            path = await asyncio.to_thread(
                download_model, url, self.folder, spec.name, spec.digest,
                algorithm=spec.algorithm, progress=self._progress.emit, cancel=self._cancel)
        except DownloadCancelled:
            self._say(self.tr("Download stopped. Press Download again to resume."))
        except (DownloadError, OSError) as exc:
            self._say(str(exc))
        else:
            self._say(self.tr("Speech model {name} is ready.").format(name=path.name))
            self.changed.emit()
        finally:
            self._cancel = None
            self.download_button.setEnabled(True)
            self.stop_button.setEnabled(False)
            self.progress.setVisible(False)
            self.refresh()

    def _on_progress(self, done: int, total: int) -> None:
        if total > 0:
            # QProgressBar holds ints: count in KiB so multi-GB models fit.
            self.progress.setRange(0, max(1, total // 1024))
            self.progress.setValue(done // 1024)
            self._say(self.tr("Downloading… {done} of {total} MB").format(
                done=done // (1 << 20), total=max(1, total // (1 << 20))))

    # ------------------------------------------------------- import and delete

    def choose_file(self) -> None:
        dialog = QFileDialog(self, self.tr("Import a speech model"))
        dialog.setNameFilter(self.tr("whisper.cpp models (*.bin)"))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.fileSelected.connect(lambda p: asyncio.ensure_future(self.import_file(Path(p))))
        dialog.open()

    async def import_file(self, source: Path) -> None:
        try:
            target = await asyncio.to_thread(import_model, source, self.folder)
        except (ModelImportError, OSError) as exc:
            self._say(str(exc))
            return
        self._say(self.tr("Speech model {name} is ready.").format(name=target.name))
        self.refresh()
        self.changed.emit()

    def delete_selected(self) -> None:
        item = self.models.currentItem() or self.models.item(0)
        if item is None:
            return
        path = Path(item.data(Qt.ItemDataRole.UserRole))
        try:
            delete_model(path)
        except OSError as exc:
            self._say(self.tr("Could not delete {name}: {error}").format(name=path.name,
                                                                         error=exc))
            return
        self._say(self.tr("Deleted {name}.").format(name=path.name))
        self.refresh()
        self.changed.emit()

    def _save_hotkey(self) -> None:
        text = self.hotkey.keySequence().toString(QKeySequence.SequenceFormat.PortableText)
        self.settings.apply({"ui": {"voice_hotkey": text or DEFAULT_VOICE_HOTKEY}})
        self.hotkey_changed.emit()
