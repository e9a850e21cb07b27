"""The options of a question with choices, on its card (``ask_user``'s ``options``).

One radio button (single choice) or check box (several) an option, its short
description under it (and its preview, a snippet or diff in a fixed-width font), then — unless the question is closed — "Other" with a line
for the user's own words, and an Answer button. Keyboard: the options are in the
tab order, Space picks, Enter in the "Other" line answers.
What it emits is the stored form of ``domain/choices.py`` (the chosen labels one a
line, then the own words), so every surface stores the same answer.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractButton,
    QButtonGroup,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.domain.choices import ChoiceSpec
from openworker_qt.ui import design

#: A preview shows this many lines (all of it in its tooltip).
PREVIEW_LINES = 8


class ChoicePicker(QWidget):
    """See module docstring.

    Signals:
        answered(str): the stored answer (the chosen labels one a line, then own words).
    """

    answered = Signal(str)

    def __init__(self, spec: ChoiceSpec, parent: QWidget | None = None) -> None:
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
        self.submit_button = QPushButton(self.tr("Answer"))
        self.submit_button.setAccessibleName(self.tr("Send the answer"))
        self.submit_button.clicked.connect(self.submit)
        row.addWidget(self.submit_button)
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
