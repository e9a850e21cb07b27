"""The workspace folder: where sessions read and write files.

The first start asks for it (:class:`WorkspaceDialog`, default ``~/OpenWorker``,
created when the user accepts) and remembers it in the global config as
``general.workspace``; new sessions start there. Each session can move to
another folder (the folder button in the main window's status bar and
Session → Change folder…); File → Default folder… changes the remembered one.
Before this, the app used the folder it was launched from, so a source checkout
started with ``scripts/dev app`` received the agent's files.

The app's first-run sequence (``DesktopApp.start_first_run``, after the
window's first paint) asks the workspace question (if none is remembered,
:func:`needs_workspace`), then offers onboarding. Dialogs open with ``open()``
(:func:`show_workspace_dialog`), never ``exec()``: a nested event loop would
re-enter the qasync loop. The dialog writes the setting through a
:class:`SettingsStore`; the app connects :attr:`WorkspaceDialog.chosen` to use
the folder.

Signals (WorkspaceDialog):
    chosen(str): the folder the user accepted (it exists and is remembered).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.qt.settings_store import SettingsStore
from openworker_qt.ui import design
from openworker_qt.ui.folders import broad_folder_warning, default_workspace, prepare_folder
from openworker_qt.ui.window_state import keep_on_screen

CONFIG_KEY = "general.workspace"


def remembered_workspace(config: Any) -> Path | None:
    """The folder chosen at first start (or later), if any."""
    value = str(config.get(CONFIG_KEY) or "").strip() if config is not None else ""
    return Path(value).expanduser() if value else None


def startup_workspace(config: Any) -> Path:
    """The folder new sessions use: the remembered one, else the default.

    Never the folder the app was launched from.
    """
    return remembered_workspace(config) or default_workspace()


def needs_workspace(config: Any) -> bool:
    """First start: no workspace folder remembered yet."""
    return remembered_workspace(config) is None


def folder_dialog(parent: QWidget, title: str, start: str) -> QFileDialog:
    """A folder picker, not yet open (``open()`` it and connect ``fileSelected``)."""
    dialog = QFileDialog(parent, title, start)
    dialog.setObjectName("folderPicker")
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    keep_on_screen(dialog)
    return dialog


class WorkspaceDialog(QDialog):
    """Ask which folder new sessions work in (see module docstring)."""

    chosen = Signal(str)

    def __init__(self, settings: SettingsStore, parent: QWidget | None = None, *,
                 first_run: bool = True) -> None:
        super().__init__(parent)
        self.settings = settings
        self.picker: QFileDialog | None = None
        self.setObjectName("workspaceDialog")
        keep_on_screen(self)
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setWindowTitle(self.tr("Choose your workspace folder") if first_run
                            else self.tr("Default folder for new sessions"))
        self.setAccessibleName(self.windowTitle())
        lay = QVBoxLayout(self)
        design.arrange(lay, "dialog", "section")
        heading = design.heading(self.tr("Where should OpenWorker keep your files?"))
        intro = QLabel(self.tr(
            "Sessions read and create files in a workspace folder; outside it the agent "
            "asks first. New sessions start in this folder, and each session can move to "
            "another one (Session → Change folder…)."))
        intro.setWordWrap(True)
        lay.addWidget(heading)
        lay.addWidget(intro)
        row = QHBoxLayout()
        current = remembered_workspace(settings.config) or default_workspace()
        self.path_edit = QLineEdit(str(current))
        self.path_edit.setAccessibleName(self.tr("Workspace folder"))
        self.path_edit.setAccessibleDescription(self.tr("Created if it does not exist yet"))
        label = QLabel(self.tr("&Folder"))
        label.setBuddy(self.path_edit)
        self.browse_button = QPushButton(self.tr("C&hoose…"))
        self.browse_button.setAccessibleDescription(self.tr("Pick the folder in a file dialog"))
        self.browse_button.setAccessibleName(self.tr("Choose a folder"))
        row.addWidget(label)
        row.addWidget(self.path_edit, 1)
        row.addWidget(self.browse_button)
        lay.addLayout(row)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setObjectName("warning")
        self.status.setAccessibleName(self.tr("Problem"))
        self.status.hide()
        lay.addWidget(self.status)
        lay.addSpacing(design.GAP["tight"])
        lay.addStretch(1)  # spare height goes above the buttons, not under the heading
        buttons = QHBoxLayout()
        self.later_button = QPushButton(self.tr("&Not now") if first_run else self.tr("Cancel"))
        self.later_button.setAccessibleName(self.tr("Not now") if first_run else self.tr("Cancel"))
        self.later_button.setAccessibleDescription(
            self.tr("Ask again next time; this time the default folder is used") if first_run else "")
        self.use_button = QPushButton(self.tr("&Use this folder"))
        self.use_button.setAccessibleName(self.tr("Use this folder"))
        self.use_button.setAccessibleDescription(self.tr("Create the folder if needed and remember it"))
        self.use_button.setDefault(True)
        buttons.addWidget(self.later_button)
        buttons.addStretch(1)
        buttons.addWidget(self.use_button)
        lay.addLayout(buttons)
        self.browse_button.clicked.connect(self.browse)
        self.use_button.clicked.connect(self.use_folder)
        self.path_edit.textChanged.connect(self._forget_warning)
        self._warned: str | None = None  # the broad folder the user was warned about
        self.later_button.clicked.connect(self.reject)
        self.setMinimumWidth(560)
        self.adjustSize()

    def browse(self) -> QFileDialog:
        start = self.path_edit.text().strip()
        existing = Path(start).expanduser()
        while not existing.is_dir() and existing != existing.parent:
            existing = existing.parent
        self.picker = folder_dialog(self, self.tr("Choose your workspace folder"), str(existing))
        self.picker.fileSelected.connect(self.path_edit.setText)
        self.picker.open()
        return self.picker

    def _forget_warning(self) -> None:
        if self._warned is not None:
            self._warned = None
            self.use_button.setText(self.tr("&Use this folder"))
            self.use_button.setAccessibleName(self.tr("Use this folder"))
            self.status.hide()

    def use_folder(self) -> bool:
        """Create the folder if needed, remember it, and announce it (:attr:`chosen`).
        The home folder (or the top of a disk) is first warned about: a second
        click ("Use it anyway") takes it."""
        text = self.path_edit.text().strip()
        warning = broad_folder_warning(Path(text)) if text and Path(text).expanduser().is_absolute() \
            else None
        if warning is not None and self._warned != text:
            self.status.setText(warning)
            self.status.setAccessibleDescription(warning)
            self.status.show()
            self.use_button.setText(self.tr("&Use it anyway"))
            self.use_button.setAccessibleName(self.tr("Use it anyway"))
            self._warned = text
            return False
        try:
            path = prepare_folder(self.path_edit.text())
            self.settings.apply({"general": {"workspace": str(path)}})
        except (ValueError, OSError) as exc:
            self.status.setText(str(exc))
            self.status.setAccessibleDescription(str(exc))
            self.status.show()
            return False
        self.chosen.emit(str(path))
        self.accept()
        return True


def show_workspace_dialog(settings: SettingsStore, parent: QWidget | None, *,
                          first_run: bool) -> WorkspaceDialog:
    """Open the workspace question (window-modal over ``parent``, deleted on close)."""
    dialog = WorkspaceDialog(settings, parent, first_run=first_run)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    dialog.raise_()
    dialog.activateWindow()
    return dialog
