"""MCP servers in the composer: their resources attach to a message, their prompts
start one.

:class:`McpComposer` connects a :class:`~openworker_qt.ui.composer.Composer` to the
:class:`~openworker_qt.ui.ports.McpOffers` (the runtime's MCP manager): the attach menu's "From an MCP
server…" lists what the ready servers offer and attaches the chosen resource as
text; "/" in an empty message box (or the menu's "Prompt from an MCP server…")
lists their prompts, asks for the chosen prompt's arguments in a small dialog and
puts its rendered messages into the message box, for the user to read and send.
Servers are asked on the loop (their I/O is asynchronous; nothing here blocks it).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.domain.mcp_offers import PromptInfo, ResourceInfo
from openworker_qt.ui.attachments import mcp_attachment
from openworker_qt.ui.composer import Composer
from openworker_qt.ui.ports import McpOffers

log = logging.getLogger(__name__)


class McpChoiceDialog(QDialog):
    """Pick one of the servers' resources or prompts."""

    def __init__(self, title: str, intro: str, items: list[tuple[str, Any]],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        lay = QVBoxLayout(self)
        label = QLabel(intro)
        label.setWordWrap(True)
        lay.addWidget(label)
        self.list = QListWidget()
        self.list.setAccessibleName(title)
        for server, info in items:
            shown = info.title or info.name
            detail = getattr(info, "uri", "") or info.description
            item = QListWidgetItem(f"{shown} — {server}" + (f"\n{detail}" if detail else ""))
            item.setData(Qt.ItemDataRole.UserRole, (server, info))
            item.setToolTip(info.description or shown)
            self.list.addItem(item)
        self.list.setCurrentRow(0)
        lay.addWidget(self.list)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.list.itemDoubleClicked.connect(lambda _item: self.accept())
        lay.addWidget(buttons)
        self.resize(520, 360)

    def chosen(self) -> tuple[str, Any] | None:
        item = self.list.currentItem()
        if item is None:
            return None
        server, info = item.data(Qt.ItemDataRole.UserRole)
        return str(server), info


class PromptArgumentsDialog(QDialog):
    """The arguments of one prompt; OK once every needed one is filled in."""

    def __init__(self, server: str, prompt: PromptInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("{prompt} from {server}").format(
            prompt=prompt.title or prompt.name, server=server))
        lay = QVBoxLayout(self)
        if prompt.description:
            about = QLabel(prompt.description)
            about.setWordWrap(True)
            lay.addWidget(about)
        form = QFormLayout()
        self.fields: dict[str, QLineEdit] = {}
        self.required = [name for name, needed in prompt.arguments if needed]
        for name, needed in prompt.arguments:
            edit = QLineEdit()
            edit.setAccessibleName(name)
            edit.setPlaceholderText(self.tr("needed") if needed else self.tr("optional"))
            edit.textChanged.connect(self._check)
            form.addRow(name, edit)
            self.fields[name] = edit
        lay.addLayout(form)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self._check()

    def _check(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        if ok is not None:
            ok.setEnabled(all(self.fields[n].text().strip() for n in self.required))

    def values(self) -> dict[str, str]:
        return {name: edit.text() for name, edit in self.fields.items() if edit.text().strip()}


class McpComposer(QObject):
    """See module docstring. ``notify`` shows a problem to the user (a banner)."""

    def __init__(self, composer: Composer, manager: McpOffers,
                 notify: Callable[[str], None]) -> None:
        super().__init__(composer)
        self.composer = composer
        self.manager = manager
        self.notify = notify
        #: The dialog on screen (tests answer it).
        self.dialog: QDialog | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        composer.offer_mcp(True)
        composer.mcp_attach_requested.connect(lambda: self._spawn(self.attach_resource()))
        composer.mcp_prompt_requested.connect(lambda slash: self._spawn(self.insert_prompt(slash)))

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _ask(self, dialog: QDialog) -> bool:
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def finished(code: int) -> None:
            if not done.done():
                done.set_result(code)

        dialog.finished.connect(finished)
        self.dialog = dialog
        dialog.open()
        try:
            return await done == QDialog.DialogCode.Accepted.value
        finally:
            self.dialog = None
            dialog.deleteLater()

    async def attach_resource(self) -> None:
        """"From an MCP server…": choose a resource, attach its text."""
        tr = self.tr
        found: list[tuple[str, ResourceInfo]] = await self.manager.resources()
        if not found:
            self.notify(tr("None of your MCP servers that are running offers anything to attach."))
            return
        dialog = McpChoiceDialog(tr("Attach from an MCP server"),
                                 tr("What your MCP servers offer. The one you choose is read "
                                    "now and added to your message."), list(found),
                                 self.composer.window())
        if not await self._ask(dialog) or (choice := dialog.chosen()) is None:
            return
        server, resource = choice
        try:
            text = await self.manager.attachment(server, resource.uri)
        except Exception as exc:
            self.notify(tr("{name} could not be read from the MCP server {server}: {reason}").format(
                name=resource.name or resource.uri, server=server, reason=exc))
            return
        self.composer.add_attachment(mcp_attachment(server, resource.uri, resource.name, text))

    async def insert_prompt(self, slash: bool = False) -> None:
        """Choose a server's prompt, fill in its arguments, put its text in the message box.
        After a typed "/", nothing chosen puts the "/" back."""
        tr = self.tr
        found: list[tuple[str, PromptInfo]] = await self.manager.prompts()
        text = await self._prompt_text(found) if found else None
        if not found and not slash:
            self.notify(tr("None of your MCP servers that are running offers a prompt."))
        if text is None:
            if slash:
                self.composer.insert_text("/")
            return
        self.composer.insert_text(text)

    async def _prompt_text(self, found: list[tuple[str, PromptInfo]]) -> str | None:
        tr = self.tr
        dialog = McpChoiceDialog(tr("Prompts from your MCP servers"),
                                 tr("The prompt you choose is put into your message, "
                                    "for you to read before sending."), list(found),
                                 self.composer.window())
        if not await self._ask(dialog) or (choice := dialog.chosen()) is None:
            return None
        server, prompt = choice
        values: dict[str, str] = {}
        if prompt.arguments:
            ask = PromptArgumentsDialog(server, prompt, self.composer.window())
            if not await self._ask(ask):
                return None
            values = ask.values()
        try:
            return await self.manager.prompt(server, prompt.name, values)
        except Exception as exc:
            self.notify(tr("The prompt {name} of the MCP server {server} did not come: {reason}").format(
                name=prompt.name, server=server, reason=exc))
            return None
