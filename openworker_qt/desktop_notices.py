"""The desktop app's notifications: what it tells the user who is not looking (an
approval or a question waiting, a turn or an automation run that ended) and what
a click on one asks for, as signals the app connects.

The notifier starts as the one given (tests) or a :class:`NullNotifier`; after
the first paint :meth:`DesktopNotices.start_native` swaps in the platform's
(desktop-notifier) or, where there is none, the tray's balloons.

(The words keep the translation context of the desktop app, where the zh_CN
catalogue has them: ``QCoreApplication.translate("DesktopApp", ...)``.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal

from openworker_qt.qt.notifications import Notifier, NullNotifier
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.ui.main_window import MainWindow
from openworker_qt.ui.resources import resource

__all__ = ["DesktopNotices"]


class DesktopNotices(QObject):
    """Notifications for the inbox, ended turns and automation runs (see module docstring).

    Signals:
        answer_requested(int, str, str): a notification's Approve or Deny, or a
            question's option (the item, the verb, the option's number or "").
        inbox_requested(): an inbox item's notification was clicked.
        session_requested(str): a session's notification was clicked (its id).
    """

    answer_requested = Signal(int, str, str)
    inbox_requested = Signal()
    session_requested = Signal(str)

    def __init__(
        self,
        window: MainWindow,
        store: ConversationStore,
        *,
        quick_ask: Callable[[], Any],
        tray: Callable[[], Any],
        notifier: Notifier | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.window = window
        self.store = store
        self._quick_ask = quick_ask  # the quick ask popup, once built (else None)
        self._tray = tray  # the tray, once built (else None)
        self.notifier: Notifier = notifier or NullNotifier()
        self.notifier.on_activated = self.activated

    def set_notifier(self, notifier: Notifier) -> None:
        self.notifier = notifier
        notifier.on_activated = self.activated

    @property
    def is_null(self) -> bool:
        """No notifier yet (none was given and :meth:`start_native` has not found one)."""
        return isinstance(self.notifier, NullNotifier)

    async def start_native(self) -> None:
        """The platform's notifications (desktop-notifier on Linux, macOS and Windows);
        where there are none (no notification daemon), tray balloons or nothing, quietly."""
        from openworker_qt.qt.notifications import NativeNotifier

        native = NativeNotifier(icon=str(resource("icons", "openworker.svg")))
        if await native.start():
            self.set_notifier(native)
            return
        tray = self._tray()
        if tray is not None and tray.icon is not None:
            from openworker_qt.qt.notifications import TrayNotifier

            self.set_notifier(TrayNotifier(tray.icon))

    async def close(self) -> None:
        await self.notifier.close()

    def activated(self, key: str, action: str) -> None:
        """A notification (``inbox:ID`` or ``session:ID``) or one of its buttons was clicked."""
        kind, _, ident = key.partition(":")
        verb, _, rest = action.partition(":")
        if kind == "inbox" and ident.isdigit():
            if action in ("approve", "deny"):
                self.answer_requested.emit(int(ident), action, "")
            elif verb == "choose" and rest.isdigit():  # a question's option, by its number
                self.answer_requested.emit(int(ident), "answer", rest)
            elif verb == "open" and rest:  # "Answer…": the question's card, in its session
                self.session_requested.emit(rest)
            else:
                self.inbox_requested.emit()
        elif kind == "session":
            self.session_requested.emit(ident)

    # ------------------------------------------------------------ what is said

    def inbox_item_added(self, item: Any) -> None:
        if item.kind == "notice" or self.window.watching(item.session_id):
            return  # (one the user is looking at is answered on its card)
        info = self.store.get_session(item.session_id)
        title = (info.title if info and info.title
                 else QCoreApplication.translate("DesktopApp", "a session"))
        if item.kind == "approval":
            from openworker_qt.qt.wording import approval_question

            question = approval_question(item.tool, dict(item.arguments or {}), item.target)
            self.notifier.notify(
                f"inbox:{item.id}",
                # words, not tool ids
                QCoreApplication.translate("DesktopApp", "Approval needed: {tool}").format(
                    tool=question),
                f"{title}\n{item.args_preview or item.reason}",
                [("approve", QCoreApplication.translate("DesktopApp", "Approve")),
                 ("deny", QCoreApplication.translate("DesktopApp", "Deny"))],
            )
        else:
            self.notifier.notify(
                f"inbox:{item.id}",
                QCoreApplication.translate("DesktopApp", "OpenWorker has a question"),
                f"{title}\n{item.title}", question_actions(item))

    def inbox_item_resolved(self, item: Any) -> None:
        self.notifier.withdraw(f"inbox:{item.id}")

    def turn_event(self, event: Any) -> None:
        """A turn that ended (completed or failed) where the user is not looking at it."""
        from openworker_qt.core import events as ev

        if not isinstance(event, ev.TurnEnded) or event.status not in ("completed", "error"):
            return
        if self.window.isActiveWindow() and self.window.session_id == event.session_id:
            return  # the user is looking at it
        popup = self._quick_ask()
        if popup is not None and popup.isVisible() and popup.session_id == event.session_id:
            return  # the quick ask shows that very answer
        info = self.store.get_session(event.session_id)
        meta = info.meta if info is not None and isinstance(info.meta, dict) else {}
        if meta.get("automation_id") or meta.get("worker"):
            return  # a scheduled run says how it ended itself; a team's worker is its lead's
        title = (info.title if info else "") or event.session_id
        heading = (QCoreApplication.translate("DesktopApp", "Finished")
                   if event.status == "completed"
                   else QCoreApplication.translate("DesktopApp", "Failed"))
        self.notifier.notify(
            f"session:{event.session_id}", f"{heading}: {title}",
            event.detail or QCoreApplication.translate("DesktopApp", "Click to open the session."))

    def automation_ended(self, run: Any, automation: Any) -> None:
        """A run that completed or failed (the caller checks): say so."""
        name = (automation.name if automation is not None
                else QCoreApplication.translate("DesktopApp", "An automation"))
        if run.status == "completed":
            title = QCoreApplication.translate("DesktopApp", "Finished: {name}").format(name=name)
            body = (QCoreApplication.translate("DesktopApp", "Deliverables: {files}").format(
                        files=", ".join(run.deliverables))
                    if run.deliverables
                    else QCoreApplication.translate("DesktopApp", "Click to open the run."))
        else:
            title = QCoreApplication.translate("DesktopApp", "Failed: {name}").format(name=name)
            body = run.note or QCoreApplication.translate("DesktopApp", "Click to see what happened.")
        self.notifier.notify(f"session:{run.session_id}", title, body)


#: A single-choice question with at most this many options gets a button each on
#: its notification (platforms show about three).
NOTIFICATION_CHOICES = 3


def question_actions(item: Any) -> list[tuple[str, str]]:
    """A question's notification buttons: its options (a single choice among a few:
    ``choose:N``), else "Answer…", which opens its card in its session."""
    from openworker_qt.domain import choices

    if item.kind == "question" and choices.group_from(item.arguments) is None:
        spec = choices.spec_from(item.arguments)
        if spec is not None and not spec.multiple and len(spec.choices) <= NOTIFICATION_CHOICES:
            return [(f"choose:{n}", c.label[:40]) for n, c in enumerate(spec.choices, 1)]
    return [(f"open:{item.session_id}",
             QCoreApplication.translate("DesktopApp", "Answer…"))]
