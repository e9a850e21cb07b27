"""The team plan card: the lead's proposal, edited and approved once (issue 29, item 1).

A team's plan waits in the inbox as one item of kind ``plan`` with the tool
``team_plan`` and the arguments ``{"team_id", "plan": Plan.to_json()}``. The card
shows the outcome, the work items (title, criteria, who does it; each removable),
the workers (a persona picker and a read-only switch each), the budget (cost in
dollars, tokens) and how many workers run at once. *Accept* answers ``approve`` when
nothing changed, else ``approve: <the edited plan as JSON>``; *Decline* answers
``deny`` or ``deny: <reason>``. The edited plan is checked with
:meth:`Plan.from_json` first, and a plan that cannot run says why in plain words.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QBoxLayout,
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.core.inbox import InboxItem
from openworker_qt.teams.model import BoardError, Plan, PlanItem, WorkerSpec
from openworker_qt.ui import design
from openworker_qt.ui.approval import card_frame
from openworker_qt.ui.plan_items import is_plan_item, persona_choices

MAX_PARALLEL_SHOWN = 8
READ_ONLY_MODE = "plan"
FIELD_WIDTH = 220  # px: a persona picker, a budget (not the card's whole width)


def _tr(text: str) -> str:
    return QCoreApplication.translate("PlanCard", text)


def plan_problem(error: BoardError) -> str:
    """What a refused plan means to the user (the checks speak to the lead)."""
    text = str(error)
    if "no work items" in text:
        return _tr("Keep at least one work item: a team needs something to do.")
    if "unknown worker" in text:
        return _tr("A work item names a worker who is not on the team.")
    if "share a name" in text:
        return _tr("Two workers have the same name; the lead has to rename one.")
    if "share a key" in text:
        return _tr("Two work items are the same; decline and ask the lead for a new plan.")
    if "in parallel" in text:
        return _tr("Choose between 1 and 8 workers at once.")
    return _tr("This plan cannot run as it is. Decline it and tell the lead what to fix.")


class _ItemRow(QFrame):
    """One work item: its title, criteria and worker, and a Remove button."""

    def __init__(self, item: PlanItem, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        self.removed = False
        lay = QHBoxLayout(self)
        design.arrange(lay, "flush", "row")
        text = QVBoxLayout()
        text.setSpacing(design.SPACE["xxs"])
        title = QLabel(item.title)
        title.setWordWrap(True)
        bold = title.font()
        bold.setBold(True)
        title.setFont(bold)
        text.addWidget(title)
        if item.criteria:
            criteria = QLabel(_tr("Done when: {criteria}").format(criteria=item.criteria))
            criteria.setWordWrap(True)
            design.tint(criteria, "muted")
            text.addWidget(criteria)
        who = QLabel(_tr("Worker: {name}").format(name=item.worker) if item.worker
                     else _tr("Not assigned yet"))
        design.tint(who, "muted")
        text.addWidget(who)
        lay.addLayout(text, 1)
        self.remove = QToolButton()
        self.remove.setText(_tr("Remove"))
        self.remove.setAutoRaise(True)
        self.remove.setAccessibleName(_tr("Remove “{title}” from the plan").format(title=item.title))
        self.remove.clicked.connect(self.drop)
        lay.addWidget(self.remove, 0, Qt.AlignmentFlag.AlignTop)
        self.setAccessibleName(item.title)

    def drop(self) -> None:
        self.removed = True
        self.hide()


class PlanCard(QWidget):
    """See module docstring. ``personas``: (name, title) of the personas a worker may
    run as (the persona registry's); a worker's own persona is offered too.

    Signals:
        answered(str): ``approve``, ``approve: <JSON>``, ``deny`` or ``deny: <reason>``.
    """

    answered = Signal(str)

    def __init__(self, arguments: Mapping[str, Any], personas: Sequence[tuple[str, str]] = (),
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("planCard")
        self.team_id = str(arguments.get("team_id") or "")
        self.original: Plan | None = None
        problem = ""
        try:
            self.original = Plan.from_json(dict(arguments.get("plan") or {}))
        except BoardError as exc:
            problem = plan_problem(exc)
        plan = self.original or Plan("", (), ())
        outer = QVBoxLayout(self)
        outer.setContentsMargins(design.SPACE["m"], design.SPACE["xxs"], design.SPACE["m"], design.SPACE["s"])
        frame = card_frame()
        frame.setProperty("attention", True)
        outer.addWidget(frame)
        lay = QVBoxLayout(frame)
        design.arrange(lay, "box", "section")
        lay.addWidget(design.heading(self.tr("Team plan for your approval")))
        self.outcome = QLabel(plan.outcome)
        self.outcome.setWordWrap(True)
        self.outcome.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.outcome.setAccessibleName(self.tr("Outcome"))
        lay.addWidget(self.outcome)
        lay.addWidget(self._section(self.tr("Work items")))
        self.rows = [_ItemRow(item) for item in plan.items]
        for row in self.rows:
            lay.addWidget(row)
        lay.addWidget(self._section(self.tr("Workers")))
        lay.addLayout(self._workers_grid(plan.workers, personas))
        lay.addWidget(self._section(self.tr("Limits")))
        lay.addLayout(self._limits_form(plan))
        self.error = QLabel(problem)
        self.error.setObjectName("planError")
        self.error.setWordWrap(True)
        self.error.setAccessibleName(self.tr("Problem with the plan"))
        design.tint(self.error, "danger")
        self.error.setVisible(bool(problem))
        lay.addWidget(self.error)
        lay.addLayout(self._buttons())
        self.accept_button.setEnabled(self.original is not None)
        self.setAccessibleName(self.tr("Team plan for your approval"))
        self.setAccessibleDescription(plan.outcome)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setFocusProxy(self.accept_button)

    @staticmethod
    def _section(text: str) -> QLabel:
        label = QLabel(text)
        bold = label.font()
        bold.setBold(True)
        label.setFont(bold)
        design.tint(label, "muted")
        return label

    def _workers_grid(self, workers: Sequence[WorkerSpec],
                      personas: Sequence[tuple[str, str]]) -> QGridLayout:
        grid = QGridLayout()
        grid.setHorizontalSpacing(design.SPACE["m"])
        grid.setVerticalSpacing(design.SPACE["xs"])
        grid.setColumnStretch(3, 1)  # (the pickers keep their width, flush left)
        self.worker_specs = list(workers)
        self.persona_boxes: list[QComboBox] = []
        self.read_only_boxes: list[QCheckBox] = []
        for row, worker in enumerate(workers):
            grid.addWidget(QLabel(worker.name), row, 0)
            box = QComboBox()
            box.setAccessibleName(self.tr("Persona of {name}").format(name=worker.name))
            offered = list(personas)
            if worker.persona not in {name for name, _ in offered}:
                offered.insert(0, (worker.persona, worker.persona))
            for name, title in offered:
                box.addItem(title, name)
            box.setCurrentIndex(max(0, box.findData(worker.persona)))
            box.setMinimumWidth(FIELD_WIDTH * 3 // 4)
            box.setMaximumWidth(FIELD_WIDTH)
            grid.addWidget(box, row, 1)
            check = QCheckBox(self.tr("Read-only"))
            check.setToolTip(self.tr("This worker may read and search but not change files"))
            check.setAccessibleName(self.tr("{name} is read-only").format(name=worker.name))
            check.setChecked(worker.mode == READ_ONLY_MODE)
            grid.addWidget(check, row, 2)
            self.persona_boxes.append(box)
            self.read_only_boxes.append(check)
        return grid

    def _limits_form(self, plan: Plan) -> QFormLayout:
        form = QFormLayout()
        form.setHorizontalSpacing(design.SPACE["m"])
        form.setVerticalSpacing(design.SPACE["xs"])
        self.budget_usd = QDoubleSpinBox()
        self.budget_usd.setRange(0.0, 10_000.0)
        self.budget_usd.setDecimals(2)
        self.budget_usd.setSingleStep(1.0)
        self.budget_usd.setPrefix("$")
        self.budget_usd.setSpecialValueText(self.tr("No limit"))
        self.budget_usd.setValue(plan.budget_usd or 0.0)
        self.budget_usd.setAccessibleName(self.tr("Team budget in dollars"))
        form.addRow(self.tr("Cost budget"), self.budget_usd)
        self.budget_tokens = QSpinBox()
        self.budget_tokens.setRange(0, 1_000_000_000)
        self.budget_tokens.setSingleStep(100_000)
        self.budget_tokens.setGroupSeparatorShown(True)
        self.budget_tokens.setSpecialValueText(self.tr("No limit"))
        self.budget_tokens.setValue(plan.budget_tokens or 0)
        self.budget_tokens.setAccessibleName(self.tr("Team budget in tokens"))
        form.addRow(self.tr("Token budget"), self.budget_tokens)
        self.parallel = QSpinBox()
        self.parallel.setRange(1, MAX_PARALLEL_SHOWN)
        self.parallel.setValue(min(max(plan.max_parallel, 1), MAX_PARALLEL_SHOWN))
        self.parallel.setAccessibleName(self.tr("Workers in parallel"))
        form.addRow(self.tr("Workers at once"), self.parallel)
        for field in (self.budget_usd, self.budget_tokens, self.parallel):
            field.setMaximumWidth(FIELD_WIDTH)
        return form

    def _buttons(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.setSpacing(design.SPACE["s"])
        self.reason = QLineEdit()
        self.reason.setPlaceholderText(self.tr("Reason for declining (optional)"))
        self.reason.setAccessibleName(self.tr("Reason for declining"))
        self.reason.returnPressed.connect(self.decline)
        row.addWidget(self.reason, 1)
        self.decline_button = QPushButton(self.tr("Decline"))
        self.decline_button.setAccessibleName(self.tr("Decline the plan"))
        self.decline_button.setAccessibleDescription(
            self.tr("Turn the plan down; the reason, if any, goes to the lead"))
        self.decline_button.clicked.connect(self.decline)
        row.addWidget(self.decline_button)
        self.accept_button = QPushButton(self.tr("Accept plan"))
        self.accept_button.setAccessibleName(self.tr("Accept the plan"))
        self.accept_button.setAccessibleDescription(
            self.tr("Start the team with the plan as it is shown here"))
        self.accept_button.setDefault(True)
        self.accept_button.clicked.connect(self.accept)
        row.addWidget(self.accept_button)
        return row

    # ---------------------------------------------------------------- answers

    def edited(self) -> Plan:
        """The plan as the card shows it now (not checked)."""
        base = self.original or Plan("", (), ())
        workers = []
        for spec, box, check in zip(self.worker_specs, self.persona_boxes, self.read_only_boxes,
                                    strict=True):
            mode = spec.mode
            if check.isChecked():
                mode = READ_ONLY_MODE
            elif spec.mode == READ_ONLY_MODE:
                mode = "interactive"  # asks before anything consequential
            workers.append(replace(spec, persona=str(box.currentData() or spec.persona), mode=mode))
        usd = self.budget_usd.value()
        tokens = self.budget_tokens.value()
        return replace(base, items=tuple(r.item for r in self.rows if not r.removed),
                       workers=tuple(workers), budget_usd=usd if usd > 0 else None,
                       budget_tokens=tokens if tokens > 0 else None,
                       max_parallel=self.parallel.value())

    def answer(self) -> str | None:
        """The Accept answer, or None (and the reason shown) when the plan cannot run."""
        if self.original is None:
            return None
        data = self.edited().to_json()
        try:
            Plan.from_json(data)
        except BoardError as exc:
            self.error.setText(plan_problem(exc))
            self.error.show()
            return None
        self.error.hide()
        if data == self.original.to_json():
            return "approve"
        return "approve: " + json.dumps(data, ensure_ascii=False)

    def accept(self) -> None:
        text = self.answer()
        if text is not None:
            self.answered.emit(text)

    def decline(self) -> None:
        reason = self.reason.text().strip()
        self.answered.emit(f"deny: {reason}" if reason else "deny")

    def heightForWidth(self, width: int) -> int:
        lay = self.layout()
        h = lay.heightForWidth(width) if lay is not None and lay.hasHeightForWidth() else -1
        return max(h, self.sizeHint().height())


class PlanSlot:
    """Where a window shows the plan card of the inbox item it shows (the inbox
    window's detail pane): in ``layout`` at ``index``, scrolled when tall."""

    def __init__(self, layout: QBoxLayout, index: int) -> None:
        self.layout = layout
        self.index = index
        self.card: PlanCard | None = None
        self.item_id: int | None = None
        self.scroll = QScrollArea()
        self.scroll.setObjectName("planScroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.hide()
        layout.insertWidget(index, self.scroll, 2)

    def show(self, item: InboxItem | None, answer: Callable[[InboxItem, str], None]) -> bool:
        """Show ``item``'s plan card (True), or none when it is not a team's plan."""
        if item is None or not is_plan_item(item.tool, item.arguments):
            self._clear()
            return False
        if self.card is not None and self.item_id == item.id:
            return True
        self._clear()
        self.card = PlanCard(item.arguments, persona_choices())
        self.card.answered.connect(lambda text, i=item: answer(i, text))
        self.item_id = item.id
        self.scroll.setWidget(self.card)
        self.scroll.show()
        return True

    def _clear(self) -> None:
        if self.card is not None:
            self.scroll.takeWidget()
            self.card.deleteLater()
        self.card = None
        self.item_id = None
        self.scroll.hide()


class PlanDialog(QDialog):
    """A team's plan card in a window of its own (from the board: the dock is narrow).
    Closing it is not an answer: the plan keeps waiting in the inbox.

    Signals:
        answered(str): the user accepted or declined; the resolution text sent.
    """

    answered = Signal(str)

    def __init__(self, item: InboxItem, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        self.setWindowTitle(self.tr("Team plan"))
        lay = QVBoxLayout(self)
        design.arrange(lay, "flush", "tight")
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.card = PlanCard(item.arguments, persona_choices())
        scroll.setWidget(self.card)
        lay.addWidget(scroll)
        self.card.answered.connect(self._on_answered)
        self.resize(720, 760)

    def _on_answered(self, text: str) -> None:
        self.answered.emit(text)
        self.close()
