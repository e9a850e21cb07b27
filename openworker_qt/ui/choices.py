"""The options of a question with choices, on its card (``ask_user``'s ``options``).

One radio button (single choice) or check box (several) an option, its short
description under it (and its preview, a snippet or diff in a fixed-width font), then — unless the question is closed — "Other" with a line
for the user's own words, and an Answer button. Keyboard: the options are in the
tab order, Space picks, Enter in the "Other" line answers.
What it emits is the stored form of ``domain/choices.py`` (the chosen labels one a
line, then the own words), so every surface stores the same answer.

:class:`GroupPicker`: several questions answered in one card (``ask_user``'s
``questions``), each numbered with its own picker (or a line, for a question
answered in words), one Answer button that is enabled once every question has an
answer; it emits the group's stored form (a JSON array, one answer a question).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractButton,
    QBoxLayout,
    QButtonGroup,
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.domain.choices import ChoiceSpec, QuestionGroup, group_from
from openworker_qt.ui import design

#: A preview shows this many lines (all of it in its tooltip).
PREVIEW_LINES = 8


class ChoicePicker(QWidget):
    """See module docstring.

    Signals:
        answered(str): the stored answer (the chosen labels one a line, then own words).
        changed(): what is picked or typed changed (``answer()`` says what it is now).

    ``own_button=False``: no Answer button of its own (a :class:`GroupPicker` has one).
    """

    answered = Signal(str)
    changed = Signal()

    def __init__(self, spec: ChoiceSpec, parent: QWidget | None = None, *,
                 own_button: bool = True) -> None:
        super().__init__(parent)
        self.spec = spec
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(design.SPACE["xxs"])
        self.group = QButtonGroup(self)
        self.group.setExclusive(not spec.multiple)
        self.buttons: list[QAbstractButton] = []
        self.previews: list[QLabel] = []
        for n, choice in enumerate(spec.choices, 1):
            button = self._button(choice.label)
            self.buttons.append(button)
            self.group.addButton(button, n)
            lay.addWidget(button)
            if choice.description:
                note = design.tint(QLabel(choice.description))
                assert isinstance(note, QLabel)
                note.setWordWrap(True)
                note.setIndent(design.SPACE["l"])
                button.setAccessibleDescription(choice.description)
                lay.addWidget(note)
            if choice.preview:
                lay.addWidget(self._preview(choice.preview))
        self.other: QLineEdit | None = None
        row = QHBoxLayout()
        if spec.other:
            self.other = QLineEdit()
            self.other.setPlaceholderText(self.tr("Other: type your own answer"))
            self.other.setAccessibleName(self.tr("Your own answer"))
            self.other.returnPressed.connect(self.submit)
            self.other.textEdited.connect(self._typed)
            row.addWidget(self.other, 1)
        else:
            row.addStretch(1)
        self.submit_button = QPushButton(self.tr("Answer"), self)
        self.submit_button.setAccessibleName(self.tr("Send the answer"))
        self.submit_button.clicked.connect(self.submit)
        if own_button:
            row.addWidget(self.submit_button)
        else:
            self.submit_button.hide()
        lay.addLayout(row)
        self.group.buttonToggled.connect(self._toggled)
        self._refresh()

    def _preview(self, text: str) -> QLabel:
        lines = text.splitlines()
        shown = "\n".join(lines[:PREVIEW_LINES]) + ("\n…" if len(lines) > PREVIEW_LINES else "")
        preview = QLabel(shown)
        preview.setObjectName("choicePreview")
        preview.setTextFormat(Qt.TextFormat.PlainText)
        preview.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        preview.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        preview.setIndent(design.SPACE["l"])
        preview.setToolTip(text)
        self.previews.append(preview)
        return preview

    def _button(self, label: str) -> QAbstractButton:
        button: QAbstractButton = QCheckBox(label) if self.spec.multiple else QRadioButton(label)
        button.setAccessibleName(self.tr("Choice: {option}").format(option=label))
        return button

    def _typed(self, text: str) -> None:
        """Own words on a single choice replace the picked option."""
        if text.strip() and not self.spec.multiple and self.group.checkedButton() is not None:
            self.group.setExclusive(False)
            for b in self.buttons:
                b.setChecked(False)
            self.group.setExclusive(True)
        self._refresh()

    def _toggled(self, _button: QAbstractButton, checked: bool) -> None:
        """Picking the option of a single choice replaces the own words."""
        if checked and not self.spec.multiple and self.other is not None:
            self.other.clear()
        self._refresh()

    def _refresh(self) -> None:
        self.submit_button.setEnabled(bool(self.answer()))
        self.changed.emit()

    def chosen(self) -> list[str]:
        return [c.label for c, b in zip(self.spec.choices, self.buttons, strict=True)
                if b.isChecked()]

    def own_words(self) -> str:
        return self.other.text().strip() if self.other is not None else ""

    def answer(self) -> str:
        """The stored form of what is picked and typed ("" while nothing is)."""
        own = self.own_words()
        picked = [] if own and not self.spec.multiple else self.chosen()
        return "\n".join([*picked, *([own] if own else [])])

    def submit(self) -> None:
        if text := self.answer():
            self.answered.emit(text)


class GroupPicker(QWidget):
    """See module docstring.

    Signals:
        answered(str): the group's stored answer (a JSON array, one answer a question).
    """

    answered = Signal(str)

    def __init__(self, group: QuestionGroup, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.group = group
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(design.SPACE["s"])
        #: One a question: its picker, or the line a question in words is answered on.
        self.parts: list[ChoicePicker | QLineEdit] = []
        for n, question in enumerate(group.questions, 1):
            heading = QLabel(self.tr("{n}. {question}").format(n=n, question=question.text))
            heading.setWordWrap(True)
            heading.setFont(design.font("heading", heading.font()))
            heading.setTextFormat(Qt.TextFormat.PlainText)
            heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            lay.addWidget(heading)
            part: ChoicePicker | QLineEdit
            if question.spec is not None:
                part = ChoicePicker(question.spec, own_button=False)
                part.changed.connect(self._refresh)
            else:
                part = QLineEdit()
                part.setPlaceholderText(self.tr("Type your answer"))
                part.textEdited.connect(self._refresh)
                part.returnPressed.connect(self.submit)
            part.setAccessibleName(self.tr("Question {n}: {question}").format(
                n=n, question=question.text))
            self.parts.append(part)
            lay.addWidget(part)
        row = QHBoxLayout()
        self.missing = QLabel()
        design.tint(self.missing)
        row.addWidget(self.missing, 1)
        self.submit_button = QPushButton(self.tr("Answer"))
        self.submit_button.setAccessibleName(self.tr("Send the answers"))
        self.submit_button.clicked.connect(self.submit)
        row.addWidget(self.submit_button)
        lay.addLayout(row)
        self._refresh()

    def answers(self) -> list[str]:
        """Each question's stored answer so far ("" where there is none yet)."""
        return [p.answer() if isinstance(p, ChoicePicker) else p.text().strip()
                for p in self.parts]

    def _refresh(self) -> None:
        left = [n for n, a in enumerate(self.answers(), 1) if not a]
        self.submit_button.setEnabled(not left)
        self.missing.setText(self.tr("Still to answer: {numbers}").format(
            numbers=", ".join(str(n) for n in left)) if left else "")

    def answer(self) -> str:
        """The stored form once every question has an answer ("" until then)."""
        answers = self.answers()
        return json.dumps(answers, ensure_ascii=False) if all(answers) else ""

    def submit(self) -> None:
        if text := self.answer():
            self.answered.emit(text)


class GroupSlot:
    """Where the inbox window shows the picker of grouped questions it shows: in
    ``layout`` at ``index``, scrolled when tall."""

    def __init__(self, layout: QBoxLayout, index: int) -> None:
        self.picker: GroupPicker | None = None
        self.item_id: int | None = None
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.hide()
        layout.insertWidget(index, self.scroll, 2)

    def show(self, item: Any, answer: Callable[[Any, str], None]) -> bool:
        """Show the picker of ``item`` (an inbox item) when it asks several questions
        (True); otherwise none."""
        group = group_from(item.arguments) if item is not None and item.kind == "question" \
            else None
        if group is None:
            self._clear()
            return False
        if self.picker is not None and self.item_id == item.id:
            return True
        self._clear()
        self.picker = GroupPicker(group)
        self.picker.answered.connect(lambda text, i=item: answer(i, text))
        self.item_id = item.id
        self.scroll.setWidget(self.picker)
        self.scroll.show()
        return True

    def _clear(self) -> None:
        if self.picker is not None:
            self.scroll.takeWidget()
            self.picker.deleteLater()
        self.picker = None
        self.item_id = None
        self.scroll.hide()
