"""The approval card's wider "always" button: "Always allow `pytest` commands" for a
shell command, "Always allow changes in outputs" for a file write.

It shows only when the permission engine offered a bound it can keep
(``ApprovalRequest.always_scope``: a command prefix whose rest it checks on every
call, or the one folder a write goes to, inside the writable roots), and only the
user's click answers with it (``always_prefix`` / ``always_folder``); the engine
works the bound out again from the call when the answer arrives.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QPushButton, QWidget

from openworker_qt.core.approvals import ApprovalOutcome, ApprovalRequest
from openworker_qt.core.risk import RiskClass

SHOWN = 28  # characters of a prefix or folder name on the button


def _t(text: str) -> str:
    return QCoreApplication.translate("ApprovalAlways", text)


def _short(text: str) -> str:
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def wider_outcome(request: ApprovalRequest) -> ApprovalOutcome | None:
    """The answer the button gives, or None when the card offers none."""
    words = scope_words(request.risk.value, request.always_scope)
    return ApprovalOutcome(words[2]) if words is not None else None


def scope_words(risk: str, scope: str | None) -> tuple[str, str, str] | None:
    """(button text, description, answer) for the bound ``scope`` of a call of
    ``risk`` ("exec", "write_local"), or None when there is none to offer."""
    if not scope:
        return None
    if risk == RiskClass.EXEC.value:
        return (_t("A&lways allow “{prefix}” commands").format(prefix=_short(scope)),
                _t("For the rest of this session, run commands starting with “{prefix}” "
                   "without asking, as long as the rest of each command only reads inside "
                   "your folders").format(prefix=scope),
                ApprovalOutcome.ALWAYS_PREFIX.value)
    if risk == RiskClass.WRITE_LOCAL.value:
        name = Path(scope).name or scope
        return (_t("A&lways allow changes in {folder}").format(folder=_short(name)),
                _t("For the rest of this session, change files in {folder} without asking"
                   ).format(folder=scope),
                ApprovalOutcome.ALWAYS_FOLDER.value)
    return None


def scope_button(request: ApprovalRequest, parent: QWidget) -> QPushButton | None:
    """The button for ``request``'s offered bound, or None."""
    words = scope_words(request.risk.value, request.always_scope)
    if words is None:
        return None
    text, description, outcome = words
    button = QPushButton(text, parent)
    button.setObjectName("alwaysScope")
    button.setAccessibleName(_t("Always allow"))
    button.setAccessibleDescription(description)
    button.setToolTip(description)
    button.setProperty("outcome", outcome)
    return button
