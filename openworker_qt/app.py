"""The desktop app's composition root: QApplication, qasync loop, the window surface.

The core services come from a :class:`~openworker_qt.runtime.Runtime`;
:class:`DesktopApp` adds only the window's surface: its session manager's
policy (every approval and question is an inbox item, answered from any
surface), the :class:`EngineBridge`, the main window and the satellites (tray,
inbox window, quick ask, notifications, keep-awake).

The windows never see the app: each is built here from the services it uses
(the bridges, the session manager, a :class:`SettingsStore`, the
:class:`ModelCatalog`) and the narrow protocols of ``ui/ports.py``
(:class:`InboxAnswers` answers inbox items, :class:`WindowSessions` starts
sessions from quick ask and the demo), and what they ask of the app arrives
as signals connected here (the notifications' too:
:class:`~openworker_qt.desktop_notices.DesktopNotices`). Tests and the
screenshot script build a ``DesktopApp`` directly;
:func:`openworker_qt.launch.main` adds the process concerns: single instance,
the shared redacting log, an exception hook that shows a non-fatal banner, and
graceful shutdown.

Heavy modules (SDKs, pypdf, whisper) are imported lazily by the core, so the
window is up in well under half a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

os.environ.setdefault("QT_API", "pyside6")

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QApplication, QWidget

from openworker_qt.qt import feature_check

feature_check.install()  # before the ~270 imports below (PySide checks each one)

from openworker_qt import deferred  # noqa: E402
from openworker_qt.automation.keepawake import KeepAwake, platform_inhibitor  # noqa: E402
from openworker_qt.core.approvals import Approver, Questioner  # noqa: E402
from openworker_qt.core.approvers import InboxApprover, InboxQuestioner  # noqa: E402
from openworker_qt.core.inbox import Action, InboxError, resolution_for  # noqa: E402
from openworker_qt.core.sessions import SessionManager  # noqa: E402
from openworker_qt.core.tool_api import ToolRegistry  # noqa: E402
from openworker_qt.desktop_notices import DesktopNotices  # noqa: E402
from openworker_qt.qt.bridge import EngineBridge  # noqa: E402
from openworker_qt.qt.gc_guard import collect_on_gui_thread  # noqa: E402
from openworker_qt.qt.inbox_bridge import InboxBridge  # noqa: E402
from openworker_qt.qt.model_catalog import ModelCatalog  # noqa: E402
from openworker_qt.qt.notifications import Notifier  # noqa: E402
from openworker_qt.qt.settings_store import SettingsStore  # noqa: E402
from openworker_qt.runtime import Runtime  # noqa: E402
from openworker_qt.storage.conversations import SessionInfo  # noqa: E402
from openworker_qt.ui.first_paint import after_first_paint  # noqa: E402
from openworker_qt.ui.main_window import MainWindow  # noqa: E402
from openworker_qt.ui.plan_items import TEAM_PERSONAS, offer_personas  # noqa: E402
from openworker_qt.ui.resources import RESOURCES, app_icon, resource  # noqa: E402
from openworker_qt.ui.window_sessions import WindowSessions  # noqa: E402

if TYPE_CHECKING:
    from openworker_qt.automation.service import AutomationService
    from openworker_qt.ui.onboarding import OnboardingDialog
    from openworker_qt.ui.workspace import WorkspaceDialog

log = logging.getLogger("openworker_qt.app")

__all__ = ["RESOURCES", "DesktopApp", "InboxAnswers", "after_first_paint", "app_icon", "resource"]


class InboxAnswers:
    """Answers an inbox item from any surface and resumes its turn if none is waiting.

    A turn parked by another process (or before a restart) has no waiter here:
    resolving it starts the durable resume, which finds the answered item. The
    windows' :class:`~openworker_qt.ui.ports.Answers`.
    """

    def __init__(self, inbox: InboxBridge, manager: SessionManager) -> None:
        self.inbox = inbox
        self.manager = manager

    def resolve(self, item_id: int, resolution: str, *, by: str = "window") -> bool:
        item = self.inbox.get(item_id)
        try:
            won = self.inbox.resolve(item_id, resolution, by=by)
        except InboxError as exc:  # the core refused an answer that does not fit the item
            log.warning("not resolving inbox item: %s", exc)
            return False
        if won and item is not None and not self.manager.is_running(item.session_id):
            self.manager.start_resume(item.session_id)
        return won


class DesktopApp(QObject):
    """Everything the GUI needs, wired once (see module docstring).

    Signals:
        error_reported(str): an unexpected error to show as a non-fatal banner.
        quitting(): once, when quitting begins (``launch.main`` arms the quit watchdog on it).
    """

    error_reported = Signal(str)
    #: Emitted once, when quitting begins (``launch.main`` arms the quit watchdog on it).
    quitting = Signal()

    def __init__(
        self,
        runtime: Runtime,
        *,
        workspace: Path | None = None,
        tools_for: Callable[[SessionInfo], ToolRegistry] | None = None,
        enable_tray: bool = True,
        notifier: Notifier | None = None,
        keep_awake: KeepAwake | None = None,
        load_mcp: bool = False,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        # The runtime's workers allocate (SDK imports, key reads): cycles holding Qt
        # objects must be collected here, not on them (see qt/gc_guard.py).
        collect_on_gui_thread()
        self.runtime = runtime
        self.settings = SettingsStore(runtime)
        self._workspace = (workspace or Path.home()).resolve()
        self.inbox = InboxBridge(runtime.inbox, self)
        # Every ask is an inbox item: card, dialog, inbox window, tray, notification
        # and the CLI all answer the same row (first answer wins).
        self._inbox_approver = InboxApprover(runtime.inbox, wait=True)
        self._inbox_questioner = InboxQuestioner(runtime.inbox, wait=True)
        self.manager = runtime.session_manager(
            approver_for=self._approver_for,
            questioner_for=self._questioner_for,
            tools_for=tools_for,
        )
        self.bridge = EngineBridge(self.manager, self)
        # After the first paint (_start_satellites): the connectors' services (the Slack
        # listener) and, with ``load_mcp``, the MCP servers' settings — importing
        # them held the paint back (tests/test_startup_modules.py, bench/startup.py).
        self._load_mcp = load_mcp
        self._services_added = False
        self.answers = InboxAnswers(self.inbox, self.manager)
        self.models = ModelCatalog(runtime.list_models, self)
        # Keep-awake follows every session's turns (attended or not); the platform
        # inhibitor is installed by start(), so tests stay off the real OS.
        self.keep_awake: KeepAwake | None = keep_awake
        self.manager.peers.watch(self._on_manager_event)  # every manager's turns (keep-awake)
        # Scheduled automations (:attr:`automations`): built on first use or after the
        # first paint, whichever comes first.
        self._automations: AutomationService | None = None
        self.automations_window: Any = None
        self.inbox_window: Any = None
        self.settings_window: Any = None
        self.tray: Any = None
        self.quick_ask: Any = None
        self.persona_items: list[tuple[str, str, str]] | None = None  # once read
        self.team_leads: frozenset[str] = TEAM_PERSONAS  # personas that start a team
        self.grant_dialog: Any = None
        self.hotkey: Any = None
        self.push_to_talk: Any = None  # the global voice hotkey (ui/push_to_talk.py)
        self._enable_tray = enable_tray
        self._closing = False
        # The background work started here (the model list, the personas' read, the
        # services' start, the notifier's set-up), kept until it ends: a quit cancels
        # what is left before the runtime stops (:meth:`shutdown`).
        self._tasks: dict[asyncio.Future[None], None] = {}

        self.window = MainWindow(self.manager, self.bridge, self.inbox, self.answers, self.settings,
                                 workspace=self._workspace, keeps_running=self.keeps_running_in_tray)
        self.window.setWindowIcon(app_icon())
        self.sessions = WindowSessions(self.manager, self.window)
        # The first stored message is redacted against the keyring, whose import and
        # backend discovery took 45-70 ms on the loop thread (bench/ui_stall.py), and
        # the first message to a provider imports its SDK (up to 3 s): a worker does
        # both once the window has painted (earlier, it competes for the GIL).
        after_first_paint(self.window, self.runtime.warm_in_background)
        after_first_paint(self.window, deferred.import_in_background)  # (see deferred.py)
        self.window.quit_requested.connect(self.quit)
        self.window.inbox_requested.connect(self.show_inbox)
        self.window.automations_requested.connect(self.show_automations)
        self.window.quick_ask_requested.connect(self.show_quick_ask)
        self.window.settings_requested.connect(self.show_settings)
        self.window.default_folder_requested.connect(lambda: self.show_workspace_dialog(first_run=False))
        # (looked up when called: tests replace grant_folder on the instance)
        self.window.folder_grant_requested.connect(lambda folder: self.grant_folder(folder, self.window))
        self.models.changed.connect(self.window.set_known_models)
        self.error_reported.connect(lambda text: self.window.show_message(text))
        self.notices = DesktopNotices(self.window, self.manager.store, notifier=notifier,
                                      quick_ask=lambda: self.quick_ask, tray=lambda: self.tray,
                                      parent=self)
        self.notices.answer_requested.connect(lambda item_id, action, text: self.respond_item(
            item_id, action, by="notification", text=text))
        self.notices.inbox_requested.connect(self.show_inbox)
        self.notices.session_requested.connect(self.open_session)
        self.inbox.item_added.connect(self.notices.inbox_item_added)
        self.inbox.item_resolved.connect(self.notices.inbox_item_resolved)
        self.bridge.event_received.connect(self.notices.turn_event)
        if runtime.mcp is not None:
            self._wire_mcp()

    @property
    def automations(self) -> AutomationService:
        """Scheduled automations: their runs are unattended sessions (asks park in the
        inbox); keep-awake follows them too; finished and failed runs notify. Built on
        first use (at the latest after the first paint, before the runtime starts)."""
        if self._automations is None:
            from openworker_qt.automation.service import AutomationService

            service = AutomationService(self.runtime)
            service.listeners.append(self._on_automation_run)
            self.runtime.add_service(service)
            self._automations = service
            self.window.sidebar.scheduled.attach(service.store)  # the sidebar's Scheduled
        return self._automations

    def _wire_mcp(self) -> None:
        """The MCP servers in the window: a server's failure (once per episode) as a
        banner, their resources in the attach menu, their prompts behind "/"."""
        from openworker_qt.ui.mcp_composer import McpComposer

        runtime = self.runtime
        assert runtime.mcp is not None
        runtime.mcp.on_notice = lambda server, text: self.error_reported.emit(
            self.tr("The MCP server {name} is not working: {reason}").format(
                name=server, reason=runtime.mcp.headline(text) if runtime.mcp else text))
        self.mcp_composer = McpComposer(self.window.composer, runtime.mcp, self.window.show_message)

    def _add_services(self) -> None:
        """The services that start with the runtime and are not needed to paint: the
        connectors' (the Slack listener) and the configured MCP servers (reading
        their settings; they connect in the background once the runtime starts)."""
        if self._services_added:
            return
        self._services_added = True
        self.automations  # noqa: B018  (built: it starts with the runtime)
        self.runtime.add_connector_services(self.manager, workspace=self._workspace)
        if self._load_mcp and self.runtime.mcp is None:
            try:
                self.runtime.enable_mcp()
            except Exception:
                log.exception("the MCP servers' settings could not be read")
            else:
                self._wire_mcp()

    # ----------------------------------------------------------- collaborators

    def _approver_for(self, _info: SessionInfo) -> Approver | None:
        return self._inbox_approver

    def _questioner_for(self, _info: SessionInfo) -> Questioner | None:
        return self._inbox_questioner

    @property
    def workspace(self) -> Path:
        """The folder new sessions start in (the remembered one, or the default)."""
        return self._workspace

    @workspace.setter
    def workspace(self, folder: Path) -> None:
        self._workspace = folder
        self.window.set_default_workspace(folder)

    def resolve_item(self, item_id: int, resolution: str, *, by: str = "window") -> bool:
        """Answer an inbox item from any surface (see :class:`InboxAnswers`)."""
        return self.answers.resolve(item_id, resolution, by=by)

    def respond_item(self, item_id: int, action: Action, *, by: str, text: str = "") -> bool:
        """Answer with a verb (a notification's Approve/Deny, or its option's number):
        the core checks that it fits — approving a question is refused, not its answer."""
        item = self.runtime.inbox.get(item_id)
        if item is None:
            return False
        try:
            resolution = resolution_for(item, action, text)
        except InboxError as exc:
            log.warning("not resolving inbox item: %s", exc)
            return False
        return self.resolve_item(item_id, resolution, by=by)

    def known_models(self) -> list[str]:
        return self.models.known_models()

    async def load_models(self) -> None:
        """Fill the model picker from configured providers (keyring reads: a worker)."""
        await self.models.load_models()

    def set_default_model(self, model: str) -> None:
        """``model`` was saved as the default (settings, onboarding): new sessions use it."""
        self.manager.default_model = model
        self.window.set_default_model(model)

    def grant_folder(self, folder: str, parent: QWidget | None = None,
                     apply: Callable[[str, bool], None] | None = None) -> Any:
        """A dropped folder: ask read-only or writable (window-modal, no nested loop).

        The answer goes to ``apply(folder, writable)`` — by default
        :meth:`apply_folder_grant` (the window's current session). Returns the dialog.
        """
        from openworker_qt.ui.grant_dialog import GrantDialog

        folder = str(Path(folder).resolve())
        dialog = GrantDialog(folder, parent or self.window)
        target = apply or (lambda f, w: self.apply_folder_grant(f, writable=w))
        dialog.chosen.connect(lambda writable: target(folder, writable))
        self.grant_dialog = dialog
        dialog.open()
        return dialog

    def apply_folder_grant(self, folder: str, *, writable: bool) -> str:
        """Grant ``folder`` to the window's current session (created if needed) only;
        returns the session id (see :meth:`MainWindow.apply_folder_grant`)."""
        return self.window.apply_folder_grant(folder, writable=writable)

    # ------------------------------------------------------------- lifecycle

    def _on_manager_event(self, event: Any) -> None:
        if self.keep_awake is not None:
            self.keep_awake.on_event(event)

    def start(self) -> None:
        self.window.show()
        if self.keep_awake is None:
            self.keep_awake = KeepAwake(
                platform_inhibitor(), enabled=bool(self.runtime.config.get("general.keep_awake", True)))
        # The rest waits for the window's first paint: the hotkey, the model list and
        # the D-Bus notifier imported and ran ~90 ms of work ahead of it (bench/startup.py).
        after_first_paint(self.window, self._start_satellites)
        # Teams first (their sessions are their runner's to drive), then the turns a
        # previous run left parked or cut off: resume them, or close them.
        after_first_paint(self.window, self.start_teams)
        after_first_paint(self.window, self.manager.recover)

    def start_first_run(self) -> WorkspaceDialog | None:
        """After the first paint: ask for the workspace (if none is remembered), then
        offer onboarding (if no model is set up). Returns the workspace dialog, if shown."""
        from openworker_qt.ui.onboarding import needs_onboarding
        from openworker_qt.ui.workspace import needs_workspace

        def onboard() -> None:
            if needs_onboarding(self.settings):
                self.show_onboarding()

        if not needs_workspace(self.settings.config):
            onboard()
            return None
        dialog = self.show_workspace_dialog(first_run=True)
        dialog.finished.connect(lambda _result: onboard())
        return dialog

    def _start_satellites(self) -> None:
        if self._closing:  # the first paint came after a quit began: nothing to start
            return
        self._add_services()  # (before a turn resumes and before the runtime starts)
        if self._enable_tray and self.tray is None:
            self.create_tray()
        self.install_hotkey()
        self.install_voice_hotkey()
        self._keep(self.load_models())
        self._keep(self.load_personas())
        self._keep(self._start_services())
        if self.notices.is_null:
            self._keep(self.notices.start_native())

    def start_teams(self) -> None:
        """The window's team parts on the runtime's board and runner; the teams a
        previous run left going resume (their sessions stream live in the window).
        The teams' modules and their tables are opened in a worker first."""
        if not self._closing:
            self._keep(self._start_teams())

    async def _start_teams(self) -> None:
        await asyncio.to_thread(_open_teams, self.runtime)
        if self._closing:
            return
        runner = self.runtime.team_runner()
        self.window.teams.attach(self.runtime.teams, runner)
        runner.resume()

    def _keep(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, kept until it ends (see ``_tasks``)."""
        task = asyncio.ensure_future(work)
        self._tasks[task] = None
        task.add_done_callback(lambda done: self._tasks.pop(done, None))

    async def load_personas(self) -> None:
        """Offer the enabled personas in the composer's picker (read in a worker)."""
        from openworker_qt.ui.settings_personas import picker_items

        try:
            found = await asyncio.to_thread(self.runtime.personas.load)
        except Exception:
            log.exception("reading the personas failed")
            return
        # personas leading a team start one from the composer (issue 29)
        leads = frozenset(p.name for p in found.values() if p.team is not None and p.team.role == "lead")
        self.team_leads = leads | TEAM_PERSONAS
        self.window.teams.is_team_persona = self.team_leads.__contains__
        self.set_personas(picker_items(list(found.values())))

    def set_personas(self, items: list[tuple[str, str, str]]) -> None:
        """Offer these personas in the composer's picker and the quick ask's chip."""
        self.persona_items = items
        self.window.composer.set_personas(items)
        offer_personas(items, self.team_leads.__contains__)  # a team plan's persona pickers
        if self.quick_ask is not None:
            self.quick_ask.set_personas(items)

    async def _start_services(self) -> None:
        """The runtime's lifecycle services (connectors, MCP, the scheduler)."""
        for failure in await self.runtime.start():
            self.error_reported.emit(self.tr("{name} could not start: {reason}").format(
                name=failure.name, reason=failure.message))

    # ---------------------------------------------------------- satellites

    def create_tray(self, available: bool | None = None) -> Any:
        from openworker_qt.ui.tray import Tray

        self.tray = Tray(self.inbox, self.bridge, self.answers, self.settings,
                         available=available, parent=self)
        self.tray.quick_ask_requested.connect(self.show_quick_ask)
        self.tray.window_requested.connect(self.show_window)
        self.tray.inbox_requested.connect(self.show_inbox)
        self.tray.automations_requested.connect(self.show_automations)
        self.tray.pause_changed.connect(self.automations.store.set_paused)
        self.tray.pause_action.setChecked(self.automations.store.paused)
        self._update_failure_badge()
        self.tray.quit_requested.connect(self.quit)
        if not self.tray.available:
            marker = self.runtime.paths.data / ".no-tray-notice-shown"
            if not marker.exists():
                self.window.show_message(
                    self.tr("No system tray is available here: OpenWorker keeps working "
                            "window-only (quick ask is in the Window menu)."), error=False)
                try:
                    marker.write_text("1", encoding="utf-8")
                except OSError:
                    pass
        return self.tray

    def install_hotkey(self) -> Any:
        """The global quick-ask hotkey (``ui.quick_ask_hotkey``); where the platform
        has none (Wayland) the status bar says so and the in-app shortcut remains."""
        from openworker_qt.qt.hotkey import create_hotkey, quick_ask_sequence

        if self.hotkey is not None:
            self.hotkey.unregister()
        else:
            self.hotkey = create_hotkey(self)
            self.hotkey.activated.connect(self.show_quick_ask)
        sequence = quick_ask_sequence(self.runtime.config)
        if not self.hotkey.register(sequence):
            log.info("global hotkey: %s", self.hotkey.status)
            self.window.statusBar().showMessage(self.hotkey.status, 8000)
        if self.tray is not None:
            self.tray.set_hotkey(self.hotkey.sequence)
        return self.hotkey

    def install_voice_hotkey(self) -> Any:
        """Push-to-talk anywhere (``ui.voice_hotkey``): hold, speak, release; the words
        go where ``deliver_spoken`` puts them. Where the platform has no global hotkey
        the status bar says so (the mic button and the in-window key still work)."""
        from openworker_qt.qt.audio_capture import QtRecorder
        from openworker_qt.qt.hotkey import create_hotkey
        from openworker_qt.ui.push_to_talk import PushToTalk
        from openworker_qt.ui.voice import DEFAULT_VOICE_HOTKEY

        if self.push_to_talk is None:
            self.push_to_talk = PushToTalk(create_hotkey(self), self.window.voice.transcriber,
                                           lambda: QtRecorder(self), self.deliver_spoken, self)
        sequence = str(self.runtime.config.get("ui.voice_hotkey") or DEFAULT_VOICE_HOTKEY)
        if not self.push_to_talk.register(sequence):
            log.info("voice hotkey: %s", self.push_to_talk.status)
            self.window.statusBar().showMessage(self.push_to_talk.status, 8000)
        return self.push_to_talk

    def deliver_spoken(self, text: str) -> None:
        """Push-to-talk's words: an answer to a focused approval, else into the quick ask
        or the open session's message box (``voice.push_to_talk_target``), sent at once
        when ``voice.push_to_talk_send`` says so."""
        if self.window.voice_answers.offer(text):
            self.show_window()
            return
        send = bool(self.runtime.config.get("voice.push_to_talk_send"))
        if self.runtime.config.get("voice.push_to_talk_target") == "composer":
            self.show_window()
            self.window.voice.insert(text)
            if send:
                self.window.composer.submit()
            return
        popup = self.show_quick_ask()
        popup.edit.setText(f"{popup.edit.text().strip()} {text}".strip())
        if send:
            popup.submit()

    def show_quick_ask(self) -> Any:
        if self.quick_ask is None:
            from openworker_qt.ui.quick_ask import QuickAsk

            popup = QuickAsk(self.sessions, self.bridge)
            if self.persona_items is not None:
                popup.set_personas(self.persona_items)
            popup.folder_dropped.connect(
                lambda folder: self.grant_folder(folder, popup, apply=popup.add_grant))
            self.quick_ask = popup
        self.quick_ask.popup()
        return self.quick_ask

    # ------------------------------------------------------- notifications

    def _on_automation_run(self, run: Any, automation: Any) -> None:
        """A run finished or failed: the tray's badge, and a notification (a run waiting
        for you already has its approval's notification, titled with the automation's name)."""
        if run.status not in ("completed", "failed") or not run.session_id:
            return
        self._update_failure_badge()
        self.notices.automation_ended(run, automation)

    def _update_failure_badge(self) -> None:
        if self.tray is not None:
            self.tray.set_failed_automations(self.automations.store.unseen_failures())

    def show_automations(self) -> Any:
        """Open (or raise) the Automations window."""
        if self.automations_window is None:
            from openworker_qt.ui.automations import AutomationsWindow

            window = AutomationsWindow(self.automations.store, self.automations.run_now,
                                       workspace=str(self.workspace), inbox=self.runtime.inbox)
            window.setWindowIcon(app_icon())
            window.open_session_requested.connect(self.open_session)
            window.failures_seen.connect(self._update_failure_badge)
            self.automations_window = window
        self.automations_window.show()
        self.automations_window.raise_()
        self.automations_window.activateWindow()
        return self.automations_window

    def keeps_running_in_tray(self) -> bool:
        return self.tray is not None and bool(self.tray.visible) and not self._closing

    def show_window(self) -> None:
        self.window.bring_to_front()

    def show_settings(self) -> Any:
        """Open (or raise) the settings window (File → Settings…, Ctrl+,)."""
        if self.settings_window is None:
            from openworker_qt.ui.settings import SettingsWindow

            window = SettingsWindow(self.settings, self.models, self.manager,
                                    memory=self.runtime.memory,
                                    personas=self.runtime.personas,
                                    connectors=self.runtime.connectors,
                                    grants=self.runtime.rules.wider, sessions=self.manager.store)
            window.personas.personas_changed.connect(self.set_personas)
            window.setWindowIcon(app_icon())
            window.providers.guided_setup_requested.connect(self._guided_setup)
            window.model.default_model_changed.connect(self.set_default_model)
            window.permissions.default_mode_changed.connect(self.window.set_default_mode)
            window.voice.hotkey_changed.connect(self.install_voice_hotkey)
            if self.runtime.mcp is not None:
                from openworker_qt.ui.settings_mcp import McpPage

                window.add_page(self.tr("MCP servers"),
                                McpPage(self.runtime.mcp, self.runtime.paths.config))
            self.settings_window = window
        self.settings_window.show()
        self.settings_window.raise_()
        self.settings_window.activateWindow()
        return self.settings_window

    def _guided_setup(self) -> None:
        dialog = self.show_onboarding()
        dialog.completed.connect(lambda _model: self.settings_window.providers.refresh_soon())

    def show_onboarding(self) -> OnboardingDialog:
        """The first-start dialog: connect a provider, pick a default model."""
        from openworker_qt.ui.onboarding import OnboardingDialog

        dialog = OnboardingDialog(self.settings, self.sessions, self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.completed.connect(self._on_onboarding_completed)
        dialog.finished.connect(lambda _result: self.window.focus_composer())  # type "hello" at once
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def _on_onboarding_completed(self, model: str) -> None:
        if model:  # '' when skipped, or for the demo
            self.set_default_model(model)
            self._keep(self.load_models())  # (a load still running is kept too)

    def show_workspace_dialog(self, *, first_run: bool) -> WorkspaceDialog:
        """Which folder new sessions start in (first run; File → Default folder…)."""
        from openworker_qt.ui.workspace import show_workspace_dialog

        dialog = show_workspace_dialog(self.settings, self.window, first_run=first_run)
        dialog.chosen.connect(self._on_workspace_chosen)
        return dialog

    def _on_workspace_chosen(self, folder: str) -> None:
        self.workspace = Path(folder)

    def show_inbox(self) -> Any:
        """Open (or raise) the inbox window."""
        if self.inbox_window is None:
            from openworker_qt.ui.inbox_window import InboxWindow

            self.inbox_window = InboxWindow(self.inbox, self.manager.store, self.answers,
                                            state_dir=self.runtime.paths.config)
            self.inbox_window.setWindowIcon(app_icon())
            self.inbox_window.open_session_requested.connect(self.open_session)
        self.inbox_window.show()
        self.inbox_window.raise_()
        self.inbox_window.activateWindow()
        return self.inbox_window

    def open_session(self, session_id: str) -> None:
        self.window.show_session(session_id)

    def handle_args(self, args: list[str]) -> None:
        """Arguments from a second launch: files to attach, then raise the window."""
        self.show_window()
        paths = [a for a in args if not a.startswith("-") and Path(a).exists()]
        if paths:
            self.window.add_paths(paths)

    def quit(self) -> None:
        """Stop turns and close the database, then leave the event loop."""
        if self._closing:
            return
        self._closing = True
        self.quitting.emit()
        self._quit_task = asyncio.ensure_future(self._quit())

    async def _quit(self) -> None:
        try:
            await self.shutdown()
        finally:
            QApplication.quit()

    async def shutdown(self) -> None:
        """Stop turns and the runtime's services (bounded), detach the window."""
        self._closing = True
        self.window.voice.cancel()  # a recording or transcription in flight
        # A quit right after the start: the model list, the personas' read, the
        # services still starting (one started after the runtime stopped would never
        # be stopped) and the notifier's set-up end first.
        for task in list(self._tasks):
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await self.runtime.stop(grace=3.0)
        self.bridge.detach()
        self.inbox.detach()
        if self.inbox_window is not None:
            self.inbox_window.close()
        if self.automations_window is not None:
            self.automations_window.close()
        if self.quick_ask is not None:
            self.quick_ask.close()
        if self.settings_window is not None:
            self.settings_window.close()
        if self.tray is not None:
            self.tray.hide()
        if self.hotkey is not None:
            self.hotkey.unregister()
        if self.push_to_talk is not None:
            self.push_to_talk.close()
        await self.notices.close()
        if self.keep_awake is not None:
            await asyncio.to_thread(self.keep_awake.close)
        self.window.close()


def _open_teams(runtime: Runtime) -> None:
    """In a worker: import what the team runner needs and open the teams' tables."""
    import openworker_qt.teams.wiring  # noqa: F401  (and the runner, the prices)

    _ = runtime.teams
