"""The team board panel (issue 29, items 2 and 7): a team's work by state, live.

At the top the team's outcome, its state in words and its spend against its
budget; below, the items grouped by state (Open, In progress, Review, Done,
Blocked, Canceled; empty groups hidden), each a card with its title, who has it,
its cost so far, a "no progress" mark when its worker went quiet, and its last
comment. A click on a card opens the worker's session; its context menu holds
the user's moves (accept, send back, reopen, reassign, cancel, comment), made
through ``act`` — the store's ``act(USER, …)`` — and a move the board refuses
says why under the header.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QRectF,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListView,
    QMenu,
    QProgressBar,
    QPushButton,
    QStyle,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.qt.team_board_model import (
    COUNT_ROLE,
    HEADER_ROLE,
    ITEM_ROLE,
    STATES,
    TeamBoardModel,
    money,
)
from openworker_qt.teams.model import BoardError, Item, ItemState, Team, TeamState
from openworker_qt.ui import design

AnyIndex = QModelIndex | QPersistentModelIndex
#: ``act(verb, item_id, **args)``: a user's move on the board (raises BoardError).
Act = Callable[..., Any]


def tokens_text(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if n >= 1000:
        return f"{n / 1000:.0f}k"
    return str(n)


class TeamCardDelegate(design.SectionedDelegate):
    """Group labels ("IN PROGRESS  2") and item cards (title; worker · cost · mark;
    last comment)."""

    PAD = design.SPACE["s"]
    GAP = design.SPACE["xs"]
    header_role = HEADER_ROLE
    header_insets = (PAD // 2, PAD // 2, design.SPACE["xxs"])

    def _lines(self, index: AnyIndex) -> int:
        item = index.data(ITEM_ROLE)
        return 3 if isinstance(item, Item) and item.last_comment else 2

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        line = QFontMetrics(option.font).height()
        if index.data(HEADER_ROLE):
            return QSize(120, line + design.SPACE["m"])
        return QSize(120, self._lines(index) * (line + 2) + 2 * self.PAD + self.GAP)

    def header_text(self, index: AnyIndex) -> str:
        return f"{index.data(Qt.ItemDataRole.DisplayRole)}  {index.data(COUNT_ROLE)}"

    def paint_row(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        self._paint_card(painter, option, index)

    def _paint_card(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        item = index.data(ITEM_ROLE)
        if not isinstance(item, Item):
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        c = design.colors(option.palette)
        box = QRectF(option.rect.adjusted(0, self.GAP // 2, -1, -self.GAP // 2))
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        hovered = bool(option.state & QStyle.StateFlag.State_MouseOver)
        border = c.q("accent") if selected else c.q("warning") if item.stuck else c.q("border")
        painter.setPen(border)
        fill = c.q("raised")
        if hovered and not selected:
            fill = design.mix(fill, c.q("accent"), 0.06)
        painter.setBrush(fill)
        radius = design.RADIUS["medium"]
        painter.drawRoundedRect(box.adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
        line = QFontMetrics(option.font).height()
        inner = box.toRect().adjusted(self.PAD + 2, self.PAD, -self.PAD - 2, -self.PAD)
        bold = QFont(option.font)
        bold.setWeight(QFont.Weight.DemiBold)
        self._text(painter, bold, QRect(inner.left(), inner.top(), inner.width(), line),
                   item.title, c.q("text"))
        small = design.font("small", option.font)
        meta_rect = QRect(inner.left(), inner.top() + line + 2, inner.width(), line)
        right = meta_rect.right()
        if item.stuck:
            mark = self.tr("No progress")
            width = QFontMetrics(small).horizontalAdvance(mark)
            painter.setFont(small)
            painter.setPen(c.q("warning"))
            painter.drawText(QRect(right - width, meta_rect.top(), width, line),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), mark)
            right -= width + design.SPACE["s"]
        who = item.assignee or self.tr("Unassigned")
        meta = f"{who} · {money(item.cost_usd)}"
        self._text(painter, small, QRect(meta_rect.left(), meta_rect.top(),
                                         max(0, right - meta_rect.left()), line), meta, c.q("muted"))
        if item.last_comment:
            author = self.author(item.last_comment_by)
            by = f"{author}: " if author else ""
            self._text(painter, small, QRect(inner.left(), inner.top() + 2 * (line + 2),
                                             inner.width(), line),
                       by + " ".join(item.last_comment.split()), c.q("muted"))

    def author(self, actor: str) -> str:
        """Who wrote a comment, in words: a worker by its name."""
        if actor.startswith("worker:"):
            return actor[len("worker:"):]
        return {"lead": self.tr("Lead"), "user": self.tr("You")}.get(actor, "")

    @staticmethod
    def _text(painter: QPainter, font: QFont, rect: QRect, text: str, color: QColor) -> None:
        painter.setFont(font)
        painter.setPen(color)
        elided = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), elided)


class TeamBoard(QFrame):
    """See module docstring.

    Signals:
        open_session(str): the user clicked a card whose worker has a session.
        review_plan(): the user asked to see the team's plan waiting for approval.
        stop_requested(): the user chose to stop the team (from the team menu).
    """

    open_session = Signal(str)
    review_plan = Signal()
    stop_requested = Signal()

    def __init__(self, model: TeamBoardModel | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("teamBoard")
        self.model = model or TeamBoardModel(self)
        self.act: Act | None = None
        self.menu: QMenu | None = None
        self.dialog: QInputDialog | None = None
        lay = QVBoxLayout(self)
        design.arrange(lay, "box", "tight")
        self.outcome = QLabel()
        self.outcome.setObjectName("teamOutcome")
        self.outcome.setWordWrap(True)
        self.outcome.setFont(design.font("heading", self.outcome.font()))
        self.outcome.setAccessibleName(self.tr("Team outcome"))
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.outcome, 1)
        self.team_button = QToolButton()
        self.team_button.setObjectName("teamMenu")
        self.team_button.setText("⋯")
        self.team_button.setAutoRaise(True)
        self.team_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.team_button.setStyleSheet("QToolButton#teamMenu::menu-indicator { image: none; }")
        self.team_button.setToolTip(self.tr("Budget, stop"))
        self.team_button.setAccessibleName(self.tr("Team actions"))
        self.team_button.setAccessibleDescription(self.tr("Change the team's budget or stop it"))
        self.team_menu = QMenu(self)
        self.budget_action = self.team_menu.addAction(self.tr("Change the budget…"),
                                                      self.ask_budget)
        self.stop_action = self.team_menu.addAction(self.tr("Stop the team"))
        self.stop_action.triggered.connect(self.stop_requested)
        self.team_button.setMenu(self.team_menu)
        head.addWidget(self.team_button, 0, Qt.AlignmentFlag.AlignTop)
        lay.addLayout(head)
        self.status = QLabel()
        self.status.setObjectName("teamStatus")
        self.status.setAccessibleName(self.tr("Team status"))
        design.tint(self.status, "muted")
        lay.addWidget(self.status)
        self.spend = QLabel()
        self.spend.setObjectName("teamSpend")
        self.spend.setAccessibleName(self.tr("Team spend"))
        lay.addWidget(self.spend)
        self.budget_bar = QProgressBar()
        self.budget_bar.setObjectName("teamBudget")
        self.budget_bar.setTextVisible(False)
        self.budget_bar.setMaximumHeight(design.SPACE["xs"] + 2)
        self.budget_bar.setRange(0, 1000)
        self.budget_bar.setAccessibleName(self.tr("Budget used"))
        lay.addWidget(self.budget_bar)
        plan_row = QHBoxLayout()
        self.plan_note = QLabel(self.tr("The lead's plan is waiting for you."))
        self.plan_note.setObjectName("teamPlanNote")
        self.plan_note.setWordWrap(True)
        design.tint(self.plan_note, "warning")
        self.plan_button = QPushButton(self.tr("Review the plan…"))
        self.plan_button.setObjectName("teamReviewPlan")
        self.plan_button.setAccessibleName(self.tr("Review the plan"))
        self.plan_button.setAccessibleDescription(
            self.tr("Open the lead's plan to change it, accept it or decline it"))
        self.plan_button.clicked.connect(self.review_plan)
        plan_row.addWidget(self.plan_note, 1)
        plan_row.addWidget(self.plan_button)
        self.plan_box = QWidget()
        self.plan_box.setLayout(plan_row)
        plan_row.setContentsMargins(0, 0, 0, 0)
        self.plan_box.hide()
        lay.addWidget(self.plan_box)
        self.problem = QLabel()
        self.problem.setObjectName("teamProblem")
        self.problem.setWordWrap(True)
        design.tint(self.problem, "danger")
        self.problem.hide()
        lay.addWidget(self.problem)
        self.list = QListView()
        self.list.setObjectName("teamItems")
        self.list.setModel(self.model)
        self.list.setItemDelegate(TeamCardDelegate(self.list))
        self.list.setFrameShape(QFrame.Shape.NoFrame)
        self.list.setMouseTracking(True)
        self.list.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.setAccessibleName(self.tr("Work items"))
        self.list.viewport().setAutoFillBackground(False)
        lay.addWidget(self.list, 1)
        self.list.clicked.connect(self._on_clicked)
        self.list.customContextMenuRequested.connect(self._on_menu)
        self.model.team_changed.connect(self._show_team)
        for signal in (self.model.rowsInserted, self.model.rowsRemoved, self.model.modelReset,
                       self.model.dataChanged):
            signal.connect(self._hide_empty_groups)
        self.setAccessibleName(self.tr("Team board"))
        self._show_team(self.model.team)

    # ----------------------------------------------------------------- header

    def _show_team(self, team: object) -> None:
        if not isinstance(team, Team):
            self.outcome.clear()
            self.status.clear()
            self.spend.clear()
            self.budget_bar.hide()
            return
        self.outcome.setText(team.outcome)
        live = team.state not in (TeamState.DONE, TeamState.STOPPED, TeamState.FAILED)
        self.stop_action.setEnabled(live)
        self.budget_action.setEnabled(live)
        done = len(self.model.items(ItemState.DONE))
        total = len([i for i in self.model.items() if i.state is not ItemState.CANCELED])
        state = self.team_state_text(team.state)
        self.status.setText(self.tr("{state} · {done} of {total} done").format(
            state=state, done=done, total=total) if total else state)
        self.spend.setText(self.spend_text(team))
        if team.budget_usd:
            self.budget_bar.setValue(min(1000, int(1000 * team.spent_usd / team.budget_usd)))
            self.budget_bar.show()
        else:
            self.budget_bar.hide()

    def team_state_text(self, state: TeamState) -> str:
        return {
            TeamState.PLANNING: self.tr("The lead is planning"),
            TeamState.AWAITING_PLAN: self.tr("Waiting for you to approve the plan"),
            TeamState.RUNNING: self.tr("Working"),
            TeamState.ASSEMBLING: self.tr("The lead is putting the result together"),
            TeamState.DONE: self.tr("Finished"),
            TeamState.STOPPED: self.tr("Stopped"),
            TeamState.OVER_BUDGET: self.tr("Paused: the budget is used up"),
            TeamState.FAILED: self.tr("Failed"),
        }[state]

    def spend_text(self, team: Team) -> str:
        if not team.spent_usd and not team.tokens:
            return (self.tr("Nothing spent yet · budget {budget}").format(
                budget=money(team.budget_usd)) if team.budget_usd else self.tr("Nothing spent yet"))
        cost = (self.tr("{spent} of {budget}").format(spent=money(team.spent_usd),
                                                     budget=money(team.budget_usd))
                if team.budget_usd else money(team.spent_usd))
        if team.budget_tokens:
            tokens = self.tr("{used} of {budget} tokens").format(
                used=tokens_text(team.tokens), budget=tokens_text(team.budget_tokens))
        else:
            tokens = self.tr("{used} tokens").format(used=tokens_text(team.tokens))
        return self.tr("Spent {cost} · {tokens}").format(cost=cost, tokens=tokens)

    def _hide_empty_groups(self, *_args: object) -> None:
        for state in STATES:
            row = self.model.header_row(state)
            self.list.setRowHidden(row, not self.model.items(state))
        self._show_team(self.model.team)

    def mark_session(self, session_id: str) -> None:
        """Select the card of the item ``session_id`` works on (a worker's session
        shown), or none (the lead's)."""
        self.list.clearSelection()
        for item in self.model.items():
            if session_id and item.session_id == session_id:
                row = self.model.row_of(item.id)
                if row is not None:
                    index = self.model.index(row, 0)
                    self.list.setCurrentIndex(index)
                    self.list.scrollTo(index)
                return

    # ---------------------------------------------------------------- actions

    def _item_at(self, index: QModelIndex) -> Item | None:
        item = index.data(ITEM_ROLE) if index.isValid() else None
        return item if isinstance(item, Item) else None

    def _on_clicked(self, index: QModelIndex) -> None:
        item = self._item_at(index)
        if item is not None and item.session_id:
            self.open_session.emit(item.session_id)

    def _on_menu(self, pos: QPoint) -> None:
        item = self._item_at(self.list.indexAt(pos))
        if item is None:
            return
        self.menu = self.item_menu(item)
        self.menu.popup(self.list.viewport().mapToGlobal(pos))

    def item_menu(self, item: Item) -> QMenu:
        """The user's moves on ``item`` (what its state allows)."""
        menu = QMenu(self)
        s = item.state
        if item.session_id:
            menu.addAction(self.tr("Open the worker's session"),
                           lambda: self.open_session.emit(item.session_id))
            menu.addSeparator()
        if s is ItemState.REVIEW:
            menu.addAction(self.tr("Accept"), lambda: self.move_item(item, ItemState.DONE))
            menu.addAction(self.tr("Send back…"),
                           lambda: self.ask_comment(item, ItemState.IN_PROGRESS))
        if s in (ItemState.DONE, ItemState.CANCELED, ItemState.BLOCKED):
            menu.addAction(self.tr("Reopen"), lambda: self.move_item(item, ItemState.OPEN))
        workers = [w.name for w in self.model.team.workers] if self.model.team else []
        if s not in (ItemState.DONE, ItemState.CANCELED) and workers:
            assign = menu.addMenu(self.tr("Assign to"))
            for name in workers:
                action = assign.addAction(name, partial(self.assign, item, name))
                action.setEnabled(name != item.assignee)
        menu.addAction(self.tr("Comment…"), lambda: self.ask_comment(item, None))
        if s is not ItemState.CANCELED and s is not ItemState.DONE:
            menu.addSeparator()
            menu.addAction(self.tr("Cancel this item"), lambda: self.move_item(item, ItemState.CANCELED))
        return menu

    def assign(self, item: Item, worker: str) -> None:
        self.do("assign", item, worker=worker)

    def ask_budget(self) -> QInputDialog | None:
        """The team's cost budget, raised or lowered (0: no limit) through ``act``."""
        team = self.model.team
        if team is None:
            return None
        dialog = QInputDialog(self)
        dialog.setInputMode(QInputDialog.InputMode.DoubleInput)
        dialog.setWindowTitle(self.tr("Team budget"))
        dialog.setLabelText(self.tr("Cost budget in dollars (0 for no limit); spent so far: {spent}")
                            .format(spent=money(team.spent_usd)))
        dialog.setDoubleRange(0.0, 10_000.0)
        dialog.setDoubleDecimals(2)
        dialog.setDoubleValue(team.budget_usd or 0.0)
        dialog.setOkButtonText(self.tr("Set budget"))
        dialog.setCancelButtonText(self.tr("Cancel"))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.doubleValueSelected.connect(self.set_budget)
        self.dialog = dialog
        dialog.open()
        return dialog

    def set_budget(self, usd: float) -> bool:
        if self.act is None:
            return False
        try:
            self.act("budget", "", budget_usd=usd if usd > 0 else None)
        except BoardError as exc:
            self.problem.setText(self.tr("That did not work: {reason}").format(reason=str(exc)))
            self.problem.show()
            return False
        self.problem.hide()
        return True

    def move_item(self, item: Item, to: ItemState, comment: str = "") -> None:
        self.do("transition", item, to=to.value, comment=comment)

    def ask_comment(self, item: Item, to: ItemState | None) -> QInputDialog:
        """A comment for ``item`` (sending it back when ``to`` is set)."""
        dialog = QInputDialog(self)
        dialog.setWindowTitle(self.tr("Send back") if to else self.tr("Comment"))
        dialog.setLabelText(self.tr("What should change in “{title}”?").format(title=item.title)
                            if to else self.tr("Your comment on “{title}”").format(title=item.title))
        dialog.setOkButtonText(self.tr("Send back") if to else self.tr("Comment"))
        dialog.setCancelButtonText(self.tr("Cancel"))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen(text: str) -> None:
            text = text.strip()
            if to is not None:
                self.move_item(item, to, text)
            elif text:
                self.do("comment", item, text=text)

        dialog.textValueSelected.connect(chosen)
        self.dialog = dialog
        dialog.open()
        return dialog

    def do(self, verb: str, item: Item, **args: Any) -> bool:
        """Make a user's move through :attr:`act`; a refused one says why."""
        if self.act is None:
            return False
        try:
            self.act(verb, item.id, **args)
        except BoardError as exc:
            self.problem.setText(self.tr("That did not work: {reason}").format(reason=str(exc)))
            self.problem.show()
            return False
        self.problem.hide()
        return True
