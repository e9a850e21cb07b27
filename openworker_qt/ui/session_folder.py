"""The folder the shown session works in: the status bar's button saying which
(its menu changes it or opens it in the file manager), and moving the session
to another folder — the home folder or the top of a disk warned about first, no
move while a turn runs, a chip telling the model with the next message."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QIcon
from PySide6.QtWidgets import QFileDialog, QMenu, QToolButton, QWidget

from openworker_qt.core.sessions import SessionManager
from openworker_qt.ui import banner as actions
from openworker_qt.ui.attachments import Attachment
from openworker_qt.ui.banner import Banner
from openworker_qt.ui.composer import Composer
from openworker_qt.ui.folders import broad_folder_warning


class FolderButton(QToolButton):
    """See module docstring. ``current()``: the session shown (None: a new one,
    whose folder is kept here until it is created); ``default_folder()``: where new
    sessions start; ``note(text)``: a passing note in the status bar; ``changed()``:
    the session's folder changed (the window shows it)."""

    def __init__(self, window: QWidget, manager: SessionManager, composer: Composer,
                 banner: Banner, *, current: Callable[[], str | None],
                 default_folder: Callable[[], Path], note: Callable[[str], None],
                 changed: Callable[[], None]) -> None:
        super().__init__()
        self._dialog_parent = window
        self.manager = manager
        self.composer = composer
        self.banner = banner
        self._current = current
        self._default_folder = default_folder
        self._note = note
        self._changed = changed
        #: a folder picked before the session exists (it starts there)
        self.new_folder: Path | None = None
        self._broad_folder: str | None = None  # the home folder the banner warned about
        self.setObjectName("folderButton")
        self.setAutoRaise(True)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.setIcon(QIcon.fromTheme("folder"))
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setAccessibleName(self.tr("Session folder"))
        #: Session → Change folder… (also in this button's menu)
        self.change_action = QAction(self.tr("Change &folder…"), window)
        self.change_action.setObjectName("changeFolder")
        self.change_action.triggered.connect(self.change)
        menu = QMenu(self)
        menu.addAction(self.change_action)
        open_folder = menu.addAction(self.tr("&Open in file manager"))
        open_folder.setObjectName("openFolder")
        open_folder.triggered.connect(lambda: QDesktopServices.openUrl(
            QUrl.fromLocalFile(str(self.folder()))))
        self.setMenu(menu)

    def folder(self) -> Path:
        """The folder the current session works in (a new one: the default folder)."""
        sid = self._current()
        if sid is not None:
            info = self.manager.store.get_session(sid)
            if info is not None and info.workspace:
                return Path(info.workspace)
        return self.new_folder or self._default_folder()

    def refresh(self) -> Path:
        """Say the session's folder (after the session or the default changed); returns it."""
        folder = self.folder()
        self.setText(self.tr("Folder: {name}").format(name=folder.name or str(folder)))
        tip = self.tr("This session works in {folder}").format(folder=folder)
        self.setToolTip(tip)
        self.setAccessibleDescription(tip)
        return folder

    def change(self) -> QFileDialog:
        """Session → Change folder…: pick the folder this session works in."""
        from openworker_qt.ui.workspace import folder_dialog

        dialog = folder_dialog(self._dialog_parent, self.tr("Folder for this session"), str(self.folder()))
        dialog.fileSelected.connect(self.move_to)
        dialog.open()
        return dialog

    def use_warned(self) -> None:
        """The banner's "Use it anyway": move to the broad folder it warned about."""
        if self._broad_folder:
            self.banner.hide()
            self.move_to(self._broad_folder, warned=True)

    def move_to(self, folder: str, *, warned: bool = False) -> bool:
        """Move the current session (or the next new one) to ``folder``. The home
        folder (or the top of a disk) is first warned about in the banner, whose
        "Use it anyway" moves the session there."""
        path = Path(folder).expanduser()
        if not path.is_dir():
            self.banner.show_message(self.tr("{folder} is not a folder.").format(folder=folder))
            return False
        path = path.resolve()
        warning = broad_folder_warning(path)
        if warning is not None and not warned and path != self.folder():
            self._broad_folder = str(path)
            self.banner.show_message(warning, self.tr("Use it anyway"), action_id=actions.USE_FOLDER)
            return False
        self._broad_folder = None
        sid = self._current()
        if sid is None:
            self.new_folder = path
        elif sid in self.manager.running_sessions():
            self.banner.show_message(self.tr(
                "The folder can change once the current turn has ended."), error=False)
            return False
        elif path != self.folder():
            self.manager.move_to_folder(sid, str(path))  # (the next turn works there)
            note = (f"[The working folder of this session is now {path}; relative paths refer "
                    "to it.]")
            self.composer.add_attachment(Attachment(
                self.tr("now in {name}/").format(name=path.name or str(path)), str(path), "folder",
                {"type": "text", "text": note}))
        self._changed()
        self._note(self.tr("This session now works in {folder}").format(folder=path))
        return True
