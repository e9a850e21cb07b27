"""Files and folders the user brings to the main window (Attach files…, a drop,
opening the app with files): files are read in a worker into the composer's
attachments, with a warning when the chosen model cannot see an image; folders
are handed on to be granted (:attr:`FileIntake.folder_offered`). While files are
dragged over the window it is lit (:meth:`FileIntake.watch_drops`).

Signals:
    folder_offered(str): a folder was brought; ask how to grant it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QWidget

from openworker_qt.core.background import spawn
from openworker_qt.core.provider_api import ProviderResolver
from openworker_qt.ui.attachments import AttachmentError, load_attachment
from openworker_qt.ui.composer import Composer
from openworker_qt.ui.drop_highlight import DropHighlight, accept_copy

log = logging.getLogger(__name__)


class FileIntake(QObject):
    """See module docstring. ``warn(text)``: the window's banner."""

    folder_offered = Signal(str)

    def __init__(self, composer: Composer, resolver: ProviderResolver, *,
                 warn: Callable[[str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.composer = composer
        self.resolver = resolver
        self._warn = warn
        self._drop_target: QWidget | None = None
        self._highlight: DropHighlight | None = None

    def watch_drops(self, window: QWidget, lit: QWidget) -> None:
        """Take what is dropped on ``window``; ``lit`` is lit while files are dragged over."""
        self._drop_target = lit
        window.setAcceptDrops(True)
        window.installEventFilter(self)

    def drop_highlight(self) -> DropHighlight:
        """The overlay shown while files are dragged over the window (made on first use)."""
        if self._highlight is None:
            assert self._drop_target is not None, "watch_drops() first"
            self._highlight = DropHighlight(self._drop_target)
        return self._highlight

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.DragEnter and isinstance(event, QDragEnterEvent):
            if event.mimeData().hasUrls():
                accept_copy(event)  # never Move: the source could delete the original
                self.drop_highlight().begin()
            return True
        if kind == QEvent.Type.DragMove and isinstance(event, QDragMoveEvent):
            if event.mimeData().hasUrls():
                accept_copy(event)
            return True
        if kind == QEvent.Type.DragLeave:
            self.drop_highlight().end()
            return False  # (the window's own handling too)
        if kind == QEvent.Type.Drop and isinstance(event, QDropEvent):
            self.drop_highlight().end()
            paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
            if not paths:
                self._warn(self.tr("Only local files and folders can be dropped here."))
            else:
                accept_copy(event)
                self.add_paths(paths)
            return True
        return super().eventFilter(watched, event)

    def add_paths(self, paths: list[str]) -> None:
        """Files → attachments (read in a worker); folders → :attr:`folder_offered`."""
        files = [p for p in paths if not Path(p).is_dir()]
        for folder in (p for p in paths if Path(p).is_dir()):
            self.folder_offered.emit(folder)
        if files:
            spawn(self.attach(files))

    async def attach(self, paths: list[str]) -> None:
        """Read ``paths`` into attachments; what could not be read is said in one banner."""
        problems: list[str] = []
        for path in paths:
            try:
                attachment = await asyncio.to_thread(load_attachment, path)
            except AttachmentError as exc:
                problems.append(str(exc))
                continue
            self.composer.add_attachment(attachment)
            if attachment.kind == "image" and not await self._model_sees_images():
                problems.append(self.tr(
                    "{model} cannot see images: it will be told only that {name} is attached. "
                    "Choose a model that can see images to have it looked at.").format(
                        model=self.composer.current_model() or self.tr("This model"),
                        name=attachment.name))
        if problems:
            self._warn("\n".join(problems))

    async def _model_sees_images(self) -> bool:
        """Whether the chosen model can see images, as its provider says (resolved in a
        worker: a first resolve reads a key and imports an SDK). Unknown: assume yes."""
        model = self.composer.current_model()
        if not model:
            return True

        def vision() -> bool:
            provider, model_id = self.resolver.resolve(model)
            return bool(provider.capabilities(model_id).vision)

        try:
            return await asyncio.to_thread(vision)
        except Exception:
            log.debug("could not read the capabilities of %s", model, exc_info=True)
            return True
