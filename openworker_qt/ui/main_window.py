"""The main window: sessions sidebar, transcript, composer, banner, status.

It talks to the core only through the :class:`~openworker_qt.core.sessions.SessionManager`
(send, stop, retry, switch model), the :class:`EngineBridge` (what happens),
the :class:`InboxBridge` (what waits for the user) and an
:class:`~openworker_qt.ui.ports.Answers` (who takes an answer); settings come
from a :class:`SettingsStore`. It never sees the app: what only the app can do
(open the inbox, settings or quick ask, ask how to grant a dropped folder, the
default-folder question, quit) it asks for with signals, and the app calls its
public methods (:meth:`MainWindow.show_session`, :meth:`~MainWindow.set_known_models`,
:meth:`~MainWindow.set_default_workspace`, …). Stored sessions are read in a
worker so opening a long one never blocks the loop.

A message refused because another window or process is driving the session
(:class:`~openworker_qt.core.sessions.SessionBusy`: nothing was stored) goes
back into the composer, attachments included, with a banner saying why; the
user sends it again once that turn is over.

:class:`WindowSessions` is how sessions started elsewhere (quick ask,
onboarding's demo) are created and shown here.

Signals:
    inbox_requested(), quick_ask_requested(), settings_requested(), quit_requested(),
    automations_requested(): the menu's Automations… (Ctrl+Shift+U),
    default_folder_requested(): File → Default folder for new sessions…,
    folder_grant_requested(str): a folder was dropped or attached; ask how to grant it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDesktopServices,
    QDragEnterEvent,
    QDragLeaveEvent,
    QDragMoveEvent,
    QDropEvent,
    QIcon,
    QKeySequence,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.core import events as ev
from openworker_qt.core.background import spawn
from openworker_qt.core.inbox import InboxItem
from openworker_qt.core.sessions import SessionControl, SessionManager
from openworker_qt.qt.bridge import EngineBridge
from openworker_qt.qt.hotkey import quick_ask_sequence
from openworker_qt.qt.inbox_bridge import InboxBridge, approval_request, question_request
from openworker_qt.qt.session_model import SessionListModel
from openworker_qt.qt.transcript_items import content_text
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.qt.transcript_pages import session_head
from openworker_qt.qt.wording import (
    activity_text,
    answer_opened_text,
    answering_text,
    waiting_for_model_text,
)
from openworker_qt.storage.conversations import SessionInfo
from openworker_qt.tools.todo import NAME as TODO_TOOL
from openworker_qt.tools.todo import TodoItem, stored_todos, todos_from_display
from openworker_qt.ui import design
from openworker_qt.ui.approval import (
    PREVIEWED_TOOLS,
    ApprovalCard,
    ApprovalDialog,
    QuestionCard,
    approval_preview,
)
from openworker_qt.ui.artifacts_panel import TOOL as DELIVERABLE_TOOL
from openworker_qt.ui.artifacts_panel import ArtifactsPanel, path_from_display, stored_deliverables
from openworker_qt.ui.attachments import Attachment, AttachmentError, load_attachment
from openworker_qt.ui.composer import Composer
from openworker_qt.ui.drop_highlight import DropHighlight, accept_copy
from openworker_qt.ui.folders import (  # (tiny: a first send imports nothing)
    broad_folder_warning,
    prepare_folder,
)
from openworker_qt.ui.grant_dialog import grant_part
from openworker_qt.ui.late_answers import closed_text
from openworker_qt.ui.ports import Answers
from openworker_qt.ui.settings_store import SettingsStore
from openworker_qt.ui.sidebar import Sidebar
from openworker_qt.ui.todo_panel import TodoPanel
from openworker_qt.ui.transcript_view import TranscriptView
from openworker_qt.ui.update_notice import AutoUpdateCheck, UpdateNotice
from openworker_qt.ui.usage_label import UsageLabel
from openworker_qt.ui.voice import VoiceController
from openworker_qt.ui.voice_answers import VoiceAnswers
from openworker_qt.ui.window_state import remember_geometry

log = logging.getLogger(__name__)


class Banner(QFrame):
    """A dismissible, non-fatal message above the composer (errors, drop problems).

    Signals:
        action_triggered(): the optional action button (e.g. Retry).
    """

    action_triggered = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(design.SPACE["m"], design.SPACE["xs"], design.SPACE["xs"], design.SPACE["xs"])
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.action = QPushButton()
        self.action.setAccessibleName(self.tr("No action"))
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setAccessibleName(self.tr("Dismiss message"))
        lay.addWidget(self.label, 1)
        lay.addWidget(self.action)
        lay.addWidget(self.close_button)
        self.action.clicked.connect(self.action_triggered)
        self.close_button.clicked.connect(self.hide)
        self.setAccessibleName(self.tr("Message banner"))
        self.hide()

    def show_message(self, text: str, action: str = "", *, error: bool = True) -> None:
        self.label.setText(text)
        self.action.setText(action)
        self.action.setAccessibleName(action or self.tr("No action"))
        self.action.setVisible(bool(action))
        self.setProperty("error", error)
        self.setAccessibleDescription(text)
        self.show()


#: The session list's narrowest width (its titles stay readable).
SIDEBAR_MIN_WIDTH = 180


class MainWindow(QMainWindow):
    """See module docstring. ``workspace``: the folder new sessions start in;
    ``keeps_running()``: whether closing the window only hides it (a tray icon)."""

    inbox_requested = Signal()
    automations_requested = Signal()
    quick_ask_requested = Signal()
    settings_requested = Signal()
    quit_requested = Signal()
    default_folder_requested = Signal()
    folder_grant_requested = Signal(str)

    def __init__(self, manager: SessionManager, bridge: EngineBridge, inbox: InboxBridge,
                 answers: Answers, settings: SettingsStore, *, workspace: Path,
                 keeps_running: Callable[[], bool] = lambda: False) -> None:
        super().__init__()
        self.manager = manager
        self.store = manager.store
        self.bridge = bridge
        self.inbox = inbox
        self.answers = answers
        self.settings = settings
        self.default_workspace = workspace
        self._keeps_running = keeps_running
        self._models: list[str] = []  # what the configured providers offer
        self.setObjectName("mainWindow")
        self.setWindowTitle(self.tr("OpenWorker Qt"))
        self.setAccessibleName(self.tr("OpenWorker Qt main window"))
        self.setAcceptDrops(True)
        self._drop_highlight: DropHighlight | None = None
        self.session_id: str | None = None
        self.dialogs: dict[int, ApprovalDialog] = {}
        self._previews: dict[int, str | None] = {}
        self.show_dialogs = True
        self._loading: asyncio.Task[None] | None = None
        self._deletions: set[asyncio.Future[None]] = set()  # sessions being deleted
        # what arrived per session (events, text): a load that saw some arrive while it
        # read the store reads again, so no row falls between its snapshot and the reset
        self._arrived: dict[str, int] = {}
        self._turn_started: dict[str, float] = {}
        self._status_detail: dict[str, str] = {}
        self._answering: set[str] = set()  # sessions whose answer is streaming in
        self._search = ""
        self._new_workspace: Path | None = None  # a folder picked before the session exists
        self._broad_folder: str | None = None  # the home folder the banner warned about
        # session id -> a message handed to the manager for a new turn, until the turn
        # has started (then it is stored) or was refused (then it is put back).
        self._unsent: dict[str, tuple[str, list[Attachment]]] = {}
        self._refused: dict[str, tuple[str, list[Attachment]]] = {}  # for another session
        # Steering sent while a turn runs and not taken in yet, oldest first: offered
        # back (into the message box) if the turn stops or ends without it.
        self._queued: dict[str, list[tuple[str, list[Attachment]]]] = {}
        self._offered: dict[str, list[tuple[str, list[Attachment]]]] = {}  # for another session

        self.sessions = SessionListModel(self.store, self)
        self.transcript = TranscriptModel(self)
        self.transcript.store = self.store  # a session that grows live is paged from it
        self.transcript.located.connect(self._on_call_located)
        self.sidebar = Sidebar(self.sessions)
        self.view = TranscriptView()
        self.view.setModel(self.transcript)
        self.banner = Banner()
        self.composer = Composer()
        self.todo = TodoPanel()
        self._todo_updates = 0  # live list changes, so a slower load never shows an older one
        self._deliverable_updates = 0  # (the same, for the deliverables panel)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.setSpacing(0)
        rl.addWidget(self.view, 1)
        rl.addWidget(self.banner)
        rl.addWidget(self.todo)
        rl.addWidget(self.composer)
        split = QSplitter()
        split.addWidget(self.sidebar)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        split.setSizes([240, 760])
        self.setCentralWidget(split)
        self.artifacts = ArtifactsPanel()
        self.artifacts_dock = QDockWidget(self.tr("Deliverables"), self)
        self.artifacts_dock.setObjectName("artifactsDock")
        self.artifacts_dock.setWidget(self.artifacts)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.artifacts_dock)
        self.resizeDocks([self.artifacts_dock], [380], Qt.Orientation.Horizontal)
        self.artifacts_dock.hide()
        # While the panel is open the session list keeps a readable width (it was
        # squeezed to a few letters): the panel, then the window, make room instead.
        self.artifacts_dock.visibilityChanged.connect(
            lambda shown: self.sidebar.setMinimumWidth(SIDEBAR_MIN_WIDTH if shown else 0))
        self.status_label = QLabel()
        self.status_label.setAccessibleName(self.tr("Status"))
        self.statusBar().addWidget(self.status_label, 1)
        self.usage = UsageLabel(self.store.db, lambda: self.settings.config.get("prices"))
        self.statusBar().addPermanentWidget(self.usage)
        self.folder_button = QToolButton()
        self.folder_button.setObjectName("folderButton")
        self.folder_button.setAutoRaise(True)
        self.folder_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.folder_button.setIcon(QIcon.fromTheme("folder"))
        self.folder_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.folder_button.setAccessibleName(self.tr("Session folder"))
        self.statusBar().addPermanentWidget(self.folder_button)
        # weekly update checks when the user turned them on; a quiet note, never an install
        self.update_notice = UpdateNotice()
        self.update_notice.clicked.connect(self.check_for_updates)
        self.statusBar().addPermanentWidget(self.update_notice)
        self.auto_updates = AutoUpdateCheck(self, settings, settings.data_dir / "updates.json")
        self.auto_updates.available.connect(self.update_notice.show_version)
        self._tick = QTimer(self)
        self._tick.setInterval(1000)
        self._tick.timeout.connect(self._update_status)
        self.voice = VoiceController.for_settings(self.composer.mic, self.composer.edit,
                                                  settings, self)
        self.voice_answers = VoiceAnswers(self)  # "approve"/"deny" said to a focused approval
        self.voice.intercept = self.voice_answers.offer
        self._build_menus()
        self._folder_menu()
        self._connect()
        self.setTabOrder(self.sidebar.new_button, self.sidebar.search)
        self.setTabOrder(self.sidebar.search, self.sidebar.list)
        self.setTabOrder(self.sidebar.list, self.view)
        previous: QWidget = self.view
        for example in self.view.empty_state.examples:  # the getting-started examples
            self.setTabOrder(previous, example)
            previous = example
        # then the message box and the composer's controls, left to right
        self.composer.chain_tab_order(previous)
        self.workspace_changed()
        self.resize(1040, 720)
        remember_geometry(self, "main", settings.config_dir)
        self.refresh_sessions()
        self.composer.set_models(list(self._models), self._model_for(None))
        self._default_mode_to_picker()

    # ------------------------------------------------------------------ keyboard

    def tab_ring(self) -> list[QWidget]:
        """What Tab visits, in order, and from the last back to the first: the
        sidebar, the transcript, the getting-started examples, the message box and
        the composer's controls left to right, the session's folder, then the open
        side panels. (Qt's own
        chain is not kept in this order once widgets are reparented into docks and
        the composer; cards in the transcript keep Qt's order within the view.)"""
        ring: list[QWidget] = [self.sidebar.new_button, self.sidebar.search, self.sidebar.list,
                               self.view, *self.view.empty_state.examples, *self.composer.tab_chain(),
                               self.folder_button]
        for dock in self.findChildren(QDockWidget):
            if dock.isVisible():
                ring += [w for w in dock.findChildren(QWidget)
                         if w.focusPolicy() & Qt.FocusPolicy.TabFocus and w.focusProxy() is None]
        return [w for w in ring if w.isVisible() and w.isEnabled()
                and (w.focusPolicy() & Qt.FocusPolicy.TabFocus or w.focusProxy() is not None)]

    def focusNextPrevChild(self, next: bool) -> bool:
        focus = QApplication.focusWidget()
        ring = self.tab_ring()
        current = next_widget = None
        for i, widget in enumerate(ring):
            # (an editable combo's focus is in its line edit)
            if widget is focus or (focus is not None and widget is focus.parentWidget()
                                   and widget.focusProxy() is focus):
                current = i
                break
        if current is None or ring[current] is self.view:
            return super().focusNextPrevChild(next)  # inside a card, or the view's own order
        next_widget = ring[(current + (1 if next else -1)) % len(ring)]
        next_widget.setFocus(Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason)
        return True

    # ------------------------------------------------------------------ setup

    def _action(self, menu: Any, text: str, shortcut: str | QKeySequence | None, slot: Any,
                name: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        if name:
            action.setObjectName(name)
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        f = bar.addMenu(self.tr("&File"))
        self.new_action = self._action(f, self.tr("&New session"), "Ctrl+N", self.new_session, "newSession")
        self._action(f, self.tr("&Search sessions"), "Ctrl+K", self._focus_search, "searchSessions")
        self._action(f, self.tr("&Attach files…"), "Ctrl+O", self.pick_attachments, "attach")
        self._action(f, self.tr("Default &folder for new sessions…"), None,
                     self._choose_default_folder, "defaultFolder")
        f.addSeparator()
        self._action(f, self.tr("Se&ttings…"), "Ctrl+,", self.settings_requested, "settings")
        f.addSeparator()
        self._action(f, self.tr("&Quit"), "Ctrl+Q", self.quit_requested, "quit")
        s = bar.addMenu(self.tr("&Session"))
        self._action(s, self.tr("&Send"), "Ctrl+Return", self.composer.submit, "send")
        self.stop_action = self._action(s, self.tr("S&top"), "Ctrl+.", self.stop, "stop")
        self._action(s, self.tr("&Retry"), "Ctrl+R", self.retry, "retry")
        s.addSeparator()
        self.change_folder_action = self._action(
            s, self.tr("Change &folder…"), None, self.change_folder, "changeFolder")
        s.addSeparator()
        self._action(s, self.tr("&Approve focused request"), "Ctrl+Shift+A",
                     lambda: self.answer_focused("once"), "approveFocused")
        self._action(s, self.tr("&Deny focused request"), "Ctrl+Shift+D",
                     lambda: self.answer_focused("deny"), "denyFocused")
        s.addSeparator()
        s.addAction(self.sidebar.rename_action)  # F2, bound once (see Sidebar)
        w = bar.addMenu(self.tr("&Window"))
        self._action(w, self.tr("&Inbox"), "Ctrl+I", self.inbox_requested, "inbox")
        self._action(w, self.tr("&Automations"), "Ctrl+Shift+U", self.automations_requested,
                     "automations")
        # The same key as the global hotkey: where the platform grabs it first, this
        # one never fires; elsewhere (Wayland, no hotkey) it works inside the window.
        self._action(w, self.tr("&Quick ask"), quick_ask_sequence(self.settings.config),
                     self.quick_ask_requested, "quickAsk")
        self._action(w, self.tr("&Focus message box"), "Ctrl+L", self.composer.edit.setFocus, "focusComposer")
        deliverables = self.artifacts_dock.toggleViewAction()
        deliverables.setText(self.tr("&Deliverables"))
        deliverables.setShortcut(QKeySequence("Ctrl+Shift+E"))
        deliverables.setObjectName("deliverables")
        w.addAction(deliverables)
        h = self.menuBar().addMenu(self.tr("&Help"))
        self._action(h, self.tr("Check for &updates…"), None, self.check_for_updates, "checkUpdates")

    def check_for_updates(self) -> None:
        """Help ▸ Check for updates: a signed manifest read in a worker (ui/updates.py)."""
        from openworker_qt.ui.updates import UpdatePrompt  # the check's code, on first use

        self.update_prompt = UpdatePrompt(self, str(self.settings.get("updates.url") or ""),
                                          key_file=self.auto_updates.key_file)
        self._update_task = asyncio.ensure_future(self.update_prompt.run())

    def _folder_menu(self) -> None:
        menu = QMenu(self.folder_button)
        menu.addAction(self.change_folder_action)
        open_folder = menu.addAction(self.tr("&Open in file manager"))
        open_folder.setObjectName("openFolder")
        open_folder.triggered.connect(lambda: QDesktopServices.openUrl(
            QUrl.fromLocalFile(str(self.session_workspace()))))
        self.folder_button.setMenu(menu)

    def _connect(self) -> None:
        b = self.bridge
        b.event_received.connect(self._on_bridge_event)
        b.text_appended.connect(self._on_bridge_text)
        b.reasoning_appended.connect(self._on_bridge_reasoning)
        b.running_changed.connect(self._on_bridge_running_changed)
        inbox = self.inbox
        inbox.item_added.connect(self._on_inbox_item_added)
        inbox.item_resolved.connect(self._on_inbox_item_resolved)
        inbox.pending_changed.connect(self._on_inbox_pending_changed)
        # Sessions created or renamed by another process (the CLI) appear in the list.
        inbox.database_changed.connect(self.refresh_sessions)
        self.sidebar.session_selected.connect(self.open_session)
        self.sidebar.new_requested.connect(self.new_session)
        self.sidebar.rename_requested.connect(self._on_sidebar_rename)
        self.sidebar.delete_requested.connect(self._on_sidebar_delete)
        self.sidebar.search_changed.connect(self._on_sidebar_search)
        self.sidebar.exported.connect(lambda path: self.statusBar().showMessage(
            self.tr("Exported to {path}").format(path=path), 6000))
        self.sidebar.export_failed.connect(self.show_message)
        self.composer.submitted.connect(self.send)
        self.composer.stop_requested.connect(self.stop)
        self.composer.model_chosen.connect(self._on_composer_model)
        self.composer.model_missing.connect(self._on_model_missing)
        self.composer.persona_chosen.connect(lambda p: self._set_session_field("persona", p))
        self.composer.mode_chosen.connect(lambda m: self._set_session_field("mode", m))
        self.composer.attach_requested.connect(self.pick_attachments)
        self.view.retry_requested.connect(self.retry)
        self.view.resend_requested.connect(self.submit_message)
        self.view.edit_requested.connect(self._on_example_chosen)
        self.view.empty_state.example_chosen.connect(self._on_example_chosen)
        self.banner.action_triggered.connect(self._on_banner_action)
        self.voice.message.connect(lambda text: self.statusBar().showMessage(text, 6000))
        self.voice.problem.connect(lambda text, no_model: self.banner.show_message(
            text, self.voice.import_action_text if no_model else "", error=False))

    # --------------------------------------------------------------- sessions

    def refresh_sessions(self) -> None:
        self.sessions.reload()
        self.sessions.set_pending(self.inbox.counts())
        for sid in self.bridge.running_sessions:
            self.sessions.set_running(sid, True)
        if self.session_id:
            self.sidebar.select(self.session_id)

    def show_session(self, session_id: str) -> None:
        """Bring the window up showing ``session_id`` (selected in the sidebar)."""
        self.bring_to_front()
        self.refresh_sessions()
        self.sidebar.select(session_id)
        self.open_session(session_id)

    def bring_to_front(self) -> None:
        self.show()
        self.setWindowState(self.windowState() & ~Qt.WindowState.WindowMinimized)
        self.raise_()
        self.activateWindow()

    def show_message(self, text: str, action: str = "", *, error: bool = True) -> None:
        """A non-fatal message in the banner above the composer."""
        self.banner.show_message(text, action, error=error)

    def _focus_search(self) -> None:
        self.sidebar.search.setFocus()
        self.sidebar.search.selectAll()

    def _on_sidebar_search(self, text: str) -> None:
        self._search = text.strip()  # (the sidebar runs the search itself, debounced)

    def _default_mode_to_picker(self) -> None:
        """A new session starts in the configured permission mode."""
        mode = str(self.settings.get("permissions.mode", "interactive"))
        if self.composer.mode.findText(mode) >= 0:
            self.composer.mode.setCurrentText(mode)

    def _model_for(self, info: SessionInfo | None) -> str:
        """The model a session uses (a new one: the default), as the picker shows it.

        No model at all (none configured, none stored): the first model a configured
        provider offers, or '' (the picker shows its placeholder and Send asks for one).
        """
        model = (info.model if info is not None else "") or self.manager.default_model
        if not model.strip():
            model = next((m for m in self._models if m.strip()), "")
        return model.strip()

    def set_known_models(self, models: list[str]) -> None:
        """The providers' models arrived: list them; keep showing the session's model."""
        self._models = list(models)
        info = self.store.get_session(self.session_id) if self.session_id else None
        current = self.composer.current_model() or self._model_for(info)
        self.composer.set_models(models, current)

    def set_default_model(self, model: str) -> None:
        """A new default model: a new session shows it (an open one keeps its own)."""
        if self.session_id is None:
            self.composer.set_models(list(self._models), model)

    def set_default_mode(self, mode: str) -> None:
        """A new default permission mode: a new session starts in it."""
        if self.session_id is None:
            self.composer.mode.setCurrentText(mode)

    def _on_model_missing(self) -> None:
        self.banner.show_message(self.tr(
            "Choose a model first: type or pick one in the model box next to Send, or "
            "connect a provider in Settings. Your message is still there."))
        self.composer.model.setFocus()

    # -------------------------------------------------------------- workspace

    def session_workspace(self) -> Path:
        """The folder the current session works in (a new one: the default folder)."""
        if self.session_id is not None:
            info = self.store.get_session(self.session_id)
            if info is not None and info.workspace:
                return Path(info.workspace)
        return self._new_workspace or self.default_workspace

    def set_default_workspace(self, folder: Path) -> None:
        """The folder new sessions start in changed (File → Default folder…)."""
        self.default_workspace = folder
        self.workspace_changed()

    def _on_example_chosen(self, text: str) -> None:
        self.composer.edit.setPlainText(text)
        self.composer.edit.moveCursor(QTextCursor.MoveOperation.End)
        self.composer.edit.setFocus()

    def workspace_changed(self) -> None:
        """Show the session's folder (call after the session or the default changed)."""
        folder = self.session_workspace()
        self.view.empty_state.set_folder(folder)
        self.folder_button.setText(self.tr("Folder: {name}").format(name=folder.name or str(folder)))
        tip = self.tr("This session works in {folder}").format(folder=folder)
        self.folder_button.setToolTip(tip)
        self.folder_button.setAccessibleDescription(tip)

    def change_folder(self) -> QFileDialog:
        """Session → Change folder…: pick the folder this session works in."""
        from openworker_qt.ui.workspace import folder_dialog

        dialog = folder_dialog(self, self.tr("Folder for this session"), str(self.session_workspace()))
        dialog.fileSelected.connect(self.set_session_folder)
        dialog.open()
        return dialog

    def set_session_folder(self, folder: str, *, warned: bool = False) -> bool:
        """Move the current session (or the next new one) to ``folder``. The home
        folder (or the top of a disk) is first warned about in the banner, whose
        "Use it anyway" moves the session there."""
        path = Path(folder).expanduser()
        if not path.is_dir():
            self.banner.show_message(self.tr("{folder} is not a folder.").format(folder=folder))
            return False
        path = path.resolve()
        warning = broad_folder_warning(path)
        if warning is not None and not warned and path != self.session_workspace():
            self._broad_folder = str(path)
            self.banner.show_message(warning, self.tr("Use it anyway"))
            return False
        self._broad_folder = None
        if self.session_id is None:
            self._new_workspace = path
        elif self.manager.is_running(self.session_id):
            self.banner.show_message(self.tr(
                "The folder can change once the current turn has ended."), error=False)
            return False
        elif path != self.session_workspace():
            self.store.update_session(self.session_id, workspace=str(path))
            self.manager.forget(self.session_id)  # rebuilt with the new folder and its permissions
            note = (f"[The working folder of this session is now {path}; relative paths refer "
                    "to it.]")
            self.composer.add_attachment(Attachment(
                self.tr("now in {name}/").format(name=path.name or str(path)), str(path), "folder",
                {"type": "text", "text": note}))
        self.workspace_changed()
        self.statusBar().showMessage(self.tr("This session now works in {folder}").format(folder=path), 6000)
        return True

    def _choose_default_folder(self) -> None:
        self.default_folder_requested.emit()

    # ------------------------------------------------------- sessions (cont.)

    def new_session(self) -> None:
        self.session_id = None
        self._new_workspace = None
        self._default_mode_to_picker()
        self.composer.show_model(self._model_for(None))
        self.workspace_changed()
        self.transcript.reset("", [])
        self._show_todos([])
        self._show_deliverables([])
        self.sidebar.list.clearSelection()
        self.sidebar.list.setCurrentIndex(self.sessions.index(-1, 0))
        self.usage.show_session(None)
        self.composer.set_running(False)
        self.banner.hide()
        self.setWindowTitle(self.tr("OpenWorker Qt"))
        self.composer.edit.setFocus()
        self._update_status()

    def focus_composer(self) -> None:
        """The window comes forward with the message box focused (after onboarding)."""
        if self.isVisible():
            self.activateWindow()
            self.raise_()
        self.composer.edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def ensure_session(self) -> str:
        """The current session's id; a new session is created (and stored) if none."""
        if self.session_id is None:
            folder = self._new_workspace or self.default_workspace
            try:
                folder = prepare_folder(str(folder))  # the default is created on first use
            except ValueError as exc:
                self.banner.show_message(str(exc))
            info = self.manager.create_session(
                model=self.composer.current_model() or self._model_for(None),
                persona=self.composer.current_persona(),
                mode=self.composer.mode.currentText(),
                workspace=str(folder),
            )
            self.session_id = info.id
            self._new_workspace = None
            self.usage.show_session(info.id)
            self.transcript.reset(info.id, [])
            self.refresh_sessions()
        return self.session_id

    def open_session(self, session_id: str) -> None:
        if session_id == self.session_id and self.transcript.session_id == session_id:
            return
        self.session_id = session_id
        info = self.store.get_session(session_id)
        if info is None:
            return
        self.setWindowTitle(self.tr("{title} — OpenWorker Qt").format(title=info.title or self.tr("New session")))
        self.composer.set_session_fields(info.persona, info.mode, self._model_for(info))
        self.workspace_changed()
        self.composer.set_running(self.manager.is_running(session_id))
        self.banner.hide()
        self._show_todos([])  # the session's own list follows from the store
        self._show_deliverables([])
        if (refused := self._refused.pop(session_id, None)) is not None:
            self._put_back(session_id, *refused)
        for text, attachments in self._offered.pop(session_id, []):
            self.composer.restore(text, attachments)
        if self._loading is not None and not self._loading.done():
            self._loading.cancel()
        self._loading = asyncio.ensure_future(self._load(session_id))
        self.usage.show_session(session_id)
        self._update_status()

    async def _load(self, session_id: str) -> None:
        # Newest page first so a 10,000-message session paints at once (bench/transcript.py);
        # the older rows are built in a worker afterwards and shown as the user scrolls up.
        updates = self._todo_updates
        made = self._deliverable_updates
        for _attempt in range(5):
            arrived = self._arrived.get(session_id, 0)
            items, pages = await asyncio.to_thread(session_head, self.store, session_id)
            if self.session_id != session_id:
                return
            if self._arrived.get(session_id, 0) == arrived:
                break  # nothing came in while reading: the snapshot is current
        # Painted before the to-do list and the deliverables are read: their queries
        # scan the session's tool results (~0.3 s at 100,000 messages, bench/transcript.py).
        self.transcript.reset(session_id, items, pages=pages)
        for item in self.inbox.pending(session_id):
            self._place_card(item)
        if items and items[-1].kind == "notice" and items[-1].notice_kind == "error":
            self.banner.show_message(items[-1].text, self.tr("Retry"))
        todos, deliverables = await asyncio.gather(
            asyncio.to_thread(stored_todos, self.store, session_id),
            asyncio.to_thread(stored_deliverables, self.store, session_id))
        if self.session_id != session_id:
            return
        if updates == self._todo_updates:
            self.todo.set_items(todos)
        if made == self._deliverable_updates:
            self.artifacts.set_paths(deliverables)

    def _show_todos(self, todos: list[TodoItem]) -> None:
        self._todo_updates += 1
        self.todo.set_items(todos)

    def _show_deliverables(self, paths: list[str]) -> None:
        self._deliverable_updates += 1
        self.artifacts.set_paths(paths)

    def loaded(self) -> bool:
        """True once the current session's rows are on screen (tests, benchmarks)."""
        return self._loading is None or self._loading.done()

    def _on_sidebar_rename(self, session_id: str, title: str) -> None:
        self.store.update_session(session_id, title=title)
        self.refresh_sessions()

    def _on_sidebar_delete(self, session_id: str) -> None:
        if self.manager.is_running(session_id):
            self.manager.stop(session_id)
        self.manager.forget(session_id)
        if session_id == self.session_id:
            self.new_session()
        self.statusBar().showMessage(self.tr("Deleting the session…"))
        task = asyncio.ensure_future(self._delete_session(session_id))
        self._deletions.add(task)
        task.add_done_callback(self._deletions.discard)

    async def _delete_session(self, session_id: str) -> None:
        """The rows go in a worker thread: a session of a million messages (and its
        search index) takes seconds to delete, which the window must not wait for."""
        try:
            await asyncio.to_thread(self.store.delete_session, session_id)
        except Exception:
            log.exception("could not delete session %s", session_id)
            self.show_message(self.tr("The session could not be deleted; it is still there."))
        else:
            self.statusBar().showMessage(self.tr("Session deleted"), 4000)
            from openworker_qt.connectors.browser import forget_session as forget_browser

            await forget_browser(session_id)  # its browser and profile go too
        finally:
            self.refresh_sessions()

    def _set_session_field(self, field: str, value: str) -> None:
        if self.session_id is None:
            return
        self.store.update_session(self.session_id, **{field: value})
        if not self.manager.is_running(self.session_id):
            self.manager.forget(self.session_id)  # rebuilt with the new persona / mode

    def _on_composer_model(self, model: str) -> None:
        model = model.strip()
        if not model or self.session_id is None:
            return
        info = self.store.get_session(self.session_id)
        if info is not None and info.model != model:
            self.manager.switch_model(self.session_id, model)

    # ------------------------------------------------------------------ turns

    def send(self, text: str, parts: list[dict[str, Any]]) -> None:
        model = self.composer.current_model()
        if not model:
            self._on_model_missing()
            return
        sid = self.ensure_session()
        info = self.store.get_session(sid)
        if info is not None and info.model != model and not self.manager.is_running(sid):
            # what the picker shows is what is used (a stored blank model included)
            self.manager.switch_model(sid, model)
        content: str | list[dict[str, object]] = text
        if parts:
            content = [*parts, {"type": "text", "text": text}] if text else list(parts)
        # The user's row appears from the engine's UserMessageAdded event, for a new
        # turn and for steering alike (attachments included).
        paths = {p.get("path") for p in parts}  # (the signal hands over copies of the parts)
        sent = [a for a in self.composer.last_attachments if a.part.get("path") in paths]
        if self.manager.is_running(sid):
            self.manager.send(sid, content)
            self._queued.setdefault(sid, []).append((text, sent))
            if sid == self.transcript.session_id and text:
                self.transcript.add_queued(text)  # shown at once, under the live rows
            return
        self.banner.hide()
        self._unsent[sid] = (text, sent)
        self.manager.send(sid, content)

    def submit_message(self, text: str) -> None:
        """Type ``text`` into the composer and send it, as the user would."""
        self.composer.edit.setPlainText(text)
        self.composer.submit()

    def _put_back(self, session_id: str, text: str, attachments: list[Attachment]) -> None:
        """A message another driver of the session kept from being sent: back into
        the composer, and a banner saying why (no Retry: send it again when free)."""
        if session_id != self.session_id:  # the user moved on: put back on return
            self._refused[session_id] = (text, attachments)
            return
        self.composer.restore(text, attachments)
        self.banner.show_message(self.tr(
            "Your message was not sent: another OpenWorker window or process is working "
            "on this session. It is back in the message box; send it again when that turn "
            "has ended, or stop it there."))

    def stop(self) -> None:
        if self.session_id is not None:
            self.manager.stop(self.session_id)
            self._offer_back_steering(self.session_id)

    def _offer_back_steering(self, session_id: str) -> None:
        """Steering the turn did not take in (it was stopped, or ended first) goes
        back into the message box: nothing typed is lost, and it never goes into
        a later, unrelated turn."""
        taken = self.manager.take_steering(session_id)
        queued = self._queued.pop(session_id, [])
        if not taken:
            return
        back = queued[-len(taken):] if len(queued) >= len(taken) else [
            (content_text(c)[0], []) for c in taken]
        if session_id == self.transcript.session_id:
            self.transcript.drop_queued()
        if session_id != self.session_id:
            self._offered.setdefault(session_id, []).extend(back)
            return
        for text, attachments in back:
            self.composer.restore(text, attachments)
        self.statusBar().showMessage(self.tr(
            "Your message was not sent: the turn ended first. It is back in the message box."), 8000)

    def retry(self) -> None:
        if self.session_id is not None and self.manager.start_retry(self.session_id) is not None:
            self.banner.hide()

    def _on_banner_action(self) -> None:
        if self.banner.action.text() == self.tr("Retry"):
            self.retry()
        elif self.banner.action.text() == self.tr("Use it anyway") and self._broad_folder:
            self.banner.hide()
            self.set_session_folder(self._broad_folder, warned=True)
        elif self.banner.action.text() == self.voice.import_action_text:
            self.banner.hide()
            self.voice.choose_model_file(self)

    # ---------------------------------------------------------------- events

    def _on_bridge_text(self, session_id: str, text: str) -> None:
        self._arrived[session_id] = self._arrived.get(session_id, 0) + 1
        if session_id not in self._answering:  # the first words: no longer "waiting"
            self._answering.add(session_id)
            self._status_detail[session_id] = answering_text(self._model_of(session_id))
        if session_id == self.transcript.session_id:
            self.transcript.append_text(text)

    def _on_bridge_reasoning(self, session_id: str, text: str) -> None:
        self._arrived[session_id] = self._arrived.get(session_id, 0) + 1
        if session_id == self.transcript.session_id:
            self.transcript.append_reasoning(text)

    def _on_bridge_event(self, event: ev.Event) -> None:
        sid = event.session_id
        self._arrived[sid] = self._arrived.get(sid, 0) + 1
        self._answering.discard(sid)  # the next words (if any) start a new answer
        if isinstance(event, ev.ToolStarted):
            self._status_detail[sid] = self._activity(event)
        elif isinstance(event, ev.ProviderRetrying):
            self._status_detail[sid] = self.tr("Waiting for {provider} · retrying").format(
                provider=event.provider)
        elif isinstance(event, ev.AnswerOpened):
            self._status_detail[sid] = answer_opened_text(self._model_of(sid))
        elif isinstance(event, ev.IterationEnded | ev.ToolFinished | ev.AssistantMessage):
            self._status_detail[sid] = waiting_for_model_text(self._model_of(sid))
        if isinstance(event, ev.NoticeAdded) and event.kind == "model_switch" and sid == self.session_id:
            info = self.store.get_session(sid)
            if info is not None and info.model:
                self.composer.show_model(info.model)  # switched elsewhere (CLI, a tool)
        if isinstance(event, ev.TurnStarted):
            self._unsent.pop(sid, None)  # past the lease: the message will be stored
        elif isinstance(event, ev.ErrorOccurred) and event.kind == "busy":
            # Refused before anything was stored: no transcript row, no Retry.
            unsent = self._unsent.pop(sid, None)
            if unsent is not None:
                self._put_back(sid, *unsent)
            elif sid == self.session_id:
                self.banner.show_message(self.tr(
                    "Not started: another OpenWorker window or process is working on this "
                    "session. Try again when that turn has ended, or stop it there."))
            return
        if (isinstance(event, ev.ToolFinished) and event.name == TODO_TOOL and event.status == "ok"
                and sid == self.session_id):
            todos = todos_from_display(event.display)
            if todos is not None:
                self._show_todos(todos)
        if (isinstance(event, ev.ToolFinished) and event.name == DELIVERABLE_TOOL
                and event.status == "ok" and sid == self.session_id):
            made = path_from_display(event.display)
            if made is not None:
                self._deliverable_updates += 1
                self.artifacts.add_path(made)
        if isinstance(event, ev.UserMessageAdded) and event.message.get("source") == "steering":
            if self._queued.get(sid):
                self._queued[sid].pop(0)  # taken in: no longer to offer back
        if sid == self.transcript.session_id:
            if not (isinstance(event, ev.UserMessageAdded) and event.message.get("source") == "steering"
                    and self.transcript.settle_queued(content_text(event.message.get("content"))[0])):
                self.transcript.apply(event)
            if isinstance(event, ev.ErrorOccurred):
                self.banner.show_message(
                    self.tr("The turn failed: {message}").format(message=event.message), self.tr("Retry"))
            elif isinstance(event, ev.TurnEnded) and event.status == "max_iterations":
                self.banner.show_message(event.detail, error=False)
        if isinstance(event, ev.TurnEnded):
            self._offer_back_steering(sid)
        self.usage.on_event(event)
        if isinstance(event, ev.TurnStarted | ev.TurnEnded | ev.UserMessageAdded):
            self.refresh_sessions()  # (the first message names a new session)
        self._update_status()

    def _on_bridge_running_changed(self, session_id: str, running: bool) -> None:
        self.sessions.set_running(session_id, running)
        if running:
            self._turn_started[session_id] = time.monotonic()
            self._status_detail[session_id] = waiting_for_model_text(self._model_of(session_id))
            self._tick.start()
        else:
            self._turn_started.pop(session_id, None)
            self._status_detail.pop(session_id, None)
            if not self._turn_started:
                self._tick.stop()
        if session_id == self.session_id:
            self.composer.set_running(running)
        self._update_status()

    def _model_of(self, session_id: str) -> str:
        if session_id == self.session_id:
            return self.composer.current_model()
        return ""

    def _activity(self, event: ev.ToolStarted) -> str:
        """What a running tool does, in words ("Running pytest…")."""
        arguments: dict[str, object] = {}
        if event.session_id == self.transcript.session_id:
            row = self.transcript.tool_row(event.call_id)
            if row is not None:
                arguments = self.transcript.item(row).arguments
        return activity_text(event.name, arguments)

    def _update_status(self) -> None:
        sid = self.session_id
        waiting = self.inbox.pending(sid) if sid is not None else []
        if waiting:  # the turn waits on the user, not on the model
            if any(item.kind == "approval" for item in waiting):
                self.status_label.setText(self.tr("Waiting for your approval"))
            else:
                self.status_label.setText(self.tr("Waiting for your answer"))
        elif sid is not None and sid in self._turn_started:
            secs = int(time.monotonic() - self._turn_started[sid])
            detail = self._status_detail.get(sid, "") or self.tr("Working")
            self.status_label.setText(self.tr("{detail} · {secs} s").format(detail=detail, secs=secs))
        else:
            others = len(self._turn_started)
            if others == 1:
                self.status_label.setText(self.tr("Another session is working"))
            elif others:
                self.status_label.setText(self.tr("{n} other sessions are working").format(n=others))
            else:
                self.status_label.setText(self.tr("Ready"))
        self.status_label.setAccessibleDescription(self.status_label.text())

    # ------------------------------------------------------------- approvals

    def _on_inbox_item_added(self, item: InboxItem) -> None:
        spawn(self._present(item))

    async def _present(self, item: InboxItem) -> None:
        preview: str | None = None
        if item.kind == "approval" and item.tool in PREVIEWED_TOOLS:
            info = self.store.get_session(item.session_id)
            workspace = Path(info.workspace) if info and info.workspace else self.default_workspace
            with contextlib.suppress(Exception):
                preview = await asyncio.to_thread(
                    approval_preview, item.tool, item.arguments, workspace)
        if self.inbox.get(item.id) is None:
            return  # answered while we read the file
        self._previews[item.id] = preview
        card = self._place_card(item) if item.session_id == self.transcript.session_id else None
        if card is not None and self.watching(item.session_id):
            # The user is looking at the session: its card is the one place to
            # answer (no dialog over it); it takes the focus unless they are typing.
            self._focus_card(card)
            return
        info = self.store.get_session(item.session_id)
        attended = info is not None and not info.unattended
        if item.kind == "approval" and self.show_dialogs and attended:
            self._open_dialog(item)

    def watching(self, session_id: str) -> bool:
        """Whether the user is looking at ``session_id`` now: this window is shown,
        not minimised, the active window, and shows that session's transcript. An ask
        of a session watched gets its inline card only; any other gets a dialog."""
        return (self.isVisible() and not self.isMinimized() and self.isActiveWindow()
                and session_id == self.transcript.session_id)

    def _focus_card(self, card: QWidget) -> None:
        """Give ``card`` the keyboard focus (its Approve button, or its answer field),
        unless the user is typing: a draft being written keeps its focus, so a
        keystroke meant for it never answers the ask (Ctrl+Shift+A still does)."""
        focus = QApplication.focusWidget()
        if isinstance(focus, QLineEdit | QPlainTextEdit | QTextEdit) and not focus.isReadOnly():
            typed = focus.text() if isinstance(focus, QLineEdit) else focus.toPlainText()
            if typed.strip():
                return
        card.setFocus(Qt.FocusReason.OtherFocusReason)

    def _place_card(self, item: InboxItem) -> QWidget | None:
        """The item's inline card on its tool row (None: the row is not on screen)."""
        call_id = item.tool_call_id or ""
        if (placed := self.view.card_for(call_id)) is not None:
            return placed
        row = self.transcript.mark_awaiting(call_id, item.id, reason=item.reason,
                                            target=item.target or "")
        if row is None:
            return None
        card: ApprovalCard | QuestionCard
        if item.kind == "approval":
            card = ApprovalCard(approval_request(item), self._previews.get(item.id))
        else:
            card = QuestionCard(question_request(item))
        card.answered.connect(lambda v, i=item.id: self._answer_item(i, v, "card"))
        self.view.set_card(call_id, card)
        self.view.scrollTo(self.transcript.index(row, 0))
        return card

    def _on_call_located(self, call_id: str) -> None:
        """A waiting call's row was in an older page, read now: its card goes on it."""
        for item in self.inbox.pending(self.transcript.session_id):
            if (item.tool_call_id or "") == call_id:
                self._place_card(item)

    def _open_dialog(self, item: InboxItem) -> None:
        if item.id in self.dialogs:
            return
        info = self.store.get_session(item.session_id)
        dialog = ApprovalDialog(approval_request(item), self._previews.get(item.id),
                                session_title=info.title if info else "", parent=self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.answered.connect(lambda v, i=item.id: self._answer_item(i, v, "dialog"))
        dialog.destroyed.connect(lambda _=None, i=item.id: self.dialogs.pop(i, None))
        self.dialogs[item.id] = dialog
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()

    def _answer_item(self, item_id: int, resolution: str, by: str) -> None:
        """Answer from a card or dialog; an answer to an item the app had already
        closed (noticed late, from another process) says why it changed nothing."""
        if self.answers.resolve(item_id, resolution, by=by):
            return
        current = self.inbox.inbox.get(item_id)
        closed = closed_text(current) if current is not None else None
        if closed:
            self.banner.show_message(closed, error=False)

    def _on_inbox_item_resolved(self, item: InboxItem) -> None:
        self._previews.pop(item.id, None)
        dialog = self.dialogs.pop(item.id, None)
        if dialog is not None:
            dialog.dismiss()
        call_id = item.tool_call_id or ""
        if item.session_id != self.transcript.session_id:
            return
        self.transcript.mark_resolved(call_id, item.id)
        if self.view.card_for(call_id) is not None:
            self.view.set_card(call_id, None)
            self.composer.edit.setFocus()

    def _on_inbox_pending_changed(self) -> None:
        self.sessions.set_pending(self.inbox.counts())
        self._update_status()

    def answer_focused(self, outcome: str) -> None:
        """Approve/deny the request of the focused card, or else the oldest in this session."""
        focus = self.focusWidget()
        for card in self.view.cards():
            if isinstance(card, ApprovalCard) and focus is not None and card.isAncestorOf(focus):
                req = card.panel.request
                item = self.inbox.find(req.session_id, req.call_id)
                if item is not None:
                    self.answers.resolve(item.id, outcome, by="shortcut")
                return
        for item in self.inbox.pending(self.session_id, kind="approval"):
            self.answers.resolve(item.id, outcome, by="shortcut")
            return

    # ---------------------------------------------------------- attachments

    def pick_attachments(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, self.tr("Attach files"))
        if paths:
            self.add_paths(paths)

    def add_paths(self, paths: list[str]) -> None:
        """Files → attachments (read in a worker); folders → a grant prompt
        (:attr:`folder_grant_requested`; the answer comes back to :meth:`apply_folder_grant`)."""
        files = [p for p in paths if not Path(p).is_dir()]
        for folder in (p for p in paths if Path(p).is_dir()):
            self.folder_grant_requested.emit(folder)
        if files:
            spawn(self._attach(files))

    def apply_folder_grant(self, folder: str, *, writable: bool) -> str:
        """Grant ``folder`` to the current session (created if needed) only.

        The session's permission engine reads its granted roots live, so a writable
        grant takes effect on the next check; a chip tells the model with the next
        message. Returns the session id.
        """
        session_id = self.ensure_session()
        SessionControl(self.store, session_id).grant_directory(folder, writable)
        part = grant_part(folder, writable=writable)
        self.composer.add_attachment(Attachment(str(part["name"]), folder, "folder", part))
        return session_id

    async def _attach(self, paths: list[str]) -> None:
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
            self.banner.show_message("\n".join(problems))

    async def _model_sees_images(self) -> bool:
        """Whether the chosen model can see images, as its provider says (resolved in a
        worker: a first resolve reads a key and imports an SDK). Unknown: assume yes."""
        model = self.composer.current_model()
        if not model:
            return True

        def vision() -> bool:
            provider, model_id = self.manager.resolver.resolve(model)
            return bool(provider.capabilities(model_id).vision)

        try:
            return await asyncio.to_thread(vision)
        except Exception:
            log.debug("could not read the capabilities of %s", model, exc_info=True)
            return True

    def drop_highlight(self) -> DropHighlight:
        """The overlay shown while files are dragged over the window (made on first use)."""
        if self._drop_highlight is None:
            self._drop_highlight = DropHighlight(self.centralWidget() or self)
        return self._drop_highlight

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            accept_copy(event)  # never Move: the source could delete the original
            self.drop_highlight().begin()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if event.mimeData().hasUrls():
            accept_copy(event)

    def dragLeaveEvent(self, event: QDragLeaveEvent) -> None:
        self.drop_highlight().end()
        super().dragLeaveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self.drop_highlight().end()
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if not paths:
            self.banner.show_message(self.tr("Only local files and folders can be dropped here."))
            return
        accept_copy(event)
        self.add_paths(paths)

    # ------------------------------------------------------------------ close

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._keeps_running():
            event.ignore()
            self.hide()
            return
        event.accept()
        self.quit_requested.emit()

    def confirm(self, title: str, text: str) -> bool:
        return QMessageBox.question(self, title, text) == QMessageBox.StandardButton.Yes


class WindowSessions:
    """Sessions started outside the main window (quick ask, onboarding's demo):
    created through the :class:`SessionManager`, shown in ``window``.

    It is the :class:`~openworker_qt.ui.ports.QuickAskSessions` and the
    :class:`~openworker_qt.ui.ports.DemoSessions` of the desktop app.
    """

    def __init__(self, manager: SessionManager, window: MainWindow) -> None:
        self.manager = manager
        self.window = window

    def new_session_model(self) -> str:
        # The default model, else what the window's picker shows; never a blank one.
        return self.manager.default_model.strip() or self.window.composer.current_model()

    def new_session_folder(self) -> Path:
        return self.window.default_workspace

    def create_session(self, *, model: str, workspace: str, meta: dict[str, Any],
                       title: str = "", persona: str = "", mode: str = "") -> str:
        optional = {"title": title, "persona": persona, "mode": mode}
        fields: dict[str, object] = {k: v for k, v in optional.items() if v}
        return self.manager.create_session(model=model, workspace=workspace, meta=meta, **fields).id

    def grant_folder(self, session_id: str, folder: str, *, writable: bool) -> None:
        SessionControl(self.manager.store, session_id).grant_directory(folder, writable)

    def send(self, session_id: str, content: Any) -> None:
        self.manager.send(session_id, content)
        self.window.refresh_sessions()

    def show_session(self, session_id: str, *, message: str = "") -> None:
        self.window.show_session(session_id)
        if message:
            self.window.submit_message(message)

    def show_problem(self, text: str) -> None:
        self.window.show_message(text)
