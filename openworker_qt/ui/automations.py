"""The Automations window: scheduled tasks, their editor and their run history.

Left: every automation — its name, its schedule in words, its next run in this
computer's time, and a mark when its last run failed and nobody looked yet.
Right: the selected automation's runs (when, why, status, deliverables); a
double-click (or Enter) on a run opens its session. Buttons: New…, Edit…,
Run now, Pause/Resume, Delete. Below: what the task's runs may do without
asking (its standing rules: exact external targets, exact shell commands),
each removable; and, while a run waits on a shell command, "Always for this
task: this exact command" answers that ask (given the inbox).

:class:`AutomationEditor` edits one automation: name, instructions, schedule
(repeating, with a cron and a time zone, or once, at a date and time), model,
folder and what to do about missed runs; a preview says the schedule in words
with its next three runs, or what is wrong with it, and Save waits until the
schedule is right.

Built from an :class:`~openworker_qt.automation.store.AutomationStore`, a
``run_now(automation_id)`` callable and (optionally) the
:class:`~openworker_qt.core.inbox.Inbox`; the app connects the signals.

Signals:
    open_session_requested(str): the user wants to see a run's session.
    failures_seen(): the user looked at a failed run (the badge may change).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PySide6.QtCore import QCoreApplication, QDateTime, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QComboBox,
    QDateTimeEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.automation.schedule import (
    Schedule,
    ScheduleError,
    next_fires,
    parse_cron,
)
from openworker_qt.automation.schedule_words import PRESETS
from openworker_qt.automation.store import (
    Automation,
    AutomationError,
    AutomationStore,
    Run,
    make_schedule,
)
from openworker_qt.core.inbox import Inbox, InboxItem, task_command
from openworker_qt.core.standing_rules import StandingRule
from openworker_qt.ui import design
from openworker_qt.ui.schedule_text import local_time, local_zone, schedule_words
from openworker_qt.ui.window_state import open_fitted

__all__ = ["AutomationEditor", "AutomationsWindow"]

ID_ROLE = Qt.ItemDataRole.UserRole


@lru_cache(maxsize=1)
def _zones() -> list[str]:
    from zoneinfo import available_timezones

    return sorted(z for z in available_timezones() if "/" in z or z == "UTC")


class AutomationEditor(QDialog):
    """Create or edit one automation (see module docstring)."""

    def __init__(self, store: AutomationStore, automation: Automation | None = None, *,
                 workspace: str = "", parent: QWidget | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        super().__init__(parent)
        open_fitted(self, (560, 0))
        self.store = store
        self.automation = automation
        self.clock = clock
        self.saved: Automation | None = None
        self.setObjectName("automationEditor")
        self.setWindowTitle(self.tr("New automation") if automation is None
                            else self.tr("Edit automation"))
        self.setAccessibleName(self.windowTitle())
        form = QFormLayout()
        self.name = QLineEdit(automation.name if automation else "")
        self.name.setAccessibleName(self.tr("Name"))
        self.prompt = QPlainTextEdit(automation.prompt if automation else "")
        self.prompt.setAccessibleName(self.tr("Instructions"))
        self.prompt.setPlaceholderText(self.tr("What should OpenWorker do each time?"))
        self.repeat = QRadioButton(self.tr("Repeat"))
        self.once = QRadioButton(self.tr("Once"))
        kinds = QButtonGroup(self)
        kinds.addButton(self.repeat)
        kinds.addButton(self.once)
        kind_row = QHBoxLayout()
        kind_row.addWidget(self.repeat)
        kind_row.addWidget(self.once)
        kind_row.addStretch(1)
        self.preset = QComboBox()
        self.preset.setAccessibleName(self.tr("Schedule presets"))
        self.preset.addItem(self.tr("Custom"), "")
        for words, cron in PRESETS:
            self.preset.addItem(QCoreApplication.translate("SchedulePreset", words), cron)
        self.cron = QLineEdit(automation.schedule.cron if automation else "0 9 * * 1-5")
        self.cron.setAccessibleName(self.tr("Schedule"))
        self.cron.setPlaceholderText(self.tr("e.g. every weekday at 9am"))
        self.cron.setToolTip(self.tr(
            "In words — “every weekday at 9am”, “every day at 18:30”, “every 15 minutes”, "
            "“on the 1st of every month at 9am” — or as cron: minute hour day-of-month "
            "month day-of-week, e.g. 0 8 * * 1-5"))
        cron_row = QHBoxLayout()
        cron_row.addWidget(self.preset)
        cron_row.addWidget(self.cron, 1)
        self.at = QDateTimeEdit()
        self.at.setCalendarPopup(True)
        self.at.setAccessibleName(self.tr("Date and time"))
        start = (automation.schedule.at if automation and automation.schedule.at
                 else self.clock() + 3600)
        self.at.setDateTime(QDateTime.fromSecsSinceEpoch(int(start)))
        self.tz = QComboBox()
        self.tz.setEditable(True)
        self.tz.setAccessibleName(self.tr("Time zone"))
        self.tz.addItems(_zones())
        self.tz.setCurrentText(automation.schedule.tz if automation else local_zone())
        self.model = QLineEdit(automation.model if automation else "")
        self.model.setAccessibleName(self.tr("Model"))
        self.model.setPlaceholderText(self.tr("the default model"))
        self.workspace = QLineEdit(automation.workspace if automation else workspace)
        self.workspace.setAccessibleName(self.tr("Folder"))
        self.missed = QComboBox()
        self.missed.setAccessibleName(self.tr("Missed runs"))
        self.missed.addItem(self.tr("Run once when the app starts"), "run_once")
        self.missed.addItem(self.tr("Skip them"), "skip")
        self.missed.setCurrentIndex(1 if automation and automation.missed == "skip" else 0)
        self.battery = QSpinBox()
        self.battery.setRange(0, 100)
        self.battery.setSuffix(" %")
        self.battery.setSpecialValueText(self.tr("Never wait"))
        self.battery.setValue((automation.battery_floor or 0) if automation else 0)
        self.battery.setAccessibleName(self.tr("Wait for power below"))
        self.battery.setToolTip(self.tr("On battery below this level, a due run waits until "
                                        "the computer is plugged in"))
        self.preview = QLabel()
        self.preview.setObjectName("schedulePreview")
        self.preview.setWordWrap(True)
        self.preview.setAccessibleName(self.tr("Schedule preview"))
        self.preview.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.tr("Name"), self.name)
        form.addRow(self.tr("Instructions"), self.prompt)
        form.addRow(self.tr("When"), kind_row)
        form.addRow(self.tr("Schedule"), cron_row)
        form.addRow(self.tr("Date and time"), self.at)
        form.addRow(self.tr("Time zone"), self.tz)
        form.addRow(self.tr("Model"), self.model)
        form.addRow(self.tr("Folder"), self.workspace)
        form.addRow(self.tr("Missed runs"), self.missed)
        form.addRow(self.tr("On battery, wait for power below"), self.battery)
        form.addRow(self.preview)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        self.error = QLabel()
        self.error.setObjectName("editorError")
        self.error.setWordWrap(True)
        design.tint(self.preview, "muted")
        design.tint(self.error, "danger")
        form.setVerticalSpacing(design.GAP["row"])
        form.setHorizontalSpacing(design.GAP["section"])
        outer = QVBoxLayout(self)
        design.arrange(outer, "dialog", "section")
        outer.addLayout(form)
        outer.addWidget(self.error)
        outer.addWidget(self.buttons)
        once = automation is not None and automation.schedule.kind == "once"
        (self.once if once else self.repeat).setChecked(True)
        for signal in (self.cron.textChanged, self.tz.currentTextChanged, self.at.dateTimeChanged,
                       self.repeat.toggled):
            signal.connect(self.update_preview)
        self.preset.activated.connect(self._use_preset)
        self.cron.textEdited.connect(self._match_preset)
        self._match_preset()
        self.update_preview()

    def _use_preset(self, index: int) -> None:
        cron = self.preset.itemData(index)
        if cron:
            self.cron.setText(str(cron))

    def _match_preset(self) -> None:
        """Show the preset the typed schedule is (or "Custom")."""
        try:
            cron = parse_cron(self.cron.text())
        except ScheduleError:
            cron = ""
        found = self.preset.findData(cron) if cron else -1
        self.preset.setCurrentIndex(max(found, 0))

    def schedule(self) -> Schedule:
        """The schedule as typed (raises :class:`ScheduleError` when it is wrong)."""
        tz = self.tz.currentText().strip()
        if self.repeat.isChecked():
            return make_schedule(cron=self.cron.text(), tz=tz, now=self.clock())
        return make_schedule(at=float(self.at.dateTime().toSecsSinceEpoch()), tz=tz,
                             now=self.clock())

    def update_preview(self) -> None:
        repeat = self.repeat.isChecked()
        self.cron.setEnabled(repeat)
        self.preset.setEnabled(repeat)
        self.at.setEnabled(not repeat)
        save = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        try:
            schedule = self.schedule()
        except ScheduleError as exc:
            self.preview.setText(str(exc)[:1].upper() + str(exc)[1:])
            self.preview.setProperty("error", True)
            save.setEnabled(False)
            return
        fires = next_fires(schedule, self.clock(), 3)
        when = ", ".join(local_time(f) for f in fires) or self.tr("none")
        self.preview.setText(self.tr("{words}\nNext runs (your time): {when}").format(
            words=schedule_words(schedule), when=when))
        self.preview.setProperty("error", False)
        save.setEnabled(True)

    def save(self) -> None:
        repeat = self.repeat.isChecked()
        fields: dict[str, Any] = {
            "name": self.name.text(), "prompt": self.prompt.toPlainText(),
            "tz": self.tz.currentText().strip(), "model": self.model.text().strip(),
            "workspace": self.workspace.text().strip(), "missed": self.missed.currentData(),
            "battery_floor": self.battery.value() or None,
        }
        if repeat:
            fields["cron"] = self.cron.text()
        else:
            fields["at"] = float(self.at.dateTime().toSecsSinceEpoch())
        try:
            if self.automation is None:
                self.saved = self.store.create(**fields)
            else:
                if repeat:
                    fields["at"] = None
                else:
                    fields["cron"] = None
                self.saved = self.store.update(self.automation.id, **fields)
        except (AutomationError, ScheduleError, ValueError) as exc:
            self.error.setText(str(exc)[:1].upper() + str(exc)[1:])
            return
        self.accept()


class AutomationsWindow(QWidget):
    """The list, the run history and the actions (see module docstring)."""

    open_session_requested = Signal(str)
    failures_seen = Signal()

    def __init__(self, store: AutomationStore, run_now: Callable[[str], object], *,
                 workspace: str = "", parent: QWidget | None = None,
                 clock: Callable[[], float] = time.time, inbox: Inbox | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.store = store
        self.run_now = run_now
        self.inbox = inbox
        self.workspace = workspace
        self.clock = clock
        self.editor: AutomationEditor | None = None
        self.setObjectName("automationsWindow")
        self.setWindowTitle(self.tr("Automations — OpenWorker Qt"))
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self.close)  # as Settings and the inbox
        self.setAccessibleName(self.tr("Automations"))
        self.paused_label = QLabel(self.tr("All automations are paused: only Run now works."))
        self.paused_label.setObjectName("pausedBanner")
        design.tint(self.paused_label, "warning")
        self.heading = design.heading(self.tr("Automations"))
        self.runs_heading = QLabel(self.tr("Run history"))
        self.runs_heading.setFont(design.font("small", self.font()))
        design.tint(self.runs_heading, "muted")
        self.list = QTreeWidget()
        self.list.setObjectName("automationList")
        self.list.setAccessibleName(self.tr("Automations"))
        self.list.setHeaderLabels([self.tr("Name"), self.tr("Schedule"), self.tr("Next run"),
                                   self.tr("Last run")])
        self.list.setRootIsDecorated(False)
        # The name keeps the width of the longest name (up to half the list) and the
        # schedule, which has a tooltip with it whole, is what gives way.
        self.list.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.list.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.list.header().setStretchLastSection(False)
        for col in (2, 3):
            self.list.header().setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        # An empty list says what goes in it (over the list, like the sidebar's "no match").
        self.empty = QLabel(self.tr("No automations yet. New… makes one: instructions that "
                                    "run on a schedule, each run in a session of its own."),
                            self.list.viewport())
        self.empty.setObjectName("automationsEmpty")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setMargin(design.SPACE["xl"])
        design.tint(self.empty, "muted")
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.runs = QTreeWidget()
        self.runs.setObjectName("runHistory")
        self.runs.setAccessibleName(self.tr("Run history"))
        self.runs.setAccessibleDescription(self.tr("Press Enter to open the run's session"))
        self.runs.setHeaderLabels([self.tr("Started"), self.tr("Why"), self.tr("Status"),
                                   self.tr("Deliverables")])
        self.runs.setRootIsDecorated(False)
        self.runs.header().setStretchLastSection(True)
        buttons = QHBoxLayout()
        buttons.setSpacing(design.GAP["row"])
        self.new_button = QPushButton(self.tr("&New…"))
        self.edit_button = QPushButton(self.tr("&Edit…"))
        self.run_button = QPushButton(self.tr("&Run now"))
        self.pause_button = QPushButton(self.tr("&Pause"))
        self.delete_button = QPushButton(self.tr("&Delete"))
        for button in (self.new_button, self.edit_button, self.run_button, self.pause_button,
                       self.delete_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.list)
        history = QWidget()
        hl = QVBoxLayout(history)
        design.arrange(hl, "flush", "tight")
        hl.addWidget(self.runs_heading)
        hl.addWidget(self.runs, 1)
        # The ask a run waits on, when it is a shell command: answered here too.
        self.waiting_label = QLabel()
        self.waiting_label.setObjectName("waitingAsk")
        self.waiting_label.setWordWrap(True)
        self.always_button = QPushButton(self.tr("A&lways for this task: this exact command"))
        self.always_button.setAccessibleDescription(self.tr(
            "Let this task run the command from now on without asking"))
        waiting_row = QHBoxLayout()
        waiting_row.addWidget(self.waiting_label, 1)
        waiting_row.addWidget(self.always_button)
        hl.addLayout(waiting_row)
        self.allowed_heading = QLabel(self.tr("Allowed without asking"))
        self.allowed_heading.setFont(design.font("small", self.font()))
        design.tint(self.allowed_heading, "muted")
        self.allowed = QTreeWidget()
        self.allowed.setObjectName("allowedRules")
        self.allowed.setAccessibleName(self.tr("Allowed without asking"))
        self.allowed.setHeaderLabels([self.tr("What"), self.tr("Limit")])
        self.allowed.setRootIsDecorated(False)
        self.allowed.header().setStretchLastSection(False)
        self.allowed.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.allowed.setMaximumHeight(design.SPACE["xl"] * 8)
        self.forget_button = QPushButton(self.tr("Re&move"))
        self.forget_button.setAccessibleDescription(self.tr(
            "The task's runs will ask again before doing this"))
        allowed_row = QHBoxLayout()
        allowed_row.addWidget(self.allowed_heading, 1)
        allowed_row.addWidget(self.forget_button)
        hl.addLayout(allowed_row)
        hl.addWidget(self.allowed)
        split.addWidget(history)
        split.setChildrenCollapsible(False)
        outer = QVBoxLayout(self)
        design.arrange(outer, "page", "section")
        outer.addWidget(self.heading)
        outer.addWidget(self.paused_label)
        outer.addLayout(buttons)
        outer.addWidget(split, 1)
        self.new_button.clicked.connect(lambda: self.edit(None))
        self.edit_button.clicked.connect(lambda: self.edit(self.selected()))
        self.run_button.clicked.connect(self._run_selected)
        self.pause_button.clicked.connect(self._toggle_selected)
        self.delete_button.clicked.connect(self._delete_selected)
        self.list.itemSelectionChanged.connect(self._show_runs)
        self.list.itemActivated.connect(lambda *_: self.edit(self.selected()))
        self.runs.itemActivated.connect(self._open_run)
        self.always_button.clicked.connect(self._always_command)
        self.forget_button.clicked.connect(self._forget_selected_rule)
        self.allowed.itemSelectionChanged.connect(self._update_buttons)
        self._ask: InboxItem | None = None
        QShortcut(QKeySequence(QKeySequence.StandardKey.Close), self, self.close)
        self.timer = QTimer(self)  # next runs and statuses move on their own
        self.timer.setInterval(30_000)
        self.timer.timeout.connect(self.refresh)
        open_fitted(self, (900, 560))
        self.refresh()

    # --------------------------------------------------------------- reading

    def selected(self) -> Automation | None:
        items = self.list.selectedItems()
        return self.store.get(items[0].data(0, ID_ROLE)) if items else None

    def refresh(self) -> None:
        """Read the automations again (a run ended, another process changed one)."""
        keep = self.selected()
        self.paused_label.setVisible(self.store.paused)
        failed = {r.automation_id for r in self.store.runs(limit=500)
                  if r.status == "failed" and not r.seen}
        self.list.clear()
        for auto in self.store.all():
            nxt = local_time(auto.next_run) if auto.enabled else self.tr("paused")
            last = _status_text(self, auto.last_status)
            if auto.id in failed:
                last = self.tr("{status} — not seen yet").format(status=last)
            if auto.last_error:  # its due run could not be started (tried again later)
                last = self.tr("{status} — could not start a run").format(status=last)
            item = QTreeWidgetItem([auto.name, schedule_words(auto.schedule), nxt, last])
            item.setData(0, ID_ROLE, auto.id)
            item.setToolTip(1, schedule_words(auto.schedule))
            if auto.last_error:
                item.setToolTip(3, auto.last_error)
            if auto.id in failed:
                item.setData(3, Qt.ItemDataRole.AccessibleTextRole,
                             self.tr("last run failed, not seen yet"))
            self.list.addTopLevelItem(item)
            if keep is not None and keep.id == auto.id:
                item.setSelected(True)
        self.empty.setVisible(self.list.topLevelItemCount() == 0)
        self.empty.resize(self.list.viewport().size())
        self._fit_names()
        self._update_buttons()
        self._show_runs()

    def _fit_names(self) -> None:
        """Size the name column to its longest name, at most half the list's width."""
        metrics = self.list.fontMetrics()
        items = (self.list.topLevelItem(i) for i in range(self.list.topLevelItemCount()))
        names = [item.text(0) for item in items if item is not None]
        widest = max([metrics.horizontalAdvance(n) for n in names]
                     + [metrics.horizontalAdvance(self.tr("Name"))])
        room = max(self.list.viewport().width() // 2, metrics.horizontalAdvance("M" * 12))
        self.list.header().resizeSection(0, min(widest + design.SPACE["xl"], room))

    def _show_runs(self) -> None:
        self.runs.clear()
        self.allowed.clear()
        self._ask = None
        auto = self.selected()
        self._show_ask(auto)
        if auto is None:
            self._update_buttons()
            return
        runs = self.store.runs(auto.id)
        for run in runs:
            self.runs.addTopLevelItem(self._run_item(run))
        for rule in self.store.allowed(auto.id):
            self.allowed.addTopLevelItem(self._rule_item(rule))
        self._show_ask(auto, runs)
        self._update_buttons()
        if any(not r.seen and r.status == "failed" for r in self.store.runs(auto.id, limit=5)):
            self.store.mark_seen(auto.id)
            self.failures_seen.emit()

    def _run_item(self, run: Run) -> QTreeWidgetItem:
        why = {"schedule": self.tr("on schedule"), "catch_up": self.tr("catch-up"),
               "manual": self.tr("run now"), "wake": self.tr("woken")}.get(run.trigger, run.trigger)
        status = _status_text(self, run.status)
        if run.note:
            status = f"{status} ({run.note})"
        files = ", ".join(run.deliverables) or "—"
        item = QTreeWidgetItem([local_time(run.started_at), why, status, files])
        item.setData(0, ID_ROLE, run.session_id or "")
        return item

    def _rule_item(self, rule: StandingRule) -> QTreeWidgetItem:
        if rule.tool == "run_shell":
            what = self.tr("Run the command `{command}`").format(command=rule.target)
        else:
            what = self.tr("{tool} on {target}").format(tool=rule.tool, target=rule.target)
        limits = []
        if rule.uses_left is not None:
            limits.append(self.tr("1 use left") if rule.uses_left == 1
                          else self.tr("{n} uses left").format(n=rule.uses_left))
        if rule.expires_at is not None:
            limits.append(self.tr("until {when}").format(when=local_time(rule.expires_at)))
        item = QTreeWidgetItem([what, ", ".join(limits) or self.tr("always")])
        item.setData(0, ID_ROLE, rule.id)
        return item

    def _show_ask(self, auto: Automation | None, runs: list[Run] | None = None) -> None:
        """The shell command a waiting run of ``auto`` asks about, with the answer
        "always for this task" (needs the inbox)."""
        ask = None
        if auto is not None and runs and self.inbox is not None:
            for run in runs:
                if run.status == "waiting" and run.session_id:
                    ask = next((i for i in self.inbox.pending(run.session_id)
                                if task_command(i)), None)
                    if ask is not None:
                        break
        self._ask = ask
        if ask is not None:
            self.waiting_label.setText(self.tr(
                "Waiting for your answer on #{n}: run `{command}`").format(
                    n=ask.id, command=task_command(ask)))
        self.waiting_label.setVisible(ask is not None)
        self.always_button.setVisible(ask is not None)

    def _update_buttons(self) -> None:
        self.forget_button.setEnabled(bool(self.allowed.selectedItems()))
        auto = self.selected()
        for button in (self.edit_button, self.run_button, self.pause_button, self.delete_button):
            button.setEnabled(auto is not None)
        self.pause_button.setText(self.tr("&Resume") if auto is not None and not auto.enabled
                                  else self.tr("&Pause"))

    # --------------------------------------------------------------- actions

    def edit(self, automation: Automation | None) -> AutomationEditor:
        editor = AutomationEditor(self.store, automation, workspace=self.workspace, parent=self,
                                  clock=self.clock)
        editor.accepted.connect(self.refresh)
        self.editor = editor
        editor.open()
        return editor

    def _run_selected(self) -> None:
        auto = self.selected()
        if auto is not None:
            self.run_now(auto.id)
            QTimer.singleShot(200, self.refresh)

    def _toggle_selected(self) -> None:
        auto = self.selected()
        if auto is not None:
            self.store.update(auto.id, enabled=not auto.enabled)
            self.refresh()

    def _delete_selected(self, *, confirm: bool = True) -> None:
        auto = self.selected()
        if auto is None:
            return
        if confirm:
            answer = QMessageBox.question(
                self, self.tr("Delete automation"),
                self.tr("Delete “{name}”? Its past runs stay in your sessions.").format(
                    name=auto.name))
            if answer != QMessageBox.StandardButton.Yes:
                return
        self.store.delete(auto.id)
        self.refresh()

    def _always_command(self) -> None:
        """Answer the waiting shell ask "always for this task: this exact command"."""
        ask = self._ask
        if ask is None or self.inbox is None:
            return
        self.inbox.resolve(ask.id, "always_command", by="automations")
        self.refresh()

    def _forget_selected_rule(self) -> None:
        auto = self.selected()
        items = self.allowed.selectedItems()
        if auto is None or not items:
            return
        try:
            self.store.forget_rule(auto.id, int(items[0].data(0, ID_ROLE)))
        except AutomationError:
            pass  # removed meanwhile (the CLI, another window): the list catches up
        self.refresh()

    def _open_run(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        session_id = item.data(0, ID_ROLE)
        if session_id:
            self.open_session_requested.emit(str(session_id))

    def showEvent(self, event: Any) -> None:
        self.refresh()
        self.timer.start()
        super().showEvent(event)

    def hideEvent(self, event: Any) -> None:
        self.timer.stop()
        super().hideEvent(event)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self.empty.resize(self.list.viewport().size())
        self._fit_names()


def _status_text(widget: QWidget, status: str | None) -> str:
    # One context (not the widget's class) for lupdate and at run time alike.
    words = {
        None: QCoreApplication.translate("AutomationsWindow", "never ran"),
        "running": QCoreApplication.translate("AutomationsWindow", "running"),
        "waiting": QCoreApplication.translate("AutomationsWindow", "waiting for you"),
        "completed": QCoreApplication.translate("AutomationsWindow", "completed"),
        "failed": QCoreApplication.translate("AutomationsWindow", "failed"),
        "skipped": QCoreApplication.translate("AutomationsWindow", "skipped"),
    }
    return words.get(status, status or "")
