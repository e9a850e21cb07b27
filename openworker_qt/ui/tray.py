"""The system tray: state icon, pending count, and a menu that answers approvals.

The menu exists even where no tray does (offscreen, some Linux desktops): it is
what the tray icon shows, and tests drive it directly. Without a tray the app
says so once (a marker file remembers it) and keeps working window-only.

Icon states: ``idle``, ``working`` (a turn runs), ``attention`` ("needs you": an
approval or question of any session waits, unattended ones included); the
tooltip carries the count.

It reads the :class:`InboxBridge` and the :class:`EngineBridge`, answers
approvals through an :class:`~openworker_qt.ui.ports.Answers`, and asks the
app for everything else with signals.

Signals:
    quick_ask_requested(), window_requested(), inbox_requested(), automations_requested(),
    quit_requested(), pause_changed(bool).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from openworker_qt.core.inbox import InboxItem
from openworker_qt.qt.bridge import EngineBridge
from openworker_qt.qt.hotkey import quick_ask_sequence
from openworker_qt.qt.inbox_bridge import InboxBridge
from openworker_qt.qt.inbox_model import item_summary
from openworker_qt.qt.settings_store import SettingsStore
from openworker_qt.ui.ports import Answers
from openworker_qt.ui.resources import resource

MAX_MENU_ITEMS = 8


class Tray(QObject):
    quick_ask_requested = Signal()
    window_requested = Signal()
    inbox_requested = Signal()
    automations_requested = Signal()
    quit_requested = Signal()
    #: Pause all automations (True) or let them run again (False).
    pause_changed = Signal(bool)

    def __init__(self, inbox: InboxBridge, bridge: EngineBridge, answers: Answers,
                 settings: SettingsStore, *, available: bool | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.inbox = inbox
        self.bridge = bridge
        self.answers = answers
        self.settings = settings
        self.available = QSystemTrayIcon.isSystemTrayAvailable() if available is None else available
        self.icons = {s: QIcon(str(resource("icons", f"tray-{s}.svg")))
                      for s in ("idle", "working", "attention")}
        self.state = "idle"
        self.tooltip = "OpenWorker Qt"
        self.menu = QMenu()
        self.menu.setObjectName("trayMenu")
        self.menu.setAccessibleName(self.tr("OpenWorker tray menu"))
        self.status_action = self.menu.addAction(self.tr("Idle"))
        self.status_action.setEnabled(False)
        self.menu.addSeparator()
        self.quick_ask_action = self._add(self.tr("Quick ask…"), self.quick_ask_requested,
                                          quick_ask_sequence(settings.config))
        self.window_action = self._add(self.tr("Open window"), self.window_requested)
        self.inbox_action = self._add(self.tr("Open inbox"), self.inbox_requested, "Ctrl+I")
        self.pending_menu = QMenu(self.tr("Waiting for you"), self.menu)
        self.pending_menu.setAccessibleName(self.tr("Pending approvals"))
        self.menu.addMenu(self.pending_menu)
        self.menu.addSeparator()
        self.automations_action = self._add(self.tr("Automations…"), self.automations_requested)
        self.pause_action = self._add(self.tr("Pause automations"), self._on_pause_toggled)
        self.pause_action.setCheckable(True)
        self.pause_action.setChecked(bool(settings.get("automation.paused", False)))
        self.menu.addSeparator()
        self.quit_action = self._add(self.tr("Quit OpenWorker"), self.quit_requested, "Ctrl+Q")
        self.icon: QSystemTrayIcon | None = None
        if self.available:
            self.icon = QSystemTrayIcon(self.icons["idle"], self)
            self.icon.setContextMenu(self.menu)
            self.icon.activated.connect(self._on_icon_activated)
            self.icon.show()
        inbox.pending_changed.connect(self.refresh)
        bridge.running_changed.connect(lambda _s, _r: self.refresh())
        self.refresh()

    def set_hotkey(self, sequence: str) -> None:
        """Show the global quick-ask hotkey in the menu (none where it is unavailable)."""
        self.quick_ask_action.setShortcut(sequence)

    def _add(self, text: str, slot: object, shortcut: str = "") -> QAction:
        action = self.menu.addAction(text)
        if shortcut:
            action.setShortcut(shortcut)  # shown in the menu; the window owns the real one
        action.triggered.connect(slot)
        return action

    @property
    def visible(self) -> bool:
        return self.icon is not None and self.icon.isVisible()

    def _on_icon_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self.window_requested.emit()

    def set_failed_automations(self, count: int) -> None:
        """The unseen-failure badge: automations whose last run failed, not looked at."""
        self.automations_action.setText(
            self.tr("Automations… ({n} failed)").format(n=count) if count
            else self.tr("Automations…"))

    def _on_pause_toggled(self) -> None:
        paused = self.pause_action.isChecked()
        self.settings.write({"automation": {"paused": paused}})
        self.settings.config.data.setdefault("automation", {})["paused"] = paused
        self.pause_changed.emit(paused)

    def refresh(self) -> None:
        """State, status, tooltip and menu from the inbox of *every* session.

        Unattended runs and asks parked by another process count too (the inbox
        bridge sees them); notices are listed but do not make the tray "need you".
        """
        pending = self.inbox.pending()
        asks = [i for i in pending if i.kind != "notice"]
        running = self.bridge.running_sessions
        self.state = "attention" if asks else ("working" if running else "idle")
        if asks:
            status = self.tr("{n} waiting for you").format(n=len(asks))
            approvals = sum(1 for i in asks if i.kind == "approval")
            sessions = len({i.session_id for i in asks})
            detail = self.tr("{a} approval(s), {q} other question(s) in {s} session(s)").format(
                a=approvals, q=len(asks) - approvals, s=sessions)
        elif running:
            status = (self.tr("Working on one session") if len(running) == 1
                      else self.tr("Working on {n} sessions").format(n=len(running)))
            detail = ""
        else:
            status = self.tr("Idle")
            detail = ""
        self.status_action.setText(status)
        self.tooltip = f"OpenWorker Qt — {status}" + (f"\n{detail}" if detail else "")
        self.pending_menu.clear()
        self.pending_menu.setTitle(self.tr("Waiting for you ({n})").format(n=len(pending)))
        self.pending_menu.setEnabled(bool(pending))
        for item in pending[:MAX_MENU_ITEMS]:
            self._add_pending(item)
        if len(pending) > MAX_MENU_ITEMS:
            more = self.pending_menu.addAction(self.tr("More in the inbox…"))
            more.triggered.connect(self.inbox_requested)
        if self.icon is not None:
            self.icon.setIcon(self.icons[self.state])
            self.icon.setToolTip(self.tooltip)

    def _add_pending(self, item: InboxItem) -> None:
        sub = self.pending_menu.addMenu(item_summary(item)[:60])
        if item.kind == "approval":
            approve = sub.addAction(self.tr("Approve once"))
            approve.triggered.connect(lambda _=False, i=item.id: self.answers.resolve(i, "once", by="tray"))
            deny = sub.addAction(self.tr("Deny"))
            deny.triggered.connect(lambda _=False, i=item.id: self.answers.resolve(i, "deny", by="tray"))
        show = sub.addAction(self.tr("Show in inbox…"))
        show.triggered.connect(self.inbox_requested)

    def hide(self) -> None:
        if self.icon is not None:
            self.icon.hide()
