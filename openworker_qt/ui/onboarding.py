"""First start: connect a model provider and pick a default model.

Two calm pages in one dialog:

1. *Connect*: pick a provider (OpenAI, Anthropic, Gemini, the OpenAI-compatible
   vendors, Ollama, a custom base URL), paste a key or give the server URL,
   then **Check and continue**: the key is tried with one real request
   (:func:`provider_setup.validate_key`; Ollama and custom endpoints answer
   ``GET /models``). Only a key that worked is stored, and only in the OS
   keyring; without a secure keyring the dialog says so and stores nothing.
   A local or custom server (LM Studio, vLLM, llama.cpp) needs no key: without
   one, none is recorded, so its requests never ask the keyring for one.
2. *Default model*: the curated models of that provider (or the models the
   server listed), written to the global config as ``general.default_model``.

Local servers: LM Studio, llama.cpp and vLLM are presets of the provider picker
(a custom endpoint at the server's usual address, no key), beside Ollama; **Detect**
asks those addresses (``local_servers.detect``, a worker thread, short timeouts) and
lists what answers with its models and their context windows; picking one fills the
provider and its address.

Without any key, the first page offers what works anyway: Ollama, when it
answers on this computer (probed once, in a worker, with a short timeout), and
an offline demo session (the ``scripted`` provider replaying
``resources/demo/demo-session.json``, titled as a demo; no model runs).

Everything is skippable; Settings offers the same later. Network calls are
async on the qasync loop; keyring writes and the Ollama probe run in a worker.

It writes settings through a :class:`SettingsStore` and starts the demo through
a :class:`~openworker_qt.ui.ports.DemoSessions`; the app connects
:attr:`OnboardingDialog.completed` to make a saved default model live.

Signals (OnboardingDialog):
    completed(str): the default model that was saved ('' when skipped or for the demo).
"""

from __future__ import annotations

import asyncio
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.core.provider_api import ProviderError
from openworker_qt.qt import provider_setup as sp
from openworker_qt.qt.settings_store import SettingsStore
from openworker_qt.ui import design
from openworker_qt.ui.demo_script import demo_script
from openworker_qt.ui.onboarding_bedrock import BedrockFields
from openworker_qt.ui.onboarding_cloud import CloudFields
from openworker_qt.ui.ports import DemoSessions
from openworker_qt.ui.window_state import keep_on_screen

SKIPPED_MARKER = ".onboarding-skipped"


def provider_label(c: sp.ProviderChoice) -> str:
    """Labels that are words (not brand names) are translated."""
    if c.name == sp.CUSTOM:
        return QCoreApplication.translate("OnboardingDialog", "Custom server (OpenAI-compatible)")
    if c.name == "ollama":
        return QCoreApplication.translate("OnboardingDialog", "Ollama (on this computer or your network)")
    return c.label


class Pages(QWidget):
    """Pages shown one at a time, each at its own height. (A :class:`QStackedWidget`
    is as tall as its tallest page: the short model page kept the connect page's
    height, a large empty gap above its buttons.) The pages sit in a box layout,
    which leaves the hidden ones out of its size.

    Signals:
        currentChanged(int): another page is shown (named as QStackedWidget's).
    """

    currentChanged = Signal(int)  # noqa: N815 (QStackedWidget's signal, by its name)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._lay = QVBoxLayout(self)
        self._lay.setContentsMargins(0, 0, 0, 0)
        self._pages: list[QWidget] = []
        self._current = -1

    def addWidget(self, page: QWidget) -> int:  # noqa: N802
        self._pages.append(page)
        self._lay.addWidget(page)
        if self._current < 0:
            self._current = 0
        else:
            page.hide()
        return len(self._pages) - 1

    def count(self) -> int:
        return len(self._pages)

    def widget(self, index: int) -> QWidget | None:
        return self._pages[index] if 0 <= index < len(self._pages) else None

    def currentIndex(self) -> int:  # noqa: N802
        return self._current

    def currentWidget(self) -> QWidget | None:  # noqa: N802
        return self.widget(self._current)

    def setCurrentIndex(self, index: int) -> None:  # noqa: N802
        if index == self._current or not 0 <= index < len(self._pages):
            return
        self._pages[index].show()
        self._pages[self._current].hide()
        self._current = index
        self._lay.invalidate()
        self.updateGeometry()
        self.currentChanged.emit(index)


class OnboardingDialog(QDialog):
    """See module docstring."""

    completed = Signal(str)

    def __init__(self, settings: SettingsStore, sessions: DemoSessions,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.sessions = sessions
        self.task: asyncio.Future[Any] | None = None
        self.probe: asyncio.Future[Any] | None = None
        self.detecting: asyncio.Future[Any] | None = None
        self.ollama_models: list[str] | None = None  # what the probe found (None: no Ollama)
        self.ollama_url = ""
        self.provider = ""
        self.setObjectName("onboarding")
        keep_on_screen(self)
        self.setWindowTitle(self.tr("Welcome to OpenWorker"))
        self.setAccessibleName(self.tr("Welcome to OpenWorker"))
        self.setAccessibleDescription(self.tr("Connect a model provider and choose a default model"))
        self.pages = Pages()
        self.pages.addWidget(self._connect_page())
        self.pages.addWidget(self._model_page())
        lay = QVBoxLayout(self)
        design.arrange(lay, "dialog", "section")
        lay.addWidget(self.pages)
        self._on_provider_changed()
        self.resize(max(580, self.sizeHint().width()), self.sizeHint().height())
        self.show_page(0)
        # Off the loop thread and after the dialog is up: is Ollama running here?
        QTimer.singleShot(0, self._start_probe)

    # ------------------------------------------------------------------ pages

    def _connect_page(self) -> QWidget:
        page = QWidget()
        lay = QVBoxLayout(page)
        design.arrange(lay, "flush", "section")
        heading = design.heading(self.tr("Connect a model"))
        intro = QLabel(self.tr(
            "OpenWorker works with the model provider you choose. Paste an API key, "
            "or point it at a model running on your computer (Ollama, LM Studio, "
            "llama.cpp: no key needed). Keys are kept in your system keyring, never "
            "in a file."))
        intro.setWordWrap(True)
        lay.addWidget(heading)
        lay.addWidget(intro)
        self.keyring_warning = QLabel(self.tr(
            "No secure keyring is available on this system, so API keys cannot be stored. "
            "Install and unlock one (for example GNOME Keyring or KWallet), or use a model "
            "running on your computer (Ollama, LM Studio, llama.cpp), which needs no key."))
        self.keyring_warning.setWordWrap(True)
        self.keyring_warning.setObjectName("warning")
        design.tint(self.keyring_warning, "warning")
        self.keyring_warning.setAccessibleName(self.tr("Keyring warning"))
        self.keyring_warning.setVisible(not self._keyring_ok())
        lay.addWidget(self.keyring_warning)
        form = QFormLayout()
        self.provider_box = QComboBox()
        for c in sp.provider_choices():
            if c.name == sp.CUSTOM:  # the local servers' presets, then any other server
                for preset in sp.local_server_choices():
                    self.provider_box.addItem(preset.label, preset.name)
            self.provider_box.addItem(provider_label(c), c.name)
        self.provider_box.setAccessibleName(self.tr("Provider"))
        self.provider_box.setAccessibleDescription(self.tr("Which service runs the model"))
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setPlaceholderText(self.tr("Paste your API key"))
        self.key_edit.setAccessibleName(self.tr("API key"))
        self.key_edit.setAccessibleDescription(self.tr("Checked with one small request, then stored in the keyring"))
        self.url_edit = QLineEdit()
        self.url_edit.setAccessibleName(self.tr("Server URL"))
        self.url_label = QLabel(self.tr("Server URL"))
        self.key_label = QLabel(self.tr("API &key"))
        self.key_label.setBuddy(self.key_edit)
        provider_label_widget = QLabel(self.tr("&Provider"))
        provider_label_widget.setBuddy(self.provider_box)
        self.url_label.setBuddy(self.url_edit)
        form.addRow(provider_label_widget, self.provider_box)
        form.addRow(self.key_label, self.key_edit)
        form.addRow(self.url_label, self.url_edit)
        self.bedrock = BedrockFields(self, form)  # AWS Bedrock's profile row (issue 30)
        lay.addLayout(form)
        self.cloud_fields = CloudFields()  # Azure's, Vertex's settings (onboarding_cloud)
        lay.addWidget(self.cloud_fields)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status.setAccessibleName(self.tr("Check result"))
        lay.addWidget(self.status)
        lay.addWidget(self._local_box())
        lay.addStretch(1)
        lay.addWidget(self._no_key_box())
        row = QHBoxLayout()
        self.skip_button = QPushButton(self.tr("&Skip for now"))
        self.skip_button.setAccessibleName(self.tr("Skip for now"))
        self.skip_button.setAccessibleDescription(self.tr("Set up a provider later in Settings"))
        self.check_button = QPushButton(self.tr("&Check and continue"))
        self.check_button.setAccessibleName(self.tr("Check and continue"))
        self.check_button.setAccessibleDescription(self.tr("Try the key with one real request, then store it"))
        row.addWidget(self.skip_button)
        row.addStretch(1)
        row.addWidget(self.check_button)
        lay.addLayout(row)
        self.provider_box.currentIndexChanged.connect(self._on_provider_changed)
        self.skip_button.clicked.connect(self.skip)
        self.check_button.clicked.connect(self._on_check_clicked)
        return page

    def _local_box(self) -> QWidget:
        """Model servers on this computer: Detect asks the presets' standard addresses
        (a worker thread, short timeouts) and lists what answers; picking one fills
        the provider and its address."""
        box = QFrame()
        box.setObjectName("localServersBox")
        lay = QVBoxLayout(box)
        design.arrange(lay, "flush", "row")
        row = QHBoxLayout()
        self.local_label = QLabel(self.tr(
            "A model server on this computer (LM Studio, Ollama, llama.cpp, vLLM)?"))
        self.local_label.setWordWrap(True)
        self.detect_button = QPushButton(self.tr("&Detect"))
        self.detect_button.setAccessibleName(self.tr("Detect model servers"))
        self.detect_button.setAccessibleDescription(self.tr(
            "Look for LM Studio, Ollama, llama.cpp and vLLM at their usual addresses on this computer"))
        row.addWidget(self.local_label, 1)
        row.addWidget(self.detect_button)
        lay.addLayout(row)
        self.found_list = QListWidget()
        self.found_list.setAccessibleName(self.tr("Model servers found"))
        self.found_list.setAccessibleDescription(self.tr("Pick one to use it"))
        self.found_list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.found_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.found_list.setSpacing(design.SPACE["xxs"])
        self.found_list.hide()
        lay.addWidget(self.found_list)
        self.detect_button.clicked.connect(self._on_detect_clicked)
        self.found_list.itemClicked.connect(self.use_found)
        self.found_list.itemActivated.connect(self.use_found)
        return box

    def _no_key_box(self) -> QWidget:
        """No key? Ollama (when it answers here) and the offline demo."""
        box = QFrame()
        box.setObjectName("noKeyBox")
        box.setFrameShape(QFrame.Shape.StyledPanel)
        lay = QVBoxLayout(box)
        design.arrange(lay, "box", "row")
        self.no_key_label = QLabel(self.tr(
            "<b>No API key?</b> Try the offline demo to see how OpenWorker works."))
        self.no_key_label.setWordWrap(True)
        self.no_key_label.setAccessibleName(self.tr("Without an API key"))
        lay.addWidget(self.no_key_label)
        row = QHBoxLayout()
        self.ollama_button = QPushButton(self.tr("Use &Ollama"))
        self.ollama_button.setAccessibleName(self.tr("Use Ollama"))
        self.ollama_button.setAccessibleDescription(self.tr("Connect to Ollama running on this computer"))
        self.ollama_button.hide()
        self.demo_button = QPushButton(self.tr("Try the offline &demo"))
        self.demo_button.setAccessibleName(self.tr("Try the offline demo"))
        self.demo_button.setAccessibleDescription(self.tr(
            "Open a demo session with pre-written answers: no AI model, nothing leaves this computer"))
        row.addWidget(self.ollama_button)
        row.addWidget(self.demo_button)
        row.addStretch(1)
        lay.addLayout(row)
        self.ollama_button.clicked.connect(self._on_use_ollama)
        self.demo_button.clicked.connect(self.start_demo)
        return box

    def _model_page(self) -> QWidget:
        page = QWidget()
        lay = QVBoxLayout(page)
        design.arrange(lay, "flush", "section")
        heading = design.heading(self.tr("Choose a default model"))
        self.model_intro = QLabel()
        self.model_intro.setWordWrap(True)
        self.model_box = QComboBox()
        self.model_box.setEditable(True)
        self.model_box.setAccessibleName(self.tr("Default model"))
        self.model_box.setAccessibleDescription(self.tr("Used by new sessions; each session can switch"))
        if line := self.model_box.lineEdit():
            line.setAccessibleName(self.tr("Default model name"))
        lay.addWidget(heading)
        lay.addWidget(self.model_intro)
        lay.addWidget(self.model_box)
        lay.addSpacing(design.SPACE["l"])  # the answers a step apart from the choice
        lay.addStretch(1)
        row = QHBoxLayout()
        self.back_button = QPushButton(self.tr("&Back"))
        self.back_button.setAccessibleName(self.tr("Back"))
        self.finish_button = QPushButton(self.tr("&Finish"))
        self.finish_button.setAccessibleName(self.tr("Finish"))
        self.finish_button.setAccessibleDescription(self.tr("Save the default model and start working"))
        row.addWidget(self.back_button)
        row.addStretch(1)
        row.addWidget(self.finish_button)
        lay.addLayout(row)
        self.back_button.clicked.connect(lambda: self.show_page(0))
        self.finish_button.clicked.connect(self.finish)
        return page

    # ------------------------------------------------------------------ state

    def _keyring_ok(self) -> bool:
        return sp.keyring_available()

    def choice(self) -> sp.ProviderChoice:
        return sp.choice(str(self.provider_box.currentData()))

    def select_provider(self, name: str) -> None:
        self.provider_box.setCurrentIndex(self.provider_box.findData(name))

    def _on_provider_changed(self) -> None:
        c = self.choice()
        self.key_label.setVisible(c.kind != "ollama" and (c.kind != "cloud" or bool(c.key_name)))
        self.key_edit.setVisible(self.key_label.isVisibleTo(self))
        self.url_label.setVisible(c.kind != "cloud")
        self.url_edit.setVisible(c.kind != "cloud")
        self.cloud_fields.show_for(c.name if c.kind == "cloud" else None)
        if self.bedrock.show(c.kind == "bedrock"):
            pass  # (the region and key fields are labelled for Bedrock)
        elif c.kind == "key":
            self.url_label.setText(self.tr("Base URL (optional)"))
            self.url_edit.setPlaceholderText(c.default_url or self.tr("Leave empty for the official endpoint"))
            self.url_edit.setAccessibleDescription(self.tr("Only for a proxy or gateway; usually empty"))
            self.key_edit.setPlaceholderText(self.tr("Paste your API key"))
        elif c.kind == "ollama":
            self.url_label.setText(self.tr("Ollama &URL"))
            self.url_edit.setPlaceholderText(c.default_url)
            self.url_edit.setAccessibleDescription(self.tr("Where Ollama listens; empty means {url}").format(url=c.default_url))
        elif c.default_url:  # a local server's preset: its standard address
            self.url_label.setText(self.tr("Server &URL"))
            self.url_edit.setPlaceholderText(c.default_url)
            self.url_edit.setAccessibleDescription(self.tr(
                "Where {server} listens; its usual address is {url}").format(server=c.label, url=c.default_url))
            self.key_edit.setPlaceholderText(self.tr("API key, if the server needs one"))
            if self.url_edit.text().strip() in self._preset_urls():
                self.url_edit.setText(c.default_url)
        else:
            self.url_label.setText(self.tr("Base &URL"))
            self.url_edit.setPlaceholderText("https://example.com/v1")
            self.url_edit.setAccessibleDescription(self.tr("The server's OpenAI-compatible endpoint, ending in /v1"))
            self.key_edit.setPlaceholderText(self.tr("API key, if the server needs one"))
        self.status.clear()

    def page(self) -> int:
        return self.pages.currentIndex()

    def show_page(self, index: int) -> None:
        """Show page ``index`` at its own height (see :class:`Pages`)."""
        self.pages.setCurrentIndex(index)
        # Enter presses the page's own next step. (A dialog has one default button,
        # set here once the buttons are in the dialog: set while a page was built,
        # before it had the dialog as parent, the dialog never knew, and Qt made the
        # first button it found the default, a hidden one.)
        (self.check_button if index == 0 else self.finish_button).setDefault(True)
        self._fit_height()

    def _grow_to_fit(self) -> None:
        if shiboken6.isValid(self):  # (not closed and deleted meanwhile)
            self._fit_height(grow_only=True)

    def _fit_height(self, *, grow_only: bool = False) -> None:
        """Take the height the page shown needs at the dialog's width (``grow_only``:
        never shorter than now, e.g. for a longer message on the same page)."""
        lay = self.layout()
        if lay is None:
            return
        page = self.pages.currentWidget()
        for widget in (page, self.pages):  # measured now, not when the layouts next update
            if widget is not None:
                widget.updateGeometry()
        lay.invalidate()
        lay.activate()
        width = self.width()
        height = (lay.totalHeightForWidth(width) if lay.hasHeightForWidth()
                  else lay.totalSizeHint().height())
        height = max(height, lay.totalMinimumSize().height())
        self.resize(width, max(height, self.height()) if grow_only else height)

    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    def _say(self, text: str, *, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setProperty("error", error)
        self.status.setAccessibleDescription(text)
        # All of the message, not squeezed in: measured once it is restyled.
        QTimer.singleShot(0, self._grow_to_fit)

    # ----------------------------------------------------------------- check

    def _on_check_clicked(self) -> None:
        if not self.busy():
            self.task = asyncio.ensure_future(self.check())

    async def check(self) -> bool:
        """Validate what the user entered; on success store it and go to page 2."""
        c = self.choice()
        key = self.key_edit.text().strip()
        url = self.url_edit.text().strip()
        needs_keyring = c.kind == "key" or (c.kind in ("custom", "cloud", "bedrock") and bool(key))
        if needs_keyring and not self._keyring_ok():
            self.keyring_warning.show()
            self._say(self.tr("No secure keyring is available, so the key was not stored."), error=True)
            return False
        if c.kind == "key" and not key:
            self._say(self.tr("Paste an API key first."), error=True)
            return False
        if c.kind == "custom" and not url:
            self._say(self.tr("Enter the server's base URL first."), error=True)
            return False
        self.check_button.setEnabled(False)
        self._say(self.tr("Checking…"))
        try:
            models = await self._validate(c, key, url)
        except ProviderError as exc:
            self._say(self.tr("That did not work: {message}").format(message=exc.message), error=True)
            return False
        except Exception as exc:  # an SDK or network surprise: say it, store nothing
            self._say(self.tr("That did not work: {message}").format(message=str(exc)), error=True)
            return False
        finally:
            self.check_button.setEnabled(True)
        try:
            await self._store(c, key, url, models)
        except Exception as exc:
            self._say(self.tr("The key worked but could not be stored: {message}").format(message=str(exc)),
                      error=True)
            return False
        self.provider = c.name
        self.key_edit.clear()
        self._show_models(c, models)
        return True

    async def _validate(self, c: sp.ProviderChoice, key: str, url: str) -> list[str]:
        if c.kind == "cloud":  # checked and stored together (onboarding_cloud)
            return await self.cloud_fields.check_and_store(self.settings, c, key)
        if c.kind == "bedrock":
            return await self.bedrock.check(key, url)
        if c.kind == "key":
            await sp.validate_key(c.name, key, base_url=url)
            return sp.models_for(c.name, self.settings.config)
        base = sp.normalize_ollama_url(url or None) if c.kind == "ollama" else url.rstrip("/")
        listed = await sp.list_endpoint_models(base, key)
        return [f"{c.name}:{m}" for m in listed]

    async def _store(self, c: sp.ProviderChoice, key: str, url: str, models: list[str]) -> None:
        key_name: str | None = None
        if c.kind == "cloud":
            return self.settings.key_changed(c.name)
        if c.kind == "bedrock":
            return await self.bedrock.store(key, url)
        if c.kind == "key":
            entry = sp.entry_for(self.settings.config, c.name) or c.key_name or ""
            await asyncio.to_thread(sp.store_key, entry, key)
        elif c.kind == "custom" and key:
            await asyncio.to_thread(sp.store_key, sp.CUSTOM_KEY_NAME, key)
            key_name = sp.CUSTOM_KEY_NAME
        elif c.kind == "custom" and self.settings.get(f"providers.{c.name}.key_name"):
            key_name = ""  # no key now: forget the entry an earlier set-up named
        ids = [m.split(":", 1)[1] for m in models] if c.kind == "custom" else None
        table = sp.provider_settings(c.name, base_url=url, models=ids, key_name=key_name)
        if table:
            self.settings.apply({"providers": {c.name: table}})
        self.settings.key_changed(c.name)

    def _show_models(self, c: sp.ProviderChoice, models: list[str]) -> None:
        self.model_box.clear()
        if c.kind == "ollama" and not models:
            models = sp.models_for("ollama")
            self.model_intro.setText(self.tr(
                "Ollama answered but has no models yet. Pick one and download it with "
                "“ollama pull <name>”."))
        else:
            self.model_intro.setText(self.tr(
                "{provider} is connected. New sessions start with this model; you can "
                "switch per session.").format(provider=provider_label(c)))
        if c.kind == "bedrock" and self.bedrock.intro():
            self.model_intro.setText(self.bedrock.intro())
        self.model_box.addItems(models)
        self.show_page(1)
        self.model_box.setFocus()

    # ------------------------------------------------------- without a key

    def _start_probe(self) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # Qt events processed outside the loop (tests tearing down)
            return
        if self.probe is None:
            self.probe = asyncio.ensure_future(self.probe_ollama())

    async def probe_ollama(self) -> list[str] | None:
        """Look for Ollama on this computer (a worker thread, short timeout)."""
        url = sp.OLLAMA_PROBE_URL
        found = await asyncio.to_thread(sp.probe_ollama, url)
        if not shiboken6.isValid(self):
            return found
        self.ollama_models = found
        self.ollama_url = url
        if found is not None:
            count = len(found)
            self.no_key_label.setText(self.tr(
                "<b>No API key?</b> Ollama is running on this computer ({count} model(s)): "
                "use it, no key needed. Or try the offline demo first.").format(count=count))
            self.ollama_button.show()
        return found

    def _on_use_ollama(self) -> None:
        self.select_provider("ollama")
        # where the probe found it (empty: the standard address)
        default = sp.choice("ollama").default_url
        self.url_edit.setText("" if self.ollama_url in ("", default) else self.ollama_url)
        self._on_check_clicked()

    # ------------------------------------------------------- local servers

    #: Where Detect looks (tests point it at stub servers).
    detect_candidates: tuple[sp.local_servers.Preset, ...] = sp.local_servers.PRESETS
    DETECT_TIMEOUT = 0.5

    def _preset_urls(self) -> set[str]:
        return {"", *(p.base_url for p in sp.local_servers.PRESETS),
                *(p.base_url for p in self.detect_candidates)}

    def _on_detect_clicked(self) -> None:
        if self.detecting is None or self.detecting.done():
            self.detecting = asyncio.ensure_future(self.detect())

    async def detect(self) -> list[sp.local_servers.Found]:
        """Ask the presets' addresses (a worker thread, short timeouts) and list what
        answers: the server, its address, its models and their context windows."""
        self.detect_button.setEnabled(False)
        self.local_label.setText(self.tr("Looking for model servers on this computer…"))
        try:
            found = await asyncio.to_thread(sp.local_servers.detect, self.detect_candidates,
                                            timeout=self.DETECT_TIMEOUT)
        finally:
            if shiboken6.isValid(self):
                self.detect_button.setEnabled(True)
        if not shiboken6.isValid(self):
            return found
        self.found_list.clear()
        for server in found:
            item = QListWidgetItem(self._found_text(server))
            item.setToolTip(item.text())
            item.setData(Qt.ItemDataRole.UserRole, server)
            self.found_list.addItem(item)
        self.found_list.setVisible(bool(found))
        if found:  # as tall as its rows (up to four), not a large empty box
            rows = sum(self.found_list.sizeHintForRow(i) + 2 * self.found_list.spacing()
                       for i in range(min(len(found), 4)))
            self.found_list.setFixedHeight(rows + 2 * self.found_list.frameWidth() + 2)
        if found:
            self.local_label.setText(self.tr("Found {count} model server(s) on this computer: "
                                             "pick one to use it.").format(count=len(found)))
        else:
            names = ", ".join(p.label for p in self.detect_candidates)
            self.local_label.setText(self.tr(
                "No model server answered at the usual addresses ({servers}). Start one, "
                "or pick it above and enter its address.").format(servers=names))
        QTimer.singleShot(0, self._grow_to_fit)
        return found

    def _found_text(self, server: sp.local_servers.Found) -> str:
        if not server.models:
            models = self.tr("no models yet")
        else:
            shown = []
            for model in server.models[:4]:
                size = server.contexts.get(model)
                shown.append(self.tr("{model} ({tokens} tokens of context)").format(
                    model=model, tokens=f"{size:,}") if size else model)
            models = ", ".join(shown)
            if len(server.models) > 4:
                models += self.tr(" and {count} more").format(count=len(server.models) - 4)
        return self.tr("{server} at {url}:\n{models}").format(
            server=server.preset.label, url=server.base_url, models=models)

    def use_found(self, item: QListWidgetItem | None = None) -> None:
        """Set up the picked server: its provider and its address, ready to check."""
        item = item or self.found_list.currentItem()
        server = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if not isinstance(server, sp.local_servers.Found):
            return
        self.select_provider(sp.preset_choice(server.preset).name)
        self.url_edit.setText(server.base_url)
        self._say(self.tr("{server} at {url}: press Check and continue.").format(
            server=server.preset.label, url=server.base_url))

    def start_demo(self) -> str:
        """Open the offline demo: a session titled as a demo whose answers are scripted.

        Nothing is configured (no default model); the first message is sent so the
        demo plays at once. Returns the session id.
        """
        from openworker_qt.ui.folders import prepare_folder

        workspace = self.sessions.new_session_folder()
        try:
            workspace = prepare_folder(str(workspace))
        except ValueError as exc:
            self.sessions.show_problem(str(exc))
        session_id = self.sessions.create_session(
            title=self.tr("Demo: scripted answers, no AI model"),
            model=f"scripted:{demo_script()}",
            persona="cowork",
            mode="interactive",
            workspace=str(workspace),
            meta={"origin": "demo"},
        )
        first_message = self.tr("Show me how you work.")
        self._remember_skipped()  # the demo answers "not now": no onboarding at every start
        self.completed.emit("")
        self.accept()
        self.sessions.show_session(session_id, message=first_message)
        return session_id

    # ---------------------------------------------------------------- finish

    def finish(self) -> None:
        model = self.model_box.currentText().strip()
        if not model:
            return
        updates: dict[str, Any] = {"general": {"default_model": model}}
        name = self.provider
        known = self.settings.get(f"providers.{name}.models") or []
        typed = model.removeprefix(f"{name}:")
        if (name == sp.CUSTOM or name in sp.LOCAL_PRESETS) and model.startswith(f"{name}:") \
                and typed not in known:
            updates["providers"] = {name: {"models": [*known, typed]}}
        self.settings.apply(updates)
        self.completed.emit(model)  # the app makes it the default of new sessions
        self.accept()

    def _remember_skipped(self) -> None:
        try:
            (self.settings.data_dir / SKIPPED_MARKER).write_text("1", encoding="utf-8")
        except OSError:
            pass

    def skip(self) -> None:
        self._remember_skipped()
        self.completed.emit("")
        self.reject()


def needs_onboarding(settings: SettingsStore) -> bool:
    """First start: no default model configured and onboarding never skipped."""
    if str(settings.get("general.default_model") or ""):
        return False
    return not (settings.data_dir / SKIPPED_MARKER).exists()
