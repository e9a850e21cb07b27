"""The consent dialog of an installed persona: what it may do, in plain words.

A persona from elsewhere stays disabled until the user agrees here. The dialog
shows its title, what it is for, where it came from and each capability it
declares (the words of ``agents.personas.capabilities``, translated here), says
what it can never do (change
permissions), and offers "Enable" or "Keep disabled". It carries the
fingerprint of the version shown, so a persona changed meanwhile is not enabled
(the registry refuses it). A persona imported from a bundle also lists what the
bundle brings — its version, skills and MCP servers, with the command each runs
and the secrets the user sets (``agents/bundles.py``): consent covers those too.

Signals:
    decided(str, str, bool): persona name, fingerprint shown, and whether the user
    agreed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.agents.bundles import secret_names
from openworker_qt.agents.personas import Persona
from openworker_qt.ui import design


class PersonaConsentDialog(QDialog):
    """See module docstring."""

    decided = Signal(str, str, bool)

    def __init__(self, persona: Persona, parent: QWidget | None = None,
                 brings: Mapping[str, Any] | None = None) -> None:
        super().__init__(parent)
        self.persona = persona
        self.setObjectName("personaConsent")
        self.setWindowTitle(self.tr("Enable {title}?").format(title=persona.title))
        self.setAccessibleName(self.tr("Enable a persona"))
        self.setWindowModality(Qt.WindowModality.WindowModal)
        lay = QVBoxLayout(self)
        design.arrange(lay, "dialog", "section")
        heading = design.heading(self.tr("“{title}” would like to work with you").format(title=persona.title))
        lay.addWidget(heading)
        about = QLabel(persona.description)
        about.setWordWrap(True)
        lay.addWidget(about)
        if persona.source:
            source = QLabel(self.tr("Installed from {source}").format(source=persona.source))
            source.setWordWrap(True)
            source.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            source.setObjectName("personaSource")
            lay.addWidget(source)
        lay.addWidget(QLabel(self.tr("If you enable it, it may:")))
        self.capability_labels: list[QLabel] = []
        for line in self.capability_lines(persona):
            label = QLabel("•  " + line)
            label.setWordWrap(True)
            label.setContentsMargins(*design.MARGINS["indent"])
            lay.addWidget(label)
            self.capability_labels.append(label)
        self.bring_labels: list[QLabel] = []
        if bring := self.bring_lines(brings or {}):
            lay.addWidget(QLabel(self.tr("It brings:")))
        for line in bring:
            label = QLabel("•  " + line)
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setContentsMargins(*design.MARGINS["indent"])
            lay.addWidget(label)
            self.bring_labels.append(label)
        limits = QLabel(self.tr(
            "It can never change your permissions: your permission mode, your folders and "
            "your rules stay as you set them, and anything risky still asks you first."))
        limits.setWordWrap(True)
        limits.setObjectName("personaLimits")
        lay.addWidget(limits)
        buttons = QDialogButtonBox()
        self.enable_button = buttons.addButton(self.tr("Enable"),
                                               QDialogButtonBox.ButtonRole.AcceptRole)
        self.enable_button.setAccessibleName(self.tr("Enable {title}").format(title=persona.title))
        self.keep_button = buttons.addButton(self.tr("Keep disabled"),
                                             QDialogButtonBox.ButtonRole.RejectRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.finished.connect(self._on_finished)
        self.setMinimumWidth(460)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # Enter never agrees by accident (the button box picks its default on show).
        self.enable_button.setAutoDefault(False)
        self.keep_button.setDefault(True)
        self.keep_button.setFocus()

    def _on_finished(self, result: int) -> None:
        agreed = result == int(QDialog.DialogCode.Accepted)
        self.decided.emit(self.persona.name, self.persona.fingerprint, agreed)

    def capability_lines(self, persona: Persona) -> list[str]:
        """What ``persona`` declares, in plain words, in the user's language."""
        words = {
            "files": self.tr("Read files in the folders you give it, and change them (each "
                             "change follows your permission mode)"),
            "git": self.tr("Look at Git history and make commits in your projects"),
            "shell": self.tr("Run commands on this computer (each command follows your "
                             "permission mode)"),
            "ask": self.tr("Ask you questions, propose plans and ask for access to more folders"),
            "deliverables": self.tr("Save finished documents (reports, spreadsheets, PDFs) "
                                    "for you"),
            "todo": self.tr("Keep a to-do list you can see"),
            "web": self.tr("Search the web and read web pages"),
            "explorer": self.tr("Send a read-only helper to look through your files"),
            "skills": self.tr("Use the skills installed on this computer"),
            "memory": self.tr("Remember facts about you and your work between conversations"),
            "connectors": self.tr("Use your connected services (mail, chat, calendars and "
                                  "others)"),
            "other": self.tr("Use other tools built into OpenWorker"),
        }
        lines = [words[f] for f in persona.tools if f in words]
        if not lines:
            lines.append(self.tr("Talk with you only: no tools, no files, no commands"))
        if persona.connectors:
            lines.append(self.tr("Would like to use these connected services: {names}")
                         .format(names=", ".join(persona.connectors)))
        if persona.mode:
            lines.append(self.tr("Suggests the “{mode}” permission mode (only a suggestion: "
                                 "your choice stays in force)").format(mode=persona.mode))
        if persona.model:
            lines.append(self.tr("Suggests the model {model}").format(model=persona.model))
        return lines

    def bring_lines(self, manifest: Mapping[str, Any]) -> list[str]:
        """What a bundle brings (``agents.bundles.brings``), in the user's language."""
        lines = ([self.tr("Version {version}").format(version=manifest["version"])]
                 if manifest.get("version") else [])
        for name, files in sorted((manifest.get("skills") or {}).items()):
            lines.append(self.tr("Adds the skill {name} ({count} files)")
                         .format(name=name, count=len(files)))
        for name, entry in sorted((manifest.get("servers") or {}).items()):
            if isinstance(entry.get("command"), str):
                runs = " ".join([str(entry["command"]), *(str(a) for a in entry.get("args") or [])])
                line = self.tr("Adds the MCP server {name}, which runs “{command}” on this "
                               "computer").format(name=name, command=runs)
            else:
                line = self.tr("Adds the MCP server {name}, which connects to {address}").format(
                    name=name, address=entry.get("url", ""))
            if needs := secret_names(entry):
                line += " " + self.tr("(you set its secrets: {names})").format(
                    names=", ".join(needs))
            lines.append(line)
        return lines

    def bring_texts(self) -> list[str]:
        return [label.text().removeprefix("•  ") for label in self.bring_labels]

    def capability_texts(self) -> list[str]:
        return [label.text().removeprefix("•  ") for label in self.capability_labels]
