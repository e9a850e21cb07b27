"""The pages of the settings window, one class per page.

Every change is written at once through the :class:`SettingsStore` (the global
config file; lists replaced whole) and takes effect without a restart: the
config is reloaded, the providers are re-registered, a changed key drops its
provider's cached client. Key values are never shown: the page only says
whether a key is stored in the keyring or comes from the environment. Keyring
calls run in a worker.

What the rest of the app must do about a change, the pages say with signals
(the app connects them): ``ProvidersPage.guided_setup_requested()``,
``ModelPage.default_model_changed(str)``, ``PermissionsPage.default_mode_changed(str)``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.qt import provider_setup as sp
from openworker_qt.qt.settings_store import SettingsStore
from openworker_qt.qt.wording import MODES, mode_description, mode_name
from openworker_qt.ui import design
from openworker_qt.ui.onboarding import provider_label
from openworker_qt.ui.picker_popup import describe_items, set_description
from openworker_qt.ui.ports import ModelSource, SessionDefaults


def _page(title: str, intro: str) -> tuple[QWidget, QVBoxLayout]:
    page = QWidget()
    lay = QVBoxLayout(page)
    design.arrange(lay, "page", "section")
    heading = design.heading(title)
    text = QLabel(intro)
    text.setWordWrap(True)
    lay.addWidget(heading)
    lay.addWidget(text)
    return page, lay


def _button(text: str, name: str, description: str = "") -> QPushButton:
    b = QPushButton(text)
    b.setAccessibleName(name)
    if description:
        b.setAccessibleDescription(description)
    return b


class ProvidersPage(QWidget):
    """Set, replace or remove each provider's key; Ollama's URL; the guided set-up.

    Signals:
        guided_setup_requested(): open onboarding; call :meth:`refresh_soon` after it.
    """

    guided_setup_requested = Signal()

    def __init__(self, settings: SettingsStore, models: ModelSource, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.models = models
        self.task: asyncio.Future[Any] | None = None
        page, lay = _page(self.tr("Providers and keys"), self.tr(
            "Keys are stored in your system keyring and are never shown again. "
            "A new or removed key is used from the next request on."))
        outer = QVBoxLayout(self)
        outer.setContentsMargins(*design.MARGINS["flush"])
        outer.addWidget(page)
        self.keyring_warning = QLabel(self.tr(
            "No secure keyring is available on this system: keys cannot be stored."))
        self.keyring_warning.setWordWrap(True)
        self.keyring_warning.setAccessibleName(self.tr("Keyring warning"))
        lay.addWidget(self.keyring_warning)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(3)
        self.tree.setHeaderLabels([self.tr("Provider"), self.tr("Key"), self.tr("Address")])
        self.tree.setRootIsDecorated(False)
        self.tree.setAccessibleName(self.tr("Providers"))
        self.tree.setAccessibleDescription(self.tr(
            "Each provider, whether its key is stored and the server it is reached at"))
        self.choices: list[sp.ProviderChoice] = []
        self._keyring_ok = False  # until the keyring has been asked (in a worker)
        self._add_rows([*sp.provider_choices(), *sp.configured_local_servers(settings.config)])
        if first := self.tree.topLevelItem(0):
            self.tree.setCurrentItem(first)
        self.tree.resizeColumnToContents(0)
        lay.addWidget(self.tree, 1)
        row = QHBoxLayout()
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setPlaceholderText(self.tr("New key for the selected provider"))
        self.key_edit.setAccessibleName(self.tr("New API key"))
        self.key_edit.setAccessibleDescription(self.tr("Stored in the keyring for the selected provider"))
        self.save_key = _button(self.tr("&Save key"), self.tr("Save key"),
                                self.tr("Store or replace the selected provider's key"))
        self.remove_key = _button(self.tr("&Remove key"), self.tr("Remove key"),
                                  self.tr("Delete the selected provider's key from the keyring"))
        row.addWidget(self.key_edit, 1)
        row.addWidget(self.save_key)
        row.addWidget(self.remove_key)
        lay.addLayout(row)
        form = QFormLayout()
        self.address = QLineEdit()
        self.address.setAccessibleName(self.tr("Server address"))
        self.address.setAccessibleDescription(self.tr(
            "Where the selected provider's server listens; saved when you press Enter"))
        address_label = QLabel(self.tr("Server &address"))
        address_label.setBuddy(self.address)
        form.addRow(address_label, self.address)
        lay.addLayout(form)
        bottom = QHBoxLayout()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setAccessibleName(self.tr("Result"))
        self.guided = _button(self.tr("&Guided set-up…"), self.tr("Guided set-up"),
                              self.tr("Check a key with a real request and choose a default model"))
        self.test = _button(self.tr("&Test"), self.tr("Test the selected platform"),
                            self.tr("Make the smallest real request with the stored settings"))
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.test)
        bottom.addWidget(self.guided)
        lay.addLayout(bottom)
        self.save_key.clicked.connect(lambda: self._start(self.store_key()))
        self.remove_key.clicked.connect(lambda: self._start(self.delete_key()))
        self.key_edit.returnPressed.connect(self.save_key.click)
        self.address.returnPressed.connect(self.save_address)
        self.guided.clicked.connect(self._on_guided_clicked)
        self.test.clicked.connect(lambda: None if self.busy() else self._start(self.run_test()))
        self.tree.currentItemChanged.connect(lambda *_: self.status.clear())
        self.tree.currentItemChanged.connect(lambda *_: self._show_address())
        self._show_address()
        self._start(self.refresh())

    def _start(self, coro: Any) -> None:
        self.task = asyncio.ensure_future(coro)

    def refresh_soon(self) -> None:
        """Show the keys' state again (after the guided set-up stored one)."""
        self._start(self.refresh())

    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    def _add_rows(self, choices: list[sp.ProviderChoice]) -> None:
        for c in choices:
            if any(have.name == c.name for have in self.choices):
                continue
            self.choices.append(c)
            item = QTreeWidgetItem([provider_label(c), "", ""])
            item.setData(0, Qt.ItemDataRole.UserRole, c.name)
            self.tree.addTopLevelItem(item)

    def _show_address(self) -> None:
        """The address field shows (and edits) the selected provider's server."""
        provider = self.selected()
        c = next((c for c in self.choices if c.name == provider), None)
        editable = c is not None and sp.has_address(c)
        self.address.setEnabled(editable)
        self.address.setText(sp.address_of(self.settings.config, provider) if editable else "")
        self.address.setPlaceholderText(
            (c.default_url or "http://localhost:1234/v1") if editable and c is not None
            else self.tr("This provider is reached at its own address"))
        if c is not None and c.kind == "bedrock":  # AWS Bedrock: the field edits the region
            self.address.setEnabled(True)
            self.address.setText(sp.bedrock_region(self.settings.config))
            self.address.setPlaceholderText(self.tr("AWS region, e.g. us-east-1 (empty: the profile's)"))
        self.test.setVisible(c is not None and c.kind in ("bedrock", "cloud"))
        takes_key = c is not None and c.key_name is not None and c.kind != "ollama"
        for b in (self.save_key, self.remove_key, self.key_edit):
            b.setEnabled(self._keyring_ok and takes_key)

    def selected(self) -> str:
        item = self.tree.currentItem()
        return str(item.data(0, Qt.ItemDataRole.UserRole)) if item else ""

    def select(self, provider: str) -> None:
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item is not None and item.data(0, Qt.ItemDataRole.UserRole) == provider:
                self.tree.setCurrentItem(item)

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.status.setAccessibleDescription(text)

    async def refresh(self) -> None:
        ok = await asyncio.to_thread(sp.keyring_available)
        self.keyring_warning.setVisible(not ok)
        self._keyring_ok = ok
        self._show_address()
        config = self.settings.config
        state = await asyncio.to_thread(sp.key_sources, config)
        self._add_rows(sp.configured_local_servers(config))  # one the guided set-up added
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item is None:
                continue
            name = str(item.data(0, Qt.ItemDataRole.UserRole))
            c = next(c for c in self.choices if c.name == name)
            item.setText(1, self._key_state(state.get(name), c))
            item.setText(2, sp.address_of(config, name) if sp.has_address(c)
                         else sp.bedrock_region(config) if c.kind == "bedrock" else "")

    def _key_state(self, source: sp.KeySource | None, c: sp.ProviderChoice) -> str:
        if source is None:
            # A server set up without a key (Ollama, a local server) needs none.
            if c.kind == "bedrock":
                return self.tr("Your AWS sign-in (no key)")
            return self.tr("No key needed") if c.kind == "ollama" or c.key_name is None \
                else self.tr("Not set")
        if source.where == "environment":
            return self.tr("From the environment ({variable})").format(variable=source.name)
        if source.where == "config":
            return self.tr("No key needed")
        return self.tr("Stored")

    def _entry(self, provider: str) -> str:
        return sp.entry_for(self.settings.config, provider) or sp.choice(provider).key_name or ""

    async def store_key(self) -> None:
        provider, value = self.selected(), self.key_edit.text().strip()
        if not provider or not value:
            self._say(self.tr("Type a key first."))
            return
        try:
            await asyncio.to_thread(sp.store_key, self._entry(provider), value)
        except sp.SecretsUnavailable as exc:
            self._say(str(exc))
            return
        self.key_edit.clear()
        self.settings.key_changed(provider)
        self._say(self.tr("Key saved for {provider}.").format(provider=provider))
        await self.refresh()
        await self.models.load_models()

    async def delete_key(self) -> None:
        provider = self.selected()
        if not provider:
            return
        try:
            removed = await asyncio.to_thread(sp.delete_key, self._entry(provider))
        except sp.SecretsUnavailable as exc:
            self._say(str(exc))
            return
        self.settings.key_changed(provider)
        self._say(self.tr("Key removed for {provider}.").format(provider=provider) if removed
                  else self.tr("No key was stored for {provider}.").format(provider=provider))
        await self.refresh()
        await self.models.load_models()

    def save_address(self) -> None:
        """Store the selected server's address (Enter in the field) and use it at once."""
        provider = self.selected()
        c = next((c for c in self.choices if c.name == provider), None)
        if c is not None and c.kind == "bedrock":
            try:
                region = sp.checked_region(self.address.text())
            except ValueError as exc:
                self._say(str(exc))
                return
            self.settings.apply({"providers": {provider: {"region": region}}})
            self.settings.key_changed(provider)
            self._say(self.tr("Region saved for {provider}.").format(provider=provider_label(c)))
            self._start(self.refresh())
            return
        if c is None or not sp.has_address(c):
            return
        try:
            url = sp.checked_address(provider, self.address.text())
        except ValueError as exc:
            self._say(str(exc))
            return
        self.settings.apply({"providers": {provider: {"base_url": url}}})
        self.settings.key_changed(provider)
        self.address.setText(url)
        self._say(self.tr("Address saved for {provider}.").format(provider=provider_label(c)))
        self._start(self.refresh())

    async def run_test(self, **probe: Any) -> None:
        """The selected cloud platform's "Test": one tiny real request with what is
        stored (the guided set-up's check); says whether it works, and why not."""
        from openworker_qt.core.provider_api import ProviderError

        provider = self.selected()
        label = provider_label(sp.choice(provider))
        self._say(self.tr("Testing {provider}…").format(provider=label))
        try:
            notice = await sp.check_stored(provider, self.settings.config, **probe)
        except (ProviderError, ValueError) as exc:
            why = exc.message if isinstance(exc, ProviderError) else str(exc)
            self._say(self.tr("{provider} did not work: {why}").format(provider=label, why=why))
            return
        self._say(notice or self.tr("{provider} answered: the settings work.").format(
            provider=label))

    def _on_guided_clicked(self) -> None:
        self.guided_setup_requested.emit()


class ModelPage(QWidget):
    """The default model for new sessions.

    Signals:
        default_model_changed(str): saved as the default; new sessions should use it.
    """

    default_model_changed = Signal(str)

    def __init__(self, settings: SettingsStore, models: ModelSource, defaults: SessionDefaults,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.models = models
        self.defaults = defaults
        page, lay = _page(self.tr("Default model"), self.tr(
            "New sessions start with this model. Each session can switch model in the composer."))
        outer = QVBoxLayout(self)
        outer.setContentsMargins(*design.MARGINS["flush"])
        outer.addWidget(page)
        self.model = QComboBox()
        self.model.setEditable(True)
        self.model.setAccessibleName(self.tr("Default model"))
        self.model.setAccessibleDescription(self.tr("Pick from the configured providers or type provider:model"))
        if line := self.model.lineEdit():
            line.setAccessibleName(self.tr("Default model name"))
            line.returnPressed.connect(lambda: self.set_default_model(self.model.currentText()))
        self.model.activated.connect(lambda _i: self.set_default_model(self.model.currentText()))
        lay.addWidget(self.model)
        self.status = QLabel()
        self.status.setAccessibleName(self.tr("Result"))
        lay.addWidget(self.status)
        lay.addStretch(1)
        self.refresh()

    def refresh(self) -> None:
        current = self.defaults.default_model
        self.model.blockSignals(True)
        self.model.clear()
        self.model.addItems([m for m in [current, *self.models.known_models()] if m])
        self.model.setCurrentText(current)
        self.model.blockSignals(False)

    def set_default_model(self, model: str) -> None:
        model = model.strip()
        if not model or model == self.defaults.default_model:
            return
        self.settings.apply({"general": {"default_model": model}})
        self.default_model_changed.emit(model)
        self.status.setText(self.tr("New sessions use {model}.").format(model=model))


class ListEditor(QWidget):
    """A list with Add / Remove, written whole to one config key on every change."""

    def __init__(self, settings: SettingsStore, key: str, name: str, description: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.key = key
        lay = QVBoxLayout(self)
        lay.setContentsMargins(*design.MARGINS["flush"])
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setAccessibleName(name)
        self.list.setAccessibleDescription(description)
        self.list.addItems([str(v) for v in settings.get(key) or []])
        lay.addWidget(self.list)
        self.row = QHBoxLayout()
        self.remove = _button(self.tr("Remove"), self.tr("Remove selected from {name}").format(name=name))
        self.remove.clicked.connect(self.remove_selected)
        lay.addLayout(self.row)

    def values(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def add(self, value: str) -> None:
        value = value.strip()
        if value and value not in self.values():
            self.list.addItem(value)
            self._save()

    def remove_selected(self) -> None:
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))
        self._save()

    def _save(self) -> None:
        section, _, leaf = self.key.partition(".")
        self.settings.apply({section: {leaf: self.values()}})


class PermissionsPage(QWidget):
    """Permission mode and the shell allowlist.

    Signals:
        default_mode_changed(str): saved as the default mode of new sessions.
    """

    default_mode_changed = Signal(str)

    def __init__(self, settings: SettingsStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        page, lay = _page(self.tr("Permissions"), self.tr(
            "How much the assistant may do without asking. A session's own mode "
            "(in the composer) overrides the default."))
        outer = QVBoxLayout(self)
        outer.setContentsMargins(*design.MARGINS["flush"])
        outer.addWidget(page)
        self.mode = QComboBox()
        for i, m in enumerate(MODES):
            self.mode.addItem(mode_name(m), m)
            set_description(self.mode, i, mode_description(m))
        describe_items(self.mode)
        self.mode.setCurrentIndex(max(0, self.mode.findData(str(settings.get("permissions.mode")))))
        self.mode.setAccessibleName(self.tr("Default permission mode"))
        self.mode.setAccessibleDescription(self.tr("Used by sessions that have no mode of their own"))
        self.mode.activated.connect(lambda _i: self.set_mode(str(self.mode.currentData())))
        mode_label = QLabel(self.tr("&Mode"))
        mode_label.setBuddy(self.mode)
        form = QFormLayout()
        form.addRow(mode_label, self.mode)
        lay.addLayout(form)
        allow_label = QLabel(self.tr(
            "Shell commands that run without asking (a prefix such as “git status”). "
            "They still ask when an option writes, deletes or runs a program; programs "
            "that run other programs (env, make, python, bash…) always ask; and a program "
            "OpenWorker does not know runs without asking only when given no options "
            "(nothing starting with - or +):"))
        allow_label.setWordWrap(True)
        lay.addWidget(allow_label)
        self.allowlist = ListEditor(settings, "permissions.shell_allowlist", self.tr("Shell allowlist"),
                                     self.tr("Commands starting with one of these run without asking"))
        self.command = QLineEdit()
        self.command.setPlaceholderText(self.tr("Command prefix"))
        self.command.setAccessibleName(self.tr("Command prefix to allow"))
        self.add_command = _button(self.tr("&Add"), self.tr("Add command"),
                                   self.tr("Add the command prefix to the allowlist"))
        self.allowlist.row.addWidget(self.command, 1)
        self.allowlist.row.addWidget(self.add_command)
        self.allowlist.row.addWidget(self.allowlist.remove)
        self.add_command.clicked.connect(self._on_add_command)
        self.command.returnPressed.connect(self._on_add_command)
        lay.addWidget(self.allowlist, 1)
        self._lay = lay

    def add_section(self, widget: QWidget) -> None:
        """A part of the page under the allowlist (what "always" answers allow)."""
        self._lay.addWidget(widget)

    def set_mode(self, mode: str) -> None:
        self.settings.apply({"permissions": {"mode": mode}})
        self.mode.setCurrentIndex(self.mode.findData(mode))
        self.default_mode_changed.emit(mode)

    def _on_add_command(self) -> None:
        self.allowlist.add(self.command.text())
        self.command.clear()


class FoldersPage(QWidget):
    """Writable roots: folders the assistant may change."""

    def __init__(self, settings: SettingsStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        page, lay = _page(self.tr("Writable folders"), self.tr(
            "Folders the assistant may change files in (besides each session's workspace). "
            "Anything outside needs your approval."))
        outer = QVBoxLayout(self)
        outer.setContentsMargins(*design.MARGINS["flush"])
        outer.addWidget(page)
        self.roots = ListEditor(settings, "permissions.writable_roots", self.tr("Writable folders"),
                                 self.tr("The assistant may change files inside these folders"))
        self.add_folder = _button(self.tr("&Add folder…"), self.tr("Add folder"),
                                  self.tr("Choose a folder the assistant may change"))
        self.roots.row.addWidget(self.add_folder)
        self.roots.row.addWidget(self.roots.remove)
        self.roots.row.addStretch(1)
        self.add_folder.clicked.connect(self._on_add_folder)
        lay.addWidget(self.roots, 1)

    def _on_add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose a writable folder"))
        if folder:
            self.roots.add(folder)


class AppearancePage(QWidget):
    """Colour scheme (follows the system by default) and language."""

    def __init__(self, settings: SettingsStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        page, lay = _page(self.tr("Appearance"), self.tr(
            "OpenWorker follows your system's light or dark setting unless you choose one here."))
        outer = QVBoxLayout(self)
        outer.setContentsMargins(*design.MARGINS["flush"])
        outer.addWidget(page)
        self.theme = QComboBox()
        for value, text in (("system", self.tr("System")), ("light", self.tr("Light")),
                            ("dark", self.tr("Dark"))):
            self.theme.addItem(text, value)
        self.theme.setCurrentIndex(max(0, self.theme.findData(str(settings.get("ui.theme")))))
        self.theme.setAccessibleName(self.tr("Colour scheme"))
        self.theme.setAccessibleDescription(self.tr("System follows the platform's light or dark setting"))
        self.theme.activated.connect(lambda _i: self.set_theme(str(self.theme.currentData())))
        self.language = QComboBox()
        for value, text in (("", self.tr("System language")), ("en", "English"), ("zh_CN", "简体中文")):
            self.language.addItem(text, value)
        self.language.setCurrentIndex(max(0, self.language.findData(str(settings.get("general.language")))))
        self.language.setAccessibleName(self.tr("Language"))
        self.language.setAccessibleDescription(self.tr("Applies to windows opened from now on; restart for all"))
        self.language.activated.connect(lambda _i: self.set_language(str(self.language.currentData())))
        form = QFormLayout()
        theme_label = QLabel(self.tr("&Colour scheme"))
        theme_label.setBuddy(self.theme)
        language_label = QLabel(self.tr("&Language"))
        language_label.setBuddy(self.language)
        form.addRow(theme_label, self.theme)
        form.addRow(language_label, self.language)
        self.user_name = QLineEdit(str(settings.get("general.user_name") or ""))
        self.user_name.setPlaceholderText(self.tr("Leave empty to name no author"))
        self.user_name.setAccessibleName(self.tr("Your name"))
        self.user_name.setAccessibleDescription(self.tr(
            "Written as the author of the documents OpenWorker makes for you"))
        self.user_name.editingFinished.connect(
            lambda: self.set_user_name(self.user_name.text()))
        name_label = QLabel(self.tr("Your &name (author of documents)"))
        name_label.setBuddy(self.user_name)
        form.addRow(name_label, self.user_name)
        lay.addLayout(form)
        self.note = QLabel()
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        lay.addStretch(1)

    def set_theme(self, theme: str) -> None:
        from PySide6.QtWidgets import QApplication

        from openworker_qt.ui.theme import apply_theme

        self.settings.apply({"ui": {"theme": theme}})
        self.theme.setCurrentIndex(self.theme.findData(theme))
        qapp = QApplication.instance()
        if isinstance(qapp, QApplication):
            apply_theme(qapp, theme)

    def set_user_name(self, name: str) -> None:
        """The name documents give as their author (``general.user_name``; '' for none)."""
        if name.strip() != str(self.settings.get("general.user_name") or ""):
            self.settings.apply({"general": {"user_name": name.strip()}})

    def set_language(self, language: str) -> None:
        self.settings.apply({"general": {"language": language}})
        self.language.setCurrentIndex(self.language.findData(language))
        self.note.setText(self.tr("Restart OpenWorker to see every window in the new language."))
