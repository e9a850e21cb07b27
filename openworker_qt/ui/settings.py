"""The settings window: a page list on the left, the page on the right.

Reachable from File → Settings… (Ctrl+,). It is an ordinary top-level window
(not modal): changes apply as they are made (see ``settings_pages``), so
there is no OK/Apply; Esc or Close closes it.

It is built from a :class:`SettingsStore`, a
:class:`~openworker_qt.ui.ports.ModelSource` and the
:class:`~openworker_qt.ui.ports.SessionDefaults`; the app connects the pages'
signals (see ``settings_pages``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QListWidget,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.agents.personas import PersonaRegistry
from openworker_qt.core.wider_grants import WiderGrants
from openworker_qt.memory.store import MemoryStore
from openworker_qt.qt.connector_setup import Registry
from openworker_qt.qt.settings_store import SettingsStore
from openworker_qt.ui import design
from openworker_qt.ui.ports import ModelSource, SessionDefaults
from openworker_qt.ui.settings_connectors import ConnectorsPage
from openworker_qt.ui.settings_grants import GrantsBox, SessionTitles
from openworker_qt.ui.settings_memory import MemoryPage
from openworker_qt.ui.settings_pages import (
    AppearancePage,
    FoldersPage,
    ModelPage,
    PermissionsPage,
    ProvidersPage,
)
from openworker_qt.ui.settings_personas import PersonasPage
from openworker_qt.ui.settings_tools import ToolsPage
from openworker_qt.ui.settings_updates import UpdatesPage
from openworker_qt.ui.settings_voice import VoicePage
from openworker_qt.ui.window_state import open_fitted, remember_geometry


class SettingsWindow(QWidget):
    """See module docstring."""

    def __init__(self, settings: SettingsStore, models: ModelSource, defaults: SessionDefaults,
                 parent: QWidget | None = None, *, memory: MemoryStore | None = None,
                 personas: PersonaRegistry | None = None,
                 connectors: Registry | None = None,
                 grants: WiderGrants | None = None, sessions: SessionTitles | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("settingsWindow")
        remember_geometry(self, "settings", settings.config_dir)
        self.setWindowTitle(self.tr("Settings — OpenWorker Qt"))
        self.setAccessibleName(self.tr("Settings"))
        self.providers = ProvidersPage(settings, models)
        self.model = ModelPage(settings, models, defaults)
        self.permissions = PermissionsPage(settings)
        self.grants = GrantsBox(grants, sessions) if grants is not None else None
        if self.grants is not None:
            self.permissions.add_section(self.grants)
        self.folders = FoldersPage(settings)
        self.appearance = AppearancePage(settings)
        self.memory = MemoryPage(settings, memory) if memory is not None else None
        self.personas = PersonasPage(personas or PersonaRegistry(settings.paths.data / "personas"))
        self.connectors = ConnectorsPage(connectors) if connectors is not None else None
        self.tools = ToolsPage()
        self.voice = VoicePage(settings)
        self.updates = UpdatesPage(settings)
        self.nav = QListWidget()
        self.nav.setAccessibleName(self.tr("Settings pages"))
        self.nav.setAccessibleDescription(self.tr("Choose a page; arrow keys move between pages"))
        self.nav.setObjectName("settingsNav")
        self.nav.setSpacing(design.SPACE["xxs"])
        self.nav.setFrameShape(QFrame.Shape.NoFrame)
        pad_v, pad_h, r = design.SPACE["xs"] + design.SPACE["xxs"], design.SPACE["s"], design.RADIUS["medium"]
        # rows like a sidebar's (a rounded selection, room to breathe), on the window colour
        design.style_sheet(self.nav, lambda: (
            f"QListWidget#settingsNav {{ background: transparent; outline: none; }}"
            f" QListWidget#settingsNav::item {{ padding: {pad_v}px {pad_h}px; border-radius: {r}px; }}"
            " QListWidget#settingsNav::item:hover:!selected { background: palette(midlight); }"
            " QListWidget#settingsNav::item:selected { background: palette(highlight);"
            " color: palette(highlighted-text); }"))
        self.stack = QStackedWidget()
        for title, page in (
            (self.tr("Providers and keys"), self.providers),
            (self.tr("Default model"), self.model),
            (self.tr("Permissions"), self.permissions),
            (self.tr("Writable folders"), self.folders),
            (self.tr("Appearance"), self.appearance),
            *([(self.tr("Memory"), self.memory)] if self.memory is not None else []),
            (self.tr("Personas"), self.personas),
            (self.tr("Installed tools"), self.tools),
            *([(self.tr("Connectors"), self.connectors)] if self.connectors else []),
            (self.tr("Voice"), self.voice),
            (self.tr("Updates"), self.updates),
        ):
            self.nav.addItem(title)
            self.stack.addWidget(page)
        self.nav.setFixedWidth(max(170, self.nav.sizeHintForColumn(0) + design.SPACE["xl"]))
        self.nav.currentRowChanged.connect(self.stack.setCurrentIndex)
        self.nav.setCurrentRow(0)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close = buttons.button(QDialogButtonBox.StandardButton.Close)
        close.setAccessibleName(self.tr("Close settings"))
        buttons.rejected.connect(self.close)
        body = QHBoxLayout()
        body.setSpacing(design.GAP["section"])
        body.addWidget(self.nav)
        body.addWidget(self.stack, 1)
        lay = QVBoxLayout(self)
        lay.addLayout(body, 1)
        lay.addWidget(buttons)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self.close)
        open_fitted(self, (880, 600))  # what its pages need, whole on the screen

    def add_page(self, title: str, page: QWidget) -> None:
        """A page added by the app (e.g. the MCP servers, when the runtime has them)."""
        self.nav.addItem(title)
        self.stack.addWidget(page)

    def show_page(self, index: int) -> None:
        self.nav.setCurrentRow(index)

    def showEvent(self, event: object) -> None:
        self.model.refresh()
        super().showEvent(event)  # type: ignore[arg-type]
