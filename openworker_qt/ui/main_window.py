"""The main window: sessions sidebar, transcript, composer, banner, status.

It talks to the core only through the :class:`~openworker_qt.core.sessions.SessionManager`
(send, stop, retry, switch model), the :class:`EngineBridge` (what happens),
the :class:`InboxBridge` (what waits for the user) and an
:class:`~openworker_qt.ui.ports.Answers` (who takes an answer); settings come
from a :class:`SettingsStore`. It never sees the app: what only the app can do
(open the inbox, settings or quick ask, ask how to grant a dropped folder, the
default-folder question, quit) it asks for with signals, and the app calls its
public methods (:meth:`MainWindow.show_session`, :meth:`~MainWindow.set_known_models`,
:meth:`~MainWindow.set_default_workspace`, …).

The window lays out its parts, builds the menus and connects the signals
(:meth:`MainWindow._connect`); the jobs live beside it: reading a stored session
while its live events arrive (:mod:`~openworker_qt.ui.session_loader`), messages
refused or not taken in put back (:mod:`~openworker_qt.ui.outbox`), the status
line (:mod:`~openworker_qt.ui.status_line`), the inbox's cards and dialogs
(:mod:`~openworker_qt.ui.inbox_presenter`) and the banner
(:mod:`~openworker_qt.ui.banner`).

Signals:
    inbox_requested(): Window → Inbox (Ctrl+I).
    automations_requested(): Window → Automations (Ctrl+Shift+U).
    quick_ask_requested(): Window → Quick ask.
    settings_requested(): File → Settings… (Ctrl+,).
    quit_requested(): File → Quit, or the window closed without a tray icon.
    default_folder_requested(): File → Default folder for new sessions….
    folder_grant_requested(str): a folder was dropped or attached; ask how to grant it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QKeySequence,
    QPalette,
)
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.core.sessions import SessionManager
from openworker_qt.qt.bridge import EngineBridge
from openworker_qt.qt.hotkey import quick_ask_sequence
from openworker_qt.qt.inbox_bridge import InboxBridge
from openworker_qt.qt.session_model import SessionListModel
from openworker_qt.qt.settings_store import SettingsStore
from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.qt.usage_reader import UsageReader
from openworker_qt.ui import banner as actions
from openworker_qt.ui import design, tab_ring
from openworker_qt.ui.artifacts_panel import ArtifactsPanel
from openworker_qt.ui.attachments import Attachment
from openworker_qt.ui.banner import Banner
from openworker_qt.ui.composer import Composer
from openworker_qt.ui.file_intake import FileIntake
from openworker_qt.ui.folders import (  # (tiny: a first send imports nothing)
    prepare_folder,
)
from openworker_qt.ui.grant_dialog import grant_part
from openworker_qt.ui.inbox_presenter import InboxPresenter
from openworker_qt.ui.live_events import LiveEvents
from openworker_qt.ui.motion import ToolProgress
from openworker_qt.ui.outbox import Outbox
from openworker_qt.ui.ports import Answers
from openworker_qt.ui.session_folder import FolderButton
from openworker_qt.ui.session_header import IconWhenNarrow, SessionHeader, SidebarCollapse
from openworker_qt.ui.session_loader import SessionLoader
from openworker_qt.ui.session_pickers import SessionPickers
from openworker_qt.ui.sidebar import Sidebar
from openworker_qt.ui.status_line import StatusLine
from openworker_qt.ui.team_window import TeamPart
from openworker_qt.ui.todo_panel import TodoPanel
from openworker_qt.ui.transcript_view import TranscriptView
from openworker_qt.ui.update_notice import AutoUpdateCheck, UpdateNotice
from openworker_qt.ui.usage_label import UsageLabel
from openworker_qt.ui.voice import VoiceController
from openworker_qt.ui.voice_answers import VoiceAnswers
from openworker_qt.ui.window_state import give_back_width, remember_geometry

log = logging.getLogger(__name__)

#: The session list's narrowest width (its titles stay readable).
SIDEBAR_MIN_WIDTH = 200


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
        self.setObjectName("mainWindow")
        self.setWindowTitle(self.tr("OpenWorker Qt"))
        self.setAccessibleName(self.tr("OpenWorker Qt main window"))
        self.session_id: str | None = None
        self._deletions: set[asyncio.Future[None]] = set()  # sessions being deleted
        self._search = ""

        self.sessions = SessionListModel(self.store, self, running=manager.running_sessions)
        self.transcript = TranscriptModel(self)
        self.transcript.store = self.store  # a session that grows live is paged from it
        self.sidebar = Sidebar(self.sessions)
        self.view = TranscriptView()
        self.view.setModel(self.transcript)
        self.tool_progress = ToolProgress(self.view, self.view.delegate.tool_card_rect)
        self.tool_progress.watch(self.transcript)
        self.banner = Banner()
        self.composer = Composer()
        self.todo = TodoPanel()
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.setSpacing(0)
        self.header_slot = rl  # (the header goes on top once the deliverables panel exists)
        rl.addWidget(self.view, 1)
        rl.addWidget(self.banner)
        rl.addWidget(self.todo)
        rl.addWidget(self.composer)
        split = QSplitter()
        split.addWidget(self.sidebar)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        # The session list keeps a readable width (at 800 px it was squeezed to a few
        # letters): the composer's chips give way instead; Ctrl+B hides the list.
        self.sidebar.setMinimumWidth(SIDEBAR_MIN_WIDTH)
        split.setCollapsible(0, False)
        split.setSizes([240, 760])
        self.setCentralWidget(split)
        self.artifacts = ArtifactsPanel()
        self.artifacts_dock = QDockWidget(self.tr("Deliverables"), self)
        self.artifacts_dock.setObjectName("artifactsDock")
        self.artifacts_dock.setWidget(self.artifacts)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.artifacts_dock)
        self.resizeDocks([self.artifacts_dock], [380], Qt.Orientation.Horizontal)
        self.artifacts_dock.hide()
        give_back_width(self, self.artifacts_dock)  # (it widened the window for good)
        self.collapse = SidebarCollapse(self.sidebar, settings.config_dir, self)
        IconWhenNarrow(self.sidebar.new_button)  # a squeezed list: no "New sessio"
        self.header = SessionHeader(self.composer, self.collapse,
                                    self.artifacts_dock.toggleViewAction(), title=self._current_title)
        self.header_slot.insertWidget(0, self.header)
        self.composer.setAutoFillBackground(True)  # the page runs on under the message box
        self.composer.setBackgroundRole(QPalette.ColorRole.Base)
        for strip in (self.header, self.view, self.composer):  # one quiet grey page
            design.on_page(strip)
        self.teams = TeamPart(  # the team board dock; team personas start a team
            self, inbox=inbox, answers=answers, current=lambda: self.session_id, open_session=self.open_session,
            persona=self.composer.current_persona, model=self.composer.current_model,
            workspace=lambda: str(self.folder_button.new_folder or self.default_workspace),
            refresh=self.refresh_sessions, say=self.show_message, place=self.sidebar.add_section)
        self.pickers = SessionPickers(self.composer, manager, settings,
                                      current=lambda: self.session_id,
                                      warn=self.banner.show_message, parent=self)
        self.status_line = StatusLine(
            current=lambda: self.session_id, running=manager.running_sessions,
            since=manager.running_since, pending=self.inbox.pending,
            model_of=self.pickers.model_of, arguments_of=self._arguments_of)
        self.statusBar().addWidget(self.status_line, 1)
        self.usage = UsageLabel(UsageReader(self.store.db, lambda: self.settings.config.get("prices")))
        self.statusBar().addPermanentWidget(self.usage)
        self.folder_button = FolderButton(
            self, manager, self.composer, self.banner, current=lambda: self.session_id,
            default_folder=lambda: self.default_workspace, changed=self.workspace_changed,
            note=lambda text: self.statusBar().showMessage(text, 6000))
        self.change_folder_action = self.folder_button.change_action
        self.statusBar().addPermanentWidget(self.folder_button)
        # weekly update checks when the user turned them on; a quiet note, never an install
        self.update_notice = UpdateNotice()
        self.update_notice.clicked.connect(self.check_for_updates)
        self.statusBar().addPermanentWidget(self.update_notice)
        self.auto_updates = AutoUpdateCheck(self, settings, settings.data_dir / "updates.json")
        self.auto_updates.available.connect(self.update_notice.show_version)
        self.voice = VoiceController.for_settings(self.composer.mic, self.composer.edit,
                                                  settings, self)
        self.voice_answers = VoiceAnswers(self)  # "approve"/"deny" said to a focused approval
        self.voice.intercept = self.voice_answers.offer
        self.cards = InboxPresenter(
            self, store=self.store, inbox=inbox, answers=answers, transcript=self.transcript,
            view=self.view, watching=self.watching, shows=self.shows,
            default_folder=lambda: self.default_workspace,
            say=lambda text: self.banner.show_message(text, error=False),
            answered=self.composer.focus_message)
        self.loader = SessionLoader(self.store, self.transcript, self.todo, self.artifacts,
                                    current=lambda: self.session_id, painted=self._on_painted)
        self.intake = FileIntake(self.composer, manager.resolver, warn=self.banner.show_message,
                                 parent=self)
        self.intake.folder_offered.connect(self.folder_grant_requested)
        self.intake.watch_drops(self, split)
        self.outbox = Outbox(manager, self.composer, self.transcript,
                             current=lambda: self.session_id, shows=self.shows,
                             warn=self.banner.show_message,
                             note=lambda text: self.statusBar().showMessage(text, 8000),
                             parent=self)
        self._build_menus()
        self._connect()
        previous: QWidget = self.sidebar.tab_chain()[0]
        for widget in [*self.sidebar.tab_chain()[1:], self.view, *self.view.empty_state.examples]:
            self.setTabOrder(previous, widget)  # then the getting-started examples
            previous = widget
        # then the message box and the composer's controls, left to right
        self.composer.chain_tab_order(previous)
        self.workspace_changed()
        self.resize(1040, 720)
        remember_geometry(self, "main", settings.config_dir)
        self.refresh_sessions()
        self.composer.set_models([], self.pickers.model_for(None))
        self.pickers.show_default_mode()

    # ------------------------------------------------------------------ keyboard

    def tab_ring(self) -> list[QWidget]:
        """What Tab visits, in order, and from the last back to the first: the
        sidebar, the transcript, the getting-started examples, the message box and
        the composer's controls left to right, the session's folder, then the open
        side panels (cards in the transcript keep Qt's order within the view)."""
        return tab_ring.ring([*self.sidebar.tab_chain(), self.view, *self.view.empty_state.examples,
                              *self.composer.tab_chain(), self.folder_button],
                             self.findChildren(QDockWidget))

    def focusNextPrevChild(self, next: bool) -> bool:
        return (tab_ring.step(self.tab_ring(), next, own_order=self.view)
                or super().focusNextPrevChild(next))

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
        self._action(f, self.tr("&Search sessions"), "Ctrl+K", self.sidebar.focus_search, "searchSessions")
        self._action(f, self.tr("&Attach files…"), "Ctrl+O", self.pick_attachments, "attach")
        self._action(f, self.tr("Default &folder for new sessions…"), None,
                     self.default_folder_requested, "defaultFolder")
        f.addSeparator()
        self._action(f, self.tr("Se&ttings…"), "Ctrl+,", self.settings_requested, "settings")
        f.addSeparator()
        self._action(f, self.tr("&Quit"), "Ctrl+Q", self.quit_requested, "quit")
        s = bar.addMenu(self.tr("&Session"))
        self._action(s, self.tr("&Send"), "Ctrl+Return", self.composer.submit, "send")
        self.stop_action = self._action(s, self.tr("S&top"), "Ctrl+.", self.stop, "stop")
        self._action(s, self.tr("&Retry"), "Ctrl+R", self.retry, "retry")
        s.addSeparator()
        s.addAction(self.change_folder_action)
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
        self._action(w, self.tr("&Focus message box"), "Ctrl+L", self.composer.focus_message,
                     "focusComposer")
        deliverables = self.artifacts_dock.toggleViewAction()
        deliverables.setText(self.tr("&Deliverables"))
        deliverables.setShortcut(QKeySequence("Ctrl+Shift+E"))
        deliverables.setObjectName("deliverables")
        w.addAction(deliverables)
        w.addAction(self.collapse.action)
        h = self.menuBar().addMenu(self.tr("&Help"))
        self._action(h, self.tr("Check for &updates…"), None, self.check_for_updates, "checkUpdates")

    def check_for_updates(self) -> None:
        """Help ▸ Check for updates: a signed manifest read in a worker (ui/updates.py)."""
        from openworker_qt.ui.updates import UpdatePrompt  # the check's code, on first use

        self.update_prompt = UpdatePrompt(self, str(self.settings.get("updates.url") or ""),
                                          key_file=self.auto_updates.key_file)
        self._update_task = asyncio.ensure_future(self.update_prompt.run())

    def _connect(self) -> None:
        self.live = LiveEvents(
            self.bridge, store=self.store, transcript=self.transcript, sessions=self.sessions,
            composer=self.composer, banner=self.banner, status=self.status_line,
            loader=self.loader, outbox=self.outbox, usage=self.usage,
            current=lambda: self.session_id, shows=self.shows, listed=self.refresh_sessions,
            parent=self)
        self.live.first_deliverable.connect(self.artifacts_dock.show)  # its panel comes up
        inbox = self.inbox
        inbox.pending_changed.connect(self._on_inbox_pending_changed)
        # Sessions created or renamed by another process (the CLI) appear in the list.
        inbox.database_changed.connect(self.refresh_sessions)
        self.sidebar.session_selected.connect(self.open_session)
        self.sidebar.new_requested.connect(self.new_session)
        self.sidebar.rename_requested.connect(self._on_sidebar_rename)
        self.sidebar.delete_requested.connect(self._on_sidebar_delete)
        self.sidebar.pin_requested.connect(self.manager.set_pinned)
        self.sidebar.search_changed.connect(self._on_sidebar_search)
        self.sidebar.exported.connect(lambda path: self.statusBar().showMessage(
            self.tr("Exported to {path}").format(path=path), 6000))
        self.sidebar.export_failed.connect(self.show_message)
        self.composer.submitted.connect(self.send)
        self.composer.stop_requested.connect(self.stop)
        self.composer.attach_requested.connect(self.pick_attachments)
        self.view.retry_requested.connect(self.retry)
        self.view.resend_requested.connect(self.submit_message)
        self.view.edit_requested.connect(self.composer.set_draft)
        self.view.file_open_requested.connect(self._open_file)
        self.view.empty_state.example_chosen.connect(self.composer.set_draft)
        self.banner.action_triggered.connect(self._on_banner_action)
        self.voice.message.connect(lambda text: self.statusBar().showMessage(text, 6000))
        self.voice.problem.connect(lambda text, no_model: self.banner.show_message(
            text, self.voice.import_action_text if no_model else "",
            action_id=actions.IMPORT_VOICE_MODEL, error=False))

    # --------------------------------------------------------------- sessions

    def refresh_sessions(self) -> None:
        self.sessions.reload()
        self.sessions.set_pending(self.inbox.counts())
        if self.session_id:
            self.sidebar.select(self.session_id)
        self.header.refresh()

    def _current_title(self) -> str:
        info = self.store.get_session(self.session_id) if self.session_id else None
        return info.title if info is not None else ""

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

    def _open_file(self, path: str) -> None:
        """A file chip's "Open": its preview in the deliverables panel."""
        from openworker_qt.ui import file_chip  # (with the first chip: not at start)

        file_chip.open_file(path, self.artifacts, self.artifacts_dock)

    def show_message(self, text: str, *, error: bool = True) -> None:
        """A non-fatal message in the banner above the composer."""
        self.banner.show_message(text, error=error)

    def _on_sidebar_search(self, text: str) -> None:
        self._search = text.strip()  # (the sidebar runs the search itself, debounced)

    def set_known_models(self, models: list[str]) -> None:
        """The providers' models arrived: list them; keep showing the session's model."""
        self.pickers.set_known_models(models)

    def set_default_model(self, model: str) -> None:
        """A new default model: a new session shows it (an open one keeps its own)."""
        self.pickers.set_default_model(model)

    def set_default_mode(self, mode: str) -> None:
        """A new default permission mode: a new session starts in it."""
        self.pickers.set_default_mode(mode)

    # -------------------------------------------------------------- workspace

    def session_workspace(self) -> Path:
        """The folder the current session works in (a new one: the default folder)."""
        return self.folder_button.folder()

    def set_default_workspace(self, folder: Path) -> None:
        """The folder new sessions start in changed (File → Default folder…)."""
        self.default_workspace = folder
        self.workspace_changed()

    def workspace_changed(self) -> None:
        """Show the session's folder (call after the session or the default changed)."""
        self.view.empty_state.set_folder(self.folder_button.refresh())

    def change_folder(self) -> QFileDialog:
        """Session → Change folder…: pick the folder this session works in."""
        return self.folder_button.change()

    def set_session_folder(self, folder: str, *, warned: bool = False) -> bool:
        """Move the current session (or the next new one) to ``folder`` (see
        :meth:`FolderButton.move_to`)."""
        return self.folder_button.move_to(folder, warned=warned)

    # ------------------------------------------------------- sessions (cont.)

    def new_session(self) -> None:
        self.session_id = None
        self.folder_button.new_folder = None
        self.pickers.show_new()
        self.workspace_changed()
        self.transcript.reset("", [])
        self.loader.clear()
        self.teams.session_shown(None)
        self.sidebar.clear_selection()
        self.usage.show_session(None)
        self.composer.set_running(False)
        self.banner.hide()
        self.setWindowTitle(self.tr("OpenWorker Qt"))
        self.header.refresh()
        self.composer.focus_message()
        self.status_line.refresh()

    def focus_composer(self) -> None:
        """The window comes forward with the message box focused (after onboarding)."""
        if self.isVisible():
            self.activateWindow()
            self.raise_()
        self.composer.focus_message()

    def ensure_session(self) -> str:
        """The current session's id; a new session is created (and stored) if none."""
        if self.session_id is None:
            folder = self.folder_button.new_folder or self.default_workspace
            try:
                folder = prepare_folder(str(folder))  # the default is created on first use
            except ValueError as exc:
                self.banner.show_message(str(exc))
            info = self.manager.create_session(
                model=self.composer.current_model() or self.pickers.model_for(None),
                persona=self.composer.current_persona(),
                mode=self.composer.current_mode(),
                workspace=str(folder),
            )
            self.session_id = info.id
            self.folder_button.new_folder = None
            self.usage.show_session(info.id)
            self.transcript.reset(info.id, [])
            self.refresh_sessions()
        return self.session_id

    def open_session(self, session_id: str) -> None:
        if self.shows(session_id):
            return
        self.session_id = session_id
        info = self.store.get_session(session_id)
        if info is None:
            return
        self.setWindowTitle(self.tr("{title} — OpenWorker Qt").format(title=info.title or self.tr("New session")))
        self.pickers.show_session(info)
        self.header.refresh()
        self.workspace_changed()
        self.composer.set_running(session_id in self.manager.running_sessions())
        self.banner.hide()
        self.loader.load(session_id)  # (its to-do list and deliverables follow from the store)
        self.teams.session_shown(session_id)
        self.outbox.opened(session_id)
        self.usage.show_session(session_id)
        self.status_line.refresh()

    def _on_painted(self, session_id: str, items: Sequence[TranscriptItem]) -> None:
        """A stored session's rows are on screen: the cards of its asks go on them,
        and a turn that ended in an error offers Retry."""
        self.cards.place_pending(session_id)
        if items and items[-1].kind == "notice" and items[-1].notice_kind == "error":
            self.banner.show_message(items[-1].text, self.tr("Retry"), action_id=actions.RETRY)

    def loaded(self) -> bool:
        """True once the current session's rows are on screen (tests, benchmarks)."""
        return self.loader.loaded()

    def _on_sidebar_rename(self, session_id: str, title: str) -> None:
        self.manager.rename(session_id, title)
        self.refresh_sessions()

    def _on_sidebar_delete(self, session_id: str) -> None:
        if session_id == self.session_id:
            self.new_session()
        self.statusBar().showMessage(self.tr("Deleting the session…"))
        task = asyncio.ensure_future(self._delete_session(session_id))
        self._deletions.add(task)
        task.add_done_callback(self._deletions.discard)

    async def _delete_session(self, session_id: str) -> None:
        """The rows go in a worker thread: a session of a million messages (and its
        search index) takes seconds to delete, which the window must not wait for."""
        from openworker_qt.qt.session_deletion import delete_session

        try:
            await delete_session(self.manager, session_id)  # its turn, rows, browser profile
        except Exception:
            log.exception("could not delete session %s", session_id)
            self.show_message(self.tr("The session could not be deleted; it is still there."))
        else:
            self.statusBar().showMessage(self.tr("Session deleted"), 4000)
        finally:
            self.refresh_sessions()

    # ------------------------------------------------------------------ turns

    def send(self, text: str, parts: list[dict[str, Any]]) -> None:
        if self.teams.send(text):  # a team persona starts a team; a team's session talks to it
            return
        model = self.composer.current_model()
        if not model:
            self.pickers.model_missing()
            return
        if self.outbox.send(self.ensure_session(), model, text, parts):
            self.banner.hide()  # a new turn
            self.view.jump_to_latest()  # sent while scrolled up: show it, and its answer

    def submit_message(self, text: str) -> None:
        """Type ``text`` into the composer and send it, as the user would."""
        self.composer.set_draft(text)
        self.composer.submit()

    def stop(self) -> None:
        if self.session_id is not None:
            self.manager.stop(self.session_id)
            self.outbox.offer_back(self.session_id)

    def retry(self) -> None:
        if self.session_id is not None and self.manager.start_retry(self.session_id) is not None:
            self.banner.hide()

    def _on_banner_action(self, action: str) -> None:
        if action == actions.RETRY:
            self.retry()
        elif action == actions.USE_FOLDER:
            self.folder_button.use_warned()
        elif action == actions.IMPORT_VOICE_MODEL:
            self.banner.hide()
            self.voice.choose_model_file(self)

    # ---------------------------------------------------------------- events

    def _arguments_of(self, session_id: str, call_id: str) -> dict[str, object]:
        """A tool call's arguments, when its row is on screen (else none)."""
        if self.shows(session_id):
            row = self.transcript.tool_row(call_id)
            if row is not None:
                return self.transcript.item(row).arguments
        return {}

    # ------------------------------------------------------------- approvals

    def watching(self, session_id: str) -> bool:
        """Whether the user is looking at ``session_id`` now: this window is shown,
        not minimised, the active window, and shows that session's transcript. An ask
        of a session watched gets its inline card only; any other gets a dialog."""
        return (self.isVisible() and not self.isMinimized() and self.isActiveWindow()
                and self.shows(session_id))

    def shows(self, session_id: str) -> bool:
        """Whether ``session_id`` is the current session and its rows are on screen.
        :attr:`session_id` is the one word on which session is current; the
        transcript model's own only says whose rows it holds (it lags behind while
        the next session's rows are read). Events of any other session, e.g. one
        just left while the next loads, paint nothing here."""
        return bool(session_id) and session_id == self.session_id == self.transcript.session_id

    def _on_inbox_pending_changed(self) -> None:
        self.sessions.set_pending(self.inbox.counts())
        self.status_line.refresh()

    def answer_focused(self, outcome: str) -> None:
        """Approve/deny the request of the focused card, or else the oldest in this session."""
        self.cards.answer_focused(outcome, self.focusWidget(), self.session_id)

    # ---------------------------------------------------------- attachments

    def pick_attachments(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, self.tr("Attach files"))
        if paths:
            self.add_paths(paths)

    def add_paths(self, paths: list[str]) -> None:
        """Files → attachments (read in a worker); folders → a grant prompt
        (:attr:`folder_grant_requested`; the answer comes back to :meth:`apply_folder_grant`)."""
        self.intake.add_paths(paths)

    def apply_folder_grant(self, folder: str, *, writable: bool) -> str:
        """Grant ``folder`` to the current session (created if needed) only.

        The session's permission engine reads its granted roots live, so a writable
        grant takes effect on the next check; a chip tells the model with the next
        message. Returns the session id.
        """
        session_id = self.ensure_session()
        self.manager.grant_folder(session_id, folder, writable=writable)
        part = grant_part(folder, writable=writable)
        self.composer.add_attachment(Attachment(str(part["name"]), folder, "folder", part))
        return session_id

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
