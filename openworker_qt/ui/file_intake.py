"""Files and folders the user brings to the main window (Attach files…, a drop,
opening the app with files): files are read in a worker into the composer's
attachments, with a warning when the chosen model cannot see an image; folders
are handed on to be granted (:attr:`FileIntake.folder_offered`).

Signals:
    folder_offered(str): a folder was brought; ask how to grant it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from openworker_qt.core.background import spawn
from openworker_qt.core.provider_api import ProviderResolver
from openworker_qt.ui.attachments import AttachmentError, load_attachment
from openworker_qt.ui.composer import Composer

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
