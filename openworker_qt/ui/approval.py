"""Approval surfaces: the inline card in the transcript and the native dialog.

Both show the same :class:`ApprovalPanel` — tool, risk, target, reason,
arguments (a unified diff for file writes) — and answer through the same
callback, so whichever the user uses first wins (the
:class:`~openworker_qt.qt.approver.QtApprover` ignores later answers and tells
every surface to close).

Keyboard: in the dialog Ctrl+Enter approves once, Ctrl+Shift+Enter "always",
Esc denies; the buttons carry mnemonics (Alt+A, Alt+L, Alt+D).
Question asks (``ask_user``, plans, folders) get a :class:`QuestionCard`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QShortcut,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.core.approvals import (
    ApprovalOutcome,
    ApprovalRequest,
    QuestionRequest,
    parse_tool_key,
)
from openworker_qt.domain.choices import group_from, spec_from
from openworker_qt.qt.wording import (
    approval_question,
    arguments_text,
    reason_text,
    risk_line,
    risk_sentence,
)
from openworker_qt.tools.edits import edit_preview
from openworker_qt.ui import design
from openworker_qt.ui.icons import icon
from openworker_qt.ui.window_state import keep_on_screen

MAX_PREVIEW = 20_000

def write_preview(arguments: Mapping[str, Any], workspace: Path | None) -> str | None:
    """A unified diff for ``write_file``-like calls (blocking: run it in a worker)."""
    path = arguments.get("path")
    content = arguments.get("content")
    if not isinstance(path, str) or not isinstance(content, str):
        return None
    target = Path(path).expanduser()
    if not target.is_absolute() and workspace is not None:
        target = workspace / target
    try:
        old = target.read_text(encoding="utf-8") if target.is_file() else ""
    except (OSError, UnicodeDecodeError):
        old = ""
    diff = difflib.unified_diff(
        old.splitlines(keepends=True),
        content.splitlines(keepends=True),
        fromfile=f"a/{path}" if old else "/dev/null",
        tofile=f"b/{path}",
    )
    text = "".join(diff)
    if not text:  # the file already holds exactly this: show it, every line unchanged
        lines = content.splitlines(keepends=True) or ["\n"]
        text = (f"--- a/{path}\n+++ b/{path}\n@@ -1,{len(lines)} +1,{len(lines)} @@\n"
                + "".join(" " + (line if line.endswith("\n") else line + "\n") for line in lines))
    return text[:MAX_PREVIEW] + ("\n…" if len(text) > MAX_PREVIEW else "")


PREVIEWED_TOOLS = ("write_file", "replace_in_file", "apply_patch", "git_commit")


def approval_preview(tool: str, arguments: Mapping[str, Any], workspace: Path | None) -> str | None:
    """The diff an approval of a file-changing call shows (blocking: run it in a worker)."""
    if tool == "write_file":
        return write_preview(arguments, workspace)
    if tool in ("replace_in_file", "apply_patch") and workspace is not None:
        return edit_preview(tool, dict(arguments), workspace)
    if tool == "git_commit" and workspace is not None:
        from openworker_qt.tools.git import commit_preview

        return commit_preview(dict(arguments), workspace)
    return None


def creates_file(preview: str | None) -> bool:
    """Whether an approval's diff creates its file (there is none yet)."""
    return bool(preview) and str(preview).startswith("--- /dev/null")


def is_unified_diff(text: str) -> bool:
    return text.startswith(("--- ", "diff ")) or "\n@@ " in text or text.startswith("@@ ")


class DiffView(QPlainTextEdit):
    """A read-only unified diff: old and new line numbers in a gutter, added
    lines on green, removed on red (the design system's diff colours, from the
    current palette). Anything that is not a diff is shown as it is."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setFont(design.font("mono"))
        self.show_text(text)

    def show_text(self, text: str) -> None:
        """Show ``text``: numbered and coloured when it is a unified diff."""
        self._kinds: list[str] = []
        self.diff = is_unified_diff(text)
        self.setPlainText(self._numbered(text) if self.diff else text)
        self._paint_lines()

    def _numbered(self, text: str) -> str:
        old = new = 0
        out: list[str] = []
        for line in text.splitlines():
            kind = "context"
            if line.startswith("@@"):
                kind = "hunk"
                try:
                    a, b = line.split("@@")[1].split()[:2]
                    old = int(a[1:].split(",")[0])
                    new = int(b[1:].split(",")[0])
                except (IndexError, ValueError):
                    pass
                out.append(f"{'':>4} {'':>4}  {line}")
            elif line.startswith(("+++", "---", "diff ", "index ")):
                kind = "file"
                out.append(f"{'':>4} {'':>4}  {line}")
            elif line.startswith("+"):
                kind = "add"
                out.append(f"{'':>4} {new:>4}  {line}")
                new += 1
            elif line.startswith("-"):
                kind = "del"
                out.append(f"{old:>4} {'':>4}  {line}")
                old += 1
            else:
                out.append(f"{old:>4} {new:>4}  {line}")
                old += 1
                new += 1
            self._kinds.append(kind)
        return "\n".join(out)

    def _paint_lines(self) -> None:
        if not self.diff:
            self.setExtraSelections([])
            return
        c = design.colors(self.palette())
        fills = {"add": (c.diff_add, c.diff_add_text), "del": (c.diff_del, c.diff_del_text),
                 "hunk": (c.sunken, c.muted), "file": (c.sunken, c.muted)}
        selections = []
        block = self.document().begin()
        for kind in self._kinds:
            if not block.isValid():
                break
            if kind in fills:
                sel = QTextEdit.ExtraSelection()
                bg, fg = fills[kind]
                sel.format.setBackground(QColor(bg))
                sel.format.setForeground(QColor(fg))
                sel.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
                sel.cursor = QTextCursor(block)  # no selection: the whole line's width
                selections.append(sel)
            block = block.next()
        self.setExtraSelections(selections)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._paint_lines()


class ApprovalPanel(QWidget):
    """The body shared by the card and the dialog: a plain question ("Write
    brief.md in ACME/?"), the risk in one sentence, what it changes (a coloured
    diff with line numbers, or the exact arguments) and the answers in the
    platform's button order (``QDialogButtonBox``); "Always for …" only where a
    standing rule can bind (``request.can_always``).

    Signals:
        answered(str): an :class:`ApprovalOutcome` value.
    """

    answered = Signal(str)

    def __init__(
        self,
        request: ApprovalRequest,
        *,
        preview: str | None = None,
        compact: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.request = request
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(design.SPACE["s"])
        head = QHBoxLayout()
        head.setSpacing(design.SPACE["s"])
        badge = QLabel()
        badge.setPixmap(icon("approval", "warning").pixmap(QSize(20, 20), self.devicePixelRatioF()))
        badge.setAccessibleName(self.tr("Approval needed"))
        head.addWidget(badge, 0, Qt.AlignmentFlag.AlignTop)
        new_file = creates_file(preview)
        question = approval_question(request.tool, dict(request.arguments), request.target,
                                     new_file=new_file)
        self.title = QLabel(question)
        self.title.setObjectName("approvalQuestion")
        self.title.setFont(design.font("heading", self.font()))
        self.title.setWordWrap(True)
        head.addWidget(self.title, 1)
        lay.addLayout(head)
        meta = QLabel(risk_line(request.tool, request.arguments, request.risk.value,
                                new_file=new_file), self)
        meta.setObjectName("approvalRisk")
        meta.setWordWrap(True)
        # (Parented at once: a parentless label made visible would flash up as a window
        # of its own, and take the activation from the main window, until laid out.)
        where = QLabel(self.tr("Target: {target}").format(target=request.target) if request.target else "", self)
        where.setObjectName("approvalTarget")
        where.setWordWrap(True)
        why = reason_text(request.tool, request.reason)
        # "Target:" and "It writes …" say one thing once: the target only when neither
        # the question nor the reason already names it.
        where.setVisible(bool(request.target) and (request.target or "") not in question
                         and (request.target or "") not in why)
        reason = QLabel(why, self)
        reason.setWordWrap(True)
        reason.setVisible(bool(why))
        # What an MCP server says its tool does (what the model read): a poisoned
        # description ("ignore your instructions…") is seen before the call runs.
        self.about = QLabel(about_text(request.about), self)
        self.about.setObjectName("approvalAbout")
        self.about.setWordWrap(True)
        self.about.setToolTip(request.about[:4000])
        self.about.setVisible(bool(request.about))
        self.about.setAccessibleName(self.tr("What the server says this tool does"))
        for w in (meta, where, reason, self.about):
            design.tint(w, "muted")
        for w in (self.title, meta, where, reason, self.about):
            w.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        for w in (meta, where, reason, self.about):
            lay.addWidget(w)
        text = preview or arguments_text(request.arguments)
        self.details = DiffView(text)
        self.details.setAccessibleName(self.tr("Diff preview") if preview else self.tr("Arguments"))
        self.details.setAccessibleDescription(self.tr("What this call would do, exactly"))
        lines = text.count("\n") + 1
        fm = self.details.fontMetrics()
        cap = 8 if compact else 18
        self.details.setFixedHeight(min(lines, cap) * fm.lineSpacing() + 14)
        lay.addWidget(self.details)
        self.buttons = QDialogButtonBox()
        self.once = QPushButton(self.tr("&Approve once"))
        self.once.setAccessibleName(self.tr("Approve once"))
        self.once.setAccessibleDescription(self.tr("Run this call now, ask again next time"))
        bound = request.standing_target or request.target or ""
        whole_tool = parse_tool_key(bound)
        self.always = QPushButton(
            self.tr("A&lways for this tool of this server") if whole_tool
            else self.tr("A&lways for {target}").format(target=_short(bound)) if bound
            else self.tr("A&lways allow"), self)
        self.always.setAccessibleName(self.tr("Always allow"))
        self.always.setAccessibleDescription(
            self.tr("Allow every call of {tool} from the MCP server {server} in this session")
            .format(tool=whole_tool[1], server=whole_tool[0]) if whole_tool
            else self.tr("Allow {tool} for this exact target from now on").format(tool=request.tool)
        )
        self.always.setVisible(request.can_always)
        # A scheduled task's shell command: "always" is for this task, this exact command.
        self.always_command = QPushButton(
            self.tr("A&lways for this task: this exact command"), self)
        self.always_command.setAccessibleName(self.tr("Always for this task"))
        self.always_command.setAccessibleDescription(self.tr(
            "Let this scheduled task run this exact command from now on without asking"))
        self.always_command.setVisible(bool(request.always_command))
        self.deny = QPushButton(self.tr("&Deny"))
        self.deny.setAccessibleName(self.tr("Deny"))
        self.deny.setAccessibleDescription(self.tr("Do not run this call"))
        self.buttons.addButton(self.once, QDialogButtonBox.ButtonRole.AcceptRole)
        if request.can_always:
            self.buttons.addButton(self.always, QDialogButtonBox.ButtonRole.ActionRole)
        if request.always_command:
            self.buttons.addButton(self.always_command, QDialogButtonBox.ButtonRole.ActionRole)
        # a command prefix or a folder's writes, when the engine offers a bound it keeps
        from openworker_qt.ui.approval_always import scope_button  # (with the first card)

        self.always_scope = scope_button(request, self)
        if self.always_scope is not None:
            self.buttons.addButton(self.always_scope, QDialogButtonBox.ButtonRole.ActionRole)
            self.always_scope.clicked.connect(
                lambda: self.answered.emit(str(self.always_scope.property("outcome"))))
        self.buttons.addButton(self.deny, QDialogButtonBox.ButtonRole.RejectRole)
        lay.addWidget(self.buttons)
        self.once.clicked.connect(lambda: self.answered.emit(ApprovalOutcome.ONCE.value))
        self.always.clicked.connect(lambda: self.answered.emit(ApprovalOutcome.ALWAYS.value))
        self.always_command.clicked.connect(
            lambda: self.answered.emit(ApprovalOutcome.ALWAYS_COMMAND.value))
        self.deny.clicked.connect(lambda: self.answered.emit(ApprovalOutcome.DENY.value))
        self.setAccessibleName(self.tr("Approval request: {question}").format(question=question))
        self.setAccessibleDescription(why or risk_sentence(request.risk.value))


ABOUT_SHOWN = 600
_SERVER_TAG = re.compile(r"^\[MCP server ([^\]]+)\]\s*")


def about_text(about: str, limit: int = ABOUT_SHOWN) -> str:
    """"The MCP server X says this tool does: …", cut at ``limit`` characters."""
    if not about:
        return ""
    tag = _SERVER_TAG.match(about)
    text = " ".join(about[tag.end():].split()) if tag else " ".join(about.split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    if tag:
        return QCoreApplication.translate("ApprovalPanel", "The MCP server {server} says this tool "
                                          "does: {text}").format(server=tag.group(1), text=text)
    return QCoreApplication.translate("ApprovalPanel", "Its server says this tool does: {text}").format(
        text=text)


def _short(target: str, limit: int = 32) -> str:
    text = target.split(":", 1)[-1] if target.startswith(("slack:", "mcp:")) else target
    return text if len(text) <= limit else text[: limit - 1] + "…"


class CardFrame(QFrame):
    """The bordered panel of an inline card, painted from the *current* palette
    (base fill, ``mid`` border) so it follows a light/dark switch and stays
    visible in the dark scheme, where Fusion's own panel outline (a darker shade
    of the window colour) disappears."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        c = design.colors(self.palette())
        painter.setPen(QColor(c.warning if self.property("attention") else c.border))
        painter.setBrush(QColor(c.raised))
        radius = design.RADIUS["medium"]
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
        painter.end()


def card_frame() -> QFrame:
    return CardFrame()


class ApprovalCard(QWidget):
    """The inline card placed on the tool row of a pending approval."""

    answered = Signal(str)

    def __init__(self, request: ApprovalRequest, preview: str | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("approvalCard")
        outer = QVBoxLayout(self)
        pad = design.SPACE["m"]
        outer.setContentsMargins(pad, 0, pad, pad)  # the transcript's row padding
        frame = card_frame()
        frame.setProperty("attention", True)
        outer.addWidget(frame)
        lay = QVBoxLayout(frame)
        lay.setContentsMargins(design.SPACE["l"], design.SPACE["m"], design.SPACE["l"], design.SPACE["m"])
        self.panel = ApprovalPanel(request, preview=preview, compact=True, parent=frame)
        lay.addWidget(self.panel)
        self.panel.answered.connect(self.answered)
        self.setAccessibleName(self.panel.accessibleName())
        self.setAccessibleDescription(self.panel.accessibleDescription())
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setFocusProxy(self.panel.once)

    def heightForWidth(self, width: int) -> int:
        lay = self.layout()
        h = lay.heightForWidth(width) if lay is not None and lay.hasHeightForWidth() else -1
        return max(h, self.sizeHint().height())


class ApprovalDialog(QDialog):
    """A raised, non-modal native dialog for one approval."""

    answered = Signal(str)

    def __init__(self, request: ApprovalRequest, preview: str | None = None,
                 session_title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        keep_on_screen(self)  # its parent may be parked off-screen or hidden in the tray
        self.setModal(False)
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.setWindowTitle(approval_question(request.tool, dict(request.arguments), request.target))
        self.setAccessibleName(self.tr("Approval dialog"))
        self.setAccessibleDescription(
            self.tr("{tool} wants to run in {session}").format(
                tool=request.tool, session=session_title or request.session_id)
        )
        lay = QVBoxLayout(self)
        if session_title:
            where = QLabel(self.tr("From “{title}”").format(title=session_title))
            where.setAccessibleName(self.tr("Session"))
            design.tint(where, "muted")
            lay.addWidget(where)
        self.panel = ApprovalPanel(request, preview=preview, parent=self)
        lay.addWidget(self.panel)
        self.panel.once.setDefault(True)
        self._answered = False
        self.panel.answered.connect(self._on_panel_answered)
        QShortcut(QKeySequence("Ctrl+Return"), self, self.panel.once.click)
        if request.can_always:
            QShortcut(QKeySequence("Ctrl+Shift+Return"), self, self.panel.always.click)
        self.resize(640, self.sizeHint().height())

    def _on_panel_answered(self, value: str) -> None:
        self._answered = True
        self.answered.emit(value)
        self.close()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Esc is an explicit answer: deny."""
        if event.key() == Qt.Key.Key_Escape and not self._answered:
            self._answered = True
            self.answered.emit(ApprovalOutcome.DENY.value)
            self.close()
            return
        super().keyPressEvent(event)

    def reject(self) -> None:
        """Closing the window is not an answer: the ask stays pending in the inbox
        (and survives quitting the app) until someone answers it."""
        self._answered = True
        super().reject()

    def dismiss(self) -> None:
        """Answered elsewhere: close without answering."""
        self._answered = True
        self.close()


class QuestionCard(QWidget):
    """Inline answer box for ``ask_user`` / plan / folder requests.

    Signals:
        answered(str): the user's answer.
    """

    answered = Signal(str)

    def __init__(self, request: QuestionRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(design.SPACE["m"], design.SPACE["xxs"], design.SPACE["m"], design.SPACE["s"])
        frame = card_frame()
        outer.addWidget(frame)
        lay = QVBoxLayout(frame)
        design.arrange(lay, "box", "row")
        group = group_from(request.extra) if request.kind == "question" else None
        heading = {
            "plan": self.tr("<b>Plan for your approval</b>"),
            "directory": self.tr("<b>Folder access requested</b>"),
        }.get(request.kind, self.tr("<b>Questions</b>") if group else self.tr("<b>Question</b>"))
        lay.addWidget(QLabel(heading))
        prompt = QLabel(request.prompt)
        prompt.setWordWrap(True)
        prompt.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(prompt)
        if group is not None:  # several questions, one card
            from openworker_qt.ui.choices import GroupPicker  # (with the first such question)

            self.group_picker = GroupPicker(group)
            self.group_picker.answered.connect(self.answered)
            lay.addWidget(self.group_picker)
            self.setAccessibleName(self.tr("Questions from the assistant"))
            self.setAccessibleDescription(request.prompt)
            self.setFocusProxy(self.group_picker.parts[0])
            return
        spec = spec_from(request.extra) if request.kind == "question" else None
        if spec is not None:  # a question with choices: its own picker
            from openworker_qt.ui.choices import ChoicePicker  # (with the first such question)

            self.picker = ChoicePicker(spec)
            self.picker.answered.connect(self.answered)
            lay.addWidget(self.picker)
            self.setAccessibleName(self.tr("Question from the assistant"))
            self.setAccessibleDescription(request.prompt)
            self.setFocusProxy(self.picker.buttons[0])
            return
        options = list(request.options)
        if request.kind in ("plan", "directory") and not options:
            options = ["approve", "deny"]
        row = QHBoxLayout()
        for opt in options:
            b = QPushButton(opt)
            b.setAccessibleName(self.tr("Answer: {option}").format(option=opt))
            b.clicked.connect(lambda _=False, o=opt: self.answered.emit(o))
            row.addWidget(b)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText(self.tr("Type an answer and press Enter"))
        self.edit.setAccessibleName(self.tr("Your answer"))
        self.edit.returnPressed.connect(self._submit)
        row.addWidget(self.edit, 1)
        lay.addLayout(row)
        self.setAccessibleName(self.tr("Question from the assistant"))
        self.setAccessibleDescription(request.prompt)
        self.setFocusProxy(self.edit)

    def _submit(self) -> None:
        if self.edit.text().strip():
            self.answered.emit(self.edit.text().strip())

    def heightForWidth(self, width: int) -> int:
        return self.sizeHint().height()


AnswerFn = Callable[[str], None]
