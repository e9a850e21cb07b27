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
    if not request.always_scope:
        return None
    if request.risk is RiskClass.EXEC:
        return ApprovalOutcome.ALWAYS_PREFIX
    if request.risk is RiskClass.WRITE_LOCAL:
        return ApprovalOutcome.ALWAYS_FOLDER
    return None


def scope_button(request: ApprovalRequest, parent: QWidget) -> QPushButton | None:
    """The button for ``request``'s offered bound, or None."""
    outcome = wider_outcome(request)
    scope = request.always_scope or ""
    if outcome is ApprovalOutcome.ALWAYS_PREFIX:
        button = QPushButton(_t("A&lways allow “{prefix}” commands").format(prefix=_short(scope)),
                             parent)
        button.setAccessibleDescription(_t(
            "For the rest of this session, run commands starting with “{prefix}” without "
            "asking, as long as the rest of each command only reads inside your folders"
        ).format(prefix=scope))
    elif outcome is ApprovalOutcome.ALWAYS_FOLDER:
        name = Path(scope).name or scope
        button = QPushButton(_t("A&lways allow changes in {folder}").format(folder=_short(name)),
                             parent)
        button.setAccessibleDescription(_t(
            "For the rest of this session, change files in {folder} without asking"
        ).format(folder=scope))
    else:
        return None
    button.setObjectName("alwaysScope")
    button.setAccessibleName(_t("Always allow"))
    button.setToolTip(button.accessibleDescription())
    button.setProperty("outcome", outcome.value)
    return button
