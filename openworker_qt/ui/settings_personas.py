"""The Personas page of the settings window: who can work on your sessions.

Lists the built-in and installed personas with their state (enabled, disabled,
needs your consent). Install one from a folder or a git address; it arrives
disabled and the consent dialog (``ui/persona_consent.py``) shows what it may do
before it can be enabled. A persona bundle (one ``.owpersona`` file,
``agents/bundles.py``) is imported the same way, and what it brings (skills, MCP
servers) is added once the user agrees; "Export…" writes the selected persona to one. Enable, disable, update and remove act on the selected
persona. Every registry call (disk, ``git``) runs in a worker thread.

Signals:
    personas_changed(list): the enabled personas as (name, title, description),
    for the composer's picker.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.agents import bundles
from openworker_qt.agents.personas import Persona, PersonaError, PersonaRegistry
from openworker_qt.ui import design
from openworker_qt.ui.persona_consent import PersonaConsentDialog


def _built_in_words() -> dict[str, str]:
    """The shipped personas' titles and descriptions (agents/personas/*.md), translated."""
    return {
        "Cowork": QCoreApplication.translate("Personas", "Cowork"),
        "A coworker who researches, analyses and delivers finished files":
            QCoreApplication.translate(
                "Personas", "A coworker who researches, analyses and delivers finished files"),
        "Code": QCoreApplication.translate("Personas", "Code"),
        "A senior engineer working in one code repository": QCoreApplication.translate(
            "Personas", "A senior engineer working in one code repository"),
        "Chat": QCoreApplication.translate("Personas", "Chat"),
        "Quick questions and answers, no tools and no folder": QCoreApplication.translate(
            "Personas", "Quick questions and answers, no tools and no folder"),
        "Ops": QCoreApplication.translate("Personas", "Ops"),
        "Careful operations work on servers, services and deployments":
            QCoreApplication.translate(
                "Personas", "Careful operations work on servers, services and deployments"),
        "My helper": QCoreApplication.translate("Personas", "My helper"),
        "A long-lived personal assistant that keeps notes and remembers":
            QCoreApplication.translate(
                "Personas", "A long-lived personal assistant that keeps notes and remembers"),
        "Team": QCoreApplication.translate("Personas", "Team"),
        "A lead who plans a big outcome, staffs coworkers to do the parts and assembles the result":
            QCoreApplication.translate(
                "Personas", "A lead who plans a big outcome, staffs coworkers to do the parts and assembles the result"),
        "Software team": QCoreApplication.translate("Personas", "Software team"),
        "A tech lead who splits a change across coders and a reviewer, then merges the work":
            QCoreApplication.translate(
                "Personas", "A tech lead who splits a change across coders and a reviewer, then merges the work"),
        "DevOps team": QCoreApplication.translate("Personas", "DevOps team"),
        "An operations lead who investigates, plans reversible changes and has them done and checked":
            QCoreApplication.translate(
                "Personas", "An operations lead who investigates, plans reversible changes and has them done and checked"),
        "Researcher": QCoreApplication.translate("Personas", "Researcher"),
        "Finds and reads the sources for one question and reports what they say":
            QCoreApplication.translate(
                "Personas", "Finds and reads the sources for one question and reports what they say"),
        "Analyst": QCoreApplication.translate("Personas", "Analyst"),
        "Works through figures and tables and shows how each result was reached":
            QCoreApplication.translate(
                "Personas", "Works through figures and tables and shows how each result was reached"),
        "Writer": QCoreApplication.translate("Personas", "Writer"),
        "Turns notes and findings into a clear, finished document":
            QCoreApplication.translate(
                "Personas", "Turns notes and findings into a clear, finished document"),
        "Reviewer": QCoreApplication.translate("Personas", "Reviewer"),
        "Checks work against its acceptance criteria and says exactly what falls short":
            QCoreApplication.translate(
                "Personas", "Checks work against its acceptance criteria and says exactly what falls short"),
    }


def persona_words(p: Persona) -> tuple[str, str]:
    """A persona's title and description as shown: a built-in one's in the user's
    language, an installed one's as its author wrote them."""
    if p.source:
        return p.title, p.description
    words = _built_in_words()
    return words.get(p.title, p.title), words.get(p.description, p.description)


def picker_items(personas: list[Persona]) -> list[tuple[str, str, str]]:
    """The composer picker's items for the enabled ``personas``."""
    return [(p.name, *persona_words(p)) for p in personas if p.enabled]


class PersonasPage(QWidget):
    """See module docstring."""

    personas_changed = Signal(list)

    def __init__(self, registry: PersonaRegistry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.registry = registry
        self.task: asyncio.Future[Any] | None = None
        self.dialog: PersonaConsentDialog | None = None
        self.personas: dict[str, Persona] = {}
        lay = QVBoxLayout(self)
        design.arrange(lay, "page", "section")
        heading = design.heading(self.tr("Personas"))
        intro = QLabel(self.tr(
            "A persona is who works on a session: its instructions and the tools it is "
            "offered. Personas you install stay disabled until you agree to what they may do; "
            "none can change your permissions."))
        intro.setWordWrap(True)
        lay.addWidget(heading)
        lay.addWidget(intro)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(3)
        self.tree.setHeaderLabels([self.tr("Persona"), self.tr("State"), self.tr("What it is for")])
        self.tree.setRootIsDecorated(False)
        self.tree.setAccessibleName(self.tr("Personas"))
        self.tree.setAccessibleDescription(self.tr("Each persona and whether it is enabled"))
        lay.addWidget(self.tree, 1)
        row = QHBoxLayout()
        self.install_folder = self._button(self.tr("Install from &folder…"),
                                           self.tr("Install a persona from a folder"))
        self.install_git = self._button(self.tr("Install from &git…"),
                                        self.tr("Install a persona from a git address"))
        self.enable = self._button(self.tr("&Enable…"), self.tr("Enable the selected persona"))
        self.disable = self._button(self.tr("&Disable"), self.tr("Disable the selected persona"))
        self.update_button = self._button(self.tr("&Update"),
                                          self.tr("Fetch the selected persona again"))
        self.remove = self._button(self.tr("&Remove"), self.tr("Remove the selected persona"))
        self.import_bundle = self._button(self.tr("&Import a file…"),
                                          self.tr("Import a persona shared as one file"))
        self.export_bundle = self._button(self.tr("E&xport…"),
                                          self.tr("Save the selected persona as one file to share"))
        # Two rows: the settings window must fit an 800-pixel-wide screen.
        for b in (self.enable, self.disable, self.update_button, self.remove, self.export_bundle):
            row.addWidget(b)
        row.addStretch(1)
        lay.addLayout(row)
        installs = QHBoxLayout()
        for b in (self.install_folder, self.install_git, self.import_bundle):
            installs.addWidget(b)
        installs.addStretch(1)
        lay.addLayout(installs)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setAccessibleName(self.tr("Result"))
        lay.addWidget(self.status)
        self.install_folder.clicked.connect(self._on_install_folder)
        self.install_git.clicked.connect(self._on_install_git)
        self.import_bundle.clicked.connect(self._on_import_bundle)
        self.export_bundle.clicked.connect(lambda: self._on_selected(self._on_export))
        self.enable.clicked.connect(lambda: self._on_selected(self._enable))
        self.disable.clicked.connect(lambda: self._on_selected(
            lambda p: self._run(self.registry.disable, p.name, done=self.tr("{name} is disabled."))))
        self.update_button.clicked.connect(lambda: self._on_selected(self._update))
        self.remove.clicked.connect(lambda: self._on_selected(
            lambda p: self._run(self.registry.remove, p.name, done=self.tr("{name} was removed."))))
        self.tree.currentItemChanged.connect(lambda *_: self._update_buttons())
        self._start(self.refresh())

    def _button(self, text: str, name: str) -> QPushButton:
        b = QPushButton(text)
        b.setAccessibleName(name)
        return b

    # ------------------------------------------------------------------ state

    def _start(self, coro: Any) -> None:
        self.task = asyncio.ensure_future(coro)

    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.status.setAccessibleDescription(text)

    def _state(self, p: Persona) -> str:
        if p.enabled:
            return self.tr("Enabled")
        return self.tr("Disabled") if p.consented else self.tr("Needs your consent")

    async def refresh(self) -> None:
        found = await asyncio.to_thread(self.registry.load)
        self.show_personas(list(found.values()))

    def show_personas(self, personas: list[Persona]) -> None:
        keep = self.selected()
        self.personas = {p.name: p for p in personas}
        self.tree.clear()
        for p in personas:
            title, description = persona_words(p)
            item = QTreeWidgetItem([title, self._state(p), description])
            item.setData(0, Qt.ItemDataRole.UserRole, p.name)
            item.setToolTip(0, p.source or self.tr("Built in"))
            self.tree.addTopLevelItem(item)
            if p.name == keep:
                self.tree.setCurrentItem(item)
        if self.tree.currentItem() is None and (first := self.tree.topLevelItem(0)):
            self.tree.setCurrentItem(first)
        for column in (0, 1):
            self.tree.resizeColumnToContents(column)
        self._update_buttons()
        self.personas_changed.emit(picker_items(personas))

    def selected(self) -> str:
        item = self.tree.currentItem()
        return str(item.data(0, Qt.ItemDataRole.UserRole)) if item else ""

    def select(self, name: str) -> None:
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item is not None and item.data(0, Qt.ItemDataRole.UserRole) == name:
                self.tree.setCurrentItem(item)

    def _update_buttons(self) -> None:
        p = self.personas.get(self.selected())
        self.enable.setEnabled(p is not None and not p.enabled)
        self.disable.setEnabled(p is not None and p.enabled and p.name != "cowork")
        self.update_button.setEnabled(p is not None and not p.builtin)
        self.remove.setEnabled(p is not None and not p.builtin)
        self.export_bundle.setEnabled(p is not None)

    # ---------------------------------------------------------------- actions

    def _on_selected(self, action: Callable[[Persona], None]) -> None:
        p = self.personas.get(self.selected())
        if p is not None and not self.busy():
            action(p)

    def _run(self, call: Callable[..., Any], *args: Any, done: str = "",
             then: Callable[[Any], object] | None = None) -> None:
        async def work() -> None:
            name = str(args[0]) if args else ""
            try:
                result = await asyncio.to_thread(call, *args)
            except PersonaError as exc:
                self._say(str(exc))
                await self.refresh()
                return
            except OSError as exc:
                self._say(self.tr("That did not work: {why}").format(why=exc.strerror or exc))
                return
            await self.refresh()
            if done:
                self._say(done.format(name=getattr(result, "name", None) or name))
            if then is not None:
                then(result)

        self._start(work())

    def _on_install_folder(self) -> None:
        if self.busy():
            return
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose the persona's folder"))
        if folder:
            self.install_from(folder)

    def _on_install_git(self) -> None:
        if self.busy():
            return
        url, ok = QInputDialog.getText(self, self.tr("Install from git"),
                                       self.tr("Address of the git repository:"))
        if ok and url.strip():
            self.install_from(url.strip())

    def install_from(self, source: str) -> None:
        """Install from a folder or a git address, then ask for consent."""
        from openworker_qt.agents.personas import is_git_url

        if is_git_url(source):
            self._say(self.tr("Fetching {source}…").format(source=source))
            self._run(self.registry.install_git, source, then=self.ask_consent)
        else:
            self._run(self.registry.install_folder, Path(source), then=self.ask_consent)

    def _on_import_bundle(self) -> None:
        if self.busy():
            return
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose the persona file"), "",
                                              self.tr("Personas (*.owpersona)"))
        if path:
            self.import_from(path)

    def import_from(self, path: str) -> None:
        """Import a bundle file, then ask for consent to what it may do and brings."""
        def imported(file: str) -> Persona:
            return bundles.import_bundle(self.registry, Path(file))[0]

        self._run(imported, path, then=lambda p: None if p.enabled else self.ask_consent(p))

    def _on_export(self, p: Persona) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save the persona as"),
                                              f"{p.name}{bundles.SUFFIX}",
                                              self.tr("Personas (*.owpersona)"))
        if path:
            self.export_to(p.name, path)

    def export_to(self, name: str, path: str) -> None:
        self._run(lambda n: bundles.export_bundle(self.registry, n, Path(path)), name,
                  done=self.tr("{name} was saved to {path} (without any secrets).")
                  .replace("{path}", path.replace("{", "{{").replace("}", "}}")))

    def _enable(self, p: Persona) -> None:
        if p.builtin or p.consented:
            self._run(self.registry.enable, p.name, done=self.tr("{name} is enabled."))
        else:
            self.ask_consent(p)

    def _update(self, p: Persona) -> None:
        def after(updated: Persona) -> None:
            if not updated.consented:
                self._say(self.tr("{name} changed: review what it may do before enabling it.")
                          .format(name=updated.name))
                self.ask_consent(updated)
            else:
                self._say(self.tr("{name} is up to date.").format(name=updated.name))

        self._run(self.registry.update, p.name, then=after)

    def ask_consent(self, persona: Persona) -> PersonaConsentDialog:
        """Show what ``persona`` may do; enable it if the user agrees (window-modal)."""
        self.select(persona.name)
        brings = bundles.manifest_of(self.registry, persona.name) if not persona.builtin else {}
        dialog = PersonaConsentDialog(persona, self, brings=brings)
        dialog.decided.connect(self._on_decided)
        self.dialog = dialog
        dialog.open()
        return dialog

    def _on_decided(self, name: str, fingerprint: str, agreed: bool) -> None:
        if agreed:
            self._run(self._consent, name, fingerprint, done=self.tr("{name} is enabled."))
        else:
            self._say(self.tr("{name} stays disabled.").format(name=name))

    def _consent(self, name: str, fingerprint: str) -> Persona:
        """Enable ``name`` as agreed, then add what its bundle brings (worker thread)."""
        from openworker_qt.qt.persona_bundles import consent_with_bundle

        return consent_with_bundle(self.registry, name, fingerprint)
