"""The main window's team side (issue 29, items 1, 2, 4 and 6).

:class:`TeamPart` holds the team board in a dock beside the transcript, shown
while the session on screen belongs to a team (its lead's or a worker's); a card
clicked opens that worker's session. It also routes the composer: a first message
sent with a team persona picked starts a team (``runner.start``) instead of a
plain session, and a message in a team's session goes to the team
(``runner.send``: to the lead, or ``@worker …`` from a worker's session).

The app hands it the team store and runner with :meth:`TeamPart.attach`; until
then (or without teams) the window behaves as before. The sidebar's Teams section is
built at :meth:`TeamPart.attach` (after the window's first paint), the board and its
dock when a team's session is first shown: a start without teams imports neither
(tests/test_startup_modules.py).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from openworker_qt.core.background import spawn
from openworker_qt.core.inbox import InboxItem
from openworker_qt.qt.inbox_bridge import InboxBridge
from openworker_qt.ui.plan_items import TEAM_PERSONAS, is_plan_item
from openworker_qt.ui.ports import Answers

if TYPE_CHECKING:
    from openworker_qt.qt.team_board_model import BoardFeed
    from openworker_qt.teams.model import Actor, BoardEvent, Item, Team
    from openworker_qt.ui.plan_card import PlanDialog
    from openworker_qt.ui.team_board import TeamBoard
    from openworker_qt.ui.team_sidebar import TeamSessions

log = logging.getLogger(__name__)



class TeamStore(Protocol):
    """What the window uses of the team store (and the board's ``BoardSource``, the
    sidebar's ``TeamsSource``)."""

    listeners: list[Callable[[BoardEvent], None]]

    def team(self, team_id: str) -> Team | None: ...

    def item(self, item_id: str) -> Item | None: ...

    def items(self, team_id: str) -> list[Item]: ...

    def teams(self, *, active_only: bool = False) -> list[Team]: ...

    def team_for_session(self, session_id: str) -> tuple[Team, str] | None: ...

    def act(self, actor: Actor, verb: str, team_id: str, item_id: str = "",
            **args: Any) -> Any: ...


class TeamRunner(Protocol):
    """What the window uses of the team runner (the runtime's)."""

    def start(self, outcome: str, *, persona: str = "team", workspace: str,
              model: str) -> Any: ...

    def send(self, team_id: str, text: str) -> Any: ...

    def stop(self, team_id: str) -> Any: ...


def worker_message(role: str, text: str) -> str:
    """What a message typed in a session of ``role`` says to the team: a worker's
    session addresses its worker (unless it names one itself)."""
    if role.startswith("worker:") and not text.lstrip().startswith("@"):
        return f"@{role[len('worker:'):]} {text}"
    return text


class TeamPart(QObject):
    """See module docstring. ``current()``: the session on screen (None: a new one);
    ``open_session(id)``: show a session; ``persona()``, ``model()``, ``workspace()``:
    what the composer would start a session with; ``refresh()``: re-read the list of
    sessions; ``say(text)``: a note for the user; ``place(widget)``: put the Teams
    section in the sidebar (it is built when the teams are attached)."""

    #: a board event from the store (any thread), carried to the GUI thread
    _board_event = Signal(object)

    def __init__(self, window: QMainWindow, *, inbox: InboxBridge | None = None,
                 answers: Answers | None = None, current: Callable[[], str | None],
                 open_session: Callable[[str], None], persona: Callable[[], str],
                 model: Callable[[], str], workspace: Callable[[], str],
                 refresh: Callable[[], None], say: Callable[[str], None],
                 place: Callable[[QWidget], None] = lambda _widget: None) -> None:
        super().__init__(window)
        self._current = current
        self._open_session = open_session
        self._persona = persona
        self._model = model
        self._workspace = workspace
        self._refresh = refresh
        self._say = say
        self._place = place
        self.store: TeamStore | None = None
        self.runner: TeamRunner | None = None
        self.is_team_persona: Callable[[str], bool] = TEAM_PERSONAS.__contains__
        self.feed: BoardFeed | None = None
        self.team_id: str | None = None
        self.role = ""
        self.window = window
        self.inbox = inbox
        self.answers = answers
        self.plan_dialog: PlanDialog | None = None
        self._board: TeamBoard | None = None
        self._dock: QDockWidget | None = None
        self._tree: TeamSessions | None = None
        self._board_event.connect(self._on_board_event, Qt.ConnectionType.QueuedConnection)
        if inbox is not None:
            inbox.item_added.connect(lambda _item: self._show_plan_waiting())
            inbox.item_resolved.connect(lambda _item: self._show_plan_waiting())

    @property
    def board(self) -> TeamBoard:
        """The team board (built on first use, in its dock beside the transcript)."""
        if self._board is None:
            self._build_board()
        assert self._board is not None
        return self._board

    @property
    def dock(self) -> QDockWidget:
        """The board's dock (hidden until a team's session is shown)."""
        if self._dock is None:
            self._build_board()
        assert self._dock is not None
        return self._dock

    def _build_board(self) -> None:
        from openworker_qt.ui.team_board import TeamBoard

        board = TeamBoard()
        board.open_session.connect(self._open_session)
        board.review_plan.connect(self.review_plan)
        board.stop_requested.connect(self.stop_team)
        board.model.team_changed.connect(lambda _team: self._show_plan_waiting())
        board.act = self._act
        self._board = board
        dock = QDockWidget(self.tr("Team"), self.window)
        dock.setObjectName("teamDock")
        dock.setWidget(board)
        self.window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        self.window.resizeDocks([dock], [340], Qt.Orientation.Horizontal)
        dock.hide()
        self._dock = dock

    @property
    def tree(self) -> TeamSessions:
        """The sidebar's Teams section (built on first use, placed by ``place``)."""
        if self._tree is None:
            from openworker_qt.ui.team_sidebar import TeamSessions

            self._tree = TeamSessions()
            self._tree.open_session.connect(self._open_session)
            self._place(self._tree)
        return self._tree

    def attach(self, store: TeamStore, runner: TeamRunner | None = None, *,
               is_team_persona: Callable[[str], bool] | None = None) -> None:
        """Teams on: the board reads ``store``; messages go to ``runner``."""
        self.store = store
        self.runner = runner
        if is_team_persona is not None:
            self.is_team_persona = is_team_persona
        self.feed = None  # (a board shown reads the new store)
        store.listeners.append(self._board_event.emit)
        self.tree.attach(store)

    def detach(self) -> None:
        if self.store is not None and self._board_event.emit in self.store.listeners:
            self.store.listeners.remove(self._board_event.emit)
        self.store = None
        self.feed = None

    def _on_board_event(self, event: object) -> None:
        if self._tree is not None:
            self._tree.changed()
        if self.feed is not None:
            self.feed.listener(event)  # type: ignore[arg-type]  # (a BoardEvent)

    def _open_feed(self) -> BoardFeed:
        if self.feed is None:
            from openworker_qt.qt.team_board_model import BoardFeed

            assert self.store is not None
            self.feed = BoardFeed(self.board.model, self.store, self)
        return self.feed

    def _act(self, verb: str, item_id: str, **args: Any) -> Any:
        if self.store is None or self.team_id is None:
            from openworker_qt.teams.model import BoardError

            raise BoardError(self.tr("the team is not available"))
        from openworker_qt.teams.model import USER

        return self.store.act(USER, verb, self.team_id, item_id, **args)

    # ---------------------------------------------------------------- showing

    def session_shown(self, session_id: str | None) -> None:
        """The window shows ``session_id`` (None: a new session): its team's board, if any."""
        found = (self.store.team_for_session(session_id)
                 if self.store is not None and session_id else None)
        if found is None:
            self.team_id = None
            self.role = ""
            if self._dock is not None:
                self._dock.hide()
            return
        team, self.role = found
        feed = self._open_feed()
        if team.id != self.team_id or feed.model.team is None:
            self.team_id = team.id
            feed.open(team.id)
        self.dock.setWindowTitle(self.tr("Team") if self.role == "lead"
                                 else self.tr("Team · {worker}").format(
                                     worker=self.role.removeprefix("worker:")))
        self.dock.show()
        self.board.mark_session(session_id if session_id and self.role != "lead" else "")
        self._show_plan_waiting()

    # ------------------------------------------------------------------- plan

    def waiting_plan(self) -> InboxItem | None:
        """The team's plan item waiting for the user, if any."""
        if self._board is None:  # no team shown yet
            return None
        team = self._board.model.team
        if self.inbox is None or team is None or self.team_id is None:
            return None
        for item in self.inbox.pending(team.lead_session_id, kind="plan"):
            if is_plan_item(item.tool, item.arguments):
                return item
        return None

    def _show_plan_waiting(self) -> None:
        if self._board is None:
            return
        waiting = self.waiting_plan()
        self._board.plan_box.setVisible(waiting is not None)
        dialog = self.plan_dialog
        if dialog is not None and (waiting is None or waiting.id != dialog.item.id):
            dialog.close()  # answered somewhere else

    def _plan_dialog_closed(self, _result: int = 0) -> None:
        self.plan_dialog = None

    def review_plan(self) -> PlanDialog | None:
        """The waiting plan's card, in a dialog over the window."""
        item = self.waiting_plan()
        if item is None or self.answers is None:
            return None
        if self.plan_dialog is not None and self.plan_dialog.item.id == item.id:
            self.plan_dialog.raise_()
            return self.plan_dialog
        from openworker_qt.ui.plan_card import PlanDialog

        dialog = PlanDialog(item, self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        answers = self.answers
        dialog.answered.connect(lambda text, i=item.id: answers.resolve(i, text, by="board"))
        dialog.finished.connect(self._plan_dialog_closed)
        self.plan_dialog = dialog
        dialog.show()
        return dialog

    def stop_team(self) -> None:
        """The board's "Stop the team": every turn of its sessions stopped."""
        if self.runner is None or self.team_id is None:
            self._say(self.tr("The team cannot be stopped from here."))
            return
        from openworker_qt.teams.model import BoardError  # (imported with the runner)

        try:
            self._call(self.runner.stop, self.team_id)
        except BoardError as exc:
            self._say(self.tr("The team could not be stopped: {reason}").format(reason=str(exc)))

    # ---------------------------------------------------------------- sending

    def send(self, text: str) -> bool:
        """Route a composer message: True when the team took it (start or send)."""
        if self.runner is None:
            return False
        session = self._current()
        if session is None:
            persona = self._persona()
            if not self.is_team_persona(persona):
                return False
            return self._start(text, persona)
        if self.team_id is None:
            return False
        from openworker_qt.teams.model import BoardError  # (imported with the runner)

        try:
            self._call(self.runner.send, self.team_id, worker_message(self.role, text))
        except BoardError as exc:  # e.g. "@someone" who is not on the team
            self._say(self.tr("The team did not take the message: {reason}").format(
                reason=str(exc)))
        return True

    def _start(self, outcome: str, persona: str) -> bool:
        assert self.runner is not None
        from openworker_qt.teams.model import BoardError  # (imported with the runner)

        try:
            result = self.runner.start(outcome, persona=persona, workspace=self._workspace(),
                                       model=self._model())
        except BoardError as exc:
            self._say(self.tr("The team could not start: {reason}").format(reason=str(exc)))
            return True
        if inspect.isawaitable(result):
            async def started() -> None:
                self._started(await result)

            spawn(started())
        else:
            self._started(result)
        return True

    def _started(self, team: object) -> None:
        from openworker_qt.teams.model import Team

        if not isinstance(team, Team):
            self._say(self.tr("The team could not start."))
            return
        self._refresh()
        self._open_session(team.lead_session_id)

    @staticmethod
    def _call(fn: Callable[..., Any], *args: Any) -> None:
        result = fn(*args)
        if inspect.isawaitable(result):
            spawn(result)
