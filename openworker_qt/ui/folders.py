"""Workspace folders without a widget: the default one, and turning typed text
into a folder that exists (shared by the workspace dialog, onboarding's demo, the
quick ask and the main window's folder button)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication

DEFAULT_NAME = "OpenWorker"


def default_workspace() -> Path:
    """``~/OpenWorker``: where work goes unless the user picks another folder."""
    return Path.home() / DEFAULT_NAME


def broad_folder_warning(path: Path) -> str | None:
    """A plain warning when ``path`` is the home folder, a folder that holds it, or
    the top of a disk (``/``, ``C:\\``): the assistant could then read nearly all
    of the user's files without asking. ``None`` for any other folder."""
    try:
        folder = path.expanduser().resolve()
        home = Path.home().resolve()
    except (OSError, RuntimeError):
        return None
    tr = QCoreApplication.translate
    if folder == home:
        what = tr("WorkspaceDialog", "{path} is your whole home folder.")
    elif folder.parent == folder:
        what = tr("WorkspaceDialog", "{path} is the top of the whole disk.")
    elif home.is_relative_to(folder):
        what = tr("WorkspaceDialog", "{path} holds your whole home folder.")
    else:
        return None
    return (what + " " + tr(
        "WorkspaceDialog",
        "The assistant could read almost all of your files there without asking you "
        "(password and key files still ask). A folder just for this work, such as "
        "{example}, is safer.")).format(path=folder, example=default_workspace())


def prepare_folder(text: str) -> Path:
    """The folder ``text`` names, created if missing. Raises ValueError with a message
    for the user (relative, not a folder, cannot be created)."""
    text = text.strip()
    if not text:
        raise ValueError(QCoreApplication.translate("WorkspaceDialog", "Enter a folder."))
    path = Path(text).expanduser()
    if not path.is_absolute():
        raise ValueError(QCoreApplication.translate("WorkspaceDialog", "Enter a full path (for example {example}).")
                         .format(example=default_workspace()))
    if path.exists() and not path.is_dir():
        raise ValueError(QCoreApplication.translate("WorkspaceDialog", "{path} is a file, not a folder.")
                         .format(path=path))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(QCoreApplication.translate("WorkspaceDialog", "{path} could not be created: {reason}")
                         .format(path=path, reason=exc.strerror or exc)) from exc
    return path.resolve()
